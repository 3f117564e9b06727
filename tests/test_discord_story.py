"""The game's story through the real client: a finished hidden-traitor game
posts everything that was hidden, and nothing of it shows while the game is
in play."""
import random

from bot.games.babg import autoplay
from bot.discord.pace import ChannelPace
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)
from tests.test_discord_e2e import Table, play_one

HIDDEN = 19  # Thick as Thieves: a hidden traitor


async def test_a_finished_hidden_traitor_game_posts_the_reveal(fake_discord, tmp_path, engine):
    t = Table(fake_discord, tmp_path)
    await t.start(engine)
    t.bot.pace = ChannelPace(writes=5, per=0.5)
    await t.slash("ann", "game", subcommand="new", options={"haunt": HIDDEN})
    for who, adv in (("ann", "torskar"), ("bo", "lia"), ("cy", "gretchen")):
        await t.slash(who, "game", subcommand="join", options={"adventurer": adv})
    await t.slash("bo", "game", subcommand="start")
    game = await t.game()
    # Played on by the built-in players off the channel, to the action before the end, then that last
    # action through the client.
    rnd, state, last = random.Random(3), game.state, None
    for _ in range(3000):
        action = autoplay.choose(engine.content, state, rnd)
        after, _ = engine.apply(state, action)
        if after["phase"] == "over":
            last = action
            break
        state = after
    assert last is not None and state["haunt"]["number"] == HIDDEN
    traitor = state["haunt"]["traitors"][0]
    await t.bot.service.overwrite_state(game, state)
    await t.s.wait_for(t.bot.turn_posts.idle, timeout=60, what="the bot done posting")
    before = "\n".join(m.content for m in t.s.channel_messages(t.channel))
    assert "everything that was hidden" not in before and "The hidden traitor was" not in before
    await play_one(t, last, await t.game(), use_buttons=False)
    assert await t.game() is None, "the game is over"
    name = state["players"][traitor]["name"]
    await t.s.wait_for(lambda: any("everything that was hidden" in m.content
                                   for m in t.s.channel_messages(t.channel)), timeout=60, what="the reveal")
    public = "\n".join(m.content for m in t.s.channel_messages(t.channel))
    assert f"traitor was {name}" in public, public[-1500:]
    tokens = state["haunt"]["hidden_tokens"]
    for pid, number in tokens.items():
        assert f"{state['players'][pid]['name']} {number}" in public  # every player's traitor token
    for pid, p in state["players"].items():
        assert f"{p['name']} (" in public  # each player's cards at the end
