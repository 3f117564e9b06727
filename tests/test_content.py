"""rules_data loads, validates, and says exactly what is wrong with a bad file."""
import copy
import subprocess
import sys

import pytest

from bot.games.babg.content import read_files
from bot.games.babg.engine.content import ContentError, build_content


@pytest.fixture(scope="module")
def raw():
    return read_files()


def test_counts(content):
    decks = [c.deck for c in content.cards.values()]
    assert (decks.count("event"), decks.count("item"), decks.count("omen")) == (45, 22, 13)
    assert len(content.tiles) == 47 and len(content.adventurers) == 12 and len(content.haunts) == 50
    assert sum(1 for t in content.tiles.values() if t.symbol == "omen") == 13
    assert set(content.chart_rows) == {t.id for t in content.tiles.values() if t.symbol == "omen"}


def test_every_entry_has_a_provenance(content):
    for entry in [*content.cards.values(), *content.tiles.values(), *content.adventurers.values()]:
        assert entry.provenance in ("printed", "single-source", "provisional")
        if entry.provenance != "printed":
            assert entry.provenance_note.strip(), entry.name


def bad(raw, fname, index, table="tile", **change):
    broken = copy.deepcopy(raw)
    entry = broken[fname][table][index]
    for key, value in change.items():
        if value is None:
            del entry[key]
        else:
            entry[key] = value
    return broken


def test_a_missing_field_names_file_entry_and_field(raw):
    with pytest.raises(ContentError, match=r"tiles.toml: entry 'kitchen': field 'name': missing"):
        build_content(bad(raw, "tiles.toml", 0, name=None))


def test_a_provisional_entry_needs_a_reason(raw):
    with pytest.raises(ContentError, match=r"cards/items.toml: entry '\w+': field 'provenance_note'"):
        build_content(bad(raw, "cards/items.toml", 0, "card", provenance="provisional", provenance_note=""))


def test_roll_bands_must_cover_every_result(raw):
    broken = copy.deepcopy(raw)
    card = next(c for c in broken["cards/events.toml"]["card"] if c["id"] == "death_vision")
    card["on_draw"][0]["bands"].pop()
    with pytest.raises(ContentError, match=r"events.toml: entry 'death_vision': field 'on_draw\[0\].bands'"):
        build_content(broken)


def test_a_track_needs_eight_values(raw):
    broken = copy.deepcopy(raw)
    broken["adventurers.toml"]["adventurer"][0]["might"]["track"] = [1, 2, 3]
    with pytest.raises(ContentError, match=r"adventurers.toml: entry 'torskar': field 'might.track'"):
        build_content(broken)


def test_content_command_reports_counts():
    out = subprocess.run([sys.executable, "-m", "bot", "content"], capture_output=True, text=True, check=True).stdout
    assert "cards: 80 (45 events, 22 items, 13 omens)" in out
    assert "tiles: 47" in out and "adventurers: 12" in out
    assert "provisional entries" in out
    assert "carried out by the engine: cards 80 of 80, tiles 47 of 47, adventurers 12 of 12" in out


def test_every_entry_has_a_working_effect(content):
    # Project rule: every card, tile and power is carried out by the engine; a named function counts only with a handler
    from bot.games.babg.content.report import effect_ways
    ways = effect_ways(content)
    assert len(ways) == 80 + 47 + 12
    assert [f"{kind} {e.name}" for kind, e, how in ways if not how] == []
    how = {e.id: h for _, e, h in ways}
    assert "named: whispering_skull" in how["whispering_skull"] and "weapon" in how["crossbow"]  # (haunts name it too)


def test_a_special_without_a_handler_is_not_an_effect(content, monkeypatch):
    from bot.games.babg.content.report import effect_ways
    from bot.games.babg.engine import effects
    monkeypatch.delitem(effects.SPECIALS, "whispering_skull")
    how = {e.id: h for _, e, h in effect_ways(content)}
    assert not any(h.startswith("named") for h in how["whispering_skull"])


def test_haunt_41_counts_the_portal_as_a_quest_token(content):
    # Traitor's Tome: haunt 41, Right Now (the Portal is itself a triangular quest token on its tile), so one
    # quest token set aside per hero and one on the tile per adventurer agree (L4930-4969)
    heroes = " ".join(section["text"] for section in content.haunts[41].raw["heroes"]["section"])
    assert "number of adventurers" in heroes and "Portal's own quest token counts" in heroes
    win = next(w for w in content.haunts[41].raw["win"] if w["side"] == "heroes")
    assert win["value"] == "adventurers-1"
