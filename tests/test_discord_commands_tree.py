"""The command tree against Discord's limits (100 global commands, 25 subcommands in a group, 25
options in a command, 25 choices in an option), printed, with every registered system's commands in it."""
from discord import app_commands

from bot import games
from bot.config import Config
from bot.discord.client import GameBot
from tests.toy_system import TOY

LIMITS = {"commands": 100, "subcommands": 25, "options": 25, "choices": 25}


def tree_figures(bot) -> dict:
    commands = bot.tree.get_commands()
    leaves = [c for top in commands for c in (top.walk_commands() if isinstance(top, app_commands.Group) else [top])]
    return {"commands": len(commands),
            "subcommands": max(len(g.commands) for g in commands if isinstance(g, app_commands.Group)),
            "options": max(len(c.parameters) for c in leaves),
            "choices": max((len(p.choices) for c in leaves for p in c.parameters), default=0),
            "names": sorted(c.qualified_name for c in leaves)}


def test_the_command_tree_keeps_within_discords_limits(engine, tmp_path):
    games.register(TOY)
    try:
        bot = GameBot(Config(token="fake", data_dir=str(tmp_path), dev_guild_id=None, poll_seconds=3600), engine)
        figures = tree_figures(bot)
    finally:
        games.unregister(TOY.id)
    print({k: v for k, v in figures.items() if k != "names"}, "limits", LIMITS)
    print("commands:", ", ".join(figures["names"]))
    for key, limit in LIMITS.items():
        assert figures[key] <= limit, key
    assert {"move", "attack", "end", "undo", "choose", "dash", "step", "game new", "game join"} <= set(figures["names"])
    new = next(c for c in bot.tree.get_command("game").commands if c.name == "new")
    game_option = next(p for p in new.parameters if p.name == "game")
    titles = [c.name for c in game_option.choices]
    assert titles[0] == "Betrayal at Baldur's Gate" and TOY.title in titles
