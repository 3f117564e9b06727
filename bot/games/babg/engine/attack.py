"""Attacks once the haunt has begun (rulebook: Make an Attack, Special
Attacks, How Monsters Work): opposed rolls, the difference as damage, ties
hurt no one, distance attacks, stealing instead of damage, stunned monsters.

What cards and powers change in an attack they say through the hook points
(bot.games.babg.engine.hooks): the traits and reach an attacker has, a weapon's own
attack, extra dice and bonuses, questions before the outcome, damage added
or replaced, what follows the damage. This module names none of them."""
from . import cards as cd
from . import effects, hooks, rng
from . import sides as hp
from . import state as st
from .board import line_of_sight
from .errors import IllegalAction
from .sides import label, monster_by_id  # noqa: F401  (re-exported)

DAMAGE_KIND = {"might": "physical", "speed": "physical", "knowledge": "mental", "sanity": "mental"}


# --- who may attack whom, with what -------------------------------------------------------

def attack_traits(ctx, pid: str, weapon: str | None = None) -> list[str]:
    """Might; a weapon's own trait instead (Crossbow, Book of Spells ...);
    and the traits a power allows ("attack_traits")."""
    weapon_trait = (ctx.c.cards[weapon].attack or {}).get("trait", "might") if weapon else "might"
    if weapon_trait != "might":
        return [weapon_trait]
    found = ["might"]
    for more in hooks.fire("attack_traits", ctx, pid, weapon):
        found += more
    return list(dict.fromkeys(found))


def attack_range(ctx, pid: str, trait: str, weapon: str | None = None) -> set[str]:
    """Your own tile; with a distance weapon any tile in line of sight
    (rulebook: Special Attacks, "Distance Attacks"); what a power adds."""
    here = ctx.s["players"][pid]["tile"]
    reach = {here}
    if weapon and (ctx.c.cards[weapon].attack or {}).get("distance"):
        reach |= {t for t in ctx.s["board"] if line_of_sight(ctx.c, ctx.s["board"], here, t)}
    for more in hooks.fire("attack_reach", ctx, pid, trait, weapon):
        reach |= set(more)
    return reach


def shielded(ctx, target: str) -> str | None:
    """Why nobody may attack `target` now, or None."""
    return hooks.first("shielded", ctx, target)


def attack_dice(ctx, pid: str, trait: str, weapon: str | None = None, reckless: bool = False) -> int:
    """The trait's dice plus a weapon's extra dice for its trait (rulebook:
    Use Item and Omen Cards, "Weapons") plus what a power adds; 8 at most."""
    n = ctx.value(pid, trait)
    if weapon:
        weapon_attack = ctx.c.cards[weapon].attack or {}
        if weapon_attack.get("trait", "might") == trait:
            n += weapon_attack.get("extra_dice", 0)
    n += hooks.total("attack_dice", ctx, pid, trait, weapon, reckless)
    return rng.dice_count(n)


def stealable(ctx, pid: str) -> list[str]:
    """Rulebook: Special Attacks, "Stealing Items": the cards an opponent
    could steal from `pid` (the card says if it cannot be stolen, unless the
    haunt says otherwise: "card_stealable")."""
    found = []
    for c in ctx.s["players"][pid]["cards"]:
        own = hooks.first("card_stealable", ctx, c)
        if own if own is not None else ctx.c.cards[c].can_steal:
            found.append(c)
    return found


def can_steal(ctx, target: str, dealt: int, distance: bool, no_steal: bool) -> bool:
    """Rulebook: Special Attacks, "Stealing Items": 2 or more damage on your
    tile, not a distance attack; an addition that forbids it (no_steal)."""
    return not distance and dealt >= 2 and not no_steal and bool(stealable(ctx, target))


# --- an adventurer's attack ---------------------------------------------------------------

def attack(ctx, pid: str, target: str, trait: str | None, weapon: str | None, reckless: bool = False):
    s = ctx.s
    turn = s["turn"]
    if turn.get("monsters"):
        raise IllegalAction("It is the monster turn: attack with one of the monsters, not with your adventurer.")
    if turn.get("attacked"):
        raise IllegalAction("You have already attacked this turn; an attack is once per turn.")
    weapon_id = cd.held_card(ctx, pid, weapon) if weapon else None
    if weapon_id and not ctx.c.cards[weapon_id].weapon:
        raise IllegalAction(f"{ctx.card_name(weapon_id)} is not a weapon.")
    if weapon_id and weapon_id in turn["used"]:  # Rulebook: Use Item and Omen Cards: attacking with it is using it
        raise IllegalAction(f"You have already used, dropped, picked up or traded {ctx.card_name(weapon_id)} this "
                            "turn; each item allows one of those per turn.")
    trait = (trait or ((ctx.c.cards[weapon_id].attack or {}).get("trait") if weapon_id else None) or "might").lower()
    if trait not in attack_traits(ctx, pid, weapon_id):
        raise IllegalAction(f"You cannot attack with {trait.capitalize()}"
                            + (f" using {ctx.card_name(weapon_id)}." if weapon_id else "; attacks use Might."))
    here = s["players"][pid]["tile"]
    if target in s["players"]:
        other = s["players"][target]
        if target == pid:
            raise IllegalAction("You cannot attack yourself.")
        if not other["alive"] or not st.on_board(other):
            raise IllegalAction(f"{ctx.name(target)} is not on the board.")
        if s["haunt"]["kind"] not in ("hidden_traitor", "none_yet") and target not in effects.opponents_of(ctx, pid):
            raise IllegalAction(f"{ctx.name(target)} is on your side.")
        if other["tile"] == here and not st.together(s, pid, target):
            raise IllegalAction(f"{ctx.name(target)} is on the other side of the barrier: nobody fights across it.")
        why = shielded(ctx, target)
        if why:
            raise IllegalAction(why)
        where, defence_value, name = other["tile"], ctx.value(target, trait), ctx.name(target)
    else:
        m = hp.monster(ctx, target)
        if pid in hp.traitors(s) and s["haunt"]["kind"] in hp.TRAITOR_KINDS and not m.get("ally"):
            raise IllegalAction("The monsters are on your side.")
        if m.get("ally") and pid not in hp.traitors(s):
            raise IllegalAction(f"{st.monster_called(m)} is on your side.")
        if trait not in m["traits"]:
            raise IllegalAction(f"{m['name']} has no {trait.capitalize()}, so it cannot be attacked with it.")
        if m["tile"] == here and not st.beside(s, pid, m):
            raise IllegalAction(f"{st.monster_called(m)} is on the other side of the barrier.")
        where, defence_value, name, target = m["tile"], m["traits"][trait], f"{st.monster_called(m)}", m["id"]
    if where not in attack_range(ctx, pid, trait, weapon_id):
        raise IllegalAction(f"{name} is not within reach: attack someone on your tile"
                            + (" or in a straight line of doorways." if weapon_id else "."))
    why = hooks.first("attack_blocked", ctx, pid, target, trait, weapon_id)  # a haunt's own limits on this attack
    why = why or (None if weapon_id else hooks.first("unarmed_blocked", ctx, pid, target))
    if why:
        raise IllegalAction(why)
    turn["attacked"] = True
    if weapon_id:
        turn["used"].append(weapon_id)
        turn["attacked_with"] = weapon_id
    # A distance weapon's attack is a distance attack even on your own tile: the Crossbow's "you take
    # no damage if you lose, and you cannot steal with it" holds for every attack made with it.
    distance = where != here or bool(weapon_id and (ctx.c.cards[weapon_id].attack or {}).get("distance"))
    ctx.say(f"{ctx.name(pid)} attacks {name} with {trait.capitalize()}"
            + (f", using {ctx.card_name(weapon_id)}" if weapon_id else "") + ".", kind="attack")
    if hooks.first("attack_averted", ctx, pid, target):  # the attack does not happen after all
        return
    if weapon_id and hooks.first("weapon_attack", ctx, pid, target, weapon_id):
        return  # the weapon makes its own attack instead of the roll-off
    trait = (hooks.first("attack_trait", ctx, pid, weapon_id, trait) if weapon_id else None) or trait
    a = effects.make_roll(ctx, pid, attack_dice(ctx, pid, trait, weapon_id, reckless),
                          f"{trait.capitalize()} to attack", trait=trait, kind="attack")
    weapon_trait = (ctx.c.cards[weapon_id].attack or {}).get("trait") if weapon_id else None
    a += hooks.total("attack_bonus", ctx, pid, target, trait, trait != weapon_trait)
    d = defence_roll(ctx, target, trait, defence_value)
    s["haunt"]["last_attacker"] = pid
    # What follows the roll-off runs as one task, in the order the rules give it: the outcome
    # (with its choices), then what cards and powers add after it (a price, a second strike).
    after = effects.queue(ctx, pid, [roll_off(pid, target, trait, a, d, distance, weapon_id)],
                          source="attack", front=True)
    for steps in hooks.fire("attack_followups", ctx, pid, target, reckless):
        after["steps"] += steps
    after["steps"].append({"do": "_attack_over"})


def roll_off(attacker: str, defender: str, trait: str, a: int, d: int, distance: bool, weapon: str | None = None):
    return {"do": "_roll_off", "attacker": attacker, "defender": defender, "trait": trait, "attack": a,
            "defence": d, "distance": distance, "weapon": weapon, "asked": []}


@effects.step("_roll_off")
def _roll_off(ctx, task, item):
    """Both rolls are made; before the outcome, a card or power may change
    a result ("before_outcome": it puts the step back and asks), then the
    outcome."""
    if hooks.first("before_outcome", ctx, task, item):
        return
    effects.push_front(ctx, resolve(ctx, item["attacker"], item["defender"], item["trait"], item["attack"],
                                    item["defence"], item["distance"], weapon=item.get("weapon")))


@effects.step("_attack_over")
def _attack_over(ctx, task, item):
    """The attack is over: a death from now on is not this attacker's kill."""
    ctx.s["haunt"]["last_attacker"] = None


def defence_roll(ctx, target: str, trait: str, value: int) -> int:
    value += hooks.total("defence_dice", ctx, target, trait)  # dice a haunt adds (helpers on the tile ...)
    if target in ctx.s["players"]:
        return effects.make_roll(ctx, target, rng.dice_count(value), f"{trait.capitalize()} to defend", trait=trait,
                                 kind="defence")
    m = monster_by_id(ctx, target)
    faces = []
    roller = hooks.first("defence_roller", ctx, target, trait) or hp.controller(ctx.s)
    total = effects.make_roll(ctx, roller, rng.dice_count(value),
                              f"{trait.capitalize()} for {st.monster_called(m)} to defend", kind="defence",
                              faces_out=faces)
    blanks = sum(1 for f in faces if f == 0)
    if blanks and hooks.first("defence_reroll", ctx, target, trait):  # a haunt rerolls its blank dice once
        total += effects.make_roll(ctx, roller, blanks, f"the blank dice again for {m['name']} "
                                   f"{m['number']}", kind="defence")
    return total


def resolve(ctx, attacker: str, defender: str, trait: str, a: int, d: int, distance: bool,
            weapon: str | None = None) -> list[dict]:
    """Rulebook: Make an Attack: the higher result deals the difference as
    damage of the trait's kind; a tie hurts nobody. Says who won and returns
    the steps that carry the outcome out."""
    kind = DAMAGE_KIND[trait]
    if a == d:
        ctx.say(f"A tie ({a} to {d}): nobody is hurt.", kind="attack")
        return []
    winner, loser, amount = (attacker, defender, a - d) if a > d else (defender, attacker, d - a)
    if loser == attacker and distance:
        ctx.say(f"{label(ctx, attacker)} misses ({a} to {d}) and, attacking from a distance, takes no damage.",
                kind="attack")
        return []
    stunned_defender = defender not in ctx.s["players"] and monster_by_id(ctx, defender)["stunned"]
    if loser == attacker and stunned_defender:
        ctx.say(f"{label(ctx, attacker)} loses ({a} to {d}), but a stunned monster deals no damage.", kind="attack")
        return []
    ctx.say(f"{label(ctx, winner)} wins {max(a, d)} to {min(a, d)}: {amount} {kind} damage to {label(ctx, loser)}.",
            kind="attack")
    if loser not in ctx.s["players"]:
        hurt_monster(ctx, monster_by_id(ctx, loser), kind, amount)
        return after_won(ctx, attacker, loser, trait)
    if loser == attacker:
        amount += hooks.total("backlash", ctx, attacker, trait, weapon)  # a weapon that bites back when you lose
    if winner != attacker or attacker not in ctx.s["players"]:
        return [{"do": "_attack_damage", "winner": winner, "loser": loser, "kind": kind, "amount": amount,
                 "distance": distance}]
    return [{"do": "_attack_won", "loser": loser, "kind": kind, "amount": amount, "distance": distance,
             "asked": [], "no_steal": False}] + after_won(ctx, attacker, loser, trait)


def after_won(ctx, attacker: str, loser: str, trait: str) -> list[dict]:
    """What an attacker who won may do next (a push, ...)."""
    if attacker not in ctx.s["players"]:
        return []
    return [x for steps in hooks.fire("after_won", ctx, attacker, loser, trait) for x in steps]


@effects.step("_attack_won")
def _attack_won(ctx, task, item):
    """An adventurer's attack on an adventurer dealt damage. In order, the
    attacker may: replace the damage ("damage_instead"); add damage
    ("extra_damage"); steal instead of damage (rulebook: Special Attacks,
    "Stealing Items")."""
    attacker, loser = task["player"], item["loser"]
    item = {**item, "asked": list(item["asked"])}
    if "instead" not in item["asked"]:
        item["asked"].append("instead")
        offer = hooks.first("damage_instead", ctx, attacker, loser, item["amount"])
        if offer:
            task["steps"].insert(0, {**item, "instead": offer["steps"]})
            effects.ask(ctx, attacker, "attack_won", f"{offer['prompt']} instead of dealing {item['amount']} "
                        f"{item['kind']} damage?", [offer["label"], f"Deal the {item['kind']} damage"],
                        choice="instead")
            return
    options = [o for found in hooks.fire("extra_damage", ctx, attacker, item["amount"], item["kind"]) for o in found]
    for option in options:
        if option["card"] in item["asked"]:
            continue
        item["asked"].append(option["card"])
        task["steps"].insert(0, item)
        effects.ask(ctx, attacker, "attack_won", f"add {option['amount']} {option['kind']} damage with "
                    f"{ctx.card_name(option['card'])}" + (" (then discard it)" if option.get("discard") else "")
                    + "?", [f"Add {option['amount']} damage", "No"], choice=option["card"], option=option)
        return
    others = [o for found in hooks.fire("steal_instead", ctx, attacker, loser, item["amount"], item["distance"])
              for o in found] if item["amount"] >= 2 and not item["no_steal"] else []
    if can_steal(ctx, loser, item["amount"], item["distance"], item["no_steal"]) or others:
        cards = stealable(ctx, loser) if can_steal(ctx, loser, item["amount"], item["distance"], item["no_steal"]) \
            else []
        effects.ask(ctx, attacker, "steal", f"deal the damage or steal from {ctx.name(loser)}?",
                    [f"Deal {item['amount']} {item['kind']} damage"] + [f"Steal {ctx.card_name(c)}" for c in cards]
                    + [o["label"] for o in others],
                    victim=loser, amount=item["amount"], damage=item["kind"], cards=cards,
                    distance=item["distance"], others=[o["steps"] for o in others])
        return
    damage(ctx, attacker, loser, item["kind"], item["amount"], item["distance"])


@effects.decision("attack_won")
def _decide_attack_won(ctx, pending, index):
    task = effects.current(ctx)
    item, data = task["steps"][0], pending["data"]
    if index != 0:
        return
    if data["choice"] == "instead":
        task["steps"].pop(0)
        effects.push_front(ctx, item["instead"])
        return
    option = data["option"]
    if option.get("discard"):
        cd.discard(ctx, option["card"])
    item["amount"] += option["amount"]
    item["no_steal"] = item["no_steal"] or bool(option.get("no_steal"))
    ctx.say(f"{ctx.card_name(data['choice'])} adds {option['amount']}: {item['amount']} "
            f"{item['kind']} damage in all.", kind="attack")


@effects.step("_attack_damage")
def _attack_damage(ctx, task, item):
    damage(ctx, item["winner"], item["loser"], item["kind"], item["amount"], item["distance"])


def damage(ctx, winner: str, loser: str, kind: str, amount: int, distance: bool):
    """The loser takes the damage; what follows it ("after_damage") runs once
    it is taken (armour may stop it)."""
    if winner in ctx.s["players"]:
        after = [x for steps in hooks.fire("after_damage", ctx, winner, loser, kind, distance) for x in steps]
        if after:
            effects.push_front(ctx, after)
    role = "attack" if ctx.s["haunt"].get("last_attacker") in (None, winner) else "defence"
    effects.take_damage(ctx, loser, kind, amount, source="attack", by=f"{label(ctx, winner)}'s {role}", dealer=winner)


@effects.decision("steal")
def _decide_steal(ctx, pending, index):
    """Rulebook: Special Attacks, "Stealing Items": instead of 2 or more damage."""
    data = pending["data"]
    if index == 0:
        damage(ctx, pending["player"], data["victim"], data["damage"], data["amount"], data.get("distance", False))
        return
    if index > len(data["cards"]):  # something the haunt lets the winner take instead ("steal_instead")
        effects.push_front(ctx, data["others"][index - 1 - len(data["cards"])])
        return
    card = data["cards"][index - 1]
    if hooks.first("card_gaining", ctx, pending["player"], card):
        return  # the haunt gave the thief something else instead (as a draw, a pick-up or a trade); the card stays
    cd.lose(ctx, data["victim"], card)
    cd.gain(ctx, pending["player"], card)
    ctx.s["turn"]["used"].append(card)  # stealing it is this turn's one action with it
    ctx.say(f"{ctx.name(pending['player'])} steals {ctx.card_name(card)} from {ctx.name(data['victim'])}.",
            kind="steal")


# --- monsters -----------------------------------------------------------------------------

def stun(ctx, m: dict):
    """Rulebook: How Monsters Work: damage stuns a monster, which misses its
    next turn (unless the haunt says otherwise)."""
    if not m["stunned"]:
        m["stunned"] = True
        ctx.say(f"{st.monster_called(m)} is stunned.", kind="monster", monster=m["id"])


def hurt_monster(ctx, m: dict, kind: str, amount: int):
    """Damage to a monster stuns it (rulebook: How Monsters Work), unless the
    haunt or a power deals with it otherwise ("monster_hurt")."""
    if amount <= 0:
        return
    if not hooks.first("monster_hurt", ctx, m, kind, amount):
        stun(ctx, m)


def check_monster_attack(ctx, m: dict, target: str, refusal: str = "Monsters attack the heroes."):
    """Rulebook: How Monsters Work: a monster that is not stunned attacks
    once a turn someone it opposes on its tile and side of a barrier whom
    nothing shields. Haunts that make their own monster attacks check the
    same (`refusal` says who that monster attacks)."""
    s = ctx.s
    if m["stunned"]:
        raise IllegalAction(f"{st.monster_called(m)} is stunned and cannot attack.")
    if m["id"] in s["turn"]["attacked"]:
        raise IllegalAction(f"{st.monster_called(m)} has already attacked this turn.")
    if target not in s["players"] or not s["players"][target]["alive"]:
        raise IllegalAction(refusal)
    if m.get("ally") and not st.known_traitor(s, target):  # an NPC on the heroes' side fights only the traitor
        raise IllegalAction(f"{m['name']} is on the heroes' side: it attacks only a known traitor.")
    if not m.get("ally") and target in hp.traitors(s) and s["haunt"]["kind"] in hp.TRAITOR_KINDS:
        raise IllegalAction(refusal)
    if not st.beside(s, target, m):
        raise IllegalAction(f"{ctx.name(target)} is not on {st.monster_called(m)}'s tile"
                            + (" and side of the barrier." if s["players"][target]["tile"] == m["tile"] else "."))
    why = shielded(ctx, target) or hooks.first("monster_attack_blocked", ctx, m, target)
    if why:
        raise IllegalAction(why)


def mob_attack_roll(ctx, mob: list[dict], hero: str, what: str, outcome: dict):
    """Several monsters attack one hero together (a haunt's mob rule): their
    Might added up, 8 dice at most, against the hero's Might; the `outcome`
    step then settles it, given the attack `a` and the defence `d`."""
    s = ctx.s
    dice = min(rng.MAX_DICE, sum(m["traits"]["might"] for m in mob))
    ctx.say(f"{len(mob)} {what}{'s' if len(mob) != 1 else ''} mob {ctx.name(hero)} ({dice} dice).", kind="attack")
    a = effects.make_roll(ctx, hp.controller(s), rng.dice_count(dice), f"Might for the {what} mob", kind="contest")
    d = defence_roll(ctx, hero, "might", ctx.value(hero, "might"))
    s["haunt"]["last_attacker"] = mob[0]["id"]
    effects.queue(ctx, hero, [{**outcome, "mob": [m["id"] for m in mob], "hero": hero, "a": a, "d": d},
                              {"do": "_attack_over"}], source="attack", front=True)


def monster_attack(ctx, ref: str, target: str, trait: str | None):
    s = ctx.s
    turn = s["turn"]
    m = hp.monster(ctx, ref)
    if hooks.first("monster_attack", ctx, m, target, trait):  # the haunt makes this attack its own way
        return
    trait = (trait or m.get("attacks")
             or ("might" if "might" in m["traits"] else next(iter(m["traits"]), "might"))).lower()
    if m.get("attacks") and trait != m["attacks"]:  # the haunt gives it one attack trait
        raise IllegalAction(f"{m['name']} attacks only with {m['attacks'].capitalize()}.")
    check_monster_attack(ctx, m, target)
    if trait not in m["traits"]:
        raise IllegalAction(f"{m['name']} has no {trait.capitalize()}.")
    turn["attacked"].append(m["id"])
    ctx.say(f"{st.monster_called(m)} attacks {ctx.name(target)} with {trait.capitalize()}.", kind="attack")
    a = effects.make_roll(ctx, hp.controller(s), rng.dice_count(m["traits"][trait]),
                          f"{trait.capitalize()} for {st.monster_called(m)}", kind="contest")
    d = defence_roll(ctx, target, trait, ctx.value(target, trait))
    s["haunt"]["last_attacker"] = m["id"]
    effects.queue(ctx, target, [roll_off(m["id"], target, trait, a, d, False), {"do": "_attack_over"}],
                  source="attack", front=True)
