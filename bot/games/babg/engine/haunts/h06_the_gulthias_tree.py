"""Haunt 6, The Gulthias Tree (Traitor's Tome and Secrets of Survival).
What the data says (rules_data/haunts/06_the_gulthias_tree.toml): the
traitor's Might and Knowledge back up to their start, then 1 Might and 2
Knowledge; the Vine Blights' stats (moving and attacking in the monster
turn as any monster).

What the bot carries out:
- the Branches (3, or 4 with 5 or more adventurers): the traitor puts each
  on a tile at least 4 tiles from every other Branch (tiles are counted
  through doors, stairs both ways, and a sewer grate to the Catacomb
  Landing both ways); when no tile is far enough the traitor draws a tile
  from a stack of their choice and joins it to an open door, until one is;
  2 Vine Blights then stand on each Branch's tile;
- the pruning at the end of every adventurer's turn: Vine Blights cut off
  from every Branch leave the board; each stunned Vine Blight draws back 1
  tile toward its Branch, and those this cuts off move 1 tile toward the
  Branch they were joined to;
- the traitor's win: two Branches joined by unstunned Vine Blights on every
  tile between them (the same links);
- Cultivating a Branch, in place of the traitor's attack: the declared move
  `cultivate` (Knowledge 4+, 1 harder per hero on the tile, at least 4
  tiles from every Branch): a Branch and 2 stunned Vine Blights on the tile;
- Growing a Vine Blight, in place of two Vine Blights' attacks in the
  monster turn: the declared move `grow` on a tile (two Vine Blights there
  pool their Might for a 6+ roll); the new one neither moves, attacks nor
  grows in that turn;
- Destroying a Branch, as the hero's attack for the turn: the declared move
  `branch` (Might), or `branch_with` a weapon that attacks with Might: 5+,
  1 harder per 2 unstunned Vine Blights on the tile, no damage on a miss;
- the heroes' win: the traitor dead and no Branch left.

Left to the players: nothing. (The book's "the traitor stays in the room
while the heroes read" needs no doing: each side reads its rules in private.)
"""
from .. import state as st
from .. import attack, effects, hooks, rulesets
from .. import haunt_play as hp
from .. import rng
from .. import tokens as tk
from ..errors import IllegalAction
from ..geometry import moves_from

NUMBER = 6
BLIGHT, BRANCH = "Vine Blight", "Branch"
APART = 4            # tiles between Branches, and from the traitor to every Branch when cultivating
CULTIVATE_TARGET = 4
GROW_TARGET = 6
CUT_TARGET = 5
STACKS = ("building", "street", "catacomb")


OWN = rulesets.Own("h06", {"born": {}})  # "born": a Vine Blight's id -> the turn it grew


def mine(ctx) -> dict:
    return rulesets.REGISTRY[NUMBER].record(ctx.s)


def links(ctx) -> dict[str, set[str]]:
    """Which placed tiles touch which, both ways: doors, stairs, and a sewer
    grate with the Catacomb Landing (Traitor's Tome, haunt 6: "Right Now"
    and "Connecting Branches")."""
    near: dict[str, set[str]] = {t: set() for t in ctx.s["board"]}
    for t in ctx.s["board"]:
        for other, _ in moves_from(ctx, t):
            if other in near and other != t:
                near[t].add(other)
                near[other].add(t)
    return near


def hops(near: dict, sources, within=None) -> dict[str, int]:
    """Tiles crossed from the nearest of `sources`, only through `within`."""
    seen = {t: 0 for t in sources if within is None or t in within}
    todo = list(seen)
    while todo:
        here = todo.pop(0)
        for other in sorted(near.get(here, ())):
            if other not in seen and (within is None or other in within):
                seen[other] = seen[here] + 1
                todo.append(other)
    return seen


def branches(s: dict) -> list[str]:
    return [t["tile"] for t in s["tokens"] if t["name"] == BRANCH]


def blights(s: dict, unstunned: bool = False) -> list[dict]:
    return [m for m in s["monsters"] if m["name"] == BLIGHT and not m["dead"] and not (unstunned and m["stunned"])]


def far_tiles(ctx, near=None) -> list[str]:
    """Tiles at least 4 tiles from every Branch."""
    near = near or links(ctx)
    gap = hops(near, branches(ctx.s))
    return sorted((t for t in ctx.s["board"] if gap.get(t, 99) >= APART), key=ctx.tile_name)


def joined(ctx) -> bool:
    """Traitor's Tome, haunt 6: "Connecting Branches"."""
    s = ctx.s
    held = {m["tile"] for m in blights(s, unstunned=True)}
    near = links(ctx)
    for b in branches(s):
        if b in held and any(o != b for o in hops(near, [b], held) if o in branches(s)):
            return True
    return False


# --- setup: the Branches ---------------------------------------------------------------------------

@effects.step("h06_branch")
def _branch(ctx, task, item):
    """Traitor's Tome, haunt 6: "Right Now" (each Branch at least 4 tiles
    from the others; tiles drawn when there is no room)."""
    if item["left"] <= 0:
        return
    tiles = far_tiles(ctx)
    if tiles:
        if len(tiles) == 1:
            put_branch(ctx, tiles[0], item["left"])
            return
        effects.ask(ctx, task["player"], "h06_branch", f"where does a Branch go ({item['left']} left)? Each must be "
                    "at least 4 tiles from the others.", [ctx.tile_name(t) for t in tiles], tiles=tiles,
                    left=item["left"])
        return
    s = ctx.s
    stacks = [st for st in STACKS if s["stacks"].get(st) and hp.fetch_doors(ctx, s["stacks"][st][0])]
    if not stacks:
        # Ruling: Haunt 6: with no room and no tile to draw, the Branch goes on a tile the traitor picks
        # among those farthest from the other Branches.
        gap = hops(links(ctx), branches(s))
        free = [t for t in s["board"] if t not in branches(s)]
        best = max(gap.get(t, 99) for t in free)
        far = sorted((t for t in free if gap.get(t, 99) == best), key=ctx.tile_name)
        effects.ask(ctx, task["player"], "h06_branch", f"no tile is 4 tiles from the others: where does a Branch go "
                    f"({item['left']} left)?", [ctx.tile_name(t) for t in far], tiles=far, left=item["left"])
        return
    ctx.say("Setup: no tile is far enough from the other Branches, so a tile is drawn.", kind="haunt_setup")
    if len(stacks) == 1:
        draw_from(ctx, stacks[0], item)
        return
    effects.ask(ctx, task["player"], "h06_stack", "which stack do you draw a tile from?",
                [f"The {st} stack" for st in stacks], stacks=stacks, item=item)


@effects.decision("h06_stack")
def _decide_stack(ctx, pending, index):
    draw_from(ctx, pending["data"]["stacks"][index], pending["data"]["item"])


def draw_from(ctx, stack: str, item: dict):
    effects.push_front(ctx, [{"do": "_fetch_tile", "tile": ctx.s["stacks"][stack][0]}, item])


@effects.decision("h06_branch")
def _decide_branch(ctx, pending, index):
    put_branch(ctx, pending["data"]["tiles"][index], pending["data"]["left"])


def put_branch(ctx, tile: str, left: int):
    tk.place(ctx.s, BRANCH, tile)
    ctx.say(f"A Branch of the Gulthias Tree bursts up on the {ctx.tile_name(tile)}.", kind="token", tile=tile)
    for _ in range(2):
        hp.add_monster(ctx, BLIGHT, tile)
    effects.push_front(ctx, [{"do": "h06_branch", "left": left - 1}])


# --- the pruning at the end of each adventurer's turn ---------------------------------------------

@effects.step("h06_prune")
def _prune(ctx, task, item):
    """Traitor's Tome, haunt 6: "You Must Do This at the End of Each
    Adventurer's Turn"; Secrets of Survival: "Pruning the Vine Blights"."""
    s = ctx.s
    near = links(ctx)
    held = {m["tile"] for m in blights(s)}
    reach = hops(near, branches(s), held)
    for m in blights(s):
        if m["tile"] not in reach:
            m["dead"] = True
            ctx.say(f"{st.monster_called(m)} is cut off from every Branch and withers away.", kind="monster",
                    monster=m["id"])
            hooks.fire("monster_killed", ctx, m["id"])
    goal = {m["id"]: nearest_branch(near, m["tile"], {x["tile"] for x in blights(s)}, branches(s))
            for m in blights(s)}
    before = {m["id"]: m["tile"] for m in blights(s)}
    for m in [x for x in blights(s) if x["stunned"] and reach.get(x["tile"], 0) > 0]:
        step_toward(ctx, near, m, goal[m["id"]], {x["tile"] for x in blights(s)})
    held = {m["tile"] for m in blights(s)}
    reach = hops(near, branches(s), held)
    for m in blights(s):
        if m["tile"] not in reach and m["tile"] == before[m["id"]] and goal[m["id"]]:
            step_toward(ctx, near, m, goal[m["id"]], None)


def nearest_branch(near, tile: str, held: set, found: list[str]) -> str | None:
    """The Branch a Vine Blight is joined to: the nearest along tiles with
    Vine Blights (Ruling: Haunt 6: the nearest, ties by tile name)."""
    reach = hops(near, [tile], held)
    options = sorted((reach[b], b) for b in found if b in reach)
    return options[0][1] if options else None


def step_toward(ctx, near, m: dict, branch: str | None, within):
    if branch is None:
        return
    gap = hops(near, [branch], within)
    here = gap.get(m["tile"])
    if here is None or here == 0:
        return
    nxt = sorted(t for t in near[m["tile"]] if gap.get(t) == here - 1)
    if not nxt:
        return
    m["tile"], m["half"] = nxt[0], None
    ctx.say(f"{st.monster_called(m)} shrinks back toward its Branch, to the {ctx.tile_name(nxt[0])}.",
            kind="monster_move", monster=m["id"], tile=nxt[0])


# --- actions: cultivating, growing, cutting -------------------------------------------------------

@effects.step("h06_cultivated")
def _cultivated(ctx, task, item):
    tile = item["tile"]
    tk.place(ctx.s, BRANCH, tile)
    ctx.say(f"A new Branch coaxed by {ctx.name(task['player'])} bursts up on the {ctx.tile_name(tile)}.",
            kind="token", tile=tile)
    for _ in range(2):
        hp.add_monster(ctx, BLIGHT, tile)["stunned"] = True


@rulesets.register(NUMBER)
class GulthiasTree(rulesets.RuleSet):
    title = "The Gulthias Tree"
    own = OWN

    def setup_step(self, ctx, step):
        s = ctx.s
        text = step.get("text", "")
        if step.get("do") != "manual":
            return None
        if text.startswith("Place the Branches"):
            count = 4 if len(s["seats"]) >= 5 else 3
            ctx.say("Setup: in place of your attack: {move:cultivate} for a new Branch. In the monster turn, in "
                    "place of two Vine Blights' attacks: {move:grow} on their tile. The bot prunes the Vine Blights "
                    "after every adventurer's turn.", kind="haunt_setup", to="traitors")
            ctx.say(f"Setup: the traitor places {count} Branches.", kind="haunt_setup")
            effects.queue(ctx, hp.chooser(s, "traitor"), [{"do": "h06_branch", "left": count}], source="haunt")
            return True
        if text.startswith("The heroes leave the room"):
            ctx.say("Setup: destroy a Branch on your tile as your attack: {move:branch}, or {move:branch_with} a "
                    "weapon that attacks with Might.", kind="haunt_setup", to="heroes")
            return True
        if "room" in text or "stays in play" in text or "Vine Blights" in text or "as Branches" in text:
            return True  # private rules; the bot keeps the Vine Blights and counts the Branches (above)
        return None

    def turn_ending(self, ctx, pid):
        return [{"do": "h06_prune"}]

    def monster_blocked(self, ctx, m, dest):
        born = ctx.s["haunt"].get("h06", {}).get("born", {}).get(m["id"])
        if born is not None and born == (ctx.s["turn"] or {}).get("number"):
            return f"{st.monster_called(m)} has only just grown: it cannot move, attack or grow this turn."
        return None

    def monster_attack(self, ctx, m, target, trait):
        why = self.monster_blocked(ctx, m, m["tile"])
        if why:
            raise IllegalAction(why)
        return None

    def haunt_goals(self, ctx, pid):
        """The heroes: the Branches and the traitor; the traitor: a tile far
        enough from every Branch to cultivate another."""
        s = ctx.s
        if pid in hp.traitors(s):
            return set(far_tiles(ctx)) or None
        return set(branches(s)) | {s["players"][p]["tile"] for p in hp.alive(s, hp.traitors(s))} or None

    def win_check(self, ctx):
        s = ctx.s
        if joined(ctx):
            return ("traitor", "Unstunned Vine Blights join two Branches: the Gulthias Tree takes Baldur's Gate.")
        if not branches(s) and not hp.alive(s, hp.traitors(s)) and hp.alive(s, hp.heroes(s)):
            return ("heroes", "The traitor is dead and every Branch is destroyed.")
        return None

    moves = (
        rulesets.Move("cultivate", "Cultivate a Branch", lambda ctx, pid, trait: cultivate(ctx, pid, trait),
                      traits=("knowledge",), who="traitors", instead_of_attack=True,
                      summary="At least 4 tiles from every Branch, Knowledge 4+ (1 more per hero there): a new "
                              "Branch with 2 stunned Vine Blights."),
        rulesets.Move("grow", "Grow a Vine Blight", lambda ctx, pid, trait, tile: grow(ctx, pid, tile),
                      args=(rulesets.Arg("tile", lambda ctx, pid: growth_tiles(ctx), "On which tile?"),),
                      who="traitors", when="monster_turn",
                      summary="Instead of attacking, two Vine Blights on a tile pool their Might: 6+ adds a third."),
        rulesets.Move("branch", "Destroy a Branch", lambda ctx, pid, trait: cut(ctx, pid, trait, None),
                      traits=("might",), who="heroes", instead_of_attack=True,
                      summary="As your attack, Might 5+ (1 more per 2 unstunned Vine Blights) on a Branch's tile."),
        rulesets.Move("branch_with", "Destroy a Branch with a weapon",
                      lambda ctx, pid, trait, card: cut(ctx, pid, trait, card),
                      traits=("might",), who="heroes", instead_of_attack=True,
                      args=(rulesets.Arg("card", lambda ctx, pid: might_weapons(ctx, pid), "With which weapon?"),),
                      summary="The same attack on a Branch, with a weapon that attacks with Might."),
    )


def growth_tiles(ctx) -> list[str]:
    """The tiles where two Vine Blights can still grow a third, in board order."""
    s = ctx.s
    if not (s["turn"] or {}).get("monsters"):
        return []
    ready: dict[str, int] = {}
    for m in blights(s):
        if can_grow(ctx, m):
            ready[m["tile"]] = ready.get(m["tile"], 0) + 1
    return [t for t in s["board"] if ready.get(t, 0) >= 2]


def might_weapons(ctx, pid: str) -> list[str]:
    """The weapons `pid` holds that attack with Might (Secrets of Survival,
    haunt 6: "Destroying Branches": the roll is treated as a Might attack)."""
    p = ctx.s["players"].get(pid)
    if p is None:
        return []
    return [c for c in p["cards"] if ctx.c.cards[c].weapon and "might" in attack.attack_traits(ctx, pid, c)]


def cultivate(ctx, pid: str, trait: str):
    """Traitor's Tome, haunt 6: "Cultivating More Branches"."""
    s = ctx.s
    turn = s["turn"]
    tile = s["players"][pid]["tile"]
    if pid not in hp.traitors(s) or turn.get("monsters") or turn["player"] != pid:
        raise IllegalAction("Only the traitor cultivates Branches, in their own turn.")
    if trait != "knowledge":
        raise IllegalAction("Cultivating a Branch takes a Knowledge roll.")
    if turn.get("attacked"):
        raise IllegalAction("Cultivating takes the place of your attack, and you have attacked this turn.")
    if tile not in far_tiles(ctx):
        raise IllegalAction("You must stand at least 4 tiles from every Branch.")
    turn["attacked"] = True
    target = CULTIVATE_TARGET + sum(1 for p in hp.alive(s, hp.heroes(s)) if s["players"][p]["tile"] == tile)
    ctx.say(f"{ctx.name(pid)} tries to coax a new Branch from the ground (Knowledge {target}+).", kind="haunt",
            player=pid)
    effects.queue(ctx, pid, [{"do": "roll", "trait": "knowledge", "bands": [
        {"at_least": target, "then": [{"do": "h06_cultivated", "tile": tile}]},
        {"at_most": target - 1, "then": []}]}], source="haunt", front=True)


def can_grow(ctx, m: dict) -> bool:
    """A Vine Blight that can still take part in a growth this monster turn:
    standing, not yet attacked or grown, not born this turn."""
    turn = ctx.s["turn"]
    return not m["stunned"] and m["id"] not in turn["attacked"] and \
        mine_read(ctx)["born"].get(m["id"]) != turn["number"]


def grow(ctx, pid: str, tile: str):
    """Traitor's Tome, haunt 6: "Growing More Vine Blights" (two on the tile
    that can still act, the first two in their order)."""
    s = ctx.s
    turn = s["turn"]
    if not turn.get("monsters") or pid != hp.controller(s):
        raise IllegalAction("Vine Blights grow in the monster turn, at the traitor's word.")
    pair = [m for m in blights(s) if m["tile"] == tile and can_grow(ctx, m)][:2]
    if len(pair) < 2:
        raise IllegalAction(f"Two Vine Blights on the {ctx.tile_name(tile)} that can still act are needed (not "
                            "stunned, new, or having attacked).")
    m, partner = pair
    turn["attacked"] += [m["id"], partner["id"]]
    dice = m["traits"]["might"] + partner["traits"]["might"]
    total = effects.make_roll(ctx, pid, rng.dice_count(dice), f"Might for {m['name']}s {m['number']} and "
                              f"{partner['number']} to grow", kind="contest")
    if total < GROW_TARGET:
        ctx.say(f"The Vine Blights fail to grow ({total}, {GROW_TARGET}+ needed).", kind="haunt")
        return
    new = hp.add_monster(ctx, BLIGHT, m["tile"])
    mine(ctx)["born"][new["id"]] = turn["number"]
    turn["attacked"].append(new["id"])


def mine_read(ctx) -> dict:
    return ctx.s["haunt"].get("h06", {"born": {}})


def cut(ctx, pid: str, trait: str, weapon_id: str | None):
    """Secrets of Survival, haunt 6: "Destroying Branches" (an attack: Might
    5+, 1 harder per 2 unstunned Vine Blights; no damage on a miss)."""
    s = ctx.s
    turn = s["turn"]
    tile = s["players"][pid]["tile"]
    if pid in hp.traitors(s):
        raise IllegalAction("The heroes are the ones cutting the Branches down.")
    if trait != "might":
        raise IllegalAction("Destroying a Branch takes a Might roll.")
    if turn.get("monsters") or turn["player"] != pid:
        raise IllegalAction("Destroy a Branch in your own turn.")
    if turn.get("attacked"):
        raise IllegalAction("Destroying a Branch is your attack, and you have attacked this turn.")
    token = next((t for t in tk.on_tile(s, tile) if t["name"] == BRANCH), None)
    if token is None:
        raise IllegalAction("There is no Branch on your tile.")
    if weapon_id and weapon_id not in might_weapons(ctx, pid):
        raise IllegalAction(f"{ctx.card_name(weapon_id)} is not a weapon that attacks with Might.")
    if weapon_id and weapon_id in turn["used"]:
        raise IllegalAction(f"You have already used {ctx.card_name(weapon_id)} this turn.")
    turn["attacked"] = True
    if weapon_id:
        turn["used"].append(weapon_id)
    target = CUT_TARGET + len([m for m in blights(s, unstunned=True) if m["tile"] == tile]) // 2
    total = effects.make_roll(ctx, pid, attack.attack_dice(ctx, pid, "might", weapon_id),
                              f"Might to destroy the Branch ({target}+)", trait="might", kind="attack")
    if total < target:
        ctx.say(f"{ctx.name(pid)} hacks at the Branch but it holds ({total}, {target}+ needed).", kind="haunt")
        return
    tk.remove(s, token)
    ctx.say(f"{ctx.name(pid)} cuts down the Branch on the {ctx.tile_name(tile)} ({len(branches(s))} left).",
            kind="haunt", player=pid)
