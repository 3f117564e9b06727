"""Seats the bot plays: built-in players who fill a table (so one or two
people can play a game made for three to six), and the stand-in who plays
an absent person's seat until they act again.

Both choose with the game system's built-in player (`builtin_action`), played fair: from the
seat's own picture of the game (its guess for the dice and the decks, no hidden traitor's name),
among the actions its buttons would offer. Their private messages are
committed like anyone's and delivered to nobody: a person who takes the
seat over later reads them, as after any handover."""
import hashlib
import random


BUILTIN = "builtin-"  # a built-in seat's id: never a Discord user's (those are digits)
PATIENCE = 60  # actions of one seat in one turn, past which it answers first options and ends its turn
STRETCH = 400  # actions in one go at most, whatever happens (a safety net; a turn takes far fewer)


def is_builtin(state: dict, pid: str | None) -> bool:
    return bool(pid) and bool((state.get("players", {}).get(pid) or {}).get("builtin"))


def builtin_seats(state: dict) -> list[str]:
    return [p for p in state.get("seats", []) if is_builtin(state, p)]


def away(settings: dict) -> list[str]:
    """The people whose seats the stand-in plays now."""
    return list(settings.get("away") or [])


def played_by_bot(state: dict, settings: dict) -> set[str]:
    """Every seat the bot plays now: built-in ones, and those of absent people."""
    return set(builtin_seats(state)) | (set(away(settings)) & set(state.get("seats", [])))


def next_id(state: dict) -> tuple[str, int]:
    """A fresh built-in seat id and its number (Built-in 1, 2...)."""
    n = 1
    while f"{BUILTIN}{n}" in state["players"]:
        n += 1
    return f"{BUILTIN}{n}", n


def seat_to_play(system, state: dict, settings: dict) -> str | None:
    """The seat the bot must act for now, if any (the system says who may act: in Baldur's Gate's
    haunt reading time every seat says Ready, in any order)."""
    return system.seat_to_play(state, played_by_bot(state, settings))


def choice_rng(seed: int, seq: int | None, turn: int) -> random.Random:
    """The bot's own chance for one choice: fixed by the game and the moment,
    so a test replays, and unrelated to the game's dice (a hash of the seed
    tells nothing about the rolls)."""
    digest = hashlib.sha256(f"{seed}:{seq}:{turn}:built-in".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def pick(system, state: dict, seat: str, rnd: random.Random, done_this_turn: int) -> dict | None:
    """The seat's action: its own choice, or, once it has taken PATIENCE actions this turn, the plainest
    way on (the system's `builtin_action` with that patience), so a seat the bot plays never keeps a
    game waiting."""
    return system.builtin_action(state, seat, rnd, done_this_turn)
