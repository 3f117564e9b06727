"""Haunt 41, Hail Olhydra! (Traitor's Tome and Secrets of Survival).

What the bot carries out:
- Setup: the Morkoth's Might and Sanity back up to their starting values, then
  2 more in each (data); the Portal and the first Flood token on the omen tile
  that set off the haunt (data).
- The flood: at the end of every adventurer's turn each living Morkoth puts a
  Flood token (asked when there is a choice): on a dry catacomb tile next to
  and connected with a flooded tile while one is left, else on a dry city
  tile with a sewer grate or stairs or beside a flooded tile.
- Drowning: a hero starting a turn on a flooded tile without the Apparatus
  rolls Speed 4+; on a failure all four traits go back to their starting
  values and the hero becomes a Morkoth (a traitor, sent the Tome in private);
  their turn ends.
- The Morkoths may not leave a flooded tile by choice; one moved off is put
  back on the nearest flooded tile at the end of its turn. Their hypnosis:
  the declared move `hypnotise` in place of an attack, a Sanity attack on a
  hero in line of sight (inside the Apparatus too): a win moves the hero up to the
  difference in tiles, step by step where the Morkoth picks; a loss hurts the
  Morkoth only on the hero's tile.
- The Apparatus of Kwalish: the move `build` on the Smithy, Trash Pile or
  Weapon Shop Basement (Knowledge 7+, then items discarded one by one for +1
  each); it is the heroes' piece and takes no monster turn; heroes on its tile
  are inside and never drown. A hero starting a turn inside picks one move:
  `pilot` (3 dice: that many spaces, the Apparatus and the heroes inside
  going along), `control` (its Might 4 attacks an enemy within 1 tile) or,
  within 1 tile of the Portal, `close` (Might 4+ with its 4 dice: a quest
  token on the Portal's tile). Damage to it is taken by
  the heroes inside, a point at a time where they choose; once no living hero
  is inside after such damage it is gone and must be built again.
- Wins: the Portal closed: the quest tokens on its tile, the Portal's own
  triangular quest token among them, equal the adventurers (so the heroes'
  pile, one per hero, is just enough); every hero dead or a Morkoth; every
  tile flooded.

Left to the players: nothing of the haunt's rules.
"""
from .. import attack, effects, hooks, rulesets
from .. import board as bd
from .. import cards as cd
from .. import haunt_play as hp
from .. import rng
from .. import tokens as tk
from ..errors import IllegalAction
from ..geometry import distances, moves_from

FLOOD, PORTAL, APPARATUS = "Flood", "Portal to the Elemental Plane of Water", "Apparatus of Kwalish"
SEALS = "Portal seals"
WORKSHOPS = ("smithy", "trash_pile", "weapon_shop_basement")
BUILD, DROWN, CLOSE = 7, 4, 4
SEAL = "Portal seal"  # a triangular quest token the heroes put on the Portal's tile
HERO_WORDS = ("On the Smithy, Trash Pile or Weapon Shop Basement: {move:build} (Knowledge 7+, items discarded after "
              "the roll add 1 each). Starting a turn inside the Apparatus: {move:pilot}, {move:control}, or within 1 "
              "tile of the Portal {move:close}.")
TRAITOR_WORDS = "In place of an attack: {move:hypnotise} (a hero in line of sight)."
OWN = rulesets.Own("h41", {"aboard": []}, players=("aboard",))


def mine(ctx) -> dict:
    """This haunt's own record: the heroes carried along by the Apparatus being piloted."""
    return rulesets.REGISTRY[41].record(ctx.s)


def quest_tokens_at_portal(ctx) -> int:
    """Both books, haunt 41: the Portal is itself a triangular quest token
    (Traitor's Tome, "Right Now"), so the quest tokens on its tile are the
    Portal's and the seals put there."""
    gate = portal(ctx)
    return sum(1 for t in tk.on_tile(ctx.s, gate) if t["name"] in (PORTAL, SEAL)) if gate else 0


def flooded(ctx, tile: str) -> bool:
    return any(t["name"] == FLOOD for t in tk.on_tile(ctx.s, tile))


def machine(ctx) -> dict | None:
    return next((m for m in ctx.s["monsters"] if m["name"] == APPARATUS and not m["dead"]), None)


def portal(ctx) -> str | None:
    return next((t["tile"] for t in ctx.s["tokens"] if t["name"] == PORTAL), None)


def inside(ctx, tile: str | None = None) -> list[str]:
    """The living heroes on the Apparatus's tile, in turn order."""
    m = machine(ctx)
    s = ctx.s
    if m is None:
        return []
    return [p for p in s["order"] if p in hp.alive(s, hp.heroes(s)) and s["players"][p]["tile"] == m["tile"]]


def flood_choices(ctx) -> list[str]:
    """Traitor's Tome, haunt 41: "You Must Do This at the End of Each
    Adventurer's Turn". Ruling: "connected" counts stairs and the sewer grate;
    with no dry catacomb tile connected to the flood, it spreads by step 2."""
    s = ctx.s
    wet = {t for t in s["board"] if flooded(ctx, t)}
    dry_below = [t for t in s["board"] if ctx.c.tiles[t].level == "catacomb" and t not in wet]
    near = {o for t in wet for o, _ in moves_from(ctx, t)}
    found = [t for t in dry_below if t in near]
    if not found:
        squares = bd.grid(s["board"])
        beside = set()
        for t in wet:
            for side in bd.SIDES:
                other = squares.get(bd.neighbour_square(s["board"][t], side))
                if other:
                    beside.add(other)
        found = [t for t in s["board"] if ctx.c.tiles[t].level == "city" and t not in wet
                 and (ctx.c.tiles[t].sewer_grate or ctx.c.tiles[t].stairs_to or t in beside)]
    return sorted(found, key=ctx.tile_name)


def add_flood(ctx, tile: str):
    tk.place(ctx.s, FLOOD, tile)
    ctx.say(f"The flood rises into the {ctx.tile_name(tile)}.", kind="token", tile=tile)


@effects.step("h41_flood")
def _flood(ctx, task, item):
    tiles = flood_choices(ctx)
    if not tiles or ctx.s["phase"] != "haunt":
        return
    if len(tiles) == 1:
        add_flood(ctx, tiles[0])
        return
    effects.ask(ctx, task["player"], "h41_flood", "which tile does the flood take next?",
                [ctx.tile_name(t) for t in tiles], tiles=tiles)


@effects.decision("h41_flood")
def _decide_flood(ctx, pending, index):
    add_flood(ctx, pending["data"]["tiles"][index])


@effects.step("h41_drown")
def _drown(ctx, task, item):
    """Traitor's Tome, haunt 41: "Drowning Heroes"."""
    s = ctx.s
    pid = task["player"]
    p = s["players"][pid]
    tracks = ctx.c.adventurers[p["adventurer"]].tracks
    for trait in ("might", "speed", "knowledge", "sanity"):
        p["traits"][trait] = tracks[trait].start
    s["haunt"]["traitors"].append(pid)
    ctx.say(f"{ctx.name(pid)} drowns and rises again as a Morkoth, a traitor serving Olhydra.", kind="haunt",
            traitors=[pid])
    haunt = ctx.c.haunts.get(s["haunt"]["number"])
    for text in hp.rules_texts(ctx, haunt, pid):
        ctx.say(text, kind="secret_rules", to=pid)
    ctx.say(f"You are a Morkoth now (ignore the Tome's Right Now). {TRAITOR_WORDS}", kind="secret", to=pid)
    hooks.fire("traitor_named", ctx, pid)
    hp.check_wins(ctx)
    if s["phase"] == "haunt":
        effects.push_front(ctx, [{"do": "_end_turn"}])  # Ruling: the drowned hero's turn ends there


@effects.step("h41_back_to_flood")
def _back_to_flood(ctx, task, item):
    """Traitor's Tome, haunt 41: "Special Movement Rules"."""
    pid = task["player"]
    s = ctx.s
    here = s["players"][pid]["tile"]
    if not s["players"][pid]["alive"] or flooded(ctx, here):
        return
    reach = distances(ctx, here)
    wet = [t for t in s["board"] if flooded(ctx, t)]
    if not wet:
        return
    best = min(reach.get(t, 99) for t in wet)
    tile = sorted((t for t in wet if reach.get(t, 99) == best), key=ctx.tile_name)[0]
    s["players"][pid]["tile"], s["players"][pid]["half"] = tile, None
    ctx.say(f"{ctx.name(pid)} returns to the flood on the {ctx.tile_name(tile)}.", kind="move", player=pid, tile=tile)


# --- the Apparatus --------------------------------------------------------------------------------

@effects.step("h41_built")
def _built(ctx, task, item):
    pid = task["player"]
    if machine(ctx):
        return
    hp.add_monster(ctx, APPARATUS, ctx.s["players"][pid]["tile"])
    ctx.say(f"{ctx.name(pid)} bolts the last pipe in place: the Apparatus of Kwalish, a six-legged iron barrel, "
            "is ready to dive.", kind="haunt", player=pid)


@effects.step("h41_build_short")
def _build_short(ctx, task, item):
    """Secrets of Survival, haunt 41: "How to Construct the Apparatus of
    Kwalish": after the roll, each item discarded adds 1. Ruling: the hero is
    asked once whether to discard the items that make up the shortfall (fewer
    would change nothing), then which ones."""
    pid = task["player"]
    items = [c for c in ctx.s["players"][pid]["cards"] if ctx.c.cards[c].deck == "item"]
    short = BUILD - task.get("results", [0])[-1]
    if len(items) < short:
        ctx.say(f"{ctx.name(pid)} cannot finish the Apparatus this time ({BUILD - short} of {BUILD}).", kind="haunt")
        return
    effects.ask(ctx, pid, "h41_discard", f"the build is at {BUILD - short} of {BUILD}: discard {short} item(s) "
                "to finish the Apparatus?", ["Yes", "No"], short=short)


@effects.decision("h41_discard")
def _decide_discard(ctx, pending, index):
    if index == 0:
        effects.push_front(ctx, [{"do": "h41_discard_one", "left": pending["data"]["short"]}])


@effects.step("h41_discard_one")
def _discard_one(ctx, task, item):
    pid = task["player"]
    items = [c for c in ctx.s["players"][pid]["cards"] if ctx.c.cards[c].deck == "item"]
    if item["left"] <= 0:
        effects.push_front(ctx, [{"do": "h41_built"}])
        return
    task["steps"].insert(0, {**item, "left": item["left"] - 1})
    if len(items) == item["left"]:
        for cid in items:
            cd.discard(ctx, cid)
        task["steps"][0]["left"] = 0
        return
    effects.ask(ctx, pid, "h41_discard_which", f"which item do you discard ({item['left']} to go)?",
                [ctx.card_name(c) for c in items], cards=items)


@effects.decision("h41_discard_which")
def _decide_discard_which(ctx, pending, index):
    cd.discard(ctx, pending["data"]["cards"][index])


@effects.step("h41_seal")
def _seal(ctx, task, item):
    counters = ctx.s["haunt"]["counters"]
    counters[SEALS] = counters.get(SEALS, 0) + 1
    tk.place(ctx.s, SEAL, portal(ctx))
    ctx.say(f"A quest token goes on the Portal's tile: {quest_tokens_at_portal(ctx)} quest tokens there, the "
            f"Portal's own among them, of the {len(ctx.s['seats'])} that close it.", kind="haunt")


@effects.step("h41_share")
def _share(ctx, task, item):
    """Secrets of Survival, haunt 41: "Defending and Damaging the Apparatus":
    each point goes to a hero inside (Ruling: the first hero inside, in turn
    order, picks who takes each point)."""
    crew = inside(ctx)
    if not crew or item["left"] <= 0:
        return
    task["steps"].insert(0, {**item, "left": item["left"] - 1})
    if len(crew) == 1:
        effects.queue(ctx, crew[0], [{"do": "damage", "kind": item["kind"], "amount": item["left"]}],
                      source="haunt", front=True)
        task["steps"][0]["left"] = 0
        return
    effects.ask(ctx, crew[0], "h41_share", f"who inside the Apparatus takes 1 point of {item['kind']} damage "
                f"({item['left']} to share)?", [ctx.name(p) for p in crew], targets=crew, damage=item["kind"])


@effects.decision("h41_share")
def _decide_share(ctx, pending, index):
    who = pending["data"]["targets"][index]  # `targets`: renamed by the engine with a seat handed over
    effects.queue(ctx, who, [{"do": "damage", "kind": pending["data"]["damage"], "amount": 1}], source="haunt",
                  front=True)


def leave_machine_if_empty(ctx, dead: str):
    """Once the last hero inside dies, the Apparatus is gone."""
    m = machine(ctx)
    if m and ctx.s["players"][dead]["tile"] == m["tile"] and not inside(ctx):
        m["dead"] = True
        ctx.say("Nobody is left alive inside the Apparatus of Kwalish: it sinks and must be built again.",
                kind="monster", monster=m["id"])


# --- the Morkoth's hypnosis ---------------------------------------------------------------------

@effects.step("h41_drag")
def _drag(ctx, task, item):
    s = ctx.s
    hero = item["target"]  # `target`: a player field the engine renames with a seat handed over
    if item["left"] <= 0 or not s["players"][hero]["alive"]:
        return
    here = s["players"][hero]["tile"]
    ways = sorted({t for t in bd.exits(ctx.c, s["board"], here).values() if t}, key=ctx.tile_name)
    if not ways:
        return
    task["steps"].insert(0, {**item, "left": item["left"] - 1})
    effects.ask(ctx, task["player"], "h41_drag", f"move {ctx.name(hero)} where ({item['left']} left)?",
                ["Stop here"] + [ctx.tile_name(t) for t in ways], tiles=ways, target=hero)


@effects.decision("h41_drag")
def _decide_drag(ctx, pending, index):
    task = effects.current(ctx)
    if index == 0:
        task["steps"].pop(0)
        return
    hero, tile = pending["data"]["target"], pending["data"]["tiles"][index - 1]
    ctx.s["players"][hero]["tile"], ctx.s["players"][hero]["half"] = tile, None
    ctx.say(f"{ctx.name(hero)} walks, entranced, to the {ctx.tile_name(tile)}.", kind="move", player=hero, tile=tile)


@effects.step("h41_hypnosis")
def _hypnosis(ctx, task, item):
    pid, hero = task["player"], item["target"]
    s = ctx.s
    a = effects.make_roll(ctx, pid, attack.attack_dice(ctx, pid, "sanity"), "Sanity to hypnotise", trait="sanity",
                          kind="attack")
    d = attack.defence_roll(ctx, hero, "sanity", ctx.value(hero, "sanity"))
    if a > d:
        ctx.say(f"{ctx.name(hero)} is hypnotised: {ctx.name(pid)} may move them up to {a - d} tile(s).", kind="attack")
        effects.push_front(ctx, [{"do": "h41_drag", "target": hero, "left": a - d}])
    elif d > a and s["players"][hero]["tile"] == s["players"][pid]["tile"]:
        effects.push_front(ctx, [{"do": "damage", "kind": "mental", "amount": d - a}])
    else:
        ctx.say(f"{ctx.name(hero)} shakes off the hypnosis.", kind="attack")


def control_attack(ctx, pid: str, target: str):
    """Secrets of Survival, haunt 41: "Special Apparatus of Kwalish Rules"
    (Control): a Might attack with the Apparatus's Might."""
    s = ctx.s
    m = machine(ctx)
    ctx.say(f"{ctx.name(pid)} works the Apparatus's pincers against {ctx.name(target)}.", kind="attack")
    a = effects.make_roll(ctx, pid, rng.dice_count(m["traits"]["might"]), "the Apparatus's Might to attack",
                          kind="attack")
    d = attack.defence_roll(ctx, target, "might", ctx.value(target, "might"))
    effects.push_front(ctx, [attack.roll_off(pid, target, "might", a, d, s["players"][target]["tile"] != m["tile"]),
                             {"do": "_attack_over"}])


@rulesets.register(41)
class HailOlhydra(rulesets.RuleSet):
    title = "Hail Olhydra!"

    def setup_step(self, ctx, step):
        text = step.get("text", "")
        if step.get("do") == "manual" and "Apparatus of Kwalish" in text:
            ctx.say(f"Setup: {HERO_WORDS}", kind="haunt_setup", to="heroes")
            ctx.say(f"Setup: {TRAITOR_WORDS}", kind="haunt_setup", to="traitors")
            return True
        if step.get("do") == "manual":  # the flood and quest token piles: the bot keeps them
            return True
        return None

    def turn_started(self, ctx, pid):
        s = ctx.s
        if pid not in hp.heroes(s):
            return
        here = s["players"][pid]["tile"]
        m = machine(ctx)
        s["turn"]["h41_inside"] = bool(m and m["tile"] == here)
        if flooded(ctx, here) and not (m and m["tile"] == here):
            effects.queue(ctx, pid, [{"do": "roll", "trait": "speed", "bands": [
                {"at_least": DROWN, "then": []}, {"at_most": DROWN - 1, "then": [{"do": "h41_drown"}]}]}],
                source="haunt")

    def turn_ending(self, ctx, pid):
        s = ctx.s
        steps = []
        if pid in hp.traitors(s):
            steps.append({"do": "h41_back_to_flood"})
        for morkoth in hp.alive(s, hp.traitors(s)):
            effects.queue(ctx, morkoth, [{"do": "h41_flood"}], source="haunt")
        return steps or None

    def leave_blocked(self, ctx, pid):
        s = ctx.s
        if pid in hp.traitors(s) and flooded(ctx, s["players"][pid]["tile"]):
            return "A Morkoth may not leave a flooded tile by choice."
        pilot = s["turn"].get("h41_pilot")
        if pilot is not None and s["turn"]["player"] == pid and s["turn"]["moved"] >= pilot:
            return f"The Apparatus has moved its {pilot} spaces."
        return None

    def leaving(self, ctx, pid, tile):
        if ctx.s["turn"].get("h41_pilot") is not None and ctx.s["turn"]["player"] == pid:
            mine(ctx)["aboard"] = [p for p in inside(ctx) if p != pid]

    def entered(self, ctx, mover, tile):
        s = ctx.s
        m = machine(ctx)
        if m and s["turn"] and s["turn"].get("h41_pilot") is not None and mover == s["turn"]["player"]:
            m["tile"] = tile
            for p in mine(ctx)["aboard"]:
                s["players"][p]["tile"], s["players"][p]["half"] = tile, None
            ctx.say(f"The Apparatus of Kwalish carries {len(mine(ctx)['aboard']) + 1} hero(es) to the "
                    f"{ctx.tile_name(tile)}.", kind="monster_move", monster=m["id"], tile=tile)

    def monster_hurt(self, ctx, m, kind, amount):
        if m["name"] != APPARATUS:
            return None
        effects.queue(ctx, hp.chooser(ctx.s, "heroes"), [{"do": "h41_share", "kind": kind, "left": amount}],
                      source="haunt", front=True)
        return True

    def death(self, ctx, pid, killer):
        leave_machine_if_empty(ctx, pid)

    def win_check(self, ctx):
        s = ctx.s
        if not hp.alive(s, hp.heroes(s)):
            return "traitor", "Every hero is dead or has become a Morkoth."
        if all(flooded(ctx, t) for t in s["board"]):
            return "traitor", "Every tile on the board is flooded."
        if quest_tokens_at_portal(ctx) >= len(s["seats"]):  # Secrets of Survival, haunt 41, L4966-4968
            return "heroes", "The quest tokens on the Portal's tile equal the adventurers: the Portal is closed.", \
                "portal closed"
        return None

    own = OWN
    moves = (
        rulesets.Move("build", "Build the Apparatus of Kwalish", lambda ctx, pid, trait: build(ctx, pid),
                      traits=("knowledge",), who="heroes", once_per_turn=True,
                      summary="On the Smithy, Trash Pile or Weapon Shop Basement: Knowledge 7+, each item "
                              "discarded after the roll adding 1."),
        rulesets.Move("pilot", "Pilot the Apparatus", lambda ctx, pid, trait: pilot(ctx, pid), who="heroes",
                      allowed=lambda ctx, pid: at_the_controls(ctx, pid),
                      summary="Starting your turn inside: roll its 3 Speed dice and move that far, the heroes "
                              "inside going along."),
        rulesets.Move("control", "Work the pincers", lambda ctx, pid, trait, target: control(ctx, pid, target),
                      args=(rulesets.Arg("player", lambda ctx, pid: pincer_targets(ctx), "Which enemy?"),),
                      who="heroes", instead_of_attack=True, allowed=lambda ctx, pid: at_the_controls(ctx, pid),
                      summary="Starting your turn inside: attack an enemy within 1 tile with its Might 4."),
        rulesets.Move("close", "Close the Portal", lambda ctx, pid, trait: close(ctx, pid), who="heroes",
                      allowed=lambda ctx, pid: at_the_controls(ctx, pid),
                      summary="Starting your turn inside, within 1 tile of the Portal: its Might 4+ puts a quest "
                              "token on the Portal's tile."),
        rulesets.Move("hypnotise", "Hypnotise a hero",
                      lambda ctx, pid, trait, target: hypnotise(ctx, pid, target),
                      args=(rulesets.Arg("player", lambda ctx, pid: in_sight(ctx, pid), "Which hero?"),),
                      traits=("sanity",), who="traitors", instead_of_attack=True,
                      summary="In place of an attack: a Sanity attack on a hero in line of sight; a win moves them "
                              "that many tiles."),
    )

    def haunt_goals(self, ctx, pid):
        s = ctx.s
        if pid in hp.traitors(s):
            return None
        m = machine(ctx)
        if m is None:
            return {t for t in WORKSHOPS if t in s["board"]} or None
        gate = portal(ctx)
        if s["turn"].get("h41_pilot") is not None and s["turn"]["player"] == pid and gate:
            reach = distances(ctx, gate, doors_only=True)
            return {t for t, d in reach.items() if d <= 1}
        return {m["tile"]}


def build(ctx, pid: str):
    s = ctx.s
    tile = s["players"][pid]["tile"]
    if tile not in WORKSHOPS:
        raise IllegalAction("The Apparatus is built on the Smithy, the Trash Pile or the Weapon Shop Basement.")
    if machine(ctx):
        raise IllegalAction("The Apparatus of Kwalish is already built.")
    effects.queue(ctx, pid, [{"do": "roll", "trait": "knowledge", "bands": [
        {"at_least": BUILD, "then": [{"do": "h41_built"}]},
        {"at_most": BUILD - 1, "then": [{"do": "h41_build_short"}]}]}], source="haunt", front=True)


def in_sight(ctx, pid: str) -> list[str]:
    """The living heroes in the Morkoth's line of sight, in seat order."""
    s = ctx.s
    if not s["players"][pid]["alive"]:
        return []
    here = s["players"][pid]["tile"]
    return [p for p in hp.alive(s, hp.heroes(s)) if bd.line_of_sight(ctx.c, s["board"], here, s["players"][p]["tile"])]


def hypnotise(ctx, pid: str, hero: str):
    """Traitor's Tome, haunt 41: "Special Attack Rules"."""
    if hero not in in_sight(ctx, pid):
        raise IllegalAction("That hero is not in your line of sight.")
    ctx.s["turn"]["attacked"] = True
    effects.queue(ctx, pid, [{"do": "h41_hypnosis", "target": hero}], source="haunt", front=True)


def at_the_controls(ctx, pid: str) -> str | None:
    """Secrets of Survival, haunt 41, "Special Apparatus of Kwalish Rules":
    a hero who started the turn inside picks one of pilot, control, close."""
    s = ctx.s
    m = machine(ctx)
    turn = s["turn"] or {}
    if not turn.get("h41_inside") or turn.get("player") != pid or m is None or m["tile"] != s["players"][pid]["tile"]:
        return "Only a hero who starts the turn inside the Apparatus works it."
    if turn.get("h41_worked"):
        return "You have already chosen what to do with the Apparatus this turn."
    return None


def pilot(ctx, pid: str):
    s = ctx.s
    turn, m = s["turn"], machine(ctx)
    if turn["moved"]:
        raise IllegalAction("Piloting replaces your own move; you have already moved.")
    turn["h41_worked"] = True
    n = effects.make_roll(ctx, pid, rng.dice_count(m["traits"]["speed"]), "the Apparatus's Speed", kind="dice")
    turn["h41_pilot"] = n
    turn["extra_moves"] = turn.get("extra_moves", 0) + n - ctx.value(pid, "speed")
    ctx.say(f"{ctx.name(pid)} pilots the Apparatus: up to {n} spaces.", kind="haunt", player=pid)


def pincer_targets(ctx) -> list[str]:
    """The living enemies (Morkoths) within 1 tile of the Apparatus, in seat order."""
    s = ctx.s
    m = machine(ctx)
    if m is None:
        return []
    reach = distances(ctx, m["tile"], doors_only=True)
    return [p for p in hp.alive(s, hp.traitors(s)) if reach.get(s["players"][p]["tile"], 99) <= 1]


def control(ctx, pid: str, target: str):
    if target not in pincer_targets(ctx):
        raise IllegalAction("No such enemy is within 1 tile of the Apparatus.")
    ctx.s["turn"]["h41_worked"] = ctx.s["turn"]["attacked"] = True
    effects.queue(ctx, pid, [{"do": "h41_control", "target": target}], source="haunt", front=True)


@effects.step("h41_control")
def _control(ctx, task, item):
    control_attack(ctx, task["player"], item["target"])


def close(ctx, pid: str):
    s = ctx.s
    m = machine(ctx)
    gate = portal(ctx)
    if gate is None or distances(ctx, m["tile"], doors_only=True).get(gate, 99) > 1:
        raise IllegalAction("The Apparatus must be within 1 tile of the Portal.")
    s["turn"]["h41_worked"] = True
    effects.queue(ctx, pid, [{"do": "roll", "dice": rng.dice_count(m["traits"]["might"]), "bands": [
        {"at_least": CLOSE, "then": [{"do": "h41_seal"}]}, {"at_most": CLOSE - 1, "then": []}]}],
        source="haunt", front=True)
