"""`python -m bot content --haunts`: per haunt, the rules the bot carries out
and those left to the players with why, read from each rule set's
docstring, so the list cannot drift from the module that does the work."""
from bot.content import load_content
from bot.content.report import haunt_rules, main, module_rules

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
        assert row["left"] is not None, f"haunt {row['number']}'s module does not say what it leaves to players"


def test_the_command_prints_every_haunt(capsys):
    assert main(["--haunts"]) == 0
    out = capsys.readouterr().out
    for number in range(1, 51):
        assert f"\nhaunt {number}, " in out
    assert "left to the players" in out and "haunts that leave rules to the players or do not say" in out
