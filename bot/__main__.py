"""`python -m bot`: the Discord bot with DISCORD_TOKEN set, else the local
table. `python -m bot table ...` and `python -m bot content` name them."""
import os
import sys

from bot import games
from bot.kit.errors import ContentError


def main(argv: list[str]) -> int:
    if argv and argv[0] == "content":
        rest, chosen = list(argv[1:]), games.DEFAULT
        if "--game" in rest:
            at = rest.index("--game")
            chosen, rest = (rest[at + 1] if at + 1 < len(rest) else ""), rest[:at] + rest[at + 2:]
        try:
            system = games.get(chosen)
        except games.UnknownSystem as e:
            print(e.reason, file=sys.stderr)
            return 2
        return system.content_main(rest)
    if argv and argv[0] == "table":
        argv = argv[1:]
    elif os.environ.get("DISCORD_TOKEN"):
        from bot.config import from_env, shard_problem
        from bot.discord.client import run
        try:
            config = from_env()
        except ValueError as e:  # a setting that cannot be read: said in one line
            print(f"not starting: {e}", file=sys.stderr)
            return 1
        if shard_problem(config):
            print(f"not starting: {shard_problem(config)}", file=sys.stderr)
            return 1
        run(config)  # says itself why it does not start
        return 0
    from bot.table import main as table_main
    try:
        return table_main(argv)
    except ContentError as e:  # a bad rules_data file: the line that names it is all the player needs
        print(f"not starting: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
