"""Castle Ravenloft with chosen powers, through the real client against the fake Discord: `/game join hero:`
answers privately with a menu per kind of power, each power with its numbers; the choices survive a restart
(they ride in the menus' custom ids) and Join seats the hero with exactly the powers chosen."""
from bot.games.ravenloft.engine import data
from bot.games.ravenloft.system import SYSTEM
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)
from tests.test_discord_e2e import Table


def menus(message) -> list[dict]:
    return [c for row in message.components for c in row.get("components", []) if c["type"] == 3]


def join_button(message) -> dict:
    return next(c for row in message.components for c in row.get("components", []) if c["type"] == 2)


async def test_a_hero_chooses_powers_in_private_menus_and_joins_with_them(fake_discord, tmp_path, engine):  # noqa: F811
    # Castle Ravenloft rulebook: Rules for Later Adventures (each player chooses the hero's powers)
    t = Table(fake_discord, tmp_path)
    await t.start(engine)
    await t.slash("ann", "game new", options={"game": "ravenloft", "adventure": "2", "powers": "chosen",
                                              "builtin": 0})
    await t.slash("ann", "game join", options={"hero": "kat"})
    form = t.s.ephemeral_messages(t.users["ann"])[-1]
    assert "choose" in form.content.lower() and not (await t.state())["players"]
    kinds = menus(form)
    assert [m["max_values"] for m in kinds] == [2, 1, 1]  # Kat: 2 at-will, 1 daily, 1 utility
    assert "+7 to hit" in kinds[0]["options"][0]["description"]  # each power with its numbers
    assert join_button(form)["disabled"]
    assert form not in t.s.ephemeral_messages(t.users["bo"])  # the form is ann's alone
    content = t.bot.service.system(await t.game()).content()
    wanted = {}
    for n, menu in enumerate(kinds):
        if n == 1:
            await t.restart(engine)  # the choices so far live in the menus, not in the bot's memory
        form = t.s.ephemeral_messages(t.users["ann"])[-1]
        menu = menus(form)[n]
        picked = [o["label"] for o in menu["options"][-menu["max_values"]:]]
        wanted[n] = picked
        await t.handled(await t.s.select(t.users["ann"], form, menu["custom_id"], picked))
    form = t.s.ephemeral_messages(t.users["ann"])[-1]
    assert all(name in form.content for names in wanted.values() for name in names)
    assert not join_button(form)["disabled"]
    await t.handled(await t.s.click(t.users["ann"], form, join_button(form)["custom_id"]))
    await t.slash("bo", "game join", options={"hero": "arjhan"})  # (suggested powers would do: he chooses too)
    state = await t.state()
    ann = t.uid("ann")
    chosen = {data.power(content, x)["name"] for x in state["players"][ann]["picks"]}
    assert chosen == {name for names in wanted.values() for name in names}
    assert t.uid("bo") not in state["players"]  # bo got a form of his own, and has not answered it
    assert "choose" in t.s.ephemeral_messages(t.users["bo"])[-1].content.lower()


def test_a_built_in_hero_in_a_game_of_chosen_powers_takes_the_suggested_ones():
    # Castle Ravenloft rulebook: Rules for Later Adventures (the Adventure Book's suggested powers stand
    # for a hero nobody chooses for)
    s = SYSTEM
    state = s.new_game(1, {"adventure": 2, "powers": "chosen"})
    for seat, hero in (("builtin-1", "kat"), ("builtin-2", "arjhan")):
        state, _ = s.apply(state, s.join_action(seat, seat, hero, builtin=True))
    state, _ = s.apply(state, s.start_action("builtin-1"))
    assert state["phase"] == "play"
    h = data.hero(s.content(), "kat")
    assert set(state["players"]["builtin-1"]["powers"]) == set(h["suggested"])
