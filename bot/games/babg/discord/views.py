"""Buttons (and, for a question with many options, select menus) under each
turn prompt. A button carries its action itself (see
bot.games.babg.vocabulary: the verb and fields, the game, the turn and, for an answer,
the question), so it keeps working after a restart; each click reloads the
game and goes through the same door as a slash command. The buttons offered
are exactly the engine's legal actions, so a button is never refused for a
rule; a click from an earlier turn or a finished game is refused privately.
The buttons are posted in the channel, so every word on them comes from the
view everyone shares (bot.games.babg.engine.view), never from the state."""
import re

import discord

from bot.discord.controls import (LABEL, PER_ROW, PER_SELECT, ROWS, Claimed, Controls, ViewButton,  # noqa: F401
                                  _add, _option, pinging, secret_view)

from bot.games.babg import vocabulary
from bot.games.babg.engine.legal import across_barrier, actor, legal_actions
from bot.games.babg.engine.view import view as game_view
from bot.games.babg.vocabulary import pending_key  # noqa: F401  (the question's fingerprint, for callers and tests)

BUTTON_CHOICES = PER_ROW  # a question with more options than this is asked with select menus
SELECTS = ROWS      # a select fills a row: a long question gets two menus at most

STYLES = {"decide": discord.ButtonStyle.primary, "ready": discord.ButtonStyle.success,
          "attack": discord.ButtonStyle.danger, "end": discord.ButtonStyle.danger}
# The common moves are buttons, in this order; the rest of a turn is in the "More actions…" menu, in MENU_ORDER.
COMMON = ("move", "attack", "monster", "task")
LAST = ("undo", "end")  # always buttons, last in the first row
MENU_ORDER = ("roll", "power", "use", "pickup", "drop", "trade")
# The menu's last options show something, as the buttons they stand for do (only to whoever chose them).
VIEW_OPTIONS = {"show.sheet": ("sheet", "My sheet (only you see it)"), "show.map": ("map", "Map (only you see it)")}


class ActionButton(Claimed, discord.ui.DynamicItem[discord.ui.Button], template=vocabulary.CUSTOM_ID):
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


class ActionSelect(Claimed, discord.ui.DynamicItem[discord.ui.Select], template=vocabulary.SELECT_ID):
    """A select menu answering a question, or a turn's "More actions…": each
    option carries its action, the menu the game, turn and question (see
    bot.games.babg.vocabulary), so it keeps working after a restart and a stale one is
    refused like a stale button."""

    def __init__(self, custom_id: str, options: list[discord.SelectOption], placeholder: str | None = None):
        # (no row: in discord.py 2.7 a select's row is not seen through a DynamicItem; a select fills a
        # row, so menus added first take the first rows)
        super().__init__(discord.ui.Select(custom_id=custom_id, options=options, placeholder=placeholder,
                                           min_values=1, max_values=1))

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(item.custom_id, list(item.options), item.placeholder)

    async def callback(self, interaction: discord.Interaction):
        values = self.item.values
        if values and values[0] in VIEW_OPTIONS:  # My sheet or the Map, from a turn's menu
            await interaction.client.on_view_button(interaction, VIEW_OPTIONS[values[0]][0])
            return
        carried = vocabulary.from_select(self.item.custom_id, values[0]) if values else None
        await interaction.client.on_action_button(interaction, carried)


class LegacyButton(Claimed, discord.ui.DynamicItem[discord.ui.Button],
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


def turn_controls(content, state: dict, game_id: int,
                  played: set[str] = frozenset()) -> tuple[discord.ui.View | None, list[str]]:
    """The controls for whoever the game waits for, in at most two rows (most
    players read on a phone): the common moves as buttons (moves, attacks,
    haunt moves, a short question's answers, Undo, End), the rest (items,
    the power, the tile's roll, what does not fit) in a "More actions…"
    menu that also shows My sheet and the Map; and the slash commands for a
    legal action neither could carry."""
    seen = game_view(state)  # posted in the channel: every word from what everyone there may see
    who = actor(seen)
    if who is None or seen["phase"] == "over" or who in played and (seen.get("haunt") or {}).get("started", True):
        return None, []  # (a seat the bot plays needs no buttons; in the haunt's reading time Ready is anyone's)
    # What is legal is the engine's answer, from the whole game (a haunt's moves are tried on a copy of it).
    return controls(content, seen, legal_actions(content, state), across_barrier(content, state), game_id)


def controls(content, seen: dict, actions: list[dict], barred: list[str],
             game_id: int) -> tuple[discord.ui.View, list[str]]:
    """The controls for the legal `actions` (and the hint for the foes `barred` from an attack by a
    barrier), built from `seen`, the view of the game everyone shares: nothing here reads the state."""
    offered = vocabulary.offers(content, seen, actions, game_id, SELECTS)
    hints: list[str] = []
    view = Controls()
    fixed = sorted((o for o in offered.items if o.action["type"] in LAST), key=lambda o: LAST.index(o.action["type"]))
    others = [o for o in offered.items if o.action["type"] not in LAST]
    if seen["pending"]:  # a short question: a button for each answer (and Undo), in one row; a long one: menus
        if len(offered.items) > BUTTON_CHOICES:
            return _question_menus(offered.menu_ids, others, fixed, view, hints)
        for offer in others + fixed:
            _add(view, _button(offer, 0, hints))
        return view, hints
    for foe in barred:
        hints.append(f"no Attack on {seen['players'][foe]['name']}, who is across the barrier of the "
                     f"{content.tiles[seen['players'][foe]['tile']].name} (cross it with the tile's roll first)")
    if any(o.action["type"] == "ready" for o in offered.items):
        for offer in others:
            _add(view, _button(offer, 0, hints))
        _add(view, ViewButton("secret", "My secret rules", discord.ButtonStyle.primary, 0))
        return view, hints
    common = sorted((o for o in others if o.action["type"] in COMMON), key=lambda o: COMMON.index(o.action["type"]))
    rest = sorted((o for o in others if o.action["type"] not in COMMON), key=_rarity)
    if not rest and len(common) + len(fixed) <= ROWS * PER_ROW - 2:
        # everything fits as buttons: My sheet and Map after them, two rows at most
        items = [b for b in (_button(o, None, hints) for o in common + fixed) if b is not None]
        for n, item in enumerate(items + [ViewButton("sheet", "My sheet"), ViewButton("map", "Map")]):
            _add(view, item, n // PER_ROW)
        return view, hints
    room = PER_ROW - len(fixed)  # one row of buttons, then the menu
    for offer in common[:room] + fixed:
        _add(view, _button(offer, 0, hints))
    options = []
    for offer in common[room:] + rest:
        if offer.value is None or len(options) >= PER_SELECT - len(VIEW_OPTIONS):
            hints.append(offer.hint)
        else:
            options.append(_option(offer.label, offer.value))
    options += [discord.SelectOption(label=label, value=value) for value, (_, label) in VIEW_OPTIONS.items()]
    view.add_item(ActionSelect(offered.menu_ids[0], options, "More actions…"))
    return view, hints


def _button(offer: vocabulary.Offer, row: int | None, hints: list[str]) -> ActionButton | None:
    """The offer's button, or None with its slash command in `hints` when no button can carry it."""
    if offer.custom_id is None:
        hints.append(offer.hint)
        return None
    kind = offer.action["type"]
    style = STYLES.get(kind, discord.ButtonStyle.secondary)
    if kind == "monster" and offer.action.get("op") == "attack":
        style = discord.ButtonStyle.danger
    return ActionButton(offer.custom_id, offer.label, style, row)


def _rarity(offer: vocabulary.Offer) -> int:
    """Where an action comes in the menu: the tile's roll and the power first, then items, then the rest."""
    kind = offer.action["type"]
    return MENU_ORDER.index(kind) if kind in MENU_ORDER else len(MENU_ORDER)


def _question_menus(menu_ids: tuple[str, ...], offers: list[vocabulary.Offer], fixed: list[vocabulary.Offer],
                    view: discord.ui.View, hints: list[str]) -> tuple[discord.ui.View, list[str]]:
    """A question with many options: a select menu of up to 25 options, then
    a row with Undo (when open), Map and My sheet; past 25, two menus (50
    options), /choose for the rest and /map, /sheet for those buttons. An
    option a menu cannot carry is left to /choose."""
    room = PER_SELECT if len(offers) <= PER_SELECT else PER_SELECT * SELECTS
    options, left = [], []
    for i, offer in enumerate(offers):
        if offer.value is None or len(options) >= room:
            left.append(i + 1)
        else:
            options.append((i + 1, _option(offer.label, offer.value)))
    menus = [options[start:start + PER_SELECT] for start in range(0, len(options), PER_SELECT)]
    for n, menu in enumerate(menus):
        first, last = menu[0][0], menu[-1][0]
        placeholder = "Choose your answer" if len(menus) == 1 else f"Choose: options {first} to {last}"
        view.add_item(ActionSelect(menu_ids[n], [o for _, o in menu], placeholder))
    if left:  # (every answer fits an option: only options past the menus are left)
        hints.append(f"/choose option:{left[0]}" + (f" to {left[-1]}" if len(left) > 1 else ""))
    if len(menus) < ROWS:  # the row after the menu
        for offer in fixed:
            _add(view, _button(offer, None, hints))
        view.add_item(ViewButton("map", "Map"))
        view.add_item(ViewButton("sheet", "My sheet"))
    else:
        hints += [offer.hint for offer in fixed]
    return view, hints


def turn_view(content, state: dict, game_id: int) -> discord.ui.View | None:
    return turn_controls(content, state, game_id)[0]
