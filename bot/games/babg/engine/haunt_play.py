"""Playing the haunt: secret rules for each side, "ready", the haunt's setup,
the new turn order with the monster turn, monsters, death, the toolkit for
rules the bot does not automate, and the win checks (rulebook: The Haunt to
Winning the Game; Traitor's Tome; Secrets of Survival).

Entered from `turns.start_haunt` when the game's options ask to play the
haunt (`state["options"]["haunt"] == "play"`).
"""
import re

from . import board as bd
from . import effects, geometry, hooks, moves, rng, rulesets, words
from . import state as st
from . import traits as tr
from .errors import IllegalAction
from .turns import begin_turn
from .death import die  # noqa: F401  (re-exported)
from .reveal import reveal, rules_texts, send_secrets, side_book  # noqa: F401  (re-exported)
from .traitor import ignores_harm, offer_event_choice, without_harm  # noqa: F401  (re-exported)
from .sides import TRAITOR_KINDS, alive, controller, heroes, monster, side_of, traitors  # noqa: F401  (re-exported)

MONSTERS = "monsters"  # the monster turn's place in the turn order


def ready(ctx, pid: str):
    s, h = ctx.s, ctx.s["haunt"]
    if h.get("started", True):
        raise IllegalAction("The haunt has already begun.")
    if pid in h["ready"]:
        raise IllegalAction("You are already marked ready.")
    h["ready"].append(pid)
    waiting = [p for p in alive(s, s["seats"]) if p not in h["ready"]]
    ctx.say(f"{ctx.name(pid)} is ready ({len(h['ready'])} of {len(alive(s, s['seats']))}).", kind="haunt_ready")
    if not waiting:
        begin(ctx)


# --- setup and the order of play -----------------------------------------------------------

def begin(ctx):
    s, h = ctx.s, ctx.s["haunt"]
    h["started"] = True
    haunt = ctx.c.haunts.get(h["number"])
    ctx.say(f"Everyone is ready: the haunt \"{h['title']}\" begins.", kind="haunt")
    if haunt:
        bring_named_tiles(ctx, haunt.raw.get("setup", []))
        for step in haunt.raw.get("setup", []):
            if step.get("part", 1) == 1:
                run_setup_step(ctx, step)
        if haunt.raw.get("turn_order"):
            h["turn_order"] = haunt.raw["turn_order"]
    s["order"] = turn_order(s)
    if s["queue"] or s["pending"]:  # the first turn begins once the setup's questions (where pieces go) are answered
        effects.queue(ctx, controller(s), [{"do": "_first_slot"}])
        return
    _first_slot(ctx, None, None)


@effects.step("_first_slot")
def _first_slot(ctx, task, item):
    s = ctx.s
    start_slot(ctx, s["order"][0], (s["turn"] or {}).get("number", s["haunt"].get("turns_before", 0)) + 1)


def bring_named_tiles(ctx, steps):
    """Ruling: a haunt whose setup names a tile that is not in play (a haunt
    chosen by the table rather than the chart) gets it at the first open
    door it fits, before the setup runs, so nothing of it is left undone."""
    for step in steps:
        at = step.get("at") or ""
        tid = at[5:] if at.startswith("tile:") else None
        if tid and tid not in ctx.s["board"]:
            doors = fetch_doors(ctx, tid)
            if doors:
                attach_fetched(ctx, tid, doors[0])


def turn_order(s: dict) -> list[str]:
    """Rulebook: Playing the Haunt: heroes from the traitor's left, then the
    traitor, then the monster turn. Without a single traitor: from the
    revealer's left, the monsters after the revealer."""
    h = s["haunt"]
    seats = s["seats"]
    if h.get("turn_order") == "traitors_first" and traitors(s) and heroes(s):
        # Traitor's Tome, haunt 9: the traitors from the hero's left, the monsters, then the hero(es)
        start = seats.index(heroes(s)[0]) + 1
        around = [seats[(start + k) % len(seats)] for k in range(len(seats))]
        return [p for p in around if p in traitors(s)] + [MONSTERS] + [p for p in around if p not in traitors(s)]
    if h.get("turn_order") == "revealer_first":  # the revealer plays again first, then to the left
        start = seats.index(h["revealer"])
        return [seats[(start + k) % len(seats)] for k in range(len(seats))] + [MONSTERS]
    if h["kind"] == "traitor" and traitors(s):
        t = traitors(s)[0]
        start = seats.index(t) + 1
        order = [seats[(start + k) % len(seats)] for k in range(len(seats))]  # ends with the traitor
        if h.get("turn_order") == "monsters_first":  # the monster turn opens play (Traitor's Tome, haunt 43)
            return [MONSTERS] + order
        return order + [MONSTERS]
    start = seats.index(h["revealer"]) + 1
    order = [seats[(start + k) % len(seats)] for k in range(len(seats))]  # ends with the revealer
    return order + [MONSTERS]


def start_slot(ctx, slot: str, number: int):
    """Begin the next living player's turn, or the monster turn."""
    s = ctx.s
    order = s["order"]
    i = order.index(slot)
    living = alive(s, s["seats"])  # with no adventurer left, monsters alone would take turns for ever
    for k in range(len(order) + 1 if living else 0):
        nxt = order[(i + k) % len(order)]
        if nxt == MONSTERS:
            if any(not m.get("dead") and not m.get("ally") for m in s["monsters"]):
                return begin_monster_turn(ctx, number)
            continue
        if s["players"][nxt]["alive"]:
            return begin_turn(ctx, nxt, number)
    check_wins(ctx)
    if s["phase"] == "haunt":
        finish(ctx, None, "Nobody is left to take a turn.", condition="nobody left")


@hooks.on("next_slot")
def _next_slot(ctx):
    """The haunt's default turn order takes over from the exploration's."""
    if ctx.s["phase"] == "haunt" and (ctx.s["haunt"] or {}).get("started"):
        next_slot(ctx)
        return True
    return None


def next_slot(ctx):
    s = ctx.s
    turn = s["turn"]
    current = MONSTERS if turn.get("monsters") else turn["player"]
    order = s["order"]
    start_slot(ctx, order[(order.index(current) + 1) % len(order)], turn["number"] + 1)


# --- the haunt's setup, carried out where it is mechanical ------------------------------------

COUNT_WORDS = ("heroes", "adventurers", "players", "traitors")


def count_value(ctx, expr) -> int | None:
    """Count forms from the haunt files: 3, "heroes", "2*adventurers",
    "heroes+1". Rulebook: Playing the Haunt (counts include the dead
    unless a haunt says otherwise). None when the form is not countable."""
    if isinstance(expr, int):
        return expr
    text = str(expr).replace(" ", "")
    s = ctx.s
    values = {"heroes": len(heroes(s)), "adventurers": len(s["seats"]), "players": len(s["seats"]),
              "traitors": len(traitors(s))}
    if not re.fullmatch(r"[0-9a-z+*/\-()]+", text):
        return None
    for word, n in values.items():
        text = text.replace(word, str(n))
    if not re.fullmatch(r"[0-9+*/\-()]+", text) or re.search(r"(?<!/)/(?!/)", text):
        return None
    return max(0, int(eval(text, {"__builtins__": {}}, {})))  # noqa: S307 - digits and + - * // only


def where(ctx, at: str) -> list[str]:
    s, h = ctx.s, ctx.s["haunt"]
    at = at or ""
    if at == "traitor" and traitors(s):
        return [s["players"][traitors(s)[0]]["tile"]]
    if at == "revealer":
        return [h["tile"]]
    if at == "adventurer_tiles":  # each tile with an adventurer on it, once (the traitor's too: nobody is told apart)
        return list(dict.fromkeys(s["players"][p]["tile"] for p in alive(s, s["seats"]) if st.on_board(s["players"][p])))
    if at == "each_hero":
        return [s["players"][p]["tile"] for p in alive(s, heroes(s))]
    if at in ("every_omen_tile", "every_item_tile"):  # `count` pieces on each of them
        return [t for t in s["board"] if ctx.c.tiles[t].symbol == at.split("_")[1]]
    if at.startswith("tile:") and at[5:] in s["board"]:
        return [at[5:]]
    return []


def monster_stats(ctx, name: str) -> dict | None:
    haunt = ctx.c.haunts.get(ctx.s["haunt"]["number"])
    for m in (haunt.raw.get("monster", []) if haunt else []):
        if m["name"].lower() == name.lower():
            return {t: m[t] for t in ("might", "speed", "knowledge", "sanity") if isinstance(m.get(t), int)}
    return None


def one_of_its_name(ctx, name: str) -> bool:
    """The haunt has just one monster of this name (its data's count is 1)."""
    haunt = ctx.c.haunts.get(ctx.s["haunt"]["number"])
    return any(m["name"].lower() == name.lower() and str(m.get("count")) == "1"
               for m in (haunt.raw.get("monster", []) if haunt else []))


def ask_monster_tile(ctx, player: str, kind: str, name: str, tiles: list[str], prompt: str):
    """A `name` monster on one of `tiles`: placed at once when there is just
    one, else `player` picks (the question `kind`, answered by the decision
    `monster_tile_answer` registers)."""
    if len(tiles) == 1:
        add_monster(ctx, name, tiles[0])
        return
    effects.ask(ctx, player, kind, prompt, [ctx.tile_name(t) for t in tiles], tiles=tiles)


def monster_tile_answer(kind: str, name: str):
    """Register the answer to a haunt's question `kind`: a `name` monster on
    the tile picked from the question's tiles."""
    @effects.decision(kind)
    def _answer(ctx, pending, index):
        add_monster(ctx, name, pending["data"]["tiles"][index])
    return _answer


def add_monster(ctx, name: str, tile: str) -> dict:
    s = ctx.s
    stats = monster_stats(ctx, name)
    if stats is None:
        raise IllegalAction(f"This haunt has no monster called {name}.")
    same = [m for m in s["monsters"] if m["name"] == name]
    number = 1 + len(same)
    monster = {"id": f"m{len(s['monsters']) + 1}", "name": name, "number": number, "tile": tile,
               "traits": stats, "stunned": False, "dead": False}
    if not same and one_of_its_name(ctx, name):
        monster["alone"] = True  # spoken of as "the Beholder", not "Beholder 1"
    for other in same:
        other.pop("alone", None)  # a second one after all: both go by their numbers from now on
    attacks = next((x.get("attacks") for x in ctx.c.haunts[s["haunt"]["number"]].raw.get("monster", [])
                    if x["name"].lower() == name.lower()), None)
    if attacks:
        monster["attacks"] = attacks  # the one trait it attacks with (and its targets defend with)
    ally = next((x.get("ally") for x in ctx.c.haunts[s["haunt"]["number"]].raw.get("monster", [])
                 if x["name"].lower() == name.lower()), None)
    if ally:
        monster["ally"] = ally  # an NPC on the heroes' side: the traitor's opponent, not the monster turn's
    moves = next((x.get("moves") for x in ctx.c.haunts[s["haunt"]["number"]].raw.get("monster", [])
                  if x["name"].lower() == name.lower()), None)
    if moves:
        monster["moves"] = moves  # a fixed move each monster turn, with no Speed roll
    s["monsters"].append(monster)
    if name not in s["haunt"]["placed"]:
        s["haunt"]["placed"].append(name)
    ctx.say(f"{st.monster_called(monster)} appears on the {ctx.tile_name(tile)}.", kind="monster",
            monster=monster["id"])
    return monster


def run_setup_step(ctx, step: dict):
    if hooks.first("setup_step", ctx, step):  # the haunt's own module carried it out
        return
    s, h = ctx.s, ctx.s["haunt"]
    do = step.get("do")
    side = step.get("side", "heroes")
    done = do == "hidden_tokens" and bool(h.get("hidden_tokens"))  # dealt at the reveal (reveal.start_haunt)
    if step.get("at") == "chosen" and do in PLACING:
        done = place_chosen(ctx, step)
    elif do == "fetch_tile":
        done = fetch_tile(ctx, step)
    elif do == "place_monster" and monster_stats(ctx, step.get("monster", "")) is not None:
        tiles, count = where(ctx, step.get("at", "")), count_value(ctx, step.get("count", 1))
        if tiles and count is not None:
            for i in range(count if step.get("at") not in ("each_hero", "adventurer_tiles") else len(tiles)):
                add_monster(ctx, step["monster"], tiles[i % len(tiles)])
            done = True
    elif do == "place_token":
        tiles, count = where(ctx, step.get("at", "")), count_value(ctx, step.get("count", 1))
        if tiles and count is not None:
            name = step.get("label") or step.get("token", "token")
            placed = count if step.get("at") != "each_hero" else len(tiles)
            if step.get("at") in ("every_omen_tile", "every_item_tile"):
                placed = count * len(tiles)
            for i in range(placed):
                s["tokens"].append({"name": name, "tile": tiles[i % len(tiles)]})
            # the board shows the tokens to all; the book's words stay with their side
            ctx.say(f"Setup: {placed} {name} token{'s' if placed != 1 else ''} placed.", kind="haunt_setup")
            if step.get("text"):
                ctx.say(f"Setup: {step['text']}", kind="haunt_setup", to=side_audience(s, side))
            done = True
    elif do == "set_counter":
        value = count_value(ctx, step.get("value", 0))
        if value is not None:
            h["counters"][step["counter"]] = value
            h.setdefault("counter_start", {})[step["counter"]] = value
            ctx.say(f"Setup: {step['counter']} starts at {value}.", kind="haunt_setup", to=side_audience(s, side))
            done = True
    elif do == "traits":  # the side's adventurers: traits back up to their start, then the gains
        for pid in alive(s, side_players(s, side)):
            restore_traits(ctx, pid, step.get("restore", []), step.get("gain", {}))
        done = True
    elif do == "move" and len(where(ctx, step.get("at", ""))) == 1:  # the side's figures on the board go to one tile
        tile = where(ctx, step["at"])[0]
        for pid in side_players(s, side):
            if st.on_board(s["players"][pid]):
                s["players"][pid]["tile"], s["players"][pid]["half"] = tile, None
        ctx.say(f"Setup: {'the heroes are' if side == 'heroes' else 'the traitor is'} put on the {ctx.tile_name(tile)}.",
                kind="haunt_setup", tile=tile)
        done = True
    if not done and step.get("text"):
        for pid in side_players(s, side):
            ctx.say(f"Setup for you to do by hand: {step['text']}", kind="by_hand", to=pid)


def restore_traits(ctx, pid: str, restore, gain: dict):
    """The haunts' usual "any of these traits below its starting value goes
    back up to it, then gain ..." for one adventurer."""
    p = ctx.s["players"][pid]
    tracks = ctx.c.adventurers[p["adventurer"]].tracks
    for trait in restore:
        if p["traits"][trait] < tracks[trait].start:
            tr.change(ctx, pid, trait, tracks[trait].start - p["traits"][trait])
    for trait, amount in gain.items():
        tr.change(ctx, pid, trait, amount)


# --- pieces a side places where it chooses ------------------------------------------------------

PLACING = ("place_monster", "place_token", "place_npc")
AMONG = ("catacomb", "city", "building", "street", "omen", "event", "item", "none")  # or "tile:<id>"
APART = ("heroes", "adventurers", "traitors", "same")


def chooser(s: dict, side: str) -> str:
    """Who picks for a side: the traitor's side is run by whoever runs the
    monsters; the heroes' choice goes to the haunt revealer when a hero (the
    table believes), else to the first living hero in seat order."""
    if side == "traitor":
        return controller(s)
    believed = [p for p in st.side_members(s, "heroes") if s["players"][p]["alive"]]
    revealer = s["haunt"]["revealer"]
    return revealer if revealer in believed else (believed or [controller(s)])[0]


def piece_name(step: dict) -> str:
    return step.get("monster") or step.get("label") or step.get("token", "token")


def place_chosen(ctx, step: dict) -> bool:
    """The book lets a side choose where its pieces go: that side's chooser
    is asked for each piece, among the tiles the step allows (`among`,
    `apart`, `farthest_from`)."""
    count = count_value(ctx, step.get("count", 1))
    if count is None or (step["do"] == "place_monster" and monster_stats(ctx, step["monster"]) is None):
        return False
    who = chooser(ctx.s, step.get("side", "heroes"))
    ctx.say(f"Setup: {ctx.name(who)} places {count} {piece_name(step)}{'s' if count != 1 else ''}.",
            kind="haunt_setup")
    if step.get("text"):
        ctx.say(f"Setup: {step['text']}", kind="haunt_setup", to=side_audience(ctx.s, step.get("side", "heroes")))
    effects.queue(ctx, who, [{"do": "_place_chosen", "step": step, "left": count, "of": count}])
    return True


def allowed_tiles(ctx, step: dict) -> list[str]:
    """The placed tiles a chosen piece may go on, nearest the book's order:
    the kinds it names, away from what it must avoid, the farthest ones."""
    s = ctx.s
    tiles = [t for t in s["board"] if not step.get("among") or any(_fits(ctx, t, kind) for kind in step["among"])]
    name = piece_name(step)
    before_apart = tiles
    for rule in step.get("apart", []):
        if rule == "same":
            taken = {m["tile"] for m in s["monsters"] if m["name"] == name and not m["dead"]} | \
                    {t["tile"] for t in s["tokens"] if t.get("name") == name}
        else:
            who = {"heroes": st.side_members(s, "heroes"), "traitors": traitors(s),
                   "adventurers": s["seats"]}[rule]
            taken = {s["players"][p]["tile"] for p in who if st.on_board(s["players"][p])}
        tiles = [t for t in tiles if t not in taken]
    if not tiles and step.get("apart_if_possible"):  # "1 per tile if possible": the limits give way
        tiles = before_apart
        if step.get("evenly") and tiles:  # "spread the rest as evenly as possible": the least crowded tiles
            crowd = {t: sum(1 for m in s["monsters"] if m["name"] == name and not m["dead"] and m["tile"] == t)
                     + sum(1 for x in s["tokens"] if x.get("name") == name and x["tile"] == t) for t in tiles}
            tiles = [t for t in tiles if crowd[t] == min(crowd.values())]
    far = step.get("farthest_from")
    if far and tiles:
        sources = [far[5:]] if far.startswith("tile:") else \
            [s["players"][p]["tile"] for p in (st.side_members(s, "heroes") if far == "heroes" else s["seats"])
             if st.on_board(s["players"][p])]
        reach = [geometry.distances(ctx, src) for src in sources if src in s["board"]]
        gap = {t: min((d.get(t, 99) for d in reach), default=0) for t in tiles}
        tiles = [t for t in tiles if gap[t] == max(gap.values())]
    return sorted(tiles, key=lambda t: ctx.tile_name(t))


def _fits(ctx, tid: str, kind: str) -> bool:
    tile = ctx.c.tiles[tid]
    if kind.startswith("tile:"):
        return tid == kind[5:]
    return kind in (tile.level, tile.kind, tile.symbol)


def put_piece(ctx, step: dict, tile: str):
    name = piece_name(step)
    if step["do"] == "place_monster":
        add_monster(ctx, name, tile)
        return
    ctx.s["tokens"].append({"name": name, "tile": tile})
    ctx.say(f"{words.a(name, capital=True)} token is put on the {ctx.tile_name(tile)}.", kind="token", tile=tile)


@effects.step("_place_chosen")
def _place_chosen(ctx, task, item):
    step = item["step"]
    tiles = allowed_tiles(ctx, step)
    if not tiles:
        ctx.say(f"No tile is left for {piece_name(step)}: {item['left']} of them stay off the board.",
                kind="haunt_setup")
        return
    if len(tiles) == 1:
        put_piece(ctx, step, tiles[0])
        if item["left"] > 1:
            effects.push_front(ctx, [{**item, "left": item["left"] - 1}])
        return
    number = item["of"] - item["left"] + 1
    effects.ask(ctx, task["player"], "place_chosen", f"where does {piece_name(step)} {number} of {item['of']} go?",
                [ctx.tile_name(t) for t in tiles], tiles=tiles, item=item)


@effects.decision("place_chosen")
def _decide_place_chosen(ctx, pending, index):
    item = pending["data"]["item"]
    put_piece(ctx, item["step"], pending["data"]["tiles"][index])
    if item["left"] > 1:
        effects.push_front(ctx, [{**item, "left": item["left"] - 1}])


# --- a tile the haunt needs, fetched from its stack --------------------------------------------

def fetch_doors(ctx, tid: str) -> list[tuple[str, str, int]]:
    """(tile, side, rotation) for each open door of the tile's level it may
    join: doors of its own colour, or, for a building with no building door
    open, street doors (the haunts' usual "if there are no open building
    doors"). It is turned to join the most doorways without sealing the level."""
    s = ctx.s
    tile = ctx.c.tiles[tid]
    level = "catacomb" if tile.kind == "catacomb" else "city"
    found = {"building": [], "street": [], "catacomb": []}
    for placed, side in bd.open_doorways(ctx.c, s["board"], level):
        colour = bd.placed_doorways(ctx.c, s["board"], placed)[side]
        fits = moves.placements(ctx, tid, bd.neighbour_square(s["board"][placed], side), bd.OPPOSITE[side]) \
            if colour in found else []
        if fits:
            found[colour].append((placed, side, sorted(fits, key=lambda o: (o[2], -o[1]))[0][0]))
    doors = found[tile.kind] or (found["street"] if tile.kind == "building" else [])
    return sorted(doors, key=lambda d: (ctx.tile_name(d[0]), d[1]))


def fetch_tile(ctx, step: dict) -> bool:
    """A tile the haunt needs that is not in play is taken from its stack and
    joined to an open door the side's chooser picks; the stack is shuffled."""
    if step["tile"] in ctx.s["board"]:
        return True
    effects.queue(ctx, chooser(ctx.s, step.get("side", "heroes")), [{"do": "_fetch_tile", "tile": step["tile"]}],
                  source="haunt")
    return True


@effects.step("_fetch_tile")
def _fetch_tile(ctx, task, item):
    tid = item["tile"]
    if tid in ctx.s["board"]:
        return
    doors = fetch_doors(ctx, tid)
    if not doors:
        ctx.say(f"Setup: no open door can take the {ctx.c.tiles[tid].name}; it stays out of play.", kind="haunt_setup")
        return
    if len(doors) == 1:
        attach_fetched(ctx, tid, doors[0])
        return
    effects.ask(ctx, task["player"], "fetch_tile", f"which open door does the {ctx.c.tiles[tid].name} join?",
                [f"The {ctx.tile_name(t)}'s {side} door" for t, side, _ in doors], tile=tid,
                doors=[list(d) for d in doors])


@effects.decision("fetch_tile")
def _decide_fetch_tile(ctx, pending, index):
    attach_fetched(ctx, pending["data"]["tile"], tuple(pending["data"]["doors"][index]))


def attach_fetched(ctx, tid: str, door: tuple[str, str, int]):
    s = ctx.s
    placed, side, rot = door
    level, x, y = bd.neighbour_square(s["board"][placed], side)
    stack = ctx.c.tiles[tid].stack
    for pile in (s["stacks"], s["set_aside"]):
        if tid in pile.get(stack, []):
            pile[stack].remove(tid)
    s["board"][tid] = {"level": level, "x": x, "y": y, "rot": rot}
    s["stacks"][stack] = rng.shuffle(s, s["stacks"].get(stack, []))
    ctx.say(f"Setup: the {ctx.c.tiles[tid].name} is taken from the {stack} stack and joined to the "
            f"{ctx.tile_name(placed)}'s {side} door; the stack is shuffled.", kind="haunt_setup", tile=tid)


def side_audience(s: dict, side: str) -> str:
    """Where a side's setup words go: that side's players when the traitor is
    known; everyone when all read the same book (hidden traitor, no traitor)."""
    if s["haunt"]["kind"] not in TRAITOR_KINDS:
        return "all"
    return "traitors" if side == "traitor" else "heroes"


def side_players(s: dict, side: str) -> list[str]:
    if s["haunt"]["kind"] not in TRAITOR_KINDS:
        return list(s["seats"])
    return traitors(s) if side == "traitor" else heroes(s)


# --- monsters ---------------------------------------------------------------------------------

@effects.decision("monster_side")
def _decide_monster_side(ctx, pending, index):
    monster(ctx, pending["data"]["monster"])["half"] = ("north", "south")[index]


def hold_monster_turn(ctx) -> bool | None:
    """Begin the monster turn when it comes before the next living player's (for a haunt that holds it
    though no monster is on the board); None lets the usual order go on."""
    s = ctx.s
    turn, order = s["turn"], s["order"]
    i = order.index(turn["player"]) if turn["player"] in order else -1
    for k in range(1, len(order) + 1):
        slot = order[(i + k) % len(order)]
        if slot == MONSTERS:
            begin_monster_turn(ctx, turn["number"] + 1)
            return True
        if s["players"][slot]["alive"]:
            return None
    return None


def begin_monster_turn(ctx, number: int, title: str | None = None, same_round: bool = False):
    """Rulebook: How Monsters Work: one Speed roll per kind of monster (at
    least 1 space); stunned monsters miss this turn and recover at its end.
    A haunt that plays a monster's own turn this way names it (`title`, in
    place of "the monster turn") and, with `same_round`, keeps it in the
    round it closes (haunt 43: Stickleback's turn in the traitor's seat).
    The turn's announcement carries `title` and `round` for the adapters."""
    s = ctx.s
    if hooks.first("monster_turn", ctx, number):  # the haunt runs its monsters its own way
        return
    boss = controller(s)
    turn = st.new_turn(boss, number)
    s["round"] = (s.get("round") or 1) if same_round else st.next_round(s, MONSTERS)
    title = title or "the monster turn"
    turn.update({"monsters": True, "moves": {}, "acted": [], "attacked": [], "round": s["round"], "title": title})
    s["turn"] = turn
    ctx.say(f"Turn {number} (round {s['round']}): {title} ({ctx.name(boss)} moves the monsters).", kind="turn",
            player=boss, round=s["round"], title=title)
    # a monster the haunt keeps out of this turn (asked with its own tile) neither rolls nor recovers in it
    resting = {m["id"] for m in s["monsters"] if not m["dead"] and hooks.first("monster_blocked", ctx, m, m["tile"])}
    for name in dict.fromkeys(m["name"] for m in s["monsters"] if not m["dead"] and not m["stunned"]
                              and not m.get("ally") and m["id"] not in resting):
        first_one = next(m for m in s["monsters"] if m["name"] == name)
        if first_one.get("moves"):  # the haunt gives it a fixed move: no roll
            turn["moves"][name] = first_one["moves"]
            continue
        speed = first_one["traits"].get("speed", 0)
        total = effects.make_roll(ctx, boss, rng.dice_count(speed), f"Speed for the {name}s") if speed else 0
        turn["moves"][name] = max(1, total)
    turn["stunned_at_start"] = [m["id"] for m in s["monsters"] if m["stunned"] and not m.get("ally")
                                and m["id"] not in resting]


MONSTER_WAYS = (*bd.SIDES, "stairs", "grate")


def monster_way(ctx, m: dict, way: str) -> tuple[str, int, int]:
    """Where `way` takes the monster now, what it costs and what it has used
    this turn (rulebook: How Monsters Work; Moving Past Opponents), or
    IllegalAction. The one check behind the move and its button."""
    s = ctx.s
    turn = s["turn"]
    if m["stunned"]:
        raise IllegalAction(f"{st.monster_called(m)} is stunned and misses this turn.")
    if m["tile"] not in s["board"]:
        raise IllegalAction(f"{st.monster_called(m)} is not on the board.")
    here = ctx.c.tiles[m["tile"]]
    if way in bd.SIDES:
        dest = bd.exits(ctx.c, s["board"], m["tile"]).get(way)
        if dest is None:
            raise IllegalAction(f"No placed tile joins the {here.name} to the {way}; monsters cannot explore.")
        cost = 1
    elif way == "stairs" and here.stairs_to in s["board"]:
        dest, cost = here.stairs_to, 1 + here.stairs_extra_cost
    elif way == "grate" and here.sewer_grate:
        dest, cost = "catacomb_landing", 1
    else:
        raise IllegalAction(f"{st.monster_called(m)} cannot go {way} from the {here.name}.")
    why = hooks.first("monster_blocked", ctx, m, dest)  # a haunt's own limits (a level it never leaves ...)
    if why:
        raise IllegalAction(why)
    blockers = [p for p in alive(s, st.side_members(s, "heroes")) if st.beside(s, p, m)]
    if m.get("ally"):  # an NPC on the heroes' side is slowed by the known traitors instead
        blockers = [p for p in alive(s, traitors(s)) if st.known_traitor(s, p) and st.beside(s, p, m)]
    cost += max(0, len(blockers) + hooks.total("monster_leave_cost", ctx, m)) if blockers else 0  # Moving Past Opponents
    used = m.get("moved", 0) if m.get("moved_turn") == turn["number"] else 0
    allowance = turn["moves"].get(m["name"], 1)
    if used > 0 and used + cost > allowance:
        raise IllegalAction(f"{st.monster_called(m)} has {max(0, allowance - used)} of its "
                            f"{words.count(allowance, 'space')} left.")
    return dest, cost, used


def monster_move(ctx, pid: str, ref: str, way: str):
    m = monster(ctx, ref)
    dest, cost, used = monster_way(ctx, m, way)
    m["moved"], m["moved_turn"] = used + cost, ctx.s["turn"]["number"]
    watch = hooks.first("watched", ctx, m["id"], dest) or []
    effects.queue(ctx, pid, [*watch, {"do": "_monster_arrives", "monster": m["id"], "tile": dest}], front=True)


@effects.step("_monster_arrives")
def _monster_arrives(ctx, task, item):
    m = monster(ctx, item["monster"])
    m["tile"], m["half"] = item["tile"], None
    ctx.say(f"{st.monster_called(m)} moves to the {ctx.tile_name(item['tile'])}.", kind="monster_move",
            monster=m["id"], tile=item["tile"])
    if ctx.c.tiles[item["tile"]].barrier:  # Rulebook: Special Tiles: monsters ignore barriers; its master picks a side
        effects.ask(ctx, task["player"], "monster_side", f"which side of the {ctx.tile_name(item['tile'])}'s "
                    f"barrier is {st.monster_called(m)} on?", ["North half", "South half"], monster=m["id"])
    hooks.fire("entered", ctx, m["id"], item["tile"])


def slay(ctx, pid: str, ref: str):
    m = monster(ctx, ref)
    m["dead"] = True
    ctx.say(f"{ctx.name(pid)} takes {st.monster_called(m)} off the board: it is killed.", kind="monster",
            monster=m["id"])
    hooks.fire("monster_killed", ctx, m["id"])


def end_monster_turn(ctx):
    s = ctx.s
    for m in s["monsters"]:
        if m["id"] in s["turn"].get("stunned_at_start", []):
            m["stunned"] = False
            ctx.say(f"{st.monster_called(m)} recovers.", kind="monster")
    s["turn"]["ending"] = True
    for steps in hooks.fire("monster_turn_ending", ctx):  # what the haunt does as the monster turn ends
        effects.queue(ctx, s["turn"]["player"], steps)
    effects.queue(ctx, s["turn"]["player"], [{"do": "_next_turn"}])


# --- the win ------------------------------------------------------------------------------------

def check_wins(ctx):
    """Rulebook: Winning the Game: the first side to meet its goal wins; the
    heroes need one hero alive. Checks every countable condition."""
    s = ctx.s
    h = s.get("haunt")
    if s["phase"] != "haunt" or not h or not h.get("started", True) or h.get("winner") or h.get("flask_open"):
        return
    if h.get("claim") and not alive(s, h["claim"]["waiting"]):
        settle_claim(ctx)
        return
    own = hooks.first("win_check", ctx)  # (side or sides, why): a condition the haunt's module checks
    if own:
        finish(ctx, own[0], own[1], condition=own[2] if len(own) > 2 else "haunt rule")
        return
    haunt = ctx.c.haunts.get(h["number"])
    for win in (haunt.raw.get("win", []) if haunt else []):
        if win.get("part", 1) == 2 and win.get("side") not in h["part_two"]:
            continue
        if condition_met(ctx, win):
            finish(ctx, win["side"], win.get("text", ""), condition=win.get("when", "haunt rule"))
            return
    if heroes_lost(ctx):
        finish(ctx, "traitor", "Every hero is dead.", condition="every hero dead")


def heroes_lost(ctx) -> bool:
    """Rulings, "Every hero dead": the heroes need one of theirs alive to win
    (rulebook: Winning the Game), but their deaths are the traitor's win only
    where the haunt says so: its own win (data or module), a haunt without a
    traitor (nobody else is left to play), or a rule set that declares it."""
    s = ctx.s
    if not heroes(s) or alive(s, heroes(s)):
        return False
    ruleset = rulesets.active(ctx)
    return s["haunt"]["kind"] == "no_traitor" or bool(ruleset and ruleset.every_hero_dead_wins)


def goals_met(ctx) -> set[str]:
    """The sides whose goal is met now, whether or not a hero is left alive
    to enjoy it (for the Iron Flask's demon)."""
    s, h = ctx.s, ctx.s["haunt"]
    haunt = ctx.c.haunts.get(h["number"])
    sides = {win["side"] for win in (haunt.raw.get("win", []) if haunt else [])
             if (win.get("part", 1) == 1 or win.get("side") in h["part_two"])
             and condition_met(ctx, win, heroes_must_live=False)}
    if heroes_lost(ctx):
        sides.add("traitor")
    return sides


@effects.step("_flask_closes")
def _flask_closes(ctx, task, item):
    """Card Clarifications, Iron Flask of Tuerny: when the balor's attacks
    meet both sides' goals at once, the demon wins."""
    ctx.s["haunt"]["flask_open"] = False
    if {"traitor", "heroes"} <= goals_met(ctx):
        finish(ctx, "demon", "The balor from the Iron Flask of Tuerny has done both sides' work at once.",
               condition="the balor")


def condition_met(ctx, win: dict, heroes_must_live: bool = True) -> bool:
    s, h = ctx.s, ctx.s["haunt"]
    when = win.get("when")
    if when == "all_heroes_dead":
        return bool(heroes(s)) and not alive(s, heroes(s))
    if when == "traitor_dead":
        return bool(traitors(s)) and not alive(s, traitors(s)) and (bool(alive(s, heroes(s))) or not heroes_must_live)
    if when == "monster_dead":
        name = win.get("monster", "")
        return name in h["placed"] and not any(m["name"] == name and not m["dead"] for m in s["monsters"])
    if when == "counter_at":
        counter, target = win.get("counter"), count_value(ctx, win.get("value", 0))
        if counter not in h["counters"] or target is None:
            return False
        return compare(h["counters"][counter], win.get("op") or toward(h, counter, target), target)
    if when == "token_count":
        label = win.get("label") or win.get("token")
        on = win.get("on")
        pieces = s["tokens"] if win.get("token") != "monster" else \
            [m for m in s["monsters"] if not m["dead"]]  # token "monster": the living monsters of that name
        n = sum(1 for t in pieces if t["name"] == label and (not on or any(_fits(ctx, t["tile"], k) for k in on)))
        target = count_value(ctx, win.get("value", 0))
        if target is None:
            return False
        return compare(n, win.get("op", ">="), target)
    return False


def compare(n: int, op: str, target: int) -> bool:
    return {">=": n >= target, "<=": n <= target, "==": n == target}.get(op, False)


def toward(h: dict, counter: str, target: int) -> str:
    """A counter that must reach a value is met once it gets there or beyond,
    in the direction it runs from where it started (a count down to 0 is
    met at -1 too); with no known start, only the value itself."""
    start = h.get("counter_start", {}).get(counter)
    if start is None or start == target:
        return "=="
    return "<=" if start > target else ">="


def finish(ctx, side, why: str, reason: str | None = None, condition: str = "haunt rule",
           winners: list[str] | None = None, headline: str | None = None):
    """End the haunt. `side`: the winning side ("heroes", "traitor", ...),
    None for no winner, or a list of sides winning together (haunt 42: the
    heroes, with the traitor they freed). `reason` is how the game ended
    (won, ended, declared); `condition` names what ended it (a data win's
    `when`, a haunt module's rule, every hero dead, declared), carried by
    the closing event. `winners`: the players who won, where not the whole
    side (the last adventurer alive wins alone), with the `headline` said
    instead of the side's ("Cy wins alone!").

    The result (`s["result"]`) keeps one side in `winner` for every reader;
    sides winning together are listed in `sides` (the first is `winner`),
    with every player of those sides in `winners`."""
    s, h = ctx.s, ctx.s["haunt"]
    sides = list(dict.fromkeys(side)) if isinstance(side, (list, tuple)) else None
    if sides is not None:
        side = sides[0] if sides else None
        if len(sides) < 2:
            sides = None
    h["winner"] = side
    h["claim"] = None
    s["phase"] = "over"
    condition = "declared" if reason == "declared" else condition
    s["result"] = {"reason": reason or ("haunt_won" if side else "haunt_ended"), "winner": side,
                   "haunt": h["number"], "condition": condition}
    if sides:
        h["sides"] = s["result"]["sides"] = sides
        on_sides = {p for x in sides for p in side_players(s, x)}
        winners = [p for p in s["seats"] if p in on_sides] if winners is None else winners
    if winners is not None:
        s["result"]["winners"] = list(winners)
    for task in s["queue"]:  # an event still being read goes to the discards, not nowhere
        s["discard"]["event"] += [x["card"] for x in task["steps"] if x["do"] == "_settle_event"]
    s["queue"].clear()
    s["pending"] = None
    if side is None:
        ctx.say(f"The haunt ends without a winner. {why}".strip(), kind="over", winner=None, reason=condition)
        return
    if side == "demon":
        ctx.say(f"The demon wins! {why} Laughing at the mortals who thought they could use it, the balor "
                "vanishes in a howl of wind, back to the Abyss.", kind="over", winner=side, reason=condition)
        return
    told = {"sides": sides} if sides else {}
    if headline:
        who = headline
    elif sides:
        who = " and ".join(side_called(h, x) for x in sides) + " win together"
        who = who[:1].upper() + who[1:]
    elif side == "traitor":
        who = "The traitor wins" if h["kind"] in TRAITOR_KINDS else "The heroes are lost"
    else:
        who = "The heroes win"
    ctx.say(f"{who}! {why}".strip(), kind="over", winner=side, reason=condition, **told)
    haunt = ctx.c.haunts.get(h["number"])
    for won in sides or [side]:
        book = won if won == "traitor" else "heroes"
        for section in (haunt.raw.get(book, {}).get("section", []) if haunt else []):
            if section["heading"].lower().startswith("if you win"):
                ctx.say(section["text"].strip(), kind="over", winner=side, reason=condition, **told)


def side_called(h: dict, side: str) -> str:
    """A winning side's name in a closing line: "the heroes", "the traitor"."""
    if side == "traitor":
        return "the traitor" if len(h.get("traitors") or []) < 2 else "the traitors"
    return f"the {side}"


# --- the toolkit --------------------------------------------------------------------------------

def set_counter(ctx, pid: str, name: str, delta: int | None, value: int | None):
    counters = ctx.s["haunt"]["counters"]
    if not name:
        raise IllegalAction("Name the counter to change (for example the Beholder's hit points).")
    name = next((k for k in counters if k.lower() == name.lower()), name)  # the haunt's own spelling, any case
    old = counters.get(name, 0)
    counters[name] = value if value is not None else old + (delta or 0)
    ctx.say(f"{ctx.name(pid)} sets {name} to {counters[name]} (was {old}).", kind="counter")


def place_token(ctx, pid: str, name: str, tile: str | None, remove: bool):
    s = ctx.s
    tile = tile or s["players"][pid]["tile"]
    if tile not in s["board"]:
        raise IllegalAction("That tile is not in play.")
    if remove:
        for t in s["tokens"]:
            if t["name"].lower() == name.lower() and t["tile"] == tile:
                s["tokens"].remove(t)
                ctx.say(f"{ctx.name(pid)} removes {words.a(t['name'])} token from the {ctx.tile_name(tile)}.", kind="token")
                return
        raise IllegalAction(f"There is no {name} token on the {ctx.tile_name(tile)}.")
    s["tokens"].append({"name": name, "tile": tile})
    ctx.say(f"{ctx.name(pid)} puts {words.a(name)} token on the {ctx.tile_name(tile)}.", kind="token")


def declare(ctx, pid: str, side: str):
    """A player claims a win for a rule the bot does not check. Every other
    living player answers privately; one "no" and play goes on. Asking all
    of them, not "the other side", names nobody's side: a hidden traitor
    stays hidden and a no-traitor haunt still needs the table's word. The
    claim waits beside the game and never takes the place of a question."""
    s, h = ctx.s, ctx.s["haunt"]
    if side not in ("traitor", "heroes"):
        raise IllegalAction("Declare either the traitor's side or the heroes the winner.")
    if h.get("claim"):
        raise IllegalAction(f"{ctx.name(h['claim']['by'])}'s claim is still being answered.")
    others = [p for p in alive(s, s["seats"]) if p != pid]
    if not others:
        finish(ctx, side, f"Declared by {ctx.name(pid)}, the last adventurer standing.", reason="declared")
        return
    h["claim"] = {"side": side, "by": pid, "waiting": others}
    ctx.say(f"{ctx.name(pid)} claims that {WINNERS[side]} won, by a rule of the haunt the bot does not check. "
            "Each other player answers privately, yes or no; a single no and play goes on.",
            kind="claim", player=pid)


WINNERS = {"traitor": "the traitor's side has", "heroes": "the heroes have"}


def answer_claim(ctx, pid: str, agree: bool):
    h = ctx.s["haunt"]
    claim = h.get("claim")
    if not claim:
        raise IllegalAction("Nobody has claimed a win; there is nothing to confirm.")
    if pid not in claim["waiting"]:
        raise IllegalAction("You made this claim." if pid == claim["by"] else "You have already answered this claim.")
    if not agree:
        h["claim"] = None
        ctx.say("The claim is disputed: play goes on.", kind="claim")
        return
    claim["waiting"].remove(pid)
    settle_claim(ctx)


def settle_claim(ctx):
    """The claim wins once every living player asked has agreed (a player
    who dies meanwhile no longer counts)."""
    s, h = ctx.s, ctx.s["haunt"]
    claim = h.get("claim")
    if not claim:
        return
    claim["waiting"] = alive(s, claim["waiting"])
    if claim["waiting"]:
        ctx.say(f"An answer to the claim is in; {len(claim['waiting'])} still to answer.", kind="claim")
        return
    h["claim"] = None
    finish(ctx, claim["side"], f"Declared by {ctx.name(claim['by'])}; everyone else agreed.", reason="declared")


def reveal_part_two(ctx, pid: str):
    s, h = ctx.s, ctx.s["haunt"]
    book = side_book(s, pid)
    haunt = ctx.c.haunts.get(h["number"])
    if not haunt or not haunt.raw.get(book, {}).get("part_two_when"):
        raise IllegalAction("Your side's rules have no second part.")
    if book in h["part_two"]:
        raise IllegalAction("Your side's second part is already open.")
    ctx.say(f"{ctx.name(pid)}'s side opens the second part of its rules.", kind="haunt")
    open_part_two(ctx, book)


def open_part_two(ctx, book: str):
    """A side's second part opens (by its player's `part2`, or by the haunt's
    own rule): its members read it in private, then its part-two setup steps
    are carried out."""
    s, h = ctx.s, ctx.s["haunt"]
    haunt = ctx.c.haunts.get(h["number"])
    if book in h["part_two"] or not haunt:
        return
    h["part_two"].append(book)
    for other in s["seats"]:
        if side_book(s, other) == book:
            for text in rules_texts(ctx, haunt, other, part=2):
                ctx.say(text, kind="secret_rules", to=other)
    for step in haunt.raw.get("setup", []):
        if step.get("part", 1) == 2 and step.get("side", "heroes") == book:
            run_setup_step(ctx, step)




def reveal_hidden(ctx, pid: str):
    """Rulebook: Haunts With a Hidden Traitor: the traitor may turn the token
    numbered 1 face up at any time; nobody else may show a token."""
    h = ctx.s["haunt"]
    tokens = h.get("hidden_tokens") or {}
    if not tokens:
        raise IllegalAction("There is no hidden traitor in this haunt.")
    if 1 not in st.token_numbers(tokens.get(pid)):
        raise IllegalAction("Only the hidden traitor may turn a token face up.")
    if h.get("unmasked"):
        raise IllegalAction("You have already revealed yourself.")
    h["unmasked"] = True
    ctx.say(f"{ctx.who(pid)} turns over token 1: the hidden traitor stands revealed!", kind="haunt", player=pid)
    hooks.fire("traitor_named", ctx, pid)  # Rulebook: The Traitor's New Powers, from now on
