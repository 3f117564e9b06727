"""Bad content is refused at start-up in one line naming the file, the entry
and the field: by the loader, by the local table and by the bot, never with a
traceback. Each test breaks one file of a copy of rules_data/."""
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

from bot.games.babg.content import RULES_DATA, ContentError, load_content

ROOT = pathlib.Path(__file__).resolve().parents[1]


def broken(tmp_path, fname, old, new, count=1):
    """A copy of rules_data/ with `old` replaced by `new` in one file."""
    folder = tmp_path / "rules_data"
    shutil.copytree(RULES_DATA, folder)
    path = folder / fname
    text = path.read_text()
    assert old in text, f"{old!r} is no longer in {fname}: pick another spot to break"
    path.write_text(text.replace(old, new, count))
    return folder


def refused(folder) -> str:
    with pytest.raises(ContentError) as info:
        load_content(str(folder))
    message = str(info.value)
    assert "\n" not in message, message
    return message


# The four faults that used to load without a word, and a bad entry read as before.

def test_an_unknown_adventurer_in_a_traitor_pick(tmp_path):
    folder = broken(tmp_path, "traitor_table.toml", 'adventurer = "aldan"', 'adventurer = "aldann"')
    assert refused(folder) == (f"{folder}/traitor_table.toml: entry '1': field 'pick[0].adventurer': "
                               "no adventurer 'aldann'")


FIRST_TEXT = re.search(r'^text = """.*?"""\n', (RULES_DATA / "rules_topics.toml").read_text(), re.M | re.S).group()


def test_a_rules_topic_without_text(tmp_path):
    folder = broken(tmp_path, "rules_topics.toml", FIRST_TEXT, "")
    assert refused(folder) == f"{folder}/rules_topics.toml: entry 'turn': field 'text': missing"


def test_a_rules_topic_with_an_empty_text(tmp_path):
    folder = broken(tmp_path, "rules_topics.toml", FIRST_TEXT, 'text = ""\n')
    assert refused(folder) == f"{folder}/rules_topics.toml: entry 'turn': field 'text': is empty"


def test_a_negative_stairs_extra_cost(tmp_path):
    folder = broken(tmp_path, "tiles.toml", "stairs_extra_cost = 1", "stairs_extra_cost = -1")
    assert refused(folder).startswith(f"{folder}/tiles.toml: entry 'kitchen': field 'stairs_extra_cost': -1 is negative")


UNCLOSED = ("rules_topics.toml", 'id = "move"', 'id = "move')  # a string left open: the file does not parse
UNCLOSED_AT = "line {}, column".format(
    (RULES_DATA / "rules_topics.toml").read_text().split('id = "move"')[0].count("\n") + 1)


def test_a_topics_file_that_is_not_toml(tmp_path):
    folder = broken(tmp_path, *UNCLOSED)
    assert refused(folder).startswith(f"{folder}/rules_topics.toml: at {UNCLOSED_AT} ")
    assert "not valid TOML (" in refused(folder)


def test_an_old_check_names_the_folder_too(tmp_path):
    folder = broken(tmp_path, "tiles.toml", 'name = "Kitchen"\n', "")
    assert refused(folder) == f"{folder}/tiles.toml: entry 'kitchen': field 'name': missing"


def test_a_missing_file(tmp_path):
    folder = broken(tmp_path, "haunt_chart.toml", "", "")
    (folder / "haunt_chart.toml").unlink()
    assert refused(folder) == f"{folder}/haunt_chart.toml: the file is missing"


def test_the_real_topics_load():
    assert [t["id"] for t in load_content().topics][:2] == ["turn", "move"]


# Start-up: one line on stderr, exit code 1, no traceback.

def start(folder, *argv, **env):
    environ = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"} | {"RULES_DATA": str(folder)} | env
    return subprocess.run([sys.executable, "-m", "bot", *argv], input="", capture_output=True, text=True,
                          cwd=ROOT, env=environ, timeout=120)


@pytest.mark.parametrize("fname, old, new, says", [
    (*UNCLOSED, f"rules_topics.toml: at {UNCLOSED_AT} "),
    ("tiles.toml", "stairs_extra_cost = 1", "stairs_extra_cost = -1",
     "tiles.toml: entry 'kitchen': field 'stairs_extra_cost': -1 is negative"),
], ids=["broken-topics", "negative-stairs"])
def test_the_local_table_refuses_in_one_line(tmp_path, fname, old, new, says):
    done = start(broken(tmp_path, fname, old, new), "table")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("not starting: ") and says in lines[0], done.stderr
    assert "local table" not in done.stdout  # it never got as far as its welcome


def test_the_bot_refuses_in_one_line_before_the_database(tmp_path):
    folder = broken(tmp_path, *UNCLOSED)
    done = start(folder, DISCORD_TOKEN="not-a-token", DATA_DIR=str(tmp_path / "data"))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert f"CRITICAL bot.discord: not starting: {folder}/rules_topics.toml: at {UNCLOSED_AT} " in lines[0]
    assert not (tmp_path / "data").exists()  # bad content is found before the database is touched
