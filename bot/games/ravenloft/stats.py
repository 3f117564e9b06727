"""Castle Ravenloft's figures for /stats and its line in /history: the adventures a server played, won
and lost (the heroes win or lose together), by adventure, and the heroes chosen. Read from the ended
games' states when asked (bot.kit.contract: `record`, `stats_lines`, `history_entry`)."""
from collections import Counter

from .engine import data

RESULTS = {"victory": "won", "defeat": "lost"}


def record(content, state: dict) -> dict:
    """One ended adventure: which, its result ("victory", "defeat"; None when stopped with /game end before
    its end) and the heroes at the table, built-in ones included."""
    over = state.get("phase") == "over"
    seats = list(state.get("seats", []))
    return {"over": over, "seats": seats, "adventure": adventure_title(content, state.get("adventure")),
            "result": (state.get("outcome") or {}).get("result") if over else None,
            "heroes": [hero_name(content, state["players"][p].get("hero")) for p in seats if p in state["players"]]}


def stats_lines(records: list[dict]) -> list[str]:
    """Adventures played, won and lost, each adventure's, and the heroes most chosen."""
    if not records:
        return []
    won, lost = (sum(r["result"] == x for r in records) for x in RESULTS)
    early = len(records) - won - lost
    lines = [f"Adventures: {len(records)} played, {won} won, {lost} lost"
             + (f", {early} stopped before the end." if early else ".")]
    by = {}
    for r in records:
        by.setdefault(r["adventure"], Counter())[r["result"]] += 1
    for title, c in sorted(by.items(), key=lambda kv: (-sum(kv[1].values()), kv[0])):
        lines.append(f"{title}: {c['victory']} won, {c['defeat']} lost")
    chosen = Counter(h for r in records for h in r["heroes"])
    lines.append("Heroes chosen: " + ", ".join(f"{name} ({n})" for name, n in
                                               sorted(chosen.items(), key=lambda kv: (-kv[1], kv[0]))) + ".")
    return lines


def history_entry(content, state: dict) -> dict:
    """The adventure's line in the server's history: the heroes, the adventure, how it ended."""
    seats = state.get("seats", [])
    outcome = state.get("outcome") or {}
    won = outcome.get("result") == "victory"
    title = adventure_title(content, state.get("adventure"))
    if outcome.get("result") in RESULTS:
        how = f"the heroes {RESULTS[outcome['result']]}: {outcome.get('text', '').rstrip('.')}".rstrip(": ")
    else:
        how = "ended early (/game end)"
    return {"players": [f"{state['players'][p]['name']} ({hero_name(content, state['players'][p]['hero'])})"
                        for p in seats],
            "haunt": title, "scenario": f"adventure {title}",
            "winners": [state["players"][p]["name"] for p in seats] if won else [], "how": how}


def adventure_title(content, key) -> str:
    return data.g(data.adventure_record(content, key), "title", str(key))


def hero_name(content, hid) -> str:
    return data.hero(content, hid)["name"] if hid in content.heroes else str(hid)
