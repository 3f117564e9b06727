"""Baldur's Gate's command choices: the ways out of a tile and the traits (the rest is shared:
bot.discord.commands.common)."""
from discord import app_commands

from bot.discord.commands.common import builtin_choices, builtin_seat, can_manage, seat_named  # noqa: F401
from bot.games.babg.vocabulary import TRAIT_WORDS

WAYS = [app_commands.Choice(name=n, value=v) for n, v in
        (("north", "north"), ("east", "east"), ("south", "south"), ("west", "west"), ("stairs", "stairs"),
         ("sewer grate", "grate"), ("arcane gate", "gate"))]
TRAITS = [app_commands.Choice(name=t.capitalize(), value=t) for t in TRAIT_WORDS]
