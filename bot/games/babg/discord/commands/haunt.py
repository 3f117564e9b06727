"""The haunt: the monster turn (/monster) and /haunt (ready, your rules, and the table's toolkit);
/attack is a shared verb declared in bot.games.babg.system."""
import discord
from discord import app_commands

from bot.games.babg import vocabulary
from bot.games.babg.engine import IllegalAction
from bot.games.babg.engine.state import monster_called
from bot.games.babg.vocabulary import make

from .common import TRAITS, WAYS, builtin_choices, seat_named


def register(bot, system):
    tree = bot.tree

    async def monster_choices(interaction: discord.Interaction, current: str):
        g = await bot.service.active_game(str(interaction.channel_id))
        if g is None:
            return []
        named = [(monster_called(m), f"{m['name']} {m['number']}") for m in g.state.get("monsters", [])
                 if not m["dead"]]  # (shown as the game says it; the value is what the command reads)
        return [app_commands.Choice(name=n, value=v) for n, v in named
                if current.lower() in f"{n} {v}".lower()][:25]


    monsters = app_commands.Group(name="monster", description="The monster turn", guild_only=True)

    @monsters.command(name="move", description="Move a monster one tile")
    @app_commands.choices(direction=WAYS)
    async def monster_move(interaction: discord.Interaction, monster: str, direction: app_commands.Choice[str]):
        await bot.act(interaction, make("monster", op="move", monster=monster, way=direction.value))

    @monsters.command(name="attack", description="A monster attacks a hero on its tile")
    @app_commands.describe(builtin="A built-in player's adventurer to attack")
    async def monster_attack(interaction: discord.Interaction, monster: str, player: discord.Member | None = None,
                             builtin: str | None = None):
        await bot.act(interaction, make("monster", op="attack", monster=monster, target=seat_named(player, builtin)))

    monster_move.autocomplete("monster")(monster_choices)
    monster_attack.autocomplete("monster")(monster_choices)
    monster_attack.autocomplete("builtin")(builtin_choices(bot))
    tree.add_command(monsters)

    haunt = app_commands.Group(name="haunt", description="The haunt: your rules, ready, and the table's tools",
                               guild_only=True)

    @haunt.command(name="ready", description="You have read your side's rules")
    async def haunt_ready(interaction: discord.Interaction):
        await bot.act(interaction, make("ready"))

    @haunt.command(name="rules", description="Your side's secret rules again (only you see them)")
    async def haunt_rules(interaction: discord.Interaction):
        await bot.show_secrets(interaction, str(interaction.user.id))

    @haunt.command(name="counter", description="Change a haunt counter (the Turn/Damage track and the like)")
    async def haunt_counter(interaction: discord.Interaction, name: str, change: int | None = None,
                            set_to: int | None = None):
        await bot.act(interaction, make("counter", name=name, delta=change, value=set_to))

    @haunt.command(name="token", description="Put a token on your tile, or take one off")
    @app_commands.choices(action=[app_commands.Choice(name="place", value="place"),
                                  app_commands.Choice(name="remove", value="remove")])
    async def haunt_token(interaction: discord.Interaction, action: app_commands.Choice[str], name: str):
        await bot.act(interaction, make("token", op=action.value, name=name))

    @haunt.command(name="slay", description="Take a monster off the board when the haunt's own rule kills it")
    async def haunt_slay(interaction: discord.Interaction, monster: str):
        await bot.act(interaction, make("slay", monster=monster))

    async def named(interaction: discord.Interaction, current: str, names) -> list:
        return [app_commands.Choice(name=n[:100], value=n[:100]) for n in dict.fromkeys(names)
                if current.lower() in n.lower()][:25]

    async def counter_choices(interaction: discord.Interaction, current: str):
        g = await bot.service.active_game(str(interaction.channel_id))
        return await named(interaction, current, ((g.state.get("haunt") or {}).get("counters", {}) if g else {}))

    async def token_choices(interaction: discord.Interaction, current: str):
        g = await bot.service.active_game(str(interaction.channel_id))
        return await named(interaction, current, [t["name"] for t in g.state.get("tokens", [])] if g else [])

    haunt_counter.autocomplete("name")(counter_choices)
    haunt_token.autocomplete("name")(token_choices)
    haunt_slay.autocomplete("monster")(monster_choices)

    @haunt.command(name="task", description="One of the haunt's own moves (the list shows those open to you now)")
    @app_commands.describe(move="The move with its trait and target: pick one from the list")
    async def haunt_task(interaction: discord.Interaction, move: str):
        g = await bot.service.active_game(str(interaction.channel_id))
        state = g.state if g else {"phase": "lobby", "players": {}, "seats": []}
        try:
            action = vocabulary.move_from_value(move, state, system.content(), str(interaction.user.id))
        except IllegalAction as e:
            await bot.private(interaction, str(e))
            return
        await bot.act(interaction, action)

    async def move_choices(interaction: discord.Interaction, current: str):
        g = await bot.service.active_game(str(interaction.channel_id))
        if g is None:
            return []
        offered = vocabulary.move_choices(system.content(), g.state, str(interaction.user.id))
        return [app_commands.Choice(name=label[:100], value=value) for label, value in offered
                if current.lower() in label.lower()][:25]

    haunt_task.autocomplete("move")(move_choices)

    @haunt.command(name="declare", description="Declare that a side has won (the other side confirms)")
    @app_commands.choices(side=[app_commands.Choice(name="the traitor", value="traitor"),
                                app_commands.Choice(name="the heroes", value="heroes")])
    async def haunt_declare(interaction: discord.Interaction, side: app_commands.Choice[str]):
        await bot.act(interaction, make("declare", side=side.value))

    @haunt.command(name="confirm", description="Answer a claimed win: yes, that side won; or no, play on")
    @app_commands.choices(answer=[app_commands.Choice(name="yes, they won", value="yes"),
                                  app_commands.Choice(name="no, play on", value="no")])
    async def haunt_confirm(interaction: discord.Interaction, answer: app_commands.Choice[str]):
        # Answered privately and announced unsigned: who disputed a claim must not point at a hidden traitor.
        await bot.act(interaction, make("confirm", agree=answer.value == "yes"),
                      unsigned=f"Your answer ({answer.name}) is in; only you see this.")

    @haunt.command(name="trait", description="Change one of your traits, when the haunt says to")
    @app_commands.choices(trait=TRAITS)
    async def haunt_trait(interaction: discord.Interaction, trait: app_commands.Choice[str], change: int):
        await bot.act(interaction, make("trait", trait=trait.value, delta=change))

    @haunt.command(name="unmask", description="The hidden traitor turns token 1 face up")
    async def haunt_unmask(interaction: discord.Interaction):
        await bot.act(interaction, make("unmask"))

    @haunt.command(name="part2", description="Open the second part of your side's rules, when it says so")
    async def haunt_part2(interaction: discord.Interaction):
        await bot.act(interaction, make("part_two"))

    tree.add_command(haunt)
