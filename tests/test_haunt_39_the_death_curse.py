"""Haunt 39, The Death Curse, played through the engine (Traitor's Tome and
Secrets of Survival, haunt 39). Ann (Torskar) reveals it on the Cursed
Statue with the Book of Spells and, with no Azadeh in play, is the traitor;
the heroes are Bo (Lia) and Cy (Gretchen); the order is Bo, Cy, Ann."""
import pytest

from bot.games.babg.engine import IllegalAction
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.haunts.h39_the_death_curse import TheDeathCurse
from bot.games.babg.engine.legal import legal_actions
from bot.games.babg.engine.view import view
from tests.test_haunt_play import revealed

DELIVERED = "Clues delivered"


def curse_game(engine, extra=()):
    g = revealed(engine, "cursed_statue", "book_of_spells")
    assert g.state["haunt"]["number"] == 39 and g.state["haunt"]["traitors"] == ["ann"]
    for tile, level, x, y in extra:
        g.place(tile, level, x, y)
    g.p("ann")["cards"] = [c for c in g.p("ann")["cards"] if c != "book_of_spells"]
    for pid in g.state["seats"]:
        g.do("ready", pid)
    return g


def settle(g):
    """Answer the setup's questions with the first option, until Bo's turn."""
    while g.state["pending"]:
        g.do("decide", g.state["pending"]["player"], choice=0)


def clues(g):
    return {t["tile"]: t.get("clue", t.get("shown")) for t in g.state["tokens"] if t["name"] == "Clue"}


def held(g, pid):
    return g.state["haunt"]["h39"]["held"].get(pid, [])


def set_clue(g, tile, number):
    for t in g.state["tokens"]:
        if t["name"] == "Clue" and t["tile"] == tile:
            t["clue"] = number


def test_setup_traits_snakes_and_face_down_clues(engine):
    # Traitor's Tome, haunt 39: "Right Now" (traits back to their start, 1 step per hero in a trait of the
    # traitor's choice, a Snake per adventurer where the traitor likes, 1 per tile if possible); Secrets of Survival,
    # haunt 39: "Right Now" (clues 1 to adventurers + 2, face down: omen tiles, then catacomb tiles farthest from the
    # Catacomb Landing, then city tiles farthest from the Elfsong Tavern)
    g = curse_game(engine)
    knowledge = g.p("ann")["traits"]["knowledge"]
    for _ in range(2):                                     # one gain per hero, Ann picks the trait
        assert g.state["pending"]["player"] == "ann" and g.state["pending"]["kind"] == "trait"
        g.do("decide", "ann", choice=2)
    assert g.p("ann")["traits"]["knowledge"] == knowledge + 2
    assert g.state["pending"]["kind"] == "place_chosen" and g.state["pending"]["player"] == "ann"
    settle(g)
    snakes = [m for m in g.state["monsters"] if m["name"] == "Snake"]
    assert len(snakes) == 3 and len({m["tile"] for m in snakes}) == 3
    assert snakes[0]["traits"] == {"might": 2, "speed": 3}
    assert sorted(clues(g)) == sorted(["cursed_statue", "kitchen_basement", "catacomb_landing", "kitchen",
                                       "inner_chamber"])
    assert sorted(clues(g).values()) == [1, 2, 3, 4, 5]
    assert g.state["turn"]["player"] == "bo"
    for pid in ("ann", "bo", "cy"):                        # nobody sees a number under a face-down clue
        assert all("clue" not in t for t in view(g.state, pid)["tokens"])
    assert not any("by hand" in e["text"] for e in g.events)


def test_setup_heroes_choose_among_more_omen_tiles_than_clues(engine):
    # Secrets of Survival, haunt 39: "Right Now" (omen tiles first); Ruling: the heroes' chooser is asked only when
    # more tiles of the current kind are free than clues are left.
    extra = [("executioners_block", "city", 5, 5), ("haunted_alley", "city", 6, 6), ("house_of_blood", "city", 7, 7),
             ("arcane_retreat", "catacomb", 5, 5), ("beasts_lair", "catacomb", 6, 6),
             ("gladiator_pit", "catacomb", 7, 7)]
    g = curse_game(engine, extra)
    while g.state["pending"]["kind"] != "h39_clue_tile":
        g.do("decide", g.state["pending"]["player"], choice=0)
    pending = g.state["pending"]
    assert pending["player"] == "bo" and len(pending["options"]) == 7   # Bo: the first hero (Ann is the traitor)
    settle(g)
    assert len(clues(g)) == 5 and all(g.c.tiles[t].symbol == "omen" for t in clues(g))


def test_the_traitor_looks_at_a_clue_and_may_swap_two_at_each_heros_turn(engine):
    # Traitor's Tome, haunt 39: "You Must Do This at the Start of Each Hero's Turn". Ruling: the traitor's look and
    # swap (the table sees which clues are handled, only the traitor the number, nobody whether they moved).
    g = curse_game(engine)
    while not (g.state["pending"] and g.state["pending"]["kind"] == "h39_peek"):
        g.do("decide", g.state["pending"]["player"], choice=0)
    set_clue(g, "catacomb_landing", 1)
    set_clue(g, "kitchen", 4)
    pending = g.state["pending"]
    assert pending["player"] == "ann" and g.state["turn"]["player"] == "bo"
    g.do("decide", "ann", choice=pending["options"].index("Catacomb Landing"))
    secret = [e for e in g.events if "is number" in e["text"]]
    assert secret and all(e["to"] == "ann" for e in secret) and "number 1" in secret[0]["text"]
    assert g.state["pending"]["kind"] == "h39_second"
    g.do("decide", "ann", choice=g.state["pending"]["options"].index("Kitchen"))
    g.do("decide", "ann", choice=1)                         # swapped
    assert not any("Swapped" in e["text"] or "swap" in e["text"].lower() for e in g.events)
    assert clues(g)["kitchen"] == 1 and clues(g)["catacomb_landing"] == 4
    assert g.state["turn"]["player"] == "bo" and not g.state["pending"]


def bo_to_act(engine):
    g = curse_game(engine)
    settle(g)
    assert g.state["turn"]["player"] == "bo"
    return g


def test_searching_turns_a_clue_over_and_keeps_1_and_2(engine, dice):
    # Secrets of Survival, haunt 39: "How to Search for Clues" (Knowledge 4+, 1 and 2 kept, others discarded)
    g = bo_to_act(engine)
    set_clue(g, "inner_chamber", 2)
    g.put("bo", "inner_chamber")
    dice.next(2, 2)
    g.do("task", "bo", trait="knowledge", task="search")
    assert held(g, "bo") == [2] and "inner_chamber" not in clues(g)
    assert any("clue 2" in e["text"] and e.get("to", "all") == "all" for e in g.events)
    with pytest.raises(IllegalAction):                      # no face-down clue here now
        g.do("task", "bo", trait="knowledge", task="search")
    g.do("end", "bo")
    settle(g)
    set_clue(g, "kitchen", 5)
    g.put("cy", "kitchen")
    dice.next(1, 1)                                        # 2: fails
    g.do("task", "cy", trait="knowledge", task="search")
    assert clues(g)["kitchen"] == 5
    with pytest.raises(IllegalAction):                      # once a turn
        g.do("task", "cy", trait="knowledge", task="search")


def test_a_discarded_clue_and_the_traitor_cannot_search(engine, dice):
    # Secrets of Survival, haunt 39: "How to Search for Clues" (3+: not essential, discarded)
    g = bo_to_act(engine)
    set_clue(g, "kitchen", 3)
    g.put("bo", "kitchen")
    dice.next(2, 2)
    g.do("task", "bo", trait="knowledge", task="search")
    assert held(g, "bo") == [] and "kitchen" not in clues(g)
    g.put("ann", "inner_chamber")
    g.state["turn"] = {**g.state["turn"], "player": "ann"}
    with pytest.raises(IllegalAction):
        g.do("task", "ann", trait="knowledge", task="search")


def test_delivering_both_clues_wins(engine):
    # Secrets of Survival, haunt 39: "Delivering a Clue" and "You Win When..."
    g = bo_to_act(engine)
    g.state["haunt"]["h39"]["held"] = {"bo": [1, 2]}
    g.put("bo", "kitchen")
    with pytest.raises(IllegalAction):
        g.do("task", "bo", task="deliver")
    g.put("bo", "elfsong_tavern")
    g.do("task", "bo", task="deliver")
    assert g.state["haunt"]["counters"][DELIVERED] == 2
    assert g.state["phase"] == "over" and g.state["result"]["winner"] == "heroes"


def test_the_death_curse_at_the_end_of_every_turn_but_the_book_holders(engine):
    # Both books, haunt 39: "You Must Do This at the End of Your Turn" (1 physical damage, nothing prevents it,
    # unless you hold the Book of Spells); the traitor too
    g = bo_to_act(engine)
    g.give("bo", "chain_mail")                             # armour would stop 1 physical damage: not this time
    before = g.p("bo")["traits"]["might"] + g.p("bo")["traits"]["speed"]
    g.do("end", "bo")
    g.decide_all(0)
    assert g.p("bo")["traits"]["might"] + g.p("bo")["traits"]["speed"] == before - 1
    g.give("cy", "book_of_spells")
    before = dict(g.p("cy")["traits"])
    g.do("end", "cy")
    g.decide_all(0)
    assert g.p("cy")["traits"]["might"] == before["might"] and g.p("cy")["traits"]["speed"] == before["speed"]
    assert g.state["turn"]["player"] == "ann"
    before = g.p("ann")["traits"]["might"] + g.p("ann")["traits"]["speed"]
    g.do("end", "ann")
    g.decide_all(0)
    assert g.p("ann")["traits"]["might"] + g.p("ann")["traits"]["speed"] == before - 1


def to_ann(g):
    for pid in ("bo", "cy"):
        g.do("end", pid)
        g.decide_all(0)
    assert g.state["turn"]["player"] == "ann"


def test_sowing_confusion_replaces_the_attack(engine):
    # Traitor's Tome, haunt 39: "Sowing Confusion". Ruling: the decoy quest token of Sowing Confusion (numbered
    # above every clue).
    g = bo_to_act(engine)
    with pytest.raises(IllegalAction):                      # the traitor's own turn only
        g.do("task", "bo", task="confuse")
    to_ann(g)
    before = sorted(clues(g).values())
    g.do("task", "ann", task="confuse")
    assert g.state["pending"]["kind"] == "h39_confuse_from"
    g.do("decide", "ann", choice=g.state["pending"]["options"].index("Kitchen"))
    assert "Kitchen" not in g.state["pending"]["options"]
    g.do("decide", "ann", choice=g.state["pending"]["options"].index("Elfsong Tavern"))
    after = sorted(t["clue"] for t in g.state["tokens"] if t["name"] == "Clue")
    assert len(after) == len(before) + 1 and after[:len(before)] == before and after[-1] == 6
    assert {"kitchen", "elfsong_tavern"} <= set(clues(g))
    assert g.state["turn"]["attacked"]
    with pytest.raises(IllegalAction):
        g.do("task", "ann", task="confuse")


def test_clues_can_be_given_dropped_face_up_and_picked_up(engine):
    # Secrets of Survival, haunt 39: "How to Search for Clues" (kept clues are items: traded, dropped face up);
    # Traitor's Tome, haunt 39: "Gaining Clues" (the traitor may pick up a face-up clue)
    g = bo_to_act(engine)
    g.state["haunt"]["h39"]["held"] = {"bo": [1]}
    g.put("bo", "kitchen")
    g.put("cy", "kitchen")
    g.do("task", "bo", task="give", target="cy")
    assert held(g, "cy") == [1] and held(g, "bo") == []
    g.do("end", "bo")
    g.decide_all(0)
    g.do("task", "cy", task="drop")
    assert [t for t in g.state["tokens"] if t.get("shown") == 1 and t["tile"] == "kitchen"]
    with pytest.raises(IllegalAction, match="handled"):  # rulebook: one action with an item a turn
        g.do("task", "cy", task="pickup")
    assert any(t.get("shown") == 1 for t in view(g.state, "bo")["tokens"])   # face up: everyone sees it
    g.do("end", "cy")
    g.decide_all(0)
    g.put("ann", "kitchen")
    g.do("task", "ann", task="pickup")
    assert held(g, "ann") == [1]


def test_a_won_attack_may_steal_a_clue(engine, dice):
    # Traitor's Tome, haunt 39: "Gaining Clues" (steal a clue an adventurer controls); rulebook: Stealing Items
    g = bo_to_act(engine)
    to_ann(g)
    g.state["haunt"]["h39"]["held"] = {"bo": [2]}
    g.put("ann", "kitchen")
    g.put("bo", "kitchen")
    dice.next(2, 2, 2, 2)
    dice.next(0, 0, 0)
    g.do("attack", "ann", target="bo")
    pending = g.state["pending"]
    assert pending["player"] == "ann" and "Steal clue 2" in pending["options"]
    g.do("decide", "ann", choice=pending["options"].index("Steal clue 2"))
    assert held(g, "ann") == [2] and held(g, "bo") == []


def test_the_traitors_death_turns_every_clue_face_up(engine):
    # Secrets of Survival, haunt 39: "You Win When..." (the traitor killed: every quest token face up). Ruling: the
    # 3+ are discarded, 1 and 2 lie face up to be picked up (Ruling: the clues once the traitor is dead).
    g = bo_to_act(engine)
    for token in g.state["tokens"]:
        if token["name"] == "Clue":
            token["clue"] = 3
    set_clue(g, "kitchen", 1)
    set_clue(g, "inner_chamber", 2)
    g.p("ann")["traits"]["might"] = 1
    g.state["queue"].append({"player": "ann", "source": "test", "steps": [
        {"do": "damage", "kind": "physical", "amount": 9}], "keep": False})
    g.do("end", "bo")
    g.decide_all(0)
    assert not g.p("ann")["alive"]
    assert clues(g) == {"kitchen": 1, "inner_chamber": 2}
    assert all("shown" in t for t in g.state["tokens"] if t["name"] == "Clue")


def test_every_hero_dead_wins_for_the_traitor(engine):
    # Traitor's Tome, haunt 39: "You Win When..."
    g = bo_to_act(engine)
    for pid in ("bo", "cy"):
        g.p(pid)["traits"]["might"] = 1
        g.p(pid)["traits"]["speed"] = 1
    g.do("end", "bo")                  # the curse takes Bo to the skull
    g.decide_all(0)
    g.do("end", "cy")
    g.decide_all(0)
    assert g.state["phase"] == "over" and g.state["result"]["winner"] == "traitor"


def test_buttons_and_goals(engine):
    # Secrets of Survival, haunt 39: "How to Search for Clues", "Delivering a Clue" (buttons, the players' goals)
    g = bo_to_act(engine)
    g.put("bo", "kitchen")
    tasks = [a["task"] for a in legal_actions(g.c, g.state) if a["type"] == "task"]
    assert tasks == ["search"]
    rules, ctx = TheDeathCurse(), Ctx(g.c, g.state)
    assert rules.haunt_goals(ctx, "bo") == set(clues(g))
    g.state["haunt"]["h39"]["held"] = {"bo": [1]}
    assert rules.haunt_goals(ctx, "bo") == {"elfsong_tavern"}
    assert rules.haunt_goals(ctx, "ann") == {"kitchen"}


def test_an_undeclared_move_is_refused(engine):
    g = bo_to_act(engine)
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", "bo", task="curse")


def test_clues_held_follow_a_seat_handed_over(engine):
    # Secrets of Survival, haunt 39, "Delivering a Clue": the clues a seat holds go with it to its new holder,
    # who can still deliver them
    g = bo_to_act(engine)
    g.state["haunt"]["h39"]["held"] = {"bo": [1, 2]}
    g.do("handover", "bo", to="zed", name="Zed")
    assert held(g, "zed") == [1, 2]
    g.put("zed", "elfsong_tavern")
    g.do("task", "zed", task="deliver")
    assert g.state["phase"] == "over" and g.state["result"]["winner"] == "heroes"
