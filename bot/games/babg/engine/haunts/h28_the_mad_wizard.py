"""Haunt 28, The Mad Wizard (Secrets of Survival; no traitor).

What the bot carries out:
- Setup: the Ritual track at 0 (data); the Iron Golem on a catacomb tile
  farthest from the Kitchen Basement and the Cultists (heroes + 2) one per
  catacomb tile, the rest spread evenly, placed by the haunt revealer
  (data); the Mad Wizard's NPC token on the Iron Golem's tile.
- The Ritual: up 1 at the end of the haunt revealer's turn (at the start of
  the monster turn once the revealer is dead); the heroes lose at 5 (3-4
  players) or 4 (5-6 players) (data).
- The monster turn, after the revealer's, played by the bot: one Speed roll
  per kind; the Cultists first, each walking toward the nearest hero and
  attacking a hero on its tile with Sanity (mental damage); then the Iron
  Golem, walking toward the nearest hero and attacking with Might, or, with
  2 or more heroes on its tile, breathing poison once per game (Might 5+ or
  2 dice of physical damage for each hero there). The runner picks between
  equally near ways and between heroes on one tile.
- The Mad Wizard: never stunned nor killed, no monster turn; the declared move
  `convince` on her tile (5+); a failure is her fireball (every hero and
  monster within 2 tiles rolls Speed 5+ or takes 2 dice of physical damage;
  a monster hurt so is stunned); once convinced she goes with the first hero
  to leave her tile.
- The cure: the declared move `cure` on the Sorcerous Sundries with her, once per
  turn (4+ wins; a failure is 2 mental damage).

Left to the players: nothing the book prints.
"""
from .. import attack, effects, geometry, rng, rulesets
from .. import board as bd
from .. import haunt_play as hp
from .. import state as st
from .. import tokens as tk
from ..errors import IllegalAction

WIZARD, GOLEM, CULTIST = "Mad Wizard", "Iron Golem", "Cultist"
RITUAL = "Ritual"
SUNDRIES = "sorcerous_sundries"
CONVINCE_TARGET, CURE_TARGET, SAVE_TARGET, BREATH_TARGET = 5, 4, 5, 5
FIREBALL_REACH = 2


def seen(ctx) -> dict:
    return ctx.s["haunt"].get("h28") or {}


OWN = rulesets.Own("h28", {"convinced": False, "breathed": False, "with": None, "won": None}, players=("with",))


def mine(ctx) -> dict:
    return rulesets.REGISTRY[28].record(ctx.s)


def wizard_tile(s: dict) -> str | None:
    return next((t["tile"] for t in s["tokens"] if t["name"] == WIZARD), None)


def hero_tiles(s: dict) -> set[str]:
    return {s["players"][p]["tile"] for p in hp.alive(s, s["seats"]) if st.on_board(s["players"][p])}


def living(s: dict, name: str) -> list[dict]:
    return [m for m in s["monsters"] if m["name"] == name and not m["dead"]]


# --- the monster turn ---------------------------------------------------------------------------------

def nearest(ctx, tile: str, goals: set[str]) -> int:
    reach = geometry.distances(ctx, tile)
    return min((reach.get(g, 99) for g in goals), default=99)


@effects.step("h28_walk")
def _walk(ctx, task, item):
    """Secrets of Survival, haunt 28, "Special Cultist Rules" and "Special
    Iron Golem Movement Rules": toward the closest hero's tile."""
    s = ctx.s
    m = next((x for x in s["monsters"] if x["id"] == item["monster"] and not x["dead"]), None)
    goals = hero_tiles(s)
    if m is None or m["stunned"] or item["left"] <= 0 or not goals or m["tile"] in goals:
        return
    here = nearest(ctx, m["tile"], goals)
    ways = []
    for tile, cost in geometry.moves_from(ctx, m["tile"]):
        if cost > item["left"] and not item.get("first"):
            continue
        d = nearest(ctx, tile, goals)
        if d < here:
            ways.append((d, tile, cost))
    if not ways:
        return
    best = min(w[0] for w in ways)
    ways = sorted({(t, c) for d, t, c in ways if d == best}, key=lambda w: ctx.tile_name(w[0]))
    if len(ways) == 1:
        go(ctx, m, ways[0], item["left"])
        return
    effects.ask(ctx, task["player"], "h28_way", f"which equally near way does {st.monster_called(m)} take "
                "toward the heroes?", [ctx.tile_name(t) for t, _ in ways], ways=[list(w) for w in ways],
                monster=m["id"], left=item["left"])


@effects.decision("h28_way")
def _decide_way(ctx, pending, index):
    data = pending["data"]
    m = next(x for x in ctx.s["monsters"] if x["id"] == data["monster"])
    go(ctx, m, tuple(data["ways"][index]), data["left"])


def go(ctx, m: dict, way: tuple, left: int):
    tile, cost = way
    effects.push_front(ctx, [{"do": "_monster_arrives", "monster": m["id"], "tile": tile},
                             {"do": "h28_walk", "monster": m["id"], "left": max(0, left - cost)}])


@effects.step("h28_strike")
def _strike(ctx, task, item):
    """Its attack on a hero on its tile (the Iron Golem's breath first)."""
    s = ctx.s
    m = next((x for x in s["monsters"] if x["id"] == item["monster"] and not x["dead"]), None)
    if m is None or m["stunned"]:
        return
    there = [p for p in hp.alive(s, s["seats"]) if st.beside(s, p, m) and attack.shielded(ctx, p) is None]
    if not there:
        return
    if m["name"] == GOLEM and len(there) >= 2 and not seen(ctx).get("breathed"):
        mine(ctx)["breathed"] = True
        s["turn"]["attacked"].append(m["id"])
        ctx.say("The Iron Golem breathes poison gas over everyone on its tile!", kind="attack", monster=m["id"])
        for pid in there:
            effects.queue(ctx, pid, [{"do": "roll", "trait": "might", "bands": [
                {"at_least": BREATH_TARGET, "then": []},
                {"at_most": BREATH_TARGET - 1, "then": [{"do": "damage", "kind": "physical", "dice": 2}]}]}],
                source="haunt", front=False)
        return
    if len(there) == 1:
        strike(ctx, m, there[0])
        return
    effects.ask(ctx, task["player"], "h28_target", f"which hero does {st.monster_called(m)} attack?",
                [ctx.name(p) for p in there], targets=there, monster=m["id"])


@effects.decision("h28_target")
def _decide_target(ctx, pending, index):
    m = next(x for x in ctx.s["monsters"] if x["id"] == pending["data"]["monster"])
    strike(ctx, m, pending["data"]["targets"][index])


def strike(ctx, m: dict, target: str):
    attack.monster_attack(ctx, m["id"], target, m.get("attacks") or "might")


@effects.step("h28_monsters_done")
def _monsters_done(ctx, task, item):
    if ctx.s["turn"].get("monsters") and not ctx.s["turn"]["ending"]:
        hp.end_monster_turn(ctx)


@effects.step("h28_ritual")
def _ritual(ctx, task, item):
    """Secrets of Survival, haunt 28, "You Must Do This at the End of the
    Haunt Revealer's Turn"."""
    c = ctx.s["haunt"]["counters"]
    c[RITUAL] = c.get(RITUAL, 0) + 1
    ctx.say(f"The cultists' ritual grows stronger: the Ritual track stands at {c[RITUAL]}.", kind="counter")


# --- the Mad Wizard -----------------------------------------------------------------------------------

@effects.step("h28_convinced")
def _convinced(ctx, task, item):
    mine(ctx)["convinced"] = True
    ctx.say(f"{ctx.name(task['player'])} reaches the Mad Wizard: she will go with the heroes from now on.",
            kind="haunt")


@effects.step("h28_fireball")
def _fireball(ctx, task, item):
    """Secrets of Survival, haunt 28, "Convincing the Wizard": everyone and
    every monster within 2 tiles of her, Speed 5+ or 2 dice of damage."""
    s = ctx.s
    where = wizard_tile(s)
    if where is None:
        return
    ctx.say("The Mad Wizard shrieks and casts a fireball!", kind="haunt")
    near = {t for t, d in geometry.distances(ctx, where, doors_only=True).items() if d <= FIREBALL_REACH}
    for pid in [p for p in hp.alive(s, s["seats"]) if s["players"][p]["tile"] in near]:
        effects.queue(ctx, pid, [{"do": "roll", "trait": "speed", "bands": [
            {"at_least": SAVE_TARGET, "then": []},
            {"at_most": SAVE_TARGET - 1, "then": [{"do": "damage", "kind": "physical", "dice": 2}]}]}],
            source="haunt")
    for m in [x for x in s["monsters"] if not x["dead"] and x["tile"] in near]:
        speed = effects.make_roll(ctx, hp.controller(s), rng.dice_count(m["traits"].get("speed", 0)),
                                  f"Speed for {st.monster_called(m)} against the fireball", kind="contest")
        if speed < SAVE_TARGET:
            dealt = effects.make_roll(ctx, hp.controller(s), 2, "2 dice of fireball damage", kind="damage")
            attack.hurt_monster(ctx, m, "physical", dealt)


@effects.step("h28_cured")
def _cured(ctx, task, item):
    mine(ctx)["won"] = f"{ctx.name(task['player'])} cures the Mad Wizard, and she stops the ritual."


def talk(ctx, pid: str, trait: str, what: str):
    """Secrets of Survival, haunt 28: convincing her, then curing her."""
    s = ctx.s
    here = s["players"][pid]["tile"]
    if wizard_tile(s) != here:
        raise IllegalAction("The Mad Wizard is not on your tile.")
    if what == "convince":
        if seen(ctx).get("convinced"):
            raise IllegalAction("She is already convinced.")
        bands = [{"at_least": CONVINCE_TARGET, "then": [{"do": "h28_convinced"}]},
                 {"at_most": CONVINCE_TARGET - 1, "then": [{"do": "h28_fireball"}]}]
    else:
        if here != SUNDRIES:
            raise IllegalAction("She can be cured only on the Sorcerous Sundries.")
        bands = [{"at_least": CURE_TARGET, "then": [{"do": "h28_cured"}]},
                 {"at_most": CURE_TARGET - 1, "then": [{"do": "damage", "kind": "mental", "amount": 2}]}]
    effects.queue(ctx, pid, [{"do": "roll", "trait": trait, "bands": bands}], source="haunt", front=True)


@rulesets.register(28)
class TheMadWizard(rulesets.RuleSet):
    title = "The Mad Wizard"

    def setup_step(self, ctx, step):
        if step.get("do") == "manual" and WIZARD in step.get("text", ""):
            mine(ctx)
            effects.queue(ctx, hp.chooser(ctx.s, "heroes"), [{"do": "h28_wizard"}], source="haunt")
            ctx.say("Your moves: {move:convince} on the Mad Wizard's tile; {move:cure} on the "
                    "Sorcerous Sundries with her. The bot runs the Cultists and the Iron Golem.",
                    kind="haunt_setup")
            return True
        return None

    def turn_ending(self, ctx, pid):
        if pid == ctx.s["haunt"]["revealer"]:
            return [{"do": "h28_ritual"}]
        return None

    def monster_turn(self, ctx, number):
        """Secrets of Survival, haunt 28, "Special Cultist Rules": the
        Cultists move and attack before the Iron Golem."""
        s = ctx.s
        if not hp.alive(s, s["seats"]):  # nobody left for the monsters to walk to: the haunt is over
            hp.check_wins(ctx)
            return True
        boss = hp.controller(s)
        turn = st.new_turn(boss, number)
        turn.update({"monsters": True, "moves": {}, "acted": [], "attacked": [],
                     "stunned_at_start": [m["id"] for m in s["monsters"] if m["stunned"] and not m["dead"]]})
        s["turn"] = turn
        ctx.say(f"Turn {number}: the monster turn (the bot moves the Cultists, then the Iron Golem).", kind="turn",
                player=boss)
        steps = []
        if not s["players"][s["haunt"]["revealer"]]["alive"]:
            steps.append({"do": "h28_ritual"})  # Ruling: the ritual goes on without the revealer
        for name in (CULTIST, GOLEM):
            ready = [m for m in living(s, name) if not m["stunned"]]
            if not ready:
                continue
            speed = effects.make_roll(ctx, boss, rng.dice_count(ready[0]["traits"]["speed"]),
                                      f"Speed for the {name}{'s' if len(ready) > 1 else ''}", kind="haunt")
            turn["moves"][name] = max(1, speed)
            for m in ready:
                steps += [{"do": "h28_walk", "monster": m["id"], "left": turn["moves"][name], "first": True},
                          {"do": "h28_strike", "monster": m["id"]}]
        steps.append({"do": "h28_monsters_done"})
        effects.queue(ctx, boss, steps, source="haunt")
        return True

    def monster_blocked(self, ctx, m, dest):
        if ctx.s["turn"].get("monsters"):
            return "The bot moves this haunt's monsters by the book's rules."
        return None

    def leaving(self, ctx, pid, tile):
        """Secrets of Survival, haunt 28, "Convincing the Wizard": once
        convinced she goes with a hero who leaves her tile."""
        if seen(ctx).get("convinced") and wizard_tile(ctx.s) == tile and seen(ctx).get("with") is None:
            mine(ctx)["with"] = pid
        return None

    def entered(self, ctx, mover, tile):
        if mover == seen(ctx).get("with"):
            for t in ctx.s["tokens"]:
                if t["name"] == WIZARD:
                    t["tile"] = tile
            mine(ctx)["with"] = None
            ctx.say(f"The Mad Wizard follows {ctx.name(mover)} to the {ctx.tile_name(tile)}.", kind="token",
                    tile=tile)
        return None

    def turn_started(self, ctx, pid):
        if seen(ctx).get("with"):
            mine(ctx)["with"] = None
        return None

    def win_check(self, ctx):
        if seen(ctx).get("won"):
            return ("heroes", seen(ctx)["won"], "the wizard cured")
        return None

    own = OWN
    moves = (
        rulesets.Move("convince", "Convince the Mad Wizard", lambda ctx, pid, trait: talk(ctx, pid, trait, "convince"),
                      traits=("knowledge",), once_per_turn=True,
                      summary="On her tile, Knowledge 5+ convinces her to come along; a failure is her fireball."),
        rulesets.Move("cure", "Cure the Mad Wizard", lambda ctx, pid, trait: talk(ctx, pid, trait, "cure"),
                      traits=("sanity",), once_per_turn=True,
                      summary="With her on the Sorcerous Sundries, Sanity 4+ cures her and wins; a failure is 2 "
                              "mental damage."),
    )

    def haunt_goals(self, ctx, pid):
        s = ctx.s
        where = wizard_tile(s)
        if not where:
            return set()
        search = {SUNDRIES} if SUNDRIES in s["board"] else {SUNDRIES} | building_doors(ctx)
        if seen(ctx).get("convinced") and s["players"][pid]["tile"] == where:
            return search  # her escort heads for the cure
        if SUNDRIES not in s["board"] and (seen(ctx).get("convinced") or s["seats"].index(pid) % 2):
            return search  # some look for the Sorcerous Sundries while the others reach her
        return {where}


def building_doors(ctx) -> set[str]:
    """City tiles with an open building doorway: where the Sorcerous
    Sundries may be found by exploring."""
    s = ctx.s
    return {t for t, side in bd.open_doorways(ctx.c, s["board"], "city")
            if bd.placed_doorways(ctx.c, s["board"], t)[side] == "building"}


@effects.step("h28_wizard")
def _wizard(ctx, task, item):
    """Secrets of Survival, haunt 28, "Right Now": her NPC token on the Iron
    Golem's tile."""
    s = ctx.s
    golem = next((m for m in s["monsters"] if m["name"] == GOLEM), None)
    tile = golem["tile"] if golem else s["haunt"]["tile"]
    tk.place(s, WIZARD, tile)
    ctx.say(f"Setup: the Mad Wizard stands beside the Iron Golem on the {ctx.tile_name(tile)}.", kind="haunt_setup",
            tile=tile)
