"""Haunt 32, Sphere of Annihilation (Traitor's Tome; Secrets of Survival),
played through the engine's actions: the setup, the Talisman, the Sphere's
move and what it annihilates, the pull at the start of a turn, the wreckage,
climbing, the merge and each side's win."""
import pytest

from bot.games.babg.engine import IllegalAction, hooks
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.death import die
from bot.games.babg.engine.legal import legal_actions
from bot.games.babg.engine.view import view
from tests.invariants import check
from tests.test_haunt_play import revealed

SPHERE, TALISMAN = "Sphere of Annihilation", "Talisman of the Sphere"


def sphere_game(engine, where=1):
    """Ann reveals haunt 32 on the Executioner's Block (Homunculus) and is the
    traitor; Bo puts the Sphere on the Kitchen (option `where`); Ann's two
    gains go to Might. Order: Bo, Cy, Ann, then the Sphere."""
    g = revealed(engine, "executioners_block", "homunculus")
    assert g.state["haunt"]["number"] == 32
    for pid in ("ann", "bo", "cy"):
        g.do("ready", pid)
    g.do("decide", "bo", choice=where)
    g.decide_all()
    return g


def sphere(g):
    return next(t["tile"] for t in g.state["tokens"] if t["name"] == SPHERE)


def holder(g):
    return g.state["haunt"]["h32"]["holder"]


def to_sphere_turn(g, dice, roll=(1, 1, 1)):
    g.do("end", "bo")
    g.do("end", "cy")
    dice.next(*roll)
    g.do("end", "ann")
    assert g.state["turn"].get("monsters") and g.state["pending"]["kind"] == "h32_sphere"


def test_setup_the_heroes_place_the_sphere_far_away_and_the_traitor_gains(engine):
    # Secrets of Survival, haunt 32: "Right Now" (the city tile farthest from each adventurer); Traitor's Tome,
    # haunt 32: "Right Now" (traits reset, 1 per hero in a trait of your choice, the Talisman)
    g = revealed(engine, "executioners_block", "homunculus")
    might = g.p("ann")["traits"]["might"]
    for pid in ("ann", "bo", "cy"):
        g.do("ready", pid)
    pending = g.state["pending"]
    assert pending["player"] == "bo" and pending["options"] == ["Executioner's Block", "Kitchen"]
    g.do("decide", "bo", choice=1)
    for _ in range(2):                                    # one gain per hero
        assert g.state["pending"]["player"] == "ann" and g.state["pending"]["kind"] == "trait"
        g.do("decide", "ann", choice=0)
    assert g.p("ann")["traits"]["might"] == might + 2
    assert sphere(g) == "kitchen" and holder(g) == "ann"
    assert g.state["turn"]["player"] == "bo"
    assert not any("by hand" in t for t in g.texts())


def test_the_sphere_moves_after_the_traitor_and_annihilates_what_it_leaves(engine, dice):
    # Traitor's Tome, haunt 32: "Controlling the Sphere" (3 dice, up to that many spaces; each tile it exits is
    # annihilated with its tokens, adventurers and items; it stops on entering a space with an adventurer)
    # Ruling: the Sphere's move (steered one space at a time, may stop early, a level jump costs 1)
    g = sphere_game(engine)
    g.state["tokens"].append({"name": "Caltrops", "tile": "kitchen"})
    g.state["piles"]["kitchen"] = ["potion_of_healing"]
    g.state["decks"]["item"].remove("potion_of_healing")
    g.put("cy", "inner_chamber")
    to_sphere_turn(g, dice)
    options = g.state["pending"]["options"]
    assert g.state["pending"]["player"] == "ann"          # the Talisman's holder steers
    assert "Inner Chamber (east)" in options and "Catacomb Landing (across the levels)" in options
    assert options[-1] == "Stop here"
    g.do("decide", "ann", choice=options.index("Inner Chamber (east)"))
    assert sphere(g) == "inner_chamber"
    assert g.state["board"]["kitchen"].get("face_down")
    assert not [t for t in g.state["tokens"] if t["tile"] == "kitchen"]
    assert "kitchen" not in g.state["piles"] and "potion_of_healing" in g.state["discard"]["item"]
    assert g.state["turn"]["player"] == "bo" and not g.state["turn"].get("monsters")   # halted beside Cy
    check(g.c, g.state)


def test_an_annihilated_start_room_gets_a_tile_from_the_tallest_stack_face_down(engine, dice):
    # Traitor's Tome: Sphere of Annihilation, "Annihilating a Start Tile" (L2223: the top tile of the tallest stack
    # goes face down over the room that was annihilated)
    g = sphere_game(engine)
    g.put("cy", "inner_chamber")
    stacks = g.state["stacks"]
    tallest = max(("building", "street", "catacomb"), key=lambda k: (len(stacks[k]), -("building", "street",
                                                                                     "catacomb").index(k)))
    top, size = stacks[tallest][0], len(stacks[tallest])
    to_sphere_turn(g, dice)
    g.do("decide", "ann", choice=g.state["pending"]["options"].index("Inner Chamber (east)"))
    place = g.state["board"]["kitchen"]                          # the Kitchen: a room of the city start tile
    assert place.get("face_down") and place.get("cover") == top
    stacks = g.state["stacks"]
    assert len(stacks[tallest]) == size - 1 and top not in stacks[tallest]
    assert view(g.state, "bo")["board"]["kitchen"]["cover"] != top  # laid face down: nobody sees which
    check(g.c, g.state)


def test_an_adventurer_on_an_annihilated_tile_is_removed_with_their_items(engine, dice):
    # Traitor's Tome, haunt 32: "Controlling the Sphere" (adventurers on the tile it exits are removed)
    g = sphere_game(engine)
    g.put("bo", "kitchen")
    g.give("bo", "potion_of_healing")
    g.do("end", "bo")
    g.do("end", "cy")
    g.state["players"]["bo"]["tile"] = "kitchen"
    dice.next(1, 1, 1)
    g.do("end", "ann")
    g.do("decide", "ann", choice=g.state["pending"]["options"].index("Inner Chamber (east)"))
    assert not g.p("bo")["alive"]
    assert "potion_of_healing" in g.state["discard"]["item"] and "kitchen" not in g.state["piles"]


def test_the_sphere_still_moves_when_the_traitor_is_dead(engine, dice):
    # Traitor's Tome, haunt 32: "The Sphere of Annihilation" (it acts at the end of your turn, even if you are dead)
    g = sphere_game(engine)
    g.state["haunt"]["h32"]["holder"] = "cy"
    die(Ctx(g.c, g.state), "ann", "test")
    g.do("end", "bo")
    dice.next(1)
    g.do("end", "cy")
    assert g.state["turn"].get("monsters") and g.state["pending"]["player"] == "cy"


def test_starting_a_turn_on_the_spheres_tile_needs_speed_five(engine, dice):
    # Secrets of Survival, haunt 32: "You Must Do This at the Start of Your Turn"
    g = sphere_game(engine)
    g.put("cy", "kitchen")
    g.give("cy", "potion_of_healing")
    dice.next(1, 1)                           # Cy's Speed: 2, fails
    g.do("end", "bo")
    assert not g.p("cy")["alive"]
    assert "potion_of_healing" in g.state["discard"]["item"]
    assert not g.state["piles"].get("kitchen")


def test_leaving_an_annihilated_tile_takes_a_roll_in_any_trait(engine, dice):
    # Secrets of Survival, haunt 32: "Moving Through the Wreckage" (3+ in any trait; failure costs 1 of it)
    g = sphere_game(engine)
    g.state["board"]["inner_chamber"]["face_down"] = True
    g.put("bo", "inner_chamber")
    sanity = g.p("bo")["traits"]["sanity"]
    g.do("move", "bo", way="east")
    assert len(g.state["pending"]["options"]) == 4
    dice.next(0, 0)
    g.do("decide", "bo", choice=3)            # Sanity
    assert g.p("bo")["traits"]["sanity"] == sanity - 1 and g.p("bo")["tile"] == "elfsong_tavern"


def test_climbing_down_once_a_tile_is_annihilated(engine, dice):
    # Secrets of Survival, haunt 32: "Climbing Up or Down" (Speed 3+ down to the Catacomb Landing when no catacomb
    # tile is annihilated; a failure still lands you, with 1 physical damage; once per turn)
    # Ruling: climbing and the blast (needs an annihilated tile, ends the move, once a turn)
    g = sphere_game(engine)
    with pytest.raises(IllegalAction, match="once a tile has been annihilated"):
        g.do("task", "bo", trait="speed", task="climb")
    g.state["board"]["kitchen"]["face_down"] = True
    with pytest.raises(IllegalAction, match="Speed"):
        g.do("task", "bo", trait="might", task="climb")
    dice.next(2, 2)
    g.do("task", "bo", trait="speed", task="climb")
    assert g.p("bo")["tile"] == "catacomb_landing"
    with pytest.raises(IllegalAction, match="already tried to climb"):
        g.do("task", "bo", trait="might", task="climb")


def test_a_hero_steals_the_talisman_in_an_attack(engine, dice):
    # Secrets of Survival, haunt 32: "You Win When..." (steal the Talisman); rulebook: Stealing Items
    g = sphere_game(engine)
    g.put("bo", "elfsong_tavern")
    g.put("ann", "elfsong_tavern")
    dice.next(2, 2, 2, 2)                     # Bo attacks
    dice.next(0)                              # Ann defends
    g.do("attack", "bo", target="ann")
    options = g.state["pending"]["options"]
    assert "Steal the Talisman of the Sphere" in options
    g.do("decide", "bo", choice=options.index("Steal the Talisman of the Sphere"))
    assert holder(g) == "bo"


def test_attacks_may_use_knowledge(engine):
    # Secrets of Survival, haunt 32: "Attacking the Traitor" (Might or Knowledge)
    g = sphere_game(engine)
    g.put("ann", "elfsong_tavern")
    g.do("attack", "bo", target="ann", trait="knowledge")
    assert any("Knowledge" in t for t in g.texts())


def test_the_merge_wins_or_blasts_the_hero_away(engine, dice):
    # Secrets of Survival, haunt 32: "How to Stop the Sphere" (Knowledge 5+; a failure moves you 1 tile away)
    g = sphere_game(engine)
    g.state["haunt"]["h32"]["holder"] = "bo"
    g.put("bo", "kitchen")
    dice.next(0)
    g.do("task", "bo", trait="knowledge", task="merge")
    assert g.p("bo")["tile"] == "inner_chamber"          # the only placed tile one move away
    with pytest.raises(IllegalAction):
        g.do("task", "bo", trait="knowledge", task="merge")
    g.do("end", "bo")
    g.state["haunt"]["h32"]["holder"] = "cy"
    g.put("cy", "kitchen")
    dice.next(2, 2, 1)
    g.do("task", "cy", trait="knowledge", task="merge")
    assert g.state["phase"] == "over" and g.state["result"]["winner"] == "heroes"


def test_the_last_hero_alive_with_the_talisman_wins(engine):
    # Secrets of Survival, haunt 32: "You Win When..." (the last hero alive holding the Talisman)
    g = sphere_game(engine)
    g.state["haunt"]["h32"]["holder"] = "bo"
    die(Ctx(g.c, g.state), "cy", "test")
    g.do("end", "bo")
    assert g.state["phase"] == "over" and g.state["result"]["winner"] == "heroes"


def test_a_dead_holder_drops_the_talisman_for_pickup(engine):
    # Ruling: a Talisman holder killed by an attack leaves it on their tile, picked up with the declared move `pickup`
    g = sphere_game(engine)
    g.put("ann", "inner_chamber")
    die(Ctx(g.c, g.state), "ann", "test")
    assert holder(g) is None
    g.put("bo", "inner_chamber")
    offered = [a for a in legal_actions(g.c, g.state) if a["type"] == "task"]
    assert {"type": "task", "player": "bo", "task": "pickup"} in offered
    g.do("task", "bo", task="pickup")
    assert holder(g) == "bo"
    ctx = Ctx(g.c, g.state)
    assert set().union(*hooks.fire("haunt_goals", ctx, "bo")) == {"kitchen"}


def test_the_traitor_wins_when_every_hero_is_dead(engine):
    # Traitor's Tome, haunt 32: "You Win When..."
    g = sphere_game(engine)
    ctx = Ctx(g.c, g.state)
    die(ctx, "bo", "test")
    die(ctx, "cy", "test")
    from bot.games.babg.engine import haunt_play
    haunt_play.check_wins(ctx)
    assert g.state["result"]["winner"] == "traitor"


def test_the_map_draws_an_annihilated_tile_face_down(engine, tmp_path):
    # Traitor's Tome, haunt 32: "Controlling the Sphere" (annihilated tiles are flipped over)
    from bot.games.babg.render.draw import render_image
    g = sphere_game(engine)
    before = render_image(g.c, g.state)
    g.state["board"]["kitchen"]["face_down"] = True
    after = render_image(g.c, g.state)
    assert before.size == after.size and before.tobytes() != after.tobytes()


def test_an_annihilated_tile_has_no_printed_text(engine, dice):
    # Traitor's Tome, haunt 32: "Moving Through the Wreckage" (annihilated tiles are flipped over: what was
    # printed on them, their text, stairs and grate, is gone)
    g = sphere_game(engine)
    g.place("ambush_alley", "city", 3, 0, rot=1)   # its text acts when a turn ends there
    g.state["board"]["ambush_alley"]["face_down"] = True
    g.put("bo", "ambush_alley")
    g.do("end", "bo")
    assert g.state["turn"]["player"] == "cy" and not g.state["pending"]
    assert not any("Ambush" in t for t in g.texts())
    g.state["board"]["kitchen"]["face_down"] = True
    g.put("cy", "kitchen")
    from bot.games.babg.engine import moves
    assert "stairs" not in moves.ways_out(Ctx(g.c, g.state), "cy")


def test_an_undeclared_move_is_refused(engine):
    # Declared moves only: a name the haunt does not declare is refused
    g = sphere_game(engine)
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", "bo", trait="knowledge", task="annihilate")


def test_the_talisman_holder_follows_a_seat_handover(engine):
    # Traitor's Tome, haunt 32: "Right Now" (the traitor holds the Talisman). Found: after the traitor's seat was
    # handed over the record still named the old player and the next turn's checks raised KeyError
    g = sphere_game(engine)
    assert holder(g) == "ann"
    g.do("handover", "ann", to="zed", name="Zed")
    assert holder(g) == "zed"
    g.do("end", "bo")
    g.decide_all()
    legal_actions(g.c, g.state)
    assert g.state["phase"] == "haunt"


def test_a_dropped_talisman_names_nobody(engine):
    # Ruling: a Talisman holder killed leaves it on their tile; the token keeps no player id outside the record
    g = sphere_game(engine)
    g.put("ann", "inner_chamber")
    die(Ctx(g.c, g.state), "ann", "test")
    token = next(t for t in g.state["tokens"] if t["name"] == TALISMAN)
    assert "from" not in token
