"""The working context of one action: content, the state being changed, and
the events produced so far."""
from . import state as st


class Ctx:
    def __init__(self, content, state: dict):
        self.c = content
        self.s = state
        self.ev: list[dict] = []
        self.src: str | None = None  # the card, tile or power whose steps are running
        self.task: dict | None = None  # the queued task whose step is running, or whose question is answered


    def say(self, text: str, kind: str = "info", to: str = "all", **data):
        """Record an event. `to` is its audience: "all", one player id, or a
        side ("traitors", "heroes"). A side's event is recorded once for each
        of its members (see state.side_members), so the adapters only ever
        deliver to everyone or to one player and decide nothing."""
        if self.src and "src" not in data:
            data["src"] = self.src
        if to in st.SIDES:
            for pid in st.side_members(self.s, to):
                self.ev.append({"kind": kind, "to": pid, "text": text, "side": to, **data})
            return
        self.ev.append({"kind": kind, "to": to, "text": text, **data})

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
