"""A server's statistics, from the games its store already keeps: how many
were played and finished, each haunt's wins by side (beside the balance
bench's figures), the adventurers most played, and one player's record.

Only ended games count (a game in play is not read at all), and who the
traitors were and who won only for a game played to its end: a game
stopped half-way (/game end) gives its players, adventurers and haunt."""
import functools
import json
import pathlib
from collections import Counter

from bot.games import UnknownSystem

# The balance bench's results (bench/haunt_balance.py writes them), kept in the repository beside the rules.
BALANCE = pathlib.Path(__file__).resolve().parents[2] / "rules_data" / "haunt_balance.json"
MOST_PLAYED = 5  # adventurers listed


async def server_stats(service, guild_id: str | None, player: str | None = None) -> dict:
    """The server's statistics (and `player`'s, a Discord user id, if given):

    {"played", "finished", "haunts": [{"number", "title", "games", "heroes", "traitor", "other",
    "bench": {"games", "heroes", "traitor", "other"} or None}], "adventurers": [(name, games)],
    "player": {"id", "games", "hero_wins", "traitor_wins", "favourite", "haunts"} or None,
    "title": the default system's title, "systems": [{"id", "title", "played", "finished", "lines"}]}

    The figures above are the default system's (Baldur's Gate's, read by the store in one query); every
    other system that has ended games here gives its own lines through the contract: `record` of each
    ended game's state, then `stats_lines` over those records."""
    default = service.default
    records = await service.store.finished_records(guild_id)
    figures = tally(default.content(), [r for r in records if r.get("system", default.id) == default.id], player)
    figures["title"], figures["systems"] = default.title, []
    for system_id in sorted({r["system"] for r in records if r.get("system", default.id) != default.id}):
        try:
            system = service.system_named(system_id)
        except UnknownSystem:  # a system this bot no longer hosts: its games are not counted
            continue
        mine = [system.record(state) for state in await service.store.ended_states(guild_id, system_id)]
        figures["systems"].append({"id": system_id, "title": system.title, "played": len(mine),
                                   "finished": sum(bool(r.get("over")) for r in mine),
                                   "lines": system.stats_lines(mine)})
    return figures


def tally(content, records: list[dict], player: str | None = None) -> dict:
    """The statistics of these ended games (bot.store.finished_record)."""
    bench = bench_figures()
    haunts: dict[int, Counter] = {}
    for r in records:
        if r["over"] and r["haunt"] and r["result"].get("reason") != "haunt_revealed":
            c = haunts.setdefault(r["haunt"], Counter())
            c["games"] += 1
            for side in sides_won(r) or ["other"]:  # a game both sides won counts for each
                c[side] += 1
    played = Counter(r["adventurers"].get(p) for r in records for p in r["seats"])
    return {
        "played": len(records),
        "finished": sum(r["over"] for r in records),
        "haunts": [{"number": n, "title": haunt_title(content, n), "games": c["games"], "heroes": c["heroes"],
                    "traitor": c["traitor"], "other": c["other"], "bench": bench.get(n)}
                   for n, c in sorted(haunts.items())],
        "adventurers": [(adventurer_name(content, a), n) for a, n in played.most_common(MOST_PLAYED) if a],
        "player": player_stats(content, records, player) if player else None,
    }


def player_stats(content, records: list[dict], player: str) -> dict:
    mine = [r for r in records if player in r["seats"]]
    wins = Counter(("traitor" if player in r["traitors"] else "hero") for r in mine if player in winners(r))
    favourite = Counter(r["adventurers"].get(player) for r in mine).most_common(1)
    return {"id": player, "games": len(mine), "hero_wins": wins["hero"], "traitor_wins": wins["traitor"],
            "favourite": adventurer_name(content, favourite[0][0]) if favourite else None,
            "haunts": sorted({r["haunt"] for r in mine if r["haunt"]})}


def side_won(record: dict) -> str | None:
    """"heroes", "traitor" or None (nobody, or the game is not over)."""
    result = record["result"]
    if result.get("winners") is not None:  # a lone winner (the last adventurer alive)
        if not result["winners"]:
            return None
        return "traitor" if set(result["winners"]) & set(record["traitors"]) else "heroes"
    winner = result.get("winner")
    return "heroes" if winner == "heroes" else "traitor" if winner in ("traitor", "traitors") else None


def sides_won(record: dict) -> list[str]:
    """The sides that won ("heroes", "traitor"): both for a game two sides
    won together (the result's "sides", haunt 42), else side_won's one."""
    sides = record["result"].get("sides") or []
    named = sorted({"heroes" if x == "heroes" else "traitor" for x in sides if x in ("heroes", "traitor", "traitors")})
    if len(named) > 1:
        return named
    side = side_won(record)
    return [side] if side else []


def winners(record: dict) -> list[str]:
    """The players who won a finished game (as bot.service.history_entry counts them)."""
    result, seats, traitors = record["result"], record["seats"], record["traitors"]
    if result.get("winners") is not None:
        return [p for p in seats if p in result["winners"]]
    side = side_won(record)
    if side == "traitor":
        return [p for p in seats if p in traitors]
    return [p for p in seats if p not in traitors] if side == "heroes" else []


def haunt_title(content, number: int) -> str:
    haunt = content.haunts.get(number)
    return haunt.title if haunt else ""


def adventurer_name(content, aid: str | None) -> str:
    adventurer = content.adventurers.get(aid)
    return adventurer.name if adventurer else str(aid)


@functools.lru_cache(maxsize=1)
def bench_figures() -> dict[int, dict]:
    """The balance bench's figures per haunt (bench/haunt_balance.py), from
    the file it writes (rules_data/haunt_balance.json): {haunt: {"games",
    "heroes", "traitor", "other"}}; none where the file is missing."""
    try:
        data = json.loads(BALANCE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {int(n): {k: int(f[k]) for k in ("games", "heroes", "traitor", "other")}
            for n, f in data.get("haunts", {}).items()}


def stats_lines(stats: dict, player_name: str | None = None, limit: int = 12) -> list[str]:
    """The statistics in a few lines for a channel: every game counted, then the default system's most
    played haunts (the chart shows them all), adventurers and player; with games of other systems, each
    system under its title with its own lines (bot.kit.contract's `stats_lines`)."""
    others = stats.get("systems") or []
    played = stats["played"] + sum(o["played"] for o in others)
    finished = stats["finished"] + sum(o["finished"] for o in others)
    lines = [f"**This server's games:** {played} played, {finished} finished."]
    if not played:
        lines.append("No game has ended here yet: start one with `/game new`.")
    if others and stats["played"]:
        lines.append(f"**{stats['title']}:** {stats['played']} played, {stats['finished']} finished.")
    lines += default_lines(stats, player_name, limit)
    for o in others:
        lines.append(f"**{o['title']}:** {o['played']} played, {o['finished']} finished.")
        lines += o["lines"]
    return lines


def default_lines(stats: dict, player_name: str | None = None, limit: int = 12) -> list[str]:
    """The default system's figures (the tally above) beyond its count."""
    lines = []
    haunts = sorted(stats["haunts"], key=lambda h: (-h["games"], h["number"]))
    if haunts:
        lines.append("**Wins by haunt** (heroes–traitor; in brackets the built-in players' games "
                     "of the balance bench):")
        for h in haunts[:limit]:
            b = h["bench"]
            bench = f" [{b['heroes']}–{b['traitor']} of {b['games']}]" if b else ""
            lines.append(f"{h['number']} {h['title']}: {h['heroes']}–{h['traitor']}"
                         + (f", {h['other']} without a winner" if h["other"] else "") + bench)
        if len(haunts) > limit:
            lines.append(f"… and {len(haunts) - limit} more haunts (all of them in the chart).")
    if stats["adventurers"]:
        lines.append("**Most played:** " + ", ".join(f"{name} ({n})" for name, n in stats["adventurers"]) + ".")
    p = stats.get("player")
    if p:
        who = player_name or "This player"
        if not p["games"]:
            lines.append(f"**{who}** has not played a game here yet.")
        else:
            lines.append(f"**{who}:** {p['games']} game{'s' if p['games'] != 1 else ''}; won {p['hero_wins']} as a "
                         f"hero and {p['traitor_wins']} as a traitor; favourite adventurer {p['favourite']}; "
                         f"haunts played: {', '.join(map(str, p['haunts'])) or 'none yet'}.")
    return lines
