"""/game: create, join, start, end and run this channel's game."""
import discord
from discord import app_commands

from bot.games.babg import text
from bot.discord.private_threads import can_open
from bot.discord.turn_posts import in_play
from bot.discord.views import secret_view
from bot.games.babg.engine import IllegalAction
from bot.service import seats
from bot.games.babg.vocabulary import make

from .common import builtin_choices, builtin_seat, can_manage


def options_line(options: dict, seeded: bool) -> str:
    """The game's options in a few words (never the seed itself)."""
    said = []
    if seeded:
        said.append("a seed of your choosing (the same game again)")
    if options.get("chosen_haunt"):
        said.append(f"haunt {options['chosen_haunt']} when the haunt begins")
    if "legacy-house-rules" in options.get("rules", []):
        said.append("house rules from Betrayal Legacy (`/rules house`)")
    if options.get("avoid_repeats"):
        said.append(f"no haunt this server has played ({len(options.get('played', []))} so far)")
    if options.get("map"):
        said.append("the map " + ("once a round" if options["map"] == "round" else "only on /map"))
    return "; ".join(said)


def register(bot):
    game = app_commands.Group(name="game", description="Create, join and run this channel's game", guild_only=True)

    @game.command(name="new", description="Open a new game in this channel")
    @app_commands.describe(seed="Play the same game again: a whole number from an earlier game",
                           haunt="Play this haunt (1-50) instead of the chart's, when the haunt begins",
                           rules="House rules to play by",
                           avoid_repeats="Skip haunts this server has played (the rulebook's optional rule)",
                           map="When the channel gets the map (always on /map)",
                           builtin="Seats the bot plays (0-5), so fewer people can play; more with /game builtin")
    @app_commands.choices(rules=[app_commands.Choice(name="Baldur's Gate rules", value="baldurs-gate"),
                                 app_commands.Choice(name="house rules from Betrayal Legacy",
                                                     value="legacy-house-rules")],
                          map=[app_commands.Choice(name="after every turn", value="turn"),
                               app_commands.Choice(name="once a round", value="round"),
                               app_commands.Choice(name="only on /map", value="request")])
    async def game_new(interaction: discord.Interaction, seed: int | None = None, haunt: int | None = None,
                       rules: app_commands.Choice[str] | None = None, avoid_repeats: bool = False,
                       map: app_commands.Choice[str] | None = None,  # noqa: A002 - the option's name on Discord
                       builtin: app_commands.Range[int, 0, 5] = 0):
        options = {"chosen_haunt": haunt, "rules": [rules.value] if rules else [], "avoid_repeats": avoid_repeats,
                   "map": map.value if map else "turn"}
        if not await bot.admit(interaction, str(interaction.channel_id)):
            return
        try:
            g = await bot.in_time(interaction, bot.service.new_game(
                str(interaction.channel_id), str(interaction.guild_id), str(interaction.user.id), seed=seed,
                options=options))
        except IllegalAction as e:
            await bot.private(interaction, e.reason)
            return
        chosen = options_line(g.state["options"], seed is not None)
        joined = []
        for _ in range(builtin):
            outcome = await bot.service.add_builtin(g.channel_id, str(interaction.user.id))
            joined += [e["text"] for e in outcome.events if e["to"] == "all"]
        await bot.public(
            interaction,
            f"{interaction.user.mention} opened a game of Betrayal at Baldur's Gate. Join with `/game join` "
            f"(3 to 6 players, built-in ones included: `/game builtin` adds one), then `/game start`."
            + (f" Options: {chosen}." if chosen else "") + "".join(f"\n{line}" for line in joined),
            allowed_mentions=discord.AllowedMentions.none())

    @game.command(name="builtin", description="Add a seat the bot plays (before the start)")
    @app_commands.describe(adventurer="Who it plays (a free one if left out)")
    async def game_builtin(interaction: discord.Interaction, adventurer: str | None = None):
        try:
            adv = bot.engine.find_adventurer(adventurer) if adventurer else None
            outcome = await bot.service.add_builtin(str(interaction.channel_id), str(interaction.user.id), adv)
        except IllegalAction as e:
            await bot.private(interaction, e.reason)
            return
        await bot.announce(interaction, outcome)

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

    @game.command(name="join", description="Take a seat with an adventurer")
    @app_commands.describe(adventurer="Who you will play")
    async def game_join(interaction: discord.Interaction, adventurer: str):
        try:
            adv = bot.engine.find_adventurer(adventurer)
        except IllegalAction as e:
            await bot.private(interaction, e.reason)
            return
        await bot.act(interaction, make("join", adventurer=adv, name=interaction.user.display_name))

    @game_builtin.autocomplete("adventurer")
    @game_join.autocomplete("adventurer")
    async def join_choices(interaction: discord.Interaction, current: str):
        g = await bot.service.active_game(str(interaction.channel_id))
        free = bot.engine.free_adventurers(g.state) if g else list(bot.content.adventurers)
        out = []
        for aid in free:
            a = bot.content.adventurers[aid]
            label = f"{a.name} ({a.race} {a.klass})"
            if current.lower() in label.lower():
                out.append(app_commands.Choice(name=label[:100], value=aid))
        return out[:25]

    @game.command(name="leave", description="Leave the game before it starts")
    async def game_leave(interaction: discord.Interaction):
        await bot.act(interaction, make("leave"))

    @game.command(name="start", description="Deal the aid cards and begin")
    async def game_start(interaction: discord.Interaction):
        outcome = await bot.act(interaction, make("start"))
        if outcome:
            await bot.public(
                interaction, "Dice anyone can check: every roll, shuffle and draw of this game comes from a secret seed whose "
                f"SHA-256 is `{bot.service.commitment(outcome.game)}`. The seed is revealed when the game ends; "
                "then `/log file` downloads the log and `python -m bot table --verify SEED LOG` checks every roll "
                "and draw.")
            if not await in_threads(interaction):
                await check_dms(interaction, outcome.state)

    async def in_threads(interaction) -> bool:
        """Whether the secrets go to private threads the bot may open here (so no DM is needed)."""
        settings = await bot.service.guild_settings(str(interaction.guild_id))
        return settings["secrets"] == "threads" and can_open(getattr(interaction, "app_permissions", None))

    async def check_dms(interaction, state):
        """At the start, make sure every player can receive private messages."""
        closed = []
        for uid in state["seats"]:
            if seats.is_builtin(state, uid):
                continue  # the bot keeps a built-in seat's secrets itself
            try:
                dm = await bot.create_dm(discord.Object(int(uid)))  # (no user lookup first: one request less)
                await dm.send(f"You are seated in the game in <#{interaction.channel_id}>. Private things "
                                "(secret rules, hidden tokens) will come here.")
            except (discord.HTTPException, ValueError):
                closed.append(uid)
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
        await interaction.response.send_message(f"```\n{text.status(bot.content, g.state)[:1900]}\n```")

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
        await bot.act(interaction, make("leave"), player=seat)

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
        await bot.act(interaction, make("handover", to=str(to.id), name=to.display_name), player=owner)

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
