"""Monster tactics: the lines of a monster's (or villain's) card, tried in order. The first line
whose condition holds is carried out and ends the activation; the last line is the default. The
words are content.py's CONDITIONS, ACTIONS, FOCUS and AREAS.

Heroes at 0 hit points (and heroes off the map) do not count: a monster acts as though they were
not there. A monster moving toward a hero goes tile to tile along the joints (never diagonally),
landing on each tile's bone pile when it is free and on another free square of that tile when not.
One told to move next to a hero it already stands next to stays where it is (FAQ)."""

from . import combat, data, explore, geometry, heroes, items
from .state import Ctx, clockwise_from


def _g(line, key, default=None):
    return data.g(line, key, default)


def hero_order(ctx: Ctx) -> list:
    """Standing heroes, the active hero first then clockwise (ties between heroes go this way)."""
    start = ctx.s["turn"]["player"] if ctx.s.get("turn") else None
    return [p for p in clockwise_from(ctx.s, start) if heroes.standing(ctx, p)]


def distances(ctx: Ctx, fig: dict) -> dict:
    """Hero -> (tiles away or None, squares away)."""
    dist = geometry.tile_distances(ctx.s, combat.fig_tiles(fig))
    out = {}
    for pid in hero_order(ctx):
        t = heroes.tile(ctx, pid)
        sq = min(geometry.square_distance(heroes.xy(ctx, pid), q) for q in combat.fig_xy(fig))
        out[pid] = (dist.get(t), sq)
    return out


def holds(ctx: Ctx, fig: dict, word: str, line, ds=None) -> tuple:
    """(True or False, the heroes the condition speaks of or None). `ds`: distances(ctx, fig) when
    already found for this very state."""
    if word == "otherwise" or not word:
        return True, None
    if word == "hero_adjacent":
        hs = [p for p in (hero_order(ctx) if ds is None else ds) if combat.adjacent_to_hero(ctx, fig, p)]
        return bool(hs), hs
    if word in ("hero_on_tile", "hero_within", "heroes_within"):
        if ds is None:
            ds = distances(ctx, fig)
        if word == "hero_on_tile":
            hs = [p for p, (t, _) in ds.items() if t == 0]
            return bool(hs), hs
        n = data._int(_g(line, "within", 1))
        hs = [p for p, (t, _) in ds.items() if t is not None and t <= n]
        if word == "hero_within":
            return bool(hs), hs
        return len(hs) >= data._int(_g(line, "count", 2)), hs
    if word == "hp_at_most":
        return fig["hp"] <= data._int(_g(line, "hp", 0)), None
    if word == "marker_on_card":
        return _g(line, "marker") in fig.get("markers", []), None
    if word == "marker_spent":
        return _g(line, "marker") in fig.get("spent", []), None
    if word == "on_start_tile":
        return any(ctx.s["tiles"]["placed"][t].get("start") for t in combat.fig_tiles(fig)), None
    return False, None


def focus_hero(ctx: Ctx, fig: dict, word, among, ds=None):
    if ds is None:
        ds = distances(ctx, fig)
    cands = [p for p in (among if among else list(ds)) if p in ds]
    if not cands:
        return None
    order = {p: i for i, p in enumerate(ds)}  # ds holds the heroes in hero_order

    def near(p):
        t, sq = ds[p]
        return (99 if t is None else t, sq, order[p])
    if word == "most_hp":
        return sorted(cands, key=lambda p: (-ctx.s["players"][p]["hp"],) + near(p))[0]
    if word == "active":
        act = ctx.s["turn"]["player"]
        if act in cands:
            return act
    return sorted(cands, key=near)[0]


def activate(ctx: Ctx, fid: str) -> bool:
    """One activation of the figure; False when it did nothing."""
    fig = ctx.s["figures"].get(fid)
    if fig is None or fig.get("object"):
        return False
    if fig.get("dazed"):
        fig["dazed"] = False
        ctx.say("monster", f"The {fig['name']} is dazed and does nothing this time.")
        return False
    if not heroes.standing_heroes(ctx):
        return False
    lines = data.monster(ctx.content, fig["monster"])["tactics"]
    ds = distances(ctx, fig)  # found once: nothing moves while the lines are read
    for line in lines:
        ok, among = holds(ctx, fig, _g(line, "condition", "otherwise"), line, ds)
        second = _g(line, "and_condition", "")
        if ok and second:
            ok2, among2 = holds(ctx, fig, second, line, ds)
            ok = ok2
            if among2 is not None:
                among = [p for p in (among or among2) if p in among2]
        if ok:
            before = combat.fig_tiles(fig)
            run(ctx, fig, line, among, ds)
            if fig["id"] in ctx.s["figures"]:
                items.glyph_check(ctx, fig, before)
            return True
    return False


def run(ctx: Ctx, fig: dict, line, among, ds=None):
    action = _g(line, "action")
    focus = focus_hero(ctx, fig, _g(line, "focus", "closest"), among, ds)
    m = data.monster(ctx.content, fig["monster"])
    atk = m["attacks"].get(_g(line, "attack", "")) if _g(line, "attack") else None
    if action == "attack":
        attack(ctx, fig, atk, focus)
    elif action == "move_adjacent_and_attack":
        move_adjacent(ctx, fig, focus)
        attack(ctx, fig, atk, focus)
    elif action == "move_onto_tile_and_attack":
        move_onto_tile(ctx, fig, focus)
        attack(ctx, fig, atk, focus)
    elif action == "attack_then_move_adjacent":
        attack(ctx, fig, atk, focus)
        if fig["id"] in ctx.s["figures"]:
            move_adjacent(ctx, fig, focus)
    elif action == "move_toward":
        move_toward(ctx, fig, focus, data._int(_g(line, "tiles", 1), 1))
    elif action == "move_toward_and_attack":
        move_toward(ctx, fig, focus, data._int(_g(line, "tiles", 1), 1))
        attack(ctx, fig, atk, focus_hero(ctx, fig, _g(line, "focus", "closest"), None))
    elif action == "move_along_arrow":
        move_along_arrow(ctx, fig, data._int(_g(line, "tiles", 1), 1))
    elif action == "spend_marker_and_attack":
        spend_marker(ctx, fig, _g(line, "marker"))
        attack(ctx, fig, atk, focus)
    elif action == "spend_marker_and_move":
        spend_marker(ctx, fig, _g(line, "marker"))
        dest = data.tile_named(ctx.content, _g(line, "tile", "") or "")
        where = [k for k, t in ctx.s["tiles"]["placed"].items() if t["tile"] == dest]
        if where:
            sq = explore.free_square_on(ctx, where[0])
            if sq:
                fig["square"] = sq
                ctx.say("monster", f"The {fig['name']} vanishes and reappears on square {sq}.", figure=fig["id"])
    elif action == "place_monster":
        fewest = sorted(hero_order(ctx) or clockwise_from(ctx.s, ctx.s["turn"]["player"]),
                        key=lambda p: len(ctx.s["players"][p]["cards"]))
        if fewest:
            explore.place_monster(ctx, fewest[0], combat.fig_tiles(fig)[0])
    elif action == "damage":
        if focus:
            amount = data._int(_g(line, "amount", 1), 1)
            ctx.say("monster", f"The {fig['name']} harms {heroes.name(ctx, focus)} for {amount} damage.")
            heroes.hurt(ctx, focus, amount, f"the {fig['name']}")


def spend_marker(ctx: Ctx, fig: dict, marker):
    if marker in fig.get("markers", []):
        fig["markers"].remove(marker)
        fig.setdefault("spent", []).append(marker)


def attack(ctx: Ctx, fig: dict, atk, focus):
    if atk is None or focus is None or fig["id"] not in ctx.s["figures"]:
        return
    area = atk.get("area", "one")
    if area == "focus_tile":
        t = heroes.tile(ctx, focus)
        targets = [p for p in hero_order(ctx) if heroes.tile(ctx, p) == t]
    elif area == "within_1_tile":
        targets = [p for p, (d, _) in distances(ctx, fig).items() if d is not None and d <= 1]
    else:
        targets = [focus]
    undead = data.slug(data.monster(ctx.content, fig["monster"])["kind"]) == "undead"
    for pid in targets:
        hit = combat.monster_attack(ctx, f"The {fig['name']}", atk, pid, undead, fig=fig)
        if hit and atk.get("heal"):
            fig["hp"] = min(fig["max_hp"], fig["hp"] + atk["heal"])


def free(ctx: Ctx, sq: tuple) -> bool:
    taken = explore._taken(ctx)
    return geometry.is_floor(ctx.s, *sq) and geometry.name(*sq) not in taken


def move_adjacent(ctx: Ctx, fig: dict, pid):
    if pid is None or combat.adjacent_to_hero(ctx, fig, pid):
        return
    hx, hy = heroes.xy(ctx, pid)
    here = combat.fig_xy(fig)[0]
    taken = explore._taken(ctx)  # free(), its taken squares found once
    cands = [q for q in ((hx + dx, hy + dy) for dx, dy in geometry.KING)
             if geometry.is_floor(ctx.s, *q) and geometry.name(*q) not in taken]
    if not cands:
        move_onto_tile(ctx, fig, pid)
        return
    cands.sort(key=lambda q: (geometry.square_distance(q, here), -q[1], q[0]))
    fig["square"] = geometry.name(*cands[0])
    ctx.say("monster", f"The {fig['name']} moves next to {heroes.name(ctx, pid)} (square {fig['square']}).",
            figure=fig["id"], square=fig["square"])


def move_onto_tile(ctx: Ctx, fig: dict, pid):
    if pid is None:
        return
    t = heroes.tile(ctx, pid)
    if t in combat.fig_tiles(fig):
        return
    sq = explore.free_square_on(ctx, t)
    if sq:
        fig["square"] = sq
        ctx.say("monster", f"The {fig['name']} moves onto {heroes.name(ctx, pid)}'s tile (square {sq}).",
                figure=fig["id"], square=sq)


def move_toward(ctx: Ctx, fig: dict, pid, tiles: int):
    if pid is None:
        return
    goal = heroes.tile(ctx, pid)
    moved = False
    for _ in range(tiles):
        here = combat.fig_tiles(fig)[0]
        if here == goal:
            break
        dist = geometry.tile_distances(ctx.s, [goal])
        if here not in dist:
            break
        steps = [u for u in geometry.linked_tiles(ctx.s, here) if dist.get(u, 99) < dist[here]]
        if not steps:
            break
        nxt = sorted(steps, key=lambda u: (dist[u], geometry._tile_sort(u)))[0]
        sq = explore.free_square_on(ctx, nxt)
        if sq is None:
            break
        fig["square"] = sq
        moved = True
    if moved:
        ctx.say("monster", f"The {fig['name']} moves toward {heroes.name(ctx, pid)} (square {fig['square']}).",
                figure=fig["id"], square=fig["square"])


def move_along_arrow(ctx: Ctx, fig: dict, tiles: int):
    turn = {"N": "E", "E": "S", "S": "W", "W": "N"}
    for _ in range(tiles):
        here = combat.fig_tiles(fig)[0]
        rec = ctx.s["tiles"]["placed"][here]
        d = "S"
        for _ in range(rec.get("rot", 0)):
            d = turn[d]
        nxt = geometry.neighbour(here, d)
        if not geometry.connected(ctx.s, here, nxt):
            break
        sq = explore.free_square_on(ctx, nxt)
        if sq is None:
            break
        fig["square"] = sq
    ctx.say("monster", f"The {fig['name']} moves on to square {fig['square']}.", figure=fig["id"])
