"""What the command areas share: who may manage a channel's game, and naming a built-in seat (it is
no member of the server, so a command names it by a text option with suggestions)."""
import discord
from discord import app_commands

from bot.service import seats


async def can_manage(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction, "permissions", None)
    return bool(perms and perms.manage_channels)


def builtin_seat(state: dict, named: str | None) -> str | None:
    """A built-in seat named by its id or its name ("Built-in 2")."""
    for pid in seats.builtin_seats(state):
        if named and named.strip().lower() in (pid, state["players"][pid]["name"].lower()):
            return pid
    return None


def builtin_choices(bot):
    """Autocomplete for an option naming a built-in seat of the channel's game."""
    async def choices(interaction: discord.Interaction, current: str):
        g = await bot.service.active_game(str(interaction.channel_id))
        state = g.state if g else {}
        return [app_commands.Choice(name=state["players"][p]["name"], value=p) for p in seats.builtin_seats(state)
                if current.lower() in state["players"][p]["name"].lower()][:25]
    return choices


def seat_named(member: discord.abc.User | None, builtin: str | None) -> str:
    """The seat an option names: a person, else a built-in seat's id (the engine refuses an unknown one)."""
    return str(member.id) if member else (builtin or "")
