"""The local table's options (--seed, --haunt, --rules, --avoid-repeats with
--played) and `--verify SEED LOG`: a finished game checked from its seed and
log; a tampered log is rejected with the first roll that does not match."""
import json
import random

import pytest

from bot.games.babg.table import Table, auto_game, main


@pytest.fixture(autouse=True)
def out_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("TABLE_OUT", str(tmp_path))
    return tmp_path


def finished_table(seed=11, **options) -> Table:
    t = Table(seed, out=lambda *a: None, options=options)
    auto_game(t, 4, random.Random(seed), 3000)
    assert t.state["phase"] == "over"
    return t


def test_flags_play_a_chosen_haunt_with_house_rules(capsys):
    assert main(["--seed", "11", "--haunt", "4", "--rules", "legacy-house-rules", "--auto", "--players", "4"]) == 0
    out = capsys.readouterr().out
    assert "the table chose haunt 4" in out and 'haunt 4, "' in out


def test_bad_flags_get_a_short_answer(capsys):
    assert main(["--haunt", "99", "--auto"]) == 2
    assert "no haunt 99" in capsys.readouterr().out
    assert main(["--avoid-repeats", "--played", "x", "--auto"]) == 2


def test_avoid_repeats_on_the_table():
    # Rulebook (000 L407-415): Optional Rule: Selecting the Haunt (the table is told what was played)
    t = Table(5, out=lambda *a: None, options={"avoid_repeats": True, "played": [18, 3]})
    assert t.state["options"]["avoid_repeats"] and t.state["options"]["played"] == [3, 18]


def test_rules_house_and_the_log_without_the_seed(tmp_path):
    lines = []
    t = Table(7, out=lines.append)
    for line in ("join torskar as Ann", "join lia as Bo", "join gretchen as Cy", "start", "rules house", "log"):
        t.command(line)
    assert any("under its own deck" in x for x in lines)
    log = json.loads((tmp_path / "log-game-seed7.json").read_text())
    assert log["seed"] is None and log["commitment"]


def test_verify_a_finished_game_and_reject_a_tampered_log(tmp_path, capsys):
    t = finished_table(rules=["legacy-house-rules"])
    path = t.save_log()
    log = json.loads(open(path).read())
    assert log["seed"] == 11
    assert main(["--verify", "11", path]) == 0
    assert "Verified." in capsys.readouterr().out
    entry = next(a for a in log["actions"] if len(a["rolls"]) and a["rolls"][0])
    entry["rolls"][0] = [2 if f != 2 else 0 for f in entry["rolls"][0]]
    first = sum(len(a["rolls"]) for a in log["actions"][:log["actions"].index(entry)]) + 1
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(log))
    assert main(["--verify", "11", str(bad)]) == 1
    out = capsys.readouterr().out
    assert f"Rejected. Roll {first} (action {entry['n']}" in out and "does not match" in out
    assert main(["--verify", "12", path]) == 1
    assert "does not match the commitment" in capsys.readouterr().out
    assert main(["--verify", "x", path]) == 2


def test_a_tampered_card_draw_is_rejected():
    t = finished_table()
    log = json.loads(open(t.save_log()).read())
    entry = next(a for a in log["actions"] if a["cards"])
    entry["cards"][0] = "not_a_card"
    ok, lines = t.service.verify(11, log)
    assert not ok and "of a card" in lines[0] and "not_a_card" in lines[0]


def test_several_auto_games_of_one_haunt_each_close_with_winner_and_reason(capsys):
    # `--auto --haunt N --games K --events json`: every game's closing events name the winner and the condition
    # that ended it (a data win's `when`, a haunt rule, every hero dead, declared, or the action limit)
    assert main(["--auto", "--haunt", "4", "--seed", "3", "--games", "3", "--events", "json"]) == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    closings = [e for e in events if e["kind"] == "over" and "reason" in e]
    headlines = [e for e in closings if e["text"].startswith(("The heroes", "The traitor", "The haunt ends", "Stopped"))]
    assert len(headlines) == 3
    assert all(e["reason"] in ("counter_at", "every hero dead", "haunt rule", "action_limit") for e in closings)
    assert all(e["to"] == "all" for e in closings)


def test_several_auto_games_sum_up_in_text(capsys):
    assert main(["--auto", "--haunt", "4", "--seed", "3", "--games", "2", "--max-actions", "40"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("game 1 (seed 3): haunt") and out[1].startswith("game 2 (seed 4)")
    assert out[-1].startswith("2 games: ") and "heroes won" in out[-1]
