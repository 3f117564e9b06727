"""Haunt 26, Call of the Draakhorn (Traitor's Tome and Secrets of Survival:
the haunt revealer is the traitor).

What the bot carries out:
- Setup: the traitor's Might and Knowledge back to their starting values,
  then +2 each (data); a Poison token on each room of the city start tile
  and on every other city tile in that row, the rest of the 24 set aside;
  the Orb of Dragonkind on the traitor; one Treasure Chest per adventurer,
  placed by the traitor one per tile on the named tiles, after the missing
  ones are searched for (the traitor picks which and where they join); the
  clue pile and the Obstacle tokens (counters).
- The traitor's start of turn: as many Poison tokens as heroes at the start,
  each placed by the traitor on a city tile without Poison joined by a
  doorway to a poisoned tile (never a remote tile), until the reserve or the
  free tiles run out; none once the green dragon is dead.
- Poison: a hero leaving a poisoned tile rolls Speed 3+ or takes 2 physical
  damage and may go on; the traitor is unaffected.
- Clues: the declared move `clue` (a hero on a tile without Poison, Knowledge
  5+); the last clue reveals the top building or street tile (the finder
  picks the stack), joined to the city door nearest the Elfsong Tavern, any
  colour, with the Draakhorn token on it.
- The Draakhorn: the declared move `horn` on its tile (Knowledge 4+): dice
  equal to the starting heroes, that many Poison tokens taken off (the hero
  picks which), an Obstacle token on the Elfsong Tavern; the last one kills
  the dragon: every Poison token goes and no more are placed.
- Looting: the declared move `loot`, Knowledge or Speed (the traitor on a
  Treasure Chest tile, 2+ plus 1 per hero there): the chest goes onto the
  traitor's card and an item card is drawn.
- The Orb: Knowledge may be used to attack whoever holds it (the defender
  rolls Knowledge); a win of 2 or more may take the Orb instead of the
  damage; a dead holder leaves it on the tile, where the move `orb` picks
  it up.
- Wins: the traitor, ending a turn on the House of Blood holding every
  Treasure Chest, or with every hero dead; the heroes, once the dragon is
  dead while a hero holds the Orb, or with the traitor dead.

Left to the players: nothing the books print.
"""
from .. import board as bd
from .. import effects, hooks, moves, rulesets
from .. import haunt_play as hp
from .. import state as st
from .. import tokens as tk
from ..errors import IllegalAction
from ..geometry import distances

POISON, CHEST, HORN, ORB, OBSTACLE = "Poison", "Treasure Chest", "Draakhorn", "Orb of Dragonkind", "Obstacle"
CLUES, SUMMONS, RESERVE = "Draakhorn clues left", "Summons still needed", "Poison tokens in reserve"
CHEST_TILES = ("smithy", "sorcerous_sundries", "storehouse", "trading_post", "weapon_shop", "forgotten_cache",
               "weapon_shop_basement")
HOUSE = "house_of_blood"
TAVERN = "elfsong_tavern"
CLUE_TARGET, HORN_TARGET, LOOT_TARGET, POISON_TARGET = 5, 4, 2, 3
POISON_START = 24


def seen(ctx) -> dict:
    """This haunt's record, for reading (never written by a read)."""
    return ctx.s["haunt"].get("h26") or {}


OWN = rulesets.Own("h26", {"orb": None, "looted": 0, "placed": 0, "dead": False, "won": None,
                           "start_heroes": None}, players=("orb",))


def mine(ctx) -> dict:
    record = rulesets.REGISTRY[26].record(ctx.s)
    if record["start_heroes"] is None:
        record["start_heroes"] = len(hp.heroes(ctx.s))
    return record


def poisoned(s: dict) -> set[str]:
    return {t["tile"] for t in s["tokens"] if t["name"] == POISON}


def chests(s: dict) -> list[str]:
    return [t["tile"] for t in s["tokens"] if t["name"] == CHEST and not t.get("card")]  # not Lost and Found's


def horn_tile(s: dict) -> str | None:
    return next((t["tile"] for t in s["tokens"] if t["name"] == HORN), None)


def orb_on_tile(s: dict) -> str | None:
    return next((t["tile"] for t in s["tokens"] if t["name"] == ORB), None)


def counters(ctx) -> dict:
    return ctx.s["haunt"]["counters"]


def city(ctx, tid: str) -> bool:
    return ctx.s["board"][tid]["level"] == "city"


def spread_tiles(ctx) -> list[str]:
    """Traitor's Tome, haunt 26, "You Must Do This at the Start of Your
    Turn": a city tile without Poison joined by a doorway to one with it."""
    s = ctx.s
    bad = poisoned(s)
    found = set()
    for tid in bad:
        if tid in s["board"] and city(ctx, tid):
            found |= {t for t in bd.exits(ctx.c, s["board"], tid).values() if t and city(ctx, t) and t not in bad}
    return sorted(found, key=ctx.tile_name)


def heroes_on(s: dict, tile: str) -> int:
    return sum(1 for p in hp.alive(s, hp.heroes(s)) if s["players"][p]["tile"] == tile and st.on_board(s["players"][p]))


def own_knowledge(ctx, pid: str) -> bool:
    """Knowledge attacks a power allows anyway (Eldritch Blast ...)."""
    return any("knowledge" in (fn(ctx, pid, None) or []) for _, fn in hooks._subscribers["attack_traits"])


# --- setup ------------------------------------------------------------------------------------------

def first_poison(ctx):
    """Traitor's Tome, haunt 26, "Right Now": the start tile's rooms and
    every other city tile in the same row."""
    s = ctx.s
    row = s["board"][TAVERN]["y"]
    tiles = [t for t, p in s["board"].items() if p["level"] == "city" and p["y"] == row]
    for t in sorted(tiles, key=lambda t: s["board"][t]["x"]):
        tk.place(s, POISON, t)
    counters(ctx)[RESERVE] = counters(ctx).get(RESERVE, POISON_START) - len(tiles)
    ctx.say(f"Setup: the green dragon's Poison covers {len(tiles)} city tiles in the Elfsong Tavern's row "
            f"({counters(ctx)[RESERVE]} Poison tokens left in reserve).", kind="haunt_setup")


@effects.step("h26_chest_tiles")
def _chest_tiles(ctx, task, item):
    """Traitor's Tome, haunt 26, "Right Now": while too few of the named
    tiles are in play, the traitor searches a stack for one of them."""
    s = ctx.s
    step = item["step"]
    count = hp.count_value(ctx, step.get("count", 1))
    on_board = [t for t in CHEST_TILES if t in s["board"]]
    missing = [t for t in CHEST_TILES if t not in s["board"] and t not in item.get("tried", [])
               and hp.fetch_doors(ctx, t)]
    if len(on_board) < count and missing:
        if len(missing) == 1:
            effects.push_front(ctx, [{"do": "_fetch_tile", "tile": missing[0]},
                                     {**item, "tried": item.get("tried", []) + missing}])
            return
        effects.ask(ctx, task["player"], "h26_search", "which tile do you search the stacks for?",
                    [ctx.c.tiles[t].name for t in missing], tiles=missing, item=item)
        return
    effects.push_front(ctx, [{"do": "_place_chosen", "step": step, "left": count, "of": count}])


@effects.decision("h26_search")
def _decide_search(ctx, pending, index):
    tid, item = pending["data"]["tiles"][index], pending["data"]["item"]
    effects.push_front(ctx, [{"do": "_fetch_tile", "tile": tid}, {**item, "tried": item.get("tried", []) + [tid]}])


# --- poison -------------------------------------------------------------------------------------------

@effects.step("h26_poison")
def _poison(ctx, task, item):
    s = ctx.s
    if seen(ctx).get("dead") or item["left"] <= 0:
        return
    if counters(ctx).get(RESERVE, 0) <= 0:
        ctx.say("No Poison tokens are left in reserve.", kind="haunt")
        return
    tiles = spread_tiles(ctx)
    if not tiles:
        ctx.say("No city tile next to the Poison is free of it: no more Poison spreads this turn.", kind="haunt")
        return
    if len(tiles) == 1:
        spill(ctx, tiles[0], item)
        return
    effects.ask(ctx, task["player"], "h26_poison", f"where does the next Poison token go ({item['left']} to "
                "place)?", [ctx.tile_name(t) for t in tiles], tiles=tiles, item=item)


def spill(ctx, tile: str, item: dict):
    tk.place(ctx.s, POISON, tile)
    counters(ctx)[RESERVE] -= 1
    ctx.say(f"Poison spreads onto the {ctx.tile_name(tile)}.", kind="token", tile=tile)
    if item["left"] > 1:
        effects.push_front(ctx, [{**item, "left": item["left"] - 1}])


@effects.decision("h26_poison")
def _decide_poison(ctx, pending, index):
    spill(ctx, pending["data"]["tiles"][index], pending["data"]["item"])


@effects.step("h26_cleanse")
def _cleanse(ctx, task, item):
    """Secrets of Survival, haunt 26, "How to Use the Draakhorn": the
    metallic dragon takes Poison tokens off the board, the hero picks which."""
    s = ctx.s
    tiles = sorted(poisoned(s), key=ctx.tile_name)
    if item["left"] <= 0 or not tiles:
        return
    if len(tiles) <= item["left"]:
        for t in [x for x in s["tokens"] if x["name"] == POISON]:
            tk.remove(s, t)
        counters(ctx)[RESERVE] += len(tiles)
        ctx.say("The metallic dragon clears every Poison token from the board.", kind="haunt")
        return
    effects.ask(ctx, task["player"], "h26_cleanse", f"which Poison token does the metallic dragon clear "
                f"({item['left']} to go)?", [ctx.tile_name(t) for t in tiles], tiles=tiles, item=item)


@effects.decision("h26_cleanse")
def _decide_cleanse(ctx, pending, index):
    s = ctx.s
    tile, item = pending["data"]["tiles"][index], pending["data"]["item"]
    tk.remove(s, next(t for t in s["tokens"] if t["name"] == POISON and t["tile"] == tile))
    counters(ctx)[RESERVE] += 1  # Ruling: a cleared Poison token goes back to the traitor's reserve
    ctx.say(f"The Poison on the {ctx.tile_name(tile)} is blown away.", kind="token", tile=tile)
    if item["left"] > 1:
        effects.push_front(ctx, [{**item, "left": item["left"] - 1}])


# --- the clues and the Draakhorn ------------------------------------------------------------------------

@effects.step("h26_clue")
def _clue(ctx, task, item):
    c = counters(ctx)
    c[CLUES] = max(0, c.get(CLUES, 0) - 1)
    ctx.say(f"{ctx.name(task['player'])} finds a clue to the Draakhorn ({c[CLUES]} left).", kind="haunt")
    if c[CLUES] > 0:
        return
    stacks = [k for k in ("building", "street") if ctx.s["stacks"].get(k)]
    if not stacks:
        ctx.say("No building or street tile is left to reveal; the Draakhorn is found at the Elfsong Tavern.",
                kind="haunt")
        tk.place(ctx.s, HORN, TAVERN)
        return
    if len(stacks) == 1:
        reveal_horn(ctx, task["player"], stacks[0])
        return
    effects.ask(ctx, task["player"], "h26_stack", "reveal the top tile of which stack for the Draakhorn?",
                ["The building stack", "The street stack"], stacks=stacks)


@effects.decision("h26_stack")
def _decide_stack(ctx, pending, index):
    reveal_horn(ctx, pending["player"], pending["data"]["stacks"][index])


def horn_doors(ctx, tid: str) -> list[tuple[str, str, int]]:
    """(tile, side, rotation) of the open city doors nearest the Elfsong
    Tavern where the tile fits, any colour (Secrets of Survival, haunt 26,
    "How to Find a Clue")."""
    s = ctx.s
    near = distances(ctx, TAVERN)
    found = []
    for placed, side in bd.open_doorways(ctx.c, s["board"], "city"):
        square = bd.neighbour_square(s["board"][placed], side)
        fits = ctx_placements(ctx, tid, square, bd.OPPOSITE[side])
        if fits:
            found.append((near.get(placed, 99), placed, side, fits[0]))
    if not found:
        return []
    best = min(f[0] for f in found)
    return sorted([(p, sd, rot) for d, p, sd, rot in found if d == best], key=lambda d: (ctx.tile_name(d[0]), d[1]))


def ctx_placements(ctx, tid: str, square: tuple, entry: str) -> list[int]:
    options = moves.placements(ctx, tid, square, entry)
    fine = [o for o in options if not o[2]] or options
    return [o[0] for o in sorted(fine, key=lambda o: -o[1])]


def reveal_horn(ctx, pid: str, stack: str):
    s = ctx.s
    pile = s["stacks"][stack]
    for tid in list(pile):
        doors = horn_doors(ctx, tid)
        if not doors:
            continue
        if len(doors) == 1:
            join_horn(ctx, tid, doors[0])
            return
        effects.ask(ctx, pid, "h26_door", f"the {ctx.c.tiles[tid].name} is revealed: which of the doors nearest "
                    "the Elfsong Tavern does it join?", [f"The {ctx.tile_name(t)}'s {sd} door" for t, sd, _ in doors],
                    tile=tid, doors=[list(d) for d in doors])
        return
    ctx.say("No revealed tile can join the city; the Draakhorn is found at the Elfsong Tavern.", kind="haunt")
    tk.place(s, HORN, TAVERN)


@effects.decision("h26_door")
def _decide_door(ctx, pending, index):
    join_horn(ctx, pending["data"]["tile"], tuple(pending["data"]["doors"][index]))


def join_horn(ctx, tid: str, door: tuple):
    s = ctx.s
    placed, side, rot = door
    level, x, y = bd.neighbour_square(s["board"][placed], side)
    for pile in s["stacks"].values():
        if tid in pile:
            pile.remove(tid)
    s["board"][tid] = {"level": level, "x": x, "y": y, "rot": rot}
    tk.place(s, HORN, tid)
    ctx.say(f"The last clue leads to the {ctx.c.tiles[tid].name}, revealed and joined to the "
            f"{ctx.tile_name(placed)}'s {side} door: the Draakhorn lies there.", kind="discover", tile=tid)


@effects.step("h26_summon")
def _summon(ctx, task, item):
    s = ctx.s
    pid = task["player"]
    n = (seen(ctx).get("start_heroes") or 1)
    cleared = effects.make_roll(ctx, pid, max(1, n), "dice for the metallic dragon", kind="dice")
    c = counters(ctx)
    c[SUMMONS] = max(0, c.get(SUMMONS, 0) - 1)
    tk.place(s, OBSTACLE, TAVERN)
    ctx.say(f"A metallic dragon answers the Draakhorn and strikes at the green dragon ({c[SUMMONS]} more "
            "needed).", kind="haunt")
    steps = [{"do": "h26_cleanse", "left": cleared}]
    if c[SUMMONS] == 0:
        steps.append({"do": "h26_dragon_dies"})
    effects.push_front(ctx, steps)


@effects.step("h26_dragon_dies")
def _dragon_dies(ctx, task, item):
    s = ctx.s
    mine(ctx)["dead"] = True
    for t in [x for x in s["tokens"] if x["name"] == POISON]:
        tk.remove(s, t)
    ctx.say("The green dragon falls from the sky! Every Poison token is gone, and no more will be placed.",
            kind="haunt")


# --- looting, the Orb, the end of the traitor's turn --------------------------------------------------

@effects.step("h26_loot")
def _loot(ctx, task, item):
    s = ctx.s
    token = next((t for t in s["tokens"] if t["name"] == CHEST and t["tile"] == item["tile"] and not t.get("card")),
                 None)
    if token is None:
        return
    tk.remove(s, token)
    mine(ctx)["looted"] += 1
    ctx.say(f"{ctx.name(task['player'])} loots the Treasure Chest on the {ctx.tile_name(item['tile'])} "
            f"({len(chests(s))} left on the board).", kind="haunt")
    effects.push_front(ctx, [{"do": "draw", "deck": "item"}])


@effects.step("h26_take_orb")
def _take_orb(ctx, task, item):
    give_orb(ctx, task["player"], f"{ctx.name(task['player'])} takes the Orb of Dragonkind from "
                                  f"{ctx.name(item['from'])} instead of dealing damage.")


def give_orb(ctx, pid: str, text: str):
    s = ctx.s
    for t in [x for x in s["tokens"] if x["name"] == ORB]:
        tk.remove(s, t)
    mine(ctx)["orb"] = pid
    ctx.say(text, kind="haunt", player=pid)


@effects.step("h26_end_check")
def _end_check(ctx, task, item):
    """Traitor's Tome, haunt 26, "Looting the City": every chest looted,
    the turn ends on the House of Blood."""
    s = ctx.s
    pid = task["player"]
    if s["players"][pid]["alive"] and s["players"][pid]["tile"] == HOUSE and not chests(s) \
            and mine(ctx)["looted"] > 0:
        mine(ctx)["won"] = "The traitor has looted every Treasure Chest and ends the turn on the House of Blood."


def attempt(ctx, pid: str, trait: str | None, what: str):
    """A clue search, a blast of the Draakhorn, a loot or the Orb picked up
    (the declared moves; who, when and once a turn are checked at the door)."""
    s = ctx.s
    here = s["players"][pid]["tile"]
    if what == "orb":
        if orb_on_tile(s) != here:
            raise IllegalAction("The Orb of Dragonkind is not lying on your tile.")
        give_orb(ctx, pid, f"{ctx.name(pid)} picks up the Orb of Dragonkind.")
        return
    if what == "loot":
        if here not in chests(s):
            raise IllegalAction("There is no Treasure Chest on your tile.")
        target = LOOT_TARGET + heroes_on(s, here)
        steps = [{"do": "h26_loot", "tile": here}]
    elif what == "clue":
        if counters(ctx).get(CLUES, 0) <= 0:
            raise IllegalAction("Every clue has been found.")
        if here in poisoned(s):
            raise IllegalAction("You cannot search for clues on a tile with Poison.")
        target, steps = CLUE_TARGET, [{"do": "h26_clue"}]
    else:
        if horn_tile(s) != here:
            raise IllegalAction("The Draakhorn is not on your tile.")
        if seen(ctx).get("dead") or counters(ctx).get(SUMMONS, 0) <= 0:
            raise IllegalAction("The green dragon is already dead.")
        target, steps = HORN_TARGET, [{"do": "h26_summon"}]
    effects.queue(ctx, pid, [{"do": "roll", "trait": trait, "bands": [
        {"at_least": target, "then": steps}, {"at_most": target - 1, "then": []}]}], source="haunt", front=True)


@rulesets.register(26)
class CallOfTheDraakhorn(rulesets.RuleSet):
    title = "Call of the Draakhorn"

    def setup_step(self, ctx, step):
        mine(ctx)
        text = step.get("text", "")
        if step.get("do") == "manual" and "Poison" in text:
            first_poison(ctx)
            return True
        if step.get("do") == "manual" and ORB in text:
            mine(ctx)["orb"] = hp.traitors(ctx.s)[0]
            ctx.say("Setup: the Orb of Dragonkind lies on the traitor's card.", kind="haunt_setup")
            ctx.say("Your moves: {move:loot} on a Treasure Chest tile; with the Orb lost, an attack with "
                    "Knowledge on its holder may take it back.", kind="haunt_setup", to="traitors")
            ctx.say("Your moves: {move:clue} on a tile without Poison; {move:horn} on the Draakhorn's tile; an "
                    "attack with Knowledge on the Orb's holder may take it; {move:orb} picks up an Orb left on "
                    "your tile.", kind="haunt_setup", to="heroes")
            return True
        if step.get("label") == CHEST:
            count = hp.count_value(ctx, step.get("count", 1))
            mine(ctx)["placed"] = count
            ctx.say(f"Setup: {ctx.name(hp.chooser(ctx.s, 'traitor'))} places {count} Treasure Chests.",
                    kind="haunt_setup")
            effects.queue(ctx, hp.chooser(ctx.s, "traitor"), [{"do": "h26_chest_tiles", "step": step}],
                          source="haunt")
            return True
        return None

    def turn_started(self, ctx, pid):
        s = ctx.s
        if pid in hp.traitors(s) and not seen(ctx).get("dead"):
            n = (seen(ctx).get("start_heroes") or 1)
            ctx.say(f"The green dragon sprays Poison: {ctx.name(pid)} places up to {n} Poison tokens.",
                    kind="haunt", player=pid)
            effects.queue(ctx, pid, [{"do": "h26_poison", "left": n}], source="haunt")

    def turn_ending(self, ctx, pid):
        if pid in hp.traitors(ctx.s):
            return [{"do": "h26_end_check"}]
        return None

    def leaving(self, ctx, pid, tile):
        """Secrets of Survival, haunt 26, "Special Movement Rules"; the
        traitor is unaffected ("Dragon Caller")."""
        s = ctx.s
        if pid in hp.traitors(s) or tile not in poisoned(s):
            return None
        effects.queue(ctx, pid, [{"do": "roll", "trait": "speed", "bands": [
            {"at_least": POISON_TARGET, "then": []},
            {"at_most": POISON_TARGET - 1, "then": [{"do": "damage", "kind": "physical", "amount": 2}]}]}],
            source="haunt", front=True)
        return None

    def attack_traits(self, ctx, pid, weapon):
        """Both books, "Special Attack Rules": Knowledge against the Orb's
        holder, when it is on the other side."""
        holder = seen(ctx).get("orb")
        if weapon or holder is None or holder == pid or not ctx.s["players"][holder]["alive"]:
            return None
        if (pid in hp.traitors(ctx.s)) != (holder in hp.traitors(ctx.s)):
            return ["knowledge"]
        return None

    def attack_blocked(self, ctx, pid, target, trait, weapon):
        if trait == "knowledge" and not weapon and target != seen(ctx).get("orb") and not own_knowledge(ctx, pid):
            return "Knowledge attacks are only for taking the Orb of Dragonkind from whoever holds it."
        return None

    def damage_instead(self, ctx, attacker, loser, amount):
        if loser == seen(ctx).get("orb") and amount >= 2 and (attacker in hp.traitors(ctx.s)) != \
                (loser in hp.traitors(ctx.s)):
            return {"prompt": f"take the Orb of Dragonkind from {ctx.name(loser)}", "label": "Take the Orb",
                    "steps": [{"do": "h26_take_orb", "from": loser}]}
        return None

    def death(self, ctx, pid, killer):
        """Ruling: a dead holder's Orb stays on their tile for anyone to pick up."""
        s = ctx.s
        if seen(ctx).get("orb") == pid:
            mine(ctx)["orb"] = None
            tk.place(s, ORB, s["players"][pid]["tile"])
            ctx.say(f"The Orb of Dragonkind rolls onto the {ctx.tile_name(s['players'][pid]['tile'])}.",
                    kind="haunt")

    def win_check(self, ctx):
        s = ctx.s
        h = seen(ctx)
        if h.get("won"):
            return ("traitor", h["won"], "the chests looted")
        holder = h.get("orb")
        if h.get("dead") and holder and holder in hp.alive(s, hp.heroes(s)):
            return ("heroes", f"The green dragon is dead and {ctx.name(holder)} holds the Orb of Dragonkind.",
                    "the dragon slain")
        return None

    own = OWN
    moves = (
        rulesets.Move("clue", "Search for a Draakhorn clue", lambda ctx, pid, trait: attempt(ctx, pid, trait, "clue"),
                      traits=("knowledge",), who="heroes", once_per_turn=True,
                      summary="On a tile without Poison, a Knowledge roll of 5+ finds one of the clues."),
        rulesets.Move("horn", "Blow the Draakhorn", lambda ctx, pid, trait: attempt(ctx, pid, trait, "horn"),
                      traits=("knowledge",), who="heroes", once_per_turn=True,
                      summary="On the Draakhorn's tile, Knowledge 4+ calls a metallic dragon to clear Poison."),
        rulesets.Move("loot", "Loot a Treasure Chest", lambda ctx, pid, trait: attempt(ctx, pid, trait, "loot"),
                      traits=("knowledge", "speed"), who="traitors", once_per_turn=True,
                      summary="On a Treasure Chest tile, Knowledge or Speed 2+ (plus 1 per hero there) takes it "
                              "and draws an item."),
        rulesets.Move("orb", "Pick up the Orb of Dragonkind", lambda ctx, pid, trait: attempt(ctx, pid, trait, "orb"),
                      once_per_turn=True, summary="Takes the Orb of Dragonkind lying on your tile."),
    )

    def haunt_goals(self, ctx, pid):
        s = ctx.s
        h = seen(ctx)
        holder = h.get("orb")
        dropped = orb_on_tile(s)
        if pid in hp.traitors(s):
            if dropped:
                return {dropped}
            if holder and holder != pid:
                return {s["players"][holder]["tile"]}
            left = set(chests(s))
            if left:
                return left
            return {HOUSE}
        if dropped:
            return {dropped}
        if h.get("dead"):
            return {s["players"][holder]["tile"]} if holder and holder in hp.traitors(s) else set()
        horn = horn_tile(s)
        if horn:
            return {horn}
        if counters(ctx).get(CLUES, 0) > 0:
            bad = poisoned(s)
            return {t for t in s["board"] if t not in bad}
        return set()
