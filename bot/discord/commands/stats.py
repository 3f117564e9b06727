"""/stats: the server's games in figures (wins by haunt beside the balance
bench's, the adventurers most played, a player's record) with a chart, and each
other game's own figures (its system's `stats_lines`)."""
import asyncio
import io

import discord
from discord import app_commands

from bot.service.stats import stats_lines


def register(bot):
    tree = bot.tree

    @tree.command(name="stats", description="This server's finished games in figures, with a chart of wins by haunt")
    @app_commands.describe(player="Also show this player's record: games, wins by side, favourite adventurer")
    @app_commands.guild_only()
    async def stats(interaction: discord.Interaction, player: discord.Member | None = None):
        figures = await bot.service.stats(str(interaction.guild_id), str(player.id) if player else None)
        text = "\n".join(stats_lines(figures, player.display_name if player else None))
        if figures["haunts"] or figures["systems"]:
            text += "\n`/history` lists the games one by one."
        if figures["systems"] and not figures["played"]:  # the chart is of the default game's haunts: none here
            await interaction.response.send_message(text[:1900])
            return
        png = await asyncio.to_thread(bot.default.render_stats, figures)  # a few dozen ms of drawing, off the event loop
        await interaction.response.send_message(text[:1900], file=discord.File(io.BytesIO(png), "stats.png"))
