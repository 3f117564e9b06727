"""A select menu of a turn's actions, for any game behind the contract: the menu carries the game and the
turn in its custom id (`ks:<game>:<turn>`), each option its action as JSON (without the player: whoever
chooses), so a choice works after a restart and one from an earlier turn is refused like a stale button."""
import json
import re

import discord

from bot.discord.controls import LABEL, PER_SELECT, Claimed
from bot.discord.face import Carried

CUSTOM_ID = re.compile(r"ks:(?P<game>[0-9]+):(?P<turn>[0-9]+)")
VALUE_LIMIT = 100  # Discord: an option's value


def option_value(action: dict) -> str | None:
    value = json.dumps({k: v for k, v in action.items() if k != "player"}, separators=(",", ":"), sort_keys=True)
    return value if len(value) <= VALUE_LIMIT else None


def menu(game_id: int, turn: int, entries: list[tuple[str, dict, str]], placeholder: str):
    """The menu for (label, action, description) entries, the first PER_SELECT whose action fits a value;
    None when none does."""
    options = []
    for label, action, about in entries:
        value = option_value(action)
        if value is not None and len(options) < PER_SELECT:
            options.append(discord.SelectOption(label=label[:LABEL], value=value,
                                                description=about[:LABEL] if about else None))
    return ActionSelect(f"ks:{game_id}:{turn}", options, placeholder) if options else None


class ActionSelect(Claimed, discord.ui.DynamicItem[discord.ui.Select], template=CUSTOM_ID):
    def __init__(self, custom_id: str, options: list[discord.SelectOption], placeholder: str | None = None):
        super().__init__(discord.ui.Select(custom_id=custom_id, options=options, placeholder=(placeholder or "")[:150],
                                           min_values=1, max_values=1))

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(item.custom_id, list(item.options), item.placeholder)

    async def callback(self, interaction: discord.Interaction):
        m = CUSTOM_ID.fullmatch(self.item.custom_id)
        try:
            action = json.loads(self.item.values[0])
        except (ValueError, IndexError):
            action = None
        carried = Carried(action, int(m["game"]), int(m["turn"])) if isinstance(action, dict) else None
        await interaction.client.on_action_button(interaction, carried)
