"""Small monsters and NPCs: the figures the Whispering Skull and the Pipes of
Haunting move about.

A figure is named by a reference: an adventurer's player id, a monster id
("m3"), or "npc:<n>" for the n-th token on the board (NPC tokens are placed
by the haunt's setup or with /haunt token, under the names the haunt gives).
Ruling: a monster is small unless its haunt calls its token large.
"""
from .. import attack, effects, moves, rng
from .. import sides as hp
from .common import distances, moves_from, tile_choices


def npc_names(ctx) -> set[str]:
    """The names this haunt gives its NPC tokens."""
    haunt = ctx.c.haunts.get((ctx.s.get("haunt") or {}).get("number"))
    if not haunt:
        return set()
    names = {step["label"].lower() for step in haunt.raw.get("setup", [])
             if step.get("do") == "place_npc" and step.get("label")}
    names |= {m["name"].lower() for m in haunt.raw.get("monster", []) if "npc" in m.get("notes", "").lower()}
    return names


def is_small(ctx, monster: dict) -> bool:
    haunt = ctx.c.haunts.get(ctx.s["haunt"]["number"])
    for block in (haunt.raw.get("monster", []) if haunt else []):
        if block["name"] == monster["name"]:
            return "large" not in block.get("notes", "").lower()
    return True


def small_figures(ctx) -> list[str]:
    """Every small monster and NPC on the board."""
    found = [m["id"] for m in ctx.s["monsters"] if not m["dead"] and m.get("tile") in ctx.s["board"]
             and is_small(ctx, m)]  # a monster off the board (on a hero's card) is not moved
    npcs = npc_names(ctx)
    found += [f"npc:{i}" for i, t in enumerate(ctx.s["tokens"]) if t.get("name", "").lower() in npcs]
    return found


def tile_of(ctx, ref: str) -> str:
    if ref in ctx.s["players"]:
        return ctx.s["players"][ref]["tile"]
    if ref.startswith("npc:"):
        return ctx.s["tokens"][int(ref[4:])]["tile"]
    return attack.monster_by_id(ctx, ref)["tile"]


def label(ctx, ref: str) -> str:
    if ref.startswith("npc:"):
        return ctx.s["tokens"][int(ref[4:])]["name"]
    return attack.label(ctx, ref)


def sanity(ctx, ref: str) -> int | None:
    """A figure's Sanity, or None when it has none (NPC tokens carry no traits)."""
    if ref in ctx.s["players"]:
        return ctx.value(ref, "sanity")
    if ref.startswith("npc:"):
        return None
    return attack.monster_by_id(ctx, ref)["traits"].get("sanity")


def put(ctx, ref: str, tile: str, half: str | None, verb: str):
    """Move a figure to a tile: placed by an effect, so it discovers nothing."""
    if ref in ctx.s["players"]:
        moves.place_on(ctx, ref, tile, half, verb=verb, stop=False)
        return
    if ref.startswith("npc:"):
        ctx.s["tokens"][int(ref[4:])]["tile"] = tile
    else:
        attack.monster_by_id(ctx, ref)["tile"] = tile
    ctx.say(f"{label(ctx, ref)} {verb} the {ctx.tile_name(tile)}.", kind="monster_move", tile=tile)


def ask_where(ctx, pid: str, kind: str, prompt: str, ref: str, tiles, extra=()):
    """Ask where a figure goes; an adventurer put on a barrier tile picks a
    half (rulebook: Special Tiles), the others just the tile."""
    choices = tile_choices(ctx, tiles) if ref in ctx.s["players"] else [(t, None, ctx.tile_name(t)) for t in tiles]
    effects.ask(ctx, pid, kind, prompt, [name for *_, name in choices] + list(extra),
                tiles=[[t, h] for t, h, _ in choices], figure=ref)


# --- Whispering Skull ---------------------------------------------------------------

@effects.usable("whispering_skull")
def _skull_usable(ctx, pid, cid):
    if ctx.s["phase"] != "haunt":
        return "The Whispering Skull can be used only after the haunt has begun."
    if not small_figures(ctx):
        return "There is no small monster or NPC on the board for the Whispering Skull to move."
    return None


@effects.special("whispering_skull")
def _whispering_skull(ctx, task, item):
    """Move 1 small monster or NPC 1 space."""
    figures = small_figures(ctx)
    effects.ask(ctx, task["player"], "skull_figure", "which small monster or NPC does the Whispering Skull move?",
                [f"{label(ctx, f)} (on the {ctx.tile_name(tile_of(ctx, f))})" for f in figures], figures=figures)


@effects.decision("skull_figure")
def _decide_skull_figure(ctx, pending, index):
    ref = pending["data"]["figures"][index]
    tiles = [t for t, cost in moves_from(ctx, tile_of(ctx, ref)) if cost <= 1]
    if not tiles:
        ctx.say(f"{label(ctx, ref)} has nowhere to go.", kind="info")
        return
    ask_where(ctx, pending["player"], "skull_tile", f"move {label(ctx, ref)} where?", ref, tiles)


@effects.decision("skull_tile")
def _decide_skull_tile(ctx, pending, index):
    data = pending["data"]
    put(ctx, data["figure"], *data["tiles"][index], "is moved by the Whispering Skull to")


# --- Pipes of Haunting --------------------------------------------------------------------

@effects.special("pipes_of_haunting")
def _pipes(ctx, task, item):
    """Every adventurer, small monster and NPC within 2 tiles rolls Sanity
    4+; the piper may move each that fails, or has no Sanity, 1 space away
    (no discovering: only placed tiles)."""
    pid = task["player"]
    near = distances(ctx, ctx.s["players"][pid]["tile"], doors_only=True)
    adventurers = [o for o in effects.who_is(ctx, pid, "everywhere", others=True)]
    figures = adventurers + (small_figures(ctx) if ctx.s["phase"] == "haunt" else [])
    for ref in reversed([f for f in figures if near.get(tile_of(ctx, f), 99) <= 2]):
        if ref in ctx.s["players"]:
            effects.queue(ctx, ref, [{"do": "roll", "trait": "sanity", "bands": [
                {"at_least": 4, "then": []},
                {"at_most": 3, "then": [{"do": "_pipes_push", "by": pid, "figure": ref}]}]}],
                source="pipes_of_haunting", front=True)
        else:
            effects.queue(ctx, pid, [{"do": "_pipes_figure", "figure": ref}], source="pipes_of_haunting",
                          front=True)


@effects.step("_pipes_figure")
def _pipes_figure(ctx, task, item):
    """A small monster rolls its Sanity (its controller rolls for it); one
    with no Sanity, like an NPC token, simply fails."""
    ref = item["figure"]
    value = sanity(ctx, ref)
    if value is not None:
        total = effects.make_roll(ctx, hp.controller(ctx.s), rng.dice_count(value),
                                  f"Sanity for {label(ctx, ref)}", kind="contest")
        if total >= 4:
            return
    else:
        ctx.say(f"{label(ctx, ref)} has no Sanity to resist the pipes.", kind="info")
    effects.push_front(ctx, [{"do": "_pipes_push", "by": task["player"], "figure": ref}])


@effects.step("_pipes_push")
def _pipes_push(ctx, task, item):
    ref, piper = item.get("figure", task["player"]), item["by"]
    near = distances(ctx, ctx.s["players"][piper]["tile"], doors_only=True)
    tile = tile_of(ctx, ref)
    away = [t for t, d in distances(ctx, tile, doors_only=True).items()
            if d == 1 and near.get(t, 99) > near.get(tile, 99)]
    if not away:
        return
    ask_where(ctx, piper, "pipes", f"move {label(ctx, ref)} 1 space away?", ref, away, ["Leave them"])


@effects.decision("pipes")
def _decide_pipes(ctx, pending, index):
    data = pending["data"]
    if index < len(data["tiles"]):
        put(ctx, data.get("figure", data.get("victim")), *data["tiles"][index], "is driven by the pipes to")
