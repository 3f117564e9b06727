"""Baldur's Gate's face on Discord (bot.discord.face): its turn messages, buttons and menus, its
pinned summary and its own commands (/roll, /power, /item, /monster, /haunt, /rules). The shared
verbs (/move, /attack, /end, /undo, /choose) are declared in bot.games.babg.system and built by
the adapter."""
from bot.discord.face import Face as PlainFace

from . import messages, views
from .commands import haunt, items, rules, turn
from .options import options_line


class Face(PlainFace):
    dynamic_items = (views.ActionButton, views.ActionSelect, views.LegacyButton)

    def register(self, bot):
        for area in (turn, haunt, items, rules):
            area.register(bot, self.system)

    def deliver(self, before, state, events, played=frozenset()):
        return messages.deliver(self.system.content(), before, state, events, played)

    def turn_controls(self, state, game_id, played=frozenset()):
        return views.turn_controls(self.system.content(), state, game_id, played)

    def summary(self, state):
        return messages.summary(self.system.content(), state)

    def new_round(self, before, state):
        return messages.new_round(before, state)

    def map_due(self, before, state):
        return messages.map_due(before, state)

    def in_play(self, state):
        return state.get("phase") in ("exploring", "haunt") and bool(state.get("board"))

    def stage(self, state):
        return state.get("phase"), (state.get("haunt") or {}).get("started", True)  # the haunt's reading time too

    def replay_due(self, state):
        return bool(state.get("board"))

    def welcome_text(self, where):
        return f"You are seated in the game in {where}. Private things (secret rules, hidden tokens) will come here."

    def nothing_secret_yet(self, state):
        if state["phase"] in ("lobby", "exploring"):
            return ("The haunt has not begun yet: when it does, your side's secret rules come to you privately, and "
                    "`/haunt rules` shows them again.")
        return None

    def help_text(self):
        return rules.HELP

    def opened(self, creator_mention, options_line):
        return (f"{creator_mention} opened a game of Betrayal at Baldur's Gate. Join with `/game join` "
                f"(3 to 6 players, built-in ones included: `/game builtin` adds one), then `/game start`."
                + (f" Options: {options_line}." if options_line else ""))

    def options_line(self, options, seeded):
        return options_line(options, seeded)
