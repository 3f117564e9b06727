"""`python -m bot content`: load and validate rules_data, then count it."""
import argparse
import re
import sys
from collections import Counter

from bot.games.babg.content import ContentError, load_content
from bot.games.babg.engine import rulesets  # the package import registers every haunt module
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.game import Engine
from bot.games.babg.engine.reveal import start_haunt


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bot content")
    ap.add_argument("--haunts", action="store_true", help="report on the 50 haunts")
    ap.add_argument("--effects", action="store_true",
                    help="list how the engine carries out every card, tile and power, with its provenance")
    args = ap.parse_args(argv)
    try:
        content = load_content()
    except ContentError as e:
        print(f"rules_data is invalid: {e}", file=sys.stderr)
        return 1
    if args.haunts:
        rows = haunt_rules(content)
        print(haunt_report(content))
        print(haunt_rules_text(rows))
        leaving = [r["number"] for r in rows if not r["module"] or r["left"]]
        print(f"\nhaunts that leave rules to the players: {len(leaving)}"
              + (f" ({', '.join(map(str, leaving))})" if leaving else ""))
        return 0
    ways = effect_ways(content)
    if args.effects:
        for kind, entry, how in ways:
            print(f"{kind} {entry.name} [{entry.provenance}]: {'; '.join(how) or 'NOTHING'}")
        return 0
    decks = Counter(c.deck for c in content.cards.values())
    print(f"cards: {len(content.cards)} ({decks['event']} events, {decks['item']} items, {decks['omen']} omens)")
    print(f"tiles: {len(content.tiles)}")
    print(f"adventurers: {len(content.adventurers)}")
    print(f"haunts: {len(content.haunts)}; chart cells: {len(content.chart_rows) * len(content.chart_omens)}")
    entries = [("card", c) for c in content.cards.values()] + [("tile", t) for t in content.tiles.values()] + \
              [("adventurer", a) for a in content.adventurers.values()]
    prov = Counter(e.provenance for _, e in entries)
    print("provenance: " + ", ".join(f"{k} {prov[k]}" for k in ("printed", "single-source", "provisional")))
    done = Counter(kind for kind, _, how in ways if how)
    total = Counter(kind for kind, _, _ in ways)
    print("carried out by the engine: " + ", ".join(f"{k}s {done[k]} of {total[k]}" for k in ("card", "tile", "adventurer"))
          + " (`python -m bot content --effects` says how)")
    missing = [f"{kind} {e.name}" for kind, e, how in ways if not how]
    if missing:
        print("with no effect the engine carries out: " + ", ".join(missing))
    provisional = [(kind, e) for kind, e in entries if e.provenance == "provisional"]
    if provisional:
        print("provisional entries (our own designs where the printed text is unknown):")
        for kind, e in provisional:
            print(f"  {kind} {e.name}: {e.provenance_note}")
    return 0 if not missing else 1


def _steps(x):
    """Every step (a dict with a `do`) inside lists, options and bands."""
    if isinstance(x, dict):
        if "do" in x:
            yield x
        for v in x.values():
            yield from _steps(v)
    elif isinstance(x, (list, tuple)):
        for v in x:
            yield from _steps(v)


def effect_ways(content) -> list[tuple]:
    """(kind, entry, how) for every card, tile and adventurer: how the engine carries the entry out: steps in the
    shared vocabulary, named functions (only those with a handler count),
    passive numbers, a weapon's attack, hooks the engine keys on the card's
    id, a tile's card symbol and movement rules."""
    import pathlib
    import bot.games.babg.engine.game  # noqa: F401  (registers the handlers)
    from bot.games.babg.engine import effects
    source = "\n".join(p.read_text() for p in pathlib.Path(bot.games.babg.engine.game.__file__).parent.rglob("*.py"))

    def common(steps, entry_id) -> list[str]:
        how = []
        found = list(_steps(steps))
        named = {st["name"] for st in found if st["do"] == "special"}
        if any(st["do"] != "special" for st in found):
            how.append("steps")
        working = sorted(n for n in named if n in effects.SPECIALS)
        if working:
            how.append("named: " + ", ".join(working))
        if f'"{entry_id}"' in source:
            how.append("engine hook")
        return how

    ways = []
    for card in content.cards.values():
        how = common([card.on_draw, card.on_use, card.on_start_turn, card.on_end_turn, card.on_tile], card.id)
        if card.while_held or card.roll_dice:
            how.append("while held")
        if card.attack:
            how.append("weapon" + (f" ({card.attack['special']})" if card.attack.get("special") in effects.SPECIALS
                                   else ""))
        ways.append(("card", card, how))
    for tile in content.tiles.values():
        how = common(list(tile.effects.values()), tile.id)
        if tile.symbol != "none":
            how.append(f"draws an {tile.symbol} card" if tile.symbol[0] in "aeiou" else f"draws a {tile.symbol} card")
        if tile.barrier or tile.stairs_to or tile.sewer_grate:
            how.append("movement rules")
        ways.append(("tile", tile, how))
    for adv in content.adventurers.values():
        ways.append(("adventurer", adv, common(adv.power.get("effects", []), adv.id)))
    return ways


MECHANICAL_AT = ("traitor", "revealer", "each_hero", "every_omen_tile")
COUNT_FORM = r"[0-9]+|([0-9]+\*)?(heroes|adventurers|players|traitors)([+-][0-9]+)?"
CHECKED_WINS = ("all_heroes_dead", "traitor_dead", "monster_dead", "counter_at", "token_count")


def carried_out(step: dict, monsters: set) -> bool:
    """Whether the haunt engine performs this setup step itself (see
    bot.games.babg.engine.haunt_play.run_setup_step)."""
    import re
    countable = re.fullmatch(COUNT_FORM, str(step.get("count", step.get("value", 1))).replace(" ", "")) is not None
    at = str(step.get("at", ""))
    placed = at in MECHANICAL_AT or at.startswith("tile:")
    if step.get("do") == "place_monster":
        return step.get("monster", "").lower() in monsters and countable and placed
    if step.get("do") == "place_token":
        return countable and placed
    return step.get("do") == "set_counter" and countable


CARRIED = re.compile(r"(What the bot carries out|What this module adds|This module carries out)[^:]*:?\s*(.*)$")
LEFT = re.compile(r"^Left to the players:?\s*(.*)$")


def module_rules(doc: str) -> tuple[list[str], list[str] | None]:
    """(rules carried out, rules left to the players) from a haunt module's
    docstring: the entries (`- ` bullets, or paragraphs) after "What the
    bot carries out" and after "Left to the players:" (None when the
    module does not say)."""
    carried, left, into, entry = [], None, None, None

    def add(text):
        nonlocal entry
        if entry is None:
            into.append(text)
            entry = len(into) - 1
        else:
            into[entry] += " " + text

    for line in (doc or "").splitlines():
        text = line.strip()
        m = LEFT.match(text)
        if m:
            left, into, entry = [], [], None
            left = into
            if m.group(1):
                add(m.group(1))
            continue
        m = CARRIED.search(text) if into is None else None
        if m:
            into, entry = carried, None
            if m.group(2):
                add(m.group(2))
            continue
        if into is None:
            continue
        if text.startswith("- "):
            entry = None
            add(text[2:])
        elif text:
            add(text)
        else:
            entry = None
            if into is left and left:
                break
    return carried, left


def haunt_rules(content) -> list[dict]:
    """Per haunt: its rule set's module, what it carries out (its docstring),
    its declared moves, and what it leaves to the players: the rules its
    rule set declares left, and every setup step that reached a player as
    "to do by hand" when its setup was run (derived from the code, not
    from what a docstring says)."""
    rows = []
    for number in sorted(content.haunts):
        ruleset = rulesets.REGISTRY.get(number)
        module = sys.modules[type(ruleset).__module__] if ruleset else None
        carried, _ = module_rules(module.__doc__) if module else ([], None)
        left = list(getattr(ruleset, "left_to_players", ()))
        left += [f"setup by hand: {text}" for text in setup_by_hand(content, number)]
        rows.append({"number": number, "title": content.haunts[number].raw.get("title", ""),
                     "module": module.__name__.rsplit(".", 1)[-1] if module else None,
                     "carried": carried, "left": left,
                     "moves": [move_line(m) for m in getattr(ruleset, "moves", ())]})
    return rows


def move_line(move) -> str:
    """A declared move in one line: its name, label, who and when, its roll and its arguments."""
    who = {"any": "anyone", "heroes": "heroes", "traitors": "the traitor's side"}[move.who]
    when = {"own_turn": "on their turn", "monster_turn": "in the monster turn", "any_turn": "on any turn"}[move.when]
    parts = [f"`{move.name}` ({move.label}): {who}, {when}"]
    if move.traits:
        parts.append("rolls " + " or ".join(t.capitalize() for t in move.traits))
    if move.args:
        parts.append("takes " + ", ".join(a.kind for a in move.args))
    parts += [x for x, on in (("once a turn", move.once_per_turn), ("instead of an attack", move.instead_of_attack))
              if on]
    return "; ".join(parts) + (f". {move.summary}" if move.summary else "")


SETUP_SEATS = (("ann", "torskar"), ("bo", "lia"), ("cy", "gretchen"), ("di", "dhadius"))


def setup_by_hand(content, number: int) -> list[str]:
    """The setup lines haunt `number` leaves to the players by hand, found by
    revealing it as the chosen haunt in a game of four and pressing Ready
    for everyone: what its setup code really does."""
    engine = Engine(content)
    state = engine.new_game(1, "play", {"chosen_haunt": number})
    for pid, adventurer in SETUP_SEATS:
        state, _ = engine.apply(state, {"type": "join", "player": pid, "name": pid.capitalize(),
                                        "adventurer": adventurer})
    state, _ = engine.apply(state, {"type": "start", "player": "ann"})
    omen = next(c for c in content.cards.values() if c.deck == "omen")
    ctx = Ctx(content, state)
    start_haunt(ctx, state["turn"]["player"], omen.id, state["players"][state["turn"]["player"]]["tile"])
    events = list(ctx.ev)
    for pid, _ in SETUP_SEATS:
        if state["phase"] == "haunt" and not state["haunt"].get("started", True):
            state, more = engine.apply(state, {"type": "ready", "player": pid})
            events += more
    return list(dict.fromkeys(e["text"].removeprefix("Setup for you to do by hand: ")
                              for e in events if e["kind"] == "by_hand"))


def haunt_rules_text(rows: list[dict]) -> str:
    lines = []
    for row in rows:
        lines.append(f"\nhaunt {row['number']}, {row['title']}"
                     + (f" (bot/games/babg/engine/haunts/{row['module']}.py)" if row["module"] else ""))
        if not row["module"]:
            lines.append("  no rule set of its own yet: only its data runs (setup, counters, wins it can say);"
                         " everything else is left to the players")
            continue
        lines.append("  declared moves:")
        lines += [f"    - {m}" for m in row["moves"]] or ["    (none)"]
        lines.append("  carried out:")
        lines += [f"    - {rule}" for rule in row["carried"]] or ["    (the module does not list them)"]
        left = row["left"]
        if not left:
            lines.append("  left to the players: nothing")
        else:
            lines.append("  left to the players (each with why):")
            lines += [f"    - {rule}" for rule in left]
    return "\n".join(lines)


def haunt_report(content) -> str:
    haunts = content.haunts
    both = sum(1 for h in haunts.values() if h.raw.get("traitor", {}).get("section") and
               h.raw.get("heroes", {}).get("section"))
    setups = wins = 0
    modules = sorted(rulesets.REGISTRY)
    for h in haunts.values():
        monsters = {m["name"].lower() for m in h.raw.get("monster", [])
                    if any(isinstance(m.get(t), int) for t in ("might", "speed", "knowledge", "sanity"))}
        setups += any(carried_out(step, monsters) for step in h.raw.get("setup", []))
        wins += any(w.get("when") in CHECKED_WINS for w in h.raw.get("win", []))
    return (f"haunts: {len(haunts)} of 50\n"
            f"with both sections: {both}\n"
            f"with setup the bot carries out (monsters, tokens, counters placed for you): {setups}\n"
            f"with a win condition the bot checks after every action: {wins}\n"
            f"with a rule set of their own (bot/games/babg/engine/haunts/): {len(modules)} "
            f"({', '.join(str(n) for n in modules) or 'none'})\n"
            "(every haunt also ends when every hero is dead; a win the bot cannot see is claimed with declare)")
