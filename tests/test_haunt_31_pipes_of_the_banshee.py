"""Haunt 31, Pipes of the Banshee, played through the engine (Traitor's Tome
and Secrets of Survival, haunt 31). Ann (Torskar) reveals the haunt; Bo
(Lia), the oldest other adventurer, is the traitor and plays the Banshee;
Cy is Gretchen."""
import pytest

from bot.games.babg.engine import IllegalAction
from bot.games.babg.engine.legal import legal_actions
from tests.invariants import check
from tests.test_haunt_play import all_ready, revealed


def banshee_game(engine, tiles=None, cards=None):
    g = revealed(engine, "arcane_retreat", "pipes_of_haunting", revealer="ann")
    assert g.state["haunt"]["number"] == 31 and g.state["haunt"]["traitors"] == ["bo"]
    for pid, tile in (tiles or {}).items():
        g.put(pid, tile)
    for pid, held in (cards or {}).items():
        for card in held:
            g.give(pid, card)
    all_ready(g)
    return g


def banshee(g):
    return next(m for m in g.state["monsters"] if m["name"] == "Banshee")


def to_banshee_turn(g):
    for _ in range(6):
        if g.state["turn"].get("banshee"):
            return
        g.do("end", g.state["turn"]["player"])
        g.decide_all(0)
    raise AssertionError("no Banshee turn")


def test_setup_the_banshee_replaces_the_traitors_figure(engine):
    # Traitor's Tome, haunt 31: "Right Now" (the adventurer is dead and the Banshee token replaces the figure; events
    # affecting it are discarded; items and omens are kept, with their trait changes); "Banshee" (Speed 4,
    # Knowledge 4, Sanity 6, no Might)
    g = banshee_game(engine, tiles={"bo": "kitchen"}, cards={"bo": ["crossbow"]})
    m = banshee(g)
    assert m["tile"] == "kitchen" and m["traits"] == {"speed": 4, "knowledge": 4, "sanity": 6}
    assert m["attacks"] == "sanity"
    assert not any(x["kind"] == "away" for x in g.p("ann")["marks"])
    assert any(x["kind"] == "away" for x in g.p("bo")["marks"])  # the adventurer's figure is gone
    assert "crossbow" in g.p("bo")["cards"]
    assert not any("by hand" in e["text"] for e in g.events)


def test_no_monster_turn_the_banshee_acts_in_the_traitors_turn(engine):
    # Traitor's Tome, haunt 31: "Right Now" (the Banshee is the traitor's figure); rulebook: Playing the Haunt (the
    # traitor's turn comes after the heroes'), so no monster turn of her own and no second action
    g = banshee_game(engine)
    assert g.state["order"][:3] == ["cy", "ann", "bo"]
    seen = []
    for _ in range(7):
        turn = g.state["turn"]
        seen.append("banshee" if turn.get("banshee") else "monsters" if turn.get("monsters") else turn["player"])
        g.do("end", turn["player"])
        g.decide_all(0)
    assert seen == ["cy", "ann", "banshee", "cy", "ann", "banshee", "cy"]


def test_the_banshee_attacks_with_sanity_and_the_hero_defends_with_sanity(engine, dice):
    # Traitor's Tome, haunt 31: "Special Attack Rules" (she attacks with Sanity, opponents defend with Sanity,
    # mental damage); Found: she attacked with Speed
    g = banshee_game(engine, tiles={"bo": "elfsong_tavern", "ann": "elfsong_tavern", "cy": "kitchen"})
    to_banshee_turn(g)
    with pytest.raises(IllegalAction, match="only with Sanity"):
        g.do("monster", "bo", op="attack", monster="Banshee", target="ann", trait="speed")
    dice.next(2, 2, 2, 2, 2, 2)  # six dice for her Sanity: 12
    dice.next(0)
    g.do("monster", "bo", op="attack", monster="Banshee", target="ann")
    texts = g.texts()
    assert any("The Banshee attacks Ann with Sanity" in t for t in texts)
    assert any("rolls Sanity for the Banshee (6 dice)" in t for t in texts)
    assert any("Ann rolls Sanity to defend" in t for t in texts)
    assert g.state["pending"]["player"] == "ann" and "Knowledge" in g.state["pending"]["options"][0]


def test_heroes_attack_her_with_sanity_and_her_traits_go_down(engine, dice):
    # Secrets of Survival, haunt 31: "Special Attack Rules" (no Might: attack her with Sanity, mental damage);
    # Traitor's Tome, haunt 31: "Right Now" (her traits go up and down)
    g = banshee_game(engine, tiles={"bo": "elfsong_tavern", "ann": "elfsong_tavern", "cy": "elfsong_tavern"})
    assert g.state["turn"]["player"] == "cy"
    with pytest.raises(IllegalAction, match="no Might"):
        g.do("attack", "cy", target="Banshee")
    dice.next(2, 2, 2, 2, 2)  # Cy (Gretchen) attacks with Sanity
    dice.next(0, 0, 0, 0, 0, 0)
    g.do("attack", "cy", target="Banshee", trait="sanity")
    pending = g.state["pending"]
    assert pending["player"] == "bo" and pending["kind"] == "h31_banshee_damage"
    g.do("decide", "bo", choice=0)  # all of it to Sanity
    m = banshee(g)
    assert not m["stunned"] and m["traits"]["knowledge"] == 4 and m["traits"]["sanity"] < 6


def test_a_trait_at_zero_destroys_her_and_the_heroes_win(engine, dice):
    # Traitor's Tome, haunt 31: "Right Now" ("If a trait ever reaches 0, you are killed"); Secrets of Survival,
    # haunt 31: "You Win When" (the Banshee is destroyed)
    g = banshee_game(engine, tiles={"bo": "elfsong_tavern", "ann": "elfsong_tavern", "cy": "elfsong_tavern"})
    banshee(g)["traits"]["knowledge"] = 1
    dice.next(2, 2, 2, 2, 2)
    dice.next(0, 0, 0, 0, 0, 0)
    g.do("attack", "cy", target="Banshee", trait="sanity")
    g.do("decide", "bo", choice=len(g.state["pending"]["options"]) - 1)  # all of it to Knowledge
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "heroes"


def test_horrifying_visage_at_the_start_of_a_heros_turn(engine, dice):
    # Secrets of Survival, haunt 31: "You Must Do This at the Start of Your Turn"; Traitor's Tome, haunt 31:
    # "Horrifying Visage" (in her line of sight: Sanity 4+ or lose 1 Sanity)
    g = banshee_game(engine, tiles={"bo": "kitchen", "ann": "elfsong_tavern", "cy": "arcane_retreat"})
    sanity = g.p("ann")["traits"]["sanity"]
    dice.next(1, 1, 0, 0, 0)  # Ann's Sanity roll: 2
    g.do("end", "cy")
    assert g.state["turn"]["player"] == "ann"
    assert any("in the Banshee's sight" in t for t in g.texts())
    assert g.p("ann")["traits"]["sanity"] == sanity - 1
    g.do("end", "ann")
    g.do("end", "bo")
    assert not any("Banshee's sight" in t for t in g.texts())  # Cy, down in the catacombs, is out of her sight


def test_the_banshee_wins_with_the_pipes_on_one_of_her_tiles(engine):
    # Traitor's Tome, haunt 31: "You Win When" (the Pipes of Haunting brought to the Arcane Retreat, Executioner's
    # Block, Haunted Alley or Neglected Shrine)
    g = banshee_game(engine, tiles={"bo": "catacomb_landing"}, cards={"bo": ["pipes_of_haunting"]})
    to_banshee_turn(g)
    g.do("monster", "bo", op="move", monster="Banshee", way="north")
    assert banshee(g)["tile"] == "arcane_retreat"
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "traitor"


def test_the_banshee_wins_when_every_hero_is_dead(engine):
    # Traitor's Tome, haunt 31: "You Win When" ("You also win if all the heroes are dead")
    g = banshee_game(engine)
    g.p("ann")["alive"] = False
    g.p("cy")["alive"] = False
    g.do("end", g.state["turn"]["player"]) if g.state["phase"] == "haunt" else None
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "traitor"


def test_an_undeclared_move_is_refused(engine):
    # Declared moves only: a name the haunt does not declare is refused
    g = banshee_game(engine)
    to_banshee_turn(g)
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", "bo", task="wail")


def test_the_banshee_picks_up_an_item_and_her_traits_change(engine):
    # Traitor's Tome, haunt 31: "Your Pretties" (L2164-2166: she picks up items as an adventurer would) and "Right
    # Now" (L2140-2142: her traits change with what she holds). Found: she could not pick anything up
    g = banshee_game(engine, tiles={"bo": "kitchen"})
    g.state["piles"]["kitchen"] = ["locket"]
    for deck in g.state["decks"].values():
        if "locket" in deck:
            deck.remove("locket")
    to_banshee_turn(g)
    assert {"type": "task", "player": "bo", "task": "pickup", "card": "locket"} in legal_actions(g.c, g.state)
    g.do("task", "bo", task="pickup", card="locket")
    assert "locket" in g.p("bo")["cards"] and "kitchen" not in g.state["piles"]
    assert banshee(g)["traits"]["sanity"] == 7   # the Locket's +1 Sanity
    check(g.c, g.state)


def test_the_heroes_may_not_use_her_moves(engine):
    # Traitor's Tome, haunt 31: "Your Pretties" is the Banshee's own rule
    g = banshee_game(engine, tiles={"cy": "kitchen"})
    g.state["piles"]["kitchen"] = ["locket"]
    for deck in g.state["decks"].values():
        if "locket" in deck:
            deck.remove("locket")
    with pytest.raises(IllegalAction):
        g.do("task", "cy", task="pickup", card="locket")


def test_the_banshee_steals_instead_of_dealing_damage(engine, dice):
    # Traitor's Tome, haunt 31: "Your Pretties" (L2164-2166: she steals as an adventurer would); rulebook, Special
    # Attacks (a win by 2 or more may take an item instead of the damage). Found: she could never steal
    g = banshee_game(engine, tiles={"bo": "elfsong_tavern", "ann": "elfsong_tavern", "cy": "kitchen"},
                     cards={"ann": ["locket"]})
    to_banshee_turn(g)
    sanity = g.p("ann")["traits"]["sanity"]
    dice.next(2, 2, 2, 2, 2, 2)  # her Sanity: 12
    dice.next(0, 0, 0, 0, 0, 0, 0, 0)
    g.do("monster", "bo", op="attack", monster="Banshee", target="ann")
    pending = g.state["pending"]
    assert pending["player"] == "bo" and pending["kind"] == "h31_steal"
    g.do("decide", "bo", choice=pending["options"].index("Steal Locket"))
    assert "locket" in g.p("bo")["cards"] and "locket" not in g.p("ann")["cards"]
    assert banshee(g)["traits"]["sanity"] == 7
    assert g.p("ann")["traits"]["sanity"] == sanity   # no damage dealt (the test gave the Locket without its bonus)
    assert not g.state["pending"]
    check(g.c, g.state)


def test_the_banshee_may_deal_the_damage_instead_of_stealing(engine, dice):
    # Rulebook, Special Attacks: stealing is instead of the damage, the winner's choice
    g = banshee_game(engine, tiles={"bo": "elfsong_tavern", "ann": "elfsong_tavern", "cy": "kitchen"},
                     cards={"ann": ["locket"]})
    to_banshee_turn(g)
    dice.next(2, 2, 2, 2, 2, 2)
    dice.next(0, 0, 0, 0, 0, 0, 0, 0)
    g.do("monster", "bo", op="attack", monster="Banshee", target="ann")
    g.do("decide", "bo", choice=0)
    assert "locket" in g.p("ann")["cards"]
    assert g.state["pending"]["player"] == "ann"   # the mental damage, split by Ann


def test_hoarding_discards_a_card_and_raises_a_trait_once_a_turn(engine):
    # Traitor's Tome, haunt 31: "Your Pretties" (L2164-2166: once a turn, discard an item or omen and raise one trait
    # by 2, to 8 at most). Found: hoarding could not be done
    g = banshee_game(engine, tiles={"bo": "kitchen"}, cards={"bo": ["locket", "shiny_rock"]})
    assert banshee(g)["traits"]["sanity"] == 7
    to_banshee_turn(g)
    g.do("task", "bo", task="hoard", card="locket")
    assert "locket" in g.state["discard"]["item"] and banshee(g)["traits"]["sanity"] == 6
    pending = g.state["pending"]
    assert pending["kind"] == "h31_hoard" and pending["options"][-1] == "None"
    g.do("decide", "bo", choice=pending["options"].index("Speed 4 +2"))
    assert banshee(g)["traits"]["speed"] == 6
    with pytest.raises(IllegalAction, match="already"):
        g.do("task", "bo", task="hoard", card="shiny_rock")
    check(g.c, g.state)


def test_a_hoarded_trait_stops_at_eight(engine):
    # Traitor's Tome, haunt 31: "Your Pretties" (L2166: to no more than 8)
    g = banshee_game(engine, tiles={"bo": "kitchen"}, cards={"bo": ["shiny_rock"]})
    banshee(g)["traits"]["speed"] = 7
    to_banshee_turn(g)
    g.do("task", "bo", task="hoard", card="shiny_rock")
    g.do("decide", "bo", choice=g.state["pending"]["options"].index("Speed 7 +2"))
    assert banshee(g)["traits"]["speed"] == 8


def test_hoarding_the_pipes_leaves_only_the_killing_win(engine):
    # Traitor's Tome, haunt 31: "Your Pretties" (L2166: the Pipes hoarded, only killing every hero wins)
    g = banshee_game(engine, tiles={"bo": "catacomb_landing"}, cards={"bo": ["pipes_of_haunting"]})
    to_banshee_turn(g)
    g.do("task", "bo", task="hoard", card="pipes_of_haunting")
    g.decide_all(len(g.state["pending"]["options"]) - 1)
    assert g.state["haunt"]["h31"]["pipes_hoarded"]
    g.state["discard"]["omen"].remove("pipes_of_haunting")
    g.p("bo")["cards"].append("pipes_of_haunting")   # back in her claws somehow: it no longer wins
    g.do("monster", "bo", op="move", monster="Banshee", way="north")
    assert banshee(g)["tile"] == "arcane_retreat" and g.state["phase"] == "haunt"


def test_the_banshee_passes_through_walls(engine):
    # Traitor's Tome, haunt 31: "Special Movement Rules" (L2168-2170: through walls and false features as through
    # joined doors). Found: the monster data said so but she could only use doorways
    g = banshee_game(engine, tiles={"bo": "arcane_retreat"})
    g.place("forgotten_cache", "catacomb", 1, -2)   # north of the Arcane Retreat, which has no north doorway
    to_banshee_turn(g)
    with pytest.raises(IllegalAction):
        g.do("monster", "bo", op="move", monster="Banshee", way="north")
    assert {"type": "task", "player": "bo", "task": "glide", "way": "north"} in legal_actions(g.c, g.state)
    g.do("task", "bo", task="glide", way="north")
    assert banshee(g)["tile"] == "forgotten_cache"
    with pytest.raises(IllegalAction):
        g.do("task", "bo", task="glide", way="east")   # nothing placed there


def test_a_reflective_item_halves_her_defence_and_is_destroyed(engine, dice):
    # Secrets of Survival, haunt 31: "Reflective Items" (L4448-4455: half her defence dice, rounded down; the item
    # is destroyed). Found: reflective items did nothing
    g = banshee_game(engine, tiles={"bo": "elfsong_tavern", "ann": "elfsong_tavern", "cy": "elfsong_tavern"},
                     cards={"cy": ["potion_of_healing"]})
    assert g.state["turn"]["player"] == "cy"
    dice.next(0, 0, 0, 0, 0, 0, 0, 0)
    dice.next(0, 0, 0, 0, 0, 0, 0, 0)
    g.do("attack", "cy", target="Banshee", trait="sanity")
    assert any("Sanity for the Banshee to defend" in e["text"] and len(e.get("faces", [])) == 3 for e in g.events)
    assert "potion_of_healing" not in g.p("cy")["cards"] and "potion_of_healing" in g.state["discard"]["item"]
    check(g.c, g.state)


def test_without_a_reflective_item_she_defends_with_all_her_dice(engine, dice):
    # Secrets of Survival, haunt 31: "Reflective Items" (only a hero holding one)
    g = banshee_game(engine, tiles={"bo": "elfsong_tavern", "ann": "elfsong_tavern", "cy": "elfsong_tavern"})
    dice.next(0, 0, 0, 0, 0, 0, 0, 0)
    dice.next(0, 0, 0, 0, 0, 0, 0, 0)
    g.do("attack", "cy", target="Banshee", trait="sanity")
    assert any("Sanity for the Banshee to defend" in e["text"] and len(e.get("faces", [])) == 6 for e in g.events)
