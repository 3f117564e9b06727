"""Haunt 35, A Mother's Fury (Secrets of Survival; no traitor).

What the bot carries out:
- Setup: the Dragon on the tile that set off the haunt, the Turn/Damage
  track on 5 and the pile of Dragon Eggs, twice the adventurers (data); the
  haunt revealer names the player who runs the Dragon.
- The Dragon's turn after the revealer's, step by step: up to 2 tiles toward
  the nearest hero by any way the heroes could go, and from the Catacomb
  Landing up through any sewer-grate tile, stopping on a hero's tile (the
  runner picks between equally short ways); every tile it leaves is
  destroyed; 2 dice of tiles next to it destroyed (the runner picks them);
  3 physical damage to each hero on or next to its tile; the track down 1.
  It has no traits: nobody can attack or stun it.
- Destroyed tiles carry a marker (bot.games.babg.engine.city.ruin) and keep their
  exits; leaving one takes a Might or Speed 3+ roll (the mover picks), 1
  physical damage on a failure, and the move goes on.
- Egg hunting: the declared move `search` (Knowledge), once a turn on a
  tile with no Obstacle: 6+ on a blank or destroyed tile, 5+ event, 4+ omen,
  3+ item; a find puts an Obstacle on the tile. Eggs are items: the moves
  `give` (to a hero on your tile), `drop` (on your tile) and `pickup` (one
  lying there); a dead hero's eggs drop on their tile.
- Wins: the heroes once every egg is held by a hero; they lose when the
  track reaches 0 (data).

Left to the players: nothing the book prints.
"""
from .. import board as bd
from .. import city, effects, rulesets
from .. import haunt_play as hp
from .. import state as st
from .. import tokens as tk
from ..errors import IllegalAction

DRAGON = "Dragon"
CLOCK, LEFT = "Turn/Damage", "Dragon Eggs left to find"
FOUND = "Obstacle"      # an egg was found here: no more searching
RUIN = "Destroyed"      # the small monster token marking a destroyed tile
EGG = "Dragon Egg"      # an egg lying on a tile
LANDING = "catacomb_landing"
TARGETS = {"item": 3, "omen": 4, "event": 5, "none": 6}
DRAGON_STEPS, DRAGON_DAMAGE = 2, 3


OWN = rulesets.Own("h35", {"runner": None, "pile": None, "eggs": {}}, players=("runner", "eggs"))


def mine(ctx) -> dict:
    """This haunt's own record: who runs the Dragon, the eggs still hidden,
    the eggs each hero holds."""
    return rulesets.REGISTRY[35].record(ctx.s)


def the_dragon(ctx) -> dict | None:
    return next((m for m in ctx.s["monsters"] if m["name"] == DRAGON and not m["dead"]), None)


def runner(ctx) -> str:
    """Who runs the Dragon: the player the table named, or, once they are
    dead, the haunt revealer or the first living player."""
    s = ctx.s
    who = mine(ctx)["runner"]
    if who and s["players"][who]["alive"]:
        return who
    living = hp.alive(s, s["seats"])
    return hp.controller(s) if s["players"][hp.controller(s)]["alive"] or not living else living[0]


def destroyed(ctx, tid: str) -> bool:
    return any(t["name"] == RUIN for t in tk.on_tile(ctx.s, tid))


def adjacent(ctx, tid: str) -> list[str]:
    """Tiles sharing a side with `tid` (Glossary: adjacent), doors or not."""
    board = ctx.s["board"]
    squares = bd.grid(board)
    return [squares[sq] for side in bd.SIDES if (sq := bd.neighbour_square(board[tid], side)) in squares]


def dragon_ways(ctx, tid: str) -> list[str]:
    """Where the Dragon may go in one tile: any way a hero could, and from
    the Catacomb Landing up any sewer-grate tile."""
    s = ctx.s
    out = [t for t in bd.exits(ctx.c, s["board"], tid).values() if t]
    tile = ctx.c.tiles[tid]
    if tile.stairs_to and tile.stairs_to in s["board"]:
        out.append(tile.stairs_to)
    if tile.sewer_grate and LANDING in s["board"]:
        out.append(LANDING)
    if tid == LANDING:
        out += [t for t in s["board"] if ctx.c.tiles[t].sewer_grate]
    return list(dict.fromkeys(out))


def steps_to(ctx, start: str) -> dict[str, int]:
    best, todo = {start: 0}, [start]
    while todo:
        nxt = []
        for tid in todo:
            for other in dragon_ways(ctx, tid):
                if other not in best:
                    best[other] = best[tid] + 1
                    nxt.append(other)
        todo = nxt
    return best


def hero_tiles(ctx) -> set[str]:
    s = ctx.s
    return {s["players"][p]["tile"] for p in hp.alive(s, hp.heroes(s)) if st.on_board(s["players"][p])}


def toward_hero(ctx, tid: str) -> list[str]:
    """The next tiles on the shortest ways to the nearest hero."""
    targets = hero_tiles(ctx)
    here = steps_to(ctx, tid)
    reach = [here[t] for t in targets if t in here]
    if not reach or min(reach) == 0:
        return []
    near = min(reach)
    goals = {t for t in targets if here.get(t) == near}
    found = []
    for nxt in dragon_ways(ctx, tid):
        d = steps_to(ctx, nxt)
        if min((d.get(t, 99) for t in goals), default=99) == near - 1:
            found.append(nxt)
    return sorted(found, key=ctx.tile_name)


# --- the Dragon's turn -------------------------------------------------------------------------

@effects.step("h35_fly")
def _fly(ctx, task, item):
    """Step 1: up to 2 tiles toward the nearest hero, destroying each tile
    it leaves, stopping on a hero's tile."""
    m = the_dragon(ctx)
    if m is None or item["left"] <= 0 or m["tile"] in hero_tiles(ctx):
        return
    ways = toward_hero(ctx, m["tile"])
    if not ways:
        return
    if len(ways) == 1:
        fly_to(ctx, ways[0], item["left"])
        return
    effects.ask(ctx, task["player"], "h35_fly", "which way does the Dragon fly (equally near a hero)?",
                [ctx.tile_name(t) for t in ways], ways=ways, left=item["left"])


@effects.decision("h35_fly")
def _decide_fly(ctx, pending, index):
    fly_to(ctx, pending["data"]["ways"][index], pending["data"]["left"])


def fly_to(ctx, dest: str, left: int):
    m = the_dragon(ctx)
    old = m["tile"]
    m["tile"], m["half"] = dest, None
    ctx.say(f"The Dragon flies from the {ctx.tile_name(old)} to the {ctx.tile_name(dest)}.", kind="monster_move",
            monster=m["id"], tile=dest)
    city.ruin(ctx, old, RUIN)
    effects.push_front(ctx, [{"do": "h35_fly", "left": left - 1}])


@effects.step("h35_burn")
def _burn(ctx, task, item):
    """Step 2: roll 2 dice, destroy that many tiles next to the Dragon."""
    m = the_dragon(ctx)
    if m is None:
        return
    n = effects.make_roll(ctx, task["player"], 2, "2 dice for the tiles the Dragon destroys", kind="haunt")
    if n:
        effects.push_front(ctx, [{"do": "h35_burn_one", "left": n}])


@effects.step("h35_burn_one")
def _burn_one(ctx, task, item):
    m = the_dragon(ctx)
    tiles = sorted((t for t in adjacent(ctx, m["tile"]) if not destroyed(ctx, t)), key=ctx.tile_name)
    if not tiles:
        ctx.say("No tile next to the Dragon is left standing.", kind="haunt")
        return
    if len(tiles) <= item["left"]:
        for t in tiles:
            city.ruin(ctx, t, RUIN)
        return
    effects.ask(ctx, task["player"], "h35_burn", f"which tile next to the Dragon does it destroy "
                f"({item['left']} to go)?", [ctx.tile_name(t) for t in tiles], tiles=tiles, left=item["left"])


@effects.decision("h35_burn")
def _decide_burn(ctx, pending, index):
    city.ruin(ctx, pending["data"]["tiles"][index], RUIN)
    if pending["data"]["left"] > 1:
        effects.push_front(ctx, [{"do": "h35_burn_one", "left": pending["data"]["left"] - 1}])


@effects.step("h35_breathe")
def _breathe(ctx, task, item):
    """Step 3: 3 physical damage to each hero on or next to its tile."""
    s = ctx.s
    m = the_dragon(ctx)
    if m is None:
        return
    near = {m["tile"], *adjacent(ctx, m["tile"])}
    burnt = [p for p in hp.alive(s, hp.heroes(s)) if st.on_board(s["players"][p]) and s["players"][p]["tile"] in near]
    if burnt:
        ctx.say("The Dragon's fire scorches " + ", ".join(ctx.name(p) for p in burnt) + ".", kind="haunt")
    for p in reversed(burnt):
        effects.queue(ctx, p, [{"do": "damage", "kind": "physical", "amount": DRAGON_DAMAGE}], source="haunt",
                      front=True)


@effects.step("h35_tick")
def _tick(ctx, task, item):
    """Step 4: the track goes down 1; then the monster turn ends."""
    counters = ctx.s["haunt"]["counters"]
    counters[CLOCK] = counters.get(CLOCK, 0) - 1
    ctx.say(f"The Turn/Damage track drops to {counters[CLOCK]}.", kind="counter")
    hp.check_wins(ctx)
    if ctx.s["phase"] == "haunt":
        hp.end_monster_turn(ctx)


# --- eggs -----------------------------------------------------------------------------------------

def egg_count(ctx, pid: str) -> int:
    return mine(ctx)["eggs"].get(pid, 0)


def change_eggs(ctx, pid: str, delta: int):
    eggs = mine(ctx)["eggs"]
    eggs[pid] = eggs.get(pid, 0) + delta
    if not eggs[pid]:
        eggs.pop(pid)


def held_change(ctx, delta: int):
    """Eggs not held by heroes: the heroes win when none is left."""
    counters = ctx.s["haunt"]["counters"]
    counters[LEFT] = counters.get(LEFT, 0) + delta


def search(ctx, pid: str, trait: str):
    s = ctx.s
    tile = s["players"][pid]["tile"]
    if any(t["name"] == FOUND for t in tk.on_tile(s, tile)):
        raise IllegalAction(f"An egg has already been found on the {ctx.tile_name(tile)}; it cannot be searched again.")
    if (mine(ctx)["pile"] or 0) <= 0:
        raise IllegalAction("Every Dragon Egg has been found.")
    target = 6 if destroyed(ctx, tile) else TARGETS[ctx.c.tiles[tile].symbol]
    effects.queue(ctx, pid, [{"do": "roll", "trait": "knowledge", "bands": [
        {"at_least": target, "then": [{"do": "h35_found", "tile": tile}]},
        {"at_most": target - 1, "then": [{"do": "h35_nothing", "target": target}]}]}], source="haunt", front=True)


@effects.step("h35_found")
def _found(ctx, task, item):
    pid = task["player"]
    mine(ctx)["pile"] -= 1
    change_eggs(ctx, pid, 1)
    held_change(ctx, -1)
    tk.place(ctx.s, FOUND, item["tile"])
    ctx.say(f"{ctx.name(pid)} finds a Dragon Egg on the {ctx.tile_name(item['tile'])} ({egg_count(ctx, pid)} "
            f"held; {mine(ctx)['pile']} still hidden).", kind="haunt", player=pid)


@effects.step("h35_nothing")
def _nothing(ctx, task, item):
    ctx.say(f"{ctx.name(task['player'])} finds no egg (needed {item['target']}+).", kind="haunt")


def takers(ctx, pid: str) -> list[str]:
    """The living adventurers on `pid`'s tile who could take an egg, in seat order."""
    s = ctx.s
    if not st.on_board(s["players"][pid]):
        return []
    return [o for o in st.players_on(s, s["players"][pid]["tile"], beside=pid)
            if o != pid and s["players"][o]["alive"]]


def give(ctx, pid: str, other: str):
    if not egg_count(ctx, pid):
        raise IllegalAction("You hold no Dragon Egg.")
    if other not in takers(ctx, pid):
        raise IllegalAction("Give an egg to an adventurer on your tile.")
    hand_over(ctx, pid, other)


def hand_over(ctx, pid: str, other: str):
    change_eggs(ctx, pid, -1)
    change_eggs(ctx, other, 1)
    ctx.say(f"{ctx.name(pid)} hands a Dragon Egg to {ctx.name(other)}.", kind="haunt")


def drop(ctx, pid: str, count: int = 1):
    if not egg_count(ctx, pid):
        raise IllegalAction("You hold no Dragon Egg.")
    tile = ctx.s["players"][pid]["tile"]
    for _ in range(count):
        tk.place(ctx.s, EGG, tile)
    change_eggs(ctx, pid, -count)
    held_change(ctx, count)
    ctx.say(f"{ctx.name(pid)} leaves {count} Dragon Egg{'s' if count != 1 else ''} on the "
            f"{ctx.tile_name(tile)}.", kind="haunt")


def pickup(ctx, pid: str):
    s = ctx.s
    tile = s["players"][pid]["tile"]
    egg = next((t for t in tk.on_tile(s, tile) if t["name"] == EGG), None)
    if egg is None:
        raise IllegalAction(f"No Dragon Egg lies on the {ctx.tile_name(tile)}.")
    tk.remove(s, egg)
    change_eggs(ctx, pid, 1)
    held_change(ctx, -1)
    ctx.say(f"{ctx.name(pid)} picks up a Dragon Egg.", kind="haunt")


# Rulebook, Use Item and Omen Cards: one action with each item a turn. The eggs are alike, so the turn counts
# the eggs its player picked up (not to be dropped or given again) and dropped (not to be picked up again).
TAKEN, DROPPED = "h35_taken", "h35_dropped"


def spare_eggs(ctx, pid: str) -> str | None:
    """Why `pid` has no egg to drop or give this turn, or None."""
    if not egg_count(ctx, pid):
        return "You hold no Dragon Egg."
    if egg_count(ctx, pid) <= ctx.s["turn"].get(TAKEN, 0):
        return "You picked up each egg you hold this turn: an item is handled once a turn."
    return None


def lying_eggs(ctx, pid: str) -> str | None:
    """Why `pid` has no egg to pick up this turn, or None."""
    s = ctx.s
    lying = sum(1 for t in tk.on_tile(s, s["players"][pid]["tile"]) if t["name"] == EGG)
    if not lying:
        return f"No Dragon Egg lies on the {ctx.tile_name(s['players'][pid]['tile'])}."
    if lying <= s["turn"].get(DROPPED, 0):
        return "You dropped the eggs lying here this turn: an item is handled once a turn."
    return None


def move_give(ctx, pid: str, other: str):
    why = spare_eggs(ctx, pid)
    if why:
        raise IllegalAction(why)
    give(ctx, pid, other)


def move_drop(ctx, pid: str):
    why = spare_eggs(ctx, pid)
    if why:
        raise IllegalAction(why)
    drop(ctx, pid)
    ctx.s["turn"][DROPPED] = ctx.s["turn"].get(DROPPED, 0) + 1


def move_pickup(ctx, pid: str):
    why = lying_eggs(ctx, pid)
    if why:
        raise IllegalAction(why)
    pickup(ctx, pid)
    ctx.s["turn"][TAKEN] = ctx.s["turn"].get(TAKEN, 0) + 1


@rulesets.register(35)
class AMothersFury(rulesets.RuleSet):
    title = "A Mother's Fury"

    def setup_step(self, ctx, step):
        text = step.get("text", "")
        if step.get("do") == "set_counter" and step.get("counter") == LEFT:
            mine(ctx)["pile"] = hp.count_value(ctx, step["value"])
            return None
        if step.get("do") == "manual" and "Obstacle" in text:
            ctx.say("Setup: the bot marks found eggs (Obstacle) and destroyed tiles (Destroyed). On your turn: "
                    "{move:search} for a Dragon Egg; {move:give}, {move:drop} and {move:pickup} move eggs like "
                    "items.", kind="haunt_setup")
            return True
        if step.get("do") == "manual" and "run the Dragon" in text:
            effects.queue(ctx, hp.chooser(ctx.s, "heroes"), [{"do": "h35_pick_runner"}], source="haunt")
            return True
        return None

    def monster_turn(self, ctx, number):
        s = ctx.s
        m = the_dragon(ctx)
        if m is None:
            return None
        boss = runner(ctx)
        turn = st.new_turn(boss, number)
        turn.update({"monsters": True, "moves": {}, "acted": [], "attacked": [m["id"]], "stunned_at_start": []})
        s["turn"] = turn
        ctx.say(f"Turn {number}: the Dragon's turn ({ctx.name(boss)} runs it).", kind="turn", player=boss)
        effects.queue(ctx, boss, [{"do": "h35_fly", "left": DRAGON_STEPS}, {"do": "h35_burn"},
                                  {"do": "h35_breathe"}, {"do": "h35_tick"}], source="haunt")
        return True

    def monster_blocked(self, ctx, m, dest):
        """The Dragon moves only by its own script."""
        return "The Dragon flies by itself in its turn." if m["name"] == DRAGON else None

    def monster_hurt(self, ctx, m, kind, amount):
        return True if m["name"] == DRAGON else None  # no traits: nothing hurts or stuns it

    def leaving(self, ctx, pid, tile):
        """Special Movement Rules: Might or Speed 3+ to leave a destroyed tile."""
        if not destroyed(ctx, tile):
            return None
        fail = [{"do": "damage", "kind": "physical", "amount": 1}]
        steps = [{"do": "choose", "options": [
            {"label": f"Roll {t.capitalize()} to leave the ruins", "then": [{"do": "roll", "trait": t, "bands": [
                {"at_least": 3, "then": []}, {"at_most": 2, "then": fail}]}]} for t in ("might", "speed")]}]
        effects.queue(ctx, pid, steps, source="haunt", front=True)
        return None

    def death(self, ctx, pid, killer):
        n = egg_count(ctx, pid)
        if n:
            drop(ctx, pid, n)

    own = OWN
    moves = (
        rulesets.Move("search", "Search for a Dragon Egg", lambda ctx, pid, trait: search(ctx, pid, trait),
                      traits=("knowledge",), who="heroes", once_per_turn=True,
                      summary="On a tile with no Obstacle: Knowledge 3+ on an item tile, 4+ omen, 5+ event, 6+ "
                              "blank or destroyed; a find takes an egg and marks the tile."),
        rulesets.Move("give", "Give a Dragon Egg", lambda ctx, pid, trait, target: move_give(ctx, pid, target),
                      args=(rulesets.Arg("player", takers, "Who takes the egg?"),), who="heroes",
                      allowed=spare_eggs,
                      summary="Hand one of your eggs to an adventurer on your tile (each egg once a turn, as any "
                              "item)."),
        rulesets.Move("drop", "Drop a Dragon Egg", lambda ctx, pid, trait: move_drop(ctx, pid), who="heroes",
                      allowed=spare_eggs, summary="Leave one of your eggs on your tile."),
        rulesets.Move("pickup", "Pick up a Dragon Egg", lambda ctx, pid, trait: move_pickup(ctx, pid), who="heroes",
                      allowed=lying_eggs, summary="Take an egg lying on your tile."),
    )

    def haunt_goals(self, ctx, pid):
        """A hero heads for dropped eggs and the tiles easiest to search."""
        s = ctx.s
        eggs = {t["tile"] for t in s["tokens"] if t["name"] == EGG}
        if eggs:
            return eggs
        if "move:search" in (s["turn"] or {}).get("rolls", []) and s["turn"]["player"] == pid:
            here = s["players"][pid]["tile"]
        else:
            here = None
        found = {t["tile"] for t in s["tokens"] if t["name"] == FOUND}
        taken = {s["players"][o]["tile"] for o in hp.alive(s, hp.heroes(s)) if o != pid}  # spread out
        open_tiles = [t for t in s["board"] if t not in found and t != here and t not in taken]
        m = the_dragon(ctx)
        if m:  # keep out of the fire: not on the Dragon's tile or next to it, while other tiles remain
            hot = {m["tile"], *adjacent(ctx, m["tile"])}
            open_tiles = [t for t in open_tiles if t not in hot] or open_tiles
        for best in (3, 4, 5, 6):
            tiles = {t for t in open_tiles if (6 if destroyed(ctx, t) else TARGETS[ctx.c.tiles[t].symbol]) <= best}
            if tiles:
                return tiles
        return set()


@effects.step("h35_pick_runner")
def _pick_runner(ctx, task, item):
    s = ctx.s
    living = hp.alive(s, s["seats"])
    effects.ask(ctx, task["player"], "h35_runner", "who runs the Dragon (moves it, picks for it, rolls its dice)?",
                [ctx.name(p) for p in living], targets=living)  # `targets`: renamed with a seat handed over


@effects.decision("h35_runner")
def _decide_runner(ctx, pending, index):
    who = pending["data"]["targets"][index]
    mine(ctx)["runner"] = who
    ctx.say(f"{ctx.name(who)} runs the Dragon.", kind="haunt_setup")
