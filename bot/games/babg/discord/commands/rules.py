"""Baldur's Gate's /rules (a rule in short, and the house rules) and its /help text."""
import discord
from discord import app_commands

from bot.games.babg.engine.specials.house_rules import HOUSE_RULES

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


def register(bot, system):
    tree = bot.tree
    topics = system.help_topics()

    @tree.command(name="rules", description="A rule, in short")
    @app_commands.describe(topic="Which rule")
    async def rules(interaction: discord.Interaction, topic: str):
        if topic.lower().strip() in ("house", "house rules", "house-rules", "legacy-house-rules"):
            await bot.private(interaction, house_rules_text())
            return
        found = [t for t in topics if topic.lower() in (t["id"], t["title"].lower())]
        if not found:
            found = [t for t in topics if topic.lower() in (t["title"] + " " + t["text"]).lower()]
        if not found:
            await bot.private(interaction, "No rule matches that. Topics: " +
                              ", ".join(t["title"] for t in topics) + ".")
            return
        t = found[0]
        await bot.private(interaction, f"**{t['title']}** (rulebook: {t['section']})\n{t['text']}")

    @rules.autocomplete("topic")
    async def rules_choices(interaction: discord.Interaction, current: str):
        house = [app_commands.Choice(name="House rules (from Betrayal Legacy)", value="house")]
        return ([c for c in house if current.lower() in c.name.lower()] +
                [app_commands.Choice(name=t["title"], value=t["id"]) for t in topics
                 if current.lower() in (t["title"] + " " + t["text"]).lower()])[:25]
