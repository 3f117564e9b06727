"""Haunt 19, Thick as Thieves (Secrets of Survival; the traitor is hidden,
rulebook: Haunts With a Hidden Traitor).

What the bot carries out:
- the Cultists placed and the traitor's death winning for the heroes (data);
- the Shrine to Bhaal, when not in play, taken from the catacomb stack and
  joined at the open catacomb door farthest from the Kitchen Basement (the
  haunt revealer picks among equally far doors), the stack shuffled;
- the Whispering Skull laid beside the board and the random discards;
- the Cultists' own turn after the haunt revealer's, and their Speed attacks
  that take a card instead of 2 or more damage;
- the Fickle Skull, the traitor revealing, and the two wins checked when
  the revealer's turn ends.

Left to the players: nothing.

Nothing here may tell the hidden traitor apart before their token is face
up: until then every adventurer counts as a hero (Ruling: messages to a
side before a hidden traitor is unmasked), the Cultists are run by the bot
for the haunt revealer, and every question goes to whoever the rule names
whatever their token."""
import heapq

from .. import board as bd
from .. import cards as cd
from .. import effects, geometry, rng, rulesets
from .. import attack as atk
from .. import haunt_play as hp
from .. import state as st
from .. import traits as tr
from ..errors import IllegalAction
from ..sides import alive

SKULL = "whispering_skull"
ELFSONG = "elfsong_tavern"
SHRINE = "shrine_to_bhaal"
KITCHEN_BASEMENT = "kitchen_basement"
CULTIST = "Cultist"


# Whether the traitor was unmasked in this round (no win then). The Skull laid
# beside the board stays in the haunt record's shared "beside_board" list,
# where the card checks look for it; no player id is kept by this module.
OWN = rulesets.Own("h19", {"revealed_this_round": False})


def mine(s: dict) -> dict:
    return rulesets.REGISTRY[19].record(s)


def beside_board(s: dict) -> list[str]:
    return s["haunt"].setdefault("beside_board", [])


def unmasked(s: dict) -> bool:
    return bool(s["haunt"].get("unmasked"))


def targets(s: dict) -> list[str]:
    """The heroes as the table sees them, alive and on the board: everyone
    until the traitor is revealed."""
    return [p for p in alive(s, st.side_members(s, "heroes")) if st.on_board(s["players"][p])]


def boss(s: dict) -> str:
    """Secrets of Survival, haunt 19, "Revealing as the Traitor": the revealed
    traitor runs the Cultists; until then the bot runs them for the haunt
    revealer (rulebook: Haunts With a Hidden Traitor)."""
    traitor = s["haunt"]["traitors"][0] if s["haunt"]["traitors"] else None
    if unmasked(s) and traitor and s["players"][traitor]["alive"]:
        return traitor
    return s["haunt"]["revealer"]


def cultists(s: dict) -> list[dict]:
    return [m for m in s["monsters"] if m["name"] == CULTIST and not m["dead"]]


def lift_skull(ctx) -> str | None:
    """Take the Whispering Skull from wherever it is (a hand, a pile, beside
    the board, a deck); returns who controlled it."""
    s = ctx.s
    holder = cd.holder_of(ctx, SKULL)
    if holder:
        cd.lose(ctx, holder, SKULL)
        return holder
    if SKULL in beside_board(s):
        beside_board(s).remove(SKULL)
    for tile, pile in list(s["piles"].items()):
        if SKULL in pile:
            pile.remove(SKULL)
            if not pile:
                del s["piles"][tile]
    for place in ("decks", "discard"):
        if SKULL in s[place]["omen"]:
            s[place]["omen"].remove(SKULL)
    return None


def take_skull(ctx, pid: str):
    """`pid` takes control of the Whispering Skull, wherever it is."""
    if cd.holder_of(ctx, SKULL) == pid:
        return
    holder = lift_skull(ctx)
    cd.gain(ctx, pid, SKULL)
    ctx.say(f"{ctx.name(pid)} takes control of the Whispering Skull" + (f" from {ctx.name(holder)}" if holder else "")
            + ".", kind="haunt", player=pid, card=SKULL)


def lay_skull_aside(ctx):
    """The Skull leaves whoever controls it and lies beside the board."""
    lift_skull(ctx)
    beside_board(ctx.s).append(SKULL)
    ctx.say("The Whispering Skull is laid beside the board: nobody controls it.", kind="haunt", card=SKULL)


def shrine_doors(ctx) -> list[tuple[str, str, int]]:
    """The open catacomb doors the Shrine to Bhaal may join that are farthest
    from the Kitchen Basement (counted in spaces to the door's tile)."""
    doors = hp.fetch_doors(ctx, SHRINE)
    if not doors or KITCHEN_BASEMENT not in ctx.s["board"]:
        return doors
    far = geometry.distances(ctx, KITCHEN_BASEMENT)
    most = max(far.get(d[0], -1) for d in doors)
    return [d for d in doors if far.get(d[0], -1) == most]


@effects.step("_h19_shrine")
def _shrine(ctx, task, item):
    """Secrets of Survival, haunt 19, "Right Now" (first point)."""
    if SHRINE in ctx.s["board"]:
        return
    doors = shrine_doors(ctx)
    if not doors:
        ctx.say("Setup: no open catacomb door can take the Shrine to Bhaal; it stays out of play.",
                kind="haunt_setup")
        return
    if len(doors) == 1:
        hp.attach_fetched(ctx, SHRINE, doors[0])
        return
    effects.ask(ctx, task["player"], "fetch_tile", "the Shrine to Bhaal joins which of the open doors farthest from "
                "the Kitchen Basement?", [f"The {ctx.tile_name(t)}'s {side} door" for t, side, _ in doors],
                tile=SHRINE, doors=[list(d) for d in doors])


def path(ctx, start: str, goal: str) -> list[str]:
    """The tiles of a shortest way from `start` to `goal` (without `start`),
    each with the spaces spent to reach it: [(tile, spaces)]."""
    best, before = {start: 0}, {}
    todo = [(0, start)]
    while todo:
        d, tid = heapq.heappop(todo)
        if tid == goal:
            break
        if d > best[tid]:
            continue
        for other, cost in geometry.moves_from(ctx, tid):
            if d + cost < best.get(other, 99):
                best[other], before[other] = d + cost, tid
                heapq.heappush(todo, (d + cost, other))
    if goal not in best:
        return []
    way, tid = [], goal
    while tid != start:
        way.append((tid, best[tid]))
        tid = before[tid]
    return way[::-1]


@rulesets.register(19)
class ThickAsThieves(rulesets.RuleSet):
    title = "Thick as Thieves"
    own = OWN

    # --- Right Now ------------------------------------------------------------------------

    def setup_step(self, ctx, step):
        """Secrets of Survival, haunt 19, "Right Now": the Shrine to Bhaal
        brought into play (first point); the revealer gives up the
        Whispering Skull; every other player discards a random stealable item
        or omen (the bot picks at random, in the open)."""
        if step.get("do") == "manual" and "Shrine to Bhaal" in step.get("text", "") and step.get("card") is None:
            if SHRINE not in ctx.s["board"]:
                effects.queue(ctx, hp.chooser(ctx.s, "heroes"), [{"do": "_h19_shrine"}], source="haunt")
            return True
        if step.get("card") != SKULL:
            return None
        s = ctx.s
        lay_skull_aside(ctx)
        for pid in alive(s, s["seats"]):
            if pid == s["haunt"]["revealer"]:
                continue
            cards = [c for c in s["players"][pid]["cards"]
                     if ctx.c.cards[c].deck in ("item", "omen") and ctx.c.cards[c].can_steal]
            if not cards:
                ctx.say(f"{ctx.name(pid)} has no item or omen that can be stolen, so discards nothing.", kind="haunt")
                continue
            card = cards[rng.below(s, len(cards))]
            ctx.say(f"{ctx.name(pid)} discards {ctx.card_name(card)}, drawn at random.", kind="haunt", player=pid)
            cd.discard(ctx, card, quiet=True)
        return True

    # --- the Cultists ----------------------------------------------------------------------

    def leave_cost(self, ctx, pid):
        """Secrets of Survival, haunt 19, "Special Cultist Rules": Cultists do
        not slow adventurers (they take back what Moving Past Opponents adds)."""
        s = ctx.s
        if st.known_traitor(s, pid):
            return None  # monsters never slowed a known traitor
        n = sum(1 for m in cultists(s) if not m["stunned"] and st.beside(s, pid, m))
        return -n if n else None

    def monster_turn(self, ctx, number):
        """Secrets of Survival, haunt 19, "At the End of the Haunt Revealer's
        Turn": the Cultists roll Speed once, each goes toward the closest
        hero and attacks with Speed if it can."""
        s = ctx.s
        if not alive(s, s["seats"]):  # every adventurer dead: no Cultists' turn comes round again and again
            hp.check_wins(ctx)
            if s["phase"] == "haunt":
                hp.finish(ctx, None, "Nobody is left to take a turn.", condition="nobody left")
            return True
        runner = boss(s)
        turn = st.new_turn(runner, number)
        turn.update({"monsters": True, "moves": {}, "acted": [], "attacked": []})
        s["turn"] = turn
        ctx.say(f"Turn {number}: the Cultists' turn (run for {ctx.name(runner)}).", kind="turn", player=runner)
        turn["stunned_at_start"] = [m["id"] for m in s["monsters"] if m["stunned"]]
        active = [m for m in cultists(s) if not m["stunned"]]
        if active:
            speed = active[0]["traits"]["speed"]
            turn["moves"][CULTIST] = max(1, effects.make_roll(ctx, runner, rng.dice_count(speed),
                                                              "Speed for the Cultists"))
        steps = [{"do": "_h19_cultist", "monster": m["id"]} for m in active]
        effects.queue(ctx, runner, steps + [{"do": "_h19_cultists_done"}], source="haunt")
        return True

    # --- the Fickle Skull --------------------------------------------------------------------

    def card_gaining(self, ctx, pid, card):
        """Secrets of Survival, haunt 19, "The Fickle Skull": before gaining an
        item or omen, roll 4 dice (city) or 5 (catacomb); on 5+ take the
        Whispering Skull instead."""
        s = ctx.s
        if card == SKULL or not s["haunt"].get("started") or not st.on_board(s["players"][pid]):
            return None
        level = ctx.c.tiles[s["players"][pid]["tile"]].level
        total = effects.make_roll(ctx, pid, 5 if level == "catacomb" else 4, "for the Fickle Skull")
        if total < 5:
            return None
        if cd.holder_of(ctx, SKULL) == pid:
            ctx.say(f"The Fickle Skull: {ctx.name(pid)} already controls the Whispering Skull and gains nothing "
                    "else.", kind="haunt", player=pid)
        else:
            ctx.say(f"The Fickle Skull: {ctx.name(pid)} takes the Whispering Skull instead.", kind="haunt")
            take_skull(ctx, pid)
        return True

    # --- revealing ------------------------------------------------------------------------------

    def traitor_named(self, ctx, pid):
        """Secrets of Survival, haunt 19, "Revealing as the Traitor": 2 Speed,
        the Cultists, Speed attacks; no win in the round of the reveal."""
        s = ctx.s
        tr.change(ctx, pid, "speed", 2)
        mine(s)["revealed_this_round"] = not (s["turn"] or {}).get("monsters")
        ctx.say(f"{ctx.name(pid)} gains 2 Speed, now runs the Cultists, and may attack with Speed instead of Might.",
                kind="haunt", player=pid)

    def attack_traits(self, ctx, pid, weapon):
        if unmasked(ctx.s) and pid in ctx.s["haunt"]["traitors"]:
            return ["speed"]
        return None

    # --- what the built-in players aim for -----------------------------------------------------

    def haunt_goals(self, ctx, pid):
        """Whoever holds the Whispering Skull carries it home: a hero to the
        Elfsong Tavern, the traitor to the Shrine to Bhaal. The others go for
        the Skull: its pile, or its holder when that is an opponent they know
        of (the traitor knows them all); with the Skull beside the board,
        the tiles whose item or omen may turn into it. Only the built-in
        player of `pid` reads this (the hidden traitor's aim stays theirs)."""
        s = ctx.s
        p = s["players"][pid]
        if not p["alive"] or not st.on_board(p):
            return None
        traitor = pid in s["haunt"]["traitors"]
        holder = cd.holder_of(ctx, SKULL)
        if holder == pid:
            home = SHRINE if traitor else ELFSONG
            return {home} if home in s["board"] else None
        if holder:
            if traitor or st.known_traitor(s, holder):
                return {s["players"][holder]["tile"]}
            return {ELFSONG} if ELFSONG in s["board"] else None  # a hero has it: guard the way home
        piles = {t for t, pile in s["piles"].items() if SKULL in pile}
        if piles:
            return piles
        found = {t for k in ("building", "street", "catacomb") for t in s["stacks"].get(k, [])
                 if ctx.c.tiles[t].symbol in ("item", "omen")}
        if traitor:  # nothing on the board to stand on: it unmasks only where the Skull is
            return found or None
        return found | {t for lvl in ("city", "catacomb") for t, _ in bd.open_doorways(ctx.c, s["board"], lvl)} \
            or None

    # --- the wins --------------------------------------------------------------------------------

    def turn_ending(self, ctx, pid):
        if pid == ctx.s["haunt"]["revealer"]:
            return [{"do": "_h19_revealer_turn_ends"}]
        return None


def skull_holder_on(ctx, tile: str) -> str | None:
    holder = cd.holder_of(ctx, SKULL)
    if holder and ctx.s["players"][holder]["alive"] and ctx.s["players"][holder]["tile"] == tile \
            and st.on_board(ctx.s["players"][holder]):
        return holder
    return None


@effects.step("_h19_revealer_turn_ends")
def _revealer_turn_ends(ctx, task, item):
    """Secrets of Survival, haunt 19, "The Heroes Win When" and "The Traitor
    Wins When": both looked at when the haunt revealer's turn ends. Ruling:
    a traitor still hidden counts as a hero here, as everywhere."""
    s = ctx.s
    if s["phase"] != "haunt":
        return
    fresh, mine(s)["revealed_this_round"] = mine(s)["revealed_this_round"], False
    holder = skull_holder_on(ctx, ELFSONG)
    if holder and not st.known_traitor(s, holder):
        hp.finish(ctx, "heroes", f"{ctx.name(holder)} holds the Whispering Skull on the Elfsong Tavern as the "
                                 "haunt revealer's turn ends.")
        return
    holder = skull_holder_on(ctx, SHRINE)
    if holder and st.known_traitor(s, holder):
        if fresh:
            ctx.say("The traitor holds the Whispering Skull on the Shrine to Bhaal, but cannot win in the round "
                    "they were revealed.", kind="haunt")
            return
        hp.finish(ctx, "traitor", f"{ctx.name(holder)} holds the Whispering Skull on the Shrine to Bhaal as the "
                                  "haunt revealer's turn ends.")


@effects.step("_h19_cultist")
def _cultist(ctx, task, item):
    """One Cultist: toward the closest hero (ties: its runner picks; once the
    traitor is revealed, the traitor picks any hero), then its attack."""
    s = ctx.s
    m = next(x for x in s["monsters"] if x["id"] == item["monster"])
    if m["dead"] or m["stunned"] or s["phase"] != "haunt":
        return
    heroes = targets(s)
    far = geometry.distances(ctx, m["tile"])
    reachable = sorted((far[s["players"][p]["tile"]], p) for p in heroes if s["players"][p]["tile"] in far)
    if not reachable:
        ctx.say(f"Cultist {m['number']} finds no hero to go after and stays put.", kind="monster_move")
        return
    nearest = reachable[0][0]
    choices = [p for d, p in reachable] if unmasked(s) else [p for d, p in reachable if d == nearest]
    choices = list({s["players"][p]["tile"]: p for p in reversed(choices)}.values())[::-1]  # one per tile
    task["steps"].insert(0, {"do": "_h19_cultist_attack", "monster": m["id"]})
    if len(choices) == 1:
        go_toward(ctx, task, m, choices[0])
        return
    effects.ask(ctx, task["player"], "h19_cultist_goes", f"which hero does Cultist {m['number']} go after?",
                [f"{ctx.name(p)} ({ctx.tile_name(s['players'][p]['tile'])})" for p in choices], monster=m["id"],
                heroes=choices)


@effects.decision("h19_cultist_goes")
def _decide_cultist_goes(ctx, pending, index):
    data = pending["data"]
    m = next(x for x in ctx.s["monsters"] if x["id"] == data["monster"])
    go_toward(ctx, effects.current(ctx), m, data["heroes"][index])


def go_toward(ctx, task, m: dict, hero: str):
    allowance = ctx.s["turn"]["moves"].get(CULTIST, 1)
    goal = ctx.s["players"][hero]["tile"]
    reached = [tid for tid, spent in path(ctx, m["tile"], goal) if spent <= allowance]
    if reached:
        task["steps"].insert(0, {"do": "_monster_arrives", "monster": m["id"], "tile": reached[-1]})


@effects.step("_h19_cultist_attack")
def _cultist_attack(ctx, task, item):
    s = ctx.s
    m = next(x for x in s["monsters"] if x["id"] == item["monster"])
    if m["dead"] or m["stunned"] or s["phase"] != "haunt":
        return
    here = [p for p in targets(s) if st.beside(s, p, m)]
    if not here:
        return
    if len(here) == 1:
        cultist_attacks(ctx, m, here[0])
        return
    effects.ask(ctx, task["player"], "h19_cultist_attacks", f"whom does Cultist {m['number']} attack?",
                [ctx.name(p) for p in here], monster=m["id"], heroes=here)


@effects.decision("h19_cultist_attacks")
def _decide_cultist_attacks(ctx, pending, index):
    data = pending["data"]
    cultist_attacks(ctx, next(x for x in ctx.s["monsters"] if x["id"] == data["monster"]), data["heroes"][index])


def cultist_attacks(ctx, m: dict, hero: str):
    """The Cultist attacks with Speed; the hero defends with Speed."""
    try:
        atk.monster_attack(ctx, m["id"], hero, "speed")
    except IllegalAction as why:
        ctx.say(f"Cultist {m['number']} cannot attack {ctx.name(hero)}: {why.reason}", kind="attack")


@effects.step("_h19_cultists_done")
def _cultists_done(ctx, task, item):
    if ctx.s["phase"] == "haunt" and (ctx.s["turn"] or {}).get("monsters"):
        hp.end_monster_turn(ctx)


def _loot_stage(ctx, hit) -> bool:
    """Secrets of Survival, haunt 19, "At the End of the Haunt Revealer's
    Turn": 2 or more damage from a Cultist is paid with a stealable item or
    omen of the defender's choice instead; with none, the damage is taken."""
    s = ctx.s
    if rulesets.active(ctx) is not rulesets.REGISTRY.get(19) or hit.get("source") != "attack" or hit["amount"] < 2:
        return False
    by = s["haunt"].get("last_attacker")
    if not any(m["id"] == by and m["name"] == CULTIST for m in s["monsters"]):
        return False
    pid = hit["victim"]
    cards = [c for c in s["players"][pid]["cards"] if ctx.c.cards[c].deck in ("item", "omen")
             and ctx.c.cards[c].can_steal]
    if not cards:
        return False
    hit["cards"] = cards
    return effects.ask_stage(ctx, pid, hit, "h19_cultist_loot", f"which card do you give up instead of "
                             f"{hit['amount']} {hit['kind']} damage?", [ctx.card_name(c) for c in cards])


def _loot_decide(ctx, hit, index):
    card = hit["cards"][index]
    pid = hit["victim"]
    ctx.say(f"{ctx.name(pid)} gives up {ctx.card_name(card)} instead of taking the damage.", kind="haunt", player=pid)
    if card == SKULL:
        lay_skull_aside(ctx)
    else:
        cd.discard(ctx, card, quiet=True)
    hit["amount"] = 0


effects.damage_stage("h19_cultist_loot", 5, _loot_decide)(_loot_stage)
