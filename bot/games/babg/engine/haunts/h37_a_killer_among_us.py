"""Haunt 37, A Killer Among Us (Secrets of Survival; a hidden traitor).

What the bot carries out:
- The tokens (data): two face-down tokens for each player, numbered 1 to
  twice the adventurers, each player told only their own; whoever holds 1 is
  the hidden traitor. A dead adventurer's two tokens are turned face up.
- Clues: the pile (twice the adventurers). Discovering an event, item or
  omen tile, an adventurer first rolls Knowledge 3+ for a Clue (the bot
  always rolls: trying costs nothing), until the pile is empty. Clues are
  carried like items: the declared moves `drop`, `take` (one lying on your
  tile), `give` (to an adventurer on your tile), and stolen in an attack.
- Spending Clues on your turn: the moves `peek` (1 Clue, on your tile, one
  token you pick), `peek_both` (2, on your tile) and `peek_far` (3,
  anywhere, one token), each naming the adventurer looked at. What a
  token shows is told to the peeker alone. An adventurer peeked at on their
  tile with a Clue in hand is asked whether they spend it to peek back.
- Special attack rules: an attack that would deal 2 or more damage may
  instead take a Clue (on the attacker's tile, as stealing) or look at one
  of the loser's tokens.
- Revealing (`unmask`, token 1 only): the traitor draws as many item cards
  as heroes are alive and keeps half (rounded up), and gains 2 in a trait of
  their choice for each hero killed.
- The wins (data): the traitor dead; every hero dead.

Left to the players: nothing. (Telling others what you saw is talk, which
the book allows; showing a token is impossible in the bot.)
"""
from .. import cards as cd
from .. import effects, rulesets
from .. import haunt_play as hp
from .. import state as st
from .. import tokens as tk
from ..errors import IllegalAction

KEY = "h37"          # public: how many Clues each adventurer carries ("clues", keyed by player)
SEEN = "seen"  # secret: which token numbers each adventurer has seen (it steers the built-in players)
CLUE = "Clue"
PILE = "Clues left"
FIND_TARGET = 3
SIDES = ("left", "right")  # a player's two face-down tokens, as they lie


OWN = rulesets.Own(KEY, {"clues": {}, SEEN: {}}, players=("clues", SEEN), secret_fields=(SEEN,))


def clues(s: dict, pid: str) -> int:
    return (s["haunt"].get(KEY) or {}).get("clues", {}).get(pid, 0)


def add_clues(ctx, pid: str, n: int):
    record = rulesets.REGISTRY[37].record(ctx.s)["clues"]
    record[pid] = record.get(pid, 0) + n
    if not record[pid]:
        record.pop(pid)


def tokens_of(s: dict, pid: str) -> list[int]:
    return st.token_numbers((s["haunt"].get("hidden_tokens") or {}).get(pid))


def learn(ctx, peeker: str, target: str, index: int):
    """Tell the peeker alone what one of the target's tokens shows."""
    number = tokens_of(ctx.s, target)[index]
    seen = rulesets.REGISTRY[37].record(ctx.s).setdefault(SEEN, {}).setdefault(peeker, {}).setdefault(target, [])
    if number not in seen:
        seen.append(number)
    ctx.say(f"{ctx.name(target)}'s {SIDES[index]} token shows {number}"
            + (" - the killer!" if number == 1 else "."), kind="secret", to=peeker)


def suspects(s: dict, pid: str) -> set[str]:
    """Whom `pid` has seen holding token 1 (read only)."""
    seen = (s["haunt"].get(KEY) or {}).get(SEEN, {}).get(pid, {})
    return {t for t, numbers in seen.items() if 1 in numbers and t in s["players"] and s["players"][t]["alive"]}


def which_token(ctx, peeker: str, target: str, then: list | None = None):
    effects.ask(ctx, peeker, "h37_which", f"which of {ctx.name(target)}'s face-down tokens do you look at?",
                ["The left one", "The right one"], target=target, then=then or [])


@effects.decision("h37_which")
def _decide_which(ctx, pending, index):
    learn(ctx, pending["player"], pending["data"]["target"], index)
    if pending["data"]["then"]:
        effects.push_front(ctx, pending["data"]["then"])


# Queued steps and questions keep player ids only under keys the engine renames when a seat is handed over
# (a step's "by"/"target"/"loser", a question's "target"): the peeker is `by`, the one looked at `target`.

@effects.step("h37_peek_one")
def _peek_one(ctx, task, item):
    which_token(ctx, item["by"], item["target"])


@effects.step("h37_peek_both")
def _peek_both(ctx, task, item):
    for i in range(len(tokens_of(ctx.s, item["target"]))):
        learn(ctx, item["by"], item["target"], i)


@effects.step("h37_respond")
def _respond(ctx, task, item):
    """Secrets of Survival, haunt 37, "How to Use Clues" (Responding)."""
    s = ctx.s
    target, peeker = item["target"], item["by"]
    if clues(s, target) < 1 or not s["players"][target]["alive"]:
        return
    effects.ask(ctx, target, "h37_respond", f"{ctx.name(peeker)} is about to look at your token: spend a Clue to "
                f"look at one of theirs at the same time?", ["Spend a Clue and look", "No"], target=peeker)


@effects.decision("h37_respond")
def _decide_respond(ctx, pending, index):
    if index != 0:
        return
    me, peeker = pending["player"], pending["data"]["target"]
    add_clues(ctx, me, -1)
    ctx.say(f"{ctx.name(me)} spends a Clue to look back at {ctx.name(peeker)}.", kind="haunt")
    which_token(ctx, me, peeker)


@effects.step("h37_clue_roll")
def _clue_roll(ctx, task, item):
    if ctx.s["haunt"]["counters"].get(PILE, 0) <= 0:
        return
    effects.push_front(ctx, [{"do": "roll", "trait": "knowledge", "bands": [
        {"at_least": FIND_TARGET, "then": [{"do": "h37_clue_found"}]},
        {"at_most": FIND_TARGET - 1, "then": []}]}])


@effects.step("h37_clue_found")
def _clue_found(ctx, task, item):
    counters = ctx.s["haunt"]["counters"]
    if counters.get(PILE, 0) <= 0:
        return
    counters[PILE] -= 1
    add_clues(ctx, task["player"], 1)
    ctx.say(f"{ctx.name(task['player'])} finds a Clue ({counters[PILE]} left in the pile).", kind="haunt")


@effects.step("h37_draw")
def _draw(ctx, task, item):
    cd.draw(ctx, task["player"], item["deck"])


@effects.step("h37_take_clue")
def _take_clue(ctx, task, item):
    victim = item["loser"]
    if clues(ctx.s, victim) < 1:
        return
    add_clues(ctx, victim, -1)
    add_clues(ctx, task["player"], 1)
    ctx.say(f"{ctx.name(task['player'])} takes a Clue from {ctx.name(victim)}.", kind="steal")


@effects.step("h37_attack_peek")
def _attack_peek(ctx, task, item):
    ctx.say(f"{ctx.name(task['player'])} looks at one of {ctx.name(item['loser'])}'s tokens instead of dealing "
            "damage.", kind="haunt")
    which_token(ctx, task["player"], item["loser"])


@effects.step("h37_keep")
def _keep(ctx, task, item):
    """Secrets of Survival, haunt 37, "Revealing as the Traitor": keep half
    the drawn items (rounded up), one pick at a time; the rest go to the
    discards. The drawn cards wait on top of the deck until chosen."""
    s = ctx.s
    pid = task["player"]
    cards = [c for c in item["cards"] if c in s["decks"]["item"]]
    if item["keep"] <= 0 or len(cards) <= item["keep"]:
        for cid in cards:
            s["decks"]["item"].remove(cid)
            if item["keep"] > 0:
                cd.gain(ctx, pid, cid)
            else:
                cd.discard(ctx, cid)
        return
    effects.ask(ctx, pid, "h37_keep", f"which item do you keep ({item['keep']} to keep)?",
                [ctx.card_name(c) for c in cards], item={**item, "cards": cards})


@effects.decision("h37_keep")
def _decide_keep(ctx, pending, index):
    item = pending["data"]["item"]
    cid = item["cards"][index]
    ctx.s["decks"]["item"].remove(cid)
    cd.gain(ctx, pending["player"], cid)
    effects.push_front(ctx, [{**item, "cards": [c for c in item["cards"] if c != cid], "keep": item["keep"] - 1}])


@rulesets.register(37)
class AKillerAmongUs(rulesets.RuleSet):
    title = "A Killer Among Us"

    def setup_step(self, ctx, step):
        if step.get("do") == "set_counter":
            ctx.say("Setup: Clues are found on discovering an event, item or omen tile (Knowledge 3+). On your turn: "
                    "{move:peek} (1 Clue, your tile), {move:peek_both} (2), {move:peek_far} (3, anywhere); "
                    "{move:drop}, {move:take}, {move:give}. Token 1's holder may unmask at any time.",
                    kind="haunt_setup")
        return None

    def symbol_card(self, ctx, pid, tile, deck):
        """Secrets of Survival, haunt 37, "How to Find a Clue": before the
        card, a Knowledge 3+ roll for a Clue."""
        if ctx.s["haunt"]["counters"].get(PILE, 0) <= 0:
            return None
        effects.push_front(ctx, [{"do": "h37_clue_roll"}, {"do": "h37_draw", "deck": deck}])
        return True

    def steal_instead(self, ctx, attacker, loser, amount, distance):
        """Secrets of Survival, haunt 37, "Special Attack Rules". Ruling: the
        Clue is taken as an item is stolen, on the attacker's tile; the peek
        may follow any attack."""
        s = ctx.s
        if attacker not in s["players"] or loser not in s["players"]:
            return None
        found = []
        if clues(s, loser) and not distance:
            found.append({"label": "Take a Clue", "steps": [{"do": "h37_take_clue", "loser": loser}]})
        found.append({"label": "Look at one of their tokens", "steps": [{"do": "h37_attack_peek", "loser": loser}]})
        return found

    def death(self, ctx, pid, killer):
        s = ctx.s
        n = clues(s, pid)
        if n:  # Ruling: a dead adventurer's Clues lie on their tile, like their items
            add_clues(ctx, pid, -n)
            for _ in range(n):
                tk.place(s, CLUE, s["players"][pid]["tile"])
            ctx.say(f"{ctx.name(pid)}'s {n} Clue{'s' if n != 1 else ''} fall on the "
                    f"{ctx.tile_name(s['players'][pid]['tile'])}.", kind="haunt")

    def traitor_named(self, ctx, pid):
        """Secrets of Survival, haunt 37, "Revealing as the Traitor"."""
        s = ctx.s
        living = len(hp.alive(s, hp.heroes(s)))
        killed = len([p for p in hp.heroes(s) if not s["players"][p]["alive"]])
        drawn = s["decks"]["item"][:living]
        steps = []
        if drawn:
            ctx.say(f"{ctx.name(pid)} draws {len(drawn)} item card{'s' if len(drawn) != 1 else ''} and keeps "
                    f"{(len(drawn) + 1) // 2}.", kind="haunt")
            steps.append({"do": "h37_keep", "cards": drawn, "keep": (len(drawn) + 1) // 2})
        steps += [{"do": "gain", "traits": "any", "amount": 2} for _ in range(killed)]
        if steps:
            effects.queue(ctx, pid, steps, source="haunt", front=True)

    own = OWN
    moves = (
        rulesets.Move("peek", "Look at a token (1 Clue)",
                      lambda ctx, pid, trait, target: peek(ctx, pid, "one", target),
                      args=(rulesets.Arg("player", lambda ctx, pid: company(ctx, pid), "Whose token?"),),
                      allowed=lambda ctx, pid: carries(ctx, pid, 1),
                      summary="Spend 1 Clue: look at one face-down token of an adventurer on your tile."),
        rulesets.Move("peek_both", "Look at both tokens (2 Clues)",
                      lambda ctx, pid, trait, target: peek(ctx, pid, "both", target),
                      args=(rulesets.Arg("player", lambda ctx, pid: company(ctx, pid), "Whose tokens?"),),
                      allowed=lambda ctx, pid: carries(ctx, pid, 2),
                      summary="Spend 2 Clues: look at both tokens of an adventurer on your tile."),
        rulesets.Move("peek_far", "Look from afar (3 Clues)",
                      lambda ctx, pid, trait, target: peek(ctx, pid, "far", target),
                      args=(rulesets.Arg("player", lambda ctx, pid: others(ctx, pid), "Whose token?"),),
                      allowed=lambda ctx, pid: carries(ctx, pid, 3),
                      summary="Spend 3 Clues: look at one token of any living adventurer, wherever they are."),
        rulesets.Move("drop", "Drop a Clue", lambda ctx, pid, trait: drop(ctx, pid),
                      allowed=lambda ctx, pid: spare_clue(ctx, pid),
                      summary="Leave one of your Clues on your tile (each Clue once a turn, as any item)."),
        rulesets.Move("take", "Pick up a Clue", lambda ctx, pid, trait: take(ctx, pid),
                      allowed=lambda ctx, pid: lying_clue(ctx, pid), summary="Take a Clue lying on your tile."),
        rulesets.Move("give", "Give a Clue", lambda ctx, pid, trait, target: give(ctx, pid, target),
                      args=(rulesets.Arg("player", lambda ctx, pid: company(ctx, pid), "Who takes the Clue?"),),
                      allowed=lambda ctx, pid: spare_clue(ctx, pid),
                      summary="Hand one of your Clues to an adventurer on your tile."),
    )

    def haunt_goals(self, ctx, pid):
        """Whoever has seen the killer's token goes after them; everyone else
        seeks company (to look under tokens, or to strike) and Clues lying
        about. Nobody is steered by what they cannot know. The killer keeps
        the mask on until a hero has died."""
        s = ctx.s
        if pid in hp.traitors(s) and not s["haunt"].get("unmasked") \
                and all(s["players"][p]["alive"] for p in hp.heroes(s)):
            return None  # the killer stays masked (and hunts) until revealing pays: after a first kill
        known = suspects(s, pid)
        if known:
            return {s["players"][t]["tile"] for t in known}
        lying = {t["tile"] for t in s["tokens"] if t["name"] == CLUE}
        return {s["players"][o]["tile"] for o in hp.alive(s, s["seats"]) if o != pid
                and st.on_board(s["players"][o])} | lying or None


def carries(ctx, pid: str, n: int) -> str | None:
    have = clues(ctx.s, pid)
    return None if have >= n else f"That takes {n} Clue{'s' if n != 1 else ''}; you carry {have}."


def others(ctx, pid: str) -> list[str]:
    """The other living adventurers, in seat order."""
    return [p for p in hp.alive(ctx.s, ctx.s["seats"]) if p != pid]


def company(ctx, pid: str) -> list[str]:
    """The other living adventurers on your tile, in seat order."""
    s = ctx.s
    return [p for p in others(ctx, pid) if st.on_board(s["players"][p]) and st.together(s, pid, p)]


# Rulebook, Use Item and Omen Cards: one action with each item a turn. Clues are alike, so the turn counts the
# Clues its player picked up (not to be dropped or given again) and dropped (not to be picked up again).
TAKEN, DROPPED = "h37_taken", "h37_dropped"


def spare_clue(ctx, pid: str) -> str | None:
    """Why `pid` has no Clue to drop or give this turn, or None."""
    have = clues(ctx.s, pid)
    if have < 1:
        return "You carry no Clue."
    if have <= (ctx.s["turn"] or {}).get(TAKEN, 0):
        return "You picked up each Clue you carry this turn: an item is handled once a turn."
    return None


def lying_clue(ctx, pid: str) -> str | None:
    """Why `pid` has no Clue to pick up this turn, or None."""
    s = ctx.s
    lying = sum(1 for t in tk.on_tile(s, s["players"][pid]["tile"]) if t["name"] == CLUE)
    if not lying:
        return "No Clue lies on your tile."
    if lying <= (s["turn"] or {}).get(DROPPED, 0):
        return "You dropped the Clues lying here this turn: an item is handled once a turn."
    return None


def drop(ctx, pid: str):
    s = ctx.s
    why = spare_clue(ctx, pid)
    if why:
        raise IllegalAction(why)
    add_clues(ctx, pid, -1)
    tk.place(s, CLUE, s["players"][pid]["tile"])
    s["turn"][DROPPED] = s["turn"].get(DROPPED, 0) + 1
    ctx.say(f"{ctx.name(pid)} drops a Clue.", kind="haunt")


def take(ctx, pid: str):
    s = ctx.s
    why = lying_clue(ctx, pid)
    if why:
        raise IllegalAction(why)
    token = next(t for t in tk.on_tile(s, s["players"][pid]["tile"]) if t["name"] == CLUE)
    tk.remove(s, token)
    add_clues(ctx, pid, 1)
    s["turn"][TAKEN] = s["turn"].get(TAKEN, 0) + 1
    ctx.say(f"{ctx.name(pid)} picks up a Clue.", kind="haunt")


def give(ctx, pid: str, other: str):
    why = spare_clue(ctx, pid)
    if why:
        raise IllegalAction(why)
    if other not in company(ctx, pid):
        raise IllegalAction("Give a Clue to an adventurer on your tile.")
    add_clues(ctx, pid, -1)
    add_clues(ctx, other, 1)  # Ruling: a Clue is never unwelcome, so the handover needs no answer
    ctx.say(f"{ctx.name(pid)} gives a Clue to {ctx.name(other)}.", kind="haunt")


def peek(ctx, pid: str, mode: str, other: str):
    """Secrets of Survival, haunt 37, "How to Use Clues"."""
    s = ctx.s
    if other not in s["players"] or not s["players"][other]["alive"]:
        raise IllegalAction("Name a living adventurer.")
    cost = {"one": 1, "both": 2, "far": 3}[mode]
    if other == pid:
        raise IllegalAction("Your own tokens are no secret to you.")
    if clues(s, pid) < cost:
        raise IllegalAction(f"That takes {cost} Clue{'s' if cost != 1 else ''}; you carry {clues(s, pid)}.")
    near = st.together(s, pid, other)
    if mode != "far" and not near:
        raise IllegalAction(f"{ctx.name(other)} is not on your tile (looking from afar takes 3 Clues).")
    add_clues(ctx, pid, -cost)
    what = "both of" if mode == "both" else "one of"
    ctx.say(f"{ctx.name(pid)} spends {cost} Clue{'s' if cost != 1 else ''} to look at {what} {ctx.name(other)}'s "
            "tokens.", kind="haunt", player=pid)
    steps = [{"do": "h37_peek_both" if mode == "both" else "h37_peek_one", "by": pid, "target": other}]
    if near:  # the one looked at may look back at once
        steps.insert(0, {"do": "h37_respond", "by": pid, "target": other})
    effects.queue(ctx, pid, steps, source="haunt", front=True)
