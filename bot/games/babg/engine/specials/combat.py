"""Attacks: the attacks cards make on their own, and what cards and powers
change in the haunt's attacks and movement.

Before the haunt the only attacks are the ones event cards make on their own
(Bhaal's Call, Sound of Looming Doom, Zhentarim Opportunist): a fixed number
of dice rolled by the player on your right against your trait. `card_attack`
carries those out.

Everything else is called by bot.games.babg.engine.attack (rulebook: Make an Attack,
Special Attacks) or by movement (bot.games.babg.engine.moves, haunt_play.monster_move).
Each function's docstring names the rule it implements.
"""
from .. import attack
from .. import board as bd
from .. import cards as cd
from .. import effects, hooks, rng
from .. import sides as hp
from .. import marks as mk
from .. import state as st
from .. import traits as tr
from ..content import MENTAL
from ..attack import DAMAGE_KIND  # noqa: F401  (re-exported)
from .common import card_state, distances, right_of



# --- attacks made by cards (before the haunt too) ------------------------------

def card_attack(ctx, defender: str, by: str, dice: int, trait: str, source: str, defend: bool = True,
                on_hit=()):
    """Queue an attack a card makes on `defender`: `by` rolls `dice` dice for
    the card; the defender rolls `trait` (or, with defend=False, the attack
    is compared with the defender's current value). The higher result deals
    the difference as damage of the trait's kind; `on_hit` steps run when
    damage is dealt. Ruling: a card's attack never harms the player who rolls
    for it, and its dice are not that player's own roll (no curse or boost)."""
    effects.queue(ctx, defender, [{"do": "_card_attack", "by": by, "dice": dice, "trait": trait,
                                   "defend": defend, "on_hit": list(on_hit)}], source=source, front=True)


@effects.step("_card_attack")
def _card_attack(ctx, task, item):
    pid, by, trait = task["player"], item["by"], item["trait"]
    what = ctx.card_name(task["source"]) if task["source"] in ctx.c.cards else "the attack"
    attack = effects.make_roll(ctx, by, rng.dice_count(item["dice"]), f"{item['dice']} dice for {what}",
                               kind="card")
    if item["defend"]:
        defence = effects.make_roll(ctx, pid, rng.dice_count(ctx.value(pid, trait)), f"{trait.capitalize()} to defend",
                                    trait=trait, kind="defence")
    else:
        defence = ctx.value(pid, trait)
        ctx.say(f"{ctx.name(pid)} rolls no defence; the attack is set against their {trait.capitalize()} of "
                f"{defence}.", kind="attack")
    result = {**item, "do": "_card_attack_result", "attack": attack, "defence": defence}
    task["steps"].insert(0, result)
    if item["defend"] and attack > defence and cursed_armor_offer(ctx, pid):
        effects.ask(ctx, pid, "cursed_armor", f"lose 1 Sanity to add 1 to your defence ({defence})?",
                    ["Lose 1 Sanity: defence +1", "No"])


@effects.decision("cursed_armor")
def _decide_cursed_armor(ctx, pending, index):
    if index == 0:
        task = effects.current(ctx)  # the attack's task, even if a curse's damage was queued in front of it
        bonus = cursed_armor_use(ctx, pending["player"])
        if task and task["steps"] and "defence" in task["steps"][0]:  # gone if the Sanity paid was the last
            task["steps"][0] = {**task["steps"][0], "defence": task["steps"][0]["defence"] + bonus}


@effects.step("_card_attack_result")
def _card_attack_result(ctx, task, item):
    pid = task["player"]
    dealt = item["attack"] - item["defence"]
    if dealt <= 0:
        ctx.say(f"{ctx.name(pid)} holds off the attack ({item['attack']} against {item['defence']}); "
                "nobody is hurt.", kind="attack", player=pid, dealt=0)
        return
    ctx.say(f"The attack beats {ctx.name(pid)} by {dealt}.", kind="attack", player=pid, dealt=dealt)
    effects.push_front(ctx, item["on_hit"])
    effects.take_damage(ctx, pid, DAMAGE_KIND[item["trait"]], dealt, source=task.get("source"))


@hooks.on("before_outcome", order=20)
def _cursed_armor_in_attack(ctx, task, item):
    """Cursed Armor: a defender losing may first buy 1 more defence with 1
    Sanity (card: "whenever you roll defense")."""
    defender = item["defender"]
    if "cursed_armor" in item["asked"] or item["attack"] <= item["defence"] or defender not in ctx.s["players"] \
            or not cursed_armor_offer(ctx, defender):
        return None
    task["steps"].insert(0, {**item, "asked": item["asked"] + ["cursed_armor"]})
    effects.ask(ctx, defender, "cursed_armor", f"lose 1 Sanity to add 1 to your defence ({item['defence']})?",
                ["Lose 1 Sanity: defence +1", "No"])
    return True


def cursed_armor_offer(ctx, defender: str) -> bool:
    """Cursed Armor: whenever you roll defence, you may add 1 to the result
    by losing 1 Sanity. Offered while the armour's holder is losing."""
    return "cursed_armor" in ctx.s["players"][defender]["cards"]


def cursed_armor_use(ctx, defender: str) -> int:
    """Cursed Armor: pay 1 Sanity; returns the 1 added to the defence."""
    tr.change(ctx, defender, "sanity", -1)
    ctx.say(f"{ctx.name(defender)}'s Cursed Armor takes 1 Sanity and adds 1 to the defence.", kind="attack")
    return 1


# --- who may attack whom ------------------------------------------------------------

def opponents(ctx, pid: str) -> list[str]:
    """Rulebook: Glossary, "opponent". Nobody before the haunt."""
    return effects.opponents_of(ctx, pid)


@hooks.on("shielded")
def _invisible(ctx, target: str) -> str | None:
    return None if can_be_attacked(ctx, target) else f"Nobody can attack {ctx.name(target)} until their next turn."


def can_be_attacked(ctx, target: str) -> bool:
    """Potion of Invisibility: until the start of the drinker's next turn
    nobody can attack them, not even from a distance."""
    return mk.find(ctx, target, "invisible") is None


def leave_cost(ctx, pid: str) -> int:
    """Rulebook: Moving Past Opponents (1 extra space per opponent on your
    tile). Cunning Action (Tasha) and Potion of Invisibility make it 0."""
    if power_special(ctx, pid) == "cunning_action" or mk.find(ctx, pid, "invisible"):
        return 0
    return sum(1 for o in opponents(ctx, pid) if st.together(ctx.s, o, pid)) + \
        sum(1 for m in monster_opponents(ctx, pid) if st.beside(ctx.s, pid, m) and not m["stunned"])


def monster_opponents(ctx, pid: str) -> list[dict]:
    """The monsters opposing an adventurer: every living monster, unless the
    adventurer is a known traitor (rulebook: Glossary, "opponent")."""
    s = ctx.s
    if s["phase"] != "haunt" or not s["haunt"] or not s.get("monsters"):
        return []
    if st.known_traitor(s, pid):
        return [m for m in s["monsters"] if not m["dead"] and m.get("ally") == "heroes"]  # NPCs on the heroes' side
    return [m for m in s["monsters"] if not m["dead"] and not m.get("ally")]


def power_special(ctx, pid: str) -> str | None:
    for item in ctx.c.adventurers[ctx.s["players"][pid]["adventurer"]].power.get("effects", []):
        if item.get("do") == "special":
            return item["name"]
    return None


def stealable(ctx, pid: str) -> list[str]:
    return attack.stealable(ctx, pid)


def attack_dice(ctx, pid: str, trait: str, weapon: str | None = None, reckless: bool = False) -> int:
    return attack.attack_dice(ctx, pid, trait, weapon, reckless)


def attack_traits(ctx, pid: str, weapon: str | None = None) -> list[str]:
    return attack.attack_traits(ctx, pid, weapon)


def attack_range(ctx, pid: str, trait: str, weapon: str | None = None) -> set[str]:
    return attack.attack_range(ctx, pid, trait, weapon)


@hooks.on("attack_dice")
def _reckless_attack_dice(ctx, pid: str, trait: str, weapon, reckless: bool) -> int:
    """Reckless Attack (Torskar): 2 more dice, chosen before rolling."""
    return 2 if reckless and power_special(ctx, pid) == "reckless_attack" else 0


@hooks.on("attack_followups")
def _reckless_attack_price(ctx, pid: str, target: str, reckless: bool):
    if reckless and power_special(ctx, pid) == "reckless_attack":
        return [{"do": "damage", "kind": "physical", "dice": 1}]  # Reckless Attack's price
    return None


@hooks.on("attack_traits")
def _power_traits(ctx, pid: str, weapon) -> list[str]:
    """Eldritch Blast Sanity; Magic Missile Knowledge; Wild Magic Knowledge or Sanity."""
    return {"eldritch_blast": ["sanity"], "magic_missile": ["knowledge"],
            "wild_magic": ["knowledge", "sanity"]}.get(power_special(ctx, pid), [])


@hooks.on("attack_reach")
def _magic_missile_reach(ctx, pid: str, trait: str, weapon):
    """Magic Missile (Knowledge) reaches tiles up to 1 away (rulebook:
    Special Attacks, "Distance Attacks")."""
    if power_special(ctx, pid) == "magic_missile" and trait == "knowledge":
        here = ctx.s["players"][pid]["tile"]
        return {t for t, d in distances(ctx, here, doors_only=True).items() if d <= 1}
    return None


@hooks.on("attack_bonus")
def result_bonus(ctx, pid: str, target: str, trait: str, by_power: bool = True) -> int:
    """Added to an attack result: Hunter's Mark (Avrixis) +1 against the
    marked opponent; Wild Magic (Ralvio), when it is what lets him attack
    with Knowledge or Sanity (`by_power`, not a weapon's trait), rolls one
    die more, and a blank takes 1 off."""
    bonus = 0
    p = ctx.s["players"][pid]
    if p.get("power", {}).get("mark") == target:
        bonus += 1
    if power_special(ctx, pid) == "wild_magic" and trait in MENTAL and by_power:
        face = rng.roll(ctx.s, 1)[0]
        ctx.say(f"Wild Magic: the extra die shows {face}" + (", so the result drops by 1." if face == 0 else "."),
                kind="attack")
        if face == 0:
            bonus -= 1
    return bonus


# --- after the roll: damage and what replaces it ---------------------------------------

@hooks.on("extra_damage")
def extra_damage_options(ctx, attacker: str, dealt: int, kind: str) -> list[dict]:
    """What the winner may add to the damage: Holy Symbol 1 more of the same
    kind (and then no stealing if the attack dealt only 1); Vial of Poison 2
    more physical, discarding the vial."""
    p = ctx.s["players"][attacker]
    found = []
    if "holy_symbol" in p["cards"] and dealt > 0:
        found.append({"card": "holy_symbol", "amount": 1, "kind": kind, "no_steal": dealt == 1})
    if "vial_of_poison" in p["cards"] and dealt > 0 and kind == "physical":
        found.append({"card": "vial_of_poison", "amount": 2, "kind": "physical", "discard": True})
    return found


def use_extra_damage(ctx, attacker: str, option: dict) -> int:
    if option.get("discard"):
        cd.discard(ctx, option["card"])
    return option["amount"]


def can_steal(ctx, attacker: str, target: str, dealt: int, distance: bool, holy_symbol_added: bool) -> bool:
    """Rulebook: Special Attacks, "Stealing Items"; Card Clarifications, Holy
    Symbol: its 1 extra damage does not make 1 damage a steal."""
    return attack.can_steal(ctx, target, dealt, distance, no_steal=holy_symbol_added and dealt - 1 < 2)


def book_of_spells_backlash(ctx, attacker: str, lost_by: int) -> int:
    """Book of Spells: when you lose a Sanity attack made with it and take
    damage, you take 1 more."""
    return lost_by + 1 if lost_by > 0 else 0


@hooks.on("backlash")
def _book_of_spells(ctx, attacker: str, trait: str, weapon) -> int:
    special = (ctx.c.cards[weapon].attack or {}).get("special") if weapon else None
    return 1 if special == "book_of_spells" and trait == "sanity" else 0


def can_shackle(ctx, attacker: str, target: str) -> bool:
    """Dimensional Shackles: offered when the holder wins an attack on an
    adventurer on the holder's tile."""
    return "dimensional_shackles" in ctx.s["players"][attacker]["cards"] and \
        target in ctx.s["players"] and st.together(ctx.s, target, attacker)  # a Crossbow win here counts too


@hooks.on("damage_instead")
def _shackles_offer(ctx, attacker: str, loser: str, amount: int = 0):
    if can_shackle(ctx, attacker, loser):
        return {"prompt": f"hand {ctx.name(loser)} the Dimensional Shackles", "label": "Shackle them (no damage)",
                "steps": [{"do": "_shackle", "attacker": attacker, "target": loser}]}
    return None


@effects.step("_shackle")
def _shackle_step(ctx, task, item):
    shackle(ctx, item["attacker"], item["target"])


def shackle(ctx, attacker: str, target: str):
    """Dimensional Shackles: win an attack against an adventurer on your tile
    and you may hand them the shackles instead of dealing damage (their
    Speed drops by 1 while they hold them, yours comes back)."""
    ctx.say(f"{ctx.name(attacker)} claps the Dimensional Shackles on {ctx.name(target)}.", kind="attack")
    cd.lose(ctx, attacker, "dimensional_shackles")
    cd.gain(ctx, target, "dimensional_shackles")


@hooks.on("after_damage")
def _wererat_after_damage(ctx, winner: str, loser: str, kind: str, distance: bool):
    """Wererat Bite: once the damage is taken (armour may stop it), the
    infected winner may pass it on."""
    if kind == "physical" and not distance and can_infect(ctx, winner, loser):
        return [{"do": "_bite", "by": winner, "victim": loser, "before": sum(ctx.s["players"][loser]["traits"].values())}]
    return None


@effects.step("_bite")
def _bite(ctx, task, item):
    victim = ctx.s["players"][item["victim"]]
    if victim["alive"] and sum(victim["traits"].values()) < item["before"]:
        effects.ask(ctx, item["by"], "wererat_bite", f"pass the wererat's curse on to {ctx.name(item['victim'])}?",
                    ["Infect them", "No"], victim=item["victim"])


@effects.decision("wererat_bite")
def _decide_bite(ctx, pending, index):
    if index == 0:
        wererat_infect(ctx, pending["player"], pending["data"]["victim"])


def can_infect(ctx, attacker: str, target: str) -> bool:
    return bool(mk.find(ctx, attacker, "wererat")) and "wererat_bite" not in ctx.s["players"][target]["once"]


def wererat_infect(ctx, attacker: str, target: str) -> bool:
    """Wererat Bite: physical damage from an attack by an infected adventurer
    may infect an adventurer on the same tile: -1 Knowledge, -1 Sanity,
    +1 Might, +1 Speed; nobody is infected twice in a game."""
    tp = ctx.s["players"][target]
    if not can_infect(ctx, attacker, target):
        return False
    tp["once"].append("wererat_bite")
    mk.add(ctx, target, "wererat")
    ctx.say(f"{ctx.name(target)} is infected by the wererat's curse.", kind="mark", player=target)
    for trait, delta in (("knowledge", -1), ("sanity", -1), ("might", 1), ("speed", 1)):
        tr.change(ctx, target, trait, delta)
    return True


def traitor_sheds(ctx, pid: str) -> list[str]:
    """Rulebook: The Traitor's New Powers: a new traitor may be freed from
    event cards that hinder them (Crawling Claw, Wererat Bite)."""
    return [c for c in ctx.s["players"][pid]["cards"] if ctx.c.cards[c].traitor_may_shed]


def flurry_of_blows(ctx, pid: str, defender: str) -> int:
    """Flurry of Blows (Azadeh): after your attack on your turn, roll 1 die:
    0, you take 1 physical damage; 1 or 2, the defender takes that much
    physical damage with no defence roll (a monster defender is stunned by
    the caller). Returns the face."""
    face = effects.make_roll(ctx, pid, 1, "for Flurry of Blows", kind="dice")
    who, amount = (pid, 1) if face == 0 else (defender, face)
    if who in ctx.s["players"]:
        effects.queue(ctx, who, [{"do": "damage", "kind": "physical", "amount": amount}], source="power:azadeh",
                      front=True)
    return face


@hooks.on("attack_followups")
def _flurry_offer(ctx, pid: str, target: str, reckless: bool):
    return [{"do": "_flurry", "target": target}] if power_special(ctx, pid) == "flurry_of_blows" else None


@effects.step("_flurry")
def _flurry(ctx, task, item):
    """Flurry of Blows (Azadeh): after her attack is resolved she may roll 1 die."""
    pid, target = task["player"], item["target"]
    gone = not ctx.s["players"][target]["alive"] if target in ctx.s["players"] else \
        attack.monster_by_id(ctx, target)["dead"]
    if not ctx.s["players"][pid]["alive"] or gone:
        return
    effects.ask(ctx, pid, "flurry_of_blows", f"roll 1 die for Flurry of Blows against {attack.label(ctx, target)}? "
                "(0: you take 1 physical damage; 1 or 2: they take that much)", ["Roll", "No"], target=target)


@effects.decision("flurry_of_blows")
def _decide_flurry(ctx, pending, index):
    if index == 0:
        target = pending["data"]["target"]
        face = flurry_of_blows(ctx, pending["player"], target)
        if face and target not in ctx.s["players"]:
            attack.hurt_monster(ctx, attack.monster_by_id(ctx, target), "physical", face)


def eldritch_push_targets(ctx, tile: str) -> list[str]:
    """Eldritch Blast (Lia): after a winning Sanity attack the defender may be
    pushed 1 tile away: the tiles connected to theirs."""
    return [t for t in bd.exits(ctx.c, ctx.s["board"], tile).values() if t]


# --- weapons that are not a plain roll-off ------------------------------------------------

def javelin_of_lightning(ctx, pid: str, target: str):
    """Javelin of Lightning: instead of a normal attack, an opponent on your
    tile takes 2 dice of physical damage; discard the javelin."""
    cd.discard(ctx, "javelin_of_lightning")
    if target in ctx.s["players"]:
        effects.queue(ctx, target, [{"do": "damage", "kind": "physical", "dice": 2}], source="javelin_of_lightning",
                      front=True)
        return
    dealt = effects.make_roll(ctx, pid, 2, "2 dice of lightning", kind="damage")
    attack.hurt_monster(ctx, attack.monster_by_id(ctx, target), "physical", dealt)


def necklace_of_fireballs(ctx, pid: str):
    """Necklace of Fireballs: every other character on your tile rolls Speed;
    0-4 takes 4 physical damage (a monster is stunned); discard the necklace."""
    cd.discard(ctx, "necklace_of_fireballs")
    here = ctx.s["players"][pid]["tile"]
    for m in reversed(_monsters_on(ctx, here)):
        effects.queue(ctx, pid, [{"do": "_monster_roll", "monster": m["id"], "trait": "speed", "target": 5,
                                  "damage": 4}], source="necklace_of_fireballs", front=True)
    for other in reversed([o for o in st.players_on(ctx.s, here, beside=pid) if o != pid]):
        effects.queue(ctx, other, [{"do": "roll", "trait": "speed", "bands": [
            {"at_least": 5, "then": []},
            {"at_most": 4, "then": [{"do": "damage", "kind": "physical", "amount": 4}]}]}],
            source="necklace_of_fireballs", front=True)


@hooks.on("weapon_attack")
def _weapon_makes_its_own_attack(ctx, pid: str, target: str, weapon: str):
    special = (ctx.c.cards[weapon].attack or {}).get("special")
    if special == "javelin_of_lightning":  # instead of the roll-off: 2 dice of damage
        javelin_of_lightning(ctx, pid, target)
        return True
    if special == "necklace_of_fireballs":
        necklace_of_fireballs(ctx, pid)
        return True
    return None


@hooks.on("attack_trait")
def _explosive_runes(ctx, pid: str, weapon: str, trait: str):
    if (ctx.c.cards[weapon].attack or {}).get("special") == "explosive_runes":
        return explosive_runes_attack(ctx, pid)
    return None


def _monsters_on(ctx, tile: str) -> list[dict]:
    return [m for m in ctx.s.get("monsters", []) if not m["dead"] and m["tile"] == tile]


@effects.step("_monster_roll")
def _monster_roll(ctx, task, item):
    """A monster rolls a trait against a target (its controller rolls for
    it); missing it, the monster takes damage and so is stunned. One without
    the trait cannot avoid it."""
    m = attack.monster_by_id(ctx, item["monster"])
    value = m["traits"].get(item["trait"])
    total = effects.make_roll(ctx, hp.controller(ctx.s), rng.dice_count(value),
                              f"{item['trait'].capitalize()} for {attack.label(ctx, m['id'])}",
                              kind="contest") if value else 0
    if total < item["target"]:
        attack.hurt_monster(ctx, m, "physical", item.get("damage", 1))


@effects.special("damage_monsters")
def _damage_monsters(ctx, task, item):
    """Every living monster in the area takes `dice` dice of damage, rolled
    by the player; any damage stuns it (rulebook: How Monsters Work)."""
    tiles = effects.area(ctx, ctx.s["players"][task["player"]]["tile"], item["on"])
    for m in [m for m in ctx.s.get("monsters", []) if not m["dead"] and m["tile"] in tiles]:
        dealt = effects.make_roll(ctx, task["player"], rng.dice_count(item["dice"]),
                                  f"damage to {attack.label(ctx, m['id'])}", kind="damage")
        attack.hurt_monster(ctx, m, "physical", dealt)


@effects.step("_monster_attacked")
def _monster_attacked(ctx, task, item):
    """A card's attack on a monster: `dice` against its trait; a win stuns it."""
    m = attack.monster_by_id(ctx, item["monster"])
    if item["trait"] not in m["traits"]:
        ctx.say(f"{attack.label(ctx, m['id'])} has no {item['trait'].capitalize()} and is not harmed.", kind="attack")
        return
    hit = effects.make_roll(ctx, task["player"], rng.dice_count(item["dice"]), f"{item['dice']} dice for "
                            f"{ctx.card_name(task['source'])}", kind="card")
    defence = effects.make_roll(ctx, hp.controller(ctx.s), rng.dice_count(m["traits"][item["trait"]]),
                                f"{item['trait'].capitalize()} for {attack.label(ctx, m['id'])} to defend",
                                kind="defence")
    if hit > defence:
        attack.hurt_monster(ctx, m, "physical", hit - defence)
    else:
        ctx.say(f"{attack.label(ctx, m['id'])} withstands it.", kind="attack")


def explosive_runes_attack(ctx, pid: str):
    """Explosive Runes (kept on 5+): discard it to attack with Knowledge
    instead of Might; no other weapon in that attack."""
    cd.discard(ctx, "explosive_runes")
    return "knowledge"


def iron_flask(ctx, pid: str):
    """Iron Flask of Tuerny: once per game, instead of your attack, a balor
    makes a Might 6 attack on everyone on your tile, you too."""
    state = card_state(ctx, "iron_flask_of_tuerny", store=True)
    if state.get("used"):
        return False
    state["used"] = True
    here = ctx.s["players"][pid]["tile"]
    ctx.s["haunt"]["flask_open"] = True  # no winner until every attack is resolved (Card Clarifications)
    effects.queue(ctx, pid, [{"do": "_flask_closes"}], source="iron_flask_of_tuerny", front=True)
    for m in reversed(_monsters_on(ctx, here)):
        effects.queue(ctx, pid, [{"do": "_monster_attacked", "monster": m["id"], "dice": 6, "trait": "might"}],
                      source="iron_flask_of_tuerny", front=True)
    for other in reversed([o for o in st.players_on(ctx.s, here, beside=pid) if can_be_attacked(ctx, o)]):
        card_attack(ctx, other, pid, 6, "might", "iron_flask_of_tuerny")
    return True


# --- movement in the haunt ----------------------------------------------------------------

def eye_of_vecna_watches(ctx, mover: str, tile: str | None) -> str | None:
    """Eye of Vecna: the holder, when `mover` (an adventurer or a monster id)
    is their opponent trying to move onto the holder's tile."""
    if tile is None:
        return None
    for holder in effects.opponents_of(ctx, mover) if mover in ctx.s["players"] else _heroes_alive(ctx):
        p = ctx.s["players"][holder]
        if "eye_of_vecna" in p["cards"] and p["tile"] == tile and st.on_board(p):
            return holder
    return None


def _heroes_alive(ctx) -> list[str]:
    """The heroes as the table sees them (a hidden traitor among them)."""
    return [p for p in st.side_members(ctx.s, "heroes") if ctx.s["players"][p]["alive"]]


@effects.step("_eye_of_vecna")
def _eye_of_vecna(ctx, task, item):
    effects.ask(ctx, item["holder"], "eye_of_vecna", f"{attack.label(ctx, item['mover'])} tries to move onto "
                "your tile: make them roll 2 dice against the Eye of Vecna?", ["Make them roll", "Let them come"],
                mover=item["mover"])


@effects.decision("eye_of_vecna")
def _decide_eye_of_vecna(ctx, pending, index):
    move = effects.current(ctx)  # before the Eye's damage is queued in front of it
    if index == 0 and eye_of_vecna_stops(ctx, pending["data"]["mover"], pending["player"]):
        move["steps"].pop(0)  # the step onto the tile does not happen


def eye_of_vecna_stops(ctx, mover: str, holder: str) -> bool:
    """Eye of Vecna: the mover rolls 2 dice (a monster's controller rolls
    for it): 0-1 they stay and their movement ends; exactly 1 also costs 1
    mental damage (Ruling: to the holder, as the card's "you" is the one who
    uses it). Placing is not moving."""
    roller = mover if mover in ctx.s["players"] else hp.controller(ctx.s)
    name = "" if roller == mover else f" for {attack.label(ctx, mover)}"
    total = effects.make_roll(ctx, roller, 2, f"against the Eye of Vecna{name}", kind="dice")
    if total == 1:
        effects.queue(ctx, holder, [{"do": "damage", "kind": "mental", "amount": 1}], source="eye_of_vecna",
                      front=True)
    if total > 1:
        return False
    ctx.say(f"The Eye of Vecna holds {attack.label(ctx, mover)} back: their movement ends.", kind="move")
    if mover in ctx.s["players"]:
        if ctx.s["turn"] and ctx.s["turn"]["player"] == mover:
            ctx.s["turn"]["stopped"] = True
    else:
        m = attack.monster_by_id(ctx, mover)
        m["moved"] = ctx.s["turn"]["moves"].get(m["name"], 1)  # nothing left this monster turn
    return True


def berserker_axe_holds(ctx, pid: str) -> bool:
    """Berserker Axe: sharing a tile with an opponent, you cannot leave
    until you have attacked one with the axe this turn, unless a card or
    haunt rule stops you attacking them (Card Clarifications): an opponent
    nobody may attack does not hold you."""
    if "berserker_axe" not in ctx.s["players"][pid]["cards"] or \
            (ctx.s["turn"] or {}).get("attacked_with") == "berserker_axe":
        return False
    return any(st.together(ctx.s, o, pid) and can_be_attacked(ctx, o) for o in opponents(ctx, pid)) or \
        any(st.beside(ctx.s, pid, m) and "might" in m["traits"] for m in monster_opponents(ctx, pid))


def caltrops_on_enter(ctx, pid: str, tile: str) -> bool:
    """Caltrops (our design): an opponent of whoever scattered them entering
    the tile stops and rolls Speed 3+, taking 1 physical damage on a miss (a
    monster's movement ends, and a miss stuns it)."""
    if pid not in ctx.s["players"]:
        m = next(m for m in ctx.s["monsters"] if m["id"] == pid)
        for token in ctx.s["tokens"]:
            if token["tile"] == tile and token.get("item") == "caltrops" and \
                    any(x["id"] == pid for x in monster_opponents(ctx, token["by"])):
                m["moved"] = ctx.s["turn"].get("moves", {}).get(m["name"], 1)
                effects.queue(ctx, token["by"], [{"do": "_monster_roll", "monster": pid, "trait": "speed",
                                                  "target": 3}], source="caltrops", front=True)
                return True
        return False
    for token in ctx.s["tokens"]:
        if token["tile"] == tile and token.get("item") == "caltrops" and pid in opponents(ctx, token["by"]):
            if ctx.s["turn"] and ctx.s["turn"]["player"] == pid:
                ctx.s["turn"]["stopped"] = True
            effects.queue(ctx, pid, [{"do": "roll", "trait": "speed", "bands": [
                {"at_least": 3, "then": []},
                {"at_most": 2, "then": [{"do": "damage", "kind": "physical", "amount": 1}]}]}],
                source="caltrops", front=True)
            return True
    return False


def otyugh_on_leave(ctx, pid: str, tile: str) -> bool:
    """Otyugh Tentacle: once the haunt has begun, a hero leaving the tile is
    attacked (Might 3) by the player on their right; winning discards the
    token and card, winning by 3 or more also gains 1 Might or Speed. A
    hidden traitor counts as a hero until unmasked."""
    if ctx.s["phase"] != "haunt" or st.known_traitor(ctx.s, pid):
        return False
    token = next((t for t in ctx.s["tokens"] if t["tile"] == tile and t.get("card") == "otyugh_tentacle"), None)
    if not token:
        return False
    effects.queue(ctx, pid, [{"do": "_otyugh", "by": right_of(ctx, pid)}], source="otyugh_tentacle", front=True)
    return True


@effects.step("_otyugh")
def _otyugh(ctx, task, item):
    pid = task["player"]
    attack = effects.make_roll(ctx, item["by"], 3, "3 dice for the Otyugh", kind="card")
    defence = effects.make_roll(ctx, pid, ctx.value(pid, "might"), "Might to break free", trait="might",
                                kind="defence")
    if attack > defence:
        effects.take_damage(ctx, pid, "physical", attack - defence, source="otyugh_tentacle")
    elif defence > attack:
        cd.discard(ctx, "otyugh_tentacle")
        if defence - attack >= 3:
            effects.push_front(ctx, [{"do": "gain", "traits": ["might", "speed"], "amount": 1}])


@hooks.on("death")
def _symbol_of_bhaal(ctx, dead: str, killer: str | None):
    for holder in ctx.s["seats"]:
        if ctx.s["players"][holder]["alive"] and "symbol_of_bhaal" in ctx.s["players"][holder]["cards"]:
            symbol_of_bhaal_on_death(ctx, holder, killer)


def symbol_of_bhaal_on_death(ctx, holder: str, killer: str | None):
    """Symbol of Bhaal: once the haunt has begun, each time an adventurer is
    killed the holder rolls 1 die: 2 gain 1 Might; 1 nothing; 0 nothing if
    the holder made the kill, else 1 die of mental damage."""
    steps = [{"do": "roll", "dice": 1, "bands": [
        {"at_least": 2, "then": [{"do": "gain", "trait": "might", "amount": 1}]},
        {"at_least": 1, "at_most": 1, "then": []},
        {"at_most": 0, "then": [] if killer == holder else [{"do": "damage", "kind": "mental", "dice": 1}]}]}]
    effects.queue(ctx, holder, steps, source="symbol_of_bhaal", front=True)


# --- the same hooks as `special` steps, for the attack engine's queue -------------------------
# The attack engine can run a weapon's or a power's special as a step, with the defender in the
# task's args (effects.queue(..., args={"target": pid})).

def _target(task) -> str | None:
    return task.get("args", {}).get("target")


def _choose_for_attack(name: str, trait: str | None = None):
    def handler(ctx, task, item):
        """Recorded before the attack roll (Reckless Attack: "decide before
        rolling"); the attack engine reads and clears the mark."""
        mk.take(ctx, task["player"], "attack_choice")
        mk.add(ctx, task["player"], "attack_choice", power=name, trait=trait)
    return handler


for _name, _trait in (("reckless_attack", "might"), ("eldritch_blast", "sanity"),
                      ("magic_missile", "knowledge"), ("wild_magic", None), ("book_of_spells", "sanity")):
    effects.special(_name)(_choose_for_attack(_name, _trait))


@effects.special("flurry_of_blows")
def _flurry_step(ctx, task, item):
    if _target(task):
        flurry_of_blows(ctx, task["player"], _target(task))


@effects.special("javelin_of_lightning")
def _javelin_step(ctx, task, item):
    if _target(task):
        javelin_of_lightning(ctx, task["player"], _target(task))


@effects.special("necklace_of_fireballs")
def _necklace_step(ctx, task, item):
    necklace_of_fireballs(ctx, task["player"])


@effects.special("explosive_runes")
def _explosive_runes_step(ctx, task, item):
    mk.add(ctx, task["player"], "attack_choice", power="explosive_runes", trait=explosive_runes_attack(
        ctx, task["player"]))


# --- what the cards and powers above answer when the core rules ask (bot.games.babg.engine.hooks) -----------

@hooks.on("leave_cost")
def _leave_cost(ctx, pid: str) -> int:
    return leave_cost(ctx, pid)


@hooks.on("leave_blocked")
def _berserker_axe(ctx, pid: str) -> str | None:
    if ctx.s["phase"] == "haunt" and berserker_axe_holds(ctx, pid):
        return "The Berserker Axe will not let you leave an opponent standing: attack one here first."
    return None


@hooks.on("leaving")
def _otyugh_tentacle(ctx, pid: str, tile: str):
    otyugh_on_leave(ctx, pid, tile)  # queued in front: the tentacle strikes before the step away


@hooks.on("watched")
def _eye_watches(ctx, mover: str, tile: str | None) -> list[dict] | None:
    holder = eye_of_vecna_watches(ctx, mover, tile) if ctx.s["phase"] == "haunt" else None
    return [{"do": "_eye_of_vecna", "mover": mover, "holder": holder}] if holder else None


@hooks.on("entered")
def _caltrops(ctx, mover: str, tile: str):
    if ctx.s["phase"] == "haunt":
        caltrops_on_enter(ctx, mover, tile)


@hooks.on("traitor_named")
def _traitor_sheds(ctx, pid: str):
    """Rulebook: The Traitor's New Powers: freed from the cards that hinder,
    "if you would like to be": the new traitor is asked, card by card."""
    for cid in traitor_sheds(ctx, pid):
        effects.queue(ctx, pid, [{"do": "_offer_shed", "card": cid}], source=cid)


@effects.step("_offer_shed")
def _offer_shed(ctx, task, item):
    pid, cid = task["player"], item["card"]
    if cid not in ctx.s["players"][pid]["cards"]:
        return
    effects.ask(ctx, pid, "traitor_shed", f"now a traitor, be freed from {ctx.card_name(cid)}?",
                [f"Yes, discard {ctx.card_name(cid)}", f"No, keep {ctx.card_name(cid)}"], card=cid)


@effects.decision("traitor_shed")
def _decide_shed(ctx, pending, index):
    pid, cid = pending["player"], pending["data"]["card"]
    if index != 0 or cid not in ctx.s["players"][pid]["cards"]:
        return
    cd.discard(ctx, cid)
    if cid == "wererat_bite":  # the curse goes with its card: no more passing it on
        while mk.take(ctx, pid, "wererat"):
            pass
    ctx.say(f"{ctx.name(pid)}, now a traitor, is freed from {ctx.card_name(cid)}.", kind="traitor")
