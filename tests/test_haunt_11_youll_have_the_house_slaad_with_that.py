"""Haunt 11, You'll Have the House Slaad with That, played through the engine
(Traitor's Tome and Secrets of Survival, haunt 11). Ann (Torskar, the lowest
Sanity) reveals the haunt on the Gladiator Pit and is the traitor: the Death
Slaad. Bo (Lia) and Cy (Gretchen) are the heroes, both hosts."""
import pytest

from bot.games.babg.engine import IllegalAction, haunt_play, hooks
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.legal import legal_actions
from tests.test_haunt_play import revealed

SHOPS = ("arcane_retreat", "sorcerous_sundries", "warehouse")


def slaad_game(engine, cards=None, where=0):
    g = revealed(engine, "gladiator_pit", "dimensional_shackles")
    assert g.state["haunt"]["number"] == 11 and g.state["haunt"]["traitors"] == ["ann"]
    for pid, held in (cards or {}).items():
        for card in held:
            g.give(pid, card)
    for pid in g.state["seats"]:
        g.do("ready", pid)
    g.setup_events = list(g.events)
    while g.state["pending"] and g.state["pending"]["kind"] == "fetch_tile":
        g.setup_events.append(dict(g.state["pending"]))
        g.do("decide", g.state["pending"]["player"], choice=where)
        g.setup_events += g.events
    return g


def slaad(g):
    return next(m for m in g.state["monsters"] if m["name"] == "Death Slaad")


def tadpoles(g):
    return [m for m in g.state["monsters"] if m["name"] == "Slaad Tadpole" and not m["dead"]]


def h11(g):
    return g.state["haunt"]["h11"]


def counters(g):
    return g.state["haunt"]["counters"]


def to_slaad_turn(g):
    for _ in range(8):
        if g.state["turn"].get("h11_slaad"):
            return
        g.do("end", g.state["turn"]["player"])
        g.decide_all(0)
    raise AssertionError("no Death Slaad turn")


def test_setup_the_death_slaad_takes_the_traitors_place(engine):
    # Traitor's Tome, haunt 11: "Right Now" (the Death Slaad token replaces the figure; items dropped; one Fireball
    # token per hero); "Death Slaad" (Might 6, Speed 3, Knowledge 6, Sanity 4)
    # Ruling: haunt 11: the traitor plays on as the Death Slaad; only item cards drop
    g = slaad_game(engine, cards={"ann": ["crossbow", "eye_of_vecna"]})
    m = slaad(g)
    assert m["tile"] == "elfsong_tavern"
    assert m["traits"] == {"might": 6, "speed": 3, "knowledge": 6, "sanity": 4}
    ann = g.p("ann")
    assert ann["alive"] and any(x["kind"] == "away" for x in ann["marks"])  # the figure is off, the player plays on
    assert "crossbow" not in ann["cards"] and "crossbow" in g.state["piles"]["elfsong_tavern"]
    assert "eye_of_vecna" in ann["cards"]
    assert counters(g)["Fireball spells"] == 2
    assert not any("by hand" in e["text"] for e in g.setup_events if "text" in e)


def test_setup_hosts_scroll_piles_and_the_three_shops(engine):
    # Secrets of Survival, haunt 11: "Right Now" (a Slaad Tadpole on each hero's card; the Arcane Retreat, Sorcerous
    # Sundries and Warehouse fetched, building tiles onto street doors when no building door is open; a Cure
    # Disease and a Banishment Scroll per hero in the pile)
    g = slaad_game(engine)
    assert h11(g)["hosts"] == ["bo", "cy"]
    assert counters(g)["Cure Disease Scrolls"] == 2 and counters(g)["Banishment Scrolls"] == 2
    asked = [e for e in g.setup_events if e.get("kind") == "fetch_tile"]
    assert [e["player"] for e in asked] == ["bo", "bo", "bo"]  # the heroes' chooser, not the traitor
    assert "The Gladiator Pit's north door" in asked[0]["options"]
    assert all("Elfsong Tavern" in o or "Kitchen" in o or "Inner Chamber" in o for o in asked[1]["options"])
    for tile in SHOPS:
        assert tile in g.state["board"]
        assert all(tile not in stack for stack in g.state["stacks"].values())
    assert g.c.tiles["sorcerous_sundries"].kind == "building"
    assert g.state["turn"]["player"] == "bo"


def test_the_setup_words_go_to_each_side_only(engine):
    # Rulebook: Haunt Setup (each side reads its own book)
    g = slaad_game(engine)
    fireball = [e["to"] for e in g.setup_events if "{move:fireball}" in e.get("text", "")]
    scrolls = [e["to"] for e in g.setup_events if "{move:scroll}" in e.get("text", "")]
    assert fireball == ["ann"]
    assert sorted(scrolls) == ["bo", "cy"]
    speech = [e for e in g.setup_events if "croaks" in e.get("text", "")]
    assert speech and speech[0]["to"] == "all"  # Traitor's Tome, haunt 11: "Right Now" (read the speech aloud)


def test_turn_order_heroes_then_the_death_slaad_then_the_tadpoles(engine):
    # Rulebook: Playing the Haunt; Traitor's Tome, haunt 11: "Right Now" (the Death Slaad is the traitor's figure)
    # Ruling: haunt 11: the Death Slaad acts in the traitor's turn, moving up to its Speed with no roll
    g = slaad_game(engine)
    h11(g)["hosts"] = []  # no host rolls in the way
    seen = []
    for _ in range(4):
        turn = g.state["turn"]
        seen.append("slaad" if turn.get("h11_slaad") else "monsters" if turn.get("monsters") else turn["player"])
        g.do("end", turn["player"])
        g.decide_all(0)
    assert seen == ["bo", "cy", "slaad", "bo"]  # no tadpole on the board: no monster turn
    to_slaad_turn(g)
    assert g.state["turn"]["moves"] == {"Death Slaad": 3}
    assert not any(e["kind"] == "roll" for e in g.events)
    g.do("monster", "ann", op="move", monster="Death Slaad", way="west")
    assert slaad(g)["tile"] == "inner_chamber"


def test_tadpoles_act_in_the_monster_turn_not_the_death_slaads(engine, dice):
    # Rulebook: How Monsters Work; Traitor's Tome, haunt 11: "Special Slaad Tadpole Rules"
    g = slaad_game(engine)
    h11(g)["hosts"] = []
    g.do("end", "bo")
    g.do("end", "cy")
    haunt_play.add_monster(Ctx(g.c, g.state), "Slaad Tadpole", "kitchen")
    with pytest.raises(IllegalAction, match="monster turn"):
        g.do("monster", "ann", op="move", monster="Slaad Tadpole", way="east")
    g.do("end", "ann")
    assert g.state["turn"].get("monsters") and not g.state["turn"].get("h11_slaad")
    assert "Death Slaad" not in g.state["turn"]["moves"]
    with pytest.raises(IllegalAction, match="traitor's turn"):
        g.do("monster", "ann", op="move", monster="Death Slaad", way="west")
    g.do("monster", "ann", op="move", monster="Slaad Tadpole", way="east")


def test_a_host_fails_the_might_roll_and_is_gnawed(engine, dice):
    # Secrets of Survival, haunt 11: "You Must Do This at the End of Your Turn" (Might 3+, or 1 Might, 1 Speed and
    # 1 Sanity damage)
    g = slaad_game(engine)
    before = dict(g.p("bo")["traits"])
    g.do("end", "bo")                       # Bo's Might roll: 0
    after = g.p("bo")["traits"]
    assert {t: before[t] - after[t] for t in before} == {"might": 1, "speed": 1, "knowledge": 0, "sanity": 1}
    dice.next(2, 1, 0)                      # Cy's Might roll: 3
    before = dict(g.p("cy")["traits"])
    g.do("end", "cy")
    assert g.p("cy")["traits"] == before


def test_a_dead_host_lets_a_tadpole_loose_which_dies_when_defeated(engine, dice):
    # Secrets of Survival, haunt 11: "When a Hero Dies" and "You Must Do This at the End of Your Turn" (the tadpole
    # bursts out); Traitor's Tome, haunt 11: "Special Slaad Tadpole Rules" (killed, not stunned)
    g = slaad_game(engine)
    g.p("bo")["traits"]["speed"] = 1       # one step above the skull
    g.put("bo", "kitchen")
    g.do("end", "bo")                       # the failed Might roll kills Bo
    g.decide_all(0)
    assert not g.p("bo")["alive"]
    t = tadpoles(g)
    assert len(t) == 1 and t[0]["tile"] == "kitchen"
    assert t[0]["traits"] == {"might": 2, "speed": 3, "knowledge": 1, "sanity": 1}
    assert "bo" not in h11(g)["hosts"]
    g.put("cy", "kitchen")
    dice.next(2, 2, 2)                      # Cy's Might attack: 6 against the tadpole's 0
    g.do("attack", "cy", target="Slaad Tadpole")
    assert not tadpoles(g) and all(m["dead"] for m in g.state["monsters"] if m["name"] == "Slaad Tadpole")


def test_fireball_strikes_a_tile_within_one_space_and_misses_cost_nothing(engine, dice):
    # Traitor's Tome, haunt 11: "Special Death Slaad Rules" (Fireball: a token, own tile or 1 space away, 5 dice
    # against each adventurer there, who defend with Speed; no damage for losing to those on another tile)
    g = slaad_game(engine)
    h11(g)["hosts"] = []
    g.put("bo", "inner_chamber")
    g.put("cy", "inner_chamber")
    to_slaad_turn(g)
    dice.next(1, 1, 0, 0, 0)                # the Fireball at Bo: 2
    dice.next(0, 0, 0)                      # Bo (Speed) defends: 0
    dice.next(0)                            # the Fireball at Cy: 0
    dice.next(2, 2, 2, 2)                   # Cy (Speed) defends: 8
    cy_before = dict(g.p("cy")["traits"])
    g.do("task", "ann", task="fireball", tile="inner_chamber")
    assert any(e["kind"] == "damage" and e.get("player") == "bo" and e.get("amount") == 2 for e in g.events)
    g.decide_all(0)
    assert counters(g)["Fireball spells"] == 1 and g.p("bo")["alive"]
    assert g.p("cy")["traits"] == cy_before
    assert not slaad(g)["stunned"]          # losing to Cy on another tile costs nothing
    with pytest.raises(IllegalAction, match="already attacked"):
        g.do("task", "ann", task="fireball", tile="inner_chamber")


def test_fireball_needs_a_token_and_someone_in_reach(engine):
    # Traitor's Tome, haunt 11: "Right Now" and "Special Death Slaad Rules"
    g = slaad_game(engine)
    h11(g)["hosts"] = []
    g.put("bo", "kitchen_basement")
    g.put("cy", "kitchen_basement")
    with pytest.raises(IllegalAction, match="monster turn"):
        g.do("task", "bo", task="fireball", tile="kitchen_basement")
    to_slaad_turn(g)
    with pytest.raises(IllegalAction, match="No adventurer"):
        g.do("task", "ann", task="fireball", tile="kitchen_basement")
    counters(g)["Fireball spells"] = 0
    g.put("bo", "elfsong_tavern")
    with pytest.raises(IllegalAction, match="No Fireball"):
        g.do("task", "ann", task="fireball", tile="elfsong_tavern")


def test_finding_spell_scrolls(engine, dice):
    # Secrets of Survival, haunt 11: "How to Acquire a Spell Scroll" (once per turn on the three tiles; 3+ a Cure
    # Disease Scroll, 5+ either; 1 of each carried)
    g = slaad_game(engine)
    with pytest.raises(IllegalAction, match="only on the Arcane Retreat"):
        g.do("task", "bo", trait="speed", task="scroll")
    g.put("bo", "warehouse")
    dice.next(2, 2, 1)                      # Speed: 5
    g.do("task", "bo", trait="speed", task="scroll")
    assert g.state["pending"]["options"] == ["A Cure Disease Scroll", "A Banishment Scroll"]
    g.do("decide", "bo", choice=1)
    assert h11(g)["banish"] == ["bo"] and counters(g)["Banishment Scrolls"] == 1
    with pytest.raises(IllegalAction, match="already tried"):
        g.do("task", "bo", trait="speed", task="scroll")
    g.do("end", "bo")
    g.put("cy", "arcane_retreat")
    dice.next(2, 1, 0, 0)                   # Speed: 3
    g.do("task", "cy", trait="speed", task="scroll")
    assert h11(g)["cure"] == ["cy"] and counters(g)["Cure Disease Scrolls"] == 1
    assert not g.state["pending"]


def test_cure_disease_cures_a_host_or_destroys_a_tadpole(engine, dice):
    # Secrets of Survival, haunt 11: "Killing Tadpoles with the Cure Disease Scroll" (once per turn; yourself or
    # another hero on your tile, or a Slaad Tadpole there; the scroll is spent)
    g = slaad_game(engine)
    h11(g)["cure"] = ["bo"]
    g.do("task", "bo", task="cure")
    assert g.state["pending"]["options"] == ["Cure Bo", "Cure Cy"]
    g.do("decide", "bo", choice=1)
    assert h11(g)["hosts"] == ["bo"] and h11(g)["cure"] == []
    h11(g)["cure"] = ["bo"]
    with pytest.raises(IllegalAction, match="already tried"):
        g.do("task", "bo", task="cure")
    g.do("end", "bo")
    g.decide_all(0)
    haunt_play.add_monster(Ctx(g.c, g.state), "Slaad Tadpole", "kitchen")
    g.put("cy", "kitchen")
    h11(g)["cure"] = ["cy"]
    g.do("task", "cy", task="cure")   # only the tadpole there: no question
    assert not tadpoles(g)


def test_banishment_beats_the_death_slaad_or_takes_a_stunned_one_at_once(engine, dice):
    # Secrets of Survival, haunt 11: "Killing the Death Slaad with the Banishment Scroll" (a Sanity attack in place of
    # an attack, the Slaad defends with Sanity; automatic against a stunned Slaad; beaten, it is destroyed)
    g = slaad_game(engine)
    h11(g)["banish"] = ["bo", "cy"]
    dice.next(0)                            # Bo's Sanity: 0
    dice.next(1)                            # the Slaad's Sanity: 1
    g.do("task", "bo", trait="sanity", task="banish")
    g.decide_all(0)
    assert not slaad(g)["dead"] and h11(g)["banish"] == ["cy"]
    h11(g)["banish"] = ["bo", "cy"]
    with pytest.raises(IllegalAction, match="already attacked"):
        g.do("task", "bo", trait="sanity", task="banish")
    h11(g)["banish"] = ["cy"]
    g.do("end", "bo")
    g.decide_all(0)
    slaad(g)["stunned"] = True
    g.do("task", "cy", trait="sanity", task="banish")
    assert slaad(g)["dead"]
    assert not any(e["kind"] == "roll" and "Sanity to attack" in e["text"] for e in g.events)


def test_a_banishment_attack_that_wins_destroys_it(engine, dice):
    # Secrets of Survival, haunt 11: "Killing the Death Slaad with the Banishment Scroll"
    g = slaad_game(engine)
    h11(g)["banish"] = ["bo"]
    dice.next(2, 2, 2, 2, 2)                # Bo's Sanity: 10
    dice.next(0, 0, 0, 0)                   # the Slaad's Sanity: 0
    g.do("task", "bo", trait="sanity", task="banish")
    assert slaad(g)["dead"]


def test_the_death_slaad_is_stunned_then_defends_with_half_and_falls(engine, dice):
    # Secrets of Survival, haunt 11: "Killing the Death Slaad Normally" (stunned, it defends with half its dice,
    # rounded down; beaten while stunned it dies)
    g = slaad_game(engine)
    h11(g)["hosts"] = []
    dice.next(2, 2, 2)                      # Bo's Might: 6
    g.do("attack", "bo", target="Death Slaad")
    assert slaad(g)["stunned"] and not slaad(g)["dead"]
    g.do("end", "bo")
    dice.next(2, 2, 2)                      # Cy's Might: 6
    g.do("attack", "cy", target="Death Slaad")
    defence = [e for e in g.events if e["kind"] == "roll" and "to defend" in e["text"]]
    assert "(3 dice)" in defence[0]["text"]  # half of Might 6
    assert slaad(g)["dead"]


def test_a_stunned_death_slaad_misses_its_turn_and_recovers(engine, dice):
    # Rulebook: How Monsters Work (a stunned monster misses its next turn); Traitor's Tome, haunt 11: "Right Now"
    g = slaad_game(engine)
    h11(g)["hosts"] = []
    dice.next(2, 2, 2)
    g.do("attack", "bo", target="Death Slaad")
    to_slaad_turn(g)
    with pytest.raises(IllegalAction, match="stunned"):
        g.do("monster", "ann", op="move", monster="Death Slaad", way="west")
    g.do("end", "ann")
    assert not slaad(g)["stunned"]


def test_tadpoles_grow_stronger_once_the_death_slaad_is_gone(engine, dice):
    # Traitor's Tome, haunt 11: "Special Slaad Tadpole Rules" and "Slaad Tadpole (Without Death Slaad in Play)"
    g = slaad_game(engine)
    haunt_play.add_monster(Ctx(g.c, g.state), "Slaad Tadpole", "kitchen")
    slaad(g)["stunned"] = True
    h11(g)["banish"] = ["bo"]
    g.do("task", "bo", trait="sanity", task="banish")
    assert tadpoles(g)[0]["traits"] == {"might": 4, "speed": 3, "knowledge": 4, "sanity": 2}
    assert g.state["phase"] == "haunt"      # a tadpole and two hosts remain


def test_the_heroes_win_when_slaad_tadpoles_and_hosts_are_all_gone(engine, dice):
    # Secrets of Survival, haunt 11: "You Win When..."
    g = slaad_game(engine)
    h11(g)["hosts"] = ["bo"]
    slaad(g)["stunned"] = True
    h11(g)["banish"] = ["bo"]
    g.do("task", "bo", trait="sanity", task="banish")
    assert g.state["phase"] == "haunt"      # Bo is still a host
    h11(g)["cure"] = ["bo"]
    g.do("task", "bo", task="cure")
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "heroes"


def test_the_traitor_wins_when_every_hero_is_dead(engine, dice):
    # Traitor's Tome, haunt 11: "You Win When..."
    g = slaad_game(engine)
    g.p("cy")["alive"] = False
    h11(g)["hosts"] = []
    g.p("bo")["traits"]["might"] = 1
    to_slaad_turn(g)
    dice.next(2, 2, 2, 2, 2, 2)             # the Slaad's Might: 12
    g.do("monster", "ann", op="attack", monster="Death Slaad", target="bo")
    g.decide_all(0)
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "traitor"


def test_the_haunts_actions_are_offered_while_they_are_open(engine, dice):
    # Secrets of Survival, haunt 11: "How to Acquire a Spell Scroll" (on the three shops, once a turn), "Killing
    # Tadpoles with the Cure Disease Scroll" and "Killing the Death Slaad with the Banishment Scroll" (with the
    # scroll, in a hero's own turn); Traitor's Tome, haunt 11: "Special Death Slaad Rules" (Fireball, in its turn):
    # the buttons offer exactly what the engine allows
    def offered():
        return {(a.get("trait"), a["task"]) for a in legal_actions(engine.content, g.state) if a["type"] == "task"}

    def goals(pid):
        return set().union(*hooks.fire("haunt_goals", Ctx(engine.content, g.state), pid))

    g = slaad_game(engine)
    assert goals("bo") == {t for t in SHOPS if t in g.state["board"]}
    assert offered() == set()                                # no scroll, no shop
    g.put("bo", "warehouse")
    assert offered() == {("speed", "scroll")}
    h11(g)["cure"] = ["bo"]
    assert (None, "cure") in offered() and goals("bo") == {"warehouse"}  # a host cures where they stand
    h11(g)["cure"] = []
    h11(g)["banish"] = ["bo"]
    g.put("bo", slaad(g)["tile"])
    assert ("sanity", "banish") in offered()
    to_slaad_turn(g)
    g.put("bo", slaad(g)["tile"])
    assert offered() == {(None, "fireball")}             # the Death Slaad's turn: no hero's scroll


def test_the_fireball_rolls_a_separate_attack_against_each_adventurer(engine, dice):
    # Traitor's Tome, haunt 11: "Special Death Slaad Rules", L1378 (5 dice to attack each adventurer on the tile,
    # each defending with Speed): one attack, and so one 5-dice roll, per adventurer
    g = slaad_game(engine)
    h11(g)["hosts"] = []
    g.put("bo", "inner_chamber")
    g.put("cy", "inner_chamber")
    to_slaad_turn(g)
    dice.next(1, 1, 0, 0, 0)                # the Fireball at Bo: 2
    dice.next(0, 0, 0)                      # Bo defends: 0
    dice.next(2, 2, 1, 0, 0)                # the Fireball at Cy: 5
    dice.next(0, 0, 0, 0)                   # Cy defends: 0
    g.do("task", "ann", task="fireball", tile="inner_chamber")
    rolls = [e for e in g.events if e["kind"] == "roll" and "Fireball" in e["text"]]
    assert len(rolls) == 2 and all(e["player"] == "ann" and len(e["faces"]) == 5 for e in rolls)
    seen = list(g.events)
    while g.state["pending"]:
        g.do("decide", g.state["pending"]["player"], choice=0)
        seen += g.events
    hurt = {e["player"]: e["amount"] for e in seen if e["kind"] == "damage"}
    assert hurt == {"bo": 2, "cy": 5}


def test_a_seat_handed_over_keeps_its_host_and_scrolls(engine, dice):
    # Secrets of Survival, haunt 11: "Right Now" (every hero a host), "How to Acquire a Spell Scroll" and "You Must
    # Do This at the End of Your Turn". Found: after a hero's seat was handed over, the record still named the old
    # player and the host's end-of-turn roll raised KeyError
    g = slaad_game(engine)
    h11(g)["cure"] = ["bo"]
    h11(g)["banish"] = ["bo", "cy"]
    g.do("handover", "bo", to="zed", name="Zed")
    assert h11(g) == {"hosts": ["zed", "cy"], "cure": ["zed"], "banish": ["zed", "cy"]}
    g.do("end", "zed")                      # the host's Might roll at the end of the turn
    g.decide_all(0)
    assert g.state["turn"]["player"] == "cy"


def test_an_undeclared_move_is_refused(engine):
    # Traitor's Tome and Secrets of Survival, haunt 11: only fireball, scroll, cure and banish are accepted
    g = slaad_game(engine)
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", "bo", task="fly")
