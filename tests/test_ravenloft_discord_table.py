"""What Baldur's Gate's table does, Castle Ravenloft's does too, through the real client against the fake
Discord: a reminder and a deadline for the hero the game waits for, a vote that skips an absent hero's
turn, a seat handed over keeping its hero, the stand-in playing an absent seat, and take-back."""
import json

from bot.games.ravenloft.system import SYSTEM
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)
from tests.test_discord_e2e import Table


async def opened(t, engine):
    await t.start(engine)
    await t.slash("ann", "game new", options={"game": "ravenloft", "adventure": "2", "builtin": 0})
    for who, hero in (("ann", "kat"), ("bo", "arjhan"), ("cy", "thorgrim")):
        await t.slash(who, "game join", options={"hero": hero})
    await t.slash("ann", "game start")
    await t.done()
    return t.bot.service.system(await t.game())


async def test_a_waiting_hero_is_reminded_and_their_turn_skipped_by_vote(fake_discord, tmp_path, engine):  # noqa: F811
    t = Table(fake_discord, tmp_path)
    t.unpaced = True
    system = await opened(t, engine)
    state = await t.state()
    waiting = system.actor(state)
    t.bot.service.clock = lambda: 10 ** 12  # long after every reminder and deadline
    await t.bot.fire_timers()
    await t.s.wait_for(lambda: any("deadline has passed" in m.content for m in t.s.channel_messages(t.channel)),
                       timeout=60, what="the reminder and the deadline")
    texts = [m.content for m in t.s.channel_messages(t.channel)]
    assert any(f"<@{waiting}>, a reminder" in x for x in texts)
    others = [n for n in ("ann", "bo", "cy") if t.uid(n) != waiting]
    h = await t.slash(others[0], "game", subcommand="skip")
    assert "Vote to skip recorded (1 of 2 needed)" in h.content
    await t.slash(others[1], "game", subcommand="skip")
    await t.done()
    after = await t.state()
    assert system.turn_number(after) > system.turn_number(state) and system.actor(after) != waiting


async def test_take_back_handover_and_the_stand_in_on_a_hero(fake_discord, tmp_path, engine):  # noqa: F811
    t = Table(fake_discord, tmp_path)
    t.unpaced = True
    system = await opened(t, engine)
    state = await t.state()
    who = system.actor(state)
    name = t.name_of(who)
    move = next(a for a in system.legal_actions(state, who) if a["type"] == "move")
    await t.slash(name, "move", options={"square": move["to"]})
    assert (await t.state())["players"][who]["square"] == move["to"]
    await t.slash(name, "undo")  # Castle Ravenloft: a move is taken back until a die is rolled or a card drawn
    assert (await t.state())["players"][who]["square"] == state["players"][who]["square"]
    hero = state["players"][who]["hero"]
    await t.slash(name, "game", subcommand="handover", options={"to": t.users["stranger"]})
    handed = await t.state()
    new = t.uid("stranger")
    assert new in handed["players"] and who not in handed["players"] and handed["players"][new]["hero"] == hero
    assert system.actor(handed) == new  # the turn goes with the seat
    await t.slash("stranger", "game", subcommand="away")  # the stand-in plays the seat until they act again
    await t.done()
    later = await t.state()
    assert system.turn_number(later) > system.turn_number(handed), "the stand-in played the hero's turn"
    assert not t.s.client_errors, t.s.client_errors


def test_a_seat_handed_over_mid_turn_leaves_no_trace_of_the_old_id_and_replays():
    s = SYSTEM
    state = s.new_game(4, {"adventure": 2})
    log = [s.join_action("p1", "Ann", "kat"), s.join_action("p2", "Bo", "arjhan"), s.start_action("p1")]
    for a in log:
        state, _ = s.apply(state, a)
    who = s.actor(state)
    move = next(a for a in s.legal_actions(state, who) if a["type"] == "move")
    square = state["players"][who]["square"]
    state, _ = s.apply(state, move)  # a take-back chain open, naming the seat
    log.append(move)
    handover = {"type": "handover", "player": who, "to": "p9", "name": "Cy"}
    after, events = s.apply(state, handover)
    log.append(handover)
    assert f'"{who}"' not in json.dumps(after) and after["players"]["p9"]["name"] == "Cy"
    assert s.actor(after) == "p9" and "hands" in events[0]["text"]
    back, _ = s.apply(after, {"type": "undo", "player": "p9"})  # the new holder takes the move back
    assert back["players"]["p9"]["square"] == square != move["to"]
    replayed, _ = s.replay(4, log, {"adventure": 2})
    assert replayed == s.apply(state, handover)[0]
