"""Castle Ravenloft's face on Discord (bot.discord.face): the plain face from its declarations, with the
dungeon's turn picture after every turn, the whole dungeon at the end, and the story."""
from bot.discord.face import Face as PlainFace


class Face(PlainFace):
    def map_due(self, before, state):
        """The turn picture with each new turn's message (the villain phase has moved things); the whole
        dungeon when the adventure ends."""
        s = self.system
        if s.phase(state) == "over" and s.phase(before) != "over":
            return True
        return s.phase(state) == "play" and s.turn_number(state) != s.turn_number(before)

    def replay_due(self, state):
        return True  # the end brings the adventure turn by turn, after the whole dungeon

    def nothing_secret_yet(self, state):
        return "Castle Ravenloft keeps no secrets between heroes: everything is on the table."
