"""A server's statistics (/stats): counted from the games the store keeps,
checked here against the stored games counted another way (each game's
state, and the winners /history names). A game in play adds nothing, a
game ended half-way gives no traitor or winner away, another server's
games are not counted; the chart is a PNG."""
import json
import pathlib
import random
import re

import pytest

from bot.games.babg import autoplay
from bot.config import Config
from bot.discord.client import GameBot
from bot.games.babg.render.chart import stats_chart
from bot import games as systems
from bot.service import GameService, history_entry
from bot.service import stats as stats_module
from bot.service.stats import bench_figures, stats_lines
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)

GUILD, OTHER_GUILD = "900000000000000001", "900000000000000002"
USERS = [str(100000000000000000 + i) for i in range(1, 7)]  # Discord user ids
NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo")
# (haunt, seed): games the built-in players finish quickly: both sides win some, one ends without a winner
FINISHED = ((4, 1), (4, 2), (7, 1), (37, 1), (11, 1), (27, 1), (19, 4), (42, 1), (42, 4))


def played(engine, haunt, seed: int, option: str = "play", halfway: bool = False) -> dict:
    """A game of 3 or 4 of the users played by the built-in players to its
    end (or, `halfway`, until its haunt is under way)."""
    rnd = random.Random(seed)
    content = engine.content
    seats = rnd.sample(range(len(USERS)), rnd.randint(3, 4))
    chosen = []
    for aid in sorted(content.adventurers, key=lambda _: rnd.random()):
        if len(chosen) < len(seats) and all(content.adventurers[a].card != content.adventurers[aid].card
                                            for a in chosen):
            chosen.append(aid)
    state = engine.new_game(seed, option, {"chosen_haunt": haunt} if haunt else {})
    for i, aid in zip(seats, chosen):
        state, _ = engine.apply(state, {"type": "join", "player": USERS[i], "name": NAMES[i], "adventurer": aid})
    state, _ = engine.apply(state, {"type": "start", "player": USERS[seats[0]]})
    for _, state, _ in autoplay.play(engine, state, rnd, max_actions=4000):
        if halfway and state["phase"] == "haunt" and state["haunt"].get("started"):
            break
    return state


@pytest.fixture(scope="module")
def games(engine):
    """The server's games: finished ones, one that stopped at the reveal
    (the "stop" option), one ended half-way through a hidden-traitor haunt."""
    done = [played(engine, h, s) for h, s in FINISHED]
    assert all(s["phase"] == "over" for s in done)
    stopped = played(engine, None, 3, option="stop")
    assert stopped["phase"] == "over" and stopped["result"]["reason"] == "haunt_revealed"
    halfway = played(engine, 19, 5, halfway=True)
    assert halfway["phase"] == "haunt" and halfway["haunt"]["hidden_tokens"]
    return {"finished": done + [stopped], "ended": [halfway]}


async def service_with(engine, kind: str, tmp_path) -> GameService:
    if kind == "sqlite":
        return await GameService.open(str(tmp_path / "games.db"), engine)
    return GameService.in_memory(engine)


async def store(service, state: dict, channel: str, guild: str = GUILD, end: bool = False):
    """A game stored as it stands (ended with /game end if asked)."""
    game = await service.new_game(channel, guild, state["seats"][0], seed=state["seed"])
    await service.overwrite_state(game, state)
    if end:
        await service.end(channel, state["seats"][0], can_manage=True)
    return game


def expected(content, finished: list[dict], ended: list[dict], player: str) -> dict:
    """The figures counted from the states themselves."""
    haunts = {}
    for s in finished:
        if s["result"]["reason"] == "haunt_revealed":
            continue
        sides = {"heroes": "heroes", "traitor": "traitor", "traitors": "traitor"}
        won = {sides[x] for x in s["result"].get("sides") or [] if x in sides}  # both sides together: each counts
        if len(won) < 2:
            won = {sides.get(s["result"].get("winner"), "other")}
        row = haunts.setdefault(s["haunt"]["number"], {"heroes": 0, "traitor": 0, "other": 0, "both": 0})
        for side in won:
            row[side] += 1
        row["both"] += len(won) > 1
    mine = [s for s in finished + ended if player in s["seats"]]
    hero = traitor = 0
    for s in finished:
        if player in s["seats"]:
            won = state_name(s, player) in history_entry(systems.get("babg"), Row(s))["winners"]
            hero += won and player not in s["haunt"]["traitors"]
            traitor += won and player in s["haunt"]["traitors"]
    return {"played": len(finished) + len(ended), "finished": len(finished), "haunts": haunts,
            "games": len(mine), "hero_wins": hero, "traitor_wins": traitor,
            "haunts_played": sorted({s["haunt"]["number"] for s in mine if s.get("haunt")})}


class Row:
    """A stored game as /history reads it."""
    def __init__(self, state):
        self.state, self.id, self.updated_at, self.created_at = state, 0, 0.0, 0.0


def state_name(state, pid):
    return state["players"][pid]["name"]


@pytest.mark.parametrize("kind", ["sqlite", "memory"])
async def test_the_counts_match_the_stored_games(engine, games, kind, tmp_path):
    service = await service_with(engine, kind, tmp_path)
    try:
        for i, s in enumerate(games["finished"]):
            await store(service, s, f"c{i}")
        for i, s in enumerate(games["ended"]):
            await store(service, s, f"e{i}", end=True)
        await store(service, games["finished"][0], "elsewhere", guild=OTHER_GUILD)  # another server's
        for player in USERS:
            stats = await service.stats(GUILD, player)
            want = expected(engine.content, games["finished"], games["ended"], player)
            assert (stats["played"], stats["finished"]) == (want["played"], want["finished"])
            assert {h["number"]: {k: h[k] for k in ("heroes", "traitor", "other")} for h in stats["haunts"]} \
                == {n: {k: v for k, v in row.items() if k != "both"} for n, row in want["haunts"].items()}
            assert all(h["games"] == h["heroes"] + h["traitor"] + h["other"] - want["haunts"][h["number"]]["both"]
                       for h in stats["haunts"])
            p = stats["player"]
            assert (p["games"], p["hero_wins"], p["traitor_wins"], p["haunts"]) == \
                (want["games"], want["hero_wins"], want["traitor_wins"], want["haunts_played"])
            if p["games"]:
                seated = [s for s in games["finished"] + games["ended"] if player in s["seats"]]
                names = [engine.content.adventurers[s["players"][player]["adventurer"]].name for s in seated]
                assert names.count(p["favourite"]) == max(names.count(n) for n in names)
        counted = {}
        for s in games["finished"] + games["ended"]:
            for pid in s["seats"]:
                name = engine.content.adventurers[s["players"][pid]["adventurer"]].name
                counted[name] = counted.get(name, 0) + 1
        assert stats["adventurers"] and all(counted[name] == n for name, n in stats["adventurers"])
        most = sorted(counted.values(), reverse=True)
        assert [n for _, n in stats["adventurers"]] == most[:len(stats["adventurers"])]
        assert all(sum(h[side] for h in stats["haunts"]) for side in ("heroes", "traitor", "other"))
    finally:
        await service.close()


@pytest.mark.parametrize("kind", ["sqlite", "memory"])
async def test_a_game_in_play_adds_nothing_and_one_ended_halfway_keeps_its_traitor(engine, games, kind, tmp_path):
    service = await service_with(engine, kind, tmp_path)
    try:
        for i, s in enumerate(games["finished"][:3]):
            await store(service, s, f"c{i}")
        halfway = games["ended"][0]
        traitor = halfway["haunt"]["traitors"][0]
        before = {p: await service.stats(GUILD, p) for p in USERS}
        await store(service, halfway, "playing")  # in play: not read at all
        assert {p: await service.stats(GUILD, p) for p in USERS} == before
        await service.end("playing", halfway["seats"][0], can_manage=True)  # ended half-way
        records = await service.store.finished_records(GUILD)
        (record,) = [r for r in records if not r["over"]]
        assert record["traitors"] == [] and record["result"] == {}  # the hidden traitor stays hidden
        after = await service.stats(GUILD, traitor)
        assert after["played"] == before[traitor]["played"] + 1
        assert after["finished"] == before[traitor]["finished"]
        assert after["haunts"] == before[traitor]["haunts"]
        p, q = after["player"], before[traitor]["player"]
        assert (p["games"], p["hero_wins"], p["traitor_wins"]) == (q["games"] + 1, q["hero_wins"], q["traitor_wins"])
    finally:
        await service.close()


async def test_a_game_played_through_the_service_counts(engine, tmp_path):
    """The ordinary path: every action through the service, the game ended by its last one."""
    service = await GameService.open(str(tmp_path / "games.db"), engine)
    try:
        await service.new_game("c", GUILD, USERS[0], seed=11, options={"chosen_haunt": 27})
        for i, aid in enumerate(("torskar", "lia", "gretchen")):
            await service.act("c", {"type": "join", "player": USERS[i], "name": NAMES[i], "adventurer": aid})
        await service.act("c", {"type": "start", "player": USERS[0]})
        rnd = random.Random(11)
        game = await service.game("c")
        while game.state["phase"] != "over":
            await service.act("c", autoplay.choose(engine.content, game.state, rnd))
        stats = await service.stats(GUILD, USERS[1])
        assert (stats["played"], stats["finished"]) == (1, 1)
        (haunt,) = stats["haunts"]
        assert haunt["number"] == 27 and haunt["games"] == 1 and haunt["title"] == "Ravenloft Calls"
        assert stats["player"]["games"] == 1 and stats["player"]["favourite"] == "Lia Faen Tlabbar"
        won = NAMES[1] in history_entry(systems.get("babg").over(engine), game)["winners"]
        assert stats["player"]["hero_wins"] + stats["player"]["traitor_wins"] == int(won)
    finally:
        await service.close()


async def test_no_games_yet(engine):
    service = GameService.in_memory(engine)
    stats = await service.stats(GUILD, USERS[0])
    assert (stats["played"], stats["finished"], stats["haunts"], stats["adventurers"]) == (0, 0, [], [])
    assert stats["player"]["games"] == 0 and stats["player"]["favourite"] is None
    text = "\n".join(stats_lines(stats, "Ann"))
    assert "0 played" in text and "/game new" in text and "Ann" in text
    assert stats_chart(stats).startswith(b"\x89PNG")


def test_the_balance_bench_figures_are_read_from_its_results_file():
    """bench/haunt_balance.py writes rules_data/haunt_balance.json; /stats reads it."""
    figures = bench_figures()
    assert set(figures) == set(range(1, 51))
    data = json.loads(stats_module.BALANCE.read_text(encoding="utf-8"))["haunts"]
    # a game both sides won counts for each (bench/haunt_balance.py, haunt 42)
    assert all(f["games"] == f["heroes"] + f["traitor"] + f["other"] - data[str(n)]["both"]
               for n, f in figures.items())


async def test_stats_need_no_readme(engine, games, monkeypatch, tmp_path):
    """The figures come from the results file, with the README absent (as where the bot runs)."""
    monkeypatch.setattr(stats_module, "README", tmp_path / "README.md", raising=False)
    monkeypatch.chdir(tmp_path)  # (no README.md in the working directory either)
    bench_figures.cache_clear()
    try:
        service = GameService.in_memory(engine)
        for i, s in enumerate(games["finished"]):
            await store(service, s, f"c{i}")
        stats = await service.stats(GUILD, USERS[0])
        assert stats["haunts"] and all(h["bench"] and h["bench"]["games"] for h in stats["haunts"])
        assert "[" in "\n".join(stats_lines(stats, "Ann"))
    finally:
        bench_figures.cache_clear()


def test_a_game_both_sides_won_counts_for_each():
    from bot.service.stats import tally
    record = {"over": True, "haunt": 42, "seats": ["a", "b"], "traitors": ["a"], "adventurers": {},
              "result": {"reason": "haunt_won", "winner": "traitor", "haunt": 42, "sides": ["traitor", "heroes"],
                         "winners": ["a", "b"]}}
    haunt = tally(type("C", (), {"haunts": {}, "adventurers": {}})(), [record])["haunts"][0]
    assert (haunt["games"], haunt["heroes"], haunt["traitor"], haunt["other"]) == (1, 1, 1, 0)


async def test_the_text_and_chart(engine, games):
    service = GameService.in_memory(engine)
    for i, s in enumerate(games["finished"]):
        await store(service, s, f"c{i}")
    stats = await service.stats(GUILD, USERS[0])
    text = "\n".join(stats_lines(stats, "Ann"))
    assert f"{stats['played']} played, {stats['finished']} finished" in text
    for h in stats["haunts"]:
        b = h["bench"]
        assert f"{h['number']} {h['title']}: {h['heroes']}–{h['traitor']}" in text
        assert f"[{b['heroes']}–{b['traitor']} of {b['games']}]" in text
    assert "**Ann:**" in text
    png = stats_chart(stats)
    assert png.startswith(b"\x89PNG") and int.from_bytes(png[16:20], "big") == 800


def seated_as(state: dict, ids: dict[str, str]) -> dict:
    """The game with its players' ids replaced (the fake Discord's users)."""
    text = json.dumps(state)
    for old, new in ids.items():
        text = text.replace(f'"{old}"', f'"{new}"')
    return json.loads(text)


async def test_stats_through_the_real_client(engine, games, fake_discord, tmp_path):
    """/stats player:@Bo through discord.py against the fake Discord, on a
    server with 50 finished games and one in play: the figures of the
    stored games (the one in play left out), the chart, within 1 s."""
    server = fake_discord
    guild = server.add_guild("Baldur's Gate")
    channel = server.add_channel(guild, "betrayal")
    users = [server.add_user(name.lower()) for name in NAMES]
    for user in users:
        server.add_member(guild, user)
    config = Config(token="fake", data_dir=str(tmp_path / "data"), dev_guild_id=guild.id, poll_seconds=3600)
    bot = await server.start_bot(GameBot(config, engine))
    ids = {USERS[i]: str(u.id) for i, u in enumerate(users)}
    finished = [seated_as(s, ids) for s in games["finished"]] * 5  # 50 finished games, each stored 5 times
    assert len(finished) == 50
    for i, s in enumerate(finished):
        await store(bot.service, s, f"old-{i}", guild=str(guild.id))
    await store(bot.service, seated_as(games["ended"][0], ids), str(channel.id), guild=str(guild.id))  # in play

    h = await server.slash(users[0], channel, "stats", options={"player": users[1]})
    await server.wait_handled(h)
    assert not h.ephemeral
    want = expected(engine.content, finished, [], str(users[1].id))
    text = h.content
    assert f"{want['played']} played, {want['finished']} finished" in text
    for number, row in want["haunts"].items():
        assert f"{number} {engine.content.haunts[number].title}: {row['heroes']}–{row['traitor']}" in text
    assert (f"**{users[1].global_name}:** {want['games']} game" in text if want["games"] else
            "has not played a game here yet" in text)
    if want["games"]:
        assert f"won {want['hero_wins']} as a hero and {want['traitor_wins']} as a traitor" in text
    assert h.files["stats.png"].startswith(b"\x89PNG")
    assert h.latency is not None and h.latency < 3.0  # Discord fails an interaction not answered within 3 s

    h = await server.slash(users[2], channel, "stats")  # the server alone
    await server.wait_handled(h)
    assert "played" in h.content and f"**{users[2].global_name}:**" not in h.content
