"""/chronicle: a Betrayal Legacy style campaign kept by the channel (bot.service.chronicle). Each
`/game new` in a channel keeping one is its next chapter.

    /chronicle start [rules_off]     open the campaign here
    /chronicle status                all of it: an embed and its timeline picture
    /chronicle family [family] [pick] [name]   a family's page; or take a family (pick), naming it
    /chronicle member name age       who your family sends to the next chapter (told privately)
    /chronicle heirloom name [item]  name your family's newest heirloom
    /chronicle fate text             your member's fate in your own words (the last chapter)
    /chronicle note text [chapter]   a line for the history of the city
    /chronicle end                   close the campaign (who started it, or Manage Channels)
"""
import discord
from discord import app_commands

from bot import chronicle as ch
from bot.discord.chronicle import embed_and_picture, tell_news
from bot.kit.errors import IllegalAction
from bot.service.chronicle import book, find_family

from .common import can_manage


def register(bot):
    group = app_commands.Group(name="chronicle", description="A Betrayal Legacy campaign kept by this channel",
                               guild_only=True)
    families = [app_commands.Choice(name=f"{f['colour']} ({f['crest']})"[:100], value=fid)
                for fid, f in book()["families"].items()]
    chronicles = lambda: bot.service.chronicles  # noqa: E731  (the service exists once the bot has started)

    async def answer(interaction: discord.Interaction, work, public: bool = False):
        try:
            said = await work
        except IllegalAction as e:
            await bot.private(interaction, e.reason)
            return
        if public:
            await bot.public(interaction, said, allowed_mentions=discord.AllowedMentions.none())
        else:
            await bot.private(interaction, said)

    @group.command(name="start", description="Open a campaign in this channel: each new game is its next chapter")
    @app_commands.describe(rules_off="Play without the Legacy house rules for the whole campaign")
    async def chronicle_start(interaction: discord.Interaction, rules_off: bool = False):
        async def work():
            await chronicles().start(str(interaction.channel_id), str(interaction.guild_id),
                                     str(interaction.user.id), rules_off)
            return ("A chronicle begins in this channel. Each player takes a family with `/chronicle family "
                    "pick:` (or the first free one on joining), names who they send with `/chronicle member`, and "
                    "`/game new` opens the prologue.")
        await answer(interaction, work(), public=True)

    @group.command(name="status", description="The whole chronicle: families, heirlooms, chapters, the city")
    async def chronicle_status(interaction: discord.Interaction):
        try:
            row = await chronicles().need(str(interaction.channel_id))
        except IllegalAction as e:
            await bot.private(interaction, e.reason)
            return
        where = f"#{interaction.channel.name}" if getattr(interaction.channel, "name", None) else ""
        e, picture = await embed_and_picture(row.record, where)
        await bot.public(interaction, embed=e, file=picture)

    @group.command(name="family", description="A family's page; or take one for the campaign with pick")
    @app_commands.describe(family="The family to show (its colour or name)", pick="The family you take",
                           name="Your group's name for the family you take")
    @app_commands.choices(pick=families)
    async def chronicle_family(interaction: discord.Interaction, family: str | None = None,
                               pick: app_commands.Choice[str] | None = None, name: str | None = None):
        channel = str(interaction.channel_id)
        if pick is not None or (name and family is None):
            async def work():
                if pick is None:
                    row = await chronicles().need(channel)
                    mine = ch.family_of_player(row.record, str(interaction.user.id))
                    if mine is None:
                        raise IllegalAction("Pick a family to name: /chronicle family pick:<family> name:<name>.")
                    return await chronicles().pick_family(channel, str(interaction.user.id), mine, name)
                return await chronicles().pick_family(channel, str(interaction.user.id), pick.value, name)
            await answer(interaction, work(), public=True)
            return

        async def page():
            row = await chronicles().need(channel)
            fid = find_family(row.record, family) if family else ch.family_of_player(row.record, str(interaction.user.id))
            if fid is None:
                raise IllegalAction("Which family? /chronicle family family:<colour or name>.")
            return "\n".join(_named(bot, interaction, row.record, ch.family_lines(row.record, fid)))
        await answer(interaction, page(), public=True)

    @group.command(name="member", description="Who your family sends to the next chapter (told to you alone)")
    @app_commands.describe(name="Their first name (a survivor's name brings them back, older)", age="Their age")
    async def chronicle_member(interaction: discord.Interaction, name: str, age: app_commands.Range[int, 1, 999]):
        await answer(interaction, chronicles().set_member(str(interaction.channel_id), str(interaction.user.id),
                                                          name, age))
        await tell_news(bot, interaction.channel_id, bot.channel_poster(interaction.channel))  # the introduction

    @group.command(name="heirloom", description="Name your family's newest heirloom")
    @app_commands.describe(name="The heirloom's name", item="Which item, if your family has several unnamed")
    async def chronicle_heirloom(interaction: discord.Interaction, name: str, item: str | None = None):
        await answer(interaction, chronicles().name_heirloom(str(interaction.channel_id), str(interaction.user.id),
                                                             name, item), public=True)

    @group.command(name="fate", description="Your family member's fate in the last chapter, in your words")
    async def chronicle_fate(interaction: discord.Interaction, text: str):
        await answer(interaction, chronicles().set_fate(str(interaction.channel_id), str(interaction.user.id), text),
                     public=True)

    @group.command(name="note", description="A line for the history of the city, kept with a chapter")
    @app_commands.describe(text="What to keep", chapter="Which chapter (0: the prologue; the last one if left out)")
    async def chronicle_note(interaction: discord.Interaction, text: str,
                             chapter: app_commands.Range[int, 0, 99] | None = None):
        await answer(interaction, chronicles().add_note(str(interaction.channel_id), text, chapter), public=True)

    @group.command(name="end", description="Close this channel's campaign (its record stays in the database)")
    async def chronicle_end(interaction: discord.Interaction):
        async def work():
            row = await chronicles().end(str(interaction.channel_id), str(interaction.user.id),
                                         await can_manage(interaction))
            return f"The chronicle is closed after {len(row.record['chapters'])} chapter(s)."
        await answer(interaction, work(), public=True)

    bot.tree.add_command(group)


def _named(bot, interaction, record: dict, lines: list[str]) -> list[str]:
    """A family's page with its player as a mention (no ping: the bot's messages mention nobody)."""
    out = []
    for line in lines:
        for f in record["families"].values():
            if f["player"] and f"played by {f['player']}" in line:
                who = f["player"]
                line = line.replace(f"played by {who}", f"played by <@{who}>" if who.isdigit() else
                                    f"played by {who.replace('builtin-', 'Built-in ')}")
        out.append(line)
    return out
