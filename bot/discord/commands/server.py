"""/server: what a server's admins choose for all its games (where each
player's secrets go)."""
import discord
from discord import app_commands

from bot.discord.private_threads import can_open
from bot.kit.errors import IllegalAction

PLACES = {"dm": "by direct message", "threads": "in a private thread for each player"}
SHORT = {"dm": "DMs", "threads": "private threads"}


def where_line(place: str) -> str:
    """The setting in a few words, for /help and the command's answers."""
    return f"secrets (side rules, hidden tokens, private cards) go {PLACES[place]}"


def can_choose(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction, "permissions", None)
    return bool(perms and (perms.manage_guild or perms.manage_channels))


def register(bot):
    server = app_commands.Group(name="server", description="Settings for all games on this server",
                                guild_only=True)

    @server.command(name="secrets", description="Where players' secrets go: DMs or private threads (admins)")
    @app_commands.describe(where="Leave out to see the current choice")
    @app_commands.choices(where=[app_commands.Choice(name="direct messages", value="dm"),
                                 app_commands.Choice(name="private threads", value="threads")])
    async def server_secrets(interaction: discord.Interaction, where: app_commands.Choice[str] | None = None):
        guild = str(interaction.guild_id)
        now = (await bot.service.guild_settings(guild))["secrets"]
        if where is None:
            await bot.private(interaction, f"On this server, {where_line(now)}. Someone with Manage Server or "
                                           "Manage Channels can change it with `/server secrets where:`.")
            return
        if not can_choose(interaction):
            await bot.private(interaction, "Only someone with Manage Server or Manage Channels can choose where "
                                           f"secrets go. On this server, {where_line(now)}.")
            return
        try:
            await bot.service.set_secrets_place(guild, where.value)
        except IllegalAction as e:
            await bot.private(interaction, e.reason)
            return
        if where.value == "threads":
            said = ("Done: from now on each player's secrets go to a private thread of the game's channel, one "
                    "per player and game, that only they and I are in. If I cannot open one, they come by DM.")
            if not can_open(getattr(interaction, "app_permissions", None)):
                said += (" In this channel I lack Create Private Threads or Send Messages in Threads, so here "
                         "they would still come by DM.")
        else:
            said = ("Done: from now on each player's secrets come by direct message (a player whose DMs are "
                    "closed gets a button to see them privately).")
        await interaction.response.send_message(said)

    bot.tree.add_command(server)
