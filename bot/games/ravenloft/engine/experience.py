"""The heroes' shared experience pile: defeated monsters' (and villains') cards, spent to cancel an
encounter card as it is drawn or to level a hero up after a natural 20. A spend takes cards adding
up to 5 or more; what is over 5 is lost."""

from . import data
from .state import Ctx


def card_xp(ctx: Ctx, card) -> int:
    mid = data.card_monster(ctx.content, card)
    return data.monster(ctx.content, mid)["xp"]


def total(ctx: Ctx) -> int:
    return sum(card_xp(ctx, c) for c in ctx.s["xp"])


def pick(ctx: Ctx, need: int = 5):
    """The cards a spend of `need` takes: the smallest total of at least `need`, then the fewest
    cards, then the earliest ones. None when the pile is short."""
    cards = list(ctx.s["xp"])
    vals = [card_xp(ctx, c) for c in cards]
    if sum(vals) < need:
        return None
    best = None
    n = len(cards)
    if n <= 14:
        for mask in range(1, 1 << n):
            chosen = [i for i in range(n) if mask >> i & 1]
            t = sum(vals[i] for i in chosen)
            if t < need:
                continue
            key = (t, len(chosen), chosen)
            if best is None or key < best:
                best = key
        return [cards[i] for i in best[2]]
    # a large pile: greedy from the largest, then drop what is not needed
    order = sorted(range(n), key=lambda i: (-vals[i], i))
    chosen, t = [], 0
    for i in order:
        if t >= need:
            break
        chosen.append(i)
        t += vals[i]
    return [cards[i] for i in sorted(chosen)]


def spend(ctx: Ctx, need: int = 5) -> int:
    """Discard the picked cards; the experience spent (0 when the pile is short)."""
    chosen = pick(ctx, need)
    if not chosen:
        return 0
    spent = 0
    for c in chosen:
        ctx.s["xp"].remove(c)
        spent += card_xp(ctx, c)
        tally = ctx.s.setdefault("tally", {})
        tally["xp_spent"] = tally.get("xp_spent", 0) + card_xp(ctx, c)
        if data.card_monster(ctx.content, c) in data.table(ctx.content, "villains"):
            ctx.s["set_aside"].append(c)
        else:
            ctx.s["decks"]["monster"]["discard"].append(c)
    return spent
