"""The game's story, told once it is over: everything a player's view kept
hidden (bot.games.babg.engine.view) and the cards each adventurer ended with.

What was hidden is found by asking the view what the channel could not see
had the game not ended: the hidden traitor, everyone's traitor tokens, the
haunt records and fields a rule set declares secret (`secret`, `Own.secret`,
`Own.secret_fields`) and what lies under face-down tokens
(`secret_token_fields`). A haunt that declares a new secret is told here
without a word added. A game in play reveals nothing."""
from . import state as st
from .view import view

SIDES = ("traitor", "heroes")


def reveal_lines(content, state: dict) -> list[str]:
    """What the game kept hidden, one fact a line; nothing until it is over."""
    if state.get("phase") != "over":
        return []
    h = state.get("haunt")
    lines = ["The game is over: here is everything that was hidden."]
    if h:
        public = view({**state, "phase": "haunt"})  # what the channel saw while it was played
        lines += traitor_lines(content, state, public["haunt"])
        lines += goal_lines(content, state)
        lines += record_lines(content, state, public["haunt"])
        lines += token_lines(content, state, public)
    lines += card_lines(content, state)
    return lines


def traitor_lines(content, state: dict, seen: dict) -> list[str]:
    h = state["haunt"]
    hidden = [p for p in h["traitors"] if p not in seen["traitors"]]
    lines = []
    named = hidden or h["traitors"]
    if named:
        were = "s were" if len(named) > 1 else " was"
        lines.append(f"The {'hidden ' if hidden else ''}traitor{were} {who(content, state, named)}.")
    tokens = h.get("hidden_tokens") or {}
    if tokens:
        held = [f"{name(state, p)} {' and '.join(map(str, st.token_numbers(tokens[p])))}"
                for p in state["seats"] if p in tokens]
        lines.append(f"The traitor tokens (1 marks the traitor): {', '.join(held)}.")
    return lines


def goal_lines(content, state: dict) -> list[str]:
    """Each side's goal in one line, from the haunt's win conditions (or its
    books' "You Win When..." where it lists none)."""
    h = state["haunt"]
    haunt = content.haunts.get(h["number"])
    if haunt is None:
        return []
    several = len(h["traitors"]) > 1
    lines = []
    for side in SIDES:
        text = goal(haunt.raw, side)
        if text:
            whose = ("The traitors'" if several else "The traitor's") if side == "traitor" else "The heroes'"
            lines.append(f"{whose} goal: {text}")
    return lines


def goal(raw: dict, side: str) -> str:
    texts = [w["text"] for w in raw.get("win", []) if w["side"] == side]
    if not texts:
        texts = [s["text"] for s in raw.get(side, {}).get("section", []) if s["heading"] == "You Win When..."]
    texts = [t.strip().lstrip(".").strip() for t in texts]
    return " Or: ".join(sentence(t[:1].upper() + t[1:]) for t in texts if t)


def record_lines(content, state: dict, seen: dict) -> list[str]:
    """The haunt's records the view took out, whole or field by field."""
    h = state["haunt"]
    lines = []
    for key, value in h.items():
        if key in ("traitors", "hidden_tokens"):
            continue
        if key not in seen:
            hidden = value
        elif isinstance(value, dict) and isinstance(seen[key], dict):
            hidden = {k: v for k, v in value.items() if k not in seen[key]}
        else:
            continue
        if not blank(hidden):
            label = f" ({words(key)})" if words(key) else ""
            lines.append(sentence(f"Kept secret by the haunt{label}: {said(content, state, hidden)}"))
    return lines


def token_lines(content, state: dict, public: dict) -> list[str]:
    """What lay under each face-down token."""
    lines = []
    for token, seen in zip(state.get("tokens", []), public.get("tokens", [])):
        under = {k: v for k, v in token.items() if k not in seen}
        if under and not blank(under):
            where = f" on the {content.tiles[token['tile']].name}" if token.get("tile") in content.tiles else ""
            lines.append(sentence(f"Face down: {token.get('name', 'a token')}{where}, {said(content, state, under)}"))
    return lines


def card_lines(content, state: dict) -> list[str]:
    lines = []
    for pid in state["seats"]:
        cards = [content.cards[c].name if c in content.cards else str(c) for c in state["players"][pid]["cards"]]
        lines.append(f"{who(content, state, [pid])} ended with {', '.join(cards) if cards else 'no cards'}.")
    return lines


# --- saying a record's plain data in words ------------------------------------------------------------


def said(content, state: dict, value) -> str:
    """A record's value in words: players, tiles, cards and monsters by
    name; lists and fields spelled out; empty fields left out."""
    if isinstance(value, dict):
        parts = [f"{said(content, state, k)}: {said(content, state, v)}" for k, v in value.items() if not blank(v)]
        return "; ".join(parts) if len(parts) < 2 or not any(isinstance(v, dict) for v in value.values()) \
            else "; ".join(f"({p})" for p in parts)
    if isinstance(value, list):
        return ", ".join(said(content, state, v) for v in value) or "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return thing(content, state, value)
    return str(value)


def thing(content, state: dict, ref: str) -> str:
    if ref in state["players"]:
        return name(state, ref)
    if ref in content.tiles:
        return content.tiles[ref].name
    if ref in content.cards:
        return content.cards[ref].name
    monster = next((m for m in state.get("monsters", []) if m["id"] == ref), None)
    if monster:
        return f"{monster['name']} {monster['number']}"
    return words(ref) if ref.isidentifier() else ref


def words(key: str) -> str:
    """A record's key as words: `h02_pens` is "pens", `to_place` "to place";
    a haunt's whole record (`h12`) needs none."""
    head, _, rest = key.partition("_")
    if head[:1] == "h" and head[1:].isdigit():
        return rest.replace("_", " ")
    return key.replace("_", " ")


def sentence(text: str) -> str:
    return text if text.endswith((".", "!", "?", ".)")) else f"{text}."


def blank(value) -> bool:
    """Nothing to tell: no value, or only empty ones."""
    if isinstance(value, dict):
        return all(blank(v) for v in value.values())
    return value is None or value == [] or value == ""


def name(state: dict, pid: str) -> str:
    return state["players"][pid]["name"] if pid in state["players"] else str(pid)


def who(content, state: dict, pids: list[str]) -> str:
    """Players by name, each with their adventurer."""
    return " and ".join(f"{name(state, p)} ({content.adventurers[state['players'][p]['adventurer']].name})"
                        for p in pids)
