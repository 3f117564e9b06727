"""A game database written by the bot before it hosted several games (commit 1d83f13, kept in
tests/data): it opens, its games read as Baldur's Gate's, each replays from its seed and log to the
state stored, and each plays on."""
import pathlib
import random
import shutil

from bot.games.babg import autoplay
from bot.service import GameService

STORED = pathlib.Path(__file__).with_name("data") / "games_1d83f13.db"


async def test_a_database_from_before_systems_opens_and_every_game_plays_on(tmp_path, engine):
    path = tmp_path / "games.db"
    shutil.copy(STORED, path)
    svc = await GameService.open(str(path), engine)
    games = await svc.active_games()
    assert sorted(g.channel_id for g in games) == ["c-explore", "c-haunt", "c-lobby"]
    assert {svc.system(g).id for g in games} == {"babg"}
    assert await svc.store.schema_version() >= 4  # migrated
    for game in games:
        system = svc.system(game)
        replayed, _ = system.replay(game.seed, await svc.actions(game), game.state.get("options"))
        assert replayed == game.state  # the same seed and log give the same game
    lobby = next(g for g in games if g.channel_id == "c-lobby")
    for uid, adv in (("u2", "lia"), ("u3", "gretchen")):
        await svc.act("c-lobby", {"type": "join", "player": uid, "name": uid, "adventurer": adv})
    await svc.act("c-lobby", {"type": "start", "player": lobby.creator_id})
    for channel in ("c-lobby", "c-explore", "c-haunt"):
        rnd = random.Random(channel)
        before = len(await svc.actions(await svc.game(channel)))
        for _ in range(25):
            game = await svc.latest_game(channel)
            if not game.active:
                break
            await svc.act(channel, autoplay.choose(engine.content, game.state, rnd))
        assert len(await svc.actions(await svc.latest_game(channel))) > before
    await svc.close()
