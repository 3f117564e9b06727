"""End to end through the real client and the fake Discord: the options of
/game new (seed, haunt, rules, avoid_repeats), dice anyone can check (the
commitment at the start, the seed at the end, /log file and --verify),
/history and /rules house; and the secret seed stays secret until the end."""
import hashlib
import json
import random
import re

from bot.games.babg import autoplay
from bot.discord import client
from bot.games.babg.engine.view import view
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)
from tests.test_discord_e2e import Table, play_one

SEED = 20261122


async def new_game(t, **options):
    h = await t.slash("ann", "game", subcommand="new", options=options)
    for who, adv in (("ann", "torskar"), ("bo", "lia"), ("cy", "gretchen")):
        await t.slash(who, "game", subcommand="join", options={"adventurer": adv})
    return h, await t.slash("bo", "game", subcommand="start")


def everything_said(t) -> str:
    """Every message anyone could read: the channel, DMs, private answers, attachments."""
    texts = []
    for m in t.s.channel_messages(t.channel):
        texts.append(m.content)
        texts += [a.data.decode("latin-1") for a in m.attachments if a.filename.endswith(".json")]
    for user in t.users.values():
        for m in t.s.dm_messages(user) + t.s.ephemeral_messages(user):
            texts.append(m.content)
            texts += [a.data.decode("latin-1") for a in m.attachments if a.filename.endswith(".json")]
    return "\n".join(texts)


async def arrange_haunt_roll(t, omen="berserker_axe", tile="house_of_blood", extra_tiles=()):
    """The player whose turn it is holds `omen`, drawn on `tile`; ending the turn starts the haunt."""
    game = await t.game()
    s = game.state
    pid = s["turn"]["player"]
    for i, tid in enumerate((tile, *extra_tiles)):
        s["board"][tid] = {"level": "city", "x": 1 + i, "y": -1, "rot": 0}
        for stack in s["stacks"].values():
            if tid in stack:
                stack.remove(tid)
    s["decks"]["omen"].remove(omen)
    s["players"][pid]["cards"].append(omen)
    s["players"][pid]["tile"] = tile
    s["turn"]["omens"] = [[omen, tile]]
    s["omens_revealed"] = 8
    await t.put_state(game, s)
    return t.name_of(pid)


async def test_bad_options_get_a_short_private_answer(fake_discord, tmp_path, engine):
    t = Table(fake_discord, tmp_path)
    await t.start(engine)
    h = await t.slash("ann", "game", subcommand="new", options={"haunt": 99})
    assert h.ephemeral and "no haunt 99" in h.content and len(h.content) < 200
    h = await t.slash("ann", "game", subcommand="new", options={"seed": -5})
    assert h.ephemeral and "seed" in h.content
    assert await t.game() is None


async def test_a_chosen_haunt_and_house_rules_through_the_client(fake_discord, tmp_path, engine):
    t = Table(fake_discord, tmp_path)
    await t.start(engine)
    h, _ = await new_game(t, haunt=4, rules="legacy-house-rules")
    assert not h.ephemeral and "haunt 4 when the haunt begins" in h.content and "Betrayal Legacy" in h.content
    options = (await t.state())["options"]
    assert options["chosen_haunt"] == 4 and options["rules"] == ["legacy-house-rules"]
    who = await arrange_haunt_roll(t)
    await t.slash(who, "end")
    state = (await t.game()).state
    assert state["haunt"]["number"] == 4, "the chart gave 18; the table chose 4"
    await t.s.wait_for(t.bot.turn_posts.idle, timeout=60, what="the reveal shown")
    public = "\n".join(m.content for m in t.s.channel_messages(t.channel))
    assert "the table chose haunt 4" in public
    h = await t.slash("cy", "rules", options={"topic": "house"})
    assert h.ephemeral and "under its own deck" in h.content and "L767" in h.content


async def test_house_rules_bury_the_event_through_the_client(fake_discord, tmp_path, engine):
    # Betrayal Legacy rulebook L82: the event read goes under its deck, never to a discard pile
    t = Table(fake_discord, tmp_path)
    await t.start(engine)
    await new_game(t, rules="legacy-house-rules")
    game = await t.game()
    s = game.state
    pid = s["turn"]["player"]
    event_tile = next(x for x in s["stacks"]["building"] if engine.content.tiles[x].symbol == "event")
    s["stacks"]["building"].remove(event_tile)
    s["stacks"]["building"].insert(0, event_tile)
    s["players"][pid]["tile"] = "inner_chamber"
    first = s["decks"]["event"][0]
    await t.put_state(game, s)
    who = t.name_of(pid)
    await t.slash(who, "move", options={"direction": "north"})
    for _ in range(10):
        s = await t.state()
        if not s["pending"]:
            break
        await t.slash(t.name_of(s["pending"]["player"]), "choose", options={"option": 1})
    s = await t.state()
    assert s["discard"]["event"] == []
    assert first in s["players"][pid]["cards"] or s["decks"]["event"][-1] == first


async def test_avoid_repeats_remembers_the_servers_haunts(fake_discord, tmp_path, engine):
    # Rulebook (000 L407-415): Optional Rule: Selecting the Haunt
    t = Table(fake_discord, tmp_path)
    await t.start(engine)
    await new_game(t)
    who = await arrange_haunt_roll(t)
    await t.slash(who, "end")
    assert (await t.game()).state["haunt"]["number"] == 18
    await t.slash("ann", "game", subcommand="end")
    h, _ = await new_game(t, avoid_repeats=True)
    assert "no haunt this server has played (1 so far)" in h.content
    assert (await t.state())["options"]["played"] == [18]
    who = await arrange_haunt_roll(t, extra_tiles=("beasts_lair",))
    await t.slash(who, "end")
    state = (await t.game()).state
    assert state["haunt"]["number"] == engine.content.haunt_for("berserker_axe", "beasts_lair") == 12


async def test_dice_anyone_can_check(fake_discord, tmp_path, engine):
    t = Table(fake_discord, tmp_path)
    await t.start(engine)
    _, start = await new_game(t, seed=SEED)
    commitment = hashlib.sha256(str(SEED).encode()).hexdigest()
    await start.wait_until(lambda h: any(commitment in m.content for m in h.followups), timeout=60)
    rnd = random.Random(3)
    for _ in range(60):
        game = await t.game()
        action = autoplay.choose(engine.content, game.state, rnd)
        if action["type"] == "trade":
            action = {"type": "end", "player": game.state["turn"]["player"]}
        await play_one(t, action, game, use_buttons=False)
    h = await t.slash("cy", "log", subcommand="file")
    assert h.ephemeral
    running = json.loads(h.files["game-1-log.json"])
    # Ruling: The game's log before the end
    assert running["seed"] is None and running["commitment"] == commitment
    # Visibility: the secret seed is nowhere a player can read before the end (nor in their view of the state).
    state = await t.state()
    assert str(SEED) not in everything_said(t)
    assert "seed" not in view(state, t.uid("ann")) and "rng" not in view(state, t.uid("ann"))
    # The end: the seed is revealed, the log holds it, and the game verifies from them.
    h = await t.slash("ann", "game", subcommand="end")
    assert f"secret seed was {SEED}" in h.content and commitment in h.content
    h = await t.slash("bo", "log", subcommand="file")
    log = json.loads(h.files["game-1-log.json"])
    assert log["seed"] == SEED
    assert sum(len(a["rolls"]) for a in log["actions"]) > 0
    ok, lines = t.bot.service.verify(SEED, log)
    assert ok, lines
    # A tampered log is rejected, naming the first roll that does not match.
    entry = next(a for a in log["actions"] if a["rolls"])
    entry["rolls"][0] = [2 if f != 2 else 0 for f in entry["rolls"][0]]
    number = sum(len(a["rolls"]) for a in log["actions"][:log["actions"].index(entry)]) + 1
    ok, lines = t.bot.service.verify(SEED, log)
    assert not ok and lines[0].startswith(f"Roll {number} (action {entry['n']}")
    ok, lines = t.bot.service.verify(SEED + 1, log)
    assert not ok and "commitment" in lines[0]


async def test_history_lists_finished_games_and_shows_a_replay(fake_discord, tmp_path, engine):
    t = Table(fake_discord, tmp_path)
    await t.start(engine)
    h = await t.slash("ann", "history")
    assert "no finished games" in h.content
    await new_game(t)
    who = await arrange_haunt_roll(t)
    await t.slash(who, "end")
    await t.slash("ann", "game", subcommand="end")
    h = await t.slash("bo", "history")
    assert "#1 " in h.content and "Ann (Torskar" in h.content and "haunt 18, Rats on a Pier" in h.content
    assert "ended early" in h.content
    h = await t.slash("bo", "history", options={"game": 1})
    await h.wait_until(lambda h: "replay.gif" in h.files, timeout=60)
    h = await t.slash("bo", "history", options={"game": 7})
    assert h.ephemeral and "no finished game number 7" in h.content


async def test_the_map_once_a_round_and_the_summary_once_a_round(fake_discord, tmp_path, engine, monkeypatch):
    # /game new map: once a round: the channel gets the map when a round begins (and at the haunt and the
    # end), never in between; the pinned summary is edited once a round too
    monkeypatch.setattr(client, "SUMMARY_EVERY", 1.0)  # the pinned summary's edits, at most once a second here
    t = Table(fake_discord, tmp_path)
    t.unpaced = True  # turns as fast as the bot answers (the channel's pace: tests/test_discord_pace.py)
    await t.start(engine)
    h, _ = await new_game(t, map="round")
    assert "the map once a round" in h.content
    assert (await t.state())["options"]["map"] == "round"
    rnd = random.Random(3)
    rounds, turns = 1, 0  # the start opens the first round
    round_starts = {(await t.state())["turn"]["number"]}
    await t.done("the start shown, its summary pinned", summaries=True)
    edits_before = len(t.s.edits)
    while turns < 7:
        game = await t.game()
        state = game.state
        if state["phase"] != "exploring":
            break
        action = autoplay.choose(engine.content, state, rnd)
        if action["type"] == "trade":
            action = {"type": "end", "player": state["turn"]["player"]}
        await play_one(t, action, game, use_buttons=True)
        after = await t.state()
        if after["turn"]["number"] != state["turn"]["number"]:
            turns += 1
            if after["turn"]["player"] == after["order"][0]:
                rounds += 1
                round_starts.add(after["turn"]["number"])
    assert turns == 7 and rounds == 3, (turns, rounds)

    def maps():
        return sum(1 for m in t.s.channel_messages(t.channel) for a in m.attachments if a.filename == "map.png")
    await t.s.wait_for(lambda: maps() == rounds, timeout=60, what="a map for each round")
    # the bot done, the summary's last edit (held back until SUMMARY_EVERY has passed) made too
    await t.done("every map and summary edit out", summaries=True)
    assert maps() == rounds, "no map between rounds"
    pinned = t.s.pins(t.channel)[0]
    summary_edits = [e for e in t.s.edits[edits_before:] if e.message.id == pinned.id]
    shown = [int(re.search(r"Turn (\d+):", (e.after or {}).get("content", "")).group(1)) for e in summary_edits]
    assert shown and len(shown) <= rounds, "the summary is edited as rounds begin, never every turn"
    assert shown[-1] == max(round_starts), "and it catches up with the newest round"
