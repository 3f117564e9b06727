"""The local table takes any typed line: random and hostile lines, at any
point of a game, never crash it, keep the game's state strict JSON, and a line
the table refuses (one `! reason` line) leaves the game exactly as it was."""
import json
import random
import re

import pytest
from hypothesis import HealthCheck, given, note, settings, strategies as st

from bot.games.babg import autoplay
from bot.games.babg.table import HELP, SHORT_WAYS, TRAIT_WORDS, Table

NAMES = ("Ann", "Bo", "Cy")
SEATS = ("join torskar as Ann", "join lia as Bo", "join gretchen as Cy")
VERBS = ("join", "leave", "start", "move", "roll", "use", "drop", "pickup", "trade", "power", "choose", "decide",
         "end", "ready", "rules", "attack", "trait", "monster", "counter", "token", "task", "slay", "declare",
         "part2", "unmask", "sheet", "status", "map", "replay", "adventurers", "help", "as", *SHORT_WAYS)
# The words that steer the parser, and what people type as numbers - with what
# only looks like one to str.isdigit() or int().
KEYWORDS = ("as", "with", "reckless", "move", "attack", "place", "remove", "traitor", "heroes", *TRAIT_WORDS, *NAMES)
NUMBERS = ("0", "1", "2", "3", "-1", "+1", "+2", "=5", "=-2", "=", "-", "99999999999", "1" * 5000, "²", "٣", "①",
           "1e999", "nan", "inf", "-inf", "0x10", "1_000", "1.5", "½")
HOSTILE = ("", "\x00", "\x1b[31m", "\x7f", "\u200b", "\u202e", "\ufeff", "\U0001F600", "İ", "ß", "#", "`", "'",
           '"', "\\", "%s", "{}", "None", "null", "Zed", "x" * 40, "y" * 400)


def vocabulary(table: Table) -> list[str]:
    """Every word the table knows, plus the names in play right now: the words
    of HELP, adventurers, players, the cards held, the monsters, the options
    of a pending question."""
    s, c = table.state, table.content
    words = set(re.findall(r"[a-z][a-z0-9]*", HELP)) | set(SHORT_WAYS) | set(KEYWORDS)
    words |= set(c.adventurers) | {w for a in c.adventurers.values() for w in a.name.split()}
    words |= {n.lower() for n in NAMES}
    for p in s["players"].values():
        words |= {w for card in p.get("cards", []) if card in c.cards for w in c.cards[card].name.split()}
    for m in s.get("monsters") or []:
        words |= {m["name"], str(m["number"])}
    if s.get("pending"):
        words |= {w for o in s["pending"]["options"] for w in str(o).split()}
    return sorted(words)


def lines(vocab: list[str]):
    """Typed lines: mostly a verb and some words, also `as <name> ...`, any
    unicode, control characters and very long lines."""
    word = st.one_of(st.sampled_from(KEYWORDS), st.sampled_from(NUMBERS), st.sampled_from(KEYWORDS + NUMBERS),
                     st.sampled_from(vocab), st.sampled_from(HOSTILE))
    sep = st.sampled_from([" ", " ", " ", "  ", "\t", "\u3000", "\x1c"])
    command = st.builds(lambda v, ws, s: s.join([v, *ws]), st.sampled_from(VERBS + ("quit",)),
                        st.lists(word, max_size=5), sep)
    acting = st.builds(lambda name, c: f"as {name} {c}", st.sampled_from(NAMES + ("Zed", "as", "")), command)
    return st.one_of(
        command, command, command, acting,
        st.builds(" ".join, st.lists(word, max_size=6)),
        st.text(max_size=40),                                                   # any unicode
        st.text(st.characters(categories=["Cc", "Cf", "Zs", "Nd", "No"]), max_size=20),
        st.builds(lambda c, n: c * n, command, st.integers(2, 300)),          # very long lines
        st.builds(lambda c, t: f"{c} {t}", command, st.text(max_size=30)),
    )


@pytest.fixture(scope="module")
def table_out(tmp_path_factory):
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TABLE_OUT", str(tmp_path_factory.mktemp("table")))
        yield


def new_table(seed: int) -> tuple[Table, list]:
    said = []
    table = Table(seed=seed, out=said.append)
    # The pictures are the renderer's business (tests/test_table.py saves them); here `map` and
    # `replay` go through the parser and the text map without drawing, to keep the fuzz fast.
    table.save_map = lambda: "map.png"
    table.save_replay = lambda: "replay.gif"
    for line in SEATS:
        assert table.command(line) is True
    return table, said


def play(table: Table, rnd: random.Random):
    """The built-in players' moves, one at a time."""
    while (action := autoplay.choose(table.content, table.state, rnd)) is not None:
        table.apply(action)
        yield


def strict_json(state: dict) -> str:
    dumped = json.dumps(state, allow_nan=False, sort_keys=True)
    assert json.loads(dumped) == state
    return dumped


def type_line(table: Table, said: list, line: str) -> bool:
    """Type one line and check what the table did with it."""
    before, logged = strict_json(table.state), len(table.log)
    said.clear()
    result = table.command(line)
    assert result is True or result is False
    after = strict_json(table.state)
    if said and said[0].startswith("! "):
        assert len(said) == 1 and "\n" not in said[0], f"a refusal is one `! reason` line: {said}"
        assert after == before and len(table.log) == logged, f"the refused line {line!r} changed the game"
    return result


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 16), steps=st.integers(-15, 300), data=st.data())
def test_no_typed_line_crashes_the_table_and_a_refused_line_changes_nothing(table_out, seed, steps, data):
    table, said = new_table(seed)
    if steps >= 0:  # started, then `steps` built-in moves in; negative: still in the lobby
        table.command("start")
        for _, _ in zip(range(steps), play(table, random.Random(seed))):
            pass
    note(f"phase {table.state['phase']}, pending {bool(table.state['pending'])}")
    for line in data.draw(st.lists(lines(vocabulary(table)), min_size=1, max_size=20), label="lines"):
        if type_line(table, said, line) is False:  # quit: the table closes
            break


def milestones(seed: int):
    """A table at each kind of moment one game goes through: the lobby, a turn,
    a pending question, the haunt waiting for `ready`, a haunt turn, the
    monster turn, the end."""
    table, said = new_table(seed)
    seen = set()

    def moment():
        s = table.state
        h, turn = s.get("haunt") or {}, s.get("turn") or {}
        return s["phase"], bool(s["pending"]), h.get("started"), bool(turn.get("monsters"))

    yield moment(), table, said
    table.command("start")
    for _ in play(table, random.Random(seed)):
        if moment() not in seen:
            seen.add(moment())
            yield moment(), table, said
    yield moment(), table, said


ODD = KEYWORDS + NUMBERS + HOSTILE + ("Wererat", "Potion of Healing")


@pytest.mark.parametrize("seed", [43])  # seed 43: three players meet every moment, the monster turn included
def test_every_command_with_odd_words_at_every_moment_of_a_game(table_out, seed):
    """The sweep the random lines may miss: each verb with each odd word, alone,
    with `as` before or after it, and said for someone else."""
    moments = []
    for moment, table, said in milestones(seed):
        moments.append(moment)
        state, log, secrets = table.state, list(table.log), {k: list(v) for k, v in table.secrets.items()}
        before = strict_json(state)
        for verb in VERBS:
            for odd in ODD:
                for line in (f"{verb} {odd}", f"{verb} {odd} as", f"{verb} as {odd}", f"as Bo {verb} {odd}"):
                    said.clear()
                    result = table.command(line)
                    assert result is True or result is False
                    if table.state is not state:  # applied: a new state, still strict JSON
                        strict_json(table.state)
                    if said and said[0].startswith("! "):
                        assert len(said) == 1 and "\n" not in said[0], f"a refusal is one `! reason` line: {said}"
                        assert table.state is state and table.log == log, f"the refused {line!r} changed the game"
                    table.state, table.log[:] = state, log  # back to the moment for the next line
                    table.secrets = {k: list(v) for k, v in secrets.items()}
        assert strict_json(state) == before, "a command changed the game's state in place"
    assert ("haunt", False, True, True) in moments, "the sweep should reach a monster turn"
