"""Haunt 34, Two Heads Are Worse Than One (Secrets of Survival first; the
Traitor's Tome for each hero who turns).

What the bot carries out:
- Setup: the Obstacle tokens in reserve (as many as adventurers, data); the
  Executioner's Block, when missing, taken from the street stack and joined
  to the open door nearest the Elfsong Tavern of any kind (the haunt
  revealer picks among equally near doors), the stack shuffled; every hero's
  Speed and Sanity mended to their start (data).
- Each two-headed hero's struggle at the start of their turn: the player on
  their right rolls 4 dice of Sanity, +1 for each traitor (8 at most), against
  the hero's Sanity. Losing costs 1 Sanity, the bot walks the hero their
  Speed along the shortest way to the Executioner's Block and the turn ends;
  losing it on the Block instead takes an Obstacle off it, or with none left
  the evil head takes over there. Winning on the Kitchen opens the declared
  move `chop` (Might 4+, +1 die per sane hero there): the evil head is cut
  off.
- Turning traitor: the sane head lost on the Block, to a traitor's beheading,
  or Sanity reaching the skull (the hero stays at 1 step above it): the new
  traitor joins the traitors' side, reads the Tome alone, and keeps their
  place in the order of play.
- Beheading: an attack made with the Berserker Axe, Book of Spells,
  Crossbow, Explosive Runes, Javelin of Lightning, Necklace of Fireballs or
  Ring of the Ram on a two-headed hero that would deal 2 or more physical
  damage cuts off a head instead: the evil one for a sane hero's blow, the
  sane one for a traitor's. Who may attack whom: traitors attack every hero;
  two-headed heroes attack traitors; sane heroes attack traitors, and
  two-headed heroes while they hold one of those weapons.
- The Block: the declared moves `sabotage` (a sane hero, once a turn, Speed
  4+: an Obstacle from the reserve onto it) and `fix` (a traitor, once a
  turn, Speed 3+: an Obstacle off it, back to the reserve).
- The wins: most living adventurers with only an evil head (the traitors);
  most with only a sane head (the heroes); a tie plays on.

Left to the players: nothing.
"""
from .. import attack, effects, hooks, rng, rulesets
from .. import board as bd
from .. import haunt_play as hp
from .. import moves
from .. import state as st
from .. import tokens as tk
from .. import traits as tr
from ..errors import IllegalAction
from ..geometry import distances, moves_from

KEY = "h34"
BLOCK = "executioners_block"
KITCHEN = "kitchen"
ELFSONG = "elfsong_tavern"
OBSTACLE = "Obstacle"
RESERVE = "Sabotage tokens in reserve"
BEHEADERS = ("berserker_axe", "book_of_spells", "crossbow", "explosive_runes", "javelin_of_lightning",
             "necklace_of_fireballs", "ring_of_the_ram")
STRUGGLE_DICE = 4
CHOP_TARGET, SABOTAGE_TARGET, FIX_TARGET = 4, 4, 3


OWN = rulesets.Own(KEY, {"sane": []}, players=("sane",))


def mine(s: dict) -> dict:
    """This haunt's own record: the heroes left with only their sane head."""
    return rulesets.REGISTRY[34].record(s)


def sane(s: dict) -> list[str]:
    """The heroes left with only their sane head."""
    return list((s["haunt"].get(KEY) or {}).get("sane", []))


def two_headed(s: dict, pid: str) -> bool:
    return pid not in hp.traitors(s) and pid not in sane(s)


def obstacles(s: dict) -> list[dict]:
    return [t for t in s["tokens"] if t["name"] == OBSTACLE and t["tile"] == BLOCK]


def beheading_weapon(s: dict, pid: str) -> bool:
    return any(c in BEHEADERS for c in s["players"][pid]["cards"])


def make_traitor(ctx, pid: str, why: str):
    """Traitor's Tome, haunt 34: "Right Now". Ruling: the order of play
    stays as it was; the new traitor plays in their seat."""
    s, h = ctx.s, ctx.s["haunt"]
    if pid in h["traitors"]:
        return
    record = mine(s)
    if pid in record["sane"]:
        record["sane"].remove(pid)
    h["traitors"].append(pid)
    ctx.say(f"{ctx.who(pid)} {why}: only the evil head is left, and they are a traitor now.", kind="haunt",
            traitors=list(h["traitors"]))
    for text in hp.rules_texts(ctx, ctx.c.haunts[h["number"]], pid):
        ctx.say(text, kind="secret_rules", to=pid)
    if s["players"][pid]["traits"]["sanity"] == 0:
        s["players"][pid]["traits"]["sanity"] = 1
    hooks.fire("traitor_named", ctx, pid)


def make_sane(ctx, pid: str, why: str):
    record = mine(ctx.s)
    if pid not in record["sane"]:
        record["sane"].append(pid)
    ctx.say(f"{ctx.name(pid)} {why}: the evil head is off, and they fight on with their sane head alone.",
            kind="haunt", player=pid)


@effects.step("h34_struggle")
def _struggle(ctx, task, item):
    """Secrets of Survival, haunt 34, "You Must Do This at the Start of Your
    Turn". Ruling: a tie keeps the hero in control, as a tied attack hurts
    nobody."""
    s = ctx.s
    pid = task["player"]
    if not two_headed(s, pid) or not s["players"][pid]["alive"]:
        return
    right = st.left_of(s, pid, -1)
    dice = min(rng.MAX_DICE, STRUGGLE_DICE + len(hp.alive(s, hp.traitors(s))))
    ctx.say(f"{ctx.name(pid)} wrestles the evil head for control ({ctx.name(right)} rolls its {dice} dice).",
            kind="haunt", player=pid)
    a = effects.make_roll(ctx, right, rng.dice_count(dice), f"Sanity {dice} for {ctx.name(pid)}'s evil head",
                          kind="contest")
    d = attack.defence_roll(ctx, pid, "sanity", ctx.value(pid, "sanity"))
    here = s["players"][pid]["tile"]
    if d >= a:
        ctx.say(f"{ctx.name(pid)} keeps control.", kind="haunt", player=pid)
        if here == KITCHEN:
            s["turn"]["h34_kitchen"] = True
            ctx.say(f"On the Kitchen, {ctx.name(pid)} may try to cut off the evil head: {{move:chop}}.",
                    kind="haunt", player=pid)
        return
    if here == BLOCK:  # Secrets of Survival, haunt 34, "Losing Your Head"
        blocks = obstacles(s)
        if blocks:
            tk.remove(s, blocks[0])
            s["haunt"]["counters"][RESERVE] = s["haunt"]["counters"].get(RESERVE, 0) + 1
            ctx.say(f"The evil head takes control and pulls an Obstacle off the Executioner's Block "
                    f"({len(blocks) - 1} left).", kind="haunt")
        else:
            make_traitor(ctx, pid, "lays their sane head on the Executioner's Block")
        effects.push_front(ctx, [{"do": "_end_turn"}])
        return
    ctx.say(f"The evil head takes control of {ctx.name(pid)}.", kind="haunt", player=pid)
    tr.change(ctx, pid, "sanity", -1)
    effects.push_front(ctx, [{"do": "h34_walk"}, {"do": "_end_turn"}])


@effects.step("h34_walk")
def _walk(ctx, task, item):
    """The evil head walks its body along the shortest way to the Block.
    Ruling: up to the hero's Speed in spaces, tile by tile, with nothing
    explored and no tile text read; no way there, no walk."""
    s = ctx.s
    pid = task["player"]
    p = s["players"][pid]
    if not p["alive"] or BLOCK not in s["board"] or not st.on_board(p):
        return
    to_block = distances(ctx, BLOCK)
    left = moves.allowance(ctx, pid)
    path = []
    while p["tile"] != BLOCK and left > 0:
        steps = [(to_block.get(t, 99), cost, t) for t, cost in moves_from(ctx, p["tile"]) if cost <= left]
        steps = [x for x in steps if x[0] < to_block.get(p["tile"], 99)]
        if not steps:
            break
        _, cost, t = min(steps)
        p["tile"], p["half"] = t, None
        left -= cost
        path.append(t)
    if path:
        ctx.say(f"{ctx.name(pid)}'s evil head marches them toward the Executioner's Block: "
                + ", ".join(ctx.tile_name(t) for t in path) + ".", kind="move", player=pid, tile=path[-1])


@effects.step("h34_chopped")
def _chopped(ctx, task, item):
    make_sane(ctx, task["player"], "cuts off their own evil head in the Kitchen")


@effects.step("h34_sabotaged")
def _sabotaged(ctx, task, item):
    s = ctx.s
    counters = s["haunt"]["counters"]
    if counters.get(RESERVE, 0) <= 0:
        return
    counters[RESERVE] -= 1
    tk.place(s, OBSTACLE, BLOCK)
    ctx.say(f"{ctx.name(task['player'])} jams the Executioner's Block: {len(obstacles(s))} Obstacle(s) on it.",
            kind="haunt")


@effects.step("h34_fixed")
def _fixed(ctx, task, item):
    s = ctx.s
    blocks = obstacles(s)
    if not blocks:
        return
    tk.remove(s, blocks[0])
    s["haunt"]["counters"][RESERVE] = s["haunt"]["counters"].get(RESERVE, 0) + 1
    ctx.say(f"{ctx.name(task['player'])} clears an Obstacle off the Executioner's Block ({len(blocks) - 1} left).",
            kind="haunt")


@effects.decision("h34_block_door")
def _decide_block_door(ctx, pending, index):
    hp.attach_fetched(ctx, BLOCK, tuple(pending["data"]["doors"][index]))


@effects.step("h34_fetch_block")
def _fetch_block(ctx, task, item):
    doors = block_doors(ctx)
    if not doors:
        ctx.say("Setup: no open door can take the Executioner's Block; it stays out of play.", kind="haunt_setup")
        return
    if len(doors) == 1:
        hp.attach_fetched(ctx, BLOCK, doors[0])
        return
    effects.ask(ctx, task["player"], "h34_block_door", "which open door, equally near the Elfsong Tavern, does the "
                "Executioner's Block join?", [f"The {ctx.tile_name(t)}'s {side} door" for t, side, _ in doors],
                doors=[list(d) for d in doors])


def block_doors(ctx) -> list[tuple[str, str, int]]:
    """Secrets of Survival, haunt 34, "Right Now": the open city doors of
    any kind nearest the Elfsong Tavern that the Block can join."""
    s = ctx.s
    near = distances(ctx, ELFSONG) if ELFSONG in s["board"] else {}
    found = []
    for placed, side in bd.open_doorways(ctx.c, s["board"], "city"):
        fits = moves.placements(ctx, BLOCK, bd.neighbour_square(s["board"][placed], side), bd.OPPOSITE[side])
        if fits:
            found.append((near.get(placed, 99), placed, side, sorted(fits, key=lambda o: (o[2], -o[1]))[0][0]))
    if not found:
        return []
    best = min(f[0] for f in found)
    return sorted([(p, sd, r) for d, p, sd, r in found if d == best], key=lambda x: (ctx.tile_name(x[0]), x[1]))


def chop(ctx, pid: str):
    """Secrets of Survival, haunt 34, "Losing Your Head" (the Kitchen)."""
    s = ctx.s
    if not two_headed(s, pid) or not s["turn"].get("h34_kitchen") or s["players"][pid]["tile"] != KITCHEN:
        raise IllegalAction("A two-headed hero who began the turn on the Kitchen and won the struggle may try this.")
    helpers = sum(1 for p in hp.alive(s, sane(s)) if p != pid and st.together(s, p, pid))
    effects.queue(ctx, pid, [{"do": "roll", "trait": "might", "extra_dice": helpers, "bands": [
        {"at_least": CHOP_TARGET, "then": [{"do": "h34_chopped"}]},
        {"at_most": CHOP_TARGET - 1, "then": []}]}], source="haunt", front=True)


def sabotage(ctx, pid: str):
    """Secrets of Survival, haunt 34, "Sabotaging the Executioner's Block"."""
    s = ctx.s
    if pid not in sane(s) or s["players"][pid]["tile"] != BLOCK:
        raise IllegalAction("A sane hero on the Executioner's Block may sabotage it.")
    if s["haunt"]["counters"].get(RESERVE, 0) <= 0:
        raise IllegalAction("No Obstacle token is left beside the board.")
    effects.queue(ctx, pid, [{"do": "roll", "trait": "speed", "bands": [
        {"at_least": SABOTAGE_TARGET, "then": [{"do": "h34_sabotaged"}]},
        {"at_most": SABOTAGE_TARGET - 1, "then": []}]}], source="haunt", front=True)


def fix(ctx, pid: str):
    """Traitor's Tome, haunt 34, "Fixing the Executioner's Block"."""
    s = ctx.s
    if s["players"][pid]["tile"] != BLOCK or not obstacles(s):
        raise IllegalAction("A traitor on the Executioner's Block with an Obstacle on it may fix it.")
    effects.queue(ctx, pid, [{"do": "roll", "trait": "speed", "bands": [
        {"at_least": FIX_TARGET, "then": [{"do": "h34_fixed"}]},
        {"at_most": FIX_TARGET - 1, "then": []}]}], source="haunt", front=True)


@rulesets.register(34)
class TwoHeads(rulesets.RuleSet):
    title = "Two Heads Are Worse Than One"

    def setup_step(self, ctx, step):
        s = ctx.s
        text = step.get("text", "")
        if step.get("do") != "manual":
            return None
        if "Executioner's Block is missing" in text:
            s["haunt"]["kind"] = "several_traitors"  # the sides are drawn as heroes turn (nobody yet)
            mine(s)
            ctx.say("Setup: everyone is a two-headed hero. On the Kitchen after winning your struggle: {move:chop}. "
                    "A sane hero on the Executioner's Block: {move:sabotage}; a traitor there: {move:fix}.",
                    kind="haunt_setup")
            if BLOCK not in s["board"]:
                effects.queue(ctx, hp.chooser(s, "heroes"), [{"do": "h34_fetch_block"}], source="haunt")
            return True
        return True  # the traitor's Right Now waits for each new traitor (make_traitor)

    def turn_started(self, ctx, pid):
        if two_headed(ctx.s, pid):
            effects.queue(ctx, pid, [{"do": "h34_struggle"}], source="haunt")

    def skull_spared(self, ctx, pid, trait):
        """Secrets of Survival, haunt 34, "Sanity Spill"."""
        s = ctx.s
        if trait != "sanity" or pid in hp.traitors(s):
            return None
        make_traitor(ctx, pid, "loses their mind")
        return True

    def opponents(self, ctx, pid):
        s = ctx.s
        if pid in hp.traitors(s):
            return [p for p in s["seats"] if p not in hp.traitors(s)]
        foes = list(hp.traitors(s))
        if pid in sane(s) and beheading_weapon(s, pid):
            foes += [p for p in s["seats"] if two_headed(s, p)]
        return foes

    def before_outcome(self, ctx, task, roll_off):
        """Both books, haunt 34, "Beheading"."""
        s = ctx.s
        attacker, defender = roll_off["attacker"], roll_off["defender"]
        if attacker not in s["players"] or defender not in s["players"] or not two_headed(s, defender) \
                or roll_off.get("weapon") not in BEHEADERS or roll_off["trait"] not in ("might", "speed") \
                or roll_off["attack"] - roll_off["defence"] < 2:
            return None
        if attacker in hp.traitors(s):
            ctx.say(f"{ctx.name(attacker)}'s blow cuts off {ctx.name(defender)}'s sane head!", kind="attack")
            make_traitor(ctx, defender, "is beheaded")
            return True
        if attacker in sane(s):
            ctx.say(f"{ctx.name(attacker)}'s blow cuts off {ctx.name(defender)}'s evil head!", kind="attack")
            make_sane(ctx, defender, "is beheaded")
            return True
        return None

    def win_check(self, ctx):
        s = ctx.s
        living = hp.alive(s, s["seats"])
        evil = hp.alive(s, hp.traitors(s))
        good = hp.alive(s, sane(s))
        if living and 2 * len(evil) > len(living):
            return "traitor", "Most of the living adventurers have only an evil head."
        if living and 2 * len(good) > len(living):
            return "heroes", "Most of the living adventurers have only a sane head."
        return None

    own = OWN
    moves = (
        rulesets.Move("chop", "Cut off the evil head", lambda ctx, pid, trait: chop(ctx, pid),
                      traits=("might",), who="heroes", once_per_turn=True,
                      summary="On the Kitchen after keeping control this turn: Might 4+, +1 die per sane hero "
                              "there; the evil head is off."),
        rulesets.Move("sabotage", "Sabotage the Executioner's Block", lambda ctx, pid, trait: sabotage(ctx, pid),
                      traits=("speed",), who="heroes", once_per_turn=True,
                      summary="A sane hero on the Executioner's Block: Speed 4+ puts an Obstacle from the reserve "
                              "on it."),
        rulesets.Move("fix", "Fix the Executioner's Block", lambda ctx, pid, trait: fix(ctx, pid),
                      traits=("speed",), who="traitors", once_per_turn=True,
                      summary="A traitor on the Executioner's Block: Speed 3+ takes an Obstacle off it."),
    )

    def haunt_goals(self, ctx, pid):
        """Two-headed heroes make for the Kitchen; sane heroes guard the Block
        while Obstacles are left to put there, then hunt heads; traitors
        clear the Block, then hunt two-headed heroes."""
        s = ctx.s
        heads = {s["players"][p]["tile"] for p in hp.alive(s, s["seats"]) if two_headed(s, p)
                 and st.on_board(s["players"][p])}
        if two_headed(s, pid):
            return {KITCHEN} if KITCHEN in s["board"] else None
        if pid in sane(s):
            if BLOCK in s["board"] and s["haunt"]["counters"].get(RESERVE, 0) > 0 and len(obstacles(s)) < 2:
                return {BLOCK}
            return heads if beheading_weapon(s, pid) and heads else None
        if BLOCK in s["board"] and obstacles(s):
            return {BLOCK}
        return heads or None
