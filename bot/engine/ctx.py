"""The working context of one action: content, the state being changed, and
the events produced so far."""
from . import state as st


class Ctx:
    def __init__(self, content, state: dict):
        self.c = content
        self.s = state
        self.ev: list[dict] = []
        self.src: str | None = None  # the card, tile or power whose steps are running


    def say(self, text: str, kind: str = "info", to: str = "all", **data):
        """Record an event. `to` is its audience: "all" or one player id."""
        event = {"kind": kind, "to": to, "text": text, **data}
        if self.src and "src" not in event:
            event["src"] = self.src
        self.ev.append(event)

    def who(self, pid: str) -> str:
        return st.who(self.c, self.s, pid)

    def name(self, pid: str) -> str:
        return self.s["players"][pid]["name"]

    def value(self, pid: str, trait: str) -> int:
        return st.trait_value(self.c, self.s, pid, trait)

    def tile_name(self, tile_id: str) -> str:
        return self.c.tiles[tile_id].name

    def card_name(self, card_id: str) -> str:
        return self.c.cards[card_id].name
