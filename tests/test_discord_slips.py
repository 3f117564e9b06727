"""End to end through the real discord.py client: what a player reads when
they ask for their secret rules before the haunt (the forgiving table, #8)."""
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)
from tests.test_discord_e2e import Table, open_game


async def test_haunt_rules_before_the_haunt_says_when_they_will_come(fake_discord, tmp_path, engine):
    t = Table(fake_discord, tmp_path)
    await t.start(engine)
    await open_game(t)
    h = await t.slash("bo", "haunt", subcommand="rules")
    assert h.ephemeral and "The haunt has not begun yet" in h.content, h.content
    assert "/haunt rules" in h.content and "no private messages" not in h.content
    assert h.message in t.s.visible_messages(t.users["bo"])
    assert h.message not in t.s.visible_messages(t.users["ann"])
