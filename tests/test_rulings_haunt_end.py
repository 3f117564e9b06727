"""How a haunt ends when every hero is dead (docs/rulings.md, "Every hero
dead"): the heroes can no longer win (rulebook: Winning the Game), but their
deaths are the traitor's win only where the haunt says so."""
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.haunt_play import check_wins
from tests.test_haunt_play import all_ready, revealed


def kill_heroes(g):
    for pid in g.state["seats"]:
        if pid not in g.state["haunt"]["traitors"]:
            g.state["players"][pid]["alive"] = False


def test_a_traitor_whose_goal_is_elsewhere_does_not_win_by_the_heroes_deaths(engine):
    # Ruling: Every hero dead. Rulebook: Winning the Game ("at least one hero must survive for the heroes to win";
    # the first side to complete its goal wins). Haunt 24's traitor wins when Drabin Pufflebird dies.
    g = revealed(engine, "cursed_statue", "whispering_skull")
    all_ready(g)
    assert g.state["haunt"]["number"] == 24
    kill_heroes(g)
    ctx = Ctx(g.c, g.state)
    check_wins(ctx)
    assert g.state["phase"] == "haunt", "play goes on until the traitor's own goal is met"
    drabin = next(m for m in g.state["monsters"] if m["name"] == "Drabin Pufflebird")
    drabin["dead"] = True
    check_wins(ctx)
    assert g.state["phase"] == "over" and g.state["result"]["winner"] == "traitor"
    assert g.state["result"]["condition"] != "every hero dead"


def test_a_haunt_whose_traitor_wins_by_the_heroes_deaths_still_ends_so(engine):
    # Ruling: Every hero dead. Haunt 1's traitor wins (among other ways) when every hero is dead: its data says so.
    g = revealed(engine, "gladiator_pit", "pipes_of_haunting")
    all_ready(g)
    assert g.state["haunt"]["number"] == 1
    assert "all_heroes_dead" in [w.get("when") for w in g.c.haunts[1].raw["win"] if w["side"] == "traitor"]
    kill_heroes(g)
    check_wins(Ctx(g.c, g.state))
    assert g.state["phase"] == "over" and g.state["result"]["winner"] == "traitor"


def test_in_a_haunt_without_a_traitor_every_hero_dead_means_the_heroes_are_lost(engine):
    # Ruling: Every hero dead: with no traitor, nobody else is left to play; the heroes are lost.
    g = revealed(engine, "beasts_lair", "symbol_of_bhaal")  # haunt 4, Troll Hunt!: no traitor
    all_ready(g)
    assert g.state["haunt"]["kind"] == "no_traitor"
    kill_heroes(g)
    ctx = Ctx(g.c, g.state)
    check_wins(ctx)
    assert g.state["phase"] == "over" and g.state["result"]["condition"] == "every hero dead"
    assert any(e["text"].startswith("The heroes are lost") for e in ctx.ev)


def test_haunt_25s_lich_wins_when_every_hero_is_killed(engine):
    # Traitor's Tome, haunt 25, "You Win When..." (every hero killed or dominated): killing them all is enough.
    g = revealed(engine, "arcane_retreat", "homunculus")
    all_ready(g)
    g.decide_all(0)
    assert g.state["haunt"]["number"] == 25
    kill_heroes(g)
    check_wins(Ctx(g.c, g.state))
    assert g.state["phase"] == "over" and g.state["result"]["winner"] == "traitor"
