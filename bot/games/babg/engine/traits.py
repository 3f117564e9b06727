"""Trait tracks, gains, losses and damage (rulebook: Traits)."""
from . import hooks
from .content import MENTAL, PHYSICAL, TRAITS

TOP = 8
RAISED = []  # callbacks(ctx, pid, trait) run after a trait goes up (Crawling Claw, Mists of Ravenloft)
AT_SKULL = []  # callbacks(ctx, pid, trait) run when a trait falls to the skull during the haunt (death)


def lowest_position(ctx) -> int:
    """Before the haunt no trait falls below its lowest number; after it, the
    skull (position 0) is death (rulebook: Traits)."""
    return 1 if ctx.s["phase"] != "haunt" else 0


def change(ctx, pid: str, trait: str, delta: int, quiet: bool = False) -> int:
    """Move a trait's clip by `delta` steps, stopping at the maximum and the
    lowest allowed step. Returns the steps actually moved."""
    p = ctx.s["players"][pid]
    old = p["traits"][trait]
    new = max(lowest_position(ctx), min(TOP, old + delta))
    if new == 0 and old > 0 and hooks.first("skull_spared", ctx, pid, trait):
        new = 1  # the haunt keeps this adventurer off the skull (an immortal traitor)
    p["traits"][trait] = new
    moved = new - old
    if not quiet:
        before = ctx.c.adventurers[p["adventurer"]].tracks[trait].values[old - 1] if old > 0 else 0
        after = ctx.value(pid, trait)
        if moved == 0:
            edge = "maximum" if delta > 0 else "lowest value"
            ctx.say(f"{ctx.name(pid)}'s {trait.capitalize()} is already at its {edge} ({after}).",
                    kind="trait", player=pid, trait=trait, delta=0)
        elif before == after:
            way = "up" if moved > 0 else "down"
            ctx.say(f"{ctx.name(pid)}'s {trait.capitalize()} moves {abs(moved)} {way} its track and is still {after}.",
                    kind="trait", player=pid, trait=trait, delta=moved)
        else:
            verb = "rises" if moved > 0 else "drops"
            ctx.say(f"{ctx.name(pid)}'s {trait.capitalize()} {verb} from {before} to {after}.",
                    kind="trait", player=pid, trait=trait, delta=moved)
    if moved > 0:
        for hook in RAISED:
            hook(ctx, pid, trait)
    if new == 0 and moved < 0:
        for hook in AT_SKULL:
            hook(ctx, pid, trait)
    return moved


def damage_outcomes(ctx, pid: str, kind: str, amount: int) -> list[tuple[int, int]]:
    """The distinct results of splitting `amount` points between the two
    traits of `kind`: a list of (points to the first trait, to the second)."""
    first, second = PHYSICAL if kind == "physical" else MENTAL
    p = ctx.s["players"][pid]["traits"]
    floor = lowest_position(ctx)
    seen, outcomes = set(), []
    for k in range(amount, -1, -1):
        result = (max(floor, p[first] - k), max(floor, p[second] - (amount - k)))
        if result not in seen:
            seen.add(result)
            outcomes.append((k, amount - k))
    return outcomes


def split_label(ctx, pid: str, kind: str, split: tuple[int, int]) -> str:
    """A damage split as its option reads, with each trait's value before and
    after ("-1 Might (4 → 3), -1 Speed (3 → 2)"), and a death said so."""
    first, second = PHYSICAL if kind == "physical" else MENTAL
    p = ctx.s["players"][pid]
    parts = []
    for n, t in zip(split, (first, second)):
        if n:
            after = max(lowest_position(ctx), p["traits"][t] - n)
            shown = position_value(ctx, pid, t, after) if after > 0 else "the skull"
            parts.append(f"-{n} {t.capitalize()} ({ctx.value(pid, t)} → {shown})")
    return (", ".join(parts) or "no loss") + (": dies" if split_kills(ctx, pid, kind, split) else "")


def position_value(ctx, pid: str, trait: str, position: int) -> int:
    """The value printed on the trait's track at `position` (what the trait would read)."""
    return ctx.c.adventurers[ctx.s["players"][pid]["adventurer"]].tracks[trait].values[position - 1]


def split_kills(ctx, pid: str, kind: str, split: tuple[int, int]) -> bool:
    """Whether taking the damage so puts a trait on the skull (rulebook: Traits, death in the haunt)."""
    p = ctx.s["players"][pid]
    return lowest_position(ctx) == 0 and any(
        n and p["traits"][t] - n <= 0 for n, t in zip(split, PHYSICAL if kind == "physical" else MENTAL))


def apply_split(ctx, pid: str, kind: str, split: tuple[int, int]):
    for trait, n in zip(PHYSICAL if kind == "physical" else MENTAL, split):
        if n:
            change(ctx, pid, trait, -n)


def all_traits() -> tuple:
    return TRAITS
