"""Haunt 27, Ravenloft Calls (Secrets of Survival, then the Traitor's Tome
once a traitor appears).

What the bot carries out:
- The shadow city: every placed tile but the Haunted Alley, the Catacomb
  Landing and the Kitchen Basement goes back into its stack (the stacks are
  shuffled; cards lying on them are discarded), the Elfsong Tavern's start
  tile is set aside, everyone stands on the Haunted Alley; every omen card
  goes back into the omen deck (its trait bonuses lost), which is
  shuffled, and tiles' once-per-game rewards may be had again.
- Until a traitor appears: play goes on from the revealer's left as
  exploration did; nobody can be attacked and nobody can die (a trait stops
  above the skull); each omen drawn brings a haunt roll at the end of the
  turn, with a die per omen revealed in the game (at most 8), which
  succeeds on 4+: the roller becomes the traitor.
- The traitor revealed: the Tome sent to them alone and the heroes' second
  part to the heroes; the traitor's traits back to their starting values,
  then +2 each; the Elfsong Tavern's tile joined by the traitor to an open
  city door, among the placements farthest from the heroes; the traitor
  then takes another turn at once, and the order is laid again.
- The bats at the start of the traitor's turn: a Speed 3 attack on the hero
  the traitor picks (Speed defence); on a win the traitor deals the
  physical damage or carries the hero up to that many spaces.
- Capture: a hero who would die is captured instead (figure and items out
  of play); the traitor wins at 1 of 2, 2 of 3 or 4, 3 of 5 captured (data).
- The heroes: a die of mental damage at the end of each turn; the
  declared move `escape` on the Elfsong Tavern (3+) takes the hero out of the
  game; they win at 2 of 2 or 3, 3 of 4 or 5 escaped (data), or with the
  traitor dead.
- The traitor's secret paths: on discovering a tile, the traitor may ignore
  its icon and keep moving.

Left to the players: nothing the books print.
"""
from .. import board as bd
from .. import attack, effects, geometry, hooks, moves, rng, rulesets
from .. import cards as cd
from .. import haunt_play as hp
from .. import state as st
from ..errors import IllegalAction

ALLEY, LANDING, BASEMENT = "haunted_alley", "catacomb_landing", "kitchen_basement"
TAVERN = "elfsong_tavern"
ROOMS = (("kitchen", 0), ("inner_chamber", 1), (TAVERN, 2))  # the city start tile, west to east
CAPTURED, ESCAPED = "Heroes captured", "Heroes escaped"
HAUNT_TARGET, ESCAPE_TARGET, BATS_SPEED = 4, 3, 3
TRAITS = ("might", "speed", "knowledge", "sanity")


def seen(ctx) -> dict:
    return ctx.s["haunt"].get("h27") or {}


OWN = rulesets.Own("h27", {"omens": 0, "seen": 0, "again": None, "escaped": [], "captured": []},
                   players=("again", "escaped", "captured"))


def mine(ctx) -> dict:
    return rulesets.REGISTRY[27].record(ctx.s)


def traitor(ctx) -> str | None:
    t = hp.traitors(ctx.s)
    return t[0] if t else None


# --- the shadow city ------------------------------------------------------------------------------------

def shadow_city(ctx):
    """Secrets of Survival, haunt 27, "Right Now" (first part)."""
    s = ctx.s
    keep = {ALLEY, LANDING, BASEMENT}
    for tid in [t for t in s["board"] if t not in keep]:
        del s["board"][tid]
        stack = ctx.c.tiles[tid].stack
        if stack != "start":
            s["stacks"][stack].append(tid)
        for cid in s["piles"].pop(tid, []):  # Ruling: cards lying on a tile that leaves are discarded
            s["discard"].setdefault(ctx.c.cards[cid].deck, []).append(cid)
    s["haunt"]["tiles_aside"] = [room for room, _ in ROOMS if room not in s["board"]]  # the tavern, set aside
    s["haunt"]["start_tiles"] = [ALLEY, BASEMENT]  # where the shadow city grows from
    for token in [t for t in s["tokens"] if t["tile"] not in s["board"]]:
        if token.get("card"):  # a card lying beside its token goes with it to the discards
            s["discard"].setdefault(ctx.c.cards[token["card"]].deck, []).append(token["card"])
        s["tokens"].remove(token)
    for stack in ("building", "street", "catacomb"):
        if stack in s["stacks"]:
            s["stacks"][stack] = rng.shuffle(s, s["stacks"][stack])
    if ALLEY not in s["board"]:
        s["board"][ALLEY] = {"level": "city", "x": 0, "y": 0, "rot": 0}
        for stack in s["stacks"].values():
            if ALLEY in stack:
                stack.remove(ALLEY)
    for pid in s["seats"]:
        p = s["players"][pid]
        if p["alive"]:
            p["tile"], p["half"] = ALLEY, None
        p["once"] = [k for k in p["once"] if not k.startswith("tile:")]
        for cid in [c for c in p["cards"] if ctx.c.cards[c].deck == "omen"]:
            cd.lose(ctx, pid, cid)
            s["decks"]["omen"].append(cid)
    s["decks"]["omen"] = rng.shuffle(s, s["decks"]["omen"])
    ctx.say("The mists close in: you stand in a shadow copy of Baldur's Gate. Only the Haunted Alley and the "
            "catacomb start tile remain; the other tiles are back in their stacks, the Elfsong Tavern is gone, "
            "every omen is back in the shuffled omen deck, and everyone is on the Haunted Alley. Until a traitor "
            "appears nobody can die, and each omen drawn brings a haunt roll that succeeds on 4+.",
            kind="haunt_setup")


@effects.step("h27_haunt_roll")
def _haunt_roll(ctx, task, item):
    """Secrets of Survival, haunt 27, "What You Know"."""
    if traitor(ctx):
        return
    pid = task["player"]
    n = rng.dice_count(ctx.s["omens_revealed"])  # Ruling: a haunt roll's dice, every omen revealed so far
    total = effects.make_roll(ctx, pid, n, "for the haunt in the shadow city", kind="haunt")
    if total < HAUNT_TARGET:
        ctx.say(f"The haunt roll needed {HAUNT_TARGET}+: Strahd waits a little longer.", kind="haunt_roll")
        return
    name_traitor(ctx, pid)


def name_traitor(ctx, pid: str):
    s, h = ctx.s, ctx.s["haunt"]
    h["traitors"] = [pid]
    h["kind"] = "traitor"  # from here on, a known traitor against the heroes
    s["order"] = hp.turn_order(s)
    mine(ctx)["again"] = pid
    ctx.say(f"Strahd's servant stands revealed: {ctx.who(pid)} is the traitor!", kind="haunt", traitors=[pid])
    haunt = ctx.c.haunts[h["number"]]
    for text in hp.rules_texts(ctx, haunt, pid):
        ctx.say(text, kind="secret_rules", to=pid)
    ctx.say("Your words: on discovering a tile you are asked whether to ignore its icon; the bats attack at the "
            "start of your turn.", kind="secret_rules", to=pid)
    hp.open_part_two(ctx, "heroes")
    ctx.say("Your move: {move:escape} on the Elfsong Tavern.", kind="secret_rules", to="heroes")
    hooks.fire("traitor_named", ctx, pid)
    hp.restore_traits(ctx, pid, TRAITS, {t: 2 for t in TRAITS})
    effects.push_front(ctx, [{"do": "h27_tavern"}])


def tavern_places(ctx) -> list[tuple[int, int, str, str]]:
    """(x, y, door tile, side): where the start tile may join an open city
    door, unturned, its three rooms on free squares; only those farthest
    from the heroes."""
    s = ctx.s
    squares = bd.grid(s["board"])
    found = {}
    for placed, side in bd.open_doorways(ctx.c, s["board"], "city"):
        level, x, y = bd.neighbour_square(s["board"][placed], side)
        for room, dx in ROOMS:
            if ctx.c.tiles[room].doorways.get(bd.OPPOSITE[side], "passage") == "passage":
                continue
            ox = x - dx
            if all(("city", ox + k, y) not in squares for k in range(3)):
                found.setdefault((ox, y), (placed, side))
    if not found:
        return []
    heroes = [s["players"][p]["tile"] for p in hp.alive(s, hp.heroes(s)) if st.on_board(s["players"][p])]
    reach = [geometry.distances(ctx, t) for t in heroes]
    gap = {k: min((r.get(v[0], 99) for r in reach), default=0) for k, v in found.items()}
    best = max(gap.values())
    return sorted([(k[0], k[1], v[0], v[1]) for k, v in found.items() if gap[k] == best],
                  key=lambda c: (ctx.tile_name(c[2]), c[3], c[0]))


@effects.step("h27_tavern")
def _tavern(ctx, task, item):
    """Traitor's Tome, haunt 27, "Right Now": the Elfsong Tavern's tile as
    far from the heroes as possible."""
    places = tavern_places(ctx)
    if not places:
        ctx.say("No open city door can take the Elfsong Tavern's tile; it stays out of play for now.", kind="haunt")
        return
    if len(places) == 1:
        put_tavern(ctx, places[0])
        return
    effects.ask(ctx, traitor(ctx), "h27_tavern", "where does the Elfsong Tavern's tile join the city?",
                [f"At the {ctx.tile_name(t)}'s {side} door" for _, _, t, side in places],
                places=[list(p) for p in places])


@effects.decision("h27_tavern")
def _decide_tavern(ctx, pending, index):
    put_tavern(ctx, tuple(pending["data"]["places"][index]))


def put_tavern(ctx, place: tuple):
    ox, y, door, side = place
    for room, dx in ROOMS:
        ctx.s["board"][room] = {"level": "city", "x": ox + dx, "y": y, "rot": 0}
    ctx.s["haunt"]["tiles_aside"] = []
    ctx.say(f"The Elfsong Tavern appears at the {ctx.tile_name(door)}'s {side} door: the way out of the shadow "
            "city.", kind="discover", tile=TAVERN)


# --- the bats --------------------------------------------------------------------------------------------

@effects.step("h27_bats")
def _bats(ctx, task, item):
    s = ctx.s
    prey = [p for p in hp.alive(s, hp.heroes(s)) if st.on_board(s["players"][p]) and attack.shielded(ctx, p) is None]
    if not prey:
        return
    if len(prey) == 1:
        bats(ctx, task["player"], prey[0])
        return
    effects.ask(ctx, task["player"], "h27_prey", "which hero do the bats attack?", [ctx.name(p) for p in prey],
                prey=prey)


@effects.decision("h27_prey")
def _decide_prey(ctx, pending, index):
    bats(ctx, pending["player"], pending["data"]["prey"][index])


def bats(ctx, boss: str, hero: str):
    """Traitor's Tome, haunt 27, "You Must Do This at the Start of Your Turn"."""
    ctx.say(f"Strahd's bats swarm at {ctx.name(hero)}.", kind="attack")
    a = effects.make_roll(ctx, boss, BATS_SPEED, "Speed 3 for the bats", kind="contest")
    d = attack.defence_roll(ctx, hero, "speed", ctx.value(hero, "speed"))
    if a <= d:
        ctx.say(f"{ctx.name(hero)} beats off the bats ({d} to {a}).", kind="attack")
        return
    n = a - d
    ctx.say(f"The bats win {a} to {d}.", kind="attack")
    effects.ask(ctx, boss, "h27_bats", f"the bats beat {ctx.name(hero)} by {n}: hurt them or carry them?",
                [f"Deal {n} physical damage", f"Carry {ctx.name(hero)} up to {n} spaces"], hero=hero, amount=n)


@effects.decision("h27_bats")
def _decide_bats(ctx, pending, index):
    hero, n = pending["data"]["hero"], pending["data"]["amount"]
    if index == 0:
        ctx.s["haunt"]["last_attacker"] = pending["player"]
        effects.take_damage(ctx, hero, "physical", n, source="haunt")
        return
    here = ctx.s["players"][hero]["tile"]
    tiles = sorted([t for t, d in geometry.distances(ctx, here).items() if 0 < d <= n], key=ctx.tile_name)
    if not tiles:
        ctx.say(f"There is nowhere for the bats to carry {ctx.name(hero)}.", kind="attack")
        return
    effects.ask(ctx, pending["player"], "h27_carry", f"where do the bats carry {ctx.name(hero)}?",
                [ctx.tile_name(t) for t in tiles], hero=hero, tiles=tiles)


@effects.decision("h27_carry")
def _decide_carry(ctx, pending, index):
    moves.place_on(ctx, pending["data"]["hero"], pending["data"]["tiles"][index], verb="is carried by the bats to",
                   stop=False)


# --- the heroes -----------------------------------------------------------------------------------------

@effects.step("h27_escaped")
def _escaped(ctx, task, item):
    s = ctx.s
    pid = task["player"]
    p = s["players"][pid]
    p["alive"] = False  # out of the game: no more turns, nobody's target
    mine(ctx)["escaped"].append(pid)
    s["haunt"]["counters"][ESCAPED] = len(mine(ctx)["escaped"])
    ctx.say(f"{ctx.name(pid)} escapes the shadow city through the Elfsong Tavern!", kind="haunt", player=pid)
    turn = s["turn"]
    if turn and turn["player"] == pid and not turn.get("monsters") and not turn["ending"]:
        turn["ending"] = True
        effects.queue(ctx, pid, [{"do": "_next_turn"}])


@effects.decision("h27_icon")
def _decide_icon(ctx, pending, index):
    if index == 0:
        cd.draw(ctx, pending["player"], pending["data"]["deck"])
        return
    ctx.say(f"{ctx.name(pending['player'])} knows this place's secret ways and keeps moving.", kind="move")


def escape(ctx, pid: str, trait: str):
    """Secrets of Survival, haunt 27: the way out is the Elfsong Tavern."""
    if ctx.s["players"][pid]["tile"] != TAVERN:
        raise IllegalAction("The way out is the Elfsong Tavern.")
    effects.queue(ctx, pid, [{"do": "roll", "trait": trait, "bands": [
        {"at_least": ESCAPE_TARGET, "then": [{"do": "h27_escaped"}]},
        {"at_most": ESCAPE_TARGET - 1, "then": []}]}], source="haunt", front=True)


@rulesets.register(27)
class RavenloftCalls(rulesets.RuleSet):
    title = "Ravenloft Calls"

    def setup_step(self, ctx, step):
        text = step.get("text", "")
        if step.get("do") != "manual":
            return None
        mine(ctx)
        if "Shuffle every placed tile" in text:
            shadow_city(ctx)
            return True
        if "omens" in text or "When revealed" in text:
            return True  # the omens go back with the city (above); the traitor's part waits for the traitor
        return None

    def turn_started(self, ctx, pid):
        s = ctx.s
        mine(ctx)["seen"] = s["omens_revealed"]
        if traitor(ctx) == pid:
            effects.queue(ctx, pid, [{"do": "h27_bats"}], source="haunt")

    def turn_ending(self, ctx, pid):
        s = ctx.s
        steps = []
        if not traitor(ctx):
            new = s["omens_revealed"] - seen(ctx).get("seen", s["omens_revealed"])
            for _ in range(max(0, new)):
                mine(ctx)["omens"] += 1
                steps.append({"do": "h27_haunt_roll"})
        elif pid in hp.heroes(s) and s["players"][pid]["alive"]:
            steps.append({"do": "damage", "kind": "mental", "dice": 1})  # Secrets of Survival: end of your turn
        return steps or None

    def next_slot(self, ctx):
        """Traitor's Tome, haunt 27, "Right Now": the new traitor at once
        takes another turn."""
        s = ctx.s
        again = seen(ctx).get("again")
        if not again or not s["haunt"].get("started"):
            return None
        mine(ctx)["again"] = None
        if s["players"][again]["alive"]:
            from_turn = s["turn"]["number"] + 1
            hp.begin_turn(ctx, again, from_turn)
            return True
        return None

    def skull_spared(self, ctx, pid, trait):
        return True if not traitor(ctx) else None

    def shielded(self, ctx, target):
        if not traitor(ctx):
            return "Nobody fights in the shadow city until a traitor appears."
        return None

    def death(self, ctx, pid, killer):
        """Traitor's Tome, haunt 27, "How to Capture a Hero"."""
        s = ctx.s
        if not traitor(ctx) or pid not in hp.heroes(s):
            return
        p = s["players"][pid]
        for cid in p["cards"]:
            s["discard"].setdefault(ctx.c.cards[cid].deck, []).append(cid)
        p["cards"], p["held_bonus"] = [], {}
        mine(ctx)["captured"].append(pid)
        s["haunt"]["counters"][CAPTURED] = len(mine(ctx)["captured"])
        ctx.say(f"{ctx.name(pid)} is not dead but captured for Strahd: their figure and everything they held leave "
                "the game.", kind="haunt", player=pid)

    def symbol_card(self, ctx, pid, tile, deck):
        if traitor(ctx) != pid:
            return None
        effects.ask(ctx, pid, "h27_icon", f"the {ctx.tile_name(tile)} shows the {deck} icon: draw the card, or "
                    "ignore it and keep moving?",
                    [f"Draw the {deck} card", "Ignore it and keep moving"], deck=deck)
        return True

    own = OWN
    moves = (
        rulesets.Move("escape", "Escape the shadow city", lambda ctx, pid, trait: escape(ctx, pid, trait),
                      traits=("knowledge",), who="heroes", once_per_turn=True,
                      allowed=lambda ctx, pid: None if traitor(ctx) else "Nobody escapes before the traitor is known.",
                      summary="On the Elfsong Tavern, once the traitor is known, Knowledge 3+ takes the hero out of "
                              "the game, escaped."),
    )

    def haunt_goals(self, ctx, pid):
        s = ctx.s
        if not traitor(ctx) or pid not in hp.heroes(s):
            return set()
        return {TAVERN}
