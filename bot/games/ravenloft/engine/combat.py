"""Combat: hero powers against monsters, monster and trap attacks against heroes, defeats.

An attack rolls the die for each target and adds the attack bonus; a total of at least the target's
Armor Class hits and deals the damage, a miss deals the miss damage if the attack has one. A
defeated monster leaves the map and its card goes to the experience pile, taken from the attacker
if they hold a card of that monster, else from the first holder clockwise; the hero who defeated it
draws a treasure (one a turn). A natural 20 on a hero's attack or disable roll lets the party spend
5 experience to level that hero up. Knocked-down heroes take no damage."""

from bot.kit.rng import die

from . import data, experience, geometry, heroes, levels, reactions, treasure
from .rulesets import active
from .state import Ctx, clockwise_from, discard


def fig_tiles(fig: dict) -> list:
    return sorted({geometry.tile_at_square(sq) for sq in (fig.get("squares") or [fig["square"]])})


def fig_xy(fig: dict) -> list:
    return [geometry.parse(sq) for sq in (fig.get("squares") or [fig["square"]])]


def fig_ac(ctx: Ctx, fig: dict) -> int:
    return fig.get("ac") or data.monster(ctx.content, fig["monster"])["ac"]


def adjacent_to_hero(ctx: Ctx, fig: dict, pid: str) -> bool:
    h = heroes.xy(ctx, pid)
    return h is not None and any(geometry.adjacent(h, q) for q in fig_xy(fig))


def tiles_between(ctx: Ctx, fig: dict, pid: str):
    return geometry.tile_distance(ctx.s, fig_tiles(fig), [heroes.tile(ctx, pid)])


def power_targets(ctx: Ctx, pid: str, pw: dict) -> list:
    """The figures the power may aim at now (for an area power: one figure per tile it may strike,
    the first on each)."""
    rng, n = pw["range"], pw["n"]
    out = []
    seen_tiles = set()
    mine = heroes.tile(ctx, pid)
    dist = geometry.tile_distances(ctx.s, [mine])
    for fid in sorted(ctx.s["figures"], key=_fid_order):
        fig = ctx.s["figures"][fid]
        if fig.get("untargetable"):
            continue
        d = min([dist[t] for t in fig_tiles(fig) if t in dist], default=None)
        if rng == "adjacent":
            ok = adjacent_to_hero(ctx, fig, pid)
        elif rng == "within":
            ok = d is not None and d <= n
        elif rng == "tile":
            ok = d is not None and d <= n
        elif rng == "exact":
            ok = d is not None and d == n
        else:
            ok = False
        if not ok:
            continue
        if rng in ("tile", "exact"):
            t = fig_tiles(fig)[0]
            if t in seen_tiles:
                continue
            seen_tiles.add(t)
        out.append(fid)
    return out


def _fid_order(fid: str):
    return (len(fid), fid)


def area(ctx: Ctx, pw: dict) -> bool:
    return pw["range"] in ("tile", "exact")


def struck(ctx: Ctx, pid: str, pw: dict, chosen: list) -> list:
    """The figures an attack aimed at `chosen` strikes (every figure on the tile for an area power)."""
    if not area(ctx, pw):
        return chosen
    t = fig_tiles(ctx.s["figures"][chosen[0]])[0]
    return [fid for fid in sorted(ctx.s["figures"], key=_fid_order)
            if t in fig_tiles(ctx.s["figures"][fid]) and not ctx.s["figures"][fid].get("untargetable")]


def roll_d20(ctx: Ctx, pid=None, far=False) -> int:
    r = die(ctx.s, 20)
    if far and heroes.environment_is(ctx, "Bat Swarm"):
        r2 = die(ctx.s, 20)
        r = min(r, r2)
    return r


def hero_attack(ctx: Ctx, pid: str, pw: dict, targets: list, extra_bonus: int = 0) -> dict:
    """Resolve the power's attack on each target. Returns {hits, misses, defeated, nat20}."""
    who = heroes.name(ctx, pid)
    res = {"hits": [], "misses": [], "defeated": [], "nat20": False}
    mine = heroes.tile(ctx, pid)
    for fid in targets:
        fig = ctx.s["figures"].get(fid)
        if fig is None:
            continue
        far = mine not in fig_tiles(fig)
        mdata = data.monster(ctx.content, fig["monster"])
        if pw["attack"] is None:
            hit, roll, total = True, None, None
        else:
            roll = roll_d20(ctx, pid, far)
            total = roll + pw["attack"] + heroes.attack_bonus(ctx, pid, fig) + extra_bonus
            roll, total = reactions.aid_roll(ctx, pid, roll, total, fig_ac(ctx, fig), pw["type"] == "daily",
                                             lambda: roll_d20(ctx, pid, far))  # Crucial Aid, Lucky Charm
            hit = total >= fig_ac(ctx, fig)
            if roll == 20:
                res["nat20"] = True
        if hit:
            dmg = pw["damage"] + heroes.damage_bonus(ctx, pid, fig)
            if pw.get("vs") and data.slug(pw["vs"]) == data.slug(mdata["kind"]):
                dmg += 1
            crit = data.hero(ctx.content, ctx.s["players"][pid]["hero"])["level2"].get("critical")
            if roll == 20 and ctx.s["players"][pid].get("level", 1) >= 2 and crit:
                dmg += crit["extra_damage"]
                for q in [q for q in ctx.s["seats"] if heroes.on_map(ctx, q) and heroes.tile(ctx, q) == mine]:
                    heroes.heal(ctx, q, crit["regain_hp"], "a critical hit")
            if roll is not None and roll >= 17 and heroes.environment_is(ctx, "Blood Fog"):
                dmg += 1
            res["hits"].append(fid)
            rolled = f"{roll}+{total - roll} = {total} vs AC {fig_ac(ctx, fig)}, hits" if roll else "automatic hit"
            ctx.say("attack", f"{who} uses {pw['name']} on the {fig['name']}: {rolled} for {dmg} damage.",
                    hero=pid, figure=fid, roll=roll)
            hurt_figure(ctx, fid, dmg, pid)
            if heroes.blessing_active(ctx, "Rejuvenating Onslaught"):
                heroes.heal(ctx, pid, 1, "Rejuvenating Onslaught")
        else:
            res["misses"].append(fid)
            tail = ""
            if pw["miss"]:
                tail = f", but still deals {pw['miss']} damage"
            ctx.say("attack", f"{who} uses {pw['name']} on the {fig['name']}: {roll}+{total - roll} = {total} vs "
                              f"AC {fig_ac(ctx, fig)}, misses{tail}.", hero=pid, figure=fid, roll=roll)
            if pw["miss"]:
                hurt_figure(ctx, fid, pw["miss"], pid)
        if fid not in ctx.s["figures"]:
            res["defeated"].append(fid)
    if res["nat20"]:
        levels.offer_level_up(ctx, pid)
    return res


def hurt_figure(ctx: Ctx, fid: str, n: int, by_pid=None):
    fig = ctx.s["figures"].get(fid)
    if fig is None or n <= 0:
        return
    fig["hp"] = max(0, fig["hp"] - n)
    if fig["hp"] == 0:
        defeat(ctx, fid, by_pid)


def defeat(ctx: Ctx, fid: str, by_pid=None):
    fig = ctx.s["figures"].pop(fid)
    if fig.get("object"):
        ctx.say("destroyed", f"The {fig['name']} is destroyed.", figure=fid)
        active(ctx.s).monster_defeated(ctx, fig, by_pid)
        return
    ctx.say("defeated", f"The {fig['name']} is defeated.", figure=fid)
    tally = ctx.s.setdefault("tally", {})
    tally.setdefault("defeated", []).append({"by": by_pid, "name": fig["name"],
                                            "xp": data.monster(ctx.content, fig["monster"])["xp"]})
    card_to_xp(ctx, fig, by_pid)
    active(ctx.s).monster_defeated(ctx, fig, by_pid)
    if by_pid is not None:
        treasure.draw_for_defeat(ctx, by_pid)


def card_to_xp(ctx: Ctx, fig: dict, by_pid=None):
    """The defeated monster's card into the experience pile: from the attacker when they hold one of
    its name, else from the first holder clockwise (Defeating Monsters)."""
    if fig.get("villain"):
        if fig["monster"] in ctx.s.get("villain_cards", []):
            ctx.s["villain_cards"].remove(fig["monster"])
        ctx.s["xp"].append(fig["monster"])
        return
    start = by_pid or ctx.s["turn"]["player"]
    for pid in clockwise_from(ctx.s, start):
        cards = ctx.s["players"][pid]["cards"]
        for c in cards:
            if c["kind"] == "monster" and data.card_monster(ctx.content, c["card"]) == fig["monster"]:
                cards.remove(c)
                ctx.s["xp"].append(c["card"])
                ctx.say("xp", f"The {fig['name']} card goes from {heroes.name(ctx, pid)} to the experience pile "
                              f"(worth {experience.card_xp(ctx, c['card'])}; the pile holds {experience.total(ctx)}).")
                return


def monster_attack(ctx: Ctx, source: str, atk: dict, pid: str, undead: bool = False, fig=None) -> bool:
    """One attack of a monster, villain, trap or event on a hero; True when it hits. `fig` is the
    attacking monster's figure (None for a trap or an event): a reaction may turn its hit into a
    miss (reactions.py)."""
    if not heroes.standing(ctx, pid) or (fig is not None and fig["id"] not in ctx.s["figures"]):
        return False  # a monster struck down mid-attack (Riposte Strike) attacks no more
    roll = die(ctx.s, 20)
    bonus = atk["attack"] + (2 if undead and heroes.environment_is(ctx, "Haunted Mists") else 0)
    total = roll + bonus
    ac = heroes.ac(ctx, pid)
    who = heroes.name(ctx, pid)
    label = atk.get("name") or "an attack"
    hit = total >= ac
    if hit:
        dmg = atk["damage"] + (1 if roll >= 17 and heroes.environment_is(ctx, "Blood Fog") else 0)
        if reactions.negate_hit(ctx, fig, pid, dmg):
            hit = False
            ctx.say("attacked", f"{source}'s {label} ({roll}+{bonus} = {total} vs AC {ac}) is turned into a miss.",
                    hero=pid, roll=roll)
    if hit:
        ctx.say("attacked", f"{source} attacks {who} with {label}: {roll}+{bonus} = {total} vs AC {ac}, hits for "
                            f"{dmg} damage.", hero=pid, roll=roll)
        heroes.hurt(ctx, pid, dmg, source)
        if atk.get("condition") and ctx.s["players"][pid]["hp"] > 0:
            heroes.add_condition(ctx, pid, atk["condition"], source)
        reactions.after_attack(ctx, fig, pid, dmg, hero_attack)
        return True
    miss = atk.get("miss") or 0
    tail = f", but deals {miss} damage anyway" if miss else ""
    if total < ac:
        ctx.say("attacked", f"{source} attacks {who} with {label}: {roll}+{bonus} = {total} vs AC {ac}, misses{tail}.",
                hero=pid, roll=roll)
    if miss:
        heroes.hurt(ctx, pid, miss, source)
    reactions.after_attack(ctx, fig, pid, miss, hero_attack)
    return False


def flip(ctx: Ctx, pid: str, power_id: str):
    ctx.s["players"][pid]["powers"][power_id] = "used"
    if heroes.environment_is(ctx, "Cackling Skull"):
        heroes.hurt(ctx, pid, 1, "Cackling Skull")


def remove_marker(ctx: Ctx, marker: dict, reason: str):
    """A marker off the map; the persistent card that placed it goes with it (FAQ: Consecrated
    Ground)."""
    ctx.s["markers"] = [m for m in ctx.s["markers"] if m["id"] != marker["id"]]
    card = marker.get("card")
    if card is None:
        return
    for p in ctx.s["players"].values():
        for c in list(p.get("cards", [])):
            if c["card"] == card and c["kind"] in ("trap", "hazard"):
                p["cards"].remove(c)
                discard(ctx, "encounter", card)
                ctx.say("marker", f"The {data.encounter(ctx.content, card)['name']} marker is gone ({reason}), and its "
                                  f"card is discarded.")
                return
