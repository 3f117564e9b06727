"""Haunt 10, Rabble Rousers (Traitor's Tome and Secrets of Survival; the
revealer is the traitor). What the data says
(rules_data/haunts/10_rabble_rousers.toml): the heroes on the Elfsong
Tavern, the Chest on the Neglected Shrine, the Citizens' and the Medusa's
stats, the Medusa placed on the Neglected Shrine when part two opens.

What the bot carries out:
- the Citizens' setup: 3 per adventurer, 1 on the Neglected Shrine, then one
  a tile on the tiles around the Elfsong Tavern ring by ring (the heroes'
  chooser picks within a ring that cannot be filled), then a second round
  the same way, never on the Tavern;
- a Citizen that takes any damage leaves the board;
- the Citizens' mob: a Citizen's monster attack on a hero asks the traitor
  how many of the Citizens beside the hero join (their Might pooled, 8 dice at
  most); a lost mob attack removes 1 Citizen per point, as far as they go;
- the Chest: a hero who ends a turn on the Neglected Shrine with no Citizen
  there opens it, and part two begins at once: the traitor reads it, the
  Medusa stands on the Shrine, the Chest and every Citizen go, the traitor
  is a hero again (the haunt goes on as one with no traitor, the former
  traitor running the Medusa in a monster turn after their own turn), the
  Obstacles under the Medusa (half the living adventurers, rounded up) are a
  counter, and play goes on to the left of the one who opened the Chest;
- part two: a hero who starts a turn on the Medusa's tile rolls Knowledge or
  Sanity 4+ (their pick) or is turned to stone and dies; reflective items
  add 1 die to that roll and to attacks and defences against the Medusa; a
  hero who beats the Medusa takes an Obstacle from under it instead of
  stunning it, and with none left the heroes win.

No declared moves: the Citizens' mob is their monster attack, and the
Chest opens at the end of a hero's turn on the Shrine.

Left to the players: nothing.
"""
from .. import attack, effects, hooks, rulesets
from .. import haunt_play as hp
from .. import state as st
from .. import tokens as tk
from ..geometry import moves_from
from ..sides import monster_by_id

NUMBER = 10
CITIZEN, MEDUSA = "Citizen", "Medusa"
SHRINE, TAVERN = "neglected_shrine", "elfsong_tavern"
CHEST = "Chest"
OBSTACLES = "Obstacles under the Medusa"
STONE_TARGET = 4
REFLECTIVE = ("helm_of_teleportation", "locket", "necklace_of_fireballs", "potion_of_giant_strength",
              "potion_of_healing", "potion_of_invisibility", "potion_of_speed", "shiny_rock",
              "berserker_axe", "dimensional_shackles", "figurine_of_wondrous_power")


OWN = rulesets.Own("h10", {"opened_by": None, "won": None}, players=("opened_by",))


def mine(ctx) -> dict:
    return rulesets.REGISTRY[NUMBER].record(ctx.s)


def part_two(ctx) -> bool:
    return bool(ctx.s["haunt"].get("h10", {}).get("opened_by"))


def living(s: dict, name: str) -> list[dict]:
    return [m for m in s["monsters"] if m["name"] == name and not m["dead"]]


def reflective(ctx, pid: str) -> bool:
    return any(c in REFLECTIVE for c in ctx.s["players"][pid]["cards"])


def rings(ctx, start: str) -> dict[str, int]:
    """Each placed tile's ring around `start`: the fewest tiles crossed to
    reach it (a stair or a grate counts as one step, like a door)."""
    ring, todo = {start: 0}, [start]
    while todo:
        here = todo.pop(0)
        for other, _ in moves_from(ctx, here):
            if other in ctx.s["board"] and other not in ring:
                ring[other] = ring[here] + 1
                todo.append(other)
    return ring


def citizen_tiles(ctx) -> list[str]:
    """Secrets of Survival, haunt 10: "Right Now": the tiles the next Citizen
    may go on: the nearest ring of the fewest Citizens, never the Tavern."""
    s = ctx.s
    ring = rings(ctx, TAVERN)
    tiles = [t for t in s["board"] if t != TAVERN]
    count = {t: sum(1 for m in living(s, CITIZEN) if m["tile"] == t) for t in tiles}
    fewest = min(count.values())
    open_ = [t for t in tiles if count[t] == fewest]
    near = min(ring.get(t, 99) for t in open_)
    return sorted((t for t in open_ if ring.get(t, 99) == near), key=ctx.tile_name)


@effects.step("h10_citizens")
def _citizens(ctx, task, item):
    left = item["left"]
    if left <= 0:
        ctx.say(f"Setup: {len(living(ctx.s, CITIZEN))} Citizens guard the Chest and crowd the streets.",
                kind="haunt_setup")
        return
    tiles = citizen_tiles(ctx)
    if len(tiles) <= left:  # the whole ring is filled: nothing to choose
        for t in tiles:
            hp.add_monster(ctx, CITIZEN, t)
        effects.push_front(ctx, [{"do": "h10_citizens", "left": left - len(tiles)}])
        return
    effects.ask(ctx, task["player"], "h10_citizen", f"the next ring has more tiles than Citizens left ({left}): "
                "where does the next one go?", [ctx.tile_name(t) for t in tiles], tiles=tiles, left=left)


@effects.decision("h10_citizen")
def _decide_citizen(ctx, pending, index):
    hp.add_monster(ctx, CITIZEN, pending["data"]["tiles"][index])
    effects.push_front(ctx, [{"do": "h10_citizens", "left": pending["data"]["left"] - 1}])


def remove_citizen(ctx, m: dict):
    m["dead"] = True
    ctx.say(f"{st.monster_called(m)} is hurt and flees: the token leaves the board.", kind="monster",
            monster=m["id"])
    hooks.fire("monster_killed", ctx, m["id"])


# --- the Citizens' mob ----------------------------------------------------------------------------

def mob_attack(ctx, m: dict, target: str):
    """Traitor's Tome, haunt 10: "Special Citizen Mob Attack Rule"."""
    s = ctx.s
    turn = s["turn"]
    attack.check_monster_attack(ctx, m, target, "The Citizens attack the heroes.")
    others = [c["id"] for c in living(s, CITIZEN) if c["id"] != m["id"] and not c["stunned"]
              and c["id"] not in turn["attacked"] and st.beside(s, target, c)]
    turn["attacked"].append(m["id"])
    step = {"do": "h10_mob", "mob": [m["id"]], "others": others, "hero": target}
    effects.queue(ctx, hp.controller(s), [{"do": "h10_mob_ask", "step": step}] if others else [step],
                  source="attack", front=True)


@effects.step("h10_mob_ask")
def _mob_ask(ctx, task, item):
    step = item["step"]
    lead = monster_by_id(ctx, step["mob"][0])
    effects.ask(ctx, task["player"], "h10_mob", f"how many Citizens join {st.monster_called(lead)}'s attack on "
                f"{ctx.name(step['hero'])}?", [f"{n} Citizen{'s' if n != 1 else ''} in all"
                                               for n in range(1, len(step["others"]) + 2)], step=step)


@effects.decision("h10_mob")
def _decide_mob(ctx, pending, index):
    step = pending["data"]["step"]
    joined = step["others"][:index]
    ctx.s["turn"]["attacked"].extend(joined)
    effects.push_front(ctx, [{**step, "mob": step["mob"] + joined}])


@effects.step("h10_mob")
def _mob(ctx, task, item):
    mob = [monster_by_id(ctx, mid) for mid in item["mob"]]
    attack.mob_attack_roll(ctx, mob, item["hero"], "Citizen", {"do": "h10_mob_outcome"})


@effects.step("h10_mob_outcome")
def _mob_outcome(ctx, task, item):
    a, d, hero = item["a"], item["d"], item["hero"]
    if a == d:
        ctx.say(f"A tie ({a} to {d}): nobody is hurt.", kind="attack")
        return
    if a > d:
        ctx.say(f"The Citizens win {a} to {d}: {a - d} physical damage to {ctx.name(hero)}.", kind="attack")
        effects.take_damage(ctx, hero, "physical", a - d, source="attack")
        return
    hurt = [monster_by_id(ctx, mid) for mid in item["mob"]][:d - a]
    ctx.say(f"{ctx.name(hero)} wins {d} to {a}: {len(hurt)} Citizen{'s' if len(hurt) != 1 else ''} take 1 damage "
            "each.", kind="attack")
    for c in hurt:
        remove_citizen(ctx, c)


# --- the Chest and part two -------------------------------------------------------------------------

@effects.step("h10_open")
def _open(ctx, task, item):
    """Secrets of Survival, haunt 10: "Opening the Chest"; Traitor's Tome,
    haunt 10: the part after the heroes' goal."""
    h = ctx.s["haunt"]
    pid = item["by"]
    if part_two(ctx):
        return
    mine(ctx)["opened_by"] = pid
    ctx.say(f"{ctx.name(pid)} opens the Chest on the Neglected Shrine: the heroes have reached their goal!",
            kind="haunt", player=pid)
    haunt = ctx.c.haunts[h["number"]]
    for section in haunt.raw["heroes"]["section"]:
        if section["heading"].lower().startswith("if you win"):
            ctx.say(section["text"].strip(), kind="haunt")
    aloud = next(x for x in haunt.raw["traitor"]["section"] if x.get("part") == 2)
    ctx.say(aloud["text"].strip(), kind="haunt")
    hp.open_part_two(ctx, "traitor")  # the Tome's second part: read, then its setup steps (setup_step below)
    ctx.say("Part two: everyone now stands together against the Medusa. A hero who starts a turn on its tile "
            "rolls Knowledge or Sanity 4+ or is turned to stone; reflective items add a die to that roll and to "
            "fights with the Medusa; each win against it takes an Obstacle from under it, and a win with none "
            f"left beats it ({h['counters'].get(OBSTACLES, 0)} now).", kind="haunt")


@effects.step("h10_stone_roll")
def _stone_roll(ctx, task, item):
    pid = task["player"]
    extra = 1 if reflective(ctx, pid) else 0
    roll = lambda trait: {"do": "roll", "trait": trait, "extra_dice": extra, "bands": [  # noqa: E731
        {"at_least": STONE_TARGET, "then": []},
        {"at_most": STONE_TARGET - 1, "then": [{"do": "h10_petrified"}]}]}
    effects.push_front(ctx, [{"do": "choose", "options": [
        {"label": "Roll Knowledge", "then": [roll("knowledge")]},
        {"label": "Roll Sanity", "then": [roll("sanity")]}]}])


@effects.step("h10_petrified")
def _petrified(ctx, task, item):
    hp.die(ctx, task["player"], "turned to stone by the Medusa's gaze")


@rulesets.register(NUMBER)
class RabbleRousers(rulesets.RuleSet):
    title = "Rabble Rousers"

    own = OWN

    def setup_step(self, ctx, step):
        s, h = ctx.s, ctx.s["haunt"]
        text = step.get("text", "")
        if text.startswith("Your adventurer stays in play"):
            ctx.say("Setup: you run the Citizens in the monster turn. Several Citizens beside one hero attack "
                    "together: attack that hero with one of them, and the bot asks how many join.",
                    kind="haunt_setup", to="traitors")
            return True
        if text.startswith("Take 3 x adventurers"):
            ctx.say("Setup: a hero who ends a turn on the Neglected Shrine with no Citizen on it opens the Chest; "
                    "a Citizen that takes any damage flees.", kind="haunt_setup", to="heroes")
            hp.add_monster(ctx, CITIZEN, SHRINE)
            effects.queue(ctx, hp.chooser(s, "heroes"), [{"do": "h10_citizens", "left": 3 * len(s["seats"]) - 1}],
                          source="haunt")
            return True
        if text.startswith("Part two: the traitor becomes a hero"):
            former = hp.traitors(s)
            h["traitors"] = []
            h["kind"] = "no_traitor"  # Ruling: Haunt 10: part two
            ctx.say(f"{', '.join(ctx.name(p) for p in former)} is a traitor no longer and joins the heroes; "
                    "they run the Medusa in its monster turn.", kind="haunt")
            return True
        if text.startswith("Part two: remove the Chest"):
            for t in [t for t in s["tokens"] if t["name"] == CHEST]:
                tk.remove(s, t)
            for m in living(s, CITIZEN):
                m["dead"] = True
            ctx.say("The Chest is taken off the Neglected Shrine and the Citizens flee the board.", kind="haunt")
            return True
        if text.startswith("Part two: put square Obstacle"):
            n = (len(hp.alive(s, s["seats"])) + 1) // 2
            h["counters"][OBSTACLES] = n
            ctx.say(f"{n} Obstacle token{'s' if n != 1 else ''} under the Medusa.", kind="haunt")
            return True
        if text.startswith("Part two: play continues"):
            s["order"] = hp.turn_order(s)  # after the opener's turn, the next seat; the monster turn after the revealer
            return True
        return None

    def monster_attack(self, ctx, m, target, trait):
        if m["name"] != CITIZEN:
            return None
        mob_attack(ctx, m, target)
        return True

    def monster_hurt(self, ctx, m, kind, amount):
        if m["name"] == CITIZEN:  # Secrets of Survival, haunt 10: "Clearing the Citizens"
            remove_citizen(ctx, m)
            return True
        if m["name"] != MEDUSA or ctx.src != "attack":
            return None
        counters = ctx.s["haunt"]["counters"]  # Traitor's Tome, haunt 10: "Damaging the Medusa"
        if counters.get(OBSTACLES, 0) > 0:
            counters[OBSTACLES] -= 1
            ctx.say(f"An Obstacle token is taken from under the Medusa ({counters[OBSTACLES]} left).", kind="haunt")
        else:
            mine(ctx)["won"] = "The Medusa falls with no Obstacle left to shield it."
        return True

    def haunt_goals(self, ctx, pid):
        """Part one: the heroes make for the Chest on the Neglected Shrine
        (the traitor hunts them); part two: everyone for the Medusa. (No
        haunt action of its own: the Citizens' mob is their monster attack.)"""
        s = ctx.s
        if part_two(ctx):
            return {m["tile"] for m in living(s, MEDUSA)} or None
        return {SHRINE} if pid not in hp.traitors(s) and SHRINE in s["board"] else None

    def turn_ending(self, ctx, pid):
        s = ctx.s
        if part_two(ctx) or pid in hp.traitors(s) or not s["players"][pid]["alive"]:
            return None
        if s["players"][pid]["tile"] == SHRINE and not any(m["tile"] == SHRINE for m in living(s, CITIZEN)):
            return [{"do": "h10_open", "by": pid}]
        return None

    def turn_started(self, ctx, pid):
        """Traitor's Tome, haunt 10: "You Must Do This at the Start of Each
        Hero's Turn" (part two)."""
        s = ctx.s
        if not part_two(ctx) or not any(m["tile"] == s["players"][pid]["tile"] for m in living(s, MEDUSA)):
            return
        ctx.say(f"{ctx.name(pid)} begins the turn under the Medusa's gaze: a Knowledge or Sanity roll of "
                f"{STONE_TARGET}+, or turned to stone.", kind="haunt", player=pid)
        effects.queue(ctx, pid, [{"do": "h10_stone_roll"}], source="haunt")

    def attack_dice(self, ctx, pid, trait, weapon, reckless):
        """Traitor's Tome, haunt 10: "Using Reflective Items" (in part two
        the Medusa is everyone's only opponent)."""
        return 1 if part_two(ctx) and reflective(ctx, pid) else None

    def defence_dice(self, ctx, defender, trait):
        return 1 if part_two(ctx) and defender in ctx.s["players"] and reflective(ctx, defender) else None

    def win_check(self, ctx):
        won = ctx.s["haunt"].get("h10", {}).get("won")
        return ("heroes", won) if won else None
