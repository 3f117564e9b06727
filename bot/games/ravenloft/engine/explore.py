"""Exploration: laying a new tile at an unexplored edge and placing a monster on its bone pile.

A tile is drawn from the stack and turned so its triangle points back at the edge it was explored
from. A monster card is drawn for it; one with the same name as a monster card the exploring hero
already holds is discarded and another drawn (another player's matching card does not matter). The
figure goes on the bone pile, or on another free square of the tile when the bone pile is taken."""

from . import data, geometry, pending
from .rulesets import active
from .state import Ctx, draw, discard


def lay_tile(ctx: Ctx, tid: str, tkey: str, rot: int) -> dict:
    t = data.tile(ctx.content, tid)
    grid = geometry.rotate(t["grid"], rot)
    grid = [list(r) for r in grid]
    # stairs kept apart from plain floor, turned with the tile
    for r, c in t["stairs"]:
        rr, cc = r, c
        for _ in range(rot % 4):
            rr, cc = cc, 3 - rr
        if grid[rr][cc] == ".":
            grid[rr][cc] = "S"
    turn = {"N": "E", "E": "S", "S": "W", "W": "N"}
    exits = list(t["exits"])
    for _ in range(rot % 4):
        exits = [turn[d] for d in exits]
    rec = {"tile": tid, "name": t["name"], "grid": ["".join(r) for r in grid], "black": t["black"],
           "start": t["start"], "rot": rot % 4, "exits": sorted(exits, key="NESW".index)}
    ctx.s["tiles"]["placed"][tkey] = rec
    return rec


def free_square_on(ctx: Ctx, tkey: str, prefer=None):
    """The bone pile when free, else the free floor square nearest it (a stable order)."""
    taken = _taken(ctx)
    bp = prefer or geometry.bone_pile(ctx.s, tkey)
    if bp and geometry.name(*bp) not in taken and geometry.is_floor(ctx.s, *bp):
        return geometry.name(*bp)
    squares = [sq for sq in geometry.floor_squares(ctx.s, tkey) if geometry.name(*sq) not in taken]
    if not squares:
        return None
    if bp:
        squares.sort(key=lambda sq: (geometry.square_distance(sq, bp), -sq[1], sq[0]))
    return geometry.name(*squares[0])


def _taken(ctx: Ctx) -> set:
    out = set()
    for f in ctx.s["figures"].values():
        out.update(f.get("squares") or [f["square"]])
    for p in ctx.s["players"].values():
        if p.get("square") and not p.get("escaped"):
            out.add(p["square"])
    return out


def spawn(ctx: Ctx, mid: str, square: str, card=None, villain=False) -> dict:
    m = data.monster(ctx.content, mid)
    fid = ctx.new_id("m")
    fig = {"id": fid, "monster": mid, "name": m["name"], "square": square, "hp": m["hp"], "max_hp": m["hp"],
           "card": card, "villain": villain or m["villain"], "tactic_state": {}}
    ctx.s["figures"][fid] = fig
    return fig


def place_monster(ctx: Ctx, pid: str, tkey: str, square=None, announce=True):
    """Draw a monster card for `pid` and place its monster on the tile (bone pile first). Returns the
    figure or None when no card or square is left."""
    p = ctx.s["players"][pid]
    card = _draw_monster_card(ctx, pid)
    if card is None:
        return None
    other = None
    env = ctx.s.get("environment")
    if env and data.slug(data.encounter(ctx.content, env)["name"]) == "musicofthedamned":
        # Music of the Damned: two cards; the higher level is placed, the other discarded; on the same
        # level the player chooses (FAQ), asked once the first is on the map
        other = _draw_monster_card(ctx, pid, also_not=data.card_monster(ctx.content, card))
        if other is not None:
            la = data.monster(ctx.content, data.card_monster(ctx.content, card))["level"]
            lb = data.monster(ctx.content, data.card_monster(ctx.content, other))["level"]
            if lb > la:
                card, other = other, card
            discard(ctx, "monster", other)
            ctx.say("monster", f"Music of the Damned: of two monster cards, the "
                               f"{data.monster(ctx.content, data.card_monster(ctx.content, card))['name']} comes.")
            if la != lb:
                other = None
    sq = square or free_square_on(ctx, tkey)
    if sq is None:
        discard(ctx, "monster", card)
        return None
    mid = data.card_monster(ctx.content, card)
    p["cards"].append({"kind": "monster", "card": card})
    fig = spawn(ctx, mid, sq, card)
    if announce:
        ctx.say("monster", f"A {fig['name']} appears on square {sq}; {_hero_name(ctx, pid)} takes its card.",
                figure=fig["id"], square=sq)
    if other is not None:
        a, b = (data.monster(ctx.content, data.card_monster(ctx.content, x))["name"] for x in (card, other))
        pending.ask(ctx, pid, "music", f"Music of the Damned: both cards are of one level. Place the {a} or the {b}?",
                    [f"the {a}", f"the {b}"], figure=fig["id"], cards=[card, other])
    stealth = [k for k, v in p.get("powers", {}).items()
               if v == "ready" and data.slug(data.power(ctx.content, k)["name"]) == "stealth"]
    if stealth and ctx.s.get("turn") and p.get("hp", 0) > 0:
        pending.ask(ctx, pid, "stealth", f"Use Stealth to throw the {fig['name']} card away (no monster is placed)?",
                    ["use Stealth", "keep it"], figure=fig["id"], card=card, power=stealth[0])
    return fig


def _draw_monster_card(ctx: Ctx, pid: str, also_not=None):
    """A monster card for `pid`, redrawing one that matches a card they hold (Exploration Phase)."""
    p = ctx.s["players"][pid]
    held = {data.card_monster(ctx.content, c["card"]) for c in p["cards"] if c["kind"] == "monster"}
    if also_not:
        held.add(also_not)
    for _ in range(60):
        card = draw(ctx, "monster")
        if card is None:
            return None
        mid = data.card_monster(ctx.content, card)
        if mid in held:
            ctx.say("redraw", f"{data.monster(ctx.content, mid)['name']} matches a monster card "
                              f"{_hero_name(ctx, pid)} already holds: it is discarded and another drawn.")
            discard(ctx, "monster", card)
            continue
        return card
    return None


def answer_music(ctx: Ctx, q: dict, choice: str):
    """The player picks the other card of two of one level: the placed figure becomes that monster."""
    if choice != q["options"][1] or q["figure"] not in ctx.s["figures"]:
        return
    pid = q["player"]
    placed, other = q["cards"]
    fig = ctx.s["figures"][q["figure"]]
    # Questions wait in turn: by the answer, the other card may have been shuffled back into the deck (an
    # empty deck takes its discards), or drawn for another monster.
    monsters = ctx.s["decks"]["monster"]
    pile = next((p for p in (monsters["discard"], monsters["deck"]) if other in p), None)
    if pile is None:
        name = data.monster(ctx.content, data.card_monster(ctx.content, other))["name"]
        ctx.say("monster", f"The {name} card has been drawn since: the {fig['name']} stays.", figure=fig["id"])
        return
    cards = ctx.s["players"][pid]["cards"]
    for c in cards:
        if c["card"] == placed and c["kind"] == "monster":
            c["card"] = other
            break
    pile.remove(other)
    monsters["discard"].append(placed)
    mid = data.card_monster(ctx.content, other)
    m = data.monster(ctx.content, mid)
    fig.update({"monster": mid, "name": m["name"], "hp": m["hp"], "max_hp": m["hp"], "card": other})
    ctx.say("monster", f"The {m['name']} comes instead.", figure=fig["id"])


def answer_stealth(ctx: Ctx, q: dict, choice: str):
    """Stealth: the monster card just drawn is thrown away and its figure taken off."""
    pid = q["player"]
    if choice != "use Stealth" or q["figure"] not in ctx.s["figures"]:
        return
    p = ctx.s["players"][pid]
    if p["powers"].get(q["power"]) != "ready":
        return
    p["powers"][q["power"]] = "used"
    del ctx.s["figures"][q["figure"]]
    for c in list(p["cards"]):
        if c["card"] == q["card"] and c["kind"] == "monster":
            p["cards"].remove(c)
            discard(ctx, "monster", q["card"])
            break
    ctx.say("power", f"{_hero_name(ctx, pid)} uses Stealth: the monster card is thrown away.", hero=pid)


def _hero_name(ctx: Ctx, pid: str) -> str:
    return data.hero(ctx.content, ctx.s["players"][pid]["hero"])["name"]


def explore(ctx: Ctx, pid: str, tkey: str, direction: str, draw_monster: bool = True):
    """Lay the top tile of the stack beyond `direction` of `tkey`; True when a tile was laid."""
    stack = ctx.s["tiles"]["stack"]
    if not stack:
        ctx.say("explore", "The tile stack is empty: nothing more to explore.")
        return None
    tid = stack.pop(0)
    new = geometry.neighbour(tkey, direction)
    rec = lay_tile(ctx, tid, new, geometry.turns_for(direction))
    label = rec["name"] or "a tile"
    colour = "black" if rec["black"] else "white"
    ctx.say("tile", f"{_hero_name(ctx, pid)} explores {direction} and finds {label} (tile {new}, "
                    f"{colour} triangle).", tile=new, tile_id=tid)
    ctx.s["turn"]["placed"] = tid
    ctx.s["turn"]["placed_at"] = new
    if draw_monster:
        place_monster(ctx, pid, new)
    active(ctx.s).tile_placed(ctx, new, pid)
    return new


def place_tile_anywhere(ctx: Ctx, pid: str, tid: str, edge: tuple) -> str:
    """Lay a given tile (e.g. one taken from the bottom of the stack) at an unexplored edge."""
    tkey, d = edge
    new = geometry.neighbour(tkey, d)
    lay_tile(ctx, tid, new, geometry.turns_for(d))
    return new
