"""Setting up an adventure (rulebook: Game Setup, Player Setup, Taking Turns).

The decks are shuffled; the adventure's start tiles are laid (the Start tile is two tiles, its stair
half at tile 0,0 and the other half north of it at 0,1) with any tiles it attaches; the healing
surges are put out (2, or 1 for a harder game and 3 for an easier one); the heroes stand on squares
next to the stairs (or where the adventure says); each hero takes their powers (the suggested set,
their own choice, or one drawn at random in each kind: Rules for Later Adventures) and draws
treasure until an item comes (the rest discarded); the tile stack is built from the adventure's
parts; the first player is the one chosen, or the highest roll of the die (ties roll again)."""

from bot.kit.errors import IllegalAction
from bot.kit.rng import die, shuffle

from . import data, explore, geometry, heroes
from .rulesets import active
from .state import Ctx, draw, discard, hero_pids


def lay_start(ctx: Ctx, adv) -> list:
    ids = list(data.g(adv, "start_tiles", ()) or ("start_upper_half", "start_lower_half"))
    # the piece with the stairs (or the first named) at 0,0; the rest joined as their `joins` say
    ids.sort(key=lambda t: (0 if data.tile(ctx.content, t)["stairs"] else 1))
    laid = {}
    first = ids[0]
    explore.lay_tile(ctx, first, "0,0", 0)
    laid[first] = "0,0"
    for tid in ids[1:]:
        where = None
        for other, key in laid.items():
            for side, name in data.tile(ctx.content, other)["joins"].items():
                if name == tid:
                    where = geometry.neighbour(key, data.SIDE_LETTER.get(side, side))
        if where is None:
            edges = geometry.all_unexplored(ctx.s)
            where = geometry.neighbour(*edges[0]) if edges else f"0,{len(laid)}"
        explore.lay_tile(ctx, tid, where, 0)
        laid[tid] = where
    for tid, key in laid.items():
        rec = ctx.s["tiles"]["placed"][key]
        for side, other in data.tile(ctx.content, tid)["joins"].items():
            d = data.SIDE_LETTER.get(side, side)
            if other in laid and d not in rec["exits"]:
                rec["exits"] = sorted(rec["exits"] + [d], key="NESW".index)
    for tid in data.g(adv, "attached_tiles", ()) or ():
        edges = geometry.all_unexplored(ctx.s)
        if edges:
            k, d = edges[0]
            explore.lay_tile(ctx, tid, geometry.neighbour(k, d), geometry.turns_for(d))
    return list(laid.values())


def hero_squares(ctx: Ctx, adv) -> list:
    placed = ctx.s["tiles"]["placed"]
    stairs = [(x, y) for k in placed for (x, y) in geometry.tile_squares(*geometry.parse(k))
              if geometry.char(ctx.s, x, y) == "S"]
    if data.g(adv, "heroes_at", "next_to_stairs") == "next_to_stairs" and stairs:
        out = []
        for k in sorted(placed, key=geometry._tile_sort):
            for sq in geometry.tile_squares(*geometry.parse(k)):
                c = geometry.char(ctx.s, *sq)
                if c in (".", "B") and any(geometry.adjacent(sq, st) for st in stairs):
                    out.append(sq)
        return [geometry.name(*sq) for sq in out]
    start_keys = [k for k in sorted(placed, key=geometry._tile_sort)]
    out = []
    for k in start_keys:
        for sq in geometry.floor_squares(ctx.s, k):
            if geometry.char(ctx.s, *sq) == ".":
                out.append(geometry.name(*sq))
    return out


def pick_powers(ctx: Ctx, pid: str, how: str) -> list:
    p = ctx.s["players"][pid]
    h = data.hero(ctx.content, p["hero"])
    if how == "random":
        chosen = list(h["fixed"])
        for kind in ("utility", "at_will", "daily"):
            pool = list(h["pool"].get(kind, []))
            chosen += shuffle(ctx.s, pool)[:data._int(h["choose"].get(kind, 0))]
        return chosen
    if how == "chosen" and p.get("picks"):
        return list(h["fixed"]) + [x for x in p["picks"] if x not in h["fixed"]]
    return list(h["suggested"])


def check_picks(content, hid: str, picks) -> str | None:
    """Why a list of chosen powers does not fit the hero (None when it does)."""
    h = data.hero(content, hid)
    if not isinstance(picks, list) or not all(isinstance(x, str) for x in picks):
        return "Give the powers as a list of power ids."
    for kind in ("utility", "at_will", "daily"):
        want = data._int(h["choose"].get(kind, 0))
        got = [x for x in picks if x in h["pool"].get(kind, [])]
        if len(got) != want:
            return f"{h['name']} takes {want} {kind.replace('_', '-')} power(s) from their own pool; you named {len(got)}."
    extra = [x for x in picks if not any(x in v for v in h["pool"].values())]
    if extra:
        return f"{', '.join(extra)} is not a power of {h['name']}'s pool."
    return None


def build_stack(ctx: Ctx, adv) -> list:
    named = set()
    for part in data.g(adv, "stack", ()) or ():
        named.update(data.g(part, "with_tiles", ()) or ())
    named.update(data.g(adv, "attached_tiles", ()) or ())
    named.update(data.g(adv, "start_tiles", ()) or ())
    pool = shuffle(ctx.s, [t for t in data.dungeon_tiles(ctx.content) if t not in named
                           and t not in ctx.s["tiles"]["placed"]])
    stack = []
    for part in data.g(adv, "stack", ()) or ():
        n = data.g(part, "random", 0)
        take = len(pool) if n == "rest" else data._int(n)
        randoms, pool = pool[:take], pool[take:]
        with_tiles = list(data.g(part, "with_tiles", ()) or ())
        if data.g(part, "on_top", False):
            stack += with_tiles + randoms
        elif data.g(part, "at_bottom", False):
            stack += randoms + with_tiles
        else:
            stack += shuffle(ctx.s, randoms + with_tiles)
    if not data.g(adv, "stack", ()):
        stack = pool
    return stack


def run(ctx: Ctx):
    s = ctx.s
    adv = data.adventure_record(ctx.content, s["adventure"])
    rs = active(s)
    villains = set(data.villain_ids(ctx.content))
    s["decks"]["monster"]["deck"] = shuffle(s, [c for c in data.table(ctx.content, "monsters")])
    s["decks"]["encounter"]["deck"] = shuffle(s, data.encounter_ids(ctx.content))
    s["decks"]["treasure"]["deck"] = shuffle(s, data.treasure_deck(ctx.content))
    s["set_aside"] = sorted(villains) + [t for t in data.table(ctx.content, "treasures")
                                         if data.treasure(ctx.content, t)["type"] == "adventure"]
    s["villain_cards"] = []
    ctx.say("setup", f"The adventure is {data.g(adv, 'title', 'unnamed')}.")
    start = rs.start_tiles(ctx)
    lay_start(ctx, adv if start is None else {"start_tiles": start})
    if s["options"].get("surges") is None:
        s["surges"] = data._int(data.g(adv, "surges", 2), 2)
    squares = rs.hero_squares(ctx) or hero_squares(ctx, adv)
    seats = hero_pids(s)
    if len(squares) < len(seats):
        raise IllegalAction("There are not enough squares at the start for every hero.")
    for i, pid in enumerate(seats):
        p = s["players"][pid]
        st = data.hero(ctx.content, p["hero"])
        p.update({"square": squares[i], "hp": st["hp"], "max_hp": st["hp"], "level": 1, "items": [],
                  "holding": [], "conditions": {"slowed": False, "immobilized": False}, "cards": [],
                  "escaped": False, "bonuses": []})
        p["powers"] = {x: "ready" for x in pick_powers(ctx, pid, s["options"].get("powers", "suggested"))}
    for pid in seats:
        for _ in range(len(s["decks"]["treasure"]["deck"]) + 1):
            card = draw(ctx, "treasure")
            if card is None:
                break
            if data.treasure(ctx.content, card)["type"] == "item":
                s["players"][pid]["items"].append(card)
                ctx.say("treasure", f"{heroes.name(ctx, pid)} starts with {data.treasure(ctx.content, card)['name']}.")
                break
            discard(ctx, "treasure", card)
    s["tiles"]["stack"] = rs.tile_stack(ctx, build_stack(ctx, adv))
    first = s["options"].get("first_player")
    if first not in seats:
        rolling = list(seats)
        while len(rolling) > 1:
            rolls = {pid: die(s, 20) for pid in rolling}
            for pid in rolling:
                ctx.say("roll", f"{heroes.name(ctx, pid)} rolls {rolls[pid]} to go first.", roll=rolls[pid])
            top = max(rolls.values())
            rolling = [pid for pid in rolling if rolls[pid] == top]
        first = rolling[0]
    s["first"] = first
    rs.after_setup(ctx)
