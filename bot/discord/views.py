"""Buttons under each turn prompt. Their custom ids carry what they do, so
they keep working after a restart: each click reloads the game and is checked
by the rules like any command (a stranger's click gets a private "no")."""
import re
import zlib

import discord

from bot.engine.legal import actor, legal_actions

PREFIX = "bg"
WAYS = {"north": "⬆ North", "east": "➡ East", "south": "⬇ South", "west": "⬅ West",
        "stairs": "Stairs", "grate": "Sewer grate", "gate": "Arcane Gate"}


def pending_key(state: dict) -> str:
    """A short fingerprint of the question being asked, so a button from an
    older question cannot answer a newer one."""
    p = state.get("pending")
    if not p:
        return "0"
    return format(zlib.crc32(repr((p["player"], p["prompt"], p["options"])).encode()) & 0xFFFFFF, "x")


class GameButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=re.compile(PREFIX + r":(?P<kind>[a-z]+):(?P<arg>[^:]*):(?P<extra>[^:]*)")):
    def __init__(self, kind: str, arg: str = "", extra: str = "", label: str = "?",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, row: int | None = None):
        custom_id = f"{PREFIX}:{kind}:{arg}:{extra}"
        super().__init__(discord.ui.Button(label=label[:80], style=style, custom_id=custom_id, row=row))
        self.kind, self.arg, self.extra = kind, arg, extra

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["kind"], match["arg"], match["extra"], label=item.label or "?",
                   style=item.style)

    async def callback(self, interaction: discord.Interaction):
        await interaction.client.on_game_button(interaction, self.kind, self.arg, self.extra)


def turn_view(engine, state: dict) -> discord.ui.View | None:
    """The controls for whoever the game waits for: the legal moves and End
    turn, or the options of a pending choice."""
    who = actor(state)
    if who is None or state["phase"] == "over":
        return None
    view = discord.ui.View(timeout=None)
    pending = state["pending"]
    haunt = state.get("haunt")
    if state["phase"] == "haunt" and not (haunt or {}).get("started", True) and not pending:
        view.add_item(GameButton("ready", label="Ready", style=discord.ButtonStyle.success))
        view.add_item(GameButton("secret", label="My secret rules", style=discord.ButtonStyle.primary))
        return view
    if pending:
        key = pending_key(state)
        for i, option in enumerate(pending["options"][:20]):  # more than 20: /choose reaches them all
            view.add_item(GameButton("decide", str(i), key, label=f"{i + 1}. {option}",
                                     style=discord.ButtonStyle.primary, row=i // 5))
        return view
    turn = state["turn"]
    if turn.get("monsters"):
        for i, action in enumerate(legal_actions(engine.content, state)[:20]):
            if action["type"] == "monster":
                m = next(m for m in state["monsters"] if m["id"] == action["monster"])
                what = (f"{m['name']} {m['number']} {action['way']}" if action["op"] == "move" else
                        f"{m['name']} {m['number']} attacks {state['players'][action['target']]['name']}")
                extra = f"move-{action['way']}" if action["op"] == "move" else f"atk-{action['target']}"
                view.add_item(GameButton("mon", action["monster"], extra, label=what, row=min(3, i // 5)))
        view.add_item(GameButton("end", label="End the monster turn", style=discord.ButtonStyle.danger, row=4))
        return view
    if state["phase"] == "haunt" and not turn.get("attacked"):
        for action in legal_actions(engine.content, state):
            if action["type"] == "attack":
                target = action["target"]
                name = state["players"][target]["name"] if target in state["players"] else next(
                    f"{m['name']} {m['number']}" for m in state["monsters"] if m["id"] == target)
                view.add_item(GameButton("attack", target, label=f"Attack {name}",
                                         style=discord.ButtonStyle.danger, row=3))
    if not turn["stopped"]:
        for way, info in engine.ways_out(state, who).items():
            if "blocked" not in info:
                view.add_item(GameButton("move", way, label=WAYS.get(way, way.capitalize()), row=0 if way in ("north", "east", "south",
                                                                                         "west") else 1))
    view.add_item(GameButton("sheet", label="My sheet", row=2))
    view.add_item(GameButton("map", label="Map", row=2))
    view.add_item(GameButton("end", label="End turn", style=discord.ButtonStyle.danger, row=2))
    return view


def secret_view() -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(GameButton("secret", label="Show my secrets", style=discord.ButtonStyle.primary))
    return view
