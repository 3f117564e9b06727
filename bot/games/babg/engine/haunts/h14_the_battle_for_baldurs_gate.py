"""Haunt 14, The Battle for Baldur's Gate (Secrets of Survival; no traitor,
the Tome holding the Dragon's script).

What the bot carries out:
- Setup: the Dragon on the Elfsong Tavern and its hit points at twice the
  adventurers (data); three Ballista tokens beside the board; play from the
  revealer's left, with no monster turn: the Dragon acts at the end of the
  haunt revealer's turn (of the last living hero in the order if the
  revealer is dead).
- The Dragon's activation, every step rolled by the bot for the revealer:
  its Speed roll (at least 1) and its walk along the shortest way to the
  closest hero or Ballista (a Ballista first when equally close), square by
  square on a level whether or not doorways join, and between a sewer-grate
  tile and the Catacomb Landing once a turn; the breath die (a 2 breathes);
  the breath, one Might attack on its tile and the straight line holding a
  Ballista if any, else the most heroes; the normal attack on a Ballista on
  its tile, else on the hero there with the lowest Might, else a second
  Speed roll and walk.
- Ballistas: when a hero discovers a city tile with a symbol, they may put a
  Ballista there instead of drawing (while any is left to find); with the
  city stacks empty the rest go where the revealer picks among the city
  tiles farthest from the Dragon. The declared move `ballista`: a hero on a
  Ballista's tile, in place of an attack, fires at the Dragon (on the city level) with 7 dice, 1 fewer
  for each tile between them. Defending on a Ballista's tile: each hero there
  takes 1 physical damage, the Ballista rolls 7 dice; beaten, it is destroyed
  and each hero there takes 2 more. A Dragon on a Ballista's tile that beats
  its attack destroys it, with 2 physical damage to each hero there.
- Damage to the Dragon lowers its hit points instead of stunning it; the
  heroes win at 0 (data) and lose when every hero is dead.

Left to the players: nothing the books print.
"""
from collections import deque

from .. import board as bd
from .. import cards as cd
from .. import attack, effects, rng, rulesets
from .. import haunt_play as hp
from .. import state as st
from .. import tokens as tk
from ..errors import IllegalAction
from ..sides import heroes
from ..turns import begin_turn

DRAGON, BALLISTA = "Dragon", "Ballista"
HP = "Dragon hit points"
BALLISTAS, BALLISTA_MIGHT = 3, 7
LANDING = "catacomb_landing"
BREATH_FACE = 2


OWN = rulesets.Own("h14", {"destroyed": 0})  # the Ballistas smashed so far; no player ids


def mine(ctx) -> dict:
    return rulesets.REGISTRY[14].record(ctx.s)


def the_dragon(s: dict) -> dict | None:
    return next((m for m in s["monsters"] if m["name"] == DRAGON and not m["dead"]), None)


def ballistas(s: dict, tile: str | None = None) -> list[dict]:
    return [t for t in s["tokens"] if t["name"] == BALLISTA and (tile is None or t["tile"] == tile)]


def left_to_find(ctx) -> int:
    return BALLISTAS - len(ballistas(ctx.s)) - mine(ctx)["destroyed"]


def hero_tiles(s: dict) -> set[str]:
    return {s["players"][p]["tile"] for p in hp.alive(s, heroes(s)) if st.on_board(s["players"][p])}


def heroes_on(s: dict, tile: str) -> list[str]:
    return [p for p in st.players_on(s, tile) if p in heroes(s)]


def dragon_steps(ctx, tile: str, sewer_used: bool) -> list[tuple[str, bool]]:
    """Traitor's Tome, haunt 14, "Special Dragon Rules", 1: adjacent squares of
    the level, joined or not; a grate and the Catacomb Landing, once a turn."""
    s = ctx.s
    squares = bd.grid(s["board"])
    place = s["board"][tile]
    found = []
    for side in bd.SIDES:
        other = squares.get(bd.neighbour_square(place, side))
        if other:
            found.append((other, sewer_used))
    if not sewer_used:
        if ctx.c.tiles[tile].sewer_grate and LANDING in s["board"]:
            found.append((LANDING, True))
        if tile == LANDING:
            found += [(t, True) for t in s["board"] if ctx.c.tiles[t].sewer_grate]
    return sorted(found, key=lambda x: ctx.tile_name(x[0]))


def paths(ctx, start: str, sewer_used: bool = False) -> dict[str, list[str]]:
    """The shortest way to every tile (breadth first, ties by tile name)."""
    first = {start: [start]}
    seen = {(start, sewer_used)}
    todo = deque([(start, sewer_used, [start])])
    while todo:
        tile, used, way = todo.popleft()
        for other, now_used in dragon_steps(ctx, tile, used):
            if (other, now_used) in seen:
                continue
            seen.add((other, now_used))
            first.setdefault(other, way + [other])
            todo.append((other, now_used, way + [other]))
    return first


def target(ctx, m: dict) -> str | None:
    """The closest hero or Ballista; a Ballista when equally close.
    Ruling: among equally close tiles of one kind, the first by name."""
    s = ctx.s
    ways = paths(ctx, m["tile"], m.get("h14_sewer", False))
    marks = [(len(ways[t]), 0 if ballistas(s, t) else 1, ctx.tile_name(t), t)
             for t in hero_tiles(s) | {b["tile"] for b in ballistas(s)} if t in ways]
    return min(marks)[3] if marks else None


def walk(ctx, m: dict, spaces: int):
    s = ctx.s
    goal = target(ctx, m)
    if goal is None:
        ctx.say("The Dragon finds nobody to hunt.", kind="monster", monster=m["id"])
        return
    way = paths(ctx, m["tile"], m.get("h14_sewer", False))[goal][1:spaces + 1]
    for tile in way:
        level_change = s["board"][tile]["level"] != s["board"][m["tile"]]["level"]
        if level_change:
            m["h14_sewer"] = True
        m["tile"], m["half"] = tile, None
        ctx.say(f"The Dragon moves to the {ctx.tile_name(tile)}" + (" through the sewers." if level_change else "."),
                kind="monster_move", monster=m["id"], tile=tile)


# --- the activation -----------------------------------------------------------------------------

@effects.step("h14_dragon")
def _dragon(ctx, task, item):
    """Traitor's Tome, haunt 14, "Special Dragon Rules": move, breath check, attack."""
    s = ctx.s
    m = the_dragon(s)
    if m is None or s["phase"] != "haunt":
        return
    pid = task["player"]
    m["h14_sewer"] = False
    ctx.say("The Dragon wakes to act.", kind="monster", monster=m["id"])
    walk(ctx, m, max(1, effects.make_roll(ctx, pid, rng.dice_count(m["traits"]["speed"]), "Speed for the Dragon")))
    breath = effects.make_roll(ctx, pid, 1, "the Dragon's breath die", kind="contest") == BREATH_FACE
    if breath:
        breathe(ctx, pid, m)
        return
    tile = m["tile"]
    if ballistas(s, tile):
        ctx.say(f"The Dragon attacks the Ballista on the {ctx.tile_name(tile)}.", kind="attack")
        a = effects.make_roll(ctx, pid, rng.dice_count(m["traits"]["might"]), "Might for the Dragon", kind="contest")
        ballista_defends(ctx, pid, tile, a)
        return
    prey = heroes_on(s, tile)
    if prey:
        order = [p for p in s["order"] if p in prey]
        hero = min(order, key=lambda p: ctx.value(p, "might"))
        ctx.say(f"The Dragon attacks {ctx.name(hero)}, the weakest hero on its tile.", kind="attack")
        a = effects.make_roll(ctx, pid, rng.dice_count(m["traits"]["might"]), "Might for the Dragon", kind="contest")
        d = attack.defence_roll(ctx, hero, "might", ctx.value(hero, "might"))
        s["haunt"]["last_attacker"] = m["id"]
        effects.push_front(ctx, [attack.roll_off(m["id"], hero, "might", a, d, False), {"do": "_attack_over"}])
        return
    ctx.say("Nothing to attack: the Dragon moves again.", kind="monster")
    walk(ctx, m, max(1, effects.make_roll(ctx, pid, rng.dice_count(m["traits"]["speed"]), "Speed for the Dragon")))


def lines(ctx, tile: str) -> list[list[str]]:
    """The Dragon's tile and each straight line of placed tiles away from it,
    gaps allowed (north, east, south, west)."""
    s = ctx.s
    squares = bd.grid(s["board"])
    place = s["board"][tile]
    found = []
    for side in bd.SIDES:
        dx, dy = bd.STEP[side]
        line = [tile] + [t for k in range(1, 40)
                         if (t := squares.get((place["level"], place["x"] + k * dx, place["y"] + k * dy)))]
        found.append(line)
    return found


def breath_line(ctx, tile: str) -> list[str]:
    """A line with a Ballista if possible, else the most heroes. Ruling: with
    several such lines, the one with the most heroes, then the first of north,
    east, south, west."""
    s = ctx.s

    def score(line):
        return (any(ballistas(s, t) for t in line), sum(len(heroes_on(s, t)) for t in line))
    return max(lines(ctx, tile), key=score)


def breathe(ctx, pid: str, m: dict):
    s = ctx.s
    line = breath_line(ctx, m["tile"])
    ctx.say("The Dragon breathes fire along " + ", ".join(f"the {ctx.tile_name(t)}" for t in line) + "!",
            kind="attack", monster=m["id"])
    a = effects.make_roll(ctx, pid, rng.dice_count(m["traits"]["might"]), "Might for the Dragon's breath",
                          kind="contest")
    s["haunt"]["last_attacker"] = m["id"]
    steps = []
    for tile in line:
        if ballistas(s, tile):
            ballista_defends(ctx, pid, tile, a)
            continue
        for hero in heroes_on(s, tile):
            d = attack.defence_roll(ctx, hero, "might", ctx.value(hero, "might"))
            steps.append(attack.roll_off(m["id"], hero, "might", a, d, tile != m["tile"]))
    effects.push_front(ctx, steps + [{"do": "_attack_over"}])


def ballista_defends(ctx, pid: str, tile: str, a: int):
    """Secrets of Survival, haunt 14, "Defending on a Ballista's Tile"."""
    s = ctx.s
    prey = heroes_on(s, tile)
    for hero in prey:
        effects.queue(ctx, hero, [{"do": "damage", "kind": "physical", "amount": 1}], source="haunt")
    for b in ballistas(s, tile):
        d = effects.make_roll(ctx, pid, BALLISTA_MIGHT, "Might for the Ballista to defend", kind="defence")
        if a > d:
            destroy(ctx, b, prey)
        else:
            ctx.say("The Ballista holds.", kind="haunt", tile=tile)


def destroy(ctx, b: dict, prey: list[str]):
    s = ctx.s
    tk.remove(s, b)
    mine(ctx)["destroyed"] += 1
    ctx.say(f"The Ballista on the {ctx.tile_name(b['tile'])} is smashed!", kind="haunt", tile=b["tile"])
    for hero in prey:
        effects.queue(ctx, hero, [{"do": "damage", "kind": "physical", "amount": 2}], source="haunt")


def hurt_dragon(ctx, amount: int):
    """Secrets of Survival, haunt 14, "How to Defeat the Dragon"."""
    counters = ctx.s["haunt"]["counters"]
    counters[HP] = max(0, counters.get(HP, 0) - amount)
    ctx.say(f"The Dragon takes {amount} damage: {counters[HP]} hit points left.", kind="monster")


# --- the Ballistas ------------------------------------------------------------------------------

@effects.decision("h14_ballista")
def _decide_ballista(ctx, pending, index):
    pid, tile, deck = pending["player"], pending["data"]["tile"], pending["data"]["deck"]
    if index == 1:
        cd.draw(ctx, pid, deck)
        return
    tk.place(ctx.s, BALLISTA, tile)
    ctx.s["turn"]["stopped"] = True
    ctx.say(f"{ctx.name(pid)} finds a hidden Ballista on the {ctx.tile_name(tile)} instead of drawing a card.",
            kind="token", tile=tile)


def ballista_attack(ctx, pid: str):
    """Secrets of Survival, haunt 14, "Special Ballista Attack Rules"."""
    s = ctx.s
    m = the_dragon(s)
    tile = s["players"][pid]["tile"]
    if pid not in heroes(s) or not ballistas(s, tile):
        raise IllegalAction("A hero on a Ballista's tile fires it.")
    if m is None or s["board"][m["tile"]]["level"] != "city":
        raise IllegalAction("The Ballista can fire only while the Dragon is on the city level.")
    s["turn"]["attacked"] = True
    between = max(0, len(paths(ctx, tile, True).get(m["tile"], [tile])) - 2)
    dice = rng.dice_count(BALLISTA_MIGHT - between)
    ctx.say(f"{ctx.name(pid)} fires the Ballista at the Dragon ({between} tile{'s' if between != 1 else ''} "
            f"between: {dice} dice).", kind="attack", player=pid)
    a = effects.make_roll(ctx, pid, dice, "the Ballista's Might", kind="contest")
    d = attack.defence_roll(ctx, m["id"], "might", m["traits"]["might"])
    if a > d:
        hurt_dragon(ctx, a - d)
    elif d > a and m["tile"] == tile:
        destroy(ctx, ballistas(s, tile)[0], heroes_on(s, tile))
    else:
        ctx.say("The bolt misses." if d > a else "A glancing hit: no harm done.", kind="attack")


@rulesets.register(14)
class BattleForBaldursGate(rulesets.RuleSet):
    title = "The Battle for Baldur's Gate"

    def setup_step(self, ctx, step):
        if step.get("do") != "manual":
            return None
        mine(ctx)
        if "Ballista" in step.get("text", ""):
            ctx.say("Setup: 3 Ballistas wait to be found: discovering a city tile with a symbol, you may put one there "
                    "instead of drawing. On a Ballista's tile, in place of an attack: {move:ballista}. The "
                    "Dragon acts at the end of the haunt revealer's turn.", kind="haunt_setup")
        return True  # the turn order from the revealer's left is the default one

    def next_slot(self, ctx):
        """Secrets of Survival, haunt 14, "Right Now": no monster turn; the
        Dragon acts at the end of the revealer's turn."""
        s = ctx.s
        if not s["haunt"].get("started"):
            return None
        order = [p for p in s["order"] if p != hp.MONSTERS]
        turn = s["turn"]
        i = order.index(turn["player"]) if turn["player"] in order else len(order) - 1
        for k in range(1, len(order) + 1):
            nxt = order[(i + k) % len(order)]
            if s["players"][nxt]["alive"]:
                begin_turn(ctx, nxt, turn["number"] + 1)
                return True
        hp.check_wins(ctx)
        return True

    def turn_ending(self, ctx, pid):
        s = ctx.s
        steps = []
        city_left = any(s["stacks"].get(k) or s["set_aside"].get(k) for k in ("building", "street"))
        if not city_left and left_to_find(ctx) > 0 and the_dragon(s):  # "How to Find a Ballista"
            hp.place_chosen(ctx, {"do": "place_token", "token": BALLISTA, "label": BALLISTA, "side": "heroes",
                                  "count": left_to_find(ctx), "at": "chosen", "among": ["city"],
                                  "farthest_from": f"tile:{the_dragon(s)['tile']}",
                                  "text": "No city tile is left to find: the other Ballistas go as far from the "
                                          "Dragon as possible."})
        living = [p for p in s["order"] if p != hp.MONSTERS and s["players"][p]["alive"]]
        if living and pid == living[-1]:
            steps.append({"do": "h14_dragon"})
        return steps or None

    def symbol_card(self, ctx, pid, tile, deck):
        s = ctx.s
        if ctx.c.tiles[tile].kind == "catacomb" or left_to_find(ctx) <= 0 or pid not in heroes(s):
            return None
        effects.ask(ctx, pid, "h14_ballista", f"put a Ballista on the {ctx.tile_name(tile)} instead of drawing an "
                    f"{deck} card?", ["Place a Ballista", f"Draw the {deck} card"], tile=tile, deck=deck)
        return True

    def monster_hurt(self, ctx, m, kind, amount):
        if m["name"] != DRAGON:
            return None
        hurt_dragon(ctx, amount)
        return True

    def haunt_goals(self, ctx, pid):
        """A hero mans a Ballista nobody else stands at (or stays at their
        own); with none free, they discover city tiles while Ballistas are
        left to find (the city's open doorways, and the city tiles with a
        symbol still in their stacks)."""
        s = ctx.s
        if pid not in heroes(s) or not st.on_board(s["players"][pid]):
            return None
        here = s["players"][pid]["tile"]
        free = {b["tile"] for b in ballistas(s) if b["tile"] == here or not heroes_on(s, b["tile"])}
        if free:
            return free
        unfound = {t for k in ("building", "street") for t in s["stacks"].get(k, [])
                   if ctx.c.tiles[t].symbol != "none"}
        if left_to_find(ctx) > 0 and unfound:
            return {t for t, _ in bd.open_doorways(ctx.c, s["board"], "city")} | unfound
        return None

    def bot_choice(self, ctx, pending):
        """A built-in hero always takes the Ballista over the card: Ballistas
        are the heroes' only real weapon against the Dragon."""
        return 0 if pending["kind"] == "h14_ballista" else None

    own = OWN
    moves = (
        rulesets.Move("ballista", "Fire the Ballista", lambda ctx, pid, trait: ballista_attack(ctx, pid),
                      who="heroes", instead_of_attack=True,
                      summary="On a Ballista's tile, in place of an attack: 7 dice against the Dragon on the city "
                              "level, 1 fewer for each tile between you."),
    )
