"""How fast /stats answers: N games played to their end by the built-in
players (3 to 6 of 8 Discord users, each haunt chosen at random), stored
finished in a temporary SQLite store with a few games still in play, then
the server's statistics and a player's read and the chart drawn.
Target: within 1 s for 50 finished games.

usage: python bench/stats.py [--games 50] [--runs 5] [--chart stats.png]
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
from bot.games.babg.engine import Engine  # noqa: E402
from bot.games.babg.render.chart import stats_chart  # noqa: E402
from bot.service import GameService  # noqa: E402
from bot.service.stats import stats_lines  # noqa: E402

GUILD = "900000000000000001"
USERS = [str(100000000000000000 + i) for i in range(1, 9)]  # Discord user ids
NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")


def played(engine, rnd: random.Random, seed: int, haunt: int, to_the_end: bool = True) -> dict:
    """A game of 3 to 6 of the users, played by the built-in players (to its end, or for a while)."""
    content = engine.content
    seats = rnd.sample(range(len(USERS)), rnd.randint(3, 6))
    chosen = []
    for aid in sorted(content.adventurers, key=lambda _: rnd.random()):
        if len(chosen) < len(seats) and all(content.adventurers[a].card != content.adventurers[aid].card
                                            for a in chosen):
            chosen.append(aid)
    state = engine.new_game(seed, "play", {"chosen_haunt": haunt})
    for i, aid in zip(seats, chosen):
        state, _ = engine.apply(state, {"type": "join", "player": USERS[i], "name": NAMES[i], "adventurer": aid})
    state, _ = engine.apply(state, {"type": "start", "player": USERS[seats[0]]})
    for _, state, _ in autoplay.play(engine, state, rnd, max_actions=4000 if to_the_end else 150):
        pass
    return state


async def store(service, engine, games: int, in_play: int) -> int:
    """Stores `games` finished games and `in_play` games in play (a game the
    built-in players do not end within the action limit stays in play too);
    returns how many are in play."""
    rnd = random.Random(26)
    ended = playing = n = 0
    while ended < games or playing < in_play:
        state = played(engine, rnd, 1000 + n, rnd.randint(1, 50), to_the_end=ended < games)
        game = await service.new_game(f"c{n}", GUILD, state["seats"][0], seed=1000 + n)
        await service.overwrite_state(game, state)  # the state the game ended with (or is at)
        ended += state["phase"] == "over"
        playing += state["phase"] != "over"
        n += 1
    return playing


async def main(games: int, runs: int, chart_file: str | None = None):
    engine = Engine(load_content())
    with tempfile.TemporaryDirectory() as folder:
        database = str(pathlib.Path(folder) / "games.db")
        service = await GameService.open(database, engine)
        t = time.perf_counter()
        playing = await store(service, engine, games, in_play=3)
        print(f"stored {games} games played to their end by the built-in players and {playing} in play "
              f"in {time.perf_counter() - t:.1f} s")
        await service.close()
        service = await GameService.open(database, engine)  # a fresh start: nothing read yet
        query, chart, total = [], [], []
        for run in range(runs):
            t0 = time.perf_counter()
            stats = await service.stats(GUILD, USERS[run % len(USERS)])
            t1 = time.perf_counter()
            png = stats_chart(stats)
            t2 = time.perf_counter()
            query.append(t1 - t0)
            chart.append(t2 - t1)
            total.append(t2 - t0)
        await service.close()
    ms = lambda xs: f"first {xs[0] * 1000:.1f} ms, median {statistics.median(xs) * 1000:.1f} ms, " \
                    f"max {max(xs) * 1000:.1f} ms"  # noqa: E731
    print(f"statistics (query and counts): {ms(query)}")
    print(f"chart: {ms(chart)}; {len(png) / 1024:.1f} KiB")
    print(f"together: {ms(total)} (target: under 1000 ms)")
    print(f"played {stats['played']}, finished {stats['finished']}, haunts {len(stats['haunts'])}")
    print("\n".join(stats_lines(stats, NAMES[(runs - 1) % len(USERS)])))
    if chart_file:
        pathlib.Path(chart_file).write_bytes(png)
    return 0 if max(total) < 1.0 else 1


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--chart", help="also write the last chart to this PNG file")
    args = ap.parse_args()
    sys.exit(asyncio.run(main(args.games, args.runs, args.chart)))
