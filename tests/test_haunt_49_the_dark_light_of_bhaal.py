"""Haunt 49, The Dark Light of Bhaal (the revealer is the traitor), played
through the engine's actions: the ritual tiles and their quest tokens, the
Lantern (held, stolen, dropped), the enchantment and the enchanted heroes'
turns under the traitor's orders, and both sides' wins."""
import pytest

from bot.games.babg.engine import IllegalAction
from bot.games.babg.engine.legal import legal_actions
from tests.test_haunt_play import revealed

QUEST = "Ritual location"


def bhaal(engine, ritual_tiles=("fountain", "spys_roost", "sacrificial_chamber")):
    """Ann reveals haunt 49 with the Book of Spells on the Shrine to Bhaal and
    becomes the traitor; the order is Bo, Cy, Ann. Three listed ritual tiles
    lie on the board unless told otherwise."""
    g = revealed(engine, "shrine_to_bhaal", "book_of_spells")
    for i, tid in enumerate(ritual_tiles):
        g.place(tid, "city" if g.c.tiles[tid].kind != "catacomb" else "catacomb", 5 + i, 5)
    assert g.state["haunt"]["number"] == 49 and g.state["haunt"]["traitors"] == ["ann"]
    g.before = dict(g.p("ann")["traits"])
    for pid in g.state["seats"]:
        g.do("ready", pid)
    return g


def placed(engine, **kw):
    g = bhaal(engine, **kw)
    g.decide_all(0)
    return g


def quests(g):
    return sorted(t["tile"] for t in g.state["tokens"] if t["name"] == QUEST)


def h49(g):
    return g.state["haunt"]["h49"]


def test_setup_the_lantern_and_the_ritual_tiles(engine):
    # Traitor's Tome, haunt 49: "Right Now" (traits restored, +1 each, the Lantern on the traitor's card);
    # Secrets of Survival, haunt 49: "Right Now" (a quest token per adventurer on the listed tiles, one per tile)
    g = bhaal(engine)
    pending = g.state["pending"]
    assert pending["player"] == "bo" and pending["kind"] == "place_chosen"
    assert pending["options"] == ["Fountain", "Sacrificial Chamber", "Spy's Roost"]
    g.decide_all(0)
    assert quests(g) == ["fountain", "sacrificial_chamber", "spys_roost"]
    assert h49(g)["holder"] == "ann"
    assert all(g.p("ann")["traits"][t] >= g.before[t] + 1 for t in g.before)


def test_missing_ritual_tiles_are_fetched_where_the_heroes_pick(engine):
    # Secrets of Survival, haunt 49: "Right Now" (too few listed tiles: search a stack, join it to an open door)
    g = bhaal(engine, ritual_tiles=("fountain",))
    pending = g.state["pending"]
    assert pending["player"] == "bo" and pending["kind"] == "h49_fetch"
    assert "Fountain" not in pending["options"] and "Spy's Roost" in pending["options"]
    g.decide_all(0)
    assert len(quests(g)) == 3 and "fountain" in quests(g)


def test_the_ritual_takes_a_quest_token_away_on_5_or_more(engine, dice):
    # Secrets of Survival, haunt 49: "Completing the Ritual" (once per turn, Sanity 5+)
    g = placed(engine)
    g.put("bo", "fountain")
    assert {"type": "task", "player": "bo", "trait": "sanity", "task": "ritual"} in legal_actions(g.c, g.state)
    dice.next(2, 2, 1)
    g.do("task", "bo", trait="sanity", task="ritual")
    assert quests(g) == ["sacrificial_chamber", "spys_roost"]
    g.put("bo", "spys_roost")
    with pytest.raises(IllegalAction, match="already"):
        g.do("task", "bo", trait="sanity", task="ritual")


def test_the_heroes_win_once_the_last_token_is_gone_and_the_traitor_lost_the_lantern(engine, dice):
    # Secrets of Survival, haunt 49: "You Win When..." and "Completing the Ritual"
    g = placed(engine)
    g.state["tokens"] = [t for t in g.state["tokens"] if t["tile"] != "fountain" and t["tile"] != "spys_roost"]
    g.put("bo", "sacrificial_chamber")
    dice.next(2, 2, 2)
    g.do("task", "bo", trait="sanity", task="ritual")
    assert quests(g) == [] and g.state["phase"] == "haunt"  # the traitor still holds the Lantern
    g.do("end", "bo")
    g.put("cy", "elfsong_tavern")
    g.put("ann", "elfsong_tavern")
    might = g.p("ann")["traits"]["might"]
    dice.next(2, 2, 2, 2)                  # Cy's Might beats Ann's zeros by 2 or more
    g.do("attack", "cy", target="ann")
    steal = g.state["pending"]
    assert steal["player"] == "cy" and "Take the Lantern" in steal["options"]
    g.do("decide", "cy", choice=steal["options"].index("Take the Lantern"))
    assert h49(g)["holder"] == "cy" and g.p("ann")["traits"]["might"] == might + 1  # "My Lantern!"
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "heroes"


def test_the_traitor_enchants_a_hero_and_makes_them_attack(engine, dice):
    # Traitor's Tome, haunt 49: "Using the Lantern" (once a turn, the higher of Sanity and 4; an enchanted hero may be
    # made to attack another hero on their tile, with the weapon the traitor picks)
    # Ruling: Haunt 49: the Lantern's enchantment
    g = placed(engine)
    g.do("end", "bo")
    g.do("end", "cy")
    g.put("bo", "elfsong_tavern")
    g.put("cy", "elfsong_tavern")
    g.put("ann", "elfsong_tavern")
    with pytest.raises(IllegalAction, match="Only the traitor"):
        g.state["turn"]["player"] = "bo"
        g.do("task", "bo", trait="sanity", task="enchant", target="cy")
    g.state["turn"]["player"] = "ann"
    assert {"type": "task", "player": "ann", "trait": "sanity", "task": "enchant", "target": "bo"} in \
        legal_actions(g.c, g.state)
    dice.next(2, 2, 2, 2)                  # the Lantern's Sanity roll
    g.do("task", "ann", trait="sanity", task="enchant", target="bo")
    assert h49(g)["enchanted"] == ["bo"]
    pending = g.state["pending"]
    assert pending["player"] == "ann" and pending["options"] == ["No attack", "Attack Cy"]
    dice.next(1)                           # Bo's Might, out of turn: 1 against Cy's zeros
    g.do("decide", "ann", choice=1)
    assert any("Bo, enchanted, attacks Cy" in t for t in g.texts())
    g.decide_all(0)
    with pytest.raises(IllegalAction, match="already attacked"):
        g.do("task", "ann", trait="sanity", task="enchant", target="cy")


def test_an_enchanted_hero_obeys_the_traitor_after_a_failed_roll(engine, dice):
    # Traitor's Tome, haunt 49: "Enchanted Heroes"; Secrets of Survival, haunt 49: "You Must Do This at the Start of
    # Your Turn" (Sanity or Knowledge 4+; failure: 1 mental damage, the traitor says where to move and whom to attack)
    # Ruling: Haunt 49: an enchanted hero's orders
    g = placed(engine)
    h49(g)["enchanted"] = ["cy"]
    g.put("bo", "inner_chamber")
    g.do("end", "bo")
    pending = g.state["pending"]
    assert pending["player"] == "cy" and pending["kind"] == "h49_shake"
    g.do("decide", "cy", choice=1)         # Knowledge; zeros: it fails
    while g.state["pending"]["player"] == "cy":  # how to take the 1 mental damage
        g.do("decide", "cy", choice=0)
    pending = g.state["pending"]
    assert pending["player"] == "ann" and pending["kind"] == "h49_move"
    g.do("decide", "ann", choice=pending["data"]["tiles"].index("inner_chamber"))
    assert g.p("cy")["tile"] == "inner_chamber"
    assert g.state["pending"]["player"] == "ann" and g.state["pending"]["options"] == ["No attack", "Attack Bo"]
    g.do("decide", "ann", choice=0)
    with pytest.raises(IllegalAction):
        g.do("move", "cy", way="west")
    assert g.state["turn"]["attacked"]


def test_an_enchanted_hero_throws_it_off_on_4_or_more(engine, dice):
    # Secrets of Survival, haunt 49: "You Must Do This at the Start of Your Turn"
    g = placed(engine)
    h49(g)["enchanted"] = ["cy"]
    g.do("end", "bo")
    dice.next(2, 2)
    g.do("decide", "cy", choice=0)
    assert h49(g)["enchanted"] == [] and not g.state["pending"]


def test_the_lantern_drops_with_its_dead_holder_and_can_be_picked_up(engine):
    # Secrets of Survival, haunt 49: "Stealing the Lantern" (it counts as an item: the dead drop it)
    g = placed(engine)
    h49(g)["holder"] = "cy"
    g.put("cy", "inner_chamber")
    g.p("cy")["traits"]["sanity"] = 1
    g.put("bo", "inner_chamber")
    from bot.games.babg.engine.ctx import Ctx
    from bot.games.babg.engine.death import die
    ctx = Ctx(g.c, g.state)
    die(ctx, "cy", "test")
    assert h49(g)["holder"] is None and h49(g)["lying"] == "inner_chamber"
    g.do("task", "bo", task="take_lantern")
    assert h49(g)["holder"] == "bo"


def test_killing_the_traitor_wins_once_nobody_is_enchanted(engine, dice):
    # Secrets of Survival, haunt 49: "You Win When..." (the traitor dead and every enchanted hero freed)
    g = placed(engine)
    h49(g)["enchanted"] = ["cy"]
    g.p("ann")["alive"] = False
    g.do("end", "bo")
    assert g.state["phase"] == "haunt" and g.state["pending"]["kind"] == "h49_shake"
    dice.next(2, 2)
    g.do("decide", "cy", choice=0)
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "heroes"


def test_the_lantern_and_the_enchanted_follow_a_seat_handover(engine):
    # A seat handed over to another person keeps the Lantern and the enchantment (Secrets of Survival, haunt 49:
    # "Stealing the Lantern" and "You Must Do This at the Start of Your Turn")
    g = placed(engine)
    h49(g)["holder"] = "cy"
    h49(g)["enchanted"] = ["bo"]
    g.do("handover", "cy", to="zed", name="Zed")
    g.do("handover", "bo", to="yan", name="Yan")
    assert h49(g)["holder"] == "zed" and h49(g)["enchanted"] == ["yan"]


def test_an_undeclared_move_is_refused(engine):
    g = placed(engine)
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", "bo", trait="sanity", task="enchant_all")
