"""What the bot says in a Baldur's Gate game: events turned into Discord messages, routed by
audience; who acts now; the pinned summary. Pure functions: the client only sends what these return
(the shared part is bot.discord.messages)."""
import re

from bot.games.babg import text, vocabulary
from bot.games.babg.engine.legal import actor
from bot.games.babg.engine.state import trait_value

from bot.discord.messages import (BUSY, LATE_SECRET, LIMIT, MAP_LATER, NO_ATTACH, Delivery, chunks,  # noqa: F401
                                  hints_line, turn_text)
from bot.discord.messages import route as _route

READY = re.compile(r".+ is ready \([0-9]+ of [0-9]+\)\.")  # the engine's line for a Ready: the last line says it


def route(events: list[dict], state: dict | None = None) -> tuple[list[str], dict[str, list[str]]]:
    """Split events by audience, a haunt's moves named as Discord shows them."""
    return _route(events, state, vocabulary.spoken)


def deliver(content, before: dict, state: dict, events: list[dict], played: set[str] = frozenset()) -> Delivery:
    """What the channel and each player are told of an action. `played`: the
    seats the bot plays now (built-in ones, absent people's): never pinged.
    A built-in seat's private messages go to nobody; an absent person's still
    reach them (they are theirs when they come back)."""
    public, private = route(events, state)
    private = {uid: texts for uid, texts in private.items() if not state["players"].get(uid, {}).get("builtin")}
    d = Delivery(private=private)
    waiting = actor(state)
    was_waiting = actor(before)
    h = state.get("haunt")
    if state["phase"] == "haunt" and not (h or {}).get("started", True):
        # The reading time: one message, pinging everyone once; each Ready edits its last line.
        first_reveal = before["phase"] != "haunt"
        not_ready = [p for p in state["seats"] if state["players"][p]["alive"] and p not in h["ready"]]
        d.ping = [p for p in not_ready if p not in played] if first_reveal else []
        d.said = [line for line in public if not READY.fullmatch(line)]
        if first_reveal:
            d.tail = (", ".join(f"<@{p}>" for p in d.ping) + ": your side's rules came by private message "
                      "(or press My secret rules). Press Ready when you have read them.") if d.ping else ""
        elif not_ready:
            names = [state["players"][p]["name"] for p in h["ready"]]
            d.tail = (f"(Ready: {', '.join(names) or 'nobody yet'} — waiting for "
                      f"{', '.join(state['players'][p]['name'] for p in not_ready)}. Your side's rules came by "
                      "private message, or press My secret rules.)")
        d.public = chunks(public + [d.tail] if d.tail else public)  # (the private answer to a Ready says it)
        return d
    turn_changed = bool(state.get("turn")) and (not before.get("turn") or
                                                  before["turn"]["number"] != state["turn"]["number"])
    new_question = state.get("pending") and state["pending"] != before.get("pending")
    if waiting and waiting not in played and (turn_changed or new_question or waiting != was_waiting):
        d.ping.append(waiting)
    lines = list(public)
    if new_question and d.ping:  # the question is asked once: by the prompt line, which pings who must answer
        asked = [e["text"] for e in events if e["to"] == "all" and e["kind"] == "decision"]
        if asked and asked[-1] in lines:
            lines.remove(asked[-1])
    d.said = list(lines)
    if turn_changed:  # the lines before the new turn's first line close the turn before
        header = next((vocabulary.spoken(e["text"], state, "discord") for e in events
                       if e["to"] == "all" and e["kind"] == "turn"), None)
        d.opening = lines.index(header) if header in lines else 0
    if waiting in played and state["phase"] != "over":
        d.tail = bot_line(state, waiting)
        lines.append(d.tail)
    elif waiting and state["phase"] != "over":
        d.tail = prompt_line(state, waiting) if d.ping else reminder_line(content, state, waiting)
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


