"""Power cards whose rule is more than an attack line, by name (the card clarifications of the
rulebook's FAQ among them). A utility power is used with the `use` action; an attack power's extra
rule runs after its attack.

- Healing Word: a hero within 1 tile (or yourself) regains their surge value.
- Bless / Shield of Faith: +2 to attack rolls / +2 AC for every hero within 1 tile of you at the
  moment you use it, until the end of your next hero phase; who moves away keeps it, who comes
  closer later gets nothing (FAQ).
- Sneak Attack: +4 to your attack rolls and +1 damage until the end of your next hero phase.
- Consecrated Ground (instead of attacking): the markers on a tile within 1 tile are discarded, with
  the persistent card that placed each one (FAQ); its own marker goes there.
- Illusionary Crowd: its marker goes on your tile; every monster in play is put on that tile or a
  tile next to it (FAQ).
- Cleave: on a hit, another monster next to you takes 1 damage; you may step next to one on your tile
  first unless you are Immobilized (FAQ: an Immobilized hero still deals the damage to a monster
  already next to them).
- Unstoppable: regain 2 HP."""

from . import combat, data, explore, geometry, heroes
from .state import Ctx, hero_pids

USABLE = ("healingword", "bless", "shieldoffaith", "sneakattack", "consecratedground", "illusionarycrowd",
          "unstoppable")


def word(ctx: Ctx, power_id: str) -> str:
    return data.slug(data.power(ctx.content, power_id)["name"])


def within_1(ctx: Ctx, pid: str) -> list:
    d = geometry.tile_distances(ctx.s, [heroes.tile(ctx, pid)])
    return [q for q in hero_pids(ctx.s) if heroes.on_map(ctx, q) and d.get(heroes.tile(ctx, q), 99) <= 1]


def use_targets(ctx: Ctx, pid: str, power_id: str) -> list:
    """The targets `use` may name for the power ([None] when it takes none)."""
    w = word(ctx, power_id)
    if w == "healingword":
        return [q for q in within_1(ctx, pid) if ctx.s["players"][q]["hp"] < ctx.s["players"][q]["max_hp"]]
    if w == "consecratedground":
        d = geometry.tile_distances(ctx.s, [heroes.tile(ctx, pid)])
        return sorted({m["tile"] for m in ctx.s["markers"] if d.get(m["tile"], 99) <= 1}, key=geometry._tile_sort) \
            or [heroes.tile(ctx, pid)]
    return [None]


def instead_of_attack(ctx: Ctx, power_id: str) -> bool:
    return word(ctx, power_id) == "consecratedground" or data.power(ctx.content, power_id)["timing"] == \
        "instead_of_attack"


def use(ctx: Ctx, pid: str, power_id: str, target):
    w = word(ctx, power_id)
    name = data.power(ctx.content, power_id)["name"]
    who = heroes.name(ctx, pid)
    if w == "healingword":
        heroes.heal(ctx, target, heroes.stats(ctx, target)["surge"], f"{who}'s {name}")
    elif w in ("bless", "shieldoffaith"):
        kind = "attack" if w == "bless" else "ac"
        got = within_1(ctx, pid)
        for q in got:
            heroes.add_bonus(ctx, q, kind, 2, pid, name)
        ctx.say("power", f"{who} uses {name}: {', '.join(heroes.name(ctx, q) for q in got)} get +2 "
                         f"{'to attack rolls' if kind == 'attack' else 'AC'} until the end of {who}'s next hero phase.")
    elif w == "sneakattack":
        heroes.add_bonus(ctx, pid, "attack", 4, pid, name)
        heroes.add_bonus(ctx, pid, "damage", 1, pid, name)
        ctx.say("power", f"{who} uses {name}: +4 to attack rolls and +1 damage until the end of the next hero phase.")
    elif w == "unstoppable":
        heroes.heal(ctx, pid, 2, name)
    elif w == "consecratedground":
        for m in [m for m in ctx.s["markers"] if m["tile"] == target]:
            combat.remove_marker(ctx, m, name)
        ctx.s["markers"].append({"id": ctx.new_id("k"), "kind": "consecrated_ground", "card": None, "tile": target,
                                 "owner": pid})
        ctx.say("power", f"{who} consecrates tile {target}.")
    elif w == "illusionarycrowd":
        mine = heroes.tile(ctx, pid)
        ctx.s["markers"].append({"id": ctx.new_id("k"), "kind": "illusionary_crowd", "card": None, "tile": mine,
                                 "owner": pid})
        near = [mine] + geometry.linked_tiles(ctx.s, mine)
        for fid in sorted(ctx.s["figures"], key=combat._fid_order):
            fig = ctx.s["figures"][fid]
            if fig.get("object") or set(combat.fig_tiles(fig)) & set(near):
                continue
            for t in near:
                sq = explore.free_square_on(ctx, t)
                if sq:
                    fig["square"] = sq
                    break
        ctx.say("power", f"{who} uses {name}: every monster is drawn to the crowd around tile {mine}.")
    else:
        ctx.say("power", f"{who} uses {name}; the table carries out its rule.")


def after_attack(ctx: Ctx, pid: str, power_id: str, res: dict, targets: list):
    w = word(ctx, power_id)
    if w == "cleave" and res["hits"]:
        me = heroes.xy(ctx, pid)
        mine = heroes.tile(ctx, pid)
        others = [f for f in sorted(ctx.s["figures"], key=combat._fid_order)
                  if f not in targets and not ctx.s["figures"][f].get("object")]
        adj = [f for f in others if combat.adjacent_to_hero(ctx, ctx.s["figures"][f], pid)]
        victim = adj[0] if adj else None
        if victim is None and not ctx.s["players"][pid]["conditions"].get("immobilized"):
            on_tile = [f for f in others if mine in combat.fig_tiles(ctx.s["figures"][f])]
            for f in on_tile:
                fx = combat.fig_xy(ctx.s["figures"][f])[0]
                spots = [(fx[0] + dx, fx[1] + dy) for dx, dy in geometry.KING]
                spots = [q for q in spots if geometry.is_floor(ctx.s, *q) and geometry.tile_key(*geometry.tile_of(*q))
                         == mine and geometry.name(*q) not in explore._taken(ctx)]
                if spots:
                    spots.sort(key=lambda q: (geometry.square_distance(q, me), -q[1], q[0]))
                    ctx.s["players"][pid]["square"] = geometry.name(*spots[0])
                    ctx.say("move", f"{heroes.name(ctx, pid)} cleaves on to square {geometry.name(*spots[0])}.")
                    victim = f
                    break
        if victim:
            ctx.say("attack", f"Cleave: the {ctx.s['figures'][victim]['name']} takes 1 damage.")
            combat.hurt_figure(ctx, victim, 1, pid)
