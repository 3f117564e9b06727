"""Every effect names where it comes from (issue #23): lines said by a card's,
a tile's, a power's or the haunt's steps start with its name, once; an
attack's damage names the attacker; a tile's rule is shown as it is laid; a
monster alone of its name goes without a number; engine texts name no typed
command."""
import ast
import pathlib
import re

from bot.games.babg.engine import IllegalAction, attack, cards
from bot.games.babg.engine import haunt_play as hp
from bot.games.babg.engine import state as st
from bot.games.babg.engine.ctx import Ctx
from tests.test_effects_haunt_attacks import haunt_game, settle
from tests.test_effects_kit import give, my_turn
from tests.test_haunt_play import revealed

ROOT = pathlib.Path(__file__).resolve().parent.parent


def doubled(texts):
    """Lines whose source is named twice in a row ("Fountain: Fountain: ...")."""
    return [t for t in texts if re.match(r"^([^:]{3,60}): \1:", t)]


def test_a_tiles_end_of_turn_gain_names_the_tile(game):
    # Rulebook: Special Tiles (the Fountain: once per game, 1 Sanity for ending a turn there)
    game.place("fountain", "city", 5, 5)
    game.put("ann", "fountain")
    game.do("end", "ann")
    gained = [t for t in game.texts() if "Ann's Sanity" in t]
    assert gained and all(t.startswith("Fountain: Ann's Sanity") for t in gained), gained
    assert not doubled(game.texts())


def test_a_leaving_roll_names_the_tile_it_leaves(game, dice):
    # Rulebook: tiles' printed rules (Haunted Alley: a Speed roll each time you leave it)
    game.place("haunted_alley", "city", 2, -1)
    game.put("ann", "haunted_alley")
    dice.next(0, 0, 0, 0, 0)
    game.do("move", "ann", way="south")
    texts = game.texts()
    game.decide_all()
    texts += game.texts()
    rolls = [t for t in texts if "rolls Speed" in t]
    assert rolls and rolls[0].startswith("Haunted Alley: Ann rolls Speed ("), rolls
    assert any(t.startswith("Haunted Alley: Ann's Sanity") for t in texts), texts
    assert not any(t.startswith("Haunted Alley: Ann moves") for t in texts), "the move itself is no effect"


def test_an_omens_trait_change_names_the_omen(game):
    # Rulebook: Use Item and Omen Cards (a card's trait bonus while held: gained on taking it, lost with it)
    give(game, "ann", "eye_of_vecna")
    ctx = Ctx(game.c, game.state)
    cards.lose(ctx, "ann", "eye_of_vecna")
    lost = [e["text"] for e in ctx.ev if e["kind"] == "trait"]
    assert lost and all(t.startswith("Eye of Vecna: Ann's Knowledge") for t in lost), lost


def test_an_event_cards_lines_name_the_card_once(game, dice):
    # Rulebook: Drawing Event, Item, and Omen Cards (an event is resolved as its text says)
    game.put("ann", "elfsong_tavern")
    game.top("street", "waterfront")
    game.top_card("event", "yellow_mold")
    dice.next(2, 2, 2, 2)
    game.do("move", "ann", way="north")
    game.decide_all()
    texts = game.texts()
    assert any(t.startswith("Yellow Mold: Ann rolls Might (") for t in texts), texts
    token = next(t for t in texts if "token is placed" in t)
    assert token.startswith("A Yellow Mold token"), "a line naming its source does not repeat it"
    assert not doubled(texts)


def test_the_symbol_card_drawn_on_discovery_is_no_tiles_effect(game, dice):
    # Rulebook: Discover a New Tile (the first to find a symbol draws its card)
    game.put("ann", "elfsong_tavern")
    game.top("street", "executioners_block")
    game.top_card("omen", "eye_of_vecna")
    game.do("move", "ann", way="north")
    texts = game.texts()
    assert any(t.startswith("Ann draws the omen card Eye of Vecna") for t in texts), texts
    assert any(t.startswith("Eye of Vecna: Ann's Knowledge") for t in texts), texts


def test_attack_damage_names_the_attacker(engine, dice):
    # Rulebook: Make an Attack (the loser takes the difference as damage)
    g = haunt_game(engine, ("dhadius", "lia", "gretchen"))
    dice.next(2, 2)  # Ann (Knowledge 5): 4
    dice.next(1, 1)  # Bo: 2
    g.do("attack", "ann", target="bo", trait="knowledge")
    texts = g.texts() + settle(g)
    assert "Bo takes 2 mental damage from Ann's attack." in texts, texts


def test_a_discovered_tile_shows_its_rule_once_as_it_is_laid(game):
    # Rulebook: Discover a New Tile; Special Tiles (a tile's printed rule)
    game.put("ann", "elfsong_tavern")
    game.top("street", "fountain")
    game.do("move", "ann", way="north")
    events = game.events
    found = next(i for i, e in enumerate(events) if e["kind"] == "discover" and e.get("tile") == "fountain")
    rule = game.c.tiles["fountain"].rule
    assert rule
    shown = [e for e in events if rule in e["text"]]
    assert len(shown) == 1 and shown[0] is events[found + 1], [e["text"] for e in events]
    assert shown[0]["text"] == f"Fountain: {rule}"
    game.do("move", "ann", way="south")
    game.do("move", "ann", way="north")
    assert not any(rule in e["text"] for e in game.events), "shown once, when laid"


def test_a_tile_without_a_rule_shows_nothing_more(game):
    # Rulebook: Discover a New Tile
    game.put("ann", "elfsong_tavern")
    game.top("street", "executioners_block")
    game.do("move", "ann", way="north")
    assert not game.c.tiles["executioners_block"].rule
    assert not any(e["kind"] == "tile_rule" for e in game.events)


def haunt_one(engine):
    """A game in haunt 1 (the Beholder, one of it; Beholderkin, several)."""
    g = revealed(engine)
    g.state["haunt"]["number"] = 1
    g.state["monsters"] = []
    return g


def test_a_monster_alone_of_its_name_goes_without_a_number(engine):
    # Rulebook: How Monsters Work (haunt 1: the Beholder is one monster; its Beholderkin are many)
    g = haunt_one(engine)
    ctx = Ctx(g.c, g.state)
    beholder = hp.add_monster(ctx, "Beholder", "elfsong_tavern")
    assert beholder["id"] == "m1" and beholder["number"] == 1  # the id and number stay as they were
    assert ctx.ev[-1]["text"] == "The Beholder appears on the Elfsong Tavern."
    assert attack.label(ctx, "m1") == "the Beholder"
    assert hp.monster(ctx, "the Beholder") is beholder and hp.monster(ctx, "Beholder 1") is beholder
    kin = [hp.add_monster(ctx, "Beholderkin", "elfsong_tavern") for _ in range(2)]
    assert [st.monster_called(m) for m in kin] == ["Beholderkin 1", "Beholderkin 2"]
    assert ctx.ev[-1]["text"] == "Beholderkin 2 appears on the Elfsong Tavern."


def test_a_lone_monsters_name_opens_an_error_with_a_capital(engine):
    # Rulebook: How Monsters Work (a stunned monster does not attack)
    g = haunt_one(engine)
    ctx = Ctx(g.c, g.state)
    m = hp.add_monster(ctx, "Beholder", "elfsong_tavern")
    m["stunned"] = True
    try:
        attack.check_monster_attack(ctx, m, "bo")
    except IllegalAction as e:
        assert e.reason.startswith("The Beholder is stunned"), e.reason
    else:
        raise AssertionError("a stunned monster attacked")


def test_no_engine_error_tells_a_player_to_type_a_command(engine, game):
    # Rulebook: How Monsters Work (in the monster turn the monsters attack): the words fit every adapter
    my_turn(game, "ann")
    game.state["turn"]["monsters"] = True
    try:
        game.do("attack", "ann", target="bo")
    except IllegalAction as e:
        assert "`" not in e.reason and "monster attack" not in e.reason, e.reason
    else:
        raise AssertionError("an adventurer attacked in the monster turn")


def said_texts(path):
    """The string pieces of every IllegalAction, say and ask in a module."""
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name in ("IllegalAction", "say", "ask"):
                for arg in node.args:
                    for piece in ast.walk(arg):
                        if isinstance(piece, ast.Constant) and isinstance(piece.value, str):
                            yield node.lineno, piece.value


def test_engine_texts_name_no_typed_command():
    # The rules are the adapters' to word: no `command`, slash command or page of the book in engine texts
    bad = []
    for path in sorted((ROOT / "bot" / "games" / "babg" / "engine").rglob("*.py")):
        for line, text in said_texts(path):
            if re.search(r"`[a-z]|/haunt |page \d+ of the rulebook|set its slider", text):
                bad.append(f"{path.relative_to(ROOT)}:{line}: {text}")
    for path in sorted((ROOT / "rules_data").rglob("*.toml")):
        for n, text in enumerate(path.read_text().splitlines(), 1):
            if re.search(r"page \d+ of the rulebook|set its slider", text):
                bad.append(f"{path.relative_to(ROOT)}:{n}: {text}")
    assert not bad, "\n".join(bad)


def test_a_lost_attack_hurts_the_attacker_by_the_defence(engine, dice):
    # Rulebook: Make an Attack (whoever rolls lower, attacker or defender, takes the difference)
    g = haunt_game(engine, ("dhadius", "lia", "gretchen"))
    dice.next(0, 0)  # Ann (Knowledge 5): 0
    dice.next(1, 1)  # Bo: 2
    g.do("attack", "ann", target="bo", trait="knowledge")
    texts = g.texts() + settle(g)
    assert "Ann takes 2 mental damage from Bo's defence." in texts, texts
