"""Haunt 31, Pipes of the Banshee (Traitor's Tome; Secrets of Survival).

What the bot carries out:
- the traitor's adventurer is dead and the traitor plays the Banshee: a
  player's figure, kept as a monster token (its data places it and gives it
  Sanity as its one attack trait), that takes the traitor's turn, never a
  monster turn of its own;
- her traits go down with damage (0 in any kills her) and up and down with
  the items and omens she holds (what each gave her is remembered, so losing
  it takes back only that);
- her pretties: the declared move `pickup` takes an item or omen from the
  pile on her tile; when her attack on a hero wins by 2 or more she may
  steal one of the hero's stealable cards instead of dealing the damage;
  once a turn the declared move `hoard` discards a card she holds and raises
  one trait by 2 (8 at most), and hoarding the Pipes leaves her only the
  win by killing every hero;
- her movement through walls and false features: the declared move `glide`
  takes her to the placed tile beyond a wall on her level, as a doorway
  would;
- the heroes' Sanity attacks on her, and the Horrifying Visage roll;
- reflective items: a hero holding one who attacks her halves her defence
  dice (rounded down), and the item is destroyed (discarded) after the
  attack;
- her win with the Pipes of Haunting; the heroes' win when she dies.

Left to the players: nothing."""
from .. import attack
from .. import board as bd
from .. import cards as cd
from .. import effects, hooks, rulesets
from .. import haunt_play as hp
from .. import marks as mk
from .. import state as st
from ..board import line_of_sight
from ..errors import IllegalAction
from ..sides import heroes, traitors
from ..turns import begin_turn

BANSHEE = "Banshee"
PIPES = "pipes_of_haunting"
HOME_TILES = ("arcane_retreat", "executioners_block", "haunted_alley", "neglected_shrine")
MAX_TRAIT = 8
HOARD_GAIN = 2
REFLECTIVE = ("helm_of_teleportation", "locket", "necklace_of_fireballs", "potion_of_giant_strength",
              "potion_of_healing", "potion_of_invisibility", "potion_of_speed", "shiny_rock",
              "berserker_axe", "dimensional_shackles", "figurine_of_wondrous_power")
NUMBER = 31

OWN = rulesets.Own("h31", {"bonus": {}, "pipes_hoarded": False})


def mine(ctx) -> dict:
    return rulesets.REGISTRY[NUMBER].record(ctx.s)


def playing(ctx) -> bool:
    h = ctx.s.get("haunt")
    return bool(h) and ctx.s.get("phase") == "haunt" and h["number"] == NUMBER


def banshee(s: dict) -> dict | None:
    return next((m for m in s["monsters"] if m["name"] == BANSHEE and not m["dead"]), None)


def start(ctx, slot: str, number: int):
    """The next turn from `slot` on: a living hero's, or the Banshee's in the
    traitor's place (Traitor's Tome, haunt 31: the traitor's adventurer is
    dead, the Banshee is the traitor's figure)."""
    s = ctx.s
    order = [x for x in s["order"] if x != hp.MONSTERS]
    i = order.index(slot)
    for k in range(len(order)):
        nxt = order[(i + k) % len(order)]
        if nxt in traitors(s):
            if banshee(s):
                return banshee_turn(ctx, nxt, number)
        elif s["players"][nxt]["alive"]:
            return begin_turn(ctx, nxt, number)
    hp.check_wins(ctx)
    if s["phase"] == "haunt":
        hp.finish(ctx, None, "Nobody is left to take a turn.")


def banshee_turn(ctx, pid: str, number: int):
    """The Banshee moves up to her Speed (as an adventurer moves, no roll)
    and attacks once: the traitor uses `monster move` and `monster attack`."""
    s = ctx.s
    m = banshee(s)
    turn = st.new_turn(pid, number)
    turn.update({"monsters": True, "moves": {BANSHEE: m["traits"]["speed"]}, "acted": [], "attacked": [],
                 "stunned_at_start": [], "banshee": True})
    s["turn"] = turn
    ctx.say(f"Turn {number}: {ctx.name(pid)} plays the Banshee (Speed {m['traits']['speed']}, Knowledge "
            f"{m['traits']['knowledge']}, Sanity {m['traits']['sanity']}) on the {ctx.tile_name(m['tile'])}.",
            kind="turn", player=pid)


def split_options(traits: dict, kind: str, amount: int) -> list[tuple[str, int, str, int]]:
    """Ways to take `amount` damage of a kind among the Banshee's traits of
    that kind (she has no Might: physical damage all goes to Speed)."""
    pair = [t for t in (("might", "speed") if kind == "physical" else ("knowledge", "sanity")) if t in traits]
    if len(pair) == 1:
        return [(pair[0], amount, pair[0], 0)]
    a, b = pair
    return [(a, k, b, amount - k) for k in range(amount + 1)]


def take(ctx, m: dict, option: tuple):
    a, da, b, db = option
    m["traits"][a] = max(0, m["traits"][a] - da)
    m["traits"][b] = max(0, m["traits"][b] - db)
    ctx.say("The Banshee's traits are now " + ", ".join(f"{t.capitalize()} {v}" for t, v in m["traits"].items())
            + ".", kind="monster", monster=m["id"])
    dead_check(ctx, m)


# --- her pretties ----------------------------------------------------------------------------------

def shift(ctx, m: dict, trait: str, amount: int) -> int:
    """Her trait moved by `amount` (0 to 8); returns the change made."""
    if trait not in m["traits"] or not amount:
        return 0
    before = m["traits"][trait]
    m["traits"][trait] = max(0, min(MAX_TRAIT, before + amount))
    return m["traits"][trait] - before


def dead_check(ctx, m: dict):
    if not m["dead"] and any(v <= 0 for v in m["traits"].values()):
        m["dead"] = True
        ctx.say("One of the Banshee's traits has fallen to 0: she is destroyed.", kind="monster", monster=m["id"])
        hooks.fire("monster_killed", ctx, m["id"])


def banshee_gains(ctx, cid: str):
    """Traitor's Tome, haunt 31, "Right Now": her traits change with what
    she holds, as an adventurer's would (remembered, so losing it takes back
    only what it gave)."""
    m = banshee(ctx.s)
    if not m:
        return
    given = {t: shift(ctx, m, t, n) for t, n in ctx.c.cards[cid].while_held.items()}
    given = {t: n for t, n in given.items() if n}
    if given:
        mine(ctx)["bonus"][cid] = given
    dead_check(ctx, m)


def banshee_loses(ctx, cid: str):
    m = banshee(ctx.s)
    for t, n in mine(ctx)["bonus"].pop(cid, {}).items():
        if m:
            shift(ctx, m, t, -n)
    if m:
        dead_check(ctx, m)


def hers(ctx, cid: str):
    """The card joins what the Banshee controls (kept on the traitor's card,
    the adventurer's own trait bonuses left out: the adventurer is dead)."""
    s = ctx.s
    p = s["players"][traitors(s)[0]]
    p["cards"].append(cid)
    banshee_gains(ctx, cid)


def her_turn(ctx, pid: str) -> str | None:
    turn = ctx.s["turn"] or {}
    if not turn.get("banshee") or turn.get("player") != pid or not banshee(ctx.s):
        return "Only the Banshee acts in her turn."
    return None


def pile_cards(ctx, pid: str) -> list[str]:
    m = banshee(ctx.s)
    if not m:
        return []
    return [c for c in ctx.s["piles"].get(m["tile"], []) if not ctx.c.cards[c].companion]


def held_cards(ctx, pid: str) -> list[str]:
    s = ctx.s
    if not traitors(s):
        return []
    return [c for c in s["players"][traitors(s)[0]]["cards"] if ctx.c.cards[c].deck in ("item", "omen")]


def pick_up(ctx, pid: str, cid: str):
    """Traitor's Tome, haunt 31, "Your Pretties": she picks items up as an
    adventurer would (rulebook, "Use Item and Omen Cards": one action with
    each card a turn)."""
    s = ctx.s
    m = banshee(s)
    if cid in s["turn"]["used"]:
        raise IllegalAction(f"{ctx.card_name(cid)} has already been moved this turn.")
    pile = s["piles"][m["tile"]]
    pile.remove(cid)
    if not pile:
        del s["piles"][m["tile"]]
    for token in [t for t in s["tokens"] if t["tile"] == m["tile"] and t.get("item") == cid]:
        s["tokens"].remove(token)
    s["turn"]["used"].append(cid)
    ctx.say(f"The Banshee picks up {ctx.card_name(cid)}.", kind="pickup", monster=m["id"], card=cid)
    hers(ctx, cid)


def hoard(ctx, pid: str, cid: str):
    """Traitor's Tome, haunt 31, "Your Pretties": once a turn she discards
    a card she controls and may raise one trait by 2 (8 at most); the Pipes
    hoarded leave her only the other win."""
    s = ctx.s
    if cid in s["turn"]["used"]:
        raise IllegalAction(f"{ctx.card_name(cid)} has already been moved this turn.")
    p = s["players"][pid]
    p["held_bonus"].pop(cid, None)  # the dead adventurer's own bonus is not taken back from the Banshee
    banshee_loses(ctx, cid)
    cd.discard(ctx, cid, quiet=True)
    ctx.say(f"The Banshee hoards {ctx.card_name(cid)} away somewhere safe.", kind="haunt", player=pid)
    if cid == PIPES:
        mine(ctx)["pipes_hoarded"] = True
        ctx.say("The Pipes of Haunting are hoarded: now only the death of every hero wins for the Banshee.",
                kind="haunt")
    m = banshee(s)
    if not m:
        return
    traits = [t for t in m["traits"] if m["traits"][t] < MAX_TRAIT]
    effects.ask(ctx, pid, "h31_hoard", "which of the Banshee's traits rises by 2 (8 at most)?",
                [f"{t.capitalize()} {m['traits'][t]} +2" for t in traits] + ["None"], traits=traits)


@effects.decision("h31_hoard")
def _decide_hoard(ctx, pending, index):
    traits = pending["data"]["traits"]
    m = banshee(ctx.s)
    if index >= len(traits) or not m:
        return
    shift(ctx, m, traits[index], HOARD_GAIN)
    ctx.say(f"The Banshee gloats over her hoard: {traits[index].capitalize()} {m['traits'][traits[index]]}.",
            kind="monster", monster=m["id"])


def wall_ways(ctx, pid: str) -> list[str]:
    """Traitor's Tome, haunt 31, "Special Movement Rules": the sides of her
    tile where a placed tile of the same level lies beyond a wall or a false
    feature (the doorways are the ordinary monster move)."""
    s = ctx.s
    m = banshee(s)
    if not m or m["tile"] not in s["board"]:
        return []
    squares = bd.grid(s["board"])
    place = s["board"][m["tile"]]
    doors = bd.exits(ctx.c, s["board"], m["tile"], squares)
    return [side for side in bd.SIDES if squares.get(bd.neighbour_square(place, side)) and not doors.get(side)]


def glide(ctx, pid: str, way: str):
    """She passes through the wall as through a joined doorway: the same
    cost, the same heroes slowing her, the same arrival."""
    s = ctx.s
    m = banshee(s)
    if m["stunned"]:
        raise IllegalAction("The Banshee is stunned and misses this turn.")
    dest = bd.grid(s["board"])[bd.neighbour_square(s["board"][m["tile"]], way)]
    why = hooks.first("monster_blocked", ctx, m, dest)
    if why:
        raise IllegalAction(why)
    cost = 1
    blockers = [h for h in hp.alive(s, st.side_members(s, "heroes")) if st.beside(s, h, m)]
    cost += max(0, len(blockers) + hooks.total("monster_leave_cost", ctx, m)) if blockers else 0
    used = m.get("moved", 0) if m.get("moved_turn") == s["turn"]["number"] else 0
    allowance = s["turn"]["moves"].get(m["name"], 1)
    if used > 0 and used + cost > allowance:
        raise IllegalAction(f"The Banshee has {max(0, allowance - used)} of {allowance} spaces left.")
    m["moved"], m["moved_turn"] = used + cost, s["turn"]["number"]
    ctx.say(f"The Banshee seeps through the wall to the {way}.", kind="monster", monster=m["id"])
    watch = hooks.first("watched", ctx, m["id"], dest) or []
    effects.queue(ctx, pid, [*watch, {"do": "_monster_arrives", "monster": m["id"], "tile": dest}], front=True)


def reflective(ctx, pid: str) -> str | None:
    """The first reflective item or omen the hero holds (Secrets of Survival,
    haunt 31, "Reflective Items")."""
    p = ctx.s["players"].get(pid)
    return next((c for c in p["cards"] if c in REFLECTIVE), None) if p else None


def hero_attacking(ctx) -> str | None:
    s = ctx.s
    turn = s["turn"] or {}
    pid = turn.get("player")
    if turn.get("monsters") or pid not in heroes(s):
        return None
    return pid


@effects.step("h31_shatter")
def _shatter(ctx, task, item):
    pid, cid = task["player"], item["card"]
    if cid in ctx.s["players"][pid]["cards"]:
        cd.discard(ctx, cid, quiet=True)
        ctx.say(f"{ctx.card_name(cid)} shatters in the Banshee's wail: it is destroyed.", kind="discard", card=cid)


@hooks.on("before_outcome", order=90)  # after the cards and powers that change a result
def _banshee_steals(ctx, task, item):
    """Traitor's Tome, haunt 31, "Your Pretties": she steals as an adventurer
    would (rulebook, Special Attacks: a win by 2 or more against a hero on
    her tile may take an item instead of the damage)."""
    if not playing(ctx):
        return None
    s = ctx.s
    m = banshee(s)
    attacker, defender = item["attacker"], item["defender"]
    if not m or attacker != m["id"] or defender not in s["players"] or "h31_steal" in item["asked"]:
        return None
    dealt = item["attack"] - item["defence"]
    cards = attack.stealable(ctx, defender)
    if item["distance"] or dealt < 2 or not cards:
        return None
    item["asked"].append("h31_steal")
    task["steps"].insert(0, item)
    effects.ask(ctx, traitors(s)[0], "h31_steal", f"the Banshee wins {item['attack']} to {item['defence']}: deal "
                f"{dealt} mental damage to {ctx.name(defender)} or steal from them?",
                [f"Deal {dealt} mental damage"] + [f"Steal {ctx.card_name(c)}" for c in cards],
                victim=defender, cards=cards)
    return True


@effects.decision("h31_steal")
def _decide_steal(ctx, pending, index):
    if index == 0:
        return  # the roll-off goes on to its damage
    s = ctx.s
    data = pending["data"]
    task = effects.current(ctx)
    task["steps"].pop(0)  # no damage: the card instead
    cid = data["cards"][index - 1]
    cd.lose(ctx, data["victim"], cid)
    s["turn"]["used"].append(cid)
    ctx.say(f"The Banshee steals {ctx.card_name(cid)} from {ctx.name(data['victim'])}.", kind="steal")
    hers(ctx, cid)


@rulesets.register(31)
class PipesOfTheBanshee(rulesets.RuleSet):
    title = "Pipes of the Banshee"
    own = OWN
    moves = (
        rulesets.Move("pickup", "Pick up a pretty", lambda ctx, pid, trait, card: pick_up(ctx, pid, card),
                      who="traitors", when="monster_turn", allowed=her_turn,
                      args=(rulesets.Arg("card", pile_cards, "Which card?"),),
                      summary="The Banshee takes an item or omen from the pile on her tile."),
        rulesets.Move("hoard", "Hoard a pretty", lambda ctx, pid, trait, card: hoard(ctx, pid, card),
                      who="traitors", when="monster_turn", once_per_turn=True, allowed=her_turn,
                      args=(rulesets.Arg("card", held_cards, "Which card?"),),
                      summary="Once a turn she discards a card she holds and may raise a trait by 2 (8 at most); "
                              "hoarding the Pipes leaves her only the win by killing every hero."),
        rulesets.Move("glide", "Pass through a wall", lambda ctx, pid, trait, way: glide(ctx, pid, way),
                      who="traitors", when="monster_turn", allowed=her_turn,
                      args=(rulesets.Arg("way", wall_ways, "Which way?"),),
                      summary="The Banshee moves through a wall or false feature to the placed tile beyond, as "
                              "through a doorway."),
    )

    def setup_step(self, ctx, step):
        """Traitor's Tome, haunt 31, "Right Now": the data places the Banshee on
        the traitor's tile; the manual step is carried out here: the
        adventurer's figure leaves the board (the adventurer is dead), events
        affecting it are discarded, its items and omens stay with the Banshee
        and change her traits as if she had picked them up."""
        if step.get("do") != "manual":
            return None
        s = ctx.s
        pid = traitors(s)[0]
        p = s["players"][pid]
        m = banshee(s)
        for cid in list(p["cards"]):
            card = ctx.c.cards[cid]
            if card.deck == "event":
                cd.discard(ctx, cid, quiet=True)
                ctx.say(f"{ctx.card_name(cid)} no longer affects the traitor and is discarded.", kind="haunt")
            elif m:
                banshee_gains(ctx, cid)
        mk.add(ctx, pid, "away", why="banshee")
        ctx.say(f"{ctx.who(pid)}'s adventurer is dead: the Banshee takes the figure's place and keeps its items "
                "and omens.", kind="haunt", player=pid)
        return True

    def next_slot(self, ctx):
        """No monster turn: the Banshee acts in the traitor's turn."""
        s = ctx.s
        if not s["haunt"].get("started"):
            return None
        turn = s["turn"]
        order = [x for x in s["order"] if x != hp.MONSTERS]
        current = turn["player"] if turn["player"] in order else order[-1]
        start(ctx, order[(order.index(current) + 1) % len(order)], turn["number"] + 1)
        return True

    def monster_hurt(self, ctx, m, kind, amount):
        """Traitor's Tome, haunt 31, "Right Now": damage lowers the Banshee's
        traits, as the traitor splits it; a trait at 0 kills her."""
        if m["name"] != BANSHEE:
            return None
        options = split_options(m["traits"], kind, amount)
        if len(options) == 1:
            take(ctx, m, options[0])
            return True
        effects.ask(ctx, traitors(ctx.s)[0], "h31_banshee_damage", f"how does the Banshee take {amount} {kind} "
                    "damage?", [", ".join(f"-{n} {t.capitalize()}" for t, n in ((o[0], o[1]), (o[2], o[3])) if n)
                                for o in options], monster=m["id"], splits=[list(o) for o in options])
        return True

    def defence_dice(self, ctx, defender, trait):
        """Secrets of Survival, haunt 31, "Reflective Items": against a hero
        holding one she rolls half her dice, rounded down."""
        m = banshee(ctx.s)
        pid = hero_attacking(ctx)
        if not m or defender != m["id"] or not pid or not reflective(ctx, pid):
            return None
        value = m["traits"].get(trait, 0)
        return -(value - value // 2)

    def attack_followups(self, ctx, pid, target, reckless):
        """... and the item is destroyed."""
        m = banshee(ctx.s)
        cid = reflective(ctx, pid)
        if not m or target != m["id"] or pid not in heroes(ctx.s) or not cid:
            return None
        return [{"do": "h31_shatter", "card": cid}]

    def attack_traits(self, ctx, pid, weapon):
        """Secrets of Survival, haunt 31, "Special Attack Rules": the heroes may
        attack the Banshee with Sanity."""
        return ["sanity"] if pid in heroes(ctx.s) and banshee(ctx.s) else None

    def turn_started(self, ctx, pid):
        """Secrets of Survival, haunt 31, "You Must Do This at the Start of Your
        Turn" (the Tome's "Horrifying Visage"): Sanity 4+ in her sight, or lose
        1 Sanity."""
        s = ctx.s
        m = banshee(s)
        p = s["players"][pid]
        if not m or pid not in heroes(s) or not st.on_board(p) or \
                not line_of_sight(ctx.c, s["board"], p["tile"], m["tile"]):
            return None
        ctx.say(f"{ctx.name(pid)} starts the turn in the Banshee's sight: a Sanity roll of 4+, or lose 1 Sanity.",
                kind="haunt", player=pid)
        effects.queue(ctx, pid, [{"do": "roll", "trait": "sanity", "bands": [
            {"at_most": 3, "then": [{"do": "lose", "trait": "sanity", "amount": 1}]}, {"at_least": 4, "then": []}]}],
            source="haunt", front=True)
        return None

    def win_check(self, ctx):
        """Traitor's Tome, haunt 31, "You Win When": the Banshee controls the
        Pipes of Haunting on one of four tiles."""
        s = ctx.s
        m = banshee(s)
        if m and m["tile"] in HOME_TILES and PIPES in s["players"][traitors(s)[0]]["cards"] \
                and not mine(ctx)["pipes_hoarded"]:
            return "traitor", f"The Banshee has brought the Pipes of Haunting back to the {ctx.tile_name(m['tile'])}."
        return None


@effects.decision("h31_banshee_damage")
def _decide_banshee_damage(ctx, pending, index):
    m = next(x for x in ctx.s["monsters"] if x["id"] == pending["data"]["monster"])
    take(ctx, m, tuple(pending["data"]["splits"][index]))

