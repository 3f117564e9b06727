"""The villain phase's monsters: every villain in play, then each monster and trap card the
active player holds in the order drawn. A monster card activates every figure of that monster on
the map (another player's figures of the same name too, FAQ), twice under Frenzy; a trap acts as
its card says. When every hero is down, nothing acts and the phase ends (FAQ)."""

from . import combat, data, encounters, heroes, tactics
from .state import Ctx


def villains_in_play(ctx: Ctx) -> list:
    return [fid for fid in sorted(ctx.s["figures"], key=combat._fid_order) if ctx.s["figures"][fid].get("villain")]


def activate_villain(ctx: Ctx, fid: str):
    if not heroes.standing_heroes(ctx):
        return
    tactics.activate(ctx, fid)


def activate_card(ctx: Ctx, pid: str, entry: dict):
    if not heroes.standing_heroes(ctx):
        return
    times = 2 if ctx.s["turn"].get("frenzy") else 1
    if entry["kind"] == "monster":
        mid = data.card_monster(ctx.content, entry["card"])
        figs = [f for f in sorted(ctx.s["figures"], key=combat._fid_order)
                if ctx.s["figures"][f]["monster"] == mid and not ctx.s["figures"][f].get("villain")]
        for _ in range(times):
            for f in figs:
                if f in ctx.s["figures"] and heroes.standing_heroes(ctx):
                    tactics.activate(ctx, f)
    else:
        encounters.trap_acts(ctx, pid, entry["card"])
