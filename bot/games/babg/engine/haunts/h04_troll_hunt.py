"""Haunt 4, Troll Hunt! (Secrets of Survival; no traitor).

What the bot carries out:
- the Troll on the omen tile, its two hit-point sliders and the Alchemist's
  Fire supply (data);
- the Troll's turn after every hero turn (its Speed roll, move and attack);
- its hit points taking its damage instead of a stun, fire damage lowering
  the maximum too, and its regeneration when no fire hurt it in the hero
  turn just before;
- Beshaba's roll at the start of each hero turn and its outcomes;
- Alchemist's Fire: the declared moves `search` (Knowledge or Speed, on an
  unsearched building tile) and `throw` (Speed, at the Troll);
- the wins: the Troll's hit points at 0; every hero dead.

Left to the players: nothing."""
from .. import attack, effects, rulesets, turns
from .. import haunt_play as hp
from .. import tokens as tk
from ..board import line_of_sight
from ..errors import IllegalAction
from ..geometry import distances

TROLL = "Troll"
HP, MAX, SUPPLY = "Troll hit points", "Troll maximum hit points", "Alchemist's Fire"
SEARCHED = "Searched"  # the adventurer token on a building tile whose Alchemist's Fire was found
FIRE_CARDS = ("book_of_spells", "explosive_runes", "necklace_of_fireballs", "iron_flask_of_tuerny")
THROWN = "haunt:alchemists_fire"  # the source of an Alchemist's Fire attack
FIRE_REACH = 3  # tiles


def trait_check(trait: str) -> list[dict]:
    """A trait roll of 4+, or 1 die of physical damage."""
    return [{"do": "roll", "trait": trait, "bands": [
        {"at_least": 4, "then": []},
        {"at_most": 3, "then": [{"do": "damage", "kind": "physical", "dice": 1}]}]}]


LIGHTNING = [{"do": "each", "on": "street", "then": trait_check("speed")}]
BLAZE = [{"do": "each", "on": "building", "then": trait_check("knowledge")}, {"do": "h04_blaze_near_troll"}]
ROCKS = [{"do": "each", "on": "catacomb", "then": trait_check("might")}]
BESHABA = [{"do": "roll", "dice": 4, "bands": [
    {"at_most": 2, "then": [{"do": "h04_say", "text": "Lightning strikes!"}, *LIGHTNING]},
    {"at_least": 3, "at_most": 4, "then": [{"do": "h04_say", "text": "A fire breaks out!"}, *BLAZE]},
    {"at_least": 5, "at_most": 6, "then": [{"do": "h04_say", "text": "Rocks fall!"}, *ROCKS]},
    {"at_least": 7, "then": [{"do": "h04_say", "text": "Terrible luck: lightning, fire and falling rocks!"},
                             *LIGHTNING, *BLAZE, *ROCKS]}]}]


OWN = rulesets.Own("h04", {"after": None, "burnt": False, "carrying": []}, players=("after", "carrying"))


def mine(ctx) -> dict:
    """This haunt's own state, kept in the game's haunt record."""
    return rulesets.REGISTRY[4].record(ctx.s)


def the_troll(ctx) -> dict | None:
    return next((m for m in ctx.s["monsters"] if m["name"] == TROLL and not m["dead"]), None)


def hurt_troll(ctx, amount: int, fire: bool):
    """Secrets of Survival, "Damaging the Troll": damage lowers its hit
    points; fire damage lowers its maximum as well."""
    counters = ctx.s["haunt"]["counters"]
    counters[HP] = max(0, counters.get(HP, 0) - amount)
    if fire:
        counters[MAX] = max(0, counters.get(MAX, 0) - amount)
        counters[HP] = min(counters[HP], counters[MAX])
        mine(ctx)["burnt"] = True
    ctx.say(f"The Troll takes {amount} {'fire ' if fire else ''}damage: hit points {counters[HP]} "
            f"(at most {counters[MAX]}).", kind="monster", monster=(the_troll(ctx) or {}).get("id"))


def is_fire(ctx) -> bool:
    """Damage from Alchemist's Fire or one of the four fire cards."""
    if ctx.src == THROWN or ctx.src in FIRE_CARDS:
        return True
    return ctx.src == "attack" and (ctx.s["turn"] or {}).get("attacked_with") in FIRE_CARDS


@effects.step("h04_say")
def _say(ctx, task, item):
    ctx.say(f"Beshaba's blessing: {item['text']}", kind="haunt")


@effects.step("h04_blaze_near_troll")
def _blaze_near_troll(ctx, task, item):
    """Secrets of Survival, "You Must Do This at the Start of Your Turn" (a
    fire breaks out): a Troll on a building tile burns on a 1 or 2."""
    troll = the_troll(ctx)
    if troll is None or ctx.c.tiles[troll["tile"]].kind != "building":
        return
    face = effects.make_roll(ctx, task["player"], 1, "1 die for the Troll in the blaze", kind="damage")
    if face in (1, 2):
        hurt_troll(ctx, 1, fire=True)


@effects.step("h04_found_fire")
def _found_fire(ctx, task, item):
    pid = task["player"]
    counters = ctx.s["haunt"]["counters"]
    counters[SUPPLY] = counters.get(SUPPLY, 0) - 1
    mine(ctx)["carrying"].append(pid)
    tk.place(ctx.s, SEARCHED, item["tile"])
    ctx.say(f"{ctx.name(pid)} finds a bottle of Alchemist's Fire; the {ctx.tile_name(item['tile'])} is searched "
            f"({counters[SUPPLY]} left to find).", kind="haunt", player=pid)


@rulesets.register(4)
class TrollHunt(rulesets.RuleSet):
    title = "Troll Hunt!"

    def setup_step(self, ctx, step):
        if step.get("do") == "manual" and "adventurer tokens" in step.get("text", ""):
            ctx.say("Setup: the bot marks each building tile whose Alchemist's Fire has been found (a Searched "
                    "token). On a building tile: {move:search}; with a bottle: {move:throw} at the Troll.",
                    kind="haunt_setup")
            return True
        return None

    def turn_started(self, ctx, pid):
        """Secrets of Survival, "You Must Do This at the Start of Your Turn"."""
        mine(ctx)["burnt"] = False  # "Damaging the Troll": fire in this hero's turn stops the next regeneration
        ctx.say(f"{ctx.name(pid)} rolls 4 dice for Beshaba's blessing.", kind="haunt", player=pid)
        effects.queue(ctx, pid, BESHABA, source="haunt")

    def next_slot(self, ctx):
        """Secrets of Survival, haunt 4, end-of-turn section: every hero
        turn is followed by one for the Troll."""
        s = ctx.s
        if not s["haunt"].get("started"):
            return None
        turn = s["turn"]
        number = turn["number"] + 1
        if not turn.get("monsters"):
            mine(ctx)["after"] = turn["player"]
            if the_troll(ctx):
                hp.begin_monster_turn(ctx, number)
                return True
        order = [p for p in s["order"] if p != hp.MONSTERS]
        last = mine(ctx)["after"] or turn["player"]
        start = order.index(last) + 1 if last in order else 0
        for k in range(len(order)):
            nxt = order[(start + k) % len(order)]
            if s["players"][nxt]["alive"]:
                turns.begin_turn(ctx, nxt, number)
                return True
        hp.check_wins(ctx)
        return True

    def monster_turn(self, ctx, number):
        """Step 1 of the Troll's turn: without fire damage in the hero turn
        just before, it heals 1, never above its maximum."""
        counters = ctx.s["haunt"]["counters"]
        if not mine(ctx)["burnt"] and counters.get(HP, 0) < counters.get(MAX, 0):
            counters[HP] += 1
            ctx.say(f"The Troll regenerates: hit points {counters[HP]} (at most {counters[MAX]}).", kind="monster")
        return None  # then the ordinary monster turn: its Speed roll, its move and attack

    def monster_hurt(self, ctx, m, kind, amount):
        if m["name"] != TROLL:
            return None
        hurt_troll(ctx, amount, is_fire(ctx))
        return True

    def haunt_goals(self, ctx, pid):
        """A hero without a bottle heads for an unsearched building tile;
        with one, for the Troll."""
        s = ctx.s
        troll = the_troll(ctx)
        if pid in mine(ctx)["carrying"]:
            return {troll["tile"]} if troll else set()
        searched = {t["tile"] for t in s["tokens"] if t["name"] == SEARCHED}
        return {tid for tid in s["board"] if ctx.c.tiles[tid].kind == "building" and tid not in searched}

    own = OWN
    moves = (
        rulesets.Move("search", "Search for Alchemist's Fire", lambda ctx, pid, trait: search(ctx, pid, trait),
                      traits=("knowledge", "speed"), who="heroes",
                      summary="On an unsearched building tile, a Knowledge or Speed roll of 4+ finds a bottle."),
        rulesets.Move("throw", "Throw Alchemist's Fire", lambda ctx, pid, trait: throw(ctx, pid, trait),
                      traits=("speed",), who="heroes", instead_of_attack=True,
                      summary="A Speed attack on the Troll within 3 tiles in line of sight; its damage is fire."),
    )


def search(ctx, pid: str, trait: str):
    """Secrets of Survival, "Obtaining Alchemist's Fire": on an unsearched
    building tile, a Knowledge or Speed 4+ roll (target lost in print: see
    the haunt file's notes)."""
    s = ctx.s
    tile = s["players"][pid]["tile"]
    if trait not in ("knowledge", "speed"):
        raise IllegalAction("Search for Alchemist's Fire with Knowledge or Speed.")
    if ctx.c.tiles[tile].kind != "building":
        raise IllegalAction("Alchemist's Fire is found only on building tiles.")
    if any(t["name"] == SEARCHED for t in tk.on_tile(s, tile)):
        raise IllegalAction(f"The {ctx.tile_name(tile)} has already given up its Alchemist's Fire.")
    if pid in mine(ctx)["carrying"]:
        raise IllegalAction("You already carry a bottle of Alchemist's Fire; a hero carries 1 at a time.")
    if s["haunt"]["counters"].get(SUPPLY, 0) <= 0:
        raise IllegalAction("Every bottle of Alchemist's Fire has been found.")
    key = "task:alchemists_fire"
    if key in s["turn"]["rolls"]:
        raise IllegalAction("You have already searched for Alchemist's Fire this turn.")
    s["turn"]["rolls"].append(key)
    effects.queue(ctx, pid, [{"do": "roll", "trait": trait, "bands": [
        {"at_least": 4, "then": [{"do": "h04_found_fire", "tile": tile}]},
        {"at_most": 3, "then": []}]}], source="haunt", front=True)


def throw(ctx, pid: str, trait: str):
    """Secrets of Survival, "How to Use Alchemist's Fire": a Speed attack
    on the Troll (which defends with Speed) from up to 3 tiles away in line
    of sight; losing it from another tile costs nothing; its damage is fire."""
    s = ctx.s
    turn = s["turn"]
    troll = the_troll(ctx)
    here = s["players"][pid]["tile"]
    if trait != "speed":
        raise IllegalAction("Alchemist's Fire is thrown with Speed.")
    if pid not in mine(ctx)["carrying"]:
        raise IllegalAction("You carry no Alchemist's Fire.")
    if troll is None:
        raise IllegalAction("The Troll is gone.")
    if turn.get("attacked"):
        raise IllegalAction("You have already attacked this turn; an attack is once per turn.")
    near = distances(ctx, here, doors_only=True).get(troll["tile"], 99) <= FIRE_REACH
    if not (near and line_of_sight(ctx.c, s["board"], here, troll["tile"])):
        raise IllegalAction("The Troll must be within 3 tiles and in line of sight.")
    mine(ctx)["carrying"].remove(pid)
    turn["attacked"] = True
    ctx.say(f"{ctx.name(pid)} hurls a bottle of Alchemist's Fire at the Troll.", kind="attack")
    a = effects.make_roll(ctx, pid, attack.attack_dice(ctx, pid, "speed"), "Speed to attack", trait="speed",
                          kind="attack")
    d = attack.defence_roll(ctx, troll["id"], "speed", troll["traits"]["speed"])
    s["haunt"]["last_attacker"] = pid
    effects.queue(ctx, pid, [attack.roll_off(pid, troll["id"], "speed", a, d, troll["tile"] != here),
                             {"do": "_attack_over"}], source=THROWN, front=True)

