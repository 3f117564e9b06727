"""Finding the haunt and its traitor (rulebook: Revealing the Haunt; Traitor's
Tome: the haunt chart and the traitor table)."""
from collections import deque

from . import board as bd
from . import rng
from . import state as st


def chart_tile(content, state: dict, tile_id: str) -> str:
    """The chart row for the revealer's tile. Ruling: when an effect made the
    revealer draw the omen on a tile that is not on the chart, the nearest
    placed omen tile (fewest moves, then board order) stands in."""
    if tile_id in content.chart_rows:
        return tile_id
    seen, todo = {tile_id}, deque([tile_id])
    squares = bd.grid(state["board"])
    while todo:
        tid = todo.popleft()
        if tid in content.chart_rows:
            return tid
        tile = content.tiles[tid]
        nexts = [t for t in bd.exits(content, state["board"], tid, squares).values() if t]
        if tile.stairs_to in state["board"]:
            nexts.append(tile.stairs_to)
        if tile.sewer_grate and "catacomb_landing" in state["board"]:
            nexts.append("catacomb_landing")
        for t in nexts:
            if t not in seen:
                seen.add(t)
                todo.append(t)
    placed = [t for t in state["board"] if t in content.chart_rows]
    return placed[0] if placed else next(iter(content.chart_rows))


def nearest_left(state: dict, revealer: str, tied: list[str]) -> str:
    """Ties go to the haunt revealer, else to the tied player nearest the
    revealer's left (Ruling: traitor ties, among the tied only)."""
    if revealer in tied:
        return revealer
    for k in range(1, len(state["seats"])):
        pid = st.left_of(state, revealer, k)
        if pid in tied:
            return pid
    return tied[0]


def choose_traitors(content, state: dict, number: int, revealer: str, tie=None) -> list[str]:
    """The players who become traitors for haunt `number` (empty when the
    haunt has none, or a hidden one). `tie(state, revealer, tied)` breaks a
    tie (default: nearest_left)."""
    tie = tie or nearest_left
    rule = content.traitor_rules[number]
    alive = [pid for pid in state["seats"] if state["players"][pid]["alive"]]
    for step in rule.pick:
        kind = step["step"]
        if kind in ("adventurer", "adventurer_not_revealer"):
            found = [pid for pid in alive if state["players"][pid]["adventurer"] == step["adventurer"]]
            if found and not (kind == "adventurer_not_revealer" and found[0] == revealer):
                return found
        elif kind in ("lowest", "highest"):
            values = {pid: st.trait_value(content, state, pid, step["trait"]) for pid in alive}
            target = (min if kind == "lowest" else max)(values.values())
            return [tie(state, revealer, [p for p in alive if values[p] == target])]
        elif kind == "revealer":
            return [revealer]
        elif kind == "left_of_revealer":
            return [st.left_of(state, revealer)]
        elif kind == "oldest_but_revealer":
            others = [p for p in alive if p != revealer]
            ages = {p: content.adventurers[state["players"][p]["adventurer"]].age for p in others}
            oldest = max(ages.values())
            return [tie(state, revealer, [p for p in others if ages[p] == oldest])]
        elif kind == "holder":
            found = [pid for pid in alive if step["card"] in state["players"][pid]["cards"]]
            if found:
                return found
        elif kind == "everyone":
            return alive
        elif kind == "everyone_but_revealer":
            return [p for p in alive if p != revealer]
    return []


def deal_hidden_tokens(state: dict, each: int = 1) -> dict:
    """Hidden traitor: numbered tokens 1..players dealt face down; 1 is the
    traitor (rulebook: Haunts With a Hidden Traitor). A haunt that deals
    `each` tokens to every player numbers them 1..each x players and gives
    each player a list (haunt 37)."""
    seats = state["seats"]
    numbers = rng.shuffle(state, list(range(1, each * len(seats) + 1)))
    if each == 1:
        return dict(zip(seats, numbers))
    return {pid: numbers[i * each:(i + 1) * each] for i, pid in enumerate(seats)}  # as dealt: their order tells nothing


def tokens_text(held) -> str:
    """What a player's hidden tokens show, for their own eyes."""
    numbers = st.token_numbers(held)
    if len(numbers) == 1:
        return f"Your token shows {numbers[0]}."
    return f"Your tokens show {' and '.join(map(str, numbers))}."
