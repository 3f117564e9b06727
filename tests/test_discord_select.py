"""End to end through the real discord.py client: a question with many
options is asked with select menus (every option, each carrying its answer;
the menu carries the game, turn and question as a button does). A menu from
an answered question or an earlier turn is refused privately and changes
nothing; the current one survives a restart; a message never has more than
2 rows (most players read on a phone).

The question: haunt 13 (Juiblex Commands), revealed with the Cursed Armor on
the Haunted Alley with most of the city laid out, so that the traitor's
secret "which tile do you write on your secret paper?" lists some 30 tiles."""
import discord

from bot.games.babg.discord import views
from bot.games.babg.engine import effects
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine import legal
from bot.games.babg.engine.legal import legal_actions
from bot.games.babg.engine.turns import start_haunt
from bot.games.babg.vocabulary import describe, from_select, select_value, to_select_id, turn_number
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)
from tests.test_discord_e2e import Table, open_game

SELECT = 3  # Discord's component type of a string select


def lay_out_the_city(state: dict):
    """Every street and building tile (but the Haunted Alley, placed by the
    reveal) on the board, in rows east of the start: a long list of tiles."""
    tiles = [t for stack in ("street", "building") for t in state["stacks"][stack] if t != "haunted_alley"]
    for n, tile in enumerate(tiles):
        for stack in state["stacks"].values():
            if tile in stack:
                stack.remove(tile)
        state["board"][tile] = {"level": "city", "x": 6 + n % 6, "y": n // 6, "rot": 0}
    state["board"].setdefault("haunted_alley", {"level": "city", "x": 1, "y": -1, "rot": 0})
    for stack in state["stacks"].values():
        if "haunted_alley" in stack:
            stack.remove("haunted_alley")


async def long_question(t: Table, engine):
    """A game at the reveal of haunt 13; everyone presses Ready and the
    traitor is asked where the first hidden Gelatinous Cube lies. Gives the
    game, the traitor's name and the message asking."""
    await t.start(engine)
    await open_game(t)
    game = await t.game()
    state = game.state
    lay_out_the_city(state)
    state["options"]["haunt"] = "play"
    start_haunt(Ctx(engine.content, state), state["turn"]["player"], "cursed_armor", "haunted_alley")
    assert state["haunt"]["number"] == 13
    await t.put_state(game, state)
    for pid in list(state["seats"]):
        h = await t.slash(t.name_of(pid), "haunt", subcommand="ready")
        assert "ready" in h.content or "begins" in h.content, h.content
    game = await t.game()
    pending = game.state["pending"]
    assert pending and pending["kind"] == "h13_hide", pending
    assert len(pending["options"]) > 25, "a question longer than one menu"
    traitor = t.name_of(pending["player"])
    message = await t.s.wait_for(lambda: last_with_select(t, game), timeout=60, what="the question's menus")
    return game, traitor, message


def select_ids(game, menus: int) -> list[str]:
    key = views.pending_key(game.state)
    return [to_select_id(game.id, turn_number(game.state), key, n) for n in range(menus)]


def last_with_select(t: Table, game):
    return t.last_with(select_ids(game, 1)[0])


def selects(message) -> list[dict]:
    return [c for row in message.components for c in row.get("components", []) if c.get("type") == SELECT]


def check_rows(t: Table):
    for m in t.s.channel_messages(t.channel):
        assert len(m.components) <= views.ROWS, f"{len(m.components)} rows: {m.content[:80]}"


async def test_a_long_question_is_select_menus_listing_every_option_and_a_choice_answers_it(
        fake_discord, tmp_path, engine):
    t = Table(fake_discord, tmp_path)
    game, traitor, message = await long_question(t, engine)
    state = game.state
    legal = legal_actions(engine.content, state)
    assert [a["type"] for a in legal] == ["decide"] * len(state["pending"]["options"])

    # every option, in order, each carrying its answer, in two menus of at most 25 (Map and My sheet on /map, /sheet)
    assert 25 < len(legal) <= 50
    menus = selects(message)
    assert len(menus) == 2 and len(message.components) == 2
    assert [m["custom_id"] for m in menus] == select_ids(game, len(menus))
    options = [o for m in menus for o in m["options"]]
    assert [o["value"] for o in options] == [select_value(a) for a in legal]
    assert [o["label"] for o in options] == [describe(a, state, engine.content)[:100] for a in legal]
    assert all(m.get("min_values", 1) == 1 and m.get("max_values", 1) == 1 for m in menus)
    for m in menus:
        for o in m["options"]:
            carried = from_select(m["custom_id"], o["value"])
            assert (carried.game_id, carried.turn, carried.question) == \
                   (game.id, turn_number(state), views.pending_key(state))
    assert "Answer below (or /choose)" in message.content

    # someone else cannot answer it: told privately, nothing changes
    other = next(n for n in ("ann", "bo", "cy") if n != traitor)
    pick = len(legal) - 2  # beyond the first menu (and the 20 buttons of old)
    h = await t.s.select(t.users[other], message, menus[1]["custom_id"], [select_value(legal[pick])])
    await t.handled(h)
    assert h.ephemeral and "not for you" in h.content, h.content
    assert h.message in t.s.ephemeral_messages(t.users[other])
    assert h.message not in t.s.visible_messages(t.users[traitor], t.channel)
    assert await t.state() == state

    # the traitor picks: the state is what the engine makes of that answer
    expected, events = engine.apply(state, {**legal[pick], "player": state["pending"]["player"]})
    h = await t.s.select(t.users[traitor], message, menus[1]["custom_id"], [select_value(legal[pick])])
    await t.handled(h)
    assert not h.ephemeral, h.content
    after = await t.state()
    assert after["haunt"]["h13"] == expected["haunt"]["h13"]
    assert after["pending"] == expected["pending"] and after["pending"]["kind"] == "h13_hide"
    tile = state["pending"]["data"]["tiles"][pick]
    assert [c["tile"] for c in after["haunt"]["h13"]["hidden"]] == [tile]

    # the answer is the traitor's secret: by DM to the traitor only, never in the channel
    secret = next(e["text"] for e in events if "lies in wait" in e["text"])
    await t.s.wait_for(lambda: any(secret in m.content for m in t.s.dm_messages(t.users[traitor])), timeout=60,
                       what="the secret by DM")
    for name in ("ann", "bo", "cy", "stranger"):
        if name != traitor:
            assert not any(secret in m.content for m in t.s.visible_messages(t.users[name])), name
    # the next question comes with menus of its own (the same message, edited: the haunt's first turn has not begun)
    game = await t.game()
    nxt = await t.s.wait_for(lambda: last_with_select(t, game), timeout=60, what="the next question's menus")
    assert len(selects(nxt)) == 2 and len([o for m in selects(nxt) for o in m["options"]]) == len(legal) - 1
    check_rows(t)
    assert not t.s.client_errors, t.s.client_errors


async def test_a_select_survives_a_restart_and_a_stale_one_is_refused_privately(fake_discord, tmp_path, engine):
    t = Table(fake_discord, tmp_path)
    game, traitor, first = await long_question(t, engine)
    asked_at = turn_number(game.state)  # the setup's questions come between turns
    first_id = selects(first)[0]["custom_id"]
    first_value = selects(first)[0]["options"][0]["value"]
    tiles = game.state["pending"]["data"]["tiles"]

    # answered with /choose after a restart: the bot forgot the first message, which keeps its (stale) menus
    await t.restart(engine)
    h = await t.slash(traitor, "choose", options={"option": 1})
    assert h.ephemeral, h.content
    game = await t.game()
    assert [c["tile"] for c in game.state["haunt"]["h13"]["hidden"]] == [tiles[0]]
    second = await t.s.wait_for(lambda: last_with_select(t, game), timeout=60, what="the second question")
    assert second is not first and first_id in first.custom_ids

    # the first question's menu again: already answered, refused privately, nothing changes
    before = game.state
    h = await t.s.select(t.users[traitor], first, first_id, [first_value])
    await t.handled(h)
    assert h.ephemeral and "already been answered" in h.content, h.content
    assert h.message in t.s.ephemeral_messages(t.users[traitor])
    assert await t.state() == before, "the old menu changed nothing"

    # the second question, answered by an option's label after another restart: the menu survives it
    await t.restart(engine)
    menu = selects(second)[0]
    h = await t.s.select(t.users[traitor], second, menu["custom_id"], [menu["options"][3]["label"]])
    await t.handled(h)
    assert not h.ephemeral, h.content
    after = await t.state()
    assert after["pending"] is None
    assert after["haunt"]["h13"]["hidden"][1]["tile"] == before["pending"]["data"]["tiles"][3]
    now = turn_number(after)
    assert now > asked_at, "the haunt's first turn has begun"
    await t.s.wait_for(lambda: not second.components, timeout=60, what="the answered question's message closed")

    # a menu from before this turn (on the message the bot forgot): refused privately, nothing changes
    h = await t.s.select(t.users[traitor], first, first_id, [first_value])
    await t.handled(h)
    assert h.ephemeral and f"from turn {asked_at}; the game is now at turn {now}" in h.content, h.content
    assert h.message in t.s.ephemeral_messages(t.users[traitor])
    assert h.message not in t.s.visible_messages(t.users["bo" if traitor != "bo" else "cy"], t.channel)
    assert await t.state() == after
    check_rows(t)
    assert not t.s.client_errors, t.s.client_errors


def test_the_menus_cover_every_option_within_two_rows(engine, game):
    # a question of 130 options: two menus of 25 (options 1 to 50); /choose for the rest
    g = game
    ctx = Ctx(engine.content, g.state)
    effects.ask(ctx, "ann", "h13_hide", "which tile?", [f"Tile {n}" for n in range(130)], tiles=[], number=1)
    view, hints = views.turn_controls(engine.content, g.state, 7)
    menus = [i.item for i in view.children if isinstance(i.item, discord.ui.Select)]
    assert [len(m.options) for m in menus] == [25, 25]
    assert [o.label for m in menus for o in m.options] == [f"{n + 1}. Tile {n}" for n in range(50)]
    rows = view.to_components()
    assert len(rows) == 2
    assert [c["custom_id"] for row in rows for c in row["components"]] == \
           [f"bg2s:7:{turn_number(g.state)}:{views.pending_key(g.state)}:{n}" for n in range(2)]
    assert hints == ["/choose option:51 to 130"]
    # of 20 options: one menu, then Map and My sheet
    g.state["pending"]["options"] = [f"Tile {n}" for n in range(20)]
    view, hints = views.turn_controls(engine.content, g.state, 7)
    rows = view.to_components()
    assert len(rows) == 2 and [c["type"] for c in rows[1]["components"]] == [2, 2] and not hints
    assert [len(c["options"]) for c in rows[0]["components"]] == [20]
    # a short question keeps its buttons
    g.state["pending"]["options"] = ["Yes", "No"]
    view, hints = views.turn_controls(engine.content, g.state, 7)
    assert [type(i) for i in view.children] == [views.ActionButton, views.ActionButton] and not hints


def test_five_answers_and_an_undo_do_not_overflow_a_row(engine, game, monkeypatch):
    # A question of 5 answers with Undo open made 6 buttons in one row, which Discord refuses (at most 5):
    # the whole turn's message failed. Now such a question is asked with a menu, and Undo keeps its button.
    g = game
    ctx = Ctx(engine.content, g.state)
    effects.ask(ctx, "ann", "h13_hide", "where?", [f"Tile {n}" for n in range(5)], tiles=[], number=1)
    monkeypatch.setattr(legal.undo, "open_to", lambda state: "ann")  # (as after an action of this turn)
    assert legal_actions(engine.content, g.state)[-1]["type"] == "undo"
    view, hints = views.turn_controls(engine.content, g.state, 7)
    rows = view.to_components()  # (raised ValueError: item would not fit at row 0)
    assert all(len(row["components"]) <= 5 for row in rows) and len(rows) <= 2
    assert [len(c["options"]) for c in rows[0]["components"]] == [5]
    assert any(c.get("custom_id", "").endswith(":ud") for row in rows for c in row["components"])


def test_a_menu_option_carries_its_answer_and_nothing_else_reads_as_one():
    menu = to_select_id(12, 34, "abc123", 1)
    carried = from_select(menu, select_value({"type": "decide", "choice": 30}))
    assert (carried.action, carried.game_id, carried.turn, carried.question) == \
           ({"type": "decide", "choice": 30}, 12, 34, "abc123")
    for custom_id, value in ((menu, "ch;i=1:x"), (menu, ""), ("bg2:12:34:abc123:ch;i=1", "ch;i=1"),
                             ("bg2s:12:34:abc123", "ch;i=1"), (menu, "zz;i=1")):
        assert from_select(custom_id, value) is None, (custom_id, value)
