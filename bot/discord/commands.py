"""The slash commands. Each one turns its options into an engine action (or a
view) and hands it to the client; none of them knows a rule."""
import discord
from discord import app_commands

from bot import text
from bot.engine import IllegalAction

WAYS = [app_commands.Choice(name=n, value=v) for n, v in
        (("north", "north"), ("east", "east"), ("south", "south"), ("west", "west"), ("stairs", "stairs"),
         ("sewer grate", "grate"), ("arcane gate", "gate"))]
TRAITS = [app_commands.Choice(name=t.capitalize(), value=t) for t in ("might", "speed", "knowledge", "sanity")]

HELP = """**Betrayal at Baldur's Gate**: one game per channel or thread.
**Set up:** `/game new`, then each player `/game join adventurer:` (3 to 6), then `/game start`.
**Your turn:** `/move`, `/item use|drop|pickup|trade`, `/roll` (the roll your tile offers), `/end`. The buttons under each turn do the same.
**The haunt:** your side's rules come by DM (`/haunt rules` shows them again); press Ready. Then `/attack`, `/monster move|attack` in the monster turn, and `/haunt counter|token|task|slay|trait` for rules the bot leaves to you (on your turn), `/haunt declare` to claim a win the bot cannot see (everyone else answers privately with `/haunt confirm`).
**Any time:** `/sheet` (your traits and cards, only you see it), `/map`, `/game status`, `/log`, `/rules`.
**Away players:** `/game settings` sets reminders and a deadline; after it, `/game skip` votes to skip a turn. `/game handover` gives a seat to someone else."""


def register(bot):
    tree = bot.tree
    game = app_commands.Group(name="game", description="Create, join and run this channel's game", guild_only=True)

    async def can_manage(interaction: discord.Interaction) -> bool:
        perms = getattr(interaction, "permissions", None)
        return bool(perms and perms.manage_channels)

    @game.command(name="new", description="Open a new game in this channel")
    async def game_new(interaction: discord.Interaction):
        try:
            await bot.service.new_game(str(interaction.channel_id), str(interaction.guild_id),
                                       str(interaction.user.id))
        except IllegalAction as e:
            await bot.private(interaction, e.reason)
            return
        await interaction.response.send_message(
            f"{interaction.user.mention} opened a game of Betrayal at Baldur's Gate. Join with `/game join` "
            "(3 to 6 players), then `/game start`.", allowed_mentions=discord.AllowedMentions.none())

    @game.command(name="join", description="Take a seat with an adventurer")
    @app_commands.describe(adventurer="Who you will play")
    async def game_join(interaction: discord.Interaction, adventurer: str):
        try:
            adv = bot.engine.find_adventurer(adventurer)
        except IllegalAction as e:
            await bot.private(interaction, e.reason)
            return
        await bot.act(interaction, {"type": "join", "adventurer": adv, "name": interaction.user.display_name})

    @game_join.autocomplete("adventurer")
    async def join_choices(interaction: discord.Interaction, current: str):
        g = await bot.store.active_game(str(interaction.channel_id))
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
        await bot.act(interaction, {"type": "leave"})

    @game.command(name="start", description="Deal the aid cards and begin")
    async def game_start(interaction: discord.Interaction):
        outcome = await bot.act(interaction, {"type": "start"})
        if outcome:
            await check_dms(interaction, outcome.state)

    async def check_dms(interaction, state):
        """At the start, make sure every player can receive private messages."""
        closed = []
        for uid in state["seats"]:
            try:
                user = await bot.fetch_user(int(uid))
                await user.send(f"You are seated in the game in <#{interaction.channel_id}>. Private things "
                                "(secret rules, hidden tokens) will come here.")
            except (discord.HTTPException, ValueError):
                closed.append(uid)
        if closed:
            who = ", ".join(f"<@{u}>" for u in closed)
            from bot.discord.views import secret_view
            await interaction.followup.send(
                f"{who}: I cannot send you private messages. Allow direct messages from server members "
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
            await bot.service.end(str(interaction.channel_id), str(interaction.user.id), await can_manage(interaction))
        except IllegalAction as e:
            await bot.private(interaction, e.reason)
            return
        await interaction.response.send_message("The game in this channel has ended. `/game new` starts another.")

    @game.command(name="kick", description="Remove a player before the start (creator or Manage Channels)")
    async def game_kick(interaction: discord.Interaction, player: discord.Member):
        g = await bot.store.active_game(str(interaction.channel_id))
        if g is None:
            await bot.private(interaction, "There is no game in this channel.")
            return
        if str(interaction.user.id) != g.creator_id and not await can_manage(interaction):
            await bot.private(interaction, "Only the game's creator or someone with Manage Channels can kick.")
            return
        await bot.act(interaction, {"type": "leave"}, player=str(player.id))

    @game.command(name="handover", description="Give a seat to someone else")
    @app_commands.describe(to="Who takes the seat", seat="Whose seat (yours if left out; others need creator rights)")
    async def game_handover(interaction: discord.Interaction, to: discord.Member, seat: discord.Member | None = None):
        owner = seat or interaction.user
        g = await bot.store.active_game(str(interaction.channel_id))
        if g and owner.id != interaction.user.id and str(interaction.user.id) != g.creator_id \
                and not await can_manage(interaction):
            await bot.private(interaction, "Only the game's creator or someone with Manage Channels can hand "
                                           "over someone else's seat.")
            return
        await bot.act(interaction, {"type": "handover", "to": str(to.id), "name": to.display_name},
                      player=str(owner.id))

    @game.command(name="settings", description="Reminders and turn deadlines for this game")
    @app_commands.describe(reminder_hours="Remind the player after this many hours (0: never)",
                           deadline_hours="After this many hours others may vote to skip (0: never)")
    async def game_settings(interaction: discord.Interaction, reminder_hours: float | None = None,
                            deadline_hours: float | None = None):
        try:
            g = await bot.service.configure(str(interaction.channel_id), reminder_hours=reminder_hours,
                                            deadline_hours=deadline_hours)
        except IllegalAction as e:
            await bot.private(interaction, e.reason)
            return
        await interaction.response.send_message(
            f"Reminders after {g.settings['reminder_hours']:g} h, deadline after {g.settings['deadline_hours']:g} h "
            "(0 means never).")

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
        else:
            await bot.announce(interaction, outcome, extra="The absent player's turn is skipped by vote.")

    tree.add_command(game)

    @tree.command(name="move", description="Move through a doorway, the stairs or a sewer grate")
    @app_commands.choices(direction=WAYS)
    @app_commands.guild_only()
    async def move(interaction: discord.Interaction, direction: app_commands.Choice[str]):
        await bot.act(interaction, {"type": "move", "way": direction.value})

    @tree.command(name="roll", description="Attempt the roll your tile offers (once per turn)")
    @app_commands.choices(trait=TRAITS)
    @app_commands.guild_only()
    async def roll(interaction: discord.Interaction, trait: app_commands.Choice[str] | None = None):
        await bot.act(interaction, {"type": "roll", "trait": trait.value if trait else None})

    @tree.command(name="end", description="End your turn")
    @app_commands.guild_only()
    async def end(interaction: discord.Interaction):
        await bot.act(interaction, {"type": "end"})

    @tree.command(name="choose", description="Answer the question the game is asking you")
    @app_commands.guild_only()
    async def choose(interaction: discord.Interaction, option: int):
        await bot.act(interaction, {"type": "decide", "choice": option - 1})

    @tree.command(name="attack", description="Attack an opponent or a monster (after the haunt begins)")
    @app_commands.choices(trait=TRAITS)
    @app_commands.describe(player="An adventurer to attack", monster="A monster to attack",
                           trait="Attack with another trait than Might (if you may)", weapon="A weapon you hold")
    @app_commands.guild_only()
    async def attack(interaction: discord.Interaction, player: discord.Member | None = None,
                     monster: str | None = None, trait: app_commands.Choice[str] | None = None,
                     weapon: str | None = None, reckless: bool = False):
        target = str(player.id) if player else (monster or "")
        await bot.act(interaction, {"type": "attack", "target": target, "trait": trait.value if trait else None,
                                    "weapon": weapon, "reckless": reckless})

    async def monster_choices(interaction: discord.Interaction, current: str):
        g = await bot.store.active_game(str(interaction.channel_id))
        if g is None:
            return []
        names = [f"{m['name']} {m['number']}" for m in g.state.get("monsters", []) if not m["dead"]]
        return [app_commands.Choice(name=n, value=n) for n in names if current.lower() in n.lower()][:25]

    attack.autocomplete("monster")(monster_choices)

    monsters = app_commands.Group(name="monster", description="The monster turn", guild_only=True)

    @monsters.command(name="move", description="Move a monster one tile")
    @app_commands.choices(direction=WAYS)
    async def monster_move(interaction: discord.Interaction, monster: str, direction: app_commands.Choice[str]):
        await bot.act(interaction, {"type": "monster", "op": "move", "monster": monster, "way": direction.value})

    @monsters.command(name="attack", description="A monster attacks a hero on its tile")
    async def monster_attack(interaction: discord.Interaction, monster: str, player: discord.Member):
        await bot.act(interaction, {"type": "monster", "op": "attack", "monster": monster, "target": str(player.id)})

    monster_move.autocomplete("monster")(monster_choices)
    monster_attack.autocomplete("monster")(monster_choices)
    tree.add_command(monsters)

    haunt = app_commands.Group(name="haunt", description="The haunt: your rules, ready, and the table's tools",
                               guild_only=True)

    @haunt.command(name="ready", description="You have read your side's rules")
    async def haunt_ready(interaction: discord.Interaction):
        await bot.act(interaction, {"type": "ready"})

    @haunt.command(name="rules", description="Your side's secret rules again (only you see them)")
    async def haunt_rules(interaction: discord.Interaction):
        await bot.show_secrets(interaction, str(interaction.user.id))

    @haunt.command(name="counter", description="Change a haunt counter (the Turn/Damage track and the like)")
    async def haunt_counter(interaction: discord.Interaction, name: str, change: int | None = None,
                            set_to: int | None = None):
        await bot.act(interaction, {"type": "counter", "name": name, "delta": change, "value": set_to})

    @haunt.command(name="token", description="Put a token on your tile, or take one off")
    @app_commands.choices(action=[app_commands.Choice(name="place", value="place"),
                                  app_commands.Choice(name="remove", value="remove")])
    async def haunt_token(interaction: discord.Interaction, action: app_commands.Choice[str], name: str):
        await bot.act(interaction, {"type": "token", "op": action.value, "name": name})

    @haunt.command(name="slay", description="Take a monster off the board when the haunt's own rule kills it")
    async def haunt_slay(interaction: discord.Interaction, monster: str):
        await bot.act(interaction, {"type": "slay", "monster": monster})

    @haunt.command(name="task", description="A task roll the haunt asks for (once per turn per task)")
    @app_commands.choices(trait=TRAITS)
    async def haunt_task(interaction: discord.Interaction, trait: app_commands.Choice[str], task: str):
        await bot.act(interaction, {"type": "task", "trait": trait.value, "task": task})

    @haunt.command(name="declare", description="Declare that a side has won (the other side confirms)")
    @app_commands.choices(side=[app_commands.Choice(name="the traitor", value="traitor"),
                                app_commands.Choice(name="the heroes", value="heroes")])
    async def haunt_declare(interaction: discord.Interaction, side: app_commands.Choice[str]):
        await bot.act(interaction, {"type": "declare", "side": side.value})

    @haunt.command(name="confirm", description="Answer a claimed win: yes, that side won; or no, play on")
    @app_commands.choices(answer=[app_commands.Choice(name="yes, they won", value="yes"),
                                  app_commands.Choice(name="no, play on", value="no")])
    async def haunt_confirm(interaction: discord.Interaction, answer: app_commands.Choice[str]):
        # Answered privately and announced unsigned: who disputed a claim must not point at a hidden traitor.
        await bot.act(interaction, {"type": "confirm", "agree": answer.value == "yes"},
                      unsigned=f"Your answer ({answer.name}) is in; only you see this.")

    @haunt.command(name="trait", description="Change one of your traits, when the haunt says to")
    @app_commands.choices(trait=TRAITS)
    async def haunt_trait(interaction: discord.Interaction, trait: app_commands.Choice[str], change: int):
        await bot.act(interaction, {"type": "trait", "trait": trait.value, "delta": change})

    @haunt.command(name="unmask", description="The hidden traitor turns token 1 face up")
    async def haunt_unmask(interaction: discord.Interaction):
        await bot.act(interaction, {"type": "unmask"})

    @haunt.command(name="part2", description="Open the second part of your side's rules, when it says so")
    async def haunt_part2(interaction: discord.Interaction):
        await bot.act(interaction, {"type": "part_two"})

    tree.add_command(haunt)

    @tree.command(name="power", description="Use your adventurer's power")
    @app_commands.guild_only()
    async def power(interaction: discord.Interaction):
        await bot.act(interaction, {"type": "power"})

    item = app_commands.Group(name="item", description="Use, drop, pick up or trade an item", guild_only=True)

    async def card_choices(interaction: discord.Interaction, current: str, where: str):
        g = await bot.store.active_game(str(interaction.channel_id))
        uid = str(interaction.user.id)
        if g is None or uid not in g.state["players"]:
            return []
        p = g.state["players"][uid]
        ids = p["cards"] if where == "held" else g.state["piles"].get(p["tile"], [])
        names = [bot.content.cards[c].name for c in ids if bot.content.cards[c].deck != "event"]
        return [app_commands.Choice(name=n, value=n) for n in names if current.lower() in n.lower()][:25]

    @item.command(name="use", description="Use an item or omen you hold")
    async def item_use(interaction: discord.Interaction, item: str):
        await bot.act(interaction, {"type": "use", "card": item})

    @item.command(name="drop", description="Drop an item on your tile")
    async def item_drop(interaction: discord.Interaction, item: str):
        await bot.act(interaction, {"type": "drop", "card": item})

    @item.command(name="pickup", description="Pick up an item from the pile on your tile")
    async def item_pickup(interaction: discord.Interaction, item: str):
        await bot.act(interaction, {"type": "pickup", "card": item})

    @item.command(name="trade", description="Offer an item to a player on your tile")
    async def item_trade(interaction: discord.Interaction, item: str, to: discord.Member):
        await bot.act(interaction, {"type": "trade", "card": item, "to": str(to.id)})

    async def held_choices(interaction: discord.Interaction, current: str):
        return await card_choices(interaction, current, "held")

    async def pile_choices(interaction: discord.Interaction, current: str):
        return await card_choices(interaction, current, "pile")

    for cmd in (item_use, item_drop, item_trade):
        cmd.autocomplete("item")(held_choices)
    item_pickup.autocomplete("item")(pile_choices)
    tree.add_command(item)

    @tree.command(name="sheet", description="Your traits, power and cards (only you see it)")
    @app_commands.guild_only()
    async def sheet(interaction: discord.Interaction):
        await bot.show_sheet(interaction)

    @tree.command(name="map", description="The city as it stands")
    @app_commands.guild_only()
    async def map_(interaction: discord.Interaction):
        g = await bot.channel_game(interaction)
        if g is None:
            return
        await interaction.response.defer()
        await bot.send_map(interaction, g.state, ephemeral=False)

    @tree.command(name="replay", description="The game so far as an animated picture, one frame per turn")
    @app_commands.guild_only()
    async def replay(interaction: discord.Interaction):
        g = await bot.channel_game(interaction, started=True)
        if g is None:
            return
        await interaction.response.defer()
        await bot.send_replay(interaction.followup.send, g)

    @tree.command(name="log", description="Recent events of this game")
    @app_commands.guild_only()
    async def log_(interaction: discord.Interaction):
        g = await bot.channel_game(interaction)
        if g is None:
            return
        lines = await bot.store.recent_events(g.id, ["all", str(interaction.user.id)], limit=15)
        await bot.private(interaction, "\n".join(lines)[-1900:] or "Nothing has happened yet.")

    @tree.command(name="rules", description="A rule, in short")
    @app_commands.describe(topic="Which rule")
    async def rules(interaction: discord.Interaction, topic: str):
        found = [t for t in bot.topics if topic.lower() in (t["id"], t["title"].lower())]
        if not found:
            found = [t for t in bot.topics if topic.lower() in (t["title"] + " " + t["text"]).lower()]
        if not found:
            await bot.private(interaction, "No rule matches that. Topics: " +
                              ", ".join(t["title"] for t in bot.topics) + ".")
            return
        t = found[0]
        await bot.private(interaction, f"**{t['title']}** (rulebook: {t['section']})\n{t['text']}")

    @rules.autocomplete("topic")
    async def rules_choices(interaction: discord.Interaction, current: str):
        return [app_commands.Choice(name=t["title"], value=t["id"]) for t in bot.topics
                if current.lower() in (t["title"] + " " + t["text"]).lower()][:25]

    @tree.command(name="help", description="How to play with this bot")
    async def help_(interaction: discord.Interaction):
        await bot.private(interaction, HELP)
