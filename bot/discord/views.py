"""Buttons under each turn prompt. A button carries its action itself (see
bot.vocabulary: the verb and fields, the game, the turn and, for an answer,
the question), so it keeps working after a restart; each click reloads the
game and goes through the same door as a slash command. The buttons offered
are exactly the engine's legal actions, so a button is never refused for a
rule; a click from an earlier turn or a finished game is refused privately."""
import re

import discord

from bot import vocabulary
from bot.engine.legal import across_barrier, actor, legal_actions
from bot.vocabulary import pending_key  # noqa: F401  (the question's fingerprint, for callers and tests)

ROWS = 5          # Discord: at most 5 rows of 5 buttons
PER_ROW = 5
CHOICES_SHOWN = 20  # more options than this: /choose reaches them all

STYLES = {"decide": discord.ButtonStyle.primary, "ready": discord.ButtonStyle.success,
          "attack": discord.ButtonStyle.danger, "end": discord.ButtonStyle.danger}
# The order of the rows of a turn: moves, attacks, then what the cards and the tile offer.
GROUPS = (("move",), ("attack",), ("roll", "power", "use", "pickup"), ("drop", "trade"))


class ActionButton(discord.ui.DynamicItem[discord.ui.Button], template=vocabulary.CUSTOM_ID):
    """A button that does one action of the game it was offered in."""

    def __init__(self, custom_id: str, label: str = "?", style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 row: int | None = None):
        super().__init__(discord.ui.Button(label=label[:80], style=style, custom_id=custom_id, row=row))
        self.carried = vocabulary.from_custom_id(custom_id)

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(item.custom_id, label=item.label or "?", style=item.style)

    async def callback(self, interaction: discord.Interaction):
        await interaction.client.on_action_button(interaction, self.carried)


class ViewButton(discord.ui.DynamicItem[discord.ui.Button], template=re.compile(r"bgv:(?P<kind>sheet|map|secret)")):
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


class LegacyButton(discord.ui.DynamicItem[discord.ui.Button],
                   template=re.compile(r"bg:(?P<kind>[a-z]+):(?P<arg>[^:]*):(?P<extra>[^:]*)")):
    """Buttons posted by earlier versions of the bot: the ones that show
    something still do; the ones that acted say to use the newest buttons."""

    def __init__(self, custom_id: str, kind: str, label: str = "?",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary):
        super().__init__(discord.ui.Button(label=label[:80], style=style, custom_id=custom_id))
        self.kind = kind

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(item.custom_id, match["kind"], label=item.label or "?", style=item.style)

    async def callback(self, interaction: discord.Interaction):
        if self.kind in ("sheet", "map", "secret"):
            await interaction.client.on_view_button(interaction, self.kind)
        else:
            await interaction.client.on_action_button(interaction, None)


def pinging(users: list[str]) -> discord.AllowedMentions:
    """Mentions that notify exactly these players (never everyone or a role)."""
    return discord.AllowedMentions(users=[discord.Object(int(u)) for u in users if u.isdigit()],
                                   everyone=False, roles=False)


def turn_controls(content, state: dict, game_id: int) -> tuple[discord.ui.View | None, list[str]]:
    """The buttons for whoever the game waits for, one per legal action (as
    many as fit), and the slash commands for a legal action whose button
    could not carry it."""
    who = actor(state)
    if who is None or state["phase"] == "over":
        return None, []
    actions = legal_actions(content, state)
    turn = vocabulary.turn_number(state)
    question = pending_key(state) if state["pending"] else ""
    hints: list[str] = []

    def button(action: dict, row: int | None) -> ActionButton | None:
        custom_id = vocabulary.to_custom_id(action, game_id, turn, question if action["type"] == "decide" else "")
        if custom_id is None:
            hints.append(vocabulary.slash_hint(action, state, content))
            return None
        style = STYLES.get(action["type"], discord.ButtonStyle.secondary)
        if action["type"] == "monster" and action.get("op") == "attack":
            style = discord.ButtonStyle.danger
        return ActionButton(custom_id, vocabulary.describe(action, state, content), style, row)

    view = discord.ui.View(timeout=None)
    seen: set[str] = set()

    def add(item, row=None):
        if item is not None and item.item.custom_id not in seen:
            seen.add(item.item.custom_id)
            if row is not None:
                item.item.row = row
            view.add_item(item)

    if state["pending"]:
        for i, action in enumerate(actions[:CHOICES_SHOWN]):
            add(button(action, i // PER_ROW))
        if len(actions) > CHOICES_SHOWN:
            hints.append(f"/choose option:{CHOICES_SHOWN + 1} to {len(actions)}")
        return view, hints
    for foe in across_barrier(content, state):
        hints.append(f"no Attack on {state['players'][foe]['name']}, who is across the barrier of the "
                     f"{content.tiles[state['players'][foe]['tile']].name} (cross it with the tile's roll first)")
    ends = [a for a in actions if a["type"] == "end"]
    others = [a for a in actions if a["type"] != "end"]
    if any(a["type"] == "ready" for a in actions):
        for action in others:
            add(button(action, 0))
        add(ViewButton("secret", "My secret rules", discord.ButtonStyle.primary, 0))
        return view, hints
    if (state.get("turn") or {}).get("monsters"):
        groups = [[a for a in others if a["type"] == "monster"], [a for a in others if a["type"] != "monster"]]
        last = []
    else:
        groups = [[a for a in others if a["type"] in kinds] for kinds in GROUPS]
        groups.append([a for a in others if not any(a["type"] in kinds for kinds in GROUPS)])
        last = [ViewButton("sheet", "My sheet", row=ROWS - 1)]
    row = 0
    for group in groups:
        for start in range(0, len(group), PER_ROW):
            if row >= ROWS - 1:
                break  # the last row is for End; what does not fit is a slash command away
            for action in group[start:start + PER_ROW]:
                add(button(action, row))
            row += 1
    for item in last:
        add(item)
    add(ViewButton("map", "Map", row=ROWS - 1))
    for action in ends:
        add(button(action, ROWS - 1))
    return view, hints


def turn_view(content, state: dict, game_id: int) -> discord.ui.View | None:
    return turn_controls(content, state, game_id)[0]


def secret_view() -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ViewButton("secret", "Show my secrets", discord.ButtonStyle.primary))
    return view
