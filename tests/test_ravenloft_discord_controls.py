"""Castle Ravenloft's start and hero phase through the real client against the fake Discord: the adventure's
introduction and goal open the game and stay pinned; the hero phase is a menu (attacks with their chance to
hit, then squares) and one row of buttons; a choice in the menu acts, after a restart too, and a menu from
an earlier turn is refused."""
from bot.games.ravenloft.engine import data
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)
from tests.test_discord_e2e import Table


def components(message, kind: int) -> list[dict]:
    return [c for row in message.components for c in row.get("components", []) if c["type"] == kind]


async def test_the_goal_is_pinned_and_the_hero_phase_is_a_menu_and_a_row_of_buttons(fake_discord, tmp_path, engine):  # noqa: F811
    # Castle Ravenloft rulebook: Hero Phase (move and attack, attack and move, or move twice)
    t = Table(fake_discord, tmp_path)
    t.unpaced = True
    await t.start(engine)
    await t.slash("ann", "game new", options={"game": "ravenloft", "adventure": "2", "builtin": 0})
    await t.slash("ann", "game join", options={"hero": "kat"})
    await t.slash("bo", "game join", options={"hero": "arjhan"})
    await t.slash("ann", "game start")
    await t.done(summaries=True)
    system = t.bot.service.system(await t.game())
    goal = data.adventure_record(system.content(), 2).goal
    assert any(goal in m.content for m in t.s.channel_messages(t.channel) if not m.pinned), "the goal opens the game"
    assert any(goal in m.content for m in t.s.pins(t.channel)), "and stays pinned"
    state = await t.state()
    who = system.actor(state)
    turn_message = next(m for m in reversed(t.s.channel_messages(t.channel)) if m.components)
    assert len(turn_message.components) <= 2, "two rows on a phone"
    menu = components(turn_message, 3)
    assert len(menu) == 1 and all(o["label"].startswith(("Move to", "Pick up", "Disable", "Use")) or
                                  "% to hit" in (o.get("description") or "") for o in menu[0]["options"])
    buttons = [b["label"] for b in components(turn_message, 2)]
    assert any(label.lower().startswith("end") for label in buttons) and "Map" in buttons
    move = next(o for o in menu[0]["options"] if o["label"].startswith("Move to"))
    await t.restart(engine)  # the menu carries its actions: it still works
    await t.handled(await t.s.select(t.users[t.name_of(who)], turn_message, menu[0]["custom_id"], [move["value"]]))
    state = await t.state()
    assert state["players"][who]["square"] == move["label"].removeprefix("Move to ")
    # (a stranger's choice in it is refused, and the game does not change)
    await t.handled(await t.s.select(t.users["cy"], turn_message, menu[0]["custom_id"], [move["value"]]))
    assert (await t.state()) == state
