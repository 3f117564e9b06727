"""The Traitor's New Powers (rulebook): a known traitor uses a tile's good
text and ignores its harm, and may choose not to be affected by an event."""
from . import effects
from . import state as st


def ignores_harm(s: dict, pid: str) -> bool:
    """Rulebook: The Traitor's New Powers: a (known) traitor uses a tile's
    good text and ignores its harmful text; here: no harm from a tile's
    end-of-turn text or rolls, no leaving rolls, no barrier roll. A hidden
    traitor only once unmasked."""
    return s["phase"] == "haunt" and st.known_traitor(s, pid)


HARM = ("damage", "lose")


def without_harm(steps) -> list[dict]:
    """A tile's steps with the harmful ones taken out (and a roll dropped
    when nothing but harm hung on it): what a traitor still gets."""
    out = []
    for item in steps:
        if item.get("do") in HARM:
            continue
        if item.get("do") == "roll":
            bands = [{**b, "then": without_harm(b.get("then", []))} for b in item["bands"]]
            if not any(b["then"] for b in bands):
                continue
            item = {**item, "bands": bands}
        out.append(item)
    return out


def offer_event_choice(ctx, pid: str, card_id: str) -> bool:
    """Rulebook: The Traitor's New Powers: the traitor may choose not to be
    affected by an event card (decided after reading, before any roll)."""
    if not ignores_harm(ctx.s, pid):
        return False
    effects.ask(ctx, pid, "traitor_event", f"be affected by {ctx.card_name(card_id)}?",
                ["Yes, resolve it", "No, ignore it"], card=card_id)
    return True


@effects.decision("traitor_event")
def _decide_traitor_event(ctx, pending, index):
    if index == 1:
        task = effects.current(ctx)
        task["steps"] = [x for x in task["steps"] if x["do"] == "_settle_event"]
        ctx.say(f"{ctx.name(pending['player'])} ignores {ctx.card_name(pending['data']['card'])}.", kind="traitor")
