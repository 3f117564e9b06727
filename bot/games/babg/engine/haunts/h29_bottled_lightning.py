"""Haunt 29, Bottled Lightning (Traitor's Tome and Secrets of Survival: the
haunt revealer is the traitor).

What the bot carries out:
- Setup: the traitor's Might back to its start, +2 (data), and 1 Speed lost
  but never below the step above the skull; the Iron Flask of Tuerny in the
  traitor's hands when no adventurer holds it; the Sea Spawn (one per hero)
  on the Catacomb Landing, the Kitchen Basement, then the tiles joined to
  them by a doorway (the traitor picks when there are more tiles than Sea
  Spawn), the rest on the Catacomb Landing; the Neglected Shrine and the
  Flooded Chamber fetched from the catacomb stack when missing, the second
  joined at the open door farthest from the first (the heroes pick among
  equals); the shrine's flood counter at 0.
- The Iron Flask cannot be opened to attack in this haunt; it is stolen like
  any item.
- Empowering: the traitor ends a turn on a street tile holding the Flask.
  While the traitor holds the empowered Flask, a Sea Spawn's defence dice
  showing 0 are rolled again once.
- The flood: the declared move `drain` on the Flooded Chamber (4+) puts the
  first Flood token there; from then on, at the start of each hero's turn,
  a die is rolled and that many Flood tokens go along the shortest way from
  the Flooded Chamber to the Neglected Shrine, one on each tile without one,
  ending with one on the Shrine. Entering a flooded tile costs adventurers
  1 more space (the token is drawn on the map); Sea Spawn ignore it.
- Sea Spawn: in the monster turn, instead of attacking, the declared move
  `bail` for one Sea Spawn (Speed 4+) takes a Flood token off its tile.
- Delivering: the declared move `release` on the Neglected Shrine with the
  empowered Flask, 4+ plus 1 per hero there, wins for the traitor.
- Wins: the heroes with 3 Flood tokens on the Shrine or the traitor dead
  (data); the traitor by the release or with every hero dead.

Left to the players: nothing the books print.
"""
from collections import deque

from .. import board as bd
from .. import cards as cd
from .. import effects, geometry, rng, rulesets
from .. import haunt_play as hp
from .. import state as st
from .. import tokens as tk
from .. import traits as tr
from ..errors import IllegalAction

FLASK = "iron_flask_of_tuerny"
FLOOD = "Flood"  # this haunt's flooding: a square Obstacle token on the tile
SPAWN = "Sea Spawn"
SHRINE, CHAMBER = "neglected_shrine", "flooded_chamber"
LANDING, BASEMENT = "catacomb_landing", "kitchen_basement"
SHRINE_COUNT = "Obstacle tokens on the Neglected Shrine"
DRAIN_TARGET, BAIL_TARGET, RELEASE_TARGET = 4, 4, 4


def seen(ctx) -> dict:
    return ctx.s["haunt"].get("h29") or {}


OWN = rulesets.Own("h29", {"started": False, "empowered": False, "won": None})


def mine(ctx) -> dict:
    return rulesets.REGISTRY[29].record(ctx.s)


def floods(s: dict, tile: str) -> list[dict]:
    return [t for t in s["tokens"] if t["name"] == FLOOD and t["tile"] == tile]


def flask_holder(ctx) -> str | None:
    return cd.holder_of(ctx, FLASK)


def recount(ctx):
    ctx.s["haunt"]["counters"][SHRINE_COUNT] = len(floods(ctx.s, SHRINE))


def flood(ctx, tile: str):
    tk.place(ctx.s, FLOOD, tile, enter_cost=2)
    recount(ctx)


def water_path(ctx) -> list[str]:
    """The shortest way through doorways from the Flooded Chamber to the
    Neglected Shrine, both included (Ruling: among equally short ways, the
    first by tile name)."""
    s = ctx.s
    if CHAMBER not in s["board"] or SHRINE not in s["board"]:
        return []
    before = {CHAMBER: None}
    todo = deque([CHAMBER])
    while todo:
        here = todo.popleft()
        if here == SHRINE:
            break
        for other in sorted({t for t, _ in geometry.moves_from(ctx, here, doors_only=True)}, key=ctx.tile_name):
            if other not in before:
                before[other] = here
                todo.append(other)
    if SHRINE not in before:
        return []
    path = [SHRINE]
    while before[path[-1]]:
        path.append(before[path[-1]])
    return path[::-1]


# --- setup ---------------------------------------------------------------------------------------------

@effects.step("h29_spawn")
def _spawn(ctx, task, item):
    """Traitor's Tome, haunt 29, "Right Now": the Sea Spawn's places."""
    s = ctx.s
    left = item["left"]
    if left <= 0:
        return
    taken = {m["tile"] for m in s["monsters"] if m["name"] == SPAWN}
    for first in (LANDING, BASEMENT):
        if first in s["board"] and first not in taken:
            hp.add_monster(ctx, SPAWN, first)
            effects.push_front(ctx, [{**item, "left": left - 1}])
            return
    near = set()
    for t in (LANDING, BASEMENT):
        if t in s["board"]:
            near |= {x for x in bd.exits(ctx.c, s["board"], t).values() if x}
    near = sorted(near - taken - {LANDING, BASEMENT}, key=ctx.tile_name)
    if not near:
        for _ in range(left):
            hp.add_monster(ctx, SPAWN, LANDING)
        return
    if len(near) <= left:
        hp.add_monster(ctx, SPAWN, near[0])
        effects.push_front(ctx, [{**item, "left": left - 1}])
        return
    effects.ask(ctx, task["player"], "h29_spawn", f"which tile joined to the start tiles gets a Sea Spawn ({left} "
                "left)?", [ctx.tile_name(t) for t in near], tiles=near, item=item)


@effects.decision("h29_spawn")
def _decide_spawn(ctx, pending, index):
    item = pending["data"]["item"]
    hp.add_monster(ctx, SPAWN, pending["data"]["tiles"][index])
    effects.push_front(ctx, [{**item, "left": item["left"] - 1}])


@effects.step("h29_fetch")
def _fetch(ctx, task, item):
    """Secrets of Survival, haunt 29, "Right Now": the missing tile joins an
    open catacomb door, as far from the other one as possible."""
    s = ctx.s
    tid, other = item["tile"], item["other"]
    if tid in s["board"]:
        return
    doors = hp.fetch_doors(ctx, tid)
    if other in s["board"] and doors:
        reach = geometry.distances(ctx, other)
        far = max(reach.get(d[0], 0) for d in doors)
        doors = [d for d in doors if reach.get(d[0], 0) == far]
    if not doors:
        ctx.say(f"Setup: no open door can take the {ctx.c.tiles[tid].name}; it stays out of play.",
                kind="haunt_setup")
        return
    if len(doors) == 1:
        hp.attach_fetched(ctx, tid, doors[0])
        return
    effects.ask(ctx, task["player"], "fetch_tile", f"which open door does the {ctx.c.tiles[tid].name} join?",
                [f"The {ctx.tile_name(t)}'s {side} door" for t, side, _ in doors], tile=tid,
                doors=[list(d) for d in doors])


# --- the flood ------------------------------------------------------------------------------------------

@effects.step("h29_drained")
def _drained(ctx, task, item):
    mine(ctx)["started"] = True
    flood(ctx, CHAMBER)
    ctx.say(f"{ctx.name(task['player'])} throws the switch: water pours out of the Flooded Chamber toward the "
            "Neglected Shrine.", kind="haunt", tile=CHAMBER)


@effects.step("h29_flow")
def _flow(ctx, task, item):
    """Secrets of Survival, haunt 29, "You Must Do This at the Start of
    Your Turn"."""
    n = effects.make_roll(ctx, task["player"], 1, "1 die for the flood", kind="dice")
    placed = 0
    for tile in water_path(ctx):
        if placed >= n:
            break
        if tile != SHRINE and floods(ctx.s, tile):
            continue
        flood(ctx, tile)
        placed += 1
        if tile == SHRINE:
            break
    ctx.say(f"The water flows on: {placed} Flood token{'s' if placed != 1 else ''} placed "
            f"({len(floods(ctx.s, SHRINE))} on the Neglected Shrine).", kind="haunt")


@effects.step("h29_bail")
def _bail(ctx, task, item):
    s = ctx.s
    m = next(x for x in s["monsters"] if x["id"] == item["monster"])
    total = effects.make_roll(ctx, task["player"], rng.dice_count(m["traits"]["speed"]),
                              f"Speed for {st.monster_called(m)} to clear the water", kind="contest")
    water = floods(s, m["tile"])
    if total >= BAIL_TARGET and water:
        tk.remove(s, water[0])
        recount(ctx)
        ctx.say(f"{st.monster_called(m)} clears a Flood token from the {ctx.tile_name(m['tile'])}.", kind="token",
                tile=m["tile"])


# --- the Flask ------------------------------------------------------------------------------------------

@effects.step("h29_end_check")
def _end_check(ctx, task, item):
    """Traitor's Tome, haunt 29, "How to Empower the Iron Flask of Tuerny"."""
    s = ctx.s
    pid = task["player"]
    tile = s["players"][pid]["tile"]
    if not seen(ctx).get("empowered") and flask_holder(ctx) == pid and s["players"][pid]["alive"] \
            and ctx.c.tiles[tile].kind == "street":
        mine(ctx)["empowered"] = True
        ctx.say(f"Lightning strikes the iron flask {ctx.name(pid)} holds up to the storm: it is empowered.",
                kind="haunt", player=pid)


@effects.step("h29_released")
def _released(ctx, task, item):
    mine(ctx)["won"] = "The marid is freed from the empowered Iron Flask on the Neglected Shrine."


def attempt(ctx, pid: str, trait: str, what: str):
    """The heroes' drain and the traitor's release (who, when and once a
    turn are checked at the door)."""
    s = ctx.s
    here = s["players"][pid]["tile"]
    if what == "drain":
        if here != CHAMBER:
            raise IllegalAction("The switch is in the Flooded Chamber.")
        if seen(ctx).get("started"):
            raise IllegalAction("The flood has already started.")
        target, steps = DRAIN_TARGET, [{"do": "h29_drained"}]
    else:
        if here != SHRINE:
            raise IllegalAction("The marid is freed on the Neglected Shrine.")
        if flask_holder(ctx) != pid or not seen(ctx).get("empowered"):
            raise IllegalAction("You need the empowered Iron Flask of Tuerny.")
        heroes_here = sum(1 for p in hp.alive(s, hp.heroes(s)) if s["players"][p]["tile"] == here)
        target, steps = RELEASE_TARGET + heroes_here, [{"do": "h29_released"}]
    effects.queue(ctx, pid, [{"do": "roll", "trait": trait, "bands": [
        {"at_least": target, "then": steps}, {"at_most": target - 1, "then": []}]}], source="haunt", front=True)


def spawn_ids(ctx) -> list[str]:
    return [m["id"] for m in ctx.s["monsters"] if m["name"] == SPAWN and not m["dead"]]


@rulesets.register(29)
class BottledLightning(rulesets.RuleSet):
    title = "Bottled Lightning"

    def setup_step(self, ctx, step):
        s = ctx.s
        text = step.get("text", "")
        mine(ctx)
        if step.get("do") == "manual" and "Lose 1 Speed" in text:
            for pid in hp.alive(s, hp.traitors(s)):
                if s["players"][pid]["traits"]["speed"] > 1:
                    tr.change(ctx, pid, "speed", -1)
                if flask_holder(ctx) is None:  # Ruling: Haunt 29: the traitor holds the Flask when nobody does
                    for pile in (s["decks"]["omen"], s["discard"].get("omen", []), *s["piles"].values()):
                        if FLASK in pile:
                            pile.remove(FLASK)
                    cd.gain(ctx, pid, FLASK)
                    ctx.say(f"Setup: {ctx.name(pid)} clutches the Iron Flask of Tuerny.", kind="haunt_setup")
            ctx.say("Your moves: end a turn on a street tile holding the Flask to empower it; {move:release} on "
                    "the Neglected Shrine with it; in the monster turn a Sea Spawn may {move:bail} instead of "
                    "attacking.", kind="haunt_setup", to="traitors")
            ctx.say("Your move: {move:drain} on the Flooded Chamber starts the flood.",
                    kind="haunt_setup", to="heroes")
            return True
        if step.get("do") == "manual" and SPAWN in text:
            effects.queue(ctx, hp.chooser(s, "traitor"), [{"do": "h29_spawn", "left": len(hp.heroes(s))}],
                          source="haunt")
            return True
        if step.get("do") == "fetch_tile" and step.get("tile") in (SHRINE, CHAMBER):
            other = CHAMBER if step["tile"] == SHRINE else SHRINE
            effects.queue(ctx, hp.chooser(s, "heroes"), [{"do": "h29_fetch", "tile": step["tile"], "other": other}],
                          source="haunt")
            return True
        return None

    def turn_started(self, ctx, pid):
        s = ctx.s
        if seen(ctx).get("started") and pid in hp.heroes(s):
            effects.queue(ctx, pid, [{"do": "h29_flow"}], source="haunt")

    def turn_ending(self, ctx, pid):
        if pid in hp.traitors(ctx.s):
            return [{"do": "h29_end_check"}]
        return None

    def card_unusable(self, ctx, pid, cid):
        if cid == FLASK:
            return "In this haunt the Iron Flask of Tuerny cannot be used to attack."
        return None

    def defence_reroll(self, ctx, mid, trait):
        s = ctx.s
        m = next((x for x in s["monsters"] if x["id"] == mid), None)
        holder = flask_holder(ctx)
        if m and m["name"] == SPAWN and seen(ctx).get("empowered") and holder in hp.traitors(s):
            return True
        return None

    def win_check(self, ctx):
        if seen(ctx).get("won"):
            return ("traitor", seen(ctx)["won"], "the marid freed")
        return None

    own = OWN
    moves = (
        rulesets.Move("drain", "Open the Flooded Chamber", lambda ctx, pid, trait: attempt(ctx, pid, trait, "drain"),
                      traits=("knowledge",), who="heroes", once_per_turn=True,
                      summary="On the Flooded Chamber, Knowledge 4+ starts the flood toward the Neglected Shrine."),
        rulesets.Move("release", "Free the marid", lambda ctx, pid, trait: attempt(ctx, pid, trait, "release"),
                      traits=("knowledge",), who="traitors", once_per_turn=True,
                      summary="On the Neglected Shrine with the empowered Flask, Knowledge 4+ (plus 1 per hero "
                              "there) wins for the traitor."),
        rulesets.Move("bail", "Clear the water", lambda ctx, pid, trait, target: bail(ctx, pid, trait, target),
                      traits=("speed",), who="traitors", when="monster_turn",
                      args=(rulesets.Arg("monster", lambda ctx, pid: spawn_ids(ctx), "Which Sea Spawn?"),),
                      summary="Instead of attacking, a Sea Spawn's Speed 4+ takes a Flood token off its tile."),
    )

    def haunt_goals(self, ctx, pid):
        s = ctx.s
        holder = flask_holder(ctx)
        if pid in hp.traitors(s):
            if holder != pid:
                if holder:
                    return {s["players"][holder]["tile"]}
                return {t for t, cards in s["piles"].items() if FLASK in cards}
            if not seen(ctx).get("empowered"):
                return {t for t in s["board"] if ctx.c.tiles[t].kind == "street"}
            return {SHRINE}
        if not seen(ctx).get("started") and CHAMBER in s["board"]:
            return {CHAMBER}
        if holder and holder in hp.traitors(s):
            return {s["players"][holder]["tile"]}
        return set()


def bail(ctx, pid: str, trait: str, mid: str):
    """Traitor's Tome, haunt 29, "Special Attack Rules": a Sea Spawn's Speed
    4+ roll instead of its attack."""
    s = ctx.s
    turn = s["turn"]
    if pid != hp.controller(s):
        raise IllegalAction("Sea Spawn clear the water in the monster turn.")
    m = next(x for x in s["monsters"] if x["id"] == mid)
    if m["name"] != SPAWN:
        raise IllegalAction("Only a Sea Spawn clears the water.")
    if m["stunned"]:
        raise IllegalAction(f"{st.monster_called(m)} is stunned.")
    if m["id"] in turn["attacked"]:
        raise IllegalAction(f"{st.monster_called(m)} has already attacked or cleared water this turn.")
    if not floods(s, m["tile"]):
        raise IllegalAction(f"There is no Flood token on {st.monster_called(m)}'s tile.")
    turn["attacked"].append(m["id"])
    effects.queue(ctx, pid, [{"do": "h29_bail", "monster": m["id"]}], source="haunt", front=True)
