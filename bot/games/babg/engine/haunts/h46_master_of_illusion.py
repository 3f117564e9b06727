"""Haunt 46, Master of Illusion (Traitor's Tome and Secrets of Survival:
the adventurer with the lowest Knowledge is the traitor).

What the bot carries out:
- Setup: the traitor's Knowledge and Speed back up to their start, then 1
  Knowledge gained (data); the traitor picks in private which numbered
  Illusion hides the Portal; the Illusions (twice the heroes) go face down
  on the tiles joined to just 1 other tile, never on the two start tiles
  (the traitor picks when there are more such tiles than Illusions); when
  there are too few, a tile is drawn for an open door the traitor picks and
  joined there, and takes an Illusion; the Research time counter (data).
- Nobody discovers new tiles by moving.
- At the start of the traitor's turn the counter goes down 1; at 0 the
  traitor wins (data), as when every hero is dead.
- Dispelling (the declared move `dispel`, a hero on a tile with an
  Illusion, once per turn): Sanity 4+; a failure lowers the counter 1 more. On a success
  the Illusion is discarded, the tile goes back into its stack, which is
  shuffled, a fresh tile from it takes its place, everything on the old
  tile moves onto the new one, and the dispeller resolves it as just
  discovered; under the Portal's Illusion the Portal (a quest token) is put
  on it. A tile that comes back later is a new tile: its once-per-game
  effects can be used again. Ruling: the new tile is the first of the
  stack (never the one just shuffled in while another is left) that,
  turned some way, joins the tile it was reached from and cuts no tile of
  the city off (rulebook, "Can I Seal Off a Level", L254: a tile that
  cannot lie there is passed over for the next); when no tile of the stack
  can, the dispelled tile itself is drawn back, lying as it lay.
- Closing the Portal (the declared move `close`, on its tile, not in the
  turn it was found): Knowledge 4+ and the heroes win; killing the traitor wins
  too (data).
- Blur: each attack on the traitor first rolls 1 die for the traitor; on a
  0 it does not happen (the attacker's attack is spent, no card discarded).
- Phantasmal killer (the declared move `phantasmal`, naming the hero, in
  place of the traitor's attack): Knowledge against Knowledge on a hero within 1
  tile, mental damage; a defender on another tile who wins deals none.
- Portal manipulation (the declared move `mix`, once per traitor turn): the
  traitor picks two Illusions; they are mixed face down and put back, one
  on each of the two tiles.

Left to the players: nothing the book prints.
"""
from .. import attack
from .. import board as bd
from .. import city, effects, rng, rulesets
from .. import haunt_play as hp
from .. import moves
from .. import state as st
from .. import tokens as tk
from ..errors import IllegalAction
from ..geometry import distances, moves_from

ILLUSION, PORTAL, COUNTER = "Illusion", "Portal", "Research time"
START_TILES = ("catacomb_landing", "kitchen_basement", "elfsong_tavern", "inner_chamber", "kitchen")
STACKS = ("building", "street", "catacomb")


OWN = rulesets.Own("h46", {"portal": None, "to_place": [], "found_turn": None, "closed": False}, secret=True)


def mine(ctx) -> dict:
    return rulesets.REGISTRY[46].record(ctx.s)


def illusions(ctx, tile: str | None = None) -> list[dict]:
    return [t for t in ctx.s["tokens"] if t["name"] == ILLUSION and "number" in t  # not the Illusion card's token
            and (tile is None or t["tile"] == tile)]


def portal_tile(ctx) -> str | None:
    return next((t["tile"] for t in ctx.s["tokens"] if t["name"] == PORTAL), None)


def dead_ends(ctx) -> list[str]:
    """Tiles joined to just 1 other tile, not the start tiles, with no Illusion yet."""
    taken = {t["tile"] for t in illusions(ctx)}
    found = []
    for tid in ctx.s["board"]:
        if tid in START_TILES or tid in taken:
            continue
        if len({t for t, _ in moves_from(ctx, tid)} - {tid}) == 1:
            found.append(tid)
    return sorted(found, key=ctx.tile_name)


def put_illusion(ctx, tile: str):
    number = mine(ctx)["to_place"].pop(0)
    tk.place(ctx.s, ILLUSION, tile, number=number)
    ctx.say(f"A face-down Illusion is put on the {ctx.tile_name(tile)}.", kind="token", tile=tile)
    ctx.say(f"Illusion {number} lies on the {ctx.tile_name(tile)}.", kind="secret", to="traitors")


@effects.step("h46_portal")
def _portal(ctx, task, item):
    n = len(mine(ctx)["to_place"])
    effects.ask(ctx, task["player"], "h46_portal", "which numbered Illusion hides the Portal (kept secret)?",
                [f"Illusion {k}" for k in range(1, n + 1)])


@effects.decision("h46_portal")
def _decide_portal(ctx, pending, index):
    mine(ctx)["portal"] = index + 1
    ctx.say(f"You note in secret: Illusion {index + 1} hides the Portal.", kind="secret", to="traitors")


@effects.step("h46_place")
def _place(ctx, task, item):
    """Right Now: one Illusion on each tile joined to only 1 other; too few
    such tiles, and a tile is drawn for a door the traitor picks."""
    left = mine(ctx)["to_place"]
    if not left:
        return
    task["steps"].insert(0, item)  # again, until every Illusion is down
    ends = dead_ends(ctx)
    if ends and len(ends) <= len(left):
        put_illusion(ctx, ends[0])
        return
    if ends:
        effects.ask(ctx, task["player"], "h46_end", f"which tile takes the next Illusion ({len(left)} left)?",
                    [ctx.tile_name(t) for t in ends], tiles=ends)
        return
    doors = new_tile_doors(ctx)
    if not doors:
        task["steps"].pop(0)
        ctx.say(f"No tile can be added: {len(left)} Illusion(s) stay off the board.", kind="haunt_setup")
        left.clear()
        return
    effects.ask(ctx, task["player"], "h46_door", "which open door gets a new tile for an Illusion?",
                [f"The {ctx.tile_name(t)}'s {side} door" for t, side in doors], doors=[list(d) for d in doors])


@effects.decision("h46_end")
def _decide_end(ctx, pending, index):
    put_illusion(ctx, pending["data"]["tiles"][index])


def new_tile_doors(ctx) -> list[tuple[str, str]]:
    s = ctx.s
    found = []
    for level in ("city", "catacomb"):
        for tid, side in bd.open_doorways(ctx.c, s["board"], level):
            colour = bd.placed_doorways(ctx.c, s["board"], tid)[side]
            if moves.stack_for(ctx, colour):
                found.append((tid, side))
    return sorted(found, key=lambda d: (ctx.tile_name(d[0]), d[1]))


@effects.decision("h46_door")
def _decide_door(ctx, pending, index):
    s = ctx.s
    tid, side = pending["data"]["doors"][index]
    stack = moves.stack_for(ctx, bd.placed_doorways(ctx.c, s["board"], tid)[side])
    square = bd.neighbour_square(s["board"][tid], side)
    new = s["stacks"][stack].pop(0)
    options = moves.placements(ctx, new, square, bd.OPPOSITE[side])
    rot = min(options, key=lambda o: (o[1], o[2]))[0]  # joined to a single tile where it can be
    s["board"][new] = {"level": square[0], "x": square[1], "y": square[2], "rot": rot}
    ctx.say(f"Setup: the {ctx.tile_name(new)} is drawn from the {stack} stack and joined to the "
            f"{ctx.tile_name(tid)}'s {side} door.", kind="haunt_setup", tile=new)
    put_illusion(ctx, new)


def replacement(ctx, old: str, place: dict, link, cut_before: set) -> tuple[str, int]:
    """(tile, rotation) to take a dispelled tile's place: the first tile of
    its stack (not the one just shuffled in while another is left) and turn
    that joins the tile it was reached from and cuts no tile of the level
    off that was joined before (rulebook, "Can I Seal Off a Level", L254: a
    tile that cannot lie there is passed over for the next). When no tile
    of the stack can, the dispelled tile is drawn back, lying as it lay, so
    every tile stays within reach."""
    square = (place["level"], place["x"], place["y"])
    stack = ctx.s["stacks"][ctx.c.tiles[old].stack]
    candidates = [t for t in stack if t != old]
    for tid in candidates:
        for rot, _ in city.fits(ctx, ctx.s["board"], tid, square, link[1] if link else None):
            board = {**ctx.s["board"], tid: {"level": square[0], "x": square[1], "y": square[2], "rot": rot}}
            if city.stranded(ctx, board, square[0]) <= cut_before:
                return tid, rot
    return old, place["rot"]


@effects.step("h46_dispelled")
def _dispelled(ctx, task, item):
    """Secrets of Survival, "How to Dispel Illusions", steps 1 to 5."""
    s = ctx.s
    pid, old = task["player"], item["tile"]
    token = next((t for t in illusions(ctx, old)), None)
    if token is None:
        return
    tk.remove(s, token)
    ctx.say(f"{ctx.name(pid)} dispels Illusion {token['number']} on the {ctx.tile_name(old)}.", kind="haunt",
            player=pid)
    was_portal = token["number"] == mine(ctx)["portal"]
    link = next(((t, way) for way, t in bd.exits(ctx.c, s["board"], old).items() if t), None)
    cut_before = city.stranded(ctx, s["board"], s["board"][old]["level"])
    place = s["board"].pop(old)
    stack = ctx.c.tiles[old].stack
    if stack not in s["stacks"]:
        s["board"][old] = place  # a start tile never leaves the board
        return
    s["stacks"][stack] = rng.shuffle(s, s["stacks"][stack] + [old])
    for p in s["players"].values():  # Returning Tiles: it counts as a new tile when it comes back
        p["once"] = [k for k in p.get("once", []) if k != f"tile:{old}"]
    if len(s["stacks"][stack]) < 2 and s["set_aside"].get(stack):  # tiles set aside come back when it runs low
        s["stacks"][stack] = rng.shuffle(s, s["stacks"][stack] + s["set_aside"][stack])
        s["set_aside"][stack] = []
    # Ruling: a fresh tile, never the one just shuffled in while the stack holds another; the first of the
    # stack that can lie there, turned so that no tile is cut off; none can, and the old tile comes back as it lay
    new, rot = replacement(ctx, old, place, link, cut_before)
    s["stacks"][stack].remove(new)
    s["board"][new] = {"level": place["level"], "x": place["x"], "y": place["y"], "rot": rot}
    if new == old:
        ctx.say(f"The {ctx.tile_name(old)} is shuffled back into the {stack} stack, and no other tile of it can lie "
                "there without cutting a tile off: it is drawn back, as it lay.", kind="discover", tile=new)
    else:
        ctx.say(f"The {ctx.tile_name(old)} is shuffled back into the {stack} stack; the {ctx.tile_name(new)} "
                "takes its place.", kind="discover", tile=new)
    for t in s["tokens"]:
        if t["tile"] == old:
            t["tile"] = new
    if old in s["piles"]:
        s["piles"].setdefault(new, []).extend(s["piles"].pop(old))
    for m in s["monsters"]:
        if m["tile"] == old:
            m["tile"] = new
    for other in s["seats"]:
        if s["players"][other]["tile"] == old and other != pid:
            s["players"][other]["tile"], s["players"][other]["half"] = new, None
    if was_portal:
        tk.place(s, PORTAL, new)
        mine(ctx)["found_turn"] = s["turn"]["number"]
        ctx.say(f"The traitor's note says Illusion {token['number']}: the Portal is found on the "
                f"{ctx.tile_name(new)}!", kind="haunt", tile=new)
    else:
        ctx.say(f"Illusion {token['number']} did not hide the Portal.", kind="haunt")
    moves.arrive(ctx, pid, new, entered_by=None, announce=False, discovered=True)


@effects.step("h46_failed")
def _failed(ctx, task, item):
    counters = ctx.s["haunt"]["counters"]
    counters[COUNTER] = counters.get(COUNTER, 0) - 1
    ctx.say(f"The Illusion holds; precious time is lost. {COUNTER}: {counters[COUNTER]}.", kind="counter")


@effects.step("h46_closed")
def _closed(ctx, task, item):
    mine(ctx)["closed"] = True
    ctx.say(f"{ctx.name(task['player'])} closes the Portal!", kind="haunt")


@effects.step("h46_mix")
def _mix(ctx, task, item):
    tiles = sorted({t["tile"] for t in illusions(ctx)}, key=ctx.tile_name)
    chosen = item.get("chosen", [])
    if len(chosen) < 2:
        task["steps"].insert(0, item)
        options = [t for t in tiles if t not in chosen]
        effects.ask(ctx, task["player"], "h46_mix", f"which Illusion do you lift ({len(chosen) + 1} of 2)?",
                    [ctx.tile_name(t) for t in options], tiles=options)
        return
    a, b = (next(t for t in illusions(ctx, tile)) for tile in chosen)
    if rng.roll(ctx.s, 1)[0] == 1:  # mixed face down: even odds they swap places
        a["number"], b["number"] = b["number"], a["number"]
    ctx.say(f"The traitor lifts the Illusions on the {ctx.tile_name(chosen[0])} and the "
            f"{ctx.tile_name(chosen[1])}, mixes them face down and puts them back.", kind="haunt")


@effects.decision("h46_mix")
def _decide_mix(ctx, pending, index):
    task = effects.current(ctx)
    task["steps"][0]["chosen"] = task["steps"][0].get("chosen", []) + [pending["data"]["tiles"][index]]


@rulesets.register(46)
class MasterOfIllusion(rulesets.RuleSet):
    title = "Master of Illusion"
    secret = ("h46",)               # which Illusion hides the Portal
    secret_token_fields = ("number",)  # the number under a face-down Illusion

    def setup_step(self, ctx, step):
        s = ctx.s
        if step.get("label") == ILLUSION:
            n = hp.count_value(ctx, step.get("count", 0)) or 0
            mine(ctx)["to_place"] = list(range(1, n + 1))
            ctx.say(f"Setup: {n} face-down Illusions go on the tiles joined to just one other tile.",
                    kind="haunt_setup")
            effects.queue(ctx, hp.controller(s), [{"do": "h46_portal"}, {"do": "h46_place"}], source="haunt")
            ctx.say("Heroes: on a tile with an Illusion, {move:dispel} (Sanity 4+, once a turn; a failure "
                    "costs 1 on the Research time track). Once the Portal is found, on its tile, in a later turn: "
                    "{move:close} (Knowledge 4+).", kind="haunt_setup", to="heroes")
            ctx.say("Traitor: {move:phantasmal} in place of your attack, on a hero within 1 tile; {move:mix} once "
                    "a turn to mix two Illusions. Blur is rolled for you each time you are attacked.",
                    kind="haunt_setup", to="traitors")
            return True
        if step.get("do") == "manual" and "quest token" in step.get("text", ""):
            return True  # the Portal token is put on the board when its Illusion is dispelled
        if step.get("do") == "manual" and ("discover" in step.get("text", "") or "stays in the room" in
                                           step.get("text", "") or "leave the room" in step.get("text", "")):
            return True  # the bot keeps the sides' rules apart and closes the unknown (discover_blocked)
        return None

    def discover_blocked(self, ctx, pid):
        return "Nobody discovers new tiles in this haunt (the heroes only by dispelling an Illusion)."

    def turn_started(self, ctx, pid):
        """Traitor's Tome: "You Must Do This at the Start of Your Turn"."""
        if pid in hp.traitors(ctx.s):
            counters = ctx.s["haunt"]["counters"]
            counters[COUNTER] = counters.get(COUNTER, 0) - 1
            ctx.say(f"The traitor's research goes on: {COUNTER} {counters[COUNTER]}.", kind="counter")

    def win_check(self, ctx):
        if mine(ctx)["closed"]:
            return ("heroes", "The Portal is closed before the fiends come through.")
        return None

    def attack_averted(self, ctx, pid, target):
        """Traitor's Tome: "Special Defense Rules" (blur)."""
        s = ctx.s
        if target not in hp.traitors(s) or pid in hp.traitors(s):
            return None
        face = effects.make_roll(ctx, target, 1, "1 die for blur", kind="dice")
        if face == 0:
            ctx.say("The attack strikes only a blur: it does not happen.", kind="attack")
            return True
        return None

    def haunt_goals(self, ctx, pid):
        s = ctx.s
        if pid in hp.traitors(s):
            return None
        portal = portal_tile(ctx)
        if portal:
            return {portal}
        return {t["tile"] for t in illusions(ctx)}

    own = OWN
    moves = (
        rulesets.Move("dispel", "Dispel the Illusion here", lambda ctx, pid, trait: dispel(ctx, pid, here(ctx, pid)),
                      traits=("sanity",), who="heroes", once_per_turn=True,
                      summary="On a tile with an Illusion, Sanity 4+ dispels it: a new tile takes its place, and "
                              "perhaps the Portal; a failure costs 1 Research time."),
        rulesets.Move("close", "Close the Portal", lambda ctx, pid, trait: close(ctx, pid, here(ctx, pid)),
                      traits=("knowledge",), who="heroes", once_per_turn=True,
                      summary="On the Portal's tile, not in the turn it was found, Knowledge 4+ closes it: the "
                              "heroes win."),
        rulesets.Move("phantasmal", "Cast phantasmal killer",
                      lambda ctx, pid, trait, target: phantasmal(ctx, pid, target),
                      traits=("knowledge",), who="traitors", instead_of_attack=True,
                      args=(rulesets.Arg("player", lambda ctx, pid: in_reach(ctx, pid), "Which hero?"),),
                      summary="In place of your attack, Knowledge against Knowledge on a hero within 1 tile; mental "
                              "damage, none to you from another tile."),
        rulesets.Move("mix", "Mix two Illusions", lambda ctx, pid, trait: mix(ctx, pid),
                      who="traitors", once_per_turn=True,
                      summary="Lift two Illusions, mix them face down and put one back on each tile."),
    )


def here(ctx, pid: str) -> str:
    return ctx.s["players"][pid]["tile"]


def in_reach(ctx, pid: str) -> list[str]:
    """The heroes phantasmal killer may reach now, in seat order."""
    s = ctx.s
    if not st.on_board(s["players"][pid]):
        return []
    near = distances(ctx, here(ctx, pid), doors_only=True)
    return [p for p in hp.alive(s, hp.heroes(s)) if st.on_board(s["players"][p])
            and near.get(s["players"][p]["tile"], 99) <= 1]


def mix(ctx, pid: str):
    """Traitor's Tome: "Portal Manipulation"."""
    if len(illusions(ctx)) < 2:
        raise IllegalAction("There are fewer than 2 Illusions on the board.")
    effects.queue(ctx, pid, [{"do": "h46_mix"}], source="haunt", front=True)


def dispel(ctx, pid, here):
    """Secrets of Survival, "How to Dispel Illusions"."""
    if not illusions(ctx, here):
        raise IllegalAction("There is no Illusion on your tile.")
    effects.queue(ctx, pid, [{"do": "roll", "trait": "sanity", "bands": [
        {"at_least": 4, "then": [{"do": "h46_dispelled", "tile": here}]},
        {"at_most": 3, "then": [{"do": "h46_failed"}]}]}], source="haunt", front=True)


def close(ctx, pid, here):
    """Secrets of Survival, "How to Close the Portal"."""
    turn = ctx.s["turn"]
    if portal_tile(ctx) != here:
        raise IllegalAction("You must stand on the Portal's tile to close it.")
    if mine(ctx)["found_turn"] == turn["number"]:
        raise IllegalAction("The Portal cannot be closed in the turn it was found.")
    effects.queue(ctx, pid, [{"do": "roll", "trait": "knowledge", "bands": [
        {"at_least": 4, "then": [{"do": "h46_closed"}]}, {"at_most": 3, "then": []}]}], source="haunt", front=True)


def phantasmal(ctx, pid, target):
    """Traitor's Tome: "Special Attack Rules" (phantasmal killer)."""
    s = ctx.s
    turn = s["turn"]
    if target not in hp.alive(s, hp.heroes(s)):
        raise IllegalAction("Phantasmal killer strikes a living hero.")
    if turn.get("attacked"):
        raise IllegalAction("You have already attacked this turn.")
    here, there = s["players"][pid]["tile"], s["players"][target]["tile"]
    if not st.on_board(s["players"][target]) or distances(ctx, here, doors_only=True).get(there, 99) > 1:
        raise IllegalAction(f"{ctx.name(target)} is not within 1 tile.")
    if here == there and not st.together(s, pid, target):
        raise IllegalAction(f"{ctx.name(target)} is on the other side of the barrier.")
    turn["attacked"] = True
    ctx.say(f"{ctx.name(pid)} casts phantasmal killer on {ctx.name(target)}.", kind="attack")
    from_attack = attack
    a = effects.make_roll(ctx, pid, from_attack.attack_dice(ctx, pid, "knowledge"), "Knowledge to attack",
                          trait="knowledge", kind="attack")
    d = from_attack.defence_roll(ctx, target, "knowledge", ctx.value(target, "knowledge"))
    s["haunt"]["last_attacker"] = pid
    effects.queue(ctx, pid, [from_attack.roll_off(pid, target, "knowledge", a, d, here != there),
                             {"do": "_attack_over"}], source="attack", front=True)
