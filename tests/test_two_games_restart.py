"""One bot, two games side by side in two channels of one server, through the real discord.py client
against the fake Discord: Betrayal at Baldur's Gate in one channel, Castle Ravenloft in the next. A few
turns of each, then the bot stops and a new client starts on the same database; the buttons of the turn
messages posted before the stop still work, both games go on where they were (every committed action
kept, turn numbers going on), and neither channel ever shows the other game's words."""
import dataclasses
import pathlib
import random
import re

from bot.discord import turn_posts
from bot.discord.face import from_custom_id
from bot.games.babg import autoplay
from bot.games.babg.engine.legal import legal_actions
from bot.games.babg.vocabulary import from_custom_id as from_babg_id
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)
from tests.test_discord_e2e import Table, open_game, play_one
from tests.test_ravenloft_discord_people import send

RAVENLOFT_DATA = pathlib.Path(__file__).resolve().parents[1] / "rules_data" / "ravenloft"
STEPS = 6  # actions of each game before the stop, and again after it


def words(message) -> str:
    """All a channel's reader sees of a message: its text (every version of it), its buttons' and menus'
    labels, its pictures' names and captions."""
    parts = [message.text] + [str(h.get("content") or "") for h in message.history]
    for c in message.all_components():
        parts += [str(c.get(k) or "") for k in ("label", "placeholder")]
        parts += [f"{o.get('label', '')} {o.get('description', '')}" for o in c.get("options", [])]
    parts += [f"{a.filename} {a.description or ''} {a.title or ''}" for a in message.attachments]
    return "\n".join(parts)


class Channels:
    """The two games' channels and how each is played."""

    def __init__(self, t: Table, dungeon):
        self.t, self.dungeon = t, dungeon
        self.system = None
        self.rnd = random.Random(5)

    async def babg(self):
        return await self.t.bot.service.active_game(str(self.t.channel.id))

    async def ravenloft(self):
        return await self.t.bot.service.active_game(str(self.dungeon.id))

    async def step_babg(self, use_buttons: bool):
        t, game = self.t, await self.babg()
        state = game.state  # (the row is the service's own, brought up to date by the action)
        action = autoplay.choose(t.bot.content, state, self.rnd)
        if action["type"] == "trade":  # (a trade asks the other player: not this test's business)
            action = {"type": "end", "player": state["turn"]["player"]}
        handle = await play_one(t, action, game, use_buttons=use_buttons)
        after = await self.babg()
        assert after.state != state, f"{action} was refused: {handle.content}"

    async def step_ravenloft(self, use_button: bool):
        t, game = self.t, await self.ravenloft()
        state = game.state
        action = self.system.builtin_action(state, self.system.actor(state), None)
        handle, _ = await send(t, self.system, game, action, self.dungeon, use_button=use_button)
        after = await self.ravenloft()
        assert after.state != state, f"{action} was refused: {handle.content}"

    async def logged(self) -> dict:
        """Each game's committed actions and turn number."""
        service, out = self.t.bot.service, {}
        for name, game in (("babg", await self.babg()), ("ravenloft", await self.ravenloft())):
            out[name] = (game.id, await service.store.actions(game.id), service.system(game).turn_number(game.state),
                         game.state)
        return out


def old_buttons(t: Table, channel, carried) -> list[tuple]:
    """(message, custom id, action) of every button in the channel, newest message first; `carried` reads a
    custom id's action (None: not an action of the game's turn now)."""
    return [(m, custom_id, action) for m in reversed(t.s.channel_messages(channel)) for custom_id in m.custom_ids
            if (action := carried(custom_id)) is not None]


async def click_a_legal_one(t: Table, buttons: list[tuple], legal: list[dict]):
    """Click, on a turn message posted before the stop, the button of an action legal now."""
    offered = [b for b in buttons if b[2] in legal]
    assert offered, f"no button offers an action legal now: {[b[2] for b in buttons]}"
    message, custom_id, action = offered[0]
    handle = await t.s.click(t.users[t.name_of(action["player"])], message, custom_id)
    await t.handled(handle)
    await t.done()
    return handle


async def test_a_baldurs_gate_game_and_a_ravenloft_game_go_on_through_a_restart(
        fake_discord, tmp_path, engine, monkeypatch):  # noqa: F811
    t = Table(fake_discord, tmp_path)
    t.unpaced = True  # two games quickly: the channel's pace is tests/test_discord_pace.py's to check
    t.config = dataclasses.replace(t.config, builtin_pause=0.0)
    monkeypatch.setattr(turn_posts, "QUIET", 0.05)
    dungeon = fake_discord.add_channel(t.guild, "next-door")
    games = Channels(t, dungeon)
    await t.start(engine)
    games.system = t.bot.service.system_named("ravenloft")
    await open_game(t)  # Ann, Bo and Cy in Baldur's Gate
    for who, hero in (("ann", "kat"), ("bo", "thorgrim")):  # Ann and Bo in the dungeon next door too
        if who == "ann":
            h = await t.s.slash(t.users["ann"], dungeon, "game new", options={"game": "ravenloft", "adventure": "2"})
            await t.handled(h)
        h = await t.s.slash(t.users[who], dungeon, "game join", options={"hero": hero})
        await t.handled(h)
    await t.handled(await t.s.slash(t.users["bo"], dungeon, "game start"))
    await t.done()
    for step in range(STEPS):
        await games.step_babg(use_buttons=step % 2 == 0)
        await games.step_ravenloft(use_button=step % 2 == 1)
    before = await games.logged()

    await t.restart(engine)  # a new client over the same database
    games.system = t.bot.service.system_named("ravenloft")
    again = await games.logged()
    assert again == before, "nothing committed was lost, and nothing changed in the stop"

    # the turn messages posted before the stop: their buttons work
    game = await games.babg()
    state = game.state
    seat = t.bot.service.system(game).actor(state)
    handle = await click_a_legal_one(t, old_buttons(t, t.channel, lambda i: {**c.action, "player": seat} if (
        c := from_babg_id(i)) else None), legal_actions(t.bot.content, state))
    assert (await games.babg()).state != state, handle.content
    game = await games.ravenloft()
    state = game.state
    seat, turn = games.system.actor(state), games.system.turn_number(state)
    handle = await click_a_legal_one(t, old_buttons(t, dungeon, lambda i: {**c.action, "player": seat} if (
        c := from_custom_id(i)) and (c.game_id, c.turn) == (game.id, turn) else None),
        games.system.legal_actions(state, seat))
    assert (await games.ravenloft()).state != state, handle.content
    for step in range(STEPS):
        await games.step_babg(use_buttons=step % 2 == 0)
        await games.step_ravenloft(use_button=step % 2 == 0)
    await t.done()
    after = await games.logged()
    for name in ("babg", "ravenloft"):
        game_id, actions, turn, _ = before[name]
        later_id, later, later_turn, _ = after[name]
        assert later_id == game_id and later[:len(actions)] == actions, f"{name}: the log goes on from where it was"
        assert len(later) >= len(actions) + STEPS + 1 and later_turn >= turn, name

    # neither channel shows the other game's words
    seen_babg = "\n".join(words(m) for m in t.s.channel_messages(t.channel))
    seen_dungeon = "\n".join(words(m) for m in t.s.channel_messages(dungeon))
    ravenloft = games.system.content()
    heroes = [h.name for h in ravenloft.heroes.values()]
    for word in ["Castle Ravenloft", "dungeon", "monster card", "Find the Icon", "hero phase", *heroes]:
        assert not re.search(rf"\b{re.escape(word)}\b", seen_babg, re.I), f"{word!r} in the Baldur's Gate channel"
    dungeon_content = " ".join(p.read_text(encoding="utf-8") for p in RAVENLOFT_DATA.rglob("*.toml")).lower()
    tiles = [tile.name for tile in engine.content.tiles.values() if tile.name.lower() not in dungeon_content]
    adventurers = [a.name.split()[0] for a in engine.content.adventurers.values()]
    for word in ["haunt", "omen", "Baldur's Gate", "traitor", *tiles, *adventurers]:
        assert not re.search(rf"\b{re.escape(word)}\b", seen_dungeon, re.I), f"{word!r} in the Ravenloft channel"
    assert "Betrayal at Baldur's Gate" in seen_babg and "Castle Ravenloft" in seen_dungeon  # each its own
    assert not t.s.client_errors, t.s.client_errors

