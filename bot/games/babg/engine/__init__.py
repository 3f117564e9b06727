"""The rules engine: plain Python, no I/O.

State is a JSON-serialisable dict; `Engine.apply(state, action)` returns a new
state and the events it produced. All chance comes from the RNG kept in the
state, so a game replays exactly from its seed and its action log.
"""
from .errors import IllegalAction
from .game import Engine

__all__ = ["Engine", "IllegalAction"]
