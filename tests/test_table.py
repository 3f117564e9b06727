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
    from bot.engine import haunt_play
    from bot.engine.ctx import Ctx
    from bot.table import Table
    from tests.test_haunt_play import attack_ready
    monkeypatch.setenv("TABLE_OUT", str(tmp_path))
    said = []
    table = Table(seed=1, out=said.append)
    table.state = attack_ready(engine).state
    haunt_playing = haunt_play.add_monster(Ctx(table.content, table.state), "Wererat", "elfsong_tavern")
    table.command("as Cy slay Wererat 1")
    assert any("takes Wererat 1 off the board" in str(line) for line in said)
    assert table.state["monsters"][0]["id"] == haunt_playing["id"] and table.state["monsters"][0]["dead"]
    table.command("as Cy slay")
    assert any("`slay <monster>`" in str(line) for line in said)
