"""Haunt 2, Glurk Rises (Traitor's Tome; Secrets of Survival).

What the bot carries out:
- Setup: Glurk's Speed and Might back up to their starting values, then 2
  more in each; the Goblins on Glurk's tile (data); the slave pens, a
  catacomb tile the traitor picks in secret (kept from the heroes until a
  hero is brought there).
- Enslaving: a hero who loses a fight to Glurk or to Goblins is enslaved
  (told to all: the figure is tipped over).
- Carrying: when Glurk or a Goblin leaves a tile with an enslaved hero, its
  runner is asked whether it takes one of them along (one hero each move);
  an enslaved hero brought onto the slave pens is sacrificed (dies, and the
  pens are shown to all).
- The enslaved hero's Speed roll at the start of their turn (3+, +1 for each
  Goblin standing on the tile, -1 for each free hero there): freed, or the
  turn is lost; freeing by stunning every Goblin on their tile.
- Calling more Goblins: the declared move `call` in Glurk's turn before
  moving (2 dice, no trait; each Goblin on Glurk's tile or a tile with a
  Goblin, the traitor picks); movement is then over.
- The Goblin mob: every Goblin attack is made by all the Goblins on the
  tile that stand and have not attacked (their Might added, 8 dice at
  most); if the hero wins, the damage is spread 1 a Goblin and each one hurt
  is stunned.
- Wins (data): every hero dead or sacrificed; Glurk dead.

Left to the players: nothing the book prints. (While an enslaved hero lies
on a Goblin's tile, that Goblin's move asks about carrying first, so a card
that watches monsters arrive, the Eye of Vecna, is not offered for that
move.)
"""
from .. import attack, effects, rulesets
from .. import haunt_play as hp
from .. import state as st
from .. import traits as tr
from ..errors import IllegalAction
from ..sides import label, monster_by_id

GOBLIN = "Goblin"
FREE_TARGET = 3


# "enslaved": heroes; "carry": the mover (Glurk's player id or a Goblin's id) -> the hero it drags along.
OWN = rulesets.Own("h02", {"enslaved": [], "carry": {}, "pens_shown": False, "called": None},
                   players=("enslaved", "carry"))


def mine(ctx) -> dict:
    return rulesets.REGISTRY[2].record(ctx.s)


def pens(ctx) -> str | None:
    return ctx.s["haunt"].get("h02_pens", {}).get("tile")


def goblins_on(ctx, tile: str, standing: bool = True) -> list[dict]:
    return [m for m in ctx.s["monsters"] if m["name"] == GOBLIN and not m["dead"] and m["tile"] == tile
            and not (standing and m["stunned"])]


def glurk(ctx) -> str:
    return hp.traitors(ctx.s)[0]


def enslaved_on(ctx, tile: str) -> list[str]:
    s = ctx.s  # a read (goals ask it): the haunt's record is not made here
    return [p for p in (s["haunt"].get("h02") or {}).get("enslaved", []) if s["players"][p]["alive"]
            and s["players"][p]["tile"] == tile]


def where_is(ctx, mover: str) -> str:
    return ctx.s["players"][mover]["tile"] if mover in ctx.s["players"] else monster_by_id(ctx, mover)["tile"]


# --- setup ----------------------------------------------------------------------------------------------

@effects.step("h02_pens")
def _pens(ctx, task, item):
    tiles = sorted((t for t, p in ctx.s["board"].items() if p["level"] == "catacomb"), key=ctx.tile_name)
    effects.ask(ctx, task["player"], "h02_pens", "which catacomb tile is the secret slave pens? (only you see the "
                "answer)", [ctx.tile_name(t) for t in tiles], tiles=tiles)


@effects.decision("h02_pens")
def _decide_pens(ctx, pending, index):
    tile = pending["data"]["tiles"][index]
    ctx.s["haunt"]["h02_pens"] = {"tile": tile}
    ctx.say(f"Your slave pens are the {ctx.tile_name(tile)}.", kind="secret", to=pending["player"])


def restore(ctx, pid: str):
    """Speed and Might back up to their starting values, then 2 more each."""
    p = ctx.s["players"][pid]
    tracks = ctx.c.adventurers[p["adventurer"]].tracks
    for trait in ("speed", "might"):
        if p["traits"][trait] < tracks[trait].start:
            tr.change(ctx, pid, trait, tracks[trait].start - p["traits"][trait])
        tr.change(ctx, pid, trait, 2)


# --- enslaving, carrying, freeing -------------------------------------------------------------------------

@effects.step("h02_enslave")
def _enslave(ctx, task, item):
    """Traitor's Tome, haunt 2: "Enslaving a Hero"."""
    hero = item["hero"]
    if not ctx.s["players"][hero]["alive"] or hero in mine(ctx)["enslaved"]:
        return
    mine(ctx)["enslaved"].append(hero)
    ctx.say(f"{ctx.name(hero)} is enslaved by the goblins: the figure is tipped over.", kind="haunt", player=hero)


def free(ctx, hero: str, why: str):
    if hero in mine(ctx)["enslaved"]:
        mine(ctx)["enslaved"].remove(hero)
        ctx.say(f"{ctx.name(hero)} is free ({why}): the figure stands up again.", kind="haunt", player=hero)


@effects.step("h02_break_free")
def _break_free(ctx, task, item):
    free(ctx, task["player"], "they broke their bonds")


@effects.step("h02_carry")
def _carry(ctx, task, item):
    heroes = [h for h in enslaved_on(ctx, item["from"]) if h not in mine(ctx)["carry"].values()]
    if not heroes:
        return
    who = label(ctx, item["mover"])
    effects.ask(ctx, task["player"], "h02_carry", f"does {who} drag an enslaved hero along?",
                ["Leave them"] + [f"Carry {ctx.name(h)}" for h in heroes], heroes=heroes, mover=item["mover"])


@effects.decision("h02_carry")
def _decide_carry(ctx, pending, index):
    if index:
        mine(ctx)["carry"][pending["data"]["mover"]] = pending["data"]["heroes"][index - 1]


def carried(ctx, mover: str, tile: str):
    """Traitor's Tome, haunt 2: "Moving an Enslaved Hero"."""
    hero = mine(ctx)["carry"].pop(mover, None)
    s = ctx.s
    if hero is None or not s["players"][hero]["alive"]:
        return
    s["players"][hero]["tile"], s["players"][hero]["half"] = tile, None
    ctx.say(f"{label(ctx, mover)} drags {ctx.name(hero)} to the {ctx.tile_name(tile)}.", kind="move", player=hero,
            tile=tile)
    if tile == pens(ctx):
        if not mine(ctx)["pens_shown"]:
            mine(ctx)["pens_shown"] = True
            ctx.say(f"The {ctx.tile_name(tile)} is Glurk's secret slave pens!", kind="haunt", tile=tile)
        mine(ctx)["enslaved"].remove(hero)
        hp.die(ctx, hero, "sacrificed to Maglubiyet in the slave pens")


def check_freed(ctx, tile: str):
    """Secrets of Survival, haunt 2: "Freeing Enslaved Heroes" (every Goblin on the tile stunned)."""
    if not goblins_on(ctx, tile):
        for hero in enslaved_on(ctx, tile):
            free(ctx, hero, "every Goblin beside them is stunned")


# --- the Goblins -------------------------------------------------------------------------------------------

@effects.step("h02_goblins")
def _goblins(ctx, task, item):
    """Traitor's Tome, haunt 2: "Calling More Goblins"."""
    if item["left"] <= 0:
        return
    s = ctx.s
    here = s["players"][task["player"]]["tile"]
    tiles = sorted({here} | {m["tile"] for m in s["monsters"] if m["name"] == GOBLIN and not m["dead"]},
                   key=ctx.tile_name)
    task["steps"].insert(0, {**item, "left": item["left"] - 1})
    hp.ask_monster_tile(ctx, task["player"], "h02_goblin_tile", GOBLIN, tiles,
                        f"where does the next Goblin come ({item['left']} to place)?")


hp.monster_tile_answer("h02_goblin_tile", GOBLIN)


@effects.step("h02_called")
def _called(ctx, task, item):
    total = task.get("results", [0])[-1]
    ctx.say(f"{total} more Goblin{'s' if total != 1 else ''} answer Glurk's call.", kind="haunt")
    effects.push_front(ctx, [{"do": "h02_goblins", "left": total}])


def mob_attack(ctx, m: dict, target: str):
    """Traitor's Tome, haunt 2: "Special Goblin Mob Attack Rules"."""
    s = ctx.s
    turn = s["turn"]
    attack.check_monster_attack(ctx, m, target, "Goblins attack the heroes.")
    mob = [g for g in goblins_on(ctx, m["tile"]) if g["id"] not in turn["attacked"] and st.beside(s, target, g)]
    for g in mob:
        turn["attacked"].append(g["id"])
    attack.mob_attack_roll(ctx, mob, target, "Goblin", {"do": "h02_mob_outcome"})


@effects.step("h02_mob_outcome")
def _mob_outcome(ctx, task, item):
    a, d, hero = item["a"], item["d"], item["hero"]
    if a == d:
        ctx.say(f"A tie ({a} to {d}): nobody is hurt.", kind="attack")
        return
    if a > d:
        ctx.say(f"The Goblins win {a} to {d}: {a - d} physical damage to {ctx.name(hero)}.", kind="attack")
        effects.push_front(ctx, [{"do": "h02_enslave", "hero": hero}])
        effects.take_damage(ctx, hero, "physical", a - d, source="attack")
        return
    hurt = [monster_by_id(ctx, g) for g in item["mob"]][:d - a]
    ctx.say(f"{ctx.name(hero)} wins {d} to {a}: {len(hurt)} Goblin{'s' if len(hurt) != 1 else ''} take 1 damage "
            "each.", kind="attack")
    for g in hurt:
        attack.stun(ctx, g)
    if hurt:
        check_freed(ctx, hurt[0]["tile"])


@rulesets.register(2)
class GlurkRises(rulesets.RuleSet):
    title = "Glurk Rises"
    secret = ("h02_pens",)  # the slave pens' tile, the traitor's secret
    own = OWN

    def setup_step(self, ctx, step):
        if step.get("do") != "manual":
            return None
        text = step.get("text", "")
        if "room" in text or "stays in play" in text:
            mine(ctx)
            return True  # each side reads its rules privately, and the reveal named Glurk
        if "starting values" in text:
            restore(ctx, glurk(ctx))
            return True
        if "Gain 2 Speed" in text:
            return True  # done with the step before: back to the starting values, then 2 more
        if "slave pens" in text:
            ctx.say("Setup: in your turn, before moving, {move:call} calls more Goblins. Goblins on a hero's "
                    "tile attack as one mob.", kind="haunt_setup", to="traitors")
            effects.queue(ctx, glurk(ctx), [{"do": "h02_pens"}], source="haunt")
            return True
        return None

    def after_damage(self, ctx, winner, loser, kind, distance):
        """Glurk defeats a hero in combat: enslaved as well as hurt."""
        s = ctx.s
        if winner in hp.traitors(s) and loser in hp.heroes(s):
            return [{"do": "h02_enslave", "hero": loser}]
        return None

    def before_outcome(self, ctx, task, item):
        """A hero who attacks a Goblin and loses is defeated by it: enslaved too."""
        attacker, defender = item["attacker"], item["defender"]
        if attacker in ctx.s["players"] and defender not in ctx.s["players"] and item["defence"] > item["attack"] \
                and monster_by_id(ctx, defender)["name"] == GOBLIN and not item["distance"]:
            effects.push_front(ctx, [{"do": "h02_enslave", "hero": attacker}])
        return None

    def monster_attack(self, ctx, m, target, trait):
        if m["name"] != GOBLIN:
            return None
        mob_attack(ctx, m, target)
        return True

    def monster_hurt(self, ctx, m, kind, amount):
        if m["name"] != GOBLIN:
            return None
        attack.stun(ctx, m)
        check_freed(ctx, m["tile"])
        return True

    def watched(self, ctx, mover, tile):
        """A Goblin (or Glurk) about to leave a tile with an enslaved hero."""
        s = ctx.s
        if mover in s["players"] and mover not in hp.traitors(s):
            return None
        if mover not in s["players"] and monster_by_id(ctx, mover)["name"] != GOBLIN:
            return None
        here = where_is(ctx, mover)
        if here == tile or not enslaved_on(ctx, here):
            return None
        return [{"do": "h02_carry", "mover": mover, "from": here}]

    def entered(self, ctx, mover, tile):
        if mover in mine(ctx)["carry"]:
            carried(ctx, mover, tile)

    def turn_started(self, ctx, pid):
        """Secrets of Survival, haunt 2: "You Must Do This at the Start of an Enslaved Hero's Turn"."""
        s = ctx.s
        mine(ctx)["carry"] = {}
        if pid not in mine(ctx)["enslaved"]:
            return None
        tile = s["players"][pid]["tile"]
        helpers = [p for p in hp.alive(s, hp.heroes(s)) if p != pid and s["players"][p]["tile"] == tile
                   and p not in mine(ctx)["enslaved"]]
        target = FREE_TARGET + len(goblins_on(ctx, tile)) - len(helpers)
        ctx.say(f"{ctx.name(pid)} is enslaved and struggles to break free (Speed {target}+).", kind="haunt", player=pid)
        effects.queue(ctx, pid, [{"do": "roll", "trait": "speed", "bands": [
            {"at_least": target, "then": [{"do": "h02_break_free"}]},
            {"at_most": target - 1, "then": [{"do": "_end_turn"}]}]}], source="haunt")
        return None

    def haunt_goals(self, ctx, pid):
        """Glurk drags an enslaved hero on his tile to his secret pens (a goal
        only his own built-in player reads), else hunts; a free hero heads for
        Glurk and for enslaved heroes to free."""
        s = ctx.s
        if pid in hp.traitors(s):
            here = s["players"][pid]["tile"]
            return {pens(ctx)} if pens(ctx) and enslaved_on(ctx, here) else None
        if pid in (s["haunt"].get("h02") or {}).get("enslaved", []):
            return None
        chained = (s["haunt"].get("h02") or {}).get("enslaved", [])
        return {s["players"][p]["tile"] for p in hp.alive(s, hp.traitors(s)) + [h for h in chained
                if s["players"][h]["alive"]]} or None

    def monster_goals(self, ctx, m):
        """A Goblin beside an enslaved hero drags them to the secret pens (the
        traitor's built-in player only)."""
        if m["name"] != GOBLIN or not pens(ctx) or not enslaved_on(ctx, m["tile"]):
            return None
        return {pens(ctx)}

    moves = (
        rulesets.Move("call", "Call more Goblins", lambda ctx, pid, trait: call(ctx, pid), who="traitors",
                      summary="Instead of moving, roll 2 dice: that many Goblins on Glurk's tile or tiles with one."),
    )


def call(ctx, pid: str):
    """Traitor's Tome, haunt 2: "Calling More Goblins" (2 dice, in place of moving)."""
    turn = ctx.s["turn"]
    if pid not in hp.traitors(ctx.s) or turn["player"] != pid:
        raise IllegalAction("Glurk calls more Goblins in his own turn.")
    if turn["moved"] or turn["stopped"]:
        raise IllegalAction("Calling more Goblins takes the place of moving this turn.")
    turn["stopped"] = True
    effects.queue(ctx, pid, [{"do": "roll", "dice": 2, "bands": [{"then": [{"do": "h02_called"}]}]}],
                  source="haunt", front=True)
