"""`legal_actions(content, state, player)`: every action the player may make now, built from the
checks `Engine.apply` makes (a test applies each one). Moves list every square within Speed;
attacks every power with every target (area powers: one figure per tile they may strike)."""

from . import combat, data, geometry, heroes, items, powers, turns, undo
from .state import Ctx


def legal_actions(content, state: dict, player: str) -> list:
    s = state
    ctx = Ctx(content, s)
    out = []
    if s["phase"] == "over":
        return out
    if s["phase"] == "lobby":
        if player in s["players"]:
            out.append({"type": "leave", "player": player})
            adv = data.adventure_record(content, s["adventure"])
            lo, hi = data._int(data.g(adv, "players_min", 1), 1), data._int(data.g(adv, "players_max", 5), 5)
            chosen_ok = s["options"].get("powers") != "chosen" or all(p["picks"] for p in s["players"].values())
            if lo <= len(s["players"]) <= hi and chosen_ok:
                out.append({"type": "start", "player": player})
        elif len(s["players"]) < 5:
            taken = {p["hero"] for p in s["players"].values()}
            for hid in data.hero_ids(content):
                if hid not in taken:
                    a = {"type": "join", "player": player, "name": player, "hero": hid}
                    if s["options"].get("powers") == "chosen":
                        a["powers"] = data.hero(content, hid)["suggested"][len(data.hero(content, hid)["fixed"]):]
                    out.append(a)
        return out
    if undo.open_to(s) == player:
        out.append({"type": "undo", "player": player})
    q = s.get("pending")
    if q is not None:
        if q["player"] == player:
            out += [{"type": "decide", "player": player, "choice": o} for o in q["options"]]
        return out
    t = s.get("turn")
    if t is None or t["player"] != player or t["phase"] != "hero":
        return out
    p = s["players"][player]
    up = heroes.standing(ctx, player)
    slots = 2 + t.get("free_moves", 0) - len(t["actions"])
    if up and slots > 0 and t["actions"].count("move") < 2 + t.get("free_moves", 0):
        sp = heroes.speed(ctx, player)
        if sp > 0:
            for sq in sorted(heroes.moves_from(ctx, player, sp), key=_sq_order):
                out.append({"type": "move", "player": player, "to": sq})
    can_attack = up and slots > 0 and not t["attacked"]
    if can_attack:
        for pw_id, st in p["powers"].items():
            pw = data.power(content, pw_id)
            if st != "ready" or not pw["hits"]:
                continue
            for fid in combat.power_targets(ctx, player, pw):
                out.append({"type": "attack", "player": player, "power": pw_id, "target": fid})
        mine = heroes.tile(ctx, player)
        for m in s["markers"]:
            if m["kind"] == "trap" and m["tile"] == mine:
                out.append({"type": "disable", "player": player, "trap": m["id"]})
    if up:
        for pw_id, st in p["powers"].items():
            pw = data.power(content, pw_id)
            if st != "ready" or pw["hits"] or powers.word(ctx, pw_id) not in powers.USABLE:
                continue
            if (powers.instead_of_attack(ctx, pw_id) and not can_attack) or powers.cannot_use(ctx, player, pw_id):
                continue
            for target in powers.use_targets(ctx, player, pw_id):
                a = {"type": "use", "player": player, "power": pw_id}
                if target is not None:
                    a["target"] = target
                out.append(a)
        for it in sorted(set(p["items"])):
            if not items.usable(ctx, it) or (items.takes_attack(ctx, it) and not can_attack):
                continue
            for target in items.targets(ctx, player, it):
                a = {"type": "use", "player": player, "item": it}
                if target is not None:
                    a["target"] = target
                out.append(a)
        me = heroes.xy(ctx, player)
        for m in s["markers"]:
            if m["kind"] == "object" and m.get("square") and (
                    geometry.parse(m["square"]) == me or geometry.adjacent(geometry.parse(m["square"]), me)):
                out.append({"type": "pickup", "player": player, "object": m["id"]})
    opts = turns.explore_options(ctx, player)
    along = geometry.edges_at_square(s, p["square"]) if p.get("square") and s["tiles"]["stack"] else []
    if opts:
        for d in opts:
            out.append({"type": "end", "player": player, "explore": d})
        if not along:
            out.append({"type": "end", "player": player, "explore": "none"})
    else:
        out.append({"type": "end", "player": player})
    return out


def _sq_order(sq: str):
    x, y = geometry.parse(sq)
    return (-y, x)
