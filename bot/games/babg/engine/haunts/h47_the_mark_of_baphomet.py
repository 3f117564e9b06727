"""Haunt 47, The Mark of Baphomet (Traitor's Tome and Secrets of Survival:
Vort, else the lowest Might, becomes the Minotaur).

What the bot carries out:
- Setup: the Minotaur on the traitor's tile (data); the traitor's figure
  leaves the board and every item it carried is dropped there, the omens
  it kept too (rulebook: most omens are treated like items); the
  Deck of Many Things is taken from whoever has it and shuffled into the
  omen deck below its top 3 cards; each hero drops every item card and
  flees at once as far from the Minotaur as their Speed takes them (each
  hero picks among the farthest tiles).
- The traitor's turn is the Minotaur's: its Speed roll (at least 1), and
  each time it enters a tile it attacks every hero there with Might; no
  hero is attacked by it twice in a turn. Stunned at the start of its turn
  it acts anyway with Might 5 for that turn.
- Only a hero with a weapon, or holding the Deck of Many Things, may attack
  the Minotaur (the buttons then offer an attack with each weapon).
- Searching an omen tile (the declared move `search`, Speed, once per turn,
  on an omen tile not yet marked): Speed 4+ draws an omen card; from the reveal on,
  every omen drawn marks the drawer's tile, which is never searched again.
- The calming ritual (the declared move `ritual`, Knowledge, on the
  Neglected Shrine holding the Deck): Knowledge 6+ with 1 more die per token on the Deck (8
  dice at most); success wins for the heroes. Every hero dead: the traitor
  wins (data).

Left to the players: nothing the book prints.
"""
from .. import attack, effects, rng, rulesets
from .. import board as bd
from .. import cards as cd
from .. import haunt_play as hp
from .. import state as st
from .. import tokens as tk
from ..errors import IllegalAction
from ..geometry import distances

MINOTAUR, DECK, SHRINE, SEARCHED = "Minotaur", "deck_of_many_things", "neglected_shrine", "Searched"
UNSTOPPABLE_MIGHT = 5


OWN = rulesets.Own("h47", {"hit": [], "calmed": False, "unstoppable": False}, players=("hit",))


def mine(ctx) -> dict:
    return rulesets.REGISTRY[47].record(ctx.s)


def the_minotaur(ctx) -> dict | None:
    return next((m for m in ctx.s["monsters"] if m["name"] == MINOTAUR and not m["dead"]), None)


def deck_tokens(ctx) -> int:
    return ctx.s.get("card_state", {}).get(DECK, {}).get("tokens", 0)


def holder(ctx) -> str | None:
    return next((p for p in ctx.s["seats"] if DECK in ctx.s["players"][p]["cards"]), None)


def drop_items(ctx, pid: str, omens: bool = False):
    """Every item card the adventurer carries goes on their tile; with
    `omens`, the omen cards they keep as well (rulebook, "Use Item and Omen
    Cards", L286: most omens are treated like items)."""
    s = ctx.s
    p = s["players"][pid]
    items = [c for c in p["cards"] if ctx.c.cards[c].deck == "item" or omens and ctx.c.cards[c].deck == "omen"]
    for c in items:
        if c not in p["cards"]:  # losing an earlier card's bonus can cost the adventurer the rest (a death)
            continue
        cd.lose(ctx, pid, c)
        s["piles"].setdefault(p["tile"], []).append(c)
    if items:
        ctx.say(f"{ctx.name(pid)} drops {', '.join(ctx.card_name(c) for c in items)} on the "
                f"{ctx.tile_name(p['tile'])}.", kind="drop", player=pid)


def flight_tiles(ctx, pid: str) -> list[str]:
    """The tiles within the hero's Speed that lie farthest from the Minotaur."""
    s = ctx.s
    m = the_minotaur(ctx)
    here = s["players"][pid]["tile"]
    reach = {t: d for t, d in distances(ctx, here).items() if d <= ctx.value(pid, "speed")}
    if m is None:
        return [here]
    away = distances(ctx, m["tile"])
    far = max(away.get(t, 99) for t in reach)
    return sorted((t for t in reach if away.get(t, 99) == far), key=ctx.tile_name)


@effects.step("h47_flee")
def _flee(ctx, task, item):
    pid = task["player"]
    tiles = flight_tiles(ctx, pid)
    if len(tiles) == 1:
        flee_to(ctx, pid, tiles[0])
        return
    effects.ask(ctx, pid, "h47_flee", "where do you flee from the Minotaur?", [ctx.tile_name(t) for t in tiles],
                tiles=tiles)


@effects.decision("h47_flee")
def _decide_flee(ctx, pending, index):
    flee_to(ctx, pending["player"], pending["data"]["tiles"][index])


def flee_to(ctx, pid: str, tile: str):
    p = ctx.s["players"][pid]
    if p["tile"] != tile:
        p["tile"], p["half"] = tile, ("north" if ctx.c.tiles[tile].barrier else None)
        ctx.say(f"{ctx.name(pid)} flees to the {ctx.tile_name(tile)}.", kind="move", player=pid, tile=tile)


@effects.step("h47_gore")
def _gore(ctx, task, item):
    """Traitor's Tome: "You Must Do This on Your Turn": a Might attack on a
    hero on a tile the Minotaur enters."""
    s = ctx.s
    m, target = the_minotaur(ctx), item["target"]
    if m is None or not s["players"][target]["alive"] or not st.beside(s, target, m) or target in mine(ctx)["hit"]:
        return
    if attack.shielded(ctx, target):
        return
    mine(ctx)["hit"].append(target)
    ctx.say(f"The Minotaur charges {ctx.name(target)}.", kind="attack")
    a = effects.make_roll(ctx, hp.controller(s), rng.dice_count(m["traits"]["might"]), "Might for the Minotaur",
                          kind="contest")
    d = attack.defence_roll(ctx, target, "might", ctx.value(target, "might"))
    s["haunt"]["last_attacker"] = m["id"]
    effects.push_front(ctx, [attack.roll_off(m["id"], target, "might", a, d, False), {"do": "_attack_over"}])


@effects.step("h47_calmed")
def _calmed(ctx, task, item):
    mine(ctx)["calmed"] = True
    ctx.say(f"{ctx.name(task['player'])} completes the calming ritual!", kind="haunt")


@rulesets.register(47)
class MarkOfBaphomet(rulesets.RuleSet):
    title = "The Mark of Baphomet"

    def setup_step(self, ctx, step):
        s = ctx.s
        text = step.get("text", "")
        if step.get("do") == "manual" and "Drop all your items" in text:
            for pid in hp.traitors(s):  # Traitor's Tome, haunt 47, L2845: all its items, the omens like items too
                drop_items(ctx, pid, omens=True)
                s["players"][pid]["tile"] = None  # the Minotaur token stands in its place
                ctx.say(f"{ctx.name(pid)} is now the Minotaur.", kind="haunt", player=pid)
            return True
        if step.get("do") == "manual" and "Deck of Many Things" in text:
            owner = holder(ctx)
            if owner:
                cd.lose(ctx, owner, DECK)
            for pile in s["piles"].values():
                if DECK in pile:
                    pile.remove(DECK)
            omens = s["decks"]["omen"]
            if DECK not in omens:
                top, rest = omens[:3], omens[3:] + [DECK]
                s["decks"]["omen"] = top + rng.shuffle(s, rest)
            ctx.say("Setup: the Deck of Many Things is shuffled into the omen deck, below its top 3 cards.",
                    kind="haunt_setup")
            return True
        if step.get("do") == "move" and step.get("side") == "heroes":
            for pid in hp.alive(s, hp.heroes(s)):
                drop_items(ctx, pid)
                effects.queue(ctx, pid, [{"do": "h47_flee"}], source="haunt")
            ctx.say("Heroes: search an unmarked omen tile with {move:search} (Speed 4+, once a turn); holding "
                    "the Deck of Many Things on the Neglected Shrine, {move:ritual} (Knowledge 6+, 1 more "
                    "die per token on the Deck). Only a weapon or the Deck lets you attack the Minotaur.",
                    kind="haunt_setup", to="heroes")
            ctx.say("Traitor: the monster turn is the Minotaur's; it attacks every hero on each tile it enters.",
                    kind="haunt_setup", to="traitors")
            return True
        if step.get("do") == "manual" and ("leave the room" in text or "stays in the room" in text
                                           or "adventurer token" in text):
            return True  # the sides' rules are sent apart; the bot marks the searched tiles itself
        return None

    def next_slot(self, ctx):
        """The traitor has no figure: the Minotaur's monster turn is its turn."""
        s = ctx.s
        for t in hp.traitors(s):
            if t in s["order"] and s["haunt"].get("started"):
                s["order"].remove(t)
        return None

    def monster_turn(self, ctx, number):
        """Traitor's Tome: "Unstoppable"."""
        mine(ctx)["hit"] = []
        m = the_minotaur(ctx)
        if m and m["stunned"]:
            m["stunned"] = False
            m["traits"]["might"] = UNSTOPPABLE_MIGHT
            mine(ctx)["unstoppable"] = True
            ctx.say("The Minotaur shakes off its stun: Might 5 this turn.", kind="monster", monster=m["id"])
        return None

    def monster_turn_ending(self, ctx):
        m = the_minotaur(ctx)
        if m and mine(ctx)["unstoppable"]:
            m["traits"]["might"] = hp.monster_stats(ctx, MINOTAUR)["might"]
            mine(ctx)["unstoppable"] = False
        return None

    def entered(self, ctx, mover, tile):
        s = ctx.s
        m = the_minotaur(ctx)
        if m is None or mover != m["id"] or not (s["turn"] or {}).get("monsters"):
            return None
        prey = [p for p in hp.alive(s, hp.heroes(s)) if st.beside(s, p, m) and p not in mine(ctx)["hit"]]
        if prey:
            effects.queue(ctx, hp.controller(s), [{"do": "h47_gore", "target": p} for p in prey], source="attack",
                          front=True)
        return None

    def monster_attack_blocked(self, ctx, m, target):
        if m["name"] == MINOTAUR and target in mine(ctx)["hit"]:
            return "The Minotaur has already attacked that hero this turn."
        return None

    def unarmed_blocked(self, ctx, pid, target):
        m = next((x for x in ctx.s["monsters"] if x["id"] == target or f"{st.monster_called(x)}".lower() ==
                  str(target).lower() or x["name"].lower() == str(target).lower()), None)
        if m and m["name"] == MINOTAUR and DECK not in ctx.s["players"][pid]["cards"]:
            return "Only a weapon or the Deck of Many Things lets you attack the Minotaur."
        return None

    def card_gaining(self, ctx, pid, card):
        """Secrets of Survival: "Finding the Deck of Many Things" (every omen
        drawn marks the drawer's tile)."""
        s = ctx.s
        tile = s["players"][pid]["tile"]
        if ctx.c.cards[card].deck == "omen" and tile and not marked(ctx, tile):
            tk.place(s, SEARCHED, tile)
            ctx.say(f"The {ctx.tile_name(tile)} is marked: it can no longer be searched.", kind="token", tile=tile)
        return None

    def win_check(self, ctx):
        if mine(ctx)["calmed"]:
            return ("heroes", "The Minotaur is calmed and Baphomet's will is sent back to the Abyss.")
        return None

    def haunt_goals(self, ctx, pid):
        s = ctx.s
        if pid in hp.traitors(s):
            return None
        if holder(ctx) == pid:  # to the Neglected Shrine, exploring the catacombs for it while it is not found
            return {SHRINE} | (set() if SHRINE in s["board"] else frontier(ctx, "catacomb"))
        if holder(ctx):
            return {s["players"][holder(ctx)]["tile"]}
        lying = {t for t, pile in s["piles"].items() if DECK in pile}
        if lying:
            return lying
        unsearched = {t for t in s["board"] if ctx.c.tiles[t].symbol == "omen" and not marked(ctx, t)}
        if unsearched and s["decks"]["omen"]:
            return unsearched
        return frontier(ctx, "city") | frontier(ctx, "catacomb") or None  # new omen tiles, found by exploring

    own = OWN
    moves = (
        rulesets.Move("search", "Search this omen tile", lambda ctx, pid, trait: search(ctx, pid),
                      traits=("speed",), who="heroes", once_per_turn=True,
                      summary="On an omen tile not yet marked, Speed 4+ draws an omen card."),
        rulesets.Move("ritual", "Perform the calming ritual", lambda ctx, pid, trait: ritual(ctx, pid),
                      traits=("knowledge",), who="heroes", once_per_turn=True,
                      summary="Holding the Deck of Many Things on the Neglected Shrine, Knowledge 6+ with 1 more die "
                              "per token on the Deck (8 at most) calms the Minotaur: the heroes win."),
    )


def search(ctx, pid: str):
    """Secrets of Survival, haunt 47: "Finding the Deck of Many Things"."""
    s = ctx.s
    here = s["players"][pid]["tile"]
    if not st.on_board(s["players"][pid]) or ctx.c.tiles[here].symbol != "omen":
        raise IllegalAction("Only omen tiles can be searched.")
    if marked(ctx, here):
        raise IllegalAction(f"The {ctx.tile_name(here)} is marked: it cannot be searched again.")
    if not s["decks"]["omen"]:
        raise IllegalAction("The omen deck is empty.")
    effects.queue(ctx, pid, [{"do": "roll", "trait": "speed", "bands": [
        {"at_least": 4, "then": [{"do": "draw", "deck": "omen"}]}, {"at_most": 3, "then": []}]}],
        source="haunt", front=True)


def ritual(ctx, pid: str):
    """Secrets of Survival, haunt 47: "How to Perform the Calming Ritual"."""
    s = ctx.s
    if s["players"][pid]["tile"] != SHRINE:
        raise IllegalAction("The ritual is performed on the Neglected Shrine.")
    if DECK not in s["players"][pid]["cards"]:
        raise IllegalAction("You need the Deck of Many Things for the ritual.")
    extra = max(0, min(rng.MAX_DICE - ctx.value(pid, "knowledge"), deck_tokens(ctx)))
    effects.queue(ctx, pid, [{"do": "roll", "trait": "knowledge", "extra_dice": extra, "bands": [
        {"at_least": 6, "then": [{"do": "h47_calmed"}]}, {"at_most": 5, "then": []}]}],
        source="haunt", front=True)


def frontier(ctx, level: str) -> set[str]:
    """The tiles of a level with a doorway still open onto the unknown."""
    return {t for t, _ in bd.open_doorways(ctx.c, ctx.s["board"], level)}


def marked(ctx, tile: str) -> bool:
    return any(t["name"] == SEARCHED for t in tk.on_tile(ctx.s, tile))
