"""docs/rulings.md is one record: one row per question (its haunt and
question key), each naming a test that exists, every command it cites still
read by the table's parser (bot.games.babg.vocabulary.parse)."""
import pathlib
import re

import pytest

from bot.games.babg.engine import IllegalAction, rulesets
from bot.games.babg.engine import game  # noqa: F401  (registers the haunts' rule sets)
from bot.games.babg.vocabulary import HAUNT_VERBS, parse

ROOT = pathlib.Path(__file__).resolve().parents[1]
RULINGS = ROOT / "docs" / "rulings.md"
HEADER = "| haunt | key | question | ruling | why | test |"
VERBS = {"join", "leave", "start", "move", "roll", "use", "drop", "pickup", "trade", "choose", "decide", "power", "end",
         "undo", "task", *HAUNT_VERBS}
UNNAMED_AT_MOST = 40  # rows still naming no test (—): may only go down


def rows(text: str) -> list[dict]:
    """Every ruling row: haunt, key, question, ruling, why, test, line."""
    found, columns = [], None
    for n, line in enumerate(text.splitlines(), 1):
        if not line.startswith("|"):
            columns = None
            continue
        if line.strip() == HEADER:
            columns = [c.strip() for c in line.strip().strip("|").split("|")]
            continue
        if columns is None or set(line.replace("|", "").strip()) <= {"-"}:
            continue
        cells = [c.strip() for c in line.strip()[1:-1].split(" | ")]
        assert len(cells) == len(columns), f"line {n}: {len(cells)} cells, not {len(columns)}"
        found.append({**dict(zip(columns, cells)), "line": n})
    return found


def defined_tests() -> set[str]:
    names = set()
    for path in (ROOT / "tests").glob("test_*.py"):
        names |= set(re.findall(r"^(?:async )?def (test_\w+)", path.read_text(encoding="utf-8"), re.M))
    return names


def problems(text: str) -> list[str]:
    """What is wrong with a rulings record: questions answered twice, tests
    that do not exist, commands that no longer parse."""
    found = []
    table = rows(text)
    if not table:
        return ["no ruling rows in the record's form (" + HEADER + ")"]
    seen = {}
    for row in table:
        haunt, key = row["haunt"], row["key"]
        if not (haunt == "-" or haunt.isdigit()) or not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", key):
            found.append(f"line {row['line']}: haunt {haunt!r} and key {key!r} are not in the record's form")
        if haunt.isdigit() and not row["question"].startswith(f"Haunt {haunt}"):
            found.append(f"line {row['line']}: the question does not name haunt {haunt}")
        if (haunt, key) in seen:
            found.append(f"line {row['line']}: haunt {haunt}, question {key!r} is answered twice "
                         f"(line {seen[haunt, key]} too)")
        seen.setdefault((haunt, key), row["line"])
    names = defined_tests()
    for row in table:
        cell = row["test"]
        named = re.findall(r"`(test_\w+)`", cell)
        files = re.findall(r"tests/(test_\w+\.py)", cell)
        if cell != "—" and not named and not files:
            found.append(f"line {row['line']}: the test column names no test: {cell!r}")
        for name in named:
            if name not in names:
                found.append(f"line {row['line']}: no test called {name}")
        for name in files:
            if not (ROOT / "tests" / name).exists():
                found.append(f"line {row['line']}: no test file {name}")
    for row in table:
        for cited in re.findall(r"`([^`]+)`", " ".join(row[c] for c in ("ruling", "why", "question"))):
            why = unparsed(cited, int(row["haunt"]) if row["haunt"].isdigit() else None)
            if why:
                found.append(f"line {row['line']}: `{cited}` {why}")
    return found


def unparsed(cited: str, haunt: int | None) -> str | None:
    """Why a cited table command no longer parses (None: it does, or it is no command)."""
    words = cited.split()
    if not words or words[0] not in VERBS or words[0].startswith("/"):
        return None
    filled = [("x" if re.fullmatch(r"<[^>]+>", w) else w) for w in words]
    state = {"phase": "haunt", "haunt": {"number": haunt}, "seats": [], "players": {}, "turn": None,
             "pending": None}
    try:
        action = parse(filled, state, actor_hint="x")
    except IllegalAction as e:
        if len(words) <= 2 and "Unknown command" not in str(e):
            return None  # the command named without its arguments (`monster move`, `confirm`)
        return f"does not parse: {e}"
    if action["type"] != "task":
        return None
    if haunt is None:
        return "names a haunt move outside a haunt's row"
    move = rulesets.REGISTRY[haunt].move(action["task"]) if haunt in rulesets.REGISTRY else None
    if move is None:
        return f"names no move of haunt {haunt} ({action['task']!r})"
    rest = words[2:]
    if action.get("trait"):
        if action["trait"] not in move.traits:
            return f"rolls {action['trait']}, which {move.name} does not take"
        rest = rest[1:]
    if len(rest) != len(move.args):
        return f"gives {len(rest)} argument(s); {move.name} takes {len(move.args)}"
    return None


def test_the_rulings_record_answers_each_question_once_with_a_test_and_live_commands():
    # Rulings record (docs/rulings.md): one row per question, each naming its test; cited commands parse
    text = RULINGS.read_text(encoding="utf-8")
    assert problems(text) == []
    unnamed = [r for r in rows(text) if r["test"] == "—"]
    assert len(unnamed) <= UNNAMED_AT_MOST, f"{len(unnamed)} rulings name no test"


def planted(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


@pytest.mark.parametrize("plant, complaint", [
    ("duplicate", "answered twice"),
    ("missing test", "no test called"),
    ("old command", "names no move of haunt 13"),
    ("bad trait", "does not take"),
])
def test_a_planted_fault_is_found(tmp_path, plant, complaint):
    # Rulings record: a second row for a question already answered (haunt 43's Stickleback turn, haunt 42's win),
    # a test that does not exist and the old typed syntax are each refused
    text = RULINGS.read_text(encoding="utf-8")
    copy = tmp_path / "rulings.md"
    row = next(r for r in rows(text) if (r["haunt"], r["key"]) == ("43", "stickleback-turn"))
    line = text.splitlines()[row["line"] - 1]
    if plant == "duplicate":
        changed = line.replace("a turn of its own in the traitor's seat", "in the monster turn, the traitor's slot "
                               "skipped")
        text = planted(text, line, line + "\n" + changed)
    elif plant == "missing test":
        text = planted(text, "`test_eating_the_armour_wins`", "`test_eating_the_armour_wins_alone`")
    elif plant == "old command":
        text = planted(text, "`task creep <number> <way>`", "`task knowledge creep <number> <way>`")
    else:
        text = planted(text, "`task creep <number> <way>`", "`task creep knowledge <number> <way>`")
    copy.write_text(text, encoding="utf-8")
    assert any(complaint in p for p in problems(copy.read_text(encoding="utf-8")))
