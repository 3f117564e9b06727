"""Looking at the game: /sheet, /map, /replay, /log, /history, /rules, /help."""
import io

import discord
from discord import app_commands

from bot.games.babg.engine import IllegalAction
from bot.games.babg.engine.specials.house_rules import HOUSE_RULES
from bot.service import history_lines

from .server import SHORT

HELP = """**Betrayal at Baldur's Gate**: one game per channel or thread.
**Set up:** `/game new`, then each player `/game join adventurer:` (3 to 6), then `/game start`.
**Your turn:** `/move`, `/item use|drop|pickup|trade`, `/roll` (the roll your tile offers), `/undo`, `/end`, or the buttons.
**The haunt:** your side's rules come privately, by DM or in your private thread (`/haunt rules` shows them again); press Ready. Then `/attack`, `/monster move|attack` in the monster turn, the haunt's own moves as buttons under your turn (or `/haunt task`, which lists those open to you), and `/haunt counter|token|slay|trait` for anything the bot leaves to you (on your turn), `/haunt declare` to claim a win the bot cannot see (everyone else answers privately with `/haunt confirm`).
**Any time:** `/sheet` (your traits and cards, only you see it), `/map`, `/game status`, `/log recent`, `/rules`, `/history` (this server's finished games).
**Options of `/game new`:** `seed:` plays the same game again (same tiles, cards and dice); `haunt:` plays that haunt (1-50) in place of the chart's when the haunt roll succeeds (its traitor from the traitor table as usual); `rules:` house rules from *Betrayal Legacy* (`/rules house` lists them); `avoid_repeats:` the rulebook's optional rule: a haunt this server has played sends the search on to the nearest other omen tile, then the next omen cards.
**Dice anyone can check:** at `/game start` the bot posts the SHA-256 of the game's secret seed; at the end it reveals the seed. `/log file` downloads the game's log (actions, every roll's faces, every card and tile drawn) and `python -m bot table --verify SEED LOG` replays it and confirms every roll and draw.
**Away players:** `/game settings` sets reminders and a deadline; after it, `/game skip` votes to skip a turn. `/game handover` gives a seat to someone else.
**Server admins:** `/server secrets` chooses where secrets go: DMs or a private thread per player."""



def house_rules_text() -> str:
    lines = ["**House rules** (`/game new rules:house rules from Betrayal Legacy`); without them the Baldur's "
             "Gate rules hold:"]
    lines += [f"- {text} ({source})" for _, source, text in HOUSE_RULES]
    return "\n".join(lines)


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
        lines = await bot.service.log_lines(g, str(interaction.user.id), limit=15)
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

    @tree.command(name="rules", description="A rule, in short")
    @app_commands.describe(topic="Which rule")
    async def rules(interaction: discord.Interaction, topic: str):
        if topic.lower().strip() in ("house", "house rules", "house-rules", "legacy-house-rules"):
            await bot.private(interaction, house_rules_text())
            return
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
        house = [app_commands.Choice(name="House rules (from Betrayal Legacy)", value="house")]
        return ([c for c in house if current.lower() in c.name.lower()] +
                [app_commands.Choice(name=t["title"], value=t["id"]) for t in bot.topics
                 if current.lower() in (t["title"] + " " + t["text"]).lower()])[:25]

    @tree.command(name="help", description="How to play with this bot")
    async def help_(interaction: discord.Interaction):
        if interaction.guild_id is None:
            await bot.private(interaction, HELP)
            return
        place = (await bot.service.guild_settings(str(interaction.guild_id)))["secrets"]
        await bot.private(interaction, f"{HELP} Here: {SHORT[place]}.")
