"""Haunt 17, An Eye in the Sky (Traitor's Tome and Secrets of Survival).

The data places the Gibbering Mouthers (the traitor picks catacomb tiles,
one per tile while free ones last), piles the Anti-Magic Wards (a counter)
and checks both wins (every hero dead; every Ward on a catacomb tile).

What the bot carries out:
- the traitor's Knowledge put back to its start, then 2 gained;
- the end of a hero's turn: Khirad's light (1 die of mental damage on the
  city level) or a Ward laid from the pile on a catacomb tile without a
  Mouther or a Ward;
- clearing the Wards: the declared move `ward` on a city-level omen tile,
  Knowledge 3+, the traitor picks the Ward to clear on any tile; a 5+ earns
  one more attempt, never more than two clears a turn;
- Attacking Their Minds: the traitor may attack a hero with Knowledge;
- the Mouthers: never leave the catacomb level, move before they attack,
  attack together with Sanity (3 dice, 2 more for each further Mouther on
  the tile, 8 at most). A win puts the hero on a city tile the traitor
  picks instead of damage, a loss takes 1 Mouther off the tile. Every hero
  the traitor has not attacked with them by the end of the monster turn is
  attacked then (the book makes the attack happen to every hero there);
- a hero's own win against a Mouther removes it and gains 1 Sanity;
- the monster turn tops the Mouthers up to the number of adventurers (the
  traitor places them on catacomb tiles) and ends with Khirad's light on
  every hero on a building or street tile. It takes place even when no
  Mouther is left, since its top-up brings them back.

Left to the players: nothing.
"""
from .. import attack, effects, hooks, rng, rulesets
from .. import board as bd
from .. import haunt_play as hp
from .. import state as st
from .. import traits as tr
from ..errors import IllegalAction
from ..moves import place_on

MOUTHER = "Gibbering Mouther"
WARD = "Anti-Magic Ward"
PILE = "Anti-Magic Wards in the pile"
CLEAR_TARGET, AGAIN_TARGET, MOST_CLEARS = 3, 5, 2
FIRST_DICE, MORE_DICE = 3, 2
TOP_UP = {"do": "place_monster", "monster": MOUTHER, "side": "traitor", "at": "chosen", "among": ["catacomb"],
          "apart": ["same"], "apart_if_possible": True, "count": 1}


OWN = rulesets.Own("h17", {"clearing": {}})  # this turn's clearing attempts (no player ids)


def mine(ctx) -> dict:
    return rulesets.REGISTRY[17].record(ctx.s)


def mouthers(s: dict, tile: str | None = None) -> list[dict]:
    return [m for m in s["monsters"] if m["name"] == MOUTHER and not m["dead"] and (tile is None or m["tile"] == tile)]


def level(ctx, tile: str) -> str:
    return ctx.c.tiles[tile].level


def wards_on(s: dict, tile: str) -> list[dict]:
    return [t for t in s["tokens"] if t["name"] == WARD and t["tile"] == tile]


def remove_mouther(ctx, m: dict, why: str):
    m["dead"] = True
    ctx.say(f"{st.monster_called(m)} {why} and is taken off the board.", kind="monster", monster=m["id"])
    hooks.fire("monster_killed", ctx, m["id"])


# --- steps --------------------------------------------------------------------------------

@effects.step("h17_hero_turn_ends")
def _hero_turn_ends(ctx, task, item):
    """Secrets of Survival, haunt 17: "You Must Do This at the End of Your Turn"."""
    s = ctx.s
    pid = task["player"]
    p = s["players"][pid]
    if s["phase"] != "haunt" or not st.on_board(p):
        return
    where = level(ctx, p["tile"])
    if where == "city":
        ctx.say(f"Khirad's light racks {ctx.name(pid)}'s mind.", kind="haunt", player=pid)
        effects.push_front(ctx, [{"do": "damage", "kind": "mental", "dice": 1}])
        return
    counters = s["haunt"]["counters"]
    if where == "catacomb" and not mouthers(s, p["tile"]) and not wards_on(s, p["tile"]) and counters.get(PILE, 0) > 0:
        counters[PILE] -= 1
        s["tokens"].append({"name": WARD, "tile": p["tile"]})
        ctx.say(f"{ctx.name(pid)} lays an Anti-Magic Ward on the {ctx.tile_name(p['tile'])} ({counters[PILE]} left "
                "in the pile).", kind="token", tile=p["tile"])


@effects.step("h17_ward_cleared")
def _ward_cleared(ctx, task, item):
    s = ctx.s
    tiles = sorted({t["tile"] for t in s["tokens"] if t["name"] == WARD}, key=ctx.tile_name)
    if not tiles:
        ctx.say("There is no Anti-Magic Ward on the board to clear.", kind="haunt")
        return
    clearing = mine(ctx)["clearing"]
    clearing["clears"] = clearing.get("clears", 0) + 1
    if len(tiles) == 1:
        clear_ward(ctx, tiles[0])
        return
    effects.ask(ctx, task["player"], "h17_clear", "which Anti-Magic Ward do you clear?",
                [ctx.tile_name(t) for t in tiles], tiles=tiles)


@effects.decision("h17_clear")
def _decide_clear(ctx, pending, index):
    clear_ward(ctx, pending["data"]["tiles"][index])


def clear_ward(ctx, tile: str):
    s = ctx.s
    s["tokens"].remove(wards_on(s, tile)[0])
    s["haunt"]["counters"][PILE] = s["haunt"]["counters"].get(PILE, 0) + 1
    ctx.say(f"An Anti-Magic Ward on the {ctx.tile_name(tile)} is cleared and goes back to the pile.", kind="token",
            tile=tile)


@effects.step("h17_group_attack")
def _group_attack(ctx, task, item):
    """Traitor's Tome, haunt 17: "Special Gibbering Mouther Attack Rules"."""
    s = ctx.s
    hero = item["hero"]
    p = s["players"][hero]
    if s["phase"] != "haunt" or not st.on_board(p):
        return
    turn = s["turn"]
    group = [m for m in mouthers(s, p["tile"]) if not m["stunned"] and m["id"] not in turn["attacked"]
             and st.beside(s, hero, m)]
    if not group:
        return
    boss = hp.controller(s)
    turn["attacked"] += [m["id"] for m in group]
    n = rng.dice_count(FIRST_DICE + MORE_DICE * (len(group) - 1))
    ctx.say(f"{len(group)} Gibbering Mouther{'s' if len(group) > 1 else ''} babble at {ctx.name(hero)} (a Sanity "
            "attack).", kind="attack")
    a = effects.make_roll(ctx, boss, n, "Sanity for the Gibbering Mouthers", kind="contest")
    d = attack.defence_roll(ctx, hero, "sanity", ctx.value(hero, "sanity"))
    if a == d:
        ctx.say(f"A tie ({a} to {d}): nothing happens.", kind="attack")
        return
    if d > a:
        ctx.say(f"{ctx.name(hero)} wins {d} to {a}.", kind="attack")
        remove_mouther(ctx, group[0], "falls silent")
        return
    cities = sorted((t for t in s["board"] if level(ctx, t) == "city"), key=ctx.tile_name)
    ctx.say(f"The Mouthers win {a} to {d}: their babbling drives {ctx.name(hero)} away to the city.", kind="attack")
    if len(cities) == 1:
        place_on(ctx, hero, cities[0], verb="is driven to")
        return
    effects.ask(ctx, boss, "h17_drive", f"which city tile is {ctx.name(hero)} driven to?",
                [ctx.tile_name(t) for t in cities], tiles=cities, hero=hero)


@effects.decision("h17_drive")
def _decide_drive(ctx, pending, index):
    place_on(ctx, pending["data"]["hero"], pending["data"]["tiles"][index], verb="is driven to")


@effects.step("h17_mouthers_strike")
def _mouthers_strike(ctx, task, item):
    """Every hero on the catacomb level whom the Mouthers on their tile have
    not attacked yet is attacked as the monster turn ends."""
    s = ctx.s
    steps = [{"do": "h17_group_attack", "hero": h} for h in hp.alive(s, hp.heroes(s))
             if st.on_board(s["players"][h]) and level(ctx, s["players"][h]["tile"]) == "catacomb"]
    effects.push_front(ctx, steps)


KHIRAD = [{"do": "h17_say", "text": "Khirad's light falls on every hero in the city's buildings and streets."},
          {"do": "each", "on": "building", "others": True, "then": [{"do": "damage", "kind": "mental", "dice": 1}]},
          {"do": "each", "on": "street", "others": True, "then": [{"do": "damage", "kind": "mental", "dice": 1}]}]


@effects.step("h17_say")
def _say(ctx, task, item):
    ctx.say(item["text"], kind="haunt")


@rulesets.register(17)
class AnEyeInTheSky(rulesets.RuleSet):
    title = "An Eye in the Sky"

    def setup_step(self, ctx, step):
        text = step.get("text", "")
        if step.get("do") != "manual" or step.get("side") != "traitor":
            return None
        if "Knowledge" in text:  # Traitor's Tome, haunt 17: "Right Now"
            for pid in hp.traitors(ctx.s):
                p = ctx.s["players"][pid]
                start = ctx.c.adventurers[p["adventurer"]].tracks["knowledge"].start
                if p["traits"]["knowledge"] < start:
                    tr.change(ctx, pid, "knowledge", start - p["traits"]["knowledge"])
                tr.change(ctx, pid, "knowledge", 2)
            ctx.say("Setup: the traitor may clear Anti-Magic Wards ({move:ward}) while on a city-level omen tile, "
                    "and attack a hero with Knowledge.", kind="haunt_setup", to="traitors")
        return True  # "stays in play as the traitor": the reveal has said so

    def turn_ending(self, ctx, pid):
        return [{"do": "h17_hero_turn_ends"}] if pid in hp.heroes(ctx.s) else None

    def next_slot(self, ctx):
        """The monster turn comes even with no Mouther left: it begins by
        placing them again (Traitor's Tome, haunt 17: "You Must Do This at
        the Start of the Monster Turn")."""
        s = ctx.s
        turn = s["turn"]
        if not s["haunt"].get("started") or turn.get("monsters"):
            return None
        order = s["order"]
        if order[(order.index(turn["player"]) + 1) % len(order)] != hp.MONSTERS or mouthers(s):
            return None
        hp.begin_monster_turn(ctx, turn["number"] + 1)
        return True

    def monster_turn(self, ctx, number):
        s = ctx.s
        missing = len(s["seats"]) - len(mouthers(s))
        if missing > 0:
            ctx.say(f"The monster turn begins with {missing} new Gibbering Mouther{'s' if missing > 1 else ''}.",
                    kind="haunt")
            effects.queue(ctx, hp.controller(s), [{"do": "_place_chosen", "step": TOP_UP, "left": missing,
                                                   "of": missing}], source="haunt")
        return None  # then the ordinary monster turn

    def monster_turn_ending(self, ctx):
        return [{"do": "h17_mouthers_strike"}, *KHIRAD]

    def monster_blocked(self, ctx, m, dest):
        """Traitor's Tome, haunt 17: "Special Gibbering Mouther Movement Rules"."""
        if m["name"] != MOUTHER:
            return None
        if level(ctx, dest) != "catacomb":
            return "Gibbering Mouthers never leave the catacomb level."
        if m["id"] in ctx.s["turn"]["attacked"]:
            return "A Gibbering Mouther that moves must do so before it attacks."
        return None

    def monster_attack(self, ctx, m, target, trait):
        if m["name"] != MOUTHER:
            return None
        s = ctx.s
        if target not in s["players"] or target not in hp.heroes(s) or not s["players"][target]["alive"]:
            raise IllegalAction("Gibbering Mouthers attack the heroes.")
        if not st.beside(s, target, m):
            raise IllegalAction(f"{ctx.name(target)} is not on {st.monster_called(m)}'s tile.")
        if m["stunned"] or m["id"] in s["turn"]["attacked"]:
            raise IllegalAction(f"{st.monster_called(m)} has already attacked this turn.")
        if trait and trait.lower() != "sanity":
            raise IllegalAction("Gibbering Mouthers attack only with Sanity.")
        effects.queue(ctx, s["turn"]["player"], [{"do": "h17_group_attack", "hero": target}], source="haunt",
                      front=True)
        return True

    def monster_hurt(self, ctx, m, kind, amount):
        """Secrets of Survival and Traitor's Tome, haunt 17: "Destroying a
        Gibbering Mouther" (only a hero's own attack earns the Sanity)."""
        if m["name"] != MOUTHER:
            return None
        s = ctx.s
        attacker = s["haunt"].get("last_attacker")
        remove_mouther(ctx, m, "is beaten")
        if attacker in s["players"] and not s["turn"].get("monsters") and s["players"][attacker]["alive"]:
            tr.change(ctx, attacker, "sanity", 1)
        return True

    def attack_traits(self, ctx, pid, weapon):
        """Traitor's Tome, haunt 17: "Attacking Their Minds"."""
        return ["knowledge"] if pid in hp.traitors(ctx.s) and weapon is None else None

    def haunt_goals(self, ctx, pid):
        """The heroes: catacomb tiles without a Ward (a Mouther there is
        beaten first, which frees the tile and gains Sanity; and
        while too few are free, the catacombs' open doorways and the tiles
        still to find); the
        traitor: the city's omen tiles while a Ward is down, else the hunt."""
        s = ctx.s
        if pid in hp.traitors(s):
            if not any(t["name"] == WARD for t in s["tokens"]):
                return None
            return {t for t in s["board"] if level(ctx, t) == "city" and ctx.c.tiles[t].symbol == "omen"} or None
        if pid not in hp.heroes(s):
            return None
        free = {t for t in s["board"] if level(ctx, t) == "catacomb" and not wards_on(s, t)}  # a Mouther: fight it
        if len(free) < s["haunt"]["counters"].get(PILE, 0):  # more to find: the catacombs' open doorways
            free |= {t for t, _ in bd.open_doorways(ctx.c, s["board"], "catacomb")}
            free |= set(s["stacks"].get("catacomb", []))
        return free or None

    own = OWN
    moves = (
        rulesets.Move("ward", "Clear an Anti-Magic Ward", lambda ctx, pid, trait: clear(ctx, pid, trait),
                      traits=("knowledge",), who="traitors",
                      summary="On a city-level omen tile, Knowledge 3+ clears a Ward of your choice (5+: one more "
                              "try; two clears a turn at most)."),
    )


def clear(ctx, pid: str, trait: str):
    """Traitor's Tome, haunt 17: "How to Clear the Wards"."""
    s = ctx.s
    tile = s["players"][pid]["tile"]
    if pid not in hp.traitors(s):
        raise IllegalAction("Only the traitor clears Anti-Magic Wards.")
    if s["turn"].get("monsters"):
        raise IllegalAction("Wards are cleared in your own turn, not the monster turn.")
    if trait != "knowledge":
        raise IllegalAction("Clearing a Ward takes a Knowledge roll.")
    if level(ctx, tile) != "city" or ctx.c.tiles[tile].symbol != "omen":
        raise IllegalAction("You clear Wards from an omen tile on the city level.")
    clearing = mine(ctx)["clearing"]
    if clearing.get("turn") != s["turn"]["number"]:
        clearing.clear()
        clearing.update({"turn": s["turn"]["number"], "tries": 0, "allowed": 1, "clears": 0})
    if clearing["tries"] >= clearing["allowed"] or clearing["clears"] >= MOST_CLEARS:
        raise IllegalAction("You have no attempt left to clear a Ward this turn.")
    if not any(t["name"] == WARD for t in s["tokens"]):
        raise IllegalAction("There is no Anti-Magic Ward on the board.")
    clearing["tries"] += 1
    total = effects.make_roll(ctx, pid, rng.dice_count(ctx.value(pid, "knowledge")), "Knowledge to clear a Ward",
                              trait="knowledge", kind="trait")
    if total >= AGAIN_TARGET and clearing["tries"] == 1:
        clearing["allowed"] = 2
        ctx.say("5 or more: one more attempt this turn.", kind="haunt")
    if total >= CLEAR_TARGET:
        effects.queue(ctx, pid, [{"do": "h17_ward_cleared"}], source="haunt", front=True)
    else:
        ctx.say("The Ward holds.", kind="haunt")
