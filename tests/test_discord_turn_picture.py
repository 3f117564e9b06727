"""The turn's picture on Discord is made for a phone (#23, fault 5): each new
turn's message carries the crop around whoever acts (landscape or square),
while the game's start and `/map` show the whole city."""
import io

from PIL import Image

from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)
from tests.test_discord_e2e import Table, open_game


def size_of(attachment) -> tuple[int, int]:
    return Image.open(io.BytesIO(attachment.data)).size


async def test_a_turns_message_carries_the_phone_picture_and_map_the_whole_city(fake_discord, tmp_path, engine):
    t = Table(fake_discord, tmp_path)
    t.unpaced = True
    await t.start(engine)
    await open_game(t)
    game = await t.game()
    first = t.name_of(game.state["turn"]["player"])
    await t.slash(first, "end")
    second = (await t.game()).state["turn"]["player"]
    await t.s.wait_for(lambda: any(a.filename == "map.png" for m in t.s.channel_messages(t.channel)
                                   if f"<@{second}>" in m.content for a in m.attachments),
                       timeout=60, what="the second turn's message with its picture")
    turn_message = next(m for m in t.s.channel_messages(t.channel) if f"<@{second}>" in m.content and m.attachments)
    width, height = size_of(turn_message.attachments[0])
    assert width >= height, "the turn's picture is landscape or square"
    handle = await t.slash(first, "map")
    await t.s.wait_for(lambda: "map.png" in handle.files, timeout=60, what="the whole map from /map")
    width, height = Image.open(io.BytesIO(handle.files["map.png"])).size
    assert height > width, "/map shows the whole city, all its levels"
    start = next(m for m in t.s.channel_messages(t.channel) if "The game begins" in m.content)
    started = [a for a in start.attachments if a.filename == "map.png"]
    assert not started or size_of(started[0])[1] > size_of(started[0])[0], "the start shows the whole city"
