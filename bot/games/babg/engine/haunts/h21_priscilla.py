"""Haunt 21, Priscilla (Traitor's Tome and Secrets of Survival; one traitor).

What the bot carries out: the traitor's gain of 1 in a chosen trait per hero;
each hero's 2 Eye tokens; the Holy Symbol shuffled back into the item deck
from the discards at the start and whenever it is discarded; the traitor's
Speed gouge (the declared move `gouge`, in place of the turn's attack: the
target defends with Speed, the damage is dealt as usual and a win by 2 or
more also takes an Eye, the hero losing 1 Sanity; both Eyes gone kills);
every Eye left on a hero the traitor's damage kills; the traitor never
falling to the skull; the ritual (the declared move `ritual` on the Fountain while
every living hero is on the Fountain or the traitor's tile, for the listed
classes or the Holy Symbol's holder) and both wins (the Eyes counter in the
data; the ritual here).

Left to the players: nothing.
"""
from .. import attack, effects, hooks, rng, rulesets
from .. import haunt_play as hp
from .. import state as st
from .. import traits as tr
from ..death import die
from ..errors import IllegalAction

EYES = "Eyes collected"
FOUNTAIN = "fountain"
HOLY = "holy_symbol"
CASTERS = ("bard", "cleric", "druid", "paladin", "sorcerer", "warlock", "wizard")
GOUGE = "haunt:gouge"
RITUAL_TARGET = 4


OWN = rulesets.Own("h21", {"eyes": {}, "won": None}, players=("eyes",))  # eyes: {hero: Eye tokens on their card}


def mine(ctx) -> dict:
    return rulesets.REGISTRY[21].record(ctx.s)


def take_eyes(ctx, hero: str, n: int):
    """Eye tokens pass from a hero's card to the traitor (the counter)."""
    eyes = mine(ctx)["eyes"]
    n = min(n, eyes.get(hero, 0))
    if n <= 0:
        return 0
    eyes[hero] -= n
    counters = ctx.s["haunt"]["counters"]
    counters[EYES] = counters.get(EYES, 0) + n
    return n


def find_target(ctx, pid: str, words: str) -> str:
    s = ctx.s
    here = [o for o in st.players_on(s, s["players"][pid]["tile"], beside=pid) if o != pid]
    if words:
        for o in s["seats"]:
            if words in (o, s["players"][o]["name"].lower()):
                if o not in here:
                    raise IllegalAction(f"{ctx.name(o)} is not on your tile.")
                return o
        raise IllegalAction(f"Nobody called '{words}' is playing.")
    if len(here) != 1:
        raise IllegalAction("Name the adventurer on your tile.")
    return here[0]


def gouge(ctx, pid: str, trait: str, words: str):
    """Traitor's Tome, haunt 21: "Special Attack Rules" (a Speed attack in
    place of a normal attack; the opponent defends with Speed)."""
    s = ctx.s
    turn = s["turn"]
    if pid not in hp.traitors(s):
        raise IllegalAction("Only Priscilla gouges eyes.")
    if turn.get("monsters"):
        raise IllegalAction("Priscilla gouges in her own turn, not the monster turn.")
    if trait != "speed":
        raise IllegalAction("The gouge is a Speed attack.")
    if turn.get("attacked"):
        raise IllegalAction("You have already attacked this turn; an attack is once per turn.")
    target = find_target(ctx, pid, words)
    why = attack.shielded(ctx, target)
    if why:
        raise IllegalAction(why)
    turn["attacked"] = True
    ctx.say(f"{ctx.name(pid)} lunges at {ctx.name(target)}'s eyes with the eye-gouger (Speed).", kind="attack")
    a = effects.make_roll(ctx, pid, attack.attack_dice(ctx, pid, "speed"), "Speed to attack", trait="speed",
                          kind="attack")
    d = attack.defence_roll(ctx, target, "speed", ctx.value(target, "speed"))
    s["haunt"]["last_attacker"] = pid
    effects.queue(ctx, pid, [{**attack.roll_off(pid, target, "speed", a, d, False), "do": "h21_gouge_off"},
                             {"do": "_attack_over"}], source=GOUGE, front=True)


@effects.step("h21_gouge_off")
def _gouge_off(ctx, task, item):
    """The gouge's outcome: as any attack's, never a theft in place of the
    damage, and an Eye when it wins by 2 or more."""
    if hooks.first("before_outcome", ctx, task, item):
        return
    steps = attack.resolve(ctx, item["attacker"], item["defender"], item["trait"], item["attack"], item["defence"],
                           False)
    for step in steps:
        if step["do"] == "_attack_won":
            step["no_steal"] = True  # Ruling: the gouge deals its damage; it is not traded for a theft
    if item["attack"] - item["defence"] >= 2:
        steps.append({"do": "h21_eye", "victim": item["defender"]})
    effects.push_front(ctx, steps)


@effects.step("h21_eye")
def _eye(ctx, task, item):
    """Secrets of Survival, haunt 21: "Eyes, Eyes Everywhere"."""
    victim = item["victim"]
    if not ctx.s["players"][victim]["alive"] or not take_eyes(ctx, victim, 1):
        return
    left = mine(ctx)["eyes"][victim]
    ctx.say(f"Priscilla gouges out one of {ctx.name(victim)}'s eyes: {ctx.name(victim)} hands over an Eye token "
            f"({left} left) and loses 1 Sanity. Eyes collected: {ctx.s['haunt']['counters'][EYES]}.",
            kind="haunt", player=victim)
    tr.change(ctx, victim, "sanity", -1)
    if left == 0 and ctx.s["players"][victim]["alive"]:
        die(ctx, victim, "both their Eyes are gone")


@effects.step("h21_ritual_done")
def _ritual_done(ctx, task, item):
    mine(ctx)["won"] = f"{ctx.name(task['player'])} completes the ritual at the Fountain."


@effects.step("h21_ritual_failed")
def _ritual_failed(ctx, task, item):
    ctx.say(f"The ritual fails this time ({RITUAL_TARGET}+ needed).", kind="haunt")


def ritual(ctx, pid: str, trait: str):
    """Secrets of Survival, haunt 21: "Completing the Ritual"."""
    s = ctx.s
    if pid not in hp.heroes(s):
        raise IllegalAction("Only the heroes can lay Priscilla to rest.")
    if trait != "sanity":
        raise IllegalAction("The ritual is a Sanity roll.")
    if s["players"][pid]["tile"] != FOUNTAIN:
        raise IllegalAction("The ritual is made on the Fountain.")
    traitor_tile = s["players"][hp.traitors(s)[0]]["tile"]
    away = [h for h in hp.alive(s, hp.heroes(s)) if s["players"][h]["tile"] not in (FOUNTAIN, traitor_tile)]
    if away:
        raise IllegalAction("Every living hero must be on the Fountain or on Priscilla's tile: "
                            + ", ".join(ctx.name(h) for h in away) + " is not.")
    klass = ctx.c.adventurers[s["players"][pid]["adventurer"]].klass.lower()
    if klass not in CASTERS and HOLY not in s["players"][pid]["cards"]:
        raise IllegalAction("A hero of your class needs to control the Holy Symbol for the ritual.")
    key = "task:ritual"
    if key in s["turn"]["rolls"]:
        raise IllegalAction("You have already attempted the ritual this turn.")
    s["turn"]["rolls"].append(key)
    effects.queue(ctx, pid, [{"do": "roll", "trait": "sanity", "bands": [
        {"at_least": RITUAL_TARGET, "then": [{"do": "h21_ritual_done"}]},
        {"at_most": RITUAL_TARGET - 1, "then": [{"do": "h21_ritual_failed"}]}]}], source="haunt", front=True)


def shuffle_holy_symbol(ctx):
    s = ctx.s
    s["decks"]["item"] = rng.shuffle(s, s["decks"]["item"] + [HOLY])
    ctx.say("The Holy Symbol is shuffled back into the item deck.", kind="haunt", card=HOLY)


@rulesets.register(21)
class Priscilla(rulesets.RuleSet):
    title = "Priscilla"

    def setup_step(self, ctx, step):
        """Traitor's Tome and Secrets of Survival, haunt 21: "Right Now"."""
        s = ctx.s
        text = step.get("text", "")
        if "stays in play" in text:
            return True  # the reveal named the traitor; nothing to move
        if "for every hero" in text:
            traitor = hp.traitors(s)[0]
            effects.queue(ctx, traitor, [{"do": "gain", "traits": "any", "amount": 1}] * len(hp.heroes(s)),
                          source="haunt")
            ctx.say("Setup: gain 1 in a trait of your choice for each hero. In place of an attack, on a tile with a "
                    "hero: {move:gouge}.", kind="haunt_setup", to="traitors")
            return True
        if "(Eyes)" in text:
            for hero in hp.heroes(s):
                mine(ctx)["eyes"][hero] = 2
            ctx.say("Setup: each hero puts 2 Eye tokens on their adventurer card.", kind="haunt_setup")
            ctx.say("Setup: on the Fountain, with every living hero there or on Priscilla's tile: {move:ritual}.",
                    kind="haunt_setup", to="heroes")
            return True
        if step.get("card") == HOLY:
            if HOLY in s["discard"]["item"]:
                s["discard"]["item"].remove(HOLY)
                shuffle_holy_symbol(ctx)
            return True
        return None

    def discarding(self, ctx, card):
        """Secrets of Survival, haunt 21: "Right Now" (the Holy Symbol
        discarded during the haunt goes back into the item deck)."""
        if card != HOLY or not ctx.s["haunt"].get("started"):
            return None
        shuffle_holy_symbol(ctx)
        return True

    def skull_spared(self, ctx, pid, trait):
        """Traitor's Tome, haunt 21: "Special Attack Rules" (only the ritual
        can kill Priscilla)."""
        return True if pid in hp.traitors(ctx.s) else None

    def death(self, ctx, pid, killer):
        """Traitor's Tome, haunt 21: "Killing a Hero"."""
        s = ctx.s
        if killer in hp.traitors(s) and pid in hp.heroes(s):
            n = take_eyes(ctx, pid, 2)
            if n:
                ctx.say(f"Priscilla collects {ctx.name(pid)}'s last {'Eye' if n == 1 else '2 Eyes'}. Eyes "
                        f"collected: {s['haunt']['counters'][EYES]}.", kind="haunt")

    def win_check(self, ctx):
        won = mine(ctx)["won"]
        return ("heroes", won) if won else None

    def haunt_goals(self, ctx, pid):
        """The heroes gather on the Fountain for the ritual (found first if it
        is still in its stack); with nobody left who could make it, they
        look for the Holy Symbol among the item tiles still to find. The
        traitor hunts."""
        s = ctx.s
        if pid not in hp.heroes(s):
            return None
        able = [h for h in hp.alive(s, hp.heroes(s))
                if ctx.c.adventurers[s["players"][h]["adventurer"]].klass.lower() in CASTERS
                or HOLY in s["players"][h]["cards"]]
        if able or HOLY not in s["decks"]["item"]:
            return {FOUNTAIN}
        return {t for k in ("building", "street", "catacomb") for t in s["stacks"].get(k, [])
                if ctx.c.tiles[t].symbol == "item"} or {FOUNTAIN}

    own = OWN
    moves = (
        rulesets.Move("gouge", "Gouge an eye", lambda ctx, pid, trait, target: gouge(ctx, pid, trait, target),
                      traits=("speed",), who="traitors", instead_of_attack=True,
                      args=(rulesets.Arg("player", lambda ctx, pid: hp.alive(ctx.s, hp.heroes(ctx.s)), "Which hero?"),),
                      summary="In place of an attack, a Speed attack on a hero on your tile; a win takes an Eye."),
        rulesets.Move("ritual", "Lay Priscilla to rest", lambda ctx, pid, trait: ritual(ctx, pid, trait),
                      traits=("sanity",), who="heroes",
                      summary="On the Fountain, with every living hero there or on Priscilla's tile, Sanity 4+."),
    )
