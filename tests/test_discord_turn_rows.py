"""End to end through the real discord.py client: the turn message on a
phone (#23). A turn's controls take at most two rows: the common moves are
buttons, items and rarer actions are in a "More actions…" menu that carries
each action as a button does. When the next turn's message comes, the one
before loses its buttons, and no line of a turn sits under another turn's
header, however quick the players. The haunt's Ready is one message, edited
in place, pinging once. Undo takes back a move from the turn message."""
import re
from collections import defaultdict

from bot.games.babg.discord import views
from bot.games.babg.engine.legal import legal_actions
from bot.games.babg.vocabulary import spoken, turn_number
from tests.conftest import arrange_hidden_traitor_reveal
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)
from tests.test_discord_e2e import Table, open_game

HEADER = re.compile(r"Turn ([0-9]+)\b")
ITEMS = ("crossbow", "javelin_of_lightning", "chain_mail", "ten_foot_pole", "potion_of_healing")


def without_player(action: dict) -> dict:
    return {k: v for k, v in action.items() if k != "player"}


def turn_messages(t: Table) -> list:
    """The channel's messages from the first turn's on (the lobby's answers before it)."""
    messages = t.s.channel_messages(t.channel)
    first = next(i for i, m in enumerate(messages) if HEADER.search(m.content))
    return messages[first:]


def record_turns(t: Table) -> dict[str, set[int]]:
    """Every public line the game says from now on, with the turns it was said in (a turn's first line and
    what follows it belong to that turn; what comes before it in the same action, to the turn before)."""
    said: dict[str, set[int]] = defaultdict(set)
    act = t.bot.service.act

    async def recording(*args, **kwargs):
        outcome = await act(*args, **kwargs)
        turn = turn_number(outcome.before)
        for e in outcome.events:
            if e["to"] != "all":
                continue
            text = spoken(e["text"], outcome.state, "discord")
            if e["kind"] == "turn" and HEADER.match(text):
                turn = int(HEADER.match(text)[1])
            said[text].add(turn)
        return outcome
    t.bot.service.act = recording
    return said


def misplaced_lines(t: Table, said: dict[str, set[int]]) -> list[str]:
    """Lines shown under the header of a turn they were not said in (a message without a header goes on from
    the one before it)."""
    wrong, turn = [], None
    for message in turn_messages(t):
        for line in message.content.splitlines():
            header = HEADER.match(line)
            if header:
                turn = int(header[1])
            elif line in said and turn not in said[line]:
                wrong.append(f"turn {turn}: {line} (said in {sorted(said[line])})")
    return wrong


def with_controls(t: Table) -> list:
    return [m for m in t.s.channel_messages(t.channel) if m.components]


async def test_a_turn_with_many_items_has_two_rows_and_the_menu_carries_the_rest(fake_discord, tmp_path, engine):
    t = Table(fake_discord, tmp_path)
    await t.start(engine)
    await open_game(t)
    game = await t.game()
    state = game.state
    pid = state["turn"]["player"]
    other = next(p for p in state["seats"] if p != pid)
    for card in ITEMS:  # five items and someone to give them to: 5 to use, drop and trade each, as in #23
        for deck in state["decks"].values():
            if card in deck:
                deck.remove(card)
        state["players"][pid]["cards"].append(card)
    state["players"][other]["tile"] = state["players"][pid]["tile"]
    await t.put_state(game, state)
    way = next(a for a in legal_actions(engine.content, state) if a["type"] == "move")["way"]
    h = await t.slash(t.name_of(pid), "move", options={"direction": way})
    assert h.ephemeral, h.content
    await t.s.wait_for(t.bot.turn_posts.idle, timeout=60, what="the turn message edited")

    game = await t.game()
    legal = [without_player(a) for a in legal_actions(engine.content, game.state)]
    message = t.last_with(t.more_id(game))
    assert message is not None, "the items are in the turn's More actions… menu"
    assert len(message.components) <= views.ROWS, f"{len(message.components)} rows"
    assert sorted(map(repr, t.offered(message))) == sorted(map(repr, legal)), "every legal action, once"
    buttons = t.buttons(message)
    assert all(a["type"] in ("move", "attack", "end", "undo") for a in buttons), buttons
    assert {"type": "end"} in buttons
    menu = next(c for row in message.components for c in row["components"] if c.get("options"))
    assert menu["placeholder"] == "More actions…" and len(menu["options"]) <= 25
    assert [o["label"] for o in menu["options"][-2:]] == ["My sheet (only you see it)", "Map (only you see it)"]

    # an item's action from the menu goes through the same door as a button
    drop = {"type": "drop", "card": "chain_mail"}
    h = await t.choose_more(t.name_of(pid), game, drop)
    assert not h.ephemeral, h.content
    assert "chain_mail" not in (await t.state())["players"][pid]["cards"]
    await t.s.wait_for(lambda: "drops Chain Mail" in message.content, timeout=60, what="the drop shown")
    # My sheet, from the menu: only to whoever chose it
    game = await t.game()
    h = await t.s.select(t.users[t.name_of(pid)], message, t.more_id(game), ["show.sheet"])
    await t.handled(h)
    assert h.ephemeral and "Chain Mail" not in h.content and "Crossbow" in h.content, h.content
    assert h.message in t.s.ephemeral_messages(t.users[t.name_of(pid)])
    assert not t.s.client_errors, t.s.client_errors


async def test_quick_play_closes_each_turn_message_and_keeps_each_line_under_its_turn(fake_discord, tmp_path,
                                                                                   engine):
    # Discord's own pace (5 writes per 5 s): players quicker than it, clicking and typing.
    t = Table(fake_discord, tmp_path)
    await t.start(engine)
    await open_game(t)
    await t.s.wait_for(t.bot.turn_posts.idle, timeout=60, what="the start shown")
    said = record_turns(t)
    first = (await t.state())["turn"]["number"]
    for n in range(6):
        game = await t.game()
        state = game.state
        who = t.name_of(state["turn"]["player"])
        move = next((a for a in legal_actions(engine.content, state) if a["type"] == "move"), None)
        button = t.button_id(game, move) if move else None
        if move and t.last_with(button):  # a click on the newest message, as soon as it shows the button
            await t.click(who, button)
        while (await t.state())["pending"]:
            pending = (await t.state())["pending"]
            await t.slash(t.name_of(pending["player"]), "choose", options={"option": 1})
        if (await t.state())["turn"]["number"] == state["turn"]["number"]:
            end = t.button_id(await t.game(), {"type": "end"})
            if t.last_with(end):
                await t.click(who, end)
            else:
                await t.slash(who, "end")
        while (await t.state())["pending"]:
            pending = (await t.state())["pending"]
            await t.slash(t.name_of(pending["player"]), "choose", options={"option": 1})
    assert (await t.state())["turn"]["number"] >= first + 6
    await t.s.wait_for(t.bot.turn_posts.idle, timeout=120, what="every turn message out")
    controls = with_controls(t)
    assert len(controls) == 1 and HEADER.search(controls[0].content), \
        [m.content[:60] for m in controls]  # only the newest turn's message has buttons
    assert controls[0] is t.s.channel_messages(t.channel)[-1]
    assert not misplaced_lines(t, said), misplaced_lines(t, said)
    assert not t.s.client_errors, t.s.client_errors


async def test_the_haunts_ready_is_one_message_edited_in_place_pinging_once(fake_discord, tmp_path, engine):
    t = Table(fake_discord, tmp_path)
    await t.start(engine)
    await open_game(t)
    game = await t.game()
    state = game.state
    state["options"]["haunt"] = "play"
    revealer = arrange_hidden_traitor_reveal(state)
    await t.put_state(game, state)
    await t.s.wait_for(t.bot.turn_posts.idle, timeout=60, what="the start shown")
    before = len(t.s.channel_messages(t.channel))
    h = await t.slash(t.name_of(revealer), "end")
    assert h.ephemeral, h.content
    await t.s.wait_for(t.bot.turn_posts.idle, timeout=60, what="the reveal shown")
    reveal = next(m for m in t.s.channel_messages(t.channel)[before:] if "Press Ready" in m.content)
    game = await t.game()
    ready = t.button_id(game, {"type": "ready"})
    assert ready in reveal.custom_ids and "bgv:secret" in reveal.custom_ids
    players = list(game.state["seats"])
    assert {str(u) for u in reveal.pinged["users"]} == set(players), "everyone is pinged, once, by the reveal"
    created = len(t.s.channel_messages(t.channel))

    names = []
    for n, pid in enumerate(players[:-1]):
        h = await t.click(t.name_of(pid), ready, message=reveal)
        assert not h.ephemeral, h.content
        names.append(game.state["players"][pid]["name"])
        waiting = ", ".join(game.state["players"][p]["name"] for p in players[n + 1:])
        line = f"(Ready: {', '.join(names)} — waiting for {waiting}."
        await t.s.wait_for(lambda: line in reveal.content, timeout=60, what=f"the Ready of {names[-1]} shown")
    assert len(t.s.channel_messages(t.channel)) == created, "each Ready edits the reveal's message"
    assert not any(" is ready (" in m.content for m in t.s.channel_messages(t.channel)), "no line per Ready"
    assert reveal.content.count("<@") == 0, "its edits ping nobody again"

    h = await t.slash(t.name_of(players[-1]), "haunt", subcommand="ready")  # the last one: the haunt begins
    assert h.ephemeral and "Everyone is ready" in h.content, h.content
    await t.s.wait_for(t.bot.turn_posts.idle, timeout=60, what="the haunt's beginning shown")
    assert not reveal.components, "the reveal's message loses its buttons once the haunt begins"
    assert len(with_controls(t)) == 1
    assert not t.s.client_errors, t.s.client_errors


async def test_undo_takes_back_a_move_from_the_turn_message(fake_discord, tmp_path, engine):
    t = Table(fake_discord, tmp_path)
    await t.start(engine)
    await open_game(t)
    await t.s.wait_for(t.bot.turn_posts.idle, timeout=60, what="the start shown")
    game = await t.game()
    pid = game.state["turn"]["player"]
    start = game.state["players"][pid]["tile"]
    west = t.button_id(game, {"type": "move", "way": "west"})
    message = t.last_with(west)
    h = await t.slash(t.name_of(pid), "undo")  # nothing to take back yet: the engine's reason, privately
    assert h.ephemeral and "nothing to take back" in h.content, h.content

    await t.click(t.name_of(pid), west, message=message)
    game = await t.game()
    undo = t.button_id(game, {"type": "undo"})
    await t.s.wait_for(lambda: "moves to the Inner Chamber" in message.content and undo in message.custom_ids,
                       timeout=60, what="the move shown, with Undo")
    assert len(message.components) <= views.ROWS
    h = await t.click(t.name_of(pid), undo, message=message)
    assert not h.ephemeral, h.content
    assert (await t.state())["players"][pid]["tile"] == start
    game = await t.game()
    await t.s.wait_for(lambda: "takes back: " in message.content and t.button_id(game, {"type": "move", "way": "west"})
                       in message.custom_ids and undo not in message.custom_ids, timeout=60,
                       what="the take-back shown, with the move buttons again")

    h = await t.slash(t.name_of(pid), "move", options={"direction": "west"})
    h = await t.slash(t.name_of(pid), "undo")  # the slash command does the same
    assert h.ephemeral and "takes back" in h.content, h.content
    assert (await t.state())["players"][pid]["tile"] == start
    assert not t.s.client_errors, t.s.client_errors
