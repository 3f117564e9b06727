"""Haunt 48, Demon Slayers (no traitor), played through the engine's
actions: the Cultists' placement, the Ritual slider, disrupting the ritual,
the Demon's arrival with its power and hit points, the monster turn the bot
runs (the Cultists' distance attacks, the Demon's hunt) and both ends."""
import pytest

from bot.games.babg.engine import IllegalAction
from tests.test_haunt_play import revealed

RITUAL, HP = "Ritual", "Demon hit points"


def slayers(engine, layout=True):
    """Ann draws the Cursed Armor on the Cursed Statue: haunt 48. Event
    tiles: the Hall of Wonders next to the Statue, the Smithy and Felogyr's
    Fireworks 3 tiles away (north and south of the Kitchen). Bo plays first,
    then Cy, Ann, and the monster turn."""
    g = revealed(engine, "cursed_statue", "cursed_armor")
    if layout:
        g.place("hall_of_wonders", "city", 2, -1)
        g.place("smithy", "city", 0, -1)
        g.place("felogyrs_fireworks", "city", 0, 1)
    assert g.state["haunt"]["number"] == 48 and g.state["haunt"]["kind"] == "no_traitor"
    for pid in g.state["seats"]:
        g.do("ready", pid)
    return g


def monsters(g, name):
    return [m for m in g.state["monsters"] if m["name"] == name and not m["dead"]]


def counters(g):
    return g.state["haunt"]["counters"]


def test_cultists_go_on_the_statue_and_the_nearest_event_tiles(engine):
    # Secrets of Survival, haunt 48: "Right Now" (1 on the Cursed Statue, the others 1 per tile on the nearest event
    # tiles; the revealer's left plays first)
    g = slayers(engine)
    pending = g.state["pending"]
    assert pending["player"] == "ann" and pending["kind"] == "h48_cultist"
    assert pending["options"] == ["Felogyr's Fireworks", "Smithy"]  # equally near: the heroes pick
    g.do("decide", "ann", choice=1)
    assert sorted(m["tile"] for m in monsters(g, "Cultist")) == ["cursed_statue", "hall_of_wonders", "smithy"]
    assert g.state["turn"]["player"] == "bo" and counters(g)[RITUAL] == 1


def test_without_event_tiles_the_cultists_stay_on_the_statue(engine):
    # Secrets of Survival, haunt 48: "Right Now" (event tiles run out: the rest on the Cursed Statue)
    g = slayers(engine, layout=False)
    assert [m["tile"] for m in monsters(g, "Cultist")] == ["cursed_statue"] * 3


def test_the_ritual_rises_at_the_start_of_each_heros_turn(engine):
    # Secrets of Survival, haunt 48: "You Must Do This at the Start of Each Hero's Turn"
    g = slayers(engine, layout=False)
    g.do("end", "bo")
    assert counters(g)[RITUAL] == 2
    g.do("end", "cy")
    g.do("end", "ann")               # the monster turn follows the revealer's: no rise
    assert g.state["turn"].get("monsters") and counters(g)[RITUAL] == 3


def test_disrupting_on_the_statue_puts_a_quest_token_and_ends_the_turn(engine, dice):
    # Secrets of Survival, haunt 48: "Disrupting the Ritual" (instead of attacking; ends the turn; 5+ a quest token)
    g = slayers(engine, layout=False)
    with pytest.raises(IllegalAction, match="Cursed Statue"):
        g.do("task", "bo", trait="knowledge", task="disrupt")
    g.put("bo", "cursed_statue")
    dice.next(2, 2, 1)
    g.do("task", "bo", trait="knowledge", task="disrupt")
    assert [t for t in g.state["tokens"] if t["name"] == "Disruption"] == [{"name": "Disruption",
                                                                             "tile": "cursed_statue"}]
    assert g.state["turn"]["player"] == "cy"
    g.put("cy", "cursed_statue")
    g.do("task", "cy", trait="knowledge", task="disrupt")  # zeros: no token, the turn still ends
    assert len([t for t in g.state["tokens"] if t["name"] == "Disruption"]) == 1
    assert g.state["turn"]["player"] == "ann"


def test_no_disrupting_after_an_attack(engine, dice):
    # Secrets of Survival, haunt 48: "Disrupting the Ritual" ("Instead of attacking")
    g = slayers(engine, layout=False)
    g.put("bo", "cursed_statue")
    dice.next(2, 2, 2)
    g.do("attack", "bo", target=monsters(g, "Cultist")[0]["id"])
    with pytest.raises(IllegalAction, match="already attacked"):
        g.do("task", "bo", trait="knowledge", task="disrupt")


def test_the_ritual_completes_at_8_and_the_demon_appears(engine):
    # Secrets of Survival, haunt 48, part two: "Right Now" (the slider drops by the quest tokens; hit points = tokens
    # + 1; tokens removed; the Demon on the Cursed Statue; the active hero finishes the turn); "Demon"
    # Ruling: Haunt 48: disrupting after the Demon has come
    g = slayers(engine, layout=False)
    for _ in range(2):
        g.state["tokens"].append({"name": "Disruption", "tile": "cursed_statue"})
    counters(g)[RITUAL] = 7
    g.do("end", "bo")
    assert g.state["turn"]["player"] == "cy"
    assert counters(g)[RITUAL] == 6 and counters(g)[HP] == 3
    demon = monsters(g, "Demon")[0]
    assert demon["tile"] == "cursed_statue" and demon["traits"] == dict.fromkeys(
        ("might", "speed", "knowledge", "sanity"), 6)
    assert not [t for t in g.state["tokens"] if t["name"] == "Disruption"]
    assert "heroes" in g.state["haunt"]["part_two"]
    assert any("ritual is complete" in t for t in g.texts())
    g.put("cy", "cursed_statue")
    with pytest.raises(IllegalAction, match="already complete"):
        g.do("task", "cy", trait="knowledge", task="disrupt")
    g.do("end", "cy")
    assert counters(g)[RITUAL] == 6  # no more rising once it is complete


def demon_ready(engine, hp=2):
    g = slayers(engine, layout=False)
    for _ in range(hp - 1):
        g.state["tokens"].append({"name": "Disruption", "tile": "cursed_statue"})
    counters(g)[RITUAL] = 7
    g.do("end", "bo")
    return g


def test_any_damage_to_the_demon_costs_it_1_hit_point_and_0_wins(engine, dice):
    # Secrets of Survival, haunt 48: "Special Demon Rules" and "You Win When..."
    g = demon_ready(engine, hp=2)
    demon = monsters(g, "Demon")[0]
    demon["traits"] = dict.fromkeys(demon["traits"], 1)
    g.put("cy", "cursed_statue")
    dice.next(2, 2, 2, 2)  # Cy's Might: 8 against 0
    g.do("attack", "cy", target=demon["id"])
    assert counters(g)[HP] == 1 and not demon["stunned"]
    g.do("end", "cy")
    g.put("ann", "cursed_statue")
    dice.next(1)
    g.do("attack", "ann", target=demon["id"])
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "heroes"


def test_cultists_close_in_and_attack_from_a_distance(engine, dice):
    # Secrets of Survival, haunt 48: "Special Cultist Rules" (to 1 connected tile from the nearest hero; a Knowledge
    # distance attack; no damage to a Cultist losing from another tile)
    # Ruling: Haunt 48: how the Cultists and the Demon move
    g = slayers(engine, layout=False)
    for m in monsters(g, "Cultist")[1:]:
        m["dead"] = True
    cultist = monsters(g, "Cultist")[0]
    for pid in ("bo", "cy", "ann"):
        g.put(pid, "kitchen")
    g.do("end", "bo")
    g.do("end", "cy")
    dice.next(1, 1)                       # the Cultists' Speed roll: 2
    dice.next(0)                          # Cultist 1's Knowledge: 0
    dice.next(2, 2, 2, 2)                 # the hero's Knowledge defence wins
    g.do("end", "ann")
    cultist = monsters(g, "Cultist")[0]
    assert cultist["tile"] == "inner_chamber"  # 1 tile from the heroes in the Kitchen
    assert any("attacks" in t and "from a distance" in t for t in g.texts())
    assert not cultist["stunned"] and any("takes no damage" in t for t in g.texts())
    assert g.state["turn"]["player"] == "bo"  # the monster turn ended by itself


def test_the_demon_hunts_the_nearest_hero_then_the_next(engine, dice):
    # Secrets of Survival, haunt 48: "Special Demon Rules" (shortest way; a Might attack on one hero on its tile; on to
    # the next nearest hero while it has movement)
    g = demon_ready(engine, hp=1)
    for m in monsters(g, "Cultist"):
        m["dead"] = True
    g.put("cy", "inner_chamber")
    g.put("ann", "elfsong_tavern")
    g.put("bo", "kitchen_basement")
    g.do("end", "cy")
    dice.next(1, 1, 1)                    # the Demon's Speed roll: 3
    events = list(g.do("end", "ann"))
    while g.state["pending"]:
        events += g.do("decide", g.state["pending"]["player"], choice=0)
    attacks = [e["text"] for e in events if "The Demon attacks" in e["text"]]
    assert attacks[:2] == ["The Demon attacks Cy with Might.", "The Demon attacks Ann with Might."]
    assert monsters(g, "Demon")[0]["tile"] == "elfsong_tavern"


def test_the_heroes_lose_when_every_hero_is_dead(engine):
    # Secrets of Survival, haunt 48, part two: "If You Lose..."; Rulebook: Winning the Game
    g = slayers(engine, layout=False)
    for pid in ("cy", "ann"):
        g.p(pid)["alive"] = False
    g.p("bo")["alive"] = False
    g.do("end", "bo") if g.state["phase"] == "haunt" else None
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "traitor"


def test_an_undeclared_move_is_refused(engine):
    g = slayers(engine, layout=False)
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", "bo", trait="knowledge", task="pray")
