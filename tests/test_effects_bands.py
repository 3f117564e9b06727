"""Every result band of every roll on a card or tile: force a result in the
band and check that the band's effects happened (traits, cards, position,
marks), reading what to expect from the band's own steps.

# Rulebook: Attempt a Die Roll ("Then do what the effect says for that result")
"""
import pytest

from bot.games.babg.content import load_content
from bot.games.babg.engine import tokens as tk
from bot.games.babg.engine.content import NO_LOWER
from bot.games.babg.engine.effects import dice_for, roll_bonus
from bot.games.babg.engine.ctx import Ctx
from tests.invariants import check
from tests.test_effects_kit import faces, my_turn, run_steps

CONTENT = load_content()
START_POS = 4
FIRST_OF = {"physical": "might", "mental": "knowledge"}


def _rolls(steps, where):
    """Every roll step in a list of steps, looking inside choices and `each`."""
    for i, st in enumerate(steps):
        if st.get("do") == "roll":
            yield f"{where}[{i}]", st
        for j, opt in enumerate(st.get("options", [])):
            yield from _rolls(opt.get("then", []), f"{where}[{i}].options[{j}]")
        if st.get("do") == "each":
            yield from _rolls(st["then"], f"{where}[{i}].then")


def _cases():
    found = []
    for card in CONTENT.cards.values():
        fields = {"on_draw": card.on_draw, "on_use": card.on_use, "on_start_turn": card.on_start_turn,
                  "on_end_turn": card.on_end_turn, **{f"on_tile.{k}": v for k, v in card.on_tile.items()
                                                      if isinstance(v, list)}}
        for name, steps in fields.items():
            for where, roll in _rolls(list(steps), name):
                for b in range(len(roll["bands"])):
                    found.append(pytest.param(card.id, where, roll, b, id=f"{card.id}:{where}:band{b}"))
    for tile in CONTENT.tiles.values():
        for name, steps in tile.effects.items():
            for where, roll in _rolls(list(steps), name):
                for b in range(len(roll["bands"])):
                    found.append(pytest.param(tile.id, where, roll, b, id=f"{tile.id}:{where}:band{b}"))
    return found


CASES = _cases()


def test_the_bands_cover_many_rolls():
    # Rulebook: Attempt a Die Roll (every card and tile roll is in the list below)
    assert len({c.values[0] for c in CASES}) >= 40 and len(CASES) >= 100


def _target(band):
    return band["at_least"] if "at_least" in band else band["at_most"]


def _clamp(pos):
    return max(1, min(8, pos))


def _expect(game, pid, steps, model):
    """What the steps should do, for a player who always takes the first
    option offered."""
    for st in steps:
        do = st["do"]
        if do in ("gain", "lose"):
            traits = st.get("traits", st.get("trait"))
            trait = "might" if traits == "any" else traits if isinstance(traits, str) else traits[0]
            sign = 1 if do == "gain" else -1
            model["traits"][trait] = _clamp(model["traits"][trait] + sign * st.get("amount", 1))
        elif do == "damage":
            amount = st.get("amount", 2 * st.get("dice", 0))
            trait = FIRST_OF[st["kind"]]
            model["traits"][trait] = _clamp(model["traits"][trait] - amount)
        elif do == "draw":
            model["cards"] += 1
        elif do == "pick":
            model["cards"] += 1
        elif do == "move_to":
            dest = st["tile"] if st["tile"] in game.state["board"] else st.get("fallback")
            if dest in game.state["board"]:
                model["tile"] = dest
        elif do == "keep":
            model["keep"] = True
        elif do == "discard_this":
            model["discarded"] = True
            model["cards"] -= 1 if model["in_hand"] else 0
        elif do == "each":
            _expect(game, pid, st["then"], model)
        elif do == "discard":
            if st.get("count") == "all":
                model["cards"] -= model["items"]
                model["items"] = 0
                _expect(game, pid, st.get("then", []), model)
            else:
                model["cards"] -= 1
                model["items"] -= 1
                _expect(game, pid, st.get("then", []), model)
        elif do == "special":
            model["specials"].append((st["name"], st.get("part")))
        else:
            raise AssertionError(f"no expectation for step {do}")


def _special_checks(game, pid, name, part, source, before):
    p = game.p(pid)
    marks = [m["kind"] for m in p["marks"]]
    if name == "a_hags_blessing":
        assert "cursed" in marks
    elif name == "bhaals_call":  # 3 dice showing 2s beat Sanity 4: 2 mental damage, all to Knowledge
        assert p["traits"]["knowledge"] == before["traits"]["knowledge"] - 2
    elif name == "flash_flood":
        assert p["tile"] == "flooded_chamber" and "flooded_chamber" in game.state["board"]
    elif name == "forgotten_relic":
        assert game.p(pid)["traits"]["speed"] == 5  # Torskar's Speed starts on square 5
    elif name == "infernal_pact":
        assert p["traits"][part] == 1
    elif name == "rogue_air_elemental":
        assert "move_cap" in marks
    elif name == "the_green_devil_face":
        assert p["tile"] == "elfsong_tavern"
    elif name == "trapper":
        assert game.state["turn"]["player"] != pid, "the Trapper ends the turn"
    elif name == "will_o_wisp":
        assert "away" in marks
    elif name == "helm_of_teleportation":
        assert p["tile"] != "kitchen"
    elif name == "deck_of_many_things":
        assert min(p["traits"].values()) == 1
    elif name == "forgotten_cache":
        assert "action:forgotten_cache" in p["once"]
    elif name == "damage_monsters":  # no monsters before the haunt (in the haunt: tests/test_audit_events.py)
        assert not game.state.get("monsters")
    else:
        raise AssertionError(f"no check for special {name}")


@pytest.mark.parametrize("source, where, roll, band", CASES)
def test_every_band_does_what_it_says(game, dice, source, where, roll, band):
    # Card/tile: the source named in the test id; Rulebook: Attempt a Die Roll
    bands = roll["bands"]
    target = _target(bands[band])
    ctx = Ctx(game.c, game.state)
    pid = None
    for who in ("ann", "bo", "cy"):
        for t in game.p(who)["traits"]:
            game.p(who)["traits"][t] = START_POS
        n, _ = dice_for(ctx, who, roll)
        n += roll.get("extra_dice", 0)
        need = target - roll_bonus(ctx, who, roll)
        if 0 <= need <= 2 * n:
            pid = who
            break
    assert pid, "no adventurer can reach this band"
    my_turn(game, pid)
    game.put(pid, "kitchen")
    for other in ("ann", "bo", "cy"):
        if other != pid:
            game.put(other, "elfsong_tavern")
    game.state["turn"]["stopped"] = True
    from tests.test_effects_kit import give
    give(game, pid, "crossbow")
    steps = [roll]
    card = game.c.cards.get(source)
    if card:
        deck = game.state["decks"][card.deck]
        if source in deck:
            deck.remove(source)
        if where.startswith("on_tile"):
            tk.place(game.state, "Token", "kitchen", card=source)
        elif card.deck == "event" and where.startswith("on_draw"):
            steps.append({"do": "_settle_event", "card": source})
        else:
            game.p(pid)["cards"].append(source)
    before = {"traits": dict(game.p(pid)["traits"]), "cards": len(game.p(pid)["cards"]), "tile": "kitchen",
              "keep": False, "discarded": False, "specials": [], "items": 1,
              "in_hand": source in game.p(pid)["cards"]}
    model = {**before, "traits": dict(before["traits"]), "specials": []}
    _expect(game, pid, bands[band].get("then", []), model)
    dice.next(*faces(target - roll_bonus(ctx, pid, roll), n))
    for _ in range(4):
        dice.next(2, 2, 2)  # any damage dice that follow roll 2s
    run_steps(game, pid, steps, source=source)
    game.decide_all(0)
    p = game.p(pid)
    assert p["traits"] == model["traits"] or model["specials"], (p["traits"], model["traits"])
    if not model["specials"]:
        held = len(p["cards"])
        assert held == model["cards"] + (1 if model["keep"] else 0), (p["cards"], model)
        assert p["tile"] == model["tile"]
    if model["keep"]:
        assert source in p["cards"]
    if model["discarded"]:
        assert source in game.state["discard"][card.deck]
    for name, part in model["specials"]:
        _special_checks(game, pid, name, part, source, before)
    check(game.c, game.state)


def test_a_band_without_at_least_takes_negative_results():
    # Card: Deck of Many Things ("0 or less (Void)"): tokens can push the result below 0
    from bot.games.babg.engine.effects import band_for
    bands = CONTENT.cards["deck_of_many_things"].on_use[1]["bands"]
    assert band_for(bands, -2) is bands[-1] and NO_LOWER < -2
