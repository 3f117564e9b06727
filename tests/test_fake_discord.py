"""End-to-end smoke tests of tests/fake_discord: the real discord.py client
(no mocks of discord.py) talking to the fake Discord on 127.0.0.1."""

from __future__ import annotations

import asyncio
import io
import time

import aiohttp
import discord
import pytest
from discord import app_commands
from PIL import Image

from tests.fake_discord import FakeDiscord, NetworkGuardError
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (fixture)


def png_bytes(color: str = "red", size: tuple[int, int] = (12, 8)) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", size, color).save(buf, "PNG")
    return buf.getvalue()


class PressView(discord.ui.View):
    """Persistent: timeout=None and a fixed custom_id, re-added in setup_hook."""

    def __init__(self, generation: str):
        super().__init__(timeout=None)
        self.generation = generation

    @discord.ui.button(label="Press", style=discord.ButtonStyle.primary, custom_id="test:press")
    async def press(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_message(
            f"pressed by {interaction.user.name} ({self.generation})", ephemeral=True
        )


class PickView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=60)

    @discord.ui.select(
        custom_id="test:pick",
        placeholder="Pick an adventurer",
        options=[discord.SelectOption(label="Lia", value="lia"), discord.SelectOption(label="Torskar", value="torskar")],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.edit_message(content=f"{interaction.user.name} picked {select.values[0]}", view=None)


class NameModal(discord.ui.Modal, title="Name your hero"):
    hero = discord.ui.TextInput(label="Hero", custom_id="test:hero", max_length=20)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"hero is {self.hero.value}", ephemeral=True)


def make_bot(guild_id: int, generation: str = "first") -> discord.Client:
    """A small bot built like the real one: a CommandTree with a /ping command
    and a /game group, a persistent view registered in setup_hook, commands
    synced to the test guild."""
    intents = discord.Intents.default()
    intents.members = True
    client = discord.Client(intents=intents)
    tree = app_commands.CommandTree(client)
    client.forbidden_codes = []  # type: ignore[attr-defined]

    @tree.command(name="ping", description="Is the bot alive?")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"pong ({generation})")

    game = app_commands.Group(name="game", description="Game commands")

    @game.command(name="new", description="Start a new game")
    @app_commands.describe(players="How many players")
    async def new(interaction: discord.Interaction, players: app_commands.Range[int, 3, 6], name: str = "Baldur") -> None:
        board = discord.File(io.BytesIO(png_bytes()), filename="board.png")
        embed = discord.Embed(title=f"Game {name}", description=f"{players} players").set_image(url="attachment://board.png")
        await interaction.response.send_message(f"New game {name} for {players}", file=board, embed=embed)

    @game.command(name="invite", description="DM an invitation")
    async def invite(interaction: discord.Interaction, who: discord.User) -> None:
        try:
            await who.send(f"{interaction.user.name} invites you to a game")
        except discord.Forbidden as e:
            client.forbidden_codes.append(e.code)  # type: ignore[attr-defined]
            await interaction.response.send_message(f"cannot DM {who.name}", ephemeral=True)
            return
        await interaction.response.send_message(f"invited {who.name}", ephemeral=True)

    @game.command(name="roll", description="Roll dice after thinking")
    async def roll(interaction: discord.Interaction, dice: int, secret: bool = False) -> None:
        await interaction.response.defer(thinking=True, ephemeral=secret)
        await asyncio.sleep(0.01)
        await interaction.followup.send(f"rolled {dice} dice")
        await interaction.followup.send("a second follow-up", ephemeral=True)

    @game.command(name="pick", description="Pick an adventurer")
    async def pick(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Who are you?", view=PickView())

    @game.command(name="hero", description="Name your hero")
    async def hero(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())

    @game.command(name="status", description="Show and revise the status")
    async def status(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("status: loading")
        original = await interaction.original_response()
        await interaction.edit_original_response(content=original.content.replace("loading", "3 players"))
        details = await interaction.followup.send("details", wait=True)
        await details.edit(content="details (edited)")
        temporary = await interaction.followup.send("temporary", wait=True)
        await temporary.delete()

    @game.command(name="slow", description="Answers too late")
    async def slow(interaction: discord.Interaction) -> None:
        await asyncio.sleep(0.15)
        await interaction.response.send_message("too late")

    config = app_commands.Group(name="config", description="Settings")
    rules = app_commands.Group(name="rules", description="Rule variants", parent=config)

    @rules.command(name="set", description="Choose a rule variant")
    @app_commands.choices(variant=[app_commands.Choice(name="Quick", value="quick"), app_commands.Choice(name="Full", value="full")])
    async def rules_set(interaction: discord.Interaction, variant: app_commands.Choice[str]) -> None:
        await interaction.response.send_message(f"variant={variant.value}", ephemeral=True)

    tree.add_command(config)

    haunts = ["The Dark Light", "Down to the Wire", "Dark Tide"]

    @game.command(name="haunt", description="Choose a haunt")
    async def haunt(interaction: discord.Interaction, title: str) -> None:
        await interaction.response.send_message(f"haunt: {title}")

    @haunt.autocomplete("title")
    async def haunt_ac(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=h, value=h) for h in haunts if current.lower() in h.lower()]

    tree.add_command(game)

    async def setup_hook() -> None:
        client.add_view(PressView(generation))
        guild = discord.Object(id=guild_id)
        tree.copy_global_to(guild=guild)
        await tree.sync(guild=guild)

    client.setup_hook = setup_hook  # type: ignore[method-assign]
    return client


@pytest.fixture
def world(fake_discord: FakeDiscord):  # noqa: F811
    s = fake_discord
    guild = s.add_guild("Baldur's Gate")
    general = s.add_channel(guild, "general")
    locked = s.add_channel(guild, "announcements")
    s.deny_bot(locked)
    ann, bo, cy = (s.add_user(n) for n in ("ann", "bo", "cy"))
    for u in (ann, bo, cy):
        s.add_member(guild, u)
    s.close_dms(cy)
    return s, guild, general, locked, ann, bo, cy


async def test_smoke_end_to_end(world) -> None:
    s, guild, general, locked, ann, bo, cy = world
    t0 = time.monotonic()
    client = await s.start_bot(make_bot(guild.id))

    # discord.py cached the guild, its text channels and members from GUILD_CREATE
    dguild = client.get_guild(guild.id)
    assert dguild is not None and dguild.name == "Baldur's Gate"
    assert {c.name for c in dguild.text_channels} == {"general", "announcements"}
    assert {m.name for m in dguild.members} >= {"ann", "bo", "cy", s.bot_user.name}
    # discord.py 2.7 asks for zlib-stream (zstd-stream if a zstd module is installed); frames are compressed
    assert s.gateway.connection_log[-1] == (discord.utils._ActiveDecompressionContext.COMPRESSION_TYPE, True)
    synced = {c["name"] for c in s.commands[guild.id].values()}
    assert synced == {"ping", "game", "config"}

    # /ping
    ping = await s.slash(ann, general, "ping")
    assert ping.callback_type == 4 and ping.content == "pong (first)"
    assert not ping.ephemeral and ping.message in s.channel_messages(general)
    assert ping.payload["data"]["id"] == next(str(i) for i, c in s.commands[guild.id].items() if c["name"] == "ping")

    # /game new with a PNG attachment
    new = await s.slash(ann, general, "game", subcommand="new", options={"players": 4, "name": "Tyr"})
    assert new.content == "New game Tyr for 4"
    [att] = new.message.attachments
    assert att.filename == "board.png" and att.content_type == "image/png" and att.data == png_bytes()
    assert new.message.payload()["attachments"][0]["width"] == 12
    assert new.message.embeds[0]["image"]["url"] == att.url  # attachment:// resolved like Discord does
    assert "4 players" in new.message.text

    # option validation happens in the fake, like the Discord client would
    with pytest.raises(ValueError):
        await s.slash(ann, general, "game new", options={"players": 9})

    # the bot posts a message with the persistent button; bo clicks it
    channel = client.get_channel(general.id)
    sent = await channel.send("Join the table", view=PressView("first"))
    stored = s.messages[sent.id]
    assert stored.custom_ids == ["test:press"] and stored.buttons[0]["label"] == "Press"
    press = await s.click(bo, stored, "test:press")
    assert press.content == "pressed by bo (first)" and press.ephemeral
    assert press.message in s.ephemeral_messages(bo)
    assert press.message not in s.visible_messages(ann)
    assert press.message not in s.channel_messages(general)
    assert press.message in s.visible_messages(bo, general)

    # DMs: closed for cy (50007 inside the bot), open for bo
    inv = await s.slash(ann, general, "game invite", options={"who": cy})
    assert inv.content == "cannot DM cy" and inv.ephemeral
    assert client.forbidden_codes == [50007]
    inv = await s.slash(ann, general, "game invite", options={"who": bo})
    assert inv.content == "invited bo"
    assert [m.content for m in s.dm_messages(bo)] == ["ann invites you to a game"]
    assert s.dm_messages(bo)[0].visible_to(bo) and not s.dm_messages(bo)[0].visible_to(ann)
    with pytest.raises(discord.Forbidden) as exc:
        await client.get_user(cy.id).send("hello?")
    assert exc.value.code == 50007 and exc.value.status == 403

    # a channel where the bot lacks permission
    with pytest.raises(discord.Forbidden) as exc:
        await client.get_channel(locked.id).send("hear ye")
    assert exc.value.code == 50013
    assert s.channel_messages(locked) == []

    # edits and pins are recorded
    await sent.edit(content="Join the table (2 seats left)")
    await sent.pin()
    assert stored.content == "Join the table (2 seats left)" and stored.history[0]["content"] == "Join the table"
    assert s.edits[-1].before["content"] == "Join the table"
    assert [m.id for m in s.pins(general)] == [sent.id]
    assert [m.id async for m in channel.pins()] == [sent.id]
    await sent.unpin()
    assert s.pins(general) == []

    # a file sent to a channel (multipart on /channels/{id}/messages), then deleted
    with_file = await channel.send("the map", file=discord.File(io.BytesIO(png_bytes("blue")), filename="map.png"))
    assert s.messages[with_file.id].files == {"map.png": png_bytes("blue")}
    assert await with_file.attachments[0].read() == png_bytes("blue")  # served by the fake "CDN"
    await with_file.delete()
    assert s.messages[with_file.id].deleted and s.deletions[-1].message.id == with_file.id
    assert (await client.fetch_channel(general.id)).name == "general"

    assert s.client_errors == [] and s.unhandled == [] and s.blocked == []
    assert time.monotonic() - t0 < 3


async def test_restart_keeps_persistent_view(world) -> None:
    s, guild, general, locked, ann, bo, cy = world
    first = await s.start_bot(make_bot(guild.id, "first"))
    msg = await first.get_channel(general.id).send("Press me", view=PressView("first"))
    assert (await s.click(ann, msg.id, "test:press")).content == "pressed by ann (first)"
    await s.stop_bot(first)
    assert first.is_closed() and not s.gateway.ready_sessions()

    second = await s.start_bot(make_bot(guild.id, "second"))
    assert s.gateway.identifies == 2
    press = await s.click(bo, msg.id, "test:press")  # the old message, the new process
    assert press.content == "pressed by bo (second)" and press.ephemeral
    assert press.message.ephemeral_to is bo
    assert (await s.slash(ann, general, "ping")).content == "pong (second)"
    assert s.client_errors == []


async def test_deferred_followups_and_ephemeral_defer(world) -> None:
    s, guild, general, locked, ann, bo, cy = world
    await s.start_bot(make_bot(guild.id))

    roll = await s.slash(ann, general, "game roll", options={"dice": 3})
    assert roll.callback_type == 5
    await roll.wait_followups(1)
    msg = await roll.wait_loaded()
    # the first follow-up after a defer fills in the "thinking" message
    assert msg.content == "rolled 3 dice" and not msg.ephemeral
    assert [m.content for m in roll.followups] == ["a second follow-up"]
    assert roll.followups[0].ephemeral_to is ann

    secret = await s.slash(bo, general, "game roll", options={"dice": 2, "secret": True})
    await secret.wait_followups(1)
    # ...and keeps the defer's ephemerality even though followup.send() was public
    assert secret.message.content == "rolled 2 dice" and secret.message.ephemeral
    assert secret.message in s.ephemeral_messages(bo) and secret.message not in s.visible_messages(ann)


async def test_edit_original_followup_edit_and_delete(world) -> None:
    s, guild, general, locked, ann, bo, cy = world
    await s.start_bot(make_bot(guild.id))
    status = await s.slash(ann, general, "game status")
    await status.wait_until(lambda i: len(i.followups) == 2 and i.followups[1].deleted)
    assert status.message.content == "status: 3 players"
    assert status.message.history[0]["content"] == "status: loading"
    assert [m.content for m in status.messages] == ["status: 3 players", "details (edited)"]
    assert [e.after["content"] for e in s.edits] == ["status: 3 players", "details (edited)"]
    assert [m.content for m in s.channel_messages(general)] == ["status: 3 players", "details (edited)"]


async def test_subcommand_group_choices_and_context_rules(world) -> None:
    s, guild, general, locked, ann, bo, cy = world
    await s.start_bot(make_bot(guild.id))
    r = await s.slash(bo, general, "config rules set", options={"variant": "Full"})  # by choice name
    assert r.content == "variant=full" and r.ephemeral
    opts = r.payload["data"]["options"]
    assert opts[0]["type"] == 2 and opts[0]["options"][0]["type"] == 1
    with pytest.raises(ValueError):
        await s.slash(bo, general, "config rules set", options={"variant": "chaos"})
    with pytest.raises(LookupError):  # only synced to the guild: not usable in DMs
        await s.slash(bo, None, "ping")
    # interactions in a channel where the bot cannot post still work (as on Discord)
    assert (await s.slash(bo, locked, "ping")).content == "pong (first)"


async def test_late_response_gets_unknown_interaction(world) -> None:
    s, guild, general, locked, ann, bo, cy = world
    s.interaction_deadline = 0.05  # Discord's is 3 s
    await s.start_bot(make_bot(guild.id))
    slow = await s.slash(ann, general, "game slow", wait=False)
    await slow.wait_until(lambda i: i.errors)
    assert slow.errors[0].code == 10062 and not slow.responded
    await s.wait_for(lambda: s.client_errors, what="the bot to log the NotFound")
    assert "10062" in s.client_errors[-1]


async def test_select_modal_autocomplete(world) -> None:
    s, guild, general, locked, ann, bo, cy = world
    await s.start_bot(make_bot(guild.id))

    pick = await s.slash(ann, general, "game pick")
    chosen = await s.select(bo, pick.message, "test:pick", ["torskar"])
    assert chosen.callback_type == 7 and chosen.message is pick.message
    assert pick.message.content == "bo picked torskar" and pick.message.components == []
    assert s.edits[-1].message is pick.message

    hero = await s.slash(ann, general, "game hero")
    assert hero.callback_type == 9 and hero.modal["title"] == "Name your hero"
    submitted = await s.submit_modal(hero, {"test:hero": "Minsc"})
    assert submitted.content == "hero is Minsc" and submitted.ephemeral

    ac = await s.autocomplete(ann, general, "game haunt", options={"title": "dark"}, focused="title")
    assert [c["name"] for c in ac.choices] == ["The Dark Light", "Dark Tide"]
    done = await s.slash(ann, general, "game haunt", options={"title": "Dark Tide"})
    assert done.content == "haunt: Dark Tide"


async def test_rate_limit_is_retried(world) -> None:
    s, guild, general, locked, ann, bo, cy = world
    client = await s.start_bot(make_bot(guild.id))
    s.rate_limit_next(retry_after=0.05)
    t = time.monotonic()
    msg = await client.get_channel(general.id).send("after a 429")
    assert time.monotonic() - t >= 0.05
    sends = [r.status for r in s.requests if r.method == "POST" and r.path.endswith("/messages")]
    assert sends[-2:] == [429, 200]
    assert s.messages[msg.id].content == "after a 429"


async def test_gateway_resume_and_events(world) -> None:
    s, guild, general, locked, ann, bo, cy = world
    client = await s.start_bot(make_bot(guild.id))
    resumed = asyncio.ensure_future(client.wait_for("resumed", timeout=3))
    await s.gateway_reconnect()
    await resumed
    assert s.gateway.resumes == 1 and s.gateway.identifies == 1
    # a dropped connection (close code 4000) is resumed too; events sent meanwhile are replayed
    resumed = asyncio.ensure_future(client.wait_for("resumed", timeout=3))
    await s.gateway_drop()
    late = s.add_channel(guild, "late-channel")
    await resumed
    assert s.gateway.resumes == 2 and s.gateway.identifies == 1
    await s.wait_for(lambda: client.get_channel(late.id), what="CHANNEL_CREATE replayed on RESUME")
    # a member added while connected reaches the cache through GUILD_MEMBER_ADD
    di = s.add_user("di")
    s.add_member(guild, di)
    assert (await s.slash(di, general, "ping")).content == "pong (first)"
    assert client.get_guild(guild.id).get_member(di.id) is not None
    # a user writes in the channel: MESSAGE_CREATE, content hidden without the message_content intent
    got = asyncio.ensure_future(client.wait_for("message", check=lambda m: m.author.id == di.id, timeout=3))
    await s.post(di, general, "hello bot")
    message = await got
    assert message.channel.id == general.id and message.content == ""


async def test_private_threads(world) -> None:
    """A private thread of a text channel, as discord.py creates one: its
    messages are seen by its members (and moderators), nobody else."""
    s, guild, general, locked, ann, bo, cy = world
    stranger = s.add_user("stranger")
    s.add_member(guild, stranger)
    mod = s.add_user("mod")
    s.add_member(guild, mod, roles=[s.add_role(guild, "Moderators", manage_threads=True)])
    client = await s.start_bot(make_bot(guild.id))
    joined = []

    @client.event
    async def on_thread_member_join(member):
        joined.append(member.id)

    channel = client.get_channel(general.id)
    thread = await channel.create_thread(name="Secrets: Ann", invitable=False, auto_archive_duration=10080)
    assert isinstance(thread, discord.Thread) and thread.type == discord.ChannelType.private_thread
    assert thread.parent_id == general.id and not thread.invitable and thread.owner_id == client.user.id
    fake = s.channels[thread.id]
    assert fake in s.threads(general) and fake.is_thread and fake.members.keys() == {client.user.id}
    await s.wait_for(lambda: client.get_guild(guild.id).get_thread(thread.id), what="THREAD_CREATE in the cache")

    await thread.add_user(ann)  # PUT /channels/{thread}/thread-members/{user}
    await thread.add_user(ann)  # again: nothing changes
    assert set(fake.members) == {client.user.id, ann.id}
    sent = await thread.send("Your token shows 3.")
    stored = s.messages[sent.id]
    assert stored.channel is fake and stored.content == "Your token shows 3."
    assert stored.visible_to(ann) and stored in s.visible_messages(ann, fake)
    for other in (bo, stranger):
        assert not stored.visible_to(other) and stored not in s.visible_messages(other)
    assert stored.visible_to(mod), "Manage Threads sees private threads"
    assert stored not in s.channel_messages(general)
    fetched = await client.fetch_channel(thread.id)  # GET /channels/{thread}
    assert isinstance(fetched, discord.Thread) and fetched.name == "Secrets: Ann" and fetched.message_count == 1

    # validation like Discord's
    with pytest.raises(discord.HTTPException) as exc:
        await channel.create_thread(name="x" * 101)
    assert exc.value.status == 400 and exc.value.code == 50035
    with pytest.raises(discord.NotFound) as exc:
        await thread.add_user(discord.Object(12345))  # nobody in the guild
    assert exc.value.code == 10007
    s.set_permissions(general, s.bot_user, deny=["create_private_threads"])
    await s.settle()
    with pytest.raises(discord.Forbidden) as exc:
        await channel.create_thread(name="Secrets: Bo")
    assert exc.value.code == 50013
    s.set_permissions(general, s.bot_user, deny=["send_messages_in_threads"])
    await s.settle()
    with pytest.raises(discord.Forbidden):
        await thread.send("not allowed")
    s.set_permissions(general, s.bot_user)

    # an archived thread: a message unarchives it; a locked one refuses; a deleted one is unknown
    s.archive_thread(fake)
    await thread.send("still here")
    assert not fake.archived
    s.archive_thread(fake, locked=True)
    with pytest.raises(discord.HTTPException) as exc:
        await thread.add_user(bo)
    assert exc.value.code == 50083
    s.delete_channel(fake)
    with pytest.raises(discord.NotFound):
        await client.fetch_channel(thread.id)

    # after a restart the bot's active threads arrive with GUILD_CREATE
    other = await channel.create_thread(name="Secrets: Cy")
    await s.stop_bot(client)
    again = await s.start_bot(make_bot(guild.id, "second"))
    assert again.get_guild(guild.id).get_thread(other.id) is not None
    assert joined == [ann.id]
    assert s.client_errors == [] and not s.unhandled


async def test_network_guard_blocks_real_discord(fake_discord: FakeDiscord) -> None:  # noqa: F811
    assert discord.http.Route.BASE == fake_discord.api_base
    assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == fake_discord.gateway_url
    async with aiohttp.ClientSession() as session:
        with pytest.raises(NetworkGuardError):
            await session.get("https://discord.com/api/v10/gateway")
    assert fake_discord.blocked == ["GET https://discord.com/api/v10/gateway"]
    fake_discord.blocked.clear()


async def test_patches_are_restored() -> None:
    before = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY, aiohttp.ClientSession._request)
    async with FakeDiscord() as server:
        assert discord.http.Route.BASE == server.api_base
    after = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY, aiohttp.ClientSession._request)
    assert after == before and before[0] == "https://discord.com/api/v10"
