"""Reaction powers that turn a monster's hit into a miss, played by the engine at their trigger:
Shield (a monster hits you; +2 AC until your next hero phase is over), Unbalancing Parry (a monster
next to you hits you), Bodyguard (a monster hits another hero within 1 tile of you; you swap places
with that hero), Shield of Faith (a monster hits a hero on your tile; you and every hero within 1
tile of you get +2 AC until your next hero phase is over, FAQ).

When: a reaction is face up and a monster's hit would deal 2 or more damage or knock its target
down; the first such power in seat order (the hit's target first) is used and flipped. Asking its
owner in the middle of a villain phase is not supported yet, so the engine answers the way a
careful player would; a lesser hit is taken and the power kept. Unbalancing Parry pushes the
monster to a free square within 1 tile of the hero, next to no hero where it can (`_parry_square`); a
large figure stays where it is.

The other reactions, played the same way for their owner (docs/rulings.md, Castle Ravenloft rows):

- Crucial Aid (another hero has just rolled): +4 to a hero's attack or disable roll that misses by 4
  or less; the first hero clockwise from the roller who holds it face up.
- Lucky Charm (item, one use): rerolls its holder's missed attack roll with a Daily power (the miss
  that costs most: the power is spent); Crucial Aid first when it is enough.
- Riposte Strike (an adjacent monster has just attacked you): struck at once at that monster; on a
  miss the card stays face up (so it is always worth playing).
- Yield Ground (a monster has just damaged you): when a monster stands next to the hero still
  standing, a move of up to Speed to the nearest square next to no monster (none: kept).
- Spring Away (another hero draws an encounter card): when the card's attack or damage would reach
  the hero where they stand, before it is carried out, to a tile exactly 2 tiles away with room (one
  without a monster first, then map order)."""

from . import data, explore, geometry, heroes
from .state import Ctx, clockwise_from, discard

NEGATE = ("shield", "unbalancingparry", "bodyguard", "shieldoffaith")


def _ready_words(ctx: Ctx, pid: str) -> dict:
    """The hero's face-up reaction powers: their word (NEGATE) -> the first such power in the hero's
    power order."""
    out = {}
    for k, v in ctx.s["players"][pid]["powers"].items():
        if v == "ready":
            w = data.slug(data.power(ctx.content, k)["name"])
            if w in NEGATE and w not in out:
                out[w] = k
    return out


def _flip(ctx: Ctx, pid: str, power_id: str):
    ctx.s["players"][pid]["powers"][power_id] = "used"
    if heroes.environment_is(ctx, "Cackling Skull"):
        heroes.hurt(ctx, pid, 1, "Cackling Skull")


def negate_hit(ctx: Ctx, fig, target: str, dmg: int) -> bool:
    """A reaction turns the hit of `fig` (a monster's figure, None for a trap or an event) on
    `target` into a miss; True when one did."""
    if fig is None or not heroes.standing(ctx, target):
        return False
    if dmg < 2 and dmg < ctx.s["players"][target]["hp"]:
        return False
    t_xy = heroes.xy(ctx, target)
    t_tile = heroes.tile(ctx, target)
    for pid in clockwise_from(ctx.s, target):
        if not heroes.standing(ctx, pid):
            continue
        me = pid == target
        ready = _ready_words(ctx, pid)
        if not ready:
            continue
        if me and (k := ready.get("shield")):
            _flip(ctx, pid, k)
            heroes.add_bonus(ctx, pid, "ac", 2, pid, "Shield")
            ctx.say("power", f"{heroes.name(ctx, pid)} raises Shield: the hit misses, and +2 AC until the end of "
                             f"{heroes.name(ctx, pid)}'s next hero phase.", hero=pid)
            return True
        if me and (k := ready.get("unbalancingparry")) and \
                any(geometry.adjacent(t_xy, geometry.parse(q)) for q in (fig.get("squares") or [fig["square"]])):
            _flip(ctx, pid, k)
            to = _parry_square(ctx, pid, fig)
            if to is not None:
                fig["square"] = to
            ctx.say("power", f"{heroes.name(ctx, pid)} parries: the {fig['name']}'s hit misses"
                             + (f", and the {fig['name']} is pushed to square {to}." if to else "."), hero=pid)
            return True
        if not me and (k := ready.get("bodyguard")):
            d = geometry.tile_distances(ctx.s, [heroes.tile(ctx, pid)])
            if d.get(t_tile, 99) <= 1:
                _flip(ctx, pid, k)
                a, b = ctx.s["players"][pid]["square"], ctx.s["players"][target]["square"]
                ctx.s["players"][pid]["square"], ctx.s["players"][target]["square"] = b, a
                ctx.say("power", f"{heroes.name(ctx, pid)} steps in as bodyguard: the hit misses and "
                                 f"{heroes.name(ctx, pid)} swaps places with {heroes.name(ctx, target)}.", hero=pid)
                return True
        if (k := ready.get("shieldoffaith")) and heroes.tile(ctx, pid) == t_tile:
            _flip(ctx, pid, k)
            d = geometry.tile_distances(ctx.s, [heroes.tile(ctx, pid)])
            got = [q for q in clockwise_from(ctx.s, pid) if heroes.on_map(ctx, q) and d.get(heroes.tile(ctx, q), 99) <= 1]
            for q in got:
                heroes.add_bonus(ctx, q, "ac", 2, pid, "Shield of Faith")
            ctx.say("power", f"{heroes.name(ctx, pid)} calls on Shield of Faith: the hit misses, and "
                             f"{', '.join(heroes.name(ctx, q) for q in got)} get +2 AC until the end of "
                             f"{heroes.name(ctx, pid)}'s next hero phase.", hero=pid)
            return True
    return False


def _parry_square(ctx: Ctx, pid: str, fig: dict):
    """Where Unbalancing Parry pushes the monster: a free floor square within 1 tile of the hero, chosen as
    a careful player would (next to no standing hero first, then farthest from the hero; a stable order
    last). None for a large figure (it fills several squares) or when no square is free."""
    if fig.get("squares"):
        return None
    me = geometry.parse(ctx.s["players"][pid]["square"])
    near = geometry.tile_distances(ctx.s, [heroes.tile(ctx, pid)])
    taken = heroes.figure_squares(ctx) | heroes.hero_squares(ctx)
    standing = [heroes.xy(ctx, q) for q in heroes.standing_heroes(ctx)]
    best = None
    for tkey in sorted(k for k, d in near.items() if d <= 1):
        for sq in geometry.floor_squares(ctx.s, tkey):
            if geometry.name(*sq) in taken:
                continue
            key = (any(geometry.adjacent(sq, h) for h in standing), -geometry.square_distance(sq, me))
            if best is None or key < best[0]:
                best = (key, geometry.name(*sq))
    return best[1] if best else None


def ready_power(ctx: Ctx, pid: str, word: str):
    """The hero's face-up power of that name (a slug), or None."""
    for k, v in ctx.s["players"][pid]["powers"].items():
        if v == "ready" and data.slug(data.power(ctx.content, k)["name"]) == word:
            return k
    return None


def _fig_xy(fig: dict) -> list:
    return [geometry.parse(q) for q in (fig.get("squares") or [fig["square"]])]


def _monster_next_to(ctx: Ctx, xy) -> bool:
    return any(geometry.adjacent(xy, q) for f in ctx.s["figures"].values() if not f.get("object") for q in _fig_xy(f))


def aid_roll(ctx: Ctx, pid: str, roll: int, total: int, need: int, daily: bool, reroll) -> tuple:
    """A hero's attack or disable roll that falls short of `need`, helped by Crucial Aid (+4) or, for a
    Daily power's attack (`daily`), the holder's Lucky Charm (`reroll()` gives the new die). Returns
    (roll, total)."""
    if total >= need or not heroes.standing(ctx, pid):
        return roll, total
    total = _crucial_aid(ctx, pid, total, need)
    if total >= need or not daily:
        return roll, total
    items = ctx.s["players"][pid]["items"]
    charm = next((i for i in items if data.slug(data.treasure(ctx.content, i)["name"]) == "luckycharm"), None)
    if charm is None:
        return roll, total
    items.remove(charm)
    discard(ctx, "treasure", charm)
    new = reroll()
    total += new - roll
    ctx.say("item", f"{heroes.name(ctx, pid)} rubs the Lucky Charm: the {roll} is rolled again and comes up {new}.",
            hero=pid, roll=new)
    return new, _crucial_aid(ctx, pid, total, need)


def _crucial_aid(ctx: Ctx, pid: str, total: int, need: int) -> int:
    if total + 4 < need:
        return total
    for q in clockwise_from(ctx.s, pid):
        k = ready_power(ctx, q, "crucialaid") if q != pid and heroes.standing(ctx, q) else None
        if k:
            _flip(ctx, q, k)
            ctx.say("power", f"{heroes.name(ctx, q)} gives {heroes.name(ctx, pid)} Crucial Aid: +4 to the roll "
                             f"({total + 4} against {need}).", hero=q)
            return total + 4
    return total


def after_attack(ctx: Ctx, fig, pid: str, dealt: int, strike):
    """Right after a monster's attack on the hero (`dealt`: the damage it did): Riposte Strike, then
    Yield Ground. `strike(ctx, pid, power, [figure id])` is the hero's attack (combat.hero_attack)."""
    if fig is None or not heroes.standing(ctx, pid):
        return
    me = heroes.xy(ctx, pid)
    k = ready_power(ctx, pid, "ripostestrike")
    if k and fig["id"] in ctx.s["figures"] and any(geometry.adjacent(me, q) for q in _fig_xy(fig)):
        ctx.say("power", f"{heroes.name(ctx, pid)} answers the {fig['name']} with Riposte Strike.", hero=pid)
        res = strike(ctx, pid, data.power(ctx.content, k), [fig["id"]])
        if res["hits"]:
            _flip(ctx, pid, k)
    k = ready_power(ctx, pid, "yieldground")
    if not (k and dealt > 0 and heroes.standing(ctx, pid) and _monster_next_to(ctx, me)):
        return
    sp = heroes.speed(ctx, pid)
    moves = heroes.moves_from(ctx, pid, sp) if sp > 0 else {}
    safe = [q for q in moves if not _monster_next_to(ctx, geometry.parse(q))]
    if not safe:
        return
    to = min(safe, key=lambda q: (len(moves[q]), -geometry.parse(q)[1], geometry.parse(q)[0]))
    _flip(ctx, pid, k)
    ctx.s["players"][pid]["square"] = to
    ctx.say("power", f"{heroes.name(ctx, pid)} yields ground to square {to}, out of the monsters' reach.",
            hero=pid, square=to)


def spring_away(ctx: Ctx, pid: str, e: dict, endangered: list):
    """Spring Away for each other hero the drawn card would reach, before it is carried out."""
    for q in clockwise_from(ctx.s, pid):
        k = ready_power(ctx, q, "springaway") if q != pid and q in endangered and heroes.standing(ctx, q) else None
        if not k:
            continue
        d = geometry.tile_distances(ctx.s, [heroes.tile(ctx, q)])
        busy = {geometry.tile_at_square(sq) for f in ctx.s["figures"].values() if not f.get("object")
                for sq in (f.get("squares") or [f["square"]])}
        far = sorted((t for t, n in d.items() if n == 2 and explore.free_square_on(ctx, t)),
                     key=lambda t: (t in busy, geometry._tile_sort(t)))
        if not far:
            continue
        sq = explore.free_square_on(ctx, far[0])
        _flip(ctx, q, k)
        ctx.s["players"][q]["square"] = sq
        ctx.say("power", f"{heroes.name(ctx, q)} springs away from {e['name']} to square {sq} (tile {far[0]}).",
                hero=q, square=sq)
