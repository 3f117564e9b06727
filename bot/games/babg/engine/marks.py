"""Marks: lasting effects on one adventurer that no card in front of them
stands for, or that outlive the card (a curse on the next roll, a figure taken
off the board, a cap on next turn's movement, a Bardic Inspiration token).

Each mark is a plain dict {kind, ...data} in the player's `marks` list.
"""


def all_of(ctx, pid: str) -> list[dict]:
    return ctx.s["players"][pid].get("marks", [])


def add(ctx, pid: str, kind: str, **data) -> dict:
    mark = {"kind": kind, **data}
    ctx.s["players"][pid].setdefault("marks", []).append(mark)
    return mark


def find(ctx, pid: str, kind: str) -> dict | None:
    for mark in all_of(ctx, pid):
        if mark["kind"] == kind:
            return mark
    return None


def take(ctx, pid: str, kind: str) -> dict | None:
    """Remove and return the first mark of this kind."""
    marks = all_of(ctx, pid)
    for i, mark in enumerate(marks):
        if mark["kind"] == kind:
            return marks.pop(i)
    return None


def drop(ctx, pid: str, mark: dict):
    marks = all_of(ctx, pid)
    if mark in marks:
        marks.remove(mark)
