"""Joining with more to choose than a pick (bot.kit.contract: `join_questions`), as Castle Ravenloft's heroes
choose their powers: a private message with a select menu per question and a Join button. What has been chosen
so far rides in the items' custom ids (each answer as indices into its question's options), so the form needs
no memory of its own and still works after a restart; a choice re-draws the form with the new answers."""
import re

import discord

from bot.discord.controls import PER_SELECT, Claimed, Controls

PREFIX = "kj"
CUSTOM_ID = re.compile(rf"{PREFIX}:(?P<pick>[a-z0-9_]+):(?P<slot>[0-9]+):(?P<answers>[0-9.;=]*)")
BUTTON_ID = re.compile(rf"{PREFIX}b:(?P<pick>[a-z0-9_]+):(?P<answers>[0-9.;=]*)")
ROWS = 5  # Discord: a message's rows; a select fills one, so four questions leave a row for Join


def encode(answers: dict[int, list[int]]) -> str:
    return ";".join(f"{q}={'.'.join(map(str, picked))}" for q, picked in sorted(answers.items()))


def decode(text: str) -> dict[int, list[int]]:
    out = {}
    for part in filter(None, text.split(";")):
        q, _, picked = part.partition("=")
        out[int(q)] = [int(i) for i in picked.split(".") if i]
    return out


def complete(questions: list[dict], answers: dict[int, list[int]]) -> bool:
    return all(len(answers.get(i, [])) == q["count"] for i, q in enumerate(questions))


def values(questions: list[dict], answers: dict[int, list[int]]) -> dict:
    """The answers as the system reads them: each question's key -> the values chosen (unknown indices
    dropped, so a form from an older content can never choose what is not offered)."""
    return {q["key"]: [q["options"][i][1] for i in answers.get(n, []) if 0 <= i < len(q["options"])]
            for n, q in enumerate(questions)}


def form(pick: str, questions: list[dict], answers: dict[int, list[int]] | None = None) -> tuple[str, Controls]:
    """The text and the controls of the form, with `answers` shown as chosen."""
    answers = answers or {}
    view = Controls()
    lines = ["Before you join, choose:"]
    for n, q in enumerate(questions[:ROWS - 1]):
        chosen = answers.get(n, [])
        options = [discord.SelectOption(label=label[:100], value=str(i), description=(about or None) and about[:100],
                                        default=i in chosen)
                   for i, (label, _value, about) in enumerate(q["options"][:PER_SELECT])]
        others = {k: v for k, v in answers.items() if k != n}
        view.add_item(FormSelect(f"{PREFIX}:{pick}:{n}:{encode(others)}", options, q["prompt"], q["count"]))
        names = [q["options"][i][0] for i in chosen if i < len(q["options"])]
        lines.append(f"- {q['prompt']}: " + (", ".join(names) if names else "not yet chosen"))
    ready = complete(questions, answers)
    view.add_item(FormButton(f"{PREFIX}b:{pick}:{encode(answers)}", disabled=not ready))
    lines.append("Then press **Join**." if ready else "The **Join** button wakes once every menu is chosen.")
    return "\n".join(lines), view


async def answer(interaction: discord.Interaction, pick: str, answers: dict[int, list[int]], join: bool):
    """A choice in the form (the form re-drawn with it) or its Join button (the join, with the answers)."""
    bot = interaction.client
    g = await bot.service.active_game(str(interaction.channel_id))
    system = bot.service.system(g) if g else None
    questions = system.join_questions(g.state, pick) if g else []
    if not questions:
        await bot.private(interaction, "This game no longer takes joins with this form: use /game join.")
        return
    if not join:
        text, view = form(pick, questions, answers)
        await interaction.response.edit_message(content=text, view=view)
        return
    if not complete(questions, answers):
        await bot.private(interaction, "Choose in every menu first, then press Join.")
        return
    action = system.join_answered(system.join_action(str(interaction.user.id), interaction.user.display_name, pick),
                                  values(questions, answers))
    await bot.act(interaction, {k: v for k, v in action.items() if k != "player"})


class FormSelect(Claimed, discord.ui.DynamicItem[discord.ui.Select], template=CUSTOM_ID):
    def __init__(self, custom_id: str, options: list[discord.SelectOption], placeholder: str | None = None,
                 count: int = 1):
        super().__init__(discord.ui.Select(custom_id=custom_id, options=options, placeholder=(placeholder or "")[:150],
                                           min_values=count, max_values=count))

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(item.custom_id, list(item.options), item.placeholder, item.min_values)

    async def callback(self, interaction: discord.Interaction):
        m = CUSTOM_ID.fullmatch(self.item.custom_id)
        answers = decode(m["answers"])
        answers[int(m["slot"])] = sorted(int(v) for v in self.item.values)
        await answer(interaction, m["pick"], answers, join=False)


class FormButton(Claimed, discord.ui.DynamicItem[discord.ui.Button], template=BUTTON_ID):
    def __init__(self, custom_id: str, disabled: bool = False):
        super().__init__(discord.ui.Button(label="Join", style=discord.ButtonStyle.primary, custom_id=custom_id,
                                           disabled=disabled))

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(item.custom_id)

    async def callback(self, interaction: discord.Interaction):
        m = BUTTON_ID.fullmatch(self.item.custom_id)
        await answer(interaction, m["pick"], decode(m["answers"]), join=True)
