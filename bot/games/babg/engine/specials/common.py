"""Small helpers the special handlers share: distances on the map, lists of
tiles to choose from, the player on your right, changing the next roll."""
from .. import effects
from .. import state as st
from ..geometry import distances, moves_from  # noqa: F401  (re-exported for the special handlers)


def right_of(ctx, pid: str) -> str:
    """The player on your right: the seat before yours (play passes left)."""
    return st.left_of(ctx.s, pid, -1)


def card_state(ctx, card_id: str, store: bool = False) -> dict:
    """What a card remembers about itself whoever holds it (the tokens on the
    Deck of Many Things, the Figurine's one use). Only with `store` is the
    state written: a check (legal actions, a button) must not change the game."""
    if not store:
        return dict(ctx.s.get("card_state", {}).get(card_id, {}))
    return ctx.s.setdefault("card_state", {}).setdefault(card_id, {})


def tile_choices(ctx, tiles) -> list[tuple[str, str | None, str]]:
    """(tile, half, label) for each tile; a barrier tile is offered once per
    half (rulebook: Special Tiles, a card that puts you on a barrier tile
    lets you pick the side)."""
    found = []
    for tid in tiles:
        tile = ctx.c.tiles[tid]
        if tile.barrier:
            for half in ("north", "south"):
                found.append((tid, half, f"{tile.name} ({half} half)"))
        else:
            found.append((tid, None, tile.name))
    return found


def adjust_next_roll(task: dict, **fields):
    """Change the next roll step of a task (a copy: the content stays as it is)."""
    for i, item in enumerate(task["steps"]):
        if item.get("do") == "roll":
            task["steps"][i] = {**item, **fields}
            return


def ask_tile(ctx, pid: str, prompt: str, choices, kind: str, **data):
    """Ask for one of `choices` from tile_choices; decide at once when there
    is only one."""
    if len(choices) == 1:
        return choices[0]
    effects.ask(ctx, pid, kind, prompt, [label for _, _, label in choices],
                tiles=[[t, h] for t, h, _ in choices], **data)
    return None
