"""Castle Ravenloft's content (rules_data/ravenloft/) and its loader: the counts, the grids, the
heroes' powers, the monsters' tactics, provenance on every entry, one-line errors for a planted
fault, and the report's list of provisional entries."""
import ast
import pathlib
import shutil

import pytest

from bot.games.ravenloft.engine import content as content_module
from bot.games.ravenloft.engine.content import ROOT, ContentError, load_content, make_id
from bot.games.ravenloft.report import provenance_rows, provisional_entries, report

REPO = pathlib.Path(__file__).resolve().parents[1]
PRINTED_TITLES_NOT_OURS = {"Destroy the Dracolich", "Defeat the Dracolich", "Gauntlet of Terror", "Blood and Fog",
                           "Rampaging Golem", "Horror of the Howling Hag"}


@pytest.fixture(scope="module")
def c():
    return load_content()


# Castle Ravenloft rulebook: Components
def test_counts(c):
    assert len(c.heroes) == 5
    assert set(c.heroes) == {"allisa", "arjhan", "immeril", "kat", "thorgrim"}
    assert len(c.powers) == 50
    assert sorted(p.number for p in c.powers.values()) == list(range(1, 51))
    assert len(c.monsters) == 30
    kinds = c.monster_kinds()
    assert len(kinds) == 10 and all(len(cards) == 3 for cards in kinds.values())
    assert sorted(m.number for m in c.monsters.values()) == list(range(111, 141))
    assert len(c.villains) == 8
    assert len(c.encounters) == 60
    assert len(c.adventures) >= 7


# Castle Ravenloft rulebook: The Encounter Deck
def test_encounter_split(c):
    types = [e.type for e in c.encounters.values()]
    assert (types.count("environment"), types.count("event"), types.count("event_attack"),
            types.count("trap")) == (8, 30, 15, 7)
    assert sorted(e.number for e in c.encounters.values()) == list(range(51, 111))
    assert c.copies("frenzy") == ("frenzy_63", "frenzy_64")
    assert c.encounters["spirit_of_doom_58"].type == "environment"
    assert c.encounters["spirit_of_doom_event_80"].type == "event"


# Castle Ravenloft rulebook: The Encounter Deck (Events, Traps) and Disabling Traps
def test_event_attacks_attack_and_traps_can_be_disabled(c):
    for e in c.encounters.values():
        if e.type == "event_attack":
            assert e.attack is not None and e.attack.bonus > 0, e.id
        if e.type == "trap":
            assert e.disable is not None and 2 <= e.disable <= 20, e.id
            assert e.attack is not None or e.steps, e.id
        else:
            assert e.disable is None, e.id
    assert c.encounters["prowling_ghost_101"].attack.bonus == 9
    assert c.encounters["hands_of_the_dead_96"].attack.conditions == ("slowed",)
    assert c.encounters["strahd_attacks_103"].attack.target == "each_hero_within_1_tile"


# Castle Ravenloft rulebook: The Treasure Deck
def test_treasures(c):
    deck = c.treasure_deck()
    assert len(deck) == 45
    types = [c.treasures[t].type for t in deck]
    assert (types.count("blessing"), types.count("fortune"), types.count("item")) == (5, 20, 20)
    adventure = [t for t in c.treasures.values() if t.type == "adventure"]
    assert sorted(t.number for t in adventure) == list(range(141, 151))
    sword = c.treasures["magic_sword_186"]
    assert [(b.stat, b.amount, b.when) for b in sword.bonuses] == [("attack", 1, "adjacent")]
    assert c.treasures["amulet_of_protection_176"].bonuses[0].stat == "ac"


# Castle Ravenloft rulebook: The Dungeon Tile Stack (the Start tile counts as two tiles)
def test_tiles_and_the_double_start_tile(c):
    dungeon = [t for t in c.tiles.values() if t.group != "start"]
    start = [t for t in c.tiles.values() if t.group == "start"]
    assert len(dungeon) == 40
    groups = [t.group for t in dungeon]
    assert (groups.count("crypt"), groups.count("named"), groups.count("normal")) == (12, 8, 20)
    assert len(start) == 2
    upper, lower = c.tiles["start_upper_half"], c.tiles["start_lower_half"]
    assert upper.joins == {"south": "start_lower_half"} and lower.joins == {"north": "start_upper_half"}
    assert any(f.kind == "stairs" for f in lower.features)


# Castle Ravenloft rulebook: The Dungeon Tile Stack (bone pile, triangle, walls)
def test_every_grid_is_valid(c):
    edges = {"north": [(0, i) for i in range(4)], "south": [(3, i) for i in range(4)],
             "west": [(i, 0) for i in range(4)], "east": [(i, 3) for i in range(4)]}
    for t in c.tiles.values():
        assert len(t.grid) == 4 and all(len(row) == 4 and set(row) <= set(".#B") for row in t.grid), t.id
        piles = [(r, col) for r in range(4) for col in range(4) if t.grid[r][col] == "B"]
        assert piles == [t.bone_pile], t.id
        assert t.triangle in (("black", "white") if t.group != "start" else ("black", "white", "none")), t.id
        for side in t.exits:
            assert any(not t.is_wall(r, col) for r, col in edges[side]), (t.id, side)
        if t.group != "start":
            assert "south" in t.exits, t.id
        for f in t.features:
            assert all(not t.is_wall(r, col) for r, col in f.squares), (t.id, f.kind)


# Castle Ravenloft rulebook: The Hero Card and Choosing Power Cards
def test_every_hero_power_pool_holds_real_powers_of_that_hero(c):
    for h in c.heroes.values():
        mine = {p.id for p in c.powers.values() if p.hero == h.id}
        assert set(h.fixed_powers) | set(h.power_pool) == mine, h.id
        assert len(mine) == 10, h.id
        for pid in h.fixed_powers:
            assert c.powers[pid].fixed, pid
        for kind, n in h.choose.items():
            assert sum(c.powers[p].kind == kind for p in h.power_pool) >= n, (h.id, kind)
    assert c.heroes["allisa"].fixed_powers == ()
    assert c.heroes["arjhan"].fixed_powers == ("dragons_breath",)


# Castle Ravenloft rulebook: Leveling Up
def test_level_two_raises_hp_ac_and_surge_and_adds_a_daily(c):
    for h in c.heroes.values():
        one, two = h.level_1, h.level_2
        assert two.hp > one.hp and two.ac > one.ac and two.surge > one.surge, h.id
        assert two.extra_daily == 1 and two.critical is not None and one.critical is None, h.id
        assert two.provenance == "provisional", h.id
        daily = sum(c.powers[p].kind == "daily" for p in h.power_pool)
        assert daily >= h.choose["daily"] + two.extra_daily, h.id


# Castle Ravenloft rulebook: The Monster Deck (Monster Tactics)
def test_every_tactics_list_ends_with_an_unconditional_default(c):
    scripts = [(m.id, m.tactics, m.attacks) for m in c.monsters.values()]
    scripts += [(v.id, v.tactics, v.attacks) for v in c.villains.values()]
    for ident, lines, attacks in scripts:
        assert lines and lines[-1].condition == "otherwise" and not lines[-1].and_condition, ident
        assert all(t.condition != "otherwise" for t in lines[:-1]), ident
        ids = {a.id for a in attacks}
        for t in lines:
            assert t.condition in content_module.CONDITIONS and t.action in content_module.ACTIONS, ident
            assert t.attack is None or t.attack in ids, ident
    ghoul = c.monsters["ghoul_117"]
    assert [t.condition for t in ghoul.tactics] == ["hero_adjacent", "hero_within", "otherwise"]
    assert ghoul.attack_by_id("paralyzing_claw").conditions == ("immobilized",)


# Castle Ravenloft rulebook: Winning the Game (each adventure lists its victory and defeat)
def test_adventures(c):
    numbers = {a.number for a in c.adventures.values() if not a.ours}
    assert {1, 2, 3, 4, 5} <= numbers
    ours = [a for a in c.adventures.values() if a.ours]
    assert len(ours) >= 2
    for a in ours:
        assert a.number is None and a.title not in PRINTED_TITLES_NOT_OURS and a.provenance == "provisional"
    for a in c.adventures.values():
        assert a.victory and a.defeat and a.stack, a.id
        for v in a.villains:
            assert v in c.villains
    tomb = c.adventures["escape_the_tomb"]
    assert tomb.start_tiles == ("strahds_crypt",) and tomb.victory[0].tile == "secret_stairway"
    assert (tomb.players_min, tomb.players_max) == (1, 1)


def test_provenance_on_every_entry(c):
    rows = provenance_rows(c)
    assert rows
    for fname, ident, prov, note in rows:
        assert prov in ("printed", "single-source", "provisional"), (fname, ident)
        assert bool(note.strip()) == (prov != "printed"), (fname, ident)
        assert "\n" not in note


def test_ids_follow_the_rule(c):
    for t in c.tiles.values():
        assert t.id == make_id(t.name) or (not t.name and t.id.startswith(t.triangle + "_x")), t.id
    for d in (c.heroes, c.powers):
        for e in d.values():
            assert e.id == make_id(e.name), e.id
    for m in c.monsters.values():
        assert m.id == f"{m.entry}_{m.number}" and m.entry == make_id(m.name)
    assert make_id("Strahd's Hunger") == "strahds_hunger" and make_id("Crypt Corner 11-15") == "crypt_corner_11_15"


def test_the_default_load_is_cached(c):
    assert load_content() is c
    assert issubclass(ContentError, ValueError)
    assert ROOT == REPO / "rules_data" / "ravenloft"


def test_the_loader_is_pure():
    tree = ast.parse(pathlib.Path(content_module.__file__).read_text())
    allowed = {"functools", "pathlib", "re", "tomllib", "dataclasses", "bot"}  # bot: only bot.kit, checked below
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            assert not [n for n in ast.walk(node) if isinstance(n, (ast.Import, ast.ImportFrom))], node.name
    top = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    names = {a.name.split(".")[0] for n in top if isinstance(n, ast.Import) for a in n.names}
    names |= {n.module.split(".")[0] for n in top if isinstance(n, ast.ImportFrom)}
    assert names <= allowed, names
    assert {n.module for n in top if isinstance(n, ast.ImportFrom) and n.module.startswith("bot")} <= {"bot.kit"}


# --- a planted fault in a copy of the data gives one line naming the file, the entry and the field

def broken(tmp_path, fname, old, new):
    folder = tmp_path / "ravenloft"
    shutil.copytree(ROOT, folder)
    path = folder / fname
    text = path.read_text()
    assert old in text, f"{old!r} is no longer in {fname}: pick another spot to break"
    path.write_text(text.replace(old, new, 1))
    return folder


def refused(folder) -> str:
    with pytest.raises(ContentError) as info:
        load_content(folder)
    message = str(info.value)
    assert "\n" not in message, message
    return message


# Castle Ravenloft rulebook: The Dungeon Tile Stack
def test_a_grid_row_of_five_squares(tmp_path):
    folder = broken(tmp_path, "tiles.toml", 'grid = ["####", "#...", "#B..", "#..."]',
                    'grid = ["####", "#...", "#B...", "#..."]')
    assert refused(folder) == "tiles.toml: tile 'crypt_corner_11_15': grid row 2 has 5 squares, not 4"


def test_a_second_bone_pile(tmp_path):
    folder = broken(tmp_path, "tiles.toml", 'grid = ["####", "#...", "#B..", "#..."]',
                    'grid = ["####", "#..B", "#B..", "#..."]')
    assert refused(folder) == "tiles.toml: tile 'crypt_corner_11_15': grid has 2 bone piles, not 1"


def test_an_unknown_field(tmp_path):
    folder = broken(tmp_path, "monsters.toml", 'id = "ghoul"\n', 'id = "ghoul"\nspeed = 4\n')
    assert refused(folder) == "monsters.toml: monster 'ghoul': speed is not a known field"


def test_a_field_of_the_wrong_type(tmp_path):
    folder = broken(tmp_path, "monsters.toml", "ac = 16\nhp = 1\nxp = 2", 'ac = "sixteen"\nhp = 1\nxp = 2')
    assert refused(folder) == "monsters.toml: monster 'ghoul': ac should be a whole number, not 'sixteen'"


def test_a_missing_field(tmp_path):
    folder = broken(tmp_path, "heroes.toml", "ac = 15\nhp = 8\n", "hp = 8\n")
    assert refused(folder) == "heroes.toml: hero 'allisa': level_1.ac is missing"


def test_a_hero_pool_naming_an_unknown_power(tmp_path):
    folder = broken(tmp_path, "heroes.toml", '"careful_attack", "hit_and_run"', '"careful_attack", "hit_and_runn"')
    assert refused(folder) == "heroes.toml: hero 'allisa': power_pool names 'hit_and_runn', not a power"


def test_a_hero_pool_naming_another_heros_power(tmp_path):
    folder = broken(tmp_path, "heroes.toml", '"careful_attack", "hit_and_run"', '"careful_attack", "cleave"')
    assert refused(folder) == "heroes.toml: hero 'allisa': power_pool names 'cleave', a power of 'arjhan'"


# Castle Ravenloft rulebook: The Monster Deck (Monster Tactics)
def test_a_tactics_line_naming_an_attack_the_card_lacks(tmp_path):
    folder = broken(tmp_path, "monsters.toml", 'do = "attack", attack = "bite", focus = "closest" },\n  { if = "hero_within", within = 1, do = "move_adjacent_and_attack", attack = "paralyzing_claw"',
                    'do = "attack", attack = "claw", focus = "closest" },\n  { if = "hero_within", within = 1, do = "move_adjacent_and_attack", attack = "paralyzing_claw"')
    assert refused(folder) == "monsters.toml: monster 'ghoul': tactics[0].attack names 'claw', not one of this card's attacks"


def test_a_tactics_list_without_its_default(tmp_path):
    folder = broken(tmp_path, "monsters.toml", '{ if = "otherwise", do = "move_toward", tiles = 1, focus = "closest" },\n]\ntactics_provenance = "provisional"\ntactics_note = "rebuilt from a fan port\'s code: it throws',
                    ']\ntactics_provenance = "provisional"\ntactics_note = "rebuilt from a fan port\'s code: it throws')
    message = refused(folder)
    assert message.startswith("monsters.toml: monster 'blazing_skeleton': tactics[0].if is 'hero_within'"), message


def test_an_unknown_tactics_word(tmp_path):
    folder = broken(tmp_path, "monsters.toml", '{ if = "hero_adjacent", do = "attack", attack = "bite"',
                    '{ if = "hero_nearby", do = "attack", attack = "bite"')
    message = refused(folder)
    assert message.startswith("monsters.toml: monster 'ghoul': tactics[0].if is 'hero_nearby', not one of"), message


def test_an_adventure_naming_an_unknown_villain(tmp_path):
    folder = broken(tmp_path, "adventures.toml", 'villains = ["strahd"]', 'villains = ["dracula"]')
    assert refused(folder) == "adventures.toml: adventure 'escape_the_tomb': villains names 'dracula', not one of the villains"


def test_an_adventure_naming_an_unknown_tile(tmp_path):
    folder = broken(tmp_path, "adventures.toml", 'tiles = ["chapel"]', 'tiles = ["chapell"]')
    assert refused(folder) == "adventures.toml: adventure 'find_the_icon_of_ravenloft': tiles names 'chapell', not one of the tiles"


def test_a_provisional_entry_without_its_reason(tmp_path):
    folder = broken(tmp_path, "encounters.toml",
                    'provenance_note = "no source gives a disable number; 10 is an even chance on the die, Kat\'s +5 makes it 3 in 4"\n', "")
    assert refused(folder) == ("encounters.toml: encounter 'alarm': provenance_note is missing: "
                               "a provisional entry says why in one line")


def test_a_missing_file(tmp_path):
    folder = tmp_path / "ravenloft"
    shutil.copytree(ROOT, folder)
    (folder / "villains.toml").unlink()
    assert refused(folder).startswith("villains.toml: file is missing from ")


# --- the report

def test_the_report_lists_every_provisional_entry(c):
    text = report(c)
    entries = provisional_entries(c)
    assert entries
    for fname, ident, note in entries:
        assert f"  {fname} {ident}: {note}" in text
    assert f"provisional ({len(entries)})" in text
    listed = {(f, i) for f, i, _ in entries}
    assert ("heroes.toml", "allisa.level_2") in listed
    assert ("monsters.toml", "ghoul.tactics") in listed
    assert ("encounters.toml", "alarm") in listed
    assert ("adventures.toml", "the_phylactery_hunt") in listed
    assert ("encounters.toml", "prowling_ghost") not in listed  # single-source
    assert len(listed) == len(entries)  # copies of a card are listed once


def test_the_report_counts(c):
    text = report(c)
    for line in ("heroes: 5", "powers: 50", "monster cards: 30 (10 monsters)", "villains: 8",
                 "encounters: 60 (8 environments, 30 events, 15 event-attacks, 7 traps)",
                 "treasures: 45 (5 blessings, 20 fortunes, 20 items) + 10 adventure treasures",
                 "tiles: 40 + the Start tile (2 halves)"):
        assert line in text, line
    assert f"adventures: {len(c.adventures)}" in text
