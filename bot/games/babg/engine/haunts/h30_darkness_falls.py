"""Haunt 30, Darkness Falls (Secrets of Survival; no traitor).

What the bot carries out:
- Setup: every token on the board and the cards lying with them are
  discarded; every city tile but the start tile is shuffled and laid face
  down in rings around the start tile (diagonals included), each joined to
  what is already laid (bot.games.babg.engine.city); every adventurer goes back to the
  Elfsong Tavern; the Time left track at heroes + 1 (data); the piles of
  spell components (Obstacle tokens) and Cultists, one each per hero.
- Searching the city: going through a doorway onto a face-down tile turns it
  face up, turned to join the doorway you came by and as many others as it
  can; on an item or omen tile a spell component is put there while the pile
  lasts, on an event tile a Cultist; then its card is drawn as for any
  discovery (an item when no omen is left), which ends the move; the same
  for a city tile drawn from a stack once the dark ones are gone. If the
  city is then sealed off (no face-up city tile with a doorway toward a
  face-down tile or an empty square), or face-up tiles are cut off, that
  tile goes back unseen and the first building tile (else street tile)
  with a doorway toward you that cuts nothing off takes its place; a
  face-down tile walled off moves to the first free square joined to the
  city.
- Spell components as items: the declared moves `pickup`, `drop` and
  `give` (to a hero on your tile), one action for each component a turn
  (a component picked up is not handed on or dropped that turn, one dropped
  is not picked up again); a dead hero's components drop on their tile.
- The Time left track drops 1 at the end of the haunt revealer's turn (when
  their turn would have come, if they are dead); at 0 the heroes lose.
- The Cultists' turn after the revealer's: one Speed roll for them all; each
  goes, within that many spaces over face-up tiles, to the tile that sees the
  most heroes, one with no hero on it where it can (the revealer picks
  between equals), then makes a Knowledge attack on every hero it can see;
  losing to a hero on another tile costs it nothing.
- Wins: every component on the Elfsong Tavern (lying there or held by a
  hero standing there) before the track reaches 0 (data counter).

Left to the players: nothing the book prints.
"""
from .. import attack, board as bd
from .. import cards as cd
from .. import city, effects, rng, rulesets, turns
from .. import geometry
from .. import haunt_play as hp
from .. import state as st
from .. import tokens as tk
from ..errors import IllegalAction

START = ("kitchen", "inner_chamber", "elfsong_tavern")
TAVERN = "elfsong_tavern"
COMPONENT = "Spell component"
CULTIST = "Cultist"
TIME, LEFT = "Time left", "Spell components not yet delivered"


OWN = rulesets.Own("h30", {"components": 0, "cultists": 0, "total": 0, "carried": {}, "fresh": None,
                           "used": {"turn": None, "by": None, "held": 0, "dropped": {}}},
                   players=("carried", "used"))


def mine(ctx) -> dict:
    return rulesets.REGISTRY[30].record(ctx.s)


# --- the dark city --------------------------------------------------------------------------------

def ring_cells(ctx, start: list[dict], count: int) -> list[tuple]:
    """Squares around the start tile, ring by ring (diagonals included),
    each ring from the north-west corner clockwise."""
    xs, ys = [p["x"] for p in start], [p["y"] for p in start]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    cells = []
    r = 1
    while len(cells) < count * 3 + 8:
        ring = []
        for x in range(x0 - r, x1 + r + 1):
            ring.append((x, y0 - r))
        for y in range(y0 - r + 1, y1 + r + 1):
            ring.append((x1 + r, y))
        for x in range(x1 + r - 1, x0 - r - 1, -1):
            ring.append((x, y1 + r))
        for y in range(y1 + r - 1, y0 - r, -1):
            ring.append((x0 - r, y))
        cells += ring
        r += 1
    return cells


def joinable(ctx, board: dict, cell: tuple, among=None) -> bool:
    """A face-down tile here would be joined to what is laid (of `among`,
    when named): a face-down neighbour, or a face-up neighbour with a
    doorway toward it."""
    squares = bd.grid(board)
    for side in bd.SIDES:
        other = squares.get(bd.neighbour_square({"level": "city", "x": cell[0], "y": cell[1]}, side))
        if other and (among is None or other in among) and \
                (board[other].get("face_down") or bd.OPPOSITE[side] in bd.placed_doorways(ctx.c, board, other)):
            return True
    return False


def darken(ctx):
    """Secrets of Survival, haunt 30, "Right Now"."""
    s = ctx.s
    for token in list(s["tokens"]):
        tk.remove(s, token)
        if token.get("card"):
            s["discard"][ctx.c.cards[token["card"]].deck].append(token["card"])
    board = s["board"]
    loose = [t for t, p in board.items() if p["level"] == "city" and t not in START]
    loose = rng.shuffle(s, sorted(loose))
    for t in loose:
        board.pop(t)
    cells = ring_cells(ctx, [board[t] for t in START if t in board], len(loose))
    for t in loose:
        cell = next(c for c in cells if ("city", *c) not in bd.grid(board) and joinable(ctx, board, c))
        board[t] = {"level": "city", "x": cell[0], "y": cell[1], "rot": 0, "face_down": True}
    for pid in s["seats"]:
        p = s["players"][pid]
        if p["alive"] and p["tile"]:
            p["tile"], p["half"] = TAVERN, None
    ctx.say(f"Darkness falls: {len(loose)} city tiles lie face down around the Elfsong Tavern, and every "
            "adventurer is back in the tavern.", kind="haunt_setup")


def sealed(ctx) -> bool:
    """No face-up city tile has a doorway toward a face-down tile or an empty square."""
    board = ctx.s["board"]
    squares = bd.grid(board)
    for t, p in board.items():
        if p["level"] != "city" or p.get("face_down"):
            continue
        for side in bd.placed_doorways(ctx.c, board, t):
            other = squares.get(bd.neighbour_square(p, side))
            if other is None or board[other].get("face_down"):
                return False
    return True


@effects.step("h30_reveal")
def _reveal(ctx, task, item):
    s = ctx.s
    tid = item["tile"]
    if not bd.face_down(s["board"], tid):
        return
    before = cut_up(ctx)
    city.turn_up(ctx, tid, entry=item.get("entry"))
    ctx.say(f"{ctx.name(task['player'])} finds the {ctx.c.tiles[tid].name} in the dark.", kind="discover", tile=tid)
    if (sealed(ctx) and any(p.get("face_down") for p in s["board"].values())) or not cut_up(ctx) <= before:
        tid = replace_dead_end(ctx, tid, item.get("entry"), before)
        for later in task["steps"]:  # the move under way now leads onto the new tile
            if later.get("do") == "_go" and later.get("to") == item["tile"]:
                later["to"] = tid
    rehome(ctx)
    mine(ctx)["fresh"] = tid


def rehome(ctx):
    """Ruling: a face-down tile that a tile turned up leaves with no way in
    moves to the first free square of the rings around the start tile that
    joins it to the city again (with whatever lies on it)."""
    s = ctx.s
    board = s["board"]
    for tid in sorted(city.stranded(ctx, board, "city"), key=ctx.tile_name):
        if not board[tid].get("face_down") or tid not in city.stranded(ctx, board, "city"):
            continue
        rest = {t: p for t, p in board.items() if t != tid}
        joined = {t for t, p in rest.items() if p["level"] == "city"} - city.stranded(ctx, rest, "city")
        cells = ring_cells(ctx, [board[t] for t in START if t in board], len(board))
        cell = next((c for c in cells if ("city", *c) not in bd.grid(rest) and joinable(ctx, rest, c, joined)), None)
        if cell:
            new = city.moved(board, tid, ("city", *cell), board[tid]["rot"])
            city.apply_board(ctx, new, "A face-down tile cut off in the dark is moved where it can be reached.")


def cut_up(ctx) -> set[str]:
    """The face-up city tiles cut off from the start tile."""
    board = ctx.s["board"]
    return {t for t in city.stranded(ctx, board, "city") if not board[t].get("face_down")}


def replace_dead_end(ctx, tid: str, entry: str | None, before: set | None = None) -> str:
    """No Dead Ends (and, by ruling, a tile that would cut face-up tiles off):
    the tile goes back unseen; the first building (else street) tile from
    the top of its stack with a doorway toward the mover that cuts nothing
    off takes its square."""
    s = ctx.s
    before = cut_up(ctx) if before is None else before
    place = s["board"].pop(tid)
    stack = ctx.c.tiles[tid].stack
    s["set_aside"].setdefault(stack, []).append(tid)
    for name in ("building", "street"):
        for new in list(s["stacks"].get(name, [])):
            if entry and not any(entry in bd.doorways(ctx.c.tiles[new], r) for r in range(4)):
                continue
            s["board"][new] = {**place, "rot": 0}
            city.turn_up(ctx, new, entry=entry)
            if not cut_up(ctx) <= before or (sealed(ctx) and any(p.get("face_down") for p in s["board"].values())):
                s["board"].pop(new)
                continue
            s["stacks"][name].remove(new)
            ctx.say(f"The {ctx.c.tiles[tid].name} would wall the city off: it is put aside and the "
                    f"{ctx.c.tiles[new].name} takes its place.", kind="discover", tile=new)
            return new
    s["board"][tid] = place
    s["set_aside"][stack].remove(tid)
    return tid


def found_here(ctx, pid: str, tid: str):
    """The tile just turned up is discovered: its card ends the move."""
    symbol = ctx.c.tiles[tid].symbol
    if symbol in ("item", "omen", "event"):
        ctx.s["turn"]["stopped"] = True
        effects.queue(ctx, pid, [{"do": "_symbol_card", "deck": symbol}], source=tid, front=True)


def seed_tile(ctx, tid: str):
    """A component on an item or omen tile, a Cultist on an event tile, while
    the piles last."""
    s = ctx.s
    h = mine(ctx)
    symbol = ctx.c.tiles[tid].symbol
    if symbol in ("item", "omen") and h["components"] > 0:
        h["components"] -= 1
        tk.place(s, COMPONENT, tid)
        ctx.say(f"A spell component lies on the {ctx.tile_name(tid)}.", kind="haunt", tile=tid)
    if symbol == "event" and h["cultists"] > 0:
        h["cultists"] -= 1
        hp.add_monster(ctx, CULTIST, tid)


# --- spell components -------------------------------------------------------------------------------

def carried(ctx, pid: str) -> int:
    return mine(ctx)["carried"].get(pid, 0)


def carry(ctx, pid: str, n: int):
    held = mine(ctx)["carried"]
    held[pid] = held.get(pid, 0) + n
    if not held[pid]:
        held.pop(pid)


def recount(ctx):
    """The components not yet on the Elfsong Tavern (lying there or held by a
    hero standing there)."""
    s = ctx.s
    h = mine(ctx)
    there = sum(1 for t in s["tokens"] if t["name"] == COMPONENT and t["tile"] == TAVERN)
    there += sum(n for p, n in h["carried"].items() if s["players"][p]["alive"] and s["players"][p]["tile"] == TAVERN)
    s["haunt"]["counters"][LEFT] = h["total"] - there


def used(ctx, pid: str) -> dict:
    """This turn's spell components already moved (rulebook, "Use Item and
    Omen Cards": one action for each item a turn; Secrets of Survival,
    haunt 30, "Collecting Components": a component is moved as an item is):
    how many of the ones `pid` holds, and how many dropped on each tile."""
    h = mine(ctx)
    number = ctx.s["turn"]["number"]
    if h["used"].get("turn") != number or h["used"].get("by") not in (None, pid):
        h["used"] = {"turn": number, "by": pid, "held": 0, "dropped": {}}
    return h["used"]


def moved(ctx, pid: str, act):
    act(ctx, pid)
    recount(ctx)


def free_held(ctx, pid: str) -> int:
    return carried(ctx, pid) - used(ctx, pid)["held"]


def pickup(ctx, pid: str):
    s = ctx.s
    tile = s["players"][pid]["tile"]
    lying = [t for t in tk.on_tile(s, tile) if t["name"] == COMPONENT]
    if not lying:
        raise IllegalAction("No spell component lies on your tile.")
    u = used(ctx, pid)
    if len(lying) <= u["dropped"].get(tile, 0):
        raise IllegalAction("The spell components here were dropped this turn: each one takes a single action a "
                            "turn.")
    tk.remove(s, lying[0])
    carry(ctx, pid, 1)
    u["held"] += 1
    ctx.say(f"{ctx.name(pid)} picks up a spell component ({carried(ctx, pid)} held).", kind="haunt")


def spendable(ctx, pid: str):
    if not carried(ctx, pid):
        raise IllegalAction("You hold no spell component.")
    if free_held(ctx, pid) <= 0:
        raise IllegalAction("Each spell component you hold has already been moved this turn: one action for each a "
                            "turn.")


def drop(ctx, pid: str, n: int = 1, forced: bool = False):
    """Leave `n` components on the tile: an action with one of them, or,
    `forced`, a dead hero's all falling."""
    if carried(ctx, pid) < n or n <= 0:
        raise IllegalAction("You hold no spell component.")
    tile = ctx.s["players"][pid]["tile"]
    if not forced:
        spendable(ctx, pid)
        u = used(ctx, pid)
        u["dropped"][tile] = u["dropped"].get(tile, 0) + n
    for _ in range(n):
        tk.place(ctx.s, COMPONENT, tile)
    carry(ctx, pid, -n)
    ctx.say(f"{ctx.name(pid)} leaves {n} spell component{'s' if n != 1 else ''} on the {ctx.tile_name(tile)}.",
            kind="haunt")


def companions(ctx, pid: str) -> list[str]:
    s = ctx.s
    p = s["players"][pid]
    if not st.on_board(p):
        return []
    return [o for o in st.players_on(s, p["tile"], beside=pid) if o != pid]


def give(ctx, pid: str, other: str):
    spendable(ctx, pid)
    if other not in companions(ctx, pid):
        raise IllegalAction("Nobody is on your tile to take it.")
    hand(ctx, pid, other)


@effects.decision("h30_give")
def _decide_give(ctx, pending, index):
    """A question left by an older version of this haunt (who takes it?)."""
    hand(ctx, pending["player"], pending["data"]["to"][index])


def hand(ctx, pid: str, other: str):
    carry(ctx, pid, -1)
    carry(ctx, other, 1)
    ctx.say(f"{ctx.name(pid)} hands a spell component to {ctx.name(other)}.", kind="haunt")
    recount(ctx)


# --- time and the Cultists ------------------------------------------------------------------------

@effects.step("h30_tick")
def _tick(ctx, task, item):
    tick(ctx)


def tick(ctx):
    counters = ctx.s["haunt"]["counters"]
    counters[TIME] = counters.get(TIME, 0) - 1
    ctx.say(f"The chanting grows louder: Time left drops to {counters[TIME]}.", kind="counter")
    hp.check_wins(ctx)


def heroes_seen(ctx, tid: str) -> int:
    s = ctx.s
    return sum(1 for p in hp.alive(s, hp.heroes(s)) if st.on_board(s["players"][p])
               and bd.line_of_sight(ctx.c, s["board"], tid, s["players"][p]["tile"]))


@effects.step("h30_cultist")
def _cultist(ctx, task, item):
    s = ctx.s
    m = next((x for x in s["monsters"] if x["id"] == item["monster"] and not x["dead"]), None)
    if m is None or m["stunned"]:
        return
    reach = {t: d for t, d in geometry.distances(ctx, m["tile"]).items()
             if d <= item["spaces"] and not bd.face_down(s["board"], t)}
    best = max(heroes_seen(ctx, t) for t in reach)
    tiles = [t for t in reach if heroes_seen(ctx, t) == best]
    empty = [t for t in tiles if not st.players_on(s, t)]
    tiles = sorted(empty or tiles, key=lambda t: (reach[t], ctx.tile_name(t)))
    if best == 0 or m["tile"] in tiles:
        go_and_strike(ctx, m, m["tile"] if best == 0 or m["tile"] in tiles else tiles[0])
        return
    if len(tiles) == 1:
        go_and_strike(ctx, m, tiles[0])
        return
    effects.ask(ctx, task["player"], "h30_cultist", f"where does Cultist {m['number']} go (each sees {best} "
                f"hero{'es' if best != 1 else ''})?", [ctx.tile_name(t) for t in tiles], tiles=tiles, monster=m["id"])


@effects.decision("h30_cultist")
def _decide_cultist(ctx, pending, index):
    m = next(x for x in ctx.s["monsters"] if x["id"] == pending["data"]["monster"])
    go_and_strike(ctx, m, pending["data"]["tiles"][index])


def go_and_strike(ctx, m: dict, tile: str):
    s = ctx.s
    if tile != m["tile"]:
        m["tile"], m["half"] = tile, None
        ctx.say(f"Cultist {m['number']} moves to the {ctx.tile_name(tile)}.", kind="monster_move", monster=m["id"],
                tile=tile)
    targets = [p for p in hp.alive(s, hp.heroes(s)) if st.on_board(s["players"][p])
               and bd.line_of_sight(ctx.c, s["board"], tile, s["players"][p]["tile"])
               and attack.shielded(ctx, p) is None]
    for hero in reversed(targets):
        ctx.say(f"Cultist {m['number']} attacks {ctx.name(hero)} with Knowledge.", kind="attack")
        a = effects.make_roll(ctx, hp.controller(s), rng.dice_count(m["traits"]["knowledge"]),
                              f"Knowledge for Cultist {m['number']}", kind="contest")
        d = attack.defence_roll(ctx, hero, "knowledge", ctx.value(hero, "knowledge"))
        s["haunt"]["last_attacker"] = m["id"]
        effects.queue(ctx, hero, [attack.roll_off(m["id"], hero, "knowledge", a, d, s["players"][hero]["tile"] != tile),
                                  {"do": "_attack_over"}], source="attack", front=True)


@effects.step("h30_end")
def _end(ctx, task, item):
    hp.end_monster_turn(ctx)


@rulesets.register(30)
class DarknessFalls(rulesets.RuleSet):
    title = "Darkness Falls"

    def setup_step(self, ctx, step):
        text = step.get("text", "")
        if step.get("do") != "manual":
            return None
        if "face down" in text:
            darken(ctx)
            return True
        if "Obstacle token" in text:
            n = len(hp.heroes(ctx.s))
            h = mine(ctx)
            h.update({"components": n, "cultists": n, "total": n})
            recount(ctx)
            ctx.say(f"Setup: {n} spell components and {n} Cultists wait in the dark. Walk through a doorway onto a "
                    "face-down tile to search it; {move:pickup}, {move:drop} and {move:give} move "
                    "spell components like items, one action for each component a turn.", kind="haunt_setup")
            return True
        return None

    def watched(self, ctx, mover, tile):
        """Stepping onto a face-down tile turns it up first."""
        s = ctx.s
        if mover not in s["players"] or not tile or not bd.face_down(s["board"], tile):
            return None
        here = s["board"][s["players"][mover]["tile"]]
        there = s["board"][tile]
        entry = next((bd.OPPOSITE[side] for side in bd.SIDES
                      if bd.neighbour_square(here, side) == (there["level"], there["x"], there["y"])), None)
        return [{"do": "h30_reveal", "tile": tile, "entry": entry}]

    def entered(self, ctx, mover, tile):
        h = mine(ctx)
        if mover in ctx.s["players"] and h["fresh"] == tile:
            h["fresh"] = None
            found_here(ctx, mover, tile)
        if mover in ctx.s["players"]:
            recount(ctx)

    def symbol_card(self, ctx, pid, tile, deck):
        """Ruling: every city tile discovered in the haunt, turned up or drawn
        from a stack, is searched: a component or a Cultist first, then its
        card (an item once the omens run out)."""
        s = ctx.s
        if tile in s["board"] and s["board"][tile]["level"] == "city":
            seed_tile(ctx, tile)
        if deck == "omen" and not s["decks"]["omen"]:
            cd.draw(ctx, pid, "item")
            return True
        return None

    def turn_ending(self, ctx, pid):
        if pid == ctx.s["haunt"]["revealer"]:
            return [{"do": "h30_tick"}]
        return None

    def next_slot(self, ctx):
        """The track still drops when a dead revealer's turn comes round;
        then the Cultists' turn."""
        s = ctx.s
        if not s["haunt"].get("started"):
            return None
        turn, order = s["turn"], s["order"]
        revealer = s["haunt"]["revealer"]
        i = order.index(hp.MONSTERS if turn.get("monsters") else turn["player"])
        for k in range(1, len(order) + 1):
            slot = order[(i + k) % len(order)]
            if slot == revealer and not s["players"][slot]["alive"]:
                tick(ctx)
                if s["phase"] != "haunt":
                    return True
            if slot == hp.MONSTERS:
                if any(m["name"] == CULTIST and not m["dead"] for m in s["monsters"]):
                    hp.begin_monster_turn(ctx, turn["number"] + 1)
                    return True
                continue
            if s["players"][slot]["alive"]:
                turns.begin_turn(ctx, slot, turn["number"] + 1)
                return True
        hp.check_wins(ctx)
        return True

    def monster_turn(self, ctx, number):
        s = ctx.s
        boss = hp.controller(s)
        turn = st.new_turn(boss, number)
        turn.update({"monsters": True, "moves": {}, "acted": [], "attacked": [],
                     "stunned_at_start": [m["id"] for m in s["monsters"] if m["stunned"]]})
        s["turn"] = turn
        ctx.say(f"Turn {number}: the Cultists' turn ({ctx.name(boss)} rolls for them).", kind="turn", player=boss)
        active = [m for m in s["monsters"] if m["name"] == CULTIST and not m["dead"] and not m["stunned"]]
        spaces = max(1, effects.make_roll(ctx, boss, rng.dice_count(4), "Speed for the Cultists")) if active else 0
        effects.queue(ctx, boss, [*[{"do": "h30_cultist", "monster": m["id"], "spaces": spaces} for m in active],
                                  {"do": "h30_end"}], source="haunt")
        return True

    def death(self, ctx, pid, killer):
        n = carried(ctx, pid)
        if n:
            drop(ctx, pid, n, forced=True)
        recount(ctx)

    own = OWN
    moves = (
        rulesets.Move("pickup", "Pick up a spell component", lambda ctx, pid, trait: moved(ctx, pid, pickup),
                      summary="Takes a spell component lying on your tile (one action for each component a turn)."),
        rulesets.Move("drop", "Drop a spell component", lambda ctx, pid, trait: moved(ctx, pid, drop),
                      summary="Leaves a spell component you hold on your tile."),
        rulesets.Move("give", "Hand a spell component over",
                      lambda ctx, pid, trait, target: moved(ctx, pid, lambda c, p: give(c, p, target)),
                      args=(rulesets.Arg("player", lambda ctx, pid: companions(ctx, pid), "To whom?"),),
                      summary="Gives a spell component you hold to another adventurer on your tile."),
    )

    def haunt_goals(self, ctx, pid):
        """Carry components home; else fetch one lying about; else search the
        face-down tiles."""
        s = ctx.s
        if carried(ctx, pid) and s["players"][pid]["tile"] != TAVERN:
            return {TAVERN}
        lying = {t["tile"] for t in s["tokens"] if t["name"] == COMPONENT and t["tile"] != TAVERN}
        if lying:
            return lying
        dark = {t for t, p in s["board"].items() if p.get("face_down")}
        return dark or {TAVERN}
