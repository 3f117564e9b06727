"""Moving through the city and discovering new tiles (rulebook: Move, Moving
Between Levels, Discover a New Tile, Special Tiles)."""
from . import board as bd
from . import cards as cd
from . import city, words
from . import effects, hooks, rng
from . import traitor as tp
from . import marks as mk
from . import tokens as tk
from .errors import IllegalAction

LANDING = "catacomb_landing"
DIRECTIONS = bd.SIDES
SPECIAL_WAYS = ("stairs", "grate", "gate")
BEFORE_SYMBOL_DRAW = []  # hooks(ctx, pid, tile_id, deck) -> True when they took over (Devotion)


def allowance(ctx, pid: str) -> int:
    """Spaces the player may move this turn: their Speed, capped by a mark
    (Rogue Air Elemental), plus extra spaces (Potion of Speed)."""
    speed = ctx.value(pid, "speed")
    for cap in mk.all_of(ctx, pid):
        if cap["kind"] == "move_cap" and cap.get("armed"):
            speed = min(speed, cap["cap"])
    turn = ctx.s["turn"]
    return speed + (turn.get("extra_moves", 0) if turn and turn["player"] == pid else 0)


def barrier_half(tile, board_side: str, rot: int) -> str:
    """Barrier tiles are split between their printed north and south halves."""
    return "north" if bd.printed_side(board_side, rot) in ("north", "east") else "south"


def stack_for(ctx, colour: str) -> str | None:
    """The stack a doorway of this colour draws from, or None when the level
    has no tiles left (rulebook: "What Happens if We Get to the End of a
    Stack of Tiles?")."""
    s = ctx.s
    def has(name):
        return bool(s["stacks"].get(name)) or bool(s["set_aside"].get(name))
    if has(colour):
        return colour
    if colour in ("building", "street"):
        other = "street" if colour == "building" else "building"
        return other if has(other) else None
    return None


def ways_out(ctx, pid: str) -> dict[str, dict]:
    """Every way the player could leave their tile now, with what it costs
    and what lies beyond: {way: {to, cost, discover, cross}}. A way that is
    impossible carries `blocked` with the reason."""
    s = ctx.s
    p = s["players"][pid]
    tid = p["tile"]
    tile = ctx.c.tiles[tid]
    place = s["board"][tid]
    squares = bd.grid(s["board"])
    ways = {}
    placed = bd.placed_doorways(ctx.c, s["board"], tid)
    beyond = bd.exits(ctx.c, s["board"], tid, squares)
    for side in DIRECTIONS:
        if side not in placed:
            continue
        if side not in beyond:
            continue  # a false feature: no way through
        way = {"to": beyond[side], "cost": 1, "discover": None, "cross": False}
        if beyond[side] is None:
            colour = placed[side]
            stack = stack_for(ctx, colour)
            if stack is None:
                way["blocked"] = ("Every catacomb tile has been found; that doorway leads nowhere new."
                                  if colour == "catacomb" else "There are no city tiles left to discover.")
            way["discover"] = stack
        if tile.barrier and p["half"] and barrier_half(tile, side, place["rot"]) != p["half"]:
            way["cross"] = True
        ways[side] = way
    printed = not bd.face_down(s["board"], tid)  # a face-down tile's stairs and grate are hidden (bot.games.babg.engine.city)
    if tile.stairs_to and printed and not bd.face_down(s["board"], tile.stairs_to):
        if tile.stairs_to in s["board"]:
            ways["stairs"] = {"to": tile.stairs_to, "cost": 1 + tile.stairs_extra_cost, "discover": None, "cross": False}
        else:
            ways["stairs"] = {"to": tile.stairs_to, "cost": 1 + tile.stairs_extra_cost, "discover": None, "cross": False,
                              "blocked": f"The stairs lead to the {ctx.tile_name(tile.stairs_to)}, which has not been "
                                         "found yet; both tiles must be in play to use them."}
    if tile.sewer_grate and printed:
        ways["grate"] = {"to": LANDING, "cost": 1, "discover": None, "cross": False}
    _token_ways(ctx, p, tid, tile, place, squares, ways)
    if s["phase"] == "haunt":  # a haunt may close some ways (a locked level)
        for way in ways.values():
            why = way["to"] and "blocked" not in way and hooks.first("way_blocked", ctx, pid, way["to"])
            if way["discover"] and "blocked" not in way:  # a haunt may forbid discovering new tiles
                why = hooks.first("discover_blocked", ctx, pid)
            if why:
                way["blocked"] = why
    # Rulebook: Moving Past Opponents (1 extra space per opponent here, and what cards make of it).
    extra = max(0, hooks.total("leave_cost", ctx, pid)) if s["phase"] == "haunt" else 0
    for way in ways.values():
        if way["to"]:
            way["cost"] += tk.enter_cost(ctx.c, s, way["to"]) - 1  # Pit Trap
        way["cost"] += extra
    return ways


def _token_ways(ctx, p, tid, tile, place, squares, ways):
    """Ways the tokens open: an Arcane Gate to its twin, an Illusion token as
    a doorway through a wall (rulebook: cards; Monsters can use them too)."""
    s = ctx.s
    for token in s["tokens"]:
        if token.get("link") and token["tile"] == tid and token["link"] in s["board"]:
            twin = next((t for t in s["tokens"] if t.get("link") == tid and t["tile"] == token["link"]), {})
            ways["gate"] = {"to": token["link"], "cost": 1, "discover": None,
                            "cross": bool(tile.barrier and p["half"] and token.get("half", p["half"]) != p["half"]),
                            "half": twin.get("half")}
        elif token.get("side"):
            if token["tile"] == tid:
                side = token["side"]
                other = squares.get(bd.neighbour_square(place, side))
            elif bd.neighbour_square(s["board"][token["tile"]], token["side"]) == (place["level"], place["x"],
                                                                                    place["y"]):
                side, other = bd.OPPOSITE[token["side"]], token["tile"]
            else:
                continue
            if other and side not in ways:
                ways[side] = {"to": other, "cost": 1, "discover": None, "cross": bool(
                    tile.barrier and p["half"] and barrier_half(tile, side, place["rot"]) != p["half"])}


def check_move(ctx, pid: str, way: str, ways: dict | None = None) -> dict:
    """The way's details if the player may take it now, else IllegalAction.
    `ways` is ways_out(ctx, pid) when the caller has it already."""
    held = hooks.first("leave_blocked", ctx, pid)
    if held:
        raise IllegalAction(held)
    s = ctx.s
    turn = s["turn"]
    if way not in DIRECTIONS + SPECIAL_WAYS:
        raise IllegalAction(f"'{way}' is not a way to move. Use north, east, south, west, stairs, grate or gate.")
    if mk.find(ctx, pid, "away"):
        raise IllegalAction("You are off the board until your next turn.")
    if turn["stopped"]:
        raise IllegalAction("Your movement is over for this turn (drawing a card or a failed roll ends it). "
                            "You can still use items, then end your turn.")
    ways = ways if ways is not None else ways_out(ctx, pid)
    tile_name = ctx.tile_name(s["players"][pid]["tile"])
    if way not in ways:
        what = {"stairs": "no stairs", "grate": "no sewer grate", "gate": "no Arcane Gate"}.get(
            way, f"no open doorway to the {way}")
        options = ", ".join(ways) or "none"
        raise IllegalAction(f"The {tile_name} has {what}. Ways out: {options}.")
    info = ways[way]
    if "blocked" in info:
        raise IllegalAction(info["blocked"])
    speed = allowance(ctx, pid)
    if turn["moved"] > 0 and turn["moved"] + info["cost"] > speed:
        left = max(0, speed - turn["moved"])
        unit = "Speed" if speed == ctx.value(pid, "speed") else ("space" if speed == 1 else "spaces")
        raise IllegalAction(f"That costs {words.count(info['cost'], 'space')} and you have {left} of your {speed} "
                            f"{unit} left this turn.")
    if info["cross"] and "barrier" in turn["rolls"]:
        raise IllegalAction("You already tried to cross this barrier this turn; the roll is once per turn.")
    return info


def move(ctx, pid: str, way: str):
    info = check_move(ctx, pid, way)
    tid = ctx.s["players"][pid]["tile"]
    tile = ctx.c.tiles[tid]
    steps = []
    traitor = tp.ignores_harm(ctx.s, pid)  # Rulebook: The Traitor's New Powers: no barrier roll, no harmful text
    if info["cross"]:
        steps.append({"do": "_crossed"} if traitor else
                     {"do": "_cross", "trait": tile.barrier["trait"], "target": tile.barrier["target"]})
    if not traitor and not bd.face_down(ctx.s["board"], tid):  # a face-down tile's text is hidden
        steps.extend(tile.effects.get("on_leave", []))
    steps.append({"do": "_go", "way": way, "from": tid, "cost": info["cost"], "to": info["to"],
                  "half": info.get("half")})
    effects.queue(ctx, pid, steps, source=tid, front=True)
    hooks.fire("leaving", ctx, pid, tid)  # queued in front: e.g. a tentacle strikes before the step away


@effects.step("_cross")
def _cross(ctx, task, item):
    """Crossing a barrier: a trait roll once per turn; it costs no movement,
    and failing ends movement (rulebook: Special Tiles, Assassin's Run)."""
    ctx.s["turn"]["rolls"].append("barrier")
    target = item["target"]
    effects.push_front(ctx, [{"do": "roll", "trait": item["trait"], "bands": [
        {"at_least": target, "then": [{"do": "_crossed"}]},
        {"at_most": target - 1, "then": [{"do": "_blocked", "target": target}]}]}])


@effects.step("_crossed")
def _crossed(ctx, task, item):
    ctx.say(f"{ctx.name(task['player'])} gets past the barrier.", kind="barrier", player=task["player"])


@effects.step("_blocked")
def _blocked(ctx, task, item):
    ctx.say(f"{ctx.name(task['player'])} fails to cross (needed {item['target']}+); their movement ends.",
            kind="barrier")
    ctx.s["turn"]["stopped"] = True
    task["steps"] = [s for s in task["steps"] if s.get("do") == "_settle_event"]


@effects.step("_go", quiet=True)
def _go(ctx, task, item):
    pid = task["player"]
    turn = ctx.s["turn"]
    way = item["way"]
    if not item.get("watched"):
        watch = hooks.first("watched", ctx, pid, destination(ctx, item))
        if watch:  # someone there may stop the mover before they come onto the tile
            task["steps"][0:0] = [*watch, {**item, "watched": True}]
            return
    speed = allowance(ctx, pid)
    turn["moved"] += item["cost"]
    if turn["moved"] >= speed:
        # Rulebook: Special Tiles, House of Blood: a Speed loss while leaving
        # still lets you out, but you stop on the next tile.
        turn["stopped"] = turn["moved"] > speed or turn["stopped"]
    if way in DIRECTIONS:
        dest = item.get("to") or bd.exits(ctx.c, ctx.s["board"], item["from"]).get(way)
        if dest is None:
            discover(ctx, pid, item["from"], way)
            return
        arrive(ctx, pid, dest, entered_by=bd.OPPOSITE[way])
    elif way == "gate":
        ctx.say(f"{ctx.name(pid)} steps through the Arcane Gate to the {ctx.tile_name(item['to'])}.", kind="move",
                player=pid, tile=item["to"])
        arrive(ctx, pid, item["to"], entered_by=None, announce=False, half=item.get("half"))
    else:
        dest = ctx.c.tiles[item["from"]].stairs_to if way == "stairs" else LANDING
        going_down = ctx.c.tiles[dest].kind == "catacomb" and ctx.c.tiles[item["from"]].kind != "catacomb"
        verb = ("goes down the stairs" if going_down else "climbs the stairs") if way == "stairs" \
            else "drops through the sewer grate"
        ctx.say(f"{ctx.name(pid)} {verb} to the {ctx.tile_name(dest)}.", kind="move", player=pid, tile=dest)
        arrive(ctx, pid, dest, entered_by=None, announce=False)


def destination(ctx, item: dict) -> str | None:
    """Where a `_go` step leads: None while the tile beyond is undiscovered."""
    way = item["way"]
    if way in DIRECTIONS:
        return item.get("to") or bd.exits(ctx.c, ctx.s["board"], item["from"]).get(way)
    if way == "gate":
        return item["to"]
    return ctx.c.tiles[item["from"]].stairs_to if way == "stairs" else LANDING


def arrive(ctx, pid: str, tid: str, entered_by: str | None, announce: bool = True, discovered: bool = False,
           half: str | None = None):
    """Put the player on a tile and run what entering it does: the card for
    its symbol when just discovered, then the tile's own text, then what the
    cards lying there do to whoever enters (rulebook: Discover a New Tile)."""
    p = ctx.s["players"][pid]
    p["tile"] = tid
    tile = ctx.c.tiles[tid]
    p["half"] = None
    if tile.barrier:
        p["half"] = half or (barrier_half(tile, entered_by, ctx.s["board"][tid]["rot"]) if entered_by else "north")
    if announce:
        ctx.say(f"{ctx.name(pid)} moves to the {tile.name}.", kind="move", player=pid, tile=tid)
    first = []
    if discovered and tile.symbol != "none":
        first.append({"do": "_symbol_card", "deck": tile.symbol})
    entering(ctx, pid, tid, first)
    hooks.fire("entered", ctx, pid, tid)


def entering(ctx, pid: str, tid: str, first=()):
    """Queue what entering a tile does, to run next: `first`, the tile's own
    on_enter text, then each card lying there (Green Slime, Yellow Mold)."""
    tile = ctx.c.tiles[tid]
    take_companions(ctx, pid, tid)
    tasks = []
    steps = list(first) + ([] if bd.face_down(ctx.s["board"], tid) else list(tile.effects.get("on_enter", [])))
    if steps:
        tasks.append({"player": pid, "source": tid, "steps": steps, "keep": False})
    for cid in tk.cards_on(ctx.s, tid):
        on_enter = ctx.c.cards[cid].on_tile.get("on_enter")
        if on_enter:
            tasks.append({"player": pid, "source": cid, "steps": list(on_enter), "keep": False})
    ctx.s["queue"][0:0] = tasks


def place_on(ctx, pid: str, tid: str, half: str | None = None, verb: str = "is moved to", stop: bool = True):
    """An effect puts the player on a tile: not movement (it discovers
    nothing), but it ends their movement (unless `stop` is False), and
    entering the tile counts for the tile's text and the cards lying there
    (Ruling: put on a tile)."""
    p = ctx.s["players"][pid]
    tile = ctx.c.tiles[tid]
    where = f" ({half} half)" if tile.barrier and half else ""
    ctx.say(f"{ctx.name(pid)} {verb} the {tile.name}{where}.", kind="move", player=pid, tile=tid)
    if stop and ctx.s["turn"] and ctx.s["turn"]["player"] == pid:
        ctx.s["turn"]["stopped"] = True
    p["tile"] = tid
    p["half"] = (half or "north") if tile.barrier else None
    entering(ctx, pid, tid)


@effects.step("_symbol_card", quiet=True)
def _symbol_card(ctx, task, item):
    """The card for a just-discovered tile's symbol; a power may set it aside
    first (Devotion)."""
    for hook in BEFORE_SYMBOL_DRAW:
        if hook(ctx, task["player"], task["source"], item["deck"]):
            return
    if hooks.first("symbol_card", ctx, task["player"], task["source"], item["deck"]):
        return
    cd.draw(ctx, task["player"], item["deck"])


# --- discovery -------------------------------------------------------------

def placements(ctx, tile_id: str, square: tuple, entry_side: str) -> list[tuple[int, int, bool]]:
    """Rotations of a new tile on `square` that join the doorway just used
    (entry_side is the side of the new tile facing it): (rotation, doors
    connected, seals its level?)."""
    s = ctx.s
    squares = bd.grid(s["board"])
    tile = ctx.c.tiles[tile_id]
    level, x, y = square
    result = []
    for rot in range(4):
        doors = bd.doorways(tile, rot)
        if entry_side not in doors:
            continue
        connected, open_new = 0, 0
        for side in doors:
            dx, dy = bd.STEP[side]
            other = squares.get((level, x + dx, y + dy))
            if other is None:
                open_new += 1
            elif bd.OPPOSITE[side] in bd.placed_doorways(ctx.c, s["board"], other):
                connected += 1
        # Free doorways left on the level after placing: the old ones minus
        # those now facing this tile, plus the new tile's own open ones.
        still_open = open_new + sum(
            1 for (tid, side) in bd.open_doorways(ctx.c, s["board"], level, squares)
            if bd.neighbour_square(s["board"][tid], side) != square)
        result.append((rot, connected, still_open == 0))
    return result


def discover(ctx, pid: str, from_tid: str, side: str):
    """Draw from the stack of the doorway's colour and join the tile to it,
    turned to connect as many doorways as possible; never seal a level
    (rulebook: Discover a New Tile, "Can I Seal Off a Level?")."""
    s = ctx.s
    colour = bd.placed_doorways(ctx.c, s["board"], from_tid)[side]
    stack = stack_for(ctx, colour)
    square = bd.neighbour_square(s["board"][from_tid], side)
    discover_at(ctx, pid, stack, square, bd.OPPOSITE[side])


def discover_at(ctx, pid: str, stack: str, square: tuple, entry: str):
    """Draw a tile from `stack` for `square`, joined by its `entry` side."""
    s = ctx.s
    if not s["stacks"][stack]:
        s["stacks"][stack] = rng.shuffle(s, s["set_aside"][stack])
        s["set_aside"][stack] = []
    while True:
        tile_id = s["stacks"][stack].pop(0)
        options = placements(ctx, tile_id, square, entry)
        fine = [o for o in options if not o[2]]
        if fine or not s["stacks"][stack]:
            break
        # Set aside a tile that would seal the level; it returns when the stack runs out.
        s["set_aside"][stack].append(tile_id)
        ctx.say(f"The {ctx.tile_name(tile_id)} would seal off the level, so it is set aside and another is drawn.",
                kind="discover")
    candidates = fine or options
    best = max(o[1] for o in candidates)
    best_rots = [o[0] for o in candidates if o[1] == best]
    distinct = {}
    for rot in best_rots:
        key = tuple(sorted(bd.doorways(ctx.c.tiles[tile_id], rot)))
        distinct.setdefault(key, rot)
    choices = list(distinct.items())
    if len(choices) == 1:
        place(ctx, pid, tile_id, square, choices[0][1], entry)
        return
    ctx.say(f"{ctx.name(pid)} discovers the {ctx.tile_name(tile_id)}; it fits more than one way.", kind="discover")
    effects.ask(ctx, pid, "place_tile", f"how to turn the {ctx.tile_name(tile_id)}?",
                ["doorways " + ", ".join(key) for key, _ in choices],
                tile=tile_id, square=list(square), rotations=[rot for _, rot in choices], entry=entry)


@effects.decision("place_tile")
def _decide_place(ctx, pending, index):
    data = pending["data"]
    place(ctx, pending["player"], data["tile"], tuple(data["square"]), data["rotations"][index], data["entry"])


def place(ctx, pid: str, tile_id: str, square: tuple, rot: int, entry: str):
    level, x, y = square
    ctx.s["board"][tile_id] = {"level": level, "x": x, "y": y, "rot": rot}
    tile = ctx.c.tiles[tile_id]
    sym = f" It shows an {tile.symbol} symbol." if tile.symbol in ("event", "item", "omen") else ""
    ctx.say(f"{ctx.name(pid)} discovers the {tile.name} ({tile.kind}).{sym}", kind="discover", player=pid,
            tile=tile_id)
    if tile.rule:  # Rulebook: Discovering a Tile: its text is read out as it is laid, once
        ctx.say(f"{tile.name}: {tile.rule}", kind="tile_rule", tile=tile_id)
    arrive(ctx, pid, tile_id, entered_by=entry, announce=False, discovered=True)
    if sealed_with_tiles_left(ctx, level):  # the level opens again before the tile's card and text
        effects.queue(ctx, pid, [{"do": "_rearrange_level", "level": level}], front=True)


# --- a sealed level (rulebook: Discover a New Tile, "Can I Seal Off a Level by Placing a Tile?") ----------------

TURN_WORDS = {1: "a quarter turn clockwise", 2: "half a turn", 3: "a quarter turn anticlockwise"}


def level_of(tile) -> str:
    return "catacomb" if tile.kind == "catacomb" else "city"


def sealed_with_tiles_left(ctx, level: str) -> bool:
    """The level has no free doorway left while tiles of it wait in a stack:
    every tile left would have sealed it, and one was laid anyway."""
    s = ctx.s
    if bd.open_doorways(ctx.c, s["board"], level):
        return False
    waiting = [t for pile in (*s["stacks"].values(), *s["set_aside"].values()) for t in pile]
    return any(level_of(ctx.c.tiles[t]) == level for t in waiting)


def movable(ctx, board: dict, level: str) -> list[str]:
    """The level's tiles a rearrangement may turn or move: all but the rooms
    of a start tile."""
    return sorted((t for t, p in board.items() if p["level"] == level and ctx.c.tiles[t].stack != "start"),
                  key=ctx.tile_name)


def level_changes(ctx, board: dict, level: str, swaps: bool = True):
    """(label, changes, new board) for each change of the level's tiles: one
    turned where it lies, or (with `swaps`) two trading places, the first
    turned as the player likes; only where no tile is cut off that was
    joined before (bot.games.babg.engine.city.sound). `changes` lists each
    moved tile's new place, [tile, level, x, y, rot]. (On a sealed level a
    tile lifted can only go back to its own square: every free doorway then
    leads there.)"""
    tiles = movable(ctx, board, level)
    for tid in tiles:
        place = board[tid]
        for turns, words in TURN_WORDS.items():
            rot = (place["rot"] + turns) % 4
            new = {**board, tid: {**place, "rot": rot}}
            if city.sound(ctx, new, level, open_door=False):
                yield f"Turn the {ctx.tile_name(tid)} {words}", [[tid, level, place["x"], place["y"], rot]], new
    for i, tid in enumerate(tiles if swaps else ()):
        for other in tiles[i + 1:]:
            for rot in range(4):
                new = city.swapped(board, tid, other, rot, board[other]["rot"])
                if city.sound(ctx, new, level, open_door=False):
                    doors = ", ".join(sorted(bd.doorways(ctx.c.tiles[tid], rot)))
                    yield (f"Swap the {ctx.tile_name(tid)} (doorways {doors}) with the {ctx.tile_name(other)}",
                           [[t, *(new[t][k] for k in ("level", "x", "y", "rot"))] for t in (tid, other)], new)


def reopenings(ctx, level: str) -> list[tuple[str, list]]:
    """(label, changes) of each rearrangement to offer on a sealed level:
    those that open a doorway into the unknown; where none does, the turns
    after which one more turn does. Each one offered brings the level nearer
    to open, so the rearranging ends (Ruling: a sealed level)."""
    board = ctx.s["board"]

    def opens(b):
        return bool(bd.open_doorways(ctx.c, b, level))
    now = [(label, change) for label, change, new in level_changes(ctx, board, level) if opens(new)]
    if now:
        return now
    return [(label, change) for label, change, new in level_changes(ctx, board, level, swaps=False)
            if any(opens(after) for _, _, after in level_changes(ctx, new, level, swaps=False))]


@effects.step("_rearrange_level")
def _rearrange_level(ctx, task, item):
    """Rulebook: Discover a New Tile, "Can I Seal Off a Level?" (L254-256):
    the player whose turn it is rearranges the level until it has a free
    doorway, one change at a time: a tile turned, or two tiles swapped
    (Ruling: never a start tile's room, nothing cut off; where no
    rearranging can open a doorway, the level stays sealed)."""
    level, pid = item["level"], task["player"]
    if not sealed_with_tiles_left(ctx, level):
        return
    options = reopenings(ctx, level)
    if not options:
        ctx.say(f"Every tile left would seal off the {level} level, and no rearranging of its tiles can open a "
                "doorway: it stays sealed.", kind="discover")
        return
    ctx.say(f"Every tile left would seal off the {level} level: {ctx.name(pid)} rearranges it until a doorway "
            "opens.", kind="discover")
    effects.ask(ctx, pid, "rearrange_level", "which tile to turn, or which two to swap, so that the level opens?",
                [label for label, _ in options], changes=[change for _, change in options], level=level)


@effects.decision("rearrange_level")
def _decide_rearrange(ctx, pending, index):
    changes = pending["data"]["changes"][index]
    for tid, level, x, y, rot in changes:
        ctx.s["board"][tid].update({"level": level, "x": x, "y": y, "rot": rot})
    tid, level = changes[0][0], pending["data"]["level"]
    what = f"swaps the {ctx.tile_name(tid)} and the {ctx.tile_name(changes[1][0])}" if len(changes) > 1 else \
        f"turns the {ctx.tile_name(tid)}"
    if bd.open_doorways(ctx.c, ctx.s["board"], level):
        ctx.say(f"{ctx.name(pending['player'])} {what}: the level has a free doorway again.", kind="discover",
                tile=tid)
        return
    ctx.say(f"{ctx.name(pending['player'])} {what}; the level is still sealed.", kind="discover", tile=tid)
    effects.queue(ctx, pending["player"], [{"do": "_rearrange_level", "level": level}], front=True)


# --- effects that move a player -----------------------------------------------

@effects.step("move_to")
def _move_to(ctx, task, item):
    pid = task["player"]
    dest = item["tile"] if item["tile"] in ctx.s["board"] else item.get("fallback")
    if not dest or dest not in ctx.s["board"]:
        ctx.say(f"The {item['tile'].replace('_', ' ')} is not in play, so {ctx.name(pid)} stays put.", kind="move")
        return
    place_on(ctx, pid, dest)


def take_companions(ctx, pid: str, tid: str):
    """Rulebook: Playing the Haunt: a dead adventurer's companion stays on the
    tile, and the next adventurer to move onto it takes control of it."""
    pile = ctx.s["piles"].get(tid, [])
    for cid in [c for c in pile if ctx.c.cards[c].companion]:
        pile.remove(cid)
        cd.gain(ctx, pid, cid)
        ctx.say(f"{ctx.card_name(cid)} follows {ctx.name(pid)} now.", kind="pickup", player=pid, card=cid)
    if tid in ctx.s["piles"] and not pile:
        del ctx.s["piles"][tid]
