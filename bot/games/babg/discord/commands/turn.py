"""Your turn, in Baldur's Gate's own words: /roll and /power (the shared verbs /move, /end, /undo
and /choose are declared in bot.games.babg.system)."""
import discord
from discord import app_commands

from bot.games.babg.vocabulary import make

from .common import TRAITS


def register(bot, system):
    tree = bot.tree

    @tree.command(name="roll", description="Attempt the roll your tile offers (once per turn)")
    @app_commands.choices(trait=TRAITS)
    @app_commands.guild_only()
    async def roll(interaction: discord.Interaction, trait: app_commands.Choice[str] | None = None):
        await bot.act(interaction, make("roll", trait=trait.value if trait else None))

    @tree.command(name="power", description="Use your adventurer's power")
    @app_commands.guild_only()
    async def power(interaction: discord.Interaction):
        await bot.act(interaction, make("power"))
