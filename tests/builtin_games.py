"""A game through the fake Discord with the bot's real client: one person
(ann, her moves scripted) and built-in seats the bot plays. Shared by
tests/test_discord_builtin.py (a game or two) and bench/builtin_games.py
(a hundred): whether the game reached its end, what of the built-in seats'
secrets the person could see, and how many writes the channel took."""
import dataclasses
import random

from bot.games.babg import autoplay
from bot.discord import turn_posts
from bot.discord.pace import ChannelPace
from bot.games.babg.engine.legal import actor
from tests.test_discord_e2e import Table, busiest, channel_writes, play_one

REVEAL = "everything that was hidden"  # the end's message, which may tell every secret


@dataclasses.dataclass
class Played:
    result: dict | None
    haunt: int | None
    turns: int
    person_actions: int
    writes: int
    busiest: int  # most channel writes within one pace window
    pace: tuple[int, float]  # (writes, seconds) the channel allows
    leaks: list[str]  # a built-in seat's secret the person saw
    stalled: str | None  # why the game stopped short of its end, if it did
    traitor_builtin: bool | None = None


async def play_with_builtins(server, tmp_path, engine, builtins: int, seed: int, haunt: int | None = None,
                             max_actions: int = 1500, per: float = 0.25) -> Played:
    """1 person and `builtins` built-in seats, from /game new to the end. The
    channel keeps Discord's 5 writes per window, the window `per` seconds
    (5 s on Discord: shortened, since the person acts the moment the bot is done),
    and an edit waiting for quick clicks as much shorter."""
    quiet, turn_posts.QUIET = turn_posts.QUIET, turn_posts.QUIET * per / 5
    try:
        return await _play(server, tmp_path, engine, builtins, seed, haunt, max_actions, per)
    finally:
        turn_posts.QUIET = quiet


async def _play(server, tmp_path, engine, builtins, seed, haunt, max_actions, per) -> Played:
    t = Table(server, tmp_path)
    t.config = dataclasses.replace(t.config, builtin_pause=0.0)
    await t.start(engine)
    t.bot.service.fixed_seed = seed
    t.bot.pace = ChannelPace(writes=5, per=per)
    options = {"builtin": builtins, "map": "request"}
    if haunt:
        options["haunt"] = haunt
    await t.slash("ann", "game", subcommand="new", options=options)
    game = await t.game()
    free = engine.free_adventurers(game.state)
    await t.slash("ann", "game", subcommand="join", options={"adventurer": free[seed % len(free)]})
    await t.slash("ann", "game", subcommand="start")
    since = t.s.log[-1].at
    writes_before = channel_writes(t)
    ann = t.uid("ann")
    rnd = random.Random(seed)
    stalled, done, last = None, 0, None
    for done in range(max_actions):
        await t.done()
        game = await t.game()
        if game is None:
            break
        last = game.state
        who = actor(game.state)
        if who != ann:
            stalled = f"the game waits for {who}, not for the person"
            break
        await play_one(t, autoplay.choose(engine.content, game.state, rnd), game, use_buttons=done % 2 == 0)
    else:
        stalled = f"no end after {max_actions} of the person's actions"
    await t.done()
    final = (await t.bot.service.latest_game(str(t.channel.id))).state
    report = Played(final.get("result"), (final.get("haunt") or {}).get("number"),
                    (final.get("turn") or {}).get("number", 0), done, channel_writes(t) - writes_before,
                    busiest(t, since, per), (5, per), await leaks(t, final, ann), stalled)
    h = final.get("haunt")
    report.traitor_builtin = bool(h) and any(final["players"][p].get("builtin") for p in h["traitors"])
    if last is not None and final.get("phase") != "over" and not stalled:
        stalled = "the game did not end"
    await t.s.stop_bot(t.bot)
    return report


async def leaks(t, final: dict, person: str) -> list[str]:
    """Each private line of a built-in seat that reached the person's eyes
    (a DM, a private answer, a channel message or edit before the end's
    reveal), unless the person was told the same line privately too (as
    part of their own side's rules, say: in haunt 36 the heroes' rules and
    a built-in hero's share their paragraphs)."""
    game = await t.bot.service.latest_game(str(t.channel.id))
    own = await t.bot.service.private_lines(game, person, limit=10000)
    secret = {line for pid in final["seats"] if final["players"][pid].get("builtin")
              for line in await t.bot.service.private_lines(game, pid, limit=10000)
              if not any(line in told for told in own)}
    seen = [m.content for m in t.s.dm_messages(t.users["ann"])] + \
           [m.content for m in t.s.ephemeral_messages(t.users["ann"])]
    for e in t.s.log:  # every version of every channel message, until the reveal
        if e.kind in ("message", "edit") and e.message is not None and e.message.channel is t.channel:
            text = (e.after or {}).get("content") or ""
            if REVEAL in text:
                break
            seen.append(text)
    shown = "\n".join(seen)
    return sorted(line for line in secret if line and line in shown)
