"""How a game looks on Discord. The client asks a game's face for everything it shows: what each
action's events tell the channel and each player, the controls under a turn's message, the pinned
summary, the end's story. `Face` is the plain face built from the contract alone (bot.kit.contract):
events routed by audience, a button per legal action labelled by `describe`, the system's status as
the summary. A system with more to show names its own face module (`discord_face`), whose `Face`
subclasses this one and may register its own commands.

A plain button carries its action in its custom id (`k:<game>:<turn>:<question>:<action>`), so a
click works after a restart and a stale one is refused like a stale slash command."""
import importlib
import json
import re
from dataclasses import dataclass

import discord

from bot.discord import messages
from bot.discord.controls import PER_ROW, ROWS, Claimed, Controls, ViewButton, _add

CUSTOM_ID = re.compile(r"k:(?P<game>[0-9]+):(?P<turn>[0-9]+):(?P<question>[0-9a-f]*):(?P<body>\{.*\})")
CUSTOM_ID_LIMIT = 100  # Discord: a custom id's length


@dataclass(frozen=True)
class Carried:
    """What a button carries: its action (without the player: whoever clicks), the game, the turn
    and, for an answer, the question it was offered for."""
    action: dict
    game_id: int
    turn: int
    question: str = ""


def to_custom_id(action: dict, game_id: int, turn: int, question: str = "") -> str | None:
    body = json.dumps({k: v for k, v in action.items() if k != "player"}, separators=(",", ":"), sort_keys=True)
    custom_id = f"k:{game_id}:{turn}:{question}:{body}"
    return custom_id if len(custom_id) <= CUSTOM_ID_LIMIT else None


def from_custom_id(custom_id: str) -> Carried | None:
    m = CUSTOM_ID.fullmatch(custom_id)
    if not m:
        return None
    try:
        action = json.loads(m["body"])
    except ValueError:
        return None
    return Carried(action, int(m["game"]), int(m["turn"]), m["question"]) if isinstance(action, dict) else None


class ActionButton(Claimed, discord.ui.DynamicItem[discord.ui.Button], template=CUSTOM_ID):
    """A button that does one action of the game it was offered in (any game behind the contract)."""

    def __init__(self, custom_id: str, label: str = "?", style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 row: int | None = None):
        super().__init__(discord.ui.Button(label=label[:80], style=style, custom_id=custom_id, row=row))
        self.carried = from_custom_id(custom_id)

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(item.custom_id, label=item.label or "?", style=item.style)

    async def callback(self, interaction: discord.Interaction):
        await interaction.client.on_action_button(interaction, self.carried)


LAST = ("undo", "end")  # always buttons, last
STYLES = {"decide": discord.ButtonStyle.primary, "end": discord.ButtonStyle.danger,
          "attack": discord.ButtonStyle.danger}


class Face:
    """The plain face of a system: everything from its contract."""
    dynamic_items: tuple = (ActionButton,)

    def __init__(self, system):
        self.system = system

    # --- commands of its own (a system's face module may add them) ------------------------------
    def register(self, bot):
        """Add the system's hand-written commands to the bot's tree (the plain face has none: its
        declared commands are built by bot.discord.commands.declared)."""

    # --- what an action tells --------------------------------------------------------------------
    def deliver(self, before: dict, state: dict, events: list[dict], played: set[str] = frozenset()):
        s = self.system
        public, private = messages.route(events, state, s.speak)
        private = {uid: texts for uid, texts in private.items() if not s.is_builtin(state, uid)}
        d = messages.Delivery(private=private)
        waiting, was_waiting = s.actor(state), s.actor(before)
        turn_changed = s.turn_number(state) != s.turn_number(before)
        new_question = state.get("pending") and state["pending"] != before.get("pending")
        if waiting and waiting not in played and (turn_changed or new_question or waiting != was_waiting):
            d.ping.append(waiting)
        lines = list(public)
        d.said = list(lines)
        if s.phase(state) != "over" and waiting:
            if waiting in played:
                d.tail = f"({s.seat_name(state, waiting)}, a built-in player, is playing.)" \
                    if s.is_builtin(state, waiting) else \
                    f"(The stand-in is playing {s.seat_name(state, waiting)}'s seat.)"
            elif d.ping:
                d.tail = f"<@{waiting}>, " + self.prompt(state, waiting)
            else:
                d.tail = f"({s.prompt_line(state, waiting)})"
            lines.append(d.tail)
        d.public = messages.chunks(lines)
        return d

    def prompt(self, state: dict, seat: str) -> str:
        pending = state.get("pending")
        if pending and pending.get("player") == seat:
            return f"your choice: {pending['prompt']} Answer below (or /choose)."
        mine = sorted({f"/{c.group + ' ' if c.group else ''}{c.name}" for c in self.system.commands})
        return f"it is your turn: the buttons below, or {', '.join(mine)}."

    # --- the controls under a turn's message ----------------------------------------------------
    def turn_controls(self, state: dict, game_id: int, played: set[str] = frozenset()):
        s = self.system
        who = s.actor(state)
        if who is None or s.phase(state) == "over" or who in played:
            return None, []
        actions = s.legal_actions(state, who)
        turn, question = s.turn_number(state), (s.pending_key(state) if state.get("pending") else "")
        view, hints, n = Controls(), [], 0
        # Undo and End always have a place (last); the other actions fill what is left of two rows, with My
        # sheet and Map after them; the rest is named by its slash command.
        fixed = [a for a in actions if a["type"] in LAST]
        others = [a for a in actions if a["type"] not in LAST]
        room = ROWS * PER_ROW - 2 - len(fixed)
        shown = others[:room] + sorted(fixed, key=lambda a: LAST.index(a["type"]))
        for action in shown:
            custom_id = to_custom_id(action, game_id, turn, question if action["type"] == "decide" else "")
            if custom_id is None:
                hints.append(f"/{action['type']}")
                continue
            _add(view, ActionButton(custom_id, s.describe(action, state),
                                    STYLES.get(action["type"], discord.ButtonStyle.secondary)), n // PER_ROW)
            n += 1
        for action in others[room:]:
            hint = f"/{'choose' if action['type'] == 'decide' else action['type']}"
            if hint not in hints:
                hints.append(hint)
        for item in (ViewButton("sheet", "My sheet"), ViewButton("map", "Map")):
            _add(view, item, n // PER_ROW)
            n += 1
        return view, hints

    # --- the rest the channel sees --------------------------------------------------------------
    def summary(self, state: dict) -> str:
        return messages.chunks([f"**{self.system.title}** (the newest turn message says whose turn it is)",
                                self.system.status_text(state)])[0]

    def new_round(self, before: dict, state: dict) -> bool:
        return state.get("round", 0) != before.get("round", 0)

    def map_due(self, before: dict, state: dict) -> bool:
        return False  # the plain face shows a picture only on /map

    def in_play(self, state: dict) -> bool:
        """Whether the game's actions show in one turn message edited in place."""
        return self.system.phase(state) == "play"

    def stage(self, state: dict):
        """The game's stage: a new stage opens a new message and edits the pinned summary at once."""
        return self.system.phase(state)

    def asks_in_place(self, before: dict, state: dict) -> bool:
        """Whether a question the turn's action brings for another player stays in the turn's message
        (their prompt edited in, the question itself reaching them privately) instead of a new message
        that pings them."""
        return False

    def replay_due(self, state: dict) -> bool:
        """Whether the end brings the replay picture."""
        return False

    def welcome_text(self, where: str) -> str:
        """The DM each person gets at the start (which also shows whether DMs reach them)."""
        return f"You are seated in the game in {where}. What is for you alone will come here."

    def nothing_secret_yet(self, state: dict) -> str | None:
        """What to say to a player asking for their secrets before any could exist (None: nothing)."""
        return None

    def story(self, state: dict) -> list[str]:
        return self.system.story(state)

    def sheet(self, state: dict, seat: str) -> str:
        return self.system.sheet_text(state, seat)

    def status(self, state: dict) -> str:
        return self.system.status_text(state)

    def opened(self, creator_mention: str, options_line: str) -> str:
        low, high = self.system.players
        return (f"{creator_mention} opened a game of {self.system.title}. Join with `/game join` ({low} to {high} "
                f"players, built-in ones included: `/game builtin` adds one), then `/game start`."
                + (f" Options: {options_line}." if options_line else ""))

    def help_text(self) -> str:
        s = self.system
        mine = "; ".join(f"`/{c.group + ' ' if c.group else ''}{c.name}` {c.description.lower()}" for c in s.commands)
        low, high = s.players
        return (f"**{s.title}**: one game per channel or thread.\n**Set up:** `/game new game:{s.title}`, then each "
                f"player `/game join {s.pick_word}:` ({low} to {high}), then `/game start`.\n**Your turn:** {mine}, or "
                "the buttons.\n**Any time:** `/sheet` (only you see it), `/map`, `/game status`, `/log recent`, "
                "`/history`.")

    def options_line(self, options: dict, seeded: bool) -> str:
        said = ["a seed of your choosing (the same game again)"] if seeded else []
        said += [f"{k.replace('_', ' ')} {v}" for k, v in options.items() if v not in (None, False, "", [])]
        return "; ".join(said)


def face_of(system) -> Face:
    """The face a system names (its module's `Face`), else the plain one; one per system."""
    face = _faces.get(id(system))
    if face is None or face.system is not system:
        cls = importlib.import_module(system.discord_face).Face if system.discord_face else Face
        face = _faces[id(system)] = cls(system)
    return face


_faces: dict[int, Face] = {}  # by the system object: a test's system over other content has a face of its own
