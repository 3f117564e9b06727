"""Castle Ravenloft on Discord, through the real discord.py client against the fake Discord: a game
opened with /game new game:, heroes joined, a hero phase played with the shared verbs, and a whole
adventure played by one person beside built-in heroes. A Baldur's Gate game in the next channel sees
none of it."""
import dataclasses

from bot import games
from bot.discord import turn_posts
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)
from tests.test_discord_e2e import Table


async def test_a_ravenloft_game_on_discord_beside_a_baldurs_gate_game(fake_discord, tmp_path, engine):  # noqa: F811
    t = Table(fake_discord, tmp_path)
    other = fake_discord.add_channel(t.guild, "betrayal-2")
    await t.start(engine)
    await t.slash("ann", "game new", options={"game": "ravenloft", "adventure": "1", "builtin": 0})
    assert "opened a game of Castle Ravenloft" in t.s.last_message(t.channel).content
    await t.slash("ann", "game join", options={"hero": "kat"})
    await t.slash("ann", "game start")
    await t.done()
    state = await t.state()
    assert state["phase"] == "play"
    msg = next(m for m in reversed(t.s.channel_messages(t.channel)) if m.components)
    assert len(msg.components) <= 2
    ann = t.uid("ann")
    legal = t.bot.service.system(await t.game()).legal_actions(state, ann)
    move = next(a for a in legal if a["type"] == "move")
    await t.slash("ann", "move", options={"square": move["to"]})
    assert (await t.state())["players"][ann]["square"] == move["to"]
    # a Baldur's Gate game in another channel of the same server, at the same time
    handle = await t.s.slash(t.users["bo"], other, "game new")
    await t.handled(handle)
    assert "Betrayal at Baldur's Gate" in t.s.last_message(other).content
    await t.slash("ann", "roll")  # Baldur's Gate's own command, in the dungeon's channel
    assert "This channel plays Castle Ravenloft" in t.s.ephemeral_messages(t.users["ann"])[-1].content
    words = " ".join(m.content for m in t.s.channel_messages(other))
    assert "Ravenloft" not in words and "Kat" not in words


def predicted(system, seed: int, seats: list[tuple[str, str, str]], adventure: int) -> str:
    """How the adventure ends when every seat plays as the built-in heroes do (they choose from the state
    alone, so a game through Discord with the same seed and seats ends the same way)."""
    state = system.new_game(seed, {"adventure": adventure})
    for seat, name, hero in seats:
        state, _ = system.apply(state, system.join_action(seat, name, hero, builtin=seat.startswith("builtin-")))
    state, _ = system.apply(state, system.start_action(seats[0][0]))
    for _ in range(5000):
        if system.phase(state) == "over":
            return state["outcome"]["result"]
        who = system.actor(state)
        state, _ = system.apply(state, system.builtin_action(state, who, None))
    return "unfinished"


def as_command(action: dict) -> tuple[str, dict]:
    """The slash command a person types for an action (the shared verbs and the dungeon's own)."""
    kind = action["type"]
    if kind == "move":
        return "move", {"square": action["to"]}
    if kind == "attack":
        return "attack", {"power": str(action["power"]), "target": action["target"]}
    if kind == "end":
        return "end", ({"explore": action["explore"]} if action.get("explore") else {})
    if kind == "decide":
        return "choose", {"option": action["choice"] if isinstance(action["choice"], int) else 1}
    if kind == "use":
        return "use", {"what": str(action.get("item") or action.get("power")),
                       **({"target": action["target"]} if action.get("target") else {})}
    if kind == "disable":
        return "disable", ({"trap": action["trap"]} if action.get("trap") else {})
    if kind == "pickup":
        return "pickup", ({"object": action["object"]} if action.get("object") else {})
    return kind, {}


async def test_one_person_and_two_built_in_heroes_play_adventures_to_a_victory_and_a_defeat(
        fake_discord, tmp_path, engine, monkeypatch):  # noqa: F811
    # Castle Ravenloft rulebook: Winning the Game (the heroes win or lose together)
    t = Table(fake_discord, tmp_path)
    t.unpaced = True  # whole adventures: the channel's pace is tests/test_discord_pace.py's to check
    t.config = dataclasses.replace(t.config, builtin_pause=0.0)  # (a pace for people to follow, not tests)
    monkeypatch.setattr(turn_posts, "QUIET", 0.05)  # an edit waits this long for more of the same turn
    system = games.get("ravenloft")
    ann = t.uid("ann")
    seats = [(ann, "ann", "kat"), ("builtin-1", "Built-in 1", "thorgrim"), ("builtin-2", "Built-in 2", "immeril")]
    wanted = {}
    for seed in range(1, 80):  # before the bot starts: this play would hold up its event loop (and it says "busy")
        wanted.setdefault(predicted(system, seed, seats, 2), seed)
        if "victory" in wanted and "defeat" in wanted:
            break
    assert {"victory", "defeat"} <= set(wanted)
    await t.start(engine)
    for done, result in enumerate(("victory", "defeat")):
        await t.slash("ann", "game new", options={"game": "ravenloft", "adventure": "2", "seed": wanted[result]})
        await t.slash("ann", "game join", options={"hero": "kat"})
        for hero in ("thorgrim", "immeril"):
            await t.slash("ann", "game builtin", options={"hero": hero})
        await t.slash("ann", "game start")
        await t.done()
        for _ in range(600):
            game = await t.game()
            if game is None:
                break
            state = game.state
            assert system.actor(state) == ann  # the built-in heroes have played their turns by themselves
            name, options = as_command(system.builtin_action(state, ann, None))
            await t.slash("ann", name, options=options)
            await t.done()
        assert await t.game() is None
        last = await t.bot.service.latest_game(str(t.channel.id))
        assert last.state["outcome"]["result"] == result
        said = " ".join(m.content for m in t.s.channel_messages(t.channel)[-8:])
        assert ("defeated" in said) and ("seed was" in said)  # the story of the end, and the seed revealed
        await t.s.wait_for(lambda: sum(a.filename == "replay.gif" for m in t.s.channel_messages(t.channel)
                                       for a in m.attachments) == done + 1, timeout=60, what="the replay")
        story = system.story(last.state)
        with_replay = next(m for m in reversed(t.s.channel_messages(t.channel)) if any(a.filename == "replay.gif"
                                                                             for a in m.attachments))
        assert story[-1] in with_replay.content and "turn by turn" in with_replay.content, \
            "the replay rides under the story's last part, not in a message of its own"
        pictures = [a for m in t.s.channel_messages(t.channel) for a in m.attachments]
        assert pictures  # the dungeon's turn pictures came with the turns
