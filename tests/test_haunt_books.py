"""The 50 haunts in rules_data match the books' structure: every roll check and
every stat block the seed index lists is in our data, side by side."""
import json
import tomllib

import pytest

from bot.games.babg.content import RULES_DATA
from tests.conftest import SHARED

INDEX = SHARED / "reference" / "seed-index" / "haunts.json"
SIDES = {"traitors_tome": "traitor", "secrets_of_survival": "heroes"}
TRAIT_NAMES = ("might", "speed", "knowledge", "sanity")


def our_haunts():
    found = {}
    for path in sorted((RULES_DATA / "haunts").glob("[0-9][0-9]_*.toml")):
        with open(path, "rb") as f:
            data = tomllib.load(f)
        found[data["number"]] = data
    return found


def test_all_fifty_haunts_have_both_sides():
    haunts = our_haunts()
    assert sorted(haunts) == list(range(1, 51))
    for n, h in haunts.items():
        for side in ("traitor", "heroes"):
            sections = h.get(side, {}).get("section", [])
            assert sections, f"haunt {n} has no {side} section"
            assert all(s.get("text", "").strip() for s in sections), f"haunt {n} {side} has an empty section"
            parts = {s.get("part", 1) for s in sections}
            if 2 in parts:
                assert h[side].get("part_two_when"), f"haunt {n} {side} has a part 2 with no condition"


needs_index = pytest.mark.skipif(not INDEX.exists(), reason="the shared seed index is not beside the project")


def _stat(printed):
    """A printed stat: a number (a trailing * marks a footnote), or '*' for a
    stat the haunt sets some other way."""
    text = str(printed)
    return int(text.rstrip("*")) if text.rstrip("*").isdigit() else text


def _same_target(printed: dict, ours) -> bool:
    if printed["target"] is None:
        return True  # the print lost it; the haunt's notes say what we chose
    if ours == "exact":
        return "+" not in str(printed.get("check", "")) or not isinstance(printed["target"], int)
    return _target(printed["target"]) == _target(ours)


def _target(value):
    if isinstance(value, int):
        return value
    if value in ("opposed", "track"):
        return value
    return "exact"


@needs_index
def test_every_stat_block_is_in_our_data():
    index = json.loads(INDEX.read_text())["haunts"]
    ours = our_haunts()
    missing = []
    for h in index:
        monsters = ours[h["number"]].get("monster", [])
        for book, side in SIDES.items():
            for block in h[book]["stat_blocks"]:
                name = block["name"].lower()
                match = [m for m in monsters if m["name"].lower() == name and m.get("side") == side]
                want = {t: _stat(block[t.capitalize()]) for t in TRAIT_NAMES
                        if block.get(t.capitalize()) not in (None, "")}
                if not any(all(m.get(t) == v for t, v in want.items()) for m in match):
                    missing.append(f"haunt {h['number']} {side}: {block['name']} {want}")
    assert not missing, "stat blocks missing or different:\n" + "\n".join(missing)


@needs_index
def test_every_roll_check_is_in_our_data():
    index = json.loads(INDEX.read_text())["haunts"]
    ours = our_haunts()
    missing = []
    for h in index:
        checks = ours[h["number"]].get("roll_check", [])
        for book, side in SIDES.items():
            for check in h[book]["roll_thresholds"]:
                traits = sorted(t.lower() for t in check.get("traits", []))
                found = [c for c in checks if c.get("side") == side and sorted(c.get("traits", [])) == traits
                         and _same_target(check, c.get("target"))]
                if not found:
                    missing.append(f"haunt {h['number']} {side}: {check.get('check')} (line {check['line']})")
    assert not missing, "roll checks missing:\n" + "\n".join(missing)


@needs_index
def test_every_irregularity_is_noted():
    index = json.loads(INDEX.read_text())["haunts"]
    ours = our_haunts()
    for h in index:
        assert len(ours[h["number"]].get("notes", [])) >= len(h.get("irregularities", [])), \
            f"haunt {h['number']}: not every print irregularity is resolved in notes"
