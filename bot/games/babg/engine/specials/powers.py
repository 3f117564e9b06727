"""Adventurer powers (rulebook: Use Your Adventurer Power; Adventurer
Powers, with its clarifications).

A power named by a `special` in rules_data/adventurers.toml has a check here
saying when the `power` action can use it. Powers that are not actions are
wired where they act: Protection is a damage stage, Devotion is offered when
a tile with an event symbol is discovered, an inspired adventurer is offered
Bardic Inspiration after a roll; the attack powers are hooks in combat.py.
"""
from .. import attack
from .. import board as bd
from .. import cards as cd
from .. import effects, hooks, moves, rulesets
from .. import marks as mk
from .. import state as st
from .. import traits as tr
from ..content import TRAITS
from ..errors import IllegalAction
from . import combat, figures
from .common import distances

CHECKS = {}  # special name -> check(ctx, pid) -> reason the power cannot be used now, or None
DEFAULTS = {"healing_word": {"tokens": 2}, "bardic_inspiration": {"with": None}, "hunters_mark": {"mark": None}}
ATTACK_POWERS = ("reckless_attack", "eldritch_blast", "magic_missile", "wild_magic", "flurry_of_blows")


def check(name):
    def register(fn):
        CHECKS[name] = fn
        return fn
    return register


def special_of(ctx, pid: str) -> str | None:
    return combat.power_special(ctx, pid)


def power_state(ctx, pid: str, store: bool = False) -> dict:
    """The power's own tokens, kept on the player (Healing Word's 2 tokens,
    where the Bardic Inspiration token is, who carries Hunter's Mark). Only
    with `store` is the state written (checks must not change the game)."""
    p = ctx.s["players"][pid]
    defaults = DEFAULTS.get(special_of(ctx, pid), {})
    if not store:
        return {**defaults, **p.get("power", {})}
    state = p.setdefault("power", {})
    for key, value in defaults.items():
        state.setdefault(key, value)
    return state


def unusable(ctx, pid: str) -> str | None:
    """Why the `power` action cannot be taken now, or None."""
    p = ctx.s["players"][pid]
    adv = ctx.c.adventurers[p["adventurer"]]
    name = adv.power["name"]
    if not st.on_board(p):
        return "You are off the board."
    timing = adv.power.get("timing")
    if timing == "once_per_game" and f"power:{adv.id}" in p["once"]:
        return f"{name} can be used once per game, and you have used it."
    if timing == "once_per_turn" and adv.id in ctx.s["turn"].get("powers", []):
        return f"You have already used {name} this turn."
    special_name = special_of(ctx, pid)
    if special_name:
        return CHECKS[special_name](ctx, pid)
    return None


def use(ctx, pid: str, action: dict):
    reason = unusable(ctx, pid)
    if reason:
        raise IllegalAction(reason)
    p = ctx.s["players"][pid]
    adv = ctx.c.adventurers[p["adventurer"]]
    if adv.power.get("timing") == "once_per_game":
        p["once"].append(f"power:{adv.id}")
    else:
        ctx.s["turn"].setdefault("powers", []).append(adv.id)
    ctx.say(f"{ctx.name(pid)} uses {adv.power['name']}.", kind="power", player=pid, power=adv.id)
    args = {k: action[k] for k in ("target", "trait") if action.get(k)}
    effects.queue(ctx, pid, adv.power["effects"], source=f"power:{adv.id}", front=True, args=args)


# --- powers that only work in an attack, or on their own ---------------------------

def _attack_only(ctx, pid):
    name = ctx.c.adventurers[ctx.s["players"][pid]["adventurer"]].power["name"]
    if ctx.s["phase"] != "haunt":
        return f"{name} works when you attack, and attacks begin with the haunt."
    return f"{name} is chosen as part of an attack."


for _name in ATTACK_POWERS:
    check(_name)(_attack_only)


def _explain(check_fn):
    def handler(ctx, task, item):
        """This power is not an action: it works where it applies (see the
        module docstring); run as a step it only says so."""
        ctx.say(check_fn(ctx, task["player"]), kind="info")
    return handler


@check("protection")
def _protection_check(ctx, pid):
    return "Protection is offered to you whenever another adventurer on your tile is about to take damage."


@check("devotion")
def _devotion_check(ctx, pid):
    return "Devotion is offered when you discover a tile with an event symbol."


@check("cunning_action")
def _cunning_check(ctx, pid):
    return "Cunning Action always works: opponents never cost you extra movement to leave their tile."


# --- Healing Word (Vort) -------------------------------------------------------

def _below_start(ctx, pid) -> list[str]:
    adv = ctx.c.adventurers[ctx.s["players"][pid]["adventurer"]]
    pos = ctx.s["players"][pid]["traits"]
    return [t for t in TRAITS if pos[t] < adv.tracks[t].start]


def _heal_targets(ctx, pid) -> list[str]:
    return [o for o in st.players_on(ctx.s, ctx.s["players"][pid]["tile"], beside=pid) if _below_start(ctx, o)]


@check("healing_word")
def _healing_check(ctx, pid):
    if power_state(ctx, pid)["tokens"] <= 0:
        return "Both Healing Word tokens are spent."
    if not _heal_targets(ctx, pid):
        return "Nobody on your tile (you included) has a trait below its starting value."
    return None


@effects.special("healing_word")
def _healing_word(ctx, task, item):
    """Discard a token: an adventurer on your tile (you count) gains 1 in a
    trait below its starting value."""
    pid = task["player"]
    targets = _heal_targets(ctx, pid)
    wanted = task.get("args", {}).get("target")
    if wanted in targets:
        targets = [wanted]
    if len(targets) == 1:
        _heal_trait(ctx, pid, targets[0], task.get("args", {}).get("trait"))
        return
    effects.ask(ctx, pid, "healing_word_target", "who hears your Healing Word?", [ctx.name(o) for o in targets],
                targets=targets)


@effects.decision("healing_word_target")
def _decide_heal_target(ctx, pending, index):
    _heal_trait(ctx, pending["player"], pending["data"]["targets"][index], None)


def _heal_trait(ctx, pid, target, trait):
    below = _below_start(ctx, target)
    if trait in below:
        below = [trait]
    if len(below) == 1:
        _heal(ctx, pid, target, below[0])
        return
    effects.ask(ctx, pid, "healing_word_trait", f"which of {ctx.name(target)}'s traits gains 1?",
                [t.capitalize() for t in below], target=target, traits=below)


@effects.decision("healing_word_trait")
def _decide_heal_trait(ctx, pending, index):
    _heal(ctx, pending["player"], pending["data"]["target"], pending["data"]["traits"][index])


def _heal(ctx, pid, target, trait):
    state = power_state(ctx, pid, store=True)
    state["tokens"] -= 1
    tr.change(ctx, target, trait, 1)
    ctx.say(f"A Healing Word token is spent ({state['tokens']} left).", kind="power", player=pid)


# --- Bardic Inspiration (Miska) -----------------------------------------------------

def _inspire_targets(ctx, pid) -> list[str]:
    """Other adventurers within 3 tiles. Ruling: "within" counts connected
    doorways only (rulebook: Glossary, "within X tiles"), with Illusion
    tokens, which work as doorways; not stairs, grates or Arcane Gates."""
    here = ctx.s["players"][pid]["tile"]
    near = {t for t, d in distances(ctx, here, doors_only=True).items() if d <= 3}
    return [o for o in ctx.s["seats"] if o != pid and st.on_board(ctx.s["players"][o])
            and ctx.s["players"][o]["tile"] in near]


@check("bardic_inspiration")
def _bardic_check(ctx, pid):
    holder = power_state(ctx, pid)["with"]
    if holder:
        return (f"{ctx.name(holder)} has your Bardic Inspiration token; it comes back when they use it "
                "(or if they die).")
    if not _inspire_targets(ctx, pid):
        return "No other adventurer is within 3 tiles."
    return None


@effects.special("bardic_inspiration")
def _bardic(ctx, task, item):
    """Pass the token to another adventurer within 3 tiles."""
    pid = task["player"]
    targets = _inspire_targets(ctx, pid)
    wanted = task.get("args", {}).get("target")
    if wanted in targets:
        targets = [wanted]
    if len(targets) == 1:
        _inspire(ctx, pid, targets[0])
        return
    effects.ask(ctx, pid, "inspire", "who receives your Bardic Inspiration?", [ctx.name(o) for o in targets],
                targets=targets)


@effects.decision("inspire")
def _decide_inspire(ctx, pending, index):
    _inspire(ctx, pending["player"], pending["data"]["targets"][index])


def _inspire(ctx, pid, target):
    power_state(ctx, pid, store=True)["with"] = target
    mk.add(ctx, target, "inspired", by=pid)
    ctx.say(f"{ctx.name(pid)} inspires {ctx.name(target)}: on one of their own turns they may hand the token back "
            "to add 1 to a roll.", kind="power", player=target)


def _bardic_offer(ctx, pid, roll):
    """On one of their own turns the inspired adventurer may hand the token
    back to add 1 to a roll (not a haunt roll); offered when the 1 changes
    the result's band."""
    mark = mk.find(ctx, pid, "inspired")
    turn = ctx.s["turn"]
    if not mark or not turn or turn["player"] != pid:
        return None
    if effects.band_of(roll["bands"], roll["total"] + 1) == effects.band_of(roll["bands"], roll["total"]):
        return None
    return {"prompt": f"hand back {ctx.name(mark['by'])}'s Bardic Inspiration to make the roll "
                      f"{roll['total'] + 1}?", "options": ["Add 1", "Keep the token"]}


def _bardic_apply(ctx, pid, roll, index):
    if index != 0:
        return
    roll["total"] += 1
    return_inspiration(ctx, pid)
    ctx.say(f"{ctx.name(pid)} uses Bardic Inspiration: the result is now {roll['total']}.", kind="power",
            player=pid)


@hooks.on("death")
def _on_death(ctx, pid: str, killer):
    return_inspiration(ctx, pid)  # Adventurer Powers: Bardic Inspiration
    return_marks(ctx, pid)  # Hunter's Mark comes back when its opponent is killed


@hooks.on("monster_killed")
def _on_monster_killed(ctx, mid: str):
    return_marks(ctx, mid)  # Hunter's Mark comes back when its target is killed


def return_inspiration(ctx, pid: str):
    """The token goes back to the bard: when it is used, or when the inspired
    adventurer dies (Adventurer Powers, Bardic Inspiration)."""
    mark = mk.take(ctx, pid, "inspired")
    if mark:
        power_state(ctx, mark["by"], store=True)["with"] = None


effects.roll_reaction("bardic_inspiration", _bardic_apply)(_bardic_offer)


# --- Hunter's Mark (Avrixis) ------------------------------------------------------------

def _mark_targets(ctx, pid) -> list[str]:
    """Opponents in line of sight: adventurers and monsters."""
    here = ctx.s["players"][pid]["tile"]
    seen = [o for o in combat.opponents(ctx, pid) if st.on_board(ctx.s["players"][o])
            and bd.line_of_sight(ctx.c, ctx.s["board"], here, ctx.s["players"][o]["tile"])]
    return seen + [m["id"] for m in combat.monster_opponents(ctx, pid)
                   if bd.line_of_sight(ctx.c, ctx.s["board"], here, m["tile"])]


def _alive(ctx, ref: str) -> bool:
    if ref in ctx.s["players"]:
        return ctx.s["players"][ref]["alive"]
    return any(m["id"] == ref and not m["dead"] for m in ctx.s.get("monsters", []))


def return_marks(ctx, dead: str):
    """Hunter's Mark: the token comes back when the marked opponent is killed."""
    for p in ctx.s["players"].values():
        if p.get("power", {}).get("mark") == dead:
            p["power"]["mark"] = None


@check("hunters_mark")
def _hunters_check(ctx, pid):
    if ctx.s["phase"] != "haunt":
        return "Hunter's Mark goes on an opponent, and before the haunt nobody is one."
    mark = power_state(ctx, pid)["mark"]
    if mark and _alive(ctx, mark):
        return f"Your Hunter's Mark is under {attack.label(ctx, mark)}; it comes back when they are killed."
    if not _mark_targets(ctx, pid):
        return "No opponent is in your line of sight."
    return None


@effects.special("hunters_mark")
def _hunters_mark(ctx, task, item):
    """Set the token under an opponent in line of sight: your attack results
    against them are 1 higher (combat.result_bonus)."""
    pid = task["player"]
    targets = _mark_targets(ctx, pid)
    effects.ask(ctx, pid, "hunters_mark", "who do you mark?", [attack.label(ctx, o) for o in targets],
                targets=targets)


@effects.decision("hunters_mark")
def _decide_mark(ctx, pending, index):
    target = pending["data"]["targets"][index]
    power_state(ctx, pending["player"], store=True)["mark"] = target
    ctx.say(f"{ctx.name(pending['player'])} marks {attack.label(ctx, target)}.", kind="power",
            **({"player": target} if target in ctx.s["players"] else {"monster": target}))


# --- Devotion (Grim) and Protection (Aldan) -----------------------------------------------

def _devotion(ctx, pid, tile, deck):
    """Once per turn, discovering a tile with an event symbol, you may treat
    it as blank: no event card, and you may keep moving."""
    turn = ctx.s["turn"]
    adv = ctx.s["players"][pid]["adventurer"]
    if deck != "event" or special_of(ctx, pid) != "devotion" or not turn or turn["player"] != pid \
            or adv in turn.get("powers", []):
        return False
    effects.ask(ctx, pid, "devotion", f"use Devotion on the {ctx.tile_name(tile)} (no event card, and you may "
                "keep moving)?", ["Use Devotion", "Draw the event"], tile=tile)
    return True


moves.BEFORE_SYMBOL_DRAW.append(_devotion)


@effects.decision("devotion")
def _decide_devotion(ctx, pending, index):
    pid = pending["player"]
    if index == 0:
        ctx.s["turn"].setdefault("powers", []).append(ctx.s["players"][pid]["adventurer"])
        ctx.say(f"{ctx.name(pid)} uses Devotion: the {ctx.tile_name(pending['data']['tile'])} counts as blank.",
                kind="power", player=pid)
    else:
        cd.draw(ctx, pid, "event")


def _protection_decide(ctx, hit, index):
    if index == 0:
        ctx.say(f"{ctx.name(hit['protector'])} steps in and takes the damage for {ctx.name(hit['victim'])}.",
                kind="power", player=hit["protector"])
        hit["victim"] = hit["protector"]


@effects.damage_stage("protection", 10, _protection_decide)
def _protection(ctx, hit):
    """Protection (Aldan): any time another adventurer on your tile is about
    to take damage, you may take it instead (then your own cards work on it)."""
    victim = hit["victim"]
    vp = ctx.s["players"][victim]
    if not st.on_board(vp):
        return False
    for other in st.players_on(ctx.s, vp["tile"], beside=victim):
        if other != victim and special_of(ctx, other) == "protection":
            hit["protector"] = other
            return effects.ask_stage(ctx, other, hit, "protection",
                                     f"take {hit['amount']} {hit['kind']} damage in {ctx.name(victim)}'s place "
                                     "(Protection)?", ["Take it for them", "Let it be"])
    return False


for _name in ("protection", "devotion", "cunning_action"):
    effects.special(_name)(_explain(CHECKS[_name]))


# --- what the powers answer in an attack (bot.games.babg.engine.hooks) ---------------------------------------

@hooks.on("before_outcome", order=10)
def _bardic_in_attack(ctx, task, item):
    """Bardic Inspiration on your own attack roll, on your turn (any roll of
    your own turn)."""
    attacker = item["attacker"]
    inspired = attacker in ctx.s["players"] and mk.find(ctx, attacker, "inspired")
    if not inspired or "bardic" in item["asked"] or ctx.s["turn"]["player"] != attacker:
        return None
    task["steps"].insert(0, {**item, "asked": item["asked"] + ["bardic"]})
    effects.ask(ctx, attacker, "attack_bardic", f"hand back {ctx.name(inspired['by'])}'s Bardic Inspiration to "
                f"make your attack {item['attack'] + 1}?", ["Add 1", "Keep the token"])
    return True


@effects.decision("attack_bardic")
def _decide_attack_bardic(ctx, pending, index):
    if index == 0:
        item = effects.current(ctx)["steps"][0]
        item["attack"] += 1
        return_inspiration(ctx, pending["player"])
        ctx.say(f"{ctx.name(pending['player'])} uses Bardic Inspiration: the attack is now {item['attack']}.",
                kind="power", player=pending["player"])


@hooks.on("monster_hurt")
def _protection_for_a_monster(ctx, m: dict, kind: str, amount: int):
    """Protection (Aldan): an adventurer with it on the monster's tile may
    take the damage instead."""
    protector = next((p for p in ctx.s["seats"] if ctx.s["players"][p]["alive"] and st.beside(ctx.s, p, m)
                      and combat.power_special(ctx, p) == "protection"), None)
    if protector is None:
        return None
    effects.queue(ctx, protector, [{"do": "_protect_monster", "monster": m["id"], "kind": kind, "amount": amount}],
                  source="power:protection", front=True)
    return True


@effects.step("_protect_monster")
def _protect_monster(ctx, task, item):
    effects.ask(ctx, task["player"], "protect_monster", f"take {item['amount']} {item['kind']} damage in place of "
                f"{attack.label(ctx, item['monster'])}?", ["Take it for them", "Let it be"], monster=item["monster"],
                damage=item["kind"], amount=item["amount"])


@effects.decision("protect_monster")
def _decide_protect_monster(ctx, pending, index):
    data, pid = pending["data"], pending["player"]
    if index == 0:
        ctx.say(f"{ctx.name(pid)} steps in and takes the damage for {attack.label(ctx, data['monster'])}.",
                kind="power", player=pid)
        effects.take_damage(ctx, pid, data["damage"], data["amount"], source="power:protection")
    else:  # the monster takes it: as its haunt says (hit points ...), else it is stunned
        m = attack.monster_by_id(ctx, data["monster"])
        own = rulesets.active(ctx)
        if not (own is not None and hasattr(own, "monster_hurt") and own.monster_hurt(ctx, m, data["damage"],
                                                                                       data["amount"])):
            attack.stun(ctx, m)


@hooks.on("after_won")
def _eldritch_push_offer(ctx, attacker: str, loser: str, trait: str):
    if trait == "sanity" and combat.power_special(ctx, attacker) == "eldritch_blast":
        return [{"do": "_eldritch_push", "target": loser}]
    return None


@effects.step("_eldritch_push")
def _eldritch_push(ctx, task, item):
    """Eldritch Blast (Lia): after winning a Sanity attack she may push the
    defender 1 tile away (placed, not moved: it discovers nothing)."""
    target = item["target"]
    gone = not ctx.s["players"][target]["alive"] if target in ctx.s["players"] else \
        attack.monster_by_id(ctx, target)["dead"]
    tiles = [] if gone else combat.eldritch_push_targets(ctx, figures.tile_of(ctx, target))
    if tiles:
        figures.ask_where(ctx, task["player"], "eldritch_push", f"push {attack.label(ctx, target)} 1 tile away "
                          "with Eldritch Blast?", target, tiles, ["Leave them"])


@effects.decision("eldritch_push")
def _decide_eldritch_push(ctx, pending, index):
    data = pending["data"]
    if index < len(data["tiles"]):
        figures.put(ctx, data["figure"], *data["tiles"][index], "is blasted to")
