"""Handlers for the `special` steps named in rules_data: card text
(cards.py), tile rules (tiles.py), adventurer powers (powers.py), and attack
hooks for the haunt engine (combat.py), small monsters and NPCs moved by
omens (figures.py). Importing this package registers
them with bot.games.babg.engine.effects."""
from . import cards, combat, figures, house_rules, powers, tiles  # noqa: F401  (registers the handlers)
from . import legacy  # noqa: F401  (the chronicle's rules, gated on state["options"]["chronicle"])


def rename_player(s: dict, old: str, new: str):
    """Rename a player everywhere the effects keep player ids (marks, power
    tokens, tokens on tiles, queued steps, the pending question)."""
    def swap(value):
        return new if value == old else value

    for p in s["players"].values():
        for mark in p.get("marks", []):
            for key in ("by",):
                if key in mark:
                    mark[key] = swap(mark[key])
        power = p.get("power", {})
        for key in ("with", "mark"):
            if key in power:
                power[key] = swap(power[key])
    for token in s["tokens"]:
        if "by" in token:
            token["by"] = swap(token["by"])
    for task in s["queue"]:
        for item in task["steps"]:
            for key in ("by", "figure", "mover", "holder", "loser", "winner", "target"):
                if key in item:
                    item[key] = swap(item[key])
        if "args" in task and "target" in task["args"]:
            task["args"]["target"] = swap(task["args"]["target"])
    pending = s["pending"]
    if pending:
        data = pending["data"]
        for key in ("target", "giver", "victim", "figure", "mover"):
            if key in data:
                data[key] = swap(data[key])
        for key in ("targets", "victims", "figures"):
            if key in data:
                data[key] = [swap(v) for v in data[key]]
        hit = data.get("hit")
        if hit:
            for key in ("victim", "protector"):
                if key in hit:
                    hit[key] = swap(hit[key])
