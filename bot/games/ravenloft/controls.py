"""A hero phase on a phone, in two rows: a menu of what the hero may do now (attacks first, each with its
chance to hit, then items, powers, traps and pickups, then the squares to move to) and a row of buttons
(ending the hero phase, with each way to explore, Undo, the map and the sheet). Moving then attacking,
attacking then moving or moving twice are all there: the menu always holds what the hero may do next."""
from bot.games.ravenloft.engine import combat, data, geometry, heroes
from bot.games.ravenloft.engine.state import Ctx

MENU_ROOM = 25   # Discord: a select's options
END_BUTTONS = 2  # ways to end the phase shown as buttons (the rest join the menu)


def hit_chance(content, state: dict, action: dict) -> tuple[int, int, int] | None:
    """(the roll's bonus, the target's AC, the chance in percent to hit) of an attack, on its first target:
    a d20 plus the bonus hits at the AC or above (rulebook: Attacking); None for a power that always hits."""
    pw = data.power(content, action["power"])
    fig = state["figures"].get(str(action.get("target", "")).split(",")[0])
    if fig is None or pw["attack"] is None:
        return None
    ctx = Ctx(content, state)
    bonus = pw["attack"] + heroes.attack_bonus(ctx, action["player"], fig)
    ac = combat.fig_ac(ctx, fig)
    return bonus, ac, max(0, min(20, 21 - (ac - bonus))) * 5


def _move_rank(state: dict, action: dict, monsters: list) -> tuple:
    """Squares next to a monster first, then those on an unexplored edge, then the rest (in map order)."""
    xy = geometry.parse(action["to"])
    near = any(geometry.adjacent(xy, q) for q in monsters)
    edge = bool(geometry.edges_at_square(state, action["to"])) and bool(state["tiles"]["stack"])
    return (0 if near else 1 if edge else 2, -xy[1], xy[0])


def hero_phase(system, state: dict, seat: str) -> tuple[list, list, list]:
    """(menu entries as (label, action, description), end actions for buttons, hints) for the hero phase."""
    c = system.content()
    legal = system.legal_actions(state, seat)
    attacks, others, moves, ends = [], [], [], []
    for a in legal:
        kind = a["type"]
        if kind == "attack":
            odds = hit_chance(c, state, a)
            pw = data.power(c, a["power"])
            about = (f"+{odds[0]} against AC {odds[1]}: {odds[2]}% to hit, {pw['damage']} damage"
                     if odds else f"always hits, {pw['damage']} damage")
            attacks.append((odds[2] if odds else 100, (system.describe(a, state).capitalize(), a, about)))
        elif kind == "move":
            moves.append(a)
        elif kind == "end":
            ends.append(a)
        elif kind in ("use", "disable", "pickup"):
            others.append((system.describe(a, state).capitalize(), a, ""))
    monsters = [q for f in state["figures"].values() if not f.get("object") for q in combat.fig_xy(f)]
    moves.sort(key=lambda a: _move_rank(state, a, monsters))
    entries = [e for _, e in sorted(attacks, key=lambda x: -x[0])] + others
    entries += [(f"Move to {a['to']}", a, "") for a in moves]
    ends = sorted(ends, key=lambda a: a.get("explore") == "none")
    entries += [(system.describe(a, state).capitalize(), a, "") for a in ends[END_BUTTONS:]]
    hints = []
    left_out = {entry[1]["type"] for entry in entries[MENU_ROOM:]}
    if "move" in left_out:
        hints.append("/move square:x,y (any square the menu leaves out)")
    if "attack" in left_out:
        hints.append("/attack power: target:")
    return entries[:MENU_ROOM], ends[:END_BUTTONS], hints
