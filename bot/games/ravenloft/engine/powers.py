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
- Unstoppable: regain 2 HP.
- Fey Step (any time in the hero phase, no action): you are put on a tile within 1 tile (target: the
  tile), as a card puts a figure there (its bone pile, or the free square nearest it).
- Great Leap (instead of a move): the same, on a tile up to 2 tiles away.
- Get Over There (instead of a move): on the free square next to a monster up to 2 tiles away
  (target: the monster) nearest you. An Immobilized hero makes neither move.
- Freezing Cloud (instead of attacking): its marker with 3 tokens goes on a tile exactly 1 tile away
  holding no marker (target: the tile); each time your hero phase ends, a token comes off and every
  monster on that tile takes 1 damage; the marker goes with its last token.

The reactions (Shield, Crucial Aid, Riposte Strike, Yield Ground, Spring Away ...) are played by the
engine at their trigger: reactions.py."""

from . import combat, data, explore, geometry, heroes
from .state import Ctx, hero_pids

USABLE = ("healingword", "bless", "shieldoffaith", "sneakattack", "consecratedground", "illusionarycrowd",
          "unstoppable", "feystep", "greatleap", "getoverthere", "freezingcloud")
LEAP = {"feystep": 1, "greatleap": 2}  # put yourself on a tile this many tiles away at most
CLOUD_TOKENS = 3


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
    if w in LEAP:
        mine = heroes.tile(ctx, pid)
        d = geometry.tile_distances(ctx.s, [mine])
        return sorted((k for k, n in d.items() if 0 < n <= LEAP[w] and explore.free_square_on(ctx, k)),
                      key=geometry._tile_sort)
    if w == "getoverthere":
        d = geometry.tile_distances(ctx.s, [heroes.tile(ctx, pid)])
        return [f for f in sorted(ctx.s["figures"], key=combat._fid_order)
                if not ctx.s["figures"][f].get("object") and _beside(ctx, pid, ctx.s["figures"][f])
                and min((d.get(t, 99) for t in combat.fig_tiles(ctx.s["figures"][f])), default=99) <= 2]
    if w == "freezingcloud":
        d = geometry.tile_distances(ctx.s, [heroes.tile(ctx, pid)])
        marked = {m["tile"] for m in ctx.s["markers"]}
        return sorted((k for k, n in d.items() if n == 1 and k not in marked), key=geometry._tile_sort)
    return [None]


def instead_of_attack(ctx: Ctx, power_id: str) -> bool:
    pw = data.power(ctx.content, power_id)
    return word(ctx, power_id) == "consecratedground" or pw["timing"] == "instead_of_attack" or \
        (pw["timing"] == "attack" and not pw["hits"])  # Freezing Cloud: a Daily that is no attack roll


def instead_of_move(ctx: Ctx, power_id: str) -> bool:
    return data.power(ctx.content, power_id)["timing"] == "instead_of_move"


def cannot_use(ctx: Ctx, pid: str, power_id: str):
    """Why a power taking the place of a move cannot be used now (None: it can)."""
    if not instead_of_move(ctx, power_id):
        return None
    t = ctx.s["turn"]
    if 2 + t.get("free_moves", 0) - len(t["actions"]) <= 0 or t["actions"].count("move") >= 2 + t.get("free_moves", 0):
        return "You have no move left this hero phase to trade for it."
    if heroes.speed(ctx, pid) <= 0:
        return "Your hero is Immobilized and cannot move."
    return None


def _beside(ctx: Ctx, pid: str, fig: dict):
    """The free square next to the figure nearest the hero (None when none is free)."""
    me = heroes.xy(ctx, pid)
    taken = explore._taken(ctx)
    spots = {(x + dx, y + dy) for x, y in combat.fig_xy(fig) for dx, dy in geometry.KING}
    spots = [q for q in spots if geometry.is_floor(ctx.s, *q) and geometry.name(*q) not in taken]
    if not spots:
        return None
    return geometry.name(*min(spots, key=lambda q: (geometry.square_distance(q, me), -q[1], q[0])))


def hero_phase_ended(ctx: Ctx, pid: str):
    """The hero's Freezing Cloud at the end of their hero phase: a token off, 1 damage to every
    monster on its tile, gone with the last token."""
    for m in [m for m in ctx.s["markers"] if m["kind"] == "freezing_cloud" and m.get("owner") == pid]:
        m["tokens"] -= 1
        hit = [f for f in sorted(ctx.s["figures"], key=combat._fid_order)
               if not ctx.s["figures"][f].get("object") and m["tile"] in combat.fig_tiles(ctx.s["figures"][f])]
        ctx.say("power", f"The Freezing Cloud on tile {m['tile']} bites ({m['tokens']} token(s) left)"
                         + (": " + ", ".join(f"the {ctx.s['figures'][f]['name']}" for f in hit) + " take 1 damage."
                            if hit else "; no monster is in it."))
        for f in hit:
            combat.hurt_figure(ctx, f, 1, pid)
        if m["tokens"] <= 0:
            ctx.s["markers"] = [x for x in ctx.s["markers"] if x["id"] != m["id"]]
            ctx.say("power", f"The Freezing Cloud on tile {m['tile']} is gone.")


def use(ctx: Ctx, pid: str, power_id: str, target):
    w = word(ctx, power_id)
    if instead_of_move(ctx, power_id):
        ctx.s["turn"]["actions"].append("move")
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
    elif w in LEAP:
        sq = explore.free_square_on(ctx, target)
        ctx.s["players"][pid]["square"] = sq
        ctx.say("move", f"{who} uses {name}: {who} is put on square {sq} (tile {target}).", hero=pid, square=sq)
    elif w == "getoverthere":
        fig = ctx.s["figures"][target]
        sq = _beside(ctx, pid, fig)
        ctx.s["players"][pid]["square"] = sq
        ctx.say("move", f"{who} uses {name}: {who} is put on square {sq}, next to the {fig['name']}.", hero=pid,
                square=sq)
    elif w == "freezingcloud":
        ctx.s["markers"].append({"id": ctx.new_id("k"), "kind": "freezing_cloud", "card": None, "tile": target,
                                 "owner": pid, "tokens": CLOUD_TOKENS})
        ctx.say("power", f"{who} uses {name}: a freezing cloud with {CLOUD_TOKENS} tokens settles on tile {target}.")
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
