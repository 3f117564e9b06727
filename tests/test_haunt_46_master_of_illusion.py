"""Haunt 46, Master of Illusion (the adventurer with the lowest Knowledge is
the traitor), played through the engine's actions: the face-down Illusions
and the secret Portal, the Research time track, dispelling (a fresh tile in
the old one's place), closing the Portal, blur, phantasmal killer and the
traitor's mixing of two Illusions."""
import pytest

from bot.games.babg.engine import IllegalAction
from bot.games.babg.engine.legal import legal_actions
from bot.games.babg.engine.moves import ways_out
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.view import view
from tests.test_haunt_play import revealed

COUNTER = "Research time"


def illusion(engine, portal=0):
    """Ann (Torskar, the lowest Knowledge) reveals haunt 46 on the Shrine to
    Gargauth with the Book of Spells; the order is Bo, Cy, Ann."""
    g = revealed(engine, "shrine_to_gargauth", "book_of_spells")
    assert g.state["haunt"]["number"] == 46 and g.state["haunt"]["traitors"] == ["ann"]
    for pid in g.state["seats"]:
        g.do("ready", pid)
    g.events_at_setup = list(g.events)
    assert g.state["pending"]["player"] == "ann" and g.state["pending"]["kind"] == "h46_portal"
    g.do("decide", "ann", choice=portal)
    g.events_at_setup += g.events
    g.decide_all(0)
    g.events_at_setup += g.events
    return g


def tokens(g, name="Illusion"):
    return [t for t in g.state["tokens"] if t["name"] == name]


def plain_top(g, stack):
    """Put a tile with no symbol and no text on top of `stack`."""
    quiet = [t for t in g.state["stacks"][stack] if not g.c.tiles[t].effects]
    tid = next((t for t in quiet if g.c.tiles[t].symbol == "none"), None) or \
        next(t for t in quiet if g.c.tiles[t].symbol == "item")
    g.top(stack, tid)
    return tid


def test_setup_hides_the_portal_under_one_of_the_illusions(engine):
    # Traitor's Tome, haunt 46: "Right Now" (twice the heroes in Illusions, one noted in secret, 1 per tile joined to
    # just one other tile, never the start tiles; more tiles drawn when too few; the slider at adventurers + 2;
    # the traitor's Knowledge and Speed restored, then 1 Knowledge)
    g = illusion(engine, portal=2)
    ill = tokens(g)
    assert sorted(t["number"] for t in ill) == [1, 2, 3, 4]
    assert len({t["tile"] for t in ill}) == 4
    assert not {t["tile"] for t in ill} & {"elfsong_tavern", "kitchen", "inner_chamber", "catacomb_landing",
                                              "kitchen_basement"}
    assert g.state["haunt"]["h46"]["portal"] == 3
    assert g.state["haunt"]["counters"][COUNTER] == 5
    secrets = [e for e in g.events_at_setup if "Illusion 3" in e["text"] or "lies on the" in e["text"]]
    assert secrets and {e["to"] for e in secrets} == {"ann"}  # only the traitor learns the numbers
    for pid in ("bo", "cy"):
        seen = view(g.state, pid)
        assert all("number" not in t for t in seen["tokens"]) and "h46" not in seen["haunt"]
    assert g.state["turn"]["player"] == "bo"


def test_nobody_discovers_new_tiles(engine):
    # Traitor's Tome, haunt 46: "Right Now" (you cannot discover); Secrets of Survival: "Right Now"
    g = illusion(engine)
    ways = ways_out(Ctx(g.c, g.state), "bo")
    assert all("blocked" in w for w in ways.values() if w["discover"])
    assert any(w["discover"] for w in ways.values())


def test_the_track_drops_at_the_traitors_turn_and_the_traitor_wins_at_0(engine):
    # Traitor's Tome, haunt 46: "You Must Do This at the Start of Your Turn" and "You Win When..."
    g = illusion(engine)
    g.do("end", "bo")
    g.do("end", "cy")
    assert g.state["turn"]["player"] == "ann" and g.state["haunt"]["counters"][COUNTER] == 4
    g.state["haunt"]["counters"][COUNTER] = 1
    g.do("end", "ann")
    g.do("end", "bo")
    g.do("end", "cy")
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "traitor"


def test_a_failed_dispel_costs_time_and_is_once_a_turn(engine, dice):
    # Secrets of Survival, haunt 46: "How to Dispel Illusions" (once per turn; a failure lowers the track)
    g = illusion(engine)
    g.put("bo", tokens(g)[1]["tile"])
    assert {"type": "task", "player": "bo", "trait": "sanity", "task": "dispel"} in legal_actions(g.c, g.state)
    g.do("task", "bo", trait="sanity", task="dispel")  # zeros: it fails
    assert g.state["haunt"]["counters"][COUNTER] == 4 and len(tokens(g)) == 4
    with pytest.raises(IllegalAction, match="already"):
        g.do("task", "bo", trait="sanity", task="dispel")
    g.put("cy", "elfsong_tavern")
    g.do("end", "bo")
    with pytest.raises(IllegalAction, match="no Illusion"):
        g.do("task", "cy", trait="sanity", task="dispel")
    g.do("end", "cy")
    g.put("ann", tokens(g)[1]["tile"])
    with pytest.raises(IllegalAction, match="Only the heroes"):
        g.do("task", "ann", trait="sanity", task="dispel")


def test_dispelling_the_portal_replaces_the_tile_and_the_portal_is_closed_later(engine, dice):
    # Secrets of Survival, haunt 46: "How to Dispel Illusions" steps 1-5, "How to Close the Portal" (not in the turn
    # it was found) and "You Win When..."
    # Ruling: Haunt 46: the tile that replaces a dispelled one
    g = illusion(engine)
    portal = next(t for t in tokens(g) if t["number"] == 1)
    old = portal["tile"]
    square = {k: g.state["board"][old][k] for k in ("level", "x", "y")}
    stack = g.c.tiles[old].stack
    g.state["stacks"][stack] = [plain_top(g, stack)]  # a stack of one: the fresh tile is known
    new = g.state["stacks"][stack][0]
    g.put("bo", old)
    g.put("cy", old)
    dice.next(2, 2, 2, 2)
    g.do("task", "bo", trait="sanity", task="dispel")
    g.decide_all(0)
    assert old not in g.state["board"] and g.state["stacks"][stack] == [old]  # Ruling: a fresh tile
    assert {k: g.state["board"][new][k] for k in ("level", "x", "y")} == square
    assert g.p("bo")["tile"] == new and g.p("cy")["tile"] == new
    assert tokens(g, "Portal") == [{"name": "Portal", "tile": new}]
    with pytest.raises(IllegalAction, match="turn it was found"):
        g.do("task", "bo", trait="knowledge", task="close")
    g.do("end", "bo")
    dice.next(2, 2, 2, 2)
    g.do("task", "cy", trait="knowledge", task="close")
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "heroes"


def test_a_wrong_illusion_shows_no_portal(engine, dice):
    # Secrets of Survival, haunt 46: "How to Dispel Illusions" (step 4: the traitor says whether it was the Portal)
    g = illusion(engine)
    other = next(t for t in tokens(g) if t["number"] == 2)
    plain_top(g, g.c.tiles[other["tile"]].stack)
    g.put("bo", other["tile"])
    dice.next(2, 2, 2, 2)
    g.do("task", "bo", trait="sanity", task="dispel")
    g.decide_all(0)
    assert len(tokens(g)) == 3 and not tokens(g, "Portal")
    assert any("did not hide the Portal" in t for t in g.texts())


def test_blur_can_stop_an_attack_on_the_traitor(engine, dice):
    # Traitor's Tome, haunt 46: "Special Defense Rules" (1 die; on a 0 the attack does not happen)
    # Ruling: Haunt 46: blur
    g = illusion(engine)
    g.put("ann", "elfsong_tavern")
    g.do("attack", "bo", target="ann")  # the blur die shows 0
    assert any("blur" in t for t in g.texts()) and g.state["turn"]["attacked"]
    assert not any("to attack" in t for t in g.texts())
    g.do("end", "bo")
    dice.next(1)          # blur: 1, the attack goes on
    dice.next(2, 2, 2)    # Cy's Might
    g.do("attack", "cy", target="ann")
    assert any("Might to attack" in t for t in g.texts())


def test_phantasmal_killer_reaches_a_hero_one_tile_away(engine, dice):
    # Traitor's Tome, haunt 46: "Special Attack Rules" (Knowledge against Knowledge within 1 tile; no damage to the
    # traitor from a winning defender on another tile)
    g = illusion(engine)
    g.do("end", "bo")
    g.do("end", "cy")
    g.put("ann", "inner_chamber")  # Bo and Cy stay on the Elfsong Tavern next door
    with pytest.raises(IllegalAction, match="Only the traitor"):
        g.state["turn"]["player"] = "bo"
        g.do("task", "bo", trait="knowledge", task="phantasmal", target="cy")
    g.state["turn"]["player"] = "ann"
    assert {"type": "task", "player": "ann", "trait": "knowledge", "task": "phantasmal", "target": "bo"} in \
        legal_actions(g.c, g.state)
    dice.next(1, 1)               # Ann's Knowledge: 2 against 0
    g.do("task", "ann", trait="knowledge", task="phantasmal", target="bo")
    assert any("mental damage to Bo" in t for t in g.texts()), g.texts()
    g.decide_all(0)
    with pytest.raises(IllegalAction, match="already attacked"):
        g.do("task", "ann", trait="knowledge", task="phantasmal", target="cy")


def test_phantasmal_killer_lost_from_afar_costs_the_traitor_nothing(engine, dice):
    # Traitor's Tome, haunt 46: "Special Attack Rules"
    g = illusion(engine)
    g.do("end", "bo")
    g.do("end", "cy")
    g.put("ann", "inner_chamber")
    before = dict(g.p("ann")["traits"])
    dice.next(0)
    dice.next(2, 2, 2, 2)         # Bo's Knowledge defence wins
    g.do("task", "ann", trait="knowledge", task="phantasmal", target="bo")
    assert g.p("ann")["traits"] == before


def test_the_traitor_mixes_two_illusions_once_a_turn(engine, dice):
    # Traitor's Tome, haunt 46: "Portal Manipulation"
    # Ruling: Haunt 46: mixing two Illusions
    g = illusion(engine)
    g.do("end", "bo")
    g.do("end", "cy")
    before = {t["tile"]: t["number"] for t in tokens(g)}
    dice.next(1)                  # the mix swaps them
    g.do("task", "ann", task="mix")
    assert g.state["pending"]["player"] == "ann"
    g.decide_all(0)
    numbers = {t["tile"]: t["number"] for t in tokens(g)}
    assert sum(before[t] != numbers[t] for t in numbers) == 2
    assert sorted(numbers.values()) == [1, 2, 3, 4]
    assert not any(str(n) in e["text"] and "Illusion" in e["text"] for e in g.events if e["to"] != "ann"
                   for n in (1, 2, 3, 4))
    with pytest.raises(IllegalAction, match="already tried to mix"):
        g.do("task", "ann", task="mix")


def test_a_dispel_never_cuts_a_tile_off(engine, dice):
    # Secrets of Survival, haunt 46: "How to Dispel Illusions" step 3 (L5237: a tile from that stack in the old one's
    # place); rulebook, "Can I Seal Off a Level" (L254: a tile that cannot lie there is passed over). The Spy's Roost,
    # joined only through the Shrine to Gargauth, and the new tile must both stay within reach of the Elfsong Tavern.
    from bot.games.babg.engine import city
    g = illusion(engine)
    shrine = "shrine_to_gargauth"
    assert any(t["tile"] == shrine for t in tokens(g))
    place = g.state["board"][shrine]
    g.place("spys_roost", "city", place["x"], place["y"] - 1, rot=2)  # its one door faces the Shrine's north door
    g.state["stacks"]["building"] = ["trading_post", "weapon_shop"]  # one door: it cannot join both; four: it can
    g.put("bo", shrine)
    dice.next(2, 2, 2, 2)
    g.do("task", "bo", trait="sanity", task="dispel")
    g.decide_all(0)
    assert "weapon_shop" in g.state["board"] and shrine not in g.state["board"]
    assert city.stranded(Ctx(g.c, g.state), g.state["board"], "city") == set()
    g2 = illusion(engine)
    g2.place("spys_roost", "city", place["x"], place["y"] - 1, rot=2)
    g2.state["stacks"]["building"] = ["trading_post"]  # no tile of the stack can lie there: the Shrine comes back
    g2.put("bo", shrine)
    dice.next(2, 2, 2, 2)
    g2.do("task", "bo", trait="sanity", task="dispel")
    g2.decide_all(0)
    assert g2.state["board"][shrine] == place and g2.state["stacks"]["building"] == ["trading_post"]
    assert city.stranded(Ctx(g2.c, g2.state), g2.state["board"], "city") == set()
    assert not any(t["tile"] == shrine for t in tokens(g2))  # the Illusion is gone all the same


def test_an_undeclared_move_is_refused(engine):
    g = illusion(engine)
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", "bo", trait="sanity", task="dispel_all")
