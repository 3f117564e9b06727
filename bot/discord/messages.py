"""What the bot says, for every game: messages cut to Discord's size, events routed by their
audience, a turn message's text. Pure functions: the client only sends what these return; a system's
own wording (who acts now, its pinned summary) is its face's (bot.kit.contract: discord_face)."""
from dataclasses import dataclass, field

LIMIT = 1900  # a little under Discord's 2000 characters
LATE_SECRET = "(Late, sorry: I stopped before this could reach you, and send it now that I am back.)"
BUSY = ("I have more to do than I can keep up with just now, so I did not take that; nothing changed. "
        "Try again in a moment.")
MAP_LATER = "(No map this turn: I am busy drawing for many games. /map shows it.)"
NO_ATTACH = ("I may not attach files in this channel, so the map is missing. A server admin can give me the Attach "
             "Files permission.")


def hints_line(hints: list[str]) -> str:
    """The legal actions no button carries (and why an attack is missing), in one line."""
    return "Not on the buttons: " + "; ".join(hints[:5]) + "." if hints else ""


@dataclass
class Delivery:
    public: list[str] = field(default_factory=list)          # messages for the channel
    private: dict[str, list[str]] = field(default_factory=dict)  # user id -> DM texts
    ping: list[str] = field(default_factory=list)            # users to mention once
    said: list[str] = field(default_factory=list)            # what happened (the public lines but the last)
    tail: str = ""                                           # who acts now: the prompt or reminder line
    opening: int = 0                                         # where in `said` a new turn's first line is
    steps: list[int] = field(default_factory=list)           # a reveal of what closes a turn: said[:k] for each k


def route(events: list[dict], state: dict | None = None, speak=None) -> tuple[list[str], dict[str, list[str]]]:
    """Split events by audience: everyone's go to the channel, a player's own only to that player;
    each worded as Discord says it (`speak(text, state, "discord")`: the system's wording)."""
    public, private = [], {}
    for e in events:
        text = speak(e["text"], state, "discord") if speak else e["text"]
        if e["to"] == "all":
            public.append(text)
        else:
            private.setdefault(e["to"], []).append(text)
    return public, private


def chunks(lines: list[str], limit: int = LIMIT) -> list[str]:
    out, current = [], ""
    for line in lines:
        while len(line) > limit:
            out.append(line[:limit])
            line = line[limit:]
        if current and len(current) + 1 + len(line) > limit:
            out.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current:
        out.append(current)
    return out


def turn_text(lines: list[str], tail: str, limit: int = LIMIT) -> str:
    """A turn message: what happened this turn, newest last, and who acts
    now; when it outgrows a message, the oldest lines give way."""
    body = [line for line in lines if line]
    kept, size = [], len(tail) + 2
    for line in reversed(body):
        if size + len(line) + 1 > limit - 2:
            # the oldest lines give way; a newest line longer than a whole message keeps its beginning
            kept.append("…" if kept else line[:max(limit - size - 3, 0)] + "…")
            break
        kept.append(line)
        size += len(line) + 1
    text = "\n".join(reversed(kept))
    return (f"{text}\n{tail}" if text else tail).strip()[:limit] or "…"
