"""A channel's campaign (bot.service.chronicle) in the store, on SQLite and on PostgreSQL: the
campaigns table and a game's link to its chapter round-trip; a chapter's game that ends is written
down once; a bot stopped between the last action's commit and the chapter's writing writes it at
its next start; a campaign in one channel is not another's."""
import json

import pytest

from bot import chronicle as ch
from bot.service import GameService
from bot.service import chronicle as service_chronicle
from bot.store import open_store
from tests.pg import new_database, postgres_server  # noqa: F401

SHORT = 25  # a haunt the bot's seats finish quickly


@pytest.fixture(params=["sqlite", "postgres"])
def database(request, tmp_path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "games.db")
    return new_database(request.getfixturevalue("postgres_server"))


async def play_chapter(service: GameService, channel: str, haunt: int = SHORT, seats: int = 3):
    game = await service.new_game(channel, "guild", "ann", options={"chosen_haunt": haunt})
    for _ in range(seats):
        await service.add_builtin(channel, "ann")
    await service.act(channel, service.system(game).start_action("builtin-1"))
    for _ in range(2000):
        if await service.active_game(channel) is None:
            break
        if await service.play_builtin(channel) is None:
            break
    return await service.store.latest_game(channel)


async def test_a_campaign_and_its_chapters_round_trip(database, engine):
    service = await GameService.open(database, engine)
    service.fixed_seed = 20261122
    try:
        row = await service.chronicles.start("c1", "guild", "ann")
        assert row.record["id"] == str(row.id) and row.active
        await service.chronicles.pick_family("c1", "builtin-1", "blue", "House Gullwing")
        game = await play_chapter(service, "c1")
        assert game.campaign_id == row.id and game.chapter == 0 and game.state["phase"] == "over"
        plain = await service.new_game("c2", "guild", "ann")  # another channel: no campaign, a plain game
        assert plain.campaign_id is None and plain.chapter is None and "chronicle" not in plain.state["options"]
    finally:
        await service.close()

    store = await open_store(database)
    try:
        back = await store.active_campaign("c1")
        assert back.id == row.id and back.guild_id == "guild" and back.creator_id == "ann"
        record = back.record
        assert json.loads(json.dumps(record)) == record
        assert [c["number"] for c in record["chapters"]] == [0] and record["chapters"][0]["haunt"] == SHORT
        assert record["families"]["blue"]["name"] == "House Gullwing"
        [stored] = await store.chapter_games(row.id)
        assert (stored.id, stored.campaign_id, stored.chapter) == (game.id, row.id, 0)
        assert await store.active_campaign("c2") is None
        await store.save_campaign(row.id, record, active=False)
        assert await store.active_campaign("c1") is None
        assert (await store.campaign_by_id(row.id)).active is False
    finally:
        await store.close()


async def test_a_chapter_ended_before_it_was_written_down_is_written_at_the_next_start(database, engine, monkeypatch):
    service = await GameService.open(database, engine)
    service.fixed_seed = 7
    await service.chronicles.start("c1", "guild", "ann")

    async def stopped(*_):  # the bot stops between the last action's commit and the chapter's writing
        return None
    monkeypatch.setattr(service.chronicles, "_write_chapter", stopped)
    game = await play_chapter(service, "c1")
    assert game.state["phase"] == "over"
    assert (await service.store.active_campaign("c1")).record["chapters"] == []
    await service.close()
    monkeypatch.undo()

    for _ in range(2):  # twice: written once, by its chapter number
        again = await GameService.open(database, engine)
        try:
            row = await again.chronicles.campaign("c1")
            assert [c["number"] for c in row.record["chapters"]] == [0]
            assert row.record["chapters"][0]["haunt"] == SHORT
            assert [s["seat"] for s in row.record["chapters"][0]["seats"]] == game.state["seats"]
        finally:
            await again.close()
    # the next game is chapter 1, and never the prologue's haunt again
    again = await GameService.open(database, engine)
    try:
        nxt = await again.new_game("c1", "guild", "ann")
        assert nxt.chapter == 1 and nxt.state["options"]["chosen_haunt"] != SHORT
        assert nxt.state["options"]["chronicle"]["chapter"] == 1
    finally:
        await again.close()


async def test_a_chapter_refuses_a_haunt_already_played_and_a_plain_game_keeps_its_options(engine):
    service = GameService.in_memory(engine)
    service.fixed_seed = 3
    await service.chronicles.start("c1", None, "ann")
    await play_chapter(service, "c1")
    with pytest.raises(Exception, match="never repeats a haunt"):
        await service.new_game("c1", None, "ann", options={"chosen_haunt": SHORT})
    game = await service.new_game("c1", None, "ann", options={"rules": ["baldurs-gate"]})
    assert game.state["options"]["rules"] == [service_chronicle.HOUSE_RULES]  # the Legacy house rules
    plain = await service.new_game("elsewhere", None, "ann", options={"chosen_haunt": SHORT})
    assert plain.state["options"]["chosen_haunt"] == SHORT and plain.campaign_id is None


async def test_a_member_named_privately_comes_to_the_chapter_and_a_handover_keeps_the_family(engine):
    service = GameService.in_memory(engine)
    service.fixed_seed = 5
    await service.chronicles.start("c1", None, "ann")
    game = await service.new_game("c1", None, "ann", options={"chosen_haunt": SHORT})
    system = service.system(game)
    for _ in range(3):
        await service.add_builtin("c1", "ann")
    said = await service.chronicles.set_member("c1", "builtin-2", "Maribel", 44)
    assert "Maribel, 44" in said
    await service.act("c1", system.start_action("builtin-1"))
    state = (await service.active_game("c1")).state
    assert state["options"]["chronicle"]["seats"]["builtin-2"]["member"]["first_name"] == "Maribel"
    family = ch.family_of_player((await service.chronicles.campaign("c1")).record, "builtin-2")
    await service.act("c1", {"type": "handover", "player": "builtin-2", "to": "u42", "name": "Dara"})
    record = (await service.chronicles.campaign("c1")).record
    assert ch.family_of_player(record, "u42") == family and ch.family_of_player(record, "builtin-2") is None
    await service.set_away("c1", "u42", True)
    for _ in range(2000):
        if await service.active_game("c1") is None or await service.play_builtin("c1") is None:
            break
    record = (await service.chronicles.campaign("c1")).record
    seat = next(s for s in record["chapters"][0]["seats"] if s["seat"] == "u42")
    assert seat["family"] == family and seat["member"] == {"first_name": "Maribel", "age": 44}
