"""The game-system contract: all that the shared layers (the service, the store, Discord, the local
table, the map worker) know of a game.

A system is one object, registered by id in `bot.games` (like OpenSpiel's registered games, or a
boardgame.io `Game`). Its engine stays plain Python: `new_game` and `apply` are pure (state in,
action in, new state and events out; all chance from the seeded generator kept in the state, see
`bot.kit.rng`), so a game replays exactly from its seed and its action log.

What every system gives:

- who it is: `id` (short, typed: `babg`), `title`, `players` (fewest, most);
- `content()`: its cards, tiles and scenarios, loaded and validated once (a `ContentError` names
  file, entry and field in one line);
- `options`: the options a new game takes (each an `Option`, built into `/game new` and the
  table's flags), checked by `new_game`;
- its vocabulary: `join_action` (a seat taken), `commands` (each a declared `Command` whose
  `Param`s the adapters build into slash-command options and table words, and whose `action`
  turns the filled values into an action), `parse` (typed words to an action, for the table),
  `describe` (an action to words), `legal_actions` for a seat, `actor` (whom the game waits for);
- `apply(state, action)`: the new state and its events, each event a dict with `kind`, `text` and
  its audience `to` ("all" or one seat id: the adapters deliver, they never decide who sees what);
- `view(state, viewer)`: the state as that viewer may see it (no deck's order, no one else's secret);
- its pictures: `render_turn` and `render_map` (PNG bytes from a view), `render_replay` (a GIF);
- its built-in players: `builtin_action` (an action for a seat the bot plays);
- its take-back rule: `undo_action` (the action that takes back a seat's last one; the engine's
  `apply` says whether it may);
- its story at the end (`story`), its line in the server's history (`history_entry`) and its
  figures for `/stats` (`record`, one ended game's fields, and `stats_lines` over those records);
- its faces: `discord_face` and `table_face`, where a system keeps adapter code of its own (a
  rich turn message, commands no declaration says yet). Each is the dotted name of a module the
  adapter loads, or None for the adapter's plain face built from the declarations alone.

Everything has a plain default below but the engine's own: `content`, `new_game`, `apply`,
`legal_actions`, `actor` and `join_action`.
"""
import dataclasses
import zlib
from dataclasses import dataclass, field
from typing import Any, Callable

from .errors import IllegalAction

PARAM_KINDS = ("text", "number", "flag", "choice", "person", "seat")
# text: free words (with suggestions); number: a whole number; flag: yes or no; choice: one of `choices`;
# person: a member of the server (on the table, a seated player's name); seat: a built-in seat, by name.


@dataclass(frozen=True)
class Param:
    """One argument of a declared command."""
    name: str
    kind: str = "text"
    description: str = ""
    required: bool = False
    choices: tuple[tuple[str, str], ...] = ()  # (shown, value) for kind "choice"
    low: int | None = None                     # the range of a "number"
    high: int | None = None
    # The values to suggest as a player types: (system, state, seat) -> [(shown, value)]; None: none.
    suggest: Callable[[Any, dict, str], list[tuple[str, str]]] | None = None

    def __post_init__(self):
        if self.kind not in PARAM_KINDS:
            raise ValueError(f"param {self.name!r}: kind {self.kind!r} is not one of {', '.join(PARAM_KINDS)}")


@dataclass(frozen=True)
class Command:
    """A command a system declares: the adapters build a slash command (or a group's subcommand, with
    `group`) and the table's word from it. `action(state, seat, values)` turns the filled values
    into the action to apply (raising IllegalAction with a reason). A shared verb (`SHARED_VERBS`)
    declared by several systems is one slash command whose options are all theirs."""
    name: str
    description: str
    action: Callable[[dict, str, dict], dict]
    params: tuple[Param, ...] = ()
    group: str | None = None


@dataclass(frozen=True)
class Option:
    """An option of a new game (`/game new`'s own options and the table's flags)."""
    name: str
    kind: str = "text"
    description: str = ""
    choices: tuple[tuple[str, str], ...] = ()
    low: int | None = None
    high: int | None = None


# The verbs every system speaks the same way on Discord: one slash command each, acting on whatever
# the channel plays (the system's declaration gives its options; /sheet, /map, /stats, /history and
# /help are the adapters' own, answered through the contract).
SHARED_VERBS = ("move", "attack", "end", "undo", "choose")


@dataclass
class GameSystem:
    """A game the table can host. Subclass it (or fill its fields) and register it in `bot.games`."""
    id: str = "?"
    title: str = "?"
    players: tuple[int, int] = (1, 6)
    options: tuple[Option, ...] = ()
    commands: tuple[Command, ...] = ()
    discord_face: str | None = None
    table_face: str | None = None
    pick_word: str = "role"  # what a player picks on joining (an adventurer, a hero), for prompts
    campaigns: bool = False  # its games can be chapters of a Betrayal Legacy campaign (bot.chronicle)
    notes: dict = field(default_factory=dict)

    # --- the engine (every system gives these) ---------------------------------------------
    def content(self):
        raise NotImplementedError

    def new_game(self, seed: int, options: dict | None = None) -> dict:
        raise NotImplementedError

    def apply(self, state: dict, action: dict) -> tuple[dict, list[dict]]:
        raise NotImplementedError

    def legal_actions(self, state: dict, seat: str | None = None) -> list[dict]:
        raise NotImplementedError

    def actor(self, state: dict) -> str | None:
        """The seat the game waits for now (None: nobody, or everyone, as in a lobby)."""
        raise NotImplementedError

    def join_action(self, seat: str, name: str, pick: str | None, builtin: bool = False) -> dict:
        """The action seating `seat`, called `name`, with what it picked (an adventurer, a hero)."""
        raise NotImplementedError

    # --- plain defaults ----------------------------------------------------------------------
    def replay(self, seed: int, actions, options: dict | None = None) -> tuple[dict, list[dict]]:
        state, events = self.new_game(seed, options), []
        for action in actions:
            state, ev = self.apply(state, action)
            events.extend(ev)
        return state, events

    def phase(self, state: dict) -> str:
        """`lobby`, `play` or `over`: all the shared layers need of a game's flow."""
        p = state.get("phase")
        return p if p in ("lobby", "over") else "play"

    def turn_number(self, state: dict) -> int:
        return (state.get("turn") or {}).get("number", 0)

    def pending_key(self, state: dict) -> str:
        """A short fingerprint of the question the game waits on, so a button from an older question
        cannot answer a newer one ("0": none)."""
        p = state.get("pending")
        if not p:
            return "0"
        return format(zlib.crc32(repr((p["player"], p["prompt"], p["options"])).encode()) & 0xFFFFFF, "x")

    def seat_to_play(self, state: dict, played: set[str]) -> str | None:
        """Of the seats the bot plays (`played`), the one that must act now, if any."""
        who = self.actor(state)
        return who if who in played else None

    def skip_action(self, state: dict, seat: str) -> dict | None:
        """The next step of skipping an absent seat's turn (a vote after its deadline): its question
        answered with the first option, then its turn ended; None once nothing is left to skip."""
        pending = state.get("pending")
        if pending and pending["player"] == seat:
            return {"type": "decide", "player": seat, "choice": 0}
        if self.phase(state) == "play" and (state.get("turn") or {}).get("player") == seat and not pending:
            return {"type": "end", "player": seat}
        return None

    def over(self, engine) -> "GameSystem":
        """The same system over another engine (tests load other content); by default itself."""
        return self

    def picks(self, state: dict) -> list[tuple[str, str]]:
        """(shown, value) of what a joining player may still pick."""
        return []

    def find_pick(self, words: str) -> str:
        """What a joining player typed, as the value `join_action` takes (the engine checks it)."""
        return words.strip()

    def table_options(self, values: dict) -> dict:
        """The declared options' values, as given on `/game new` or the table's flags, in the form
        `new_game` takes."""
        return {k: v for k, v in values.items() if v is not None}

    def seat_name(self, state: dict, seat: str) -> str:
        return state["players"][seat]["name"]

    def is_builtin(self, state: dict, seat: str) -> bool:
        return bool(state["players"].get(seat, {}).get("builtin"))

    def join_questions(self, state: dict, pick: str) -> list[dict]:
        """What a seat still chooses, besides its pick, before it may join (Castle Ravenloft's chosen powers):
        each {"key", "prompt", "count", "options": [(label, value, description)]}; none by default."""
        return []

    def join_answered(self, action: dict, answers: dict) -> dict:
        """The join action with the answers to `join_questions` (key -> the values chosen)."""
        return action

    def start_action(self, seat: str) -> dict:
        return {"type": "start", "player": seat}

    def leave_action(self, seat: str) -> dict:
        return {"type": "leave", "player": seat}

    def undo_action(self, seat: str) -> dict:
        return {"type": "undo", "player": seat}

    def parse(self, words: str, state: dict, seat: str) -> dict:
        """Typed words to an action, by the declared commands: `<command> <value> ...`."""
        parts = words.split()
        if not parts:
            raise IllegalAction("Type a command.")
        for c in self.commands:
            if c.name == parts[0].lower():
                values = {}
                for p, word in zip(c.params, parts[1:]):
                    values[p.name] = int(word) if p.kind == "number" and word.lstrip("-").isdigit() else word
                missing = [p.name for p in c.params if p.required and p.name not in values]
                if missing:
                    raise IllegalAction(f"{c.name} needs {', '.join(missing)}.")
                return c.action(state, seat, values)
        raise IllegalAction(f"Unknown command {parts[0]!r}: try {', '.join(c.name for c in self.commands)}.")

    def describe(self, action: dict, state: dict | None = None) -> str:
        """An action in a few words (a button's label)."""
        rest = " ".join(str(v) for k, v in action.items() if k not in ("type", "player"))
        return f"{action['type']} {rest}".strip()

    def speak(self, text: str, state: dict | None, where: str) -> str:
        """An engine text as `where` ("discord" or "table") says it."""
        return text

    def view(self, state: dict, viewer: str | None) -> dict:
        return state

    def status_text(self, state: dict) -> str:
        return ", ".join(f"{self.seat_name(state, p)}" for p in state.get("seats", []))

    def sheet_text(self, state: dict, seat: str) -> str:
        return self.seat_name(state, seat)

    def prompt_line(self, state: dict, seat: str) -> str:
        """The line saying who acts now (under a turn's message)."""
        pending = state.get("pending")
        if pending and pending.get("player") == seat:
            return f"{self.seat_name(state, seat)}: {pending['prompt']}"
        return f"{self.seat_name(state, seat)} to play."

    def story(self, state: dict) -> list[str]:
        """What the end reveals, for everyone."""
        return []

    def history_entry(self, state: dict) -> dict:
        """The game's line in the server's history: players, how it ended, who won (and, if the system says
        its scenario its own way, `scenario`: "adventure Find the Icon of Ravenloft")."""
        seats = state.get("seats", [])
        return {"players": [self.seat_name(state, p) for p in seats], "haunt": None,
                "winners": [self.seat_name(state, p) for p in (state.get("result") or {}).get("winners", [])],
                "how": (state.get("result") or {}).get("how", "ended early (/game end)")}

    def record(self, state: dict) -> dict:
        """An ended game (over, or stopped with /game end) as `stats_lines` counts it: a few plain fields
        read from its state when /stats asks. By default whether it was played to its end, and its seats."""
        return {"over": self.phase(state) == "over", "seats": list(state.get("seats", []))}

    def stats_lines(self, records: list[dict]) -> list[str]:
        """This system's figures for /stats, from the server's ended games' `record`s (oldest first), beyond
        the games played and finished the shared layers count themselves; none by default."""
        return []

    def builtin_action(self, state: dict, seat: str, rnd, patience: int = 0) -> dict | None:
        """An action for a seat the bot plays: by default the first legal one."""
        legal = self.legal_actions(state, seat)
        return legal[0] if legal else None

    def rename_seat(self, state: dict, old: str, new: str) -> dict:
        raise IllegalAction("This game cannot hand a seat over.")

    def render_turn(self, state: dict, seat: str | None = None, max_bytes: int | None = None) -> bytes | None:
        return None

    def render_map(self, state: dict, max_bytes: int | None = None) -> bytes | None:
        return None

    def render_replay(self, seed: int, actions: list[dict], options: dict) -> bytes | None:
        return None

    def content_main(self, argv: list[str]) -> int:
        """`python -m bot content --game <id>`: the system's content checked and counted."""
        self.content()
        print(f"{self.title}: content loaded.")
        return 0

    def help_topics(self) -> list[dict]:
        """The rules topics `/help` offers: [{id, title, text}]."""
        return []


@dataclass
class EngineSystem(GameSystem):
    """A system whose rules are one engine object made over its content (`make_engine`): the engine is
    made when first needed, and `over(engine)` gives the same system over another engine (a test's
    content)."""
    engine: Any = None

    def make_engine(self):
        raise NotImplementedError

    def over(self, engine) -> "EngineSystem":
        return dataclasses.replace(self, engine=engine)

    def _engine(self):
        if self.engine is None:
            self.engine = self.make_engine()
        return self.engine

    def content(self):
        return self._engine().content

    def apply(self, state: dict, action: dict) -> tuple[dict, list[dict]]:
        return self._engine().apply(state, action)
