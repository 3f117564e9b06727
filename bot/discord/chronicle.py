"""The chronicle on Discord: its embed (families, heirlooms, chapters, the city's history) with its
timeline picture (bot.chronicle.picture), the campaign's news told in the channel after an action's
own messages (bot.service.chronicle: a family taken, a member introduced, a chapter begun, a chapter
written down), and the private ask for a seat's family member (L291): an answer only its player sees
(or a DM), whose button opens a form for the first name and the age."""
import asyncio
import io
import logging
import re

import discord

from bot import chronicle as ch
from bot.chronicle import picture
from bot.discord import messages
from bot.discord.controls import Claimed, Controls
from bot.kit.errors import IllegalAction

log = logging.getLogger("bot.discord.chronicle")

EMBED_TOTAL = 5800  # characters in one embed at most (Discord: 6000)
FIELD = 1024  # characters in one field's value (Discord's limit)
FIELDS = 25
COLOUR = 0x8B1E24
PICTURE = "chronicle.png"


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


def _short(number: int) -> str:
    return "P" if number == 0 else str(number) if number <= ch.CHAPTERS else f"F{number - ch.CHAPTERS}"


def _pieces(lines: list[str], limit: int = FIELD) -> list[str]:
    """Lines in as few field values as fit."""
    return messages.chunks([_clip(line, limit) for line in lines], limit)


def fields(campaign: dict) -> list[tuple[str, str]]:
    """(name, value) of each field: the families, the chapters, the city's history."""
    out = []
    for fid, f in campaign["families"].items():
        if not f["player"] and not f["members"]:
            continue
        lines = []
        for m in f["members"]:
            chapters = ", ".join(_short(n) for n in m["chapters"])
            fate = m["fates"][-1] if m["fates"] else ""
            lines.append(f"• **{m['first_name'] or 'unnamed'}**{', ' + str(m['age']) if m['age'] else ''} "
                         f"({chapters}){' ✝' if m['died'] else ''}: {fate}")
        for h in f["heirlooms"]:
            lines.append(f"◆ heirloom: {h['name'] or '(not named yet)'}, the {h['item'].replace('_', ' ')} "
                         f"({_short(h['chapter'])})")
        if not lines:
            lines.append("No member has come to the city yet.")
        name = f"{ch.family_called(campaign, fid)} ({f['colour']}, crest: {f['crest']})"
        for i, value in enumerate(_pieces(lines)):
            out.append((_clip(name if i == 0 else f"{name}, more", 256), value))
    chapters = []
    for c in campaign["chapters"]:
        seats = ", ".join(f"{s['member']['first_name'] or '?'} ({ch.family_called(campaign, s['family'])})"
                          + (" ✝" if s["fate"]["died"] else "") + (" [traitor]" if s["fate"]["traitor"] else "")
                          for s in c["seats"])
        chapters.append(f"**{c['title'].capitalize()}**: haunt {c['haunt']}"
                        + (f" ({c['haunt_title']})" if c.get("haunt_title") else "")
                        + f", won by {c.get('won_by') or 'nobody'}. {seats}")
    for i, value in enumerate(_pieces(chapters)):
        out.append(("Chapters" if i == 0 else "Chapters, more", value))
    found = [t["name"] for c in campaign["chapters"] for t in c["tiles_first_found"]]
    deaths = [f"{s['member']['first_name'] or '?'} of {ch.family_called(campaign, s['family'])}: "
              f"{s['fate'].get('line_by_player') or s['fate']['line_by_bot']}"
              for c in campaign["chapters"] for s in c["seats"] if s["fate"]["died"]]
    notes = [f"{c['title'].capitalize()}: {n}" for c in campaign["chapters"] for n in c["notes"]]
    if found:
        out.append((f"The city: {len(found)} places found", _clip(", ".join(found), FIELD)))
    if deaths:
        out.append((f"The dead ({len(deaths)})", _pieces(deaths)[0]))
    if notes:
        out.append(("The history of the city", _pieces(notes)[0]))
    return out


def embed(campaign: dict, where: str = "") -> discord.Embed:
    """The whole chronicle in one embed, within Discord's limits (the longest fields cut first)."""
    played = len(campaign["chapters"])
    left = max(0, ch.CHAPTERS + 1 - played)
    title = "The chronicle" + (f" of {where}" if where else "")
    about = (f"{played} chapter{'s' if played != 1 else ''} played; "
             + (f"{left} to go before free play. Next: {ch.chapter_title(played)}, with `/game new`." if left
                else "now in free play.") + (" Legacy house rules off." if campaign["rules_off"] else ""))
    found = fields(campaign)[:FIELDS]
    total = len(title) + len(about) + sum(len(n) + len(v) for n, v in found)
    while total > EMBED_TOTAL and found:
        # the chapters are cut last: first the longest of the other fields, down to a few lines each
        others = [k for k in range(len(found)) if not found[k][0].startswith("Chapters") and len(found[k][1]) > 160]
        pool = others or range(len(found))
        i = max(pool, key=lambda k: len(found[k][1]))
        name, value = found[i]
        if len(value) <= 40:
            break
        cut = max(160 if others else 40, len(value) - min(total - EMBED_TOTAL + 1, len(value) // 2))
        total -= len(value) - len(_clip(value, cut))
        found[i] = (name, _clip(value, cut))
    e = discord.Embed(title=title, description=about, colour=COLOUR)
    for name, value in found:
        e.add_field(name=name, value=value, inline=False)
    return e


async def embed_and_picture(campaign: dict, where: str = "") -> tuple[discord.Embed, discord.File]:
    """The embed with the timeline as its picture (drawn off the event loop)."""
    data = await asyncio.get_running_loop().run_in_executor(None, picture.render, campaign)
    e = embed(campaign, where)
    e.set_image(url=f"attachment://{PICTURE}")
    return e, discord.File(io.BytesIO(data), filename=PICTURE)


async def tell_news(bot, channel_id: str, post, interaction: discord.Interaction | None = None):
    """The campaign's news since the last action, after that action's messages; then each private ask
    (to the player of `interaction` as an answer only they see, to anyone else by DM)."""
    chronicles = getattr(bot.service, "chronicles", None)
    lines = chronicles.take_news(str(channel_id)) if chronicles else []
    for part in messages.chunks(lines):
        await post(part)
    for uid, line in chronicles.take_asks(str(channel_id)) if chronicles else []:
        await ask_member(bot, str(channel_id), uid, line, post, interaction)


# --- the family member, asked privately (L291) ---------------------------------------------------

MEMBER_ID = re.compile(r"chron:member:(?P<channel>\d+)")
FORM_WAIT = 15 * 60  # a form left open this long is forgotten (the ask's button opens another)


def member_view(channel_id: str) -> discord.ui.View:
    view = Controls()
    view.add_item(MemberButton(channel_id))
    return view


async def ask_member(bot, channel_id: str, uid: str, line: str, post, interaction=None):
    """The ask goes to its player alone: the answer to their own click or command, else a DM; with their
    DMs closed, a line in the channel pointing to /chronicle member (it says nothing private)."""
    if not uid.isdigit():
        return  # a player of the local table, not of Discord
    if interaction is not None and str(interaction.user.id) == uid:
        await bot.private(interaction, line, view=member_view(channel_id))
        return
    try:
        user = await bot.fetch_user(int(uid))
        await user.send(line, view=member_view(channel_id))
    except (discord.Forbidden, discord.HTTPException):
        log.info("DM to %s refused; the ask for a family member goes to the channel", uid)
        await post(f"<@{uid}>, name the family member you send with `/chronicle member` (only you see the answer).",
                   allowed_mentions=discord.AllowedMentions(users=[discord.Object(int(uid))]))


class MemberButton(Claimed, discord.ui.DynamicItem[discord.ui.Button], template=MEMBER_ID):
    """Opens the form for the family member sent to the chapter being set up in the channel it names
    (the ask may be a DM, far from that channel)."""

    def __init__(self, channel_id: str):
        super().__init__(discord.ui.Button(label="Name your family member", style=discord.ButtonStyle.primary,
                                           custom_id=f"chron:member:{channel_id}"))
        self.channel_id = channel_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["channel"])

    async def callback(self, interaction: discord.Interaction):
        await interaction.response.send_modal(MemberForm(self.channel_id))


class MemberForm(discord.ui.Modal):
    """A first name and an age (L291: any age you like), answered privately; the table hears who comes."""

    def __init__(self, channel_id: str):
        super().__init__(title="Your family member", custom_id=f"chron:member-form:{channel_id}", timeout=FORM_WAIT)
        self.channel_id = channel_id
        self.first_name = discord.ui.TextInput(label="First name", custom_id="first_name", max_length=32)
        self.age = discord.ui.TextInput(label="Age", custom_id="age", max_length=3, placeholder="a whole number")
        self.add_item(self.first_name)
        self.add_item(self.age)

    async def on_submit(self, interaction: discord.Interaction):
        bot = interaction.client
        try:
            age = int(self.age.value.strip())
        except ValueError:
            await bot.private(interaction, "Give the age as a whole number: press the button again.")
            return
        try:
            said = await bot.service.chronicles.set_member(self.channel_id, str(interaction.user.id),
                                                           self.first_name.value, age)
        except IllegalAction as e:
            await bot.private(interaction, e.reason)
            return
        await bot.private(interaction, said)
        channel = bot.get_channel(int(self.channel_id)) or bot.get_partial_messageable(int(self.channel_id))
        await tell_news(bot, self.channel_id, bot.channel_poster(channel))  # the introduction, in the channel
