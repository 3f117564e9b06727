"""Plain-text views of a game shared by the adapters: a player's sheet, the
status line, and a small text map of both levels."""
from bot.games.babg.engine import board as bd
from bot.games.babg.engine import rulesets
from bot.games.babg.engine.content import TRAITS
from bot.games.babg.engine.state import monster_called, trait_value
from bot.games.babg.engine.view import view


# Where a player whose figure a haunt took off the board stands (haunt 47: the Minotaur token takes its place).
OFF_THE_BOARD = "no figure on the board"


def sheet(content, state: dict, pid: str) -> str:
    p = state["players"][pid]
    adv = content.adventurers[p["adventurer"]]
    lines = [f"{p['name']}: {adv.name}, {adv.race} {adv.klass}, age {adv.age}"]
    if p["traits"]:
        for t in TRAITS:
            track = adv.tracks[t].values
            pos = p["traits"][t]
            marks = " ".join(f"[{v}]" if i + 1 == pos else f" {v} " for i, v in enumerate(track))
            lines.append(f"  {t.capitalize():<9} {trait_value(content, state, pid, t)}   {marks}")
        lines.append(f"  On the {content.tiles[p['tile']].name}" if p["tile"] else f"  {OFF_THE_BOARD.capitalize()}")
    lines.append(f"  Power: {adv.power['name']}: {adv.power['text']}")
    if p["cards"]:
        for cid in p["cards"]:
            card = content.cards[cid]
            tags = [w for w, on in (("weapon", card.weapon), ("companion", card.companion)) if on]
            lines.append(f"  {card.deck.capitalize()}: {card.name}{' (' + ', '.join(tags) + ')' if tags else ''}"
                         f" - {card.text}")
    else:
        lines.append("  Cards: none")
    return "\n".join(lines)


def status(content, state: dict) -> str:
    """The game as the channel sees it (bot.games.babg.engine.view: no secret in it)."""
    s = view(state)
    if s["phase"] == "lobby":
        seated = ", ".join(f"{s['players'][p]['name']} ({content.adventurers[s['players'][p]['adventurer']].name})"
                           for p in s["seats"]) or "nobody yet"
        return f"Waiting to start: {len(s['seats'])} joined ({seated}). 3 to 6 players."
    lines = []
    if s["turn"] and s["phase"] != "over":
        pid = s["turn"]["player"]
        p = s["players"][pid]
        speed = trait_value(content, s, pid, "speed")
        left = "stopped" if s["turn"]["stopped"] else f"{max(0, speed - s['turn']['moved'])} of {speed} moves left"
        lines.append(f"Turn {s['turn']['number']}: {p['name']} ({content.adventurers[p['adventurer']].name}), "
                     f"{left}.")
    if s["pending"]:
        opts = "; ".join(f"{i + 1}. {o}" for i, o in enumerate(s["pending"]["options"]))
        lines.append(f"Waiting for {s['players'][s['pending']['player']]['name']} to choose "
                     f"{s['pending']['prompt']} {opts}")
    lines.append(f"Omens revealed: {s['omens_revealed']}. Tiles left: "
                 + ", ".join(f"{k} {len(v) + len(s['set_aside'].get(k, []))}" for k, v in s["stacks"].items()))
    for pid in [p for p in s["order"] if p in s["players"]]:
        p = s["players"][pid]
        vals = " ".join(f"{t[:3].capitalize()} {trait_value(content, s, pid, t)}" for t in TRAITS)
        dead = "" if p["alive"] else " (dead)"
        lines.append(f"  {p['name'] + dead:<12} {content.adventurers[p['adventurer']].name:<22} "
                     f"{content.tiles[p['tile']].name if p['tile'] else OFF_THE_BOARD:<22} {vals}  "
                     f"cards {len(p['cards'])}")
    h = s.get("haunt")
    if s["phase"] == "over" and h:
        lost = "the traitor's side won" if h.get("kind") in ("traitor", "several_traitors") else "the heroes were lost"
        how = {"traitor": lost, "heroes": "the heroes won",
               "demon": "the Iron Flask's demon won"}.get(h.get("winner"), "it was revealed"
                                                           if (s.get("result") or {}).get("reason") == "haunt_revealed"
                                                           else "it ended without a winner")
        sides = (s.get("result") or {}).get("sides")
        if sides:  # sides winning together (haunt 42)
            how = " and ".join("the traitor's side" if x == "traitor" else f"the {x}" for x in sides) + " won together"
        lines.append(f"Game over: haunt {h['number']}, \"{h['title']}\": {how}.")
    elif s["phase"] == "haunt" and h:
        lines.append(f"Haunt {h['number']}, \"{h['title']}\"" + ("" if h.get("started", True) else ": waiting for everyone to be ready")
                     + "".join(f"; {k} {v}" for k, v in h.get("counters", {}).items()) + ".")
        for m in s.get("monsters", []):
            if not m["dead"]:
                elsewhere = getattr(rulesets.REGISTRY.get(h["number"]), "monster_where", None)  # its haunt says
                where = f"on the {content.tiles[m['tile']].name}" if m.get("tile") in s["board"] else \
                    (elsewhere and elsewhere(s, m)) or "off the board"
                lines.append(f"  {monster_called(m)}  {where}" + (" (stunned)" if m["stunned"] else ""))
    return "\n".join(lines)


def text_map(content, state: dict) -> str:
    """Both levels as boxes: a gap in an edge is a doorway, '=' a false
    feature; the letters are the players on that tile (the current one in
    brackets elsewhere on the status line)."""
    out = []
    squares = bd.grid(state["board"])
    width = 12
    for level in ("city", "catacomb"):
        placed = [(x, y) for (lv, x, y) in squares if lv == level]
        if not placed:
            continue
        xs, ys = [x for x, _ in placed], [y for _, y in placed]
        out.append(f"== {level.upper()} LEVEL ==")
        for y in range(min(ys), max(ys) + 1):
            rows = [""] * 5
            for x in range(min(xs), max(xs) + 1):
                tid = squares.get((level, x, y))
                if tid is None:
                    for i in range(5):
                        rows[i] += " " * (width + 2)
                    continue
                doors = bd.placed_doorways(content, state["board"], tid)
                false = set(bd.false_features(content, state["board"], tid, squares))

                def edge(side, wall):
                    return "=" if side in false else (" " if side in doors else wall)
                name = _two_lines(content.tiles[tid].name.upper(), width)
                who = "".join(state["players"][p]["name"][:1].upper() for p in state["seats"]
                              if state["players"][p]["tile"] == tid)[:width]
                rows[0] += "+" + "-" * 4 + edge("north", "-") * (width - 8) + "-" * 4 + "+"
                rows[1] += "|" + f"{name[0]:<{width}}" + "|"
                rows[2] += edge("west", "|") + f"{name[1]:<{width}}" + edge("east", "|")
                rows[3] += "|" + f"{who:<{width}}" + "|"
                rows[4] += "+" + "-" * 4 + edge("south", "-") * (width - 8) + "-" * 4 + "+"
            out.extend(r.rstrip() for r in rows)
    return "\n".join(out)


def _two_lines(name: str, width: int) -> tuple[str, str]:
    words, first, second = name.split(), "", ""
    for w in words:
        if not second and len(first) + len(w) + (1 if first else 0) <= width:
            first = f"{first} {w}".strip()
        else:
            second = f"{second} {w}".strip()
    return first[:width], second[:width]
