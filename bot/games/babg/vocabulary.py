"""The one action vocabulary every adapter speaks: each verb of the engine
(bot.games.babg.engine.actions.VERBS) parsed from typed words, told in words, and
carried by a button, all here.

- `parse(words, state, actor_hint)`: a typed command (`north`, `use Potion of
  Healing`, `monster move Beholder 1 east`) -> an action dict, or
  IllegalAction with a friendly reason. The local table types these.
- `describe(action, state, content)`: a short label ("⬆ North", "Attack Bo",
  "Beholder 1 east", "1. Lose 1 Sanity") for a button or a listing.
- `to_words(action, state, content)`: the command that `parse` turns back
  into the action (None where typed words cannot say it).
- `to_custom_id(action, game_id, turn_number, question)` and
  `from_custom_id(text)`: a button carries the action itself, with the game
  and turn it belongs to, in at most 100 characters; `to_select_id`,
  `select_value` and `from_select` do the same for a select menu's options.

No rule lives here: whether an action is allowed is the engine's answer.
"""
import re
import zlib
from dataclasses import dataclass
from urllib.parse import quote, unquote

from bot.games.babg.engine import IllegalAction, rulesets
from bot.games.babg.engine.actions import CHOICE, FLAG, NUMBER, VERBS
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.haunt_moves import candidates
from bot.games.babg.engine.legal import actor, haunt_actions
from bot.games.babg.engine.state import monster_called

TRAIT_WORDS = ("might", "speed", "knowledge", "sanity")
SHORT_WAYS = {"n": "north", "e": "east", "s": "south", "w": "west", "up": "stairs", "down": "stairs",
              "north": "north", "east": "east", "south": "south", "west": "west", "stairs": "stairs",
              "grate": "grate", "sewer": "grate"}
WAY_LABELS = {"north": "⬆ North", "east": "➡ East", "south": "⬇ South", "west": "⬅ West",
              "stairs": "Stairs", "grate": "Sewer grate", "gate": "Arcane Gate"}
MONSTER_WAYS = {"grate": "sewer grate", "gate": "Arcane Gate"}
CARD_VERBS = {"use": "Use", "drop": "Drop", "pickup": "Pick up"}
HAUNT_VERBS = ("ready", "attack", "monster", "counter", "token", "task", "declare", "confirm", "part2", "unmask",
               "trait", "slay")

MAX_NAME = 32  # the engine keeps at most this much of a player's name
_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]{1,9}")  # ASCII digits only: not "²", "٣", "1_000", "1e9" or "nan"


def whole_number(text: str) -> int | None:
    """The integer a player typed (`3`, `+2`, `-1`), or None when the text
    is not a plain whole number of at most 9 digits. Python's int() would
    also take "٣" (and isdigit() "²", which int() then refuses)."""
    return int(text) if _WHOLE_NUMBER.fullmatch(text) else None


# --- names --------------------------------------------------------------------------


def player_by_name(state: dict, name: str) -> str:
    """The seated player called `name` (or with that id)."""
    key = name.strip().lower()
    for pid in state["seats"]:
        if state["players"][pid]["name"].lower() == key or pid == key:
            return pid
    raise IllegalAction(f"No player called '{name}'. Players: "
                        f"{', '.join(state['players'][p]['name'] for p in state['seats']) or 'none'}.")


def _player_or_text(state: dict, text: str) -> str:
    try:
        return player_by_name(state, text)
    except IllegalAction:
        return text


def _need(who: str | None) -> str:
    if who is None:
        raise IllegalAction("Nobody is acting yet: join players, then start.")
    return who


# --- words -> action ----------------------------------------------------------------


def parse(words, state: dict, actor_hint: str | None = None, content=None) -> dict:
    """The action a typed command asks for. `words` is the command (a string
    or its words) without the table's `as <name>` prefix; `actor_hint` is the
    player named by that prefix (on Discord: the user), else the player the
    game waits for acts; `content` lets a haunt move's argument be named
    (`task stun Bo`). Raises IllegalAction with a reason to show."""
    words = words.split() if isinstance(words, str) else list(words)
    if not words:
        raise IllegalAction("Type a command; help lists them.")
    acting = actor_hint
    verb, rest = words[0].lower(), words[1:]
    arg = " ".join(rest)
    who = acting or actor(state)
    if verb == "join":
        adventurer, name = _join_words(state, rest)
        return {"type": "join", "player": name.lower(), "name": name, "adventurer": adventurer}
    if verb == "leave":
        return {"type": "leave", "player": player_by_name(state, arg)}
    if verb == "start":
        return {"type": "start", "player": acting or (state["seats"][0] if state["seats"] else "nobody")}
    if verb in SHORT_WAYS or verb == "move":
        way = SHORT_WAYS.get(arg.lower(), arg.lower()) if verb == "move" else SHORT_WAYS[verb]
        if not way:
            raise IllegalAction("Move where? north, east, south, west, stairs or grate.")
        return {"type": "move", "player": _need(who), "way": way}
    if verb == "roll":
        return {"type": "roll", "player": _need(who), "trait": arg or None}
    if verb in ("use", "drop", "pickup"):
        if not arg:
            raise IllegalAction(f"Which card? `{verb} <card name>`.")
        return {"type": verb, "player": _need(who), "card": arg}
    if verb == "trade":
        if len(rest) < 2:
            raise IllegalAction("`trade <item> <player>`: the item, then who receives it.")
        return {"type": "trade", "player": _need(who), "card": " ".join(rest[:-1]),
                "to": player_by_name(state, rest[-1])}
    if verb in ("choose", "decide"):
        if not arg:
            raise IllegalAction("`choose <number>`: pick one of the listed options.")
        number = whole_number(arg)
        choice = number - 1 if number is not None else arg
        if isinstance(choice, int) and choice < 0:
            raise IllegalAction("Options are numbered from 1.")
        return {"type": "decide", "player": _need(who), "choice": choice}
    if verb == "power":
        return power_action(state, _need(who), rest)
    if verb == "end":
        return {"type": "end", "player": _need(who)}
    if verb == "undo":
        return {"type": "undo", "player": _need(who)}
    if verb == "task":
        return _move_action(state, content, rest, _need(who))
    if verb in HAUNT_VERBS:
        return _haunt_action(state, verb, rest, acting, who)
    raise IllegalAction(f"Unknown command '{verb}'. Type help for the list.")


def _join_words(state: dict, rest: list[str]) -> tuple[str, str]:
    """`join <adventurer> [as <name>]`: the adventurer's words and the
    player's name (by default "Player N")."""
    lowered = [w.lower() for w in rest]
    if "as" in lowered:
        at = lowered.index("as")
        adventurer, name = " ".join(rest[:at]), " ".join(rest[at + 1:])
        if not name:
            raise IllegalAction("Who is playing? Put a name after `as`: e.g. `join torskar as Ann`.")
    else:
        adventurer, name = " ".join(rest), f"Player {len(state['seats']) + 1}"
    if not adventurer:
        raise IllegalAction("Which adventurer? `join <adventurer> as <name>`, e.g. `join torskar as Ann` "
                            "(`adventurers` lists them).")
    if len(name) > MAX_NAME:
        raise IllegalAction(f"That name is too long ({len(name)} characters); at most {MAX_NAME}, "
                            "e.g. `join torskar as Ann`.")
    return adventurer, name


def power_action(state: dict, who: str, words: list[str]) -> dict:
    """`power [player] [trait]`: the words may name who the power is for
    and which trait (Healing Word, Bardic Inspiration)."""
    action = {"type": "power", "player": who}
    rest = []
    for word in words:
        if word.lower() in TRAIT_WORDS:
            action["trait"] = word.lower()
        else:
            rest.append(word)
    if rest:
        action["target"] = player_by_name(state, " ".join(rest))
    return action


def _haunt_action(state: dict, verb: str, rest: list[str], acting, who) -> dict:
    if verb == "ready":
        return {"type": "ready", "player": _need(acting or who)}
    if verb == "attack":
        if not rest:
            raise IllegalAction("`attack <player or monster> [trait] [with <weapon>]`.")
        words = " ".join(rest)
        reckless = words.endswith(" reckless")
        words = words.removesuffix(" reckless")
        weapon = None
        if " with " in f" {words} ":
            words, weapon = [x.strip() for x in f" {words} ".split(" with ", 1)]
        parts = words.split()
        trait = parts[-1].lower() if len(parts) > 1 and parts[-1].lower() in TRAIT_WORDS else None
        target = " ".join(parts[:-1] if trait else parts)
        return {"type": "attack", "player": _need(who), "target": _player_or_text(state, target), "trait": trait,
                "weapon": weapon, "reckless": reckless}
    if verb == "monster":
        if len(rest) < 3 or rest[0].lower() not in ("move", "attack"):
            raise IllegalAction("`monster move <monster> <way>` or `monster attack <monster> <player>`.")
        op, last, name = rest[0].lower(), rest[-1], " ".join(rest[1:-1])
        action = {"type": "monster", "player": _need(who), "op": op, "monster": name}
        if op == "move":
            action["way"] = SHORT_WAYS.get(last.lower(), last.lower())
        else:
            action["target"] = player_by_name(state, last)
        return action
    if verb == "counter":
        if len(rest) < 2:
            raise IllegalAction("`counter <name> <+N|-N|=N>`.")
        change, name = rest[-1], " ".join(rest[:-1])
        number = whole_number(change[1:] if change.startswith("=") else change)
        if number is None:
            raise IllegalAction("The change is a whole number: `counter <name> +2`, `-1` or `=5`.")
        key = "value" if change.startswith("=") else "delta"
        return {"type": "counter", "player": _need(acting or who), "name": name, key: number}
    if verb == "token":
        if len(rest) < 2 or rest[0].lower() not in ("place", "remove"):
            raise IllegalAction("`token place <name>` or `token remove <name>` (on your tile).")
        return {"type": "token", "player": _need(acting or who), "op": rest[0].lower(), "name": " ".join(rest[1:])}
    if verb == "slay":
        if not rest:
            raise IllegalAction("`slay <monster>`, when the haunt's own rule kills it (e.g. `slay Minotaur 1`).")
        return {"type": "slay", "player": _need(acting or who), "monster": " ".join(rest)}
    if verb == "declare":
        return {"type": "declare", "player": _need(acting or who), "side": " ".join(rest)}
    if verb == "confirm":
        answer = " ".join(rest).lower()
        if answer not in ("yes", "no", "y", "n"):
            raise IllegalAction("`confirm yes` (that side has won) or `confirm no` (play on).")
        if acting is None:  # every other player answers, not whoever the game waits for
            raise IllegalAction("Each player answers for themselves: `as <name> confirm yes` (or no).")
        return {"type": "confirm", "player": acting, "agree": answer.startswith("y")}
    if verb == "trait":
        delta = whole_number(rest[1]) if len(rest) == 2 else None
        if delta is None:
            raise IllegalAction("`trait <trait> <+N|-N>`: a change the haunt orders, e.g. `trait might -1`.")
        return {"type": "trait", "player": _need(acting or who), "trait": rest[0], "delta": delta}
    if verb == "unmask":
        return {"type": "unmask", "player": _need(acting or who)}
    return {"type": "part_two", "player": _need(acting or who)}


def declared_move(state: dict, name: str):
    """The active haunt's declared move called `name`, or None."""
    ruleset = rulesets.REGISTRY.get((state.get("haunt") or {}).get("number"))
    return ruleset.move(name) if ruleset is not None and state.get("phase") == "haunt" else None


def _move_action(state: dict, content, rest: list[str], who: str) -> dict:
    """`task <move> [trait] [its argument]`: the haunt's declared move, its
    argument found by the name shown for it (a player, a monster such as
    `Cultist 2`, a tile, a card, a way). Words that match none still go to
    the engine, which says why it refuses them."""
    if not rest:
        raise IllegalAction("`task <move>`: `moves` lists the haunt's moves open to you.")
    action = {"type": "task", "player": who, "task": rest[0].lower()}
    words = rest[1:]
    if words and words[0].lower() in TRAIT_WORDS:
        action["trait"] = words.pop(0).lower()
    wanted = " ".join(words).lower()
    if content is None or not wanted:
        return action
    fits = [a for a in candidates(Ctx(content, state), who) if a["task"] == action["task"]
            and a.get("trait", action.get("trait")) == action.get("trait", a.get("trait"))
            and _names(wanted, _argument_words(a, state, content))]
    if fits:
        return {**fits[0], **{k: v for k, v in action.items() if k == "trait"}}
    move = declared_move(state, action["task"])
    if move and move.args:
        action[move.args[0].field] = " ".join(words)
    return action


def _names(wanted: str, shown: str | None) -> bool:
    """Whether typed words name the arguments shown as `shown` ("Cultist 2 / north")."""
    shown = (shown or "").lower()
    return wanted in (shown.replace(" / ", " "), shown) or (" / " not in shown and wanted == shown)


def _argument_words(action: dict, state: dict, content) -> str | None:
    """How the move's arguments are named: e.g. `Bo`, `Cultist 2 / north`."""
    move = declared_move(state, action.get("task", ""))
    if move is None:
        return None
    shown = []
    for arg in move.args:
        value = action.get(arg.field)
        if arg.kind in ("player", "monster"):
            shown.append(_target(state, value))
        elif arg.kind == "tile":
            shown.append(content.tiles[value].name if value in content.tiles else str(value))
        elif arg.kind == "card":
            shown.append(_card(content, value))
        else:
            shown.append(str(value))
    return " / ".join(shown)


def move_choices(content, state: dict, pid: str) -> list[tuple[str, str]]:
    """(label, value) of each haunt move open to `pid` now, tried like a
    button (for /haunt task's list); the value carries the whole action."""
    if state.get("phase") != "haunt" or pid not in state.get("players", {}):
        return []
    from_engine = [a for a in legal_for(content, state, pid) if a["type"] == "task"]
    return [(describe(a, state, content), value) for a in from_engine
            if (value := select_value({k: v for k, v in a.items() if k != "player"}))]


def move_from_value(value: str, state: dict, content, pid: str) -> dict:
    """The action a /haunt task value names: a listed move's value, or the
    move typed as on the table (`search speed`)."""
    carried = from_custom_id(f"{BUTTON_PREFIX}:0:0::{value}") if value and ":" not in value else None
    if carried is not None and carried.action.get("type") == "task":
        return {**carried.action, "player": pid}
    return parse(["task", *value.split()], state, pid, content)


def spoken(text: str, state: dict, adapter: str) -> str:
    """An engine text with each `{move:NAME}` said as `adapter` ("table" or
    "discord") shows that move: the typed command on the table, the button
    on Discord. Texts never name another adapter's controls."""
    if "{move:" not in text:
        return text

    def say(match):
        move = declared_move(state, match[1]) if state else None
        label = move.label if move else match[1]
        return f"`task {match[1]}`" if adapter == "table" else f"the **{label}** button"
    return _MOVE_MARK.sub(say, text)


def spoken_lines(lines, state: dict, adapter: str) -> list[str]:
    """Every line a player reads, said as `adapter` says it (`spoken`): the
    one function for texts read back from the log (`/log recent`, `/haunt
    rules`, a private message sent late), as for the turn's own events."""
    return [spoken(line, state, adapter) for line in lines]


def unspoken_marks(text: str) -> list[str]:
    """What is left of a `{move:` mark in a text after wording (none in a
    text fit for a player)."""
    return re.findall(r"\{move[^}]*\}?", text)


def legal_for(content, state: dict, pid: str) -> list[dict]:
    """The haunt's own actions open to `pid` now (each tried on a copy)."""
    return haunt_actions(Ctx(content, state), pid)


_MOVE_MARK = re.compile(r"\{move:([a-z_]+)\}")


def make(verb: str, player: str | None = None, **fields) -> dict:
    """An action from named fields (the slash commands' options): the fields
    left out (None) are dropped; a field the verb does not have is a bug of
    the caller, so it fails loudly here rather than at a player."""
    if verb not in VERBS:
        raise ValueError(f"no verb {verb!r}")
    unknown = set(fields) - set(VERBS[verb])
    if unknown:
        raise ValueError(f"'{verb}' has no field {sorted(unknown)}")
    action = {"type": verb, **{k: v for k, v in fields.items() if v is not None}}
    if player is not None:
        action["player"] = player
    return action


# --- action -> words ---------------------------------------------------------------


def _name(state: dict, pid: str) -> str:
    p = state["players"].get(pid)
    return p["name"] if p else pid


def _monster(state: dict, ref: str) -> str:
    for m in state.get("monsters") or []:
        if m["id"] == ref:
            return monster_called(m)
    return ref


def _target(state: dict, ref: str) -> str:
    return _name(state, ref) if ref in state["players"] else _monster(state, ref)


def _card(content, ref: str) -> str:
    card = content.cards.get(ref)
    return card.name if card else ref


def _source(content, ref: str) -> str:
    if ref in content.tiles:
        return content.tiles[ref].name
    return _card(content, ref)


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else str(n)


def describe(action: dict, state: dict, content) -> str:
    """A short label for the action: a button's text or a listing's line."""
    kind = action["type"]
    if kind == "move":
        return WAY_LABELS.get(action["way"], str(action["way"]).capitalize())
    if kind == "end":
        return "End the monster turn" if (state.get("turn") or {}).get("monsters") else "End turn"
    if kind == "decide":
        choice = action["choice"]
        options = (state.get("pending") or {}).get("options", [])
        if isinstance(choice, int) and 0 <= choice < len(options):
            return f"{choice + 1}. {options[choice]}"
        return str(choice + 1 if isinstance(choice, int) else choice)
    if kind == "ready":
        return "Ready"
    if kind == "undo":
        return "Undo"
    if kind == "attack":
        label = f"Attack {_target(state, action['target'])}"
        if action.get("trait"):
            label += f" ({action['trait'].capitalize()})"
        if action.get("weapon"):
            label += f" with {_card(content, action['weapon'])}"
        return label + (" recklessly" if action.get("reckless") else "")
    if kind == "monster":
        who = _monster(state, action["monster"])
        if action["op"] == "move":
            return f"{who} {MONSTER_WAYS.get(action.get('way'), action.get('way'))}"
        return f"{who} attacks {_target(state, action.get('target', ''))}"
    if kind in ("use", "drop", "pickup"):
        return f"{CARD_VERBS[kind]} {_card(content, action['card'])}"
    if kind == "trade":
        return f"Give {_card(content, action['card'])} to {_name(state, action['to'])}"
    if kind == "roll":
        what = action.get("what") or action.get("trait")
        return f"Roll: {_source(content, what)}" if what else "Roll"
    if kind == "power":
        p = state["players"].get(action.get("player", ""))
        label = content.adventurers[p["adventurer"]].power["name"] if p else "Power"
        if action.get("target"):
            label += f" on {_name(state, action['target'])}"
        return label + (f" ({action['trait'].capitalize()})" if action.get("trait") else "")
    if kind == "join":
        adv = content.adventurers.get(action["adventurer"])
        return f"Join as {adv.name if adv else action['adventurer']}"
    if kind == "counter":
        change = f"={action['value']}" if action.get("value") is not None else _signed(action.get("delta") or 0)
        return f"{action['name']} {change}"
    if kind == "token":
        return f"{(action.get('op') or 'place').capitalize()} {action.get('name', '')} token".replace("  ", " ")
    if kind == "slay":
        return f"Slay {_monster(state, action['monster'])}"
    if kind == "task":
        move = declared_move(state, action.get("task", ""))
        label = move.label if move else str(action.get("task", "")).capitalize()
        arg = _argument_words(action, state, content) if move and move.args else None
        label += f": {arg}" if arg else ""
        return label + (f" ({action['trait'].capitalize()})" if action.get("trait") and move
                        and len(move.traits) > 1 else "")
    if kind == "declare":
        return f"Declare: the {action['side']} win"
    if kind == "confirm":
        return "Yes, they won" if action["agree"] else "No, play on"
    if kind == "trait":
        return f"{action['trait'].capitalize()} {_signed(action['delta'])}"
    return {"leave": "Leave", "start": "Start", "handover": "Hand over", "unmask": "Unmask",
            "part_two": "Part two"}.get(kind, kind.replace("_", " ").capitalize())


def _one_word(state: dict, pid: str) -> str | None:
    """How a typed command names a player, when one word can."""
    for ref in (_name(state, pid), pid):
        if ref and len(ref.split()) == 1:
            return ref
    return None


def to_words(action: dict, state: dict, content) -> str | None:
    """The command that `parse` turns back into this action (with the actor
    as the hint), or None when typed words cannot say it."""
    kind = action["type"]
    if kind == "move":
        return action["way"] if action["way"] in SHORT_WAYS else f"move {action['way']}"
    if kind in ("end", "ready", "unmask", "start", "undo"):
        return kind
    if kind == "part_two":
        return "part2"
    if kind == "decide":
        choice = action["choice"]
        return f"choose {choice + 1}" if isinstance(choice, int) else f"choose {choice}"
    if kind in ("use", "drop", "pickup"):
        return f"{kind} {_card(content, action['card'])}"
    if kind == "trade":
        to = _one_word(state, action["to"])
        return f"trade {_card(content, action['card'])} {to}" if to else None
    if kind == "roll":
        what = action.get("what") or action.get("trait")
        return f"roll {_source(content, what).lower()}" if what else "roll"
    if kind == "power":
        words = ["power"]
        if action.get("target"):
            words.append(_name(state, action["target"]))
        if action.get("trait"):
            words.append(action["trait"])
        return " ".join(words)
    if kind == "attack":
        words = ["attack", _target(state, action["target"])]
        if action.get("trait"):
            words.append(action["trait"])
        if action.get("weapon"):
            words += ["with", _card(content, action["weapon"])]
        if action.get("reckless"):
            words.append("reckless")
        return " ".join(words)
    if kind == "monster":
        if action["op"] == "move":
            return f"monster move {_monster(state, action['monster'])} {action['way']}"
        target = _one_word(state, action.get("target", ""))
        return f"monster attack {_monster(state, action['monster'])} {target}" if target else None
    if kind == "counter":
        change = f"={action['value']}" if action.get("value") is not None else _signed(action.get("delta") or 0)
        return f"counter {action['name']} {change}"
    if kind == "token" and action.get("name"):
        return f"token {action.get('op') or 'place'} {action['name']}"
    if kind == "slay":
        return f"slay {_monster(state, action['monster'])}"
    if kind == "task" and action.get("task"):
        words = ["task", action["task"]] + ([action["trait"]] if action.get("trait") else [])
        arg = _argument_words(action, state, content)
        return " ".join(words + ([arg] if arg else []))
    if kind == "declare":
        return f"declare {action['side']}"
    if kind == "confirm":
        return f"confirm {'yes' if action['agree'] else 'no'}"
    if kind == "trait":
        return f"trait {action['trait']} {_signed(action['delta'])}"
    if kind == "join":
        return f"join {action['adventurer']} as {action['name']}" if action.get("name") else None
    return None


def slash_hint(action: dict, state: dict, content) -> str:
    """The slash command that does what a button could not carry."""
    kind = action["type"]
    if kind == "move":
        return f"/move direction:{action['way']}"
    if kind in ("use", "drop", "pickup"):
        return f"/item {kind} item:{_card(content, action['card'])}"
    if kind == "trade":
        return f"/item trade item:{_card(content, action['card'])} to:@{_name(state, action['to'])}"
    if kind == "decide":
        return f"/choose option:{action['choice'] + 1}" if isinstance(action["choice"], int) else "/choose"
    if kind == "attack":
        return f"/attack {_target(state, action['target'])}"
    if kind == "monster":
        what = action.get("way") if action["op"] == "move" else _target(state, action.get("target", ""))
        return f"/monster {action['op']} monster:{_monster(state, action['monster'])} {what}"
    if kind == "roll":
        return "/roll"
    if kind == "power":
        return "/power"
    if kind == "ready":
        return "/haunt ready"
    return f"/{kind}"


# --- buttons -----------------------------------------------------------------------

BUTTON_PREFIX = "bg2"
CUSTOM_ID_LIMIT = 100  # Discord's limit on a component's custom_id
# bg2:<game>:<turn>:<question>:<verb>[;<field>=<value>...]
CUSTOM_ID = re.compile(BUTTON_PREFIX + r":(?P<game>[0-9]{1,18}):(?P<turn>[0-9]{1,9}):(?P<question>[0-9a-f]{0,8})"
                       r":(?P<body>[^:]{1,90})")

VERB_CODES = {"join": "j", "leave": "lv", "start": "st", "handover": "ho", "move": "mv", "use": "us", "drop": "dr",
              "pickup": "pk", "trade": "tr", "roll": "ro", "power": "pw", "attack": "at", "ready": "rd",
              "monster": "mo", "counter": "ct", "token": "tk", "slay": "sl", "task": "ta", "declare": "dc",
              "confirm": "cf", "trait": "tt", "unmask": "um", "part_two": "p2", "decide": "ch", "end": "en",
              "undo": "ud"}
FIELD_CODES = {"adventurer": "j", "name": "n", "to": "t", "way": "w", "card": "c", "trait": "r", "what": "h",
               "target": "g", "weapon": "p", "reckless": "k", "op": "o", "monster": "m", "delta": "d",
               "value": "v", "tile": "l", "task": "a", "side": "s", "agree": "y", "choice": "i",
               "number": "u"}


def _codes(table: dict[str, str], names) -> tuple[dict[str, str], dict[str, str]]:
    """Short codes for the names (a name without one is its own code), and
    back; checked to be one-to-one so no code can be read two ways."""
    encode = {name: table.get(name, name) for name in names}
    decode = {code: name for name, code in encode.items()}
    assert len(decode) == len(encode), f"two names share a code: {encode}"
    return encode, decode


_VERB_TO, _VERB_FROM = _codes(VERB_CODES, VERBS)
_FIELD_TO, _FIELD_FROM = _codes(FIELD_CODES, {f for fields in VERBS.values() for f in fields})


@dataclass(frozen=True)
class ButtonAction:
    """What a button carries: the action (without its player: whoever clicks
    acts), the game and the turn it was offered in, and for an answer the
    fingerprint of the question it answers ("" otherwise)."""
    action: dict
    game_id: int
    turn: int
    question: str = ""


def pending_key(state: dict) -> str:
    """A short fingerprint of the question being asked, so a button from an
    older question cannot answer a newer one."""
    p = state.get("pending")
    if not p:
        return "0"
    return format(zlib.crc32(repr((p["player"], p["prompt"], p["options"])).encode()) & 0xFFFFFF, "x")


def turn_number(state: dict) -> int:
    """The turn the game is at (0 before the first)."""
    return (state.get("turn") or {}).get("number", 0)


def _value(form: str, value) -> str | None:
    if form == FLAG:
        return "1" if value else "0" if isinstance(value, bool) else None
    if form in (NUMBER, CHOICE) and isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, str):
        return ("~" if form == CHOICE else "") + quote(value, safe="")
    return None


def _unvalue(form: str, text: str):
    if form == FLAG:
        return {"1": True, "0": False}[text]
    if form == CHOICE and text.startswith("~"):
        return unquote(text[1:])
    if form in (NUMBER, CHOICE):
        return int(text)
    return unquote(text)


def _body(action: dict) -> str | None:
    """The verb and fields of the action as a custom_id carries them."""
    kind = action.get("type")
    if kind not in VERBS:
        return None
    parts = [_VERB_TO[kind]]
    for name, value in action.items():
        if name in ("type", "player") or value is None:
            continue
        if name not in VERBS[kind]:
            return None
        shown = _value(VERBS[kind][name][0], value)
        if shown is None:
            return None
        parts.append(f"{_FIELD_TO[name]}={shown}")
    return ";".join(parts)


def to_custom_id(action: dict, game_id: int, turn_number: int, question: str = "") -> str | None:
    """The button's custom_id for the action in that game and turn, or None
    when the action does not fit in one (then a slash command says it)."""
    body = _body(action)
    if body is None:
        return None
    text = f"{BUTTON_PREFIX}:{int(game_id)}:{int(turn_number)}:{question}:{body}"
    if len(text) > CUSTOM_ID_LIMIT or not CUSTOM_ID.fullmatch(text):
        return None
    return text


def from_custom_id(text: str) -> ButtonAction | None:
    """What a button's custom_id carries, or None when it is not one of ours
    (or no longer a verb the engine knows)."""
    match = CUSTOM_ID.fullmatch(text or "")
    if not match:
        return None
    verb_code, *fields = match["body"].split(";")
    kind = _VERB_FROM.get(verb_code)
    if kind is None:
        return None
    action = {"type": kind}
    for item in fields:
        code, sep, value = item.partition("=")
        name = _FIELD_FROM.get(code)
        if not sep or name not in VERBS[kind] or name in action:
            return None
        try:
            action[name] = _unvalue(VERBS[kind][name][0], value)
        except (KeyError, ValueError):
            return None
    return ButtonAction(action, int(match["game"]), int(match["turn"]), match["question"])


# --- select menus ------------------------------------------------------------------
# A question with many options is a select menu: its custom_id carries the game, the
# turn and the question as a button's does (and which menu of the message it is),
# each option's value the action, as a button's custom_id ends.

SELECT_PREFIX = "bg2s"
# bg2s:<game>:<turn>:<question>:<menu>
SELECT_ID = re.compile(SELECT_PREFIX + r":(?P<game>[0-9]{1,18}):(?P<turn>[0-9]{1,9}):(?P<question>[0-9a-f]{0,8})"
                       r":(?P<menu>[0-9]{1,2})")


def to_select_id(game_id: int, turn_number: int, question: str, menu: int = 0) -> str:
    """The custom_id of a message's `menu`-th select for the question asked in that game and turn."""
    return f"{SELECT_PREFIX}:{int(game_id)}:{int(turn_number)}:{question}:{int(menu)}"


def select_value(action: dict) -> str | None:
    """What a select option carries for the action (None when it does not fit)."""
    custom_id = to_custom_id(action, 0, 0)
    return custom_id.split(":", 4)[4] if custom_id else None


def from_select(custom_id: str, value: str) -> ButtonAction | None:
    """What the option `value` chosen in the select `custom_id` carries, or
    None when either is not one of ours."""
    match = SELECT_ID.fullmatch(custom_id or "")
    if not match or not value or ":" in value:
        return None
    return from_custom_id(f"{BUTTON_PREFIX}:{match['game']}:{match['turn']}:{match['question']}:{value}")


# --- a turn's controls ---------------------------------------------------------------


@dataclass(frozen=True)
class Offer:
    """One legal action as the controls under a turn's message can offer it."""
    action: dict
    label: str             # its button's or menu option's text
    custom_id: str | None  # its button (None: it does not fit in one)
    value: str | None      # its option in a select menu (None: likewise)
    hint: str              # the slash command that does it, where no control carries it


@dataclass(frozen=True)
class Offers:
    """A turn's legal actions as controls, and the custom_ids of the message's select menus in order
    (for the question asked, if one is)."""
    items: list[Offer]
    menu_ids: tuple[str, ...]


def offers(content, seen: dict, actions: list[dict], game_id: int, menus: int = 1) -> Offers:
    """The legal actions (the engine's answer) as a turn's controls offer them, in one pass: each
    worded from `seen`, a view of the game (bot.games.babg.engine.view), never from the state."""
    turn = turn_number(seen)
    question = pending_key(seen) if seen.get("pending") else ""
    items = [Offer(action, describe(action, seen, content),
                   to_custom_id(action, game_id, turn, question if action["type"] == "decide" else ""),
                   select_value(action), slash_hint(action, seen, content)) for action in actions]
    return Offers(items, tuple(to_select_id(game_id, turn, question, n) for n in range(menus)))
