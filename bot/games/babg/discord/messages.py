"""What the bot says in a Baldur's Gate game: events turned into Discord messages, routed by
audience; who acts now; the pinned summary. Pure functions: the client only sends what these return
(the shared part is bot.discord.messages). Every text is built from a view of the game
(bot.games.babg.engine.view): the channel's from the view everyone shares, a player's own from theirs,
so no message can say what its reader may not see."""
import re

from bot.games.babg import text, vocabulary
from bot.games.babg.engine.legal import actor
from bot.games.babg.engine.state import trait_value
from bot.games.babg.engine.view import view

from bot.discord.messages import (BUSY, LATE_SECRET, LIMIT, MAP_LATER, NO_ATTACH, Delivery, chunks,  # noqa: F401
                                  hints_line, turn_text)

READY = re.compile(r".+ is ready \([0-9]+ of [0-9]+\)\.")  # the engine's line for a Ready: the last line says it


def deliver(content, before: dict, state: dict, events: list[dict], played: set[str] = frozenset()) -> Delivery:
    """What the channel and each player are told of an action. `played`: the
    seats the bot plays now (built-in ones, absent people's): never pinged.
    A built-in seat's private messages go to nobody; an absent person's still
    reach them (they are theirs when they come back)."""
    seen = view(state)
    d = told(content, seen if before is state else view(before), seen, [e for e in events if e["to"] == "all"],
             played)
    d.private = {uid: texts for uid, texts in private_lines(events, state).items()
                 if not seen["players"].get(uid, {}).get("builtin")}
    return d


def private_lines(events: list[dict], state: dict) -> dict[str, list[str]]:
    """Each player's own lines, worded from their own view (a haunt's moves named as Discord shows them)."""
    private: dict[str, list[str]] = {}
    seen: dict[str, dict] = {}
    for e in events:
        reader = e["to"]
        if reader != "all":
            if reader not in seen:
                seen[reader] = view(state, reader)
            private.setdefault(reader, []).append(vocabulary.spoken(e["text"], seen[reader], "discord"))
    return private


def told(content, before: dict, now: dict, events: list[dict], played: set[str] = frozenset()) -> Delivery:
    """What the channel is told of an action: its lines (the `events` to everyone), who is pinged, and
    who acts now. `before` and `now` are the views everyone shares (view(state)), not states: this
    cannot read what the channel may not see."""
    public = [vocabulary.spoken(e["text"], now, "discord") for e in events]
    d = Delivery()
    waiting = actor(now)
    was_waiting = actor(before)
    h = now.get("haunt")
    if now["phase"] == "haunt" and not (h or {}).get("started", True):
        # The reading time: one message, pinging everyone once; each Ready edits its last line.
        first_reveal = before["phase"] != "haunt"
        not_ready = [p for p in now["seats"] if now["players"][p]["alive"] and p not in h["ready"]]
        d.ping = [p for p in not_ready if p not in played] if first_reveal else []
        d.said = [line for line in public if not READY.fullmatch(line)]
        if first_reveal:
            d.tail = (", ".join(f"<@{p}>" for p in d.ping) + ": your side's rules came by private message "
                      "(or press My secret rules). Press Ready when you have read them.") if d.ping else ""
        elif not_ready:
            names = [now["players"][p]["name"] for p in h["ready"]]
            d.tail = (f"(Ready: {', '.join(names) or 'nobody yet'} — waiting for "
                      f"{', '.join(now['players'][p]['name'] for p in not_ready)}. Your side's rules came by "
                      "private message, or press My secret rules.)")
        d.public = chunks(public + [d.tail] if d.tail else public)  # (the private answer to a Ready says it)
        return d
    turn_changed = bool(now.get("turn")) and (not before.get("turn") or
                                                before["turn"]["number"] != now["turn"]["number"])
    new_question = now.get("pending") and now["pending"] != before.get("pending")
    if waiting and waiting not in played and (turn_changed or new_question or waiting != was_waiting):
        d.ping.append(waiting)
    lines = list(public)
    if new_question and d.ping:  # the question is asked once: by the prompt line, which pings who must answer
        asked = [line for e, line in zip(events, public) if e["kind"] == "decision"]
        if asked and asked[-1] in lines:
            lines.remove(asked[-1])
    d.said = list(lines)
    if turn_changed:  # the lines before the new turn's first line close the turn before
        header = next((line for e, line in zip(events, public) if e["kind"] == "turn"), None)
        d.opening = lines.index(header) if header in lines else 0
    if waiting in played and now["phase"] != "over":
        d.tail = bot_line(now, waiting)
        lines.append(d.tail)
    elif waiting and now["phase"] != "over":
        d.tail = prompt_line(now, waiting) if d.ping else reminder_line(content, now, waiting)
        lines.append(d.tail)
    d.public = chunks(lines)
    return d


def bot_line(state: dict, pid: str) -> str:
    """Who acts now, when the bot plays that seat."""
    name = state["players"][pid]["name"]
    if state["players"][pid].get("builtin"):
        return f"({name}, a built-in player, is playing.)"
    return f"(The stand-in is playing {name}'s seat until {name} acts again.)"


def prompt_line(state: dict, pid: str) -> str:
    pending = state["pending"]
    if pending:
        return f"<@{pid}>, your choice: {pending['prompt']} Answer below (or /choose)."
    turn = state["turn"]
    if turn["ending"]:
        return ""
    if turn.get("monsters"):
        return f"<@{pid}>, run the monster turn: the buttons below, or /monster move and /monster attack, then /end."
    if state["phase"] == "haunt":
        return f"<@{pid}>, it is your turn: /move, /attack, /item, /haunt, /end, or the buttons below."
    return f"<@{pid}>, it is your turn: /move, /item, /roll, /end, or the buttons below."


def reminder_line(content, state: dict, pid: str) -> str:
    """A quiet line (no ping) while the same player goes on acting."""
    turn = state["turn"]
    name = state["players"][pid]["name"]
    if state["pending"]:
        return f"({name} to choose: {state['pending']['prompt']})"
    if turn.get("monsters"):
        return f"({name}: the monster turn goes on.)"
    if turn["stopped"]:
        return f"({name}: movement over; use items, or end your turn.)"
    speed = trait_value(content, state, pid, "speed")
    return f"({name}: {max(0, speed - turn['moved'])} of {speed} spaces left.)"


def summary(content, state: dict, title: str = "Betrayal at Baldur's Gate") -> str:
    """The pinned game summary, edited in place once a round (and when the
    phase changes), so it costs the channel one write a round."""
    return chunks([f"**{title}** (as the round began; the newest turn message says whose turn it is)",
                   text.status(content, state)])[0]


def new_round(before: dict, state: dict) -> bool:
    """Whether the turn that just began opens a round (the engine counts
    rounds: see bot.games.babg.engine.state.next_round)."""
    return state.get("round", 0) != before.get("round", 0)


def map_due(before: dict, state: dict) -> bool:
    """Whether this action's message brings the map, by the game's map
    setting: each turn (the default), each round, or only on /map; always
    when the haunt begins and when the game ends."""
    if not state.get("board"):
        return False
    if state["phase"] != before.get("phase") and state["phase"] in ("haunt", "over"):
        return True
    old, new = before.get("turn"), state.get("turn")
    if not new or (old and old["number"] == new["number"]):
        return False
    shown = state.get("options", {}).get("map", "turn")
    return shown == "turn" or (shown == "round" and new_round(before, state))


