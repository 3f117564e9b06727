"""/game: create, join, start, end and run this channel's game, of any system (bot.games): `/game
new game:` chooses which, each system's own options beside it; `/game join` takes what that game's
players pick (an adventurer, a hero)."""
import asyncio
import inspect

import discord
from discord import app_commands

from bot.discord import join_form
from bot.discord.controls import secret_view
from bot.discord.private_threads import can_open
from bot.discord.turn_posts import in_play
from bot.kit.errors import IllegalAction
from bot.service import seats

from .common import builtin_choices, builtin_seat, can_manage
from .declared import KINDS


def _new_signature(systems) -> tuple[inspect.Signature, dict, dict]:
    """/game new's options: the game, a seed, the seats the bot plays, and every system's own options
    (one option per name across them)."""
    params = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction)]
    described = {"game": "Which game (Betrayal at Baldur's Gate if left out)",
                 "seed": "Play the same game again: a whole number from an earlier game",
                 "builtin": "Seats the bot plays (0-5), so fewer people can play; more with /game builtin"}
    choices = {"game": [app_commands.Choice(name=s.title, value=s.id) for s in systems]}
    params.append(inspect.Parameter("game", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=str | None))
    params.append(inspect.Parameter("seed", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=int | None))
    seen = set()
    for system in systems:
        for o in system.options:
            if o.name in seen:
                continue
            seen.add(o.name)
            kind = app_commands.Range[int, o.low, o.high] if o.kind == "number" and o.low is not None else KINDS[o.kind]
            params.append(inspect.Parameter(o.name, inspect.Parameter.KEYWORD_ONLY, default=None,
                                            annotation=kind | None))
            described[o.name] = o.description or "…"
            if o.choices:
                choices[o.name] = [app_commands.Choice(name=n, value=v) for n, v in o.choices]
    params.append(inspect.Parameter("builtin", inspect.Parameter.KEYWORD_ONLY, default=0,
                                    annotation=app_commands.Range[int, 0, 5]))
    return inspect.Signature(params), described, choices


def register(bot):
    game = app_commands.Group(name="game", description="Create, join and run this channel's game", guild_only=True)

    async def game_new(interaction: discord.Interaction, **values):
        wanted, seed, builtin = values.pop("game", None), values.pop("seed", None), values.pop("builtin", 0) or 0
        values = {k: (v.value if isinstance(v, app_commands.Choice) else v) for k, v in values.items()}
        try:
            chosen = bot.service.system_named(wanted)  # (the default game when left out)
            options = chosen.table_options({k: v for k, v in values.items()
                                            if k in {o.name for o in chosen.options}})
        except IllegalAction as e:
            await bot.private(interaction, e.reason)
            return
        if not await bot.admit(interaction, str(interaction.channel_id)):
            return
        try:
            g = await bot.in_time(interaction, bot.service.new_game(
                str(interaction.channel_id), str(interaction.guild_id), str(interaction.user.id), seed=seed,
                options=options, system=chosen.id))
        except IllegalAction as e:
            await bot.private(interaction, e.reason)
            return
        face = bot.face_of(chosen)
        said = face.options_line(g.state.get("options", {}), seed is not None)
        joined = []
        for _ in range(builtin):
            outcome = await bot.service.add_builtin(g.channel_id, str(interaction.user.id))
            joined += [e["text"] for e in outcome.events if e["to"] == "all"]
        joined += bot.service.chronicles.take_news(g.channel_id)  # a chapter of the channel's chronicle, if it keeps one
        await bot.public(interaction, face.opened(interaction.user.mention, said) + "".join(f"\n{line}" for line in joined),
                         allowed_mentions=discord.AllowedMentions.none())

    signature, described, choices = _new_signature(bot.systems)
    game_new.__signature__ = signature
    game_new.__discord_app_commands_param_description__ = described
    game_new.__discord_app_commands_param_choices__ = choices
    game.add_command(app_commands.Command(name="new", description="Open a new game in this channel",
                                          callback=game_new))

    async def channel_system(interaction):
        g = await bot.service.active_game(str(interaction.channel_id))
        return g, (bot.service.system(g) if g else bot.service.default)

    async def pick_of(interaction, values: dict) -> tuple[str | None, object, bool]:
        """What the player picked, by the channel's game's word for it (checked by the system)."""
        g, system = await channel_system(interaction)
        picked = values.get(system.pick_word)
        try:
            return (system.find_pick(picked) if picked else None), system, True
        except IllegalAction as e:
            await bot.private(interaction, e.reason)
            return None, system, False

    async def pick_choices(interaction: discord.Interaction, current: str):
        g, system = await channel_system(interaction)
        offered = system.picks(g.state) if g else system.picks(system.new_game(0))
        return [app_commands.Choice(name=shown[:100], value=value) for shown, value in offered
                if current.lower() in shown.lower()][:25]

    def with_picks(callback, description: str):
        """A command whose options are each system's pick word (adventurer, hero ...), with suggestions."""
        words = list(dict.fromkeys(s.pick_word for s in bot.systems))
        callback.__signature__ = inspect.Signature(
            [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction)]
            + [inspect.Parameter(w, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=str | None) for w in words])
        callback.__discord_app_commands_param_description__ = {w: f"Who you will play (the {w})" for w in words}
        command = app_commands.Command(name=callback.__name__.removeprefix("game_"), description=description,
                                       callback=callback)
        for w in words:
            command.autocomplete(w)(pick_choices)
        game.add_command(command)
        return command

    async def game_builtin(interaction: discord.Interaction, **values):
        pick, system, ok = await pick_of(interaction, values)
        if not ok:
            return
        try:
            outcome = await bot.service.add_builtin(str(interaction.channel_id), str(interaction.user.id), pick)
        except IllegalAction as e:
            await bot.private(interaction, e.reason)
            return
        await bot.announce(interaction, outcome)

    with_picks(game_builtin, "Add a seat the bot plays (before the start)")

    @game.command(name="away", description="Let the stand-in play your seat until you act again")
    async def game_away(interaction: discord.Interaction):
        await stand_in(interaction, True)

    @game.command(name="back", description="Take your seat back from the stand-in")
    async def game_back(interaction: discord.Interaction):
        await stand_in(interaction, False)

    async def stand_in(interaction: discord.Interaction, gone: bool):
        uid = str(interaction.user.id)
        try:
            g = await bot.service.set_away(str(interaction.channel_id), uid, gone)
        except IllegalAction as e:
            await bot.private(interaction, e.reason)
            return
        name = g.state["players"][uid]["name"]
        await interaction.response.send_message(
            f"The stand-in plays {name}'s seat until {name} acts again (any command or button of theirs, "
            "or /game back)." if gone else f"{name} is back: the stand-in gives the seat back.")
        if gone:
            bot.drive(g.channel_id)

    async def game_join(interaction: discord.Interaction, **values):
        pick, system, ok = await pick_of(interaction, values)
        if not ok:
            return
        if pick is None:
            await bot.private(interaction, f"Choose your {system.pick_word}: /game join {system.pick_word}:")
            return
        g = await bot.service.active_game(str(interaction.channel_id))
        questions = system.join_questions(g.state, pick) if g else []
        if questions:  # (e.g. a Castle Ravenloft hero's chosen powers): a private form, then its Join button
            text, view = join_form.form(pick, questions)
            await bot.private(interaction, text, view=view)
            return
        action = system.join_action(str(interaction.user.id), interaction.user.display_name, pick)
        await bot.act(interaction, {k: v for k, v in action.items() if k != "player"})

    with_picks(game_join, "Take a seat")

    @game.command(name="leave", description="Leave the game before it starts")
    async def game_leave(interaction: discord.Interaction):
        await bot.act(interaction, {"type": "leave"})

    @game.command(name="start", description="Begin the game (everyone seated)")
    async def game_start(interaction: discord.Interaction):
        welcomes = []  # the welcome DMs go out the moment the start is committed, not behind the channel's pace

        def committed(outcome):
            text = bot.face_of(bot.service.system(outcome.game)).welcome_text(f"<#{interaction.channel_id}>")
            welcomes.append(asyncio.ensure_future(welcome(interaction, outcome.state, text)))
        try:
            outcome = await bot.act(interaction, {"type": "start"}, committed=committed)
            if outcome:
                await bot.public(
                    interaction, "Dice anyone can check: every roll, shuffle and draw of this game comes from a secret "
                    f"seed whose SHA-256 is `{bot.service.commitment(outcome.game)}`. The seed is revealed when the "
                    "game ends; then `/log file` downloads the log and `python -m bot table --verify SEED LOG` checks "
                    "every roll and draw.")
        finally:
            closed = await welcomes[0] if welcomes else []
        if closed:
            await dms_closed(interaction, closed)

    async def welcome(interaction, state, text: str) -> list[str]:
        """The players a welcome DM could not reach (none where secrets go to threads)."""
        return [] if await in_threads(interaction) else await check_dms(interaction, state, text)

    async def in_threads(interaction) -> bool:
        """Whether the secrets go to private threads the bot may open here (so no DM is needed)."""
        settings = await bot.service.guild_settings(str(interaction.guild_id))
        return settings["secrets"] == "threads" and can_open(getattr(interaction, "app_permissions", None))

    async def check_dms(interaction, state, text: str) -> list[str]:
        """At the start, make sure every player can receive private messages
        (all at once): those who cannot."""
        async def welcomed(uid: str) -> bool:
            try:
                dm = await bot.create_dm(discord.Object(int(uid)))  # (no user lookup first: one request less)
                await dm.send(text)
                return True
            except (discord.HTTPException, ValueError):
                return False
        people = [uid for uid in state["seats"] if not seats.is_builtin(state, uid)]  # (the bot keeps its own seats')
        reached = await asyncio.gather(*(welcomed(uid) for uid in people))
        return [uid for uid, ok in zip(people, reached) if not ok]

    async def dms_closed(interaction, closed: list[str]):
        if closed:
            who = ", ".join(f"<@{u}>" for u in closed)
            await bot.public(
                interaction, f"{who}: I cannot send you private messages. Allow direct messages from server members "
                "(Server menu > Privacy Settings), or use the button below whenever a secret is announced.",
                view=secret_view(), allowed_mentions=discord.AllowedMentions(users=[discord.Object(int(u))
                                                                                     for u in closed]))

    @game.command(name="status", description="Where everyone stands")
    async def game_status(interaction: discord.Interaction):
        g = await bot.channel_game(interaction)
        if g is None:
            return
        await interaction.response.send_message(f"```\n{bot.face_of(bot.service.system(g)).status(g.state)[:1900]}\n```")

    @game.command(name="end", description="End this channel's game (its creator or Manage Channels)")
    async def game_end(interaction: discord.Interaction):
        try:
            g = await bot.service.end(str(interaction.channel_id), str(interaction.user.id),
                                      await can_manage(interaction))
        except IllegalAction as e:
            await bot.private(interaction, e.reason)
            return
        g.active = False
        bot.turn_posts.retire(g.channel_id)  # its turn message keeps what happened, without buttons
        await interaction.response.send_message("The game in this channel has ended. `/game new` starts another.\n"
                                                + await bot.seed_reveal(g))

    @game.command(name="kick", description="Remove a player before the start (creator or Manage Channels)")
    @app_commands.describe(player="A person's seat", builtin="A built-in seat")
    async def game_kick(interaction: discord.Interaction, player: discord.Member | None = None,
                        builtin: str | None = None):
        g = await bot.service.active_game(str(interaction.channel_id))
        if g is None:
            await bot.private(interaction, "There is no game in this channel.")
            return
        if str(interaction.user.id) != g.creator_id and not await can_manage(interaction):
            await bot.private(interaction, "Only the game's creator or someone with Manage Channels can kick.")
            return
        seat = str(player.id) if player else builtin_seat(g.state, builtin)
        if seat is None:
            await bot.private(interaction, "Name whose seat: a person (player) or a built-in seat (builtin).")
            return
        await bot.act(interaction, {"type": "leave"}, player=seat)

    game_kick.autocomplete("builtin")(builtin_choices(bot))

    @game.command(name="handover", description="Give a seat to someone else")
    @app_commands.describe(to="Who takes the seat", seat="Whose seat (yours if left out; others need creator rights)",
                           builtin="A built-in seat to hand to a person")
    async def game_handover(interaction: discord.Interaction, to: discord.Member, seat: discord.Member | None = None,
                            builtin: str | None = None):
        g = await bot.service.active_game(str(interaction.channel_id))
        owner = str((seat or interaction.user).id)
        if builtin is not None:
            owner = builtin_seat(g.state, builtin) if g else None
            if owner is None:
                await bot.private(interaction, "This game has no such built-in seat.")
                return
        if g and owner != str(interaction.user.id) and str(interaction.user.id) != g.creator_id \
                and not await can_manage(interaction):
            await bot.private(interaction, "Only the game's creator or someone with Manage Channels can hand "
                                           "over someone else's seat.")
            return
        await bot.act(interaction, {"type": "handover", "to": str(to.id), "name": to.display_name}, player=owner)

    game_handover.autocomplete("builtin")(builtin_choices(bot))

    @game.command(name="settings", description="Reminders and turn deadlines for this game")
    @app_commands.describe(reminder_hours="Remind the player after this many hours (0: never)",
                           deadline_hours="After this many hours others may vote to skip (0: never)",
                           stand_in="Whether a built-in player takes an absent player's seat after the deadline")
    @app_commands.choices(stand_in=[app_commands.Choice(name="off: others vote to skip", value="off"),
                                    app_commands.Choice(name="after the deadline", value="deadline")])
    async def game_settings(interaction: discord.Interaction, reminder_hours: float | None = None,
                            deadline_hours: float | None = None, stand_in: app_commands.Choice[str] | None = None):
        try:
            g = await bot.service.configure(str(interaction.channel_id), reminder_hours=reminder_hours,
                                            deadline_hours=deadline_hours, stand_in=stand_in.value if stand_in else None)
        except IllegalAction as e:
            await bot.private(interaction, e.reason)
            return
        standing_in = ("a stand-in plays an absent player's seat after the deadline, until they act again"
                       if g.settings.get("stand_in") == "deadline" else "no stand-in: others may vote to skip")
        await interaction.response.send_message(
            f"Reminders after {g.settings['reminder_hours']:g} h, deadline after {g.settings['deadline_hours']:g} h "
            f"(0 means never); {standing_in}.")

    @game.command(name="skip", description="Vote to skip an absent player's turn after its deadline")
    async def game_skip(interaction: discord.Interaction):
        try:
            votes, needed, outcome = await bot.service.vote_skip(str(interaction.channel_id),
                                                                 str(interaction.user.id))
        except IllegalAction as e:
            await bot.private(interaction, e.reason)
            return
        if outcome is None:
            await interaction.response.send_message(f"Vote to skip recorded ({votes} of {needed} needed).")
        elif in_play(outcome):
            skipped = "The absent player's turn is skipped by vote."
            await bot.private(interaction, skipped)
            await bot.turn_posts.show(interaction, outcome, answered=True, extra=skipped)
        else:
            await bot.announce(interaction, outcome, extra="The absent player's turn is skipped by vote.")

    bot.tree.add_command(game)
