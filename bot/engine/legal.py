"""The actions open to whoever must act now: what buttons offer and what the
built-in players choose from."""
from . import moves
from .ctx import Ctx
from .errors import IllegalAction


def actor(state: dict) -> str | None:
    """The player the game waits for: the one with a pending decision, else
    the player whose turn it is."""
    if state["phase"] not in ("exploring", "haunt"):
        return None
    if state["pending"]:
        return state["pending"]["player"]
    return state["turn"]["player"] if state["turn"] else None


def legal_actions(content, state: dict) -> list[dict]:
    pid = actor(state)
    if pid is None:
        return []
    pending = state["pending"]
    if pending:
        return [{"type": "decide", "player": pid, "choice": i} for i in range(len(pending["options"]))]
    ctx = Ctx(content, state)
    turn = state["turn"]
    found = []
    if not turn["stopped"]:
        for way in moves.ways_out(ctx, pid):
            try:
                moves.check_move(ctx, pid, way)
            except IllegalAction:
                continue
            found.append({"type": "move", "player": pid, "way": way})
    p = state["players"][pid]
    for cid in p["cards"]:
        card = content.cards[cid]
        if cid in turn["used"]:
            continue
        if card.on_use and not card.weapon:
            found.append({"type": "use", "player": pid, "card": cid})
        if card.can_drop:
            found.append({"type": "drop", "player": pid, "card": cid})
        if card.can_trade:
            for other in state["seats"]:
                o = state["players"][other]
                if other != pid and o["alive"] and o["tile"] == p["tile"]:
                    found.append({"type": "trade", "player": pid, "card": cid, "to": other})
    for cid in state["piles"].get(p["tile"], []):
        if cid not in turn["used"]:
            found.append({"type": "pickup", "player": pid, "card": cid})
    tile = content.tiles[p["tile"]]
    if tile.effects.get("action") and f"action:{tile.id}" not in turn["rolls"]:
        found.append({"type": "roll", "player": pid})
    found.append({"type": "end", "player": pid})
    return found
