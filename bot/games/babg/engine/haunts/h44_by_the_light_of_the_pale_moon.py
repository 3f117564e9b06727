"""Haunt 44, By the Light of the Pale Moon (Secrets of Survival first, then
the Traitor's Tome once the Moon of Bhaal names the traitor).

What the bot carries out:
- Setup: one Amulet of Protection per adventurer; the haunt revealer picks,
  for the table, which number is the fake; the bot shuffles and deals them
  face down and puts each on the omen tile nearest its player's figure (that
  player picks between equally near ones); nobody sees the numbers.
- Grabbing an Amulet: the declared move `amulet` on a tile with one, once a
  turn, Speed 3+: a random Amulet there is picked up and looked at; the fake is
  discarded, a real one goes on the adventurer's card.
- The Moon of Bhaal: as the haunt revealer's first turn ends, the adventurer
  without an Amulet becomes the traitor (several: Sanity roll-off, lowest
  loses, ties roll again); the Tome goes to them privately and the heroes'
  second part to the heroes; the traitor's adventurer dies, the Servant of
  Bhaal appears on its tile and the traitor places one Cultist per adventurer,
  one per tile while possible; every Amulet held becomes an Alchemist's Fire,
  the rest leave the board; play goes on from the revealer's left, the
  monster turn in the traitor's seat.
- Cultists: never move or attack, cannot be attacked with Might, stay
  stunned once stunned (the first stun is read aloud).
- Servant of Bhaal: ignores all damage while any Cultist is unstunned; it
  moves by its Speed roll and may sacrifice a Cultist (the declared move
  `sacrifice`) at any time in the monster turn (the Cultist leaves, the
  Servant takes its place); its one attack (a monster attack with Might or
  Sanity) takes in, at the traitor's pick, any or all heroes on its tile,
  one roll, each defending with the same trait.
- Once every Cultist is stunned, a hero beating the Servant (attack or
  defence) makes the Sanity roll-off: the Servant higher, that hero dies and
  becomes the Servant and the traitor (no new Cultists); lower, it dies and
  the heroes win (data). The traitor wins when every hero is dead (data).
- Alchemist's Fire: the declared move `brew` (once a turn) trades a
  droppable item or omen for a Fire token; `throw` (Speed, at a tile)
  instead of an attack: a tile in line of sight up to 2 tiles away, one 4-dice attack that
  everyone and every monster there defends against with Speed.

Left to the players: nothing the book prints.
"""
from .. import attack as at
from .. import board as bd
from .. import cards as cd
from .. import effects, hooks, rng, rulesets
from .. import haunt_play as hp
from .. import state as st
from ..death import die
from ..errors import IllegalAction
from ..geometry import distances

NUMBER = 44
SERVANT, CULTIST = "Servant of Bhaal", "Cultist"
AMULET = "Amulet of Protection"
FIRE_DICE, FIRE_REACH, AMULET_TARGET = 4, 2, 3
REROLLS = 50  # ties roll again; a runaway run of ties (loaded test dice) stops here
# amulets, fire: {adventurer: how many}; facing: the hero facing the Servant now; resume: the slot play resumes at
OWN = rulesets.Own("h44", {"fake": None, "moon": False, "amulets": {}, "fire": {}, "read": False, "facing": None,
                           "resume": None}, players=("amulets", "fire", "facing", "resume"))
EMPTY = OWN.start


def mine(ctx) -> dict:
    """This haunt's own state (written by steps and decisions only)."""
    return rulesets.REGISTRY[NUMBER].record(ctx.s)


def seen(ctx) -> dict:
    """The same, for reading (a legality check writes nothing)."""
    return ctx.s["haunt"].get("h44") or EMPTY


def living(ctx, name: str) -> list[dict]:
    return [m for m in ctx.s["monsters"] if m["name"] == name and not m["dead"]]


def servant(ctx) -> dict | None:
    return next(iter(living(ctx, SERVANT)), None)


def protected(ctx) -> bool:
    """Traitor's Tome, "Protection Spells": any Cultist not stunned."""
    return any(not m["stunned"] for m in living(ctx, CULTIST))


def fires(ctx, pid: str) -> int:
    return seen(ctx)["fire"].get(pid, 0)


def living_heroes(ctx) -> list[str]:
    return hp.alive(ctx.s, hp.heroes(ctx.s))


def own_turn(ctx, pid: str, what: str):
    s = ctx.s
    if s["turn"].get("monsters") or s["turn"]["player"] != pid:
        raise IllegalAction(f"{what} is done in your own turn.")
    if not s["players"][pid]["alive"] or not st.on_board(s["players"][pid]):
        raise IllegalAction("Only an adventurer on the board may do that.")


# --- setup: the Amulets ---------------------------------------------------------------------------

def nearest_omen_tiles(ctx, pid: str) -> list[str]:
    s = ctx.s
    p = s["players"][pid]
    omens = [t for t in s["board"] if ctx.c.tiles[t].symbol == "omen"]
    if not omens or not st.on_board(p):
        return sorted(omens, key=ctx.tile_name)
    reach = distances(ctx, p["tile"])
    best = min(reach.get(t, 99) for t in omens)
    return sorted((t for t in omens if reach.get(t, 99) == best), key=ctx.tile_name)


@effects.step("h44_pick_fake")
def _pick_fake(ctx, task, item):
    n = item["count"]
    effects.ask(ctx, task["player"], "h44_fake", "which Amulet of Protection number is the fake (agree on it together)?",
                [f"Amulet {k}" for k in range(1, n + 1)])


@effects.decision("h44_fake")
def _decide_fake(ctx, pending, index):
    mine(ctx)["fake"] = index + 1
    ctx.say(f"The table agrees: Amulet {index + 1} is the fake. The Amulets are shuffled and dealt face down.",
            kind="haunt_setup")


@effects.step("h44_deal")
def _deal(ctx, task, item):
    """Secrets of Survival, "Right Now": shuffled, dealt face down, each put
    unseen on the omen tile nearest its player's figure."""
    s = ctx.s
    numbers = rng.shuffle(s, list(range(1, item["count"] + 1)))
    for pid, number in reversed(list(zip(s["seats"], numbers))):
        effects.push_front(ctx, [{"do": "h44_lay_amulet", "who": pid, "number": number}])


@effects.step("h44_lay_amulet")
def _lay_amulet(ctx, task, item):
    tiles = nearest_omen_tiles(ctx, item["who"])
    if not tiles:
        return
    if len(tiles) == 1:
        lay(ctx, item["who"], tiles[0], item["number"])
        return
    effects.ask(ctx, item["who"], "h44_amulet_tile", "two omen tiles are equally near: which one gets your Amulet?",
                [ctx.tile_name(t) for t in tiles], tiles=tiles, number=item["number"])


@effects.decision("h44_amulet_tile")
def _decide_amulet_tile(ctx, pending, index):
    lay(ctx, pending["player"], pending["data"]["tiles"][index], pending["data"]["number"])


def lay(ctx, pid: str, tile: str, number: int):
    ctx.s["tokens"].append({"name": AMULET, "tile": tile, "number": number})
    ctx.say(f"{ctx.name(pid)} puts an Amulet of Protection face down on the {ctx.tile_name(tile)}.", kind="token",
            tile=tile)


def grab(ctx, pid: str):
    """Secrets of Survival, "What You Know About the Traitor"."""
    s = ctx.s
    own_turn(ctx, pid, "Grabbing an Amulet")
    if seen(ctx)["moon"]:
        raise IllegalAction("The Moon of Bhaal has risen: the Amulets are gone.")
    here = s["players"][pid]["tile"]
    if not any(t["name"] == AMULET and t["tile"] == here for t in s["tokens"]):
        raise IllegalAction("There is no Amulet of Protection on your tile.")
    effects.queue(ctx, pid, [{"do": "roll", "trait": "speed", "bands": [
        {"at_least": AMULET_TARGET, "then": [{"do": "h44_grabbed"}]},
        {"at_most": AMULET_TARGET - 1, "then": []}]}], source="haunt", front=True)


@effects.step("h44_grabbed")
def _grabbed(ctx, task, item):
    s, pid = ctx.s, task["player"]
    here = s["players"][pid]["tile"]
    found = [t for t in s["tokens"] if t["name"] == AMULET and t["tile"] == here]
    if not found:
        return
    token = found[rng.below(s, len(found))] if len(found) > 1 else found[0]  # face down: any of them
    s["tokens"].remove(token)
    if token["number"] == mine(ctx)["fake"]:
        ctx.say(f"{ctx.name(pid)} picks up an Amulet and looks: number {token['number']}, the fake. It is discarded.",
                kind="haunt", player=pid)
        return
    held = mine(ctx)["amulets"]
    held[pid] = held.get(pid, 0) + 1
    ctx.say(f"{ctx.name(pid)} picks up an Amulet and looks: a real one. It goes on their card ({held[pid]} held).",
            kind="haunt", player=pid)


# --- the Moon of Bhaal ----------------------------------------------------------------------------

@effects.step("h44_moon")
def _moon(ctx, task, item):
    """Secrets of Survival, "The Moon of Bhaal"."""
    s, h = ctx.s, mine(ctx)
    if h["moon"]:
        return
    h["moon"] = True
    everyone = hp.alive(s, s["seats"])
    lacking = [p for p in everyone if not h["amulets"].get(p)] or everyone  # Ruling: Haunt 44, nobody without one
    ctx.say("The Moon of Bhaal rises.", kind="haunt")
    for _ in range(REROLLS):
        if len(lacking) < 2:
            break
        ctx.say("Without an Amulet: " + ", ".join(ctx.name(p) for p in lacking) + ". Each rolls Sanity; the lowest "
                "changes.", kind="haunt")
        rolls = {p: effects.make_roll(ctx, p, rng.dice_count(ctx.value(p, "sanity")), "Sanity under the Moon of "
                                      "Bhaal", trait="sanity", kind="trait") for p in lacking}
        low = min(rolls.values())
        lacking = [p for p in lacking if rolls[p] == low]
    transform(ctx, lacking[0])


def transform(ctx, pid: str):
    s, h = ctx.s, ctx.s["haunt"]
    h["traitors"] = [pid]
    h["kind"] = "traitor"  # from now on a haunt with a known traitor
    ctx.say(f"{ctx.who(pid)} writhes and bursts open: the Dark Servant of Bhaal tears free. {ctx.name(pid)} is the "
            "traitor.", kind="haunt", traitors=[pid])
    haunt = ctx.c.haunts[NUMBER]
    for text in hp.rules_texts(ctx, haunt, pid):
        ctx.say(text, kind="secret_rules", to=pid)
    ctx.say("In the monster turn: the Servant of Bhaal's attack (Might or Sanity) may take in other heroes on its "
            "tile, asked one by one; {move:sacrifice} puts the Servant in a Cultist's place.", kind="secret", to=pid)
    hooks.fire("traitor_named", ctx, pid)
    before = [id(t) for t in s["queue"]]
    for step in haunt.raw.get("setup", []):
        if step.get("side") == "traitor":
            hp.run_setup_step(ctx, step)
    placing = [t for t in s["queue"] if id(t) not in before]  # the Cultists are placed before play goes on
    s["queue"][:] = placing + [t for t in s["queue"] if id(t) in before]
    hp.open_part_two(ctx, "heroes")
    seats = s["seats"]
    start = seats.index(h["revealer"]) + 1
    around = [seats[(start + k) % len(seats)] for k in range(len(seats))]
    at_seat = around.index(pid) + 1  # Ruling: Haunt 44, the monster turn in the traitor's seat
    s["order"] = around[:at_seat] + [hp.MONSTERS] + around[at_seat:]
    mine(ctx)["resume"] = around[0]


def exchange(ctx):
    """Secrets of Survival, "You Must Do This When the Traitor Is Revealed"."""
    s, h = ctx.s, mine(ctx)
    for pid in hp.heroes(s):
        n = h["amulets"].pop(pid, 0)
        if n:
            h["fire"][pid] = h["fire"].get(pid, 0) + n
            ctx.say(f"{ctx.name(pid)} swaps {n} Amulet{'s' if n != 1 else ''} for {n} Alchemist's Fire.",
                    kind="haunt", player=pid)
    h["amulets"] = {}
    left = [t for t in s["tokens"] if t["name"] == AMULET]
    s["tokens"] = [t for t in s["tokens"] if t["name"] != AMULET]
    if left:
        ctx.say(f"The {len(left)} Amulet{'s' if len(left) != 1 else ''} still on the board leave play.", kind="haunt")
    ctx.say("Heroes: {move:brew} (once a turn) trades a droppable item or omen for an Alchemist's Fire; "
            "{move:throw} throws one instead of attacking, at a tile in line of sight up to 2 away.",
            kind="haunt_setup", to="heroes")


# --- the Servant's attack -------------------------------------------------------------------------

def servant_attack(ctx, m: dict, target: str, trait: str | None):
    """Traitor's Tome, "Special Attack Rules for the Servant of Bhaal"."""
    s = ctx.s
    trait = (trait or "might").lower()
    if trait not in ("might", "sanity"):
        raise IllegalAction("The Servant of Bhaal attacks with Might or Sanity.")
    at.check_monster_attack(ctx, m, target)
    s["turn"]["attacked"].append(m["id"])
    others = [p for p in living_heroes(ctx) if p != target and st.beside(s, p, m) and at.shielded(ctx, p) is None]
    ctx.say(f"The Servant of Bhaal attacks {ctx.name(target)} with {trait.capitalize()}.", kind="attack")
    effects.queue(ctx, hp.controller(s), [{"do": "h44_targets", "monster": m["id"], "trait": trait,
                                           "chosen": [target], "left": others}], source="attack", front=True)


@effects.step("h44_targets")
def _targets(ctx, task, item):
    if item["left"]:
        other = item["left"][0]
        task["steps"].insert(0, {**item, "left": item["left"][1:]})
        effects.ask(ctx, task["player"], "h44_include", f"does the attack take in {ctx.name(other)} too?",
                    [f"Yes, {ctx.name(other)} too", "No"], other=other)
        return
    strike(ctx, task, item)


@effects.decision("h44_include")
def _decide_include(ctx, pending, index):
    if index == 0:
        step = effects.current(ctx)["steps"][0]
        step["chosen"] = step["chosen"] + [pending["data"]["other"]]


def strike(ctx, task, item):
    s = ctx.s
    m = at.monster_by_id(ctx, item["monster"])
    trait = item["trait"]
    targets = [p for p in item["chosen"] if s["players"][p]["alive"]]
    if len(targets) > 1:
        ctx.say("One attack on " + ", ".join(ctx.name(p) for p in targets) + ".", kind="attack")
    a = effects.make_roll(ctx, hp.controller(s), rng.dice_count(m["traits"][trait]),
                          f"{trait.capitalize()} for the Servant of Bhaal", kind="contest")
    s["haunt"]["last_attacker"] = m["id"]
    steps = []
    for p in targets:
        d = at.defence_roll(ctx, p, trait, ctx.value(p, trait))
        steps += [{"do": "h44_facing", "hero": p}, at.roll_off(m["id"], p, trait, a, d, False)]
    effects.push_front(ctx, steps + [{"do": "_attack_over"}])


@effects.step("h44_facing")
def _facing(ctx, task, item):
    mine(ctx)["facing"] = item["hero"]


# --- the Servant hurt, killed, reborn -------------------------------------------------------------

@effects.step("h44_killed")
def _killed(ctx, task, item):
    """Traitor's Tome, "If You Are Killed"."""
    s = ctx.s
    m, hero = servant(ctx), item["hero"]
    if m is None or not s["players"][hero]["alive"]:
        return
    ctx.say(f"Every Cultist is stunned: {ctx.name(hero)} has beaten the Servant of Bhaal. Both roll Sanity.",
            kind="haunt")
    for _ in range(REROLLS):
        mine_roll = effects.make_roll(ctx, hp.controller(s), rng.dice_count(m["traits"]["sanity"]),
                                      "Sanity for the Servant of Bhaal", kind="contest")
        theirs = effects.make_roll(ctx, hero, rng.dice_count(ctx.value(hero, "sanity")), "Sanity against the Servant",
                                   trait="sanity", kind="trait")
        if mine_roll != theirs:
            break
        ctx.say("A tie: both roll again.", kind="haunt")  # Ruling: Haunt 44, a tied roll-off
    if theirs > mine_roll:
        m["dead"] = True
        ctx.say("The Servant of Bhaal shrieks and falls apart: it is dead.", kind="monster", monster=m["id"])
        hooks.fire("monster_killed", ctx, m["id"])
        return
    reborn(ctx, m, hero)


def reborn(ctx, m: dict, hero: str):
    s, h = ctx.s, ctx.s["haunt"]
    tile = s["players"][hero]["tile"]
    ctx.say(f"The Servant of Bhaal wins the roll-off: it bursts out of {ctx.name(hero)}, its next incarnation.",
            kind="haunt", traitors=[hero])
    die(ctx, hero, "devoured and remade as the Servant of Bhaal")
    m["tile"], m["half"] = tile, s["players"][hero].get("half")
    h["traitors"] = [hero] + [p for p in h["traitors"] if p != hero]  # Ruling: Haunt 44, the new incarnation
    for text in hp.rules_texts(ctx, ctx.c.haunts[NUMBER], hero):
        ctx.say(text, kind="secret_rules", to=hero)
    ctx.say("You are the Servant of Bhaal now (place no new Cultists): you run it in the monster turn.",
            kind="secret", to=hero)
    hooks.fire("traitor_named", ctx, hero)


def first_stun(ctx):
    h = mine(ctx)
    if h["read"]:
        return
    h["read"] = True
    section = next(x for x in ctx.c.haunts[NUMBER].raw["traitor"]["section"] if x["heading"].startswith("You Must Read"))
    ctx.say(section["text"].strip(), kind="haunt")


# --- Alchemist's Fire -----------------------------------------------------------------------------

def after_moon(ctx, pid: str, what: str):
    if not seen(ctx)["moon"]:
        raise IllegalAction(f"{what} comes with the second part of the heroes' rules, after the Moon of Bhaal.")
    if pid not in hp.heroes(ctx.s):
        raise IllegalAction(f"{what} is for the heroes.")


def brewable(ctx, pid: str) -> list[str]:
    """The cards `pid` may trade for Alchemist's Fire: droppable items and omens."""
    return [c for c in ctx.s["players"][pid]["cards"] if ctx.c.cards[c].deck in ("item", "omen")
            and ctx.c.cards[c].can_drop]


def brew(ctx, pid: str, cid: str):
    """Secrets of Survival, "Alchemist's Fire" (a card for a token)."""
    after_moon(ctx, pid, "Alchemist's Fire")
    own_turn(ctx, pid, "Trading a card for Alchemist's Fire")
    if cid not in brewable(ctx, pid):
        raise IllegalAction(f"{ctx.card_name(cid)} cannot be dropped, so it cannot be traded for Alchemist's Fire.")
    effects.queue(ctx, pid, [{"do": "h44_brewed", "card": cid}], source="haunt", front=True)


@effects.step("h44_brewed")
def _brewed(ctx, task, item):
    pid = task["player"]
    cd.discard(ctx, item["card"])
    fire = mine(ctx)["fire"]
    fire[pid] = fire.get(pid, 0) + 1
    ctx.say(f"{ctx.name(pid)} discards {ctx.card_name(item['card'])} for an Alchemist's Fire ({fire[pid]} held).",
            kind="haunt", player=pid)


def in_range(ctx, pid: str) -> list[str]:
    """Tiles in line of sight no more than 2 tiles away, your own included."""
    s = ctx.s
    here = s["players"][pid]["tile"]
    a = s["board"][here]
    found = []
    for t, b in s["board"].items():
        if b["level"] == a["level"] and abs(b["x"] - a["x"]) + abs(b["y"] - a["y"]) <= FIRE_REACH \
                and bd.line_of_sight(ctx.c, s["board"], here, t):
            found.append(t)
    return found


def targets(ctx, pid: str) -> list[str]:
    """The tiles a hero may throw Alchemist's Fire at now, in board order."""
    s = ctx.s
    if not seen(ctx)["moon"] or not st.on_board(s["players"][pid]):
        return []
    return in_range(ctx, pid)


def throw(ctx, pid: str, tile: str):
    """Secrets of Survival, "Alchemist's Fire" (the throw)."""
    s = ctx.s
    after_moon(ctx, pid, "Alchemist's Fire")
    own_turn(ctx, pid, "Throwing Alchemist's Fire")
    if not fires(ctx, pid):
        raise IllegalAction("You hold no Alchemist's Fire.")
    if s["turn"].get("attacked"):
        raise IllegalAction("You have already attacked this turn; the Fire is thrown instead of an attack.")
    if tile not in in_range(ctx, pid):
        raise IllegalAction(f"The {ctx.tile_name(tile)} is not in line of sight within 2 tiles.")
    s["turn"]["attacked"] = True
    effects.queue(ctx, pid, [{"do": "h44_throw", "tile": tile}], source="attack", front=True)


@effects.step("h44_throw")
def _throw(ctx, task, item):
    s, pid, tile = ctx.s, task["player"], item["tile"]
    mine(ctx)["fire"][pid] -= 1
    distance = tile != s["players"][pid]["tile"]
    ctx.say(f"{ctx.name(pid)} hurls Alchemist's Fire at the {ctx.tile_name(tile)}.", kind="attack")
    people = [p for p in hp.alive(s, s["seats"]) if st.on_board(s["players"][p]) and s["players"][p]["tile"] == tile]
    beasts = [m["id"] for m in s["monsters"] if not m["dead"] and m["tile"] == tile and "speed" in m["traits"]]
    if not people and not beasts:
        ctx.say("The flames find nobody.", kind="attack")
        return
    a = effects.make_roll(ctx, pid, FIRE_DICE, "Speed 4 for the Alchemist's Fire", kind="attack")
    s["haunt"]["last_attacker"] = pid
    mine(ctx)["facing"] = pid
    steps = []
    for who in people + beasts:
        value = ctx.value(who, "speed") if who in s["players"] else at.monster_by_id(ctx, who)["traits"]["speed"]
        d = at.defence_roll(ctx, who, "speed", value)
        steps.append({"do": "h44_burn", "target": who, "a": a, "d": d, "distance": distance})
    effects.push_front(ctx, steps + [{"do": "_attack_over"}])


@effects.step("h44_burn")
def _burn(ctx, task, item):
    s, pid, who, a, d = ctx.s, task["player"], item["target"], item["a"], item["d"]
    name = at.label(ctx, who)
    if a == d:
        ctx.say(f"{name} ties the Fire ({a} to {d}): nobody is hurt.", kind="attack")
        return
    if a > d:
        ctx.say(f"The Fire beats {name} {a} to {d}: {a - d} physical damage.", kind="attack")
        if who in s["players"]:
            effects.take_damage(ctx, who, "physical", a - d, source="attack")
        else:
            mine(ctx)["facing"] = pid
            at.hurt_monster(ctx, at.monster_by_id(ctx, who), "physical", a - d)
        return
    stunned = who not in s["players"] and at.monster_by_id(ctx, who)["stunned"]
    if who == pid or item["distance"] or stunned:
        ctx.say(f"{name} escapes the Fire ({d} to {a}).", kind="attack")
        return
    ctx.say(f"{name} beats the Fire {d} to {a}: {d - a} physical damage to {ctx.name(pid)}.", kind="attack")
    effects.take_damage(ctx, pid, "physical", d - a, source="attack")


# --- the monster turn: sacrificing a Cultist ------------------------------------------------------

def sacrifice(ctx, pid: str, cultist: str):
    """Traitor's Tome, "Special Movement Rules for the Servant of Bhaal"."""
    s = ctx.s
    if not s["turn"].get("monsters"):
        raise IllegalAction("The Servant sacrifices a Cultist in the monster turn.")
    if pid != hp.controller(s) or not seen(ctx)["moon"]:
        raise IllegalAction("Only the traitor may sacrifice a Cultist.")
    m = servant(ctx)
    if m is None:
        raise IllegalAction("The Servant of Bhaal is gone.")
    if cultist not in [c["id"] for c in living(ctx, CULTIST)]:
        raise IllegalAction("Name a Cultist on the board.")
    effects.queue(ctx, pid, [{"do": "h44_sacrifice", "cultist": cultist}], source="haunt", front=True)


@effects.step("h44_sacrifice")
def _sacrifice(ctx, task, item):
    c = at.monster_by_id(ctx, item["cultist"])
    m = servant(ctx)
    if c["dead"] or m is None:
        return
    c["dead"] = True
    m["tile"], m["half"] = c["tile"], c.get("half")
    ctx.say(f"The Servant of Bhaal sacrifices Cultist {c['number']} and takes its place on the "
            f"{ctx.tile_name(c['tile'])}.", kind="monster_move", monster=m["id"], tile=c["tile"])
    hooks.fire("monster_killed", ctx, c["id"])


@rulesets.register(NUMBER)
class ByTheLightOfThePaleMoon(rulesets.RuleSet):
    title = "By the Light of the Pale Moon"
    secret_token_fields = ("number",)  # the Amulets lie face down

    def setup_step(self, ctx, step):
        text = step.get("text", "")
        if step.get("label") == AMULET:
            count = hp.count_value(ctx, step.get("count", 1))
            ctx.say(f"Setup: {count} Amulets of Protection, one of them a fake. Grab one with {{move:amulet}} "
                    "(Speed 3+, once a turn) on its tile. As the haunt revealer's first turn ends, whoever holds "
                    "none becomes the Dark Servant of Bhaal.", kind="haunt_setup")
            effects.queue(ctx, hp.chooser(ctx.s, "heroes"), [{"do": "h44_pick_fake", "count": count},
                                                             {"do": "h44_deal", "count": count}], source="haunt")
            return True
        if step.get("do") == "manual" and step.get("side") == "heroes":
            if step.get("part") == 2:
                exchange(ctx)
            return True  # the Fire pile is the bot's count; the Moon comes by itself
        if step.get("side") == "traitor":
            if not seen(ctx)["moon"]:
                return True  # Secrets of Survival: the traitor's setup waits for the Moon of Bhaal
            if step.get("do") == "manual":
                pid = hp.traitors(ctx.s)[0]
                die(ctx, pid, "subsumed by the Dark Servant of Bhaal")
                return True
        return None

    def turn_ending(self, ctx, pid):
        """Secrets of Survival, "The Moon of Bhaal": at the end of the haunt
        revealer's first turn."""
        s = ctx.s
        if seen(ctx)["moon"] or not s["haunt"].get("started"):
            return None
        revealer = s["haunt"]["revealer"]
        if pid == revealer or not s["players"][revealer]["alive"]:  # Ruling: Haunt 44, a revealer already dead
            return [{"do": "h44_moon"}]
        return None

    def next_slot(self, ctx):
        """Secrets of Survival: play goes on from the revealer's left."""
        resume = seen(ctx).get("resume")
        if not resume:
            return None
        mine(ctx)["resume"] = None
        hp.start_slot(ctx, resume, ctx.s["turn"]["number"] + 1)
        return True

    def monster_blocked(self, ctx, m, dest):
        if m["name"] == CULTIST:
            return "Cultists stay where they are, chanting their protection spells."
        return None

    def monster_attack_blocked(self, ctx, m, target):
        if m["name"] == CULTIST:
            return "Cultists do not attack."
        return None

    def monster_attack(self, ctx, m, target, trait):
        if m["name"] == SERVANT:
            servant_attack(ctx, m, target, trait)
            return True
        if m["name"] == CULTIST:
            raise IllegalAction("Cultists do not attack.")
        return None

    def monster_hurt(self, ctx, m, kind, amount):
        if m["name"] == CULTIST:
            at.stun(ctx, m)
            first_stun(ctx)
            return True
        if m["name"] != SERVANT:
            return None
        if protected(ctx):
            ctx.say("The Cultists' protection spells hold: the Servant of Bhaal ignores the damage.", kind="monster")
            return True
        last = ctx.s["haunt"].get("last_attacker")
        hero = last if last in ctx.s["players"] else seen(ctx).get("facing")
        if hero in ctx.s["players"] and hero in hp.heroes(ctx.s):
            effects.push_front(ctx, [{"do": "h44_killed", "hero": hero}])
        return True

    def haunt_actions(self, ctx, pid):
        """The Servant's attack with Sanity for the buttons (the monster
        turn's own list offers Might)."""
        s = ctx.s
        m = servant(ctx)
        if not s["turn"].get("monsters") or m is None:
            return None
        return [{"type": "monster", "op": "attack", "monster": m["id"], "target": p, "trait": "sanity"}
                for p in living_heroes(ctx) if st.beside(s, p, m)]

    own = OWN
    moves = (
        rulesets.Move("amulet", "Grab an Amulet of Protection", lambda ctx, pid, trait: grab(ctx, pid),
                      traits=("speed",), once_per_turn=True,
                      summary="Before the Moon of Bhaal, on a tile with an Amulet, Speed 3+ picks one up at random; "
                              "the fake is discarded."),
        rulesets.Move("brew", "Trade a card for Alchemist's Fire",
                      lambda ctx, pid, trait, card: brew(ctx, pid, card), who="heroes", once_per_turn=True,
                      args=(rulesets.Arg("card", lambda ctx, pid: brewable(ctx, pid), "Which card?"),),
                      summary="Once a turn, discard an item or omen that can be dropped for an Alchemist's Fire."),
        rulesets.Move("throw", "Throw Alchemist's Fire", lambda ctx, pid, trait, tile: throw(ctx, pid, tile),
                      traits=("speed",), who="heroes", instead_of_attack=True,
                      args=(rulesets.Arg("tile", lambda ctx, pid: targets(ctx, pid), "At which tile?"),),
                      summary="In place of an attack, a 4-dice attack on everyone on a tile in sight up to 2 away, "
                              "defended with Speed."),
        rulesets.Move("sacrifice", "Sacrifice a Cultist", lambda ctx, pid, trait, target: sacrifice(ctx, pid, target),
                      who="traitors", when="monster_turn",
                      args=(rulesets.Arg("monster", lambda ctx, pid: [c["id"] for c in living(ctx, CULTIST)],
                                         "Which Cultist?"),),
                      summary="The Cultist leaves the board and the Servant of Bhaal takes its place."),
    )

    def haunt_goals(self, ctx, pid):
        s = ctx.s
        if not seen(ctx)["moon"]:
            return {t["tile"] for t in s["tokens"] if t["name"] == AMULET} or None
        if pid not in hp.heroes(s):
            return None
        m = servant(ctx)
        if not protected(ctx):
            return {m["tile"]} if m else None
        return {c["tile"] for c in living(ctx, CULTIST) if not c["stunned"]}  # the spells to break
