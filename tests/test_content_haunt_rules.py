"""`python -m bot content --haunts`: per haunt, the rules the bot carries out
and those left to the players with why, read from each rule set's
docstring, so the list cannot drift from the module that does the work."""
from bot.games.babg.content import load_content
from bot.games.babg.content.report import haunt_rules, main, module_rules, setup_by_hand

DOC = """Haunt 99, Example (Traitor's Tome).

What the bot carries out:
- the Example placed on the omen tile;
- its attack, which goes on
  over two lines.

Left to the players:
- the weather: no rule says how it is decided.

Anything after the lists is not a rule.
"""


def test_a_docstring_gives_its_rules_and_what_it_leaves():
    carried, left = module_rules(DOC)
    assert carried == ["the Example placed on the omen tile;", "its attack, which goes on over two lines."]
    assert left == ["the weather: no rule says how it is decided."]


def test_nothing_left_and_unstated_are_told_apart():
    assert module_rules("What the bot carries out: the lot.\n\nLeft to the players: nothing.") == (
        ["the lot."], ["nothing."])
    assert module_rules("What the bot carries out:\n- one thing.") == (["one thing."], None)


def test_every_rule_set_lists_what_it_carries_out_and_what_it_leaves():
    rows = [r for r in haunt_rules(load_content()) if r["module"]]
    assert len(rows) >= 26
    for row in rows:
        assert row["carried"], f"haunt {row['number']}'s module lists nothing it carries out"
        assert isinstance(row["left"], list), f"haunt {row['number']}: what it leaves comes from its code"


def test_the_command_prints_every_haunt(capsys):
    assert main(["--haunts"]) == 0
    out = capsys.readouterr().out
    for number in range(1, 51):
        assert f"\nhaunt {number}, " in out
    assert "left to the players" in out and "haunts that leave rules to the players: " in out
    assert "declared moves:" in out and "`search` (Search for Alchemist's Fire): heroes, on their turn" in out


def test_a_setup_step_left_by_hand_is_found_by_running_the_setup(monkeypatch):
    # The report runs each haunt's setup: a setup step the rule set stops carrying out shows up as left to players.
    from bot.games.babg.engine import rulesets
    content = load_content()
    assert setup_by_hand(content, 4) == []
    monkeypatch.setattr(type(rulesets.REGISTRY[4]), "setup_step", lambda self, ctx, step: None)
    left = setup_by_hand(content, 4)
    assert left and any("token" in text.lower() for text in left)


def test_the_report_lists_what_a_rule_set_declares_it_leaves(monkeypatch):
    from bot.games.babg.engine import rulesets
    monkeypatch.setattr(type(rulesets.REGISTRY[4]), "left_to_players", ("the weather: no tile says how it changes",))
    row = next(r for r in haunt_rules(load_content()) if r["number"] == 4)
    assert row["left"] == ["the weather: no tile says how it changes"]
