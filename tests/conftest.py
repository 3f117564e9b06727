import pathlib

import pytest

from bot.games.babg.content import load_content
from bot.discord.client import GameBot
from bot.games.babg.engine import Engine

SHARED = pathlib.Path(__file__).resolve().parents[2] / "shared"


def start_test_renderer():
    """How the map worker of every bot the tests start begins: at the usual
    priority. The bot puts its worker in Linux's idle class (GameBot's
    start_renderer, tested in tests/test_capacity_parts.py), where it draws
    only with CPU time nothing else wants; beside other tests (a worker per
    core, or a second suite) there is none, and a map or the end's replay
    would wait for minutes."""


@pytest.fixture(autouse=True)
def renderer_at_usual_priority(monkeypatch):
    monkeypatch.setattr(GameBot, "start_renderer", staticmethod(start_test_renderer))


@pytest.fixture(scope="session")
def content():
    return load_content()


@pytest.fixture(scope="session")
def engine(content):
    return Engine(content)


@pytest.fixture
def game(engine):
    """A started game of three: Ann (Torskar), Bo (Lia), Cy (Gretchen), with
    Ann to act first, and helpers to arrange and play it."""
    return Game(engine)


class Game:
    def __init__(self, engine, adventurers=("torskar", "lia", "gretchen"), seed=7, haunt="stop"):
        self.engine = engine
        self.c = engine.content
        self.events = []
        self.state = engine.new_game(seed, haunt)
        for name, adv in zip(("Ann", "Bo", "Cy", "Di", "Ed", "Flo"), adventurers):
            self.do("join", name.lower(), name=name, adventurer=adv)
        self.do("start", "ann")
        # Make Ann first, then Bo, then Cy (seat order), whatever the aid cards said.
        self.state["order"] = list(self.state["seats"])
        self.state["turn"] = {**self.state["turn"], "player": "ann"}

    def do(self, kind, player, **fields):
        self.state, ev = self.engine.apply(self.state, {"type": kind, "player": player, **fields})
        self.events = ev
        return ev

    def texts(self):
        return [e["text"] for e in self.events]

    def p(self, pid):
        return self.state["players"][pid]

    def value(self, pid, trait):
        from bot.games.babg.engine.state import trait_value
        return trait_value(self.c, self.state, pid, trait)

    def top(self, stack, tile_id):
        """Put a tile on top of its stack."""
        s = self.state["stacks"][stack]
        s.remove(tile_id)
        s.insert(0, tile_id)

    def top_card(self, deck, card_id):
        d = self.state["decks"][deck]
        d.remove(card_id)
        d.insert(0, card_id)

    def place(self, tile_id, level, x, y, rot=0):
        for stack in self.state["stacks"].values():
            if tile_id in stack:
                stack.remove(tile_id)
        self.state["board"][tile_id] = {"level": level, "x": x, "y": y, "rot": rot}

    def put(self, pid, tile_id):
        self.state["players"][pid]["tile"] = tile_id

    def give(self, pid, card_id):
        for deck in self.state["decks"].values():
            if card_id in deck:
                deck.remove(card_id)
        self.state["players"][pid]["cards"].append(card_id)

    def decide_all(self, choice=0):
        while self.state["pending"]:
            self.do("decide", self.state["pending"]["player"], choice=choice)


@pytest.fixture
def dice(monkeypatch):
    """Decide what the next rolls show: `dice.next(2, 2, 0)` queues faces
    for the next roll (any number of calls queue more rolls)."""
    from bot.games.babg.engine import rng

    class Dice:
        def __init__(self):
            self.rolls = []

        def next(self, *faces):
            self.rolls.append(list(faces))

        def roll(self, state, n):
            if self.rolls:
                faces = self.rolls.pop(0)
                return (faces + [0] * n)[:n]
            return [0] * n

    d = Dice()
    monkeypatch.setattr(rng, "roll", d.roll)
    return d


def arrange_hidden_traitor_reveal(s: dict) -> str:
    """Set up, in place, the moment before a hidden-traitor reveal (haunt
    19): the current player has drawn the last omen, the Whispering Skull,
    on the Arcane Retreat, so ending the turn reveals the haunt and sends
    every player a secret token. Returns that player."""
    pid = s["turn"]["player"]
    s["board"]["arcane_retreat"] = {"level": "catacomb", "x": 1, "y": -1, "rot": 0}
    s["stacks"]["catacomb"].remove("arcane_retreat")
    s["decks"]["omen"].remove("whispering_skull")
    s["players"][pid]["cards"].append("whispering_skull")
    s["turn"]["omens"] = [["whispering_skull", "arcane_retreat"]]
    s["omens_revealed"] = 13
    s["discard"]["omen"] = s["decks"]["omen"]
    s["decks"]["omen"] = []
    return pid
