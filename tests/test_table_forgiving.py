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
