"""Haunt 40, Infernal Machine (Traitor's Tome; Secrets of Survival).

What the bot carries out:
- Setup: the traitor's figure leaves the board and their items drop in a
  pile on their tile; the Infernal Machine on that tile (data); one
  instruction (quest token) per adventurer, each on a tile the traitor
  picks, 1 per tile while a tile is free (data).
- The Machine never moves, takes no damage and is never stunned; it makes no
  ordinary attack, and the monster turn passes with nothing to do.
- The traitor's turn: the declared move `rearrange` (once a turn) moves one
  city tile to an open city doorway, joined by one of its own doorways, or
  swaps two city tiles, turned as the traitor likes; never the start tile
  or the Machine's tile; no tile may be cut off and an open doorway must
  remain (bot.games.babg.engine.city). Figures and tokens travel with their tile.
  The move `attack` (once a turn): one Might roll, 2 dice plus 1 for each
  street tile next to the Machine's, against every hero on the board, who
  each defend with Might (the read-aloud text before the first).
- The heroes: the move `collect` (Knowledge 4+, once a turn) takes an
  instruction from their tile; `give` hands one to a hero on their tile; a
  dead hero's instructions drop on their tile; `feed` on the Machine's tile
  (Knowledge 4+, once a turn) feeds one in and gains 1 Knowledge.
- Wins (data): the heroes once every instruction is fed in; the traitor
  when every hero is dead.

Left to the players: nothing the books print. (Both sides read apart: the
rules reach each side privately, so nobody leaves the room.)
"""
from .. import attack, board as bd, city, effects, rng, rulesets
from .. import cards as cd
from .. import haunt_play as hp
from .. import marks as mk
from .. import state as st
from .. import tokens as tk
from .. import traits as tr
from ..errors import IllegalAction

MACHINE = "Infernal Machine"
PAGE = "Instruction"
FED = "Instructions fed"
START_TILE = ("kitchen", "inner_chamber", "elfsong_tavern")
TARGET = 4
READ_ALOUD = ("The ground rumbles and the walls lean inward; the street rises like a wave as the Machine lifts "
              "it and slams it down on itself!")


OWN = rulesets.Own("h40", {"pages": {}, "attacked_once": False}, players=("pages",))


def mine(ctx) -> dict:
    """This haunt's own record: the pages each hero holds; whether the Machine has attacked yet."""
    return rulesets.REGISTRY[40].record(ctx.s)


def the_machine(ctx) -> dict | None:
    return next((m for m in ctx.s["monsters"] if m["name"] == MACHINE and not m["dead"]), None)


def movable(ctx) -> list[str]:
    s = ctx.s
    m = the_machine(ctx)
    return sorted((t for t, p in s["board"].items() if p["level"] == "city" and t not in START_TILE
                   and (m is None or t != m["tile"]) and not p.get("face_down")), key=ctx.tile_name)


# --- rearranging the city -------------------------------------------------------------------------

def rearrange(ctx, pid: str):
    tiles = movable(ctx)
    if not any(next(city.shifts(ctx, t, tiles), None) for t in tiles):
        raise IllegalAction("No city tile can be moved without cutting the city apart.")
    effects.queue(ctx, pid, [{"do": "h40_pick_tile", "tiles": tiles}], source="haunt", front=True)


@effects.step("h40_pick_tile")
def _pick_tile(ctx, task, item):
    tiles = item["tiles"]
    effects.ask(ctx, task["player"], "h40_tile", "which city tile does the Machine move?",
                [ctx.tile_name(t) for t in tiles], tiles=tiles)


@effects.decision("h40_tile")
def _decide_tile(ctx, pending, index):
    tid = pending["data"]["tiles"][index]
    options = {}
    for label, rot, _ in city.shifts(ctx, tid, movable(ctx)):
        options.setdefault(label, []).append(rot)
    labels = sorted(options)
    if not labels:
        rest = [t for t in pending["data"]["tiles"] if t != tid]
        ctx.say(f"The {ctx.tile_name(tid)} cannot move without cutting the city apart; pick another.", kind="city")
        effects.ask(ctx, pending["player"], "h40_tile", "which city tile does the Machine move?",
                    [ctx.tile_name(t) for t in rest], tiles=rest)
        return
    effects.ask(ctx, pending["player"], "h40_where", f"where does the {ctx.tile_name(tid)} go?", labels,
                tile=tid, labels=labels)


@effects.decision("h40_where")
def _decide_where(ctx, pending, index):
    tid, label = pending["data"]["tile"], pending["data"]["labels"][index]
    found = [(rot, new) for lab, rot, new in city.shifts(ctx, tid, movable(ctx)) if lab == label]
    distinct = {}
    for rot, new in found:
        distinct.setdefault(tuple(sorted(bd.doorways(ctx.c.tiles[tid], rot))), rot)
    rots = list(distinct.values())
    if len(rots) == 1:
        shift(ctx, tid, label, rots[0])
        return
    effects.ask(ctx, pending["player"], "h40_turn", f"how is the {ctx.tile_name(tid)} turned?",
                ["doorways " + ", ".join(key) for key in distinct], tile=tid, label=label, rots=rots)


@effects.decision("h40_turn")
def _decide_turn(ctx, pending, index):
    d = pending["data"]
    shift(ctx, d["tile"], d["label"], d["rots"][index])


def shift(ctx, tid: str, label: str, rot: int):
    new = next(b for lab, r, b in city.shifts(ctx, tid, movable(ctx)) if lab == label and r == rot)
    city.apply_board(ctx, new, f"The Machine rearranges the city: the {ctx.tile_name(tid)} moves, {label}.")


# --- the board-wide attack -------------------------------------------------------------------------

def street_dice(ctx, m: dict) -> int:
    board = ctx.s["board"]
    squares = bd.grid(board)
    near = [squares.get(bd.neighbour_square(board[m["tile"]], side)) for side in bd.SIDES]
    return sum(1 for t in near if t and ctx.c.tiles[t].kind == "street" and not board[t].get("face_down"))


def machine_attack(ctx, pid: str):
    s = ctx.s
    m = the_machine(ctx)
    targets = [p for p in hp.alive(s, hp.heroes(s)) if st.on_board(s["players"][p])
               and attack.shielded(ctx, p) is None]
    if m is None or not targets:
        raise IllegalAction("No hero is on the board to attack.")
    if not mine(ctx)["attacked_once"]:
        mine(ctx)["attacked_once"] = True
        ctx.say(READ_ALOUD, kind="haunt")
    extra = street_dice(ctx, m)
    ctx.say(f"The Infernal Machine attacks every hero on the board (Might 2, +{extra} for the streets beside "
            "it).", kind="attack")
    a = effects.make_roll(ctx, pid, rng.dice_count(m["traits"]["might"] + extra), "Might for the Infernal Machine",
                          kind="attack")
    steps = []
    for hero in targets:
        d = attack.defence_roll(ctx, hero, "might", ctx.value(hero, "might"))
        steps.append(attack.roll_off(m["id"], hero, "might", a, d, s["players"][hero]["tile"] != m["tile"]))
    effects.queue(ctx, pid, [*steps, {"do": "_attack_over"}], source="attack", front=True)


# --- the instructions ------------------------------------------------------------------------------

def pages(ctx, pid: str) -> int:
    return mine(ctx)["pages"].get(pid, 0)


def add_pages(ctx, pid: str, n: int):
    held = mine(ctx)["pages"]
    held[pid] = held.get(pid, 0) + n
    if not held[pid]:
        held.pop(pid)


def collect(ctx, pid: str):
    s = ctx.s
    tile = s["players"][pid]["tile"]
    if not any(t["name"] == PAGE for t in tk.on_tile(s, tile)):
        raise IllegalAction(f"No instructions lie on the {ctx.tile_name(tile)}.")
    effects.queue(ctx, pid, [{"do": "roll", "trait": "knowledge", "bands": [
        {"at_least": TARGET, "then": [{"do": "h40_collected", "tile": tile}]},
        {"at_most": TARGET - 1, "then": []}]}], source="haunt", front=True)


@effects.step("h40_collected")
def _collected(ctx, task, item):
    pid = task["player"]
    page = next((t for t in tk.on_tile(ctx.s, item["tile"]) if t["name"] == PAGE), None)
    if page is None:
        return
    tk.remove(ctx.s, page)
    add_pages(ctx, pid, 1)
    ctx.say(f"{ctx.name(pid)} picks up a page of the Machine's instructions ({pages(ctx, pid)} held).", kind="haunt")


def feed(ctx, pid: str):
    s = ctx.s
    m = the_machine(ctx)
    if not pages(ctx, pid):
        raise IllegalAction("You hold no instructions.")
    if m is None or s["players"][pid]["tile"] != m["tile"]:
        raise IllegalAction("You must be on the Infernal Machine's tile.")
    effects.queue(ctx, pid, [{"do": "roll", "trait": "knowledge", "bands": [
        {"at_least": TARGET, "then": [{"do": "h40_fed"}]},
        {"at_most": TARGET - 1, "then": []}]}], source="haunt", front=True)


@effects.step("h40_fed")
def _fed(ctx, task, item):
    pid = task["player"]
    add_pages(ctx, pid, -1)
    counters = ctx.s["haunt"]["counters"]
    counters[FED] = counters.get(FED, 0) + 1
    ctx.say(f"{ctx.name(pid)} feeds a page into the Machine ({counters[FED]} fed).", kind="haunt")
    tr.change(ctx, pid, "knowledge", 1)


def takers(ctx, pid: str) -> list[str]:
    """The living heroes on your tile, in seat order."""
    s = ctx.s
    if not st.on_board(s["players"][pid]):
        return []
    return [o for o in st.players_on(s, s["players"][pid]["tile"], beside=pid)
            if o != pid and o in hp.heroes(s) and s["players"][o]["alive"]]


def give(ctx, pid: str, other: str):
    if not pages(ctx, pid):
        raise IllegalAction("You hold no instructions.")
    if other not in takers(ctx, pid):
        raise IllegalAction("Hand the page to a hero on your tile.")
    hand(ctx, pid, other)


def hand(ctx, pid: str, other: str):
    add_pages(ctx, pid, -1)
    add_pages(ctx, other, 1)
    ctx.say(f"{ctx.name(pid)} hands a page of instructions to {ctx.name(other)}.", kind="haunt")


@rulesets.register(40)
class InfernalMachine(rulesets.RuleSet):
    title = "Infernal Machine"

    def setup_step(self, ctx, step):
        text = step.get("text", "")
        if step.get("do") != "manual":
            return None
        s = ctx.s
        mine(ctx)
        if "drop all your items" in text:
            for pid in hp.traitors(s):
                p = s["players"][pid]
                for cid in [c for c in p["cards"] if ctx.c.cards[c].deck != "event"]:
                    if cid in p["cards"]:  # (losing one card's bonus may discard another)
                        cd.lose(ctx, pid, cid)
                        s["piles"].setdefault(p["tile"], []).append(cid)
                mk.add(ctx, pid, "away", why="machine")
                ctx.say(f"{ctx.name(pid)}'s figure leaves the board; what they carried lies on the "
                        f"{ctx.tile_name(p['tile'])}.", kind="haunt_setup")
            ctx.say("Setup: the Machine's turn: {move:rearrange} (move or swap a city tile) and {move:attack} "
                    "(every hero on the board).", kind="haunt_setup", to="traitors")
            return True
        if "room" in text:
            if step.get("side") == "heroes":
                ctx.say("Setup: heroes, {move:collect} picks up instructions (4+), {move:give} hands one over, "
                        "and {move:feed} on the Machine's tile feeds one in (4+).", kind="haunt_setup", to="heroes")
            return True
        return None

    def monster_turn(self, ctx, number):
        """The Machine neither moves nor attacks in the monster turn."""
        s = ctx.s
        s["turn"] = {**st.new_turn(hp.controller(s), number), "monsters": True, "moves": {}, "acted": [],
                     "attacked": [], "stunned_at_start": []}
        hp.end_monster_turn(ctx)
        return True

    def monster_blocked(self, ctx, m, dest):
        return "The Infernal Machine is dug into the ground." if m["name"] == MACHINE else None

    def monster_hurt(self, ctx, m, kind, amount):
        if m["name"] != MACHINE:
            return None
        ctx.say("The Infernal Machine shrugs off the blow: it cannot be damaged or stunned.", kind="monster")
        return True

    def death(self, ctx, pid, killer):
        n = pages(ctx, pid)
        if n:
            for _ in range(n):
                tk.place(ctx.s, PAGE, ctx.s["players"][pid]["tile"])
            add_pages(ctx, pid, -n)
            ctx.say(f"{ctx.name(pid)}'s {n} page{'s' if n != 1 else ''} of instructions drop on the "
                    f"{ctx.tile_name(ctx.s['players'][pid]['tile'])}.", kind="haunt")

    own = OWN
    moves = (
        rulesets.Move("rearrange", "Rearrange the city", lambda ctx, pid, trait: rearrange(ctx, pid),
                      who="traitors", once_per_turn=True,
                      summary="Move one city tile to an open city doorway, or swap two, never cutting the city "
                              "apart."),
        rulesets.Move("attack", "Shake the streets", lambda ctx, pid, trait: machine_attack(ctx, pid),
                      who="traitors", once_per_turn=True,
                      summary="One Might roll (2 dice, +1 per street tile beside the Machine) against every hero "
                              "on the board."),
        rulesets.Move("collect", "Gather instructions", lambda ctx, pid, trait: collect(ctx, pid),
                      traits=("knowledge",), who="heroes", once_per_turn=True,
                      summary="Knowledge 4+ picks up a page of instructions lying on your tile."),
        rulesets.Move("feed", "Feed the Machine", lambda ctx, pid, trait: feed(ctx, pid),
                      traits=("knowledge",), who="heroes", once_per_turn=True,
                      summary="On the Machine's tile: Knowledge 4+ feeds a page in and gains 1 Knowledge."),
        rulesets.Move("give", "Give a page", lambda ctx, pid, trait, target: give(ctx, pid, target),
                      args=(rulesets.Arg("player", lambda ctx, pid: takers(ctx, pid), "Who takes the page?"),),
                      who="heroes", allowed=lambda ctx, pid: None if pages(ctx, pid) else "You hold no instructions.",
                      summary="Hand a page of instructions to a hero on your tile."),
    )

    def haunt_goals(self, ctx, pid):
        """A hero with a page heads for the Machine; without one, for the
        nearest instructions (or the Machine when none are left lying)."""
        s = ctx.s
        m = the_machine(ctx)
        if pid in hp.traitors(s):
            return set()
        lying = {t["tile"] for t in s["tokens"] if t["name"] == PAGE}
        if pages(ctx, pid) or not lying:
            return {m["tile"]} if m else set()
        return lying
