"""Castle Ravenloft's face on Discord (bot.discord.face): the plain face from its declarations, with the
dungeon's turn picture after every turn, the whole dungeon at the end, and the story.

The villain phase comes back from the engine all at once (inside the hero's End); here it is told one line
per card: the exploration, each encounter card with what it did, then each villain and each monster or
trap card in the order it acted (the engine marks each activation's events with its card, `activation`).
Those lines close the hero's turn message and are revealed a few at a time, one edit after another within
the channel's pace, before the next turn's message (Delivery.steps)."""
import discord

from bot.discord import action_select
from bot.discord.controls import Controls, ViewButton, _add
from bot.discord.face import STYLES, ActionButton, Face as PlainFace, to_custom_id

from . import controls
from .engine import data

APART = ("turn", "phase", "villain", "over", "game_over")  # events that are never part of a card's line
ANSWER_THERE = " Answer in the game's channel: the buttons under the newest message, or /choose."  # (in a DM)
REVEAL_EDITS = 3  # at most this many edits tell a villain phase (a second apart at Discord's 5 writes per 5 s)


def card_name(content, before: dict, state: dict, source: str) -> str:
    """What a villain-phase activation is called: the villain's name, the trap's or the monster's."""
    figure = (state.get("figures") or {}).get(source) or (before.get("figures") or {}).get(source)
    if figure:
        return figure["name"]
    if source in data.table(content, "encounters"):
        return data.encounter(content, source)["name"]
    return data.monster(content, data.card_monster(content, source))["name"]


class _Line:
    """One line of the villain phase being gathered: a card (or the exploration) and what it did."""

    def __init__(self, kind: str, label: str | None, source=None):
        self.kind, self.label, self.source, self.texts = kind, label, source, []

    def add(self, text: str):
        if self.label and text.startswith(self.label + ": "):  # "Fire Trap: Kat takes 2 damage." under its label
            text = text[len(self.label) + 2:]
            text = text[:1].upper() + text[1:]
        self.texts.append(text)

    def event(self) -> dict:
        said = " ".join(self.texts)
        return {"kind": "villain_phase", "to": "all", "text": f"**{self.label}**: {said}" if self.label else said}


def villain_lines(content, before: dict, state: dict, events: list[dict]) -> list[dict]:
    """The events with the villain phase's gathered into one event per line; the rest as they were."""
    out, line = [], None
    for e in events:
        if e["to"] != "all":
            out.append(e)  # (a player's own goes to them, between the lines)
            continue
        source = e.get("activation") if e["kind"] not in APART else None
        if source is not None:
            if line is None or line.kind != "activation" or line.source != source:
                line = _Line("activation", card_name(content, before, state, source), source)
                out.append(line)
        elif e["kind"] == "encounter" and e.get("card"):  # an encounter card drawn
            line = _Line("encounter", data.encounter(content, e["card"])["name"])
            out.append(line)
        elif e["kind"] == "tile" and (line is None or line.kind != "encounter"):  # the exploration's new tile
            line = _Line("exploration", None)
            out.append(line)
        elif line is None or e["kind"] in APART or line.kind == "activation" \
                or line.kind == "exploration" and e["kind"] != "monster":
            line = None  # a line of its own (what follows a card's line but is not the card's doing, too)
            out.append(e)
            continue
        line.add(e["text"])
    return [x.event() if isinstance(x, _Line) else x for x in out]


def reveal_steps(first: int, end: int, most: int = REVEAL_EDITS) -> list[int]:
    """Where each edit of a reveal ends: the lines up to the first of the villain phase, then one more line
    per edit, or a few per edit when there are more lines than edits; the last edit ends at `end`."""
    lines = end - first
    if lines <= 0:
        return [end]
    edits = min(most, lines)
    return [first + (lines * k + edits - 1) // edits for k in range(1, edits + 1)]


def adventure_lines(content, state: dict) -> list[str]:
    """The adventure's introduction, goal, special rules, victory and defeat (rules_data, in our words)."""
    rec = data.adventure_record(content, state.get("adventure"))
    if not rec:
        return []
    # (no bold here: a turn message's bold lines are the villain phase's cards)
    lines = [f"__{data.g(rec, 'title', 'The adventure')}__. {data.g(rec, 'text', '')}".strip(),
             f"Goal: {data.g(rec, 'goal', '')}"]
    rules = [data.g(r, "text", "") for r in data.g(rec, "rules", []) or [] if data.g(r, "text", "")]
    if rules:
        lines.append("Special rules: " + " ".join(rules))
    win = [data.g(v, "text", "") for v in data.g(rec, "victory", []) or [] if data.g(v, "text", "")]
    lose = [data.g(v, "text", "") for v in data.g(rec, "defeat", []) or [] if data.g(v, "text", "")]
    if win:
        lines.append("You win when: " + " Or: ".join(win))
    if lose:
        lines.append("You lose when: " + " Or: ".join(lose))
    return lines


class Face(PlainFace):
    dynamic_items = PlainFace.dynamic_items + (action_select.ActionSelect,)

    def deliver(self, before, state, events, played=frozenset()):
        told = villain_lines(self.system.content(), before, state, events)
        # A question reaches its hero privately too when someone else's action brought it (see asks_in_place),
        # saying where to answer; the hero who is acting sees their own under the turn's message.
        acting = self.system.actor(before)
        told = [dict(e, text=e["text"] + ANSWER_THERE) if e["to"] != "all" and e["kind"] == "question" else e
                for e in told if not (e["to"] == acting and e["kind"] == "question")]
        if self.system.phase(before) == "lobby" and self.system.phase(state) == "play":
            # the adventure's introduction and goal open the game (and stay pinned: see summary)
            told = [{"kind": "adventure", "to": "all", "text": "\n".join(adventure_lines(self.system.content(),
                                                                                     state))}] + told
        d = super().deliver(before, state, told, played)
        public = [e for e in told if e["to"] == "all"]
        turn = next((i for i, e in enumerate(public) if e["kind"] == "turn"), None)
        if turn is not None:
            d.opening = turn  # what closes the hero's turn (its villain phase) stays in its message
            told_here = [i for i, e in enumerate(public[:turn]) if e["kind"] == "villain_phase"]
            if told_here:
                d.steps = reveal_steps(told_here[0], turn)
        return d

    def summary(self, state):
        s = self.system
        head = adventure_lines(s.content(), state) if s.phase(state) != "lobby" else []
        text = "\n".join([f"**{s.title}** (the newest turn message says whose turn it is)", *head,
                          s.status_text(state)])
        return text[:1900]

    def turn_controls(self, state, game_id, played=frozenset()):
        """In the hero phase: a menu of what the hero may do now (attacks with their chance to hit, the rest,
        the squares to move to) and one row of buttons (the ways to end the phase, Undo, the map, the sheet).
        Questions and the rest: the plain face's buttons."""
        s = self.system
        who = s.actor(state)
        if who is None or who in played or s.phase(state) != "play" or state.get("pending") or \
                (state.get("turn") or {}).get("phase") != "hero" or (state.get("turn") or {}).get("player") != who:
            return super().turn_controls(state, game_id, played)
        entries, ends, hints = controls.hero_phase(s, state, who)
        turn = s.turn_number(state)
        view = Controls()
        menu = action_select.menu(game_id, turn, entries, "Move, attack or act…")
        if menu is not None:
            view.add_item(menu)  # (a select fills a row: added first, it takes the first)
        row = 0 if menu is None else 1
        buttons = ends + [a for a in s.legal_actions(state, who) if a["type"] == "undo"]
        for action in buttons:
            custom_id = to_custom_id(action, game_id, turn)
            if custom_id is None:
                hints.append("/end explore:" if action["type"] == "end" else f"/{action['type']}")
                continue
            _add(view, ActionButton(custom_id, s.describe(action, state).capitalize(),
                                    STYLES.get(action["type"], discord.ButtonStyle.secondary)), row)
        _add(view, ViewButton("map", "Map"), row)
        if len(buttons) < 4:
            _add(view, ViewButton("sheet", "My sheet"), row)
        return view, hints

    def map_due(self, before, state):
        """The turn picture with each new turn's message (the villain phase has moved things); the whole
        dungeon when the adventure ends."""
        s = self.system
        if s.phase(state) == "over" and s.phase(before) != "over":
            return True
        return s.phase(state) == "play" and s.turn_number(state) != s.turn_number(before)

    def asks_in_place(self, before, state):
        """A co-operative game: a question for another hero in the middle of a turn (Spirit of Doom's move,
        Reinforcements' tile, King Tomescu's Portal's return) is the group's business. It stays in the turn's
        message, where everyone sees it and its buttons, and reaches its hero privately too; once answered,
        the turn goes on in the same message (its villain phase too)."""
        s = self.system
        return bool(state.get("pending") or before.get("pending")) and s.phase(state) == "play" and \
            s.turn_number(state) == s.turn_number(before)

    def replay_due(self, state):
        return True  # the end brings the adventure turn by turn, after the whole dungeon

    def welcome_text(self, where):
        return (f"You are seated in the game in {where}. Castle Ravenloft keeps no secrets between heroes; when "
                "another hero's turn asks you something, it comes here too.")

    def nothing_secret_yet(self, state):
        return "Castle Ravenloft keeps no secrets between heroes: everything is on the table."
