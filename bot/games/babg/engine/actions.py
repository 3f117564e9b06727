"""The action vocabulary: every verb the engine accepts, with its fields.

An action is a plain dict: a `type`, the acting `player`, and the verb's own
fields. `check(action)` runs at the engine's door, before any rule: a field
of the wrong type, a number out of range, a missing or unknown field is
refused with a reason a player can read, so no rule ever sees bad input and
nothing the caller owns (a list, a NaN) can reach the saved state.
"""
import math
import re
import unicodedata

from .errors import IllegalAction

TEXT_LIMIT = 200     # longer text is never a name, a card or a tile
NUMBER_LIMIT = 1000  # no trait, counter or choice comes near this

WHOLE = re.compile(r"[+-]?[0-9]{1,6}")
TEXT, NUMBER, FLAG, CHOICE = "text", "number", "flag", "choice"
RESERVED_IDS = ("all", "traitors", "heroes")  # event audiences: no player may be called so

# verb -> {field: (kind, required)}
VERBS: dict[str, dict[str, tuple[str, bool]]] = {
    "join": {"adventurer": (TEXT, True), "name": (TEXT, False), "builtin": (FLAG, False)},  # builtin: a seat the bot plays
    "leave": {},
    "start": {},
    "handover": {"to": (TEXT, True), "name": (TEXT, False)},
    "move": {"way": (TEXT, True)},
    "use": {"card": (TEXT, True)},
    "drop": {"card": (TEXT, True)},
    "pickup": {"card": (TEXT, True)},
    "trade": {"card": (TEXT, True), "to": (TEXT, True)},
    "roll": {"trait": (TEXT, False), "what": (TEXT, False)},
    "power": {"target": (TEXT, False), "trait": (TEXT, False)},
    "attack": {"target": (TEXT, True), "trait": (TEXT, False), "weapon": (TEXT, False), "reckless": (FLAG, False)},
    "ready": {},
    "monster": {"op": (TEXT, True), "monster": (TEXT, True), "way": (TEXT, False), "target": (TEXT, False),
                "trait": (TEXT, False)},
    "counter": {"name": (TEXT, True), "delta": (NUMBER, False), "value": (NUMBER, False)},
    "token": {"name": (TEXT, False), "tile": (TEXT, False), "op": (TEXT, False)},
    "slay": {"monster": (TEXT, True)},
    "task": {"task": (TEXT, True), "trait": (TEXT, False), "target": (TEXT, False), "tile": (TEXT, False),
             "card": (TEXT, False), "way": (TEXT, False), "number": (NUMBER, False)},  # a haunt's declared move
    "declare": {"side": (TEXT, True)},
    "confirm": {"agree": (FLAG, True)},
    "trait": {"trait": (TEXT, True), "delta": (NUMBER, True)},
    "unmask": {},
    "part_two": {},
    "decide": {"choice": (CHOICE, True)},
    "end": {},
    "undo": {},  # take back your last action of this turn (bot.games.babg.engine.undo)
}


def check(action) -> dict:
    """The action, checked field by field; raises IllegalAction when it is not
    one the engine can even consider. Returns a fresh dict (nothing of the
    caller's is kept)."""
    if not isinstance(action, dict):
        raise IllegalAction("An action is a set of named fields with a type and a player.")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in VERBS:
        shown = kind if isinstance(kind, str) and len(kind) <= 40 and kind.isprintable() else "?"
        raise IllegalAction(f"Unknown action '{shown}'. Type help for the list of commands.")
    player = action.get("player")
    if not isinstance(player, str) or not player or len(player) > TEXT_LIMIT or not player.isprintable():
        raise IllegalAction("Every action needs the player who takes it.")
    if player in RESERVED_IDS or action.get("to") in RESERVED_IDS and kind == "handover":
        raise IllegalAction(f"'{player if player in RESERVED_IDS else action['to']}' is a word the game keeps for "
                            "itself; choose another name.")
    fields = VERBS[kind]
    extra = [k for k in action if k not in fields and k not in ("type", "player")]
    if extra:
        raise IllegalAction(f"'{kind}' takes no '{_shown(extra[0])}'.")
    out = {"type": kind, "player": player}
    for name, (form, required) in fields.items():
        value = action.get(name)
        if value is None:
            if required:
                raise IllegalAction(f"'{kind}' needs its {name}.")
            continue
        out[name] = _field(kind, name, form, value)
    return out


def shown_name(text: str) -> str:
    """A person's name as the game shows it: any name a chat allows (emoji
    joined by zero-width joiners, flags, right-to-left marks, zero-width
    spaces) is kept, less the invisible formatting and control characters
    a message or the map cannot draw; runs of spaces become one."""
    kept = "".join(" " if ch.isspace() else ch for ch in text
                   if ch.isspace() or unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"))
    return " ".join(kept.split())


def _field(kind: str, name: str, form: str, value):
    if form == TEXT and name == "name" and isinstance(value, str):  # a person's name: cleaned, never refused
        value = shown_name(value)[:TEXT_LIMIT] or "Player"
    if form == TEXT:
        if not isinstance(value, str):
            raise IllegalAction(f"The {name} of '{kind}' must be words, not {type(value).__name__}.")
        if len(value) > TEXT_LIMIT:
            raise IllegalAction(f"The {name} of '{kind}' is too long ({TEXT_LIMIT} characters at most).")
        if not value.isprintable():
            raise IllegalAction(f"The {name} of '{kind}' holds characters that cannot be shown.")
        return value
    if form == FLAG:
        if not isinstance(value, bool):
            raise IllegalAction(f"The {name} of '{kind}' must be yes or no.")
        return value
    if form == CHOICE and isinstance(value, str):
        return _field(kind, name, TEXT, value)
    if isinstance(value, str):  # typed words: "+2", "-1" (plain ASCII digits only, not "²" or "1e9")
        if not WHOLE.fullmatch(value.strip()):
            raise IllegalAction(f"The {name} of '{kind}' must be a whole number such as 2, +1 or -3.")
        value = int(value.strip())
    # NUMBER, or a CHOICE given by its number: whole numbers only, within reason
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise IllegalAction(f"The {name} of '{kind}' must be a whole number.")
    if isinstance(value, float):
        if not math.isfinite(value) or value != int(value):
            raise IllegalAction(f"The {name} of '{kind}' must be a whole number.")
        value = int(value)
    if abs(value) > NUMBER_LIMIT:
        raise IllegalAction(f"The {name} of '{kind}' is out of range (at most {NUMBER_LIMIT} either way).")
    return value


def _shown(text: str) -> str:
    return text if len(text) <= 40 and text.isprintable() else "?"
