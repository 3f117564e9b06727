"""The working context of one action: content, the state being changed, and
the events produced so far."""
import contextlib

from . import state as st

# Lines that speak for themselves, never prefixed with the effect's source: the end of the game, an
# attack (it names the attacker), a monster's doings, the haunt's own narration, a secret.
OWN_VOICE = frozenset({"over", "attack", "monster", "monster_move", "turn", "haunt", "secret", "claim"})


class Ctx:
    def __init__(self, content, state: dict):
        self.c = content
        self.s = state
        self.ev: list[dict] = []
        self.src: str | None = None  # the card, tile or power whose steps are running
        self.task: dict | None = None  # the queued task whose step is running, or whose question is answered
        self.by: str | None = None  # the name of what the running effect comes from: its lines start with it


    def say(self, text: str, kind: str = "info", to: str = "all", **data):
        """Record an event. `to` is its audience: "all", one player id, or a
        side ("traitors", "heroes"). A side's event is recorded once for each
        of its members (see state.side_members), so the adapters only ever
        deliver to everyone or to one player and decide nothing."""
        if self.src and "src" not in data:
            data["src"] = self.src
        if text.startswith("the "):  # a line opening with a monster's name ("the Beholder attacks ...")
            text = "T" + text[1:]
        if self.by and kind not in OWN_VOICE and self.by.lower() not in text.lower():  # named once, not twice
            text = f"{self.by}: {text}"
        if to in st.SIDES:
            for pid in st.side_members(self.s, to):
                self.ev.append({"kind": kind, "to": pid, "text": text, "side": to, **data})
            return
        self.ev.append({"kind": kind, "to": to, "text": text, **data})

    @contextlib.contextmanager
    def speaking_for(self, name: str | None):
        """Lines said inside this block start with `name` (a card whose
        taking changes a trait, ...), unless they name it already."""
        before, self.by = self.by, name or self.by
        try:
            yield
        finally:
            self.by = before

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
