"""Event, item and omen cards: drawing, holding, using, dropping, picking up
and trading (rulebook: Drawing Event, Item, and Omen Cards; Use Item and Omen
Cards)."""
from . import effects, hooks, rng
from . import traitor as tp
from . import state as st
from . import tokens as tk
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
    if deck != "event" and hooks.first("card_gaining", ctx, pid, s["decks"][deck][0]):
        return None  # the haunt gave something else instead; the card stays on the deck
    card_id = s["decks"][deck].pop(0)
    card = ctx.c.cards[card_id]
    ctx.say(f"{ctx.name(pid)} draws the {deck} card {card.name}: {card.text}", kind="draw",
            player=pid, card=card_id, deck=deck)
    if deck == "event":
        effects.queue(ctx, pid, list(card.on_draw) + [{"do": "_settle_event", "card": card_id}],
                      source=card_id, front=True)
        tp.offer_event_choice(ctx, pid, card_id)
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
    elif not hooks.first("discarding", ctx, card.id):  # a house rule may bury it instead
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
    with ctx.speaking_for(ctx.card_name(card_id)):
        for trait, amount in ctx.c.cards[card_id].while_held.items():
            bonus[trait] = tr.change(ctx, pid, trait, amount)
    if bonus:
        p["held_bonus"][card_id] = bonus


def lose(ctx, pid: str, card_id: str):
    p = ctx.s["players"][pid]
    p["cards"].remove(card_id)
    with ctx.speaking_for(ctx.card_name(card_id)):
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


def unusable(ctx, pid: str, cid: str) -> str | None:
    """Why the card cannot be used now, or None."""
    card = ctx.c.cards[cid]
    if card.weapon:
        return (f"{card.name} is a weapon: it is used only when making an attack"
                + (", and attacks begin with the haunt." if ctx.s["phase"] != "haunt" else "."))
    if not card.on_use:
        return f"{card.name} has no action of its own to use; it works while you hold it."
    why = hooks.first("card_unusable", ctx, pid, cid)  # a haunt that forbids the card's use
    if why:
        return why
    check = effects.USABLE.get(cid)
    return check(ctx, pid, cid) if check else None


def use(ctx, pid: str, name: str):
    _on_board(ctx, pid)
    cid = held_card(ctx, pid, name)
    card = ctx.c.cards[cid]
    _once_this_turn(ctx, cid)  # a refused action changes nothing: apply() works on a copy
    reason = unusable(ctx, pid, cid)
    if reason:
        raise IllegalAction(reason)
    ctx.say(f"{ctx.name(pid)} uses {card.name}.", kind="use", player=pid, card=cid)
    effects.queue(ctx, pid, card.on_use, source=cid, front=True)


def _on_board(ctx, pid: str):
    if not st.on_board(ctx.s["players"][pid]):
        raise IllegalAction("You are off the board until your next turn.")


def drop(ctx, pid: str, name: str):
    _on_board(ctx, pid)
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
    _on_board(ctx, pid)
    tile = ctx.s["players"][pid]["tile"]
    pile = ctx.s["piles"].get(tile, [])
    if not pile:
        raise IllegalAction(f"There is no item pile on the {ctx.tile_name(tile)}.")
    cid = find_card(ctx, pile, name, "The pile here has no")
    if ctx.c.cards[cid].companion:
        raise IllegalAction(f"{ctx.card_name(cid)} is a companion: it goes to the next adventurer who moves onto "
                            "this tile, not to someone already here.")
    _once_this_turn(ctx, cid)
    if hooks.first("card_gaining", ctx, pid, cid):
        return
    pile.remove(cid)
    if not pile:
        del ctx.s["piles"][tile]
    for token in [t for t in tk.on_tile(ctx.s, tile) if t.get("item") == cid]:
        tk.remove(ctx.s, token)  # scattered Caltrops gathered up again
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
    _on_board(ctx, pid)
    if other is None or not st.on_board(other) or not st.together(ctx.s, pid, to_pid):
        raise IllegalAction("You can trade only with another adventurer on your tile (and your side of a "
                            "barrier).")
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
    if hooks.first("card_gaining", ctx, taker, cid):
        return
    lose(ctx, giver, cid)
    gain(ctx, taker, cid)
    ctx.say(f"{ctx.name(giver)} gives {ctx.card_name(cid)} to {ctx.name(taker)}.", kind="trade", card=cid)


# --- discarding, choosing from the top of a deck ----------------------------

def holder_of(ctx, cid: str) -> str | None:
    for pid in ctx.s["seats"]:
        if cid in ctx.s["players"][pid]["cards"]:
            return pid
    return None


def discard(ctx, cid: str, quiet: bool = False):
    """Put a card on its deck's discard pile from wherever it is: a hand, a
    tile (its token goes with it), an item pile, or the event being resolved."""
    s = ctx.s
    deck = ctx.c.cards[cid].deck
    if cid in s["discard"][deck]:
        return
    holder = holder_of(ctx, cid)
    if holder:
        lose(ctx, holder, cid)
    else:
        token = tk.with_card(s, cid)
        if token:
            tk.remove(s, token)
        for tile, pile in list(s["piles"].items()):
            if cid in pile:
                pile.remove(cid)
                if not pile:
                    del s["piles"][tile]
        effects.unsettle(ctx, cid)
    if hooks.first("discarding", ctx, cid):  # a house rule buried it under its deck instead
        return
    s["discard"][deck].append(cid)
    if not quiet:
        ctx.say(f"{ctx.card_name(cid)} is discarded.", kind="discard", card=cid)


@effects.step("discard_this")
def _discard_this(ctx, task, item):
    if task.get("source") in ctx.c.cards:
        discard(ctx, task["source"])


def item_cards(ctx, pid: str) -> list[str]:
    return [c for c in ctx.s["players"][pid]["cards"] if ctx.c.cards[c].deck == "item"]


@effects.step("discard")
def _discard_step(ctx, task, item):
    """Discard item cards you hold: `count` 1 (you pick) or "all"; `then`
    runs when something was discarded, `otherwise` when nothing was (none
    held, or you declined when the step is `optional`)."""
    pid = task["player"]
    held = item_cards(ctx, pid)
    if item.get("count", 1) == "all":
        for cid in held:
            discard(ctx, cid)
        effects.push_front(ctx, item.get("then", []) if held else item.get("otherwise", []))
        return
    if not held:
        effects.push_front(ctx, item.get("otherwise", []))
        return
    if len(held) == 1 and not item.get("optional"):
        discard(ctx, held[0])
        effects.push_front(ctx, item.get("then", []))
        return
    options = [f"Discard {ctx.card_name(c)}" for c in held]
    if item.get("optional"):
        options.append(item.get("decline", "Discard nothing"))
    effects.ask(ctx, pid, "discard", item.get("prompt", "which item card to discard?"), options, cards=held,
                then=list(item.get("then", [])), otherwise=list(item.get("otherwise", [])))


@effects.decision("discard")
def _decide_discard(ctx, pending, index):
    data = pending["data"]
    if index < len(data["cards"]):
        discard(ctx, data["cards"][index])
        effects.push_front(ctx, data["then"])
    else:
        effects.push_front(ctx, data["otherwise"])


@effects.step("pick")
def _pick(ctx, task, item):
    """Look at the top `look` cards of a deck, take one, discard the rest.
    Ruling: taking it is drawing a card, so it ends your movement."""
    pid = task["player"]
    deck = item["deck"]
    top = ctx.s["decks"][deck][:item["look"]]
    if not top:
        ctx.say(f"The {deck} deck is empty: there is nothing to look at.", kind="deck")
        return
    ctx.say(f"{ctx.name(pid)} looks at the top {len(top)} {deck} card{'s' if len(top) > 1 else ''}: "
            f"{', '.join(ctx.card_name(c) for c in top)}.", kind="look", player=pid, cards=top)
    if len(top) == 1:
        take_from_deck(ctx, pid, deck, top, 0)
        return
    effects.ask(ctx, pid, "pick", "which card to take?", [ctx.card_name(c) for c in top], deck=deck, cards=top)


@effects.decision("pick")
def _decide_pick(ctx, pending, index):
    take_from_deck(ctx, pending["player"], pending["data"]["deck"], pending["data"]["cards"], index)


def take_from_deck(ctx, pid: str, deck: str, cards: list[str], index: int):
    s = ctx.s
    for cid in cards:
        s["decks"][deck].remove(cid)
    chosen = cards[index]
    if s["turn"] and s["turn"]["player"] == pid:
        s["turn"]["stopped"] = True
    ctx.say(f"{ctx.name(pid)} takes {ctx.card_name(chosen)}.", kind="take", player=pid, card=chosen)
    gain(ctx, pid, chosen)
    for cid in cards:
        if cid != chosen:
            discard(ctx, cid)


def _discard_on_gain(ctx, pid: str, trait: str):
    """Cards that end the next time a trait goes up (Crawling Claw, Mists of
    Ravenloft)."""
    for cid in list(ctx.s["players"][pid]["cards"]):
        offs = ctx.c.cards[cid].discard_on_gain
        if offs and ("any" in offs or trait in offs):
            ctx.say(f"{ctx.name(pid)}'s {trait.capitalize()} went up, so {ctx.card_name(cid)} lets go.",
                    kind="discard", card=cid)
            discard(ctx, cid, quiet=True)


tr.RAISED.append(_discard_on_gain)
