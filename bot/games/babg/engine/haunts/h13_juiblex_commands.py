"""Haunt 13, Juiblex Commands (Traitor's Tome and Secrets of Survival).

What the bot carries out:
- Setup: the traitor's Might and Knowledge come back up to their starting
  values, then gain 2 each; the traitor picks as many tiles as there are
  heroes for the invisible Gelatinous Cubes (tiles without heroes while any
  is left), told to the traitor alone and kept out of every view.
- The monster turn comes every round, Cubes on the board or not, announced
  as any monster turn (Traitor's Tome, haunt 13: "Gelatinous Cube
  Movement", L1458). In it hidden Cubes creep up to 2 spaces each (the
  declared move `creep`: a hidden Cube's number and a way out, told to the
  traitor alone, so the heroes see a monster turn and nothing of what
  moved). A hero who enters a hidden Cube's tile, or on whose tile one
  creeps, reveals it: its token goes on the board and each hero there takes
  1 physical damage; the hero who walked in stops there; one revealed by
  creeping may then attack or go on with the rest of its 2 spaces in the
  same monster turn ("Revealing a Gelatinous Cube", L1478).
- Revealed Cubes move 2 spaces in the monster turn with no roll (data
  `moves`), pay nothing for heroes on their tile, and carry along the
  heroes stuck in them. A hero who enters a Cube's tile takes 1 physical
  damage and cannot leave it; at the start of a hero's turn there, Speed
  4+ moves the hero 1 tile away (then they move normally), else 1 physical
  damage and they stay.
- A hero who would stun a Cube destroys it and draws an item card; a hero
  killed by the traitor or a Cube gives the traitor 1 in a trait of their
  choice, the last hero's death too: the traitor's win waits for that gain.
- Wins: the traitor when every hero is dead (checked here, once Juiblex's
  blessing for the last death is taken), the heroes when the traitor is
  (data).

Left to the players: nothing the books print. The table sees that the
traitor notes tiles in secret at the setup, as at a real table, never which.
"""
from .. import cards as cd
from .. import board as bd
from .. import effects, rulesets
from .. import haunt_play as hp
from .. import moves
from .. import state as st
from .. import traits as tr
from ..errors import IllegalAction
from ..geometry import moves_from
from ..sides import heroes, traitors

CUBE = "Gelatinous Cube"
CREEP = 2  # spaces a Cube moves in a round
ESCAPE_TARGET = 4


# hidden Cubes by number and tile; "at": revealed Cubes' last tiles by monster id; "escaped": who tore free this
# turn; "feeding": the blessings (gains) still to be taken
OWN = rulesets.Own("h13", {"hidden": [], "at": {}, "escaped": None, "feeding": 0}, players=("escaped",), secret=True)


def mine(ctx) -> dict:
    return rulesets.REGISTRY[13].record(ctx.s)


def cubes(s: dict) -> list[dict]:
    return [m for m in s["monsters"] if m["name"] == CUBE and not m["dead"]]


def cube_here(s: dict, pid: str) -> dict | None:
    return next((m for m in cubes(s) if st.beside(s, pid, m)), None)


def heroes_on(s: dict, tile: str) -> list[str]:
    return [p for p in st.players_on(s, tile) if p in heroes(s)]


def blamed(mid: str | None, steps: list[dict]) -> list[dict]:
    """Damage a Cube deals: the Cube is its killer (Feeding on the Flesh of Heroes)."""
    return [{"do": "h13_blame", "monster": mid}, *steps, {"do": "_attack_over"}]


ENGULF = [{"do": "damage", "kind": "physical", "amount": 1}]


@effects.step("h13_fed")
def _fed(ctx, task, item):
    mine(ctx)["feeding"] = max(0, mine(ctx)["feeding"] - 1)


@effects.step("h13_blame")
def _blame(ctx, task, item):
    ctx.s["haunt"]["last_attacker"] = item["monster"]


# --- the secret paper ---------------------------------------------------------------------------

@effects.step("h13_hide")
def _hide(ctx, task, item):
    s = ctx.s
    taken = {c["tile"] for c in mine(ctx)["hidden"]}
    free = [t for t in s["board"] if t not in taken]
    apart = [t for t in free if not heroes_on(s, t)]
    tiles = sorted(apart or free, key=ctx.tile_name)
    if not tiles:
        return
    if item["left"] > 1:
        task["steps"].insert(0, {**item, "left": item["left"] - 1})
    number = item["of"] - item["left"] + 1
    effects.ask(ctx, task["player"], "h13_hide", f"which tile do you write on your secret paper ({number} of "
                f"{item['of']})?", [ctx.tile_name(t) for t in tiles], tiles=tiles, number=number)


@effects.decision("h13_hide")
def _decide_hide(ctx, pending, index):
    tile = pending["data"]["tiles"][index]
    number = pending["data"]["number"]
    mine(ctx)["hidden"].append({"n": number, "tile": tile, "left": CREEP})
    ctx.say(f"Hidden Gelatinous Cube {number} lies in wait on the {ctx.tile_name(tile)}.", kind="secret",
            to=pending["player"])


def reveal(ctx, hidden: dict, walked_in: str | None = None) -> dict:
    """Traitor's Tome, haunt 13: "Revealing a Gelatinous Cube"."""
    s = ctx.s
    mine(ctx)["hidden"].remove(hidden)
    ctx.say("Armour begins to sizzle: someone is half stuck in a gelatinous cube, an acid bath nobody lasts "
            "long in!", kind="haunt", tile=hidden["tile"])
    m = hp.add_monster(ctx, CUBE, hidden["tile"])
    mine(ctx)["at"][m["id"]] = hidden["tile"]
    if walked_in and s["turn"] and s["turn"]["player"] == walked_in:
        s["turn"]["stopped"] = True
    for pid in reversed(heroes_on(s, hidden["tile"])):
        effects.queue(ctx, pid, blamed(m["id"], ENGULF), source="haunt", front=True)
    return m


WAYS = (*bd.SIDES, "stairs", "grate")


def creep_way(ctx, tile: str, way: str) -> tuple[str | None, int]:
    """Where a hidden Cube on `tile` would creep going `way`, and the spaces it costs."""
    s = ctx.s
    here = ctx.c.tiles[tile]
    if way in bd.SIDES:
        return bd.exits(ctx.c, s["board"], tile).get(way), 1
    if way == "stairs" and here.stairs_to in s["board"]:
        return here.stairs_to, 1 + here.stairs_extra_cost
    if way == "grate" and here.sewer_grate and "catacomb_landing" in s["board"]:
        return "catacomb_landing", 1
    return None, 1


def creep(ctx, pid: str, number: int, way: str):
    """Traitor's Tome, haunt 13: "Gelatinous Cube Movement" (L1458: up to 2
    spaces in their monster turn) and "Revealing a Gelatinous Cube" (L1478:
    on a hero's tile it is revealed, then may attack or move on)."""
    s = ctx.s
    hidden = next((c for c in mine(ctx)["hidden"] if c["n"] == number), None)
    if hidden is None:
        raise IllegalAction(f"No hidden Gelatinous Cube {number}.")
    here = ctx.c.tiles[hidden["tile"]]
    dest, cost = creep_way(ctx, hidden["tile"], way)
    if dest is None:
        raise IllegalAction(f"Hidden Gelatinous Cube {hidden['n']} cannot go {way} from the {here.name}.")
    if cost > hidden["left"]:
        raise IllegalAction(f"Hidden Gelatinous Cube {hidden['n']} has {hidden['left']} of {CREEP} spaces left.")
    hidden["left"] -= cost
    hidden["tile"] = dest
    ctx.say(f"Hidden Gelatinous Cube {hidden['n']} creeps to the {ctx.tile_name(dest)}.", kind="secret", to=pid)
    if heroes_on(s, dest):
        m = reveal(ctx, hidden)
        s["turn"]["moves"][CUBE] = CREEP  # no roll: a Cube always has its 2 spaces
        m["moved"], m["moved_turn"] = CREEP - hidden["left"], s["turn"]["number"]  # the rest, and its attack, now


# --- a hero in a Cube ---------------------------------------------------------------------------

@effects.step("h13_escape")
def _escape(ctx, task, item):
    """Traitor's Tome, haunt 13: "You Must Do This at the
    Start of Each Hero's Turn": success moves the hero 1 tile away."""
    s = ctx.s
    pid = task["player"]
    mine(ctx)["escaped"] = {"player": pid, "turn": s["turn"]["number"]}
    tiles = sorted({t for t, _ in moves_from(ctx, s["players"][pid]["tile"])}, key=ctx.tile_name)
    if not tiles:
        ctx.say(f"{ctx.name(pid)} wriggles free but has nowhere to go.", kind="haunt", player=pid)
        return
    if len(tiles) == 1:
        slip_out(ctx, pid, tiles[0])
        return
    effects.ask(ctx, pid, "h13_escape", "which tile do you slip out to?", [ctx.tile_name(t) for t in tiles],
                tiles=tiles)


@effects.decision("h13_escape")
def _decide_escape(ctx, pending, index):
    slip_out(ctx, pending["player"], pending["data"]["tiles"][index])


def slip_out(ctx, pid: str, tile: str):
    ctx.say(f"{ctx.name(pid)} tears free of the Gelatinous Cube.", kind="haunt", player=pid)
    moves.arrive(ctx, pid, tile, None)


ESCAPE = [{"do": "roll", "trait": "speed", "bands": [
    {"at_least": ESCAPE_TARGET, "then": [{"do": "h13_escape"}]},
    {"at_most": ESCAPE_TARGET - 1, "then": ENGULF}]}]


@rulesets.register(13)
class JuiblexCommands(rulesets.RuleSet):
    title = "Juiblex Commands"
    secret = ("h13",)  # where the hidden Cubes wait

    def setup_step(self, ctx, step):
        if step.get("do") != "manual":
            return None
        s = ctx.s
        text = step.get("text", "")
        t = traitors(s)[0]
        mine(ctx)
        if "starting values" in text:
            tracks = ctx.c.adventurers[s["players"][t]["adventurer"]].tracks
            for trait in ("might", "knowledge"):
                if s["players"][t]["traits"][trait] < tracks[trait].start:
                    tr.change(ctx, t, trait, tracks[trait].start - s["players"][t]["traits"][trait])
        elif text.startswith("Gain 2"):
            tr.change(ctx, t, "might", 2)
            tr.change(ctx, t, "knowledge", 2)
        elif "Secretly write down" in text:
            count = len(heroes(s))
            ctx.say("Setup: in the monster turn, every round, hidden Gelatinous Cubes creep up to 2 spaces each: "
                    "{move:creep}. Revealed ones move 2 spaces in it, as monsters do.",
                    kind="haunt_setup", to="traitors")
            effects.queue(ctx, t, [{"do": "h13_hide", "left": count, "of": count}], source="haunt")
        return True  # the rest: each side reads its own book privately; the tokens wait off the board

    def next_slot(self, ctx):
        """Traitor's Tome, haunt 13: "Gelatinous Cube Movement" (L1458): the
        hidden Cubes move in their monster turn, so it comes every round,
        though no Cube is on the board yet."""
        s = ctx.s
        turn = s["turn"]
        if not s["haunt"].get("started") or turn.get("monsters") or not mine(ctx)["hidden"]:
            return None
        return hp.hold_monster_turn(ctx)

    def monster_turn(self, ctx, number):
        """Each hidden Cube has its 2 spaces again (L1458)."""
        for hidden in mine(ctx)["hidden"]:
            hidden["left"] = CREEP
        return None

    def turn_started(self, ctx, pid):
        s = ctx.s
        if pid not in heroes(s) or not st.on_board(s["players"][pid]):
            return None
        hidden = next((c for c in mine(ctx)["hidden"] if c["tile"] == s["players"][pid]["tile"]), None)
        m = reveal(ctx, hidden) if hidden else cube_here(s, pid)
        if m:
            ctx.say(f"{ctx.name(pid)} starts the turn inside a Gelatinous Cube: Speed {ESCAPE_TARGET}+ to tear free, "
                    "or 1 physical damage.", kind="haunt", player=pid)
            effects.queue(ctx, pid, blamed(m["id"], ESCAPE), source="haunt")
        return None

    def leave_blocked(self, ctx, pid):
        """Traitor's Tome, haunt 13: "Gelatinous Cubes Stop Hero Movement"."""
        s = ctx.s
        escaped = mine(ctx)["escaped"] or {}
        if pid not in heroes(s) or not cube_here(s, pid):
            return None
        if escaped.get("player") == pid and escaped.get("turn") == s["turn"]["number"]:
            return None
        return "You are stuck in a Gelatinous Cube: only the Speed roll at the start of your turn frees you."

    def entered(self, ctx, mover, tile):
        s = ctx.s
        if mover in s["players"]:
            if mover not in heroes(s):
                return None
            hidden = next((c for c in mine(ctx)["hidden"] if c["tile"] == tile), None)
            if hidden:  # "Revealing a Gelatinous Cube": on a hero turn
                reveal(ctx, hidden, walked_in=mover)
                return None
            m = cube_here(s, mover)
            if m:  # "Engulfed"
                ctx.say(f"{ctx.name(mover)} blunders into the Gelatinous Cube.", kind="haunt", player=mover)
                effects.queue(ctx, mover, blamed(m["id"], ENGULF), source="haunt", front=True)
            return None
        m = next((x for x in cubes(s) if x["id"] == mover), None)
        if m is None:
            return None
        old = mine(ctx)["at"].get(m["id"])
        mine(ctx)["at"][m["id"]] = tile
        for pid in (heroes_on(s, old) if old and old != tile else []):  # "Gelatinous Cube Movement"
            moves.place_on(ctx, pid, tile, verb="is carried along inside the Gelatinous Cube to", stop=False)
        return None

    def monster_leave_cost(self, ctx, m):
        """Traitor's Tome, haunt 13: "Gelatinous Cube Movement" (no movement limits)."""
        if m["name"] != CUBE:
            return None
        return -len([p for p in heroes(ctx.s) if st.beside(ctx.s, p, m)])

    def monster_hurt(self, ctx, m, kind, amount):
        """Traitor's Tome, haunt 13: "Destroying a Gelatinous Cube"."""
        s = ctx.s
        hero = s["haunt"].get("last_attacker")
        if m["name"] != CUBE or hero not in heroes(s):
            return None
        m["dead"] = True
        ctx.say(f"{ctx.name(hero)} bursts {st.monster_called(m)} apart and finds an item in the slime.",
                kind="monster", monster=m["id"])
        cd.draw(ctx, hero, "item")
        return True

    def death(self, ctx, pid, killer):
        """Traitor's Tome, haunt 13: "Feeding on the Flesh of Heroes"."""
        s = ctx.s
        t = traitors(s)[0]
        by_cube = any(m["id"] == killer and m["name"] == CUBE for m in s["monsters"])
        if pid in heroes(s) and (killer == t or by_cube) and s["players"][t]["alive"]:
            ctx.say("Juiblex's blessing courses through the traitor.", kind="haunt")
            mine(ctx)["feeding"] += 1  # the traitor's win waits for it (see win_check)
            effects.queue(ctx, t, [{"do": "gain", "traits": "any", "amount": 1}, {"do": "h13_fed"}],
                          source="haunt", front=True)

    def win_check(self, ctx):
        """Traitor's Tome, haunt 13: "You Win When..." and "Feeding on the
        Flesh of Heroes": every hero dead is the traitor's win, once the
        blessing of the last death is taken (the gain comes with the kill)."""
        s = ctx.s
        if not heroes(s) or hp.alive(s, heroes(s)):
            return None
        if mine(ctx)["feeding"] and hp.alive(s, traitors(s)):
            return None
        return "traitor", "Every hero has been killed.", "all_heroes_dead"

    def haunt_goals(self, ctx, pid):
        """The heroes go after the traitor (the Cubes only trap them); the
        traitor hunts the heroes (no goal: the built-in player chases them)."""
        s = ctx.s
        if pid not in heroes(s):
            return None
        return {s["players"][t]["tile"] for t in hp.alive(s, traitors(s)) if st.on_board(s["players"][t])}

    own = OWN
    moves = (
        rulesets.Move("creep", "Creep a hidden Gelatinous Cube",
                      lambda ctx, pid, trait, number, way: creep(ctx, pid, number, way),
                      who="traitors", when="monster_turn", args=(
                          rulesets.Arg("number", lambda ctx, pid: sorted(c["n"] for c in mine(ctx)["hidden"]),
                                       "Which hidden Cube?"),
                          rulesets.Arg("way", lambda ctx, pid: list(WAYS), "Which way?")),
                      summary="In the monster turn, move a hidden Cube up to 2 spaces in all, in secret; onto a "
                              "hero's tile it is revealed and engulfs them, then may attack or move on."),
    )
