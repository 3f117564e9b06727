"""Treasure: drawn when a hero defeats a monster (one card a turn at most) and at the start.

Items stay with a hero (kept, or given once to another hero when drawn); blessings help every hero
until the end of their drawer's next turn; fortunes act at once and are discarded (a fortune with
nothing to do does nothing)."""

from . import data, heroes, levels, pending
from .state import Ctx, draw, discard, hero_pids


def draw_for_defeat(ctx: Ctx, pid: str):
    t = ctx.s["turn"]
    if t is None or t.get("treasure"):
        return
    t["treasure"] = True
    draw_one(ctx, pid)


def draw_one(ctx: Ctx, pid: str):
    """The hero draws a treasure card, unless a hurt holder of the Ring of Regeneration is asked first
    whether to regain 1 Hit Point in its place (kind "item", answered by `answer_ring`)."""
    p = ctx.s["players"][pid]
    if p["hp"] < p["max_hp"] and any(data.slug(data.treasure(ctx.content, i)["name"]) == "ringofregeneration"
                                     for i in p["items"]):
        pending.ask(ctx, pid, "item", f"Ring of Regeneration: {heroes.name(ctx, pid)} may regain 1 Hit Point "
                                      f"instead of drawing a treasure card.", RING, rule="ring_of_regeneration")
        return
    _draw_and_gain(ctx, pid)


RING = ["draw a treasure card", "regain 1 Hit Point"]


def answer_ring(ctx: Ctx, q: dict, choice: str):
    pid = q["player"]
    if choice == RING[1]:
        heroes.heal(ctx, pid, 1, "the Ring of Regeneration")
        return
    _draw_and_gain(ctx, pid)


def _draw_and_gain(ctx: Ctx, pid: str):
    card = draw(ctx, "treasure")
    if card is None:
        ctx.say("treasure", "The treasure deck is empty.")
        return
    gain(ctx, pid, card)


def gain(ctx: Ctx, pid: str, card: str):
    tr = data.treasure(ctx.content, card)
    who = heroes.name(ctx, pid)
    kind = tr["type"]
    if kind == "item":
        others = [q for q in hero_pids(ctx.s) if q != pid and not ctx.s["players"][q].get("escaped")]
        if others:
            opts = ["keep"] + [f"give {heroes.name(ctx, q)}" for q in others]
            ctx.s["players"][pid].setdefault("holding", []).append(card)
            pending.ask(ctx, pid, "give", f"{who} finds {tr['name']}: keep it or give it to another hero?",
                        opts, card=card, targets=others)
            return
        ctx.s["players"][pid]["items"].append(card)
        ctx.say("treasure", f"{who} finds the item {tr['name']} and keeps it.", card=card)
    elif kind == "blessing":
        ctx.s["blessings"].append({"card": card, "player": pid, "made": ctx.s["log_turn"]["turns"]})
        ctx.say("treasure", f"{who} draws the blessing {tr['name']}: it helps every hero until the end of "
                            f"{who}'s next turn.", card=card)
    else:
        ctx.say("treasure", f"{who} draws the fortune {tr['name']}.", card=card)
        fortune(ctx, pid, card)


def answer_give(ctx: Ctx, q: dict, choice: str):
    pid = q["player"]
    card = q["card"]
    ctx.s["players"][pid]["holding"].remove(card)
    tr = data.treasure(ctx.content, card)
    if choice == "keep":
        ctx.s["players"][pid]["items"].append(card)
        ctx.say("treasure", f"{heroes.name(ctx, pid)} keeps {tr['name']}.", card=card)
        return
    i = q["options"].index(choice) - 1
    to = q["targets"][i]
    ctx.s["players"][to]["items"].append(card)
    ctx.say("treasure", f"{heroes.name(ctx, pid)} gives {tr['name']} to {heroes.name(ctx, to)}; it stays with "
                        f"{heroes.name(ctx, to)} for the rest of the adventure.", card=card)


def fortune(ctx: Ctx, pid: str, card: str):
    """A fortune's effect at once; the card is discarded (one with nothing to do does nothing)."""
    tr = data.treasure(ctx.content, card)
    t = ctx.s["turn"]
    done = False
    discard(ctx, "treasure", card)
    for st in tr["steps"]:
        do, word = data.g(st, "do"), data.slug(data.g(st, "name", ""))
        if do == "heal":
            done = heroes.heal(ctx, pid, data._int(data.g(st, "amount", 1), 1), tr["name"]) > 0 or done
        elif do == "flip_power":
            p = ctx.s["players"][pid]
            used = [k for k, v in p["powers"].items() if v == "used"]
            if used:
                p["powers"][used[0]] = "ready"
                ctx.say("power", f"{heroes.name(ctx, pid)} turns {data.power(ctx.content, used[0])['name']} face up.")
                done = True
        elif word == "cleartheair" and ctx.s["environment"]:
            env = ctx.s["environment"]
            ctx.s["environment"] = None
            discard(ctx, "encounter", env)
            ctx.say("environment", f"{tr['name']} clears away {data.encounter(ctx.content, env)['name']}.")
            done = True
        elif word in ("burstofspeed", "actionsurge") and t and t["player"] == pid and t["phase"] == "hero":
            t["free_moves"] = t.get("free_moves", 0) + 1
            ctx.say("treasure", f"{heroes.name(ctx, pid)} may make one more move this hero phase.")
            done = True
        elif word == "levelup":
            levels.offer_level_up(ctx, pid)
            done = True
        elif word == "luckyfind":
            pending.ask(ctx, pid, "lucky", f"{tr['name']}: draw up to three treasure cards and keep one?",
                        ["draw 3", "draw 2", "draw 1", "draw none"])
            done = True
    if not done:
        ctx.say("treasure", f"{tr['name']} has nothing to do now.", card=card)


def answer_lucky(ctx: Ctx, q: dict, choice: str):
    """Lucky Find (FAQ): drawing is optional; of those drawn one is kept and the rest discarded."""
    pid = q["player"]
    n = 0 if choice == "draw none" else int(choice.split()[1])
    drawn = [c for c in (draw(ctx, "treasure") for _ in range(n)) if c is not None]
    if not drawn:
        ctx.say("treasure", f"{heroes.name(ctx, pid)} draws nothing more.")
        return
    items = [c for c in drawn if data.treasure(ctx.content, c)["type"] == "item"]
    keep = items[0] if items else drawn[0]
    for c in drawn:
        if c != keep:
            discard(ctx, "treasure", c)
    ctx.say("treasure", f"{heroes.name(ctx, pid)} draws {len(drawn)} and keeps "
                        f"{data.treasure(ctx.content, keep)['name']}.")
    gain(ctx, pid, keep)


def end_of_turn(ctx: Ctx, pid: str):
    """Blessings drawn by `pid` before this turn end with it."""
    now = ctx.s["log_turn"]["turns"]
    keep = []
    for b in ctx.s["blessings"]:
        if b["player"] == pid and b["made"] < now:
            discard(ctx, "treasure", b["card"])
            ctx.say("treasure", f"The blessing {data.treasure(ctx.content, b['card'])['name']} ends.")
        else:
            keep.append(b)
    ctx.s["blessings"] = keep
