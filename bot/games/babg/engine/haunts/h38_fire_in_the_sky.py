"""Haunt 38, Fire in the Sky (Secrets of Survival; no traitor).

What the bot carries out:
- Setup: the Citizens (twice the heroes), one per city tile in the book's
  order: the Elfsong Tavern, the Inner Chamber, then ring after ring around
  the Elfsong Tavern (diagonals count); the heroes' chooser picks only where a
  ring has more tiles than Citizens left; the rest go on the Elfsong Tavern
  once the city runs out of empty tiles.
- The fire, at once and at the start of each of the haunt revealer's turns:
  Citizens on burning tiles die (carried ones are safe), 1 die per unburnt
  city tile (a 0 sets it alight), 2 physical damage to every hero once the
  whole city burns.
- Leaving a burning tile: a die first; on a 0 the hero stays put without
  spending the space, takes 1 physical damage and drops a carried Citizen.
- Carrying Citizens: the declared move `pickup` on a Citizen's tile (Might
  3+, once a turn, one Citizen at a time), `drop` to put it down; a hero who
  dies drops theirs.
- The Teleportation Circle: the move `circle` on the catacomb level
  (Knowledge 6+, or 3+ for a Bard, Sorcerer or Wizard; once a turn); every
  Citizen on its tile, or put down there later, is rescued.
- Both ends: Citizens rescued reaching the starting heroes; Citizens killed
  reaching the starting heroes + 1, or every hero dead.

Left to the players: nothing of the haunt's rules.
"""
from .. import effects, rng, rulesets
from .. import haunt_play as hp
from .. import tokens as tk
from ..errors import IllegalAction

CITIZEN, FIRE, CIRCLE = "Citizen", "Fire", "Teleportation Circle"
KILLED, RESCUED = "Citizens killed", "Citizens rescued"
HOME, SECOND = "elfsong_tavern", "inner_chamber"
CASTERS = ("bard", "sorcerer", "wizard")
WORDS = ("On a Citizen's tile: {move:pickup} (Might 3+; one Citizen at a time); {move:drop} puts it down. On the "
         "catacomb level: {move:circle} makes the Teleportation Circle (6+, or 3+ for a Bard, Sorcerer or Wizard).")
OWN = rulesets.Own("h38", {"carrying": [], "left": 0}, players=("carrying",))


def mine(ctx) -> dict:
    """This haunt's own record: who carries a Citizen, the Citizens still to place."""
    return rulesets.REGISTRY[38].record(ctx.s)


def city(ctx) -> list[str]:
    return [t for t in ctx.s["board"] if ctx.c.tiles[t].level == "city"]


def burning(ctx, tile: str) -> bool:
    return any(t["name"] == FIRE for t in tk.on_tile(ctx.s, tile))


def citizens_on(ctx, tile: str) -> list[dict]:
    return [t for t in tk.on_tile(ctx.s, tile) if t["name"] == CITIZEN]


def circle_tile(ctx) -> str | None:
    return next((t["tile"] for t in ctx.s["tokens"] if t["name"] == CIRCLE), None)


def ring(ctx, tile: str) -> int:
    """How many squares out from the Elfsong Tavern (diagonals count)."""
    a, b = ctx.s["board"][HOME], ctx.s["board"][tile]
    return max(abs(a["x"] - b["x"]), abs(a["y"] - b["y"]))


def next_tiles(ctx) -> list[str]:
    """Where the next Citizen may go: the first empty tile in the book's
    order (the Elfsong Tavern, the Inner Chamber, then the nearest ring)."""
    taken = {t["tile"] for t in ctx.s["tokens"] if t["name"] == CITIZEN}
    for first in (HOME, SECOND):
        if first in ctx.s["board"] and first not in taken:
            return [first]
    free = [t for t in city(ctx) if t not in taken]
    if not free:
        return [HOME] if HOME in ctx.s["board"] else []
    nearest = min(ring(ctx, t) for t in free)
    return sorted((t for t in free if ring(ctx, t) == nearest), key=ctx.tile_name)


def put_citizen(ctx, tile: str):
    tk.place(ctx.s, CITIZEN, tile)
    ctx.say(f"A Citizen is put on the {ctx.tile_name(tile)}.", kind="token", tile=tile)


@effects.step("h38_place")
def _place(ctx, task, item):
    """Secrets of Survival, haunt 38: "Right Now" (the Citizens)."""
    while mine(ctx)["left"] > 0:
        tiles = next_tiles(ctx)
        if not tiles:
            return
        if len(tiles) > mine(ctx)["left"]:  # a ring with more tiles than Citizens: the heroes pick
            task["steps"].insert(0, item)
            effects.ask(ctx, task["player"], "h38_citizen", f"which tile gets the next Citizen "
                        f"({mine(ctx)['left']} left)?", [ctx.tile_name(t) for t in tiles], tiles=tiles)
            return
        mine(ctx)["left"] -= 1
        put_citizen(ctx, tiles[0])


@effects.decision("h38_citizen")
def _decide_citizen(ctx, pending, index):
    mine(ctx)["left"] -= 1
    put_citizen(ctx, pending["data"]["tiles"][index])


@effects.step("h38_fire")
def _fire(ctx, task, item):
    """Secrets of Survival, haunt 38: the fire section (done at once and as
    each of the haunt revealer's turns starts)."""
    s = ctx.s
    for tile in city(ctx):
        if burning(ctx, tile):
            for token in citizens_on(ctx, tile):
                tk.remove(s, token)
                s["haunt"]["counters"][KILLED] = s["haunt"]["counters"].get(KILLED, 0) + 1
                ctx.say(f"A Citizen on the burning {ctx.tile_name(tile)} dies in the flames "
                        f"({s['haunt']['counters'][KILLED]} killed).", kind="haunt", tile=tile)
    hp.check_wins(ctx)
    if s["phase"] != "haunt":
        return
    dry = sorted((t for t in city(ctx) if not burning(ctx, t)), key=ctx.tile_name)
    if dry:
        faces = rng.roll(s, len(dry))
        ctx.say("The fire spreads: 1 die for each unburnt city tile: " + ", ".join(
            f"{ctx.tile_name(t)} {f}" for t, f in zip(dry, faces)) + ".", kind="roll", player=task["player"],
            faces=faces, total=sum(faces))
        for tile, face in zip(dry, faces):
            if face == 0:
                tk.place(s, FIRE, tile)
                ctx.say(f"The {ctx.tile_name(tile)} catches fire.", kind="token", tile=tile)
    if city(ctx) and all(burning(ctx, t) for t in city(ctx)):
        ctx.say("The whole city is ablaze and caves in: each hero takes 2 physical damage.", kind="haunt")
        for pid in hp.alive(s, hp.heroes(s)):
            effects.queue(ctx, pid, [{"do": "damage", "kind": "physical", "amount": 2}], source="haunt")


@effects.step("h38_fire_exit")
def _fire_exit(ctx, task, item):
    """Secrets of Survival, haunt 38: "Moving Through the Fire"."""
    pid = task["player"]
    face = effects.make_roll(ctx, pid, 1, f"1 die to get out of the burning {ctx.tile_name(item['tile'])}")
    if face != 0:
        return
    for other in ctx.s["queue"]:  # the step away does not happen and costs nothing
        if other["player"] == pid and any(x.get("do") == "_go" and x.get("from") == item["tile"]
                                          for x in other["steps"]):
            other["steps"] = [x for x in other["steps"] if x.get("do") == "_settle_event"]
            break
    ctx.say(f"The flames drive {ctx.name(pid)} back.", kind="haunt", player=pid)
    if pid in mine(ctx)["carrying"]:
        put_down(ctx, pid)
    effects.push_front(ctx, [{"do": "damage", "kind": "physical", "amount": 1}])


@effects.step("h38_picked")
def _picked(ctx, task, item):
    pid = task["player"]
    token = next(iter(citizens_on(ctx, ctx.s["players"][pid]["tile"])), None)
    if token is None or pid in mine(ctx)["carrying"]:
        return
    tk.remove(ctx.s, token)
    mine(ctx)["carrying"].append(pid)
    ctx.say(f"{ctx.name(pid)} lifts a Citizen to carry.", kind="haunt", player=pid)


def put_down(ctx, pid: str):
    tile = ctx.s["players"][pid]["tile"]
    mine(ctx)["carrying"].remove(pid)
    put_citizen(ctx, tile)
    rescue(ctx)


def rescue(ctx):
    """Secrets of Survival, haunt 38: "How to Rescue a Citizen"."""
    s = ctx.s
    tile = circle_tile(ctx)
    if not tile:
        return
    for token in citizens_on(ctx, tile):
        tk.remove(s, token)
        s["haunt"]["counters"][RESCUED] = s["haunt"]["counters"].get(RESCUED, 0) + 1
        ctx.say(f"A Citizen is teleported to safety ({s['haunt']['counters'][RESCUED]} rescued).", kind="haunt")


@effects.step("h38_circle")
def _circle(ctx, task, item):
    pid = task["player"]
    if circle_tile(ctx):
        return
    tile = ctx.s["players"][pid]["tile"]
    tk.place(ctx.s, CIRCLE, tile)
    ctx.say(f"{ctx.name(pid)} draws the Teleportation Circle on the {ctx.tile_name(tile)}.", kind="haunt", tile=tile)
    rescue(ctx)


def caster(ctx, pid: str) -> bool:
    return ctx.c.adventurers[ctx.s["players"][pid]["adventurer"]].klass.lower() in CASTERS


@rulesets.register(38)
class FireInTheSky(rulesets.RuleSet):
    title = "Fire in the Sky"

    def setup_step(self, ctx, step):
        s = ctx.s
        if step.get("label") == CITIZEN:
            mine(ctx)["left"] = hp.count_value(ctx, step.get("count", 0)) or 0
            ctx.say(f"Setup: {mine(ctx)['left']} Citizens are placed around the Elfsong Tavern.", kind="haunt_setup")
            effects.queue(ctx, hp.chooser(s, "heroes"), [{"do": "h38_place"}], source="haunt")
            return True
        text = step.get("text", "")
        if "Teleportation Circle" in text:
            ctx.say(f"Setup: the Teleportation Circle waits to be made. {WORDS}", kind="haunt_setup")
            return True
        if "Fire markers" in text:
            return True  # the bot keeps the Fire tokens
        if "fire step once now" in text:
            effects.queue(ctx, hp.chooser(s, "heroes"), [{"do": "h38_fire"}], source="haunt")
            return True
        return None

    def turn_started(self, ctx, pid):
        s = ctx.s
        revealer = s["haunt"]["revealer"]
        # Ruling: with the haunt revealer dead, the fire comes at the start of the turn of the living hero who
        # plays last in the round (the nearest before the revealer's seat), so it still spreads once a round.
        last = next((p for p in reversed(s["order"]) if p != hp.MONSTERS and s["players"][p]["alive"]), None)
        if pid == revealer or (not s["players"][revealer]["alive"] and pid == last):
            effects.queue(ctx, pid, [{"do": "h38_fire"}], source="haunt")

    def leaving(self, ctx, pid, tile):
        if burning(ctx, tile):
            effects.queue(ctx, pid, [{"do": "h38_fire_exit", "tile": tile}], source="haunt", front=True)

    def death(self, ctx, pid, killer):
        if pid in mine(ctx)["carrying"]:  # Ruling: a hero who dies puts down the Citizen they carry
            put_down(ctx, pid)

    own = OWN
    moves = (
        rulesets.Move("pickup", "Pick up a Citizen", lambda ctx, pid, trait: pickup(ctx, pid),
                      traits=("might",), who="heroes", once_per_turn=True,
                      allowed=lambda ctx, pid: "You can carry only 1 Citizen at a time."
                      if pid in mine(ctx)["carrying"] else None,
                      summary="On a Citizen's tile: Might 3+ lifts one to carry (one at a time)."),
        rulesets.Move("drop", "Put down your Citizen", lambda ctx, pid, trait: drop(ctx, pid), who="heroes",
                      allowed=lambda ctx, pid: None if pid in mine(ctx)["carrying"] else "You carry no Citizen.",
                      summary="Put the Citizen you carry down on your tile (on the Circle: rescued)."),
        rulesets.Move("circle", "Make the Teleportation Circle", lambda ctx, pid, trait: circle(ctx, pid),
                      traits=("knowledge",), who="heroes", once_per_turn=True,
                      allowed=lambda ctx, pid: "The Teleportation Circle has already been made."
                      if circle_tile(ctx) else None,
                      summary="On the catacomb level: Knowledge 6+ (3+ for a Bard, Sorcerer or Wizard) makes the "
                              "Circle there."),
    )

    def haunt_goals(self, ctx, pid):
        """A carrier heads for the Circle (or the catacombs to make it); the
        hero best at making it goes down first; the others fetch Citizens."""
        s = ctx.s
        circle = circle_tile(ctx)
        below = {t for t in s["board"] if ctx.c.tiles[t].level == "catacomb"}
        if pid in mine(ctx)["carrying"]:
            return {circle} if circle else below
        living = hp.alive(s, hp.heroes(s))
        maker = max(living, key=lambda p: (caster(ctx, p), ctx.value(p, "knowledge")), default=None)
        if not circle and pid == maker:
            return below
        return {t["tile"] for t in s["tokens"] if t["name"] == CITIZEN} or ({circle} if circle else below)


def pickup(ctx, pid: str):
    """Secrets of Survival, haunt 38, "How to Move a Citizen" (Ruling: one
    try a turn, as every task roll)."""
    if pid in mine(ctx)["carrying"]:
        raise IllegalAction("You can carry only 1 Citizen at a time.")
    if not citizens_on(ctx, ctx.s["players"][pid]["tile"]):
        raise IllegalAction("There is no Citizen on your tile.")
    effects.queue(ctx, pid, [{"do": "roll", "trait": "might", "bands": [
        {"at_least": 3, "then": [{"do": "h38_picked"}]}, {"at_most": 2, "then": []}]}], source="haunt", front=True)


def drop(ctx, pid: str):
    if pid not in mine(ctx)["carrying"]:
        raise IllegalAction("You carry no Citizen.")
    put_down(ctx, pid)


def circle(ctx, pid: str):
    """Secrets of Survival, haunt 38, "How to Create the Teleportation Circle"."""
    if circle_tile(ctx):
        raise IllegalAction("The Teleportation Circle has already been made.")
    if ctx.c.tiles[ctx.s["players"][pid]["tile"]].level != "catacomb":
        raise IllegalAction("The Teleportation Circle is made on the catacomb level.")
    target = 3 if caster(ctx, pid) else 6
    effects.queue(ctx, pid, [{"do": "roll", "trait": "knowledge", "bands": [
        {"at_least": target, "then": [{"do": "h38_circle"}]}, {"at_most": target - 1, "then": []}]}],
        source="haunt", front=True)
