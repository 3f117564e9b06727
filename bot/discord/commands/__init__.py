"""The slash commands. The shared areas (/game, the looking commands, /server, /stats) speak to any
game through the contract; each system's declared commands are built by `declared`, and a system's
face may add commands of its own, which answer in a channel playing another game with the game it
plays (`declared.guard`). None of them knows a rule."""
from . import chronicle, declared, game, info, server, stats

AREAS = (game, info, server, stats, chronicle)


def register(bot):
    for area in AREAS:
        area.register(bot)
    declared.build(bot, bot.systems)
    for system in bot.systems:
        face = bot.face_of(system)
        declared.guard(bot, system, declared.registered_by(bot, lambda: face.register(bot)))
