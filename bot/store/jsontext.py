"""A game's state as JSON text, read and written with orjson (several times
the standard library's speed: a state is read back and written again with
every action).

What the store keeps is the same data the standard library would keep: the
engine's state is plain dicts, lists, strings, ints, booleans and None
(bot.games.babg.engine.state), keys in the order they were made. The differences, and
why they do not matter here:
- The text has no spaces and leaves non-ASCII characters as they are (json
  writes \\u escapes): both are the same JSON to SQLite's and PostgreSQL's JSON
  functions, and nothing compares, hashes or shows the stored text itself.
- A key that is not a string (never in a state) is written as json writes it,
  "1" for 1 (OPT_NON_STR_KEYS, tried only when plain dumps refuses).
- orjson refuses an int beyond 64 bits, and a string holding a lone surrogate,
  with a TypeError where json would have written them: the commit fails
  loudly rather than saving what orjson would read back otherwise. (The
  engine's largest int is its 64-bit dice state; its strings are checked
  printable or cleaned of surrogates at its door.)
- orjson writes NaN and infinities as null; the engine has no floats at all.
- Reading, orjson refuses NaN, Infinity and lone surrogate escapes, which json
  may have written into a row before: such text is read again with json, so
  every stored text the standard library could read still reads the same
  (and text that is not JSON still raises ValueError). One exception that no
  error shows: orjson reads an int beyond 64 bits as a float; no text this
  module writes holds one, nor any state the engine makes.

The action log and the games' settings stay on the standard library: they are
small, and hold what callers sent (an action is kept as given, a setting may
be a float)."""
import json

import orjson


def dumps(state) -> str:
    """The state as JSON text (str, for the TEXT column)."""
    try:
        return orjson.dumps(state).decode()
    except orjson.JSONEncodeError:  # a key that is not a string (OPT_NON_STR_KEYS costs twice the time), or worse
        return orjson.dumps(state, option=orjson.OPT_NON_STR_KEYS).decode()


def loads(text: str | bytes):
    """The data of JSON text, as json.loads gives it."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:  # NaN, Infinity, a lone surrogate: what json wrote and orjson will not read
        return json.loads(text)
