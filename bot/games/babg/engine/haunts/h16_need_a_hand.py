"""Haunt 16, Need a Hand? (Secrets of Survival; no traitor).

What the bot carries out:
- setup: each hero's Crawling Claw on their own tile and on every tile next
  to it on the grid, joined by a doorway or not (one per hero, so two heroes
  side by side put two there); the spare pile and the Obstacle tokens are
  kept by the bot; the player left of the revealer goes first (the default
  order);
- no monster turn: at the start of each hero's turn the Claws (1) attack the
  active hero in waves of at most 8 dice, the hero defending with Might,
  each point the hero wins by destroying a Claw on the tile, each point lost
  hurting the hero; (2) move toward the nearest hero along the shortest
  route not sealed by an Obstacle (a Claw with no such route stays);
  (3) spawn as many Claws as the dice for the living heroes show, each put
  by the player to the active hero's right (who acts for the Claws) on a
  tile with no Claw and no adventurer, and when none is left on a new tile
  joined to the open doorway nearest a hero;
- any damage destroys a Claw instead of stunning it; the Claws' defence is
  rolled by the player to the attacker's right; a group attack on several
  Claws of your tile (the declared move `attack`, with how many: the Claws
  defend with their combined trait, 8 dice at most, and one Claw dies per
  point of damage);
- fortifications: the declared move `fortify` (once a turn, Knowledge 4+,
  then pick the exit of your tile to seal) and `clear` (no roll: one of
  your tile's Obstacles, by its exit, is taken away); a sealed exit stops
  heroes and Claws alike;
- the wins: the heroes when every living hero is on a tile with no Claw that
  no Claw can reach; the Claws once half the heroes (rounded down) are dead.

Left to the players: nothing of this haunt's own rules.
"""
import heapq

from .. import attack, effects, hooks, rulesets
from .. import board as bd
from .. import geometry
from .. import haunt_play as hp
from .. import moves as mv
from .. import rng
from .. import state as st
from ..errors import IllegalAction
from ..sides import alive, heroes
from ..turns import begin_turn

CLAW = "Crawling Claw"
KEY = "h16"
EXITS = (*bd.SIDES, "stairs", "grate")
WAVE = 8
FORTIFY_TARGET = 4


# --- this haunt's own state -----------------------------------------------------------------

def obstacles(s: dict) -> list[list[str]]:
    """[tile, exit] for each Obstacle token (read only)."""
    return (s["haunt"].get(KEY) or {}).get("obstacles", [])


OWN = rulesets.Own(KEY, {"obstacles": [], "group": 0})  # no player ids: the Obstacles by tile and exit


def mine(ctx) -> dict:
    """This haunt's record, for steps and decisions that write it."""
    return rulesets.REGISTRY[16].record(ctx.s)


def claws(s: dict, tile: str | None = None) -> list[dict]:
    return [m for m in s["monsters"] if m["name"] == CLAW and not m["dead"] and (tile is None or m["tile"] == tile)]


def hero_tiles(s: dict) -> set[str]:
    return {s["players"][p]["tile"] for p in alive(s, heroes(s)) if st.on_board(s["players"][p])}


# --- the map with its fortifications ----------------------------------------------------------

def routes(ctx, tid: str) -> list[tuple[str, int, str]]:
    """(tile, spaces, exit) for each way out of a placed tile that leads to a
    placed tile and is not sealed by an Obstacle."""
    s, c = ctx.s, ctx.c
    sealed = {tuple(o) for o in obstacles(s)}
    out = []
    for side, other in bd.exits(c, s["board"], tid).items():
        if other and (tid, side) not in sealed and (other, bd.OPPOSITE[side]) not in sealed:
            out.append((other, 1, side))
    tile = c.tiles[tid]
    if tile.stairs_to and tile.stairs_to in s["board"] and (tid, "stairs") not in sealed \
            and (tile.stairs_to, "stairs") not in sealed:
        out.append((tile.stairs_to, 1 + tile.stairs_extra_cost, "stairs"))
    if tile.sewer_grate and "catacomb_landing" in s["board"] and (tid, "grate") not in sealed:
        out.append(("catacomb_landing", 1, "grate"))
    return out


def fortifiable(ctx, tid: str) -> list[str]:
    """The exits of the tile an Obstacle may still cover: doorways, stairs and
    a sewer grate that lead to a placed tile (Ruling: only a way that leads
    somewhere can be fortified)."""
    return [way for _, _, way in routes(ctx, tid)]


def to_heroes(ctx, targets: set[str]) -> dict[str, int]:
    """Fewest spaces from each tile to the nearest of `targets`, along
    unsealed ways (the sewer grate runs one way only)."""
    back: dict[str, list] = {}
    for tid in ctx.s["board"]:
        for other, cost, _ in routes(ctx, tid):
            back.setdefault(other, []).append((tid, cost))
    best = {t: 0 for t in targets}
    todo = [(0, t) for t in targets]
    while todo:
        d, tid = heapq.heappop(todo)
        if d > best.get(tid, 999):
            continue
        for prev, cost in back.get(tid, []):
            if d + cost < best.get(prev, 999):
                best[prev] = d + cost
                heapq.heappush(todo, (d + cost, prev))
    return best


def right_of(s: dict, pid: str) -> str:
    """The nearest living player to `pid`'s right (who acts for the Claws)."""
    seats = s["seats"]
    i = seats.index(pid)
    for k in range(1, len(seats)):
        other = seats[(i - k) % len(seats)]
        if s["players"][other]["alive"]:
            return other
    return pid


def destroy(ctx, tile: str, count: int, first: dict | None = None) -> int:
    """Take up to `count` Claws off the tile (Secrets of Survival, haunt 16,
    "Damaging Crawling Claws")."""
    here = claws(ctx.s, tile)
    if first in here:
        here.remove(first)
        here.insert(0, first)
    gone = here[:max(0, count)]
    for m in gone:
        m["dead"] = True
        hooks.fire("monster_killed", ctx, m["id"])
    if gone:
        ctx.say(f"{len(gone)} Crawling Claw{'s are' if len(gone) != 1 else ' is'} destroyed on the "
                f"{ctx.tile_name(tile)} ({len(claws(ctx.s, tile))} left there).", kind="monster", tile=tile)
    return len(gone)


# --- the Claws' three steps at the start of a hero's turn ---------------------------------------

@effects.step("h16_wave")
def _wave(ctx, task, item):
    """Step 1: the Claws on the hero's tile attack in waves of 8."""
    s = ctx.s
    pid = task["player"]
    p = s["players"][pid]
    if not p["alive"] or not st.on_board(p):
        return
    here = [m for m in claws(s, p["tile"]) if st.beside(s, pid, m)]
    left = len(here) if item.get("left") is None else min(item["left"], len(here))
    if left <= 0:
        return
    n = min(WAVE, left)
    roller = right_of(s, pid)
    ctx.say(f"{n} Crawling Claw{'s' if n != 1 else ''} on the {ctx.tile_name(p['tile'])} attack "
            f"{ctx.name(pid)}; {ctx.name(roller)} rolls for them.", kind="attack")
    a = effects.make_roll(ctx, roller, rng.dice_count(n), f"Might for {n} Crawling Claws", kind="contest")
    d = attack.defence_roll(ctx, pid, "might", ctx.value(pid, "might"))
    if left - n > 0:
        effects.push_front(ctx, [{"do": "h16_wave", "left": left - n}])
    if d > a:
        ctx.say(f"{ctx.name(pid)} wins {d} to {a}.", kind="attack")
        destroy(ctx, p["tile"], d - a)
    elif a > d:
        ctx.say(f"The Crawling Claws win {a} to {d}.", kind="attack")
        effects.take_damage(ctx, pid, "physical", a - d, source="haunt")
    else:
        ctx.say(f"A tie ({a} to {d}): nobody is hurt.", kind="attack")


@effects.step("h16_move")
def _move(ctx, task, item):
    """Step 2: every Claw not on a hero's tile moves toward the nearest hero;
    Ruling: one Speed roll for all of them (2 dice, at least 1 space, as the
    rulebook's monsters move), each along a shortest unsealed route."""
    s = ctx.s
    targets = hero_tiles(s)
    moving = [m for m in claws(s) if m["tile"] not in targets]
    if not moving or not targets:
        return
    spaces = max(1, effects.make_roll(ctx, right_of(s, task["player"]), 2, "Speed for the Crawling Claws"))
    far = to_heroes(ctx, targets)
    for m in moving:
        tile, left = m["tile"], spaces
        while tile not in targets and tile in far:
            steps = sorted((other for other, cost, _ in routes(ctx, tile)
                            if cost <= left and far.get(other, 999) + cost == far[tile]), key=ctx.tile_name)
            if not steps:
                break
            cost = next(c for o, c, _ in routes(ctx, tile) if o == steps[0])
            tile, left = steps[0], left - cost
        if tile != m["tile"]:
            m["tile"], m["half"] = tile, None
            ctx.say(f"Crawling Claw {m['number']} scuttles to the {ctx.tile_name(tile)}.", kind="monster_move",
                    monster=m["id"], tile=tile)
            hooks.fire("entered", ctx, m["id"], tile)


def free_tiles(ctx) -> list[str]:
    s = ctx.s
    taken = {m["tile"] for m in claws(s)} | {s["players"][p]["tile"] for p in alive(s, s["seats"])
                                             if st.on_board(s["players"][p])}
    return sorted((t for t in s["board"] if t not in taken), key=ctx.tile_name)


@effects.step("h16_spawn")
def _spawn(ctx, task, item):
    """Step 3: a die for each living hero; that many new Claws."""
    s = ctx.s
    n = len(alive(s, heroes(s)))
    roller = right_of(s, task["player"])
    count = effects.make_roll(ctx, roller, n, "dice for new Crawling Claws") if n else 0
    if count <= 0:
        ctx.say("No new Crawling Claws this time.", kind="monster")
        return
    ctx.say(f"{count} new Crawling Claw{'s' if count != 1 else ''}: {ctx.name(roller)} places them.", kind="monster")
    effects.push_front(ctx, [{"do": "h16_spawn_one", "left": count, "by": roller}])


@effects.step("h16_spawn_one")
def _spawn_one(ctx, task, item):
    tiles = free_tiles(ctx)
    if not tiles:
        effects.push_front(ctx, [{"do": "h16_new_tile", "left": item["left"], "by": item["by"]}])
        return
    if len(tiles) == 1:
        _put(ctx, tiles[0], item)
        return
    effects.ask(ctx, item["by"], "h16_spawn", f"where does the next new Crawling Claw go ({item['left']} to place)?",
                [ctx.tile_name(t) for t in tiles], tiles=tiles, item=item)


def _put(ctx, tile: str, item: dict):
    hp.add_monster(ctx, CLAW, tile)
    if item["left"] > 1:
        effects.push_front(ctx, [{**item, "left": item["left"] - 1}])


@effects.decision("h16_spawn")
def _decide_spawn(ctx, pending, index):
    _put(ctx, pending["data"]["tiles"][index], pending["data"]["item"])


def nearest_doors(ctx) -> list[tuple[str, str]]:
    """The open doorways (with a tile left to draw for them) nearest a hero."""
    s = ctx.s
    near = {}
    reach = [geometry.distances(ctx, t) for t in hero_tiles(s)]
    for level in ("city", "catacomb"):
        for tid, side in bd.open_doorways(ctx.c, s["board"], level):
            colour = bd.placed_doorways(ctx.c, s["board"], tid)[side]
            if mv.stack_for(ctx, colour) is None:
                continue
            near[(tid, side)] = min((d.get(tid, 999) for d in reach), default=999)
    if not near:
        return []
    best = min(near.values())
    return sorted((door for door, d in near.items() if d == best), key=lambda x: (ctx.tile_name(x[0]), x[1]))


@effects.step("h16_new_tile")
def _new_tile(ctx, task, item):
    """Every tile holds a Claw or a hero: a new tile joins the open doorway
    nearest a hero (its side's chooser picks among equally near ones) and
    the Claws still to place all go on it."""
    doors = nearest_doors(ctx)
    if not doors:
        ctx.say(f"No open doorway can take a new tile: {item['left']} Crawling Claws stay in the pile.", kind="monster")
        return
    if len(doors) == 1:
        _join(ctx, doors[0], item)
        return
    effects.ask(ctx, item["by"], "h16_new_tile", "every tile holds a Claw or a hero: which open doorway gets a new "
                "tile?", [f"The {ctx.tile_name(t)}'s {side} doorway" for t, side in doors],
                doors=[list(d) for d in doors], item=item)


@effects.decision("h16_new_tile")
def _decide_new_tile(ctx, pending, index):
    _join(ctx, tuple(pending["data"]["doors"][index]), pending["data"]["item"])


def _join(ctx, door: tuple, item: dict):
    s = ctx.s
    tid, side = door
    stack = mv.stack_for(ctx, bd.placed_doorways(ctx.c, s["board"], tid)[side])
    if not s["stacks"][stack]:
        s["stacks"][stack] = rng.shuffle(s, s["set_aside"][stack])
        s["set_aside"][stack] = []
    square, entry = bd.neighbour_square(s["board"][tid], side), bd.OPPOSITE[side]
    new = s["stacks"][stack].pop(0)
    options = mv.placements(ctx, new, square, entry)
    fine = [o for o in options if not o[2]] or options
    rot = max(fine, key=lambda o: o[1])[0] if fine else 0
    level, x, y = square
    s["board"][new] = {"level": level, "x": x, "y": y, "rot": rot}
    ctx.say(f"A new tile, the {ctx.tile_name(new)}, is joined to the {ctx.tile_name(tid)}'s {side} doorway; "
            f"{item['left']} Crawling Claw{'s go' if item['left'] != 1 else ' goes'} on it.", kind="discover",
            tile=new)
    for _ in range(item["left"]):
        hp.add_monster(ctx, CLAW, new)


# --- fortifications -----------------------------------------------------------------------------

@effects.step("h16_fortify")
def _fortify(ctx, task, item):
    pid = task["player"]
    tile = ctx.s["players"][pid]["tile"]
    ways = [w for w in fortifiable(ctx, tile)]
    if not ways:
        ctx.say(f"No exit of the {ctx.tile_name(tile)} is left to fortify.", kind="haunt")
        return
    if len(ways) == 1:
        seal(ctx, pid, tile, ways[0])
        return
    effects.ask(ctx, pid, "h16_fortify", f"which exit of the {ctx.tile_name(tile)} does the Obstacle seal?",
                [w.capitalize() for w in ways], tile=tile, ways=ways)


@effects.decision("h16_fortify")
def _decide_fortify(ctx, pending, index):
    seal(ctx, pending["player"], pending["data"]["tile"], pending["data"]["ways"][index])


def seal(ctx, pid: str, tile: str, way: str):
    mine(ctx)["obstacles"].append([tile, way])
    ctx.say(f"{ctx.name(pid)} seals the {way} exit of the {ctx.tile_name(tile)} with an Obstacle token.",
            kind="haunt", tile=tile)


@effects.step("h16_group_over")
def _group_over(ctx, task, item):
    mine(ctx)["group"] = 0


def my_obstacles(s: dict, tile: str) -> list[str]:
    return [way for t, way in obstacles(s) if t == tile]


def blocking(ctx, here: str, dest: str) -> bool:
    """True when every way from `here` to `dest` is sealed by an Obstacle."""
    open_ways = [o for o, _, _ in routes(ctx, here)]
    if dest in open_ways:
        return False
    sealed = {tuple(o) for o in obstacles(ctx.s)}
    for side, other in bd.exits(ctx.c, ctx.s["board"], here).items():
        if other == dest and ((here, side) in sealed or (other, bd.OPPOSITE[side]) in sealed):
            return True
    tile = ctx.c.tiles[here]
    if tile.stairs_to == dest and ((here, "stairs") in sealed or (dest, "stairs") in sealed):
        return True
    return dest == "catacomb_landing" and tile.sewer_grate and (here, "grate") in sealed


@rulesets.register(16)
class NeedAHand(rulesets.RuleSet):
    title = "Need a Hand?"

    def setup_step(self, ctx, step):
        """Secrets of Survival, haunt 16, "Right Now"."""
        if step.get("do") != "manual":
            return None
        s = ctx.s
        text = step.get("text", "")
        mine(ctx)
        if "adjacent" in text:
            squares = bd.grid(s["board"])
            for pid in alive(s, heroes(s)):
                tile = s["players"][pid]["tile"]
                if not st.on_board(s["players"][pid]):
                    continue
                near = [tile] + [squares[sq] for sq in (bd.neighbour_square(s["board"][tile], side)
                                                         for side in bd.SIDES) if sq in squares]
                for t in near:
                    hp.add_monster(ctx, CLAW, t)
            return True
        if "Obstacle" in text:
            ctx.say("Setup: the bot keeps the Obstacle tokens. Once a turn, {move:fortify} (Knowledge 4+) seals an "
                    "exit of your tile; {move:clear} takes one of your tile's Obstacles away; {move:attack} attacks "
                    "as many Crawling Claws of your tile as you choose at once.", kind="haunt_setup")
            return True
        return True  # the spare pile is the bot's; the first turn is already the revealer's left

    def next_slot(self, ctx):
        """No monster turn: the Claws act at the start of each hero's turn."""
        s = ctx.s
        if not s["haunt"].get("started"):
            return None
        turn = s["turn"]
        order = [x for x in s["order"] if x != hp.MONSTERS]
        current = turn["player"] if turn["player"] in order else order[-1]
        i = order.index(current)
        for k in range(1, len(order) + 1):
            nxt = order[(i + k) % len(order)]
            if s["players"][nxt]["alive"]:
                begin_turn(ctx, nxt, turn["number"] + 1)
                return True
        hp.check_wins(ctx)
        if s["phase"] == "haunt":
            hp.finish(ctx, None, "Nobody is left to take a turn.")
        return True

    def turn_started(self, ctx, pid):
        """Secrets of Survival, haunt 16, "You Must Do This at the Start of Your Turn"."""
        ctx.say(f"The Crawling Claws stir as {ctx.name(pid)}'s turn begins: they attack, move, then spawn.",
                kind="haunt", player=pid)
        effects.queue(ctx, pid, [{"do": "h16_wave", "left": None}, {"do": "h16_move"}, {"do": "h16_spawn"}],
                      source="haunt")

    def monster_hurt(self, ctx, m, kind, amount):
        """Secrets of Survival, haunt 16, "Damaging Crawling Claws" and "Special
        Attack Rules": a Claw is destroyed, not stunned; a group attack destroys
        one Claw per point of damage."""
        if m["name"] != CLAW:
            return None
        group = (ctx.s["haunt"].get(KEY) or {}).get("group") or 1
        destroy(ctx, m["tile"], min(group, amount), first=m)
        return True

    def defence_roller(self, ctx, defender, trait):
        """Secrets of Survival, haunt 16, "Special Attack Rules": the player to
        the attacker's right rolls the Claws' defence."""
        m = attack.monster_by_id(ctx, defender)
        turn = ctx.s["turn"] or {}
        if m["name"] == CLAW and turn.get("player") in ctx.s["players"] and not turn.get("monsters"):
            return right_of(ctx.s, turn["player"])
        return None

    def defence_dice(self, ctx, defender, trait):
        """A group of Claws defends with their traits added (8 dice at most)."""
        group = (ctx.s["haunt"].get(KEY) or {}).get("group") or 0
        if group > 1 and defender not in ctx.s["players"]:
            m = attack.monster_by_id(ctx, defender)
            if m["name"] == CLAW:
                return (group - 1) * m["traits"].get(trait, 0)
        return None

    def attack_followups(self, ctx, pid, target, reckless):
        if (ctx.s["haunt"].get(KEY) or {}).get("group"):
            return [{"do": "h16_group_over"}]
        return None

    def way_blocked(self, ctx, pid, tile):
        """Secrets of Survival, haunt 16, "How to Build a Fortification": a sealed
        exit stops heroes too."""
        here = ctx.s["players"][pid]["tile"]
        if here in ctx.s["board"] and blocking(ctx, here, tile):
            return "An Obstacle token seals that way ({move:clear} on its tile takes it away)."
        return None

    def monster_blocked(self, ctx, m, dest):
        if m["name"] == CLAW and dest != m["tile"] and blocking(ctx, m["tile"], dest):
            return "An Obstacle token seals that way."
        return None

    def win_check(self, ctx):
        """Secrets of Survival, haunt 16, "You Win When..." """
        s = ctx.s
        everyone = heroes(s)
        dead = [p for p in everyone if not s["players"][p]["alive"]]
        if dead and len(dead) >= len(everyone) // 2:
            return "traitor", "Half the heroes (rounded down) have fallen to the Crawling Claws."
        living = [p for p in alive(s, everyone) if st.on_board(s["players"][p])]
        if not living:
            return None
        for pid in living:
            tile = s["players"][pid]["tile"]
            reach = to_heroes(ctx, {tile})
            if any(m["tile"] in reach for m in claws(s)):
                return None
        return "heroes", "Every hero stands on a tile that no Crawling Claw can reach, sealed off by fortifications."

    def haunt_goals(self, ctx, pid):
        """A hero's safe zone: the tile near them with the fewest open exits
        to seal and the fewest Claws to clear (their own tile once sealed)."""
        s = ctx.s
        p = s["players"][pid]
        if pid not in heroes(s) or not st.on_board(p):
            return None
        near = to_heroes(ctx, {p["tile"]})
        return {min(near, key=lambda t: (3 * len(fortifiable(ctx, t)) + near[t] + len(claws(s, t)),
                                         ctx.tile_name(t)))}

    def bot_choice(self, ctx, pending):
        """The hero who places the new Claws (a built-in player) puts each as
        far from the heroes as the free tiles allow."""
        if pending["kind"] != "h16_spawn":
            return None
        near = to_heroes(ctx, hero_tiles(ctx.s))
        tiles = pending["data"]["tiles"]
        return max(range(len(tiles)), key=lambda i: near.get(tiles[i], 999))

    own = OWN
    moves = (
        rulesets.Move("attack", "Attack several Crawling Claws",
                      lambda ctx, pid, trait, number: group_attack(ctx, pid, trait, number),
                      traits=("might",), who="heroes", instead_of_attack=True,
                      args=(rulesets.Arg("number", lambda ctx, pid: group_sizes(ctx, pid), "How many Claws?"),),
                      summary="Choose how many Claws of your tile to attack: one roll against their combined "
                              "trait (8 dice at most); each point of damage destroys one."),
        rulesets.Move("fortify", "Fortify an exit", lambda ctx, pid, trait: fortify(ctx, pid),
                      traits=("knowledge",), who="heroes", once_per_turn=True,
                      summary="Once a turn, a Knowledge roll of 4+ seals an exit of your tile with an Obstacle."),
        rulesets.Move("clear", "Take an Obstacle away", lambda ctx, pid, trait, way: clear(ctx, pid, way),
                      who="heroes", args=(rulesets.Arg("way", lambda ctx, pid: sealed_ways(ctx, pid), "Which exit?"),),
                      summary="Remove the Obstacle from an exit of your tile (no roll)."),
    )


def group_sizes(ctx, pid: str) -> list[int]:
    """How many Claws of the hero's tile a group attack may take on, most first."""
    s = ctx.s
    p = s["players"][pid]
    if not st.on_board(p):
        return []
    return list(range(len([m for m in claws(s, p["tile"]) if st.beside(s, pid, m)]), 0, -1))


def sealed_ways(ctx, pid: str) -> list[str]:
    """The exits of the hero's tile that an Obstacle covers, in the order of EXITS."""
    s = ctx.s
    p = s["players"][pid]
    if not st.on_board(p):
        return []
    here = {_way_here(ctx, o, p["tile"]) for o in obstacles(s)}
    return [way for way in EXITS if way in here]


def fortify(ctx, pid: str):
    """Secrets of Survival, haunt 16, "How to Build a Fortification"."""
    s = ctx.s
    tile = s["players"][pid]["tile"]
    if not fortifiable(ctx, tile):
        raise IllegalAction(f"No exit of the {ctx.tile_name(tile)} is left to fortify.")
    effects.queue(ctx, pid, [{"do": "roll", "trait": "knowledge", "bands": [
        {"at_least": FORTIFY_TARGET, "then": [{"do": "h16_fortify"}]},
        {"at_most": FORTIFY_TARGET - 1, "then": []}]}], source="haunt", front=True)


def clear(ctx, pid: str, way: str | None):
    """Secrets of Survival, haunt 16, "Destroying a Fortification"."""
    s = ctx.s
    tile = s["players"][pid]["tile"]
    sealed = [o for o in obstacles(s) if o[0] == tile or _faces(ctx, o, tile)]
    if way is not None:
        if way not in EXITS:
            raise IllegalAction("Name the exit: north, east, south, west, stairs or grate.")
        sealed = [o for o in sealed if _way_here(ctx, o, tile) == way]
    if not sealed:
        raise IllegalAction(f"No Obstacle token covers {'that' if way else 'an'} exit of the {ctx.tile_name(tile)}.")
    if len(sealed) > 1:
        raise IllegalAction("Name the exit whose Obstacle you take away: "
                            + ", ".join(sorted({_way_here(ctx, o, tile) for o in sealed})) + ".")
    mine(ctx)["obstacles"].remove(sealed[0])
    ctx.say(f"{ctx.name(pid)} takes the Obstacle off the {_way_here(ctx, sealed[0], tile)} exit of the "
            f"{ctx.tile_name(tile)}.", kind="haunt", tile=tile)


def _faces(ctx, obstacle: list, tile: str) -> bool:
    """An Obstacle on the far side of one of this tile's doorways or stairs
    covers the same exit."""
    return _way_here(ctx, obstacle, tile) is not None and obstacle[0] != tile


def _way_here(ctx, obstacle: list, tile: str) -> str | None:
    t, way = obstacle
    if t == tile:
        return way
    if way in bd.SIDES and bd.exits(ctx.c, ctx.s["board"], t).get(way) == tile:
        return bd.OPPOSITE[way]
    if way == "stairs" and ctx.c.tiles[t].stairs_to == tile:
        return "stairs"
    return None


def group_attack(ctx, pid: str, trait: str, count: int):
    """Secrets of Survival, haunt 16, "Special Attack Rules": choose how many
    Claws of your tile you attack, one roll against their combined trait."""
    s = ctx.s
    here = [m for m in claws(s, s["players"][pid]["tile"]) if st.beside(s, pid, m)]
    if not here:
        raise IllegalAction("There is no Crawling Claw on your tile.")
    if not 1 <= count <= len(here):
        raise IllegalAction(f"Attack between 1 and {len(here)} Crawling Claws.")
    if s["turn"].get("attacked"):
        raise IllegalAction("You have already attacked this turn; an attack is once per turn.")
    mine(ctx)["group"] = count
    attack.attack(ctx, pid, here[0]["id"], trait, None)
