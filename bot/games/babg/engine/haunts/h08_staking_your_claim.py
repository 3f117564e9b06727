"""Haunt 8, Staking Your Claim (Traitor's Tome and Secrets of Survival; the
revealer is the traitor, a Vampire). What the data says
(rules_data/haunts/08_staking_your_claim.toml): the Vampire's Might and
Speed back up to their start, then 2 more each; the Innocent Bystanders as
NPCs on the heroes' side (they never move or attack); the wins (every
Bystander dead; the Vampire dead once its coffin is gone).

What the bot carries out:
- the coffin's tile: the traitor picks a stack, its top tile is joined to
  an open door the traitor picks (symbol and text ignored), and the Coffin
  token lies there on one Obstacle token per hero;
- the Bystanders' tiles: for each, the heroes' chooser picks a stack and a
  door the same way, and the Bystander stands on the new tile;
- the Vampire cannot die while the Coffin is on the board: instead it
  re-forms on the coffin's tile, every trait back to its start, then 2 more
  Might and Speed;
- the Vampire drinks: 1 Might for each Bystander or hero it kills; a
  Bystander it beats is killed; Bystanders defend with 1 more die per hero
  on their tile;
- Cloud of Mist, once per game, instead of moving: the declared move `mist`
  (no roll), then the traitor picks any tile in play;
- the heroes damage the coffin on its tile with the declared move `coffin`
  (Might or Sanity 4+, once a turn): the bottom token of the stack goes,
  Obstacles first, the Coffin last.

Left to the players: nothing.
"""
from .. import state as st
from .. import effects, hooks, rulesets
from .. import haunt_play as hp
from .. import tokens as tk
from .. import traits as tr
from ..errors import IllegalAction
from ..sides import monster_by_id

NUMBER = 8
BYSTANDER = "Innocent Bystander"
COFFIN, OBSTACLE = "Coffin", "Obstacle"
STACKS = ("building", "street", "catacomb")
COFFIN_TARGET = 4


OWN = rulesets.Own("h08", {"coffin": None, "mist": False, "reforming": False})


def mine(ctx) -> dict:
    return rulesets.REGISTRY[NUMBER].record(ctx.s)


def vampire(ctx) -> str | None:
    t = hp.traitors(ctx.s)
    return t[0] if t else None


def coffin_tile(ctx) -> str | None:
    """The Coffin token's tile, while the Coffin is on the board (a read)."""
    return next((t["tile"] for t in ctx.s["tokens"] if t["name"] == COFFIN), None)


def drawable(ctx) -> list[str]:
    """The stacks whose top tile some open door could take."""
    s = ctx.s
    return [st for st in STACKS if s["stacks"].get(st) and hp.fetch_doors(ctx, s["stacks"][st][0])]


@effects.step("h08_new_tile")
def _new_tile(ctx, task, item):
    """Traitor's Tome, haunt 8: "Right Now" and Secrets of Survival, haunt
    8: "Right Now": the top tile of a stack of the player's choice, joined
    to the board as usual, its symbol and text ignored."""
    stacks = drawable(ctx)
    if not stacks:
        effects.push_front(ctx, [{**item, "do": "h08_put", "tile": None}])
        return
    if len(stacks) == 1:
        draw_from(ctx, stacks[0], item)
        return
    what = "the coffin" if item["for"] == COFFIN else "an Innocent Bystander"
    effects.ask(ctx, task["player"], "h08_stack", f"which stack's top tile do you draw for {what}?",
                [f"The {st} stack" for st in stacks], stacks=stacks, item=item)


@effects.decision("h08_stack")
def _decide_stack(ctx, pending, index):
    draw_from(ctx, pending["data"]["stacks"][index], pending["data"]["item"])


def draw_from(ctx, stack: str, item: dict):
    tid = ctx.s["stacks"][stack][0]
    effects.push_front(ctx, [{"do": "_fetch_tile", "tile": tid}, {**item, "do": "h08_put", "tile": tid}])


@effects.step("h08_put")
def _put(ctx, task, item):
    s = ctx.s
    tile = item["tile"] if item["tile"] in s["board"] else None
    if item["for"] == COFFIN:
        # Ruling: Haunt 8: a coffin no drawn tile can carry lies on the Vampire's own tile.
        tile = tile or s["players"][vampire(ctx)]["tile"]
        for _ in range(len(hp.heroes(s))):
            tk.place(s, OBSTACLE, tile)
        tk.place(s, COFFIN, tile)
        ctx.say(f"Setup: the Vampire's coffin lies on the {ctx.tile_name(tile)}, on a stack of "
                f"{len(hp.heroes(s))} Obstacle tokens.", kind="haunt_setup", tile=tile)
        return
    if tile is None:
        # Ruling: Haunt 8: a Bystander no drawn tile can carry stands where the heroes' chooser picks
        # among the tiles without a Bystander.
        effects.push_front(ctx, [{"do": "_place_chosen", "step": {"do": "place_monster", "monster": BYSTANDER,
                                                                  "side": "heroes", "apart": ["same"]},
                                  "left": 1, "of": 1}])
        return
    hp.add_monster(ctx, BYSTANDER, tile)


@effects.step("h08_mist")
def _mist(ctx, task, item):
    tiles = sorted(ctx.s["board"], key=ctx.tile_name)
    effects.ask(ctx, task["player"], "h08_mist", "where does the cloud of mist take shape again?",
                [ctx.tile_name(t) for t in tiles], tiles=tiles)


@effects.decision("h08_mist")
def _decide_mist(ctx, pending, index):
    pid, tile = pending["player"], pending["data"]["tiles"][index]
    p = ctx.s["players"][pid]
    p["tile"], p["half"] = tile, None
    ctx.say(f"The mist gathers on the {ctx.tile_name(tile)} and takes {ctx.name(pid)}'s shape again.",
            kind="haunt", player=pid, tile=tile)
    hooks.fire("entered", ctx, pid, tile)


@effects.step("h08_reform")
def _reform(ctx, task, item):
    """Traitor's Tome, haunt 8: "Re-forming at Your Coffin"."""
    s = ctx.s
    pid = task["player"]
    mine(ctx)["reforming"] = False
    tile = coffin_tile(ctx) or s["players"][pid]["tile"]
    p = s["players"][pid]
    p["tile"], p["half"] = tile, None
    ctx.say(f"{ctx.name(pid)} should be dead, but dissolves and re-forms beside the coffin on the "
            f"{ctx.tile_name(tile)}.", kind="haunt", player=pid, tile=tile)
    tracks = ctx.c.adventurers[p["adventurer"]].tracks
    for trait in ("might", "speed", "knowledge", "sanity"):
        if p["traits"][trait] != tracks[trait].start:
            tr.change(ctx, pid, trait, tracks[trait].start - p["traits"][trait])
    hp.restore_traits(ctx, pid, [], {"might": 2, "speed": 2})


@effects.step("h08_coffin_hit")
def _coffin_hit(ctx, task, item):
    """Secrets of Survival, haunt 8: "Destroying the Coffin" (the bottom
    token of the stack goes: the Obstacles, then the Coffin)."""
    s = ctx.s
    pid = task["player"]
    here = [t for t in tk.on_tile(s, item["tile"])]
    token = next((t for t in here if t["name"] == OBSTACLE), None) or next((t for t in here if t["name"] == COFFIN),
                                                                           None)
    if token is None:
        return
    tk.remove(s, token)
    if token["name"] == COFFIN:
        ctx.say(f"{ctx.name(pid)} smashes the Vampire's coffin: it is destroyed, and now the Vampire can die.",
                kind="haunt", player=pid)
        return
    left = sum(1 for t in tk.on_tile(s, item["tile"]) if t["name"] == OBSTACLE)
    ctx.say(f"{ctx.name(pid)} knocks a token from under the coffin ({left} left beneath it).", kind="haunt",
            player=pid)


@rulesets.register(NUMBER)
class StakingYourClaim(rulesets.RuleSet):
    title = "Staking Your Claim"
    own = OWN

    def setup_step(self, ctx, step):
        s = ctx.s
        text = step.get("text", "")
        if text.startswith("Your adventurer stays in play"):
            ctx.say("Setup: you are the Vampire. The bot re-forms you at your coffin while it lasts. Attack the "
                    "Innocent Bystanders as you would any opponent; once per game, instead of moving: {move:mist}.",
                    kind="haunt_setup", to="traitors")
            return True
        if text.startswith("You are a Vampire") or text.startswith("Take the square Coffin"):
            return True  # carried out by the steps below and the skull_spared answer
        if text.startswith("Draw the top tile"):
            effects.queue(ctx, hp.chooser(s, "traitor"), [{"do": "h08_new_tile", "for": COFFIN}], source="haunt")
            return True
        if text.startswith("For each of heroes + 1"):
            count = len(hp.heroes(s)) + 1
            ctx.say(f"Setup: {count} Innocent Bystanders, each on a tile freshly drawn and joined to the board. "
                    "On the coffin's tile: {move:coffin} with Might or Sanity (4+).", kind="haunt_setup",
                    to="heroes")
            effects.queue(ctx, hp.chooser(s, "heroes"), [{"do": "h08_new_tile", "for": BYSTANDER}] * count,
                          source="haunt")
            return True
        return None

    def skull_spared(self, ctx, pid, trait):
        """Traitor's Tome, haunt 8: "Re-forming at Your Coffin"."""
        if pid != vampire(ctx) or coffin_tile(ctx) is None:
            return None
        if not mine(ctx)["reforming"]:
            mine(ctx)["reforming"] = True
            effects.queue(ctx, pid, [{"do": "h08_reform"}], source="haunt", front=True)
        return True

    def defence_dice(self, ctx, defender, trait):
        """Secrets of Survival, haunt 8: "Special Innocent Bystander Rules"."""
        s = ctx.s
        if defender in s["players"]:
            return None
        m = monster_by_id(ctx, defender)
        if m["name"] != BYSTANDER:
            return None
        return sum(1 for p in hp.alive(s, hp.heroes(s)) if s["players"][p]["tile"] == m["tile"])

    def monster_hurt(self, ctx, m, kind, amount):
        """Both books, haunt 8: "Killing Innocent Bystanders"; Traitor's
        Tome: "Special Vampire Attack Rules"."""
        if m["name"] != BYSTANDER:
            return None
        m["dead"] = True
        ctx.say(f"{st.monster_called(m)} is killed; the token leaves the board.", kind="monster", monster=m["id"])
        hooks.fire("monster_killed", ctx, m["id"])
        drink(ctx, ctx.s["haunt"].get("last_attacker"))
        return True

    def death(self, ctx, pid, killer):
        if pid != killer and pid in hp.heroes(ctx.s):
            drink(ctx, killer)

    def haunt_goals(self, ctx, pid):
        """The Vampire goes for the Innocent Bystanders; the heroes for the
        coffin while it lasts, then for the Vampire."""
        s = ctx.s
        if pid == vampire(ctx):
            return {m["tile"] for m in s["monsters"] if m["name"] == BYSTANDER and not m["dead"]} or None
        tile = coffin_tile(ctx)
        if tile:
            return {tile}
        return {s["players"][p]["tile"] for p in hp.alive(s, hp.traitors(s))} or None

    moves = (
        rulesets.Move("mist", "Turn into a cloud of mist", lambda ctx, pid, trait: mist(ctx, pid), who="traitors",
                      summary="Once a game, instead of moving, the Vampire reappears on any tile in play."),
        rulesets.Move("coffin", "Strike the coffin", lambda ctx, pid, trait: hit_coffin(ctx, pid, trait),
                      traits=("might", "sanity"), who="heroes", once_per_turn=True,
                      summary="On the coffin's tile, Might or Sanity 4+ knocks the bottom token off its stack."),
    )


def drink(ctx, killer: str | None):
    vamp = vampire(ctx)
    if killer and killer == vamp and ctx.s["players"][vamp]["alive"]:
        ctx.say(f"{ctx.name(vamp)} drinks the blood of the fallen and grows stronger.", kind="haunt", player=vamp)
        tr.change(ctx, vamp, "might", 1)


def mist(ctx, pid: str):
    """Traitor's Tome, haunt 8: "Cloud of Mist"."""
    s = ctx.s
    turn = s["turn"]
    if pid != vampire(ctx):
        raise IllegalAction("Only the Vampire can turn into mist.")
    if turn.get("monsters") or turn["player"] != pid:
        raise IllegalAction("The Vampire turns into mist in its own turn.")
    if mine(ctx)["mist"]:
        raise IllegalAction("The Cloud of Mist is once per game, and you have used it.")
    if turn.get("moved") or turn.get("stopped"):
        raise IllegalAction("The Cloud of Mist takes the place of your movement: use it before you move.")
    mine(ctx)["mist"] = True
    turn["stopped"] = True
    ctx.say(f"{ctx.name(pid)} dissolves into a cloud of mist.", kind="haunt", player=pid)
    effects.queue(ctx, pid, [{"do": "h08_mist"}], source="haunt", front=True)


def hit_coffin(ctx, pid: str, trait: str):
    """Secrets of Survival, haunt 8: "Destroying the Coffin" (Might or
    Sanity 4+ on its tile; a task roll, once per turn)."""
    s = ctx.s
    tile = s["players"][pid]["tile"]
    if pid in hp.traitors(s):
        raise IllegalAction("The heroes are the ones trying to destroy the coffin.")
    if s["turn"].get("monsters") or s["turn"]["player"] != pid:
        raise IllegalAction("A hero strikes at the coffin in their own turn.")
    if trait not in ("might", "sanity"):
        raise IllegalAction("Damage the coffin with a Might or Sanity roll.")
    if coffin_tile(ctx) != tile:
        raise IllegalAction("The coffin is not on your tile." if coffin_tile(ctx) else "The coffin is destroyed.")
    effects.queue(ctx, pid, [{"do": "roll", "trait": trait, "bands": [
        {"at_least": COFFIN_TARGET, "then": [{"do": "h08_coffin_hit", "tile": tile}]},
        {"at_most": COFFIN_TARGET - 1, "then": []}]}], source="haunt", front=True)
