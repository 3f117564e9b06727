"""The haunt files are checked as thoroughly as the cards and tiles: every name
in a haunt (tile, monster, card, counter, token, heading) resolves, every count
is one the engine can work out, and a mistake fails naming the file, the entry
(the haunt's number) and the field."""
import copy
import re

import pytest

from bot.games.babg.content import read_files
from bot.games.babg.engine.content import COUNT_WORDS, ContentError, build_content, count_problem

BEHOLDER = "haunts/01_do_beholders_dream_of_electric_eye_rays.toml"
GLURK = "haunts/02_glurk_rises.toml"


@pytest.fixture(scope="module")
def raw():
    return read_files()


def altered(raw, fname, change):
    """The real files, with one haunt file changed in memory."""
    files = dict(raw)
    files[fname] = copy.deepcopy(raw[fname])
    change(files[fname])
    return files


def fails(files, fname, entry, fld, problem=""):
    with pytest.raises(ContentError) as info:
        build_content(files)
    message = str(info.value)
    assert message.startswith(f"{fname}: entry '{entry}': field '{fld}': "), message
    assert problem in message, message
    return message


def step(haunt, table, **match):
    """The first entry of a haunt's table with these values."""
    return next(x for x in haunt[table] if all(x.get(k) == v for k, v in match.items()))


def test_the_real_haunts_load(raw):
    content = build_content(raw)
    assert sorted(content.haunts) == list(range(1, 51))
    assert content.haunts[1].raw["monster"][0]["name"] == "Beholder"  # the shape the engine reads is kept


def test_every_count_in_the_real_haunts_is_countable(raw):
    for fname, data in raw.items():
        if fname.startswith("haunts/"):
            for x in data.get("setup", []) + data.get("win", []) + data.get("monster", []):
                for key in ("count", "value"):
                    if key in x:
                        assert count_problem(x[key]) is None, (fname, x)


# --- the top level ---------------------------------------------------------------------------------

def test_duplicate_haunt_number_names_both_files(raw):
    files = altered(raw, GLURK, lambda h: h.update(number=1))
    message = fails(files, GLURK, "1", "number", "haunt 1 is also")
    assert BEHOLDER in message


def test_a_haunt_number_out_of_range(raw):
    fails(altered(raw, GLURK, lambda h: h.update(number=51)), GLURK, "51", "number", "1 to 50")


def test_a_haunt_number_must_be_an_int(raw):
    fails(altered(raw, GLURK, lambda h: h.update(number="2")), GLURK, "2", "number", "expected int")


def test_an_empty_title(raw):
    fails(altered(raw, GLURK, lambda h: h.update(title=" ")), GLURK, "2", "title", "empty")


def test_an_unknown_kind(raw):
    fails(altered(raw, GLURK, lambda h: h.update(kind="traitors")), GLURK, "2", "kind", "not one of")


def test_a_kind_the_traitor_table_contradicts(raw):
    fails(altered(raw, GLURK, lambda h: h.update(kind="no_traitor")), GLURK, "2", "kind", "traitor_table.toml")


def test_an_unknown_turn_order(raw):
    fails(altered(raw, GLURK, lambda h: h.update(turn_order="heroes_first")), GLURK, "2", "turn_order")


def test_an_unknown_field_is_a_typo(raw):
    fails(altered(raw, GLURK, lambda h: h.update(monsters=[])), GLURK, "2", "monsters", "unknown field")


def test_an_id_that_is_not_the_titles(raw):
    fails(altered(raw, GLURK, lambda h: h.update(id="glurk_rise")), GLURK, "2", "id", "not the id of the title")


# --- the two sides ---------------------------------------------------------------------------------

def test_a_section_without_text(raw):
    files = altered(raw, BEHOLDER, lambda h: h["traitor"]["section"][2].pop("text"))
    fails(files, BEHOLDER, "1", "traitor.section[2].text", "missing")


def test_a_section_with_empty_text(raw):
    files = altered(raw, BEHOLDER, lambda h: h["heroes"]["section"][0].update(text="\n"))
    fails(files, BEHOLDER, "1", "heroes.section[0].text", "empty")


def test_a_section_without_heading(raw):
    files = altered(raw, BEHOLDER, lambda h: h["heroes"]["section"][1].update(heading=""))
    fails(files, BEHOLDER, "1", "heroes.section[1].heading", "empty")


def test_a_side_without_sections(raw):
    files = altered(raw, BEHOLDER, lambda h: h["heroes"].update(section=[]))
    fails(files, BEHOLDER, "1", "heroes.section", "at least one section")


def test_a_missing_side(raw):
    fails(altered(raw, BEHOLDER, lambda h: h.pop("heroes")), BEHOLDER, "1", "heroes", "missing")


def test_a_part_other_than_one_or_two(raw):
    files = altered(raw, BEHOLDER, lambda h: h["traitor"]["section"][3].update(part=3))
    fails(files, BEHOLDER, "1", "traitor.section[3].part", "not one of")


def test_a_part_two_without_its_condition(raw):
    files = altered(raw, BEHOLDER, lambda h: h["traitor"]["section"][3].update(part=2))
    fails(files, BEHOLDER, "1", "traitor.part_two_when", "needed")


def test_a_part_two_condition_must_be_text(raw):
    def change(h):
        h["traitor"]["section"][3]["part"] = 2
        h["traitor"]["part_two_when"] = 2
    fails(altered(raw, BEHOLDER, change), BEHOLDER, "1", "traitor.part_two_when", "expected str")


def test_an_intro_must_be_text(raw):
    fails(altered(raw, BEHOLDER, lambda h: h["traitor"].update(intro=["x"])), BEHOLDER, "1", "traitor.intro")


def test_a_stub_side_has_one_section(raw):
    fname = "haunts/03_hulking_vengeance.toml"
    files = altered(raw, fname, lambda h: h["traitor"]["section"].append({"heading": "More", "text": "More."}))
    fails(files, fname, "3", "traitor.section", "stub")


# --- monsters --------------------------------------------------------------------------------------

def test_a_string_stat(raw):
    fails(altered(raw, BEHOLDER, lambda h: h["monster"][0].update(might="5")), BEHOLDER, "1", "monster[0].might",
          "whole number")


def test_a_star_stat_needs_notes(raw):
    fname = "haunts/48_demon_slayers.toml"
    files = altered(raw, fname, lambda h: step(h, "monster", name="Demon").pop("notes"))
    index = [m["name"] for m in raw[fname]["monster"]].index("Demon")
    fails(files, fname, "48", f"monster[{index}].might", "notes")


def test_a_monster_twice(raw):
    files = altered(raw, BEHOLDER, lambda h: h["monster"][1].update(name="beholder"))
    fails(files, BEHOLDER, "1", "monster[1].name", "twice")


def test_a_monster_without_a_name(raw):
    fails(altered(raw, BEHOLDER, lambda h: h["monster"][0].update(name="")), BEHOLDER, "1", "monster[0].name")


def test_a_monster_on_no_side(raw):
    files = altered(raw, BEHOLDER, lambda h: h["monster"][0].update(side="monsters"))
    fails(files, BEHOLDER, "1", "monster[0].side", "not one of")


def test_a_bad_monster_count(raw):
    files = altered(raw, BEHOLDER, lambda h: h["monster"][1].update(count="adventurers/2"))
    fails(files, BEHOLDER, "1", "monster[1].count", "not a count")


# --- counters --------------------------------------------------------------------------------------

def test_a_counter_twice(raw):
    files = altered(raw, BEHOLDER, lambda h: h["counter"].append(dict(h["counter"][0])))
    fails(files, BEHOLDER, "1", "counter[1].name", "twice")


def test_a_bad_counter_start(raw):
    files = altered(raw, BEHOLDER, lambda h: h["counter"][0].update(start="2 adventurers"))
    fails(files, BEHOLDER, "1", "counter[0].start", "not a count")


# --- setup -----------------------------------------------------------------------------------------

def setup_index(raw, fname, **match):
    setup = raw[fname]["setup"]
    return setup.index(step(raw[fname], "setup", **match))


def test_an_unknown_tile_in_a_setup_step(raw):
    i = setup_index(raw, BEHOLDER, do="place_monster")
    files = altered(raw, BEHOLDER, lambda h: h["setup"][i].update(at="tile:kitchn"))
    fails(files, BEHOLDER, "1", f"setup[{i}].at", "no tile 'kitchn'")


def test_an_unknown_place_in_a_setup_step(raw):
    i = setup_index(raw, BEHOLDER, do="place_monster")
    files = altered(raw, BEHOLDER, lambda h: h["setup"][i].update(at="each_heroes"))
    fails(files, BEHOLDER, "1", f"setup[{i}].at", "tile:<tile id>")


def test_an_unknown_monster_in_a_setup_step(raw):
    i = setup_index(raw, BEHOLDER, do="place_monster")
    files = altered(raw, BEHOLDER, lambda h: h["setup"][i].update(monster="Beholdr"))
    fails(files, BEHOLDER, "1", f"setup[{i}].monster", "no monster 'Beholdr'")


def test_an_unknown_do(raw):
    i = setup_index(raw, BEHOLDER, do="manual")
    files = altered(raw, BEHOLDER, lambda h: h["setup"][i].update(do="manaul"))
    fails(files, BEHOLDER, "1", f"setup[{i}].do", "not one of")


def test_a_step_missing_what_its_do_needs(raw):
    i = setup_index(raw, BEHOLDER, do="place_monster")
    files = altered(raw, BEHOLDER, lambda h: h["setup"][i].pop("monster"))
    fails(files, BEHOLDER, "1", f"setup[{i}].monster", "missing")


def test_a_field_the_do_does_not_take(raw):
    i = setup_index(raw, BEHOLDER, do="manual")
    files = altered(raw, BEHOLDER, lambda h: h["setup"][i].update(monster="Beholder"))
    fails(files, BEHOLDER, "1", f"setup[{i}].monster", "unknown field")


def test_a_bad_count_expression(raw):
    i = setup_index(raw, BEHOLDER, do="set_counter")
    files = altered(raw, BEHOLDER, lambda h: h["setup"][i].update(value="2*adventurer"))
    fails(files, BEHOLDER, "1", f"setup[{i}].value", "not a count")


def test_a_setup_step_on_no_side(raw):
    i = setup_index(raw, BEHOLDER, do="manual")
    files = altered(raw, BEHOLDER, lambda h: h["setup"][i].update(side="hero"))
    fails(files, BEHOLDER, "1", f"setup[{i}].side", "not one of")


def test_a_setup_step_without_text(raw):
    i = setup_index(raw, BEHOLDER, do="manual")
    files = altered(raw, BEHOLDER, lambda h: h["setup"][i].update(text=""))
    fails(files, BEHOLDER, "1", f"setup[{i}].text", "empty")


def test_a_setup_part_two_with_no_second_part(raw):
    i = setup_index(raw, BEHOLDER, do="manual")
    files = altered(raw, BEHOLDER, lambda h: h["setup"][i].update(part=2))
    fails(files, BEHOLDER, "1", f"setup[{i}].part", "part_two_when")


def test_an_undeclared_counter_in_a_setup_step(raw):
    i = setup_index(raw, BEHOLDER, do="set_counter")
    files = altered(raw, BEHOLDER, lambda h: h["setup"][i].update(counter="Beholder hitpoints"))
    fails(files, BEHOLDER, "1", f"setup[{i}].counter", "no [[counter]]")


def test_an_unknown_card_id(raw):
    i = setup_index(raw, BEHOLDER, do="manual")
    files = altered(raw, BEHOLDER, lambda h: h["setup"][i].update(card="berserker_ax"))
    fails(files, BEHOLDER, "1", f"setup[{i}].card", "no card 'berserker_ax'")


def test_a_real_card_id_is_accepted(raw):
    i = setup_index(raw, BEHOLDER, do="manual")
    build_content(altered(raw, BEHOLDER, lambda h: h["setup"][i].update(card="berserker_axe")))


def test_an_unknown_deck(raw):
    fname = "haunts/45_forever_mead.toml"
    i = setup_index(raw, fname, do="draw")
    files = altered(raw, fname, lambda h: h["setup"][i].update(deck="events"))
    fails(files, fname, "45", f"setup[{i}].deck", "not one of")


def test_an_unknown_square_token(raw):
    fname = "haunts/10_rabble_rousers.toml"
    i = setup_index(raw, fname, token="Chest")
    files = altered(raw, fname, lambda h: h["setup"][i].update(token="Chset"))
    fails(files, fname, "10", f"setup[{i}].token", "square token")


# --- wins ------------------------------------------------------------------------------------------

def win_index(raw, fname, **match):
    return raw[fname]["win"].index(step(raw[fname], "win", **match))


def test_a_typo_in_a_win_condition(raw):
    i = win_index(raw, BEHOLDER, when="all_heroes_dead")
    files = altered(raw, BEHOLDER, lambda h: h["win"][i].update(when="all_heros_dead"))
    fails(files, BEHOLDER, "1", f"win[{i}].when", "not one of")


def test_an_unknown_counter_in_a_win(raw):
    fname = "haunts/30_darkness_falls.toml"
    i = win_index(raw, fname, when="counter_at")
    files = altered(raw, fname, lambda h: h["win"][i].update(counter="Time lef"))
    fails(files, fname, "30", f"win[{i}].counter", "no [[counter]] named 'Time lef'")


def test_a_bad_count_in_a_win(raw):
    i = win_index(raw, BEHOLDER, when="token_count")
    files = altered(raw, BEHOLDER, lambda h: h["win"][i].update(value="adventurers+"))
    fails(files, BEHOLDER, "1", f"win[{i}].value", "not a count")


def test_an_unknown_monster_in_a_win(raw):
    fname = next(f for f, d in raw.items() if f.startswith("haunts/") and
                 any(w["when"] == "monster_dead" for w in d["win"]))
    i = win_index(raw, fname, when="monster_dead")
    files = altered(raw, fname, lambda h: h["win"][i].update(monster="Nobody"))
    fails(files, fname, str(raw[fname]["number"]), f"win[{i}].monster", "no monster 'Nobody'")


def test_an_unknown_token_label_in_a_win(raw):
    i = win_index(raw, BEHOLDER, when="token_count")
    files = altered(raw, BEHOLDER, lambda h: h["win"][i].update(label="Beholderkid"))
    fails(files, BEHOLDER, "1", f"win[{i}].label", "no token 'Beholderkid'")


def test_an_unknown_comparison_in_a_win(raw):
    i = win_index(raw, BEHOLDER, when="token_count")
    files = altered(raw, BEHOLDER, lambda h: h["win"][i].update(op="=>"))
    fails(files, BEHOLDER, "1", f"win[{i}].op", "not one of")


def test_a_win_for_no_side(raw):
    i = win_index(raw, BEHOLDER, when="manual")
    files = altered(raw, BEHOLDER, lambda h: h["win"][i].update(side="hero"))
    fails(files, BEHOLDER, "1", f"win[{i}].side", "not one of")


def test_a_win_missing_what_its_when_needs(raw):
    i = win_index(raw, BEHOLDER, when="token_count")
    files = altered(raw, BEHOLDER, lambda h: h["win"][i].pop("value"))
    fails(files, BEHOLDER, "1", f"win[{i}].value", "missing")


# --- roll checks -----------------------------------------------------------------------------------

def test_a_roll_check_under_no_heading_of_its_side(raw):
    files = altered(raw, BEHOLDER, lambda h: h["roll_check"][0].update(side="heroes"))
    fails(files, BEHOLDER, "1", "roll_check[0].heading", "not a section heading of the heroes side")


def test_a_roll_check_with_an_unknown_trait(raw):
    files = altered(raw, BEHOLDER, lambda h: h["roll_check"][0].update(traits=["knowlege"]))
    fails(files, BEHOLDER, "1", "roll_check[0].traits", "'knowlege'")


def test_a_roll_check_with_a_bad_target(raw):
    files = altered(raw, BEHOLDER, lambda h: h["roll_check"][0].update(target="4+"))
    fails(files, BEHOLDER, "1", "roll_check[0].target", "'4+'")


# --- the count forms themselves --------------------------------------------------------------------

@pytest.mark.parametrize("good", [0, 3, "1", "heroes", "2*adventurers", "heroes+1", "3 * (players - traitors)"])
def test_count_forms_the_engine_reads(good):
    assert count_problem(good) is None


@pytest.mark.parametrize("bad", [-1, True, 2.5, "", "two", "2adventurers", "heroes/2", "2**heroes", "hero",
                                 "heroes+", "__import__", "Heroes", "(1"])
def test_count_forms_the_engine_cannot_read(bad):
    assert count_problem(bad) is not None


def test_count_words_are_the_engines():
    from bot.games.babg.engine import haunt_play
    assert COUNT_WORDS == haunt_play.COUNT_WORDS
    assert re.fullmatch(r"[a-z_]+", "".join(COUNT_WORDS))
