"""Haunt 50, Down to the Wire (Tasha, else the player on the revealer's
left, is the traitor), played through the engine's actions: the traitor's
hideout, the face-down traps only the traitor may see, the heroes' rush,
disabling and avoiding traps, each trap's effect, the Net Snare, setting
new traps, and both sides' wins."""
import pytest

from bot.games.babg.engine import IllegalAction
from bot.games.babg.engine.legal import legal_actions
from bot.games.babg.engine.view import view
from tests.test_haunt_play import revealed

DECK = "deck_of_many_things"


def wire(engine, lay=True):
    """Ann draws the Deck of Many Things on the Arcane Retreat: haunt 50; Bo,
    on her left, is the traitor; the order is Cy, Ann, Bo."""
    g = revealed(engine, "arcane_retreat", DECK)
    g.give("ann", DECK)
    assert g.state["haunt"]["number"] == 50 and g.state["haunt"]["traitors"] == ["bo"]
    for pid in g.state["seats"]:
        g.do("ready", pid)
    g.setup_events = list(g.events)
    if lay:
        while g.state["pending"]:
            g.setup_events += g.do("decide", "bo", choice=0)
    return g


def traps(g):
    return [t for t in g.state["tokens"] if t["name"] in ("Trap", "Arrow Trap")]


def trap_here(g, tile, kind):
    """Arrange: only one face-down token, of `kind`, on `tile`."""
    g.state["tokens"] = [t for t in g.state["tokens"] if t["name"] not in ("Trap", "Arrow Trap")]
    g.state["tokens"].append({"name": "Trap", "tile": tile, "kind": kind})


def test_setup_hideout_traps_and_the_heroes_rush(engine):
    # Traitor's Tome, haunt 50: "Right Now" (an open door, the stack's top tile, the traitor moves there without a card;
    # a trap and a dud per hero, face down, 1 per tile; only the traitor may look); Secrets of Survival: "Right Now"
    g = wire(engine, lay=False)
    pending = g.state["pending"]
    assert pending["player"] == "bo" and pending["kind"] == "h50_hideout"
    before = set(g.state["board"])
    g.do("decide", "bo", choice=0)
    new = (set(g.state["board"]) - before).pop()
    assert g.p("bo")["tile"] == new and g.p("bo")["cards"] == []
    assert g.state["pending"]["kind"] == "h50_pick" and g.state["pending"]["options"] == [
        "Arrow Trap", "Net Snare", "Explosive Trap"]
    events = list(g.events)
    g.do("decide", "bo", choice=1)
    events += g.events
    g.do("decide", "bo", choice=2)
    events += g.events
    while g.state["pending"]:
        assert g.state["pending"]["kind"] == "h50_lay" and g.state["pending"]["player"] == "bo"
        events += g.do("decide", "bo", choice=0)
    assert sorted(t["kind"] for t in traps(g)) == [1, 1, 4, 6]
    assert len({t["tile"] for t in traps(g)}) == 4
    secret = [e for e in events if "Under the token" in e["text"]]
    assert len(secret) == 4 and {e["to"] for e in secret} == {"bo"}
    for pid in ("ann", "cy"):
        assert all("kind" not in t for t in view(g.state, pid)["tokens"])
    assert DECK in g.p("ann")["cards"] and g.state["turn"]["player"] == "cy"


def test_the_revealer_holds_the_deck_when_nobody_has_it(engine):
    # Secrets of Survival, haunt 50: "What You Know About the Traitor" (you have recovered the Deck of Many Things)
    # Ruling: Haunt 50: the Deck of Many Things when nobody holds it
    g = revealed(engine, "arcane_retreat", DECK)
    for pid in g.state["seats"]:
        g.do("ready", pid)
    assert DECK in g.p("ann")["cards"] and DECK not in g.state["decks"]["omen"]


def test_a_hero_must_face_a_trap_before_leaving(engine, dice):
    # Secrets of Survival, haunt 50: "Encountering a Trap", "How to Disable a Trap"
    g = wire(engine)
    trap_here(g, "elfsong_tavern", 1)
    with pytest.raises(IllegalAction, match="A trap bars the way"):
        g.do("move", "cy", way="west")
    offered = [a["task"] for a in legal_actions(g.c, g.state) if a["type"] == "task"]
    assert offered == ["disable", "avoid"]
    dice.next(2, 2, 1)
    g.do("task", "cy", trait="knowledge", task="disable")
    assert traps(g) == []
    g.do("move", "cy", way="west")
    assert g.p("cy")["tile"] == "inner_chamber"


def test_a_failed_disable_sets_the_trap_off(engine, dice):
    # Secrets of Survival, haunt 50: "How to Disable a Trap"; Traitor's Tome: "When a Trap Is Triggered" (a dud)
    g = wire(engine)
    trap_here(g, "elfsong_tavern", 1)
    g.do("task", "cy", trait="knowledge", task="disable")
    assert traps(g) == [] and any("dud" in t for t in g.texts())


def test_avoiding_lets_the_hero_move_on_and_failing_ends_the_move(engine, dice):
    # Secrets of Survival, haunt 50: "How to Avoid a Trap"
    g = wire(engine)
    trap_here(g, "elfsong_tavern", 1)
    dice.next(2, 2, 1)
    g.do("task", "cy", trait="speed", task="avoid")
    assert len(traps(g)) == 1
    g.do("move", "cy", way="west")
    g.do("end", "cy")
    trap_here(g, "elfsong_tavern", 1)
    g.do("task", "ann", trait="speed", task="avoid")  # zeros: her move ends, the dud goes off
    assert g.state["turn"]["stopped"] and traps(g) == []


def test_an_arrow_trap_hurts_stays_face_up_and_bars_later_turns(engine, dice):
    # Traitor's Tome, haunt 50: "When a Trap Is Triggered" (2: 2 dice + 1 physical, the token stays number up, the
    # hero may still leave; heroes there must face it in later turns)
    g = wire(engine)
    trap_here(g, "elfsong_tavern", 2)
    dice.next(0)                          # the Knowledge roll fails
    dice.next(1, 0)                       # the arrows: 1 + 1
    g.do("task", "cy", trait="knowledge", task="disable")
    assert any("2 dice for the arrows" in t and "= 1" in t for t in g.texts())
    g.decide_all(0)
    assert g.p("cy")["alive"]
    assert [t["name"] for t in traps(g)] == ["Arrow Trap"]
    g.do("move", "cy", way="west")        # may still leave this turn
    g.do("end", "cy")
    with pytest.raises(IllegalAction, match="A trap bars the way"):
        g.do("move", "ann", way="west")


def test_a_net_snare_holds_the_hero_and_weakens_their_might(engine, dice):
    # Traitor's Tome, haunt 50: "When a Trap Is Triggered" (4: the Net Snare; Might 5+ to break out, once a turn; others
    # may spend an action on their turn to roll for them; 2 fewer dice with Might)
    # Ruling: Haunt 50: freeing a netted hero
    g = wire(engine)
    trap_here(g, "elfsong_tavern", 4)
    g.do("task", "cy", trait="knowledge", task="disable")
    assert g.state["haunt"]["h50"]["netted"] == ["cy"] and traps(g) == []
    with pytest.raises(IllegalAction, match="Net Snare"):
        g.do("move", "cy", way="west")
    g.put("bo", "elfsong_tavern")
    g.do("attack", "cy", target="bo")
    roll = next(e for e in g.events if e["kind"] == "roll")
    assert len(roll["faces"]) == max(1, g.value("cy", "might") - 2)
    g.do("task", "cy", trait="might", task="break_free")
    with pytest.raises(IllegalAction, match="already"):
        g.do("task", "cy", trait="might", task="break_free")
    g.decide_all(0)
    g.do("end", "cy")
    dice.next(2, 2, 1)
    g.do("task", "ann", trait="might", task="free", target="cy")
    assert g.state["haunt"]["h50"]["netted"] == []


def test_an_explosive_trap_blasts_the_tile_and_singes_the_next(engine, dice):
    # Traitor's Tome, haunt 50: "When a Trap Is Triggered" (6: a Speed 4 attack on all there; 1 physical damage to
    # every adventurer within 1 tile)
    g = wire(engine)
    trap_here(g, "elfsong_tavern", 6)
    g.put("ann", "inner_chamber")
    g.put("bo", "kitchen")
    dice.next(0)                          # Cy's Knowledge fails
    dice.next(1)                          # the blast: 1 against Cy's zeros
    g.do("task", "cy", trait="knowledge", task="disable")
    events = list(g.events)
    while g.state["pending"]:
        events += g.do("decide", g.state["pending"]["player"], choice=0)
    texts = [e["text"] for e in events]
    assert any("The blast beats Cy 1 to 0" in t for t in texts)
    assert traps(g) == []
    assert sorted(t for t in texts if "takes" in t and "physical damage" in t) == [
        "Down to the Wire: Ann takes 1 physical damage.", "Down to the Wire: Cy takes 1 physical damage.",
        "Down to the Wire: Cy takes 1 physical damage."]  # not Bo; each names where it comes from


def test_the_traitor_leaves_traps_freely_and_sets_new_ones(engine, dice):
    # Traitor's Tome, haunt 50: "Trap Expert" and "How to Set Traps" (a trap and 2 duds within 1 tile, no token there)
    g = wire(engine)
    g.do("end", "cy")
    g.do("end", "ann")
    trap_here(g, "elfsong_tavern", 2)
    g.put("bo", "elfsong_tavern")
    with pytest.raises(IllegalAction, match="Only the heroes"):
        g.do("task", "bo", trait="knowledge", task="disable")
    g.do("task", "bo", task="set_traps")
    assert g.state["pending"]["kind"] == "h50_set"
    g.do("decide", "bo", choice=2)
    offered = g.state["pending"]["options"]
    assert "Inner Chamber" in offered and "Elfsong Tavern" not in offered and "Kitchen" not in offered
    g.decide_all(0)
    assert sorted(t["kind"] for t in traps(g)) == sorted([2, 6, 1, 1][:len(traps(g))])
    with pytest.raises(IllegalAction, match="already tried"):
        g.do("task", "bo", task="set_traps")
    g.do("move", "bo", way="west")       # the traitor walks off a trapped tile
    assert g.p("bo")["tile"] == "inner_chamber"


def test_the_traitor_wins_by_ending_a_turn_on_the_elfsong_with_the_deck(engine):
    # Traitor's Tome, haunt 50: "You Win When..."
    g = wire(engine)
    g.do("end", "cy")
    g.do("end", "ann")
    g.p("ann")["cards"].remove(DECK)
    g.give("bo", DECK)
    g.put("bo", "elfsong_tavern")
    g.state["tokens"] = []
    g.do("end", "bo")
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "traitor"


def test_the_heroes_win_by_killing_the_traitor(engine, dice):
    # Secrets of Survival, haunt 50: "You Win When..."
    g = wire(engine)
    g.state["tokens"] = []
    g.put("bo", "elfsong_tavern")
    g.p("bo")["traits"]["might"] = 1
    dice.next(2, 2, 2, 2)
    g.do("attack", "cy", target="bo")
    g.decide_all(0)
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "heroes"


def test_an_undeclared_move_is_refused(engine):
    g = wire(engine)
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", g.state["turn"]["player"], trait="knowledge", task="defuse")
