"""Haunt 37, A Killer Among Us (Secrets of Survival; a hidden traitor).

What the bot carries out:
- The tokens (data): two face-down tokens for each player, numbered 1 to
  twice the adventurers, each player told only their own; whoever holds 1 is
  the hidden traitor. A dead adventurer's two tokens are turned face up.
- Clues: the pile (twice the adventurers). Discovering an event, item or
  omen tile, an adventurer first rolls Knowledge 3+ for a Clue (the bot
  always rolls: trying costs nothing), until the pile is empty. Clues are
  carried like items: `task knowledge drop clue`, `task knowledge take
  clue` (one lying on your tile), `task knowledge give clue <name>` (on your
  tile), and stolen in an attack.
- Spending Clues on your turn: `task knowledge peek <name>` (1 Clue, on your
  tile, one token you pick), `task knowledge peek both <name>` (2, on your
  tile), `task knowledge peek far <name>` (3, anywhere, one token). What a
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

KEY = "h37"          # public: how many Clues each adventurer carries
SEEN = "h37_seen"    # secret: which token numbers each adventurer has seen, for the built-in players
CLUE = "Clue"
PILE = "Clues left"
FIND_TARGET = 3
SIDES = ("left", "right")  # a player's two face-down tokens, as they lie


def clues(s: dict, pid: str) -> int:
    return (s["haunt"].get(KEY) or {}).get(pid, 0)


def add_clues(ctx, pid: str, n: int):
    record = ctx.s["haunt"].setdefault(KEY, {})
    record[pid] = record.get(pid, 0) + n


def tokens_of(s: dict, pid: str) -> list[int]:
    return st.token_numbers((s["haunt"].get("hidden_tokens") or {}).get(pid))


def learn(ctx, peeker: str, target: str, index: int):
    """Tell the peeker alone what one of the target's tokens shows."""
    number = tokens_of(ctx.s, target)[index]
    ctx.s["haunt"].setdefault(SEEN, {}).setdefault(peeker, {}).setdefault(target, [])
    if number not in ctx.s["haunt"][SEEN][peeker][target]:
        ctx.s["haunt"][SEEN][peeker][target].append(number)
    ctx.say(f"{ctx.name(target)}'s {SIDES[index]} token shows {number}"
            + (" - the killer!" if number == 1 else "."), kind="secret", to=peeker)


def suspects(s: dict, pid: str) -> set[str]:
    """Whom `pid` has seen holding token 1 (read only)."""
    seen = (s["haunt"].get(SEEN) or {}).get(pid, {})
    return {t for t, numbers in seen.items() if 1 in numbers and s["players"][t]["alive"]}


def which_token(ctx, peeker: str, target: str, then: list | None = None):
    effects.ask(ctx, peeker, "h37_which", f"which of {ctx.name(target)}'s face-down tokens do you look at?",
                ["The left one", "The right one"], target=target, then=then or [])


@effects.decision("h37_which")
def _decide_which(ctx, pending, index):
    learn(ctx, pending["player"], pending["data"]["target"], index)
    if pending["data"]["then"]:
        effects.push_front(ctx, pending["data"]["then"])


@effects.step("h37_peek_one")
def _peek_one(ctx, task, item):
    which_token(ctx, item["peeker"], item["target"])


@effects.step("h37_peek_both")
def _peek_both(ctx, task, item):
    for i in range(len(tokens_of(ctx.s, item["target"]))):
        learn(ctx, item["peeker"], item["target"], i)


@effects.step("h37_respond")
def _respond(ctx, task, item):
    """Secrets of Survival, haunt 37, "How to Use Clues" (Responding)."""
    s = ctx.s
    target, peeker = item["target"], item["peeker"]
    if clues(s, target) < 1 or not s["players"][target]["alive"]:
        return
    effects.ask(ctx, target, "h37_respond", f"{ctx.name(peeker)} is about to look at your token: spend a Clue to "
                f"look at one of theirs at the same time?", ["Spend a Clue and look", "No"], peeker=peeker)


@effects.decision("h37_respond")
def _decide_respond(ctx, pending, index):
    if index != 0:
        return
    me, peeker = pending["player"], pending["data"]["peeker"]
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
    victim = item["victim"]
    if clues(ctx.s, victim) < 1:
        return
    add_clues(ctx, victim, -1)
    add_clues(ctx, task["player"], 1)
    ctx.say(f"{ctx.name(task['player'])} takes a Clue from {ctx.name(victim)}.", kind="steal")


@effects.step("h37_attack_peek")
def _attack_peek(ctx, task, item):
    ctx.say(f"{ctx.name(task['player'])} looks at one of {ctx.name(item['victim'])}'s tokens instead of dealing "
            "damage.", kind="haunt")
    which_token(ctx, task["player"], item["victim"])


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
    secret = (SEEN,)  # what each adventurer has seen under the tokens

    def setup_step(self, ctx, step):
        if step.get("do") == "set_counter":
            ctx.say("Setup: Clues are found on discovering an event, item or omen tile (Knowledge 3+). On your turn: "
                    "`task knowledge peek <name>` (1 Clue, your tile), `task knowledge peek both <name>` (2), `task "
                    "knowledge peek far <name>` (3, anywhere); `task knowledge drop clue`, `task knowledge take "
                    "clue`, `task knowledge give clue <name>`. Token 1's holder may `unmask` at any time.",
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
            found.append({"label": "Take a Clue", "steps": [{"do": "h37_take_clue", "victim": loser}]})
        found.append({"label": "Look at one of their tokens", "steps": [{"do": "h37_attack_peek", "victim": loser}]})
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

    def task(self, ctx, pid, trait, name):
        words = name.lower().split()
        if not words or words[0] not in ("peek", "drop", "take", "give"):
            return None
        s = ctx.s
        turn = s["turn"]
        if turn.get("monsters") or turn["player"] != pid:
            raise IllegalAction("Clues are used on your own turn.")
        if trait != "knowledge":
            raise IllegalAction("Clue actions are typed with knowledge: `task knowledge peek <name>`.")
        if words[0] == "peek":
            peek(ctx, pid, words[1:])
        elif words[0] == "drop":
            if clues(s, pid) < 1:
                raise IllegalAction("You carry no Clue.")
            add_clues(ctx, pid, -1)
            tk.place(s, CLUE, s["players"][pid]["tile"])
            ctx.say(f"{ctx.name(pid)} drops a Clue.", kind="haunt")
        elif words[0] == "take":
            token = next((t for t in tk.on_tile(s, s["players"][pid]["tile"]) if t["name"] == CLUE), None)
            if token is None:
                raise IllegalAction("No Clue lies on your tile.")
            tk.remove(s, token)
            add_clues(ctx, pid, 1)
            ctx.say(f"{ctx.name(pid)} picks up a Clue.", kind="haunt")
        else:
            other = named(ctx, " ".join(words[2:] if len(words) > 1 and words[1] == "clue" else words[1:]))
            if clues(s, pid) < 1:
                raise IllegalAction("You carry no Clue.")
            if other == pid or not st.together(s, pid, other):
                raise IllegalAction("Give a Clue to an adventurer on your tile.")
            add_clues(ctx, pid, -1)
            add_clues(ctx, other, 1)  # Ruling: a Clue is never unwelcome, so the handover needs no answer
            ctx.say(f"{ctx.name(pid)} gives a Clue to {ctx.name(other)}.", kind="haunt")
        return True

    def haunt_actions(self, ctx, pid):
        """Only what the player's Clues and company allow (each is tried)."""
        s = ctx.s
        n = clues(s, pid)
        found = []
        if any(t["name"] == CLUE for t in tk.on_tile(s, s["players"][pid]["tile"])):
            found.append({"type": "task", "trait": "knowledge", "task": "take clue"})
        if n < 1:
            return found
        for other in hp.alive(s, s["seats"]):
            if other == pid:
                continue
            name = s["players"][other]["name"]
            if st.together(s, pid, other):
                found.append({"type": "task", "trait": "knowledge", "task": f"peek {name}"})
                if n >= 2:
                    found.append({"type": "task", "trait": "knowledge", "task": f"peek both {name}"})
            elif n >= 3:
                found.append({"type": "task", "trait": "knowledge", "task": f"peek far {name}"})
        return found

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


def named(ctx, name: str) -> str:
    s = ctx.s
    name = name.strip().lower()
    other = next((p for p in s["seats"] if s["players"][p]["name"].lower() == name or p == name), None)
    if other is None or not s["players"][other]["alive"]:
        raise IllegalAction("Name a living adventurer.")
    return other


def peek(ctx, pid: str, words: list[str]):
    """Secrets of Survival, haunt 37, "How to Use Clues"."""
    s = ctx.s
    mode = words[0] if words and words[0] in ("both", "far") else "one"
    other = named(ctx, " ".join(words[1:] if mode != "one" else words))
    cost = {"one": 1, "both": 2, "far": 3}[mode]
    if other == pid:
        raise IllegalAction("Your own tokens are no secret to you.")
    if clues(s, pid) < cost:
        raise IllegalAction(f"That takes {cost} Clue{'s' if cost != 1 else ''}; you carry {clues(s, pid)}.")
    near = st.together(s, pid, other)
    if mode != "far" and not near:
        raise IllegalAction(f"{ctx.name(other)} is not on your tile (3 Clues look from afar: `peek far`).")
    add_clues(ctx, pid, -cost)
    what = "both of" if mode == "both" else "one of"
    ctx.say(f"{ctx.name(pid)} spends {cost} Clue{'s' if cost != 1 else ''} to look at {what} {ctx.name(other)}'s "
            "tokens.", kind="haunt", player=pid)
    steps = [{"do": "h37_peek_both" if mode == "both" else "h37_peek_one", "peeker": pid, "target": other}]
    if near:  # the one looked at may look back at once
        steps.insert(0, {"do": "h37_respond", "peeker": pid, "target": other})
    effects.queue(ctx, pid, steps, source="haunt", front=True)
