"""The local table, driven the way a person would: commands typed or piped."""
import json
import os
import subprocess
import sys
import tempfile


OUT = tempfile.mkdtemp()  # pictures the scripted games save go here, not into the repo


def run_table(*args, script=""):
    env = {**os.environ, "TABLE_OUT": OUT}
    return subprocess.run([sys.executable, "-m", "bot", "table", *args], input=script, capture_output=True,
                          text=True, timeout=120, env=env)


SCRIPT = """adventurers
join torskar as Ann
join aldan as Bo
join lia as Bo
start
join gretchen as Cy
start
status
sheet Ann
map
north
fly
"""


def test_a_scripted_game_reads_like_a_table(tmp_path):
    result = run_table("--seed", "3", script=SCRIPT)
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert "Ann joins as Torskar Stonecleaver" in out
    assert "! Aldan Pyrite shares a card with Torskar Stonecleaver (Ann), so both cannot play." in out
    assert "! At least 3 players are needed to start; 2 joined so far." in out
    assert "The game begins. Player aid cards:" in out
    assert "== CITY LEVEL ==" in out and "ELFSONG" in out
    assert "! Unknown command 'fly'. Type help for the list." in out
    assert "Traceback" not in out + result.stderr


def test_script_file_and_seed_reproduce_a_game(tmp_path):
    script = tmp_path / "game.txt"
    script.write_text(SCRIPT)
    first = run_table(str(script), "--seed", "9").stdout
    second = run_table(str(script), "--seed", "9").stdout
    assert first == second


def test_auto_players_reach_the_haunt():
    out = run_table("--auto", "--seed", "4", "--players", "5").stdout
    assert "The haunt begins!" in out
    assert "Game over: haunt" in out


def test_events_as_json_lines():
    out = run_table("--auto", "--seed", "4", "--events", "json").stdout
    events = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    assert events and all({"kind", "to", "text"} <= set(e) for e in events)
    assert any(e["kind"] == "haunt" for e in events)


def test_make_run_without_token_opens_the_table():
    result = subprocess.run([sys.executable, "-m", "bot"], input="help\nquit\n", capture_output=True, text=True,
                            timeout=60, env={"PATH": "/usr/bin:/bin"})
    assert "local table" in result.stdout and "join <adventurer>" in result.stdout


def test_map_and_replay_pictures_are_saved(tmp_path):
    import os
    env = {**os.environ, "TABLE_OUT": str(tmp_path)}
    script = "join torskar as Ann\njoin lia as Bo\njoin gretchen as Cy\nstart\nnorth\nend\nmap\nreplay\n"
    out = subprocess.run([sys.executable, "-m", "bot", "table", "--seed", "3"], input=script, capture_output=True,
                         text=True, timeout=120, env=env).stdout
    png = tmp_path / "map-seed3-turn2.png"
    gif = tmp_path / "replay-seed3.gif"
    assert f"Map picture saved to {png}" in out and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"Replay saved to {gif}" in out and gif.read_bytes()[:6] == b"GIF89a"



def test_the_table_slays_a_monster(engine, tmp_path, monkeypatch):
    # The local table's toolkit: `slay <monster>` when the haunt's own rule kills it
    from bot.games.babg.engine import haunt_play
    from bot.games.babg.engine.ctx import Ctx
    from bot.games.babg.table import Table
    from tests.test_haunt_play import attack_ready
    monkeypatch.setenv("TABLE_OUT", str(tmp_path))
    said = []
    table = Table(seed=1, out=said.append)
    table.state = attack_ready(engine).state
    haunt_playing = haunt_play.add_monster(Ctx(table.content, table.state), "Wererat", "elfsong_tavern")
    name = f"Wererat {haunt_playing['number']}"
    table.command(f"as Ann slay {name}")  # the toolkit is the acting player's, on their turn
    assert any(f"takes {name} off the board" in str(line) for line in said)
    assert next(m for m in table.state["monsters"] if m["id"] == haunt_playing["id"])["dead"]
    table.command("as Ann slay")
    assert any("`slay <monster>`" in str(line) for line in said)


def test_join_without_adventurer_or_name_and_odd_numbers_are_answered_not_crashed(tmp_path, monkeypatch):
    # A probe crashed the table: `join torskar as` and `join as Ann` (ValueError unpacking the split),
    # `choose ²` (isdigit() takes it, int() does not)
    import random
    from bot.games.babg import autoplay
    from bot.games.babg.table import Table
    monkeypatch.setenv("TABLE_OUT", str(tmp_path))
    said = []
    table = Table(seed=3, out=said.append)
    for line, answer in [("join torskar as", "! Who is playing? Put a name after `as`"),
                         ("join as Ann", "! Which adventurer? `join <adventurer> as <name>`"),
                         ("join torskar as " + "x" * 40, "! That name is too long (40 characters)"),
                         ("as Bo", "! `as <name> <command>`")]:
        said.clear()
        assert table.command(line) is True
        assert len(said) == 1 and said[0].startswith(answer), (line, said)
    assert table.state["seats"] == []
    for line in ("join torskar as Ann", "join lia as Bo", "join gretchen as Cy", "start"):
        table.command(line)
    rnd = random.Random(3)
    while not table.state["pending"]:  # the built-in players play on until the game asks a question
        table.apply(autoplay.choose(table.content, table.state, rnd))
    for line, answer in [("choose ²", "! Pick one of: 1. "), ("choose ٣", "! Pick one of: 1. "),
                         ("choose 1e999", "! Pick one of: 1. "), ("choose " + "9" * 50, "! Pick one of: 1. "),
                         ("choose 99", "! There is no option 99 now: 1. "), ("choose -1", "! Options are numbered from 1."),
                         ("choose 0", "! Options are numbered from 1.")]:
        said.clear()
        state = table.state
        assert table.command(line) is True
        assert len(said) == 1 and said[0].startswith(answer) and table.state is state, (line, said)
    said.clear()
    table.command("join lia as Bo\x1b[2J")
    assert said == ["! That line has control or invisible characters: type the command in plain text."]


def test_a_claimed_win_is_answered_on_the_table(engine, tmp_path, monkeypatch):
    # Ruling: a claimed win stands when every other living player says yes
    from bot.games.babg.table import Table
    from tests.test_haunt_play import attack_ready
    monkeypatch.setenv("TABLE_OUT", str(tmp_path))
    said = []
    table = Table(seed=1, out=said.append)
    table.state = attack_ready(engine).state
    table.command("as Ann declare heroes")
    table.command("confirm yes")
    assert "Each player answers for themselves" in said[-1]
    table.command("as Bo confirm yes")
    table.command("as Cy confirm yes")
    assert table.state["phase"] == "over" and table.state["haunt"]["winner"] == "heroes"


def test_the_table_plays_through_the_service(tmp_path, monkeypatch):
    # The local table is an adapter like Discord: its game lives in a GameService (in memory), every action
    # goes through the service's door and into its log; a refused line reaches nothing.
    from bot.games.babg.table import Table, run
    monkeypatch.setenv("TABLE_OUT", str(tmp_path))
    said = []
    table = Table(seed=3, out=said.append)
    for line in ("join torskar as Ann", "join lia as Bo", "join gretchen as Cy", "start", "fly", "as Zed end"):
        table.command(line)
    game = run(table.service.active_game("table"))
    assert game.state == table.state
    assert run(table.service.actions(game)) == table.log and len(table.log) == 4
    assert said[-2:] == ["! Unknown command 'fly'. Type help for the list.",
                         "! No player called 'Zed'. Players: Ann, Bo, Cy."]
