"""The swap test, for every hidden-traitor haunt (Rulebook: Haunts With a
Hidden Traitor): the same game is played twice, once with the traitor's
token given to another player. Until one of the two is unmasked or dies,
everything any third player can see must be identical after every action:
the channel, their private messages, the status, their sheet, the prompt and
buttons, the legal actions of whoever acts, and the map."""
import copy
import random

import pytest

from bot.games.babg import autoplay, text
from bot.games.babg.discord import messages
from bot.games.babg.engine import IllegalAction
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.legal import actor, legal_actions
from bot.games.babg.engine.turns import start_haunt
from bot.games.babg.engine.view import view
from bot.games.babg.render import render_map
from tests.conftest import Game

ADVENTURERS = ("torskar", "lia", "gretchen", "grim", "azadeh")


def hidden_haunts(content) -> dict[int, tuple[str, str]]:
    """Each hidden-traitor haunt with an omen and tile the chart gives it for."""
    wanted = {n for n, rule in content.traitor_rules.items() if rule.kind == "hidden_traitor"}
    found = {}
    for cid, card in content.cards.items():
        for tid in content.tiles if card.deck == "omen" else ():
            try:
                number = content.haunt_for(cid, tid)
            except (KeyError, ValueError):
                continue
            if number in wanted:
                found.setdefault(number, (cid, tid))
    assert set(found) == wanted
    return found


def at_reveal(engine, omen: str, tile: str) -> Game:
    g = Game(engine, adventurers=ADVENTURERS, haunt="play")
    if tile not in g.state["board"]:
        g.place(tile, "catacomb" if g.c.tiles[tile].kind == "catacomb" else "city", 1, -1, rot=0)
    ctx = Ctx(g.c, g.state)
    start_haunt(ctx, "ann", omen, tile)
    return g


def swapped(state: dict, other: str) -> dict:
    """The same game with the traitor's token and `other`'s exchanged."""
    s = copy.deepcopy(state)
    h = s["haunt"]
    traitor = h["traitors"][0]
    tokens = h["hidden_tokens"]
    tokens[traitor], tokens[other] = tokens[other], tokens[traitor]
    h["traitors"] = [other]
    return s


def seen_by(content, before: dict, state: dict, events: list[dict], viewer: str, played=frozenset()) -> dict:
    """Everything `viewer` can see after an action (`played`: seats the bot plays)."""
    d = messages.deliver(content, before, state, events, played)
    who = actor(state)
    return {
        "channel": d.public, "pings": d.ping, "dms": d.private.get(viewer, []),
        "events": [(e["kind"], e["text"]) for e in events if e["to"] in ("all", viewer)],
        "status": text.status(content, state), "sheet": text.sheet(content, state, viewer),
        "waiting_for": who, "pending": state["pending"] and {k: state["pending"][k] for k in ("player", "prompt",
                                                                                              "options")},
        "buttons": legal_actions(content, state),  # posted in the channel, whoever may press them
        "view": view(state, viewer),  # everything the adapters may draw or write for this player
    }


def looks_at_the_pair(state, action, pair) -> bool:
    """A look under the pair's tokens (haunt 37's Clues: a peek by or at one
    of them, since the one looked at may look back) shows a viewer what the
    swap changed, like their death would."""
    if action["type"] != "task" or not action["task"].startswith("peek"):
        return False
    names = {state["players"][p]["name"].lower() for p in pair}
    return action["player"] in pair or action["task"].split()[-1].lower() in names


def spare_the_pair(content, state, rnd, pair) -> dict | None:
    """A built-in player's action, but no attack on the two swapped players
    (their deaths turn tokens over and end the comparison) and no look at
    their tokens."""
    for _ in range(20):
        action = autoplay.choose(content, state, rnd)
        if action is None or (action["type"] != "attack" and action.get("op") != "attack"
                              or action.get("target") not in pair) and not looks_at_the_pair(state, action, pair):
            return action
    return next((a for a in legal_actions(content, state) if a["type"] == "end"), None)


@pytest.mark.parametrize("builtin", [False, True], ids=["people", "built-in seats"])
@pytest.mark.parametrize("number", [19, 37])
def test_the_hidden_traitor_cannot_be_told_apart(engine, number, builtin):
    """With `builtin`, the two swapped seats are seats the bot plays: their
    secrets stay with the bot and nothing they are sent or do tells a person
    which of them holds the token."""
    omen, tile = hidden_haunts(engine.content)[number]
    compared = 0
    for seed in range(5):  # games end or unmask sooner where Clues are looked at (haunt 37): a few more
        g = at_reveal(engine, omen, tile)
        a = g.state
        assert a["haunt"]["number"] == number and a["haunt"]["kind"] == "hidden_traitor"
        traitor = a["haunt"]["traitors"][0]
        others = [p for p in a["seats"] if p != traitor]
        other = others[seed % len(others)]
        pair = {traitor, other}
        if builtin:
            for p in pair:
                a["players"][p]["builtin"] = True
        b = swapped(a, other)
        played = frozenset(pair) if builtin else frozenset()
        viewers = [p for p in a["seats"] if p not in pair]
        rnd = random.Random(number * 10 + seed)
        for step in range(300):
            action = spare_the_pair(engine.content, a, rnd, pair)
            if action is None or action["type"] == "unmask":
                break
            before_a, before_b = a, b
            a, ev_a = engine.apply(a, action)
            try:
                b, ev_b = engine.apply(b, action)
            except IllegalAction as e:
                pytest.fail(f"step {step}: {action} accepted in one game and refused in the other: {e.reason}")
            if any(not a["players"][p]["alive"] or not b["players"][p]["alive"] for p in pair):
                break  # a dead adventurer's token is turned over: from here the games may differ
            if a["phase"] == "over" or b["phase"] == "over":
                assert a["phase"] == b["phase"], f"step {step}, {action}: the game ends in one of them only"
                break  # the end of the game shows everyone's tokens
            compared += 1
            if compared % 15 == 0:  # the map picture is slow to draw: every 15th action, and at the end
                assert render_map(engine.content, a) == render_map(engine.content, b), "the map tells them apart"
            for before, after, events in ((before_a, a, ev_a), (before_b, b, ev_b)) if builtin else ():
                d = messages.deliver(engine.content, before, after, events, played)
                assert not (set(d.private) | set(d.ping)) & pair, "the bot's seats are sent nothing"
            for viewer in viewers:
                seen_a = seen_by(engine.content, before_a, a, ev_a, viewer, played)
                seen_b = seen_by(engine.content, before_b, b, ev_b, viewer, played)
                for key in seen_a:
                    assert seen_a[key] == seen_b[key], f"step {step}, {action}: {viewer} can tell by {key}"
            if a["phase"] == "over":
                break
        if all(a["players"][p]["alive"] and b["players"][p]["alive"] for p in pair):  # (a death turns a token over,
            # and the map marks a traitor the table knows)
            assert render_map(engine.content, a) == render_map(engine.content, b), "the map gives the traitor away"
    assert compared > 60, "the haunt was played for a while"
