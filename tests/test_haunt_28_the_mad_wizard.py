"""Haunt 28, The Mad Wizard (no traitor), played through the engine's
actions: where the Iron Golem, the Mad Wizard and the Cultists go, the
Ritual track, the monster turn the bot plays (Cultists first, the Golem's
breath), convincing the wizard and her fireball, and curing her."""
import pytest

from bot.games.babg.engine import IllegalAction
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.haunt_play import allowed_tiles
from bot.games.babg.engine.legal import legal_actions
from tests.test_haunt_play import all_ready, revealed

CATACOMBS = ("forgotten_cache", "weapon_shop_basement", "flooded_chamber")


def mad_wizard(engine, ready=True):
    """Ann draws the Book of Spells on the Arcane Retreat: haunt 28, no
    traitor; Bo plays first, then Cy, then Ann, then the monsters. Three
    more catacomb tiles lie east of the Catacomb Landing."""
    g = revealed(engine, "arcane_retreat", "book_of_spells")
    assert g.state["haunt"]["number"] == 28 and g.state["haunt"]["kind"] == "no_traitor"
    for i, tid in enumerate(CATACOMBS):
        g.place(tid, "catacomb", 2 + i, 0, rot=0)
    if ready:
        all_ready(g)
    return g


def golem(g):
    return next(m for m in g.state["monsters"] if m["name"] == "Iron Golem")


def cultists(g):
    return [m for m in g.state["monsters"] if m["name"] == "Cultist"]


def wizard(g):
    return next(t["tile"] for t in g.state["tokens"] if t["name"] == "Mad Wizard")


def test_setup_golem_farthest_wizard_beside_it_cultists_spread(engine):
    # Secrets of Survival, haunt 28: "Right Now" (the Golem on the catacomb tile farthest from the Kitchen
    # Basement, the Mad Wizard with it, heroes + 2 Cultists one per catacomb tile, the rest spread evenly)
    g = mad_wizard(engine, ready=False)
    for pid in list(g.state["seats"]):
        g.do("ready", pid)
    pending = g.state["pending"]
    ctx = Ctx(g.c, g.state)
    far = allowed_tiles(ctx, g.c.haunts[28].raw["setup"][1])
    assert all(g.state["board"][t]["level"] == "catacomb" for t in far)
    assert pending is None or pending["player"] == "ann"  # the haunt revealer places them
    all_ready(g)
    assert golem(g)["tile"] in far and wizard(g) == golem(g)["tile"]
    spots = [m["tile"] for m in cultists(g)]
    assert len(spots) == 5 and all(g.state["board"][t]["level"] == "catacomb" for t in spots)
    counts = {t: spots.count(t) for t in set(spots)}
    assert len(counts) == 5 or max(counts.values()) - min(counts.values()) <= 1
    assert g.state["haunt"]["counters"]["Ritual"] == 0


def test_the_cultists_spread_evenly_once_every_catacomb_tile_has_one(engine):
    # Secrets of Survival, haunt 28: "Right Now" ("spread out the remaining Cultists as evenly as possible")
    g = revealed(engine, "arcane_retreat", "book_of_spells")
    all_ready(g)
    spots = [m["tile"] for m in cultists(g)]
    catacomb = [t for t in g.state["board"] if g.state["board"][t]["level"] == "catacomb"]
    counts = [spots.count(t) for t in catacomb]
    assert sum(counts) == 5 and max(counts) - min(counts) <= 1


def test_the_ritual_rises_after_the_revealers_turn_and_the_heroes_lose(engine):
    # Secrets of Survival, haunt 28: "You Must Do This at the End of the Haunt Revealer's Turn" and
    # "You Lose When..." (5 with 3-4 players)
    g = mad_wizard(engine)
    g.state["monsters"] = []   # nothing to disturb the count
    for _ in range(4):
        for pid in ("bo", "cy", "ann"):
            g.do("end", pid)
    assert g.state["haunt"]["counters"]["Ritual"] == 4 and g.state["phase"] == "haunt"
    g.do("end", "bo")
    g.do("end", "cy")
    g.do("end", "ann")
    assert g.state["phase"] == "over" and g.state["result"]["winner"] == "traitor"


def test_the_monster_turn_walks_cultists_first_toward_the_nearest_hero(engine, dice):
    # Secrets of Survival, haunt 28: "Special Cultist Rules" (toward the closest hero, Sanity attack, before the
    # Iron Golem) and "Special Iron Golem Movement Rules"
    # Ruling: Haunt 28: the bot walks the monsters; the runner picks only between equally near ways and heroes
    g = mad_wizard(engine)
    for m in g.state["monsters"]:
        m["tile"] = "forgotten_cache"
    g.state["monsters"] = [golem(g), cultists(g)[0]]
    for pid in ("ann", "bo", "cy"):
        g.put(pid, "elfsong_tavern")
    g.put("cy", "catacomb_landing")
    g.do("end", "bo")
    g.do("end", "cy")
    dice.next(1, 1, 1)        # Cultists' Speed: 3
    dice.next(1, 1, 1)        # Golem's Speed: 3
    dice.next(1, 0, 0, 0)     # the Cultist attacks Cy with Sanity (1 against 0)
    g.do("end", "ann")
    texts = g.texts()
    while g.state["pending"]:
        g.do("decide", g.state["pending"]["player"], choice=0)
        texts += g.texts()
    cultist_at = next(i for i, t in enumerate(texts) if "Cultist 1 moves" in t)
    golem_at = next(i for i, t in enumerate(texts) if "The Iron Golem moves" in t)
    assert cultist_at < golem_at
    assert any("Cultist 1 attacks Cy with Sanity" in t for t in texts)
    assert cultists(g)[0]["tile"] == "catacomb_landing" and golem(g)["tile"] == "catacomb_landing"
    g.decide_all(0)
    assert g.state["turn"]["player"] == "bo" and not g.state["turn"].get("monsters")


def test_the_runner_cannot_move_the_monsters_by_hand(engine):
    # Secrets of Survival, haunt 28: the monsters' moves are the book's, not the runner's
    g = mad_wizard(engine)
    g.state["turn"]["monsters"] = True
    with pytest.raises(IllegalAction):
        g.do("monster", "bo", op="move", monster=golem(g)["id"], way="west")


def test_the_golem_breathes_once_on_two_heroes(engine, dice):
    # Secrets of Survival, haunt 28: "Special Iron Golem Attack Rules" (2+ heroes on its tile: Might 5+ or 2 dice
    # of physical damage each; once per game)
    g = mad_wizard(engine)
    g.state["monsters"] = [golem(g)]
    golem(g)["tile"] = "catacomb_landing"
    for pid in ("bo", "cy"):
        g.put(pid, "catacomb_landing")
    g.do("end", "bo")
    g.do("end", "cy")
    g.do("end", "ann")
    assert any("breathes poison gas" in t for t in g.texts())
    assert g.state["haunt"]["h28"]["breathed"]
    g.decide_all(0)
    for pid in ("bo", "cy", "ann"):
        if g.state["turn"]["player"] == pid and not g.state["turn"].get("monsters"):
            g.do("end", pid)
    g.decide_all(0)
    assert not any("breathes poison gas" in t for t in g.texts())


def test_convincing_the_wizard_and_her_fireball(engine, dice):
    # Secrets of Survival, haunt 28: "Convincing the Wizard" (Knowledge 5+; a failure is a fireball on everyone
    # and every monster within 2 tiles, Speed 5+ or 2 dice of physical damage)
    g = mad_wizard(engine)
    where = wizard(g)
    g.put("bo", where)
    with pytest.raises(IllegalAction):
        g.do("task", "cy", trait="knowledge", task="convince")  # not on her tile (and not Cy's turn)
    assert {"type": "task", "player": "bo", "trait": "knowledge", "task": "convince"} in legal_actions(g.c, g.state)
    dice.next(1)              # Knowledge fails: fireball
    g.do("task", "bo", trait="knowledge", task="convince")
    assert any("fireball" in t for t in g.texts())
    g.decide_all(0)
    assert not g.state["haunt"]["h28"]["convinced"]
    with pytest.raises(IllegalAction):
        g.do("task", "bo", trait="knowledge", task="convince")  # once per turn
    g.do("end", "bo")
    g.do("end", "cy")
    g.do("end", "ann")
    g.decide_all(0)
    g.put("bo", where)
    dice.next(2, 2, 1)
    g.do("task", "bo", trait="knowledge", task="convince")
    assert g.state["haunt"]["h28"]["convinced"]


def test_once_convinced_she_goes_with_a_hero_and_the_cure_wins(engine, dice):
    # Secrets of Survival, haunt 28: "Convincing the Wizard" (she moves with any hero leaving her tile) and
    # "Delivering the Mad Wizard" (Sanity 4+ on the Sorcerous Sundries; a failure is 2 mental damage)
    g = mad_wizard(engine)
    g.place("sorcerous_sundries", "city", 2, -1, rot=0)
    g.state["monsters"] = []
    for t in g.state["tokens"]:
        if t["name"] == "Mad Wizard":
            t["tile"] = "inner_chamber"
    g.state["haunt"]["h28"]["convinced"] = True
    g.put("bo", "inner_chamber")
    g.do("move", "bo", way="east")
    assert wizard(g) == "elfsong_tavern"
    g.put("bo", "sorcerous_sundries")
    for t in g.state["tokens"]:
        if t["name"] == "Mad Wizard":
            t["tile"] = "sorcerous_sundries"
    with pytest.raises(IllegalAction):
        g.do("task", "bo", trait="knowledge", task="cure")
    dice.next(1)              # Sanity fails: 2 mental damage
    g.do("task", "bo", trait="sanity", task="cure")
    assert g.state["phase"] == "haunt"
    g.decide_all(0)
    g.do("end", "bo")
    g.do("end", "cy")
    g.do("end", "ann")
    g.decide_all(0)
    g.put("bo", "sorcerous_sundries")
    dice.next(2, 2)
    g.do("task", "bo", trait="sanity", task="cure")
    assert g.state["phase"] == "over" and g.state["result"]["winner"] == "heroes"


def test_the_wizard_is_no_monster(engine):
    # Secrets of Survival, haunt 28: "Special Mad Wizard Rules" (never stunned nor killed, no monster turn)
    g = mad_wizard(engine)
    assert not any(m["name"] == "Mad Wizard" for m in g.state["monsters"])
    g.put("bo", wizard(g))
    assert not any(a["type"] == "attack" and a.get("target") == "Mad Wizard" for a in legal_actions(g.c, g.state))


def test_the_ritual_goes_on_after_the_revealer_dies(engine, dice):
    # Secrets of Survival, haunt 28: "You Must Do This at the End of the Haunt Revealer's Turn"
    # Ruling: Haunt 28: the ritual goes on without the revealer, at the start of the monster turn
    from bot.games.babg.engine.death import die
    g = mad_wizard(engine)
    for m in g.state["monsters"]:
        m["tile"] = "flooded_chamber"  # out of everyone's reach
    die(Ctx(g.c, g.state), "ann", "test")
    g.do("end", "bo")
    g.do("end", "cy")
    g.decide_all(0)
    assert g.state["haunt"]["counters"]["Ritual"] == 1


def test_an_undeclared_move_is_refused(engine):
    # Declared moves only: a name the haunt does not declare is refused
    g = mad_wizard(engine)
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", "bo", trait="knowledge", task="persuade")


def test_her_escort_follows_a_seat_handover(engine):
    # Secrets of Survival, haunt 28: "Convincing the Wizard" (she goes with the hero leaving her tile); the
    # record's escort is renamed with the seat
    g = mad_wizard(engine)
    g.state["haunt"]["h28"]["with"] = "bo"
    g.do("handover", "bo", to="zed", name="Zed")
    assert g.state["haunt"]["h28"]["with"] == "zed"
