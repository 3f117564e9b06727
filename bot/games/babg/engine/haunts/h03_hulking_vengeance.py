"""Haunt 3, Hulking Vengeance (Secrets of Survival; no traitor).

What the bot carries out:
- Setup: the Umber Hulk on the omen tile (data); the Temple of Umberlee
  fetched from the building stack when it is not in play and joined to an
  open city door the haunt revealer picks (a building door, or a street door
  when no building door is open), the building stack reshuffled; half the
  adventurers (rounded up) Obstacle tokens on it; the spell counter (data).
- The Umber Hulk's turn (after the revealer's, the default order): its Speed
  roll and its walk along the shortest way to the Temple, through walls
  between adjacent tiles of a level, up and down every staircase and from
  the Catacomb Landing to any sewer-grate street (1 space); it never leaves
  the Temple once there; the runner picks between equally short ways and
  may then attack with it.
- Damage to it is never a stun: each hit puts a quest token on the Temple.
- "Destroying a Defense" at the end of its turn on the Temple (Might roll,
  minus 1 per quest token there, which are then cleared; 4+ one Obstacle,
  12+ all), then the spell counter goes down one.
- The heroes' gaze roll at the start of a turn on its tile (5+ nothing; 3-4
  one tile away, no discovery, and the turn ends; 0-2 the forced attack on a
  hero in reach, moving there if needed, with the most dice they can roll).
- Shoring up the temple: the declared move `shore` (Knowledge) on the
  Temple, in place of the turn's attack (4+: a quest token there).
- Wins: the heroes when the counter reaches 0 (data); they lose when the
  last Obstacle token goes or every hero is dead.

Left to the players: nothing the book prints.
"""
from .. import attack, effects, rng, rulesets
from .. import board as bd
from .. import haunt_play as hp
from .. import moves
from .. import state as st
from .. import tokens as tk
from ..errors import IllegalAction
from ..geometry import distances

HULK = "Umber Hulk"
TEMPLE = "temple_of_umberlee"
LANDING = "catacomb_landing"
OBSTACLE = "Obstacle"
QUEST = "quest"
SPELL = "Domination spell"
SHORE_TARGET = 4


OWN = rulesets.Own("h03", {"guarded": False})


def mine(ctx) -> dict:
    return rulesets.REGISTRY[3].record(ctx.s)


def the_hulk(ctx) -> dict | None:
    return next((m for m in ctx.s["monsters"] if m["name"] == HULK and not m["dead"]), None)


def on_temple(ctx, name: str) -> list[dict]:
    return [t for t in tk.on_tile(ctx.s, TEMPLE) if t["name"] == name]


# --- setup: the Temple and its defences ------------------------------------------------------------

def temple_doors(ctx) -> list[tuple[str, str, int]]:
    """(tile, side, rotation) for each open city door the Temple can be
    joined to: building doors, or street doors when no building door is open
    (Secrets of Survival, haunt 3: "Right Now"). The Temple is turned the way
    that joins the most doorways without sealing the level."""
    s = ctx.s
    found = {"building": [], "street": []}
    for tid, side in bd.open_doorways(ctx.c, s["board"], "city"):
        colour = bd.placed_doorways(ctx.c, s["board"], tid)[side]
        if colour not in found:
            continue
        fits = moves.placements(ctx, TEMPLE, bd.neighbour_square(s["board"][tid], side), bd.OPPOSITE[side])
        if not fits:
            continue
        best = sorted(fits, key=lambda o: (o[2], -o[1]))[0]
        found[colour].append((tid, side, best[0]))
    doors = found["building"] or found["street"]
    return sorted(doors, key=lambda d: (ctx.tile_name(d[0]), d[1]))


def attach_temple(ctx, door: tuple[str, str, int]):
    s = ctx.s
    tid, side, rot = door
    level, x, y = bd.neighbour_square(s["board"][tid], side)
    for pile in (s["stacks"], s["set_aside"]):
        if TEMPLE in pile.get("building", []):
            pile["building"].remove(TEMPLE)
    s["board"][TEMPLE] = {"level": level, "x": x, "y": y, "rot": rot}
    s["stacks"]["building"] = rng.shuffle(s, s["stacks"]["building"])
    ctx.say(f"Setup: the Temple of Umberlee is found in the building stack and joined to the {ctx.tile_name(tid)}'s "
            f"{side} door; the building stack is shuffled.", kind="haunt_setup", tile=TEMPLE)


@effects.step("h03_temple")
def _temple(ctx, task, item):
    if TEMPLE in ctx.s["board"]:
        return
    doors = temple_doors(ctx)
    if not doors:
        ctx.say("Setup: no open city door can take the Temple of Umberlee.", kind="haunt_setup")
        return
    if len(doors) == 1:
        attach_temple(ctx, doors[0])
        return
    effects.ask(ctx, task["player"], "h03_temple", "which open city door does the Temple of Umberlee join?",
                [f"The {ctx.tile_name(t)}'s {side} door" for t, side, _ in doors], doors=[list(d) for d in doors])


@effects.decision("h03_temple")
def _decide_temple(ctx, pending, index):
    attach_temple(ctx, tuple(pending["data"]["doors"][index]))


@effects.step("h03_obstacles")
def _obstacles(ctx, task, item):
    s = ctx.s
    if TEMPLE not in s["board"]:
        return
    count = (len(s["seats"]) + 1) // 2
    for _ in range(count):
        tk.place(s, OBSTACLE, TEMPLE)
    mine(ctx)["guarded"] = True
    ctx.say(f"Setup: {count} Obstacle tokens guard the Temple of Umberlee. On the Temple, in place of your attack: "
            "{move:shore}.", kind="haunt_setup", tile=TEMPLE)


# --- the Umber Hulk's way to the Temple --------------------------------------------------------------

def hulk_ways(ctx, tid: str) -> list[tuple[str, int]]:
    """(tile, spaces) one move of the Umber Hulk reaches: every adjacent tile
    of its level, doors or not; stairs; the Catacomb Landing and the sewer
    grates both ways (Secrets of Survival, haunt 3: "Special Umber Hulk
    Movement Rules")."""
    s, c = ctx.s, ctx.c
    place = s["board"][tid]
    squares = bd.grid(s["board"])
    out = [(squares[bd.neighbour_square(place, side)], 1) for side in bd.SIDES
           if bd.neighbour_square(place, side) in squares]
    tile = c.tiles[tid]
    if tile.stairs_to and tile.stairs_to in s["board"]:
        out.append((tile.stairs_to, 1 + tile.stairs_extra_cost))
    for other in s["board"]:
        if c.tiles[other].stairs_to == tid:
            out.append((other, 1 + c.tiles[other].stairs_extra_cost))
    if tile.sewer_grate and LANDING in s["board"]:
        out.append((LANDING, 1))
    if tid == LANDING:
        out += [(t, 1) for t in s["board"] if c.tiles[t].sewer_grate and c.tiles[t].kind == "street"]
    return list(dict.fromkeys(out))


def to_temple(ctx) -> dict[str, int]:
    """Fewest of the Umber Hulk's spaces from every tile to the Temple."""
    return hulk_spaces(ctx, TEMPLE)


def hulk_spaces(ctx, origin: str) -> dict[str, int]:
    """Fewest of the Umber Hulk's spaces between `origin` and every tile."""
    best = {origin: 0}
    todo = [origin]
    while todo:
        todo.sort(key=lambda t: best[t])
        tid = todo.pop(0)
        for other, cost in hulk_ways(ctx, tid):  # every way runs both ways
            if best[tid] + cost < best.get(other, 99):
                best[other] = best[tid] + cost
                todo.append(other)
    return best


def next_steps(ctx, m: dict) -> list[tuple[str, int]]:
    """The moves that start a shortest way to the Temple from the Hulk's tile."""
    if m["tile"] == TEMPLE or TEMPLE not in ctx.s["board"]:
        return []
    far = to_temple(ctx)
    here = far.get(m["tile"])
    if here is None:
        return []
    return sorted(((t, c) for t, c in hulk_ways(ctx, m["tile"]) if far.get(t, 99) + c == here),
                  key=lambda w: ctx.tile_name(w[0]))


@effects.step("h03_walk")
def _walk(ctx, task, item):
    m = the_hulk(ctx)
    if m is None:
        return
    ways = next_steps(ctx, m)
    s = ctx.s
    blockers = len([p for p in hp.alive(s, st.side_members(s, "heroes")) if st.beside(s, p, m)])
    # Rulebook: Moving Past Opponents; the shared ruling on stairs: the first move of a turn is always allowed
    ways = [(t, c + blockers) for t, c in ways if c + blockers <= item["left"] or item.get("first")]
    if not ways:
        return
    if len(ways) == 1:
        go(ctx, m, ways[0], item["left"])
        return
    effects.ask(ctx, task["player"], "h03_hulk_way", "which equally short way does the Umber Hulk take toward the "
                "Temple?", [ctx.tile_name(t) for t, _ in ways], ways=[list(w) for w in ways], left=item["left"])


@effects.decision("h03_hulk_way")
def _decide_hulk_way(ctx, pending, index):
    m = the_hulk(ctx)
    if m is not None:
        go(ctx, m, tuple(pending["data"]["ways"][index]), pending["data"]["left"])


def go(ctx, m: dict, way: tuple[str, int], left: int):
    tile, cost = way
    effects.push_front(ctx, [{"do": "_monster_arrives", "monster": m["id"], "tile": tile},
                             {"do": "h03_walk", "left": max(0, left - cost)}])


# --- the end of its turn ------------------------------------------------------------------------------

def destroy_defences(ctx):
    """Secrets of Survival, haunt 3: "Destroying a Defense"."""
    s = ctx.s
    m = the_hulk(ctx)
    if m is None or m["tile"] != TEMPLE:
        return
    quests = on_temple(ctx, QUEST)
    total = effects.make_roll(ctx, hp.controller(s), rng.dice_count(m["traits"]["might"]),
                              "Might for the Umber Hulk against the temple defences", kind="haunt")
    result = total - len(quests)
    for token in quests:
        tk.remove(s, token)
    if quests:
        ctx.say(f"{len(quests)} quest token{'s' if len(quests) != 1 else ''} soften the blow ({result}) and are "
                "cleared from the Temple.", kind="haunt")
    obstacles = on_temple(ctx, OBSTACLE)
    gone = obstacles if result >= 12 else obstacles[:1] if result >= 4 else []
    for token in gone:
        tk.remove(s, token)
    ctx.say(f"The Umber Hulk smashes {len(gone)} Obstacle token{'s' if len(gone) != 1 else ''} "
            f"({len(on_temple(ctx, OBSTACLE))} left)." if gone else "The temple defences hold.", kind="haunt")


@effects.step("h03_stagger")
def _stagger(ctx, task, item):
    """Gaze 3-4: one tile away, no discovering, and the turn ends."""
    pid = task["player"]
    ways = moves.ways_out(ctx, pid)
    tiles = sorted({w["to"] for w in ways.values() if w["to"] and "blocked" not in w}, key=ctx.tile_name)
    if not tiles:
        ctx.say(f"{ctx.name(pid)} has nowhere to stagger to.", kind="haunt")
        effects.push_front(ctx, [{"do": "_end_turn"}])
        return
    effects.ask(ctx, pid, "h03_stagger", "where do you stagger (1 tile away; your turn then ends)?",
                [ctx.tile_name(t) for t in tiles], tiles=tiles)


@effects.decision("h03_stagger")
def _decide_stagger(ctx, pending, index):
    pid = pending["player"]
    moves.place_on(ctx, pid, pending["data"]["tiles"][index], verb="staggers to")
    effects.queue(ctx, pid, [{"do": "_end_turn"}], source="haunt")


def reach(ctx, pid: str) -> list[str]:
    """The heroes a gazed hero can attack: on their tile, within the spaces
    they have left, or in line of sight with a distance weapon."""
    s = ctx.s
    here = s["players"][pid]["tile"]
    left = moves.allowance(ctx, pid) - s["turn"]["moved"]
    near = distances(ctx, here)
    shooting = any((ctx.c.cards[c].attack or {}).get("distance") for c in s["players"][pid]["cards"])
    found = []
    for other in hp.alive(s, s["seats"]):
        if other == pid or not st.on_board(s["players"][other]):
            continue
        there = s["players"][other]["tile"]
        if st.together(s, pid, other) or near.get(there, 99) <= left or \
                (shooting and bd.line_of_sight(ctx.c, s["board"], here, there)):
            found.append(other)
    return found


def strongest(ctx, pid: str, distance: bool) -> tuple[str, str | None]:
    """The attack that rolls the most dice (ties: Might, no weapon first)."""
    best = ("might", None, attack.attack_dice(ctx, pid, "might"))
    for cid in ctx.s["players"][pid]["cards"]:
        card = ctx.c.cards[cid]
        if not card.weapon or (card.attack or {}).get("special"):
            continue
        for trait in attack.attack_traits(ctx, pid, cid):
            n = attack.attack_dice(ctx, pid, trait, cid)
            if n > best[2] and (not distance or (card.attack or {}).get("distance")):
                best = (trait, cid, n)
    if distance and not (best[1] and (ctx.c.cards[best[1]].attack or {}).get("distance")):
        far = [c for c in ctx.s["players"][pid]["cards"] if (ctx.c.cards[c].attack or {}).get("distance")]
        return (ctx.c.cards[far[0]].attack or {}).get("trait", "might"), far[0]
    return best[0], best[1]


@effects.step("h03_confused")
def _confused(ctx, task, item):
    """Gaze 0-2: the hero must attack a hero in reach."""
    pid = task["player"]
    targets = reach(ctx, pid)
    if not targets:
        ctx.say(f"{ctx.name(pid)} is confused, but no hero is within reach.", kind="haunt")
        return
    effects.ask(ctx, pid, "h03_confused", "the Umber Hulk's gaze confuses you: which hero do you attack?",
                [ctx.name(t) for t in targets], targets=targets)


@effects.decision("h03_confused")
def _decide_confused(ctx, pending, index):
    s = ctx.s
    pid, target = pending["player"], pending["data"]["targets"][index]
    here, there = s["players"][pid]["tile"], s["players"][target]["tile"]
    far = not st.together(s, pid, target)
    shooting = any((ctx.c.cards[c].attack or {}).get("distance") for c in s["players"][pid]["cards"])
    if far and not (shooting and bd.line_of_sight(ctx.c, s["board"], here, there)):
        # Ruling: the confused hero goes straight to the other hero's tile; the tiles on the way do nothing
        s["turn"]["moved"] += distances(ctx, here).get(there, 0)
        moves.place_on(ctx, pid, there, verb="lurches to", stop=False)
        s["players"][pid]["half"] = s["players"][target]["half"]
        far = False
    trait, weapon = strongest(ctx, pid, far)
    s["turn"]["attacked"] = True
    if weapon:
        s["turn"]["used"].append(weapon)
    ctx.say(f"{ctx.name(pid)}, confused, attacks {ctx.name(target)} with {trait.capitalize()}"
            + (f", using {ctx.card_name(weapon)}" if weapon else "") + ".", kind="attack")
    a = effects.make_roll(ctx, pid, attack.attack_dice(ctx, pid, trait, weapon), f"{trait.capitalize()} to attack",
                          trait=trait, kind="attack")
    d = attack.defence_roll(ctx, target, trait, ctx.value(target, trait))
    s["haunt"]["last_attacker"] = pid
    effects.queue(ctx, pid, [attack.roll_off(pid, target, trait, a, d, far, weapon), {"do": "_attack_over"}],
                  source="attack", front=True)


@effects.step("h03_shored")
def _shored(ctx, task, item):
    tk.place(ctx.s, QUEST, TEMPLE)
    ctx.say(f"{ctx.name(task['player'])} shores up the temple: a quest token is put on the Temple of Umberlee "
            f"({len(on_temple(ctx, QUEST))} there).", kind="haunt", tile=TEMPLE)


@rulesets.register(3)
class HulkingVengeance(rulesets.RuleSet):
    title = "Hulking Vengeance"
    own = OWN

    def setup_step(self, ctx, step):
        text = step.get("text", "")
        if step.get("do") != "manual":
            return None
        who = hp.chooser(ctx.s, "heroes")
        if "Temple of Umberlee is not in play" in text:
            effects.queue(ctx, who, [{"do": "h03_temple"}], source="haunt")
            return True
        if "Obstacle tokens" in text:
            effects.queue(ctx, who, [{"do": "h03_obstacles"}], source="haunt")
            return True
        if "quest tokens aside" in text:
            return True  # the bot keeps the pile: a quest token is put on the Temple when the rules say so
        return None

    def monster_turn(self, ctx, number):
        """The Umber Hulk's Speed roll and its walk to the Temple; the runner
        may then attack with it and ends the turn."""
        s = ctx.s
        m = the_hulk(ctx)
        if m is None:
            return None
        boss = hp.controller(s)
        turn = st.new_turn(boss, number)
        turn.update({"monsters": True, "moves": {}, "acted": [], "attacked": [],
                     "stunned_at_start": [x["id"] for x in s["monsters"] if x["stunned"]]})
        s["turn"] = turn
        ctx.say(f"Turn {number}: the monster turn ({ctx.name(boss)} runs the Umber Hulk, which walks by itself "
                "toward the Temple; it may then attack before you end the turn).", kind="turn", player=boss)
        if m["stunned"]:
            return True
        speed = effects.make_roll(ctx, boss, rng.dice_count(m["traits"]["speed"]), "Speed for the Umber Hulk",
                                  kind="haunt")
        turn["moves"][HULK] = max(1, speed)
        m["moved"], m["moved_turn"] = turn["moves"][HULK], number  # it goes its own way: no `monster move`
        effects.queue(ctx, boss, [{"do": "h03_walk", "left": turn["moves"][HULK], "first": True}], source="haunt")
        return True

    def next_slot(self, ctx):
        """The end of the Umber Hulk's turn: its blow against the defences,
        then the spell counter goes down one (Secrets of Survival, haunt 3)."""
        s = ctx.s
        if not s["haunt"].get("started") or not s["turn"].get("monsters"):
            return None
        destroy_defences(ctx)
        counters = s["haunt"]["counters"]
        if SPELL in counters:
            counters[SPELL] -= 1
            ctx.say(f"The domination spell weakens: {counters[SPELL]} left on the Turn/Damage track.", kind="counter")
        hp.check_wins(ctx)
        return True if s["phase"] != "haunt" else None

    def monster_hurt(self, ctx, m, kind, amount):
        """Secrets of Survival, haunt 3: "Special Umber Hulk Damage Rules"."""
        if m["name"] != HULK:
            return None
        if TEMPLE in ctx.s["board"]:
            tk.place(ctx.s, QUEST, TEMPLE)
            ctx.say(f"The Umber Hulk shrugs off the blow, but the temple is shored up: a quest token is put on the "
                    f"Temple of Umberlee ({len(on_temple(ctx, QUEST))} there).", kind="haunt", monster=m["id"])
        return True

    def turn_started(self, ctx, pid):
        """Secrets of Survival, haunt 3: "You Must Do This at the Start of Each Hero's Turn"."""
        s = ctx.s
        m = the_hulk(ctx)
        if m is None or not st.beside(s, pid, m):
            return None
        ctx.say(f"{ctx.name(pid)} starts the turn beside the Umber Hulk and must resist its gaze (Knowledge).",
                kind="haunt", player=pid)
        effects.queue(ctx, pid, [{"do": "roll", "trait": "knowledge", "bands": [
            {"at_least": 5, "then": []},
            {"at_least": 3, "at_most": 4, "then": [{"do": "h03_stagger"}]},
            {"at_most": 2, "then": [{"do": "h03_confused"}]}]}], source="haunt")
        return None

    def win_check(self, ctx):
        """Secrets of Survival, haunt 3: "You Lose When..." (the last Obstacle token)."""
        if mine(ctx)["guarded"] and not on_temple(ctx, OBSTACLE):
            return "traitor", "The last Obstacle token is gone: the temple defences are destroyed."
        return None

    def bot_choice(self, ctx, pending):
        """A built-in revealer joins the Temple where the Umber Hulk has the
        farthest to walk (what the heroes plainly want)."""
        hulk = the_hulk(ctx)
        if pending["kind"] != "h03_temple" or hulk is None:
            return None
        far = hulk_spaces(ctx, hulk["tile"])
        doors = pending["data"]["doors"]
        return max(range(len(doors)), key=lambda i: far.get(doors[i][0], 99))

    def haunt_goals(self, ctx, pid):
        """Every hero defends the Temple of Umberlee; once they have shored
        it up (or attacked) with the Umber Hulk there, a tile next to it, so
        as not to start the next turn under its gaze."""
        s = ctx.s
        if TEMPLE not in s["board"]:
            return None
        m = the_hulk(ctx)
        turn = s["turn"] or {}
        if m and m["tile"] == TEMPLE and turn.get("player") == pid and not turn.get("monsters") \
                and turn.get("attacked"):
            return {t for t in bd.exits(ctx.c, s["board"], TEMPLE).values() if t} or {TEMPLE}
        return {TEMPLE}

    moves = (
        rulesets.Move("shore", "Shore up the temple", lambda ctx, pid, trait: shore(ctx, pid, trait),
                      traits=("knowledge",), who="heroes", instead_of_attack=True,
                      summary="On the Temple of Umberlee, a Knowledge roll of 4+ puts a quest token there."),
    )


def shore(ctx, pid: str, trait: str):
    """Secrets of Survival, haunt 3: "Shoring Up the Temple" (in place of an attack)."""
    s = ctx.s
    if s["turn"].get("monsters") or s["turn"]["player"] != pid:
        raise IllegalAction("A hero shores up the temple in their own turn, not the Umber Hulk's.")
    if trait != "knowledge":
        raise IllegalAction("Shoring up the temple takes a Knowledge roll.")
    if s["players"][pid]["tile"] != TEMPLE:
        raise IllegalAction("You shore up the temple while standing on the Temple of Umberlee.")
    if s["turn"].get("attacked"):
        raise IllegalAction("Shoring up takes the place of your attack, and you have attacked this turn.")
    s["turn"]["attacked"] = True
    effects.queue(ctx, pid, [{"do": "roll", "trait": "knowledge", "bands": [
        {"at_least": SHORE_TARGET, "then": [{"do": "h03_shored"}]},
        {"at_most": SHORE_TARGET - 1, "then": []}]}], source="haunt", front=True)
