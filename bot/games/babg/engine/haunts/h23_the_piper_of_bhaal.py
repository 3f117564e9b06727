"""Haunt 23, The Piper of Bhaal (Traitor's Tome and Secrets of Survival; the
revealer is the traitor).

What the bot carries out: the traitor's traits mended to their starting
values and 1 gained per hero in a trait they choose; the Rat Swarms (twice
the heroes) placed by the traitor, away from heroes and from each other while
a tile allows (the data's chosen placement); every hero starting enthralled;
an enthralled hero's Knowledge 4+ roll as their turn starts (they stand up
either way; a failure loses the turn); the Piper's music (the declared move
`pipe`, in place of the turn's attack, at a hero within 2 tiles: the
hero rolls Knowledge 4+ or is enthralled); Calling the Rats (the declared move
`call`, before moving: 1 die, that many unstunned Rat Swarms within 2 tiles, which
go along with the Piper and are put down on her tile); the Rat Swarms' own
moves (up to 2 spaces, no roll, heroes never slowing them), no normal
attacks, and the bite offered each time one is about to leave a tile with
heroes (an enthralled hero defending with half their Might dice); both wins
(in the data).

Left to the players: nothing.
"""
from .. import effects, hooks, rng, rulesets
from .. import haunt_play as hp
from .. import state as st
from .. import traits as tr
from ..content import TRAITS
from ..errors import IllegalAction
from ..geometry import distances

RAT = "Rat Swarm"
RAT_MOVES = 2  # spaces, no roll
REACH = 2  # tiles, for the music and for calling the rats
TARGET = 4


OWN = rulesets.Own("h23", {"enthralled": [], "carried": []}, players=("enthralled",))  # carried: Rat Swarm ids


def mine(ctx) -> dict:
    return rulesets.REGISTRY[23].record(ctx.s)


def rat(ctx, mid: str) -> dict | None:
    return next((m for m in ctx.s["monsters"] if m["id"] == mid and m["name"] == RAT and not m["dead"]), None)


def near(ctx, tile: str) -> dict[str, int]:
    return distances(ctx, tile, doors_only=True)


def heroes_beside(ctx, m: dict) -> list[str]:
    s = ctx.s
    return [h for h in hp.alive(s, hp.heroes(s)) if st.beside(s, h, m)]


def enthral(ctx, pid: str):
    if pid not in mine(ctx)["enthralled"]:
        mine(ctx)["enthralled"].append(pid)
    ctx.say(f"{ctx.name(pid)} falls under the Piper's spell: their figure is laid on its side (enthralled).",
            kind="haunt", player=pid)


@effects.step("h23_enthral")
def _enthral(ctx, task, item):
    enthral(ctx, task["player"])


@effects.step("h23_shrug")
def _shrug(ctx, task, item):
    ctx.say(f"{ctx.name(task['player'])} shakes off the music.", kind="haunt")


@effects.step("h23_turn_lost")
def _turn_lost(ctx, task, item):
    """Secrets of Survival, haunt 23: "You Must Do This at the Start of Your
    Turn" (a failure loses the turn)."""
    ctx.say(f"{ctx.name(task['player'])} stands up, still dazed: the turn is lost.", kind="haunt")
    effects.push_front(ctx, [{"do": "_end_turn"}])


def knowledge_check(fail: list[dict], passed: list[dict]) -> list[dict]:
    return [{"do": "roll", "trait": "knowledge", "bands": [
        {"at_least": TARGET, "then": passed}, {"at_most": TARGET - 1, "then": fail}]}]


# --- the Piper's actions ----------------------------------------------------------------------

def pipe(ctx, pid: str, words: str):
    """Traitor's Tome, haunt 23: "Special Attack Rules" (instead of
    attacking, a hero within 2 tiles rolls Knowledge 4+ or is enthralled)."""
    s = ctx.s
    turn = s["turn"]
    if pid not in hp.traitors(s):
        raise IllegalAction("Only the Piper plays the pipes.")
    if turn.get("attacked"):
        raise IllegalAction("You have already attacked this turn; the music takes the place of the attack.")
    reach = near(ctx, s["players"][pid]["tile"])
    targets = [h for h in hp.alive(s, hp.heroes(s)) if st.on_board(s["players"][h])
               and reach.get(s["players"][h]["tile"], 99) <= REACH]
    named = [h for h in hp.heroes(s) if words in (h, s["players"][h]["name"].lower())] if words else targets
    if not named:
        raise IllegalAction(f"Nobody called '{words}' is a hero.")
    if named[0] not in targets:
        raise IllegalAction(f"{ctx.name(named[0])} is not within {REACH} tiles of you.")
    if not words and len(targets) != 1:
        raise IllegalAction("Name the hero.")
    hero = named[0]
    turn["attacked"] = True
    ctx.say(f"{ctx.name(pid)} plays the Dance of the Starving Rats at {ctx.name(hero)}: Knowledge 4+ or be "
            "enthralled.", kind="haunt")
    effects.queue(ctx, hero, knowledge_check([{"do": "h23_enthral"}], [{"do": "h23_shrug"}]), source="haunt",
                  front=True)


def call(ctx, pid: str):
    """Traitor's Tome, haunt 23: "Calling the Rats" (before moving)."""
    s = ctx.s
    turn = s["turn"]
    if pid not in hp.traitors(s):
        raise IllegalAction("Only the Piper calls the rats.")
    if "task:call" in turn["rolls"]:
        raise IllegalAction("You have already called the rats this turn.")
    if turn["moved"] or turn["stopped"]:
        raise IllegalAction("The rats are called before you move.")
    turn["rolls"].append("task:call")
    effects.queue(ctx, pid, [{"do": "h23_call"}], source="haunt", front=True)


def callable_rats(ctx, pid: str) -> list[dict]:
    s = ctx.s
    reach = near(ctx, s["players"][pid]["tile"])
    return [m for m in s["monsters"] if m["name"] == RAT and not m["dead"] and not m["stunned"]
            and reach.get(m["tile"], 99) <= REACH and m["id"] not in mine(ctx)["carried"]]


@effects.step("h23_call")
def _call(ctx, task, item):
    pid = task["player"]
    n = effects.make_roll(ctx, pid, 1, "to call the rats")
    found = callable_rats(ctx, pid)
    if n >= len(found):
        for m in found:
            pick_up(ctx, pid, m)
        if not found:
            ctx.say("No Rat Swarm answers the call.", kind="haunt")
        return
    task["steps"][0:0] = [{"do": "h23_pick"}] * n


@effects.step("h23_pick")
def _pick(ctx, task, item):
    found = callable_rats(ctx, task["player"])
    effects.ask(ctx, task["player"], "h23_pick", "which Rat Swarm comes to the pipes?",
                [f"{st.monster_called(m)} ({ctx.tile_name(m['tile'])})" for m in found],
                rats=[m["id"] for m in found])


@effects.decision("h23_pick")
def _decide_pick(ctx, pending, index):
    pick_up(ctx, pending["player"], rat(ctx, pending["data"]["rats"][index]))


def pick_up(ctx, pid: str, m: dict):
    mine(ctx)["carried"].append(m["id"])
    m["tile"], m["half"] = ctx.s["players"][pid]["tile"], ctx.s["players"][pid]["half"]
    ctx.say(f"{st.monster_called(m)} swarms to the Piper and goes where she goes this turn.", kind="monster",
            monster=m["id"], tile=m["tile"])


# --- the Rat Swarms' bite -----------------------------------------------------------------------

@effects.step("h23_bite")
def _bite(ctx, task, item):
    """Traitor's Tome, haunt 23: "Special Rat Swarm Attack Rules" (as it is
    about to leave a tile with heroes, it may attack one of them)."""
    m = rat(ctx, item["monster"])
    targets = heroes_beside(ctx, m) if m and not m["stunned"] else []
    if not targets:
        return
    effects.ask(ctx, task["player"], "h23_bite", f"{st.monster_called(m)} leaves the "
                f"{ctx.tile_name(m['tile'])}: bite a hero on the way out?",
                [f"Bite {ctx.name(h)}" for h in targets] + ["Leave them be"], monster=m["id"], targets=targets)


@effects.decision("h23_bite")
def _decide_bite(ctx, pending, index):
    targets = pending["data"]["targets"]
    if index < len(targets):
        bite(ctx, rat(ctx, pending["data"]["monster"]), targets[index])


def bite(ctx, m: dict, hero: str):
    s = ctx.s
    ctx.say(f"{st.monster_called(m)} bites at {ctx.name(hero)} (Might).", kind="attack")
    a = effects.make_roll(ctx, hp.controller(s), rng.dice_count(m["traits"]["might"]),
                          f"Might for {st.monster_called(m)}", kind="contest")
    dice = ctx.value(hero, "might")
    if hero in mine(ctx)["enthralled"]:
        dice //= 2  # Ruling: half the Might dice, rounded down, never fewer than 1
        ctx.say(f"{ctx.name(hero)} is enthralled and defends with half their Might dice.", kind="attack")
    d = effects.make_roll(ctx, hero, rng.dice_count(dice), "Might to defend", trait="might", kind="defence")
    s["haunt"]["last_attacker"] = m["id"]
    effects.queue(ctx, hero, [{"do": "_roll_off", "attacker": m["id"], "defender": hero, "trait": "might",
                               "attack": a, "defence": d, "distance": False, "weapon": None, "asked": []},
                              {"do": "_attack_over"}], source="attack", front=True)


@rulesets.register(23)
class PiperOfBhaal(rulesets.RuleSet):
    title = "The Piper of Bhaal"

    def setup_step(self, ctx, step):
        """Traitor's Tome and Secrets of Survival, haunt 23: "Right Now"."""
        s = ctx.s
        text = step.get("text", "")
        if "stays in play" in text:
            return True
        if "starting value" in text:
            pid = hp.traitors(s)[0]
            tracks = ctx.c.adventurers[s["players"][pid]["adventurer"]].tracks
            for trait in TRAITS:
                below = tracks[trait].start - s["players"][pid]["traits"][trait]
                if below > 0:
                    tr.change(ctx, pid, trait, below)
            effects.queue(ctx, pid, [{"do": "gain", "traits": "any", "amount": 1}] * len(hp.heroes(s)),
                          source="haunt")
            ctx.say("Setup: before you move, {move:call} calls the rats; in place of an attack, {move:pipe} plays "
                    "at a hero within 2 tiles. Rat Swarms bite when they leave a tile "
                    "with heroes: the bot asks you.", kind="haunt_setup", to="traitors")
            return True
        if "on its side" in text:
            mine(ctx)["enthralled"] = hp.alive(s, hp.heroes(s))
            ctx.say("Setup: every hero's figure is laid on its side: the Piper's music has them enthralled.",
                    kind="haunt_setup")
            return True
        return None

    def turn_started(self, ctx, pid):
        """Secrets of Survival, haunt 23: "You Must Do This at the Start of Your
        Turn"; Traitor's Tome, haunt 23: "Special Attack Rules"."""
        if pid not in mine(ctx)["enthralled"]:
            return None
        mine(ctx)["enthralled"].remove(pid)
        ctx.say(f"{ctx.name(pid)} is enthralled: Knowledge 4+ to shake it off, or the turn is lost. The figure "
                "stands up either way.", kind="haunt", player=pid)
        effects.queue(ctx, pid, knowledge_check([{"do": "h23_turn_lost"}], []), source="haunt", front=True)
        return None

    def entered(self, ctx, mover, tile):
        """Traitor's Tome, haunt 23: "Calling the Rats" (the rats picked up go
        along with the Piper)."""
        if mover in hp.traitors(ctx.s):
            for mid in mine(ctx)["carried"]:
                m = rat(ctx, mid)
                if m:
                    m["tile"], m["half"] = tile, ctx.s["players"][mover]["half"]

    def turn_ending(self, ctx, pid):
        if pid in hp.traitors(ctx.s) and mine(ctx)["carried"]:
            tile = ctx.tile_name(ctx.s["players"][pid]["tile"])
            ctx.say(f"The rats the Piper called are put down on the {tile}.", kind="monster")
            mine(ctx)["carried"] = []
        return None

    def monster_turn(self, ctx, number):
        """Traitor's Tome, haunt 23: "Special Rat Swarm Movement Rules" (no
        roll: up to 2 spaces each)."""
        s = ctx.s
        boss = hp.controller(s)
        turn = st.new_turn(boss, number)
        rats = [m["id"] for m in s["monsters"] if m["name"] == RAT]  # no normal attacks: only bites on leaving
        turn.update({"monsters": True, "moves": {RAT: RAT_MOVES}, "acted": [], "attacked": rats})
        turn["stunned_at_start"] = [m["id"] for m in s["monsters"] if m["stunned"]]
        s["turn"] = turn
        ctx.say(f"Turn {number}: the monster turn ({ctx.name(boss)} moves the Rat Swarms, up to {RAT_MOVES} spaces "
                "each).", kind="turn", player=boss)
        return True

    def monster_leave_cost(self, ctx, m):
        """Heroes never slow a Rat Swarm ("ignoring any movement restrictions
        from heroes")."""
        return -len(heroes_beside(ctx, m)) if m["name"] == RAT else None

    def monster_attack(self, ctx, m, target, trait):
        if m["name"] == RAT:
            raise IllegalAction("Rat Swarms make no normal attacks: they bite as they leave a tile with heroes "
                                "(the bot asks then).")
        return None

    def watched(self, ctx, mover, tile):
        if getattr(ctx, "h23_watching", False):
            return None
        m = rat(ctx, mover)
        if m is None or m["stunned"] or not heroes_beside(ctx, m):
            return None
        ctx.h23_watching = True  # let the other watchers (the Eye of Vecna) answer too
        try:
            others = hooks.first("watched", ctx, mover, tile) or []
        finally:
            ctx.h23_watching = False
        return [{"do": "h23_bite", "monster": m["id"]}, *others]

    def haunt_goals(self, ctx, pid):
        """The heroes go for the Piper (her death is their win), not the rats;
        the Piper hunts."""
        s = ctx.s
        if pid not in hp.heroes(s):
            return None
        return {s["players"][t]["tile"] for t in hp.alive(s, hp.traitors(s)) if st.on_board(s["players"][t])} or None

    own = OWN
    moves = (
        rulesets.Move("call", "Call the rats", lambda ctx, pid, trait: call(ctx, pid), who="traitors",
                      summary="Before moving: 1 die, that many Rat Swarms within 2 tiles go along with the Piper."),
        rulesets.Move("pipe", "Play the pipes", lambda ctx, pid, trait, target: pipe(ctx, pid, target),
                      who="traitors", instead_of_attack=True,
                      args=(rulesets.Arg("player", lambda ctx, pid: hp.alive(ctx.s, hp.heroes(ctx.s)), "Which hero?"),),
                      summary="In place of an attack, a hero within 2 tiles rolls Knowledge 4+ or is enthralled."),
    )
