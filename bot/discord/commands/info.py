"""Looking at the game: /sheet, /map, /replay, /log, /rules, /help."""
import discord
from discord import app_commands

HELP = """**Betrayal at Baldur's Gate**: one game per channel or thread.
**Set up:** `/game new`, then each player `/game join adventurer:` (3 to 6), then `/game start`.
**Your turn:** `/move`, `/item use|drop|pickup|trade`, `/roll` (the roll your tile offers), `/end`. The buttons under each turn do the same.
**The haunt:** your side's rules come by DM (`/haunt rules` shows them again); press Ready. Then `/attack`, `/monster move|attack` in the monster turn, and `/haunt counter|token|task|slay|trait` for rules the bot leaves to you (on your turn), `/haunt declare` to claim a win the bot cannot see (everyone else answers privately with `/haunt confirm`).
**Any time:** `/sheet` (your traits and cards, only you see it), `/map`, `/game status`, `/log`, `/rules`.
**Away players:** `/game settings` sets reminders and a deadline; after it, `/game skip` votes to skip a turn. `/game handover` gives a seat to someone else."""



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

    @tree.command(name="log", description="Recent events of this game")
    @app_commands.guild_only()
    async def log_(interaction: discord.Interaction):
        g = await bot.channel_game(interaction)
        if g is None:
            return
        lines = await bot.service.log_lines(g, str(interaction.user.id), limit=15)
        await bot.private(interaction, "\n".join(lines)[-1900:] or "Nothing has happened yet.")

    @tree.command(name="rules", description="A rule, in short")
    @app_commands.describe(topic="Which rule")
    async def rules(interaction: discord.Interaction, topic: str):
        found = [t for t in bot.topics if topic.lower() in (t["id"], t["title"].lower())]
        if not found:
            found = [t for t in bot.topics if topic.lower() in (t["title"] + " " + t["text"]).lower()]
        if not found:
            await bot.private(interaction, "No rule matches that. Topics: " +
                              ", ".join(t["title"] for t in bot.topics) + ".")
            return
        t = found[0]
        await bot.private(interaction, f"**{t['title']}** (rulebook: {t['section']})\n{t['text']}")

    @rules.autocomplete("topic")
    async def rules_choices(interaction: discord.Interaction, current: str):
        return [app_commands.Choice(name=t["title"], value=t["id"]) for t in bot.topics
                if current.lower() in (t["title"] + " " + t["text"]).lower()][:25]

    @tree.command(name="help", description="How to play with this bot")
    async def help_(interaction: discord.Interaction):
        await bot.private(interaction, HELP)
