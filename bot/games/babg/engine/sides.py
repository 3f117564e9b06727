"""Who is on which side once the haunt begins, and the haunt's monsters by
name (rulebook: The Haunt; How Monsters Work). Small readers over the state
that every rule may ask, so no rule needs the haunt's flow to know them."""
from . import state as st
from .errors import IllegalAction

TRAITOR_KINDS = st.KNOWN_TRAITOR_KINDS  # haunts whose traitors are named at the reveal


def traitors(s: dict) -> list[str]:
    return list(s["haunt"]["traitors"]) if s.get("haunt") else []


def heroes(s: dict) -> list[str]:
    t = set(traitors(s))
    return [p for p in s["seats"] if p not in t]


def side_of(s: dict, pid: str) -> str:
    return "traitor" if pid in traitors(s) else "heroes"


def alive(s: dict, pids) -> list[str]:
    return [p for p in pids if s["players"][p]["alive"]]


def believed_heroes(s: dict) -> list[str]:
    """The heroes as the table sees them: a hidden traitor among them until
    unmasked (see state.side_members)."""
    return st.side_members(s, "heroes")


def controller(s: dict) -> str:
    """Who runs the monsters: the traitor (even a dead one), else the haunt
    revealer (rulebook: The Traitor's New Powers; Haunts with no Traitor)."""
    t = traitors(s)
    if s["haunt"]["kind"] in TRAITOR_KINDS and t:
        return t[0]
    return s["haunt"]["revealer"]


def monster(ctx, ref: str) -> dict:
    """A living monster by id ("m2"), name and number ("Beholder 1") or name
    ("the Beholder", "beholder")."""
    key = str(ref).strip().lower()
    for m in ctx.s["monsters"]:
        if not m["dead"] and key.removeprefix("the ") in (m["id"], f"{m['name'].lower()} {m['number']}",
                                                         m["name"].lower()):
            return m
    names = ", ".join(f"{st.monster_called(m)}" for m in ctx.s["monsters"] if not m["dead"]) or "none"
    raise IllegalAction(f"No monster '{ref}'. Monsters: {names}.")


def monster_by_id(ctx, mid: str) -> dict:
    return next(m for m in ctx.s["monsters"] if m["id"] == mid)


def label(ctx, who: str) -> str:
    """An adventurer's name or what a monster is called (see state.monster_called)."""
    if who in ctx.s["players"]:
        return ctx.name(who)
    m = monster_by_id(ctx, who)
    return f"{st.monster_called(m)}"
