"""Castle Ravenloft's villain phase on Discord, through the real client against the fake Discord: it comes
back from the engine all at once inside the hero's End, and the channel sees it as one message (the hero's
turn message), one line per card in the order they acted, revealed edit by edit within the channel's pace."""
from bot import games
from bot.discord import turn_posts
from bot.discord.face import face_of
from bot.games.ravenloft.discord import card_name
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)
from tests.test_discord_e2e import Table, busiest
from tests.test_ravenloft_discord import as_command

HEROES = (("ann", "kat"), ("bo", "thorgrim"), ("cy", "immeril"))
SEED, TURNS = 4, 8  # (a seed whose first turns bring villain phases of up to four cards; one with a question is left out)
QUICKER = 20  # Discord's channel pace and the bot's waits, this many times quicker (the players act at once)


def channel_messages(t, since: float, until: float | None = None) -> list:
    """The messages the bot posted in the game's channel after `since` (and up to `until`; not the private
    answers)."""
    return [e.message for e in t.s.log if e.kind == "message" and e.at > since and e.message.channel is t.channel
            and not e.message.ephemeral and (until is None or e.at <= until)]


def activations(events: list[dict]) -> list[tuple[str, bool]]:
    """The villain phase's villains and cards in the order they acted, as the engine tells them (each
    activation's events carry its figure or card): each one, and whether it attacked."""
    acted: list[list] = []
    for e in events:
        if e.get("activation"):
            if not acted or acted[-1][0] != e["activation"]:
                acted.append([e["activation"], False])
            acted[-1][1] |= e["kind"] == "attacked"
    return [(source, attacked) for source, attacked in acted]


def drawn_in(events: list[dict]) -> list[str]:
    """The encounter cards drawn."""
    return [e["card"] for e in events if e["kind"] == "encounter" and e.get("card")]


def bold(text: str) -> list[str]:
    """A message's lines that name a card (the villain phase's)."""
    return [line for line in (text or "").splitlines() if line.startswith("**")]


async def test_the_villain_phase_is_one_message_with_a_line_per_card_revealed_within_the_pace(
        fake_discord, tmp_path, engine, monkeypatch):  # noqa: F811
    # Castle Ravenloft rulebook: Villain Phase (the encounter card, then each villain, then each monster and
    # trap card in the order drawn)
    t = Table(fake_discord, tmp_path)
    t.pace = (5, 5.0 / QUICKER)
    monkeypatch.setattr(turn_posts, "QUIET", turn_posts.QUIET / QUICKER)
    monkeypatch.setattr(turn_posts, "TURN_MAP_WAIT", turn_posts.TURN_MAP_WAIT / QUICKER)  # (pictures aside)
    await t.start(engine)
    system = t.bot.service.system_named("ravenloft")
    await t.slash("ann", "game new", options={"game": "ravenloft", "adventure": "2", "seed": SEED, "builtin": 0})
    for who, hero in HEROES:
        await t.slash(who, "game join", options={"hero": hero})
    await t.slash("ann", "game start")
    await t.done()
    since = t.s.log[-1].at
    first = system.turn_number(await t.state())
    told, revealed, turn_events, asked, turns, until = 0, 0, [], False, 0, None
    while (game := await t.game()) is not None and system.turn_number(state := game.state) < first + TURNS:
        who = system.actor(state)
        action = system.builtin_action(state, who, None)
        after, events = system.apply(state, action)  # what the bot will do with it (the state holds the dice)
        name, options = as_command(action)
        if system.phase(after) == "over":  # the end's own posts (the story, the pictures) are not a turn's
            await t.done()
            until = t.s.log[-1].at
            break
        await t.slash(t.name_of(who), name, options=options)  # (committed: the next one may go at once)
        turn_events += events
        if action["type"] == "end" and after.get("pending"):
            asked = True  # a question in the middle of the villain phase: its lines after the answer come later
        if system.turn_number(after) == system.turn_number(state):
            continue
        turns += 1
        if asked:
            asked, turn_events = False, []
            continue
        last = len(drawn_in(events)) + len(activations(events))  # lines the turn's last action brought
        events, turn_events = turn_events, []  # the turn's, its villain phase's among them
        acted = activations(events)
        if not acted:
            continue
        await t.done("the villain phase told")
        held = [entry["card"] for entry in after["players"][who]["cards"]]  # the hero's cards, in the order drawn
        assert [x for x, _ in acted if x in held] == [x for x in held if x in dict(acted)]
        # the hero's turn message, which their villain phase closes
        hero = system.content().heroes[state["players"][who]["hero"]].name
        ended = next(m for m in reversed(t.s.channel_messages(t.channel)) if f"{hero} ends the hero phase." in m.content)
        named = bold(ended.content)
        drawn = [card_name(system.content(), state, after, card) for card in drawn_in(events)]
        assert [line.split("**")[1] for line in named] == drawn + [card_name(system.content(), state, after, x)
                                                                   for x, _ in acted], \
            f"one line per encounter card, then one per villain and card, in the order they acted: {named}"
        cards = named[len(drawn):]
        assert all(" vs AC " in line for line, (_, attacked) in zip(cards, acted) if attacked), \
            "an attack's line says its roll against the AC"
        assert not ended.components, "the finished turn's message lost its buttons"
        newest = t.s.channel_messages(t.channel)[-1]
        assert newest is not ended and not any(line in newest.content for line in cards), \
            "the villain phase is told in one message, not in the next turn's"
        if last > 1:  # told as it ran: an earlier version of the message showed some of those lines, not all
            assert any(len(named) - last < len(bold(v["content"])) < len(named) for v in ended.history), \
                "revealed edit by edit"
            revealed += 1
        told += 1
    assert told >= 2 and revealed >= 1, "several villain phases were told, some of several lines at once"
    await t.done()
    posted = channel_messages(t, since, until)
    assert turns and len(posted) / turns <= 1.2, f"{len(posted)} new messages in {turns} turns"
    assert busiest(t, since, 5.0 / QUICKER) <= 5, "no more than 5 writes in any window of the channel's pace"
    assert max(len(m.components) for m in posted) <= 2, "at most two rows of buttons"


async def test_a_question_for_another_hero_stays_in_the_turn_message_and_reaches_them_privately(
        fake_discord, tmp_path, engine):  # noqa: F811
    # Castle Ravenloft rulebook: Villain Phase (an encounter card asks another hero mid-phase, here
    # Reinforcements: which tile gets the new monster)
    t = Table(fake_discord, tmp_path)
    t.unpaced = True
    await t.start(engine)
    system = t.bot.service.system_named("ravenloft")
    await t.slash("ann", "game new", options={"game": "ravenloft", "adventure": "2", "seed": 2, "builtin": 0})
    for who, hero in HEROES:
        await t.slash(who, "game join", options={"hero": hero})
    await t.slash("ann", "game start")
    await t.done()
    asked = None
    for _ in range(80):  # the seed's fourth turn brings it
        state = await t.state()
        who = system.actor(state)
        action = system.builtin_action(state, who, None)
        after, _ = system.apply(state, action)
        name, options = as_command(action)
        before_posts = len(t.s.channel_messages(t.channel))
        await t.slash(t.name_of(who), name, options=options)
        await t.done()
        pending = after.get("pending")
        if pending and pending["player"] != (after.get("turn") or {}).get("player") and \
                system.turn_number(after) == system.turn_number(state):
            asked = pending
            break
    assert asked is not None, "the seed brings a question for another hero in the middle of a turn"
    posts = t.s.channel_messages(t.channel)
    assert len(posts) == before_posts, "no new message for the question"
    turn_message = posts[-1]
    assert f"<@{asked['player']}>, your choice: {asked['prompt']}" in turn_message.content
    assert turn_message.components, "its answers are buttons under the turn's message"
    hero = system.content().heroes[state["players"][state["turn"]["player"]]["hero"]].name
    assert f"{hero} ends the hero phase." in turn_message.content, "the same message as the turn it interrupts"
    # the asked hero hears it privately; nobody else does
    for name, _ in HEROES:
        dms = [m.content for m in t.s.dm_messages(t.users[name])]
        assert any(asked["prompt"] in d for d in dms) == (t.uid(name) == asked["player"]), name
    told = next(m.content for m in t.s.dm_messages(t.users[t.name_of(asked["player"])]) if asked["prompt"] in m.content)
    assert "buttons under the newest message" in told and "/choose" in told, "the DM says where to answer"
    # the heroes' own questions (keep or give, cancel, which of them) came by no DM: the first question someone
    # else's action brought is this one
    questions = {name: sum("buttons under the newest message" in m.content for m in t.s.dm_messages(t.users[name]))
                 for name, _ in HEROES}
    assert questions == {name: int(t.uid(name) == asked["player"]) for name, _ in HEROES}, questions
    welcome = t.s.dm_messages(t.users["ann"])[0].content  # the start's DM speaks of this game, not of secret rules
    assert "keeps no secrets between heroes" in welcome and "hidden tokens" not in welcome
    # answered: the villain phase goes on in the same message; the next turn's is the one new message
    state = await t.state()
    await t.slash(t.name_of(asked["player"]), "choose", options={"option": 1})
    await t.done()
    after = await t.state()
    assert system.turn_number(after) > system.turn_number(state) or after.get("pending"), "answered"
    new = t.s.channel_messages(t.channel)[len(posts):]
    assert len(new) <= 1 and not any(line.startswith("**") for m in new for line in m.content.splitlines()), \
        "the rest of the villain phase stays in the turn's message"


def test_who_acts_changing_within_a_turn_stays_in_its_message_and_a_new_turn_opens_one():
    # Castle Ravenloft rulebook: Hero Phase, Villain Phase (one hero's turn: questions for others within it)
    face = face_of(games.get("ravenloft"))
    turn = {"number": 4, "player": "kat", "phase": "villain"}
    asked = {"player": "bo", "prompt": "Which tile?", "options": ["a", "b"], "kind": "encounter"}
    plain = {"phase": "play", "turn": turn, "pending": None}
    question = dict(plain, pending=asked)
    assert face.asks_in_place(plain, question), "asked of another hero mid-turn"
    assert face.asks_in_place(question, plain), "answered: back to the turn's hero, in the same message"
    assert not face.asks_in_place(question, dict(plain, turn=dict(turn, number=5, player="bo"))), \
        "a new turn opens its own message"
    assert not face.asks_in_place(plain, plain), "nothing asked: the plain rules"
