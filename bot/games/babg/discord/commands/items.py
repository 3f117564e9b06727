"""/item: use, drop, pick up or trade an item."""
import discord
from discord import app_commands

from bot.games.babg.vocabulary import make

from .common import builtin_choices, seat_named


def register(bot, system):
    item = app_commands.Group(name="item", description="Use, drop, pick up or trade an item", guild_only=True)

    async def card_choices(interaction: discord.Interaction, current: str, where: str):
        g = await bot.service.active_game(str(interaction.channel_id))
        uid = str(interaction.user.id)
        if g is None or uid not in g.state["players"]:
            return []
        p = g.state["players"][uid]
        ids = p["cards"] if where == "held" else g.state["piles"].get(p["tile"], [])
        names = [system.content().cards[c].name for c in ids if system.content().cards[c].deck != "event"]
        return [app_commands.Choice(name=n, value=n) for n in names if current.lower() in n.lower()][:25]

    @item.command(name="use", description="Use an item or omen you hold")
    async def item_use(interaction: discord.Interaction, item: str):
        await bot.act(interaction, make("use", card=item))

    @item.command(name="drop", description="Drop an item on your tile")
    async def item_drop(interaction: discord.Interaction, item: str):
        await bot.act(interaction, make("drop", card=item))

    @item.command(name="pickup", description="Pick up an item from the pile on your tile")
    async def item_pickup(interaction: discord.Interaction, item: str):
        await bot.act(interaction, make("pickup", card=item))

    @item.command(name="trade", description="Offer an item to a player on your tile")
    @app_commands.describe(to="A person on your tile", builtin="A built-in player on your tile")
    async def item_trade(interaction: discord.Interaction, item: str, to: discord.Member | None = None,
                         builtin: str | None = None):
        await bot.act(interaction, make("trade", card=item, to=seat_named(to, builtin)))

    async def held_choices(interaction: discord.Interaction, current: str):
        return await card_choices(interaction, current, "held")

    async def pile_choices(interaction: discord.Interaction, current: str):
        return await card_choices(interaction, current, "pile")

    for cmd in (item_use, item_drop, item_trade):
        cmd.autocomplete("item")(held_choices)
    item_pickup.autocomplete("item")(pile_choices)
    item_trade.autocomplete("builtin")(builtin_choices(bot))
    bot.tree.add_command(item)
