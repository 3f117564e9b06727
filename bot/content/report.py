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


def haunt_report(content) -> str:
    haunts = content.haunts
    both = sum(1 for h in haunts.values() if h.raw.get("traitor", {}).get("section") and
               h.raw.get("heroes", {}).get("section"))
    setup = sum(1 for h in haunts.values()
                if any(s.get("do") != "manual" for s in h.raw.get("setup", [])))
    wins = sum(1 for h in haunts.values()
               if any(w.get("when") != "manual" for w in h.raw.get("win", [])))
    return (f"haunts: {len(haunts)} of 50\n"
            f"with both sections: {both}\n"
            f"with setup steps the bot can carry out: {setup}\n"
            f"with win conditions the bot can check: {wins}")
