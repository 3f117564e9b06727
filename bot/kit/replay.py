"""A game turn by turn, from its seed and action log: the frames of a replay picture, for any system."""

MAX_FRAMES = 60


def turn_states(system, seed: int, actions: list[dict], options: dict | None = None,
                limit: int = MAX_FRAMES) -> list[dict]:
    """The state at the start of every turn once play has begun, and the last one; evenly thinned to at most
    `limit` frames (the first and the last always kept)."""
    state = system.new_game(seed, options)
    frames, turn = [], None
    for action in actions:
        state, _ = system.apply(state, action)
        if system.phase(state) == "lobby":
            continue
        number = system.turn_number(state)
        if number != turn:
            frames.append(state)
            turn = number
    if system.phase(state) != "lobby" and (not frames or frames[-1] is not state):
        frames.append(state)
    if len(frames) > limit:
        step = (len(frames) - 1) / (limit - 1)
        frames = [frames[round(i * step)] for i in range(limit)]
    return frames
