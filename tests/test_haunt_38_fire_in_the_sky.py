"""Haunt 38, Fire in the Sky (no traitor), played through the engine: the
Citizens' setup, the fire, moving through it, carrying Citizens, the
Teleportation Circle, and both ends. Ann (Torskar) reveals it on the Cursed
Statue; the order is Bo, Cy, then Ann."""
import pytest

from bot.games.babg.engine import IllegalAction
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.haunts.h38_fire_in_the_sky import FireInTheSky, mine
from bot.games.babg.engine.legal import legal_actions
from tests.test_haunt_play import all_ready, revealed

KILLED, RESCUED = "Citizens killed", "Citizens rescued"


def fire_game(engine, dice, extra=(), advs=("torskar", "lia", "gretchen"), fire=None):
    """The city: Kitchen, Inner Chamber, Elfsong Tavern, the Cursed Statue
    north of the Inner Chamber, plus `extra` (tile, x, y). The setup's fire
    roll shows `fire` (all 1s, nothing burns, by default)."""
    g = revealed(engine, "cursed_statue", "pipes_of_haunting", advs=advs)
    assert g.state["haunt"]["number"] == 38
    for tile, x, y in extra:
        g.place(tile, "city", x, y)
    city = [t for t in g.state["board"] if g.c.tiles[t].level == "city"]
    dice.next(*(fire or [1] * len(city)))
    all_ready(g)
    return g


def citizens(g, tile=None):
    return [t["tile"] for t in g.state["tokens"] if t["name"] == "Citizen" and (tile is None or t["tile"] == tile)]


def fires(g):
    return sorted(t["tile"] for t in g.state["tokens"] if t["name"] == "Fire")


def counters(g):
    return g.state["haunt"]["counters"]


def test_setup_citizens_spread_out_from_the_elfsong_tavern(engine, dice):
    # Secrets of Survival, haunt 38: "Right Now" (2 Citizens per hero: the Elfsong Tavern, the Inner Chamber, the
    # tiles around the Tavern, rings outward, 1 per tile; extras on the Tavern once the city runs out)
    g = fire_game(engine, dice)
    assert sorted(citizens(g)) == sorted(["elfsong_tavern"] * 3 + ["inner_chamber", "cursed_statue", "kitchen"])
    assert g.state["order"][:3] == ["bo", "cy", "ann"]
    assert g.state["turn"]["player"] == "bo" and not g.state["pending"]
    assert fires(g) == []
    assert not any("by hand" in e["text"] for e in g.events)
    assert any("{move:pickup}" in e["text"] and e.get("to", "all") == "all" for e in g.events)


def test_setup_the_heroes_pick_within_a_ring_only_when_it_matters(engine, dice):
    # Secrets of Survival, haunt 38: "Right Now" (the book sets the order ring by ring; within a ring the heroes
    # choose). Ruling: the heroes' chooser (the revealer) is asked only when a ring has more tiles than Citizens.
    g = revealed(engine, "cursed_statue", "pipes_of_haunting")
    for tile, x, y in (("dead_end", 3, 0), ("fountain", 3, -1), ("gray_harbor", 4, 0), ("ambush_alley", 4, 1)):
        g.place(tile, "city", x, y)
    dice.next(*[1] * 8)
    for pid in g.state["seats"]:
        g.do("ready", pid)
    pending = g.state["pending"]
    # Tavern, Inner Chamber, then ring 1 (Cursed Statue, Dead End, Fountain) all get one: 1 Citizen left for ring 2
    assert pending["player"] == "ann" and pending["kind"] == "h38_citizen"
    assert pending["options"] == ["Ambush Alley", "Gray Harbor", "Kitchen"]
    g.do("decide", "ann", choice=1)
    assert sorted(citizens(g)) == sorted(["elfsong_tavern", "inner_chamber", "cursed_statue", "dead_end", "fountain",
                                          "gray_harbor"])


def test_the_fire_kills_citizens_and_spreads_at_the_start_of_the_revealers_turn(engine, dice):
    # Secrets of Survival, haunt 38: "You Must Do This Now and at the Start of the Haunt Revealer's Turns"
    g = fire_game(engine, dice, fire=[0, 1, 1, 1])  # the setup's roll, tiles by name: Cursed Statue catches fire
    assert fires(g) == ["cursed_statue"]
    g.do("end", "bo")
    assert counters(g).get(KILLED, 0) == 0 and fires(g) == ["cursed_statue"]
    dice.next(1, 0, 1)                      # Ann's roll: Elfsong Tavern, Inner Chamber, Kitchen
    g.do("end", "cy")                       # Ann's turn starts: the Citizen on the Cursed Statue dies
    assert g.state["turn"]["player"] == "ann"
    assert counters(g)[KILLED] == 1 and citizens(g, "cursed_statue") == []
    assert fires(g) == ["cursed_statue", "inner_chamber"]


def test_carried_citizens_are_safe_and_a_burning_city_hurts_every_hero(engine, dice):
    # Secrets of Survival, haunt 38: same section (carried Citizens are ignored; every city tile on fire: 2 physical
    # damage to each hero)
    g = fire_game(engine, dice)
    mine_state = mine_of(g)
    g.state["tokens"] = [t for t in g.state["tokens"] if not (t["name"] == "Citizen" and t["tile"] == "kitchen")]
    mine_state["carrying"].append("ann")     # Ann carries the Kitchen's Citizen
    g.put("ann", "kitchen")
    g.do("end", "bo")
    before = {p: dict(g.p(p)["traits"]) for p in ("ann", "bo", "cy")}
    g.do("end", "cy")                        # Ann's turn: every unburnt tile rolls 0
    assert any("caves in" in t for t in g.texts())
    g.decide_all(0)
    assert fires(g) == ["cursed_statue", "elfsong_tavern", "inner_chamber", "kitchen"]
    assert "ann" in mine_state["carrying"] and counters(g).get(KILLED, 0) == 0
    for p in ("ann", "bo", "cy"):
        lost = sum(before[p][t] - g.p(p)["traits"][t] for t in ("might", "speed"))
        assert lost == 2


def mine_of(g):
    return g.state["haunt"]["h38"]


def test_leaving_a_burning_tile_on_a_zero_costs_damage_and_the_citizen(engine, dice):
    # Secrets of Survival, haunt 38: "Moving Through the Fire" (a die to leave; on 0 no move, no space spent,
    # 1 physical damage, a carried Citizen dropped; may try again)
    g = fire_game(engine, dice, fire=[1, 0, 1, 1])   # the Elfsong Tavern burns
    assert fires(g) == ["elfsong_tavern"]
    mine_of(g)["carrying"].append("bo")
    might = g.p("bo")["traits"]["might"] + g.p("bo")["traits"]["speed"]
    dice.next(0)
    g.do("move", "bo", way="west")
    g.decide_all(0)
    assert g.p("bo")["tile"] == "elfsong_tavern" and g.state["turn"]["moved"] == 0
    assert g.p("bo")["traits"]["might"] + g.p("bo")["traits"]["speed"] == might - 1
    assert "bo" not in mine_of(g)["carrying"] and len(citizens(g, "elfsong_tavern")) == 4
    dice.next(1)
    g.do("move", "bo", way="west")
    assert g.p("bo")["tile"] == "inner_chamber" and g.state["turn"]["moved"] == 1


def test_picking_up_and_putting_down_a_citizen(engine, dice):
    # Secrets of Survival, haunt 38: "How to Move a Citizen" (Might 3+ on their tile; 1 at a time; dropping is free).
    # Ruling: one pick-up roll per turn, as the toolkit's task rolls.
    g = fire_game(engine, dice)
    dice.next(1, 1)                                  # Bo (Lia) rolls 2: fails
    g.do("task", "bo", trait="might", task="pickup")
    assert "bo" not in mine_of(g)["carrying"]
    with pytest.raises(IllegalAction):
        g.do("task", "bo", trait="might", task="pickup")
    g.do("end", "bo")
    dice.next(2, 1)                                  # Cy rolls 3: lifts one
    g.do("task", "cy", trait="might", task="pickup")
    assert "cy" in mine_of(g)["carrying"] and len(citizens(g, "elfsong_tavern")) == 2
    g.do("move", "cy", way="west")
    g.do("task", "cy", task="drop")
    assert "cy" not in mine_of(g)["carrying"] and len(citizens(g, "inner_chamber")) == 2
    with pytest.raises(IllegalAction):
        g.do("task", "cy", task="drop")


def test_one_citizen_at_a_time_and_only_on_their_tile(engine, dice):
    # Secrets of Survival, haunt 38: "How to Move a Citizen"
    g = fire_game(engine, dice)
    mine_of(g)["carrying"].append("bo")
    with pytest.raises(IllegalAction):
        g.do("task", "bo", trait="might", task="pickup")
    g.put("cy", "kitchen_basement")
    g.do("end", "bo")
    with pytest.raises(IllegalAction):
        g.do("task", "cy", trait="might", task="pickup")


def test_the_teleportation_circle_rescues_citizens_and_wins(engine, dice):
    # Secrets of Survival, haunt 38: "How to Create the Teleportation Circle" (catacomb level, Knowledge 6+),
    # "How to Rescue a Citizen" and "You Win When..."
    g = fire_game(engine, dice)
    with pytest.raises(IllegalAction):               # not on the catacomb level
        g.do("task", "bo", trait="knowledge", task="circle")
    g.put("bo", "kitchen_basement")
    dice.next(2, 2, 1)                               # 5: not enough for Lia (a warlock)
    g.do("task", "bo", trait="knowledge", task="circle")
    assert not [t for t in g.state["tokens"] if t["name"] == "Teleportation Circle"]
    g.do("end", "bo")
    g.put("cy", "kitchen_basement")
    dice.next(2, 2, 2)
    g.do("task", "cy", trait="knowledge", task="circle")
    assert [t["tile"] for t in g.state["tokens"] if t["name"] == "Teleportation Circle"] == ["kitchen_basement"]
    with pytest.raises(IllegalAction):
        g.do("task", "cy", trait="knowledge", task="circle")
    for pid in ("ann", "bo", "cy"):
        mine_of(g)["carrying"].append(pid)
    g.do("task", "cy", task="drop")
    assert counters(g)[RESCUED] == 1 and citizens(g, "kitchen_basement") == []
    dice.next(1, 1, 1, 1)                            # Ann's fire roll: nothing new burns
    g.do("end", "cy")
    g.put("ann", "kitchen_basement")
    g.do("task", "ann", task="drop")
    g.do("end", "ann")
    g.put("bo", "kitchen_basement")
    g.do("task", "bo", task="drop")
    assert g.state["phase"] == "over" and g.state["result"]["winner"] == "heroes"


def test_casters_need_only_three(engine, dice):
    # Secrets of Survival, haunt 38: "How to Create the Teleportation Circle" (3+ for a Bard, Sorcerer or Wizard)
    g = fire_game(engine, dice, advs=("torskar", "dhadius", "gretchen"))
    g.put("bo", "catacomb_landing")
    dice.next(2, 1)
    g.do("task", "bo", trait="knowledge", task="circle")
    assert [t["tile"] for t in g.state["tokens"] if t["name"] == "Teleportation Circle"] == ["catacomb_landing"]


def test_too_many_citizens_killed_loses(engine, dice):
    # Secrets of Survival, haunt 38: "You Lose When..." (starting heroes + 1 Citizens killed)
    g = fire_game(engine, dice)
    for tile in ("kitchen", "inner_chamber", "cursed_statue", "elfsong_tavern"):
        g.state["tokens"].append({"name": "Fire", "tile": tile})
    g.do("end", "bo")
    g.do("end", "cy")
    assert g.state["phase"] == "over" and g.state["result"]["winner"] == "traitor"
    assert counters(g)[KILLED] == 6  # all six burn at once; 4 was enough


def test_a_hero_who_dies_puts_down_their_citizen(engine, dice):
    # Ruling: a hero who dies while carrying a Citizen leaves it on their tile.
    g = fire_game(engine, dice)
    mine_of(g)["carrying"].append("bo")
    g.put("bo", "kitchen")
    g.p("bo")["traits"]["might"] = 1
    g.p("bo")["traits"]["speed"] = 1
    g.state["queue"].append({"player": "bo", "source": "test", "steps": [
        {"do": "damage", "kind": "physical", "amount": 2}], "keep": False})
    g.do("end", "bo")
    g.decide_all(0)
    assert not g.p("bo")["alive"] and len(citizens(g, "kitchen")) == 2 and "bo" not in mine_of(g)["carrying"]


def test_buttons_and_goals(engine, dice):
    # Secrets of Survival, haunt 38: "How to Move a Citizen" and "How to Create the Teleportation Circle" (what the
    # buttons offer and where the built-in players go)
    g = fire_game(engine, dice)
    tasks = [a for a in legal_actions(g.c, g.state) if a["type"] == "task"]
    assert tasks == [{"type": "task", "trait": "might", "task": "pickup", "player": "bo"}]
    ctx = Ctx(g.c, g.state)
    rules = FireInTheSky()
    assert rules.haunt_goals(ctx, "bo") == {"kitchen_basement", "catacomb_landing"}  # Lia knows most: she makes it
    assert rules.haunt_goals(ctx, "ann") == set(citizens(g))
    mine_of(g)["carrying"].append("bo")
    assert rules.haunt_goals(ctx, "bo") == {"kitchen_basement", "catacomb_landing"}
    g.state["tokens"].append({"name": "Teleportation Circle", "tile": "catacomb_landing"})
    assert rules.haunt_goals(ctx, "bo") == {"catacomb_landing"}


def test_with_the_revealer_dead_the_fire_still_comes_once_a_round(engine, dice):
    # Ruling: the fire once the haunt revealer is dead comes at the start of the last living hero's turn in the round.
    g = fire_game(engine, dice)
    g.p("ann")["alive"] = False
    g.do("end", "bo")                        # Cy plays last now: the fire rolls at the start of her turn
    assert g.state["turn"]["player"] == "cy" and any("The fire spreads" in t for t in g.texts())
    g.decide_all(0)
    dice.next(1, 1, 1, 1)
    g.do("end", "cy")
    assert g.state["turn"]["player"] == "bo" and not any("The fire spreads" in t for t in g.texts())


def test_an_undeclared_move_is_refused(engine, dice):
    g = fire_game(engine, dice)
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", "bo", task="douse")


def test_a_carrier_handed_over_still_carries(engine, dice):
    # Secrets of Survival, haunt 38, "How to Move a Citizen": the Citizen carried stays with the seat's new holder
    g = fire_game(engine, dice)
    mine_of(g)["carrying"].append("bo")
    g.do("handover", "bo", to="zed", name="Zed")
    assert mine_of(g)["carrying"] == ["zed"]
    g.do("task", "zed", task="drop")
    assert mine_of(g)["carrying"] == []
