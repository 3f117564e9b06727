"""Haunt 5, Labyrinth (Traitor's Tome; Secrets of Survival).

What the bot carries out:
- Setup: the traitor's figure leaves the board and every card they hold is
  discarded; the Minotaur's hit points and the countdown (data); catacomb
  tiles drawn until 8 lie on the board (the start tile counts once), each
  joined to an open catacomb door the traitor picks; the traitor's free
  rearranging of the labyrinth (turning and shifting tiles, one question at
  a time, until they say done); the key on a catacomb tile farthest from the
  Kitchen Basement and the Minotaur on a catacomb tile, both where the
  traitor picks (data); every hero on the Catacomb Landing (data).
- The countdown at the start of each traitor turn, and the traitor's win at
  0 (data); the Minotaur's hit points (a token off for 2+ damage from one
  effect, killed with none left; never stunned); the heroes' win when it
  dies (data).
- Rearranging in the traitor's turn: the declared move `rearrange` (a
  Sanity roll, once a turn) and as many changes as the roll, one question
  at a time: a tile turned one, two or three quarters; a tile shifted to
  another door of a tile it is joined to; or a group shift (the tile
  detached from its neighbour together with every tile beyond it, the group
  joined again by any of its tiles to another door of that neighbour, in
  any of the four turns, as one change). Ruling: no change may cut more
  tiles off the Kitchen Basement or close the last open doorway of the
  level (the bot checks after each change rather than at the end).
- The Minotaur's charge in the monster turn: the declared move `charge`
  with a way (north, east, south or west), in place of its move and attack;
  once a turn, twice once a hero has the key; it attacks every hero on the
  tiles it leaves and enters.
- Lockdown (no hero leaves the catacomb level until unlocked); the key: the
  declared move `key` (Knowledge or Sanity 4+, 5+ with the Minotaur in
  sight), and `pick` for a dropped key (no roll); `unlock` (Speed 3+, 4+ in
  sight) on a tile with stairs to the city; the heroes' win when the key
  holder ends a turn on the city level.

Left to the players: cards that put a hero on a city tile are not stopped by
the lockdown (they move a figure without a way out to close).
"""
from .. import attack, effects, hooks, rng, rulesets
from .. import board as bd
from .. import cards as cd
from .. import haunt_play as hp
from .. import marks as mk
from .. import state as st
from .. import tokens as tk
from ..errors import IllegalAction

MINOTAUR = "Minotaur"
KEY = "Labyrinth key"
COUNTDOWN, HIT_POINTS = "Labyrinth countdown", "Minotaur hit points"
ANCHOR = "kitchen_basement"
START = ("kitchen_basement", "catacomb_landing")  # one start tile: it never turns or shifts
LABYRINTH_SIZE = 8
KEY_TARGET, UNLOCK_TARGET = 4, 3


# "holder": the hero with the key; "charges": the Minotaur's id once per charge made this turn.
OWN = rulesets.Own("h05", {"holder": None, "unlocked": False, "found": False, "charges": [], "rearranged": None},
                   players=("holder",))


def mine(ctx) -> dict:
    return rulesets.REGISTRY[5].record(ctx.s)


def the_minotaur(ctx) -> dict | None:
    return next((m for m in ctx.s["monsters"] if m["name"] == MINOTAUR and not m["dead"]), None)


def catacombs(ctx) -> list[str]:
    return [t for t, place in ctx.s["board"].items() if place["level"] == "catacomb"]


def in_sight(ctx, tile: str) -> bool:
    m = the_minotaur(ctx)
    return bool(m) and bd.line_of_sight(ctx.c, ctx.s["board"], tile, m["tile"])


# --- the shape of the labyrinth ---------------------------------------------------------------------

def cut_off(ctx, board: dict) -> int:
    """How far the labyrinth is from sound (Traitor's Tome, haunt 5,
    "Rearranging the Labyrinth"): the catacomb tiles not joined to the
    Kitchen Basement through doorways of the level, and 100 more without an
    open doorway on the level. 0 is sound."""
    squares = bd.grid(board)
    level = [t for t, p in board.items() if p["level"] == "catacomb"]
    seen, todo = {ANCHOR}, [ANCHOR]
    while todo:
        for other in bd.exits(ctx.c, board, todo.pop(), squares).values():
            if other and other not in seen:
                seen.add(other)
                todo.append(other)
    return len(set(level) - seen) + (0 if bd.open_doorways(ctx.c, board, "catacomb", squares) else 100)


def fit(ctx, board: dict, tile: str, square: tuple, entry: str) -> int | None:
    """The rotation that joins `tile` on `square` by its `entry` side with the
    most doorways, not sealing the level, or None."""
    level, x, y = square
    squares = bd.grid(board)
    best = None
    for rot in range(4):
        doors = bd.doorways(ctx.c.tiles[tile], rot)
        if entry not in doors:
            continue
        joined = sum(1 for side in doors if (other := squares.get(bd.neighbour_square(
            {"level": level, "x": x, "y": y}, side))) and bd.OPPOSITE[side] in bd.placed_doorways(ctx.c, board, other))
        if best is None or joined > best[1]:
            best = (rot, joined)
    return None if best is None else best[0]


TURNS = {1: "a quarter", 2: "a half", 3: "three quarters"}


def changes(ctx, free: bool) -> list[tuple[str, dict]]:
    """Every single change that leaves the labyrinth no worse joined than it
    is (Ruling: the bot cannot always reach a sound labyrinth, so it never
    lets a change cut more tiles off): (label, {tile id: its new place}).
    Traitor's Tome, haunt 5: "Rotating a Tile" (one or more sides) and
    "Shifting a Tile": a tile moved to another door of a tile it is joined to
    (in the setup, `free`, to any open door of the level), or a group shift."""
    s = ctx.s
    now = cut_off(ctx, s["board"])
    found = []
    for tile in sorted(catacombs(ctx), key=ctx.tile_name):
        if tile in START:
            continue
        place = s["board"][tile]
        for turns, words in TURNS.items():
            turned = {**place, "rot": (place["rot"] + turns) % 4}
            if cut_off(ctx, {**s["board"], tile: turned}) <= now:
                found.append((f"Turn the {ctx.tile_name(tile)} {words}", {tile: turned}))
        without = {t: p for t, p in s["board"].items() if t != tile}
        squares = bd.grid(without)
        joined = [t for t in bd.exits(ctx.c, s["board"], tile).values() if t]
        hosts = sorted((t for t, p in without.items() if p["level"] == "catacomb") if free else joined,
                       key=ctx.tile_name)
        for other in hosts:
            for side in bd.SIDES:
                if side not in bd.placed_doorways(ctx.c, without, other):
                    continue
                square = bd.neighbour_square(without[other], side)
                if square in squares or square == (place["level"], place["x"], place["y"]):
                    continue
                rot = fit(ctx, without, tile, square, bd.OPPOSITE[side])
                if rot is None:
                    continue
                moved = {"level": square[0], "x": square[1], "y": square[2], "rot": rot}
                if cut_off(ctx, {**without, tile: moved}) <= now:
                    found.append((f"Move the {ctx.tile_name(tile)} to the {ctx.tile_name(other)}'s {side} door",
                                  {tile: moved}))
    return found + group_shifts(ctx, now)


def links(ctx, board: dict) -> dict[str, set[str]]:
    """The catacomb tiles each catacomb tile is joined to by doorways."""
    squares = bd.grid(board)
    return {t: {o for o in bd.exits(ctx.c, board, t, squares).values() if o}
            for t, p in board.items() if p["level"] == "catacomb"}


def beyond(near: dict, tile: str, cut: str) -> set[str]:
    """The tiles still joined to `tile` once its link with `cut` is undone."""
    seen, todo = {tile}, [tile]
    while todo:
        here = todo.pop()
        for other in near[here]:
            if other not in seen and not {here, other} == {tile, cut}:
                seen.add(other)
                todo.append(other)
    return seen


def group_shifts(ctx, now: int) -> list[tuple[str, dict]]:
    """Traitor's Tome, haunt 5: "Shifting a Tile", a group at once: a tile
    detached from a neighbour it is joined to takes along every tile that
    only that link joined to the rest (the start tile never moves); any tile
    of the group is then joined to another door of that neighbour, the group
    keeping its shape (Ruling: it may be laid in any of the four turns as a
    whole). One change. Only groups of two or more tiles: a lone tile is an
    ordinary shift."""
    s = ctx.s
    board = s["board"]
    near = links(ctx, board)
    found, seen = [], set()
    for tile in sorted(near, key=ctx.tile_name):
        if tile in START:
            continue
        for host in sorted(near[tile], key=ctx.tile_name):
            group = beyond(near, tile, host)
            if host in group or len(group) < 2 or any(t in group for t in START):
                continue
            rest = {t: p for t, p in board.items() if t not in group}
            squares = bd.grid(rest)
            for side in bd.SIDES:
                if side not in bd.placed_doorways(ctx.c, rest, host):
                    continue
                target = bd.neighbour_square(rest[host], side)
                if target in squares:
                    continue
                for lead in sorted(group, key=ctx.tile_name):
                    for turns in range(4):
                        placed = lay_group(board, group, lead, target, turns)
                        if placed is None or any((p["level"], p["x"], p["y"]) in squares for p in placed.values()):
                            continue
                        after = {**rest, **placed}
                        if bd.OPPOSITE[side] not in bd.placed_doorways(ctx.c, after, lead):
                            continue
                        key = tuple(sorted((t, tuple(sorted(p.items()))) for t, p in placed.items()))
                        if key in seen or all(placed[t] == board[t] for t in group):
                            continue
                        if cut_off(ctx, after) <= now:
                            seen.add(key)
                            turned = f", turned {TURNS[turns]}" if turns else ""
                            found.append((f"Shift the {ctx.tile_name(tile)} with the {len(group) - 1} tile"
                                          f"{'s' if len(group) > 2 else ''} beyond it: the {ctx.tile_name(lead)} "
                                          f"to the {ctx.tile_name(host)}'s {side} door{turned}", placed))
    return found


def lay_group(board: dict, group: set, lead: str, target: tuple, turns: int) -> dict | None:
    """Each tile of `group`'s new place when `lead` lies on `target` and the
    group is turned `turns` quarters clockwise about it, keeping its shape."""
    origin = board[lead]
    placed = {}
    for t in group:
        dx, dy = board[t]["x"] - origin["x"], board[t]["y"] - origin["y"]
        for _ in range(turns):
            dx, dy = -dy, dx  # a quarter clockwise: north (0, -1) -> east (1, 0)
        placed[t] = {**board[t], "level": target[0], "x": target[1] + dx, "y": target[2] + dy,
                     "rot": (board[t]["rot"] + turns) % 4}
    return placed


@effects.step("h05_rearrange")
def _rearrange(ctx, task, item):
    """One change at a time until the traitor is done or the roll is spent
    (`left` None: the free rearranging of the setup)."""
    if item["left"] is not None and item["left"] <= 0:
        return
    options = changes(ctx, free=item["left"] is None)
    left = "as many changes as you like" if item["left"] is None else f"{item['left']} left"
    task["steps"].insert(0, item)
    effects.ask(ctx, task["player"], "h05_rearrange", f"rearrange the labyrinth ({left})?",
                ["Done"] + [label for label, _ in options], changes=[change for _, change in options])


@effects.decision("h05_rearrange")
def _decide_rearrange(ctx, pending, index):
    task = effects.current(ctx)
    item = task["steps"].pop(0)
    if index == 0:
        ctx.say("The labyrinth stops shifting.", kind="haunt")
        return
    change = pending["data"]["changes"][index - 1]
    ctx.s["board"].update(change)
    ctx.say(f"The labyrinth grinds: {pending['options'][index][:1].lower() + pending['options'][index][1:]}.",
            kind="haunt", tile=next(iter(change)))
    task["steps"].insert(0, {**item, "left": None if item["left"] is None else item["left"] - 1})


@effects.step("h05_rearrange_roll")
def _rearrange_roll(ctx, task, item):
    total = task.get("results", [0])[-1]
    effects.push_front(ctx, [{"do": "h05_rearrange", "left": total}])


@effects.step("h05_build")
def _build(ctx, task, item):
    """Catacomb tiles until 8 lie on the board, each on an open door the traitor picks."""
    s = ctx.s
    if len(catacombs(ctx)) - 1 >= LABYRINTH_SIZE or not s["stacks"].get("catacomb"):
        return
    tile = s["stacks"]["catacomb"][0]
    doors = []
    for where, side in sorted(bd.open_doorways(ctx.c, s["board"], "catacomb"), key=lambda d: (ctx.tile_name(d[0]), d[1])):
        rot = fit(ctx, s["board"], tile, bd.neighbour_square(s["board"][where], side), bd.OPPOSITE[side])
        if rot is not None:
            doors.append([where, side, rot])
    if not doors:
        ctx.say("No open catacomb door can take another tile.", kind="haunt_setup")
        return
    task["steps"].insert(0, item)
    if len(doors) == 1:
        lay(ctx, tile, doors[0])
        return
    effects.ask(ctx, task["player"], "h05_build", f"which open catacomb door does the {ctx.tile_name(tile)} join?",
                [f"The {ctx.tile_name(t)}'s {side} door" for t, side, _ in doors], tile=tile, doors=doors)


@effects.decision("h05_build")
def _decide_build(ctx, pending, index):
    lay(ctx, pending["data"]["tile"], pending["data"]["doors"][index])


def lay(ctx, tile: str, door: list):
    s = ctx.s
    where, side, rot = door
    level, x, y = bd.neighbour_square(s["board"][where], side)
    s["stacks"]["catacomb"].remove(tile)
    s["board"][tile] = {"level": level, "x": x, "y": y, "rot": rot}
    ctx.say(f"Setup: the {ctx.tile_name(tile)} joins the labyrinth beside the {ctx.tile_name(where)}.",
            kind="haunt_setup", tile=tile)


# --- the key ------------------------------------------------------------------------------------------

@effects.step("h05_take_key")
def _take_key(ctx, task, item):
    pid = task["player"]
    s = ctx.s
    token = next((t for t in tk.on_tile(s, s["players"][pid]["tile"]) if t["name"] == KEY), None)
    if token is None:
        return
    tk.remove(s, token)
    mine(ctx)["holder"], mine(ctx)["found"] = pid, True
    ctx.say(f"{ctx.name(pid)} takes the labyrinth key.", kind="haunt", player=pid)


@effects.step("h05_unlocked")
def _unlocked(ctx, task, item):
    mine(ctx)["unlocked"] = True
    ctx.say(f"{ctx.name(task['player'])} unlocks the labyrinth: the heroes may leave the catacombs.", kind="haunt")


@effects.step("h05_home")
def _home(ctx, task, item):
    """Secrets of Survival, haunt 5: "Returning the Key"."""
    pid = task["player"]
    p = ctx.s["players"][pid]
    if mine(ctx)["holder"] == pid and p["alive"] and ctx.s["board"][p["tile"]]["level"] == "city" \
            and ctx.s["phase"] == "haunt":
        hp.finish(ctx, "heroes", f"{ctx.name(pid)} brings the labyrinth key back to the city.")


def roll_for(ctx, pid: str, trait: str, target: int, then: list[dict]):
    effects.queue(ctx, pid, [{"do": "roll", "trait": trait, "bands": [
        {"at_least": target, "then": then}, {"at_most": target - 1, "then": []}]}], source="haunt", front=True)


def once(ctx, key: str, what: str):
    rolls = ctx.s["turn"]["rolls"]
    if key in rolls:
        raise IllegalAction(f"You have already tried to {what} this turn.")
    rolls.append(key)


def take_key(ctx, pid: str, trait: str):
    """Secrets of Survival, haunt 5: "How to Collect the Key"."""
    s = ctx.s
    if pid in hp.traitors(s):
        raise IllegalAction("The key is the heroes' way out.")
    if s["turn"].get("monsters") or s["turn"]["player"] != pid:
        raise IllegalAction("A hero goes for the key in their own turn.")
    token = next((t for t in tk.on_tile(s, s["players"][pid]["tile"]) if t["name"] == KEY), None)
    if token is None:
        raise IllegalAction("The key is not on your tile.")
    if token.get("dropped"):
        raise IllegalAction("The key was dropped here: pick it up, no roll needed.")
    if trait not in ("knowledge", "sanity"):
        raise IllegalAction("Opening the lockbox takes a Knowledge or Sanity roll.")
    once(ctx, "task:h05_key", "open the lockbox")
    target = KEY_TARGET + (1 if in_sight(ctx, s["players"][pid]["tile"]) else 0)
    ctx.say(f"{ctx.name(pid)} tries the lockbox ({trait.capitalize()} {target}+).", kind="haunt", player=pid)
    roll_for(ctx, pid, trait, target, [{"do": "h05_take_key"}])


def pick_up(ctx, pid: str):
    """Secrets of Survival, haunt 5: "How to Collect the Key" (a dropped key, no roll)."""
    s = ctx.s
    token = next((t for t in tk.on_tile(s, s["players"][pid]["tile"]) if t["name"] == KEY), None)
    if token is None or not token.get("dropped"):
        raise IllegalAction("No dropped key lies on your tile." if token is None else
                            "The key is still in its lockbox: it takes a Knowledge or Sanity roll.")
    effects.queue(ctx, pid, [{"do": "h05_take_key"}], source="haunt", front=True)


def unlock(ctx, pid: str, trait: str):
    """Secrets of Survival, haunt 5: "Unlocking the Labyrinth"."""
    s = ctx.s
    tile = ctx.c.tiles[s["players"][pid]["tile"]]
    if mine(ctx)["holder"] != pid:
        raise IllegalAction("You need the key to unlock the labyrinth.")
    if s["turn"].get("monsters") or s["turn"]["player"] != pid:
        raise IllegalAction("The labyrinth is unlocked in its key holder's own turn.")
    if mine(ctx)["unlocked"]:
        raise IllegalAction("The labyrinth is already unlocked.")
    if trait != "speed":
        raise IllegalAction("Unlocking the labyrinth takes a Speed roll.")
    if not (tile.stairs_to in s["board"] and s["board"][tile.stairs_to]["level"] == "city"):
        raise IllegalAction("Unlock the labyrinth on a tile with a way up to the city level.")
    target = UNLOCK_TARGET + (1 if in_sight(ctx, tile.id) else 0)
    ctx.say(f"{ctx.name(pid)} tries to unlock the labyrinth (Speed {target}+).", kind="haunt", player=pid)
    roll_for(ctx, pid, "speed", target, [{"do": "h05_unlocked"}])


# --- the Minotaur's charge -----------------------------------------------------------------------------

def charge_ways(ctx, pid: str) -> list[str]:
    """The ways out of the Minotaur's tile through an open door to a tile."""
    m = the_minotaur(ctx)
    if m is None:
        return []
    out = bd.exits(ctx.c, ctx.s["board"], m["tile"])
    return [side for side in bd.SIDES if out.get(side)]


def charge(ctx, pid: str, side: str):
    """Traitor's Tome, haunt 5: "Special Charging Attack Rules" (a Might
    attack with the Minotaur's Might: no trait to pick)."""
    s = ctx.s
    turn = s["turn"]
    m = the_minotaur(ctx)
    if not turn.get("monsters") or m is None:
        raise IllegalAction("The Minotaur charges in the monster turn.")
    if side not in bd.SIDES:
        raise IllegalAction("Charge north, east, south or west.")
    if m.get("moved_turn") == turn["number"] and m.get("moved") and m["id"] not in mine(ctx)["charges"] \
            or m["id"] in turn["attacked"] and m["id"] not in mine(ctx)["charges"]:
        raise IllegalAction("The Minotaur has moved or attacked normally this turn; a charge replaces both.")
    most = 2 if mine(ctx)["found"] else 1
    done = mine(ctx)["charges"].count(m["id"])
    if done >= most:
        raise IllegalAction(f"The Minotaur has charged {done} time{'s' if done != 1 else ''} this turn already.")
    path, tile = [], m["tile"]
    while (tile := bd.exits(ctx.c, s["board"], tile).get(side)) and tile not in path:
        path.append(tile)
    if not path:
        raise IllegalAction(f"No open doorway leads {side} from the {ctx.tile_name(m['tile'])}.")
    mine(ctx)["charges"].append(m["id"])
    m["moved"], m["moved_turn"] = 99, turn["number"]  # no ordinary move after a charge
    if m["id"] not in turn["attacked"]:
        turn["attacked"].append(m["id"])
    if len(path) == 1:
        effects.queue(ctx, pid, [{"do": "h05_charge", "path": [m["tile"]] + path}], source="haunt", front=True)
        return
    effects.ask(ctx, pid, "h05_charge", f"how far does the Minotaur charge {side}?",
                [ctx.tile_name(t) for t in path], path=[m["tile"]] + path)


@effects.decision("h05_charge")
def _decide_charge(ctx, pending, index):
    path = pending["data"]["path"][:index + 2]
    effects.queue(ctx, pending["player"], [{"do": "h05_charge", "path": path}], source="haunt", front=True)


@effects.step("h05_charge")
def _charge(ctx, task, item):
    s = ctx.s
    m = the_minotaur(ctx)
    if m is None:
        return
    ctx.say(f"The Minotaur charges to the {ctx.tile_name(item['path'][-1])}!", kind="attack")
    struck, steps = [], []
    for tile in item["path"]:
        for hero in hp.alive(s, st.side_members(s, "heroes")):
            if s["players"][hero]["tile"] == tile and st.on_board(s["players"][hero]) and hero not in struck:
                struck.append(hero)
                steps.append({"do": "h05_gore", "hero": hero, "tile": tile})
    steps.append({"do": "_monster_arrives", "monster": m["id"], "tile": item["path"][-1]})
    effects.push_front(ctx, steps)


@effects.step("h05_gore")
def _gore(ctx, task, item):
    s = ctx.s
    m = the_minotaur(ctx)
    hero = item["hero"]
    if m is None or not s["players"][hero]["alive"] or s["players"][hero]["tile"] != item["tile"]:
        return
    m["tile"] = item["tile"]  # it is there as it strikes
    a = effects.make_roll(ctx, hp.controller(s), rng.dice_count(m["traits"]["might"]),
                          f"Might for the Minotaur's charge at {ctx.name(hero)}", kind="contest")
    d = attack.defence_roll(ctx, hero, "might", ctx.value(hero, "might"))
    s["haunt"]["last_attacker"] = m["id"]
    effects.queue(ctx, hero, [attack.roll_off(m["id"], hero, "might", a, d, False), {"do": "_attack_over"}],
                  source="attack", front=True)


@rulesets.register(5)
class Labyrinth(rulesets.RuleSet):
    title = "Labyrinth"
    own = OWN
    left_to_players = (
        "a card that puts a hero straight onto a city tile is not stopped by the lockdown: it moves the figure "
        "without a way out the bot could close, so the table holds it back",
    )

    def setup_step(self, ctx, step):
        s = ctx.s
        text = step.get("text", "")
        if step.get("do") != "manual":
            return None
        if "leave" in text and "room" in text or "stays in the room" in text:
            return True  # each side reads its rules privately
        traitor = hp.traitors(s)[0]
        if "Remove your adventurer figure" in text:
            mine(ctx)
            for cid in list(s["players"][traitor]["cards"]):
                cd.discard(ctx, cid)
            mk.add(ctx, traitor, "away", why="minotaur")
            ctx.say(f"{ctx.who(traitor)} was slain by the Minotaur: the figure leaves the board and its cards are "
                    "discarded. The traitor now plays the Minotaur.", kind="haunt", player=traitor)
            return True
        if "Draw and place catacomb tiles" in text:
            effects.queue(ctx, traitor, [{"do": "h05_build"}], source="haunt")
            return True
        if "Rearrange the catacomb tiles" in text:
            ctx.say("Setup: in your turn, {move:rearrange} turns or shifts as many tiles as a Sanity roll; in the "
                    "monster turn, {move:charge} (a way: north, east, south or west) charges instead of the move "
                    "and attack.", kind="haunt_setup", to="traitors")
            ctx.say("Setup: on the key's tile, {move:key} with Knowledge or Sanity (a dropped key: {move:pick}); "
                    "with the key on a tile with stairs to the city, {move:unlock} with Speed.", kind="haunt_setup",
                    to="heroes")
            effects.queue(ctx, traitor, [{"do": "h05_rearrange", "left": None}], source="haunt")
            return True
        return None

    def turn_started(self, ctx, pid):
        """Traitor's Tome, haunt 5: "You Must Do This at the Start of Your Turn"."""
        s = ctx.s
        if pid not in hp.traitors(s):
            return None
        mine(ctx)["charges"] = []
        counters = s["haunt"]["counters"]
        if COUNTDOWN in counters:
            counters[COUNTDOWN] -= 1
            ctx.say(f"The labyrinth closes in: {counters[COUNTDOWN]} left on the Turn/Damage track.", kind="counter")
        return None

    def monster_turn(self, ctx, number):
        mine(ctx)["charges"] = []
        return None

    def turn_ending(self, ctx, pid):
        return [{"do": "h05_home"}] if mine(ctx)["holder"] == pid else None

    def way_blocked(self, ctx, pid, tile):
        """Secrets of Survival, haunt 5: "Lockdown"."""
        s = ctx.s
        if mine(ctx)["unlocked"] or pid in hp.traitors(s) or s["board"][tile]["level"] != "city" \
                or s["board"][s["players"][pid]["tile"]]["level"] != "catacomb":
            return None
        return "The labyrinth is locked: no hero leaves the catacombs until it is unlocked with the key."

    def monster_hurt(self, ctx, m, kind, amount):
        """Traitor's Tome, haunt 5: "Damaging the Minotaur"."""
        if m["name"] != MINOTAUR:
            return None
        counters = ctx.s["haunt"]["counters"]
        if amount < 2:
            ctx.say("The Minotaur shrugs off the scratch.", kind="monster", monster=m["id"])
            return True
        if counters.get(HIT_POINTS, 0) <= 0:
            m["dead"] = True
            ctx.say("The Minotaur falls, slain!", kind="monster", monster=m["id"])
            hooks.fire("monster_killed", ctx, m["id"])
            return True
        counters[HIT_POINTS] -= 1
        ctx.say(f"The Minotaur is wounded: {counters[HIT_POINTS]} hit-point tokens left.", kind="monster",
                monster=m["id"])
        return True

    def death(self, ctx, pid, killer):
        """Secrets of Survival, haunt 5: "How to Collect the Key" (a dropped key)."""
        s = ctx.s
        if mine(ctx)["holder"] == pid:
            mine(ctx)["holder"] = None
            tk.place(s, KEY, s["players"][pid]["tile"], dropped=True)
            ctx.say(f"The labyrinth key falls on the {ctx.tile_name(s['players'][pid]['tile'])}.", kind="haunt")

    def haunt_goals(self, ctx, pid):
        """The heroes: the key, then (its holder) a tile with stairs up to
        the city, then the city itself; the others stay by the holder. The
        traitor has no figure on the board."""
        s = ctx.s
        if pid in hp.traitors(s):
            return None
        state = s["haunt"].get("h05") or {}
        holder = state.get("holder")
        if holder is None:
            return {t["tile"] for t in s["tokens"] if t["name"] == KEY} or None
        if holder != pid:
            return {s["players"][holder]["tile"]}
        ups = {t: ctx.c.tiles[t].stairs_to for t in catacombs(ctx)
               if ctx.c.tiles[t].stairs_to in s["board"] and s["board"][ctx.c.tiles[t].stairs_to]["level"] == "city"}
        return set(ups.values()) if state.get("unlocked") else set(ups) or None

    moves = (
        rulesets.Move("rearrange", "Rearrange the labyrinth", lambda ctx, pid, trait: rearrange(ctx, pid),
                      traits=("sanity",), who="traitors", once_per_turn=True,
                      summary="A Sanity roll: turn or shift (a tile or a group) up to that many tiles, one at a time."),
        rulesets.Move("charge", "Charge with the Minotaur", lambda ctx, pid, trait, way: charge(ctx, pid, way),
                      args=(rulesets.Arg("way", charge_ways, "Which way does the Minotaur charge?"),),
                      who="traitors", when="monster_turn",
                      summary="Instead of moving and attacking, run straight through open doors, attacking each hero "
                              "on a tile left or entered; once a turn, twice once the heroes have the key."),
        rulesets.Move("key", "Open the key's lockbox", lambda ctx, pid, trait: take_key(ctx, pid, trait),
                      traits=("knowledge", "sanity"), who="heroes",
                      summary="On the key's tile, a Knowledge or Sanity roll of 4+ (5+ in the Minotaur's sight) "
                              "takes the key."),
        rulesets.Move("pick", "Pick up the dropped key", lambda ctx, pid, trait: pick_up(ctx, pid), who="heroes",
                      summary="A key dropped on your tile is taken without a roll."),
        rulesets.Move("unlock", "Unlock the labyrinth", lambda ctx, pid, trait: unlock(ctx, pid, trait),
                      traits=("speed",), who="heroes", once_per_turn=True,
                      summary="The key's holder, on a tile with stairs up to the city: Speed 3+ (4+ in the "
                              "Minotaur's sight) lets the heroes leave the catacombs."),
    )


def rearrange(ctx, pid: str):
    """Traitor's Tome, haunt 5: "Rearranging the Labyrinth" (a Sanity roll, once a turn)."""
    effects.queue(ctx, pid, [{"do": "roll", "trait": "sanity", "bands": [
        {"then": [{"do": "h05_rearrange_roll"}]}]}], source="haunt", front=True)
