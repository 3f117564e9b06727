"""Tile rules the step vocabulary cannot say (rulebook: Special Tiles)."""
from .. import cards as cd
from .. import effects

special = effects.special


@special("trading_post")
def _trading_post(ctx, task, item):
    """Ending your turn here you may discard 1 item card (never an omen) for
    the top card of the item deck. Ruling: with the item deck empty there is
    nothing to swap for, so no swap is offered."""
    pid = task["player"]
    if not cd.item_cards(ctx, pid):
        return
    if not ctx.s["decks"]["item"]:
        ctx.say("The item deck is empty, so the Trading Post has nothing to offer.", kind="info")
        return
    effects.push_front(ctx, [{"do": "discard", "what": "item", "optional": True, "decline": "Keep your items",
                              "prompt": "swap an item card for the top item card?",
                              "then": [{"do": "draw", "deck": "item"}]}])


@special("forgotten_cache")
def _forgotten_cache(ctx, task, item):
    """Each player takes an item from the Forgotten Cache once per game; after
    that the roll is no longer offered to them (rulebook: Special Tiles)."""
    p = ctx.s["players"][task["player"]]
    key = "action:forgotten_cache"
    if key in p["once"]:
        ctx.say(f"{ctx.name(task['player'])} has already had an item from the Forgotten Cache.", kind="info")
        if task["steps"] and task["steps"][0].get("do") == "draw":
            task["steps"].pop(0)
        return
    p["once"].append(key)
