"""Haunt 9, Alone Against the Dead (Traitor's Tome and Secrets of Survival:
every adventurer but the revealer is a traitor).

What the bot carries out:
- the turn order (data: `turn_order = "traitors_first"`);
- the setup: the traitors asked where the Undead Minions go and which
  follower of Myrkul each plays, the hero asked for their setup picks;
- the followers' rules: the Necromancer raises minions with the declared
  move `raise` (instead of attacking) and runs the monster turn, the Zombie
  Hulk spews acid once a game with the declared move `acid` (a Might
  attack), the Skeleton Warrior mends;
- the hero's win for ending a turn on the Elfsong Tavern; the traitors'
  win when the hero dies.

Left to the players: nothing."""
from .. import attack, effects, rulesets
from .. import haunt_play as hp
from .. import traits as tr
from ..board import line_of_sight
from ..content import TRAITS
from ..errors import IllegalAction
from ..geometry import distances

MINION = "Undead Minion"
MINIONS_AT_START, MOST_MINIONS = 3, 6
HOME = "elfsong_tavern"
FOLLOWERS = ("Necromancer", "Zombie Hulk", "Skeleton Warrior")
ACID_REACH = 2  # tiles
ACID = "haunt:acid"


# followers: the follower each traitor plays, by player; announced, acid_used: players
OWN = rulesets.Own("h09", {"followers": {}, "announced": [], "acid_used": []},
                   players=("followers", "announced", "acid_used"))


def mine(ctx) -> dict:
    return rulesets.REGISTRY[9].record(ctx.s)


def hero_tiles(ctx) -> set[str]:
    s = ctx.s
    return {s["players"][p]["tile"] for p in hp.alive(s, hp.heroes(s))}


def living_minions(ctx) -> list[dict]:
    return [m for m in ctx.s["monsters"] if m["name"] == MINION and not m["dead"]]


def minion_tiles(ctx, apart: bool) -> list[str]:
    """Where a minion may go: not the hero's tile; at setup, not beside
    another minion either (Traitor's Tome, haunt 9: "Right Now")."""
    taken = {m["tile"] for m in living_minions(ctx)} if apart else set()
    return sorted((t for t in ctx.s["board"] if t not in hero_tiles(ctx) and t not in taken), key=ctx.tile_name)


def traitors_in_order(ctx) -> list[str]:
    """The traitors from the hero's left, as they play (the haunt's turn
    order is set once the setup is done)."""
    order = hp.turn_order({**ctx.s, "haunt": {**ctx.s["haunt"], "turn_order": "traitors_first"}})
    return [p for p in order if p in hp.traitors(ctx.s)]


def pair_options() -> list[dict]:
    pairs = [(a, b) for i, a in enumerate(TRAITS) for b in TRAITS[i + 1:]]
    return [{"label": f"{a.capitalize()} and {b.capitalize()}",
             "then": [{"do": "gain", "trait": a, "amount": 1}, {"do": "gain", "trait": b, "amount": 1}]}
            for a, b in pairs]


HERO_PICK = [{"do": "choose", "options": [
    {"label": "Draw the top 2 item cards and keep one", "then": [{"do": "pick", "deck": "item", "look": 2}]},
    {"label": "Gain 1 in two different traits", "then": [{"do": "choose", "options": pair_options()}]}]}]


# --- setup --------------------------------------------------------------------------------------

@effects.step("h09_place_minion")
def _place_minion(ctx, task, item):
    tiles = minion_tiles(ctx, apart=True)
    if not tiles:
        ctx.say("No tile is left for another Undead Minion.", kind="haunt_setup")
        return
    if item["left"] > 1:
        task["steps"].insert(0, {**item, "left": item["left"] - 1})
    hp.ask_monster_tile(ctx, task["player"], "h09_minion_tile", MINION, tiles, f"where does the next Undead Minion "
                        f"go ({MINIONS_AT_START - item['left'] + 1} of {MINIONS_AT_START})?")


hp.monster_tile_answer("h09_minion_tile", MINION)


def follower_options(ctx) -> list[str]:
    """Each follower picked at least once (Traitor's Tome, haunt 9: "Right
    Now"). Ruling: with fewer traitors than followers, none is picked twice."""
    s = ctx.s
    chosen = list(mine(ctx)["followers"].values())
    missing = [f for f in FOLLOWERS if f not in chosen]
    still = len(hp.traitors(s)) - len(chosen)
    if still <= len(missing):
        return missing
    return list(FOLLOWERS)


@effects.step("h09_follower")
def _follower(ctx, task, item):
    effects.ask(ctx, task["player"], "h09_follower", "which follower of Myrkul do you play?",
                follower_options(ctx))


@effects.decision("h09_follower")
def _decide_follower(ctx, pending, index):
    pid = pending["player"]
    follower = pending["options"][index]
    mine(ctx)["followers"][pid] = follower
    ctx.say(f"{ctx.name(pid)} will play the {follower}.", kind="secret", to="traitors")
    if follower == "Necromancer":  # "Special Necromancer Rules": the Necromancer runs the Undead Minions
        traitors = ctx.s["haunt"]["traitors"]
        necromancers = [p for p in traitors if mine(ctx)["followers"].get(p) == "Necromancer"]
        traitors[:] = necromancers + [p for p in traitors if p not in necromancers]


@effects.step("h09_announce")
def _announce(ctx, task, item):
    """Traitor's Tome, haunt 9: each follower is announced as its first turn
    starts, and takes its changes to the traits then."""
    pid = task["player"]
    follower = mine(ctx)["followers"].get(pid)
    if follower is None or pid in mine(ctx)["announced"]:
        return
    mine(ctx)["announced"].append(pid)
    lines = {"Necromancer": "a thoroughly deranged maker of undead minions",
             "Zombie Hulk": "a moaning tower of rotten flesh that spits acid",
             "Skeleton Warrior": "a warrior once great, now bones and cruelty"}
    ctx.say(f"{ctx.name(pid)} rises as the {follower}: {lines[follower]}.", kind="haunt", player=pid)
    if follower == "Necromancer":
        tr.change(ctx, pid, "sanity", 1)
        tr.change(ctx, pid, "knowledge", 1)
    elif follower == "Zombie Hulk":
        tr.change(ctx, pid, "might", 3)
        tr.change(ctx, pid, "speed", 1 - ctx.s["players"][pid]["traits"]["speed"])
    else:
        mend(ctx, pid)
        for trait in TRAITS:
            tr.change(ctx, pid, trait, 1)


def mend(ctx, pid: str):
    """A trait below its starting value goes back up to it."""
    p = ctx.s["players"][pid]
    tracks = ctx.c.adventurers[p["adventurer"]].tracks
    for trait in TRAITS:
        if p["traits"][trait] < tracks[trait].start:
            tr.change(ctx, pid, trait, tracks[trait].start - p["traits"][trait])


@effects.step("h09_home")
def _home(ctx, task, item):
    """Secrets of Survival, haunt 9: "You Win When..."."""
    pid = task["player"]
    if ctx.s["players"][pid]["alive"] and ctx.s["players"][pid]["tile"] == HOME and ctx.s["phase"] == "haunt":
        hp.finish(ctx, "heroes", f"{ctx.name(pid)} ends the turn inside the Elfsong Tavern.")


hp.monster_tile_answer("h09_raise", MINION)


@rulesets.register(9)
class AloneAgainstTheDead(rulesets.RuleSet):
    title = "Alone Against the Dead"

    def setup_step(self, ctx, step):
        s = ctx.s
        text = step.get("text", "").lower()
        if step.get("monster") == MINION:
            effects.queue(ctx, traitors_in_order(ctx)[0], [{"do": "h09_place_minion", "left": MINIONS_AT_START}],
                          source="haunt")
        elif "follower" in text:
            for pid in traitors_in_order(ctx):
                effects.queue(ctx, pid, [{"do": "h09_follower"}], source="haunt")
        elif "for each traitor" in text:
            for hero in hp.heroes(s):
                effects.queue(ctx, hero, HERO_PICK * len(hp.traitors(s)), source="haunt")
        elif "room" in text or "stays in play" in text:
            pass  # each side reads its rules privately, and the reveal named the traitors
        else:
            return None
        return True

    def turn_started(self, ctx, pid):
        if pid not in hp.traitors(ctx.s):
            return
        if pid not in mine(ctx)["announced"]:
            effects.queue(ctx, pid, [{"do": "h09_announce"}], source="haunt")
        elif mine(ctx)["followers"].get(pid) == "Skeleton Warrior":
            mend(ctx, pid)  # "Special Skeleton Warrior Rules" (Ruling: at the start of each of its turns)

    def turn_ending(self, ctx, pid):
        return [{"do": "h09_home"}] if pid in hp.heroes(ctx.s) else None

    def haunt_goals(self, ctx, pid):
        """The hero runs for the Elfsong Tavern; the followers hunt the hero."""
        return {HOME} if pid in hp.heroes(ctx.s) and HOME in ctx.s["board"] else None

    own = OWN
    moves = (
        rulesets.Move("raise", "Raise an Undead Minion", lambda ctx, pid, trait: raise_minion(ctx, pid),
                      who="traitors", instead_of_attack=True,
                      summary="The Necromancer, instead of attacking, raises a minion on any tile but the hero's "
                              "(6 on the board at most)."),
        rulesets.Move("acid", "Spew acid", lambda ctx, pid, trait: acid(ctx, pid, trait),
                      traits=("might",), who="traitors", instead_of_attack=True,
                      summary="The Zombie Hulk, once a game: a Might attack on the hero up to 2 tiles away in line "
                              "of sight; losing from afar costs nothing."),
    )


def raise_minion(ctx, pid: str):
    """Traitor's Tome, haunt 9: "Special Necromancer Rules": instead of
    attacking, a new minion anywhere but the hero's tile; 6 at most."""
    turn = ctx.s["turn"]
    if mine(ctx)["followers"].get(pid) != "Necromancer":
        raise IllegalAction("Only the Necromancer raises Undead Minions.")
    if len(living_minions(ctx)) >= MOST_MINIONS:
        raise IllegalAction(f"There are already {MOST_MINIONS} Undead Minions on the board.")
    turn["attacked"] = True
    tiles = minion_tiles(ctx, apart=False)
    effects.ask(ctx, pid, "h09_raise", "where does the new Undead Minion rise?", [ctx.tile_name(t) for t in tiles],
                tiles=tiles)


def acid(ctx, pid: str, trait: str):
    """Traitor's Tome, haunt 9: "Special Zombie Hulk Attack Rules": once per
    game, a Might attack on the hero up to 2 tiles away in line of sight;
    losing it from another tile costs nothing."""
    s = ctx.s
    turn = s["turn"]
    here = s["players"][pid]["tile"]
    if mine(ctx)["followers"].get(pid) != "Zombie Hulk":
        raise IllegalAction("Only the Zombie Hulk spews acid.")
    if pid in mine(ctx)["acid_used"]:
        raise IllegalAction("The acid is spent: once per game.")
    near = distances(ctx, here, doors_only=True)
    targets = [h for h in hp.alive(s, hp.heroes(s)) if near.get(s["players"][h]["tile"], 99) <= ACID_REACH
               and line_of_sight(ctx.c, s["board"], here, s["players"][h]["tile"])]
    if not targets:
        raise IllegalAction("The hero must be within 2 tiles and in line of sight.")
    hero = targets[0]
    mine(ctx)["acid_used"].append(pid)
    turn["attacked"] = True
    ctx.say(f"{ctx.name(pid)} spews a stream of acid at {ctx.name(hero)}.", kind="attack")
    a = effects.make_roll(ctx, pid, attack.attack_dice(ctx, pid, "might"), "Might to attack", trait="might",
                          kind="attack")
    d = attack.defence_roll(ctx, hero, "might", ctx.value(hero, "might"))
    s["haunt"]["last_attacker"] = pid
    effects.queue(ctx, pid, [attack.roll_off(pid, hero, "might", a, d, s["players"][hero]["tile"] != here),
                             {"do": "_attack_over"}], source=ACID, front=True)
