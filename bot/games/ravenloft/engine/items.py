"""Items a hero uses (the `use {item, target?}` action), by name. Rulebook, The Treasure Deck: an
item gives a lasting benefit and its card says when it is used; an attack from a treasure card is
an attack like a power's (Attacks: "the powers of Treasure Cards"), so it takes the hero phase's
attack unless its card says otherwise. A downed hero uses no item (Defeating Heroes). A one-use
item is discarded once used.

- Potion of Healing: you or a hero next to you regains 2 HP (target: that hero).
- Potion of Rejuvenation: one of your used powers turns face up (target: that power).
- Holy Water: one Undead monster within 1 tile takes 1 damage (target: the monster); not an attack.
- Crystal Ball: look at the top card of a deck or the top tile of the stack (target: monster,
  encounter, treasure or tiles); only the user is told.
- Scroll of Teleportation: every hero on your tile goes to another tile you name (target: the tile),
  set on its free squares.
- Glyph of Warding: its marker goes on your tile; the first monster moving onto that tile takes 1
  damage (tactics.py), then the marker is gone.
- Wand of Teleportation: pick a tile within 1 tile with a monster on it (target: the tile); you are
  asked which other tile within 3 tiles of you its monsters go to (each put as a card puts a figure);
  not an attack.
- Lucky Charm: rerolls a roll by itself (reactions.py); Ring of Regeneration: asked when its holder
  would draw a treasure card (treasure.py). Both answer through `answer` (kind "item").
- Dragon's Breath Elixir: attacks every monster on your tile and is not your attack for the phase.
- Necklace of Fireballs, Silver Dagger, Wooden Stake, Torch and any other item with an attack line:
  that attack (target: a figure it may reach), in place of the phase's attack."""

from . import combat, data, explore, geometry, heroes, pending, treasure
from .state import Ctx, discard, hero_pids

FREE_ATTACK = ("dragonsbreathelixir",)
DECKS = ("monster", "encounter", "treasure", "tiles")
USABLE = ("potionofhealing", "potionofrejuvenation", "holywater", "crystalball", "scrollofteleportation",
          "glyphofwarding", "wandofteleportation")


def word(ctx: Ctx, item_id: str) -> str:
    return data.slug(data.treasure(ctx.content, item_id)["name"])


def as_power(ctx: Ctx, item_id: str):
    """The item's attack line in the shape of a power (None when it has none)."""
    tr = data.treasure(ctx.content, item_id)
    a = tr["attack"]
    if a is None:
        return None
    rng = data.RANGE_WORDS.get(data.g(a, "range", "special"), "special")
    n = 0 if data.g(a, "range", "") in ("own_tile", "adjacent") else data._int(data.g(a, "tiles", 0))
    return {"id": item_id, "name": tr["name"], "type": "item", "timing": "attack", "trigger": "", "hits": True,
            "attack": None if data.g(a, "bonus", None) is None else data._int(data.g(a, "bonus")),
            "damage": data._int(data.g(a, "damage", 0)), "miss": data._int(data.g(a, "miss", 0)),
            "targets": data.g(a, "targets", "one"), "range": rng, "n": n, "keep_on_miss": False, "text": tr["text"]}


def usable(ctx: Ctx, item_id: str) -> bool:
    return word(ctx, item_id) in USABLE or as_power(ctx, item_id) is not None


def takes_attack(ctx: Ctx, item_id: str) -> bool:
    return as_power(ctx, item_id) is not None and word(ctx, item_id) not in FREE_ATTACK


def targets(ctx: Ctx, pid: str, item_id: str) -> list:
    """What `use` may name for the item now ([None]: it takes no target; []: nothing to do now)."""
    s = ctx.s
    w = word(ctx, item_id)
    me = heroes.xy(ctx, pid)
    if w == "potionofhealing":
        return [q for q in hero_pids(s) if heroes.on_map(ctx, q) and s["players"][q]["hp"] < s["players"][q]["max_hp"]
                and (q == pid or geometry.adjacent(me, heroes.xy(ctx, q)))]
    if w == "potionofrejuvenation":
        return [k for k, v in s["players"][pid]["powers"].items() if v == "used"]
    if w == "holywater":
        d = geometry.tile_distances(s, [heroes.tile(ctx, pid)])
        return [f for f in sorted(s["figures"], key=combat._fid_order)
                if not s["figures"][f].get("object")
                and data.slug(data.monster(ctx.content, s["figures"][f]["monster"])["kind"]) == "undead"
                and min((d.get(t, 99) for t in combat.fig_tiles(s["figures"][f])), default=99) <= 1]
    if w == "crystalball":
        return [k for k in DECKS if (s["tiles"]["stack"] if k == "tiles" else
                                     s["decks"][k]["deck"] or s["decks"][k]["discard"])]
    if w == "scrollofteleportation":
        mine = heroes.tile(ctx, pid)
        return [k for k in sorted(s["tiles"]["placed"], key=geometry._tile_sort)
                if k != mine and explore.free_square_on(ctx, k)]
    if w == "glyphofwarding":
        mine = heroes.tile(ctx, pid)
        return [] if any(m["kind"] == "glyph" and m["tile"] == mine for m in s["markers"]) else [None]
    if w == "wandofteleportation":
        d = geometry.tile_distances(s, [heroes.tile(ctx, pid)])
        busy = {t for f in s["figures"].values() if not f.get("object") for t in combat.fig_tiles(f)}
        return sorted((k for k in busy if d.get(k, 99) <= 1 and _wand_tiles(ctx, pid, k)), key=geometry._tile_sort)
    pw = as_power(ctx, item_id)
    if pw is not None:
        return combat.power_targets(ctx, pid, pw)
    return []


def _wand_tiles(ctx: Ctx, pid: str, source: str) -> list:
    """The tiles within 3 tiles of the hero the Wand of Teleportation may fling monsters to."""
    d = geometry.tile_distances(ctx.s, [heroes.tile(ctx, pid)])
    return sorted((k for k, n in d.items() if n <= 3 and k != source and explore.free_square_on(ctx, k)),
                  key=geometry._tile_sort)


def _fling(ctx: Ctx, source: str, to: str):
    for fid in sorted(ctx.s["figures"], key=combat._fid_order):
        fig = ctx.s["figures"][fid]
        sq = explore.free_square_on(ctx, to)
        if fig.get("object") or source not in combat.fig_tiles(fig) or sq is None:
            continue
        fig["square"] = sq
        ctx.say("monster", f"The Wand of Teleportation flings the {fig['name']} to square {sq}.", figure=fid,
                square=sq)


def answer(ctx: Ctx, q: dict, choice: str):
    """The `decide` on an item's question: the Ring of Regeneration's, or where the Wand of
    Teleportation flings the monsters."""
    if q.get("rule") == "ring_of_regeneration":
        treasure.answer_ring(ctx, q, choice)
    elif q.get("rule") == "wand_of_teleportation":
        to = q["values"][q["options"].index(choice)]
        if to in ctx.s["tiles"]["placed"]:
            _fling(ctx, q["source"], to)


def use(ctx: Ctx, pid: str, item_id: str, target):
    s = ctx.s
    w = word(ctx, item_id)
    tr = data.treasure(ctx.content, item_id)
    who = heroes.name(ctx, pid)
    s["players"][pid]["items"].remove(item_id)
    discard(ctx, "treasure", item_id)
    ctx.say("item", f"{who} uses {tr['name']}.", hero=pid, card=item_id)
    if w == "potionofhealing":
        heroes.heal(ctx, target, 2, tr["name"])
    elif w == "potionofrejuvenation":
        s["players"][pid]["powers"][target] = "ready"
        ctx.say("power", f"{who} turns {data.power(ctx.content, target)['name']} face up.")
    elif w == "holywater":
        fig = s["figures"][target]
        ctx.say("attack", f"The holy water burns the {fig['name']} for 1 damage.", figure=target)
        combat.hurt_figure(ctx, target, 1, pid)
    elif w == "crystalball":
        top = s["tiles"]["stack"][0] if target == "tiles" else (s["decks"][target]["deck"] or [None])[0]
        if top is None:
            ctx.say("item", f"The {target} deck is spent; its discard pile will be shuffled when it is next drawn.",
                    to=pid)
        else:
            label = {"tiles": lambda c: data.tile(ctx.content, c)["name"] or "an unnamed tile",
                     "monster": lambda c: data.monster(ctx.content, data.card_monster(ctx.content, c))["name"],
                     "encounter": lambda c: data.encounter(ctx.content, c)["name"],
                     "treasure": lambda c: data.treasure(ctx.content, c)["name"]}[target](top)
            ctx.say("item", f"The crystal ball shows the top of the {target} deck: {label}.", to=pid)
    elif w == "scrollofteleportation":
        mine = heroes.tile(ctx, pid)
        for q in hero_pids(s):
            if heroes.on_map(ctx, q) and heroes.tile(ctx, q) == mine:
                sq = explore.free_square_on(ctx, target)
                if sq is None:
                    continue
                s["players"][q]["square"] = sq
                ctx.say("move", f"{heroes.name(ctx, q)} is carried to square {sq}.", hero=q, square=sq)
    elif w == "wandofteleportation":
        tiles = _wand_tiles(ctx, pid, target)
        if len(tiles) == 1:
            _fling(ctx, target, tiles[0])
        else:
            pending.ask(ctx, pid, "item", f"Wand of Teleportation: to which tile within 3 tiles of {who} are the "
                                          f"monsters of tile {target} flung?", [f"tile {k}" for k in tiles],
                        rule="wand_of_teleportation", source=target, values=tiles)
    elif w == "glyphofwarding":
        s["markers"].append({"id": ctx.new_id("k"), "kind": "glyph", "card": None, "tile": heroes.tile(ctx, pid),
                             "owner": pid})
        ctx.say("item", f"The Glyph of Warding glows on tile {heroes.tile(ctx, pid)}.")
    else:
        pw = as_power(ctx, item_id)
        chosen = [target]
        struck = combat.struck(ctx, pid, pw, chosen) if pw["targets"] == "each_on_a_tile" else chosen
        combat.hero_attack(ctx, pid, pw, struck)


def glyph_check(ctx: Ctx, fig: dict, before_tiles: list):
    """A monster that has just moved onto a tile with the Glyph of Warding takes 1 damage and the
    glyph is gone."""
    now = combat.fig_tiles(fig)
    for m in list(ctx.s["markers"]):
        if m["kind"] == "glyph" and m["tile"] in now and m["tile"] not in before_tiles:
            ctx.s["markers"].remove(m)
            ctx.say("item", f"The Glyph of Warding flares: the {fig['name']} takes 1 damage.", figure=fig["id"])
            combat.hurt_figure(ctx, fig["id"], 1, m.get("owner"))
            return
