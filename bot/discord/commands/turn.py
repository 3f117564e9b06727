"""Your turn: /move, /roll, /choose, /power, /undo, /end."""
import discord
from discord import app_commands

from bot.games.babg.vocabulary import make

from .common import TRAITS, WAYS


def register(bot):
    tree = bot.tree

    @tree.command(name="move", description="Move through a doorway, the stairs or a sewer grate")
    @app_commands.choices(direction=WAYS)
    @app_commands.guild_only()
    async def move(interaction: discord.Interaction, direction: app_commands.Choice[str]):
        await bot.act(interaction, make("move", way=direction.value))

    @tree.command(name="roll", description="Attempt the roll your tile offers (once per turn)")
    @app_commands.choices(trait=TRAITS)
    @app_commands.guild_only()
    async def roll(interaction: discord.Interaction, trait: app_commands.Choice[str] | None = None):
        await bot.act(interaction, make("roll", trait=trait.value if trait else None))

    @tree.command(name="end", description="End your turn")
    @app_commands.guild_only()
    async def end(interaction: discord.Interaction):
        await bot.act(interaction, make("end"))

    @tree.command(name="undo", description="Take back your last action of this turn (until a roll or a draw)")
    @app_commands.guild_only()
    async def undo(interaction: discord.Interaction):
        await bot.act(interaction, make("undo"))

    @tree.command(name="choose", description="Answer the question the game is asking you")
    @app_commands.guild_only()
    async def choose(interaction: discord.Interaction, option: int):
        await bot.act(interaction, make("decide", choice=option - 1))

    @tree.command(name="power", description="Use your adventurer's power")
    @app_commands.guild_only()
    async def power(interaction: discord.Interaction):
        await bot.act(interaction, make("power"))
