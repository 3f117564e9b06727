"""Haunt 50, Down to the Wire (Traitor's Tome and Secrets of Survival:
Tasha if in play and not the revealer, else the player on the revealer's
left).

What the bot carries out:
- Setup: the traitor picks an open door; the top tile of its stack is
  joined there and the traitor moves onto it (no card drawn). For each hero
  the traitor picks a trap (Arrow, Net Snare or Explosive) and gets a dud
  with it; the traitor puts each face down, one per tile. Only the traitor
  is told what lies under each token. Every hero moves 2 tiles nearer the
  haunt revealer by the shortest way. When no hero holds the Deck of Many
  Things at the reveal (a haunt the table chose), the revealer gets it.
- A hero on a tile with a trap cannot leave before trying to disable it
  (the declared move `disable`, Knowledge 5+ removes it, else it goes off)
  or to avoid it (`avoid`, Speed 5+ and they go on, the token stays; else
  their movement ends and it goes off). The traitor leaves such tiles freely.
- The traps: Arrow (2 dice + 1 physical damage, the token stays face up and
  must be faced again in later turns; the hero may still leave this turn);
  Net Snare (the hero cannot move and rolls 2 fewer dice attacking with
  Might or defending against Might; the declared move `break_free` once a
  turn, or another adventurer on the tile spends their action on `free`,
  naming the hero, Might 5+); Explosive (a Speed 4 attack on every adventurer
  on the tile, then 1 physical damage to every adventurer within 1 tile);
  duds are removed.
- Setting traps (the declared move `set_traps`, once a turn): the traitor
  picks the trap, then its tile and those of 2 duds, within 1 tile and
  free of tokens.
- The traitor wins by ending a turn on the Elfsong Tavern holding the Deck
  of Many Things, or when every hero is dead; the heroes by killing the
  traitor (data).

Left to the players: nothing the book prints.
"""
from .. import attack, effects, rulesets
from .. import board as bd
from .. import cards as cd
from .. import haunt_play as hp
from .. import moves
from .. import state as st
from .. import tokens as tk
from ..errors import IllegalAction
from ..geometry import distances, moves_from

TRAP, ARROW_UP = "Trap", "Arrow Trap"
ARROW, NET, BOOM = 2, 4, 6
KINDS = {ARROW: "Arrow Trap", NET: "Net Snare", BOOM: "Explosive Trap"}
DUD = 1
DECK, TAVERN = "deck_of_many_things", "elfsong_tavern"


OWN = rulesets.Own("h50", {"to_place": [], "netted": [], "delivered": False}, players=("netted",), secret=True)


def mine(ctx) -> dict:
    return rulesets.REGISTRY[50].record(ctx.s)


def traps(ctx, tile: str | None = None) -> list[dict]:
    return [t for t in ctx.s["tokens"] if t["name"] in (TRAP, ARROW_UP) and (tile is None or t["tile"] == tile)]


def traitor(ctx) -> str | None:
    return next(iter(hp.traitors(ctx.s)), None)


# --- setup --------------------------------------------------------------------------------------

def open_doors(ctx) -> list[tuple[str, str, str]]:
    s = ctx.s
    found = []
    for level in ("city", "catacomb"):
        for tid, side in bd.open_doorways(ctx.c, s["board"], level):
            stack = moves.stack_for(ctx, bd.placed_doorways(ctx.c, s["board"], tid)[side])
            if stack and s["stacks"].get(stack):
                found.append((tid, side, stack))
    return sorted(found, key=lambda d: (ctx.tile_name(d[0]), d[1]))


@effects.step("h50_hideout")
def _hideout(ctx, task, item):
    doors = open_doors(ctx)
    if not doors:
        ctx.say("Setup: no open door is left: the traitor stays put.", kind="haunt_setup")
        return
    effects.ask(ctx, task["player"], "h50_hideout", "which open door leads to your hideout (a new tile)?",
                [f"The {ctx.tile_name(t)}'s {side} door" for t, side, _ in doors], doors=[list(d) for d in doors])


@effects.decision("h50_hideout")
def _decide_hideout(ctx, pending, index):
    s = ctx.s
    tid, side, stack = pending["data"]["doors"][index]
    square = bd.neighbour_square(s["board"][tid], side)
    new = s["stacks"][stack].pop(0)
    options = moves.placements(ctx, new, square, bd.OPPOSITE[side])
    rot = max(options, key=lambda o: (not o[2], o[1]))[0]
    s["board"][new] = {"level": square[0], "x": square[1], "y": square[2], "rot": rot}
    pid = pending["player"]
    s["players"][pid]["tile"], s["players"][pid]["half"] = new, ("north" if ctx.c.tiles[new].barrier else None)
    ctx.say(f"Setup: the {ctx.tile_name(new)} is joined to the {ctx.tile_name(tid)}'s {side} door; "
            f"{ctx.name(pid)} slips away onto it.", kind="haunt_setup", tile=new, player=pid)


@effects.step("h50_pick")
def _pick(ctx, task, item):
    effects.ask(ctx, task["player"], "h50_pick", f"which trap do you set aside for hero {item['n']} "
                f"(with a dud)?", [KINDS[k] for k in (ARROW, NET, BOOM)])


@effects.decision("h50_pick")
def _decide_pick(ctx, pending, index):
    mine(ctx)["to_place"] += [(ARROW, NET, BOOM)[index], DUD]


def free_tiles(ctx, near: str | None = None) -> list[str]:
    s = ctx.s
    taken = {t["tile"] for t in traps(ctx)}
    tiles = [t for t in s["board"] if t not in taken]
    if near:
        reach = distances(ctx, near, doors_only=True)
        tiles = [t for t in tiles if reach.get(t, 99) <= 1]
    return sorted(tiles, key=ctx.tile_name)


@effects.step("h50_lay")
def _lay(ctx, task, item):
    """Put the next face-down token where the traitor says (1 per tile)."""
    left = mine(ctx)["to_place"]
    if not left:
        return
    tiles = free_tiles(ctx, item.get("near"))
    if not tiles:
        ctx.say(f"No free tile is left: {len(left)} token(s) stay unplaced.", kind="haunt")
        left.clear()
        return
    task["steps"].insert(0, item)
    what = KINDS.get(left[0], "dud")
    effects.ask(ctx, task["player"], "h50_lay", f"where does the next face-down token ({what}) go?",
                [ctx.tile_name(t) for t in tiles], tiles=tiles)


@effects.decision("h50_lay")
def _decide_lay(ctx, pending, index):
    tile = pending["data"]["tiles"][index]
    kind = mine(ctx)["to_place"].pop(0)
    tk.place(ctx.s, TRAP, tile, kind=kind)
    ctx.say(f"A face-down token is put on the {ctx.tile_name(tile)}.", kind="token", tile=tile)
    ctx.say(f"Under the token on the {ctx.tile_name(tile)}: {KINDS.get(kind, 'a dud')}.", kind="secret",
            to="traitors")


def closer(ctx, pid: str, goal: str, steps: int):
    """Move the hero `steps` tiles along a shortest way to `goal`."""
    s = ctx.s
    reach = distances(ctx, goal)
    start = s["players"][pid]["tile"]
    for _ in range(steps):
        here = s["players"][pid]["tile"]
        if here == goal or here not in reach:
            break
        nxt = sorted(((reach.get(t, 99), ctx.tile_name(t), t) for t, _ in moves_from(ctx, here)))
        if not nxt or nxt[0][0] >= reach[here]:
            break
        s["players"][pid]["tile"], s["players"][pid]["half"] = nxt[0][2], None
    if s["players"][pid]["tile"] != start:
        ctx.say(f"{ctx.name(pid)} closes in on the {ctx.tile_name(s['players'][pid]['tile'])}.", kind="move",
                player=pid, tile=s["players"][pid]["tile"])


# --- triggering ----------------------------------------------------------------------------------

@effects.step("h50_trigger")
def _trigger(ctx, task, item):
    """Traitor's Tome: "When a Trap Is Triggered"."""
    s = ctx.s
    pid, tile = task["player"], item["tile"]
    token = next(iter(traps(ctx, tile)), None)
    if token is None:
        return
    kind = ARROW if token["name"] == ARROW_UP else token.get("kind", DUD)
    mark_passed(ctx, pid, tile)
    if kind == ARROW:
        if token["name"] == TRAP:
            tk.remove(s, token)
            tk.place(s, ARROW_UP, tile)
        ctx.say(f"An Arrow Trap fires at {ctx.name(pid)}!", kind="haunt", player=pid)
        total = effects.make_roll(ctx, pid, 2, "2 dice for the arrows", kind="damage") + 1
        effects.push_front(ctx, [{"do": "damage", "kind": "physical", "amount": total}])
        return
    tk.remove(s, token)
    if kind == NET:
        if pid not in mine(ctx)["netted"]:
            mine(ctx)["netted"].append(pid)
        ctx.say(f"A Net Snare drops on {ctx.name(pid)}: they cannot move until they break free.", kind="haunt",
                player=pid)
        return
    if kind == BOOM:
        ctx.say(f"An Explosive Trap goes off on the {ctx.tile_name(tile)}!", kind="haunt", tile=tile)
        hits = []  # each adventurer's damage is their own task: one death does not cancel the others'
        for victim in [p for p in hp.alive(s, s["seats"]) if s["players"][p]["tile"] == tile]:
            hits += blast(ctx, pid, victim)
        reach = distances(ctx, tile, doors_only=True)
        for near in [p for p in hp.alive(s, s["seats"]) if reach.get(s["players"][p]["tile"], 99) <= 1]:
            hits.append((near, 1))
        for victim, amount in reversed(hits):
            effects.queue(ctx, victim, [{"do": "damage", "kind": "physical", "amount": amount}], source="haunt",
                          front=True)
        return
    ctx.say(f"The token on the {ctx.tile_name(tile)} is a dud.", kind="haunt", tile=tile)


def blast(ctx, pid: str, victim: str) -> list[tuple[str, int]]:
    """The Explosive Trap's Speed 4 attack on one adventurer."""
    a = effects.make_roll(ctx, pid, 4, "Speed 4 for the explosion", kind="contest")
    d = attack.defence_roll(ctx, victim, "speed", ctx.value(victim, "speed"))
    if a > d:
        ctx.say(f"The blast beats {ctx.name(victim)} {a} to {d}.", kind="attack")
        return [(victim, a - d)]
    ctx.say(f"{ctx.name(victim)} dives clear of the blast ({d} to {a}).", kind="attack")
    return []


def mark_passed(ctx, pid: str, tile: str):
    key = f"h50_passed:{tile}"
    turn = ctx.s["turn"]
    if turn and turn["player"] == pid and key not in turn["rolls"]:
        turn["rolls"].append(key)


@effects.step("h50_disabled")
def _disabled(ctx, task, item):
    token = next(iter(traps(ctx, item["tile"])), None)
    if token:
        tk.remove(ctx.s, token)
        ctx.say(f"{ctx.name(task['player'])} disables the trap on the {ctx.tile_name(item['tile'])}.", kind="haunt")


@effects.step("h50_avoided")
def _avoided(ctx, task, item):
    mark_passed(ctx, task["player"], item["tile"])
    ctx.say(f"{ctx.name(task['player'])} slips past the trap.", kind="haunt")


@effects.step("h50_stopped")
def _stopped(ctx, task, item):
    ctx.s["turn"]["stopped"] = True
    ctx.say(f"{ctx.name(task['player'])} stumbles into the trap: their movement ends.", kind="haunt")


@effects.step("h50_freed")
def _freed(ctx, task, item):
    who = item["who"]
    if who in mine(ctx)["netted"]:
        mine(ctx)["netted"].remove(who)
        ctx.say(f"{ctx.name(who)} breaks out of the net.", kind="haunt", player=who)


@effects.step("h50_delivered")
def _delivered(ctx, task, item):
    mine(ctx)["delivered"] = True


@effects.step("h50_set")
def _set(ctx, task, item):
    effects.ask(ctx, task["player"], "h50_set", "which trap do you set (with 2 duds)?",
                [KINDS[k] for k in (ARROW, NET, BOOM)])


@effects.decision("h50_set")
def _decide_set(ctx, pending, index):
    mine(ctx)["to_place"] = [(ARROW, NET, BOOM)[index], DUD, DUD]
    effects.push_front(ctx, [{"do": "h50_lay", "near": ctx.s["players"][pending["player"]]["tile"]}])


@rulesets.register(50)
class DownToTheWire(rulesets.RuleSet):
    title = "Down to the Wire"
    secret = ("h50",)                # what is still to be laid
    secret_token_fields = ("kind",)  # what lies under a face-down token

    def setup_step(self, ctx, step):
        s = ctx.s
        text = step.get("text", "")
        boss = traitor(ctx)
        if step.get("do") == "manual" and "open door" in text:
            if boss:
                effects.queue(ctx, boss, [{"do": "h50_hideout"}], source="haunt")
            return True
        if step.get("do") == "manual" and "stays in play" in text:
            return True
        if step.get("label") == TRAP:
            if boss:
                heroes = hp.heroes(s)
                effects.queue(ctx, boss, [{"do": "h50_pick", "n": k + 1} for k in range(len(heroes))]
                              + [{"do": "h50_lay"}], source="haunt")
            ctx.say("Heroes: before leaving a tile with a trap, {move:disable} (Knowledge 5+) or {move:avoid} "
                    "(Speed 5+); caught in a net, {move:break_free}, or help a friend on your tile with "
                    "{move:free} (Might 5+).", kind="haunt_setup", to="heroes")
            ctx.say("Traitor: {move:set_traps} once a turn (a trap and 2 duds within 1 tile); you leave "
                    "trapped tiles freely. End a turn on the Elfsong Tavern with the Deck of Many Things to win.",
                    kind="haunt_setup", to="traitors")
            return True
        if step.get("do") == "move" and step.get("side") == "heroes":
            revealer = s["haunt"]["revealer"]
            for pid in hp.alive(s, hp.heroes(s)):
                if pid != revealer:
                    closer(ctx, pid, s["players"][revealer]["tile"], 2)
            if not any(DECK in s["players"][p]["cards"] for p in s["seats"]):
                for pile in [s["decks"]["omen"], s["discard"].get("omen", []), *s["piles"].values()]:
                    if DECK in pile:
                        pile.remove(DECK)
                cd.gain(ctx, revealer, DECK)
                ctx.say(f"Setup: {ctx.name(revealer)} holds the recovered Deck of Many Things.", kind="haunt_setup")
            return True
        return None

    def leave_blocked(self, ctx, pid):
        s = ctx.s
        if s["phase"] != "haunt" or pid in hp.traitors(s) or not s["haunt"].get("started"):
            return None
        if pid in mine(ctx)["netted"]:
            return "You are caught in a Net Snare: break free first (Might 5+)."
        tile = s["players"][pid]["tile"]
        if traps(ctx, tile) and f"h50_passed:{tile}" not in (s["turn"] or {}).get("rolls", []):
            return "A trap bars the way: try to disable it (Knowledge 5+) or avoid it (Speed 5+) before you leave."
        return None

    def attack_dice(self, ctx, pid, trait, weapon, reckless):
        return -2 if trait == "might" and pid in mine(ctx)["netted"] else None

    def defence_dice(self, ctx, defender, trait):
        return -2 if trait == "might" and defender in mine(ctx)["netted"] else None

    def turn_ending(self, ctx, pid):
        s = ctx.s
        if pid in hp.traitors(s) and s["players"][pid]["tile"] == TAVERN and DECK in s["players"][pid]["cards"]:
            return [{"do": "h50_delivered"}]
        return None

    def death(self, ctx, pid, killer):
        if pid in mine(ctx)["netted"]:
            mine(ctx)["netted"].remove(pid)

    def win_check(self, ctx):
        if mine(ctx)["delivered"]:
            return ("traitor", "The traitor hands the Deck of Many Things to their contact at the Elfsong Tavern.")
        return None

    def haunt_goals(self, ctx, pid):
        s = ctx.s
        if pid in hp.traitors(s):
            if DECK in s["players"][pid]["cards"]:
                return {TAVERN}
            owner = next((p for p in s["seats"] if DECK in s["players"][p]["cards"]), None)
            lying = {t for t, pile in s["piles"].items() if DECK in pile}
            return ({s["players"][owner]["tile"]} if owner else set()) | lying or None
        if DECK in s["players"][pid]["cards"]:  # "If you hold the Deck of Many Things, guard it"
            return {s["players"][pid]["tile"]}
        boss = traitor(ctx)
        if boss and st.on_board(s["players"][boss]):
            return {s["players"][boss]["tile"]}
        return None

    own = OWN
    moves = (
        rulesets.Move("disable", "Disable the trap", lambda ctx, pid, trait: face_trap(ctx, pid, True),
                      traits=("knowledge",), who="heroes",
                      summary="On a trapped tile, Knowledge 5+ removes the trap; otherwise it goes off."),
        rulesets.Move("avoid", "Avoid the trap", lambda ctx, pid, trait: face_trap(ctx, pid, False),
                      traits=("speed",), who="heroes",
                      summary="On a trapped tile, Speed 5+ lets you go on past it; otherwise your movement ends and "
                              "it goes off."),
        rulesets.Move("break_free", "Break free of the net", lambda ctx, pid, trait: free(ctx, pid, pid),
                      traits=("might",), who="heroes",
                      summary="Caught in a Net Snare, Might 5+ frees you (one try at a net a turn)."),
        rulesets.Move("free", "Free a netted hero", lambda ctx, pid, trait, target: free(ctx, pid, target),
                      traits=("might",), who="heroes",
                      args=(rulesets.Arg("player", lambda ctx, pid: netted_here(ctx, pid), "Whom?"),),
                      summary="Might 5+ frees another hero caught in a Net Snare on your tile (one try at a net a "
                              "turn)."),
        rulesets.Move("set_traps", "Set traps", lambda ctx, pid, trait: set_traps(ctx, pid),
                      who="traitors", once_per_turn=True,
                      summary="Lay a trap and 2 duds face down, one per tile, within 1 tile of you on tiles free of "
                              "tokens."),
    )


def netted_here(ctx, pid: str) -> list[str]:
    s = ctx.s
    return [p for p in mine(ctx)["netted"] if p != pid and s["players"][p]["alive"] and st.together(s, pid, p)]


def set_traps(ctx, pid: str):
    """Traitor's Tome, haunt 50: setting new traps."""
    if not free_tiles(ctx, ctx.s["players"][pid]["tile"]):
        raise IllegalAction("No tile within 1 tile of you is free of tokens.")
    effects.queue(ctx, pid, [{"do": "h50_set"}], source="haunt", front=True)


def free(ctx, pid: str, who: str):
    """Secrets of Survival, haunt 50: the Net Snare (Might 5+, by the hero or
    another adventurer on their tile)."""
    s = ctx.s
    turn = s["turn"]
    if who not in mine(ctx)["netted"]:
        raise IllegalAction("You are not caught in a net." if who == pid else
                            f"{ctx.name(who)} is not caught in a net.")
    if who != pid and not st.together(s, pid, who):
        raise IllegalAction(f"{ctx.name(who)} is not on your tile.")
    key = "task:h50_net"
    if key in turn["rolls"]:
        raise IllegalAction("You have already tried to break a net this turn.")
    turn["rolls"].append(key)
    effects.queue(ctx, pid, [{"do": "roll", "trait": "might", "bands": [
        {"at_least": 5, "then": [{"do": "h50_freed", "who": who}]}, {"at_most": 4, "then": []}]}],
        source="haunt", front=True)


def face_trap(ctx, pid: str, disable: bool):
    """Secrets of Survival, haunt 50: facing a trap before leaving its tile."""
    s = ctx.s
    turn = s["turn"]
    here = s["players"][pid]["tile"]
    if not traps(ctx, here):
        raise IllegalAction("There is no trap on your tile.")
    if f"h50_passed:{here}" in turn["rolls"]:
        raise IllegalAction("You are already past this trap this turn.")
    key = f"task:h50_{'disable' if disable else 'avoid'}:{here}"
    if key in turn["rolls"]:
        raise IllegalAction("You have already tried that on this trap this turn.")
    turn["rolls"].append(key)
    win = [{"do": "h50_disabled", "tile": here}] if disable else [{"do": "h50_avoided", "tile": here}]
    lose = [{"do": "h50_trigger", "tile": here}] if disable else \
        [{"do": "h50_stopped"}, {"do": "h50_trigger", "tile": here}]
    effects.queue(ctx, pid, [{"do": "roll", "trait": "knowledge" if disable else "speed", "bands": [
        {"at_least": 5, "then": win}, {"at_most": 4, "then": lose}]}], source="haunt", front=True)
