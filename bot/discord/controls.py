"""The controls every game's messages share: buttons and menus made to be dropped (every item a
dynamic item found again by its custom id, so a click works after a restart), the buttons that only
show something (my sheet, the map, my secrets), and mentions that ping exactly the given players.
A system's own buttons (its actions, carried in their custom ids) are its face's."""
import re
import weakref

import discord

ROWS = 2            # a turn's controls take two rows at most: most players read on a phone (Discord allows 5)
PER_ROW = 5         # Discord: at most 5 buttons a row
PER_SELECT = 25     # Discord: at most 25 options in a select menu
LABEL = 100         # Discord: a select option's label and description


class Claimed:
    """A click is handled by the one process that claims it (see GameBot.claim)."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return await interaction.client.claim(interaction)


class ViewButton(Claimed, discord.ui.DynamicItem[discord.ui.Button],
                 template=re.compile(r"bgv:(?P<kind>sheet|map|secret)")):
    """A button that shows something (your sheet, the map, your secrets): no
    action, so it works at any turn."""

    def __init__(self, kind: str, label: str = "?", style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 row: int | None = None):
        super().__init__(discord.ui.Button(label=label[:80], style=style, custom_id=f"bgv:{kind}", row=row))
        self.kind = kind

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["kind"], label=item.label or "?", style=item.style)

    async def callback(self, interaction: discord.Interaction):
        await interaction.client.on_view_button(interaction, self.kind)


class Controls(discord.ui.View):
    """The buttons and menus under a message, made to be dropped: at a
    thousand games the bot builds hundreds of these a second.

    Every item here is a dynamic item, found again by its custom id when
    clicked (the client registers the classes above), so discord.py need
    not keep the view. And each item links back to its view weakly: with
    discord.py's strong link, every view was a reference cycle that only
    the garbage collector's full pass could free, a pause of most of a
    second at that size (bench/discord_load.py); freed as soon as dropped,
    it never reaches that pass."""

    def __init__(self):
        super().__init__(timeout=None)

    def is_dispatchable(self) -> bool:
        return False  # nothing to store: clicks reach the items through their custom ids

    def add_item(self, item):
        super().add_item(item)
        link = weakref.proxy(self)
        item._view = link  # discord.py's attribute behind Item.view (pinned: discord.py 2.7)
        if isinstance(item, discord.ui.DynamicItem):
            item.item._view = link
        return self


def pinging(users: list[str]) -> discord.AllowedMentions:
    """Mentions that notify exactly these players (never everyone or a role)."""
    return discord.AllowedMentions(users=[discord.Object(int(u)) for u in users if u.isdigit()],
                                   everyone=False, roles=False)


def _add(view: discord.ui.View, item, row: int | None = None):
    """Add a button in `row` (None: a button that could not be made, already hinted)."""
    if item is not None:
        if row is not None:
            item.item.row = row
        view.add_item(item)


def _option(text: str, value: str) -> discord.SelectOption:
    """A select option: the whole answer, what passes the label's length in the line below it."""
    if len(text) <= LABEL:
        return discord.SelectOption(label=text, value=value)
    cut = text.rfind(" ", 0, LABEL - 1)
    cut = cut if cut > LABEL // 2 else LABEL - 1
    rest = text[cut:].strip()
    return discord.SelectOption(label=text[:cut].rstrip() + "…", value=value,
                                description=rest if len(rest) <= LABEL else rest[:LABEL - 1] + "…")


def secret_view() -> discord.ui.View:
    view = Controls()
    view.add_item(ViewButton("secret", "Show my secrets", discord.ButtonStyle.primary))
    return view
