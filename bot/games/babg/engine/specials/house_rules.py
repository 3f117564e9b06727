"""The table's options and the house rules a group may opt into, answered
through hook points (bot.games.babg.engine.hooks) and gated by the game's options
(state["options"], fixed when the game is made: bot.games.babg.engine.game.check_options).

- `chosen_haunt`: the haunt a group wants replaces the chart's at the haunt
  roll that starts the haunt; its traitor comes from the traitor table.
- `avoid_repeats`: the rulebook's optional rule Selecting the Haunt, with
  `played`, the haunts this server has played.
- `rules: legacy-house-rules`: five rules taken from the *Betrayal Legacy*
  rulebook (HOUSE_RULES below, each with the line it comes from).
"""
import json

from .. import cards as cd
from .. import effects, geometry, hooks, rng
from .. import marks as mk
from .. import state as st
from .. import tokens as tk
from .. import traitor as tp
from ..haunt import chart_tile
from . import combat

LEGACY = "legacy-house-rules"

# (id, source line, the rule in our words) - shown by /rules house and `rules house` on the local table.
HOUSE_RULES = (
    ("large_obstacles", "Betrayal Legacy rulebook, Moving (L376) and How Monsters Work (L805)",
     "Big things are harder to get away from: a large monster costs a hero 2 extra spaces to walk away from, "
     "not 1, and so does a large obstacle token (a small one costs 1)."),
    ("take_five", "Betrayal Legacy rulebook, the traitor's abilities (L767)",
     "A known traitor who tries a tile's trait roll may skip the dice and count the result as 5."),
    ("skip_event", "Betrayal Legacy rulebook, the traitor's abilities (L768)",
     "A known traitor who finds a tile with an event symbol may leave the event card on its deck and go on "
     "moving; a card that is drawn is carried out in full."),
    ("random_tie", "Betrayal Legacy rulebook, Starting the Haunt (L625)",
     "When several players tie to become the traitor, chance picks one of them (instead of the revealer, "
     "then the nearest to the revealer's left)."),
    ("bury", "Betrayal Legacy rulebook, new terms: bury (L82)",
     "Nothing goes to a discard pile: a card that is done with goes face down under its own deck, so the "
     "event deck is never reshuffled."),
)
OBSTACLE_COST = {"small": 1, "large": 2}  # extra spaces to leave a tile, per obstacle token (L376)


def legacy(ctx) -> bool:
    return LEGACY in (ctx.s.get("options") or {}).get("rules", [])


# --- the chosen haunt and the search for an unplayed one -------------------------------------

@hooks.on("haunt_selected", order=10)
def _chosen_haunt(ctx, revealer: str, omen: str, tile: str, number: int):
    chosen = (ctx.s.get("options") or {}).get("chosen_haunt")
    if not chosen:
        return None
    return {"number": chosen, "why": f"the table chose haunt {chosen}; the chart gave {number}"}


@hooks.on("haunt_selected", order=20)
def _avoid_repeats(ctx, revealer: str, omen: str, tile: str, number: int):
    """Rulebook: Optional Rule: Selecting the Haunt. A haunt this server has
    played sends the search on: the omen tiles on the board from the nearest
    to the revealer outwards, read with the same omen; then the next omen
    cards read with the revealer's row."""
    options = ctx.s.get("options") or {}
    played = set(options.get("played") or [])
    if not options.get("avoid_repeats") or number not in played:
        return None
    s, c = ctx.s, ctx.c
    row = chart_tile(c, s, tile)
    start = s["players"][revealer]["tile"] or tile
    dist = geometry.distances(ctx, start)
    order = list(s["board"])
    rows = sorted((t for t in s["board"] if t in c.chart_rows and t != row),
                  key=lambda t: (dist.get(t, 999), order.index(t)))
    for t in rows:
        n = _chart(c, omen, t)
        if n and n not in played:
            p = s["players"][revealer]
            p["tile"], p["half"] = t, ("north" if c.tiles[t].barrier else None)
            ctx.say(f"Haunt {number} has been played on this server: the search for one not yet played reaches "
                    f"the {ctx.tile_name(t)}, and {ctx.name(revealer)} is moved there.", kind="haunt_search")
            return {"number": n, "tile": t, "why": f"haunt {number} was played here before, so the search "
                                                   f"went on to the {ctx.tile_name(t)}"}
    deck, passed = s["decks"]["omen"], []
    while deck:
        card = deck.pop(0)
        n = _chart(c, card, row)
        ctx.say(f"Every omen tile gives a haunt played before; the next omen card, {ctx.card_name(card)}, is "
                f"revealed for the search: haunt {n}.", kind="haunt_search", card=card)
        if n and n not in played:
            deck.extend(passed)
            if omen in s["players"][revealer]["cards"]:
                cd.lose(ctx, revealer, omen)
                deck.append(omen)  # Ruling: the replaced omen goes under the omen deck
            cd.gain(ctx, revealer, card)
            ctx.say(f"{ctx.name(revealer)} takes {ctx.card_name(card)} in place of {ctx.card_name(omen)}.",
                    kind="haunt_search", card=card)
            return {"number": n, "omen": card, "why": f"haunt {number} was played here before, so the search "
                                                      f"went on to the omen {ctx.card_name(card)}"}
        passed.append(card)
    deck.extend(passed)  # Ruling: the omens revealed in vain go back under the deck, in the order revealed
    ctx.say(f"Every haunt the search can reach has been played on this server, so haunt {number} stands.",
            kind="haunt_search")
    return None


def _chart(content, omen: str, tile: str) -> int | None:
    try:
        return content.haunt_for(omen, tile) or None
    except (IndexError, KeyError, ValueError):
        return None


# --- house rules from the Betrayal Legacy rulebook --------------------------------------------

_LARGE: dict[tuple[int, int], set[str]] = {}


def large_monsters(ctx) -> set[str]:
    """The haunt's monsters that are large: a `size` in the data, else a
    monster its own text calls large ("the large Troll token")."""
    haunt = ctx.c.haunts.get(ctx.s["haunt"]["number"])
    if haunt is None:
        return set()
    key = (id(haunt), haunt.number)
    if key not in _LARGE:
        text = json.dumps(haunt.raw).lower()
        _LARGE[key] = {m["name"].lower() for m in haunt.raw.get("monster", [])
                       if m.get("size", "large" if f"large {m['name'].lower()}" in text else "small") == "large"}
    return _LARGE[key]


@hooks.on("leave_cost")
def _large_obstacles(ctx, pid: str):
    """L376, L805: large monsters and large obstacles cost 2 extra spaces
    to leave (the Baldur's Gate rule already counts 1 for each monster)."""
    s = ctx.s
    if not legacy(ctx) or s["phase"] != "haunt" or not s.get("haunt"):
        return None
    if combat.power_special(ctx, pid) == "cunning_action" or mk.find(ctx, pid, "invisible"):
        return 0
    large = large_monsters(ctx)
    extra = sum(1 for m in combat.monster_opponents(ctx, pid)
                if m["name"].lower() in large and st.beside(s, pid, m) and not m["stunned"])
    if not st.known_traitor(s, pid):  # the traitor ignores obstacle tokens (L765)
        extra += sum(OBSTACLE_COST.get(t.get("obstacle"), 0) for t in tk.on_tile(s, s["players"][pid]["tile"]))
    return extra


@hooks.on("tile_roll")
def _take_five(ctx, pid: str, tile: str, steps):
    """L767: a traitor may take a result of 5 instead of a tile's trait roll."""
    if not legacy(ctx) or not tp.ignores_harm(ctx.s, pid):
        return None
    if not any(x.get("do") == "roll" and "trait" in x for x in steps):
        return None
    return [{"do": "_house_take_five", "tile": tile, "steps": list(steps)}]


@effects.step("_house_take_five")
def _offer_five(ctx, task, item):
    effects.ask(ctx, task["player"], "house_take_five", f"roll for the {ctx.tile_name(item['tile'])}, or take a "
                "result of 5?", ["Roll the dice", "Take a result of 5"], steps=item["steps"])


@effects.decision("house_take_five")
def _decide_five(ctx, pending, index):
    steps = pending["data"]["steps"]
    if index == 1:
        steps = [{"do": "_house_five", "trait": x["trait"], "bands": x["bands"]}
                 if x.get("do") == "roll" and "trait" in x else x for x in steps]
    effects.push_front(ctx, steps)


@effects.step("_house_five")
def _five(ctx, task, item):
    ctx.say(f"{ctx.name(task['player'])} takes a result of 5 instead of rolling {item['trait'].capitalize()}.",
            kind="roll", player=task["player"], total=5, fixed=True)
    task.setdefault("results", []).append(5)
    task["steps"][0:0] = effects.band_for(item["bands"], 5).get("then", [])


@hooks.on("symbol_card")
def _may_skip_event(ctx, pid: str, tile: str, deck: str):
    """L768: a traitor may leave the event card undrawn and keep moving."""
    if deck != "event" or not legacy(ctx) or not tp.ignores_harm(ctx.s, pid):
        return None
    effects.ask(ctx, pid, "house_skip_event", f"draw the event card for the {ctx.tile_name(tile)}?",
                ["Draw the event card", "Leave it and keep moving"], tile=tile)
    return True


@effects.decision("house_skip_event")
def _decide_skip_event(ctx, pending, index):
    pid = pending["player"]
    if index == 0:
        cd.draw(ctx, pid, "event")
        return
    ctx.say(f"{ctx.name(pid)} leaves the event card on its deck and may keep moving.", kind="draw", player=pid)


@hooks.on("traitor_tie")
def _random_tie(ctx, revealer: str, tied: list[str]):
    """L625: a tie for the traitor is broken at random."""
    if not legacy(ctx) or len(tied) < 2:
        return None
    chosen = tied[rng.below(ctx.s, len(tied))]
    ctx.say(f"{', '.join(ctx.name(p) for p in tied)} tie to become the traitor; chance picks {ctx.name(chosen)}.",
            kind="haunt", tied=tied)
    return chosen


@hooks.on("discarding")
def _bury(ctx, cid: str):
    """L82: a card that would be discarded is buried under its deck."""
    if not legacy(ctx):
        return None
    deck = ctx.c.cards[cid].deck
    if cid not in ctx.s["decks"][deck]:
        ctx.s["decks"][deck].append(cid)
        ctx.say(f"{ctx.card_name(cid)} is buried under the {deck} deck.", kind="discard", card=cid)
    return True
