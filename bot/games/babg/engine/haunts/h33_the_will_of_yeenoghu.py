"""Haunt 33, The Will of Yeenoghu (Traitor's Tome and Secrets of Survival).

What the bot carries out:
- Setup: the haunt revealer holds the Dimensional Shackles (taken from
  wherever they are when the table chose this haunt without them). Data: the traitor places 1 Gnoll per adventurer, each on a tile
  with no hero and no other Gnoll (asked tile by tile); the other Gnolls (as
  many again) wait in reserve; the Gladiator Pit fetched from the catacomb
  stack when missing (the traitor picks the open door); the traitor's Might
  and Speed mended to their start, then +2 Might and +1 Speed; the module
  sets the traitor's Sanity 1 step above the skull.
- The Certainty of Yeenoghu: the traitor's Sanity never kills them; it
  stops 1 step above the skull (until released).
- The Power of Yeenoghu: once per turn, when the traitor attacks while
  holding the Dimensional Shackles, every 0 in the attack roll is rolled
  again (the bot always does it: it can only help).
- The Dimensional Shackles can be stolen in this haunt (offered with the
  other cards when an attack would deal 2 or more damage).
- Special movement: a hero leaving a tile with a Gnoll rolls Speed 3+ or
  takes 1 physical damage.
- Gnolls: they attack with 1 extra die for every other Gnoll and the traitor
  on their tile (8 dice at most); any damage removes a Gnoll instead of
  stunning it; each time a hero dies a reserve Gnoll appears on their tile.
- Heroes: at the start of a turn while holding the Shackles, Sanity 3+ (+1
  Speed this turn) or 1 Sanity lost; the declared move `release` on the Gladiator
  Pit with the Shackles: Sanity 4+ discards them and the traitor becomes a
  hero again with -2 Might and -1 Speed.
- Once the traitor is released or killed: every Gnoll at once moves to the
  nearest hero's tile and attacks that hero, and does so again every monster
  turn (the bot plays those turns).
- The wins: every hero dead; every Gnoll dead once the traitor is dead or
  released.

Left to the players: nothing. (The heroes leaving the room is the private
rules message itself.)
"""
from .. import attack, effects, rng, rulesets
from .. import cards as cd
from .. import haunt_play as hp
from .. import state as st
from .. import traits as tr
from ..errors import IllegalAction
from ..geometry import distances

KEY = "h33"
GNOLL = "Gnoll"
RESERVE = "Gnolls in reserve"
SHACKLES = "dimensional_shackles"
PIT = "gladiator_pit"
MAX_DICE = 8
RELEASE_TARGET = 4


OWN = rulesets.Own(KEY, {"freed": False, "released": None}, players=("released",))


def mine(ctx) -> dict:
    return rulesets.REGISTRY[33].record(ctx.s)


def state_of(s: dict) -> dict:
    """This haunt's record, read only."""
    return s["haunt"].get(KEY) or {"freed": False, "released": None}


def gnolls(s: dict) -> list[dict]:
    return [m for m in s["monsters"] if m["name"] == GNOLL and not m["dead"]]


def holder(s: dict) -> str | None:
    return next((p for p in s["seats"] if SHACKLES in s["players"][p]["cards"] and s["players"][p]["alive"]), None)


def gnoll_dice(s: dict, m: dict) -> int:
    """Traitor's Tome, haunt 33, "Gnoll": +1 die for each other Gnoll and
    for the traitor on its tile, 8 at most."""
    others = sum(1 for x in gnolls(s) if x["id"] != m["id"] and x["tile"] == m["tile"])
    traitor = sum(1 for p in hp.alive(s, hp.traitors(s)) if s["players"][p]["tile"] == m["tile"])
    return min(MAX_DICE, m["traits"]["might"] + others + traitor)


def gnoll_attack(ctx, m: dict, target: str):
    s = ctx.s
    dice = gnoll_dice(s, m)
    ctx.say(f"{st.monster_called(m)} attacks {ctx.name(target)} with Might ({dice} dice).", kind="attack")
    a = effects.make_roll(ctx, hp.controller(s), rng.dice_count(dice), f"Might for {st.monster_called(m)}",
                          kind="contest")
    d = attack.defence_roll(ctx, target, "might", ctx.value(target, "might"))
    s["haunt"]["last_attacker"] = m["id"]
    effects.queue(ctx, target, [attack.roll_off(m["id"], target, "might", a, d, False), {"do": "_attack_over"}],
                  source="attack", front=True)


def nearest_hero(ctx, tile: str) -> str | None:
    """Ruling: among heroes equally near, the first in seat order."""
    s = ctx.s
    near = distances(ctx, tile)
    found = [(near.get(s["players"][p]["tile"], 99), i, p) for i, p in enumerate(s["seats"])
             if p in hp.alive(s, hp.heroes(s)) and st.on_board(s["players"][p])]
    found = [f for f in found if f[0] < 99]
    return min(found)[2] if found else None


@effects.step("h33_rampage")
def _rampage(ctx, task, item):
    """Secrets of Survival, haunt 33, "If the Traitor Is Released or Killed":
    each Gnoll in turn goes to the nearest hero's tile and attacks them."""
    s = ctx.s
    left = [x for x in item["left"] if any(m["id"] == x for m in gnolls(s))]
    if not left or s["phase"] != "haunt":
        return
    m = next(x for x in gnolls(s) if x["id"] == left[0])
    if len(left) > 1:
        task["steps"].insert(0, {**item, "left": left[1:]})
    if m["stunned"]:
        return
    hero = nearest_hero(ctx, m["tile"])
    if hero is None:
        return
    tile = s["players"][hero]["tile"]
    if m["tile"] != tile:
        m["tile"], m["half"] = tile, s["players"][hero].get("half")
        ctx.say(f"{st.monster_called(m)} rushes to the {ctx.tile_name(tile)}.", kind="monster_move",
                monster=m["id"], tile=tile)
    if (s["turn"] or {}).get("monsters"):
        s["turn"]["attacked"].append(m["id"])
    gnoll_attack(ctx, m, hero)


@effects.step("h33_rampage_over")
def _rampage_over(ctx, task, item):
    hp.check_wins(ctx)  # the Gnolls may have killed the last hero: no more turns
    if ctx.s["phase"] == "haunt" and (ctx.s["turn"] or {}).get("monsters"):
        hp.end_monster_turn(ctx)


@effects.step("h33_released")
def _released(ctx, task, item):
    """Secrets of Survival, haunt 33, "How to Release the Traitor"."""
    s = ctx.s
    pid = task["player"]
    traitor = next(iter(hp.alive(s, hp.traitors(s))), None)
    if SHACKLES in s["players"][pid]["cards"]:
        cd.discard(ctx, SHACKLES)
    if traitor is None:
        return
    ctx.say(f"{ctx.name(pid)} destroys the Dimensional Shackles: {ctx.name(traitor)} is freed from Yeenoghu and "
            "is a hero again.", kind="haunt", player=pid)
    s["haunt"]["traitors"] = []
    mine(ctx).update({"freed": True, "released": traitor})
    tr.change(ctx, traitor, "might", -2)
    tr.change(ctx, traitor, "speed", -1)
    effects.queue(ctx, pid, [{"do": "h33_rampage", "left": [m["id"] for m in gnolls(s)]}], source="haunt",
                  front=True)


@rulesets.register(33)
class WillOfYeenoghu(rulesets.RuleSet):
    title = "The Will of Yeenoghu"

    def setup_step(self, ctx, step):
        s = ctx.s
        text = step.get("text", "")
        if step.get("do") != "manual":
            return None
        if "stays in the room" in text:
            bring_shackles(ctx)
            ctx.say("Setup: the heroes read their rules in private while the traitor sets up. Heroes: with the "
                    "Dimensional Shackles on the Gladiator Pit, {move:release} frees the traitor.",
                    kind="haunt_setup")
            return True
        if "Sanity to 1 step" in text:
            for pid in hp.alive(s, hp.traitors(s)):
                tr.change(ctx, pid, "sanity", 1 - s["players"][pid]["traits"]["sanity"])
            return True
        return None

    def skull_spared(self, ctx, pid, trait):
        """Traitor's Tome, haunt 33, "The Certainty of Yeenoghu"."""
        return True if trait == "sanity" and pid in hp.traitors(ctx.s) else None

    def card_stealable(self, ctx, card):
        """Both books, haunt 33, "Special Dimensional Shackles Rules"."""
        return True if card == SHACKLES else None

    def before_outcome(self, ctx, task, roll_off):
        """Traitor's Tome, haunt 33, "The Power of Yeenoghu"."""
        s = ctx.s
        pid = roll_off["attacker"]
        turn = s["turn"] or {}
        if pid not in hp.traitors(s) or SHACKLES not in s["players"][pid]["cards"] or turn.get("monsters") \
                or "yeenoghu" in roll_off["asked"] or "h33:power" in turn.get("rolls", []):
            return None
        roll = next((e for e in reversed(ctx.ev) if e.get("kind") == "roll" and e.get("player") == pid
                     and "to attack" in e["text"]), None)
        zeros = [f for f in (roll or {}).get("faces", []) if f == 0]
        roll_off["asked"].append("yeenoghu")
        if not zeros:
            return None
        turn["rolls"].append("h33:power")
        again = rng.roll(s, len(zeros))
        roll_off["attack"] += sum(again)
        ctx.say(f"The Power of Yeenoghu: {ctx.name(pid)} rolls the {len(zeros)} blank "
                f"{'die' if len(zeros) == 1 else 'dice'} again: {' '.join(map(str, again))}; the attack is now "
                f"{roll_off['attack']}.", kind="roll", player=pid, faces=again)
        return None

    def leaving(self, ctx, pid, tile):
        """Traitor's Tome, haunt 33, "Special Movement Rules"."""
        s = ctx.s
        if pid in hp.traitors(s) or not any(m["tile"] == tile for m in gnolls(s)):
            return
        effects.queue(ctx, pid, [{"do": "roll", "trait": "speed", "bands": [
            {"at_least": 3, "then": []},
            {"at_most": 2, "then": [{"do": "damage", "kind": "physical", "amount": 1}]}]}], source="haunt",
            front=True)

    def monster_attack(self, ctx, m, target, trait):
        if m["name"] != GNOLL:
            return None
        if trait and trait.lower() != "might":
            raise IllegalAction("Gnolls attack with Might.")
        attack.check_monster_attack(ctx, m, target)
        ctx.s["turn"]["attacked"].append(m["id"])
        gnoll_attack(ctx, m, target)
        return True

    def monster_hurt(self, ctx, m, kind, amount):
        """Traitor's Tome, haunt 33, "Killing Gnolls"."""
        if m["name"] != GNOLL:
            return None
        m["dead"] = True
        ctx.say(f"{st.monster_called(m)} is cut down and removed from the board.", kind="monster",
                monster=m["id"])
        return True

    def death(self, ctx, pid, killer):
        s = ctx.s
        if pid in hp.traitors(s):
            if not state_of(s)["freed"]:  # Secrets of Survival, "If the Traitor Is Released or Killed"
                mine(ctx)["freed"] = True
                runner = next(iter(hp.alive(s, hp.heroes(s))), None)  # the dead traitor's steps stop at death
                if runner:
                    effects.queue(ctx, runner, [{"do": "h33_rampage", "left": [m["id"] for m in gnolls(s)]}],
                                  source="haunt", front=True)
            return
        counters = s["haunt"]["counters"]
        if counters.get(RESERVE, 0) > 0:  # Traitor's Tome, "Creating More Gnolls"
            counters[RESERVE] -= 1
            ctx.say(f"Hyenas feast on {ctx.name(pid)}; one bursts into a Gnoll.", kind="haunt")
            hp.add_monster(ctx, GNOLL, s["players"][pid]["tile"])

    def turn_started(self, ctx, pid):
        """Secrets of Survival, haunt 33, "You Must Do This at the Start of
        Your Turn"."""
        s = ctx.s
        if pid in hp.traitors(s) or SHACKLES not in s["players"][pid]["cards"]:
            return
        effects.queue(ctx, pid, [{"do": "roll", "trait": "sanity", "bands": [
            {"at_least": 3, "then": [{"do": "h33_faster"}]},
            {"at_most": 2, "then": [{"do": "lose", "trait": "sanity", "amount": 1}]}]}], source="haunt")

    def monster_turn(self, ctx, number):
        """Once freed, the Gnolls' turn is the book's script: the bot plays it."""
        s = ctx.s
        if not state_of(s)["freed"]:
            return None
        hp.check_wins(ctx)
        if s["phase"] != "haunt":
            return True
        boss = hp.controller(s)
        turn = st.new_turn(boss, number)
        turn.update({"monsters": True, "moves": {}, "acted": [], "attacked": [], "stunned_at_start":
                     [m["id"] for m in gnolls(s) if m["stunned"]]})
        s["turn"] = turn
        ctx.say(f"Turn {number}: the monster turn: the Gnolls run at the nearest heroes.", kind="turn", player=boss)
        effects.queue(ctx, boss, [{"do": "h33_rampage", "left": [m["id"] for m in gnolls(s)]},
                                  {"do": "h33_rampage_over"}], source="haunt")
        return True

    def win_check(self, ctx):
        s = ctx.s
        if state_of(s)["freed"] and not gnolls(s) and hp.alive(s, hp.heroes(s)):
            how = "released" if state_of(s)["released"] else "dead"
            return "heroes", f"Every Gnoll is dead and the traitor is {how}."
        return None

    own = OWN
    moves = (
        rulesets.Move("release", "Release the traitor", lambda ctx, pid, trait: release(ctx, pid, trait),
                      traits=("sanity",), who="heroes", once_per_turn=True,
                      summary="Holding the Dimensional Shackles on the Gladiator Pit, Sanity 4+ discards them and "
                              "the traitor becomes a hero again."),
    )

    def haunt_goals(self, ctx, pid):
        """A hero with the Shackles heads for the Gladiator Pit while the
        traitor is bound; a hero without them goes after the traitor when the
        traitor holds them, else fights whatever is nearest."""
        s = ctx.s
        if pid in hp.traitors(s) or state_of(s)["freed"]:
            return None
        who = holder(s)
        if who == pid:
            return {PIT} if PIT in s["board"] else None
        if who in hp.traitors(s):
            return {s["players"][who]["tile"]}
        return None


def bring_shackles(ctx):
    """Ruling: the haunt revealer holds the Dimensional Shackles from the
    reveal on when nobody holds them (a haunt the table chose rather than the
    chart, which always starts this one with them in the revealer's hand)."""
    s = ctx.s
    if cd.holder_of(ctx, SHACKLES) or not s["players"][s["haunt"]["revealer"]]["alive"]:
        return
    if SHACKLES in s["decks"]["omen"]:
        s["decks"]["omen"].remove(SHACKLES)
    elif SHACKLES in s["discard"]["omen"]:
        s["discard"]["omen"].remove(SHACKLES)
    else:
        for tile, pile in list(s["piles"].items()):
            if SHACKLES in pile:
                pile.remove(SHACKLES)
                if not pile:
                    del s["piles"][tile]
    cd.gain(ctx, s["haunt"]["revealer"], SHACKLES)
    ctx.say(f"Setup: {ctx.name(s['haunt']['revealer'])}, the haunt revealer, holds the Dimensional Shackles.",
            kind="haunt_setup")


@effects.step("h33_faster")
def _faster(ctx, task, item):
    """Ruling: "add 1 to your Speed this turn" is 1 more space of movement."""
    ctx.s["turn"]["extra_moves"] = ctx.s["turn"].get("extra_moves", 0) + 1
    ctx.say(f"{ctx.name(task['player'])} masters the Shackles' pull: +1 Speed this turn.", kind="haunt")


def release(ctx, pid: str, trait: str):
    """Secrets of Survival, haunt 33, "How to Release the Traitor"."""
    s = ctx.s
    if pid in hp.traitors(s) or state_of(s)["freed"] or not hp.alive(s, hp.traitors(s)):
        raise IllegalAction("There is no traitor left to release.")
    if SHACKLES not in s["players"][pid]["cards"]:
        raise IllegalAction("You need the Dimensional Shackles to release the traitor.")
    if s["players"][pid]["tile"] != PIT:
        raise IllegalAction("The traitor can be released only on the Gladiator Pit.")
    effects.queue(ctx, pid, [{"do": "roll", "trait": "sanity", "bands": [
        {"at_least": RELEASE_TARGET, "then": [{"do": "h33_released"}]},
        {"at_most": RELEASE_TARGET - 1, "then": []}]}], source="haunt", front=True)
