"""The chronicle's record (bot.chronicle): a Betrayal Legacy style campaign
kept beside the games. Each seed rule names its line in the Legacy rulebook
(/work/shared/seeds/004_2627a2c7c178fe54.txt)."""
import json
import pathlib
import tomllib

import pytest

from bot import chronicle as ch
from bot.chronicle.campaign import _sides
from bot.games.babg.engine.specials.legacy import crest_draw

ROOT = pathlib.Path(__file__).resolve().parents[1]
BOOK = ch.parse((ROOT / ch.FILE).read_text())
PLAYERS = ("ann", "bo", "cy")


def campaign(rules_off=False, players=PLAYERS):
    c = ch.new_campaign("c1", BOOK, rules_off=rules_off)
    for player, family in zip(players, ("blue", "green", "red", "yellow", "purple")):
        c = ch.choose_family(c, player, family, f"House {family}")
    return c


def final_state(opts, haunt, *, winner="heroes", sides=None, traitors=(), dead=(), discovered=(), made=()):
    """A finished game as babg leaves it (state and events), for a chapter's options."""
    chron = opts["chronicle"]
    seats = list(chron["seats"])
    players = {p: {"name": p.capitalize(), "alive": p not in dead, "tile": "wide_street" if p in dead else
                   "elfsong_tavern"} for p in seats}
    result = {"reason": "haunt_won", "winner": winner, "haunt": haunt}
    if sides:
        result["sides"] = sides
    state = {"seats": seats, "players": players, "options": opts, "phase": "over", "result": result,
             "haunt": {"number": haunt, "title": f"Haunt {haunt}", "traitors": list(traitors), "kind": "traitor"},
             "chronicle": {"families": [chron["seats"][p]["family"] for p in seats], "made": list(made),
                           "deaths": [{"seat": seats.index(p), "player": p, "killer": "m1",
                                       "killer_name": "the Beholder", "tile": "wide_street",
                                       "tile_name": "Wide Street"} for p in dead]}}
    events = [{"kind": "death", "to": "all", "text": f"{p} dies: their Might fell to the skull.", "player": p}
              for p in dead]
    events += [{"kind": "discover", "to": "all", "text": f"{seats[0]} discovers the {t.title()} (street).",
                "player": seats[0], "tile": t} for t in discovered]
    return state, events


def play_chapter(c, seed, **kw):
    opts = ch.chapter_options(c, seed, book=BOOK)
    state, events = final_state(opts, opts["chosen_haunt"], **kw)
    return ch.record_chapter_end(c, opts, state, events, book=BOOK), opts


# --- the book ----------------------------------------------------------------------------------

def test_book_has_five_families_an_effect_per_item_type_and_both_endings_for_every_haunt():
    # Betrayal Legacy rulebook L278: "The five families' traits are slightly different" (our design says how)
    assert len(BOOK["families"]) == 5
    assert len({f["colour"] for f in BOOK["families"].values()}) == 5
    assert len({f["crest"] for f in BOOK["families"].values()}) == 5
    assert all(f["traits"] and sum(f["traits"].values()) == 0 for f in BOOK["families"].values())
    # Betrayal Legacy rulebook L492: an heirloom's extra effect (ours: one per item type)
    items = [c["id"] for c in tomllib.loads((ROOT / "rules_data/cards/items.toml").read_text())["card"]]
    assert sorted(BOOK["item_types"]) == sorted(items)
    assert set(BOOK["item_types"].values()) == set(BOOK["effects"])
    # Betrayal Legacy rulebook L827: a chapter ending for each side that can win, for each of our 50 haunts
    assert sorted(BOOK["endings"]) == list(ch.HAUNTS)
    for passages in BOOK["endings"].values():
        assert set(passages) == {"heroes", "traitor"}
        assert all(p.count(".") + p.count("!") <= 3 for p in passages.values())
    raw = tomllib.loads((ROOT / ch.FILE).read_text())
    assert "our design" in raw["provenance_note"].lower()


# --- families and members ----------------------------------------------------------------------

def test_a_player_keeps_one_family_for_the_campaign():
    # Betrayal Legacy rulebook L278, L300: each player plays the same family in each game
    c = campaign()
    assert c["families"]["blue"]["player"] == "ann" and c["families"]["blue"]["name"] == "House blue"
    with pytest.raises(ch.ChronicleError):
        ch.choose_family(c, "dee", "blue", "Usurpers")
    with pytest.raises(ch.ChronicleError):
        ch.choose_family(c, "ann", "yellow", "Second house")
    renamed = ch.choose_family(c, "ann", "blue", "Marsh")
    assert renamed["families"]["blue"]["name"] == "Marsh" and c["families"]["blue"]["name"] == "House blue"
    assert c["rules_off"] is False and ch.new_campaign("x", BOOK, rules_off=True)["rules_off"] is True


def test_a_survivor_returns_older_and_the_dead_are_followed_by_kin():
    # Betrayal Legacy rulebook L138, L291: the same character if they survived, now older; else a relative
    c = campaign()
    ann = ch.member_for(c, "blue", "Tamsin", 30)
    assert ann == {"first_name": "Tamsin", "age": 30, "returning": False}
    opts = ch.chapter_options(c, 1, book=BOOK, members={"ann": ann, "bo": ch.member_for(c, "green", "Odo", 50)})
    state, events = final_state(opts, opts["chosen_haunt"], dead=("bo",))
    c = ch.record_chapter_end(c, opts, state, events, book=BOOK)
    back = ch.member_for(c, "blue", "tamsin", 20)
    assert back["returning"] and back["first_name"] == "Tamsin" and back["age"] == 31
    assert ch.member_for(c, "blue", "Tamsin", 45)["age"] == 45
    assert not ch.member_for(c, "green", "Odo", 60)["returning"]  # Odo died: a namesake, not Odo
    assert c["families"]["green"]["members"][0]["died"] is True
    # no member given: the survivor comes back a year older
    assert ch.chapter_options(c, 2, book=BOOK)["chronicle"]["seats"]["ann"]["member"]["age"] == 31


# --- chapters and haunts -----------------------------------------------------------------------

def test_no_haunt_repeats_over_the_prologue_and_thirteen_chapters():
    # Betrayal Legacy rulebook L126: 13 chapters plus a prologue, then free play
    c = campaign()
    numbers = []
    for seed in range(14):
        assert ch.next_chapter(c) == seed
        c, opts = play_chapter(c, seed * 7919)
        numbers.append(opts["chosen_haunt"])
    assert len(set(numbers)) == 14 and set(numbers) <= set(ch.HAUNTS)
    assert [x["number"] for x in c["chapters"]] == list(range(14))
    assert c["chapters"][0]["title"] == "the prologue" and c["chapters"][13]["title"] == "chapter 13"
    assert ch.next_chapter(c) == 14 and ch.chapter_options(c, 1, book=BOOK)["chronicle"]["free_play"] is True


def test_the_haunt_is_picked_from_the_seed_and_repeats_only_when_all_fifty_are_played():
    c = campaign()
    assert ch.pick_haunt(c, 99) == ch.pick_haunt(c, 99)
    assert len({ch.pick_haunt(c, s) for s in range(40)}) > 10
    for seed in range(50):
        c, _ = play_chapter(c, seed)
    assert sorted(ch.played_haunts(c)) == list(ch.HAUNTS)
    last = ch.played_haunts(c)[-1]
    again = {ch.pick_haunt(c, s) for s in range(30)}
    assert last not in again and again <= set(ch.HAUNTS)


def test_the_house_rules_are_on_unless_turned_off_at_the_start():
    assert ch.chapter_options(campaign(), 1, book=BOOK)["rules"] == ["legacy-house-rules"]
    assert ch.chapter_options(campaign(rules_off=True), 1, book=BOOK)["rules"] == []
    game, chron = ch.game_options(ch.chapter_options(campaign(), 1, book=BOOK))
    assert "chronicle" not in game and set(chron["seats"]) == set(PLAYERS)


# --- catching up -------------------------------------------------------------------------------

def test_catch_up_when_a_family_missed_more_than_half_of_the_chapters():
    # Betrayal Legacy rulebook L847: "If a family has missed MORE than half of the played chapters"
    c = campaign(players=PLAYERS + ("dee",))
    assert not ch.catch_up(c, "yellow")  # nothing played yet
    for seed, present in enumerate((("ann", "bo", "cy", "dee"), ("ann", "bo", "cy", "dee"),
                                    ("ann", "bo", "cy"), ("ann", "bo", "cy"))):
        opts = ch.chapter_options(c, seed, book=BOOK, present=list(present))
        state, events = final_state(opts, opts["chosen_haunt"])
        c = ch.record_chapter_end(c, opts, state, events, book=BOOK)
    assert not ch.catch_up(c, "yellow")  # missed 2 of 4: exactly half is not more than half
    assert ch.catch_up(c, "purple")  # never played: missed 4 of 4
    assert not ch.catch_up(c, "blue")
    opts = ch.chapter_options(c, 9, book=BOOK, present=["ann", "bo", "cy"])
    state, events = final_state(opts, opts["chosen_haunt"])
    c = ch.record_chapter_end(c, opts, state, events, book=BOOK)
    assert ch.catch_up(c, "yellow")  # missed 3 of 5
    assert ch.chapter_options(c, 3, book=BOOK, present=["ann", "dee"])["chronicle"]["seats"]["dee"]["catch_up"]


# --- heirlooms ---------------------------------------------------------------------------------

def test_heirlooms_once_per_game_only_from_the_deck_and_at_most_nine():
    c = campaign()
    # Betrayal Legacy rulebook L502: once per game, an item drawn from the deck
    assert ch.heirloom_allowed(c, "blue", "deck", False)[0]
    ok, why = ch.heirloom_allowed(c, "blue", "deck", True)
    assert not ok and "already" in why
    # Betrayal Legacy rulebook L504: not picked up from a tile, nor through a GIVE or TAKE
    for how in ("pickup", "gift", "take"):
        ok, why = ch.heirloom_allowed(c, "blue", how, False)
        assert not ok and "drawn from the item deck" in why
    # Betrayal Legacy rulebook L847: the catch-up item does not count toward the once-per-game limit
    assert ch.heirloom_allowed(c, "blue", "catch_up", True)[0]
    # Betrayal Legacy rulebook L500 (and L189): at most nine heirlooms a family
    c["families"]["blue"]["heirlooms"] = [{"item": f"i{n}", "name": None, "chapter": n} for n in range(9)]
    ok, why = ch.heirloom_allowed(c, "blue", "deck", False)
    assert not ok and "9" in why
    assert not ch.heirloom_allowed(c, "blue", "catch_up", False)[0]
    # Betrayal Legacy rulebook L508: a card already stickered has no space left
    assert not ch.heirloom_allowed(c, "green", "deck", False, item="i3")[0]


def test_an_heirloom_made_in_a_game_is_written_down_and_named_later():
    # Betrayal Legacy rulebook L502: place the sticker; if it has no name, give it one
    c, _ = play_chapter(campaign(), 5, made=[{"family": "blue", "item": "crossbow", "how": "deck", "chapter": 0}])
    assert c["families"]["blue"]["heirlooms"] == [{"item": "crossbow", "name": None, "chapter": 0}]
    c = ch.name_heirloom(c, "blue", "crossbow", "Tamsin's Patient Bolt")
    assert c["families"]["blue"]["heirlooms"][0]["name"] == "Tamsin's Patient Bolt"
    with pytest.raises(ch.ChronicleError):
        ch.name_heirloom(c, "green", "crossbow", "Mine now")
    opts = ch.chapter_options(c, 1, book=BOOK)
    assert opts["chronicle"]["seats"]["ann"]["heirlooms"] == [{"item": "crossbow", "name": "Tamsin's Patient Bolt"}]
    assert opts["chronicle"]["heirloomed"] == ["crossbow"]


# --- the traitor's tie -------------------------------------------------------------------------

def test_a_traitor_tie_is_broken_by_a_random_crest_of_the_tied_families():
    # Betrayal Legacy rulebook L625: draw a random Crest token from tied families (L63: two per family)
    c = campaign()
    seen = set()
    for seed in range(60):
        a, b = {"rng": seed}, {"rng": seed}
        drawn = ch.break_traitor_tie(c, ["red", "blue"], a)
        assert drawn in ("red", "blue") and drawn == crest_draw(["red", "blue"], b)
        assert a == b  # the engine's draw takes the same chance
        seen.add(drawn)
    assert seen == {"red", "blue"}
    with pytest.raises(ch.ChronicleError):
        ch.break_traitor_tie(c, ["mauve"], {"rng": 1})


# --- the end of a chapter ----------------------------------------------------------------------

def test_fates_winners_ending_and_first_found_tiles():
    # Betrayal Legacy rulebook L300: record the fate, whether they died, and whether they were a traitor
    c = campaign()
    before = json.dumps(c, sort_keys=True)
    c2, opts = play_chapter(c, 3, winner="traitor", traitors=("bo",), dead=("ann",),
                            discovered=("wide_street", "smithy"))
    assert json.dumps(c, sort_keys=True) == before  # the record given is left as it was
    chapter = c2["chapters"][0]
    fates = {s["family"]: s["fate"] for s in chapter["seats"]}
    assert fates["blue"]["died"] and fates["blue"]["where"] == "Wide Street"
    assert fates["blue"]["line_by_bot"] == "fell to the Beholder on the Wide Street, the prologue"
    assert fates["green"]["traitor"] and not fates["green"]["died"]
    assert "won" in fates["green"]["line_by_bot"] and "losing" in fates["red"]["line_by_bot"]
    assert chapter["winner"] == "traitor" and chapter["winners"] == ["traitor"]
    assert chapter["winning_players"] == ["bo"]
    # Betrayal Legacy rulebook L827: the chapter ending of the side that won
    assert chapter["ending"] == BOOK["endings"][opts["chosen_haunt"]]["traitor"]
    assert [t["tile"] for t in chapter["tiles_first_found"]] == ["wide_street", "smithy"]
    assert chapter["tiles_first_found"][0]["family"] == "blue"
    # a tile found again in a later chapter is not found for the first time
    c3, _ = play_chapter(c2, 4, discovered=("smithy", "fountain"))
    assert [t["tile"] for t in c3["chapters"][1]["tiles_first_found"]] == ["fountain"]
    json.loads(json.dumps(c3))  # plain JSON


def test_a_fate_names_the_killing_seat_by_its_family_member():
    # Betrayal Legacy rulebook L300: a fate such as "Died near a well from poison", here who did it, by name
    c = campaign()
    opts = ch.chapter_options(c, 5, book=BOOK, members={"bo": {"first_name": "Mira", "age": 34}})
    state, events = final_state(opts, opts["chosen_haunt"], traitors=("bo",), dead=("ann", "cy"))
    deaths = state["chronicle"]["deaths"]
    deaths[0].update(killer="bo", killer_name="Bo")  # the traitor's seat killed Ann's member
    deaths[1].update(killer="cy", killer_name="Cy")  # Cy's own doing: no killer to name
    fates = {s["family"]: s["fate"] for s in ch.record_chapter_end(c, opts, state, events, book=BOOK)
             ["chapters"][0]["seats"]}
    assert fates["blue"]["line_by_bot"] == "fell to Mira of House green on the Wide Street, the prologue"
    assert fates["blue"]["killer"] == "Mira of House green"
    assert fates["red"]["line_by_bot"] == "died on the Wide Street (their Might fell to the skull), the prologue"
    # a seat handed over after the killing: still named by the member its family sent
    state["players"]["dee"] = state["players"].pop("bo")
    state["seats"] = ["ann", "dee", "cy"]
    fates = {s["family"]: s["fate"] for s in ch.record_chapter_end(c, opts, state, events, book=BOOK)
             ["chapters"][0]["seats"]}
    assert fates["blue"]["line_by_bot"].startswith("fell to Mira of House green")
    # a monster keeps its own name
    c2, _ = play_chapter(c, 5, dead=("ann",))
    assert c2["chapters"][0]["seats"][0]["fate"]["line_by_bot"].startswith("fell to the Beholder")


def test_two_sides_winning_together_and_the_old_single_winner():
    assert _sides({"winner": "heroes"}) == ["heroes"]
    assert _sides({"winner": ["heroes", "traitor"]}) == ["heroes", "traitor"]
    assert _sides({"winner": "heroes", "sides": ["heroes", "traitor"]}) == ["heroes", "traitor"]
    assert _sides({"winner": None}) == [] and _sides(None) == []
    c, opts = play_chapter(campaign(), 8, winner=["heroes", "traitor"], traitors=("cy",))
    chapter = c["chapters"][0]
    ends = BOOK["endings"][opts["chosen_haunt"]]
    assert chapter["winners"] == ["heroes", "traitor"] and chapter["winner"] == "heroes"
    assert chapter["ending"] == f"{ends['heroes']} {ends['traitor']}"
    assert set(chapter["winning_players"]) == set(PLAYERS)
    c, _ = play_chapter(campaign(), 8, winner="heroes", sides=["heroes", "traitor"], traitors=("cy",))
    assert c["chapters"][0]["winners"] == ["heroes", "traitor"]


def test_a_chapter_is_written_once_and_in_order():
    c, opts = play_chapter(campaign(), 2)
    state, events = final_state(opts, opts["chosen_haunt"])
    with pytest.raises(ch.ChronicleError):
        ch.record_chapter_end(c, opts, state, events, book=BOOK)
    with pytest.raises(ch.ChronicleError):
        ch.record_chapter_end(c, 5, state, events, book=BOOK)


def test_notes_fates_in_the_players_words_and_the_lines_read_back():
    # Betrayal Legacy rulebook L841: record the history of the house; L833: write down your fate
    c, opts = play_chapter(campaign(), 6, dead=("cy",))
    c = ch.add_note(c, 0, "  The gulls would not stop   screaming. ")
    c = ch.set_fate(c, 0, "red", "Vanquished nothing, tripped on a cobble")
    assert c["chapters"][0]["notes"] == ["The gulls would not stop screaming."]
    assert c["chapters"][0]["seats"][2]["fate"]["line_by_player"].startswith("Vanquished")
    with pytest.raises(ch.ChronicleError):
        ch.add_note(c, 3, "not yet played")
    with pytest.raises(ch.ChronicleError):
        ch.add_note(c, 0, "   ")
    lines = ch.summary_lines(c)
    assert lines[0].startswith("Chronicle c1: 1 chapter played")
    assert any("Vanquished nothing" in line for line in lines)
    assert any("Note: The gulls" in line for line in lines)
    fam = ch.family_lines(c, "red")
    assert fam[0].startswith("House red: the red family") and any("(dead)" in line for line in fam)
