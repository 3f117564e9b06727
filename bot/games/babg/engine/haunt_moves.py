"""A haunt's special moves, as its rule set declares them (rulesets.Move):
checked at the door, carried out, and listed for the buttons and the
built-in players. A `task` action names a declared move; anything else is
refused with the moves open now (Traitor's Tome and Secrets of Survival:
each haunt's own actions; rulebook: Attempt a Die Roll, "Task Rolls")."""
from itertools import product

from . import rulesets
from .errors import IllegalAction
from .sides import heroes, traitors

TRAITS = ("might", "speed", "knowledge", "sanity")


def declared(ctx) -> tuple:
    ruleset = rulesets.active(ctx)
    return ruleset.moves if ruleset is not None else ()


def closed(ctx, pid: str, move: rulesets.Move) -> str | None:
    """Why `pid` may not make `move` now (before its arguments), or None."""
    s = ctx.s
    turn = s.get("turn") or {}
    monster_turn = bool(turn.get("monsters"))
    doing = move.label[:1].lower() + move.label[1:]  # "search for Alchemist's Fire", inside a sentence
    if move.when == "own_turn" and monster_turn:
        return f"{move.label} is made on an adventurer's own turn, not in the monster turn."
    if move.when == "monster_turn" and not monster_turn:
        return f"{move.label} is made in the monster turn."
    if move.who == "heroes" and pid not in heroes(s):
        return f"Only the heroes may {doing}."
    if move.who == "traitors" and pid not in traitors(s):
        return f"Only the traitor's side may {doing}."
    if move.once_per_turn and f"move:{move.name}" in turn.get("rolls", []):
        return f"You have already tried to {doing} this turn."
    if move.instead_of_attack and turn.get("attacked"):
        return f"You have already attacked this turn, and to {doing} takes the attack."
    if move.allowed is not None:
        return move.allowed(ctx, pid)
    return None


def open_names(ctx, pid: str) -> list[str]:
    return [m.name for m in declared(ctx) if closed(ctx, pid, m) is None]


def make(ctx, pid: str, action: dict):
    """Carry out the declared move the `task` action names, checking who,
    when, the trait and each argument first."""
    moves = declared(ctx)
    name = (action.get("task") or "").strip().lower()
    move = next((m for m in moves if m.name == name), None)
    if move is None:
        open_now = open_names(ctx, pid)
        if not moves:
            raise IllegalAction("This haunt has no special moves.")
        raise IllegalAction(f"This haunt has no move '{name[:40]}'. "
                            + (f"Open to you now: {', '.join(open_now)}." if open_now else "None is open to you now."))
    why = closed(ctx, pid, move)
    if why:
        raise IllegalAction(why)
    trait = (action.get("trait") or "").lower() or None
    if not move.traits:
        if trait:
            raise IllegalAction(f"{move.label} rolls no trait.")
    elif trait is None:
        if len(move.traits) > 1:
            raise IllegalAction(f"{move.label}: roll which trait? {' or '.join(move.traits)}.")
        trait = move.traits[0]
    elif trait not in move.traits:
        raise IllegalAction(f"{move.label} rolls {' or '.join(move.traits)}, not {trait}.")
    given = {}
    for arg in move.args:
        value = action.get(arg.field)
        if value is None:
            raise IllegalAction(f"{move.label}: {arg.label or 'which ' + arg.kind + '?'}")
        if value not in arg.values(ctx, pid):
            raise IllegalAction(f"{move.label} cannot take that {arg.kind} now.")
        given[arg.field] = value
    extra = [f for f in rulesets.ARG_FIELDS.values() if action.get(f) is not None and f not in given]
    if extra:
        raise IllegalAction(f"{move.label} takes no {extra[0]}.")
    if move.once_per_turn:
        ctx.s["turn"]["rolls"].append(f"move:{move.name}")
    move.run(ctx, pid, trait, **given)


def candidates(ctx, pid: str) -> list[dict]:
    """Every `task` action the declared moves might allow `pid` now: each
    trait it may roll with each combination of its arguments' values (the
    caller tries each on a copy before offering it)."""
    found = []
    for move in declared(ctx):
        if closed(ctx, pid, move) is not None:
            continue
        columns = [[(arg.field, v) for v in arg.values(ctx, pid)] for arg in move.args]
        for trait in move.traits or (None,):
            for combo in product(*columns):
                action = {"type": "task", "player": pid, "task": move.name}
                if trait:
                    action["trait"] = trait
                action.update(dict(combo))
                found.append(action)
    return found
