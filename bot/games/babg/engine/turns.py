"""Setup, the order of turns, the end of a turn and the haunt roll
(rulebook: Setup, On Your Turn, Making a Haunt Roll)."""
from . import effects, rng
from . import marks as mk
from . import state as st
from . import tokens as tk
from . import hooks
from . import traitor as tp
from .moves import allowance
from .reveal import start_haunt  # noqa: F401  (re-exported)

HAUNT_TARGET = 6
START_TILES = {  # (level, x, y) of each start-tile room, laid west to east
    "kitchen": ("city", 0, 0), "inner_chamber": ("city", 1, 0), "elfsong_tavern": ("city", 2, 0),
    "kitchen_basement": ("catacomb", 0, 0), "catacomb_landing": ("catacomb", 1, 0),
}


def setup(ctx):
    """Rulebook: Setup. Shuffle the decks and stacks, lay the two start tiles,
    put everyone on the Elfsong Tavern at their starting values, deal the
    player aid cards; the lowest goes first, then play passes left."""
    s, c = ctx.s, ctx.c
    for deck in ("event", "item", "omen"):
        s["decks"][deck] = rng.shuffle(s, sorted(c.deck(deck)))
        s["discard"][deck] = []
    for stack in ("building", "street", "catacomb"):
        s["stacks"][stack] = rng.shuffle(s, sorted(c.stack(stack)))
        s["set_aside"][stack] = []
    for tid, (level, x, y) in START_TILES.items():
        s["board"][tid] = {"level": level, "x": x, "y": y, "rot": 0}
    for pid in s["seats"]:
        p = s["players"][pid]
        adv = c.adventurers[p["adventurer"]]
        p["traits"] = {t: adv.tracks[t].start for t in adv.tracks}
        p["tile"] = "elfsong_tavern"
    aid_cards = rng.shuffle(s, [1, 2, 3, 4, 5, 6])
    for pid, number in zip(s["seats"], aid_cards):
        s["players"][pid]["aid_card"] = number
    first = min(s["seats"], key=lambda pid: s["players"][pid]["aid_card"])
    s["order"] = [st.left_of(s, first, k) for k in range(len(s["seats"]))]
    s["phase"] = "exploring"
    dealt = ", ".join(f"{ctx.name(pid)} {s['players'][pid]['aid_card']}" for pid in s["seats"])
    ctx.say(f"The game begins. Player aid cards: {dealt}. {ctx.name(first)} has the lowest card and goes first; "
            "play passes to the left.", kind="setup", order=s["order"])
    begin_turn(ctx, first, 1)


def begin_turn(ctx, pid: str, number: int):
    """A new turn; marks that wait for it wake or end, and the cards in front
    of the player that act at the start of each turn do so (Future Sight,
    Trapper, Will-o'-Wisp)."""
    ctx.s["round"] = st.next_round(ctx.s, pid)
    ctx.s["turn"] = {**st.new_turn(pid, number), "round": ctx.s["round"]}
    p = ctx.s["players"][pid]
    for mark in list(mk.all_of(ctx, pid)):
        if mark["kind"] == "move_cap":
            mark["armed"] = True
        elif mark["kind"] == "invisible":
            mk.drop(ctx, pid, mark)
            ctx.say(f"{ctx.name(pid)} can be seen again.", kind="mark", player=pid)
    where = f"on the {ctx.tile_name(p['tile'])}" if st.on_board(p) else "off the board"
    ctx.say(f"Turn {number} (round {ctx.s['round']}): {ctx.who(pid)} {where}, Speed {ctx.value(pid, 'speed')}"
            + (f" (may move {allowance(ctx, pid)} this turn)" if allowance(ctx, pid) != ctx.value(pid, "speed")
               else "") + ".", kind="turn", player=pid)
    for cid in list(p["cards"]):
        if ctx.c.cards[cid].on_start_turn:
            effects.queue(ctx, pid, ctx.c.cards[cid].on_start_turn, source=cid)
    hooks.fire("turn_started", ctx, pid)


def end_turn(ctx, pid: str):
    """What happens at the end of a turn: the tile's end-of-turn text, the
    cards lying on the tile, the cards in front of the player (Ruling: this
    order), then a haunt roll for each omen drawn (Ruling: haunt-roll
    timing), then the next player."""
    turn = ctx.s["turn"]
    turn["ending"] = True
    turn["stopped"] = True
    p = ctx.s["players"][pid]
    if st.on_board(p) and not ctx.s["board"][p["tile"]].get("face_down"):  # a face-down tile's text is hidden
        tile = ctx.c.tiles[p["tile"]]
        steps = list(tile.effects.get("on_end_turn", []))
        if tp.ignores_harm(ctx.s, pid):  # Rulebook: The Traitor's New Powers: the good text only
            steps = tp.without_harm(steps)
        once_key = f"tile:{tile.id}"
        if tile.effects.get("once_per_game_on_end_turn") and once_key not in p["once"]:
            p["once"].append(once_key)
            steps.extend(tile.effects["once_per_game_on_end_turn"])
        if steps:
            effects.queue(ctx, pid, steps, source=tile.id)
        for cid in tk.cards_on(ctx.s, tile.id):
            if ctx.c.cards[cid].on_tile.get("on_end_turn"):
                effects.queue(ctx, pid, ctx.c.cards[cid].on_tile["on_end_turn"], source=cid)
    for cid in list(p["cards"]):
        if ctx.c.cards[cid].on_end_turn:
            effects.queue(ctx, pid, ctx.c.cards[cid].on_end_turn, source=cid)
    for cap in [m for m in mk.all_of(ctx, pid) if m["kind"] == "move_cap" and m.get("armed")]:
        mk.drop(ctx, pid, cap)  # this turn's cap is spent; one gained this turn waits for the next
    for steps in hooks.fire("turn_ending", ctx, pid):  # what the haunt does at the end of a turn
        effects.queue(ctx, pid, steps)
    effects.queue(ctx, pid, [{"do": "_haunt_rolls"}, {"do": "_next_turn"}])


@effects.step("_end_turn")
def _end_turn_now(ctx, task, item):
    """A card ends the turn at once (Trapper)."""
    turn = ctx.s["turn"]
    if turn and turn["player"] == task["player"] and not turn["ending"]:
        ctx.say(f"{ctx.name(task['player'])}'s turn ends.", kind="turn_end", player=task["player"])
        end_turn(ctx, task["player"])


@effects.step("_haunt_rolls")
def _haunt_rolls(ctx, task, item):
    """Rulebook: Making a Haunt Roll. Roll as many dice as omens have been
    revealed (at most 8); 6 or more starts the haunt."""
    s = ctx.s
    pid = task["player"]
    for omen, tile in s["turn"]["omens"]:
        if s["phase"] != "exploring":
            return
        n = rng.dice_count(s["omens_revealed"])
        total = effects.make_roll(ctx, pid, n, "for the haunt", kind="haunt")
        last_omen = not s["decks"]["omen"]
        if total >= HAUNT_TARGET or last_omen:
            if total < HAUNT_TARGET:
                ctx.say("Every omen has now been revealed, so the haunt begins anyway.", kind="haunt_roll")
            start_haunt(ctx, pid, omen, tile)
            task["steps"].clear()
            return
        ctx.say(f"The haunt roll needed {HAUNT_TARGET}+; the city stays quiet for now.", kind="haunt_roll")


@effects.step("_next_turn")
def _next_turn(ctx, task, item):
    s = ctx.s
    if hooks.first("next_slot", ctx):  # the haunt's turn order
        return
    order = s["order"]
    pid = s["turn"]["player"]
    nxt = order[(order.index(pid) + 1) % len(order)]
    while not s["players"][nxt]["alive"]:
        nxt = order[(order.index(nxt) + 1) % len(order)]
    begin_turn(ctx, nxt, s["turn"]["number"] + 1)

