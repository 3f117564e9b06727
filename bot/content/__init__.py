"""Reading rules_data/ from disk into validated content (the engine itself
never touches files)."""
import functools
import pathlib
import tomllib

from bot.engine.content import Content, ContentError, build_content

RULES_DATA = pathlib.Path(__file__).resolve().parents[2] / "rules_data"
FILES = ("tiles.toml", "adventurers.toml", "cards/events.toml", "cards/items.toml", "cards/omens.toml",
         "haunt_chart.toml", "traitor_table.toml")


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
        raise ContentError(f"{name}: file is missing from {root}") from None
    except tomllib.TOMLDecodeError as e:
        raise ContentError(f"{name}: not valid TOML: {e}") from None


@functools.lru_cache(maxsize=None)
def load_content(root: str | None = None) -> Content:
    return build_content(read_files(pathlib.Path(root) if root else RULES_DATA))


__all__ = ["load_content", "read_files", "ContentError", "Content"]
