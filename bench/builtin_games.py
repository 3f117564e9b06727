"""Games of one person and built-in seats through the fake Discord and the
bot's real client (the issue's measure for seats the bot plays):

    python bench/builtin_games.py --games 100

Each game: 2 to 5 built-in seats, a random haunt (every fourth one a
hidden-traitor haunt), the person's moves scripted. Prints per game how it
ended, the built-in seats' secrets the person could see (must be 0), the
busiest pace window (at most 5 writes), then the totals."""
import argparse
import asyncio
import pathlib
import random
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from bot.games.babg.content import load_content  # noqa: E402
from bot.games.babg.engine import Engine  # noqa: E402
from tests.builtin_games import play_with_builtins  # noqa: E402
from tests.fake_discord.server import FakeDiscord  # noqa: E402

HIDDEN_TRAITOR = (19, 37)  # haunts whose traitor stays secret at the reveal


async def main_async(args) -> int:
    engine = Engine(load_content())
    rnd = random.Random(args.seed)
    ended = leaked = over_pace = 0
    sides = {"traitor": 0, "heroes": 0, "other": 0}
    started = time.monotonic()
    async with FakeDiscord() as server:
        for k in range(args.games):
            builtins = rnd.randint(2, 5)
            haunt = rnd.choice(HIDDEN_TRAITOR) if k % 4 == 3 else rnd.choice([None, *range(1, 51)])
            with tempfile.TemporaryDirectory() as folder:
                t0 = time.monotonic()
                p = await play_with_builtins(server, pathlib.Path(folder), engine, builtins, args.seed + k, haunt=haunt)
            result = p.result or {}
            ended += p.stalled is None and result.get("reason") in ("haunt_won", "haunt_ended")
            leaked += len(p.leaks)
            over_pace += p.busiest > p.pace[0]
            winner = result.get("winner")
            sides[winner if winner in sides else "other"] += 1
            print(f"game {k + 1}: {builtins} built-in, haunt {p.haunt} (traitor built-in: {p.traitor_builtin}): "
                  f"{winner or result.get('reason') or p.stalled}; {p.turns} turns, {p.person_actions} of the "
                  f"person's actions; leaks {len(p.leaks)}; writes {p.writes} ({p.writes / max(1, p.turns):.1f} a "
                  f"turn), busiest window {p.busiest} of {p.pace[0]}; {time.monotonic() - t0:.0f} s"
                  + (f"; STALLED: {p.stalled}" if p.stalled else "") + (f"; LEAKED: {p.leaks[:2]}" if p.leaks else ""),
                  flush=True)
    print(f"{args.games} games in {time.monotonic() - started:.0f} s: reached their end {ended}; secrets of a "
          f"built-in seat the person saw {leaked}; games over the pace {over_pace}; won by the traitor's side "
          f"{sides['traitor']}, the heroes {sides['heroes']}, other {sides['other']}")
    return 0 if ended == args.games and not leaked and not over_pace else 1


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    return asyncio.run(main_async(ap.parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
