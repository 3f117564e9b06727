"""The local table forgives and explains (#10 of the forgiving table): the
prompt offers only the moves Speed still allows, `pickup` alone lists what
lies there, and `quit` in a game in play asks once more."""
from tests.test_table_fuzz import new_table


def test_the_prompt_offers_no_move_once_speed_is_spent():
    # Rulebook: Movement (as many spaces as your Speed)
    table, said = new_table(4)
    table.command("start")
    s = table.state
    who = s["turn"]["player"]
    s["turn"]["moved"] = 99
    said.clear()
    table.prompt_line()
    assert "movement over" in said[-1] and "move north" not in said[-1], said[-1]
    s["turn"]["moved"] = 0
    said.clear()
    table.prompt_line()
    assert "move " in said[-1], said[-1]
    assert who


def test_pickup_alone_lists_the_pile_here():
    table, said = new_table(4)
    table.command("start")
    s = table.state
    who = s["turn"]["player"]
    tile = s["players"][who]["tile"]
    card = next(c for c in s["decks"]["item"])
    s["decks"]["item"].remove(card)
    s["piles"][tile] = [card]
    table.command("pickup")
    assert said[-1].startswith("! Pick up which card? Here: ") and table.content.cards[card].name in said[-1]
    s["piles"][tile] = []
    table.command("pickup")
    assert said[-1] == "! There is nothing here to pick up."


def test_quit_in_a_game_in_play_asks_once_more():
    table, said = new_table(4)
    table.command("start")
    assert table.command("quit") is True, "the first quit only warns"
    assert "type quit again" in said[-1]
    assert table.command("status") is True
    assert table.command("quit") is True, "any other command in between: the next quit warns again"
    assert table.command("quit") is False, "quit twice in a row closes the table"
    lobby, _ = new_table(5)
    assert lobby.command("quit") is False, "nothing in play: quit closes at once"


def test_a_question_asked_again_keeps_each_options_number():
    # A series of the same question (tokens laid one by one): the number read from the last list never picks
    # another option once the chosen one is gone.
    table, said = new_table(4)
    table.command("start")
    who = table.state["turn"]["player"]
    chosen = []
    table.apply = chosen.append  # what `choose` would do, without a real question behind it
    table.state["pending"] = {"player": who, "kind": "place_token", "prompt": "where?",
                              "options": ["Kitchen", "Hall", "Tavern"], "data": {}, "task": 0}
    table.prompt_line()
    assert "1. Kitchen; 2. Hall; 3. Tavern" in said[-1]
    table.state["pending"] = {**table.state["pending"], "options": ["Hall", "Tavern"]}  # Kitchen was taken
    table.prompt_line()
    assert "2. Hall; 3. Tavern" in said[-1], said[-1]
    table.command("choose 3")
    assert chosen[-1]["choice"] == 1  # Tavern, the second option now
    table.command("choose 1")
    assert said[-1].startswith("! There is no option 1 now: 2. Hall; 3. Tavern")
    table.state["pending"] = {**table.state["pending"], "kind": "other", "options": ["Yes", "No"]}
    table.prompt_line()
    assert "1. Yes; 2. No" in said[-1]  # a new question numbers from 1


def test_undo_takes_back_a_move_on_the_table():
    table, said = new_table(4)
    table.command("start")
    for _ in range(8):  # to a turn whose player can step onto a tile already laid
        who = table.state["turn"]["player"]
        ways = table.engine.ways_out(table.state, who)
        way = next((w for w, o in ways.items() if o.get("to") and not o.get("blocked") and not o.get("discover")),
                   None)
        if way:
            break
        table.command("end")
    assert way
    tile = table.state["players"][who]["tile"]
    table.command(f"move {way}")
    assert table.state["players"][who]["tile"] != tile
    table.command("undo")
    assert table.state["players"][who]["tile"] == tile
    assert any("takes back" in line for line in said), said[-3:]
    table.command("undo")
    assert said[-1].startswith("! There is nothing to take back"), said[-1]
