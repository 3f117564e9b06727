"""End to end through the real discord.py client: a server's admins choose
where players' secrets go (/server secrets). With private threads, each
player's secrets land in a private thread of the game's channel, one per
player and game, seen by that player only (and the bot), reused for the
rest of the game and after a restart; when a thread cannot be opened, the
secret comes by DM, then by the secret button."""
import copy

from tests.conftest import arrange_hidden_traitor_reveal
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)
from tests.test_discord_e2e import Table, open_game

PLAYERS = ("ann", "bo", "cy")


def with_admin(t: Table, perm: str = "manage_guild"):
    """A server member who may choose the server's settings (not a player)."""
    admin = t.s.add_user(f"admin_{perm}")
    t.s.add_member(t.guild, admin, roles=[t.s.add_role(t.guild, f"Admins {perm}", **{perm: True})])
    t.users[admin.name] = admin
    return admin.name


async def reveal_setup(t: Table) -> tuple[dict, str]:
    """The last omen about to be drawn: the Whispering Skull on the Arcane
    Retreat (haunt 19, a hidden traitor), so that ending the turn reveals the
    haunt and sends every player a secret token. Returns the state to put
    back for another reveal, and who ends the turn."""
    game = await t.game()
    s = game.state
    pid = arrange_hidden_traitor_reveal(s)
    return copy.deepcopy(s), t.name_of(pid)


async def reveal(t: Table, saved: dict, who: str, sent: bool = True):
    """Put the moment before the reveal in place and end the turn: every player gets a secret
    (`sent`: the bot is expected to send them now)."""
    await t.put_state(await t.game(), copy.deepcopy(saved))
    h = await t.slash(who, "end")
    assert (await t.state())["phase"] == "haunt", h.content
    game = await t.game()
    # Wait on the event itself, not on a quiet spell: the bot marks the action's secrets delivered once every
    # one of them is out (thread, DM or the secret button), however slow the machine.
    if sent:
        await t.s.wait_for(lambda: game.seq and game.delivered >= game.seq, timeout=60, what="the secrets sent")
    await t.done()
    return h


def secrets_in(t: Table, thread) -> list:
    return [m for m in t.s.channel_messages(thread) if "Your token shows" in m.content]


def thread_of(t: Table, name: str):
    found = [th for th in t.s.threads(t.channel) if th.name == f"Secrets: {name.capitalize()}"]
    assert len(found) == 1, (name, t.s.threads(t.channel))
    return found[0]


async def test_an_admin_chooses_private_threads_and_others_are_refused(fake_discord, tmp_path, engine):
    t = Table(fake_discord, tmp_path)
    admin, mod = with_admin(t), with_admin(t, "manage_channels")
    await t.start(engine)
    h = await t.slash("ann", "server secrets")
    assert h.ephemeral and "On this server, secrets (side rules, hidden tokens, private cards) go by direct " \
                          "message." in h.content
    assert h.message in t.s.visible_messages(t.users["ann"]) and h.message not in t.s.visible_messages(t.users["bo"])
    h = await t.slash("bo", "server secrets", options={"where": "threads"})  # no Manage Server or Channels
    assert h.ephemeral and "Only someone with Manage Server or Manage Channels can choose" in h.content
    assert h.message in t.s.visible_messages(t.users["bo"])
    assert all(h.message not in t.s.visible_messages(t.users[n]) for n in ("ann", "cy", "stranger", admin))
    assert (await t.bot.service.guild_settings(str(t.guild.id)))["secrets"] == "dm", "nothing changed"

    h = await t.slash(admin, "server secrets", options={"where": "private threads"})
    assert not h.ephemeral and "each player's secrets go to a private thread of the game's channel" in h.content
    assert "lack" not in h.content, "the bot may open private threads here"
    assert h.message in t.s.channel_messages(t.channel), "the table sees where its secrets will go"
    assert (await t.bot.service.guild_settings(str(t.guild.id)))["secrets"] == "threads"
    h = await t.slash("cy", "help")
    assert h.ephemeral and h.content.endswith("Here: private threads.") and len(h.content) <= 2000
    h = await t.slash(mod, "server secrets", options={"where": "dm"})  # Manage Channels is enough
    assert not h.ephemeral and "secrets come by direct message" in h.content
    h = await t.slash("cy", "help")
    assert h.content.endswith("Here: DMs.")
    await t.restart(engine)  # the choice is kept
    await t.slash(admin, "server secrets", options={"where": "threads"})
    await t.restart(engine)
    h = await t.slash("ann", "server secrets")
    assert "in a private thread for each player" in h.content
    assert not t.s.client_errors, t.s.client_errors


async def test_each_players_secrets_land_in_their_own_private_thread(fake_discord, tmp_path, engine):
    t = Table(fake_discord, tmp_path)
    admin = with_admin(t)
    await t.start(engine)
    await t.slash(admin, "server secrets", options={"where": "threads"})
    await open_game(t)
    await t.done()
    assert not any(t.s.dm_messages(t.users[n]) for n in PLAYERS), "no DM check when threads can be opened"
    saved, who = await reveal_setup(t)

    await reveal(t, saved, who)  # the first secret: each player's token (and their side's rules)
    threads = {n: thread_of(t, n) for n in PLAYERS}
    assert len(t.s.threads(t.channel)) == 3, "one thread per player"
    game = await t.game()
    for name, thread in threads.items():
        user = t.users[name]
        assert thread.type == 12 and not thread.invitable, "private, and nobody can invite others"
        assert set(thread.members) == {t.s.bot_user.id, user.id}
        said = secrets_in(t, thread)
        assert len(said) == 1 and f"<@{user.id}>, this private thread holds your secrets" in said[0].content
        token = game.state["haunt"]["hidden_tokens"][t.uid(name)]
        assert said[0].visible_to(user) and said[0] in t.s.visible_messages(user, thread)
        for other in (*PLAYERS, "stranger", admin):
            if other != name:
                assert not said[0].visible_to(t.users[other]), f"{other} reads {name}'s secret"
                assert not t.s.visible_messages(t.users[other], thread)
        assert user.id in said[0].pinged["users"], "the player is pinged to their thread"
        assert str(token) in said[0].content or "token" in said[0].content
        assert not t.s.dm_messages(user), "nothing by DM"
    public = "\n".join(m.content for m in t.s.channel_messages(t.channel))
    assert "Your token shows" not in public and "You are the hidden traitor" not in public
    assert "could not send you" not in public

    await reveal(t, saved, who)  # a second secret: the same threads
    assert len(t.s.threads(t.channel)) == 3
    for name, thread in threads.items():
        said = secrets_in(t, thread)
        assert len(said) == 2 and said[1].content.startswith(f"<@{t.uid(name)}>\n"), said[1].content
        assert all(not m.visible_to(t.users[o]) for m in said for o in PLAYERS if o != name)

    await t.restart(engine)  # a third, after a restart: still the same threads (their ids are stored)
    await reveal(t, saved, who)
    assert len(t.s.threads(t.channel)) == 3
    for name, thread in threads.items():
        assert len(secrets_in(t, thread)) == 3
        assert not t.s.dm_messages(t.users[name])

    t.s.delete_channel(threads["bo"])  # a moderator deletes Bo's thread: the next secret opens another
    await reveal(t, saved, who)
    renewed = thread_of(t, "bo")
    assert renewed is not threads["bo"] and len(secrets_in(t, renewed)) == 1
    assert secrets_in(t, renewed)[0].visible_to(t.users["bo"]) and not secrets_in(t, renewed)[0].visible_to(
        t.users["ann"])
    assert not t.s.client_errors, t.s.client_errors


async def test_without_thread_permissions_secrets_fall_back_to_dms_then_the_button(fake_discord, tmp_path, engine):
    t = Table(fake_discord, tmp_path, closed_dms=("cy",))
    admin = with_admin(t)
    t.s.set_permissions(t.channel, t.s.bot_user, deny=["create_private_threads"])
    await t.start(engine)
    h = await t.slash(admin, "server secrets", options={"where": "threads"})
    assert "In this channel I lack Create Private Threads or Send Messages in Threads" in h.content
    start = await open_game(t)
    await start.wait_until(lambda h: any("cannot send you private" in m.content for m in h.followups), timeout=60)
    assert any("Private things" in m.content for m in t.s.dm_messages(t.users["ann"])), "the DM check runs"
    saved, who = await reveal_setup(t)
    h = await reveal(t, saved, who)
    assert not t.s.threads(t.channel), "no thread could be opened"
    for name in ("ann", "bo"):
        dms = [m for m in t.s.dm_messages(t.users[name]) if "Your token shows" in m.content]
        assert dms and dms[0].visible_to(t.users[name])
        assert not any(dms[0].visible_to(t.users[o]) for o in PLAYERS if o != name)
    fallback = [m for m in t.s.channel_messages(t.channel) if "could not send you a private message" in m.content]
    assert fallback and f"<@{t.uid('cy')}>" in fallback[0].content
    press = await t.click("cy", "bgv:secret", message=fallback[0])
    assert press.ephemeral and "Your token shows" in press.content
    assert press.message in t.s.visible_messages(t.users["cy"])
    assert all(press.message not in t.s.visible_messages(t.users[o]) for o in ("ann", "bo", "stranger"))

    # Threads may be opened, but the bot may not write in them: the thread stays empty, the secret comes by DM
    t.s.set_permissions(t.channel, t.s.bot_user, deny=["send_messages_in_threads"])
    await t.s.wait_for(lambda: not t.bot.get_channel(t.channel.id).permissions_for(
        t.bot.get_guild(t.guild.id).me).send_messages_in_threads, timeout=60, what="the bot told of the new permissions")
    await reveal(t, saved, who)
    for name in ("ann", "bo"):
        assert len([m for m in t.s.dm_messages(t.users[name]) if "Your token shows" in m.content]) == 2
    assert all(not t.s.channel_messages(th) for th in t.s.threads(t.channel))
    public = "\n".join(m.content for m in t.s.channel_messages(t.channel))
    assert "Your token shows" not in public
    assert not t.s.client_errors, t.s.client_errors
