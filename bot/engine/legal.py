"""The actions open to whoever must act now: what buttons offer and what the
built-in players choose from."""
from . import cards as cd
from . import moves
from . import state as st
from .ctx import Ctx
from .errors import IllegalAction
from .game import roll_offers
from .specials import powers


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
        ways = moves.ways_out(ctx, pid)
        for way in ways:
            try:
                moves.check_move(ctx, pid, way, ways)
            except IllegalAction:
                continue
            found.append({"type": "move", "player": pid, "way": way})
    p = state["players"][pid]
    here = st.on_board(p)
    for cid in p["cards"]:
        card = content.cards[cid]
        if cid in turn["used"]:
            continue
        if here and cd.unusable(ctx, pid, cid) is None:
            found.append({"type": "use", "player": pid, "card": cid})
        if card.can_drop and here:
            found.append({"type": "drop", "player": pid, "card": cid})
        if card.can_trade and here:
            for other in st.players_on(state, p["tile"]):
                if other != pid:
                    found.append({"type": "trade", "player": pid, "card": cid, "to": other})
    for cid in state["piles"].get(p["tile"], []) if here else []:
        if cid not in turn["used"]:
            found.append({"type": "pickup", "player": pid, "card": cid})
    for source, _, _ in roll_offers(ctx, pid):
        if f"action:{source}" not in turn["rolls"]:
            found.append({"type": "roll", "player": pid, "what": source})
    if powers.unusable(ctx, pid) is None:
        found.append({"type": "power", "player": pid})
    found.append({"type": "end", "player": pid})
    return found
