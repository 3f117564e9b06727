"""Haunt 32, Sphere of Annihilation (Traitor's Tome; Secrets of Survival).

What the bot carries out:
- Setup: a hero puts the Sphere on a city tile among those farthest from
  every adventurer (data, `farthest_from`); the traitor's traits back up to
  their starting values (data), then 1 point per hero, each in a trait the
  traitor picks; the Talisman of the Sphere with the traitor.
- The Talisman: held by one adventurer; a winner of an attack for 2 or more
  may take it instead of the damage (either side); a holder who dies leaves
  it on their tile, where the declared move `pickup` takes it.
- At the start of each turn, an adventurer on the Sphere's tile without the
  Talisman rolls Speed 5+, or dies with every item they hold removed from
  play.
- The Sphere's move after the traitor's turn, even with the traitor dead:
  the Talisman holder rolls 3 dice (at least 1) and steers it space by space
  (doors, stairs and grates between face-up tiles, or a jump to any
  annihilated tile of the other level, the Catacomb Landing or the Kitchen
  while that level has none), or stops; it halts on entering a tile with an
  adventurer who does not hold the Talisman. Every tile it leaves is
  annihilated (bot.games.babg.engine.city): turned face down and cleared of its
  adventurers (killed, their items gone), monsters, tokens and items, except
  the Talisman and its holder. A room of a start tile annihilated gets the
  top tile of the tallest stack laid face down on it ("Annihilating a Start
  Tile", L2223; a tie goes to the building, then the street stack).
- The wreckage: annihilated tiles have doorways on every side and open edges
  to explore; leaving one takes a 3+ roll in a trait the mover picks (on a
  failure 1 point of that trait is lost, and the move goes on). Once a tile
  is annihilated, the declared move `climb` (from a street or building
  tile, Speed 3+; from a catacomb tile, Might 3+), once a turn,
  put the climber on an annihilated tile of the other level they pick (the
  Catacomb Landing or the Kitchen while there is none); a failure still gets
  there, with 1 physical damage.
- Attacks with Might or Knowledge on either side.
- The declared move `merge` for a hero with the Talisman on the Sphere's tile
  (once a turn): 5+ and the heroes win; otherwise the Sphere throws them 1
  tile away (they pick among the placed tiles one move away).
- Wins: every hero dead (data); the merge; the last hero alive holding the
  Talisman.

Left to the players: nothing the books print.
"""
from .. import board as bd
from .. import city, effects, rulesets
from .. import haunt_play as hp
from .. import moves, turns
from .. import state as st
from .. import tokens as tk
from ..errors import IllegalAction

SPHERE = "Sphere of Annihilation"
TALISMAN = "Talisman of the Sphere"
LANDING, KITCHEN = "catacomb_landing", "kitchen"
SPHERE_DICE, SUCK_TARGET, MERGE_TARGET, WRECK_TARGET, CLIMB_TARGET = 3, 5, 5, 3, 3
TRAITS = ("might", "speed", "knowledge", "sanity")


OWN = rulesets.Own("h32", {"holder": None, "merged": False}, players=("holder",))


def mine(ctx) -> dict:
    return rulesets.REGISTRY[32].record(ctx.s)


def holder(ctx) -> str | None:
    who = mine(ctx)["holder"]
    return who if who and ctx.s["players"][who]["alive"] else None


def sphere_tile(ctx) -> str | None:
    return next((t["tile"] for t in ctx.s["tokens"] if t["name"] == SPHERE), None)


def annihilated(ctx, level: str | None = None) -> list[str]:
    board = ctx.s["board"]
    return sorted((t for t, p in board.items() if p.get("face_down") and (level is None or p["level"] == level)),
                  key=ctx.tile_name)


def other_level_landings(ctx, level: str) -> list[str]:
    """Where a jump or a climb to the other level lands: any annihilated
    tile there, or its start room while there is none."""
    other = "catacomb" if level == "city" else "city"
    found = annihilated(ctx, other)
    if found:
        return found
    room = LANDING if other == "catacomb" else KITCHEN
    return [room] if room in ctx.s["board"] else []


# --- the Sphere's move ------------------------------------------------------------------------------

def sphere_ways(ctx, tid: str) -> list[tuple[str, str, int]]:
    """(label, tile, spaces) for each way the Sphere may go from `tid`."""
    s = ctx.s
    board = s["board"]
    found = [(f"{side}", t, 1) for side, t in bd.exits(ctx.c, board, tid).items() if t]
    tile = ctx.c.tiles[tid]
    up = not bd.face_down(board, tid)
    if up and tile.stairs_to in board and not bd.face_down(board, tile.stairs_to):
        found.append(("stairs", tile.stairs_to, 1 + tile.stairs_extra_cost))
    if up and tile.sewer_grate and LANDING in board and not bd.face_down(board, LANDING):
        found.append(("sewer grate", LANDING, 1))
    for t in other_level_landings(ctx, board[tid]["level"]):
        found.append(("across the levels", t, 1))
    return [(f"{ctx.tile_name(t)} ({label})", t, cost) for label, t, cost in found]


@effects.step("h32_sphere")
def _sphere(ctx, task, item):
    who = task["player"]
    n = max(1, effects.make_roll(ctx, who, SPHERE_DICE, "3 dice for the Sphere of Annihilation", kind="haunt"))
    ctx.say(f"The Sphere of Annihilation may move up to {n} space{'s' if n != 1 else ''}.", kind="haunt")
    effects.push_front(ctx, [{"do": "h32_sphere_step", "left": n}])


@effects.step("h32_sphere_step")
def _sphere_step(ctx, task, item):
    here = sphere_tile(ctx)
    if here is None or item["left"] <= 0:
        return
    ways = [w for w in sphere_ways(ctx, here) if w[2] <= item["left"]]
    if not ways:
        ctx.say("The Sphere of Annihilation has nowhere to go.", kind="haunt")
        return
    effects.ask(ctx, task["player"], "h32_sphere", f"where does the Sphere go ({item['left']} left)?",
                [w[0] for w in ways] + ["Stop here"], ways=[[w[1], w[2]] for w in ways], left=item["left"])


@effects.decision("h32_sphere")
def _decide_sphere(ctx, pending, index):
    data = pending["data"]
    if index >= len(data["ways"]):
        ctx.say("The Sphere of Annihilation stops.", kind="haunt")
        return
    dest, cost = data["ways"][index]
    old = sphere_tile(ctx)
    token = next(t for t in ctx.s["tokens"] if t["name"] == SPHERE)
    token["tile"] = dest
    ctx.say(f"The Sphere of Annihilation drifts from the {ctx.tile_name(old)} to the {ctx.tile_name(dest)}.",
            kind="haunt", tile=dest)
    annihilate(ctx, old)
    who = holder(ctx)
    stopped = [p for p in st.players_on(ctx.s, dest) if p != who]
    if stopped:
        ctx.say(f"It halts beside {ctx.name(stopped[0])}.", kind="haunt")
        return
    effects.push_front(ctx, [{"do": "h32_sphere_step", "left": data["left"] - cost}])


def annihilate(ctx, tid: str):
    """The tile turns face down and everything on it leaves the game, but
    the Talisman and whoever holds it."""
    city.turn_down(ctx, tid, say=False)
    ctx.say(f"The {ctx.c.tiles[tid].name} is annihilated.", kind="city", tile=tid)
    if ctx.c.tiles[tid].stack == "start":  # Traitor's Tome, haunt 32: "Annihilating a Start Tile" (L2223)
        city.cover(ctx, tid)
    who = holder(ctx)
    victims = [p for p in st.players_on(ctx.s, tid) if p != who]
    for pid in victims:
        vanish(ctx, pid, "the Sphere of Annihilation swallowed them")
    city.clear(ctx, tid, spare=[who] if who else [], why="annihilated by the Sphere", keep_tokens=(TALISMAN, SPHERE))


def vanish(ctx, pid: str, why: str):
    """Killed, with every item they hold removed from play."""
    s = ctx.s
    p = s["players"][pid]
    held = list(p["cards"])
    tile = p["tile"]
    hp.die(ctx, pid, why)
    pile = s["piles"].get(tile, [])
    for cid in held:
        if cid in pile:
            pile.remove(cid)
            s["discard"][ctx.c.cards[cid].deck].append(cid)
    if tile in s["piles"] and not pile:
        s["piles"].pop(tile)
    # the Talisman they dropped in dying is never annihilated: it stays where they were


# --- the start-of-turn pull ------------------------------------------------------------------------

@effects.step("h32_sucked")
def _sucked(ctx, task, item):
    vanish(ctx, task["player"], "the Sphere of Annihilation pulled them in")


# --- the wreckage ---------------------------------------------------------------------------------

@effects.step("h32_wreck_fail")
def _wreck_fail(ctx, task, item):
    from_trait = item["trait"]
    ctx.say(f"{ctx.name(task['player'])} stumbles out of the wreckage and loses 1 {from_trait.capitalize()}.",
            kind="haunt")
    effects.push_front(ctx, [{"do": "lose", "trait": from_trait, "amount": 1}])


def climb(ctx, pid: str, trait: str):
    s = ctx.s
    p = s["players"][pid]
    here = p["tile"]
    level = s["board"][here]["level"]
    if not annihilated(ctx):
        raise IllegalAction("Climbing opens once a tile has been annihilated.")
    if level == "city" and trait != "speed":
        raise IllegalAction("Climbing down takes a Speed roll.")
    if level == "catacomb" and trait != "might":
        raise IllegalAction("Climbing up takes a Might roll.")
    targets = other_level_landings(ctx, level)
    if not targets:
        raise IllegalAction("There is nowhere to climb to.")
    effects.queue(ctx, pid, [{"do": "roll", "trait": trait, "bands": [
        {"at_least": CLIMB_TARGET, "then": [{"do": "h32_land", "hurt": False}]},
        {"at_most": CLIMB_TARGET - 1, "then": [{"do": "h32_land", "hurt": True}]}]}], source="haunt", front=True)


@effects.step("h32_land")
def _land(ctx, task, item):
    pid = task["player"]
    level = ctx.s["board"][ctx.s["players"][pid]["tile"]]["level"]
    targets = other_level_landings(ctx, level)
    if len(targets) == 1:
        land(ctx, pid, targets[0], item["hurt"])
        return
    effects.ask(ctx, pid, "h32_land", "where do you climb to?", [ctx.tile_name(t) for t in targets],
                tiles=targets, hurt=item["hurt"])


@effects.decision("h32_land")
def _decide_land(ctx, pending, index):
    land(ctx, pending["player"], pending["data"]["tiles"][index], pending["data"]["hurt"])


def land(ctx, pid: str, tile: str, hurt: bool):
    moves.place_on(ctx, pid, tile, verb="climbs to")
    if hurt:
        effects.push_front(ctx, [{"do": "damage", "kind": "physical", "amount": 1}])


# --- the Talisman ----------------------------------------------------------------------------------

def give_talisman(ctx, pid: str, why: str):
    mine(ctx)["holder"] = pid
    ctx.say(f"{ctx.name(pid)} {why} the Talisman of the Sphere.", kind="haunt", player=pid)


@effects.step("h32_steal")
def _steal(ctx, task, item):
    if mine(ctx)["holder"] == item["from"]:
        give_talisman(ctx, task["player"], f"takes it from {ctx.name(item['from'])}:")


def pick_up(ctx, pid: str):
    s = ctx.s
    token = next((t for t in tk.on_tile(s, s["players"][pid]["tile"]) if t["name"] == TALISMAN), None)
    if token is None:
        raise IllegalAction("The Talisman of the Sphere is not on your tile.")
    tk.remove(s, token)
    give_talisman(ctx, pid, "picks up")


def merge(ctx, pid: str, trait: str):
    s = ctx.s
    if pid not in hp.heroes(s):
        raise IllegalAction("Only a hero can merge the Sphere and the Talisman.")
    if holder(ctx) != pid:
        raise IllegalAction("You must hold the Talisman of the Sphere.")
    if s["players"][pid]["tile"] != sphere_tile(ctx):
        raise IllegalAction("You must be on the Sphere's tile.")
    effects.queue(ctx, pid, [{"do": "roll", "trait": "knowledge", "bands": [
        {"at_least": MERGE_TARGET, "then": [{"do": "h32_merged"}]},
        {"at_most": MERGE_TARGET - 1, "then": [{"do": "h32_blast"}]}]}], source="haunt", front=True)


@effects.step("h32_merged")
def _merged(ctx, task, item):
    mine(ctx)["merged"] = True
    token = next((t for t in ctx.s["tokens"] if t["name"] == SPHERE), None)
    tk.remove(ctx.s, token)
    mine(ctx)["holder"] = None
    ctx.say(f"{ctx.name(task['player'])} merges the Talisman with the Sphere: both vanish.", kind="haunt")
    hp.check_wins(ctx)


@effects.step("h32_blast")
def _blast(ctx, task, item):
    pid = task["player"]
    here = ctx.s["players"][pid]["tile"]
    near = sorted({t for t, _ in (
        [(t, 1) for t in bd.exits(ctx.c, ctx.s["board"], here).values() if t])}, key=ctx.tile_name)
    if not near:
        ctx.say("The Sphere's blast finds nowhere to throw them.", kind="haunt")
        return
    if len(near) == 1:
        moves.place_on(ctx, pid, near[0], verb="is blasted to")
        return
    effects.ask(ctx, pid, "h32_blast", "the Sphere blasts you 1 tile away: where to?", [ctx.tile_name(t) for t in near],
                tiles=near)


@effects.decision("h32_blast")
def _decide_blast(ctx, pending, index):
    moves.place_on(ctx, pending["player"], pending["data"]["tiles"][index], verb="is blasted to")


# --- the rule set ----------------------------------------------------------------------------------

@rulesets.register(32)
class SphereOfAnnihilation(rulesets.RuleSet):
    title = "Sphere of Annihilation"

    def setup_step(self, ctx, step):
        s = ctx.s
        if step.get("do") == "manual" and "for every hero" in step.get("text", "").lower():
            t = hp.traitors(s)
            if t:
                gains = [{"do": "gain", "traits": list(TRAITS), "amount": 1} for _ in hp.heroes(s)]
                effects.queue(ctx, t[0], gains, source="haunt")
            return True
        if step.get("label") == TALISMAN:
            t = hp.traitors(s)
            if t:
                give_talisman(ctx, t[0], "holds")
            ctx.say("Setup: heroes, {move:merge} on the Sphere's tile with the Talisman; once a tile is "
                    "annihilated, {move:climb} (Speed down from the city, Might up from the catacombs); "
                    "{move:pickup} takes a Talisman lying on your tile.", kind="haunt_setup")
            return True
        return None

    def attack_traits(self, ctx, pid, weapon):
        return ["knowledge"] if not weapon else None

    def turn_started(self, ctx, pid):
        """You Must Do This at the Start of Your Turn: Speed 5+ or the Sphere takes you."""
        s = ctx.s
        if s["players"][pid]["tile"] != sphere_tile(ctx) or holder(ctx) == pid or not st.on_board(s["players"][pid]):
            return
        ctx.say(f"{ctx.name(pid)} starts the turn beside the Sphere of Annihilation: Speed 5+ to resist it.",
                kind="haunt", player=pid)
        effects.queue(ctx, pid, [{"do": "roll", "trait": "speed", "bands": [
            {"at_least": SUCK_TARGET, "then": []},
            {"at_most": SUCK_TARGET - 1, "then": [{"do": "h32_sucked"}]}]}], source="haunt", front=True)

    def next_slot(self, ctx):
        """The Sphere acts after the traitor's turn, even a dead traitor's:
        its move takes the place of the monster turn."""
        s = ctx.s
        if not s["haunt"].get("started"):
            return None
        turn = s["turn"]
        order = s["order"]
        current = hp.MONSTERS if turn.get("monsters") else turn["player"]
        i = order.index(current)
        for k in range(1, len(order) + 1):
            slot = order[(i + k) % len(order)]
            if slot == hp.MONSTERS:
                if sphere_tile(ctx) and holder(ctx):
                    return self.sphere_turn(ctx, turn["number"] + 1)
                continue
            if s["players"][slot]["alive"]:
                turns.begin_turn(ctx, slot, turn["number"] + 1)
                return True
        hp.check_wins(ctx)
        return True

    def sphere_turn(self, ctx, number):
        s = ctx.s
        who = holder(ctx)
        turn = st.new_turn(who, number)
        turn.update({"monsters": True, "moves": {}, "acted": [], "attacked": [], "stunned_at_start": []})
        s["turn"] = turn
        ctx.say(f"Turn {number}: the Sphere of Annihilation moves ({ctx.name(who)} holds the Talisman).",
                kind="turn", player=who)
        effects.queue(ctx, who, [{"do": "h32_sphere"}, {"do": "h32_end"}], source="haunt")
        return True

    def leaving(self, ctx, pid, tile):
        """Moving Through the Wreckage: a 3+ roll in a trait the mover picks."""
        if not bd.face_down(ctx.s["board"], tile):
            return None
        steps = [{"do": "choose", "options": [
            {"label": f"Roll {t.capitalize()} to leave the wreckage", "then": [{"do": "roll", "trait": t, "bands": [
                {"at_least": WRECK_TARGET, "then": []},
                {"at_most": WRECK_TARGET - 1, "then": [{"do": "h32_wreck_fail", "trait": t}]}]}]} for t in TRAITS]}]
        effects.queue(ctx, pid, steps, source="haunt", front=True)
        return None

    def steal_instead(self, ctx, attacker, loser, amount, distance):
        if distance or mine(ctx)["holder"] != loser:
            return None
        return [{"label": "Steal the Talisman of the Sphere", "steps": [{"do": "h32_steal", "from": loser}]}]

    def death(self, ctx, pid, killer):
        if mine(ctx)["holder"] == pid:
            mine(ctx)["holder"] = None
            tk.place(ctx.s, TALISMAN, ctx.s["players"][pid]["tile"])
            ctx.say(f"The Talisman of the Sphere falls from {ctx.name(pid)}'s hand.", kind="haunt")

    def win_check(self, ctx):
        s = ctx.s
        if mine(ctx)["merged"]:
            return ("heroes", "The Sphere and the Talisman have destroyed each other.", "merge")
        living = hp.alive(s, hp.heroes(s))
        if len(living) == 1 and holder(ctx) == living[0] and hp.traitors(s):
            return ("heroes", f"{ctx.name(living[0])} is the last hero alive and holds the Talisman.",
                    "last hero with the Talisman")
        return None

    own = OWN
    moves = (
        rulesets.Move("merge", "Merge the Talisman with the Sphere", lambda ctx, pid, trait: merge(ctx, pid, trait),
                      traits=("knowledge",), who="heroes", once_per_turn=True,
                      summary="Holding the Talisman on the Sphere's tile, Knowledge 5+ destroys both and wins; "
                              "otherwise the Sphere throws you 1 tile away."),
        rulesets.Move("climb", "Climb to the other level", lambda ctx, pid, trait: climb(ctx, pid, trait),
                      traits=("speed", "might"), once_per_turn=True,
                      summary="Once a tile is annihilated: Speed 3+ down from the city, Might 3+ up from the "
                              "catacombs, to an annihilated tile of the other level; a failure still lands, hurt."),
        rulesets.Move("pickup", "Pick up the Talisman", lambda ctx, pid, trait: pick_up(ctx, pid),
                      summary="Takes the Talisman of the Sphere lying on your tile."),
    )

    def haunt_goals(self, ctx, pid):
        """The heroes go for the Talisman (its holder, or where it lies),
        then for the Sphere with it; the traitor keeps the Talisman away from
        the heroes and hunts them."""
        s = ctx.s
        who = holder(ctx)
        lying = {t["tile"] for t in s["tokens"] if t["name"] == TALISMAN}
        if pid in hp.traitors(s):
            return lying or None
        if who == pid:
            return {sphere_tile(ctx)} if sphere_tile(ctx) else set()
        if lying:
            return lying
        if who and who in hp.traitors(s):
            return {s["players"][who]["tile"]}
        return None


@effects.step("h32_end")
def _end(ctx, task, item):
    hp.end_monster_turn(ctx)
