"""Castle Ravenloft on Discord with three people and no built-in hero, through the real discord.py client
against the fake Discord: each joins with /game join hero:, and each plays their own turns with the turn
message's buttons and the slash commands (/move, /attack, /use, /end, /choose), choosing as the built-in
heroes would. One adventure ends in a victory, another in a defeat; /stats and /history then tell both.

The seeds are found when the test runs, by playing the same seats offline first (the built-in heroes'
choices depend on the state alone, so the game through Discord goes the same way): the heroes' play may
change without the test going stale."""
import dataclasses

import pytest

from bot import games
from bot.service import GameService, history_lines
from bot.service.stats import stats_lines
from bot.discord import turn_posts
from bot.discord.face import from_custom_id
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)
from tests.pg import new_database, postgres_server  # noqa: F401  (the fixture)
from tests.test_discord_e2e import Table
from tests.test_ravenloft_discord import as_command

ADVENTURE = "the_stitched_servant"  # the shortest adventure for three heroes (a dozen actions or so)
PEOPLE = ("ann", "bo", "cy")
HEROES = {"victory": ("kat", "thorgrim", "immeril"), "defeat": ("allisa", "arjhan", "kat")}
NAMES = {"kat": "Kat", "thorgrim": "Thorgrim", "immeril": "Immeril", "allisa": "Allisa", "arjhan": "Arjhan"}


def offline(system, seed: int, seats: list[tuple[str, str, str]], most: int = 3000) -> tuple[str, int, set[str]]:
    """How the adventure ends when every seat plays as the built-in heroes do: the result, the actions it
    took and the seats that acted."""
    state, n, acted = played_offline(system, seed, seats, most)
    return (state["outcome"]["result"] if system.phase(state) == "over" else "unfinished"), n, acted


def played_offline(system, seed: int, seats: list[tuple[str, str, str]], most: int = 3000) -> tuple[dict, int, set]:
    """The adventure played by the seats as the built-in heroes play, to its end or for `most` actions."""
    state = system.new_game(seed, {"adventure": ADVENTURE})
    for seat, name, hero in seats:
        state, _ = system.apply(state, system.join_action(seat, name, hero))
    state, _ = system.apply(state, system.start_action(seats[0][0]))
    acted = set()
    for n in range(most):
        if system.phase(state) == "over":
            return state, n, acted
        who = system.actor(state)
        acted.add(who)
        state, _ = system.apply(state, system.builtin_action(state, who, None))
    return state, most, acted


def shortest_seed(system, seats, result: str) -> int | None:
    """The seed of the shortest adventure ending in `result` where each person plays at least once."""
    for seeds in (range(1, 21), range(21, 201)):  # (the second range only if the first has none)
        found = []
        for seed in seeds:
            got, n, acted = offline(system, seed, seats)
            if got == result and acted == {s for s, _, _ in seats}:
                found.append((n, seed))
        if found:
            return min(found)[1]
    return None


def button_for(t: Table, system, game, action: dict, channel=None):
    """The turn message's button that does `action` now (its game, turn and question), if it has one."""
    state = game.state
    carried = {k: v for k, v in action.items() if k != "player"}
    for message in reversed(t.s.channel_messages(channel or t.channel)):
        for custom_id in message.custom_ids:
            c = from_custom_id(custom_id)
            if c and c.game_id == game.id and c.turn == system.turn_number(state) and c.action == carried \
                    and (action["type"] != "decide" or c.question == system.pending_key(state)):
                return message, custom_id
    return None


def choose_option(state: dict, action: dict) -> int:
    """/choose's number for an answer (the engine's answers count from 1; one given by its words is found)."""
    choice = action["choice"]
    return choice if isinstance(choice, int) else state["pending"]["options"].index(choice) + 1


async def send(t: Table, system, game, action: dict, channel, use_button: bool):
    """A person plays `action` in the channel: by the turn message's button if `use_button` and it has one,
    else by its slash command. Returns the interaction and "button" or the command's name."""
    who = t.name_of(action["player"])
    found = None
    if use_button:  # like a person, click what the turn message shows once it is up to date
        found = await t.s.wait_for(lambda: button_for(t, system, game, action, channel) or t.bot.turn_posts.idle(),
                                   timeout=60, what=f"the turn message up to date for {action}")
        found = button_for(t, system, game, action, channel)
    if found:
        handle = await t.s.click(t.users[who], *found)
        way = "button"
    elif action["type"] == "decide":
        handle = await t.s.slash(t.users[who], channel, "choose", options={"option": choose_option(game.state, action)})
        way = "choose"
    else:
        way, options = as_command(action)
        handle = await t.s.slash(t.users[who], channel, way, options=options)
    await t.handled(handle)
    return handle, way


async def play_as_people(t: Table, system, seed: int, heroes: tuple[str, str, str], paths: dict) -> dict:
    h = await t.slash("ann", "game new", options={"game": "ravenloft", "adventure": ADVENTURE, "seed": seed})
    assert "opened a game of Castle Ravenloft" in h.content, h.content
    for who, hero in zip(PEOPLE, heroes):
        h = await t.slash(who, "game join", options={"hero": hero})
        assert NAMES[hero] in h.content, h.content
    await t.slash("ann", "game start")
    await t.done()
    acted = set()
    for _ in range(300):
        game = await t.game()
        if game is None:
            break
        state = game.state
        seat = system.actor(state)
        action = system.builtin_action(state, seat, None)
        kind = action["type"]
        # the slash command the first time a kind of action comes (so /end and /choose are typed once),
        # then the turn message's button when it offers one, and the slash command where it does not
        handle, way = await send(t, system, game, action, t.channel, use_button=kind in paths["seen"])
        paths["seen"].add(kind)
        paths["buttons" if way == "button" else "commands"].append(kind if way == "button" else way)
        after = await t.game()
        assert after is None or after.state != state, f"{action} was refused: {handle.content}"
        acted.add(t.name_of(seat))
    await t.done()
    assert await t.game() is None, "the adventure ended"
    assert acted == set(PEOPLE), "each person played their own turns"
    return (await t.bot.service.latest_game(str(t.channel.id))).state


async def test_three_people_play_adventures_to_a_victory_and_a_defeat_then_stats_and_history(
        fake_discord, tmp_path, engine, monkeypatch):  # noqa: F811
    # Castle Ravenloft rulebook: Winning the Game (the heroes win or lose together)
    t = Table(fake_discord, tmp_path)
    t.unpaced = True  # whole adventures: the channel's pace is tests/test_discord_pace.py's to check
    t.config = dataclasses.replace(t.config, builtin_pause=0.0)
    monkeypatch.setattr(turn_posts, "QUIET", 0.05)  # an edit waits this long for more of the same turn
    system = games.get("ravenloft")
    names = {who: t.users[who].global_name for who in PEOPLE}
    seeds = {}  # found before the bot starts: a second of play would hold up its event loop
    for result, heroes in HEROES.items():
        seeds[result] = shortest_seed(system, [(t.uid(who), names[who], hero) for who, hero in zip(PEOPLE, heroes)],
                                      result)
        assert seeds[result] is not None, f"no seed of the first 200 gives a {result} with every person playing"
    await t.start(engine)
    paths = {"seen": set(), "buttons": [], "commands": []}
    for result, heroes in HEROES.items():
        state = await play_as_people(t, system, seeds[result], heroes, paths)
        assert state["outcome"]["result"] == result  # as the same seats played it offline
        assert not any(state["players"][p].get("builtin") for p in state["seats"])
        said = " ".join(m.content for m in t.s.channel_messages(t.channel)[-8:])
        assert state["outcome"]["text"].split(".")[0] in said and "seed was" in said  # the end told, the seed shown
    assert paths["buttons"] and paths["commands"], paths  # both ways of playing were used
    assert {"end", "choose"} <= set(paths["commands"]) and "end" in paths["buttons"], paths
    assert any(a for m in t.s.channel_messages(t.channel) for a in m.attachments), "the turn pictures came"

    # /stats: the adventures played, won and lost, and the heroes chosen (Kat twice)
    h = await t.slash("bo", "stats")
    assert not h.ephemeral
    assert "**This server's games:** 2 played, 2 finished." in h.content, h.content
    assert "**Castle Ravenloft:** 2 played, 2 finished." in h.content
    assert "Adventures: 2 played, 1 won, 1 lost." in h.content
    assert "The Stitched Servant: 1 won, 1 lost" in h.content
    assert "Heroes chosen: Kat (2), Allisa (1), Arjhan (1), Immeril (1), Thorgrim (1)." in h.content
    assert "haunt" not in h.content.lower() and "stats.png" not in h.files  # nothing of Baldur's Gate's tally
    # /history: each adventure with its game's title and outcome, newest first
    h = await t.slash("cy", "history")
    lines = [line for line in h.content.splitlines() if line.startswith("#")]
    assert len(lines) == 2 and all(", Castle Ravenloft: " in line for line in lines), h.content
    assert all("adventure The Stitched Servant" in line for line in lines)
    defeat, victory = lines
    assert "the heroes lost" in defeat and "Allisa" in defeat and "Ann (Allisa)" in defeat
    assert "the heroes won" in victory and victory.endswith("(Ann, Bo, Cy).")
    assert not t.s.client_errors, t.s.client_errors


@pytest.fixture(params=["sqlite", "memory", "postgres"])
def database(request, tmp_path) -> str | None:
    """Where each store keeps its games (None: in memory; PostgreSQL where its binaries are installed)."""
    if request.param == "memory":
        return None
    if request.param == "sqlite":
        return str(tmp_path / "games.db")
    return new_database(request.getfixturevalue("postgres_server"))  # (outside the test's event loop)


@pytest.fixture
async def service(database, engine):
    svc = GameService.in_memory(engine) if database is None else await GameService.open(database, engine)
    yield svc
    await svc.close()


async def test_stats_and_history_count_each_game_by_its_own_system(service):
    """Through the service on every store: ended adventures counted by Castle Ravenloft's own record (won,
    lost, stopped before the end, heroes), a Baldur's Gate game beside them by its tally, another server's
    game left out; /history names each game's title and how it ended."""
    system = games.get("ravenloft")
    guild, seats = "g1", [("u1", "Ann", "kat"), ("u2", "Bo", "thorgrim")]
    ended = {}
    for seed in range(1, 60):  # an adventure the two heroes win and one they lose
        state, _, _ = played_offline(system, seed, seats)
        ended.setdefault(state["outcome"]["result"], (seed, state))
        if len(ended) == 2:
            break
    ended["stopped"] = (1, played_offline(system, 1, seats, most=3)[0])
    for i, (seed, state) in enumerate(ended[k] for k in ("victory", "defeat", "stopped")):
        game = await service.new_game(f"c{i}", guild, "u1", seed=seed, options={"adventure": ADVENTURE},
                                      system="ravenloft")
        await service.overwrite_state(game, state)
    await service.end("c2", "u1", can_manage=True)  # stopped before its end
    elsewhere = await service.new_game("c9", "g2", "u1", options={"adventure": ADVENTURE}, system="ravenloft")
    await service.overwrite_state(elsewhere, ended["victory"][1])
    await service.new_game("b", guild, "u1")  # and a Baldur's Gate game, stopped once begun
    for uid, name, aid in (("u1", "Ann", "torskar"), ("u2", "Bo", "lia"), ("u3", "Cy", "gretchen")):
        await service.act("b", {"type": "join", "player": uid, "name": name, "adventurer": aid})
    await service.act("b", {"type": "start", "player": "u1"})
    await service.end("b", "u1", can_manage=True)

    stats = await service.stats(guild)
    assert (stats["played"], stats["finished"], stats["haunts"]) == (1, 0, [])  # Baldur's Gate's tally alone
    (dungeon,) = stats["systems"]
    assert (dungeon["title"], dungeon["played"], dungeon["finished"]) == ("Castle Ravenloft", 3, 2)
    text = "\n".join(stats_lines(stats))
    assert "**This server's games:** 4 played, 2 finished." in text
    assert "**Betrayal at Baldur's Gate:** 1 played, 0 finished." in text
    assert "**Castle Ravenloft:** 3 played, 2 finished." in text
    assert "Adventures: 3 played, 1 won, 1 lost, 1 stopped before the end." in text
    assert "The Stitched Servant: 1 won, 1 lost" in text and "Heroes chosen: Kat (3), Thorgrim (3)." in text

    lines = history_lines(await service.history(guild))
    assert len(lines) == 4 and lines[0].startswith("#") and ", Betrayal at Baldur's Gate: " in lines[0]
    assert "haunt (not reached); ended early (/game end)" in lines[0]
    stopped, lost, won = lines[1:]
    assert all(", Castle Ravenloft: Ann (Kat), Bo (Thorgrim); adventure The Stitched Servant; " in x
               for x in lines[1:])
    assert "ended early (/game end)" in stopped
    assert "the heroes lost: " in lost and "the heroes won: " in won and won.endswith("(Ann, Bo).")
