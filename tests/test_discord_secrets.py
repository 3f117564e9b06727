"""End to end through the real discord.py client: what nobody may learn from
the channel. A nickname cannot ping the server; a claimed win in a
hidden-traitor haunt is answered privately and announced unsigned."""
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.haunt_play import begin
from bot.games.babg.engine.turns import start_haunt
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)
from tests.test_discord_e2e import Table, open_game


async def test_a_nickname_with_everyone_or_a_role_pings_nobody(fake_discord, tmp_path, engine):
    t = Table(fake_discord, tmp_path)
    role = t.s.add_role(t.guild, "Adventurers")
    t.guild.members[t.users["bo"].id].nick = f"@everyone <@&{role.id}> @here"
    await t.start(engine)
    await open_game(t)
    await t.s.wait_for(lambda: t.s.pins(t.channel), timeout=60, what="the pinned summary")
    summary = t.s.pins(t.channel)[0]
    assert "@everyone" in summary.content  # the name is shown as it is...
    seated = {t.users[n].id for n in ("ann", "bo", "cy")}
    for msg in t.s.channel_messages(t.channel):  # ...but nothing the bot wrote notifies the server or a role
        assert not msg.pinged.get("everyone") and not msg.pinged.get("roles"), msg.content
        assert msg.pinged.get("users", set()) <= seated, msg.content


async def test_a_claimed_win_is_answered_privately_and_announced_unsigned(fake_discord, tmp_path, engine):
    # Ruling: a claimed win needs every other living player's yes; the answers are private, so a dispute never
    # points at a hidden traitor (Rulebook: Haunts With a Hidden Traitor)
    t = Table(fake_discord, tmp_path)
    await t.start(engine)
    await open_game(t)
    game = await t.game()
    state = game.state
    if "arcane_retreat" not in state["board"]:
        state["board"]["arcane_retreat"] = {"level": "city", "x": 1, "y": -1, "rot": 0}
        state["stacks"]["city"] = [x for x in state["stacks"].get("city", []) if x != "arcane_retreat"]
    state["options"]["haunt"] = "play"
    ctx = Ctx(engine.content, state)
    start_haunt(ctx, t.uid("ann"), "whispering_skull", "arcane_retreat")  # haunt 19: a hidden traitor
    begin(ctx)  # everyone has read the rules
    await t.put_state(game, state)
    traitor = t.name_of(state["haunt"]["traitors"][0])
    claimant = next(n for n in ("ann", "bo", "cy") if n != traitor)
    h = await t.slash(claimant, "haunt", subcommand="declare", options={"side": "heroes"})
    assert "claims that the heroes have won" in h.content  # told to the claimant at once...
    await t.s.wait_for(lambda: any("claims that the heroes have won" in m.content  # ...and to the table
                                   for m in t.s.channel_messages(t.channel)), timeout=60, what="the claim")
    h = await t.slash(traitor, "haunt", subcommand="confirm", options={"answer": "no"})
    assert h.ephemeral and "only you see this" in h.content
    # (a plain message waits its turn within the channel's pace of 5 writes per 5 s)
    said = await t.s.wait_for(lambda: [m for m in t.s.channel_messages(t.channel) if "disputed" in m.content],
                              timeout=60, what="the dispute in the channel")
    assert said[-1].interaction is None, "the dispute is a plain message, not the disputer's reply"
    name = state["players"][t.uid(traitor)]["name"]
    assert name not in said[-1].content
    assert (await t.state())["phase"] == "haunt"


async def test_counter_and_token_names_are_offered_as_you_type(fake_discord, tmp_path, engine):
    # Found: counter, token and monster names had to be typed exactly, case included
    t = Table(fake_discord, tmp_path)
    await t.start(engine)
    await open_game(t)
    game = await t.game()
    state = game.state
    state["phase"], state["haunt"] = "haunt", {"number": 4, "counters": {"Troll hit points": 5}, "traitors": [],
                                               "kind": "no_traitor", "revealer": t.uid("ann"), "started": True}
    state["tokens"] = [{"name": "Searched", "tile": "kitchen"}]
    await t.put_state(game, state)
    ac = await t.s.autocomplete(t.users["ann"], t.channel, "haunt counter", options={"name": "troll"},
                                focused="name")
    assert [c["name"] for c in ac.choices] == ["Troll hit points"]
    ac = await t.s.autocomplete(t.users["bo"], t.channel, "haunt token", options={"name": "sea"}, focused="name")
    assert [c["name"] for c in ac.choices] == ["Searched"]
