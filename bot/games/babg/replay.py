"""A finished (or running) game, turn by turn, from its seed and action log:
the frames of the replay picture."""

MAX_FRAMES = 60


def turn_states(engine, seed: int, actions: list[dict], haunt: str = "play", limit: int = MAX_FRAMES,
                options: dict | None = None) -> list[dict]:
    """The state at the start of every turn and at the end, replayed from the
    log (and the game's options, state["options"]); evenly thinned to at
    most `limit` frames (the last always kept)."""
    state = engine.new_game(seed, haunt, {k: v for k, v in (options or {}).items() if k != "haunt"})
    frames, turn = [], None
    for action in actions:
        state, _ = engine.apply(state, action)
        number = (state.get("turn") or {}).get("number")
        if number != turn and state.get("board"):
            frames.append(state)
            turn = number
    if state.get("board") and (not frames or frames[-1] is not state):
        frames.append(state)
    if len(frames) > limit:
        step = (len(frames) - 1) / (limit - 1)
        frames = [frames[round(i * step)] for i in range(limit)]
    return frames
