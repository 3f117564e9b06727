"""End to end through the real discord.py client: any display name Discord
allows can join and take a seat (a family emoji joined by zero-width
joiners, a flag, a zero-width space, a right-to-left mark); the name is
cleaned for display, never refused (#9 of the forgiving table)."""
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)
from tests.test_discord_e2e import Table

FAMILY = "\U0001F468\u200d\U0001F469\u200d\U0001F467"  # a family: three emoji joined by zero-width joiners
NAMES = {"fam": f"Fam {FAMILY}", "flag": "Flo \U0001F1EB\U0001F1F7", "zw": "Zed\u200bZed", "rtl": "\u200fرنا"}


async def test_names_with_invisible_joiners_and_marks_join_and_take_a_seat(fake_discord, tmp_path, engine):
    t = Table(fake_discord, tmp_path)
    for key, display in NAMES.items():
        user = t.s.add_user(key, global_name=display)
        t.s.add_member(t.guild, user)
        t.users[key] = user
    await t.start(engine)
    await t.slash("fam", "game", subcommand="new")
    for who, adventurer in (("fam", "torskar"), ("flag", "lia"), ("zw", "gretchen")):
        h = await t.slash(who, "game", subcommand="join", options={"adventurer": adventurer})
        assert "joins as" in h.content, h.content
        assert "cannot be shown" not in h.content
    state = await t.state()
    names = [state["players"][p]["name"] for p in state["seats"]]
    assert names[0].startswith("Fam ") and "\u200d" not in names[0] and "\U0001F468" in names[0]
    assert names[1] == "Flo \U0001F1EB\U0001F1F7"
    assert names[2] == "ZedZed"
    h = await t.slash("zw", "game", subcommand="handover", options={"to": t.users["rtl"]})
    assert "cannot be shown" not in h.content
    state = await t.state()
    assert any(state["players"][p]["name"] == "رنا" for p in state["seats"]), h.content
    assert not t.s.client_errors, t.s.client_errors
