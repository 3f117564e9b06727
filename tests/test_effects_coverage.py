"""Every card, tile and power in rules_data has a test that plays
it. Cheap check: some tests/test_*.py file names it, by its id as a string
literal or by its printed name (a power by its name)."""
import pathlib
import re

HERE = pathlib.Path(__file__).resolve().parent


def _test_text() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(HERE.glob("test_*.py"))
                     if p.name != pathlib.Path(__file__).name)


def _named(name: str, lower_text: str) -> bool:
    return re.search(r"(?<!\w)" + re.escape(name.lower()) + r"(?!\w)", lower_text) is not None


def _missing(items, text: str) -> list[str]:
    """Ids of the items neither quoted by id nor named in `text`."""
    lower = text.lower()
    return [item_id for item_id, item in items.items()
            if f'"{item_id}"' not in text and f"'{item_id}'" not in text and not _named(item.name, lower)]


def test_every_card_tile_adventurer_and_power_is_named_in_a_test(content):
    # Project rule: every card, tile and power has at least one test that plays it
    text = _test_text()
    missing = {kind: _missing(items, text) for kind, items in
               (("cards", content.cards), ("tiles", content.tiles), ("adventurers", content.adventurers))}
    missing["powers"] = [f"{adv.power['name']} ({adv.id})" for adv in content.adventurers.values()
                         if not _named(adv.power["name"], text.lower())]
    missing = {kind: ids for kind, ids in missing.items() if ids}
    assert not missing, "never named in tests/test_*.py: " + "; ".join(
        f"{kind}: {', '.join(ids)}" for kind, ids in missing.items())
    assert len(content.cards) >= 80 and len(content.tiles) == 47 and len(content.adventurers) >= 12
