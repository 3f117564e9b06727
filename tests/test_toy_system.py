"""The game-system contract, proved by a toy (tests/toy_system.py): a dice race with a secret each,
played whole through the real discord.py client against the fake Discord, and on the local table.
Nothing in the shared layers names it; they reach it through bot.kit.contract and bot.games."""
import pathlib

import pytest

from bot import games
from bot.table import PlainTable
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)
from tests.test_discord_e2e import Table
from tests.toy_system import TOY

ROOT = pathlib.Path(__file__).resolve().parents[1]
SHARED = ("bot/discord", "bot/service", "bot/store", "bot/table", "bot/kit", "bot/games/__init__.py")


@pytest.fixture
def toy():
    games.register(TOY)
    yield TOY
    games.unregister(TOY.id)


def texts(msgs) -> list[str]:
    return [m.content for m in msgs]


async def test_the_toy_plays_a_whole_game_through_the_real_client(fake_discord, tmp_path, engine, toy):  # noqa: F811
    t = Table(fake_discord, tmp_path)
    await t.start(engine)
    await t.slash("ann", "game new", options={"game": toy.id, "goal": 6})
    assert "opened a game of Dice Race" in t.s.last_message(t.channel).content
    await t.slash("ann", "game join", options={"runner": "red"})
    await t.slash("bo", "game join", options={"runner": "blue"})
    await t.slash("ann", "game start")
    await t.done()
    state = await t.state()
    ann, bo = t.uid("ann"), t.uid("bo")
    # A secret reaches its player only: each DM holds that player's lucky number, no one else's.
    for who, uid in (("ann", ann), ("bo", bo)):
        dms = " ".join(texts(t.s.dm_messages(t.users[who])))
        assert f"Your lucky number is {state['players'][uid]['lucky']}." in dms
    channel_text = " ".join(texts(t.s.channel_messages(t.channel)))
    assert "lucky number" not in channel_text
    # A Baldur's Gate command in a channel racing: the game it plays, and what to use instead.
    await t.slash("ann", "roll")
    answer = t.s.ephemeral_messages(t.users["ann"])[-1].content
    assert "This channel plays Dice Race" in answer and "Betrayal at Baldur's Gate" in answer
    # The system's own command, a take-back, and the shared /end, until someone wins.
    await t.slash("ann", "step")
    assert (await t.state())["players"][ann]["square"] == 1
    await t.slash("ann", "undo")
    assert (await t.state())["players"][ann]["square"] == 0
    for _ in range(20):
        state = await t.state() if await t.game() else None
        if state is None:
            break
        who = t.name_of(state["turn"]["player"])
        await t.slash(who, "dash")
        if await t.game() is None:
            break
        await t.slash(who, "end")
    await t.done()
    assert await t.game() is None  # over
    last = " ".join(texts(t.s.channel_messages(t.channel)[-6:]))
    assert "wins the race!" in last and "The lucky numbers were:" in last  # the end and its story


async def test_a_button_of_the_toy_does_its_action(fake_discord, tmp_path, engine, toy):  # noqa: F811
    t = Table(fake_discord, tmp_path)
    await t.start(engine)
    await t.slash("ann", "game new", options={"game": toy.id})
    await t.slash("ann", "game join", options={"runner": "red"})
    await t.slash("bo", "game join", options={"runner": "gold"})
    await t.slash("ann", "game start")
    await t.done()
    msg = next(m for m in reversed(t.s.channel_messages(t.channel)) if m.components)  # the turn's message
    ids = [c["custom_id"] for row in msg.components for c in row.get("components", [])]
    assert len(msg.components) <= 2  # two rows at most, on a phone
    step = next(i for i in ids if '"type":"step"' in i)
    await t.click("ann", step, msg)
    await t.done()
    assert (await t.state())["players"][t.uid("ann")]["square"] == 1
    await t.click("bo", next(i for i in ids if '"type":"end"' in i), msg)  # not Bo's turn: refused privately
    assert "not your turn" in t.s.ephemeral_messages(t.users["bo"])[-1].content


def test_the_toy_plays_on_the_local_table(toy):
    said = []
    table = PlainTable(toy, seed=3, out=said.append, options={"goal": 8})
    for line in ("join red as Ann", "join blue as Bo", "as Ann start", "step", "undo", "secrets Ann"):
        assert table.command(line)
    assert table.state["players"]["p1"]["square"] == 0
    assert any(f"Your lucky number is {table.state['players']['p1']['lucky']}." == s for s in said)
    assert not any("lucky number is" in s for s in said[:-1] if not s.startswith("Your"))
    for _ in range(40):
        if table.system.phase(table.state) == "over":
            break
        table.command("dash")
        if table.system.phase(table.state) != "over":
            table.command("end")
    assert table.system.phase(table.state) == "over"
    assert any("wins the race!" in s for s in said) and any("lucky numbers were" in s for s in said)


def test_no_shared_layer_names_the_toy():
    named = []
    for place in SHARED:
        path = ROOT / place
        for f in ([path] if path.is_file() else sorted(path.rglob("*.py"))):
            text = f.read_text().lower()
            if "toyrace" in text or "dice race" in text or "toy_system" in text:
                named.append(str(f.relative_to(ROOT)))
    assert named == []
