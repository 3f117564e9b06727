"""What the command areas share: the choices for ways and traits, and who
may manage a channel's game."""
import discord
from discord import app_commands

from bot.vocabulary import TRAIT_WORDS

WAYS = [app_commands.Choice(name=n, value=v) for n, v in
        (("north", "north"), ("east", "east"), ("south", "south"), ("west", "west"), ("stairs", "stairs"),
         ("sewer grate", "grate"), ("arcane gate", "gate"))]
TRAITS = [app_commands.Choice(name=t.capitalize(), value=t) for t in TRAIT_WORDS]


async def can_manage(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction, "permissions", None)
    return bool(perms and perms.manage_channels)
