"""`python -m bot`: the Discord bot with DISCORD_TOKEN set, else the local
table. `python -m bot table ...` and `python -m bot content` name them."""
import os
import sys


def main(argv: list[str]) -> int:
    if argv and argv[0] == "content":
        from bot.content.report import main as content_main
        return content_main(argv[1:])
    if argv and argv[0] == "table":
        from bot.table import main as table_main
        return table_main(argv[1:])
    if os.environ.get("DISCORD_TOKEN"):
        from bot.config import from_env
        from bot.discord.client import run
        run(from_env())
        return 0
    from bot.table import main as table_main
    return table_main(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
