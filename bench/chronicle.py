"""How long `/chronicle status` takes for a whole campaign: the embed (bot.discord.chronicle) and the
timeline picture (bot.chronicle.picture) of a 14-chapter campaign, played first by the local table's
built-in players (bot.games.babg.table, --auto --chronicle). Target: under a second.

    python bench/chronicle.py [--seed 7] [--runs 5] [--save docs/images/chronicle.png]

Prints the campaign's summary, then the best and median times of building the embed and drawing the
picture, and the picture's size."""
import argparse
import contextlib
import io
import json
import pathlib
import statistics
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from bot import chronicle as ch  # noqa: E402
from bot.chronicle import picture  # noqa: E402
from bot.discord.chronicle import embed  # noqa: E402
from bot.games.babg import table  # noqa: E402


def campaign(seed: int) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        path = pathlib.Path(folder) / "chronicle.json"
        with contextlib.redirect_stdout(io.StringIO()):
            table.main(["--auto", "--chronicle", str(path), "--players", "4", "--seed", str(seed), "--events", "json"])
        return json.loads(path.read_text())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--save", default=None, help="write the picture to this file")
    args = ap.parse_args()
    t0 = time.perf_counter()
    record = campaign(args.seed)
    print(f"campaign of {len(record['chapters'])} chapters played in {time.perf_counter() - t0:.1f} s")
    print("\n".join(ch.summary_lines(record)))
    times, data = [], b""
    for _ in range(args.runs):
        start = time.perf_counter()
        e = embed(record, "#chronicle")
        data = picture.render(record)
        times.append(time.perf_counter() - start)
    size = len(e.title) + len(e.description) + sum(len(f.name) + len(f.value) for f in e.fields)
    print(f"/chronicle status: embed ({len(e.fields)} fields, {size} characters) and picture "
          f"({len(data) // 1024} KiB): best {min(times) * 1000:.0f} ms, median {statistics.median(times) * 1000:.0f} ms "
          f"over {args.runs} runs (target < 1000 ms)")
    if args.save:
        pathlib.Path(args.save).write_bytes(data)
        print(f"picture saved to {args.save}")
    return 0 if max(times) < 1.0 else 1


if __name__ == "__main__":
    sys.exit(main())
