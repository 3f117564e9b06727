"""Event, item and omen cards: drawing, holding, using, dropping, picking up
and trading (rulebook: Drawing Event, Item, and Omen Cards; Use Item and Omen
Cards)."""
from . import effects, rng
from . import traits as tr
from .errors import IllegalAction


def draw(ctx, pid: str, deck: str) -> str | None:
    """Draw the top card of a deck; drawing any card ends movement
    (rulebook: Move)."""
    s = ctx.s
    if s["turn"] and s["turn"]["player"] == pid:
        s["turn"]["stopped"] = True
    if not s["decks"][deck] and deck == "event" and s["discard"]["event"]:
        # Ruling: an empty event deck is rebuilt from its discards.
        s["decks"]["event"] = rng.shuffle(s, s["discard"]["event"])
        s["discard"]["event"] = []
        ctx.say("The event deck is empty; its discards are shuffled into a new deck.", kind="deck")
    if not s["decks"][deck]:
        ctx.say(f"The {deck} deck is empty: no card is drawn.", kind="deck")
        return None
    card_id = s["decks"][deck].pop(0)
    card = ctx.c.cards[card_id]
    ctx.say(f"{ctx.name(pid)} draws the {deck} card {card.name}: {card.text}", kind="draw",
            player=pid, card=card_id, deck=deck)
    if deck == "event":
        effects.queue(ctx, pid, list(card.on_draw) + [{"do": "_settle_event", "card": card_id}],
                      source=card_id, front=True)
        return card_id
    gain(ctx, pid, card_id)
    if deck == "omen":
        s["omens_revealed"] += 1
        if s["turn"] and s["phase"] == "exploring":
            s["turn"]["omens"].append([card_id, s["players"][pid]["tile"]])
    if card.on_draw:
        effects.queue(ctx, pid, card.on_draw, source=card_id, front=True)
    return card_id


@effects.step("_settle_event")
def _settle_event(ctx, task, item):
    """After an event resolves it is discarded unless it says to keep it."""
    card = ctx.c.cards[item["card"]]
    if task["keep"] or card.ongoing:
        ctx.s["players"][task["player"]]["cards"].append(card.id)
        ctx.say(f"{ctx.name(task['player'])} keeps {card.name} in front of them.", kind="keep", card=card.id)
    else:
        ctx.s["discard"]["event"].append(card.id)


@effects.step("draw")
def _draw_step(ctx, task, item):
    draw(ctx, task["player"], item["deck"])


def gain(ctx, pid: str, card_id: str):
    """Take control of a card; trait bonuses it gives while held take effect
    and are remembered so that losing it takes back only what it gave
    (rulebook: Use Item and Omen Cards, "over the top")."""
    p = ctx.s["players"][pid]
    p["cards"].append(card_id)
    bonus = {}
    for trait, amount in ctx.c.cards[card_id].while_held.items():
        bonus[trait] = tr.change(ctx, pid, trait, amount)
    if bonus:
        p["held_bonus"][card_id] = bonus


def lose(ctx, pid: str, card_id: str):
    p = ctx.s["players"][pid]
    p["cards"].remove(card_id)
    for trait, given in p["held_bonus"].pop(card_id, {}).items():
        tr.change(ctx, pid, trait, -given)


def held_card(ctx, pid: str, name_or_id: str) -> str:
    return find_card(ctx, ctx.s["players"][pid]["cards"], name_or_id, "You do not hold")


def find_card(ctx, ids, name_or_id: str, missing: str) -> str:
    key = name_or_id.strip().lower()
    for cid in ids:
        if cid == key or ctx.c.cards[cid].name.lower() == key:
            return cid
    matches = [cid for cid in ids if ctx.c.cards[cid].name.lower().startswith(key)]
    if len(matches) == 1:
        return matches[0]
    names = ", ".join(ctx.c.cards[c].name for c in ids) or "nothing"
    raise IllegalAction(f"{missing} '{name_or_id}'. Choose from: {names}.")


def _once_this_turn(ctx, card_id: str):
    """Each item allows one of use, drop, pick up or trade per turn."""
    if card_id in ctx.s["turn"]["used"]:
        raise IllegalAction(f"You have already used, dropped, picked up or traded {ctx.card_name(card_id)} "
                            "this turn; each item allows one of those per turn.")
    ctx.s["turn"]["used"].append(card_id)


def use(ctx, pid: str, name: str):
    cid = held_card(ctx, pid, name)
    card = ctx.c.cards[cid]
    if card.weapon:
        raise IllegalAction(f"{card.name} is a weapon: it is used only when making an attack"
                            + (", and attacks begin with the haunt." if ctx.s["phase"] != "haunt" else "."))
    if not card.on_use:
        raise IllegalAction(f"{card.name} has no action of its own to use; it works while you hold it.")
    _once_this_turn(ctx, cid)
    ctx.say(f"{ctx.name(pid)} uses {card.name}.", kind="use", player=pid, card=cid)
    effects.queue(ctx, pid, card.on_use, source=cid, front=True)


def drop(ctx, pid: str, name: str):
    cid = held_card(ctx, pid, name)
    card = ctx.c.cards[cid]
    if not card.can_drop:
        raise IllegalAction(f"{card.name} cannot be dropped.")
    _once_this_turn(ctx, cid)
    lose(ctx, pid, cid)
    tile = ctx.s["players"][pid]["tile"]
    ctx.s["piles"].setdefault(tile, []).append(cid)
    ctx.say(f"{ctx.name(pid)} drops {card.name} on the {ctx.tile_name(tile)}.", kind="drop", player=pid, card=cid)


def pick_up(ctx, pid: str, name: str):
    tile = ctx.s["players"][pid]["tile"]
    pile = ctx.s["piles"].get(tile, [])
    if not pile:
        raise IllegalAction(f"There is no item pile on the {ctx.tile_name(tile)}.")
    cid = find_card(ctx, pile, name, "The pile here has no")
    _once_this_turn(ctx, cid)
    pile.remove(cid)
    if not pile:
        del ctx.s["piles"][tile]
    ctx.say(f"{ctx.name(pid)} picks up {ctx.card_name(cid)}.", kind="pickup", player=pid, card=cid)
    gain(ctx, pid, cid)


def offer_trade(ctx, pid: str, name: str, to_pid: str):
    cid = held_card(ctx, pid, name)
    card = ctx.c.cards[cid]
    if not card.can_trade:
        raise IllegalAction(f"{card.name} cannot be traded.")
    if to_pid == pid:
        raise IllegalAction("You cannot trade with yourself.")
    other = ctx.s["players"].get(to_pid)
    if other is None or not other["alive"] or other["tile"] != ctx.s["players"][pid]["tile"]:
        raise IllegalAction("You can trade only with another adventurer on your tile.")
    if cid in ctx.s["turn"]["used"]:
        _once_this_turn(ctx, cid)  # raises the usual message
    effects.ask(ctx, to_pid, "trade", f"accept {card.name} from {ctx.name(pid)}?", ["Accept", "Decline"],
                card=cid, giver=pid)


@effects.decision("trade")
def _decide_trade(ctx, pending, index):
    data = pending["data"]
    giver, taker, cid = data["giver"], pending["player"], data["card"]
    if index != 0:
        ctx.say(f"{ctx.name(taker)} declines {ctx.card_name(cid)}.", kind="trade")
        return
    ctx.s["turn"]["used"].append(cid)
    lose(ctx, giver, cid)
    gain(ctx, taker, cid)
    ctx.say(f"{ctx.name(giver)} gives {ctx.card_name(cid)} to {ctx.name(taker)}.", kind="trade", card=cid)
