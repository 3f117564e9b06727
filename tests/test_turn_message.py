"""The turn message: what a turn said, edited in place, and who acts now.
Only events for everyone reach it; a player's own events go to that player."""
from bot.games.babg.discord import messages
from bot.discord.turn_posts import lines_of
from tests.conftest import Game


def test_a_turn_message_shows_only_public_lines_and_who_acts(engine):
    g = Game(engine)
    before = g.state
    g.do("move", g.state["turn"]["player"], way="west")
    events = [*g.events, {"kind": "secret", "to": "bo", "text": "Your token shows the traitor."}]
    d = messages.deliver(engine.content, before, g.state, events)
    body = messages.turn_text(d.said, d.tail)
    assert "Your token shows" not in body and d.private == {"bo": ["Your token shows the traitor."]}
    assert body.endswith(d.tail) and d.said and all(line in body for line in d.said)


def test_a_long_turn_keeps_its_newest_lines_within_a_message():
    lines = [f"line {i} " + "x" * 80 for i in range(100)]
    body = messages.turn_text(lines, "<@1>, it is your turn.")
    assert len(body) <= messages.LIMIT and body.startswith("…") and "line 99" in body and "line 0 " not in body
    assert body.endswith("<@1>, it is your turn.")


def test_a_line_longer_than_a_message_keeps_its_beginning():
    body = messages.turn_text(["Ann moves west.", "The villain phase: " + "y" * 2500], "<@1>, it is your turn.")
    assert len(body) <= messages.LIMIT and body.startswith("The villain phase: yyy") and "…" in body
    assert body.endswith("<@1>, it is your turn.")


def test_after_a_restart_the_message_goes_on_without_its_old_prompt():
    assert lines_of("Ann moves west.\n(Ann: 3 of 4 spaces left.)") == ["Ann moves west."]
    assert lines_of("Ann moves west.\n<@1>, it is your turn: /move") == ["Ann moves west."]
    assert lines_of("Ann moves west.") == ["Ann moves west."]
