"""The encounter cards' own rules: one small function per card whose data names a `special` step,
registered by that step's name in `encounters.RULES` (the environments are read where they apply:
combat, heroes, explore, turns). A card that lets a hero choose asks through the pending question
(kind "encounter", answered by `answer`); a rule that must wait on its answer returns
`encounters.WAIT`, and its answer carries out the rest of the card.

Where a card leaves a detail open the engine decides the way docs/rulings.md records (Castle
Ravenloft rows): a figure put on a tile takes its bone pile, or the free square nearest it; of
monsters as near (or as far), the one placed first; of tiles as far, the active hero picks."""

from bot.kit.rng import die

from . import combat, data, encounters, explore, geometry, heroes, pending, reactions, tactics
from .encounters import WAIT
from .state import Ctx, clockwise_from, discard, hero_pids

ANSWERS: dict = {}  # rule word -> fn(ctx, question, value): carries on once the hero has chosen


def rule(word: str, rolls_attack: bool = False):
    """Register a card's rule under its step name; `rolls_attack`: it rolls the card's attack itself
    (its rider hangs on each hit)."""
    def add(fn):
        encounters.RULES[word] = fn
        if rolls_attack:
            encounters.OWN_ATTACK.add(word)
        return fn
    return add


def answers(word: str):
    def add(fn):
        ANSWERS[word] = fn
        return fn
    return add


def answer(ctx: Ctx, q: dict, choice: str):
    """The `decide` on an encounter card's question: the value behind the chosen option."""
    fn = ANSWERS.get(q["rule"])
    if fn is not None:
        fn(ctx, q, q["values"][q["options"].index(choice)])


def _ask(ctx: Ctx, pid: str, word: str, e: dict, prompt: str, choices: list, **more):
    """Ask `pid`; choices are (label, value) pairs, the value a JSON plain value."""
    pending.ask(ctx, pid, "encounter", f"{e['name']}: {prompt}", [c[0] for c in choices], rule=word,
                enc=e["id"], values=[c[1] for c in choices], **more)


def _card(ctx: Ctx, q: dict) -> dict:
    return data.encounter(ctx.content, q["enc"])


# ------------------------------------------------------------------ what the rules share

def monsters(ctx: Ctx) -> list:
    """Every monster figure in play (villains too: FAQ, a villain is a monster), placed order."""
    return [ctx.s["figures"][f] for f in sorted(ctx.s["figures"], key=combat._fid_order)
            if not ctx.s["figures"][f].get("object")]


def _tile_label(ctx: Ctx, tkey: str) -> str:
    name = ctx.s["tiles"]["placed"][tkey].get("name")
    return f"tile {tkey}" + (f" ({name})" if name else "")


def _near(ctx: Ctx, fig: dict, pid: str) -> tuple:
    """(tiles, squares) between a figure and a hero; no way through counts as farthest."""
    d = combat.tiles_between(ctx, fig, pid)
    sq = min(geometry.square_distance(heroes.xy(ctx, pid), q) for q in combat.fig_xy(fig))
    return (99 if d is None else d, sq)


def nearest_monsters(ctx: Ctx, pid: str) -> list:
    return sorted(monsters(ctx), key=lambda f: _near(ctx, f, pid))


def farthest_tiles(ctx: Ctx, pid: str) -> list:
    """The tiles the most tile steps from the hero (a free square on each), in map order."""
    d = geometry.tile_distances(ctx.s, [heroes.tile(ctx, pid)])
    d = {k: v for k, v in d.items() if explore.free_square_on(ctx, k)}
    if not d:
        return []
    far = max(d.values())
    return sorted((k for k, v in d.items() if v == far), key=geometry._tile_sort)


def put_hero(ctx: Ctx, pid: str, tkey: str, source: str) -> bool:
    """The hero set on the tile's bone pile, or the free square nearest it (staying put when
    already on that tile)."""
    if heroes.tile(ctx, pid) == tkey:
        return False
    sq = explore.free_square_on(ctx, tkey)
    if sq is None:
        return False
    ctx.s["players"][pid]["square"] = sq
    ctx.say("move", f"{source}: {heroes.name(ctx, pid)} is put on square {sq} ({_tile_label(ctx, tkey)}).",
            hero=pid, square=sq)
    return True


def put_figure(ctx: Ctx, fig: dict, tkey: str, source: str, square=None) -> bool:
    sq = square or explore.free_square_on(ctx, tkey)
    if sq is None:
        return False
    fig["square"] = sq
    ctx.say("monster", f"{source}: the {fig['name']} is put on square {sq}.", figure=fig["id"], square=sq)
    return True


def square_next_to(ctx: Ctx, pid: str, near=None):
    """A free floor square next to the hero (on the hero's tile first), nearest `near`."""
    hx, hy = heroes.xy(ctx, pid)
    mine = heroes.tile(ctx, pid)
    cands = [(hx + dx, hy + dy) for dx, dy in geometry.KING if tactics.free(ctx, (hx + dx, hy + dy))]
    if not cands:
        return None
    ref = near or (hx, hy)
    cands.sort(key=lambda q: (geometry.tile_at_square(geometry.name(*q)) != mine,
                              geometry.square_distance(q, ref), -q[1], q[0]))
    return geometry.name(*cands[0])


def tile_choices(ctx: Ctx, tiles: list, stay=None) -> list:
    return [((f"stay on {_tile_label(ctx, k)}" if k == stay else _tile_label(ctx, k)), k) for k in tiles]


def step_toward(ctx: Ctx, pid: str, goals: list, tiles: int, source: str) -> bool:
    """Move the hero up to `tiles` tiles toward the nearest of `goals`, tile by tile along the joints."""
    dist = geometry.tile_distances(ctx.s, goals)
    moved = False
    for _ in range(tiles):
        here = heroes.tile(ctx, pid)
        if here not in dist or dist[here] == 0:
            break
        steps = sorted((u for u in geometry.linked_tiles(ctx.s, here) if dist.get(u, 99) < dist[here]),
                       key=lambda u: (dist[u], geometry._tile_sort(u)))
        sq = next((s for s in (explore.free_square_on(ctx, u) for u in steps) if s), None)
        if sq is None:
            break
        ctx.s["players"][pid]["square"] = sq
        moved = True
    if moved:
        ctx.say("move", f"{source}: {heroes.name(ctx, pid)} is driven to square {ctx.s['players'][pid]['square']}.",
                hero=pid, square=ctx.s["players"][pid]["square"])
    return moved


def start_tiles(ctx: Ctx) -> list:
    return sorted((k for k, t in ctx.s["tiles"]["placed"].items() if t.get("start")), key=geometry._tile_sort)


def nearest_edge_to(ctx: Ctx, tiles: list):
    """The unexplored edge fewest tile steps from any of `tiles` (map order, then N E S W)."""
    d = geometry.tile_distances(ctx.s, tiles)
    edges = [(d.get(k, 99), geometry._tile_sort(k), "NESW".index(x), k, x) for k, x in geometry.all_unexplored(ctx.s)]
    if not edges:
        return None
    best = min(edges)
    return best[3], best[4]


def lose_treasure(ctx: Ctx, pid: str, item: str, source: str):
    """The hero throws an item away (Spirit of Doom, 58: that costs 1 Hit Point)."""
    encounters.lose_item(ctx, pid, item, source)


@answers("give_up_treasure")
def _give_up_answer(ctx: Ctx, q: dict, item):
    """Prowling Spirits (77): the treasure card the hero chose to give up."""
    if item in ctx.s["players"][q["player"]]["items"]:
        lose_treasure(ctx, q["player"], item, _card(ctx, q)["name"])


# ------------------------------------------------------------------ where a new monster comes (steps' `where`)

@rule("tile_with_unexplored_edge")
def reinforcements(ctx: Ctx, pid: str, e: dict):
    """Reinforcements (78): the hero with the fewest monster cards places it on a tile of their
    choice with an unexplored edge; heroes level on fewest, the active hero says which of them."""
    order = [q for q in clockwise_from(ctx.s, pid) if heroes.on_map(ctx, q)]
    if not order:
        return
    count = {q: sum(1 for c in ctx.s["players"][q]["cards"] if c["kind"] == "monster") for q in order}
    tied = [q for q in order if count[q] == min(count.values())]
    if len(tied) == 1:
        _reinforce(ctx, tied[0], e)
        return
    _ask(ctx, pid, "reinforcements_who", e, "these heroes hold as few monster cards as each other: which of them "
                                            "places the new monster?", [(heroes.name(ctx, q), q) for q in tied])


def _reinforce(ctx: Ctx, pid: str, e: dict):
    tiles = sorted({k for k, _ in geometry.all_unexplored(ctx.s) if explore.free_square_on(ctx, k)},
                   key=geometry._tile_sort)
    if not tiles:  # no open edge left in the dungeon: it comes to that hero's own tile
        tiles = [heroes.tile(ctx, pid)]
    if len(tiles) == 1:
        explore.place_monster(ctx, pid, tiles[0])
        return
    _ask(ctx, pid, "reinforcements", e, f"on which tile with an unexplored edge does {heroes.name(ctx, pid)} place "
                                        f"the new monster?", tile_choices(ctx, tiles))


@answers("reinforcements_who")
def _reinforcements_who(ctx: Ctx, q: dict, who):
    if heroes.on_map(ctx, who):
        _reinforce(ctx, who, _card(ctx, q))


@answers("reinforcements")
def _reinforcements_tile(ctx: Ctx, q: dict, tkey):
    if tkey in ctx.s["tiles"]["placed"]:
        explore.place_monster(ctx, q["player"], tkey)


@rule("adjacent_to_active_hero")
def summoning_circle(ctx: Ctx, pid: str, e: dict):
    """Summoning Circle (85): the new monster on a free square next to the active hero (on their own
    tile first); with none free, on their tile as a card puts a figure."""
    sq = square_next_to(ctx, pid)
    explore.place_monster(ctx, pid, geometry.tile_at_square(sq) if sq else heroes.tile(ctx, pid), square=sq)


def _redraw(ctx: Ctx, pid: str, e: dict):
    """No Start tile in play: the card goes and another encounter is drawn in its place."""
    ctx.say("encounter", f"{e['name']}: no Start tile is in play, so another encounter card is drawn instead.")
    encounters.draw_and_play(ctx, pid)


# ------------------------------------------------------------------ events (59-88)

@rule("bubbling_cauldron")
def bubbling_cauldron(ctx: Ctx, pid: str, e: dict):
    for fig in monsters(ctx):
        tactics.move_toward(ctx, fig, pid, 1)


@rule("corner_of_your_eye")
def corner_of_your_eye(ctx: Ctx, pid: str, e: dict):
    near = [k for k in sorted(geometry.linked_tiles(ctx.s, heroes.tile(ctx, pid)), key=geometry._tile_sort)
            if explore.free_square_on(ctx, k)]
    if not near:
        ctx.say("encounter", f"{e['name']}: no neighbouring tile has room, so {heroes.name(ctx, pid)} stays.")
        return None
    if len(near) == 1:
        put_hero(ctx, pid, near[0], e["name"])
        return None
    _ask(ctx, pid, "corner_of_your_eye", e, f"which neighbouring tile is {heroes.name(ctx, pid)} put on?",
         tile_choices(ctx, near))
    return WAIT


@answers("corner_of_your_eye")
def _corner_answer(ctx: Ctx, q: dict, tkey):
    e = _card(ctx, q)
    pid = q["player"]
    if heroes.on_map(ctx, pid):
        put_hero(ctx, pid, tkey, e["name"])
    encounters.run_steps(ctx, pid, e, _after(e, "corner_of_your_eye"))


def _after(e: dict, word: str) -> list:
    """The card's steps after its special step (carried out once the question is answered)."""
    steps = e["steps"]
    i = next(i for i, st in enumerate(steps) if data.g(st, "name") == word)
    return steps[i + 1:]


@rule("cowardly_flight")
def cowardly_flight(ctx: Ctx, pid: str, e: dict):
    if not monsters(ctx):
        ctx.say("encounter", f"{e['name']}: no monster is in play, so the card has no effect.")
        return
    fig = nearest_monsters(ctx, pid)[0]
    new = encounters.bottom_tile(ctx, pid, encounters.nearest_edge(ctx, heroes.tile(ctx, pid)), 0, False, e["name"])
    if new is None:
        return
    put_figure(ctx, fig, new, e["name"])
    explore.place_monster(ctx, pid, new)


@rule("ghost_of_prince_aurel")
def ghost_of_prince_aurel(ctx: Ctx, pid: str, e: dict):
    p = ctx.s["players"][pid]
    up = [k for k, v in p["powers"].items()
          if v == "ready" and data.power(ctx.content, k)["type"] in ("daily", "utility")]
    if not up:
        ctx.say("encounter", f"{e['name']}: {heroes.name(ctx, pid)} has no unused Daily or Utility power.")
        heroes.hurt(ctx, pid, 1, e["name"])
        return
    if len(up) == 1:
        _turn_down(ctx, pid, up[0], e["name"])
        return
    _ask(ctx, pid, "ghost_of_prince_aurel", e, "which unused power does the hero turn face down?",
         [(f"turn {data.power(ctx.content, k)['name']} face down", k) for k in up])


def _turn_down(ctx: Ctx, pid: str, power_id: str, source: str):
    """Face down without being used: no Cackling Skull."""
    ctx.s["players"][pid]["powers"][power_id] = "used"
    ctx.say("power", f"{source}: {heroes.name(ctx, pid)} turns {data.power(ctx.content, power_id)['name']} face down.")


@answers("ghost_of_prince_aurel")
def _aurel_answer(ctx: Ctx, q: dict, power_id):
    if ctx.s["players"][q["player"]]["powers"].get(power_id) == "ready":
        _turn_down(ctx, q["player"], power_id, _card(ctx, q)["name"])


@rule("illusionary_trick")
def illusionary_trick(ctx: Ctx, pid: str, e: dict):
    figs = monsters(ctx)
    if not figs:
        ctx.say("encounter", f"{e['name']}: no monster is in play, so nothing happens.")
        return
    far = max(_near(ctx, f, pid) for f in figs)
    fig = next(f for f in figs if _near(ctx, f, pid) == far)
    p = ctx.s["players"][pid]
    p["square"], fig["square"] = fig["square"], p["square"]
    ctx.say("move", f"{e['name']}: {heroes.name(ctx, pid)} and the {fig['name']} trade places ({heroes.name(ctx, pid)} "
                    f"on square {p['square']}, the {fig['name']} on {fig['square']}).", hero=pid, figure=fig["id"])


@rule("neglected_passage")
def neglected_passage(ctx: Ctx, pid: str, e: dict):
    starts = start_tiles(ctx)
    if not starts:
        _redraw(ctx, pid, e)
        return
    encounters.bottom_tile(ctx, pid, nearest_edge_to(ctx, starts), 1, False, e["name"])


@rule("overwhelming_terror")
def overwhelming_terror(ctx: Ctx, pid: str, e: dict):
    starts = start_tiles(ctx)
    if not starts:
        _redraw(ctx, pid, e)
        return
    fleeing = [q for q in clockwise_from(ctx.s, pid) if heroes.standing(ctx, q)]
    for q in fleeing:
        if ctx.s["players"][q].get("conditions", {}).get("immobilized"):
            ctx.say("encounter", f"{e['name']}: {heroes.name(ctx, q)} is Immobilized and cannot flee.")
            continue
        step_toward(ctx, q, starts, 2, e["name"])
    for q in fleeing:
        t = heroes.tile(ctx, q)
        if any(t in combat.fig_tiles(f) for f in monsters(ctx)):
            heroes.add_condition(ctx, q, "slowed", e["name"])


@rule("secret_door")
def secret_door(ctx: Ctx, pid: str, e: dict):
    encounters.bottom_tile(ctx, pid, encounters.nearest_edge(ctx, heroes.tile(ctx, pid)), 1, False, e["name"])


@rule("spirit_of_doom_event")
def spirit_of_doom_event(ctx: Ctx, pid: str, e: dict):
    _doom_next(ctx, e, [q for q in clockwise_from(ctx.s, pid) if heroes.standing(ctx, q)])


def _doom_next(ctx: Ctx, e: dict, left: list):
    """Ask the next hero where to move (by tile: a tile holding a monster is what counts); once all
    have moved, the damage."""
    while left:
        q, left = left[0], left[1:]
        if not heroes.standing(ctx, q):
            continue
        sp = heroes.speed(ctx, q)
        mine = heroes.tile(ctx, q)
        best = {}
        for sq, path in (heroes.moves_from(ctx, q, sp).items() if sp > 0 else ()):
            k = geometry.tile_at_square(sq)
            if k != mine and (k not in best or len(path) < len(best[k][1])):
                best[k] = (sq, path)
        if not best:
            continue
        choices = [(f"stay on {_tile_label(ctx, mine)}", "")]
        choices += [(f"move to {_tile_label(ctx, k)}", best[k][0]) for k in sorted(best, key=geometry._tile_sort)]
        _ask(ctx, q, "spirit_of_doom_event", e, f"{heroes.name(ctx, q)} may move up to their Speed: where to?",
             choices, left=left)
        return
    for q in hero_pids(ctx.s):
        if heroes.standing(ctx, q):
            t = heroes.tile(ctx, q)
            if not any(t in combat.fig_tiles(f) for f in monsters(ctx)):
                ctx.say("encounter", f"{e['name']}: no monster shares {heroes.name(ctx, q)}'s tile.")
                heroes.hurt(ctx, q, 1, e["name"])


@answers("spirit_of_doom_event")
def _doom_answer(ctx: Ctx, q: dict, square):
    pid = q["player"]
    if square and heroes.standing(ctx, pid) and square in heroes.moves_from(ctx, pid, heroes.speed(ctx, pid)):
        ctx.s["players"][pid]["square"] = square
        ctx.say("move", f"{heroes.name(ctx, pid)} moves to square {square}.", hero=pid, square=square)
    _doom_next(ctx, _card(ctx, q), q["left"])


@rule("strahds_minions")
def strahds_minions(ctx: Ctx, pid: str, e: dict):
    _choose_far_tile(ctx, pid, e, "strahds_minions", _minions_to)


def _choose_far_tile(ctx: Ctx, pid: str, e: dict, word: str, then):
    far = farthest_tiles(ctx, pid)
    if not far:
        ctx.say("encounter", f"{e['name']}: no tile has room, so nothing happens.")
        return
    if len(far) == 1:
        then(ctx, pid, e, far[0])
        return
    _ask(ctx, pid, word, e, "these tiles are as far as each other from the hero: which one?",
         tile_choices(ctx, far, heroes.tile(ctx, pid)))


def _minions_to(ctx: Ctx, pid: str, e: dict, tkey: str):
    figs = nearest_monsters(ctx, pid)[:2]
    put_hero(ctx, pid, tkey, e["name"])
    for fig in figs:
        if tkey not in combat.fig_tiles(fig):
            put_figure(ctx, fig, tkey, e["name"], square_next_to(ctx, pid))
    if len(monsters(ctx)) < 2:
        sq = square_next_to(ctx, pid)
        if sq:
            explore.place_monster(ctx, pid, geometry.tile_at_square(sq), square=sq)


@answers("strahds_minions")
def _minions_answer(ctx: Ctx, q: dict, tkey):
    if heroes.on_map(ctx, q["player"]):
        _minions_to(ctx, q["player"], _card(ctx, q), tkey)


@rule("strahds_trick")
def strahds_trick(ctx: Ctx, pid: str, e: dict):
    mine = heroes.tile(ctx, pid)
    near = [mine] + sorted(geometry.linked_tiles(ctx.s, mine), key=geometry._tile_sort)
    count = {k: sum(1 for f in monsters(ctx) if k in combat.fig_tiles(f)) for k in near}
    most = max(count.values())
    if most == 0:
        ctx.say("encounter", f"{e['name']}: no monster is within 1 tile of {heroes.name(ctx, pid)}.")
        heroes.hurt(ctx, pid, 1, e["name"])
        return
    best = [k for k in near if count[k] == most and (k == mine or explore.free_square_on(ctx, k))]
    if len(best) == 1:
        put_hero(ctx, pid, best[0], e["name"])
        return
    _ask(ctx, pid, "strahds_trick", e, "these tiles hold as many monsters as each other: which one?",
         tile_choices(ctx, best, mine))


@answers("strahds_trick")
def _trick_answer(ctx: Ctx, q: dict, tkey):
    if heroes.on_map(ctx, q["player"]):
        put_hero(ctx, q["player"], tkey, _card(ctx, q)["name"])


@rule("strahds_whispers")
def strahds_whispers(ctx: Ctx, pid: str, e: dict):
    order = {q: i for i, q in enumerate(clockwise_from(ctx.s, pid))}
    mine = geometry.tile_distances(ctx.s, [heroes.tile(ctx, pid)])
    others = [q for q in hero_pids(ctx.s) if q != pid and heroes.standing(ctx, q)]
    if not others:
        ctx.say("encounter", f"{e['name']}: no other hero is there to be attacked.")
        return
    me = heroes.xy(ctx, pid)
    other = min(others, key=lambda q: (mine.get(heroes.tile(ctx, q), 99),
                                       geometry.square_distance(me, heroes.xy(ctx, q)), order[q]))
    if not geometry.adjacent(me, heroes.xy(ctx, other)):
        sq = square_next_to(ctx, other, me)
        if sq:
            ctx.s["players"][pid]["square"] = sq
            ctx.say("move", f"{e['name']}: {heroes.name(ctx, pid)} is put next to {heroes.name(ctx, other)} "
                            f"(square {sq}).", hero=pid, square=sq)
    at_wills = [k for k in ctx.s["players"][pid]["powers"]
                if data.power(ctx.content, k)["type"] == "at_will" and data.power(ctx.content, k)["hits"]]
    if not at_wills:
        ctx.say("encounter", f"{e['name']}: {heroes.name(ctx, pid)} has no At-Will attack to make.")
        return
    if len(at_wills) == 1:
        hero_strikes_hero(ctx, pid, other, at_wills[0], e["name"])
        return
    _ask(ctx, pid, "strahds_whispers", e, f"which At-Will power does {heroes.name(ctx, pid)} attack "
                                          f"{heroes.name(ctx, other)} with?",
         [(data.power(ctx.content, k)["name"], k) for k in at_wills], target=other)


@answers("strahds_whispers")
def _whispers_answer(ctx: Ctx, q: dict, power_id):
    if heroes.standing(ctx, q["player"]):
        hero_strikes_hero(ctx, q["player"], q["target"], power_id, _card(ctx, q)["name"])


def hero_strikes_hero(ctx: Ctx, pid: str, target: str, power_id: str, source: str):
    """One hero's power against another hero: the die plus the power's bonus (and the hero's items
    that always count) against the target's Armor Class, the power's damage (or miss damage)."""
    pw = data.power(ctx.content, power_id)
    if not heroes.standing(ctx, target):
        return
    who, whom = heroes.name(ctx, pid), heroes.name(ctx, target)
    ac = heroes.ac(ctx, target)
    if pw["attack"] is None:
        roll, hit, text = None, True, "an automatic hit"
    else:
        roll = die(ctx.s, 20)
        total = roll + pw["attack"] + heroes.item_bonus(ctx, pid, "attack")
        hit = total >= ac
        text = f"{roll}+{total - roll} = {total} vs AC {ac}, " + ("hits" if hit else "misses")
    dmg = pw["damage"] if hit else pw["miss"]
    if hit and roll is not None and roll >= 17 and heroes.environment_is(ctx, "Blood Fog"):
        dmg += 1
    ctx.say("attacked", f"{source}: {who} attacks {whom} with {pw['name']}: {text}"
                        + (f" for {dmg} damage." if dmg else "."), hero=target, roll=roll)
    heroes.hurt(ctx, target, dmg, source)


@rule("teleport_glyph")
def teleport_glyph(ctx: Ctx, pid: str, e: dict):
    _choose_far_tile(ctx, pid, e, "teleport_glyph", _glyph_to)


def _glyph_to(ctx: Ctx, pid: str, e: dict, tkey: str):
    mine = heroes.tile(ctx, pid)
    figs = [f for f in monsters(ctx) if mine in combat.fig_tiles(f)]
    if not put_hero(ctx, pid, tkey, e["name"]):
        return
    for fig in figs:
        put_figure(ctx, fig, tkey, e["name"])


@answers("teleport_glyph")
def _glyph_answer(ctx: Ctx, q: dict, tkey):
    if heroes.on_map(ctx, q["player"]):
        _glyph_to(ctx, q["player"], _card(ctx, q), tkey)


@rule("voice_of_the_master")
def voice_of_the_master(ctx: Ctx, pid: str, e: dict):
    seats = clockwise_from(ctx.s, pid)
    _voice_next(ctx, e, seats[1:] + seats[:1], False)


def _controlled(ctx: Ctx, q: str) -> list:
    """The figures of the monster cards in front of the hero (the cards they drew them with)."""
    mine = {c["card"] for c in ctx.s["players"][q]["cards"] if c["kind"] == "monster"}
    return [f for f in monsters(ctx) if f.get("card") in mine and not f.get("villain")]


def _voice_next(ctx: Ctx, e: dict, left: list, placed: bool):
    while left:
        q, left = left[0], left[1:]
        figs = _controlled(ctx, q)
        if len(figs) == 1:
            _voice_act(ctx, figs[0]["id"], e)
            continue
        if figs:
            _ask(ctx, q, "voice_of_the_master", e, f"which of {heroes.name(ctx, q)}'s monsters acts?",
                 [(f"the {f['name']} on square {f['square']}", f["id"]) for f in figs], left=left, placed=placed)
            return
        if placed:
            continue
        placed = True
        tiles = [k for k in sorted(ctx.s["tiles"]["placed"], key=geometry._tile_sort) if explore.free_square_on(ctx, k)]
        if tiles:
            _ask(ctx, q, "voice_of_the_master", e, f"{heroes.name(ctx, q)} controls no monster: on which tile does "
                                                   f"a new monster appear?",
                 tile_choices(ctx, tiles), left=left, placed=placed, place=True)
            return


def _voice_act(ctx: Ctx, fid: str, e: dict):
    fig = ctx.s["figures"].get(fid)
    if fig is not None:
        ctx.say("encounter", f"{e['name']}: the {fig['name']} acts.")
        tactics.activate(ctx, fid)


@answers("voice_of_the_master")
def _voice_answer(ctx: Ctx, q: dict, value):
    e = _card(ctx, q)
    if q.get("place"):
        if value in ctx.s["tiles"]["placed"]:
            explore.place_monster(ctx, q["player"], value)
    else:
        _voice_act(ctx, value, e)
    _voice_next(ctx, e, q["left"], q["placed"])


# ------------------------------------------------------------------ event-attacks (89-103)

@rule("circle_of_death")
def circle_of_death(ctx: Ctx, pid: str, e: dict):
    mine = heroes.tile(ctx, pid)
    for fig in monsters(ctx):
        undead = data.slug(data.monster(ctx.content, fig["monster"])["kind"]) == "undead"
        if undead and mine in combat.fig_tiles(fig) and fig["hp"] < fig["max_hp"]:
            fig["hp"] += 1
            ctx.say("monster", f"{e['name']}: the {fig['name']} regains 1 HP ({fig['hp']}/{fig['max_hp']}).",
                    figure=fig["id"])


def _attack_of(e: dict) -> dict:
    return dict(e["attack"], condition=(e["attack"]["conditions"] or [None])[0])


@rule("green_slime", rolls_attack=True)
def green_slime(ctx: Ctx, pid: str, e: dict):
    for q in encounters._heroes_hit(ctx, pid, e["attack"]["target"], heroes.tile(ctx, pid)):
        hit = combat.monster_attack(ctx, e["name"], _attack_of(e), q)
        items = ctx.s["players"][q]["items"]
        if hit and q == pid and items:
            lose_treasure(ctx, q, items[die(ctx.s, len(items)) - 1], e["name"])


@rule("howling_ghost", rolls_attack=True)
def howling_ghost(ctx: Ctx, pid: str, e: dict):
    atk = e["attack"]
    for q in encounters._heroes_hit(ctx, pid, atk["target"], heroes.tile(ctx, pid)):
        roll = die(ctx.s, 20)
        total, ac = roll + atk["attack"], heroes.ac(ctx, q)
        text = f"{e['name']} attacks {heroes.name(ctx, q)}: {roll}+{atk['attack']} = {total} vs AC {ac}"
        if total < ac:
            ctx.say("attacked", text + ", misses.", hero=q, roll=roll)
            continue
        dmg = atk["damage"] + (1 if roll >= 17 and heroes.environment_is(ctx, "Blood Fog") else 0)
        if reactions.negate_hit(ctx, None, q, dmg):
            ctx.say("attacked", text + ", but the hit is turned into a miss.", hero=q, roll=roll)
            continue
        ctx.say("attacked", text + f", hits for {dmg} damage.", hero=q, roll=roll)
        dailies = [k for k, v in ctx.s["players"][q]["powers"].items()
                   if v == "ready" and data.power(ctx.content, k)["type"] == "daily"]
        if not dailies:
            heroes.hurt(ctx, q, dmg, e["name"])
            continue
        _ask(ctx, q, "howling_ghost", e, f"{heroes.name(ctx, q)} may turn an unused Daily power face down to take "
                                         f"none of the {dmg} damage.",
             [(f"take {dmg} damage", "")] + [(f"turn {data.power(ctx.content, k)['name']} face down", k)
                                             for k in dailies], damage=dmg)


@answers("howling_ghost")
def _ghost_answer(ctx: Ctx, q: dict, power_id):
    pid, e = q["player"], _card(ctx, q)
    if power_id and ctx.s["players"][pid]["powers"].get(power_id) == "ready":
        _turn_down(ctx, pid, power_id, e["name"])
        ctx.say("encounter", f"{e['name']}: {heroes.name(ctx, pid)} takes no damage.")
        return
    heroes.hurt(ctx, pid, q["damage"], e["name"])


@rule("icy_corridor")
def icy_corridor(ctx: Ctx, pid: str, e: dict):
    mine = heroes.tile(ctx, pid)
    _icy_next(ctx, e, [q for q in clockwise_from(ctx.s, pid) if heroes.standing(ctx, q) and heroes.tile(ctx, q) == mine])


def _icy_next(ctx: Ctx, e: dict, left: list):
    while left:
        q, left = left[0], left[1:]
        if not heroes.standing(ctx, q):
            continue
        mine = heroes.tile(ctx, q)
        near = [k for k in sorted(geometry.linked_tiles(ctx.s, mine), key=geometry._tile_sort)
                if explore.free_square_on(ctx, k)]
        if not near:
            continue
        _ask(ctx, q, "icy_corridor", e, f"{heroes.name(ctx, q)} slides on the ice: to which tile within 1 tile?",
             tile_choices(ctx, [mine] + near, mine), left=left)
        return


@answers("icy_corridor")
def _icy_answer(ctx: Ctx, q: dict, tkey):
    if heroes.standing(ctx, q["player"]):
        put_hero(ctx, q["player"], tkey, _card(ctx, q)["name"])
    _icy_next(ctx, _card(ctx, q), q["left"])


@rule("king_tomescus_portal")
def king_tomescus_portal(ctx: Ctx, pid: str, e: dict):
    p = ctx.s["players"][pid]
    if not heroes.on_map(ctx, pid):
        return
    p["away"], p["square"] = {"from": p["square"], "card": e["id"]}, None
    ctx.say("encounter", f"{e['name']}: {heroes.name(ctx, pid)} is drawn off the board until the start of their next "
                         f"hero phase; no card touches them meanwhile.", hero=pid)


def come_back(ctx: Ctx, pid: str):
    """At the start of an away hero's hero phase (King Tomescu's Portal): back on a tile of their
    choice, nearest the tile they left first."""
    p = ctx.s["players"][pid]
    was = geometry.tile_at_square(p["away"]["from"])
    d = geometry.tile_distances(ctx.s, [was])
    tiles = sorted((k for k in ctx.s["tiles"]["placed"] if explore.free_square_on(ctx, k)),
                   key=lambda k: (d.get(k, 99), geometry._tile_sort(k)))
    if len(tiles) == 1:
        _return_to(ctx, pid, tiles[0])
        return
    e = data.encounter(ctx.content, p["away"]["card"])
    _ask(ctx, pid, "king_tomescus_portal", e, f"on which tile does {heroes.name(ctx, pid)} come back?",
         tile_choices(ctx, tiles))


def _return_to(ctx: Ctx, pid: str, tkey: str):
    p = ctx.s["players"][pid]
    sq = explore.free_square_on(ctx, tkey) or p["away"]["from"]
    p["square"] = sq
    del p["away"]
    ctx.say("move", f"{heroes.name(ctx, pid)} comes back out of King Tomescu's Portal on square {sq}.", hero=pid,
            square=sq)


@answers("king_tomescus_portal")
def _portal_answer(ctx: Ctx, q: dict, tkey):
    if ctx.s["players"][q["player"]].get("away"):
        _return_to(ctx, q["player"], tkey)


@rule("patrina_velikovna")
def patrina_velikovna(ctx: Ctx, pid: str, e: dict):
    hero_tiles = {heroes.tile(ctx, q) for q in heroes.standing_heroes(ctx)}
    for fig in monsters(ctx):
        if not set(combat.fig_tiles(fig)) & hero_tiles:
            tactics.move_toward(ctx, fig, tactics.focus_hero(ctx, fig, "closest", None), 1)


# ------------------------------------------------------------------ traps (104-110)

SLIDE = ((5, "N"), (10, "E"), (15, "S"), (20, "W"))  # our die-to-direction table for the Sliding Walls marker


@rule("sliding_walls")
def sliding_walls(ctx: Ctx, pid: str, e: dict):
    marker = next((m for m in ctx.s["markers"] if m.get("card") == e["id"]), None)
    if marker is None:
        return
    t = marker["tile"]
    for q in [q for q in clockwise_from(ctx.s, pid) if heroes.standing(ctx, q) and heroes.tile(ctx, q) == t]:
        r = die(ctx.s, 20)
        way = next(d for top, d in SLIDE if r <= top)
        beyond = geometry.neighbour(t, way)
        sq = explore.free_square_on(ctx, beyond) if geometry.connected(ctx.s, t, beyond) else None
        if sq is None:
            ctx.say("trap", f"The {e['name']} shove {heroes.name(ctx, q)} {way} (roll {r}) into a wall.", roll=r)
            heroes.hurt(ctx, q, 1, e["name"])
            continue
        ctx.s["players"][q]["square"] = sq
        ctx.say("trap", f"The {e['name']} shift {heroes.name(ctx, q)} {way} (roll {r}) to square {sq}.", hero=q,
                square=sq, roll=r)
