"""`python -m bot content`: load and validate rules_data, then count it."""
import argparse
import sys
from collections import Counter

from bot.content import ContentError, load_content


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bot content")
    ap.add_argument("--haunts", action="store_true", help="report on the 50 haunts")
    args = ap.parse_args(argv)
    try:
        content = load_content()
    except ContentError as e:
        print(f"rules_data is invalid: {e}", file=sys.stderr)
        return 1
    if args.haunts:
        print(haunt_report(content))
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
    provisional = [(kind, e) for kind, e in entries if e.provenance == "provisional"]
    if provisional:
        print("provisional entries (our own designs where the printed text is unknown):")
        for kind, e in provisional:
            print(f"  {kind} {e.name}: {e.provenance_note}")
    return 0


MECHANICAL_AT = ("traitor", "revealer", "each_hero", "every_omen_tile")
COUNT_FORM = r"[0-9]+|([0-9]+\*)?(heroes|adventurers|players|traitors)([+-][0-9]+)?"
CHECKED_WINS = ("all_heroes_dead", "traitor_dead", "monster_dead", "counter_at", "token_count")


def carried_out(step: dict, monsters: set) -> bool:
    """Whether the haunt engine performs this setup step itself (see
    bot.engine.haunt_play.run_setup_step)."""
    import re
    countable = re.fullmatch(COUNT_FORM, str(step.get("count", step.get("value", 1))).replace(" ", "")) is not None
    at = str(step.get("at", ""))
    placed = at in MECHANICAL_AT or at.startswith("tile:")
    if step.get("do") == "place_monster":
        return step.get("monster", "").lower() in monsters and countable and placed
    if step.get("do") == "place_token":
        return countable and placed
    return step.get("do") == "set_counter" and countable


def haunt_report(content) -> str:
    haunts = content.haunts
    both = sum(1 for h in haunts.values() if h.raw.get("traitor", {}).get("section") and
               h.raw.get("heroes", {}).get("section"))
    setups = wins = 0
    for h in haunts.values():
        monsters = {m["name"].lower() for m in h.raw.get("monster", [])
                    if any(isinstance(m.get(t), int) for t in ("might", "speed", "knowledge", "sanity"))}
        setups += any(carried_out(step, monsters) for step in h.raw.get("setup", []))
        wins += any(w.get("when") in CHECKED_WINS for w in h.raw.get("win", []))
    return (f"haunts: {len(haunts)} of 50\n"
            f"with both sections: {both}\n"
            f"with setup the bot carries out (monsters, tokens, counters placed for you): {setups}\n"
            f"with a win condition the bot checks after every action: {wins}\n"
            "(every haunt also ends when every hero is dead; the rest is declared with /haunt declare)")
