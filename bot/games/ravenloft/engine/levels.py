"""Leveling up: after a natural 20 on an attack or disable roll (or a Level Up fortune) the party may
spend 5 experience to turn a level 1 hero to level 2: more HP, AC and surge value, one more daily
power and critical hits. The experience of a monster just defeated by that roll already counts."""

from . import data, experience, heroes, pending
from .state import Ctx


def offer_level_up(ctx: Ctx, pid: str):
    p = ctx.s["players"][pid]
    if p.get("level", 1) >= 2 or experience.total(ctx) < 5:
        return
    pending.ask(ctx, pid, "level", f"{heroes.name(ctx, pid)} may level up: spend 5 experience to reach level 2?",
                ["level up", "not now"])


def level_up(ctx: Ctx, pid: str):
    spent = experience.spend(ctx, 5)
    if not spent:
        return
    p = ctx.s["players"][pid]
    before = heroes.stats(ctx, pid)
    p["level"] = 2
    after = heroes.stats(ctx, pid)
    p["max_hp"] = after["hp"]
    if p["hp"] > 0:
        p["hp"] = min(p["max_hp"], p["hp"] + after["hp"] - before["hp"])
    ctx.say("level", f"{heroes.name(ctx, pid)} spends {spent} experience and reaches level 2: AC {after['ac']}, "
                     f"HP {p['hp']}/{p['max_hp']}, surge value {after['surge']}.", hero=pid)
    h = data.hero(ctx.content, p["hero"])
    extra = [x for x in h["pool"].get("daily", []) if x not in p["powers"]]
    if extra:
        p["powers"][extra[0]] = "ready"
        ctx.say("power", f"{heroes.name(ctx, pid)} gains the daily power {data.power(ctx.content, extra[0])['name']}.")
