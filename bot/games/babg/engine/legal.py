"""The actions open to whoever must act now: what buttons offer and what the
built-in players choose from."""
from . import attack
from . import cards as cd
from . import moves
from . import haunt_moves, haunt_play
from . import sides as hp
from . import state as st
from . import effects, hooks, undo
from .ctx import Ctx
from .errors import IllegalAction
from .game import Engine, roll_offers
from .specials import powers


def actor(state: dict) -> str | None:
    """The player the game waits for: the one with a pending decision, else
    the player whose turn it is."""
    if state["phase"] not in ("exploring", "haunt"):
        return None
    if state["pending"]:
        return state["pending"]["player"]
    h = state.get("haunt")
    if state["phase"] == "haunt" and h and not h.get("started", True):
        waiting = [p for p in state["seats"] if state["players"][p]["alive"] and p not in h["ready"]]
        return waiting[0] if waiting else None
    return state["turn"]["player"] if state["turn"] else None


def legal_actions(content, state: dict) -> list[dict]:
    pid = actor(state)
    if pid is None:
        return []
    pending = state["pending"]
    take_back = [{"type": "undo", "player": pid}] if undo.open_to(state) == pid else []
    if pending:
        return [{"type": "decide", "player": pid, "choice": i} for i in range(len(pending["options"]))] + take_back
    h = state.get("haunt")
    if state["phase"] == "haunt" and not (h or {}).get("started", True):
        return [{"type": "ready", "player": pid}]
    ctx = Ctx(content, state)
    turn = state["turn"]
    if turn.get("monsters"):
        return monster_actions(ctx, pid) + take_back
    found = []
    if state["phase"] == "haunt" and not turn.get("attacked"):
        found += attack_actions(ctx, pid)
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
            for other in st.players_on(state, p["tile"], beside=pid):
                if other != pid:
                    found.append({"type": "trade", "player": pid, "card": cid, "to": other})
    for cid in state["piles"].get(p["tile"], []) if here else []:
        if cid not in turn["used"] and not ctx.c.cards[cid].companion:
            found.append({"type": "pickup", "player": pid, "card": cid})
    for source, _, _ in roll_offers(ctx, pid):
        if f"action:{source}" not in turn["rolls"]:
            found.append({"type": "roll", "player": pid, "what": source})
    if powers.unusable(ctx, pid) is None:
        found.append({"type": "power", "player": pid})
    found += haunt_actions(ctx, pid)
    found.append({"type": "end", "player": pid})
    return found + take_back


def haunt_actions(ctx, pid: str) -> list[dict]:
    """The haunt's own actions (its tasks, its monsters' special moves) open
    now. A haunt names what might be possible; each is tried on a copy of
    the state, so the offer never disagrees with what the engine allows."""
    if ctx.s["phase"] != "haunt":
        return []
    engine, found = Engine(ctx.c), []
    for offered in [haunt_moves.candidates(ctx, pid), *hooks.fire("haunt_actions", ctx, pid)]:
        for action in offered or ():
            action = {**action, "player": pid}
            try:
                engine.apply(ctx.s, action)
            except IllegalAction:
                continue
            if action not in found:
                found.append(action)
    return found


def foes(ctx, pid: str) -> list[str]:
    """Whom the player may attack, before where they stand: their opponents
    (anyone at all while a hidden traitor hides)."""
    s = ctx.s
    return effects.opponents_of(ctx, pid) if s["haunt"]["kind"] != "hidden_traitor" else s["seats"]


def attack_actions(ctx, pid: str) -> list[dict]:
    """Attacks on someone on your tile (rulebook: Make an Attack)."""
    s = ctx.s
    found = []
    targets = [o for o in foes(ctx, pid)
               if o != pid and s["players"][o]["alive"] and st.together(s, o, pid)
               and attack.shielded(ctx, o) is None]
    traitor = pid in hp.traitors(s) and s["haunt"]["kind"] in hp.TRAITOR_KINDS
    targets += [m["id"] for m in s["monsters"] if not m["dead"] and st.beside(s, pid, m) and "might" in m["traits"]
                and bool(m.get("ally")) == traitor]  # the traitor attacks only NPCs on the heroes' side
    for t in targets:
        if hooks.first("unarmed_blocked", ctx, pid, t):  # only a weapon reaches it: one attack per weapon held
            traits = next((m["traits"] for m in s["monsters"] if m["id"] == t), None)
            found += [{"type": "attack", "player": pid, "target": t, "weapon": c} for c in s["players"][pid]["cards"]
                      if ctx.c.cards[c].weapon and c not in s["turn"]["used"]
                      and (traits is None or (ctx.c.cards[c].attack or {}).get("trait", "might") in traits)]
            continue
        found.append({"type": "attack", "player": pid, "target": t})
    return found


def across_barrier(content, state: dict) -> list[str]:
    """Opponents the player on turn could attack but for a barrier: on the
    same tile, on its other half (the tile's own rule: no dealings across
    it). The buttons say why no Attack is offered."""
    turn = state.get("turn") or {}
    if state["phase"] != "haunt" or state["pending"] or turn.get("monsters") or turn.get("attacked") \
            or not (state.get("haunt") or {}).get("started", True):
        return []
    pid = turn["player"]
    ctx = Ctx(content, state)
    p = state["players"][pid]
    return [o for o in foes(ctx, pid) if o != pid and state["players"][o]["alive"] and st.on_board(p)
            and state["players"][o]["tile"] == p["tile"] and not st.together(state, o, pid)]


def monster_actions(ctx, pid: str) -> list[dict]:
    """The monster turn: each monster may move (within its kind's roll) and
    attack a hero on its tile."""
    s = ctx.s
    turn = s["turn"]
    found = []
    hero_set = set(hp.alive(s, st.side_members(s, "heroes")))  # a hidden traitor looks like a hero
    for m in s["monsters"]:
        if m["dead"] or m["stunned"] or hooks.first("monster_blocked", ctx, m, m["tile"]):
            continue  # (asked with its own tile: whether it may act at all this turn)
        foes = {p for p in hp.alive(s, hp.traitors(s)) if st.known_traitor(s, p)} if m.get("ally") else hero_set
        foes = [p for p in s["seats"] if p in foes]  # in seat order: the buttons and the built-in players never
        # depend on how a set happens to iterate in this process
        if m["id"] not in turn["attacked"] and m["traits"]:
            for p in foes:
                if st.beside(s, p, m) and attack.shielded(ctx, p) is None \
                        and not hooks.first("monster_attack_blocked", ctx, m, p):
                    found.append({"type": "monster", "player": pid, "op": "attack", "monster": m["id"], "target": p})
        for way in haunt_play.MONSTER_WAYS:  # the same check the move makes: doorways, stairs, the grate
            try:
                haunt_play.monster_way(ctx, m, way)
            except IllegalAction:
                continue
            found.append({"type": "monster", "player": pid, "op": "move", "monster": m["id"], "way": way})
    found += haunt_actions(ctx, pid)
    found.append({"type": "end", "player": pid})
    return found
