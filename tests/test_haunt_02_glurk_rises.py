"""Haunt 2, Glurk Rises, played through the engine's actions: Glurk's
setup, the secret slave pens, the Goblin mob, enslaving, carrying, the
sacrifice, breaking free, freeing by stunning, calling more Goblins and the
two endings."""
import pytest

from bot.games.babg.engine import IllegalAction, hooks
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.legal import legal_actions
from bot.games.babg.engine.view import view
from tests.test_haunt_play import revealed


def glurk(engine, pens=0):
    """Ann reveals haunt 2 on the Cursed Statue with the Berserker Axe and is
    Glurk; order Bo, Cy, Ann, then the monster turn. The slave pens: option
    `pens` (0 = the Catacomb Landing)."""
    g = revealed(engine, "cursed_statue", "berserker_axe")
    assert g.state["haunt"]["number"] == 2 and g.state["haunt"]["traitors"] == ["ann"]
    events = []
    for pid in g.state["seats"]:
        events += g.do("ready", pid)
    events += g.do("decide", "ann", choice=pens)
    g.setup_events = events
    return g


def goblins(g):
    return [m for m in g.state["monsters"] if m["name"] == "Goblin" and not m["dead"]]


def enslaved(g):
    return g.state["haunt"]["h02"]["enslaved"]


def to_monster_turn(g):
    for pid in ("bo", "cy", "ann"):
        g.do("end", pid)
    assert g.state["turn"].get("monsters")


def test_setup_strengthens_glurk_places_goblins_and_keeps_the_pens_secret(engine):
    # Traitor's Tome, haunt 2: "Right Now" (Speed and Might to their starting values, +2 each; 2 Goblins per hero
    # on Glurk's tile; the slave pens written down in secret)
    g = revealed(engine, "cursed_statue", "berserker_axe")
    g.p("ann")["traits"]["speed"] = 1
    for pid in g.state["seats"]:
        g.do("ready", pid)
    start = g.c.adventurers[g.p("ann")["adventurer"]].tracks
    assert g.p("ann")["traits"]["speed"] == start["speed"].start + 2
    assert g.p("ann")["traits"]["might"] == start["might"].start + 2
    assert len(goblins(g)) == 4 and all(m["tile"] == g.p("ann")["tile"] for m in goblins(g))
    pending = g.state["pending"]
    assert pending["player"] == "ann" and pending["kind"] == "h02_pens"
    assert all(g.state["board"][t]["level"] == "catacomb" for t in pending["data"]["tiles"])
    events = g.do("decide", "ann", choice=1)
    secret = [e for e in events if "Your slave pens" in e["text"]]
    assert secret and {e["to"] for e in secret} == {"ann"}
    assert "h02_pens" not in view(g.state, "bo")["haunt"] and "h02_pens" in g.state["haunt"]
    assert not any("by hand" in e["text"] for e in events)


def test_the_goblin_mob_attacks_together_and_enslaves(engine, dice):
    # Traitor's Tome, haunt 2: "Special Goblin Mob Attack Rules" (Might added, 8 dice at most) and "Enslaving a Hero"
    # Ruling: Haunt 2: every standing Goblin on the tile joins the mob.
    g = glurk(engine)
    for m in goblins(g):
        m["tile"] = "inner_chamber"
    g.put("bo", "inner_chamber")
    to_monster_turn(g)
    dice.next(1, 0, 0, 0)                      # the mob: 4 dice, 1
    dice.next(0, 0)                            # Bo defends: 0
    events = g.do("monster", "ann", op="attack", monster="Goblin 1", target="bo")
    g.decide_all()
    assert any("4 Goblins mob Bo (4 dice)" in e["text"] for e in events)
    assert enslaved(g) == ["bo"]
    with pytest.raises(IllegalAction, match="already attacked"):
        g.do("monster", "ann", op="attack", monster="Goblin 2", target="bo")


def test_a_mob_that_loses_is_hurt_one_goblin_at_a_time(engine, dice):
    # Traitor's Tome, haunt 2: "Special Goblin Mob Attack Rules" (damage spread, 1 each, each hurt one stunned)
    g = glurk(engine)
    for m in goblins(g):
        m["tile"] = "inner_chamber"
    g.put("bo", "inner_chamber")
    to_monster_turn(g)
    dice.next(0, 0, 0, 0)
    dice.next(1, 1)                            # Bo: 2
    g.do("monster", "ann", op="attack", monster="Goblin 1", target="bo")
    assert sum(m["stunned"] for m in goblins(g)) == 2 and enslaved(g) == []


def test_carrying_an_enslaved_hero_to_the_pens_sacrifices_them(engine, dice):
    # Traitor's Tome, haunt 2: "Moving an Enslaved Hero"; Secrets of Survival, haunt 2: "Goblin Slavers"
    # Ruling: Haunt 2: Goblins carrying an enslaved hero; a sacrificed hero counts as dead.
    g = glurk(engine)                          # the pens: the Catacomb Landing
    goblin = goblins(g)[0]
    goblin["tile"] = "kitchen_basement"
    g.put("bo", "kitchen_basement")
    g.state["haunt"]["h02"]["enslaved"].append("bo")
    to_monster_turn(g)
    g.do("monster", "ann", op="move", monster=goblin["id"], way="east")
    pending = g.state["pending"]
    assert pending["kind"] == "h02_carry" and pending["options"] == ["Leave them", "Carry Bo"]
    g.do("decide", "ann", choice=1)
    assert not g.p("bo")["alive"]
    assert any("secret slave pens" in t for t in g.texts())


def test_an_enslaved_hero_rolls_to_break_free_or_loses_the_turn(engine, dice):
    # Secrets of Survival, haunt 2: "You Must Do This at the Start of an Enslaved Hero's Turn" (3+, +1 per standing
    # Goblin, -1 per free hero on the tile)
    g = glurk(engine)
    for m in goblins(g)[1:]:
        m["tile"] = "kitchen"
    goblins(g)[0]["tile"] = "inner_chamber"
    g.put("cy", "inner_chamber")
    g.state["haunt"]["h02"]["enslaved"].append("cy")
    dice.next(1, 1)                            # Cy's Speed: 2 against 4+
    g.do("end", "bo")
    assert any("Speed 4+" in t for t in g.texts())
    assert g.state["turn"]["player"] == "ann", "Cy lost the turn"
    g.do("end", "ann")
    g.do("end", "ann")
    g.put("bo", "inner_chamber")               # a free hero beside Cy: 3+
    g.do("end", "bo")
    assert any("Speed 3+" in t for t in g.texts()) and enslaved(g) == ["cy"]


def test_stunning_every_goblin_on_the_tile_frees_the_hero(engine, dice):
    # Secrets of Survival, haunt 2: "Freeing Enslaved Heroes"
    g = glurk(engine)
    goblins(g)[0]["tile"] = "inner_chamber"
    for m in goblins(g)[1:]:
        m["tile"] = "kitchen"
    g.put("cy", "inner_chamber")
    g.put("bo", "inner_chamber")
    g.state["haunt"]["h02"]["enslaved"].append("cy")
    dice.next(1, 1)                            # Bo: 2 against the Goblin's 0
    g.do("attack", "bo", target=goblins(g)[0]["id"])
    assert goblins(g)[0]["stunned"] and enslaved(g) == []


def test_calling_more_goblins_instead_of_moving(engine, dice):
    # Traitor's Tome, haunt 2: "Calling More Goblins" (2 dice; on Glurk's tile or a tile with a Goblin)
    g = glurk(engine)
    goblins(g)[0]["tile"] = "kitchen"
    g.do("end", "bo")
    with pytest.raises(IllegalAction, match="traitor"):
        g.do("task", "cy", task="call")
    g.do("end", "cy")
    with pytest.raises(IllegalAction, match="rolls no trait"):  # 2 dice, not a trait
        g.do("task", "ann", trait="might", task="call")
    dice.next(1, 1)                            # 2 Goblins
    g.do("task", "ann", task="call")
    assert g.state["pending"]["kind"] == "h02_goblin_tile"
    g.decide_all()
    assert len(goblins(g)) == 6 and g.state["turn"]["stopped"]
    with pytest.raises(IllegalAction):
        g.do("move", "ann", way="west")


def test_glurk_defeating_a_hero_enslaves_them(engine, dice):
    # Traitor's Tome, haunt 2: "Enslaving a Hero" (Glurk himself)
    g = glurk(engine)
    g.do("end", "bo")
    g.do("end", "cy")
    g.put("cy", g.p("ann")["tile"])
    dice.next(1)                               # Glurk: 1
    dice.next(0, 0, 0)                         # Cy: 0
    g.do("attack", "ann", target="cy")
    g.decide_all()
    assert enslaved(g) == ["cy"]


def test_the_heroes_win_when_glurk_dies_and_lose_when_all_are_gone(engine):
    # Secrets of Survival, haunt 2: "You Win When..."; Traitor's Tome, haunt 2: "You Win When..."
    from bot.games.babg.engine.ctx import Ctx  # noqa: PLC0415
    from bot.games.babg.engine.haunt_play import check_wins, die  # noqa: PLC0415
    g = glurk(engine)
    ctx = Ctx(g.c, g.state)
    die(ctx, "bo", "sacrificed")
    die(ctx, "cy", "sacrificed")
    check_wins(ctx)
    assert g.state["haunt"]["winner"] == "traitor"
    g = glurk(engine)
    ctx = Ctx(g.c, g.state)
    die(ctx, "ann", "slain")
    check_wins(ctx)
    assert g.state["haunt"]["winner"] == "heroes"


def test_the_haunts_actions_are_offered_while_they_are_open(engine, dice):
    # Traitor's Tome, haunt 2: "Calling More Goblins" (Glurk, instead of moving in his turn); "Moving an Enslaved
    # Hero" (to the secret pens: a goal only Glurk's own player reads)
    def offered():
        return {(a.get("trait"), a["task"]) for a in legal_actions(engine.content, g.state) if a["type"] == "task"}

    def goals(pid):
        return set().union(*hooks.fire("haunt_goals", Ctx(engine.content, g.state), pid))

    g = glurk(engine)
    assert offered() == set()                                  # Bo's turn: a hero calls nobody
    assert goals("bo") == {g.p("ann")["tile"]}                 # the heroes go after Glurk
    g.do("end", "bo")
    g.do("end", "cy")
    assert offered() == {(None, "call")}
    g.put("bo", g.p("ann")["tile"])
    enslaved(g).append("bo")
    assert goals("ann") == {"catacomb_landing"}                # a slave at hand: to the pens
    ctx = Ctx(engine.content, g.state)
    assert set().union(*hooks.fire("monster_goals", ctx, goblins(g)[0])) == {"catacomb_landing"}  # the Goblins too
    g.state["turn"]["moved"] = 1                              # (as if Glurk had taken a step)
    assert offered() == set()                                  # having moved, no call


def test_only_the_declared_moves_are_accepted(engine):
    # the haunt's one move is declared (call): any other name is refused
    g = glurk(engine)
    g.do("end", "bo")
    g.do("end", "cy")
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", "ann", task="summon")


def test_a_seat_handed_over_keeps_its_chains(engine):
    # the haunt's own record names players (the enslaved, whom each mover drags): a handed-over seat is renamed
    from bot.games.babg.engine import rulesets  # noqa: PLC0415
    g = glurk(engine)
    enslaved(g).append("bo")
    g.state["haunt"]["h02"]["carry"] = {"ann": "bo"}
    rulesets.rename_in_record(rulesets.REGISTRY[2], g.state, "bo", "dee")
    rulesets.rename_in_record(rulesets.REGISTRY[2], g.state, "ann", "eve")
    assert enslaved(g) == ["dee"] and g.state["haunt"]["h02"]["carry"] == {"eve": "dee"}


def test_no_setup_step_is_left_to_do_by_hand(engine):
    # Traitor's Tome, haunt 2: "Right Now": every step is carried out by the bot or needs no doing
    g = glurk(engine)
    assert not [e for e in g.setup_events if e["kind"] == "by_hand"]
