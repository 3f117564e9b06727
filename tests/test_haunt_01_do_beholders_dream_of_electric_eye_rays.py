"""Haunt 1, Do Beholders Dream of Electric Eye Rays?, played through the
engine's actions: the Beholder's hit points, its eye rays at range on two
targets, its dreams spawning Beholderkin, its madness, the heroes' and the
traitor's rolls over the quest tokens, the Beholderkin's removal, Stock Up
and both sides' wins. What the bot carries out is listed at the top of
bot/games/babg/engine/haunts/h01_do_beholders_dream_of_electric_eye_rays.py."""
import pytest

from bot.games.babg.engine import IllegalAction, hooks
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.legal import legal_actions
from tests.test_haunt_play import all_ready, revealed

H = "h01"


def beholders(engine):
    """Ann (lowest Knowledge) is the traitor; the order is Bo, Cy, Ann, the
    monsters. The Beholder starts on the Elfsong Tavern with everyone; the
    Gladiator Pit (catacomb) is the only omen tile."""
    g = revealed(engine, "gladiator_pit", "pipes_of_haunting")
    assert g.state["haunt"]["number"] == 1 and g.state["haunt"]["traitors"] == ["ann"]
    all_ready(g)
    return g


def beholder(g):
    return next(m for m in g.state["monsters"] if m["name"] == "Beholder")


def kin(g):
    return [m for m in g.state["monsters"] if m["name"] == "Beholderkin" and not m["dead"]]


def quests(g):
    return sorted(t["tile"] for t in g.state["tokens"] if t["name"] == "Quest")


def hp(g):
    return g.state["haunt"]["counters"]["Beholder hit points"]


def to_monster_turn(g):
    for pid in ("bo", "cy", "ann"):
        g.do("end", pid)
    assert g.state["turn"].get("monsters")


def test_setup_puts_the_beholder_with_the_traitor_and_sets_its_hit_points(engine):
    # Traitor's Tome, haunt 1: "Right Now" (Beholder on your tile; the slider at twice the adventurers)
    g = revealed(engine, "gladiator_pit", "pipes_of_haunting")
    events = []
    for pid in g.state["seats"]:
        g.do("ready", pid)
        events += g.events
    assert beholder(g)["tile"] == g.p("ann")["tile"]
    assert hp(g) == 6
    assert not kin(g) and not quests(g)  # both set aside
    sleep = [e for e in events if "{move:sleep}" in e["text"]]
    dream = [e for e in events if "{move:dream}" in e["text"]]
    assert sleep and {e["to"] for e in sleep} == {"ann"}  # the traitor's words only to the traitor
    assert dream and {e["to"] for e in dream} == {"bo", "cy"}


def test_the_beholder_attacks_two_targets_even_on_a_connected_tile(engine, dice):
    # Traitor's Tome, haunt 1: "Special Beholder Attack Rules" (own or adjacent connected tile; two targets;
    # never the same twice; the ray's roll picks the trait)
    g = beholders(engine)
    g.put("cy", "inner_chamber")
    to_monster_turn(g)
    dice.next(0, 0)  # ray 0: Disintegration, a Might attack
    dice.next(1)     # the Beholder: 1
    dice.next(0)     # Bo: 0
    g.do("monster", "ann", op="attack", monster="Beholder", target="bo")
    assert any("Disintegration Ray" in t and "Might" in t for t in g.texts())
    g.decide_all(0)
    with pytest.raises(IllegalAction, match="same target twice"):
        g.do("monster", "ann", op="attack", monster="Beholder", target="bo")
    with pytest.raises(IllegalAction, match="ray's roll picks"):
        g.do("monster", "ann", op="attack", monster="Beholder", target="cy", trait="might")
    dice.next(0, 0)
    dice.next(1)
    g.do("monster", "ann", op="attack", monster="Beholder", target="cy")  # the next tile over
    g.decide_all(0)
    with pytest.raises(IllegalAction, match="two targets"):
        g.do("monster", "ann", op="attack", monster="Beholder", target="ann")


def test_the_beholder_reaches_no_farther_than_the_next_tile(engine):
    # Traitor's Tome, haunt 1: "Special Beholder Attack Rules" (its tile or an adjacent connected tile)
    g = beholders(engine)
    g.put("cy", "kitchen")
    to_monster_turn(g)
    with pytest.raises(IllegalAction, match="reach"):
        g.do("monster", "ann", op="attack", monster="Beholder", target="cy")
    with pytest.raises(IllegalAction, match="only the heroes"):
        g.do("monster", "ann", op="attack", monster="Beholder", target="ann")


def test_losing_at_range_costs_the_beholder_nothing_but_on_its_tile_it_does(engine, dice):
    # Traitor's Tome, haunt 1: "Special Beholder Attack Rules" (no damage for a lost attack on another tile);
    # "Damaging the Beholder" (the slider drops; no stun)
    g = beholders(engine)
    g.put("cy", "inner_chamber")
    to_monster_turn(g)
    dice.next(0, 0)
    dice.next(0)
    dice.next(1, 1)  # Cy wins 2 to 0 at range
    g.do("monster", "ann", op="attack", monster="Beholder", target="cy")
    assert hp(g) == 6
    dice.next(0, 0)
    dice.next(0)
    dice.next(1, 1)  # Bo wins 2 to 0 on the Beholder's tile
    g.do("monster", "ann", op="attack", monster="Beholder", target="bo")
    assert hp(g) == 4 and not beholder(g)["stunned"]


def test_the_slowing_ray_caps_the_next_move_at_2(engine, dice):
    # Traitor's Tome, haunt 1: "Special Beholder Attack Rules" (2: Slowing Ray)
    g = beholders(engine)
    g.put("bo", "kitchen")
    g.put("cy", "inner_chamber")
    to_monster_turn(g)
    dice.next(1, 1)  # ray 2: Speed
    dice.next(1)
    dice.next(0)
    g.do("monster", "ann", op="attack", monster="Beholder", target="cy")
    g.decide_all(0)
    assert any(m["kind"] == "move_cap" and m["cap"] == 2 for m in g.p("cy").get("marks", []))
    g.do("end", "ann")
    g.do("end", "bo")
    assert g.state["turn"]["player"] == "cy"
    g.do("move", "cy", way="west")  # 1
    g.p("cy")["tile"] = "inner_chamber"
    g.do("move", "cy", way="east")  # 2
    with pytest.raises(IllegalAction, match="of your 2"):
        g.do("move", "cy", way="west")


def test_the_telekinetic_ray_hurls_the_target_to_the_nearest_opponent(engine, dice):
    # Traitor's Tome, haunt 1: "Special Beholder Attack Rules" (3: Telekinetic Ray)
    # Ruling: Haunt 1 (Do Beholders Dream of Electric Eye Rays?): where the Telekinetic Ray puts its target
    g = beholders(engine)
    g.put("ann", "kitchen")
    to_monster_turn(g)
    dice.next(2, 1)  # ray 3: Knowledge
    dice.next(1)
    dice.next(0)
    g.do("monster", "ann", op="attack", monster="Beholder", target="bo")
    g.decide_all(0)
    assert g.p("bo")["tile"] == "kitchen"  # the traitor's tile


def test_the_enervation_ray_takes_a_die_from_the_next_attack(engine, dice):
    # Traitor's Tome, haunt 1: "Special Beholder Attack Rules" (4: Enervation Ray)
    g = beholders(engine)
    to_monster_turn(g)
    dice.next(2, 2)  # ray 4: Sanity
    dice.next(1)
    dice.next(0)
    g.do("monster", "ann", op="attack", monster="Beholder", target="bo")
    g.decide_all(0)
    assert g.state["haunt"][H]["enervated"] == ["bo"]
    g.do("end", "ann")
    assert g.state["turn"]["player"] == "bo"
    might = g.value("bo", "might")
    g.do("attack", "bo", target="Beholder")
    roll = next(e for e in g.events if e.get("kind") == "roll" and "to attack" in e["text"])
    assert len(roll["faces"]) == might - 1
    assert g.state["haunt"][H]["enervated"] == []


def test_the_beholder_dreams_on_a_free_omen_tile_and_wakes_on_the_traitors_turn(engine, dice):
    # Traitor's Tome, haunt 1: "Beholder Dreaming" and "You Must Do This at the Start of Your Turn"
    # Ruling: Haunt 1: when the Beholder "ends its turn", wakes, and is damaged
    g = beholders(engine)
    beholder(g)["tile"] = "gladiator_pit"
    to_monster_turn(g)
    g.do("end", "ann")
    b = beholder(g)
    assert b["stunned"]
    assert [m["tile"] for m in kin(g)] == ["catacomb_landing"] and kin(g)[0]["stunned"]
    assert quests(g) == ["gladiator_pit"]
    g.do("end", "bo")
    assert beholder(g)["stunned"]  # asleep through the heroes' turns
    g.do("end", "cy")
    assert g.state["turn"]["player"] == "ann" and not beholder(g)["stunned"]  # awake as Ann's turn starts
    g.do("end", "ann")
    g.do("end", "ann")  # the monster turn: the barred tile gives no second dream
    assert len(kin(g)) == 1 and not beholder(g)["stunned"]


def test_the_beholderkin_go_where_the_traitor_picks(engine):
    # Traitor's Tome, haunt 1: "Beholder Dreaming" (an adjacent tile with no Beholderkin)
    # Ruling: Haunt 1: no free tile for a new Beholderkin (the traitor picks among the free ones first)
    g = beholders(engine)
    g.place("sacrificial_chamber", "catacomb", 1, -2, rot=0)  # a second tile joined to the Pit
    beholder(g)["tile"] = "gladiator_pit"
    to_monster_turn(g)
    g.do("end", "ann")
    pending = g.state["pending"]
    assert pending["player"] == "ann" and pending["kind"] == "h01_spawn"
    assert set(pending["options"]) == {"Catacomb Landing", "Sacrificial Chamber"}
    g.do("decide", "ann", choice=pending["options"].index("Sacrificial Chamber"))
    assert [m["tile"] for m in kin(g)] == ["sacrificial_chamber"] and quests(g) == ["gladiator_pit"]


def test_the_traitor_wins_when_the_beholderkin_equal_the_adventurers(engine):
    # Traitor's Tome, haunt 1: "You Win When..." and "Beholder Dreaming"
    g = beholders(engine)
    g.place("sacrificial_chamber", "catacomb", 1, -2, rot=0)
    for tile in ("kitchen", "inner_chamber"):
        g.state["monsters"].append({"id": f"k{tile}", "name": "Beholderkin", "number": 1, "tile": tile,
                                    "traits": {"might": 4, "speed": 3, "knowledge": 4, "sanity": 4},
                                    "stunned": True, "dead": False})
    beholder(g)["tile"] = "gladiator_pit"
    to_monster_turn(g)
    g.do("end", "ann")
    g.decide_all(0)
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "traitor"


def test_a_hero_on_the_beholders_tile_stops_its_dreams(engine, dice):
    # Secrets of Survival, haunt 1: "Stopping the Beholder's Dreams" (instead of attacking; opposed, same trait)
    g = beholders(engine)
    dice.next(1, 1, 1, 1)  # Bo: 4
    dice.next(1, 1, 1, 1)  # the Beholder: 4, a tie holds (Ruling: Haunt 1: a tie when stopping the dreams)
    g.do("task", "bo", trait="knowledge", task="dream")
    assert quests(g) == []
    with pytest.raises(IllegalAction, match="already attacked"):
        g.do("task", "bo", trait="knowledge", task="dream")
    g.do("end", "bo")
    with pytest.raises(IllegalAction, match="knowledge or sanity"):
        g.do("task", "cy", trait="might", task="dream")
    dice.next(2, 2, 2)  # Cy: 6
    dice.next(1)        # the Beholder: 1
    g.do("task", "cy", trait="sanity", task="dream")
    assert quests(g) == ["gladiator_pit"]
    assert any("insane" in e["text"] and e["to"] == "all" for e in g.events)  # the traitor is told
    with pytest.raises(IllegalAction, match="already attacked"):
        g.do("attack", "cy", target="Beholder")


def test_an_insane_beholder_turns_on_the_traitor(engine, dice):
    # Traitor's Tome, haunt 1: "You Must Do This at the Start of the Monster Turn" and "Special Beholder
    # Attack Rules" (insane: the nearest of the traitor and the Beholderkin)
    # Ruling: Haunt 1: an insane Beholder "must attempt" an attack
    g = beholders(engine)
    g.state["tokens"].append({"name": "Quest", "tile": "gladiator_pit"})
    to_monster_turn(g)
    assert g.state["haunt"][H]["insane"]
    with pytest.raises(IllegalAction, match="insane"):
        g.do("monster", "ann", op="attack", monster="Beholder", target="bo")
    dice.next(0, 0)
    dice.next(1)
    dice.next(0)
    g.do("end", "ann")
    assert any("fires its Disintegration Ray at Ann" in e["text"] for e in g.events)


def test_the_traitor_lets_the_beholder_sleep_again(engine, dice):
    # Traitor's Tome, haunt 1: "Allowing the Beholder to Sleep" (on an omen tile, 4+, instead of attacking)
    g = beholders(engine)
    g.do("end", "bo")
    g.do("end", "cy")
    with pytest.raises(IllegalAction, match="still free"):
        g.do("task", "ann", trait="knowledge", task="sleep")
    g.state["tokens"].append({"name": "Quest", "tile": "gladiator_pit"})
    with pytest.raises(IllegalAction, match="omen tile"):
        g.do("task", "ann", trait="knowledge", task="sleep")
    g.put("ann", "gladiator_pit")
    dice.next(2, 2)  # 4
    g.do("task", "ann", trait="sanity", task="sleep")
    assert quests(g) == []


def test_a_beholderkin_beaten_by_2_is_removed_and_the_hero_stocks_up(engine, dice):
    # Secrets of Survival, haunt 1: "Special Attack Rules" and "Stock Up"
    g = beholders(engine)
    g.state["monsters"].append({"id": "m9", "name": "Beholderkin", "number": 1, "tile": "elfsong_tavern",
                                "traits": {"might": 4, "speed": 3, "knowledge": 4, "sanity": 4},
                                "stunned": False, "dead": False})
    top = g.state["decks"]["item"][:3]
    dice.next(2, 2)  # Bo: 4
    dice.next(1)     # the Beholderkin: 1
    g.do("attack", "bo", target="m9")
    assert not kin(g)
    assert g.state["pending"]["kind"] == "h01_stock" and g.state["pending"]["player"] == "bo"
    g.do("decide", "bo", choice=1)  # look at 3
    g.do("decide", "bo", choice=2)  # keep the third
    g.do("decide", "bo", choice=1)  # the second of the others goes down first
    assert top[2] in g.p("bo")["cards"]
    assert g.state["decks"]["item"][-2:] == [top[1], top[0]]


def test_a_beholderkin_beaten_by_1_is_only_stunned(engine, dice):
    # Secrets of Survival, haunt 1: "Special Attack Rules"
    g = beholders(engine)
    g.state["monsters"].append({"id": "m9", "name": "Beholderkin", "number": 1, "tile": "elfsong_tavern",
                                "traits": {"might": 4, "speed": 3, "knowledge": 4, "sanity": 4},
                                "stunned": False, "dead": False})
    dice.next(1, 1)  # Bo: 2
    dice.next(1)     # 1
    g.do("attack", "bo", target="m9")
    assert kin(g) and kin(g)[0]["stunned"] and not g.state["pending"]


def test_the_heroes_win_when_the_beholder_and_its_brood_are_gone(engine, dice):
    # Secrets of Survival, haunt 1: "You Win When..."; Traitor's Tome: "Damaging the Beholder" (dead at 0)
    g = beholders(engine)
    g.state["haunt"]["counters"]["Beholder hit points"] = 2
    g.state["monsters"].append({"id": "m9", "name": "Beholderkin", "number": 1, "tile": "kitchen",
                                "traits": {"might": 4, "speed": 3, "knowledge": 4, "sanity": 4},
                                "stunned": False, "dead": False})
    dice.next(1, 1, 1)
    dice.next(0)
    g.do("attack", "bo", target="Beholder")
    assert beholder(g)["dead"] and g.state["phase"] == "haunt"  # a Beholderkin is left
    g.do("end", "bo")
    g.put("cy", "kitchen")
    dice.next(2, 2)
    dice.next(0)
    g.do("attack", "cy", target="m9")
    g.decide_all(0)
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "heroes"


def test_the_beholder_acts_before_the_beholderkin(engine, dice):
    # Traitor's Tome, haunt 1: "Beholder" (the Beholder acts first, then the Beholderkin)
    g = beholders(engine)
    g.state["monsters"].append({"id": "m9", "name": "Beholderkin", "number": 1, "tile": "elfsong_tavern",
                                "traits": {"might": 4, "speed": 3, "knowledge": 4, "sanity": 4},
                                "stunned": False, "dead": False})
    to_monster_turn(g)
    g.do("monster", "ann", op="move", monster="m9", way="west")
    with pytest.raises(IllegalAction, match="acts before"):
        g.do("monster", "ann", op="attack", monster="Beholder", target="bo")


def test_protection_declined_leaves_the_damage_to_the_hit_points(engine, dice):
    # Traitor's Tome, haunt 1: "Damaging the Beholder"; Power: Protection (Aldan, the traitor when in play)
    g = revealed(engine, "gladiator_pit", "pipes_of_haunting", advs=("aldan", "lia", "gretchen"), revealer="bo")
    all_ready(g)
    g.state["turn"] = {**g.state["turn"], "player": "bo"}
    dice.next(2, 2)  # Lia: 4
    dice.next(0)     # the Beholder: 0
    g.do("attack", "bo", target="Beholder")
    assert g.state["pending"]["player"] == "ann"
    g.do("decide", "ann", choice="Let it be")
    assert hp(g) == 2 and not beholder(g)["stunned"]


def test_with_the_traitor_dead_the_beholder_wakes_for_the_monster_turn(engine):
    # Traitor's Tome, haunt 1: "You Must Do This at the Start of Your Turn"
    # Ruling: Haunt 1: when the Beholder "ends its turn", wakes, and is damaged (no traitor's turn: it wakes here)
    g = beholders(engine)
    beholder(g)["tile"] = "gladiator_pit"
    to_monster_turn(g)
    g.do("end", "ann")
    assert beholder(g)["stunned"]
    g.p("ann")["alive"] = False
    g.do("end", "bo")
    g.do("end", "cy")
    assert g.state["turn"].get("monsters") and not beholder(g)["stunned"]
    assert "Beholder" in g.state["turn"]["moves"]  # it rolls and acts this monster turn


def test_the_haunts_actions_are_offered_while_they_are_open(engine, dice):
    # Secrets of Survival, haunt 1: "Stopping the Beholder's Dreams" (a hero on its tile, instead of attacking,
    # while an omen tile is free); Traitor's Tome, haunt 1: "Allowing the Beholder to Sleep" (the traitor on an
    # omen tile once every omen tile is barred): the buttons offer exactly what the engine allows
    def offered():
        return {(a["trait"], a["task"]) for a in legal_actions(engine.content, g.state) if a["type"] == "task"}

    def goals(pid):
        return set().union(*hooks.fire("haunt_goals", Ctx(engine.content, g.state), pid))

    def its_goals():
        return set().union(*hooks.fire("monster_goals", Ctx(engine.content, g.state), beholder(g)))

    g = beholders(engine)
    assert offered() == {("knowledge", "dream"), ("sanity", "dream")}  # Bo is on the Beholder's tile
    assert goals("bo") == {beholder(g)["tile"]} and goals("ann") == set()
    assert its_goals() == {"gladiator_pit"}                             # "Beholder Dreaming": a free omen tile
    g.put("bo", "gladiator_pit")
    assert offered() == set()                                           # off its tile
    g.put("bo", beholder(g)["tile"])
    dice.next(2, 2, 2)
    dice.next(0)
    g.do("task", "bo", trait="knowledge", task="dream")
    assert quests(g) == ["gladiator_pit"] and offered() == set()         # instead of the attack: once a turn
    assert goals("ann") == {"gladiator_pit"} and its_goals() == set()
    g.do("end", "bo")
    g.do("end", "cy")
    assert offered() == set()                                           # Ann is not on an omen tile
    g.put("ann", "gladiator_pit")
    assert offered() == {("knowledge", "sleep"), ("sanity", "sleep")}


def test_only_the_declared_moves_are_accepted(engine):
    # the haunt's moves are declared (dream, sleep): any other name is refused, and so are the other side's
    g = beholders(engine)
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", "bo", trait="knowledge", task="stare")
    with pytest.raises(IllegalAction, match="traitor"):
        g.do("task", "bo", trait="knowledge", task="sleep")


def test_no_setup_step_is_left_to_do_by_hand(engine):
    # Traitor's Tome, haunt 1: "Right Now": every step is carried out by the bot or needs no doing
    g = revealed(engine, "gladiator_pit", "pipes_of_haunting")
    events = list(g.events)
    for pid in g.state["seats"]:
        events += g.do("ready", pid)
    assert not [e for e in events if e["kind"] == "by_hand"]
