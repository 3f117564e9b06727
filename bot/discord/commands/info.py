"""Looking at the game: /sheet, /map, /replay, /log, /history, /help (each game's own /help text is
its face's)."""
import io

import discord
from discord import app_commands

from bot.kit.errors import IllegalAction
from bot.service import history_lines

from .server import SHORT



def register(bot):
    tree = bot.tree

    @tree.command(name="sheet", description="Your traits, power and cards (only you see it)")
    @app_commands.guild_only()
    async def sheet(interaction: discord.Interaction):
        await bot.show_sheet(interaction)

    @tree.command(name="map", description="The city as it stands")
    @app_commands.guild_only()
    async def map_(interaction: discord.Interaction):
        g = await bot.channel_game(interaction)
        if g is None:
            return
        await interaction.response.defer()
        await bot.send_map(interaction, g.state, ephemeral=False)

    @tree.command(name="replay", description="The game so far as an animated picture, one frame per turn")
    @app_commands.guild_only()
    async def replay(interaction: discord.Interaction):
        g = await bot.channel_game(interaction, started=True)
        if g is None:
            return
        await interaction.response.defer()
        await bot.send_replay(interaction.followup.send, g)

    log_group = app_commands.Group(name="log", description="This game's log", guild_only=True)

    @log_group.command(name="recent", description="Recent events of this game")
    async def log_recent(interaction: discord.Interaction):
        g = await bot.channel_game(interaction)
        if g is None:
            return
        system = bot.service.system(g)  # a haunt's moves named as Discord shows them, as in the turn messages
        lines = [system.speak(line, g.state, "discord")
                 for line in await bot.service.log_lines(g, str(interaction.user.id), limit=15)]
        await bot.private(interaction, "\n".join(lines)[-1900:] or "Nothing has happened yet.")

    @log_group.command(name="file", description="Download the game's log: actions, every roll and draw")
    async def log_file(interaction: discord.Interaction):
        g = await bot.channel_game(interaction)
        if g is None:
            return
        data = await bot.service.log_file(g)
        note = ("The log of the game; check it with `python -m bot table --verify SEED LOG`." if
                bot.service.finished(g) else "The log so far; the seed that checks it is revealed when the game ends.")
        await interaction.response.send_message(note, file=discord.File(io.BytesIO(data), f"game-{g.id}-log.json"),
                                                ephemeral=True)

    tree.add_command(log_group)

    @tree.command(name="history", description="This server's finished games (a game's number: its replay)")
    @app_commands.describe(game="A game's number from the list: its replay picture")
    @app_commands.guild_only()
    async def history(interaction: discord.Interaction, game: int | None = None):
        if game is None:
            entries = await bot.service.history(str(interaction.guild_id))
            text = "\n".join(history_lines(entries))
            await interaction.response.send_message(text[:1900] + ("\n`/history game:<number>` shows a game's "
                                                                   "replay." if entries else ""))
            return
        try:
            g = await bot.service.finished_game(str(interaction.guild_id), game)
        except IllegalAction as e:
            await bot.private(interaction, e.reason)
            return
        await interaction.response.defer()
        await bot.send_replay(interaction.followup.send, g)

    @tree.command(name="help", description="How to play with this bot")
    async def help_(interaction: discord.Interaction):
        game = await bot.service.latest_game(str(interaction.channel_id))
        text = bot.face_of(bot.service.system(game) if game else bot.service.default).help_text()
        hosted = "**Games here** (`/game new game:`): " + "; ".join(s.title for s in bot.systems) + ".\n"
        if len(bot.systems) > 1 and len(hosted + text) < 1950:  # (a message holds 2000 characters)
            text = hosted + text
        if interaction.guild_id is None:
            await bot.private(interaction, text[:1990])
            return
        place = (await bot.service.guild_settings(str(interaction.guild_id)))["secrets"]
        await bot.private(interaction, f"{text} Here: {SHORT[place]}."[:2000])
