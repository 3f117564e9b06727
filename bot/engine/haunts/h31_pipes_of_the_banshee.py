"""Haunt 31, Pipes of the Banshee (Traitor's Tome; Secrets of Survival).

What the bot carries out:
- the traitor's adventurer is dead and the traitor plays the Banshee: a
  player's figure, kept as a monster token (its data places it and gives it
  Sanity as its one attack trait), that takes the traitor's turn, never a
  monster turn of its own;
- her traits go down with damage (0 in any kills her);
- the heroes' Sanity attacks on her, and the Horrifying Visage roll;
- her win with the Pipes of Haunting; the heroes' win when she dies.

Left to the players: nothing."""
from .. import cards as cd
from .. import effects, hooks, rulesets
from .. import haunt_play as hp
from .. import marks as mk
from .. import state as st
from ..board import line_of_sight
from ..sides import heroes, traitors
from ..turns import begin_turn

BANSHEE = "Banshee"
PIPES = "pipes_of_haunting"
HOME_TILES = ("arcane_retreat", "executioners_block", "haunted_alley", "neglected_shrine")
MAX_TRAIT = 8


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
    if any(v <= 0 for v in m["traits"].values()):
        m["dead"] = True
        ctx.say("One of the Banshee's traits has fallen to 0: she is destroyed.", kind="monster", monster=m["id"])
        hooks.fire("monster_killed", ctx, m["id"])


@rulesets.register(31)
class PipesOfTheBanshee(rulesets.RuleSet):
    title = "Pipes of the Banshee"

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
                for trait, amount in card.while_held.items():
                    if trait in m["traits"]:
                        m["traits"][trait] = max(0, min(MAX_TRAIT, m["traits"][trait] + amount))
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
        if m and m["tile"] in HOME_TILES and PIPES in s["players"][traitors(s)[0]]["cards"]:
            return "traitor", f"The Banshee has brought the Pipes of Haunting back to the {ctx.tile_name(m['tile'])}."
        return None


@effects.decision("h31_banshee_damage")
def _decide_banshee_damage(ctx, pending, index):
    m = next(x for x in ctx.s["monsters"] if x["id"] == pending["data"]["monster"])
    take(ctx, m, tuple(pending["data"]["splits"][index]))

