"""A restart loses no secret: private messages (the reveal's secret tokens
and rules) are committed with their action; if the bot stops before they go
out, it sends them when it starts again, late but whole, to their owners
only. Messages that did go out are not sent twice."""
from bot.games.babg.discord import messages
from bot.discord.client import GameBot
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)
from tests.test_discord_e2e import Table, open_game
from tests.test_discord_threads import reveal, reveal_setup


async def test_secrets_the_bot_never_sent_go_out_after_a_restart(fake_discord, tmp_path, engine, monkeypatch):
    t = Table(fake_discord, tmp_path)
    await t.start(engine)
    await open_game(t)
    saved, who = await reveal_setup(t)

    async def stopped_before_sending(self, post, private, game, seq):  # the process dies between the commit and the DMs
        raise ConnectionResetError("the bot stopped here")
    monkeypatch.setattr(GameBot, "send_private", stopped_before_sending)
    await reveal(t, saved, who, sent=False)
    secrets = await reveal_secrets(t)  # each player's token: who holds token 1 is the hidden traitor
    assert sorted(secrets) == sorted(t.uid(n) for n in ("ann", "bo", "cy"))
    assert not any(token in dms(t, n) for n in ("ann", "bo", "cy") for token in secrets[t.uid(n)])
    monkeypatch.undo()

    await t.restart(engine)
    await t.s.wait_for(lambda: all(token in dms(t, n) for n in ("ann", "bo", "cy") for token in secrets[t.uid(n)]),
                       timeout=60, what="the secrets sent after the restart")
    for n in ("ann", "bo", "cy"):
        assert messages.LATE_SECRET in dms(t, n)
        theirs = [token for o in ("ann", "bo", "cy") if o != n for token in secrets[t.uid(o)]
                  if token not in secrets[t.uid(n)]]
        assert not any(token in dms(t, n) for token in theirs), "each player gets only their own"
    public = "\n".join(m.content for m in t.s.channel_messages(t.channel))
    assert not any(token in public for tokens in secrets.values() for token in tokens)

    await t.done("every part sent (the restarted bot's sending of what was undelivered is over)", summaries=True)
    sent = {n: len(t.s.dm_messages(t.users[n])) for n in ("ann", "bo", "cy")}
    await t.restart(engine)  # delivered now: another restart sends nothing again
    await t.done("the restarted bot's first work (sending what is undelivered) done", summaries=True)
    assert {n: len(t.s.dm_messages(t.users[n])) for n in ("ann", "bo", "cy")} == sent
    assert all(dms(t, n).count(messages.LATE_SECRET) == 1 for n in ("ann", "bo", "cy"))


async def test_secrets_that_went_out_are_not_sent_again(fake_discord, tmp_path, engine):
    t = Table(fake_discord, tmp_path)
    await t.start(engine)
    await open_game(t)
    saved, who = await reveal_setup(t)
    await reveal(t, saved, who)
    sent = {n: len(t.s.dm_messages(t.users[n])) for n in ("ann", "bo", "cy")}
    assert all(sent.values())
    await t.restart(engine)
    await t.done("the restarted bot's first work (sending what is undelivered) done", summaries=True)
    assert {n: len(t.s.dm_messages(t.users[n])) for n in ("ann", "bo", "cy")} == sent


def dms(t: Table, name: str) -> str:
    return "\n".join(m.content for m in t.s.dm_messages(t.users[name]))


async def reveal_secrets(t: Table) -> dict[str, list[str]]:
    """Each player's private messages from the reveal (the last action)."""
    game = await t.game()
    rows = await t.bot.service.store.undelivered(game.id, 0)
    last = max(seq for seq, _, _ in rows)
    found: dict[str, list[str]] = {}
    for seq, audience, text in rows:
        if seq == last:
            found.setdefault(audience, []).append(text.splitlines()[0])  # a line each: DMs come in parts
    return found
