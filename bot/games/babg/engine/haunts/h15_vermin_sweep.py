"""Haunt 15, Vermin Sweep (Traitor's Tome and Secrets of Survival; the haunt
revealer is the traitor).

What the bot carries out:
- Setup: the Mansion fetched from the building stack when it is not in play,
  the heroes picking the door (data `fetch_tile`); the traitor's roll of one
  die per adventurer and that many Kobolds on the Kobold Hideout, again at
  the start of each of the traitor's turns (the pile never runs out: the
  book lets the traitor take more tokens).
- Kobold Traps: the declared move `trap`, once per turn, Speed 3+ puts a Kobold Trap
  on the hero's tile. A Kobold that starts the monster turn (stunned or not)
  on a tile with traps, or moves onto one, rolls 1 die: 2 trapped (set
  aside, counted), 1 stunned, 0 the trap breaks (one trap token goes; with
  the last one gone, the other Kobolds there roll no more).
- The mob attack: the declared move `mob` (a hero) in the monster turn, every Kobold
  on the hero's tile that can still attack adds its Might (8 dice at most);
  losing it, the damage is spread 1 to a Kobold, each stunned.
- At the end of the monster turn the Kobolds on the Mansion (stunned too)
  pillage it and leave the board, counted on the traitor's card.
- Wins (data counters): the traitor at twice the starting adventurers
  pillaging or every hero dead; the heroes at twice the starting adventurers
  trapped.

Left to the players: nothing the books print.
"""
from .. import attack, effects, rng, rulesets
from .. import haunt_play as hp
from .. import state as st
from .. import tokens as tk
from ..errors import IllegalAction
from ..sides import heroes, traitors

KOBOLD = "Kobold"
HIDEOUT, MANSION = "kobold_hideout", "mansion"
TRAP = "Kobold Trap"
TRAPPED, PILLAGED = "Kobolds trapped", "Kobolds at the Mansion"
TRAP_TARGET = 3
MOB = "haunt:mob"
MOST_DICE = 8

OWN = rulesets.Own("h15", {"mob": []})  # the Kobolds (monster ids) of the mob attack being resolved; no player ids


def mine(ctx) -> dict:
    return rulesets.REGISTRY[15].record(ctx.s)


def kobolds(s: dict, tile: str | None = None) -> list[dict]:
    return [m for m in s["monsters"] if m["name"] == KOBOLD and not m["dead"] and (tile is None or m["tile"] == tile)]


def traps(s: dict, tile: str) -> list[dict]:
    return [t for t in s["tokens"] if t["name"] == TRAP and t["tile"] == tile]


@effects.step("h15_spawn")
def _spawn(ctx, task, item):
    """Traitor's Tome, haunt 15: "Right Now" and "You Must Do This at the Start
    of Your Turn"."""
    s = ctx.s
    n = effects.make_roll(ctx, task["player"], rng.dice_count(len(s["seats"])), "for new Kobolds", kind="dice")
    tile = HIDEOUT if HIDEOUT in s["board"] else s["players"][traitors(s)[0]]["tile"]
    if tile not in s["board"]:
        return
    for _ in range(n):
        hp.add_monster(ctx, KOBOLD, tile)
    if not n:
        ctx.say("No Kobold crawls out of the hideout this time.", kind="haunt")


@effects.step("h15_traps")
def _traps(ctx, task, item):
    """Secrets of Survival, haunt 15: "Trapping a Kobold"."""
    s = ctx.s
    for mid in item["monsters"]:
        m = next((x for x in kobolds(s) if x["id"] == mid), None)
        if m is None or not traps(s, m["tile"]):
            continue
        face = effects.make_roll(ctx, task["player"], 1, f"the trap under Kobold {m['number']}", kind="dice")
        if face == 2:
            m["dead"] = True
            s["haunt"]["counters"][TRAPPED] = s["haunt"]["counters"].get(TRAPPED, 0) + 1
            ctx.say(f"Kobold {m['number']} is trapped and set aside ({s['haunt']['counters'][TRAPPED]} trapped).",
                    kind="monster", monster=m["id"])
        elif face == 1:
            attack.stun(ctx, m)
        else:
            tk.remove(s, traps(s, m["tile"])[0])
            ctx.say(f"The trap on the {ctx.tile_name(m['tile'])} fails and is gone.", kind="haunt", tile=m["tile"])


@effects.step("h15_trapped_at_start")
def _trapped_at_start(ctx, task, item):
    s = ctx.s
    caught = [m["id"] for m in kobolds(s) if traps(s, m["tile"])]
    if caught:
        effects.push_front(ctx, [{"do": "h15_traps", "monsters": caught}])


def traitor_alive(s: dict) -> bool:
    return any(s["players"][t]["alive"] for t in traitors(s))


@effects.step("h15_pillage")
def _pillage(ctx, task, item):
    """Traitor's Tome, haunt 15: "Reaching the Mansion"."""
    s = ctx.s
    raiders = kobolds(s, MANSION)
    if not raiders:
        return
    for m in raiders:
        m["dead"] = True
    counters = s["haunt"]["counters"]
    counters[PILLAGED] = counters.get(PILLAGED, 0) + len(raiders)
    ctx.say(f"{len(raiders)} Kobold{'s' if len(raiders) != 1 else ''} pillage the Mansion and vanish "
            f"({counters[PILLAGED]} in all).", kind="haunt", tile=MANSION)


def set_trap(ctx, pid: str):
    """Secrets of Survival, haunt 15: "Setting Kobold Traps"."""
    s = ctx.s
    tile = s["players"][pid]["tile"]
    effects.queue(ctx, pid, [{"do": "roll", "trait": "speed", "bands": [
        {"at_least": TRAP_TARGET, "then": [{"do": "place_token", "token": TRAP, "where": tile}]},
        {"at_most": TRAP_TARGET - 1, "then": []}]}], source="haunt", front=True)


def mob_targets(ctx, pid: str) -> list[str]:
    """The heroes on the board a mob may go after, in seat order."""
    s = ctx.s
    return [p for p in s["seats"] if p in heroes(s) and s["players"][p]["alive"] and st.on_board(s["players"][p])]


def mob(ctx, pid: str, target: str):
    """Traitor's Tome, haunt 15: "Special Kobold Mob Attack Rules"."""
    s = ctx.s
    turn = s["turn"]
    gang = [m for m in kobolds(s, s["players"][target]["tile"])
            if not m["stunned"] and m["id"] not in turn["attacked"] and st.beside(s, target, m)]
    if len(gang) < 2:
        raise IllegalAction("A mob needs two or more Kobolds on the hero's tile that have not attacked yet.")
    turn["attacked"] += [m["id"] for m in gang]
    mine(ctx)["mob"] = [m["id"] for m in gang]
    dice = min(MOST_DICE, sum(m["traits"]["might"] for m in gang))
    ctx.say(f"{len(gang)} Kobolds mob {ctx.name(target)}.", kind="attack")
    a = effects.make_roll(ctx, pid, dice, "Might for the Kobold mob", kind="contest")
    d = attack.defence_roll(ctx, target, "might", ctx.value(target, "might"))
    s["haunt"]["last_attacker"] = gang[0]["id"]
    effects.queue(ctx, target, [attack.roll_off(gang[0]["id"], target, "might", a, d, False), {"do": "_attack_over"}],
                  source=MOB, front=True)


@rulesets.register(15)
class VerminSweep(rulesets.RuleSet):
    title = "Vermin Sweep"

    def setup_step(self, ctx, step):
        if step.get("do") != "manual":
            return None
        s = ctx.s
        text = step.get("text", "")
        if text.startswith("Roll one die per adventurer"):
            effects.queue(ctx, traitors(s)[0], [{"do": "h15_spawn"}], source="haunt")
            ctx.say("Setup: new Kobolds come at the start of each of your turns. In the monster turn, two or more "
                    "Kobolds on a hero's tile: {move:mob}.", kind="haunt_setup", to="traitors")
        elif "Kobold Traps" in text:
            ctx.say("Setup: once per turn, {move:trap} (Speed 3+) puts a Kobold Trap on your tile.",
                    kind="haunt_setup", to="heroes")
        for counter in (TRAPPED, PILLAGED):
            s["haunt"]["counters"].setdefault(counter, 0)
            s["haunt"].setdefault("counter_start", {}).setdefault(counter, 0)
        return True

    def turn_started(self, ctx, pid):
        if pid in traitors(ctx.s):
            effects.queue(ctx, pid, [{"do": "h15_spawn"}], source="haunt")

    def next_slot(self, ctx):
        """Ruling: haunt 15, a dead traitor: the monster turn still comes
        (it brings the new Kobolds) even with no Kobold on the board."""
        s = ctx.s
        turn = s["turn"]
        if not s["haunt"].get("started") or turn.get("monsters") or kobolds(s) or traitor_alive(s):
            return None
        return hp.hold_monster_turn(ctx)

    def monster_turn(self, ctx, number):
        """Kobolds starting the monster turn on a trap roll for it first.
        Ruling: haunt 15, a dead traitor: the Kobolds the traitor's turn would
        bring come as the monster turn starts (the monsters play on)."""
        s = ctx.s
        steps = [] if traitor_alive(s) else [{"do": "h15_spawn"}]
        effects.queue(ctx, hp.controller(s), steps + [{"do": "h15_trapped_at_start"}], source="haunt")
        return None

    def entered(self, ctx, mover, tile):
        s = ctx.s
        if any(m["id"] == mover for m in kobolds(s)) and traps(s, tile):
            effects.queue(ctx, hp.controller(s), [{"do": "h15_traps", "monsters": [mover]}], source="haunt",
                          front=True)

    def monster_hurt(self, ctx, m, kind, amount):
        """A beaten mob: 1 damage to a Kobold at most, each one hurt stunned."""
        s = ctx.s
        if ctx.src != MOB:
            return None
        gang = [x for x in kobolds(s) if x["id"] in mine(ctx)["mob"]]
        for x in gang[:amount]:
            attack.stun(ctx, x)
        return True

    def monster_turn_ending(self, ctx):
        return [{"do": "h15_pillage"}]

    def haunt_goals(self, ctx, pid):
        """The heroes hold the Kobolds' way: the Kobold Hideout where they
        appear and the Mansion they are after (traps there catch the most)."""
        s = ctx.s
        if pid not in heroes(s):
            return None
        return {t for t in (HIDEOUT, MANSION) if t in s["board"]} or None

    def monster_goals(self, ctx, m):
        """The Kobolds make for the Mansion."""
        return {MANSION} if m["name"] == KOBOLD and MANSION in ctx.s["board"] else None

    own = OWN
    moves = (
        rulesets.Move("trap", "Set a Kobold Trap", lambda ctx, pid, trait: set_trap(ctx, pid),
                      traits=("speed",), who="heroes", once_per_turn=True,
                      summary="Once a turn, a Speed roll of 3+ puts a Kobold Trap on your tile."),
        rulesets.Move("mob", "Mob a hero with Kobolds", lambda ctx, pid, trait, target: mob(ctx, pid, target),
                      who="traitors", when="monster_turn",
                      args=(rulesets.Arg("player", mob_targets, "Which hero?"),),
                      summary="In the monster turn, two or more Kobolds on a hero's tile attack together, their "
                              "Might added (8 dice at most); beaten, each takes at most 1 damage."),
    )
