"""Haunt 42, Rust Monsters to the Rescue!, played through the engine
(Traitor's Tome and Secrets of Survival, haunt 42). Ann (Torskar, the
lowest Knowledge) reveals it on the Executioner's Block with the Book of
Spells and is trapped in the armour; the heroes are Bo (Lia) and Cy
(Gretchen); the order is Bo, Cy, Ann, then the Rust Monsters' turn."""
import pytest

from bot.games.babg.engine import IllegalAction
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.haunts.h42_rust_monsters_to_the_rescue import RustMonstersToTheRescue
from bot.games.babg.engine.legal import legal_actions
from bot.games.babg.text import status
from tests.test_haunt_play import revealed

TRACK = "Time before the armour locks"


def rescue_game(engine, before=None):
    g = revealed(engine, "executioners_block", "book_of_spells")
    assert g.state["haunt"]["number"] == 42 and g.state["haunt"]["traitors"] == ["ann"]
    if before:
        before(g)
    for pid in g.state["seats"]:
        g.do("ready", pid)
    while g.state["pending"] and g.state["pending"]["kind"] == "h42_place":
        g.do("decide", "ann", choice=0)
    return g


def rusts(g):
    return [m for m in g.state["monsters"] if m["name"] == "Rust Monster" and not m["dead"]]


def tipped(g):
    return g.state["haunt"]["h42"]["tipped"]


def to(g, pid):
    for _ in range(8):
        if g.state["turn"]["player"] == pid and not g.state["turn"].get("monsters"):
            return
        g.do("end", g.state["turn"]["player"])
        g.decide_all(0)
    raise AssertionError(f"no turn for {pid}")


def test_setup_the_armour_and_the_rust_monsters_in_stasis(engine):
    # Traitor's Tome, haunt 42: "Right Now" (items dropped as at death; Speed back to its start + 2; three Rust
    # Monsters in stasis: one on the traitor's level as far as possible from them, two on the other level as far as
    # possible from its exits); Secrets of Survival, haunt 42: "Right Now" (the track on 6)
    g = revealed(engine, "executioners_block", "book_of_spells")
    g.give("ann", "crossbow")
    for pid in g.state["seats"]:
        g.do("ready", pid)
    assert "crossbow" not in g.p("ann")["cards"] and "crossbow" in g.state["piles"]["elfsong_tavern"]
    start = g.c.adventurers["torskar"].tracks["speed"].start
    assert g.p("ann")["traits"]["speed"] == start + 2
    pending = g.state["pending"]
    assert pending["player"] == "ann" and pending["options"] == ["Executioner's Block", "Kitchen"]
    g.do("decide", "ann", choice=1)
    assert g.state["pending"]["options"] == ["Catacomb Landing", "Kitchen Basement"]
    g.do("decide", "ann", choice=0)
    assert sorted(m["tile"] for m in rusts(g)) == ["catacomb_landing", "kitchen", "kitchen_basement"]
    assert all(m["stasis"] and m["ally"] == "heroes" for m in rusts(g))
    assert g.state["haunt"]["counters"][TRACK] == 6
    words = [e for e in g.events if "task knowledge release" in e["text"]]
    assert not words or all(e["to"] in ("bo", "cy") for e in words)
    assert not any("by hand" in e["text"] for e in g.events)


def test_the_armour_can_hold_nothing(engine):
    # Traitor's Tome, haunt 42: "Right Now" (anything the traitor would gain drops onto their tile)
    g = rescue_game(engine)
    to(g, "ann")
    g.state["piles"].setdefault(g.p("ann")["tile"], []).append("crossbow")
    g.do("pickup", "ann", card="crossbow")
    assert "crossbow" not in g.p("ann")["cards"] and "crossbow" in g.state["piles"][g.p("ann")["tile"]]


def test_the_armour_walks_and_fires_on_its_own(engine, dice):
    # Traitor's Tome, haunt 42: "Special Movement Rules" and "Special Attack Rules" (every opponent in line of sight,
    # Speed against Speed; 1-2 Blaster Ray). Ruling: how the armour moves (its tile, its targets nearest first).
    g = rescue_game(engine)
    to(g, "cy")
    g.put("bo", "elfsong_tavern")
    g.put("cy", "elfsong_tavern")
    g.put("ann", "elfsong_tavern")
    body = g.p("bo")["traits"]["might"] + g.p("bo")["traits"]["speed"]
    dice.next(1, 1)                              # the armour at Bo: 2
    dice.next(0, 0, 0)                           # Bo: 0 -> Blaster Ray
    seen = g.do("end", "cy")
    while g.state["pending"]:
        seen += g.do("decide", g.state["pending"]["player"], choice=0)
    assert any("Blaster Ray: Bo" in e["text"] for e in seen)
    assert g.p("bo")["traits"]["might"] + g.p("bo")["traits"]["speed"] == body - 2
    assert g.state["turn"]["attacked"]
    with pytest.raises(IllegalAction):
        g.do("move", "ann", way="west")


def test_paralysis_and_disintegration_rays(engine, dice):
    # Traitor's Tome, haunt 42: "Special Attack Rules" (3-4 Paralysis Ray: 2 Speed damage and stasis; 5+
    # Disintegration Ray: removed from the game, 1 Speed at the end of the turn)
    g = rescue_game(engine)
    to(g, "cy")
    g.put("bo", "elfsong_tavern")
    g.put("cy", "elfsong_tavern")
    g.put("ann", "elfsong_tavern")
    speed = g.p("bo")["traits"]["speed"]
    dice.next(2, 1)                                  # at Bo (nearer by name order: Bo, Cy): 3 against 0
    dice.next(0, 0, 0)
    dice.next(2, 2, 1)                               # at Cy: 5 against 0
    dice.next(0, 0, 0, 0)
    g.do("end", "cy")
    g.decide_all(0)
    assert g.p("bo")["traits"]["speed"] == speed - 2 and "bo" in tipped(g)
    assert not g.p("cy")["alive"]
    armour_speed = g.p("ann")["traits"]["speed"]
    g.do("end", "ann")
    g.decide_all(0)
    assert g.p("ann")["traits"]["speed"] == armour_speed + 1


def test_power_shutdown(engine, dice):
    # Traitor's Tome, haunt 42: "Power Shutdown Mode" (no damage; 2 or more tips the armour) and "You Must Do This at
    # the Start of Your Turn" (stand up, no move)
    g = rescue_game(engine)
    g.put("bo", "elfsong_tavern")
    traits = dict(g.p("ann")["traits"])
    dice.next(1, 1, 1)                               # Bo's Might attack: 3
    dice.next(0, 0, 0, 0, 0)
    g.do("attack", "bo", target="ann")
    g.decide_all(0)
    assert g.p("ann")["traits"] == traits and "ann" in tipped(g)
    to(g, "ann")
    assert "ann" not in tipped(g) and g.state["turn"]["stopped"]


def test_a_hero_in_stasis_must_roll_to_stand(engine, dice):
    # Secrets of Survival, haunt 42: "You Must Do This at the Start of Your Turn" (Sanity 4+, 1 less per hero on the
    # tile)
    g = rescue_game(engine)
    tipped(g).append("cy")
    g.put("bo", "kitchen")
    g.put("cy", "kitchen")
    dice.next(1, 1, 1)                               # 3: enough with Bo beside her
    g.do("end", "bo")
    g.decide_all(0)
    assert g.state["turn"]["player"] == "cy" and "cy" not in tipped(g)
    tipped(g).append("cy")
    g.put("bo", "elfsong_tavern")
    to(g, "bo")
    dice.next(1, 1, 1)                               # 3 alone: not enough
    g.do("end", "bo")
    g.decide_all(0)
    assert g.state["turn"]["player"] != "cy" and "cy" in tipped(g)


def test_releasing_a_rust_monster(engine, dice):
    # Secrets of Survival, haunt 42: "Releasing Rust Monsters" (Knowledge 5+; a failure puts the hero in stasis and
    # ends the turn)
    g = rescue_game(engine)
    tile = rusts(g)[0]["tile"]
    g.put("bo", tile)
    dice.next(2, 2, 1)
    g.do("task", "bo", trait="knowledge", task="release")
    assert not rusts(g)[0]["stasis"]
    with pytest.raises(IllegalAction):
        g.do("task", "bo", trait="knowledge", task="release")
    g.do("end", "bo")
    g.decide_all(0)
    g.put("cy", rusts(g)[1]["tile"])
    dice.next(1, 1)
    g.do("task", "cy", trait="knowledge", task="release")
    g.decide_all(0)
    assert rusts(g)[1]["stasis"] and "cy" in tipped(g) and g.state["turn"]["player"] != "cy"


def test_the_rust_monsters_turn_eats_and_the_track_drops(engine, dice):
    # Secrets of Survival, haunt 42: "Controlling the Rust Monsters" (dropped items first, then a hero's items) and
    # "You Must Do This at the End of the Monster Turn". Ruling: the Rust Monsters' turn (moved by the bot for the heroes).
    g = rescue_game(engine)
    m = rusts(g)[0]
    m["stasis"] = False
    g.state["piles"][m["tile"]] = ["crossbow"]
    to(g, "ann")
    g.do("end", "ann")
    g.decide_all(0)
    assert "crossbow" in g.state["discard"]["item"]
    assert g.state["haunt"]["counters"][TRACK] == 5
    assert g.state["turn"]["player"] == "bo"


def test_eating_the_armour_wins(engine, dice):
    # Secrets of Survival: Rust Monsters to the Rescue!, "Controlling the Rust Monsters", step 3 (L5033: "the heroes
    # win!") and "You Win When..." (L4999); Traitor's Tome: "You Win When..." (L2577: freed before the track reaches
    # 0): both sides win together, in the result and the closing line
    g = rescue_game(engine)
    for p in g.state["seats"]:
        g.p(p)["cards"] = [c for c in g.p(p)["cards"] if g.c.cards[c].deck != "item"]
    g.state["piles"] = {}
    to(g, "ann")
    m = rusts(g)[0]
    m["stasis"], m["tile"] = False, g.p("ann")["tile"]
    g.do("end", "ann")
    g.decide_all(0)
    result = g.state["result"]
    assert g.state["phase"] == "over" and result["sides"] == ["traitor", "heroes"]
    assert result["winner"] == "traitor" and result["reason"] == "haunt_won"   # the one-side form, as before
    assert sorted(result["winners"]) == sorted(g.state["seats"])          # every player of both sides
    assert result["condition"] == "traitor freed from the armour"
    closing = [e for e in g.events if e["kind"] == "over"]
    assert closing[0]["text"].startswith("The traitor and the heroes win together!")
    assert closing[0]["sides"] == ["traitor", "heroes"]
    books = g.c.haunts[42].raw
    endings = [sec["text"].strip()[:40] for book in ("heroes", "traitor") for sec in books[book]["section"]
               if sec["heading"].lower().startswith("if you win")]
    assert all(any(e["text"].startswith(end) for e in closing) for end in endings)  # both books' endings read
    assert "the traitor's side and the heroes won together" in status(g.c, g.state)


def test_the_track_at_zero_everyone_loses(engine):
    # Secrets of Survival, haunt 42: "You Must Do This at the End of the Monster Turn"; Traitor's Tome, haunt 42:
    # "You Lose When..."
    g = rescue_game(engine)
    g.state["haunt"]["counters"][TRACK] = 1
    to(g, "ann")
    g.do("end", "ann")
    g.decide_all(0)
    assert g.state["phase"] == "over" and g.state["result"]["winner"] is None


def test_every_hero_dead_everyone_loses(engine):
    # Ruling: who wins when the armour is eaten (with every hero dead nobody steers the Rust Monsters: no winner).
    g = rescue_game(engine)
    for p in ("bo", "cy"):
        g.p(p)["alive"] = False
    g.do("end", "bo") if g.state["turn"]["player"] == "bo" else None
    assert g.state["phase"] == "over" and g.state["result"]["winner"] is None


def test_buttons_and_goals(engine):
    # Secrets of Survival, haunt 42: "Releasing Rust Monsters" (the button and where the heroes go)
    g = rescue_game(engine)
    g.put("bo", rusts(g)[0]["tile"])
    assert [a["task"] for a in legal_actions(g.c, g.state) if a["type"] == "task"] == ["release"]
    rules, ctx = RustMonstersToTheRescue(), Ctx(g.c, g.state)
    assert rules.haunt_goals(ctx, "cy") == {m["tile"] for m in rusts(g)}
    assert rules.haunt_goals(ctx, "ann") is None


def test_disintegrating_the_last_rust_monster_loses_for_everyone(engine, dice):
    # Traitor's Tome, haunt 42: "Special Attack Rules" (5+ removes a Rust Monster too; the last one gone: everyone
    # loses) and "You Lose When..."
    g = rescue_game(engine)
    for m in rusts(g)[1:]:
        m["dead"] = True
    last = rusts(g)[0]
    to(g, "cy")
    g.put("bo", "kitchen_basement")
    g.put("cy", "kitchen_basement")
    g.put("ann", last["tile"])
    tipped(g).append("ann")                          # standing up from a shutdown: no walk this turn
    dice.next(2, 2, 2)                               # 6 against 0
    g.do("end", "cy")
    g.decide_all(0)
    assert last["tile"] == g.p("ann")["tile"]
    assert g.state["phase"] == "over" and g.state["result"]["winner"] is None


def test_the_blaster_ray_stuns_a_rust_monster(engine, dice):
    # Traitor's Tome, haunt 42, "Special Attack Rules" L2597 (1-2 Blaster Ray: 2 physical damage, to any opponent,
    # Rust Monsters included: no exemption is printed); rulebook, How Monsters Work (a damaged monster is stunned,
    # misses its next turn and recovers at its end)
    g = rescue_game(engine)
    for m in rusts(g)[1:]:
        m["dead"] = True
    rusts(g)[0]["stasis"] = False
    tile = rusts(g)[0]["tile"]
    to(g, "cy")
    g.put("bo", "kitchen_basement")
    g.put("cy", "kitchen_basement")
    g.put("ann", tile)
    g.state["piles"]["kitchen_basement"] = ["crossbow"]  # something for a Rust Monster that could move to eat
    tipped(g).append("ann")                          # standing up from a shutdown: no walk this turn
    dice.next(1, 1)                                  # 2 against 0: the Blaster Ray
    seen = g.do("end", "cy")
    assert any("Blaster Ray: Rust Monster" in e["text"] for e in seen)
    assert not any("shrugs off" in e["text"] for e in seen)
    assert rusts(g)[0]["stunned"]
    g.do("end", "ann")
    g.decide_all(0)
    assert rusts(g)[0]["tile"] == tile and not rusts(g)[0]["stunned"]  # it missed its turn, then recovered
    assert "crossbow" not in g.state["discard"]["item"]
    assert any("recovers" in e["text"] for e in g.events)


def test_an_undeclared_move_is_refused(engine):
    g = rescue_game(engine)
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", "bo", task="unlock")


def test_a_tipped_seat_handed_over_stays_tipped(engine, dice):
    # Secrets of Survival, haunt 42, "While in Stasis" (a tipped hero rolls Sanity 4+ to stand): the seat's new
    # holder is still tipped over, and may not release a Rust Monster
    g = rescue_game(engine)
    tipped(g).append("bo")
    g.do("handover", "bo", to="zed", name="Zed")
    assert tipped(g) == ["zed"]
    g.put("zed", rusts(g)[0]["tile"])
    with pytest.raises(IllegalAction, match="stasis"):
        g.do("task", "zed", trait="knowledge", task="release")
