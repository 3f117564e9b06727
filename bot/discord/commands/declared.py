"""Slash commands built from the systems' declarations (bot.kit.contract.Command): one command per
name across every system, its options all theirs (an option one system requires and another lacks is
optional, and checked for the channel's system when used). A command acts on whatever the channel
plays; used where the channel's game has no such command, it says which game the channel plays and
what to use instead. Commands a system's face registers by hand get the same guard (`guard`)."""
import inspect

import discord
from discord import app_commands

from bot.kit.errors import IllegalAction

from .common import builtin_choices

KINDS = {"text": str, "number": int, "flag": bool, "choice": str, "person": discord.Member, "seat": str}


def _merged(systems) -> dict[tuple[str | None, str], list[tuple]]:
    """(group, name) -> [(system, command)] over every system, in the order declared."""
    found: dict[tuple[str | None, str], list[tuple]] = {}
    for system in systems:
        for command in system.commands:
            found.setdefault((command.group, command.name), []).append((system, command))
    return found


def _params(declared: list[tuple]) -> list:
    """The union of the declarations' params by name: (param, required everywhere, choices shared)."""
    seen: dict[str, list] = {}
    for _, command in declared:
        for p in command.params:
            seen.setdefault(p.name, []).append(p)
    out = []
    for name, ps in seen.items():
        everywhere = len(ps) == len(declared) and all(p.required for p in ps)
        choices = ps[0].choices if all(p.choices == ps[0].choices for p in ps) else ()
        out.append((ps[0], everywhere, choices))
    return out


def _annotation(param, choices):
    if param.kind == "number" and (param.low is not None or param.high is not None):
        return app_commands.Range[int, param.low, param.high]
    return KINDS[param.kind]


def channel_plays(system, other_titles: list[str], name: str) -> str:
    return (f"This channel plays {system.title}, which has no /{name}"
            + (f" (that is {' or '.join(other_titles)}'s)" if other_titles else "")
            + ". /help lists its commands.")


def build(bot, systems) -> list[app_commands.Command]:
    """Every declared command, added to the bot's tree."""
    groups: dict[str, app_commands.Group] = {}
    made = []
    for (group, name), declared in _merged(systems).items():
        params = _params(declared)
        command = _command(bot, name, declared, params)
        if group:
            if group not in groups:
                groups[group] = app_commands.Group(name=group, description=f"{group.capitalize()} commands",
                                                   guild_only=True)
                bot.tree.add_command(groups[group])
            groups[group].add_command(command)
        else:
            bot.tree.add_command(command)
        made.append(command)
    return made


def _command(bot, name: str, declared: list[tuple], params: list) -> app_commands.Command:
    by_system = {system.id: command for system, command in declared}
    description = declared[0][1].description

    async def callback(interaction: discord.Interaction, **values):
        game = await bot.service.active_game(str(interaction.channel_id))
        system = bot.service.system(game) if game else bot.service.default
        command = by_system.get(system.id)
        if command is None:
            others = [s.title for s, _ in declared]
            await bot.private(interaction, channel_plays(system, others, name))
            return
        values = {k: (str(v.id) if isinstance(v, (discord.Member, discord.User)) else
                      v.value if isinstance(v, app_commands.Choice) else v)
                  for k, v in values.items() if v is not None}
        missing = [p.name for p in command.params if p.required and p.name not in values]
        if missing:
            await bot.private(interaction, f"/{name} needs {', '.join(missing)} in {system.title}.")
            return
        try:
            action = command.action(game.state if game else {}, str(interaction.user.id), values)
        except IllegalAction as e:
            await bot.private(interaction, e.reason)
            return
        await bot.act(interaction, {k: v for k, v in action.items() if k != "player"})

    signature = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                   annotation=discord.Interaction)]
    for param, required, choices in sorted(params, key=lambda t: not t[1]):
        annotation = _annotation(param, choices)
        signature.append(inspect.Parameter(param.name, inspect.Parameter.KEYWORD_ONLY,
                                           default=inspect.Parameter.empty if required else None,
                                           annotation=annotation if required else annotation | None))
    callback.__signature__ = inspect.Signature(signature)
    callback.__name__ = f"declared_{name}"
    callback.__qualname__ = callback.__name__
    callback.__discord_app_commands_param_description__ = {p.name: p.description or "…" for p, _, _ in params}
    choices = {p.name: [app_commands.Choice(name=n, value=v) for n, v in c] for p, _, c in params if c}
    if choices:
        callback.__discord_app_commands_param_choices__ = choices
    command = app_commands.Command(name=name, description=description, callback=callback)
    command.guild_only = True
    for param, _, shared_choices in params:
        if param.kind == "seat":
            command.autocomplete(param.name)(builtin_choices(bot))
        elif not shared_choices and (param.suggest or any(
                p.choices for _, c in declared for p in c.params if p.name == param.name)):
            command.autocomplete(param.name)(_suggestions(bot, declared, param.name))
    return command


def _suggestions(bot, declared, name):
    async def suggest(interaction: discord.Interaction, current: str):
        game = await bot.service.active_game(str(interaction.channel_id))
        system = bot.service.system(game) if game else bot.service.default
        command = next((c for s, c in declared if s.id == system.id), None)
        param = next((p for p in command.params if p.name == name), None) if command else None
        if param is None:
            return []
        offered = list(param.choices) or (param.suggest(system, game.state if game else {},
                                                        str(interaction.user.id)) if param.suggest else [])
        return [app_commands.Choice(name=shown[:100], value=str(value)) for shown, value in offered
                if current.lower() in shown.lower()][:25]
    return suggest


def guard(bot, system, commands):
    """Commands that belong to one system answer, in a channel playing another, with the game it
    plays and what to use instead."""
    async def same_game(interaction: discord.Interaction) -> bool:
        game = await bot.service.latest_game(str(interaction.channel_id))
        if game is None or bot.service.system(game).id == system.id:
            return True
        plays = bot.service.system(game)
        raise OtherGame(f"This channel plays {plays.title}; /{interaction.command.qualified_name} is "
                        f"{system.title}'s. /help lists the commands of {plays.title}.")
    for command in commands:
        for c in (command.walk_commands() if isinstance(command, app_commands.Group) else [command]):
            c.add_check(same_game)


class OtherGame(app_commands.CheckFailure):
    """A command of another game than the channel's: the reason is for the player."""


def registered_by(bot, register) -> list:
    """The top-level commands `register()` adds to the bot's tree."""
    before = {c.name for c in bot.tree.get_commands()}
    register()
    return [c for c in bot.tree.get_commands() if c.name not in before]


__all__ = ["build", "guard", "registered_by", "OtherGame"]
