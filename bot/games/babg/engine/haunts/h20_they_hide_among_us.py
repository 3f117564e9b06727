"""Haunt 20, They Hide Among Us (Traitor's Tome; Secrets of Survival).

What the bot carries out:
- the traitor's +2 Speed, and the traitor asked where each face-down
  Treasure Chest goes (data);
- the secret replacement: when a hero's turn ends on the tile of the
  Doppelganger who leads, the table only learns that the two step aside;
  the attack (the better of the traitor's Might and Speed against the same
  trait, Medallion dice counted) is rolled and told only to those two. A win
  makes the hero a hidden Doppelganger: its player alone reads the two
  sections it may read; nothing public changes (it stays a hero for every
  rule and every message until it reveals itself);
- revealing: a hidden Doppelganger may attack heroes (to anyone else it is
  a hero, so heroes cannot attack it); its first attack unmasks it before
  the outcome: it joins the traitor's side with +2 Speed; a revealed
  Doppelganger may attack with Speed;
- a dead hero's player tells the table whether it was a Doppelganger; when
  the leading Doppelganger dies while others live, the first of them from
  its left takes the lead (revealed if hidden) and reads the Tome;
- Treasure Chests: the declared move `open` (Might, Speed or Knowledge), 3+ once a
  turn: the chest's number (dealt in secret, known to nobody) is told to
  all; 1-2 a Mimic (the traitor may have it attack a hero there at once),
  3 the Medallion of Thoughts (2 extra dice on its holder's attacks and
  defence rolls, 8 at most; its hero cannot be replaced), 4+ an item card;
- the wins: the traitor's side when every hero is dead or replaced; the
  heroes when no Doppelganger, revealed or hidden, is alive.

The Medallion of Thoughts is a token, not a card, so the card actions do not
move it: its holder hands it over with the declared move `give` (both on
one tile), lays it down with `drop`, and anyone on its tile takes it with
`take`. A Treasure Chest token laid by the Lost and Found event (its card
beside it) is not one of the haunt's chests: `open` leaves it alone.

Stealing it in an attack: the winner of an attack that would deal 2 or more
damage to its holder on their tile is offered "Steal the Medallion of
Thoughts" beside the cards (rulebook: Stealing Items; the haunt counts it as
an item).

Left to the players: nothing.
"""
from .. import attack, effects, hooks, rng, rulesets
from .. import haunt_play as hp
from .. import state as st
from .. import traits as tr
from ..errors import IllegalAction
from ..sides import alive, traitors

KEY = "h20"              # secret: the hidden Doppelgangers and the chests' numbers still to come
MEDALLION = "h20_medallion"  # public: who holds the Medallion of Thoughts
LEAD = "h20_lead"        # public: the Doppelganger who leads (the traitor, then a successor)
LYING = "h20_medallion_tile"  # public: where the Medallion lies when nobody holds it
OWN = rulesets.Own(KEY, {"doubles": [], "pool": []}, players=("doubles",), secret=True, beside=(MEDALLION, LEAD))
CHEST = "Treasure Chest"
MIMIC = "Mimic"
OPEN_TARGET = 3
SECRET_SECTIONS = ("Revealing as a Doppelganger", "Doppelganger Speed")


def secret_state(ctx) -> dict:
    """This haunt's secret record, for steps and decisions that write it."""
    return rulesets.REGISTRY[20].record(ctx.s)


def doubles(s: dict) -> list[str]:
    """The hidden Doppelgangers (read only)."""
    return list((s["haunt"].get(KEY) or {}).get("doubles", []))


def lead(s: dict) -> str | None:
    return s["haunt"].get(LEAD) or (traitors(s)[0] if traitors(s) else None)


def holder(s: dict) -> str | None:
    return s["haunt"].get(MEDALLION)


def chests(s: dict) -> list[dict]:
    """The haunt's own Treasure Chests (Traitor's Tome, haunt 20, "Right Now",
    L1699: numbered Obstacle tokens). A Treasure Chest token an event laid
    with its card beside it (Lost and Found) is not one of them: it keeps its
    card and its own roll."""
    return [t for t in s["tokens"] if t["name"] == CHEST and not t.get("card")]


def true_heroes(s: dict) -> list[str]:
    return [p for p in s["seats"] if p not in traitors(s) and p not in doubles(s)]


def medallion_dice(s: dict, pid: str) -> int:
    return 2 if holder(s) == pid and s["players"][pid]["alive"] else 0


def unmask(ctx, pid: str, why: str):
    """A hidden Doppelganger is revealed: it joins the traitor's side and
    gains 2 Speed (Traitor's Tome, haunt 20, "Revealing as a Doppelganger")."""
    s = ctx.s
    if pid not in doubles(s):
        return
    secret_state(ctx)["doubles"].remove(pid)
    s["haunt"]["traitors"].append(pid)
    ctx.say(f"{ctx.who(pid)} {why}: a Doppelganger has been wearing {ctx.name(pid)}'s face!", kind="haunt",
            player=pid)
    tr.change(ctx, pid, "speed", 2)
    hooks.fire("traitor_named", ctx, pid)


@effects.step("h20_swap")
def _swap(ctx, task, item):
    """Traitor's Tome, haunt 20, "You Must Do This at the End of Each Hero's
    Turn": the attack out of everyone else's sight."""
    s = ctx.s
    hero, boss = item["hero"], lead(s)
    if not boss or not s["players"][boss]["alive"] or not s["players"][hero]["alive"]:
        return
    ctx.say(f"{ctx.name(boss)} and {ctx.name(hero)} step away from the table with the Traitor's Tome and the dice.",
            kind="haunt")
    both = (boss, hero)
    trait = "speed" if ctx.value(boss, "speed") > ctx.value(boss, "might") else "might"
    # the dice are rolled whatever happens inside, so nothing outside tells the cases apart
    a_faces = rng.roll(s, rng.dice_count(ctx.value(boss, trait) + medallion_dice(s, boss)))
    d_faces = rng.roll(s, rng.dice_count(ctx.value(hero, trait) + medallion_dice(s, hero)))
    if hero in doubles(s):
        for pid in both:
            ctx.say(f"{ctx.name(hero)} is already a Doppelganger: no attack.", kind="haunt_secret", to=pid)
        return
    if holder(s) == hero:
        for pid in both:
            ctx.say(f"{ctx.name(hero)} carries the Medallion of Thoughts and cannot be replaced.", kind="haunt_secret",
                    to=pid)
        return
    a, d = sum(a_faces), sum(d_faces)
    won = a > d
    text = (f"In secret, {ctx.name(boss)} attacks {ctx.name(hero)} with {trait.capitalize()}: "
            f"{' '.join(map(str, a_faces))} = {a} against {' '.join(map(str, d_faces))} = {d}. "
            + (f"A Doppelganger takes {ctx.name(hero)}'s place." if won else f"{ctx.name(hero)} is not replaced."))
    for pid in both:
        ctx.say(text, kind="haunt_secret", to=pid)
    if not won:
        return
    secret_state(ctx)["doubles"].append(hero)
    haunt = ctx.c.haunts[s["haunt"]["number"]]
    for section in haunt.raw["traitor"]["section"]:
        if section["heading"] in SECRET_SECTIONS:
            ctx.say(f"{section['heading'].upper()}\n{section['text'].strip()}", kind="secret_rules", to=hero)
    ctx.say("You now play for the Doppelgangers: you win with the traitor. Attack a hero when the time is right "
            "to reveal yourself.", kind="secret_rules", to=hero)


@effects.step("h20_steal_medallion")
def _steal_medallion(ctx, task, item):
    s, thief = ctx.s, task["player"]
    if holder(s) != item["victim"]:
        return
    s["haunt"][MEDALLION] = thief
    ctx.say(f"{ctx.name(thief)} steals the Medallion of Thoughts from {ctx.name(item['victim'])}.", kind="steal")


@effects.step("h20_opened")
def _opened(ctx, task, item):
    """Both books, haunt 20, "Opening a Treasure Chest" and the Tome's
    "Treasure Chests"."""
    s = ctx.s
    pid, tile = task["player"], item["tile"]
    chest = next((t for t in chests(s) if t["tile"] == tile), None)
    pool = secret_state(ctx)["pool"]
    if chest is None or not pool:
        return
    s["tokens"].remove(chest)
    number = pool.pop(0)
    ctx.say(f"{ctx.name(pid)} opens the Treasure Chest on the {ctx.tile_name(tile)}: number {number}.", kind="haunt",
            tile=tile)
    if number <= 2:
        ctx.say("It is a Mimic! The chest is all teeth.", kind="haunt", tile=tile)
        m = hp.add_monster(ctx, MIMIC, tile)
        targets = [p for p in alive(s, true_heroes(s) + doubles(s)) if st.beside(s, p, m)]
        if targets:
            effects.ask(ctx, hp.controller(s), "h20_mimic", "does the Mimic attack at once?",
                        [f"Attack {ctx.name(p)}" for p in targets] + ["No"], monster=m["id"], targets=targets)
    elif number == 3:
        s["haunt"][MEDALLION] = pid
        ctx.say(f"{ctx.name(pid)} finds the Medallion of Thoughts.", kind="haunt", player=pid)
    else:
        ctx.say("It holds an item.", kind="haunt")
        effects.push_front(ctx, [{"do": "draw", "deck": "item"}])


@effects.decision("h20_mimic")
def _decide_mimic(ctx, pending, index):
    """Traitor's Tome, haunt 20, "Revealing a Mimic": it may attack a hero on
    its tile at once (Might; the hero defends with Might)."""
    data = pending["data"]
    if index >= len(data["targets"]):
        return
    s = ctx.s
    m = attack.monster_by_id(ctx, data["monster"])
    target = data["targets"][index]
    ctx.say(f"{MIMIC} {m['number']} lunges at {ctx.name(target)}.", kind="attack")
    a = effects.make_roll(ctx, hp.controller(s), rng.dice_count(m["traits"]["might"]), f"Might for {MIMIC}",
                          kind="contest")
    d = attack.defence_roll(ctx, target, "might", ctx.value(target, "might"))
    s["haunt"]["last_attacker"] = m["id"]
    effects.queue(ctx, target, [attack.roll_off(m["id"], target, "might", a, d, False), {"do": "_attack_over"}],
                  source="attack", front=True)


@rulesets.register(20)
class TheyHideAmongUs(rulesets.RuleSet):
    title = "They Hide Among Us"
    secret = (KEY,)

    def setup_step(self, ctx, step):
        """Traitor's Tome, haunt 20, "Right Now": the chests' numbers are shuffled
        in secret (nobody looks); the traitor then places the chests."""
        if step.get("label") != CHEST:
            return None
        count = hp.count_value(ctx, step.get("count", 1)) or 0
        secret_state(ctx)["pool"] = rng.shuffle(ctx.s, list(range(1, count + 1)))
        ctx.s["haunt"][LEAD] = traitors(ctx.s)[0]
        hp.place_chosen(ctx, step)
        ctx.say("Setup: a Treasure Chest on your tile opens with {move:open} (Might, Speed or Knowledge 3+, once a "
                "turn). The Medallion of Thoughts: {move:give}, {move:drop}, {move:take}.", kind="haunt_setup")
        return True

    def turn_ending(self, ctx, pid):
        s = ctx.s
        boss = lead(s)
        if s["turn"].get("monsters") or pid in traitors(s) or not boss or not s["players"][boss]["alive"]:
            return None
        if not st.on_board(s["players"][pid]) or s["players"][boss]["tile"] != s["players"][pid]["tile"]:
            return None
        return [{"do": "h20_swap", "hero": pid}]

    def opponents(self, ctx, pid):
        """A hidden Doppelganger opposes the heroes; to everyone else it is a
        hero (so a hero cannot attack it, as with any hero)."""
        s = ctx.s
        if pid in doubles(s):
            return [p for p in true_heroes(s) if s["players"][p]["alive"]]
        return None

    def before_outcome(self, ctx, task, roll_off):
        """Traitor's Tome, haunt 20, "Revealing as a Doppelganger": attacking a
        hero reveals it."""
        if roll_off["attacker"] in doubles(ctx.s):
            unmask(ctx, roll_off["attacker"], "attacks a hero")
        return None

    def attack_traits(self, ctx, pid, weapon):
        """Traitor's Tome, haunt 20, "Doppelganger Speed"."""
        return ["speed"] if st.known_traitor(ctx.s, pid) else None

    def attack_dice(self, ctx, pid, trait, weapon, reckless):
        return medallion_dice(ctx.s, pid) or None

    def defence_dice(self, ctx, defender, trait):
        if defender in ctx.s["players"]:
            return medallion_dice(ctx.s, defender) or None
        return None

    def steal_instead(self, ctx, attacker, loser, amount, distance):
        """Rulebook: Stealing Items (the Medallion counts as an item): taken
        in place of 2 or more damage, on the same tile."""
        if distance or holder(ctx.s) != loser or attacker not in ctx.s["players"]:
            return None
        return [{"label": "Steal the Medallion of Thoughts", "steps": [{"do": "h20_steal_medallion",
                                                                          "victim": loser}]}]

    def death(self, ctx, pid, killer):
        """Traitor's Tome, haunt 20, "Killing a Doppelganger"."""
        s = ctx.s
        if pid in doubles(s):
            secret_state(ctx)["doubles"].remove(pid)
            s["haunt"]["traitors"].append(pid)
            ctx.say(f"{ctx.name(pid)} was a Doppelganger.", kind="haunt", player=pid)
        elif pid not in traitors(s):
            ctx.say(f"{ctx.name(pid)} was no Doppelganger.", kind="haunt", player=pid)
        if holder(s) == pid:
            ctx.s["haunt"][MEDALLION] = None
            ctx.say("The Medallion of Thoughts falls to the floor with its bearer ({move:take} there picks it up).",
                    kind="haunt")
            s["haunt"][LYING] = s["players"][pid]["tile"]
        if pid != lead(s):
            return None
        seats = s["seats"]
        i = seats.index(pid)
        others = [seats[(i + k) % len(seats)] for k in range(1, len(seats))]
        heirs = [p for p in others if s["players"][p]["alive"] and (p in traitors(s) or p in doubles(s))]
        if not heirs:
            return None
        heir = heirs[0]
        unmask(ctx, heir, "takes up the lead of the Doppelgangers")
        s["haunt"][LEAD] = heir
        s["haunt"]["traitors"].remove(heir)
        s["haunt"]["traitors"].insert(0, heir)  # the monsters are theirs now
        haunt = ctx.c.haunts[s["haunt"]["number"]]
        for text in hp.rules_texts(ctx, haunt, heir):
            ctx.say(text, kind="secret_rules", to=heir)
        ctx.say(f"Unrevealed Doppelgangers still in play: {'yes' if doubles(s) else 'none'}.", kind="haunt_secret",
                to=heir)
        return None

    def win_check(self, ctx):
        s = ctx.s
        if not s["haunt"].get(LEAD):
            return None
        if not any(s["players"][p]["alive"] for p in true_heroes(s)):
            return "traitor", "Every hero is dead or replaced by a Doppelganger."
        if not any(s["players"][p]["alive"] for p in traitors(s) + doubles(s)):
            return "heroes", "The last Doppelganger is dead."
        return None

    def haunt_goals(self, ctx, pid):
        """The heroes: the Medallion of Thoughts (a chest while it is to be
        found, the tile where it lies); whoever holds it, and the
        Doppelgangers, hunt. A hidden Doppelganger's own player alone reads
        its aim (the true heroes)."""
        s = ctx.s
        if pid in doubles(s):
            return {s["players"][p]["tile"] for p in true_heroes(s) if s["players"][p]["alive"]} or None
        if pid in traitors(s) or holder(s):
            return None
        lying = s["haunt"].get(LYING)
        if lying:
            return {lying}
        return {t["tile"] for t in chests(s)} or None

    own = OWN
    moves = (
        rulesets.Move("open", "Open a Treasure Chest", lambda ctx, pid, trait: open_chest(ctx, pid, trait),
                      traits=("might", "speed", "knowledge"),
                      summary="On a Treasure Chest's tile, Might, Speed or Knowledge 3+ (once a turn) opens it: a "
                              "Mimic, the Medallion of Thoughts or an item."),
        rulesets.Move("take", "Pick up the Medallion", lambda ctx, pid, trait: take(ctx, pid),
                      summary="Take the Medallion of Thoughts lying on your tile."),
        rulesets.Move("give", "Hand over the Medallion", lambda ctx, pid, trait, target: give(ctx, pid, target),
                      args=(rulesets.Arg("player", lambda ctx, pid: [p for p in ctx.s["seats"] if p != pid],
                                         "To whom?"),),
                      summary="Give the Medallion of Thoughts to a living adventurer on your tile."),
        rulesets.Move("drop", "Lay the Medallion down", lambda ctx, pid, trait: drop(ctx, pid),
                      summary="Lay the Medallion of Thoughts down on your tile."),
    )


def open_chest(ctx, pid: str, trait: str):
    s = ctx.s
    tile = s["players"][pid]["tile"]
    if trait not in ("might", "speed", "knowledge"):
        raise IllegalAction("Open a Treasure Chest with Might, Speed or Knowledge.")
    key = "task:h20_open"
    if key in s["turn"]["rolls"]:
        raise IllegalAction("You have already tried to open a Treasure Chest this turn.")
    if not any(t["tile"] == tile for t in chests(s)):
        raise IllegalAction("There is no Treasure Chest on your tile.")
    s["turn"]["rolls"].append(key)
    effects.queue(ctx, pid, [{"do": "roll", "trait": trait, "bands": [
        {"at_least": OPEN_TARGET, "then": [{"do": "h20_opened", "tile": tile}]},
        {"at_most": OPEN_TARGET - 1, "then": []}]}], source="haunt", front=True)


def give(ctx, pid: str, who: str):
    s = ctx.s
    if holder(s) != pid:
        raise IllegalAction("You do not carry the Medallion of Thoughts.")
    other = who if who in s["seats"] else None
    if other is None or other == pid or not s["players"][other]["alive"] or \
            s["players"][other]["tile"] != s["players"][pid]["tile"]:
        raise IllegalAction("Give the Medallion to a living adventurer on your tile.")
    s["haunt"][MEDALLION] = other
    ctx.say(f"{ctx.name(pid)} hands the Medallion of Thoughts to {ctx.name(other)}.", kind="haunt", player=pid)


def take(ctx, pid: str):
    s = ctx.s
    if holder(s) or s["haunt"].get(LYING) != s["players"][pid]["tile"]:
        raise IllegalAction("The Medallion of Thoughts is not lying on your tile.")
    s["haunt"][MEDALLION], s["haunt"][LYING] = pid, None
    ctx.say(f"{ctx.name(pid)} picks up the Medallion of Thoughts.", kind="haunt", player=pid)


def drop(ctx, pid: str):
    s = ctx.s
    if holder(s) != pid:
        raise IllegalAction("You do not carry the Medallion of Thoughts.")
    s["haunt"][MEDALLION], s["haunt"][LYING] = None, s["players"][pid]["tile"]
    ctx.say(f"{ctx.name(pid)} lays the Medallion of Thoughts down on the {ctx.tile_name(s['players'][pid]['tile'])}.",
            kind="haunt", player=pid)
