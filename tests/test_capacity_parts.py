"""The parts that keep a thousand games quick (bench/discord_load.py
measures them together): the map worker's queue, the PNG writer, views
freed without the garbage collector, games kept as text between actions,
and discord.py's bucket sweep at a constant cost."""
import asyncio
import gc
import io
import multiprocessing
import os
import threading
import weakref
import zlib
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import discord
import discord.http
import pytest
from PIL import Image, ImageChops, ImageStat

from bot.games.babg.discord import views
from bot.discord.client import GameBot, yield_cpu
from bot.discord.map_queue import MapQueue
from bot.discord.at_scale import FLOOR, let_go, sweep_when_doubled
from bot.games.babg.render import encode_png, render_image
from bot.render import png
from bot.games.babg.render.demo import played
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)


# --- the map worker's queue -----------------------------------------------------------

async def until(condition, timeout: float = 60.0):
    """Let the event loop run until condition() holds (a state the tasks reach, not a guessed time)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0)


def held_render(held: str, gate: threading.Event, drawn: list):
    """A render that notes what it drew and holds the worker on `held` until the gate opens."""
    def render(name):
        if name == held:
            gate.wait(60)
        drawn.append(name)
        return name
    return render


async def test_the_worker_draws_the_newest_map_first_and_never_one_whose_turn_gave_up():
    gate, drawn = threading.Event(), []
    render = held_render("first", gate, drawn)
    with ThreadPoolExecutor(1) as executor:
        queue = MapQueue(executor)
        first = asyncio.create_task(queue.draw(render, "first", wait=60))
        await until(lambda: queue.drawing)  # the worker is busy with it
        expired = asyncio.create_task(queue.draw(render, "expired", wait=0.05))
        older = asyncio.create_task(queue.draw(render, "older", wait=60))
        newer = asyncio.create_task(queue.draw(render, "newer", wait=60))
        assert await expired is None  # its turn went on without it
        gate.set()
        assert (await first, await newer, await older) == ("first", "newer", "older")
    assert drawn == ["first", "newer", "older"], "newest first; the one given up on is never drawn"


async def test_a_map_someone_asked_for_goes_before_the_turns_maps():
    gate, drawn = threading.Event(), []
    render = held_render("busy", gate, drawn)
    with ThreadPoolExecutor(1) as executor:
        queue = MapQueue(executor)
        busy = asyncio.create_task(queue.draw(render, "busy", wait=60))
        await until(lambda: queue.drawing)
        turn = asyncio.create_task(queue.draw(render, "turn", wait=60))
        asked = asyncio.create_task(queue.draw(render, "asked", asked=True))  # /map
        await until(lambda: len(queue.waiting) == 2)  # both wait behind it
        gate.set()
        await asyncio.gather(busy, turn, asked)
    assert drawn == ["busy", "asked", "turn"]


async def test_a_failed_render_reaches_the_one_waiting_and_the_queue_goes_on():
    def render(name):
        if name == "bad":
            raise ValueError("no picture")
        return name

    with ThreadPoolExecutor(1) as executor:
        queue = MapQueue(executor)
        with pytest.raises(ValueError):
            await queue.draw(render, "bad", wait=5)
        assert await queue.draw(render, "good", wait=5) == "good"


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="Linux's idle scheduling class")
def test_the_map_worker_draws_only_with_cpu_time_nothing_else_wants():
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork"), initializer=yield_cpu) as worker:
        assert worker.submit(os.sched_getscheduler, 0).result(30) == os.SCHED_IDLE


def test_the_bot_starts_its_map_worker_that_way(monkeypatch):
    monkeypatch.undo()  # (tests/conftest.py starts it at the usual priority for every other test)
    assert GameBot.start_renderer is yield_cpu


# --- the PNG writer ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def picture(content, engine):
    return render_image(content, played(engine, seed=3, actions=40, players=3))


def test_the_map_png_is_a_paletted_picture_true_to_what_was_drawn(picture):
    data = encode_png(picture)
    decoded = Image.open(io.BytesIO(data))
    assert data.startswith(png.SIGNATURE) and decoded.mode == "P" and decoded.size == picture.size
    # The palette is chosen from the picture: on average each channel within 2 levels of what was drawn,
    # antialiased edges within a fifth of the range.
    difference = ImageChops.difference(decoded.convert("RGB"), picture)
    assert max(ImageStat.Stat(difference).mean) < 2
    assert max(high for _, high in difference.getextrema()) <= 51


def test_without_isal_zlib_writes_the_same_picture(picture, monkeypatch):
    paletted = picture.quantize(256, method=Image.Quantize.FASTOCTREE)
    fast = png.paletted_png(paletted)
    monkeypatch.setattr(png, "_deflate", zlib)
    slow = png.paletted_png(paletted, 6)
    assert Image.open(io.BytesIO(fast)).tobytes() == Image.open(io.BytesIO(slow)).tobytes() == paletted.tobytes()


def test_only_a_paletted_picture_is_written(picture):
    with pytest.raises(ValueError, match="paletted"):
        png.paletted_png(picture)


# --- views freed as soon as they are dropped ---------------------------------------------

async def test_a_turn_view_is_freed_when_dropped_without_the_garbage_collector(content, engine):
    state = played(engine, seed=3, actions=12, players=3)
    gc.collect()
    gc.disable()
    try:
        view, _ = views.turn_controls(content, state, 7)
        assert view.children and not view.is_dispatchable()  # discord.py keeps no copy of it
        view.to_components()
        gone = weakref.ref(view)
        items = [weakref.ref(item) for item in view.children]
        del view
        assert gone() is None and all(item() is None for item in items)
    finally:
        gc.enable()


async def test_an_item_still_knows_its_view_while_the_view_lives(content, engine):
    view, _ = views.turn_controls(content, played(engine, seed=3, actions=12, players=3), 7)
    item = view.children[0]
    assert item.view.children == view.children


# --- games in play kept as text -----------------------------------------------------------

async def test_a_game_in_play_is_kept_as_the_text_just_committed(tmp_path, engine):
    from bot.service import GameService
    service = await GameService.open(str(tmp_path / "games.db"), engine)
    try:
        await service.new_game("c", "g", "u1", seed=5)
        for uid, adventurer in (("u1", "torskar"), ("u2", "lia"), ("u3", "gretchen")):
            await service.act("c", {"type": "join", "player": uid, "name": uid.upper(), "adventurer": adventurer})
        await service.act("c", {"type": "start", "player": "u1"})
        game = await service.active_game("c")
        outcome = await service.act("c", {"type": "end", "player": game.state["turn"]["player"]})
        kept = service.playing["c"]
        held = [o for o in gc.get_referents(kept.__dict__) if isinstance(o, (dict, list))]
        assert held == [kept.settings], "no dict or list of the state is held between actions"
        assert kept.state == outcome.state  # read back from its text when needed
        reopened = await GameService.open(str(tmp_path / "games.db"), engine)
        assert (await reopened.active_game("c")).state == kept.state
        await reopened.close()
    finally:
        await service.close()


# --- discord.py's bucket sweep -------------------------------------------------------------

async def test_stale_buckets_are_swept_at_a_constant_cost_a_request(monkeypatch):
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    sweep_when_doubled(http)
    checked = []
    original = discord.http.Ratelimit.is_inactive
    monkeypatch.setattr(discord.http.Ratelimit, "is_inactive", lambda self: checked.append(1) or original(self))
    for n in range(FLOOR):
        http.get_ratelimit(f"old:{n}")
    for bucket in http._buckets.values():
        bucket._last_request -= 301  # unused for over five minutes
    for n in range(20 * FLOOR):
        http.get_ratelimit(f"new:{n}")
    assert not any(key.startswith("old:") for key in http._buckets), "the stale buckets went"
    assert len(checked) < 4 * 21 * FLOOR, f"{len(checked)} buckets looked at for {21 * FLOOR} added"
    assert len(http._buckets) == 20 * FLOOR
    await http.close()


# --- interactions let go of once handled ----------------------------------------------------

async def test_a_handled_interaction_is_freed_without_the_garbage_collector(fake_discord, tmp_path, engine,
                                                                            monkeypatch):
    from bot.discord import client as discord_client
    from tests.test_discord_e2e import Table, open_game
    t = Table(fake_discord, tmp_path)
    t.unpaced = True
    await t.start(engine)
    await open_game(t)
    handled = {}  # the interaction's snowflake -> the id of the bot's object for it

    def noted(interaction):  # (an Interaction takes no weak reference: its object's id is noted)
        let_go(interaction)
        handled[interaction.id] = id(interaction)
    monkeypatch.setattr(discord_client, "let_go", noted)
    gc.collect()
    gc.disable()
    try:
        game = await t.game()
        current = t.name_of(game.state["turn"]["player"])
        mine = [await t.slash(current, "end"),  # a command that plays
                await t.slash(current, "rules", options={"topic": "haunt_roll"})]  # one that only answers
        game = await t.game()
        end = t.button_id(game, {"type": "end"})
        await t.s.wait_for(lambda: t.last_with(end), timeout=60, what="the new turn's message")
        mine.append(await t.click(t.name_of(game.state["turn"]["player"]), end))  # a click
        # (the start's own handling may still be finishing: only these three are followed)
        await t.s.wait_for(lambda: all(h.id in handled for h in mine), timeout=60, what="the three handled")
        for h in mine:  # discord.py's own tasks for them end
            await t.s.wait_handled(h)
        objects = {handled[h.id] for h in mine}
        alive = [o for o in gc.get_objects() if type(o) is discord.Interaction and id(o) in objects]
        assert alive == [], "each freed as soon as handled"
    finally:
        gc.enable()
