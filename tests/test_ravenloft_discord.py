"""Castle Ravenloft on Discord, through the real discord.py client against the fake Discord: a game
opened with /game new game:, heroes joined, a hero phase played with the shared verbs, and a whole
adventure played by one person beside built-in heroes. A Baldur's Gate game in the next channel sees
none of it."""
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)
from tests.test_discord_e2e import Table


async def test_a_ravenloft_game_on_discord_beside_a_baldurs_gate_game(fake_discord, tmp_path, engine):  # noqa: F811
    t = Table(fake_discord, tmp_path)
    other = fake_discord.add_channel(t.guild, "betrayal-2")
    await t.start(engine)
    await t.slash("ann", "game new", options={"game": "ravenloft", "adventure": "1", "builtin": 0})
    assert "opened a game of Castle Ravenloft" in t.s.last_message(t.channel).content
    await t.slash("ann", "game join", options={"hero": "kat"})
    await t.slash("ann", "game start")
    await t.done()
    state = await t.state()
    assert state["phase"] == "play"
    msg = next(m for m in reversed(t.s.channel_messages(t.channel)) if m.components)
    assert len(msg.components) <= 2
    ann = t.uid("ann")
    legal = t.bot.service.system(await t.game()).legal_actions(state, ann)
    move = next(a for a in legal if a["type"] == "move")
    await t.slash("ann", "move", options={"square": move["to"]})
    assert (await t.state())["players"][ann]["square"] == move["to"]
    # a Baldur's Gate game in another channel of the same server, at the same time
    handle = await t.s.slash(t.users["bo"], other, "game new")
    await t.handled(handle)
    assert "Betrayal at Baldur's Gate" in t.s.last_message(other).content
    await t.slash("ann", "roll")  # Baldur's Gate's own command, in the dungeon's channel
    assert "This channel plays Castle Ravenloft" in t.s.ephemeral_messages(t.users["ann"])[-1].content
    words = " ".join(m.content for m in t.s.channel_messages(other))
    assert "Ravenloft" not in words and "Kat" not in words
