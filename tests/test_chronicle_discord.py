"""A Betrayal Legacy campaign (bot.chronicle) through the real discord.py client against the fake
Discord: `/chronicle start`, chapters opened with `/game new` and played by the bot's seats (built-in
ones, and the stand-in for the person), a restart between chapters and one in the middle of a
chapter, a seat handed over mid-chapter keeping its family, `/chronicle status` as an embed with its
timeline, and a second campaign in another channel that sees nothing of the first.

Four chapters here, on short haunts (ones the bot's seats finish quickly); the whole campaign of
fourteen is played on the local table (tests/test_chronicle_table.py) and, through this client with a
restart between every two chapters, by bench/chronicle_campaign.py. The private ask for each seat's
family member (its button, its form, the introduction) has its own small test below."""
import dataclasses

import pytest

from bot import chronicle as ch
from bot.discord import turn_posts
from bot.service.chronicle import FIRST_NAMES
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)
from tests.test_discord_e2e import Table

HAUNTS = (25, 27, 32, 24)  # short with the bot's seats: a chapter takes a second or two
FAMILY_NAME, MEMBER = "House Anvilheart", "Seraphine"


async def play_chapter(t, engine, haunt: int, *, restart_mid: bool = False, handover: bool = False,
                       channel=None, who: str = "ann"):
    """A chapter: `who` opens it with two built-in seats, joins, starts and lets the stand-in play."""
    channel = channel or t.channel

    async def slash(user, command, **options):
        await t.handled(await t.s.slash(t.users[user], channel, command, options=options))

    await slash(who, "game new", haunt=haunt, builtin=2, map="request")  # (no map a turn: quicker)
    game = await t.bot.service.active_game(str(channel.id))
    assert game is not None and game.campaign_id is not None
    await slash(who, "game join", adventurer=engine.free_adventurers(game.state)[0])
    await slash(who, "game start")
    await t.done()
    if handover:  # a built-in seat goes to Bo mid-chapter: its family follows the seat
        await slash(who, "game handover", to=t.users["bo"], builtin="builtin-1")
        await t.done()
        if await t.bot.service.active_game(str(channel.id)):
            await slash("bo", "game away")
    if restart_mid:
        assert await t.bot.service.active_game(str(channel.id)), "the chapter is still in play"
        await t.restart(engine)
    if await t.bot.service.active_game(str(channel.id)):
        await slash(who, "game away")
    for _ in range(200):
        await t.done()
        if await t.bot.service.active_game(str(channel.id)) is None:
            break
    assert await t.bot.service.active_game(str(channel.id)) is None, "the chapter reached its end"


@pytest.fixture(autouse=True)
def quick_edits(monkeypatch):
    """Turn messages edited without waiting for more of the same turn: the bot's seats play at once."""
    monkeypatch.setattr(turn_posts, "QUIET", 0.05)


def quick_table(server, tmp_path) -> Table:
    t = Table(server, tmp_path)
    t.config = dataclasses.replace(t.config, builtin_pause=0.0)
    t.unpaced = True  # (the channel's pace: tests/test_discord_pace.py)
    return t


def channel_text(t, channel) -> str:
    return "\n".join(m.content for m in t.s.channel_messages(channel))


async def test_a_campaign_through_the_real_client(fake_discord, tmp_path, engine):  # noqa: F811
    t = quick_table(fake_discord, tmp_path)
    await t.start(engine)
    await t.slash("ann", "chronicle start")
    assert "A chronicle begins" in t.s.last_message(t.channel).content
    await t.slash("ann", "chronicle family", options={"pick": "red", "name": FAMILY_NAME})
    await t.slash("ann", "chronicle member", options={"name": MEMBER, "age": 31})
    told = t.s.ephemeral_messages(t.users["ann"])[-1].content
    assert MEMBER in told and "31" in told  # told privately...
    assert MEMBER not in channel_text(t, t.channel)  # ...and nobody else yet

    await play_chapter(t, engine, HAUNTS[0])
    text = channel_text(t, t.channel)
    assert "the prologue begins" in text and f"plays {MEMBER}, 31, of {FAMILY_NAME}" in text  # announced at the start
    assert "the prologue is written down" in text
    await t.restart(engine)  # between chapters
    await play_chapter(t, engine, HAUNTS[1], handover=True)
    await play_chapter(t, engine, HAUNTS[2], restart_mid=True)
    await play_chapter(t, engine, HAUNTS[3])

    row = await t.bot.service.chronicles.campaign(str(t.channel.id))
    record = row.record
    chapters = record["chapters"]
    assert [c["number"] for c in chapters] == [0, 1, 2, 3]
    assert [c["haunt"] for c in chapters] == list(HAUNTS) and len({c["haunt"] for c in chapters}) == 4
    for c in chapters:
        assert c["winner"] in ("heroes", "traitor", None) and c["won_by"]
        assert len(c["seats"]) == 3
        for s in c["seats"]:
            assert s["member"]["first_name"] and s["member"]["age"]
            assert s["fate"]["line_by_bot"]
    # Ann's member came to the prologue; a survivor comes back older, a death brings a new relative.
    ann = next(s for s in chapters[0]["seats"] if s["family"] == "red")
    assert ann["member"] == {"first_name": MEMBER, "age": 31}
    # The handover in chapter 1: the seat Bo took kept its family, and the family is Bo's from then on.
    bo = t.uid("bo")
    assert record["families"]["blue"]["player"] == bo
    assert next(s for s in chapters[1]["seats"] if s["seat"] == bo)["family"] == "blue"
    # Bo did not come to chapter 2: the Blue family sat it out, and the seat the bot opened took a free family.
    assert all(s["family"] != "blue" for s in chapters[2]["seats"])
    assert next(s for s in chapters[2]["seats"] if s["seat"] == "builtin-1")["family"] == "yellow"

    # /chronicle status: an embed naming every chapter, its haunt and its seats, and the timeline picture.
    await t.slash("ann", "chronicle status")
    await t.done()
    shown = next(m for m in reversed(t.s.channel_messages(t.channel)) if m.embeds)
    embed_text = "\n".join([e.get("title", "") + e.get("description", "") + "".join(
        f["name"] + f["value"] for f in e.get("fields", [])) for e in shown.embeds])
    for c in chapters:
        assert f"**{c['title'].capitalize()}**: haunt {c['haunt']}" in embed_text
        for s in c["seats"]:
            assert s["member"]["first_name"] in embed_text
    assert FAMILY_NAME in embed_text
    assert "chronicle.png" in shown.files and shown.files["chronicle.png"][:8] == b"\x89PNG\r\n\x1a\n"
    assert not fake_discord.client_errors, fake_discord.client_errors


async def test_a_second_campaign_in_another_channel_sees_nothing_of_the_first(fake_discord, tmp_path, engine):  # noqa: F811
    t = quick_table(fake_discord, tmp_path)
    await t.start(engine)
    other = t.s.add_channel(t.guild, "second-chronicle")
    await t.slash("ann", "chronicle start")
    await t.slash("ann", "chronicle family", options={"pick": "red", "name": FAMILY_NAME})
    await t.slash("ann", "chronicle member", options={"name": MEMBER, "age": 31})
    await play_chapter(t, engine, HAUNTS[0])
    await t.slash("ann", "chronicle note", options={"text": "The lamps of Wyrm's Crossing went out at once."})

    await t.handled(await t.s.slash(t.users["cy"], other, "chronicle start"))
    await t.handled(await t.s.slash(t.users["cy"], other, "chronicle family",
                                    options={"pick": "yellow", "name": "House Lanternlow"}))
    await play_chapter(t, engine, HAUNTS[1], channel=other, who="cy")
    await t.handled(await t.s.slash(t.users["cy"], other, "chronicle status"))
    await t.done()

    first = (await t.bot.service.chronicles.campaign(str(t.channel.id))).record
    second = (await t.bot.service.chronicles.campaign(str(other.id))).record
    assert second["chapters"][0]["number"] == 0, "the second campaign has its own prologue"
    assert first["id"] != second["id"]
    own = {s["member"]["first_name"] for c in second["chapters"] for s in c["seats"]}
    names = ({FAMILY_NAME, MEMBER, "Wyrm's Crossing"} | {s["member"]["first_name"] for c in first["chapters"]
                                                       for s in c["seats"]}) - own
    seen = [m.content for m in t.s.channel_messages(other)]
    seen += [str(e) for m in t.s.channel_messages(other) for e in m.embeds]
    seen += [m.content for m in t.s.dm_messages(t.users["cy"])] + [m.content for m in t.s.ephemeral_messages(t.users["cy"])]
    leaked = sorted(n for n in names if any(n in text for text in seen))
    assert leaked == [], f"the second channel read names of the first campaign: {leaked}"
    assert not fake_discord.client_errors, fake_discord.client_errors


async def test_each_person_seated_is_asked_privately_for_a_family_member(fake_discord, tmp_path, engine):  # noqa: F811
    # Betrayal Legacy rulebook L291-L292: privately give your character a first name and an age, then introduce them
    t = quick_table(fake_discord, tmp_path)
    await t.start(engine)
    await t.slash("ann", "chronicle start")
    await t.slash("ann", "game new", options={"haunt": HAUNTS[0], "builtin": 2, "map": "request"})
    game = await t.game()
    await t.slash("bo", "game join", options={"adventurer": engine.free_adventurers(game.state)[0]})
    asked = [m for m in t.s.ephemeral_messages(t.users["bo"]) if "Name your family member" in m.content]
    assert len(asked) == 1 and "/chronicle member" in asked[0].content
    ask_id = next(c for c in asked[0].custom_ids if c.startswith("chron:member:"))
    # the ask reaches its player alone: not the channel, nor anyone else
    assert all(ask_id not in m.custom_ids for m in t.s.channel_messages(t.channel))
    for other in ("ann", "cy", "stranger"):
        assert not [m for m in t.s.visible_messages(t.users[other]) if ask_id in m.custom_ids]

    opened = await t.s.click(t.users["bo"], asked[0], ask_id)
    assert opened.modal is not None
    refused = await t.s.submit_modal(opened, {"first_name": "Mira", "age": "old"})
    await t.handled(refused)
    assert "whole number" in refused.content and "Mira" not in channel_text(t, t.channel)
    opened = await t.s.click(t.users["bo"], asked[0], ask_id)
    given = await t.s.submit_modal(opened, {"first_name": "Mira", "age": "34"})
    await t.handled(given)
    await t.done()
    assert given.ephemeral and "Mira, 34" in given.content
    record = (await t.bot.service.chronicles.campaign(str(t.channel.id))).record
    family = ch.family_words(record, ch.family_of_player(record, t.uid("bo")))
    assert f"Bo plays Mira, 34, of {family}." in channel_text(t, t.channel)  # announced once given

    # a seat handed to Cy in the lobby: Cy is asked by DM (the command was Ann's)
    await t.slash("ann", "game handover", options={"to": t.users["cy"], "builtin": "builtin-2"})
    await t.done()
    [dm] = [m for m in t.s.dm_messages(t.users["cy"]) if "Name your family member" in m.content]
    opened = await t.s.click(t.users["cy"], dm, next(c for c in dm.custom_ids if c.startswith("chron:member:")))
    await t.handled(await t.s.submit_modal(opened, {"first_name": "Tamsin", "age": "40"}))
    await t.done()
    assert "Cy plays Tamsin, 40," in channel_text(t, t.channel)  # the form from a DM still names the channel's member
    await t.slash("ann", "game join", options={"adventurer": engine.free_adventurers((await t.state()))[0]})
    await t.slash("ann", "game start")
    await t.done()
    begun = next(m.content for m in t.s.channel_messages(t.channel) if "the prologue begins" in m.content)
    assert "Bo plays Mira, 34," in begun
    built_in = next(s for p, s in (await t.state())["options"]["chronicle"]["seats"].items() if p == "builtin-1")
    assert built_in["member"]["first_name"] in FIRST_NAMES and built_in["member"]["age"]  # named by the bot
    assert f"Built-in 1 plays {built_in['member']['first_name']}, {built_in['member']['age']}," in begun
    assert not fake_discord.client_errors, fake_discord.client_errors
