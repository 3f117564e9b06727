"""The registry of game systems: each is found by its short id (`babg`, ...), the way python-chess
finds a variant by name in one table. A system's package is imported the first time it is asked
for, so a shared layer never imports a system's internals itself: it holds a `GameSystem`
(bot.kit.contract) and nothing else of it.

    get("babg")            the system with that id (UnknownSystem naming the ids otherwise)
    systems()              every registered system, in the order listed
    register(system)       add one (a test's toy system, a plug-in)
"""
import importlib

from bot.kit.contract import GameSystem
from bot.kit.errors import IllegalAction

DEFAULT = "babg"  # a game stored before systems had ids is Baldur's Gate; so is a new one by default
# id -> the module whose SYSTEM is that system (imported when first asked for)
BUILT_IN = {"babg": "bot.games.babg.system", "ravenloft": "bot.games.ravenloft.system"}

_registered: dict[str, GameSystem] = {}


class UnknownSystem(IllegalAction):
    def __init__(self, wanted: str):
        super().__init__(f"There is no game {wanted!r} here: choose one of {', '.join(ids())}.")


def ids() -> list[str]:
    return list(dict.fromkeys([*BUILT_IN, *_registered]))


def register(system: GameSystem) -> GameSystem:
    _registered[system.id] = system
    return system


def unregister(system_id: str):
    _registered.pop(system_id, None)


def get(system_id: str | None) -> GameSystem:
    system_id = system_id or DEFAULT
    if system_id not in _registered:
        if system_id not in BUILT_IN:
            raise UnknownSystem(system_id)
        _registered[system_id] = importlib.import_module(BUILT_IN[system_id]).SYSTEM
    return _registered[system_id]


def systems() -> list[GameSystem]:
    return [get(i) for i in ids()]


def by_title(title: str) -> GameSystem:
    """A system named by its id or its title, as a player types it."""
    wanted = title.strip().lower()
    for s in systems():
        if wanted in (s.id.lower(), s.title.lower()):
            return s
    raise UnknownSystem(title)
