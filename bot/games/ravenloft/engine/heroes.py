"""Heroes: their figures on the map, Armor Class, Speed, attack bonuses, hit points and conditions.

A hero at 0 hit points is knocked down: the figure stays, keeps its conditions, takes no more damage,
is ignored by monsters and uses no power or item, until healed. Condition markers (Slowed,
Immobilized) are one of each at most and leave at the end of their hero's hero phase. Only the best
item attack bonus and the best item Armor Class bonus count at one time."""

from . import data, geometry
from .rulesets import active
from .state import Ctx, hero_pids


def rec(ctx: Ctx, pid: str) -> dict:
    return ctx.s["players"][pid]


def name(ctx: Ctx, pid: str) -> str:
    return data.hero(ctx.content, ctx.s["players"][pid]["hero"])["name"]


def xy(ctx: Ctx, pid: str):
    sq = rec(ctx, pid).get("square")
    return geometry.parse(sq) if sq else None


def tile(ctx: Ctx, pid: str):
    sq = rec(ctx, pid).get("square")
    return geometry.tile_at_square(sq) if sq else None


def on_map(ctx: Ctx, pid: str) -> bool:
    p = ctx.s["players"][pid]
    return bool(p.get("square")) and not p.get("escaped") and not p.get("away")


def standing(ctx: Ctx, pid: str) -> bool:
    p = ctx.s["players"][pid]  # on_map, and up
    return bool(p.get("square")) and not p.get("escaped") and not p.get("away") and p["hp"] > 0


def standing_heroes(ctx: Ctx) -> list:
    return [p for p in hero_pids(ctx.s) if standing(ctx, p)]


def has_ability(ctx: Ctx, pid: str, word: str) -> bool:
    return data.ability(ctx.content, rec(ctx, pid)["hero"]) == word


def stats(ctx: Ctx, pid: str) -> dict:
    h = data.hero(ctx.content, rec(ctx, pid)["hero"])
    if rec(ctx, pid).get("level", 1) >= 2:
        return {"ac": h["level2"]["ac"], "hp": h["level2"]["hp"], "surge": h["level2"]["surge"],
                "speed": h["level2"]["speed"]}
    return {"ac": h["ac"], "hp": h["hp"], "surge": h["surge"], "speed": h["speed"]}


def _items(ctx: Ctx, pid: str) -> list:
    return [data.treasure(ctx.content, t) for t in rec(ctx, pid).get("items", [])]


def _bonus_applies(ctx: Ctx, pid: str, b: dict, fig) -> bool:
    when = b["when"]
    if when == "always":
        return True
    if fig is None:
        return False
    me = xy(ctx, pid)
    near = me is not None and any(geometry.adjacent(me, geometry.parse(q)) for q in (fig.get("squares") or [fig["square"]]))
    kind = data.slug(data.monster(ctx.content, fig["monster"])["kind"])
    return {"adjacent": near, "adjacent_undead": near and kind == "undead", "not_adjacent": not near,
            "vampire": kind == "vampire", "adjacent_vampire": near and kind == "vampire"}.get(when, False)


def item_bonus(ctx: Ctx, pid: str, kind: str, fig=None) -> int:
    """The best bonus of that kind items give the hero (their own, or a nearby hero's that helps
    everyone within 1 tile): one attack and one defence item count at most."""
    best = 0
    mine = tile(ctx, pid)
    near = None  # the tile distances, found only when another hero's item may help
    for q in hero_pids(ctx.s):
        if q != pid:
            if not on_map(ctx, q) or not any(b["stat"] == kind and b["who"] == "within_1_tile"
                                             for t in _items(ctx, q) for b in t["bonuses"]):
                continue
            if near is None:
                near = geometry.tile_distances(ctx.s, [mine]) if mine else {}
            if near.get(tile(ctx, q), 99) > 1:
                continue
        for t in _items(ctx, q):
            for b in t["bonuses"]:
                if b["stat"] != kind or (q != pid and b["who"] != "within_1_tile"):
                    continue
                if _bonus_applies(ctx, pid, b, fig):
                    best = max(best, b["amount"])
    return best


def has_item(ctx: Ctx, pid: str, item_name: str) -> bool:
    want = data.slug(item_name)
    return any(data.slug(t["name"]) == want for t in _items(ctx, pid))


def timed_bonus(ctx: Ctx, pid: str, kind: str) -> int:
    return sum(b["value"] for b in rec(ctx, pid).get("bonuses", []) if b["kind"] == kind)


def blessing_active(ctx: Ctx, card_name: str) -> bool:
    want = data.slug(card_name)
    return any(data.slug(data.treasure(ctx.content, b["card"])["name"]) == want for b in ctx.s["blessings"])


def environment_is(ctx: Ctx, card_name: str) -> bool:
    env = ctx.s.get("environment")
    return bool(env) and data.slug(data.encounter(ctx.content, env)["name"]) == data.slug(card_name)


def others_on_tile_with(ctx: Ctx, pid: str, word: str) -> bool:
    """Another standing hero with this ability stands on the hero's tile."""
    t = tile(ctx, pid)
    return any(q != pid and standing(ctx, q) and tile(ctx, q) == t and has_ability(ctx, q, word)
               for q in hero_pids(ctx.s))


def ac(ctx: Ctx, pid: str) -> int:
    v = stats(ctx, pid)["ac"] + item_bonus(ctx, pid, "ac") + timed_bonus(ctx, pid, "ac")
    if others_on_tile_with(ctx, pid, "defender"):
        v += 1
    return v


def speed(ctx: Ctx, pid: str) -> int:
    p = rec(ctx, pid)
    cond = p.get("conditions", {})
    if cond.get("immobilized"):
        return 0
    base = stats(ctx, pid)["speed"] + item_bonus(ctx, pid, "speed") + timed_bonus(ctx, pid, "speed")
    run = blessing_active(ctx, "Run!")
    if cond.get("slowed"):
        # FAQ: Run! makes a Slowed hero's speed 4, Boots of Striding 3; the better one counts
        best = 2
        if run:
            best = max(best, 4)
        if has_item(ctx, pid, "Boots of Striding"):
            best = max(best, 3)
        return best
    if run:
        base += 2
    if environment_is(ctx, "Crippling Miasma"):
        base -= 1
    return max(0, base)


def attack_bonus(ctx: Ctx, pid: str, fig=None) -> int:
    v = item_bonus(ctx, pid, "attack", fig) + timed_bonus(ctx, pid, "attack")
    if others_on_tile_with(ctx, pid, "lore"):
        v += 1
    if blessing_active(ctx, "Guided Strike"):
        v += 2
    t = tile(ctx, pid)
    if blessing_active(ctx, "Heroic Stand"):
        v += sum(1 for f in ctx.s["figures"].values() if geometry.tile_at_square(f["square"]) == t)
    if blessing_active(ctx, "Surround Them!"):
        v += sum(1 for q in hero_pids(ctx.s) if on_map(ctx, q) and tile(ctx, q) == t)
    return v + active(ctx.s).attack_bonus(ctx, pid, fig)


def damage_bonus(ctx: Ctx, pid: str, fig=None) -> int:
    return timed_bonus(ctx, pid, "damage") + item_bonus(ctx, pid, "damage", fig)


def hurt(ctx: Ctx, pid: str, n: int, source: str) -> int:
    """`n` damage to the hero (none to a knocked-down one); the damage dealt."""
    p = rec(ctx, pid)
    if n <= 0 or p["hp"] <= 0 or not on_map(ctx, pid):
        return 0
    dealt = min(n, p["hp"])
    p["hp"] -= dealt
    if p["hp"] == 0:
        falls = ctx.s.setdefault("tally", {}).setdefault("falls", {})
        falls[pid] = falls.get(pid, 0) + 1
        ctx.say("down", f"{name(ctx, pid)} falls to 0 HP from {source} and is knocked down.", hero=pid)
    return dealt


def heal(ctx: Ctx, pid: str, n: int, source: str) -> int:
    p = rec(ctx, pid)
    if n <= 0:
        return 0
    was = p["hp"]
    p["hp"] = min(p["max_hp"], p["hp"] + n)
    got = p["hp"] - was
    if got:
        tail = " and stands up again" if was == 0 else ""
        ctx.say("heal", f"{name(ctx, pid)} regains {got} HP from {source}{tail} ({p['hp']}/{p['max_hp']}).",
                hero=pid)
    return got


def add_condition(ctx: Ctx, pid: str, cond: str, source: str):
    cond = data.slug(cond)
    if cond not in ("slowed", "immobilized"):
        return
    p = rec(ctx, pid)
    c = p.setdefault("conditions", {"slowed": False, "immobilized": False})
    if c.get(cond):
        return
    c[cond] = True
    ctx.say("condition", f"{name(ctx, pid)} is {cond.capitalize()} by {source}.", hero=pid)


def clear_conditions(ctx: Ctx, pid: str):
    c = rec(ctx, pid).setdefault("conditions", {"slowed": False, "immobilized": False})
    gone = [k for k, v in c.items() if v]
    for k in gone:
        c[k] = False
    if gone:
        ctx.say("condition", f"{name(ctx, pid)} is no longer {' or '.join(x.capitalize() for x in gone)}.",
                hero=pid)


def add_bonus(ctx: Ctx, pid: str, kind: str, value: int, owner: str, source: str):
    """A bonus lasting until the end of `owner`'s next hero phase."""
    rec(ctx, pid).setdefault("bonuses", []).append(
        {"kind": kind, "value": value, "owner": owner, "made": ctx.s["log_turn"]["turns"], "source": source})


def expire_bonuses(ctx: Ctx, pid: str):
    """At the end of `pid`'s hero phase: the bonuses made before this turn by `pid` end."""
    now = ctx.s["log_turn"]["turns"]
    for q in hero_pids(ctx.s):
        p = rec(ctx, q)
        p["bonuses"] = [b for b in p.get("bonuses", []) if not (b["owner"] == pid and b["made"] < now)]


def figure_squares(ctx: Ctx) -> set:
    return {sq for f in ctx.s["figures"].values() for sq in (f.get("squares") or [f["square"]])}


def hero_squares(ctx: Ctx, except_pid=None) -> set:
    return {rec(ctx, q)["square"] for q in hero_pids(ctx.s)
            if q != except_pid and on_map(ctx, q)}


def moves_from(ctx: Ctx, pid: str, budget: int) -> dict:
    """Square name -> path (square names) for every square the hero may end a move of `budget`
    squares on."""
    start = xy(ctx, pid)
    blocked = {geometry.parse(s) for s in figure_squares(ctx)}
    passable = {geometry.parse(s) for s in hero_squares(ctx, pid)}
    return geometry.reachable_names(ctx.s, start, budget, blocked, passable)
