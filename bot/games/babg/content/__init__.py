"""Reading rules_data/ from disk into validated content (the engine itself
never touches files)."""
import functools
import os
import pathlib
import re
import tomllib

from bot.games.babg.engine.content import Content, ContentError, build_content

# RULES_DATA in the environment reads another copy of the folder (an edit tried
# before it goes in; the tests' broken copies).
RULES_DATA = pathlib.Path(os.environ.get("RULES_DATA") or pathlib.Path(__file__).resolve().parents[4] / "rules_data")
FILES = ("tiles.toml", "adventurers.toml", "cards/events.toml", "cards/items.toml", "cards/omens.toml",
         "haunt_chart.toml", "traitor_table.toml", "rules_topics.toml")


def read_files(root: pathlib.Path = RULES_DATA) -> dict:
    raw = {}
    for name in FILES:
        raw[name] = _read(root, name)
    for path in sorted((root / "haunts").glob("[0-9][0-9]_*.toml")):
        raw[f"haunts/{path.name}"] = _read(root, f"haunts/{path.name}")
    return raw


def _read(root: pathlib.Path, name: str) -> dict:
    try:
        with open(root / name, "rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        raise ContentError(f"{name}: the file is missing") from None
    except OSError as e:
        raise ContentError(f"{name}: cannot be read ({e.strerror or e})") from None
    except tomllib.TOMLDecodeError as e:
        # a file that does not parse has no entries yet: its line and column stand for them
        what, where = re.fullmatch(r"(.*?)(?: \(at (.*)\))?", str(e), re.S).groups()
        raise ContentError(f"{name}: at {where or '?'}: not valid TOML ({what})") from None


@functools.lru_cache(maxsize=None)
def load_content(root: str | None = None) -> Content:
    """The content of the folder (default RULES_DATA); a ContentError names
    the file by its path from there, which build_content cannot know."""
    folder = pathlib.Path(root) if root else RULES_DATA
    try:
        return build_content(read_files(folder))
    except ContentError as e:
        raise ContentError(f"{_shown(folder)}/{e}") from None


def _shown(path: pathlib.Path) -> str:
    """A path as typed at the terminal: from the working folder when inside it."""
    try:
        return str(path.resolve().relative_to(pathlib.Path.cwd()))
    except ValueError:
        return str(path)


__all__ = ["load_content", "read_files", "ContentError", "Content", "RULES_DATA"]
