"""Attacks once the haunt has begun (rulebook: Make an Attack, Special
Attacks, How Monsters Work): opposed rolls, the difference as damage, ties
hurt no one, distance attacks, stealing instead of damage, stunned monsters."""
from . import cards as cd
from . import effects
from . import sides as hp
from . import marks as mk
from . import state as st
from .errors import IllegalAction
from .sides import label, monster_by_id  # noqa: F401  (re-exported: cards and powers name them here)
from .specials import combat

DAMAGE_KIND = combat.DAMAGE_KIND


def attack(ctx, pid: str, target: str, trait: str | None, weapon: str | None, reckless: bool = False):
    s = ctx.s
    turn = s["turn"]
    if turn.get("monsters"):
        raise IllegalAction("It is the monster turn: attack with a monster (`monster attack`).")
    if turn.get("attacked"):
        raise IllegalAction("You have already attacked this turn; an attack is once per turn.")
    weapon_id = cd.held_card(ctx, pid, weapon) if weapon else None
    if weapon_id and not ctx.c.cards[weapon_id].weapon:
        raise IllegalAction(f"{ctx.card_name(weapon_id)} is not a weapon.")
    if weapon_id and weapon_id in turn["used"]:  # Rulebook: Use Item and Omen Cards: attacking with it is using it
        raise IllegalAction(f"You have already used, dropped, picked up or traded {ctx.card_name(weapon_id)} this "
                            "turn; each item allows one of those per turn.")
    trait = (trait or ((ctx.c.cards[weapon_id].attack or {}).get("trait") if weapon_id else None) or "might").lower()
    if trait not in combat.attack_traits(ctx, pid, weapon_id):
        raise IllegalAction(f"You cannot attack with {trait.capitalize()}"
                            + (f" using {ctx.card_name(weapon_id)}." if weapon_id else "; attacks use Might."))
    here = s["players"][pid]["tile"]
    if target in s["players"]:
        other = s["players"][target]
        if target == pid:
            raise IllegalAction("You cannot attack yourself.")
        if not other["alive"] or not st.on_board(other):
            raise IllegalAction(f"{ctx.name(target)} is not on the board.")
        if s["haunt"]["kind"] not in ("hidden_traitor", "none_yet") and target not in combat.opponents(ctx, pid):
            raise IllegalAction(f"{ctx.name(target)} is on your side.")
        if other["tile"] == here and not st.together(s, pid, target):
            raise IllegalAction(f"{ctx.name(target)} is on the other side of the barrier: nobody fights across it.")
        if not combat.can_be_attacked(ctx, target):
            raise IllegalAction(f"Nobody can attack {ctx.name(target)} until their next turn.")
        where, defence_value, name = other["tile"], ctx.value(target, trait), ctx.name(target)
    else:
        m = hp.monster(ctx, target)
        if pid in hp.traitors(s) and s["haunt"]["kind"] in hp.TRAITOR_KINDS:
            raise IllegalAction("The monsters are on your side.")
        if trait not in m["traits"]:
            raise IllegalAction(f"{m['name']} has no {trait.capitalize()}, so it cannot be attacked with it.")
        if m["tile"] == here and not st.beside(s, pid, m):
            raise IllegalAction(f"{m['name']} {m['number']} is on the other side of the barrier.")
        where, defence_value, name, target = m["tile"], m["traits"][trait], f"{m['name']} {m['number']}", m["id"]
    if where not in combat.attack_range(ctx, pid, trait, weapon_id):
        raise IllegalAction(f"{name} is not within reach: attack someone on your tile"
                            + (" or in a straight line of doorways." if weapon_id else "."))
    turn["attacked"] = True
    if weapon_id:
        turn["used"].append(weapon_id)
        turn["attacked_with"] = weapon_id
    # A distance weapon's attack is a distance attack even on your own tile: the Crossbow's "you take
    # no damage if you lose, and you cannot steal with it" holds for every attack made with it.
    distance = where != here or bool(weapon_id and (ctx.c.cards[weapon_id].attack or {}).get("distance"))
    ctx.say(f"{ctx.name(pid)} attacks {name} with {trait.capitalize()}"
            + (f", using {ctx.card_name(weapon_id)}" if weapon_id else "") + ".", kind="attack")
    special = (ctx.c.cards[weapon_id].attack or {}).get("special") if weapon_id else None
    if special == "javelin_of_lightning":  # instead of the roll-off: 2 dice of damage
        combat.javelin_of_lightning(ctx, pid, target)
        return
    if special == "necklace_of_fireballs":
        combat.necklace_of_fireballs(ctx, pid)
        return
    if special == "explosive_runes":
        trait = combat.explosive_runes_attack(ctx, pid)
    reckless = reckless and combat.power_special(ctx, pid) == "reckless_attack"
    a = effects.make_roll(ctx, pid, combat.attack_dice(ctx, pid, trait, weapon_id, reckless),
                          f"{trait.capitalize()} to attack", trait=trait, kind="attack")
    weapon_trait = (ctx.c.cards[weapon_id].attack or {}).get("trait") if weapon_id else None
    a += combat.result_bonus(ctx, pid, target, trait, by_power=trait != weapon_trait)
    d = defence_roll(ctx, target, trait, defence_value)
    s["haunt"]["last_attacker"] = pid
    # What follows the roll-off runs as one task, in the order the rules give it: the outcome
    # (with its choices), then Reckless Attack's price, then Flurry of Blows.
    after = effects.queue(ctx, pid, [roll_off(pid, target, trait, a, d, distance, special == "book_of_spells")],
                          source="attack", front=True)
    if reckless:
        after["steps"].append({"do": "damage", "kind": "physical", "dice": 1})  # Reckless Attack's price
    if combat.power_special(ctx, pid) == "flurry_of_blows":
        after["steps"].append({"do": "_flurry", "target": target})
    after["steps"].append({"do": "_attack_over"})


def roll_off(attacker: str, defender: str, trait: str, a: int, d: int, distance: bool, backlash: bool = False):
    return {"do": "_roll_off", "attacker": attacker, "defender": defender, "trait": trait, "attack": a,
            "defence": d, "distance": distance, "backlash": backlash, "asked": False}


@effects.step("_roll_off")
def _roll_off(ctx, task, item):
    """Both rolls are made: a defender losing in Cursed Armor may first buy 1
    more defence with 1 Sanity (card: "whenever you roll defense"), then the
    outcome."""
    defender, attacker = item["defender"], item["attacker"]
    inspired = attacker in ctx.s["players"] and mk.find(ctx, attacker, "inspired")
    if inspired and not item.get("bardic_asked") and ctx.s["turn"]["player"] == attacker:
        task["steps"].insert(0, {**item, "bardic_asked": True})  # Bardic Inspiration: any roll of your own turn
        effects.ask(ctx, attacker, "attack_bardic", f"hand back {ctx.name(inspired['by'])}'s Bardic Inspiration to "
                    f"make your attack {item['attack'] + 1}?", ["Add 1", "Keep the token"])
        return
    if not item["asked"] and item["attack"] > item["defence"] and defender in ctx.s["players"] and \
            combat.cursed_armor_offer(ctx, defender):
        task["steps"].insert(0, {**item, "asked": True})
        effects.ask(ctx, defender, "cursed_armor", f"lose 1 Sanity to add 1 to your defence ({item['defence']})?",
                    ["Lose 1 Sanity: defence +1", "No"])
        return
    effects.push_front(ctx, resolve(ctx, item["attacker"], defender, item["trait"], item["attack"], item["defence"],
                                    item["distance"], backlash=item["backlash"]))


@effects.decision("attack_bardic")
def _decide_attack_bardic(ctx, pending, index):
    if index == 0:
        from .specials import powers
        item = effects.current(ctx)["steps"][0]
        item["attack"] += 1
        powers.return_inspiration(ctx, pending["player"])
        ctx.say(f"{ctx.name(pending['player'])} uses Bardic Inspiration: the attack is now {item['attack']}.",
                kind="power", player=pending["player"])


@effects.step("_attack_over")
def _attack_over(ctx, task, item):
    """The attack is over: a death from now on is not this attacker's kill
    (Symbol of Bhaal)."""
    ctx.s["haunt"]["last_attacker"] = None


@effects.step("_flurry")
def _flurry(ctx, task, item):
    """Flurry of Blows (Azadeh): after her attack is resolved she may roll 1 die."""
    pid, target = task["player"], item["target"]
    gone = not ctx.s["players"][target]["alive"] if target in ctx.s["players"] else monster_by_id(ctx, target)["dead"]
    if not ctx.s["players"][pid]["alive"] or gone:
        return
    effects.ask(ctx, pid, "flurry_of_blows", f"roll 1 die for Flurry of Blows against {label(ctx, target)}? "
                "(0: you take 1 physical damage; 1 or 2: they take that much)", ["Roll", "No"], target=target)


@effects.decision("flurry_of_blows")
def _decide_flurry(ctx, pending, index):
    if index == 0:
        target = pending["data"]["target"]
        face = combat.flurry_of_blows(ctx, pending["player"], target)
        if face and target not in ctx.s["players"]:
            hurt_monster(ctx, monster_by_id(ctx, target), "physical", face)


def defence_roll(ctx, target: str, trait: str, value: int) -> int:
    from . import rng
    if target in ctx.s["players"]:
        return effects.make_roll(ctx, target, rng.dice_count(value), f"{trait.capitalize()} to defend", trait=trait,
                                 kind="defence")
    m = next(m for m in ctx.s["monsters"] if m["id"] == target)
    return effects.make_roll(ctx, hp.controller(ctx.s), rng.dice_count(value),
                             f"{trait.capitalize()} for {m['name']} {m['number']} to defend", kind="defence")


def resolve(ctx, attacker: str, defender: str, trait: str, a: int, d: int, distance: bool,
            backlash: bool = False) -> list[dict]:
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
        return eldritch_push(ctx, attacker, loser, trait)
    if backlash and loser == attacker and trait == "sanity":
        amount = combat.book_of_spells_backlash(ctx, attacker, amount)  # Book of Spells: 1 more
    if winner != attacker or attacker not in ctx.s["players"]:
        return [{"do": "_attack_damage", "winner": winner, "loser": loser, "kind": kind, "amount": amount,
                 "distance": distance}]
    return [{"do": "_attack_won", "loser": loser, "kind": kind, "amount": amount, "distance": distance,
             "asked": [], "holy_symbol": False}] + eldritch_push(ctx, attacker, loser, trait)


def eldritch_push(ctx, attacker: str, loser: str, trait: str) -> list[dict]:
    if trait == "sanity" and attacker in ctx.s["players"] and combat.power_special(ctx, attacker) == "eldritch_blast":
        return [{"do": "_eldritch_push", "target": loser}]
    return []


@effects.step("_attack_won")
def _attack_won(ctx, task, item):
    """An adventurer's attack on an adventurer dealt damage. In order, the
    attacker may: hand over the Dimensional Shackles instead of the damage;
    add damage (Holy Symbol, Vial of Poison); steal instead of damage
    (rulebook: Special Attacks, "Stealing Items")."""
    attacker, loser = task["player"], item["loser"]
    item = {**item, "asked": list(item["asked"])}
    if "shackles" not in item["asked"]:
        item["asked"].append("shackles")
        if combat.can_shackle(ctx, attacker, loser):
            task["steps"].insert(0, item)
            effects.ask(ctx, attacker, "attack_won", f"hand {ctx.name(loser)} the Dimensional Shackles instead "
                        f"of dealing {item['amount']} {item['kind']} damage?",
                        ["Shackle them (no damage)", f"Deal the {item['kind']} damage"], choice="shackles")
            return
    for option in combat.extra_damage_options(ctx, attacker, item["amount"], item["kind"]):
        if option["card"] in item["asked"]:
            continue
        item["asked"].append(option["card"])
        task["steps"].insert(0, item)
        effects.ask(ctx, attacker, "attack_won", f"add {option['amount']} {option['kind']} damage with "
                    f"{ctx.card_name(option['card'])}" + (" (then discard it)" if option.get("discard") else "")
                    + "?", [f"Add {option['amount']} damage", "No"], choice=option["card"], option=option)
        return
    if combat.can_steal(ctx, attacker, loser, item["amount"], item["distance"], item["holy_symbol"]):
        cards = combat.stealable(ctx, loser)
        effects.ask(ctx, attacker, "steal", f"deal the damage or steal from {ctx.name(loser)}?",
                    [f"Deal {item['amount']} {item['kind']} damage"] + [f"Steal {ctx.card_name(c)}" for c in cards],
                    victim=loser, amount=item["amount"], damage=item["kind"], cards=cards,
                    distance=item["distance"])
        return
    damage(ctx, attacker, loser, item["kind"], item["amount"], item["distance"])


@effects.decision("attack_won")
def _decide_attack_won(ctx, pending, index):
    task = effects.current(ctx)
    item, data, attacker = task["steps"][0], pending["data"], pending["player"]
    if index != 0:
        return
    if data["choice"] == "shackles":
        task["steps"].pop(0)
        combat.shackle(ctx, attacker, item["loser"])
        return
    item["amount"] += combat.use_extra_damage(ctx, attacker, data["option"])
    item["holy_symbol"] = item["holy_symbol"] or data["choice"] == "holy_symbol"
    ctx.say(f"{ctx.card_name(data['choice'])} adds {data['option']['amount']}: {item['amount']} "
            f"{item['kind']} damage in all.", kind="attack")


@effects.step("_attack_damage")
def _attack_damage(ctx, task, item):
    damage(ctx, item["winner"], item["loser"], item["kind"], item["amount"], item["distance"])


def damage(ctx, winner: str, loser: str, kind: str, amount: int, distance: bool):
    if winner in ctx.s["players"] and kind == "physical" and not distance and combat.can_infect(ctx, winner, loser):
        # Wererat Bite: once the damage is taken (armour may stop it), the infected winner may pass it on
        effects.push_front(ctx, [{"do": "_bite", "by": winner, "victim": loser,
                                  "before": sum(ctx.s["players"][loser]["traits"].values())}])
    effects.take_damage(ctx, loser, kind, amount, source="attack")


@effects.step("_bite")
def _bite(ctx, task, item):
    victim = ctx.s["players"][item["victim"]]
    if victim["alive"] and sum(victim["traits"].values()) < item["before"]:
        effects.ask(ctx, item["by"], "wererat_bite", f"pass the wererat's curse on to {ctx.name(item['victim'])}?",
                    ["Infect them", "No"], victim=item["victim"])


@effects.decision("wererat_bite")
def _decide_bite(ctx, pending, index):
    if index == 0:
        combat.wererat_infect(ctx, pending["player"], pending["data"]["victim"])


@effects.decision("steal")
def _decide_steal(ctx, pending, index):
    """Rulebook: Special Attacks, "Stealing Items": instead of 2 or more damage."""
    data = pending["data"]
    if index == 0:
        damage(ctx, pending["player"], data["victim"], data["damage"], data["amount"], data.get("distance", False))
        return
    card = data["cards"][index - 1]
    cd.lose(ctx, data["victim"], card)
    cd.gain(ctx, pending["player"], card)
    ctx.s["turn"]["used"].append(card)  # stealing it is this turn's one action with it
    ctx.say(f"{ctx.name(pending['player'])} steals {ctx.card_name(card)} from {ctx.name(data['victim'])}.",
            kind="steal")


@effects.step("_eldritch_push")
def _eldritch_push(ctx, task, item):
    """Eldritch Blast (Lia): after winning a Sanity attack she may push the
    defender 1 tile away (placed, not moved: it discovers nothing)."""
    from .specials import figures
    target = item["target"]
    gone = not ctx.s["players"][target]["alive"] if target in ctx.s["players"] else monster_by_id(ctx, target)["dead"]
    tiles = [] if gone else combat.eldritch_push_targets(ctx, figures.tile_of(ctx, target))
    if tiles:
        figures.ask_where(ctx, task["player"], "eldritch_push", f"push {label(ctx, target)} 1 tile away with "
                          "Eldritch Blast?", target, tiles, ["Leave them"])


@effects.decision("eldritch_push")
def _decide_eldritch_push(ctx, pending, index):
    from .specials import figures
    data = pending["data"]
    if index < len(data["tiles"]):
        figures.put(ctx, data["figure"], *data["tiles"][index], "is blasted to")


def stun(ctx, m: dict):
    """Rulebook: How Monsters Work: damage stuns a monster, which misses its
    next turn (unless the haunt says otherwise)."""
    if not m["stunned"]:
        m["stunned"] = True
        ctx.say(f"{m['name']} {m['number']} is stunned.", kind="monster", monster=m["id"])


def hurt_monster(ctx, m: dict, kind: str, amount: int):
    """Damage to a monster stuns it (rulebook: How Monsters Work), unless an
    adventurer with Protection on its tile takes the damage instead."""
    if amount <= 0:
        return
    protector = next((p for p in ctx.s["seats"] if ctx.s["players"][p]["alive"] and st.beside(ctx.s, p, m)
                      and combat.power_special(ctx, p) == "protection"), None)
    if protector is None:
        stun(ctx, m)
        return
    effects.queue(ctx, protector, [{"do": "_protect_monster", "monster": m["id"], "kind": kind, "amount": amount}],
                  source="power:protection", front=True)


@effects.step("_protect_monster")
def _protect_monster(ctx, task, item):
    effects.ask(ctx, task["player"], "protect_monster", f"take {item['amount']} {item['kind']} damage in place of "
                f"{label(ctx, item['monster'])}?", ["Take it for them", "Let it be"], monster=item["monster"],
                damage=item["kind"], amount=item["amount"])


@effects.decision("protect_monster")
def _decide_protect_monster(ctx, pending, index):
    data, pid = pending["data"], pending["player"]
    if index == 0:
        ctx.say(f"{ctx.name(pid)} steps in and takes the damage for {label(ctx, data['monster'])}.", kind="power",
                player=pid)
        effects.take_damage(ctx, pid, data["damage"], data["amount"], source="power:protection")
    else:
        stun(ctx, monster_by_id(ctx, data["monster"]))


def monster_attack(ctx, ref: str, target: str, trait: str | None):
    s = ctx.s
    turn = s["turn"]
    m = hp.monster(ctx, ref)
    trait = (trait or ("might" if "might" in m["traits"] else next(iter(m["traits"]), "might"))).lower()
    if m["stunned"]:
        raise IllegalAction(f"{m['name']} {m['number']} is stunned and cannot attack.")
    if m["id"] in turn["attacked"]:
        raise IllegalAction(f"{m['name']} {m['number']} has already attacked this turn.")
    if target not in s["players"] or not s["players"][target]["alive"] or target in hp.traitors(s) and \
            s["haunt"]["kind"] in hp.TRAITOR_KINDS:
        raise IllegalAction("Monsters attack the heroes.")
    if not st.beside(s, target, m):
        raise IllegalAction(f"{ctx.name(target)} is not on {m['name']} {m['number']}'s tile"
                            + (" and side of the barrier." if s["players"][target]["tile"] == m["tile"] else "."))
    if trait not in m["traits"]:
        raise IllegalAction(f"{m['name']} has no {trait.capitalize()}.")
    if not combat.can_be_attacked(ctx, target):
        raise IllegalAction(f"Nobody can attack {ctx.name(target)} until their next turn.")
    turn["attacked"].append(m["id"])
    from . import rng
    ctx.say(f"{m['name']} {m['number']} attacks {ctx.name(target)} with {trait.capitalize()}.", kind="attack")
    a = effects.make_roll(ctx, hp.controller(s), rng.dice_count(m["traits"][trait]),
                          f"{trait.capitalize()} for {m['name']} {m['number']}", kind="contest")
    d = defence_roll(ctx, target, trait, ctx.value(target, trait))
    s["haunt"]["last_attacker"] = m["id"]
    effects.queue(ctx, target, [roll_off(m["id"], target, trait, a, d, False), {"do": "_attack_over"}],
                  source="attack", front=True)
