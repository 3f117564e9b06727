"""Haunt 44, By the Light of the Pale Moon, played through the engine (Secrets
of Survival and Traitor's Tome, haunt 44). Ann (Torskar) reveals it with the
Cursed Armor on the Shrine to Gargauth; nobody is the traitor until the Moon
of Bhaal, at the end of Ann's first haunt turn. Turns go Bo, Cy, Ann."""
import pytest

from bot.games.babg.engine import IllegalAction
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.legal import legal_actions
from bot.games.babg.engine.view import view
from bot.games.babg.engine.haunts import h44_by_the_light_of_the_pale_moon as h44
from tests.test_haunt_play import revealed

SHRINE = "shrine_to_gargauth"
AMULET = "Amulet of Protection"


def moon_game(engine, fake=0):
    g = revealed(engine, SHRINE, "cursed_armor")
    assert g.state["haunt"]["number"] == 44 and g.state["haunt"]["kind"] == "none_yet"
    assert g.state["haunt"]["traitors"] == []
    events = []
    for pid in g.state["seats"]:
        g.do("ready", pid)
        events += g.events
    g.do("decide", "ann", choice=fake)
    events += g.events
    g.decide_all()
    g.events = events + g.events
    return g


def no_fake(g):
    fake = h(g)["fake"]
    g.state["tokens"] = [t for t in g.state["tokens"] if t["name"] != AMULET or t["number"] != fake]


def amulets(g):
    return [t for t in g.state["tokens"] if t["name"] == AMULET]


def h(g):
    return g.state["haunt"]["h44"]


def grab(g, dice, pid, faces=(2, 2, 2)):
    g.put(pid, SHRINE)
    dice.next(*faces)
    g.do("task", pid, trait="speed", task="amulet")


def after_moon(engine, dice, holders=("bo", "cy"), cultist_choice=0):
    """Bo and Cy each grab a real Amulet; Ann's turn ends: Ann is the traitor."""
    g = moon_game(engine)
    no_fake(g)
    for pid in ("bo", "cy"):
        if pid in holders:
            grab(g, dice, pid)
        g.do("end", pid)
    g.do("end", "ann")
    while g.state["pending"] and g.state["pending"]["kind"] == "place_chosen":
        g.do("decide", g.state["pending"]["player"], choice=cultist_choice)
    return g


def servant(g):
    return next(m for m in g.state["monsters"] if m["name"] == "Servant of Bhaal")


def cultists(g):
    return [m for m in g.state["monsters"] if m["name"] == "Cultist" and not m["dead"]]


def test_setup_the_revealer_names_the_fake_and_the_amulets_go_face_down_on_the_nearest_omen_tile(engine):
    # Secrets of Survival, haunt 44: "Right Now" (one Amulet per adventurer, 1 agreed to be the fake, dealt at
    # random, each put unseen on the omen tile nearest its player's figure)
    g = revealed(engine, SHRINE, "cursed_armor")
    for pid in g.state["seats"]:
        g.do("ready", pid)
    pending = g.state["pending"]
    assert pending["player"] == "ann" and pending["kind"] == "h44_fake"
    assert pending["options"] == ["Amulet 1", "Amulet 2", "Amulet 3"]
    g.do("decide", "ann", choice=1)
    assert h(g)["fake"] == 2
    assert sorted(t["number"] for t in amulets(g)) == [1, 2, 3]
    assert {t["tile"] for t in amulets(g)} == {SHRINE}  # the only omen tile
    for pid in g.state["seats"]:  # face down: nobody sees the numbers
        assert all("number" not in t for t in view(g.state, pid)["tokens"])
    assert not any("by hand" in e["text"] for e in g.events)
    assert g.state["turn"]["player"] == "bo" and g.state["order"] == ["bo", "cy", "ann", "monsters"]


def test_a_player_between_two_equally_near_omen_tiles_picks_one(engine):
    # Secrets of Survival, haunt 44: "Right Now" (the omen tile closest to their figure)
    g = revealed(engine, SHRINE, "cursed_armor")
    ctx = Ctx(g.c, g.state)
    g.state["board"]["house_of_blood"] = dict(g.state["board"][SHRINE])
    g.state["board"][SHRINE]["y"] = 5  # both out of reach: equally (un)reachable from the Tavern
    g.state["board"]["house_of_blood"]["y"] = 7
    assert len(h44.nearest_omen_tiles(ctx, "bo")) == 2
    for pid in g.state["seats"]:
        g.do("ready", pid)
    g.do("decide", "ann", choice=0)
    pending = g.state["pending"]
    assert pending["kind"] == "h44_amulet_tile" and pending["player"] == "ann"
    assert pending["options"] == ["House of Blood", "Shrine to Gargauth"]


def test_grabbing_an_amulet_speed_3_once_a_turn_the_fake_is_discarded(engine, dice):
    # Secrets of Survival, haunt 44: "What You Know About the Traitor" (once a turn, Speed 3+, look at it; the fake
    # is discarded, a real one goes on your card)
    g = moon_game(engine)
    with pytest.raises(IllegalAction, match="no Amulet"):
        g.do("task", "bo", trait="speed", task="amulet")
    fake = h(g)["fake"]
    g.state["tokens"] = [t for t in g.state["tokens"] if t["name"] != AMULET or t["number"] == fake]
    g.put("bo", SHRINE)
    assert {"type": "task", "player": "bo", "trait": "speed", "task": "amulet"} in legal_actions(g.c, g.state)
    dice.next(1, 1)
    g.do("task", "bo", trait="speed", task="amulet")  # 2: missed
    assert len(amulets(g)) == 1
    with pytest.raises(IllegalAction, match="already tried"):
        g.do("task", "bo", trait="speed", task="amulet")
    g.do("end", "bo")
    grab(g, dice, "cy")
    assert amulets(g) == [] and not h(g)["amulets"].get("cy")
    assert any("the fake" in t for t in g.texts())
    g.do("end", "cy")
    g.state["tokens"].append({"name": AMULET, "tile": SHRINE, "number": 3 if fake != 3 else 1})
    grab(g, dice, "ann")
    assert h(g)["amulets"] == {"ann": 1}


def test_the_moon_of_bhaal_turns_the_one_without_an_amulet_at_the_end_of_the_revealers_first_turn(engine, dice):
    # Secrets of Survival, haunt 44: "The Moon of Bhaal"; "You Must Do This When the Traitor Is Revealed";
    # Traitor's Tome, haunt 44: "Right Now" (the adventurer dies, the Servant on its tile, one Cultist per
    # adventurer placed by the traitor, 1 per tile if possible)
    g = moon_game(engine)
    fake = h(g)["fake"]
    g.state["tokens"] = [t for t in g.state["tokens"] if t["name"] != AMULET or t["number"] != fake]
    g.state["tokens"].append({"name": AMULET, "tile": "kitchen", "number": fake})
    for pid in ("bo", "cy"):
        grab(g, dice, pid)
        g.do("end", pid)
    assert g.state["haunt"]["traitors"] == []
    g.put("ann", "inner_chamber")
    g.do("end", "ann")
    assert g.state["haunt"]["traitors"] == ["ann"] and g.state["haunt"]["kind"] == "traitor"
    tome = g.c.haunts[44].raw["traitor"]["section"][0]["text"].strip()[:50]
    part_two = next(s for s in g.c.haunts[44].raw["heroes"]["section"] if s.get("part") == 2)["text"].strip()[:50]
    assert [e["to"] for e in g.events if tome in e["text"]] == ["ann"]  # the Tome, to the traitor alone
    assert sorted(e["to"] for e in g.events if part_two in e["text"]) == ["bo", "cy"]
    assert not g.p("ann")["alive"]
    assert servant(g)["tile"] == "inner_chamber"
    assert g.state["pending"]["kind"] == "place_chosen" and g.state["pending"]["player"] == "ann"
    assert h(g)["fire"] == {"bo": 1, "cy": 1} and amulets(g) == []  # swapped; the rest off the board
    while g.state["pending"]:
        tiles = g.state["pending"]["data"]["tiles"]
        assert not any(m["tile"] in tiles for m in cultists(g))  # one per tile while possible
        g.do("decide", "ann", choice=0)
    assert len(cultists(g)) == 3
    # Secrets of Survival: play goes on with the player to the revealer's left; Ruling: Haunt 44: where the
    # monster turn goes once the Moon of Bhaal names the traitor
    assert g.state["turn"]["player"] == "bo"
    assert g.state["order"] == ["bo", "cy", "ann", "monsters"]


def test_several_without_an_amulet_roll_sanity_the_lowest_turns_ties_roll_again(engine, dice):
    # Secrets of Survival, haunt 44: "The Moon of Bhaal" (two or more without: Sanity roll, lowest becomes the
    # traitor, reroll ties)
    g = moon_game(engine)
    no_fake(g)
    grab(g, dice, "bo")
    g.do("end", "bo")
    g.do("end", "cy")
    dice.next(2, 2)  # Ann
    dice.next(2, 2)  # Cy: a tie
    dice.next(1)  # Ann: lowest
    dice.next(2, 2, 2)  # Cy
    g.do("end", "ann")
    assert g.state["haunt"]["traitors"] == ["ann"]
    assert sum("Without an Amulet: Ann, Cy" in t for t in g.texts()) == 2
    assert g.state["turn"]["player"] == "bo" or g.state["pending"]


def test_the_monster_turn_sits_in_the_traitors_seat_and_play_resumes_left_of_the_revealer(engine, dice):
    # Secrets of Survival, haunt 44: "You Must Do This When the Traitor Is Revealed" (play continues with the player
    # to the revealer's left, no matter who became the traitor); Ruling: Haunt 44: where the monster turn goes
    # once the Moon of Bhaal names the traitor
    g = after_moon(engine, dice, holders=("cy",))
    assert g.state["haunt"]["traitors"] == ["bo"] or g.state["haunt"]["traitors"] == ["ann"]
    traitor = g.state["haunt"]["traitors"][0]
    order = g.state["order"]
    assert order.index("monsters") == order.index(traitor) + 1
    assert order[0] == "bo"


def test_cultists_never_move_or_attack_cannot_be_hit_with_might_and_stay_stunned(engine, dice):
    # Traitor's Tome, haunt 44: "Special Cultist Rules"; "Stunned Cultists"; "You Must Read This Aloud the First
    # Time a Cultist Is Stunned"; Secrets of Survival, haunt 44: "What You've Learned About the Traitor"
    g = after_moon(engine, dice)
    c = cultists(g)[0]
    g.put("bo", c["tile"])
    with pytest.raises(IllegalAction, match="no Might"):
        g.do("attack", "bo", target=c["id"])
    ctx = Ctx(g.c, g.state)
    h44.ByTheLightOfThePaleMoon().monster_hurt(ctx, next(m for m in g.state["monsters"] if m["id"] == c["id"]),
                                               "physical", 1)
    assert any("turns to stone" in e["text"] for e in ctx.ev)
    g.do("end", "bo")
    g.do("end", "cy")
    assert g.state["turn"].get("monsters")
    acts = legal_actions(g.c, g.state)
    assert not any(a.get("monster") in {m["id"] for m in cultists(g)} for a in acts if a["type"] == "monster")
    free = next(m for m in cultists(g) if not m["stunned"])
    for way in ("north", "east", "south", "west"):
        with pytest.raises(IllegalAction, match="Cultists stay|No placed tile"):
            g.do("monster", "ann", op="move", monster=free["id"], way=way)
    g.do("end", "ann")
    assert next(m for m in g.state["monsters"] if m["id"] == c["id"])["stunned"]  # still stunned


def test_the_servant_ignores_damage_while_any_cultist_is_unstunned(engine, dice):
    # Traitor's Tome, haunt 44: "Protection Spells"
    g = after_moon(engine, dice)
    g.put("bo", servant(g)["tile"])
    dice.next(2, 2, 2, 2, 2)
    dice.next(0)
    g.do("attack", "bo", target=servant(g)["id"])
    assert any("ignores the damage" in t for t in g.texts())
    assert not servant(g)["dead"] and not servant(g)["stunned"]


def stun_all(g):
    for m in g.state["monsters"]:
        if m["name"] == "Cultist":
            m["stunned"] = True


def test_beaten_with_every_cultist_stunned_the_servant_loses_the_roll_off_and_the_heroes_win(engine, dice):
    # Traitor's Tome, haunt 44: "Stunned Cultists"; "If You Are Killed" (lower: the heroes win); Secrets of
    # Survival, haunt 44: "You Win When..."; Ruling: Haunt 44: a tie in the Sanity roll-off when the Servant is beaten
    g = after_moon(engine, dice)
    stun_all(g)
    g.put("bo", servant(g)["tile"])
    dice.next(2, 2, 2, 2, 2)  # Bo's Might attack
    dice.next(0)  # the Servant's defence
    dice.next(1, 1, 1)  # the Servant's Sanity
    dice.next(1, 1, 1)  # Bo's Sanity: a tie, both again
    dice.next(0)  # the Servant
    dice.next(2)  # Bo
    g.do("attack", "bo", target=servant(g)["id"])
    assert any("A tie: both roll again" in t for t in g.texts())
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "heroes"


def test_winning_the_roll_off_the_servant_takes_the_hero_as_its_next_incarnation(engine, dice):
    # Traitor's Tome, haunt 44: "If You Are Killed" (higher: that hero becomes the Servant and the traitor, with no
    # new Cultists); Ruling: Haunt 44: the next incarnation of the Servant
    g = after_moon(engine, dice)
    stun_all(g)
    n = len(cultists(g))
    g.put("bo", servant(g)["tile"])
    dice.next(2, 2, 2, 2, 2)
    dice.next(0)
    dice.next(2, 2, 2, 2, 2)  # the Servant's Sanity
    dice.next(0)  # Bo's
    g.do("attack", "bo", target=servant(g)["id"])
    assert not g.p("bo")["alive"] and g.state["haunt"]["traitors"][0] == "bo"
    assert "ann" in g.state["haunt"]["traitors"]
    assert servant(g)["tile"] == g.p("bo")["tile"] and not servant(g)["dead"]
    assert len(cultists(g)) == n
    tome = g.c.haunts[44].raw["traitor"]["section"][0]["text"].strip()[:50]
    assert [e["to"] for e in g.events if tome in e["text"]] == ["bo"]
    assert g.state["phase"] == "haunt"


def test_a_hero_whose_defence_beats_the_unprotected_servant_also_triggers_the_roll_off(engine, dice):
    # Traitor's Tome, haunt 44: "Stunned Cultists" (an attack or defense roll); "Special Attack Rules for the
    # Servant of Bhaal" (any or all heroes on its tile, one trait, the traitor's pick)
    g = after_moon(engine, dice)
    stun_all(g)
    for pid in ("bo", "cy"):
        g.put(pid, servant(g)["tile"])
    g.do("end", "bo")
    g.do("end", "cy")
    assert g.state["turn"].get("monsters")
    acts = legal_actions(g.c, g.state)
    assert {"type": "monster", "player": "ann", "op": "attack", "monster": servant(g)["id"], "target": "bo",
            "trait": "sanity"} in acts
    with pytest.raises(IllegalAction, match="Might or Sanity"):
        g.do("monster", "ann", op="attack", monster=servant(g)["id"], target="bo", trait="speed")
    g.do("monster", "ann", op="attack", monster=servant(g)["id"], target="bo", trait="sanity")
    assert g.state["pending"]["kind"] == "h44_include" and g.state["pending"]["player"] == "ann"
    dice.next(1)  # the Servant's Sanity attack: 1
    dice.next(2, 2)  # Bo defends: 4
    dice.next(0)  # Cy defends: 0
    dice.next(2, 2, 2, 2, 2)  # the roll-off: the Servant
    dice.next(0)  # Bo
    g.do("decide", "ann", choice=0)  # Cy too
    assert g.state["haunt"]["traitors"][0] == "bo" and not g.p("bo")["alive"]


def test_the_servant_sacrifices_a_cultist_to_take_its_place(engine, dice):
    # Traitor's Tome, haunt 44: "Special Movement Rules for the Servant of Bhaal"
    g = after_moon(engine, dice)
    c = next(m for m in cultists(g) if m["tile"] != servant(g)["tile"])
    with pytest.raises(IllegalAction, match="monster turn"):
        g.do("task", "bo", task="sacrifice", target=c["id"])
    g.do("end", "bo")
    g.do("end", "cy")
    assert {"type": "task", "player": "ann", "task": "sacrifice", "target": c["id"]} in legal_actions(g.c, g.state)
    g.do("task", "ann", task="sacrifice", target=c["id"])
    assert servant(g)["tile"] == c["tile"]
    assert c["id"] not in {m["id"] for m in cultists(g)}


def test_alchemists_fire_brewed_from_a_droppable_card_and_thrown_at_a_tile_in_sight(engine, dice):
    # Secrets of Survival, haunt 44: "Alchemist's Fire" (once a turn a droppable item or omen for a token; instead
    # of an attack, one Speed 4 attack on everyone and every monster on a tile in line of sight up to 2 away)
    g = after_moon(engine, dice, holders=())
    traitor = g.state["haunt"]["traitors"][0]
    hero = next(p for p in ("bo", "cy") if p != traitor)
    if g.state["turn"]["player"] != hero:
        g.do("end", g.state["turn"]["player"])
        while g.state["turn"]["player"] != hero:
            g.do("end", g.state["turn"]["player"])
    g.give(hero, "crossbow")
    g.put(hero, "kitchen")
    with pytest.raises(IllegalAction, match="no Alchemist's Fire"):
        g.do("task", hero, trait="speed", task="throw", tile="elfsong_tavern")
    g.do("task", hero, task="brew", card="crossbow")
    assert h(g)["fire"][hero] == 1 and "crossbow" in g.state["discard"]["item"]
    g.give(hero, "potion_of_healing")
    with pytest.raises(IllegalAction, match="already tried"):
        g.do("task", hero, task="brew", card="potion_of_healing")
    c = cultists(g)[0]
    c["tile"] = "elfsong_tavern"
    g.state["monsters"] = [m if m["id"] != c["id"] else c for m in g.state["monsters"]]
    ctx = Ctx(g.c, g.state)
    assert "elfsong_tavern" in h44.in_range(ctx, hero)
    dice.next(2, 2, 2, 2)  # the Fire: 8
    on_tavern = [p for p in g.state["seats"] if g.p(p)["alive"] and g.p(p)["tile"] == "elfsong_tavern"]
    for _ in on_tavern:
        dice.next(0)
    for m in g.state["monsters"]:
        if not m["dead"] and m["tile"] == "elfsong_tavern":
            dice.next(0)
    g.do("task", hero, trait="speed", task="throw", tile="elfsong_tavern")
    g.decide_all()
    assert next(m for m in g.state["monsters"] if m["id"] == c["id"])["stunned"]
    assert h(g)["fire"][hero] == 0
    with pytest.raises(IllegalAction):
        g.do("attack", hero, target=servant(g)["id"])  # the throw was this turn's attack


def test_fire_on_your_own_tile_hits_you_too_and_a_defender_who_wins_hurts_the_thrower(engine, dice):
    # Secrets of Survival, haunt 44: "Alchemist's Fire" (including yourself); Rulebook: Make an Attack (the loser
    # takes the difference); Ruling: Haunt 44: Alchemist's Fire on your own tile
    g = after_moon(engine, dice)
    c = cultists(g)[0]
    g.put("bo", c["tile"])
    for m in g.state["monsters"]:
        if m["tile"] == c["tile"] and m["id"] != c["id"]:
            m["tile"] = "kitchen" if c["tile"] != "kitchen" else "inner_chamber"
    if g.p("cy")["tile"] == c["tile"]:
        g.put("cy", "kitchen" if c["tile"] != "kitchen" else "inner_chamber")
    dice.next(1)  # the Fire: 1
    dice.next(0)  # Bo defends: 0 -> 1 damage to Bo
    dice.next(2, 2)  # the Cultist: 4 -> 3 damage to Bo
    g.do("task", "bo", trait="speed", task="throw", tile=c["tile"])
    texts = g.texts()
    while g.state["pending"]:
        g.do("decide", g.state["pending"]["player"], choice=1)
        texts += g.texts()
    assert any("The Fire beats Bo 1 to 0: 1 physical damage" in t for t in texts)
    assert any("beats the Fire 4 to 1: 3 physical damage to Bo" in t for t in texts)


def test_the_traitor_wins_when_every_hero_is_dead(engine, dice):
    # Traitor's Tome, haunt 44: "You Win When..."
    g = after_moon(engine, dice)
    from bot.games.babg.engine.death import die
    ctx = Ctx(g.c, g.state)
    for pid in ("bo", "cy"):
        die(ctx, pid, "test")
    from bot.games.babg.engine import haunt_play
    haunt_play.check_wins(ctx)
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "traitor"



def test_with_an_amulet_each_everyone_living_rolls_sanity(engine, dice):
    # Secrets of Survival, haunt 44: "The Moon of Bhaal"; Ruling: Haunt 44: nobody is without an Amulet at the Moon
    # of Bhaal
    g = moon_game(engine)
    g.state["haunt"]["h44"]["amulets"] = {"ann": 1, "bo": 1, "cy": 1}
    g.do("end", "bo")
    g.do("end", "cy")
    dice.next(2, 2)  # Ann
    dice.next(0)  # Bo: lowest
    dice.next(2, 2)  # Cy
    g.do("end", "ann")
    assert g.state["haunt"]["traitors"] == ["bo"]
    assert any("Without an Amulet: Ann, Bo, Cy" in t for t in g.texts())
    assert h(g)["fire"] == {"ann": 1, "cy": 1}  # the traitor's own Amulet goes with their figure


def test_a_revealer_dead_before_their_first_turn_ends_brings_the_moon_at_the_next_turn_end(engine, dice):
    # Secrets of Survival, haunt 44: "The Moon of Bhaal"; Ruling: Haunt 44: the haunt revealer dies before their
    # first turn ends
    from bot.games.babg.engine.death import die
    g = moon_game(engine)
    die(Ctx(g.c, g.state), "ann", "test")
    g.do("end", "bo")
    assert g.state["haunt"]["traitors"] in (["bo"], ["cy"])


def test_the_built_in_players_head_for_the_amulets_then_for_the_cultists(engine, dice):
    # Secrets of Survival, haunt 44: "What You Know About the Traitor"; "Alchemist's Fire"
    g = moon_game(engine)
    rules = h44.ByTheLightOfThePaleMoon()
    assert rules.haunt_goals(Ctx(g.c, g.state), "bo") == {SHRINE}
    g = after_moon(engine, dice)
    ctx = Ctx(g.c, g.state)
    assert rules.haunt_goals(ctx, "bo") == {c["tile"] for c in cultists(g)}
    stun_all(g)
    assert rules.haunt_goals(Ctx(g.c, g.state), "bo") == {servant(g)["tile"]}


def test_an_undeclared_move_is_refused(engine):
    g = moon_game(engine)
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", "bo", trait="speed", task="howl")
