"""Haunt 18, Rats on a Pier (Traitor's Tome and Secrets of Survival).

The data places the Wererats (the traitor picks; this module narrows the
tiles to the outer ring of the city), the Citizens (monsters allied with the
heroes: `ally = "heroes"`), the two counters and the two counted wins.

What the bot carries out:
- the city rebuilt before play: the Waterfront set aside (taken off the
  board, its place refilled from the city stacks when that cut tiles off,
  and where no stack tile fits, the tiles cut off laid again at the open
  doorway of the joined city nearest the Tavern, so none stays cut off;
  or taken out of the street stack, which is shuffled), every other city
  tile drawn and laid one at a time at the open city doorway nearest the
  Elfsong Tavern (so the city grows evenly around it, never sealed), then
  the Waterfront joined to the open city doorway farthest from the Tavern;
- the traitor's Might put back to its start, then 2 gained; the Wererat
  Bite discarded without any trait change;
- the Citizens spread evenly over the Elfsong Tavern, Inner Chamber and
  Kitchen;
- the NPC turn after the last hero's turn and before the traitor's, run by
  the hero who has just played (the Citizens' moves and attacks on the
  traitor or a Wererat, then the end of the turn); the Citizens roll Speed
  as monsters do, slow only the traitor and get 1 more defence die for
  each hero on their tile;
- the traitor (an ordinary attack) and the Wererats (a monster attack)
  attack Citizens: a win stuns, a win against a
  stunned Citizen turns it (counted, and a new Wererat stands on its tile,
  unable to move or attack in that turn);
- a Citizen that moves onto the Waterfront is rescued (counted);
- the heroes' win by killing the traitor and every Wererat.

Left to the players: nothing.
"""
from .. import attack, effects, geometry, rng, rulesets
from .. import board as bd
from .. import cards as cd
from .. import haunt_play as hp
from .. import marks as mk
from .. import state as st
from .. import traits as tr
from ..errors import IllegalAction
from ..moves import placements, stack_for

WERERAT, CITIZEN = "Wererat", "Citizen"
WATERFRONT, TAVERN = "waterfront", "elfsong_tavern"
START_ROOMS = ("elfsong_tavern", "inner_chamber", "kitchen")
TURNED, RESCUED = "Citizens turned", "Citizens rescued"
BITE = "wererat_bite"
CITY_STACKS = ("street", "building")


OWN = rulesets.Own("h18", {"fresh": {}})  # the turn each new Wererat (monster id) appeared; no player ids


def mine(ctx) -> dict:
    return rulesets.REGISTRY[18].record(ctx.s)


def living(s: dict, name: str) -> list[dict]:
    return [m for m in s["monsters"] if m["name"] == name and not m["dead"]]


def npc_turn_now(s: dict) -> bool:
    return bool((s["turn"] or {}).get("npc"))


# --- the city rebuilt ---------------------------------------------------------------------

def city_tiles(ctx) -> list[str]:
    return [t for t, place in ctx.s["board"].items() if place["level"] == "city"]


def city_reach(ctx, start: str) -> set[str]:
    """The city tiles joined to `start` through connected doorways."""
    board = ctx.s["board"]
    seen, todo = {start}, [start]
    while todo:
        for other in bd.exits(ctx.c, board, todo.pop()).values():
            if other and other not in seen and board[other]["level"] == "city":
                seen.add(other)
                todo.append(other)
    return seen


def best_rotation(ctx, tile: str, square: tuple, entry: str) -> int | None:
    options = placements(ctx, tile, square, entry)
    if not options:
        return None
    fine = [o for o in options if not o[2]] or options  # never seal the level while another way remains
    return max(fine, key=lambda o: (o[1], -o[0]))[0]


def lay(ctx, tile: str, square: tuple, rot: int):
    level, x, y = square
    ctx.s["board"][tile] = {"level": level, "x": x, "y": y, "rot": rot}


def draw_city_tile(ctx, first: str) -> str | None:
    s = ctx.s
    for stack in (first, *[x for x in CITY_STACKS if x != first]):
        if s["stacks"][stack]:
            return s["stacks"][stack].pop(0)
    return None


def set_waterfront_aside(ctx):
    """Secrets of Survival, haunt 18: "Right Now" (third point)."""
    s = ctx.s
    if WATERFRONT not in s["board"]:
        for pile in (s["stacks"]["street"], s["set_aside"]["street"]):
            if WATERFRONT in pile:
                pile.remove(WATERFRONT)
        s["stacks"]["street"] = rng.shuffle(s, s["stacks"]["street"])
        ctx.say("Setup: the Waterfront is taken from the street stack and set aside; the stack is shuffled.",
                kind="haunt_setup")
        return
    place = s["board"].pop(WATERFRONT)
    square = (place["level"], place["x"], place["y"])
    for p in s["players"].values():  # Ruling: whatever stood on it waits on the Elfsong Tavern
        if p["tile"] == WATERFRONT:
            p["tile"], p["half"] = TAVERN, None
    for thing in s["monsters"] + s["tokens"]:
        if thing["tile"] == WATERFRONT:
            thing["tile"] = TAVERN
    ctx.say("Setup: the Waterfront is taken off the board and set aside.", kind="haunt_setup")
    if city_reach(ctx, TAVERN) >= set(city_tiles(ctx)):
        return
    for stack in CITY_STACKS:  # turn up city tiles until one joins the city again in its place
        for tile in list(s["stacks"][stack]):
            for rot in range(4):
                lay(ctx, tile, square, rot)
                if city_reach(ctx, TAVERN) >= set(city_tiles(ctx)):
                    s["stacks"][stack].remove(tile)
                    ctx.say(f"Setup: the {ctx.tile_name(tile)} takes the Waterfront's place.", kind="haunt_setup")
                    return
                del s["board"][tile]
    rejoin_cut_off(ctx)


def cut_off(ctx) -> list[str]:
    return sorted(set(city_tiles(ctx)) - city_reach(ctx, TAVERN), key=ctx.tile_name)


def rejoin_cut_off(ctx):
    """Ruling: haunt 18, no city tile left that fills the Waterfront's place:
    each tile it leaves cut off is lifted and laid again, one at a time, at
    the open doorway of the joined city nearest the Elfsong Tavern (the
    Waterfront's empty place among them), turned to join the most doorways;
    whatever stands on it goes with it. No tile stays cut off."""
    s = ctx.s
    centre = s["board"][TAVERN]
    while cut_off(ctx):
        progress = False
        for tile in cut_off(ctx):
            if tile not in cut_off(ctx):
                continue  # joined again by a tile laid before it
            old = s["board"].pop(tile)
            joined = city_reach(ctx, TAVERN)
            doors = []
            for tid, side in bd.open_doorways(ctx.c, s["board"], "city"):
                square = bd.neighbour_square(s["board"][tid], side)
                if tid in joined:
                    doors.append((abs(square[1] - centre["x"]) + abs(square[2] - centre["y"]), ctx.tile_name(tid),
                                  side, tid, square))
            for *_, side, tid, square in sorted(doors):
                rot = best_rotation(ctx, tile, square, bd.OPPOSITE[side])
                if rot is not None:
                    lay(ctx, tile, square, rot)
                    ctx.say(f"Setup: the {ctx.tile_name(tile)}, cut off with the Waterfront gone, joins the city "
                            f"again beside the {ctx.tile_name(tid)}.", kind="haunt_setup")
                    progress = True
                    break
            else:
                s["board"][tile] = old
        if not progress:
            return


def build_out(ctx):
    """Secrets of Survival, haunt 18: "Right Now" (fourth point): each tile
    at the open city doorway nearest the Elfsong Tavern."""
    s = ctx.s
    centre = s["board"][TAVERN]
    laid = 0
    while True:
        opens = bd.open_doorways(ctx.c, s["board"], "city")
        if not opens or not any(s["stacks"][x] for x in CITY_STACKS):
            break

        def nearness(door):
            _, x, y = bd.neighbour_square(s["board"][door[0]], door[1])
            return (abs(x - centre["x"]) + abs(y - centre["y"]), max(abs(x - centre["x"]), abs(y - centre["y"])),
                    ctx.tile_name(door[0]), door[1])
        tid, side = min(opens, key=nearness)
        colour = bd.placed_doorways(ctx.c, s["board"], tid)[side]
        tile = draw_city_tile(ctx, stack_for(ctx, colour) if colour in CITY_STACKS else "street")
        square = bd.neighbour_square(s["board"][tid], side)
        rot = best_rotation(ctx, tile, square, bd.OPPOSITE[side])
        if rot is None:
            s["set_aside"][ctx.c.tiles[tile].stack].append(tile)
            continue
        lay(ctx, tile, square, rot)
        laid += 1
    ctx.say(f"Setup: the city level is built out around the Elfsong Tavern ({laid} tiles laid).", kind="haunt_setup")


def join_waterfront(ctx):
    """Secrets of Survival, haunt 18: "Right Now" (last point)."""
    s = ctx.s
    far = geometry.distances(ctx, TAVERN)
    opens = [d for d in bd.open_doorways(ctx.c, s["board"], "city")
             if best_rotation(ctx, WATERFRONT, bd.neighbour_square(s["board"][d[0]], d[1]),
                              bd.OPPOSITE[d[1]]) is not None]
    if not opens:
        ctx.say("Setup: no open city doorway is left for the Waterfront.", kind="haunt_setup")
        return
    tid, side = max(opens, key=lambda d: (far.get(d[0], 0), ctx.tile_name(d[0]), d[1]))
    square = bd.neighbour_square(s["board"][tid], side)
    lay(ctx, WATERFRONT, square, best_rotation(ctx, WATERFRONT, square, bd.OPPOSITE[side]))
    ctx.say(f"Setup: the Waterfront joins the city beside the {ctx.tile_name(tid)}, the farthest open doorway from "
            "the Elfsong Tavern.", kind="haunt_setup")


def outer_ring(ctx) -> list[str]:
    """The city tiles on the edge of the city: beside an empty square."""
    s = ctx.s
    squares = bd.grid(s["board"])
    return [t for t in city_tiles(ctx) if any(bd.neighbour_square(s["board"][t], side) not in squares
                                               for side in bd.SIDES)]


# --- the NPC turn ---------------------------------------------------------------------------

def npc_turn(ctx, runner: str, number: int):
    """Secrets of Survival, haunt 18: "Special Citizen Rules": the Citizens'
    turn, run by the heroes (the hero who has just played)."""
    s = ctx.s
    turn = st.new_turn(runner, number)
    turn.update({"monsters": True, "npc": True, "moves": {}, "acted": [], "attacked": []})
    s["turn"] = turn
    ctx.say(f"Turn {number}: the NPC turn ({ctx.name(runner)} moves the Citizens for the heroes).", kind="turn",
            player=runner)
    turn["stunned_at_start"] = [m["id"] for m in living(s, CITIZEN) if m["stunned"]]
    if any(not m["stunned"] for m in living(s, CITIZEN)):
        speed = living(s, CITIZEN)[0]["traits"]["speed"]
        turn["moves"][CITIZEN] = max(1, effects.make_roll(ctx, runner, rng.dice_count(speed), "Speed for the Citizens"))


def fight(ctx, m: dict, target: str, trait: str):
    """A monster's attack on an adventurer or another monster, rolled by the
    player running this turn."""
    s = ctx.s
    turn = s["turn"]
    trait = (trait or "might").lower()
    if m["stunned"]:
        raise IllegalAction(f"{st.monster_called(m)} is stunned and cannot attack.")
    if m["id"] in turn["attacked"]:
        raise IllegalAction(f"{st.monster_called(m)} has already attacked this turn.")
    if trait not in m["traits"]:
        raise IllegalAction(f"{m['name']} has no {trait.capitalize()}.")
    if target in s["players"]:
        if not st.beside(s, target, m):
            raise IllegalAction(f"{ctx.name(target)} is not on {st.monster_called(m)}'s tile.")
        value, name = ctx.value(target, trait), ctx.name(target)
    else:
        other = hp.monster(ctx, target)
        if other["tile"] != m["tile"]:
            raise IllegalAction(f"{st.monster_called(other)} is not on {st.monster_called(m)}'s tile.")
        if trait not in other["traits"]:
            raise IllegalAction(f"{other['name']} has no {trait.capitalize()}.")
        target, value, name = other["id"], other["traits"][trait], f"{st.monster_called(other)}"
    turn["attacked"].append(m["id"])
    ctx.say(f"{st.monster_called(m)} attacks {name} with {trait.capitalize()}.", kind="attack")
    a = effects.make_roll(ctx, turn["player"], rng.dice_count(m["traits"][trait]),
                          f"{trait.capitalize()} for {st.monster_called(m)}", kind="contest")
    d = attack.defence_roll(ctx, target, trait, value)
    s["haunt"]["last_attacker"] = m["id"]
    effects.queue(ctx, turn["player"], [attack.roll_off(m["id"], target, trait, a, d, False), {"do": "_attack_over"}],
                  source="attack", front=True)


def turn_citizen(ctx, m: dict):
    """Traitor's Tome, haunt 18: "Turning a Citizen"."""
    s = ctx.s
    m["dead"] = True
    counters = s["haunt"]["counters"]
    counters[TURNED] = counters.get(TURNED, 0) + 1
    ctx.say(f"{st.monster_called(m)} is turned into a wererat ({counters[TURNED]} turned).", kind="monster",
            monster=m["id"])
    rat = hp.add_monster(ctx, WERERAT, m["tile"])
    mine(ctx)["fresh"][rat["id"]] = s["turn"]["number"]


def fresh(ctx, m: dict) -> bool:
    return mine(ctx)["fresh"].get(m["id"]) == ctx.s["turn"]["number"]


WORDS_HEROES = ("Setup: in the NPC turn (after the last hero's turn, before the traitor's) the hero who has just "
                "played runs the Citizens: each may move, and attack the traitor or a Wererat on its tile, then the "
                "turn ends. A Citizen that reaches the Waterfront is rescued.")
WORDS_TRAITOR = ("Setup: you may attack a Citizen on your tile; in the monster turn a Wererat may attack a Citizen on "
                 "its tile. Beating a stunned Citizen turns it.")


@rulesets.register(18)
class RatsOnAPier(rulesets.RuleSet):
    own = OWN
    title = "Rats on a Pier"

    def setup_step(self, ctx, step):
        s = ctx.s
        text = step.get("text", "")
        if step.get("monster") == WERERAT:
            ring = outer_ring(ctx)
            hp.place_chosen(ctx, {**step, "among": [f"tile:{t}" for t in ring] or ["city"]})
            return True
        if step.get("monster") == CITIZEN:  # Secrets of Survival, haunt 18: "Right Now" (first two points)
            rooms = [t for t in START_ROOMS if t in s["board"]]
            for i in range(hp.count_value(ctx, step["count"])):
                hp.add_monster(ctx, CITIZEN, rooms[i % len(rooms)])
            ctx.say(WORDS_HEROES, kind="haunt_setup", to="heroes")
            ctx.say(WORDS_TRAITOR, kind="haunt_setup", to="traitors")
            return True
        if step.get("do") != "manual":
            return None
        if "Waterfront aside" in text:
            set_waterfront_aside(ctx)
        elif text.startswith("Build out"):
            build_out(ctx)
        elif text.startswith("Join the Waterfront"):
            join_waterfront(ctx)
        elif "restore Might" in text:  # Traitor's Tome, haunt 18: "Right Now"
            for pid in hp.traitors(s):
                p = s["players"][pid]
                start = ctx.c.adventurers[p["adventurer"]].tracks["might"].start
                if p["traits"]["might"] < start:
                    tr.change(ctx, pid, "might", start - p["traits"]["might"])
                tr.change(ctx, pid, "might", 2)
        elif step.get("card") == BITE:
            holder = cd.holder_of(ctx, BITE)
            if holder in hp.traitors(s):
                cd.discard(ctx, BITE)  # the card gave its traits when drawn: nothing changes now
                while mk.take(ctx, holder, "wererat"):  # the curse goes with its card (no more passing it on)
                    pass
        else:
            return None
        return True

    def next_slot(self, ctx):
        s = ctx.s
        turn = s["turn"]
        if not s["haunt"].get("started"):
            return None
        traitor = hp.traitors(s)[0]
        if turn.get("npc"):
            hp.start_slot(ctx, traitor, turn["number"] + 1)
            return True
        if turn.get("monsters") or not living(s, CITIZEN) or not hp.alive(s, hp.heroes(s)):
            return None
        order = s["order"]
        i = order.index(turn["player"])
        for k in range(1, len(order)):
            nxt = order[(i + k) % len(order)]
            if nxt == hp.MONSTERS:
                return None
            if nxt == traitor:
                runner = turn["player"] if s["players"][turn["player"]]["alive"] else \
                    hp.alive(s, hp.heroes(s))[0]
                npc_turn(ctx, runner, turn["number"] + 1)
                return True
            if s["players"][nxt]["alive"]:
                return None
        return None

    def monster_blocked(self, ctx, m, dest):
        if npc_turn_now(ctx.s) != (m["name"] == CITIZEN):
            return "Only the Citizens act in the NPC turn." if npc_turn_now(ctx.s) else \
                "The Citizens act in the NPC turn, run by the heroes."
        if fresh(ctx, m):
            return "A new Wererat cannot move or attack in the turn it appears."
        return None

    def monster_attack(self, ctx, m, target, trait):
        s = ctx.s
        if npc_turn_now(s) != (m["name"] == CITIZEN):
            raise IllegalAction("Only the Citizens act in the NPC turn." if npc_turn_now(s) else
                                "The Citizens act in the NPC turn, run by the heroes.")
        if m["name"] == CITIZEN:
            if target in s["players"] and not st.known_traitor(s, target):
                raise IllegalAction("Citizens fight the traitor and the Wererats.")
            if target not in s["players"] and hp.monster(ctx, target)["name"] != WERERAT:
                raise IllegalAction("Citizens fight the traitor and the Wererats.")
            fight(ctx, m, target, trait)
            return True
        if fresh(ctx, m):
            raise IllegalAction("A new Wererat cannot move or attack in the turn it appears.")
        if target in s["players"]:
            return None  # the ordinary monster attack on a hero
        if hp.monster(ctx, target)["name"] != CITIZEN:
            raise IllegalAction("Wererats attack the heroes and the Citizens.")
        fight(ctx, m, target, trait)
        return True

    def monster_hurt(self, ctx, m, kind, amount):
        if m["name"] != CITIZEN:
            return None
        s = ctx.s
        by = s["haunt"].get("last_attacker")
        by_rat = by in hp.traitors(s) or any(x["id"] == by and x["name"] == WERERAT for x in s["monsters"])
        if m["stunned"] and by_rat:
            turn_citizen(ctx, m)
            return True
        return None  # stunned

    def defence_dice(self, ctx, defender, trait):
        """Traitor's Tome and Secrets of Survival, haunt 18: "Special Citizen
        Rules": 1 more die for each hero on the Citizen's tile."""
        s = ctx.s
        m = next((x for x in s["monsters"] if x["id"] == defender and x["name"] == CITIZEN), None)
        if m is None:
            return None
        return sum(1 for p in hp.alive(s, hp.heroes(s)) if st.beside(s, p, m)) or None

    def entered(self, ctx, mover, tile):
        """Secrets of Survival, haunt 18: "Rescuing Citizens"."""
        s = ctx.s
        m = next((x for x in s["monsters"] if x["id"] == mover and x["name"] == CITIZEN), None)
        if m is None or tile != WATERFRONT or m["dead"]:
            return
        m["dead"] = True
        counters = s["haunt"]["counters"]
        counters[RESCUED] = counters.get(RESCUED, 0) + 1
        ctx.say(f"{st.monster_called(m)} boards a ship at the Waterfront: rescued ({counters[RESCUED]} in all).",
                kind="monster", monster=m["id"])

    def haunt_actions(self, ctx, pid):
        """The fights between monsters the ordinary monster turn does not
        offer: a Wererat on a Citizen (monster turn), a Citizen on a Wererat
        (NPC turn); each tried before it is offered."""
        s = ctx.s
        if not (s["turn"] or {}).get("monsters"):
            return None
        rats, people = living(s, WERERAT), living(s, CITIZEN)
        pairs = [(r, c) for r in rats for c in people if r["tile"] == c["tile"]]
        found = [{"type": "monster", "op": "attack", "monster": r["id"], "target": c["id"]} for r, c in pairs]
        return found + [{"type": "monster", "op": "attack", "monster": c["id"], "target": r["id"]} for r, c in pairs]

    def haunt_goals(self, ctx, pid):
        """The heroes escort the Citizens (each hero beside one adds a
        defence die) and fight what comes; the traitor goes after the
        Citizens."""
        s = ctx.s
        if pid not in hp.traitors(s) and pid not in hp.heroes(s):
            return None
        return {m["tile"] for m in living(s, CITIZEN)} or None

    def monster_goals(self, ctx, m):
        """The Citizens head for the Waterfront's ships; the Wererats for the
        Citizens."""
        s = ctx.s
        if m["name"] == CITIZEN:
            return {WATERFRONT} if WATERFRONT in s["board"] else None
        if m["name"] == WERERAT:
            return {c["tile"] for c in living(s, CITIZEN)} or None
        return None

    def win_check(self, ctx):
        """Secrets of Survival, haunt 18: "You Win When..." (the kill)."""
        s = ctx.s
        if WERERAT in s["haunt"]["placed"] and not living(s, WERERAT) and not hp.alive(s, hp.traitors(s)) \
                and hp.alive(s, hp.heroes(s)):
            return "heroes", "The traitor and every Wererat have been killed."
        return None
