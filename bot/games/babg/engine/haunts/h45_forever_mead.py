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
- Potions, the declared moves: `search` (Knowledge 3+, once a turn, on a
  hidden Potion's tile: the hero takes it, its number told to them
  alone); `test` on the Arcane Retreat (Knowledge, once a turn, the Potion
  the hero names: 0-2 nothing, 3-4 whether it is poison, 5+ its kind, told
  to that hero and the DM); `drink` (the Potion the hero names, one a
  turn, no roll: + cures, - halves this turn's poison damage, X kills;
  then no movement this turn or the next).
- Potions are items (Secrets of Survival, haunt 45, L5186): the declared
  moves `drop_potion` (face down on the tile), `pick_up_potion` (a dropped
  one, without a roll) and `trade_potion` (to a hero on the tile, who
  accepts or declines), each Potion once a turn; the winner of an attack
  that would deal 2 or more damage on the tile may steal one instead; a
  dead hero's Potions lie on their tile to be picked up.
- Wins: the heroes once half the starting heroes, rounded up, are cured
  (data); the DM when every hero is dead.

Left to the players: nothing the book prints.
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
# marks: {Potion number: mark}; held: {hero: [Potion numbers]}; cured: heroes; diluted: {hero: turn number}
OWN = rulesets.Own("h45", {"marks": {}, "held": {}, "cured": [], "diluted": {}, "round": 0},
                   players=("held", "cured", "diluted"), secret=True)
EMPTY = OWN.start


def mine(ctx) -> dict:
    return rulesets.REGISTRY[45].record(ctx.s)


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
    token = next((t for t in s["tokens"] if t["name"] == POTION and t["tile"] == s["players"][pid]["tile"]
                  and not t.get("dropped")), None)
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
            ctx.say("Setup: heroes, {move:search} takes a Potion on your tile (Knowledge 3+), {move:test} tests "
                    "one on the Arcane Retreat, {move:drink} drinks one. Potions are items: {move:drop_potion}, "
                    "{move:pick_up_potion}, {move:trade_potion}, or steal one by an attack.", kind="haunt_setup",
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
            s["tokens"].append({"name": POTION, "tile": s["players"][pid]["tile"], "number": number, "dropped": True})
        return None

    def steal_instead(self, ctx, attacker, loser, amount, distance):
        """Secrets of Survival, haunt 45, L5186 (a Potion may be stolen, as
        an item: rulebook, "Stealing Items", not by a distance attack)."""
        s = ctx.s
        if distance or attacker not in s["players"] or loser not in s["players"] or not held(ctx, loser):
            return None
        numbers = held(ctx, loser)
        return [{"label": f"Steal one of {ctx.name(loser)}'s Potions (face down, {i + 1} of {len(numbers)})",
                 "steps": [{"do": "h45_steal", "thief": attacker, "victim": loser, "number": n}]}
                for i, n in enumerate(numbers)]

    own = OWN
    moves = (
        rulesets.Move("search", "Search for a Potion", lambda ctx, pid, trait: search(ctx, pid),
                      traits=("knowledge",), who="heroes", once_per_turn=True,
                      summary="On a tile with a hidden Potion, Knowledge 3+ takes it (its number told to you alone)."),
        rulesets.Move("test", "Test a Potion", lambda ctx, pid, trait, number: test(ctx, pid, str(number)),
                      traits=("knowledge",), who="heroes", once_per_turn=True,
                      args=(rulesets.Arg("number", lambda ctx, pid: potion_numbers(ctx, pid), "Which Potion?"),),
                      summary="On the Arcane Retreat, a Knowledge roll on the Potion you name; what it shows is told "
                              "to you and the DM alone."),
        rulesets.Move("drink", "Drink a Potion", lambda ctx, pid, trait, number: drink(ctx, pid, str(number)),
                      who="heroes", once_per_turn=True,
                      args=(rulesets.Arg("number", lambda ctx, pid: potion_numbers(ctx, pid), "Which Potion?"),),
                      summary="Drink the Potion you name (one a turn): vitality cures, a diluted antidote halves "
                              "this turn's poison, poison kills; no movement this turn or the next."),
        rulesets.Move("drop_potion", "Drop a Potion",
                      lambda ctx, pid, trait, number: drop_potion(ctx, pid, str(number)), who="heroes",
                      args=(rulesets.Arg("number", lambda ctx, pid: potion_numbers(ctx, pid), "Which Potion?"),),
                      summary="Put a Potion you hold face down on your tile, as an item is dropped."),
        rulesets.Move("pick_up_potion", "Pick up a Potion", lambda ctx, pid, trait: pick_up_potion(ctx, pid),
                      who="heroes",
                      summary="Take a dropped Potion from your tile, as an item is picked up (no roll)."),
        rulesets.Move("trade_potion", "Trade a Potion",
                      lambda ctx, pid, trait, number, target: trade_potion(ctx, pid, str(number), target),
                      who="heroes",
                      args=(rulesets.Arg("number", lambda ctx, pid: potion_numbers(ctx, pid), "Which Potion?"),
                            rulesets.Arg("player", lambda ctx, pid: partners(ctx, pid), "To whom?")),
                      summary="Offer a Potion you hold to a hero on your tile, who accepts or declines."),
    )

    def haunt_goals(self, ctx, pid):
        s = ctx.s
        if pid not in hp.heroes(s) or pid in seen(ctx)["cured"] or held(ctx, pid):
            return None
        return {t["tile"] for t in s["tokens"] if t["name"] == POTION}


def drink(ctx, pid: str, number: str):
    """Traitor's Tome, "Drinking a Potion"; Secrets of Survival, "Special
    Movement Rules"."""
    holding(ctx, pid, number)
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


# --- the heroes' moves (Secrets of Survival, haunt 45) --------------------------------------------

def potion_numbers(ctx, pid: str) -> list[int]:
    """The Potions `pid` holds, by number, in the order they came."""
    return [int(n) for n in held(ctx, pid)]


def partners(ctx, pid: str) -> list[str]:
    """The heroes a Potion may be traded to: alive, on the board, together."""
    s = ctx.s
    return [p for p in s["seats"] if p != pid and p in hp.heroes(s) and s["players"][p]["alive"]
            and st.on_board(s["players"][p]) and st.on_board(s["players"][pid]) and st.together(s, pid, p)]


def holding(ctx, pid: str, number: str):
    if not st.on_board(ctx.s["players"][pid]):
        raise IllegalAction("You are not on the board.")
    if number not in held(ctx, pid):
        raise IllegalAction(f"You do not hold Potion {number}." if held(ctx, pid) else "You have no Potion.")


def once_this_turn(ctx, number: str):
    """Rulebook, "Use Item and Omen Cards": one drop, pick-up or trade of an
    item a turn (a Potion is an item here)."""
    key = f"h45_potion:{number}"
    if key in ctx.s["turn"]["rolls"]:
        raise IllegalAction("That Potion has already been dropped, picked up or traded this turn.")
    ctx.s["turn"]["rolls"].append(key)


def search(ctx, pid: str):
    """Secrets of Survival, haunt 45: "How to Find a Potion"."""
    s = ctx.s
    tile = s["players"][pid]["tile"]
    if not st.on_board(s["players"][pid]) or \
            not any(t["name"] == POTION and t["tile"] == tile and not t.get("dropped") for t in s["tokens"]):
        raise IllegalAction("There is no hidden Potion on your tile.")
    effects.queue(ctx, pid, [{"do": "roll", "trait": "knowledge", "bands": [
        {"at_least": 3, "then": [{"do": "h45_found"}]}, {"at_most": 2, "then": []}]}],
        source="haunt", front=True)


def test(ctx, pid: str, number: str):
    """Secrets of Survival, haunt 45: "Testing a Potion" (the hero names the
    Potion they test)."""
    holding(ctx, pid, number)
    if ctx.s["players"][pid]["tile"] != RETREAT:
        raise IllegalAction("Potions are tested on the Arcane Retreat.")
    effects.queue(ctx, pid, [{"do": "roll", "trait": "knowledge", "bands": [
        {"at_least": 0, "then": [{"do": "h45_tested", "number": number}]}]}], source="haunt", front=True)


def drop_potion(ctx, pid: str, number: str):
    holding(ctx, pid, number)
    once_this_turn(ctx, number)
    s = ctx.s
    mine(ctx)["held"][pid].remove(number)
    tile = s["players"][pid]["tile"]
    s["tokens"].append({"name": POTION, "tile": tile, "number": number, "dropped": True})
    ctx.say(f"{ctx.name(pid)} drops a Potion, face down, on the {ctx.tile_name(tile)}.", kind="drop", player=pid)


def pick_up_potion(ctx, pid: str):
    """Ruling: face-down Potions look alike, so the one picked up is the one
    lying there longest."""
    s = ctx.s
    tile = s["players"][pid]["tile"]
    token = next((t for t in s["tokens"] if t["name"] == POTION and t["tile"] == tile and t.get("dropped")), None)
    if token is None or not st.on_board(s["players"][pid]):
        raise IllegalAction("No dropped Potion lies on your tile.")
    once_this_turn(ctx, token["number"])
    s["tokens"].remove(token)
    mine(ctx)["held"].setdefault(pid, []).append(token["number"])
    ctx.say(f"{ctx.name(pid)} picks up a Potion.", kind="pickup", player=pid)
    ctx.say(f"It is Potion {token['number']}.", kind="secret", to=pid)


def trade_potion(ctx, pid: str, number: str, to: str):
    holding(ctx, pid, number)
    if to not in partners(ctx, pid):
        raise IllegalAction("You can trade only with another hero on your tile (and your side of a barrier).")
    if f"h45_potion:{number}" in ctx.s["turn"]["rolls"]:
        once_this_turn(ctx, number)  # raises the usual message
    effects.ask(ctx, to, "h45_trade", f"accept a Potion from {ctx.name(pid)}?", ["Accept", "Decline"],
                giver=pid, number=number)


@effects.decision("h45_trade")
def _decide_trade(ctx, pending, index):
    data = pending["data"]
    giver, taker, number = data["giver"], pending["player"], data["number"]
    if index != 0:
        ctx.say(f"{ctx.name(taker)} declines the Potion.", kind="trade")
        return
    if number not in held(ctx, giver) or not ctx.s["players"][taker]["alive"]:
        return
    once_this_turn(ctx, number)
    mine(ctx)["held"][giver].remove(number)
    mine(ctx)["held"].setdefault(taker, []).append(number)
    ctx.say(f"{ctx.name(giver)} gives a Potion to {ctx.name(taker)}.", kind="trade")
    ctx.say(f"It is Potion {number}.", kind="secret", to=taker)


@effects.step("h45_steal")
def _steal(ctx, task, item):
    thief, victim, number = item["thief"], item["victim"], item["number"]
    if number not in held(ctx, victim) or thief not in ctx.s["players"] or not ctx.s["players"][thief]["alive"]:
        return
    mine(ctx)["held"][victim].remove(number)
    mine(ctx)["held"].setdefault(thief, []).append(number)
    ctx.s["turn"]["rolls"].append(f"h45_potion:{number}")  # stealing it is this turn's one action with it
    ctx.say(f"{ctx.name(thief)} steals a Potion from {ctx.name(victim)}.", kind="steal")
    ctx.say(f"It is Potion {number}.", kind="secret", to=thief)
