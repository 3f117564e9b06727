"""Haunt 43, Stickleback (Traitor's Tome and Secrets of Survival: the
adventurer with the highest Might is the traitor).

What the bot carries out:
- Setup: the traitor's adventurer dies (its item cards discarded, the figure
  off the board) and the Stickleback token takes its place (data); one Mind
  Tickler per adventurer, placed by the traitor in the book's cycle (an omen
  tile, an item tile, an event tile, again ...), never two on a tile while
  a tile of that kind is free; a Magical Ward on each omen tile and 2
  Mushrooms on each item tile (data).
- Play opens with the Mind Ticklers' monster turn (data: `turn_order =
  "monsters_first"`), then the heroes from the traitor's left, then the
  traitor's own turn, in which only Stickleback acts (Traitor's Tome,
  "Special Movement Rules": it moves in the traitor's turn); the Mind
  Ticklers act only in their monster turn. The dead traitor runs both.
  Ruling: Stickleback's turn is played as a monster turn in the traitor's
  seat, after the last hero.
- Mind Ticklers: no traits, so nothing can attack them; each moves up to 4
  tiles (data) and attacks only the lowest-Sanity hero on its tile with none attached: Sanity 4+ or it
  attaches to that hero's card; attached, it stays there until a Mushroom
  lets it go.
- Stickleback: blind, it may not move while no Mind Tickler is attached to
  a hero; besides its Might attack on its tile it may attack a hero up to 2
  tiles away with Sanity (a monster attack with the Sanity trait),
  taking no damage if it loses from another tile.
- A hero with a Mind Tickler attached rolls Sanity 4+ at the start of each
  turn, or takes 1 mental damage and may move only 1 space.
- A new omen tile gets a Ward, a new item tile 2 Mushrooms; a hero collects
  the Wards and Mushrooms of a tile on entering it or starting a turn there,
  and drops them there on dying.
- Eating a Mushroom: the declared move `eat` (4 dice, no trait; the rolled effect or any
  lower one, the hero's pick: anywhere on the board, a tile put on top of a
  stack, +1 Knowledge, the Mind Tickler stunned on the tile, 1 physical
  damage).
- Empowering the Rose Portal: the declared move `empower` on it (Knowledge
  3+, 4+ with Stickleback there), once a turn; the heroes win when the Wards there
  equal the adventurers at the start (data); the traitor when every hero
  is dead.

Left to the players: nothing the book prints.
"""
from .. import attack as at
from .. import effects, rng, rulesets
from .. import haunt_play as hp
from .. import marks as mk
from .. import moves
from .. import state as st
from .. import traits as tr
from ..cards import discard
from ..death import die
from ..errors import IllegalAction
from ..geometry import distances

STICKLEBACK, TICKLER = "Stickleback", "Mind Tickler"
WARD, MUSHROOM, SET_WARD = "Magical Ward", "Mushroom", "Empowered Ward"
PORTAL = "rose_portal"
COUNTER = "Magical Wards on the Rose Portal"
CYCLE = ("omen", "item", "event")
EXPLORE = "explore"  # a goal: discovering new tiles (hooks.POINTS["haunt_goals"])
REACH = 2  # tiles, Stickleback's Sanity attack
EFFECTS = (  # (lowest result, label), highest first: Secrets of Survival, "Eating a Mushroom"
    (8, "Hiccup and vanish: put your figure on any tile"),
    (7, "Glimpse the future: put a tile of your choice on top of its stack"),
    (5, "Feel smarter: gain 1 Knowledge"),
    (3, "The Mind Tickler lets go, stunned, onto your tile"),
    (0, "Poison Mushroom: take 1 physical damage"),
)


# known: the tiles seen so far; carry: {hero: {token name: n}}; attached: {hero: Mind Tickler id} (on the card);
# phase: "ticklers" in the Mind Ticklers' monster turn, "stickleback" in the traitor's turn (Stickleback's).
OWN = rulesets.Own("h43", {"known": [], "carry": {}, "attached": {}, "phase": "ticklers"},
                   players=("carry", "attached"))


def mine(ctx) -> dict:
    """This haunt's own state (written by steps and decisions only)."""
    return rulesets.REGISTRY[43].record(ctx.s)


def seen(ctx) -> dict:
    """The same, for reading (a legality check writes nothing)."""
    return ctx.s["haunt"].get("h43") or OWN.start


def carried(ctx, pid: str, what: str) -> int:
    return seen(ctx)["carry"].get(pid, {}).get(what, 0)


def alive_monsters(ctx, name: str) -> list[dict]:
    return [m for m in ctx.s["monsters"] if m["name"] == name and not m["dead"]]


def stickleback(ctx) -> dict | None:
    return next(iter(alive_monsters(ctx, STICKLEBACK)), None)


def attached_to(ctx, pid: str) -> dict | None:
    mid = seen(ctx).get("attached", {}).get(pid)
    return next((m for m in alive_monsters(ctx, TICKLER) if m["id"] == mid), None)


def holder(ctx, m: dict) -> str | None:
    """The hero a Mind Tickler is attached to, or None."""
    return next((pid for pid, mid in seen(ctx).get("attached", {}).items() if mid == m["id"]), None)


def let_go(ctx, pid: str, tile: str | None, half=None) -> dict | None:
    """The Mind Tickler attached to `pid` off their card, onto `tile`."""
    m = attached_to(ctx, pid)
    mine(ctx).setdefault("attached", {}).pop(pid, None)
    if m:
        m["tile"], m["half"] = tile, half
    return m


def in_turn(ctx, m: dict) -> str | None:
    """Why the monster does not act in this turn: the Mind Ticklers in
    their monster turn, Stickleback in the traitor's (Traitor's Tome,
    haunt 43: "Right Now", L2626; "Special Movement Rules", L2638)."""
    phase = seen(ctx).get("phase", "ticklers")
    if m["name"] == STICKLEBACK and phase != "stickleback":
        return "Stickleback acts in the traitor's own turn, after the heroes, not in the Mind Ticklers' monster turn."
    if m["name"] == TICKLER and phase == "stickleback":
        return "The Mind Ticklers act in their own monster turn, not in Stickleback's."
    return None


def living_heroes(ctx) -> list[str]:
    return hp.alive(ctx.s, hp.heroes(ctx.s))


# --- setup --------------------------------------------------------------------------------------

def tickler_tiles(ctx, number: int) -> list[str]:
    """Where Mind Tickler `number` (0-based) may go: a tile of its kind in
    the cycle without one; when every such tile has one, any of them.
    Ruling: a kind with no tile on the board is passed over for the next."""
    s = ctx.s
    taken = {m["tile"] for m in alive_monsters(ctx, TICKLER)}
    for k in range(len(CYCLE)):
        kind = CYCLE[(number + k) % len(CYCLE)]
        tiles = [t for t in s["board"] if ctx.c.tiles[t].symbol == kind]
        if tiles:
            free = [t for t in tiles if t not in taken]
            return sorted(free or tiles, key=ctx.tile_name)
    return sorted(s["board"], key=ctx.tile_name)


@effects.step("h43_place_tickler")
def _place_tickler(ctx, task, item):
    number = item["of"] - item["left"]
    tiles = tickler_tiles(ctx, number)
    if item["left"] > 1:
        task["steps"].insert(0, {**item, "left": item["left"] - 1})
    hp.ask_monster_tile(ctx, task["player"], "h43_tickler_tile", TICKLER, tiles, f"where does Mind Tickler "
                        f"{number + 1} of {item['of']} go (by the cycle, an {CYCLE[number % 3]} tile)?")


hp.monster_tile_answer("h43_tickler_tile", TICKLER)


def consumed(ctx):
    """Traitor's Tome, haunt 43, "Right Now": the adventurer is dead and its
    items are discarded; Stickleback takes the figure's place."""
    s = ctx.s
    pid = hp.traitors(s)[0]
    p = s["players"][pid]
    for cid in [c for c in p["cards"] if ctx.c.cards[c].deck == "item"]:
        discard(ctx, cid, quiet=True)
    mine(ctx)["known"] = sorted(s["board"])
    die(ctx, pid, "consumed by Stickleback, whose token takes the figure's place")
    ctx.say("Setup: heroes collect the Magical Wards and Mushrooms of a tile on entering it (or starting a turn "
            "there). {move:eat} eats a Mushroom; on the Rose Portal, {move:empower} sets a Ward there.",
            kind="haunt_setup", to="heroes")
    ctx.say("Setup: in the Mind Ticklers' monster turn, a Mind Tickler's attack tries to attach it to a hero on its "
            "tile; in your own turn, after the heroes, Stickleback moves and attacks, with Sanity a hero up to 2 "
            "tiles away.", kind="haunt_setup", to="traitors")


# --- what the heroes carry ----------------------------------------------------------------------

def collect(ctx, pid: str, tile: str):
    s = ctx.s
    found = [t for t in s["tokens"] if t["tile"] == tile and t["name"] in (WARD, MUSHROOM)]
    if not found:
        return
    bag = mine(ctx)["carry"].setdefault(pid, {})
    for token in found:
        s["tokens"].remove(token)
        bag[token["name"]] = bag.get(token["name"], 0) + 1
    ctx.say(f"{ctx.name(pid)} collects {len(found)} token{'s' if len(found) != 1 else ''} on the "
            f"{ctx.tile_name(tile)}: now carrying {bag.get(WARD, 0)} Magical Ward(s) and {bag.get(MUSHROOM, 0)} "
            "Mushroom(s).", kind="haunt", player=pid)


def seed_new_tile(ctx, tile: str):
    """Secrets of Survival, "Discovering New Tiles"."""
    h = mine(ctx)
    if tile in h["known"]:
        return
    h["known"].append(tile)
    symbol = ctx.c.tiles[tile].symbol
    if symbol in ("omen", "item"):
        name, n = (WARD, 1) if symbol == "omen" else (MUSHROOM, 2)
        for _ in range(n):
            ctx.s["tokens"].append({"name": name, "tile": tile})
        ctx.say(f"{n} {name} token{'s' if n != 1 else ''} appear{'s' if n == 1 else ''} on the new "
                f"{ctx.tile_name(tile)}.", kind="token", tile=tile)


@effects.step("h43_empowered")
def _empowered(ctx, task, item):
    pid = task["player"]
    s = ctx.s
    mine(ctx)["carry"][pid][WARD] -= 1
    s["tokens"].append({"name": SET_WARD, "tile": PORTAL})
    counters = s["haunt"]["counters"]
    counters[COUNTER] = counters.get(COUNTER, 0) + 1
    ctx.say(f"{ctx.name(pid)} sets a Magical Ward on the Rose Portal ({counters[COUNTER]} of "
            f"{len(s['seats'])}).", kind="haunt", player=pid)


@effects.step("h43_attach")
def _attach(ctx, task, item):
    m = at.monster_by_id(ctx, item["monster"])
    pid = task["player"]
    if m["dead"] or attached_to(ctx, pid) or holder(ctx, m) or not ctx.s["players"][pid]["alive"]:
        return
    mine(ctx).setdefault("attached", {})[pid] = m["id"]
    m["tile"], m["half"] = None, None
    ctx.say(f"Mind Tickler {m['number']} attaches itself to {ctx.name(pid)}.", kind="monster", monster=m["id"])


@effects.step("h43_tickled")
def _tickled(ctx, task, item):
    pid = task["player"]
    mk.add(ctx, pid, "move_cap", cap=1, armed=True)
    ctx.say(f"{ctx.name(pid)} may move only 1 space this turn.", kind="haunt", player=pid)


@rulesets.register(43)
class Stickleback(rulesets.RuleSet):
    title = "Stickleback"

    def setup_step(self, ctx, step):
        if step.get("at") in ("every_omen_tile", "every_item_tile") and not hp.where(ctx, step["at"]):
            return True  # no such tile yet: the new ones get theirs when discovered
        if step.get("do") == "manual" and step.get("side") == "traitor":
            consumed(ctx)
            return True
        if step.get("monster") == TICKLER:
            count = hp.count_value(ctx, step.get("count", 1))
            ctx.say(f"Setup: {ctx.name(hp.controller(ctx.s))} places {count} Mind Ticklers (omen, item, event "
                    "tile, and again).", kind="haunt_setup")
            effects.queue(ctx, hp.controller(ctx.s), [{"do": "h43_place_tickler", "left": count, "of": count}])
            return True
        return None

    def turn_started(self, ctx, pid):
        """Secrets of Survival, "You Must Do This at the Start of Your Turn"."""
        s = ctx.s
        if pid not in hp.heroes(s) or not st.on_board(s["players"][pid]):
            return None
        collect(ctx, pid, s["players"][pid]["tile"])
        if attached_to(ctx, pid):
            ctx.say(f"{ctx.name(pid)} has a Mind Tickler attached: Sanity 4+, or 1 mental damage and only 1 "
                    "space of movement this turn.", kind="haunt", player=pid)
            effects.queue(ctx, pid, [{"do": "roll", "trait": "sanity", "bands": [
                {"at_least": 4, "then": []},
                {"at_most": 3, "then": [{"do": "h43_tickled"}, {"do": "damage", "kind": "mental", "amount": 1}]}]}],
                source="haunt", front=True)
        return None

    def entered(self, ctx, mover, tile):
        s = ctx.s
        if not s["haunt"].get("started") or mover not in s["players"] or mover not in hp.heroes(s):
            return None
        seed_new_tile(ctx, tile)
        collect(ctx, mover, tile)
        return None

    def death(self, ctx, pid, killer):
        """Ruling: a dead hero's Wards and Mushrooms stay on their tile, and
        their Mind Tickler drops there, free to attach again."""
        s = ctx.s
        if not s["haunt"].get("started") or pid not in hp.heroes(s):
            return None
        tile = s["players"][pid]["tile"]
        bag = mine(ctx)["carry"].pop(pid, {})
        for name, n in bag.items():
            s["tokens"] += [{"name": name, "tile": tile} for _ in range(n)]
        let_go(ctx, pid, tile)
        return None

    def monster_blocked(self, ctx, m, dest):
        if holder(ctx, m):
            return f"Mind Tickler {m['number']} is attached to {ctx.name(holder(ctx, m))}."
        why = in_turn(ctx, m)
        if why:
            return why
        if m["name"] == STICKLEBACK and dest != m["tile"] and \
                not any(holder(ctx, x) for x in alive_monsters(ctx, TICKLER)):
            return "Stickleback is blind: it cannot move while no Mind Tickler is attached to a hero."
        return None

    def monster_attack_blocked(self, ctx, m, target):
        return in_turn(ctx, m)

    def monster_where(self, s, m):
        """Where the status shows an attached Mind Tickler (bot.games.babg.text.status)."""
        pid = next((p for p, mid in (s["haunt"].get("h43") or {}).get("attached", {}).items() if mid == m["id"]),
                   None)
        return f"attached to {s['players'][pid]['name']}" if pid in s["players"] else None

    def next_slot(self, ctx):
        """Traitor's Tome, haunt 43, L2626 and L2638: the Mind Ticklers'
        monster turn, the heroes from the traitor's left, then the
        traitor's own turn, in which Stickleback acts (played as a monster
        turn in the traitor's seat), then the Mind Ticklers again."""
        s = ctx.s
        if not s["haunt"].get("started"):
            return None
        turn = s["turn"]
        h = mine(ctx)
        if turn.get("monsters"):
            if h.get("phase") == "stickleback":
                h["phase"] = "ticklers"
                hp.start_slot(ctx, hp.MONSTERS, turn["number"] + 1)
                return True
            return None
        order = s["order"]
        traitor = hp.traitors(s)[0] if hp.traitors(s) else None
        i = order.index(turn["player"])
        for k in range(1, len(order)):
            slot = order[(i + k) % len(order)]
            if slot == hp.MONSTERS:
                return None
            if slot == traitor and not s["players"][slot]["alive"]:
                if not stickleback(ctx):
                    return None
                h["phase"] = "stickleback"
                # the traitor's turn closes the heroes' round: announced as Stickleback's, in that round
                hp.begin_monster_turn(ctx, turn["number"] + 1, title="Stickleback's turn (the traitor's own turn: "
                                      "only Stickleback acts)", same_round=True)
                return True
            if s["players"][slot]["alive"]:
                return None
        return None

    def monster_attack(self, ctx, m, target, trait):
        if m["name"] == TICKLER:
            tickler_attack(ctx, m, target)
            return True
        if m["name"] == STICKLEBACK and (trait or "").lower() == "sanity":
            mind_attack(ctx, m, target)
            return True
        return None

    def haunt_actions(self, ctx, pid):
        """The monsters' own attacks for the buttons (a Mind Tickler's, and
        Stickleback's with Sanity from afar), each in its own turn."""
        s = ctx.s
        if not s["turn"].get("monsters"):
            return None
        found = []
        sb = stickleback(ctx)
        for hero in living_heroes(ctx):
            if sb and not in_turn(ctx, sb):
                found.append({"type": "monster", "op": "attack", "monster": sb["id"], "target": hero,
                              "trait": "sanity"})
            for m in alive_monsters(ctx, TICKLER):
                if m["tile"] == s["players"][hero]["tile"] and not in_turn(ctx, m):
                    found.append({"type": "monster", "op": "attack", "monster": m["id"], "target": hero})
        return found

    own = OWN
    moves = (
        rulesets.Move("eat", "Eat a Mushroom", lambda ctx, pid, trait: eat(ctx, pid), who="heroes",
                      allowed=lambda ctx, pid: None if st.on_board(ctx.s["players"][pid]) else
                      "You are not on the board.",
                      summary="Eat a Mushroom you carry: 4 dice, then the rolled effect or any lower one."),
        rulesets.Move("empower", "Empower the Rose Portal", lambda ctx, pid, trait: empower(ctx, pid, trait),
                      traits=("knowledge",), who="heroes", once_per_turn=True,
                      summary="On the Rose Portal, Knowledge 3+ (4+ with Stickleback there) sets a Ward you carry "
                              "there for good."),
    )

    def haunt_goals(self, ctx, pid):
        """Wards to the Rose Portal (found by exploring while it is not on
        the board); without one, the nearest Ward; with a Mind Tickler, a
        Mushroom."""
        s = ctx.s
        if pid not in hp.heroes(s):
            return None
        wards = {t["tile"] for t in s["tokens"] if t["name"] == WARD}
        if attached_to(ctx, pid) and not carried(ctx, pid, MUSHROOM):
            wards |= {t["tile"] for t in s["tokens"] if t["name"] == MUSHROOM}
        if carried(ctx, pid, WARD):  # the nearest of the portal and more Wards
            return wards | ({PORTAL} if PORTAL in s["board"] else {EXPLORE})
        return wards or {EXPLORE}  # no Ward left to pick up: new omen tiles (and the portal) are found by exploring


# --- the monsters' attacks ----------------------------------------------------------------------

def tickler_attack(ctx, m: dict, target: str):
    """Traitor's Tome, "Special Mind Tickler Attack Rules"."""
    s = ctx.s
    if m["stunned"]:
        raise IllegalAction(f"Mind Tickler {m['number']} is stunned.")
    if holder(ctx, m):
        raise IllegalAction(f"Mind Tickler {m['number']} is already attached to {ctx.name(holder(ctx, m))}.")
    why = in_turn(ctx, m)
    if why:
        raise IllegalAction(why)
    if m["id"] in s["turn"]["attacked"]:
        raise IllegalAction(f"Mind Tickler {m['number']} has already attacked this turn.")
    if target not in living_heroes(ctx) or not st.beside(s, target, m):
        raise IllegalAction("A Mind Tickler attacks a hero on its tile.")
    free = [p for p in living_heroes(ctx) if st.beside(s, p, m) and not attached_to(ctx, p)]
    if target not in free:
        raise IllegalAction(f"{ctx.name(target)} already has a Mind Tickler attached.")
    low = min(ctx.value(p, "sanity") for p in free)
    if ctx.value(target, "sanity") != low:
        raise IllegalAction("A Mind Tickler goes after the hero on its tile with the lowest Sanity.")
    s["turn"]["attacked"].append(m["id"])
    ctx.say(f"Mind Tickler {m['number']} reaches for {ctx.name(target)}'s mind: Sanity 4+ to resist.",
            kind="attack")
    effects.queue(ctx, target, [{"do": "roll", "trait": "sanity", "bands": [
        {"at_least": 4, "then": []},
        {"at_most": 3, "then": [{"do": "h43_attach", "monster": m["id"]}]}]}], source="haunt", front=True)


def mind_attack(ctx, m: dict, target: str):
    """Traitor's Tome, "Special Attack Rules": Sanity against Sanity, at a
    hero up to 2 tiles away; losing from another tile costs nothing."""
    s = ctx.s
    if m["stunned"]:
        raise IllegalAction("Stickleback is stunned and cannot attack.")
    if m["id"] in s["turn"]["attacked"]:
        raise IllegalAction("Stickleback has already attacked this turn.")
    why = in_turn(ctx, m)
    if why:
        raise IllegalAction(why)
    if target not in living_heroes(ctx) or not st.on_board(s["players"][target]):
        raise IllegalAction("Stickleback attacks the heroes.")
    there = s["players"][target]["tile"]
    if distances(ctx, m["tile"]).get(there, 99) > REACH:
        raise IllegalAction(f"{ctx.name(target)} is more than 2 tiles from Stickleback.")
    if there == m["tile"] and not st.beside(s, target, m):
        raise IllegalAction(f"{ctx.name(target)} is on the other side of the barrier.")
    why = at.shielded(ctx, target)
    if why:
        raise IllegalAction(why)
    s["turn"]["attacked"].append(m["id"])
    ctx.say(f"Stickleback assails {ctx.name(target)}'s mind (Sanity).", kind="attack")
    a = effects.make_roll(ctx, hp.controller(s), rng.dice_count(m["traits"]["sanity"]), "Sanity for Stickleback",
                          kind="contest")
    d = at.defence_roll(ctx, target, "sanity", ctx.value(target, "sanity"))
    s["haunt"]["last_attacker"] = m["id"]
    effects.queue(ctx, target, [at.roll_off(m["id"], target, "sanity", a, d, there != m["tile"]),
                                {"do": "_attack_over"}], source="attack", front=True)


# --- the heroes' actions ------------------------------------------------------------------------

def eat(ctx, pid: str):
    """Secrets of Survival, "Eating a Mushroom"."""
    if not carried(ctx, pid, MUSHROOM):
        raise IllegalAction("You carry no Mushroom.")
    mine(ctx)["carry"][pid][MUSHROOM] -= 1
    ctx.say(f"{ctx.name(pid)} eats a Mushroom.", kind="haunt", player=pid)
    total = effects.make_roll(ctx, pid, 4, "4 dice for the Mushroom")
    options = [(low, label) for low, label in EFFECTS if low <= total]
    effects.ask(ctx, pid, "h43_mushroom", f"the Mushroom rolled {total}: which effect (that one or a lower one)?",
                [label for _, label in options], effects=[low for low, _ in options])


@effects.decision("h43_mushroom")
def _decide_mushroom(ctx, pending, index):
    pid = pending["player"]
    s = ctx.s
    effect = pending["data"]["effects"][index]
    if effect == 8:
        tiles = sorted(s["board"], key=ctx.tile_name)
        effects.ask(ctx, pid, "h43_vanish", "which tile do you reappear on?", [ctx.tile_name(t) for t in tiles],
                    tiles=tiles)
    elif effect == 7:
        stacks = [k for k in ("building", "street", "catacomb") if s["stacks"].get(k)]
        if stacks:
            effects.ask(ctx, pid, "h43_stack", "which tile stack do you search?",
                        [k.capitalize() for k in stacks], stacks=stacks)
    elif effect == 5:
        tr.change(ctx, pid, "knowledge", 1)
    elif effect == 3:
        m = let_go(ctx, pid, s["players"][pid]["tile"], s["players"][pid].get("half"))
        if m:
            m["stunned"] = True
            ctx.say(f"Mind Tickler {m['number']} lets go of {ctx.name(pid)} and lies stunned on the "
                    f"{ctx.tile_name(m['tile'])}.", kind="monster", monster=m["id"])
        else:
            ctx.say("No Mind Tickler is attached: nothing happens.", kind="haunt")
    else:
        effects.queue(ctx, pid, [{"do": "damage", "kind": "physical", "amount": 1}], source="haunt", front=True)


@effects.decision("h43_vanish")
def _decide_vanish(ctx, pending, index):
    moves.place_on(ctx, pending["player"], pending["data"]["tiles"][index], verb="hiccups and reappears on")


@effects.decision("h43_stack")
def _decide_stack(ctx, pending, index):
    stack = pending["data"]["stacks"][index]
    tiles = sorted(ctx.s["stacks"][stack], key=ctx.tile_name)
    effects.ask(ctx, pending["player"], "h43_future", f"which {stack} tile goes on top of the stack?",
                [ctx.tile_name(t) for t in tiles], stack=stack, tiles=tiles)


@effects.decision("h43_future")
def _decide_future(ctx, pending, index):
    s = ctx.s
    stack, tile = pending["data"]["stack"], pending["data"]["tiles"][index]
    rest = rng.shuffle(s, [t for t in s["stacks"][stack] if t != tile])
    s["stacks"][stack] = [tile] + rest
    ctx.say(f"{ctx.name(pending['player'])} searches the {stack} stack, shuffles it and puts a tile of their "
            "choice on top.", kind="haunt")


def empower(ctx, pid: str, trait: str):
    """Secrets of Survival, "How to Empower the Rose Portal"."""
    s = ctx.s
    if trait != "knowledge":
        raise IllegalAction("Empowering the Rose Portal is a Knowledge roll.")
    if s["players"][pid]["tile"] != PORTAL:
        raise IllegalAction("You must be on the Rose Portal.")
    if not carried(ctx, pid, WARD):
        raise IllegalAction("You carry no Magical Ward.")
    sb = stickleback(ctx)
    target = 3 + (1 if sb and sb["tile"] == PORTAL else 0)
    effects.queue(ctx, pid, [{"do": "roll", "trait": "knowledge", "bands": [
        {"at_least": target, "then": [{"do": "h43_empowered"}]},
        {"at_most": target - 1, "then": []}]}], source="haunt", front=True)
