"""Haunt 48, Demon Slayers (Secrets of Survival; no traitor).

What the bot carries out:
- Setup: the Ritual slider at 0 (data); the Cursed Statue fetched when it
  is not in play (data); one Cultist per hero: 1 on the Cursed Statue, the
  others one per tile on the event tiles nearest it (the haunt revealer
  picks between equally near tiles), any left over on the Cursed Statue.
- The Ritual slider rises 1 at the start of each hero's turn. At 8 the
  ritual is complete: the second part of the rules opens, the slider drops
  by the quest tokens on the Cursed Statue and becomes the Demon's power
  (every trait), its hit points are those tokens + 1, the tokens are taken
  away and the Demon appears on the Cursed Statue; the hero's turn goes on.
- Disrupting (the declared move `disrupt`, on the Cursed Statue, in place
  of the turn's attack, before the Demon comes): Knowledge 5+ puts a quest
  token there; either way the turn ends.
- The monster turn (after the haunt revealer's) runs itself: each Cultist
  heads for a tile 1 connected tile from the nearest hero and, when it can
  see that hero, makes a Knowledge distance attack (mental damage; a Cultist
  that loses from another tile takes none); then the Demon walks the
  shortest way to the nearest hero, makes a Might attack on them, and goes
  on toward the next nearest hero while it has movement left.
- Any damage to the Demon lowers its hit points by just 1; at 0 the heroes
  win. Every hero dead: the heroes lose.

Left to the players: nothing the book prints.
"""
from .. import attack, effects, hooks, rng, rulesets
from .. import haunt_play as hp
from .. import state as st
from .. import tokens as tk
from ..board import line_of_sight
from ..errors import IllegalAction
from ..geometry import distances, moves_from

STATUE, CULTIST, DEMON = "cursed_statue", "Cultist", "Demon"
RITUAL, HP = "Ritual", "Demon hit points"
COMPLETE = 8
QUEST = "Disruption"
TRAITS = ("might", "speed", "knowledge", "sanity")


OWN = rulesets.Own("h48", {"to_place": 0, "complete": False})  # no player ids


def mine(ctx) -> dict:
    return rulesets.REGISTRY[48].record(ctx.s)


def living(ctx, name: str) -> list[dict]:
    return [m for m in ctx.s["monsters"] if m["name"] == name and not m["dead"]]


def hero_tiles(ctx) -> dict[str, str]:
    s = ctx.s
    return {p: s["players"][p]["tile"] for p in hp.alive(s, hp.heroes(s)) if st.on_board(s["players"][p])}


# --- setup: the Cultists -------------------------------------------------------------------------

@effects.step("h48_cultists")
def _cultists(ctx, task, item):
    """Secrets of Survival, haunt 48: "Right Now"."""
    s = ctx.s
    left = mine(ctx)["to_place"]
    if left <= 0 or STATUE not in s["board"]:
        if left > 0:
            ctx.say("The Cursed Statue is not in play: the Cultists stay off the board.", kind="haunt_setup")
        mine(ctx)["to_place"] = 0
        return
    task["steps"].insert(0, item)
    if not living(ctx, CULTIST):
        put_cultist(ctx, STATUE)
        return
    near = distances(ctx, STATUE)
    taken = {m["tile"] for m in living(ctx, CULTIST)}
    free = [t for t in s["board"] if ctx.c.tiles[t].symbol == "event" and t not in taken and t in near]
    if not free:
        put_cultist(ctx, STATUE)
        return
    best = min(near[t] for t in free)
    nearest = sorted((t for t in free if near[t] == best), key=ctx.tile_name)
    if len(nearest) <= left:
        put_cultist(ctx, nearest[0])
        return
    effects.ask(ctx, task["player"], "h48_cultist", f"which of the nearest event tiles gets a Cultist ({left} left)?",
                [ctx.tile_name(t) for t in nearest], tiles=nearest)


@effects.decision("h48_cultist")
def _decide_cultist(ctx, pending, index):
    put_cultist(ctx, pending["data"]["tiles"][index])


def put_cultist(ctx, tile: str):
    mine(ctx)["to_place"] -= 1
    hp.add_monster(ctx, CULTIST, tile)


# --- the ritual ---------------------------------------------------------------------------------

def complete_ritual(ctx):
    """Secrets of Survival, haunt 48, part two: "Right Now"."""
    s, h = ctx.s, ctx.s["haunt"]
    mine(ctx)["complete"] = True
    quests = [t for t in tk.on_tile(s, STATUE) if t["name"] == QUEST]
    counters = h["counters"]
    counters[RITUAL] = max(0, counters[RITUAL] - len(quests))
    counters[HP] = len(quests) + 1
    h.setdefault("counter_start", {})[HP] = counters[HP]
    for t in quests:
        tk.remove(s, t)
    ctx.say(f"The ritual is complete! {len(quests)} disruption(s) weaken the Demon: power {counters[RITUAL]}, "
            f"hit points {counters[HP]}.", kind="haunt")
    hp.open_part_two(ctx, "heroes")
    if STATUE in s["board"]:
        demon = hp.add_monster(ctx, DEMON, STATUE)
        demon["traits"] = dict.fromkeys(TRAITS, counters[RITUAL])


@effects.step("h48_disrupted")
def _disrupted(ctx, task, item):
    tk.place(ctx.s, QUEST, STATUE)
    n = sum(1 for t in tk.on_tile(ctx.s, STATUE) if t["name"] == QUEST)
    ctx.say(f"{ctx.name(task['player'])} disrupts the ritual: a quest token goes on the Cursed Statue ({n} now).",
            kind="haunt")


# --- the monster turn ---------------------------------------------------------------------------

def step_toward(ctx, m: dict, goals: set[str], left: int) -> int | None:
    """Move the monster one tile along a shortest way toward `goals`; the
    spaces that cost (Moving Past Opponents: 1 more per hero it leaves), or
    None when it is there, cannot get closer or lacks the spaces."""
    s = ctx.s
    if not goals or m["tile"] in goals:
        return None
    reach = {}
    for g in goals:
        for t, d in distances(ctx, g).items():
            reach[t] = min(reach.get(t, 99), d)
    here = reach.get(m["tile"], 99)
    options = sorted(((reach.get(t, 99), cost, t) for t, cost in moves_from(ctx, m["tile"]) if t != m["tile"]),
                     key=lambda o: (o[0], o[1], ctx.tile_name(o[2])))
    if not options or options[0][0] >= here:
        return None
    _, cost, dest = options[0]
    cost += sum(1 for p in hp.alive(s, hp.heroes(s)) if st.beside(s, p, m))
    if cost > left:
        return None
    m["tile"], m["half"] = dest, None
    ctx.say(f"{st.monster_called(m)} moves to the {ctx.tile_name(dest)}.", kind="monster_move", monster=m["id"],
            tile=dest)
    hooks.fire("entered", ctx, m["id"], dest)
    return cost


def nearest_hero(ctx, tile: str, skip=()) -> str | None:
    near = distances(ctx, tile)
    found = [(near.get(t, 99), ctx.name(p), p) for p, t in hero_tiles(ctx).items() if p not in skip]
    return min(found)[2] if found else None


def strike(ctx, m: dict, target: str, trait: str, distance: bool):
    s = ctx.s
    ctx.say(f"{st.monster_called(m)} attacks {ctx.name(target)} with {trait.capitalize()}"
            + (" from a distance." if distance else "."), kind="attack")
    a = effects.make_roll(ctx, hp.controller(s), rng.dice_count(m["traits"][trait]),
                          f"{trait.capitalize()} for {st.monster_called(m)}", kind="contest")
    d = attack.defence_roll(ctx, target, trait, ctx.value(target, trait))
    s["haunt"]["last_attacker"] = m["id"]
    effects.push_front(ctx, [attack.roll_off(m["id"], target, trait, a, d, distance), {"do": "_attack_over"}])


@effects.step("h48_cultist_acts")
def _cultist_acts(ctx, task, item):
    """Secrets of Survival, haunt 48: "Special Cultist Rules"."""
    s = ctx.s
    m = next((x for x in living(ctx, CULTIST) if x["id"] == item["monster"]), None)
    if m is None or m["stunned"]:
        return
    target = nearest_hero(ctx, m["tile"])
    if target is None:
        return
    there = s["players"][target]["tile"]
    ring = {t for t, _ in moves_from(ctx, there)} - {there}
    left = s["turn"]["moves"].get(CULTIST, 1)
    while left > 0:
        spent = step_toward(ctx, m, ring, left)
        if spent is None:
            break
        left -= spent
    if m["tile"] == there or line_of_sight(ctx.c, s["board"], m["tile"], there):
        strike(ctx, m, target, "knowledge", m["tile"] != there)


@effects.step("h48_demon_acts")
def _demon_acts(ctx, task, item):
    """Secrets of Survival, haunt 48: "Special Demon Rules"."""
    s = ctx.s
    m = next(iter(living(ctx, DEMON)), None)
    if m is None or m["stunned"]:
        return
    done = list(item.get("done", []))
    left = item.get("left", s["turn"]["moves"].get(DEMON, 1))
    while True:
        target = nearest_hero(ctx, m["tile"], skip=done)
        if target is None:
            return
        if st.beside(s, target, m):
            done.append(target)
            effects.push_front(ctx, [{"do": "h48_demon_acts", "done": done, "left": left}])
            strike(ctx, m, target, "might", False)
            return
        spent = step_toward(ctx, m, {s["players"][target]["tile"]}, left) if left > 0 else None
        if spent is None:
            return
        left -= spent


@effects.step("h48_monsters_done")
def _monsters_done(ctx, task, item):
    if ctx.s["phase"] == "haunt":
        hp.end_monster_turn(ctx)


@rulesets.register(48)
class DemonSlayers(rulesets.RuleSet):
    title = "Demon Slayers"

    def setup_step(self, ctx, step):
        text = step.get("text", "")
        if step.get("monster") == CULTIST:
            mine(ctx)["to_place"] = hp.count_value(ctx, step.get("count", "heroes")) or 0
            effects.queue(ctx, hp.chooser(ctx.s, "heroes"), [{"do": "h48_cultists"}], source="haunt")
            ctx.say("Setup: the Cultists go on the Cursed Statue and the event tiles nearest it. On the Cursed "
                    "Statue, in place of your attack: {move:disrupt} (Knowledge 5+: a quest token; it ends your "
                    "turn).", kind="haunt_setup")
            return True
        if step.get("do") == "manual" and (text.startswith("When the Ritual") or "quest tokens beside" in text
                                           or "revealer's left" in text):
            return True  # the bot completes the ritual, keeps the tokens and starts left of the revealer
        return None

    def turn_started(self, ctx, pid):
        """Secrets of Survival, haunt 48: "You Must Do This at the Start of Each Hero's Turn"."""
        if mine(ctx)["complete"]:
            return
        counters = ctx.s["haunt"]["counters"]
        counters[RITUAL] = counters.get(RITUAL, 0) + 1
        ctx.say(f"The chanting grows: {RITUAL} {counters[RITUAL]} of {COMPLETE}.", kind="counter")
        if counters[RITUAL] >= COMPLETE:
            complete_ritual(ctx)

    def monster_turn(self, ctx, number):
        """The monster turn runs itself: Cultists first, then the Demon."""
        s = ctx.s
        if not hp.alive(s, hp.heroes(s)):
            hp.check_wins(ctx)
            return True
        boss = hp.controller(s)
        turn = st.new_turn(boss, number)
        turn.update({"monsters": True, "moves": {}, "acted": [], "attacked": []})
        s["turn"] = turn
        ctx.say(f"Turn {number}: the monster turn (the Cultists, then the Demon).", kind="turn", player=boss)
        awake = [m for m in s["monsters"] if not m["dead"] and not m["stunned"]]
        for name in dict.fromkeys(m["name"] for m in awake):
            speed = awake[[m["name"] for m in awake].index(name)]["traits"].get("speed", 0)
            roll = effects.make_roll(ctx, boss, rng.dice_count(speed), f"Speed for the {name}s") if speed else 0
            turn["moves"][name] = max(1, roll)
        turn["stunned_at_start"] = [m["id"] for m in s["monsters"] if m["stunned"] and not m["dead"]]
        steps = [{"do": "h48_cultist_acts", "monster": m["id"]} for m in living(ctx, CULTIST)]
        steps += [{"do": "h48_demon_acts"}, {"do": "h48_monsters_done"}]
        effects.queue(ctx, boss, steps, source="haunt")
        return True

    def monster_hurt(self, ctx, m, kind, amount):
        """Secrets of Survival, haunt 48: "Special Demon Rules" (any damage: 1 hit point)."""
        if m["name"] != DEMON:
            return None
        counters = ctx.s["haunt"]["counters"]
        counters[HP] = max(0, counters.get(HP, 1) - 1)
        ctx.say(f"The Demon is wounded: {HP} {counters[HP]}.", kind="monster", monster=m["id"])
        if counters[HP] <= 0:
            m["dead"] = True
            ctx.say("The Demon is hurled back to the Abyss.", kind="monster", monster=m["id"])
            hooks.fire("monster_killed", ctx, m["id"])
        return True

    def haunt_goals(self, ctx, pid):
        s = ctx.s
        demon = next(iter(living(ctx, DEMON)), None)
        if demon:
            return {demon["tile"]}
        return {STATUE} if STATUE in s["board"] else None

    own = OWN
    moves = (
        rulesets.Move("disrupt", "Disrupt the ritual", lambda ctx, pid, trait: disrupt(ctx, pid),
                      traits=("knowledge",), who="heroes", instead_of_attack=True,
                      summary="On the Cursed Statue, before the Demon comes, in place of your attack: Knowledge 5+ "
                              "puts a quest token there; either way your turn ends."),
    )


def disrupt(ctx, pid: str):
    """Secrets of Survival, haunt 48: "How to Disrupt the Ritual"."""
    s = ctx.s
    turn = s["turn"]
    if mine(ctx)["complete"]:
        raise IllegalAction("The ritual is already complete.")
    if s["players"][pid]["tile"] != STATUE:
        raise IllegalAction("You must be on the Cursed Statue to disrupt the ritual.")
    turn["attacked"] = True
    effects.queue(ctx, pid, [{"do": "roll", "trait": "knowledge", "bands": [
        {"at_least": 5, "then": [{"do": "h48_disrupted"}]}, {"at_most": 4, "then": []}]},
        {"do": "_end_turn"}], source="haunt", front=True)
