class IllegalAction(Exception):
    """An action the rules do not allow now. `reason` is written for the player."""

    def __init__(self, reason: str):
        if reason.startswith("the "):  # a reason opening with a monster's name ("the Beholder is stunned ...")
            reason = "T" + reason[1:]
        super().__init__(reason)
        self.reason = reason
