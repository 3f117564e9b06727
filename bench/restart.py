"""How fast the bot is back after a restart: N games stored mid-play in the
real SQLite store, the service closed, then opened again (the database
checked and migrated as at start-up), and one action taken in every game.
Prints the time to open and the time until every game has answered.
Target: 1,000 games answering within 2 s of the restart.

This measures the service and its store, which is what a restart costs;
the Discord gateway's reconnection is outside the bot's hands.

usage: python bench/restart.py [--games 1000] [--actions 20]
"""
import argparse
import asyncio
import pathlib
import random
import statistics
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from bot.games.babg import autoplay  # noqa: E402
from bot.games.babg.content import load_content  # noqa: E402
from bot.games.babg.engine import Engine, IllegalAction  # noqa: E402
from bot.games.babg.engine.legal import actor  # noqa: E402
from bot.service import GameService  # noqa: E402

ADVENTURERS = ("torskar", "lia", "gretchen")


async def store_games(database: str, engine, games: int, actions: int):
    service = await GameService.open(database, engine)
    rnd = random.Random(1)
    for n in range(games):
        channel = f"c{n}"
        await service.new_game(channel, "g", "u0", seed=n)
        for i, adv in enumerate(ADVENTURERS):
            await service.act(channel, {"type": "join", "player": f"u{i}", "name": f"P{i}", "adventurer": adv})
        await service.act(channel, {"type": "start", "player": "u0"})
        for _ in range(actions):
            game = await service.active_game(channel)
            action = autoplay.choose(engine.content, game.state, rnd) if game else None
            if action is None:
                break
            await service.act(channel, action)
    await service.close()


async def restart(database: str, engine, games: int) -> tuple[float, float, list[float]]:
    t0 = time.perf_counter()
    service = await GameService.open(database, engine)
    opened = time.perf_counter() - t0
    each = []
    for n in range(games):
        t1 = time.perf_counter()
        game = await service.active_game(f"c{n}")
        who = actor(game.state) if game else None
        if who:
            action = {"type": "decide", "player": who, "choice": 0} if game.state["pending"] else \
                {"type": "end", "player": who}
            try:
                await service.act(f"c{n}", action)
            except IllegalAction:
                pass  # a refusal is an answer too
        each.append(time.perf_counter() - t1)
    total = time.perf_counter() - t0
    await service.close()
    return opened, total, each


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--actions", type=int, default=20, help="actions played in each game before the restart")
    args = ap.parse_args(argv)
    engine = Engine(load_content())
    with tempfile.TemporaryDirectory() as tmp:
        database = str(pathlib.Path(tmp) / "games.sqlite3")
        t0 = time.perf_counter()
        asyncio.run(store_games(database, engine, args.games, args.actions))
        print(f"stored {args.games} games ({args.actions} actions each) in {time.perf_counter() - t0:.1f} s")
        opened, total, each = asyncio.run(restart(database, engine, args.games))
    each.sort()
    print(f"restart: database open and checked in {opened * 1000:.0f} ms; every game answered within "
          f"{total:.2f} s of the restart (target under 2 s)")
    print(f"first action per game: median {statistics.median(each) * 1000:.2f} ms, "
          f"p99 {each[int(len(each) * 0.99) - 1] * 1000:.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
