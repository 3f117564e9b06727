"""How the haunts end when the built-in players play them: K games of each
haunt, chosen in place of the chart's, from the start of the game.

    python bench/haunt_balance.py --haunts 1-25 --games 8
    python bench/haunt_balance.py --fair   (as built-in seats play beside people)

Prints, per haunt and in all, how many games each side won and how they
ended (a condition the bot checks, a claimed win, no end within the action
limit, an exception). A game two sides won together (haunt 42: the heroes
with the traitor they freed) is named "heroes+traitor" and counts as a win
for each side; the table notes how many such games a haunt had."""
import argparse
import collections
import json
import pathlib
import random
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from bot.games.babg import autoplay  # noqa: E402
from bot.games.babg.content import load_content  # noqa: E402
from bot.games.babg.engine import Engine  # noqa: E402
from tests.playout import haunt_game  # noqa: E402


def numbers(text: str) -> list[int]:
    found = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        found += list(range(int(low), int(high or low) + 1))
    return found


def play(engine, number: int, seed: int, max_actions: int, fair: bool = False) -> tuple:
    rnd = random.Random(seed)
    state = haunt_game(engine, number, seed, rnd)
    try:
        for _, state, _ in autoplay.play(engine, state, rnd, max_actions=max_actions, fair=fair):
            pass
    except Exception as e:  # noqa: BLE001 - this is what the bench counts
        return "exception", type(e).__name__
    if state["phase"] != "over":
        return "no end", "action limit"
    result = state.get("result") or {}
    if result.get("sides"):  # sides winning together (bot.games.babg.engine.haunt_play.finish)
        return "+".join(result["sides"]), result.get("reason")
    return result.get("winner") or "nobody", result.get("reason")


def won_by(winner: str, side: str) -> bool:
    """Whether `side` won a game whose winner is `winner` (alone or with another side)."""
    return side in winner.split("+")


def wins(ends, side: str) -> int:
    return sum(n for (w, _), n in ends.items() if won_by(w, side))


def together(ends) -> int:
    """Games won by the heroes and the traitor's side together."""
    return sum(n for (w, _), n in ends.items() if won_by(w, "heroes") and won_by(w, "traitor"))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--haunts", default="1-50")
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--max-actions", type=int, default=4000)
    ap.add_argument("--markdown", action="store_true", help="also print a table for the README")
    ap.add_argument("--write", default=str(RESULTS), help="the results file /stats reads (default: %(default)s)")
    ap.add_argument("--no-write", action="store_true", help="print only")
    ap.add_argument("--fair", action="store_true",
                    help="players as the bot's seats play in a game with people: each knows only what its seat may")
    args = ap.parse_args(argv)
    engine = Engine(load_content())
    total = collections.Counter()
    both = 0
    rows = []
    for number in numbers(args.haunts):
        ends = collections.Counter(play(engine, number, number * 1000 + g, args.max_actions, args.fair)
                                   for g in range(args.games))
        total.update(ends)
        both += bool(wins(ends, "traitor") and wins(ends, "heroes"))
        print(f"haunt {number}: " + ", ".join(f"{w} ({r}) {n}" for (w, r), n in sorted(ends.items())), flush=True)
        rows.append((number, ends))
    games = sum(total.values())
    checked = sum(n for (w, r), n in total.items() if r not in ("declared", "action limit") and w != "exception")
    heroes = wins(total, "heroes")
    print(f"games: {games}; ended on a condition the bot checks: {checked} ({100 * checked // max(1, games)}%); "
          f"heroes won: {heroes} ({100 * heroes // max(1, games)}%), {together(total)} of them with the traitor; "
          f"haunts both sides won: {both}")
    if args.markdown:
        print(markdown(engine.content, rows))
    if not args.no_write:
        write(rows, pathlib.Path(args.write))
    return 0


RESULTS = pathlib.Path(__file__).resolve().parents[1] / "rules_data" / "haunt_balance.json"  # /stats reads it


def figures(ends) -> dict:
    """One haunt's line of the results file (as markdown() counts them)."""
    games = sum(ends.values())
    checked = sum(n for (w, r), n in ends.items() if r not in ("declared", "action limit") and w != "exception")
    heroes, traitor, both = wins(ends, "heroes"), wins(ends, "traitor"), together(ends)
    return {"games": games, "checked": checked, "heroes": heroes, "traitor": traitor,
            "other": games - heroes - traitor + both, "both": both}


def write(rows, path: pathlib.Path = RESULTS):
    """The results into the file kept in the repository (bot/service/stats.py reads it for /stats): the
    haunts played now replace their lines, the others' stay."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = {}
    haunts = data.get("haunts", {})
    haunts.update({str(number): figures(ends) for number, ends in rows})
    data["haunts"] = dict(sorted(haunts.items(), key=lambda kv: int(kv[0])))
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def markdown(content, rows) -> str:
    """One line per haunt: games, how many ended on a checked condition,
    each side's wins (a game both sides won counts for each, noted beside
    the title: "won by both: N"), and the games neither side won."""
    lines = ["| haunt | games | ended on a checked condition | heroes won | traitor's side won | other |",
             "|---|---|---|---|---|---|"]
    for number, ends in rows:
        games = sum(ends.values())
        checked = sum(n for (w, r), n in ends.items() if r not in ("declared", "action limit") and w != "exception")
        heroes, traitor, both = wins(ends, "heroes"), wins(ends, "traitor"), together(ends)
        title = content.haunts[number].raw.get("title", "") + (f" (won by both: {both})" if both else "")
        lines.append(f"| {number} {title} | {games} | {checked} | {heroes} | {traitor} | "
                     f"{games - heroes - traitor + both} |")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
