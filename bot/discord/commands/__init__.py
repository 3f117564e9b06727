"""The slash commands, by area. Each area's `register(bot)` adds its
commands to the bot's tree; each command turns its options into an action
of the shared vocabulary (bot.games.babg.vocabulary) or a view and hands it to the
client. None of them knows a rule."""
from . import game, haunt, info, items, server, stats, turn
from .info import HELP  # noqa: F401  (the /help text)

AREAS = (game, turn, haunt, items, info, server, stats)


def register(bot):
    for area in AREAS:
        area.register(bot)
