"""Haunt 16, Need a Hand? (no traitor), played through the engine's actions:
the Crawling Claws placed at the start, their attack, move and spawn at the
start of each hero's turn, group attacks, fortifications, and both ends.

The board: Kitchen (0,0) - Inner Chamber (1,0) - Elfsong Tavern (2,0) on the
city level, the Executioner's Block north of the Inner Chamber, and a
Trading Post north of the Kitchen that no doorway joins to anything.
Unqueued dice show 0."""
import pytest

from bot.games.babg.engine import IllegalAction, hooks
from bot.games.babg.engine import board as bd
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.legal import legal_actions
from tests.test_haunt_play import all_ready, revealed

CLAW = "Crawling Claw"


def need_a_hand(engine, where=None):
    g = revealed(engine, "executioners_block", "cursed_armor")
    assert g.state["haunt"]["number"] == 16 and g.state["haunt"]["kind"] == "no_traitor"
    g.place("trading_post", "city", 0, -1, rot=1)  # next to the Kitchen, joined to nothing
    for pid, tile in (where or {}).items():
        g.put(pid, tile)
    all_ready(g)
    return g


def claws(g, tile=None):
    return [m for m in g.state["monsters"] if m["name"] == CLAW and not m["dead"]
            and (tile is None or m["tile"] == tile)]


def clear_claws(g):
    for m in claws(g):
        m["dead"] = True


def add_claws(g, tile, n):
    for _ in range(n):
        ms = g.state["monsters"]
        ms.append({"id": f"m{len(ms) + 1}", "name": CLAW, "number": len(ms) + 1, "tile": tile,
                   "traits": {"might": 1, "speed": 2, "knowledge": 1, "sanity": 2}, "stunned": False,
                   "dead": False, "attacks": "might"})


def obstacles(g):
    return g.state["haunt"].get("h16", {}).get("obstacles", [])


def test_setup_puts_a_claw_on_each_heros_tile_and_every_tile_next_to_it(engine):
    # Secrets of Survival, haunt 16: "Right Now" (own tile and each adjacent tile, connected or not)
    g = need_a_hand(engine, {"ann": "kitchen", "bo": "elfsong_tavern", "cy": "executioners_block"})
    appeared = [t for t in g.texts() if t.startswith("Crawling Claw") and "appears on the" in t]
    where = {name: sum(1 for t in appeared if t.endswith(f"the {name}."))
             for name in ("Kitchen", "Inner Chamber", "Trading Post", "Elfsong Tavern", "Executioner's Block")}
    assert where == {"Kitchen": 1, "Inner Chamber": 3, "Trading Post": 2, "Elfsong Tavern": 1,
                     "Executioner's Block": 1}
    assert len(appeared) == 8
    assert not any("by hand" in t for t in g.texts())
    assert any("{move:fortify}" in t for t in g.texts())  # the move, named for each adapter to render
    # "Play begins to the left of the haunt revealer": Ann revealed, Bo starts
    assert g.state["turn"]["player"] == "bo"


def test_no_monster_turn_the_claws_act_in_each_heros_turn(engine, dice):
    # Secrets of Survival, haunt 16: "You Must Do This at the Start of Your Turn" (no separate monster turn)
    g = need_a_hand(engine)
    seen = []
    for _ in range(4):
        turn = g.state["turn"]
        assert not turn.get("monsters")
        seen.append(turn["player"])
        assert any("The Crawling Claws stir" in t for t in g.texts())
        g.do("end", turn["player"])
    assert seen == ["bo", "cy", "ann", "bo"]


def test_the_claws_on_the_heros_tile_attack_together_and_hurt_the_hero(engine, dice):
    # Secrets of Survival, haunt 16: "You Must Do This at the Start of Your Turn", step 1
    g = need_a_hand(engine)
    clear_claws(g)
    add_claws(g, "elfsong_tavern", 3)
    dice.next(1, 1, 1)   # 3 Claws, Might 1 each: 3 dice, rolled by Bo (to Cy's right)
    dice.next(0, 0)      # Cy (Gretchen) defends with Might
    g.do("end", "bo")
    assert any("3 Crawling Claws on the Elfsong Tavern attack Cy; Bo rolls for them." in t for t in g.texts())
    assert any("Bo rolls Might for 3 Crawling Claws (3 dice)" in t for t in g.texts())
    assert any("Cy takes 3 physical damage" in t for t in g.texts())
    assert g.state["pending"]["player"] == "cy"


def test_a_hero_who_wins_destroys_a_claw_per_point(engine, dice):
    # Secrets of Survival, haunt 16: "You Must Do This at the Start of Your Turn", step 1 (hero wins)
    g = need_a_hand(engine)
    clear_claws(g)
    add_claws(g, "elfsong_tavern", 3)
    dice.next(0, 0, 0)   # the Claws: 0
    dice.next(1, 1)      # Cy: 2
    g.do("end", "bo")
    assert len(claws(g, "elfsong_tavern")) == 1
    assert any("2 Crawling Claws are destroyed" in t for t in g.texts())


def test_more_than_eight_claws_attack_in_waves_of_eight(engine, dice):
    # Secrets of Survival, haunt 16: "You Must Do This at the Start of Your Turn", step 1 (waves of 8)
    g = need_a_hand(engine)
    clear_claws(g)
    add_claws(g, "elfsong_tavern", 10)
    g.do("end", "bo")
    assert any("8 Crawling Claws on the Elfsong Tavern attack Cy" in t for t in g.texts())
    assert any("2 Crawling Claws on the Elfsong Tavern attack Cy" in t for t in g.texts())
    assert any("(8 dice)" in t for t in g.texts())


def test_claws_move_toward_the_nearest_hero_unless_fortifications_seal_every_route(engine, dice):
    # Secrets of Survival, haunt 16: "You Must Do This at the Start of Your Turn", step 2
    # Ruling: one Speed roll (2 dice, at least 1 space) for all the Claws, each along a shortest route
    g = need_a_hand(engine)
    clear_claws(g)
    add_claws(g, "kitchen", 1)
    add_claws(g, "trading_post", 1)      # joined to nothing: no route, it stays
    dice.next(1, 1)                      # Speed 2 for the Claws: Kitchen -> Inner Chamber -> Elfsong Tavern
    g.do("end", "bo")
    assert [m["tile"] for m in claws(g)] == ["elfsong_tavern", "trading_post"]
    # a sealed doorway (here from the far side) stops them
    clear_claws(g)
    add_claws(g, "kitchen", 1)
    g.state["haunt"]["h16"]["obstacles"].append(["elfsong_tavern", "west"])
    dice.next(1, 1)
    g.do("end", "cy")
    assert [m["tile"] for m in claws(g)] == ["kitchen"]


def test_new_claws_are_placed_by_the_player_to_the_right_on_free_tiles(engine, dice):
    # Secrets of Survival, haunt 16: "You Must Do This at the Start of Your Turn", step 3
    # Ruling: the player to the active hero's right (who rolls for the Claws) places them
    g = need_a_hand(engine, {"ann": "kitchen"})
    clear_claws(g)
    add_claws(g, "kitchen", 1)           # on Ann's tile: it stays
    add_claws(g, "trading_post", 1)      # no route: it stays
    dice.next(0, 0)                      # the Claws' Speed roll
    dice.next(1, 1, 0)                   # 3 living heroes: 3 dice, 2 new Claws
    g.do("end", "bo")
    pending = g.state["pending"]
    assert pending["kind"] == "h16_spawn" and pending["player"] == "bo"
    # no tile with a Claw or an adventurer on it
    assert pending["options"] == ["Catacomb Landing", "Executioner's Block", "Inner Chamber", "Kitchen Basement"]
    g.do("decide", "bo", choice=1)
    assert g.state["pending"]["options"] == ["Catacomb Landing", "Inner Chamber", "Kitchen Basement"]
    g.do("decide", "bo", choice=1)
    assert sorted(m["tile"] for m in claws(g)) == ["executioners_block", "inner_chamber", "kitchen", "trading_post"]


def seal_everything(g):
    for tile in g.state["board"]:
        for side, other in bd.exits(g.c, g.state["board"], tile).items():
            if other:
                g.state["haunt"]["h16"]["obstacles"].append([tile, side])
        if g.c.tiles[tile].stairs_to:
            g.state["haunt"]["h16"]["obstacles"].append([tile, "stairs"])


def test_with_every_tile_taken_the_new_claws_go_on_a_new_tile_nearest_a_hero(engine, dice):
    # Secrets of Survival, haunt 16: "You Must Do This at the Start of Your Turn", step 3 (no free tile)
    g = need_a_hand(engine, {"ann": "kitchen"})
    clear_claws(g)
    for tile in g.state["board"]:
        if tile != "elfsong_tavern":
            add_claws(g, tile, 1)
    seal_everything(g)                   # the Claws stay put this time; Ann shares the Kitchen with one
    dice.next(0, 0)
    dice.next(1, 1, 0)                   # 2 new Claws
    g.do("end", "bo")
    pending = g.state["pending"]
    assert pending["kind"] == "h16_new_tile" and pending["player"] == "bo"
    # only the open doorways nearest a hero: those of the heroes' own tiles
    assert pending["options"] and all(o.startswith(("The Elfsong Tavern's", "The Kitchen's"))
                                      for o in pending["options"])
    before = set(g.state["board"])
    g.do("decide", "bo", choice=0)
    new = [t for t in g.state["board"] if t not in before]
    assert len(new) == 1 and len(claws(g, new[0])) == 2


def test_any_damage_destroys_a_claw_instead_of_stunning_it(engine, dice):
    # Secrets of Survival, haunt 16: "Damaging Crawling Claws"
    g = need_a_hand(engine)
    clear_claws(g)
    add_claws(g, "elfsong_tavern", 2)
    g.state["haunt"]["h16"]["obstacles"].append(["elfsong_tavern", "west"])
    target = claws(g)[0]
    dice.next(1, 1)      # Bo: 2
    dice.next(0)         # the Claw: 0
    g.do("attack", "bo", target=target["id"])
    target = next(m for m in g.state["monsters"] if m["id"] == target["id"])
    assert target["dead"] and not target["stunned"]
    assert len(claws(g, "elfsong_tavern")) == 1  # a plain attack is on one Claw


def test_a_group_attack_rolls_against_the_claws_combined_and_destroys_one_per_point(engine, dice):
    # Secrets of Survival, haunt 16: "Special Attack Rules"
    g = need_a_hand(engine)
    clear_claws(g)
    add_claws(g, "elfsong_tavern", 4)
    with pytest.raises(IllegalAction, match="cannot take that number"):
        g.do("task", "bo", trait="might", task="attack", number=5)
    dice.next(1, 1)      # Bo: 2
    dice.next(0, 0, 0)   # three Claws defend with 3 dice
    g.do("task", "bo", trait="might", task="attack", number=3)
    assert any("Might for Crawling Claw" in t and "(3 dice)" in t for t in g.texts())
    assert len(claws(g, "elfsong_tavern")) == 2
    assert g.state["haunt"]["h16"]["group"] == 0
    with pytest.raises(IllegalAction, match="already attacked"):
        g.do("task", "bo", trait="might", task="attack", number=1)


def test_fortify_seals_an_exit_for_heroes_and_clear_opens_it(engine, dice):
    # Secrets of Survival, haunt 16: "How to Build a Fortification" and "Destroying a Fortification"
    g = need_a_hand(engine)
    clear_claws(g)
    add_claws(g, "kitchen", 1)
    g.put("bo", "inner_chamber")
    dice.next(0, 0, 0, 0)                  # a failed roll places nothing
    g.do("task", "bo", trait="knowledge", task="fortify")
    assert obstacles(g) == []
    with pytest.raises(IllegalAction, match="already tried to fortify"):
        g.do("task", "bo", trait="knowledge", task="fortify")
    g.do("end", "bo")
    g.do("end", "cy")
    g.do("end", "ann")                     # Bo's next turn
    g.put("bo", "inner_chamber")
    dice.next(2, 2, 2, 2)
    g.do("task", "bo", trait="knowledge", task="fortify")
    pending = g.state["pending"]
    # Ruling: only exits that lead to a placed tile take an Obstacle (the south doorway opens on nothing)
    assert pending["player"] == "bo" and pending["options"] == ["North", "East", "West"]
    g.do("decide", "bo", choice=2)
    assert obstacles(g) == [["inner_chamber", "west"]]
    with pytest.raises(IllegalAction, match="Obstacle token seals"):
        g.do("move", "bo", way="west")
    g.do("task", "bo", task="clear", way="west")
    assert obstacles(g) == []
    with pytest.raises(IllegalAction, match="cannot take that way"):
        g.do("task", "bo", task="clear", way="west")


def test_the_heroes_win_once_every_hero_is_sealed_off_from_the_claws(engine, dice):
    # Secrets of Survival, haunt 16: "You Win When..." and "How to Build a Fortification"
    # Ruling: every living hero must be sealed off (You Win When), not only half of them
    g = need_a_hand(engine)
    clear_claws(g)
    add_claws(g, "kitchen", 2)
    assert g.state["phase"] == "haunt"
    dice.next(2, 2, 2, 2)
    g.do("task", "bo", trait="knowledge", task="fortify")  # the Elfsong Tavern's one doorway
    assert obstacles(g) == [["elfsong_tavern", "west"]]
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "heroes"


def test_a_hero_cut_off_alone_is_not_enough(engine, dice):
    # Secrets of Survival, haunt 16: "You Win When..." (all heroes)
    g = need_a_hand(engine, {"ann": "kitchen"})
    clear_claws(g)
    add_claws(g, "executioners_block", 1)
    dice.next(2, 2, 2, 2)
    g.do("task", "bo", trait="knowledge", task="fortify")
    assert g.state["phase"] == "haunt"  # Ann on the Kitchen can still be reached


def test_the_claws_win_once_half_the_heroes_rounded_down_are_dead(engine, dice):
    # Secrets of Survival, haunt 16: "You Win When..." (before half the heroes, rounded down, are killed)
    g = need_a_hand(engine)
    clear_claws(g)
    add_claws(g, "elfsong_tavern", 3)
    g.p("cy")["traits"].update({"might": 1, "speed": 1})
    dice.next(1, 1, 1)   # 3 against Cy's 0: Cy dies
    g.do("end", "bo")
    g.decide_all()
    assert not g.p("cy")["alive"]
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "traitor"


def test_everything_the_claws_do_is_told_to_the_whole_table(engine, dice):
    # Secrets of Survival, haunt 16 (no traitor): nothing the Claws do is secret
    g = need_a_hand(engine)
    for _ in range(3):
        g.do("end", g.state["turn"]["player"])
        events = [e for e in g.events if e.get("kind") in ("monster", "monster_move", "attack", "haunt", "roll")]
        assert events and all(e["to"] == "all" for e in events)


def test_the_haunts_actions_are_offered_while_they_are_open(engine, dice):
    # Secrets of Survival, haunt 16: "Special Attack Rules" (any number of the Claws on your tile), "How to Build a
    # Fortification" (once during your turn) and "Destroying a Fortification" (an Obstacle on an exit of your tile)
    def offered():
        return [" ".join(str(x) for x in (a["task"], a.get("number"), a.get("way")) if x is not None)
                for a in legal_actions(engine.content, g.state) if a["type"] == "task"]

    g = need_a_hand(engine)
    clear_claws(g)
    add_claws(g, "inner_chamber", 2)
    g.put("bo", "inner_chamber")
    assert offered() == ["attack 2", "attack 1", "fortify"]            # best first: the attack, then the seal
    goals = set().union(*hooks.fire("haunt_goals", Ctx(engine.content, g.state), "bo"))
    assert goals == {"elfsong_tavern"}                                   # a dead end: one exit to seal
    dice.next(2, 2, 2, 2)
    g.do("task", "bo", trait="knowledge", task="fortify")
    g.do("decide", "bo", choice=2)
    assert obstacles(g) == [["inner_chamber", "west"]]
    assert offered() == ["attack 2", "attack 1", "clear west"]          # fortified once this turn
    dice.next(0)
    g.do("task", "bo", trait="might", task="attack", number=1)
    assert offered() == ["clear west"]                                   # the attack is spent too
    assert obstacles(g) == [["inner_chamber", "west"]]                   # offering tried copies only


def test_the_player_to_the_attackers_right_rolls_the_claws_defence(engine, dice):
    # Secrets of Survival, haunt 16: "Special Attack Rules", L3773 (the player to your right defends with the Claws)
    g = need_a_hand(engine)
    clear_claws(g)
    add_claws(g, g.p("ann")["tile"], 2)
    g.state["turn"] = {**g.state["turn"], "player": "ann"}  # the revealer, who would run the monsters by default
    dice.next(1)                                    # Ann attacks
    dice.next(0, 0)                                 # the Claws defend
    g.do("task", "ann", trait="might", task="attack", number=2)
    defence = [e for e in g.events if e.get("kind") == "roll" and "to defend" in e["text"]]
    assert defence and all(e["player"] == "cy" for e in defence)   # Cy sits to Ann's right (seats Ann, Bo, Cy)
    assert defence[0]["text"].startswith("Cy")
    attack_roll = [e for e in g.events if e.get("kind") == "roll" and "to attack" in e["text"]]
    assert attack_roll and attack_roll[0]["player"] == "ann"


def test_an_undeclared_move_is_refused(engine, dice):
    # Secrets of Survival, haunt 16: only the haunt's own moves (attack, fortify, clear) are accepted
    g = need_a_hand(engine)
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", "bo", task="fly")
