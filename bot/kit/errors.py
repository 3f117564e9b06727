class IllegalAction(Exception):
    """An action the rules do not allow now. `reason` is written for the player: what is wrong and what
    to do instead. Every system's engine raises this one type, so every adapter answers it the same way."""

    def __init__(self, reason: str):
        if reason.startswith("the "):  # a reason opening with a monster's name ("the Beholder is stunned ...")
            reason = "T" + reason[1:]
        super().__init__(reason)
        self.reason = reason


class ContentError(ValueError):
    """A content file (a card, tile or scenario in rules_data) the bot cannot use: one line naming the
    file, the entry and the field. Every system's loader raises a subclass of this."""
