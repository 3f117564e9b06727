"""Questions the engine waits on. `state["pending"]` is the question now asked (None when none);
`state["questions"]` holds the ones waiting behind it, asked in turn. Each is {player, prompt,
options [str], kind, ...its own data}; the `decide {choice}` action answers it with one of the
options (its exact text, or its number counted from 1)."""

from .state import Ctx


def ask(ctx: Ctx, pid: str, kind: str, prompt: str, options: list, **data):
    q = {"player": pid, "prompt": prompt, "options": list(options), "kind": kind}
    q.update(data)
    if ctx.s.get("pending") is None:
        ctx.s["pending"] = q
        ctx.say("question", prompt + " (" + " / ".join(options) + ")", to=pid, question=kind)
    else:
        ctx.s.setdefault("questions", []).append(q)
    return q


def take(ctx: Ctx) -> dict:
    """The answered question off the top; the next one waiting becomes the pending question."""
    q = ctx.s["pending"]
    waiting = ctx.s.setdefault("questions", [])
    ctx.s["pending"] = waiting.pop(0) if waiting else None
    nxt = ctx.s["pending"]
    if nxt:
        ctx.say("question", nxt["prompt"] + " (" + " / ".join(nxt["options"]) + ")", to=nxt["player"],
                question=nxt["kind"])
    return q


def waiting(state: dict) -> bool:
    return state.get("pending") is not None
