"""Haunt 45, Forever Mead (Traitor's Tome and Secrets of Survival: the
adventurer with the lowest Might becomes the Dungeon Master).

What the bot carries out:
- Setup: the DM's adventurer dies (its figure leaves the board); the bot
  keeps the DM's sheet: heroes + 3 Potions, their marks (+ for as many as
  there are heroes, one X, two -) dealt to the numbers in secret and told
  only to the DM, who then places each Potion face down, a tile without a
  Potion while there is one; the DM's hand of fate (heroes + 1 events,
  hidden from the heroes); the poison slider on 2 (data).
- At the start of each hero's turn the DM picks a card of the hand of fate
  (asked by position, the hand told to the DM alone); the hero resolves it
  as if drawn, and the DM draws a replacement.
- The poison: the slider goes up 1 each round, in the DM's place in the
  order (before the first hero's turn of each new round); at the end of
  each hero's turn a Might roll against it, or 1 die of physical damage
  (halved, rounded down, after a diluted antidote that turn; none once
  cured).
- Potions: `task knowledge search` (3+, once a turn, on a Potion's tile:
  the hero takes it, number hidden); `task knowledge test` on the Arcane
  Retreat (once a turn: 0-2 nothing, 3-4 whether it is poison, 5+ its kind,
  told to that hero alone); `task might drink` (once a turn: + cures, -
  halves this turn's poison damage, X kills; then no movement this turn or
  the next).
- Wins: the heroes once half the starting heroes, rounded up, are cured
  (data); the DM when every hero is dead.

Left to the players:
- trading, dropping and stealing Potions: the bot keeps a found Potion with
  its finder (it lies on their tile again if they die), as the tokens have
  no item card to pass.
"""
from .. import effects, rng, rulesets
from .. import haunt_play as hp
from .. import marks as mk
from .. import state as st
from ..death import die
from ..errors import IllegalAction

POTION = "Potion"
RETREAT = "arcane_retreat"
POISON, CURED = "Poison", "Heroes cured"
KINDS = {"+": "a potion of vitality", "X": "a potion of poison", "-": "a diluted antidote"}
EMPTY = {"marks": {}, "held": {}, "cured": [], "diluted": {}, "round": 0}


def mine(ctx) -> dict:
    return ctx.s["haunt"].setdefault("h45", {"marks": {}, "held": {}, "cured": [], "diluted": {}, "round": 0})


def hand_of_fate(ctx) -> list:
    """The DM's hand: cards laid beside the board (every card stays in one
    place), secret from everyone's view but the bot's."""
    return ctx.s["haunt"].setdefault("beside_board", [])


def seen(ctx) -> dict:
    return ctx.s["haunt"].get("h45") or EMPTY


def dm(ctx) -> str:
    return hp.traitors(ctx.s)[0]


def held(ctx, pid: str) -> list:
    return seen(ctx)["held"].get(pid, [])


# --- setup --------------------------------------------------------------------------------------

def sheet(ctx, count: int):
    s = ctx.s
    heroes = len(hp.heroes(s))
    marks = rng.shuffle(s, ["+"] * heroes + ["X"] + ["-"] * max(0, count - heroes - 1))
    mine(ctx)["marks"] = {str(n + 1): mark for n, mark in enumerate(marks)}
    ctx.say("Your sheet: " + ", ".join(f"Potion {n} {m}" for n, m in mine(ctx)["marks"].items())
            + " (+ vitality, X poison, - diluted antidote).", kind="secret", to=dm(ctx))


@effects.step("h45_place_potion")
def _place_potion(ctx, task, item):
    s = ctx.s
    number = item["of"] - item["left"] + 1
    if item["left"] > 1:
        task["steps"].insert(0, {**item, "left": item["left"] - 1})
    taken = {t["tile"] for t in s["tokens"] if t["name"] == POTION}
    tiles = sorted([t for t in s["board"] if t not in taken] or s["board"], key=ctx.tile_name)
    effects.ask(ctx, task["player"], "h45_potion_tile", f"where does Potion {number} of {item['of']} go (face "
                "down)?", [ctx.tile_name(t) for t in tiles], tiles=tiles, number=number)


@effects.decision("h45_potion_tile")
def _decide_potion_tile(ctx, pending, index):
    tile = pending["data"]["tiles"][index]
    ctx.s["tokens"].append({"name": POTION, "tile": tile, "number": str(pending["data"]["number"])})
    ctx.say(f"A Potion is put face down on the {ctx.tile_name(tile)}.", kind="token", tile=tile)


def refill(ctx):
    """The DM draws an event card into the hand of fate (an empty deck is
    rebuilt from its discards, as for any draw)."""
    s = ctx.s
    if not s["decks"]["event"] and s["discard"]["event"]:
        s["decks"]["event"] = rng.shuffle(s, s["discard"]["event"])
        s["discard"]["event"] = []
    if s["decks"]["event"]:
        hand_of_fate(ctx).append(s["decks"]["event"].pop(0))


def show_hand(ctx):
    hand = hand_of_fate(ctx)
    ctx.say("Your hand of fate: " + "; ".join(f"card {i + 1}: {ctx.card_name(c)}" for i, c in enumerate(hand))
            + ".", kind="secret", to=dm(ctx))


# --- the hand of fate, the poison -----------------------------------------------------------------

@effects.step("h45_fate")
def _fate(ctx, task, item):
    hand = hand_of_fate(ctx)
    hero = item["hero"]
    if not hand or not ctx.s["players"][hero]["alive"]:
        return
    show_hand(ctx)
    effects.ask(ctx, task["player"], "h45_fate", f"which card of your hand of fate does {ctx.name(hero)} resolve?",
                [f"Card {i + 1}" for i in range(len(hand))], hero=hero)


@effects.decision("h45_fate")
def _decide_fate(ctx, pending, index):
    hero = pending["data"]["hero"]
    card_id = hand_of_fate(ctx).pop(index)
    refill(ctx)
    card = ctx.c.cards[card_id]
    ctx.say(f"The DM hands {ctx.name(hero)} the event {card.name}: {card.text}", kind="draw", player=hero,
            card=card_id, deck="event")
    effects.queue(ctx, hero, list(card.on_draw) + [{"do": "_settle_event", "card": card_id}], source=card_id,
                  front=True)


@effects.step("h45_poison_damage")
def _poison_damage(ctx, task, item):
    pid = task["player"]
    amount = effects.make_roll(ctx, pid, 1, "1 die of poison damage", kind="damage")
    if seen(ctx)["diluted"].get(pid) == ctx.s["turn"]["number"]:
        amount //= 2
        ctx.say(f"The diluted antidote halves it: {amount}.", kind="haunt", player=pid)
    effects.take_damage(ctx, pid, "physical", amount)


@effects.step("h45_found")
def _found(ctx, task, item):
    s = ctx.s
    pid = task["player"]
    token = next((t for t in s["tokens"] if t["name"] == POTION and t["tile"] == s["players"][pid]["tile"]), None)
    if token:
        s["tokens"].remove(token)
        mine(ctx)["held"].setdefault(pid, []).append(token["number"])
        ctx.say(f"{ctx.name(pid)} finds a Potion and keeps it face down.", kind="haunt", player=pid)
        ctx.say(f"It is Potion {token['number']}.", kind="secret", to=pid)


@effects.step("h45_tested")
def _tested(ctx, task, item):
    pid = task["player"]
    total = task.get("results", [0])[-1]
    mark = seen(ctx)["marks"][item["number"]]
    if total >= 5:
        told = f"Potion {item['number']} is {KINDS[mark]}."
    elif total >= 3:
        told = f"Potion {item['number']} is {'' if mark == 'X' else 'not '}a potion of poison."
    else:
        told = f"Potion {item['number']} smells faintly of elderberries; you learn nothing."
    ctx.say(told, kind="secret", to=pid)
    ctx.say(told, kind="secret", to=dm(ctx))


@rulesets.register(45)
class ForeverMead(rulesets.RuleSet):
    title = "Forever Mead"
    secret = ("h45", "beside_board")
    secret_token_fields = ("number",)

    def setup_step(self, ctx, step):
        s = ctx.s
        text = step.get("text", "")
        if step.get("do") == "manual" and "Remove your adventurer figure" in text:
            mine(ctx)
            die(ctx, dm(ctx), "gone from Faerun: their player now runs the game as the Dungeon Master")
            ctx.say("Setup: heroes, `task knowledge search` takes a Potion on your tile (3+), `task knowledge test` "
                    "tests one on the Arcane Retreat, `task might drink` drinks one.", kind="haunt_setup",
                    to="heroes")
            return True
        if step.get("do") == "manual":  # who stays in the room: each side's rules already reach it in private
            return True
        if step.get("label") == POTION:
            count = hp.count_value(ctx, step["count"])
            sheet(ctx, count)
            effects.queue(ctx, dm(ctx), [{"do": "h45_place_potion", "left": count, "of": count}])
            return True
        if step.get("do") == "draw":
            for _ in range(hp.count_value(ctx, step["count"])):
                refill(ctx)
            show_hand(ctx)
            ctx.say(f"Setup: the DM draws {len(hand_of_fate(ctx))} event cards as the hand of fate.",
                    kind="haunt_setup")
            return True
        if step.get("counter") == CURED:
            s["haunt"]["counters"][CURED] = 0
        return None

    def turn_started(self, ctx, pid):
        s = ctx.s
        if pid not in hp.heroes(s) or not s["players"][pid]["alive"]:
            return None
        first = next(p for p in s["order"] if p != hp.MONSTERS and s["players"][p]["alive"] and p in hp.heroes(s))
        if pid == first:  # Traitor's Tome, "You Must Do This at the Start of Your Turn" (the DM's place)
            if mine(ctx)["round"] > 0:
                counters = s["haunt"]["counters"]
                counters[POISON] = counters.get(POISON, 2) + 1
                ctx.say(f"The DM's turn: the poison grows stronger (slider on {counters[POISON]}).", kind="haunt")
            mine(ctx)["round"] += 1
        effects.queue(ctx, dm(ctx), [{"do": "h45_fate", "hero": pid}], source="haunt", front=True)
        return None

    def turn_ending(self, ctx, pid):
        """Secrets of Survival, "You Must Do This at the End of Your Turn"."""
        s = ctx.s
        if pid not in hp.heroes(s) or not s["players"][pid]["alive"] or pid in seen(ctx)["cured"]:
            return None
        target = s["haunt"]["counters"].get(POISON, 2)
        return [{"do": "roll", "trait": "might", "bands": [
            {"at_least": target, "then": []},
            {"at_most": target - 1, "then": [{"do": "h45_poison_damage"}]}]}]

    def death(self, ctx, pid, killer):
        s = ctx.s
        for number in mine(ctx)["held"].pop(pid, []) if s["haunt"].get("h45") else []:
            s["tokens"].append({"name": POTION, "tile": s["players"][pid]["tile"], "number": number})
        return None

    def task(self, ctx, pid, trait, name):
        words = name.lower()
        verb = next((v for v in ("search", "test", "drink") if v in words), None)
        if verb is None:
            return None
        s = ctx.s
        if pid not in hp.heroes(s) or not st.on_board(s["players"][pid]):
            raise IllegalAction("Only a hero on the board may do that.")
        key = f"task:h45_{verb}"
        if key in s["turn"]["rolls"]:
            raise IllegalAction(f"You may {verb} only once a turn.")
        tile = s["players"][pid]["tile"]
        if verb == "search":
            if trait != "knowledge":
                raise IllegalAction("Searching for a Potion is a Knowledge roll.")
            if not any(t["name"] == POTION and t["tile"] == tile for t in s["tokens"]):
                raise IllegalAction("There is no Potion on your tile.")
            s["turn"]["rolls"].append(key)
            effects.queue(ctx, pid, [{"do": "roll", "trait": "knowledge", "bands": [
                {"at_least": 3, "then": [{"do": "h45_found"}]}, {"at_most": 2, "then": []}]}],
                source="haunt", front=True)
            return True
        if not held(ctx, pid):
            raise IllegalAction("You have no Potion.")
        number = held(ctx, pid)[0]
        if verb == "test":
            if trait != "knowledge":
                raise IllegalAction("Testing a Potion is a Knowledge roll.")
            if tile != RETREAT:
                raise IllegalAction("Potions are tested on the Arcane Retreat.")
            s["turn"]["rolls"].append(key)
            effects.queue(ctx, pid, [{"do": "roll", "trait": "knowledge", "bands": [
                {"at_least": 0, "then": [{"do": "h45_tested", "number": number}]}]}], source="haunt", front=True)
            return True
        s["turn"]["rolls"].append(key)
        drink(ctx, pid, number)
        return True

    def haunt_actions(self, ctx, pid):
        if ctx.s["turn"].get("monsters") or pid not in hp.heroes(ctx.s):
            return []
        return [{"type": "task", "trait": "knowledge", "task": "search"},
                {"type": "task", "trait": "knowledge", "task": "test"},
                {"type": "task", "trait": "might", "task": "drink"}]

    def haunt_goals(self, ctx, pid):
        s = ctx.s
        if pid not in hp.heroes(s) or pid in seen(ctx)["cured"] or held(ctx, pid):
            return None
        return {t["tile"] for t in s["tokens"] if t["name"] == POTION}


def drink(ctx, pid: str, number: str):
    """Traitor's Tome, "Drinking a Potion"; Secrets of Survival, "Special
    Movement Rules"."""
    s = ctx.s
    h = mine(ctx)
    h["held"][pid].remove(number)
    mark = h["marks"][number]
    ctx.say(f"{ctx.name(pid)} drinks Potion {number}: it was {KINDS[mark]}.", kind="haunt", player=pid)
    s["turn"]["stopped"] = True
    mk.add(ctx, pid, "move_cap", cap=0, armed=False)  # armed at the start of the next turn, spent at its end
    if mark == "+":
        h["cured"].append(pid)
        s["haunt"]["counters"][CURED] = s["haunt"]["counters"].get(CURED, 0) + 1
        ctx.say(f"{ctx.name(pid)} is cured of the poison.", kind="haunt", player=pid)
    elif mark == "-":
        h["diluted"][pid] = s["turn"]["number"]
    else:
        die(ctx, pid, "a second dose of poison")
