"""Reaction powers that turn a monster's hit into a miss, played by the engine at their trigger:
Shield (a monster hits you; +2 AC until your next hero phase is over), Unbalancing Parry (a monster
next to you hits you), Bodyguard (a monster hits another hero within 1 tile of you; you swap places
with that hero), Shield of Faith (a monster hits a hero on your tile; you and every hero within 1
tile of you get +2 AC until your next hero phase is over, FAQ).

When: a reaction is face up and a monster's hit would deal 2 or more damage or knock its target
down; the first such power in seat order (the hit's target first) is used and flipped. Asking its
owner in the middle of a villain phase is not supported yet, so the engine answers the way a
careful player would; a lesser hit is taken and the power kept. Unbalancing Parry's move of the
monster is not made (the monster stays where it is)."""

from . import data, geometry, heroes
from .state import Ctx, clockwise_from

NEGATE = ("shield", "unbalancingparry", "bodyguard", "shieldoffaith")


def _ready(ctx: Ctx, pid: str, word: str):
    for k, v in ctx.s["players"][pid]["powers"].items():
        if v == "ready" and data.slug(data.power(ctx.content, k)["name"]) == word:
            return k
    return None


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
        if me and (k := _ready(ctx, pid, "shield")):
            _flip(ctx, pid, k)
            heroes.add_bonus(ctx, pid, "ac", 2, pid, "Shield")
            ctx.say("power", f"{heroes.name(ctx, pid)} raises Shield: the hit misses, and +2 AC until the end of "
                             f"{heroes.name(ctx, pid)}'s next hero phase.", hero=pid)
            return True
        if me and (k := _ready(ctx, pid, "unbalancingparry")) and \
                any(geometry.adjacent(t_xy, geometry.parse(q)) for q in (fig.get("squares") or [fig["square"]])):
            _flip(ctx, pid, k)
            ctx.say("power", f"{heroes.name(ctx, pid)} parries: the {fig['name']}'s hit misses.", hero=pid)
            return True
        if not me and (k := _ready(ctx, pid, "bodyguard")):
            d = geometry.tile_distances(ctx.s, [heroes.tile(ctx, pid)])
            if d.get(t_tile, 99) <= 1:
                _flip(ctx, pid, k)
                a, b = ctx.s["players"][pid]["square"], ctx.s["players"][target]["square"]
                ctx.s["players"][pid]["square"], ctx.s["players"][target]["square"] = b, a
                ctx.say("power", f"{heroes.name(ctx, pid)} steps in as bodyguard: the hit misses and "
                                 f"{heroes.name(ctx, pid)} swaps places with {heroes.name(ctx, target)}.", hero=pid)
                return True
        if (k := _ready(ctx, pid, "shieldoffaith")) and heroes.tile(ctx, pid) == t_tile:
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
