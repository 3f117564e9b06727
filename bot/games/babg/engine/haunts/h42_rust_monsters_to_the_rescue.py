"""Haunt 42, Rust Monsters to the Rescue! (Traitor's Tome and Secrets of
Survival).

What the bot carries out:
- Setup: the trapped traitor drops every item and omen on their tile and can
  hold none again (anything they would gain falls onto their tile); Speed
  back up to its start, then 2 more (data); the three Rust Monsters, each in
  stasis, placed by the traitor: the first on a tile of the traitor's level
  as far from them as possible, the other two on the other level as far as
  possible from its exits (the stairs, the sewer grates' landing); the
  Turn/Damage track on 6 (data).
- The armour drives the traitor: at the start of the traitor's turn (unless
  it is standing up from a shutdown, when it may not move) it walks, within
  its Speed and slowed by heroes, to the reachable tile that keeps it
  farthest from the freed Rust Monsters and sees the most heroes (the
  traitor picks between equal tiles); it never discovers tiles; then it
  attacks every opponent in line of sight with Speed against Speed: 1-2 the
  Blaster Ray (2 physical damage: a Rust Monster hit is stunned, as any
  damaged monster, and misses its next turn), 3-4 the Paralysis Ray (2 Speed damage and
  stasis), 5+ the Disintegration Ray (removed from the game, 1 Speed for the
  armour as the turn ends); losing against an opponent on another tile costs
  nothing. The traitor may not move or attack otherwise.
- Power shutdown: the armour takes no damage; 2 or more at once tips it over
  and ends its turn (its remaining attacks are lost).
- Stasis: a tipped hero rolls Sanity 4+ at the start of their turn (1 less for
  each other hero on their tile) or the turn ends; releasing a Rust Monster
  with the declared move `release` on its tile (Knowledge 5+; a failure tips
  the hero and ends the turn).
- The Rust Monsters' turn after the traitor's, steered for the heroes: each
  freed one that is not stunned (a stunned one recovers as the turn ends), in
  turn, heads by the shortest way for the nearest dropped
  non-omen item (Caltrops on a tile too), else the nearest hero carrying a
  non-omen item, else the traitor, within the Speed roll; where it stops it
  eats the dropped items there, else every non-omen item of one hero there
  (the heroes pick), else, on the traitor's tile with no other non-omen item
  left anywhere, the power armour. The heroes' chooser picks between equally
  near targets. The track then goes down 1.
- Ends: the armour eaten: the heroes win (Secrets of Survival, L4999,
  L5033) and the traitor, freed before the track ran out, wins with them
  (the Tome's own win, L2577): the result names both sides (`sides`;
  `winner` stays "traitor", every player in `winners`); the track at
  0, the last Rust Monster disintegrated or every hero dead (everyone
  loses).

Left to the players: nothing of the haunt's rules.
"""
from .. import attack, effects, rulesets
from .. import board as bd
from .. import cards as cd
from .. import haunt_play as hp
from .. import rng
from .. import state as st
from .. import tokens as tk
from .. import traits as tr
from ..death import die
from ..errors import IllegalAction
from ..geometry import distances, moves_from
from ..sides import label, monster_by_id

RUST = "Rust Monster"
TRACK = "Time before the armour locks"
RELEASE, STAND = 5, 4
WORDS = ("On a Rust Monster's tile: {move:release} (Knowledge 5+). The bot runs the armour and steers the freed "
         "Rust Monsters for you.")
OWN = rulesets.Own("h42", {"tipped": [], "placed": 0, "eaten": False, "gain": 0}, players=("tipped",))


def mine(ctx) -> dict:
    """This haunt's own record: who is tipped over (stasis or shutdown), the Rust Monsters placed, whether the
    armour is eaten, the Speed the armour gains as its turn ends."""
    return rulesets.REGISTRY[42].record(ctx.s)


def rusts(ctx, freed: bool | None = None) -> list[dict]:
    return [m for m in ctx.s["monsters"] if m["name"] == RUST and not m["dead"]
            and (freed is None or bool(m.get("stasis")) != freed)]


def armour(ctx) -> str:
    return hp.traitors(ctx.s)[0]


def level_of(ctx, tile: str) -> str:
    return ctx.c.tiles[tile].level


def dropped(ctx, tile: str) -> list[str]:
    """Dropped non-omen items on a tile (and Caltrops lying there)."""
    s = ctx.s
    found = [c for c in s["piles"].get(tile, []) if ctx.c.cards[c].deck == "item"]
    found += [t["item"] for t in tk.on_tile(s, tile) if t.get("item") and ctx.c.cards[t["item"]].deck == "item"]
    return found


def edible(ctx, pid: str) -> list[str]:
    return [c for c in ctx.s["players"][pid]["cards"] if ctx.c.cards[c].deck == "item"]


def rust_targets(ctx) -> tuple[int, set]:
    """Secrets of Survival, haunt 42: "Controlling the Rust Monsters": the
    first step that applies, and its target tiles."""
    s = ctx.s
    items = {t for t in s["board"] if dropped(ctx, t)}
    if items:
        return 1, items
    carriers = {s["players"][p]["tile"] for p in hp.alive(s, hp.heroes(s)) if edible(ctx, p)}
    if carriers:
        return 2, carriers
    return 3, {s["players"][armour(ctx)]["tile"]}


# --- setup ------------------------------------------------------------------------------------------

def exits_of(ctx, level: str) -> list[str]:
    """The tiles of a level where it joins the other: stairs, and the landing
    below the sewer grates (or the grates above)."""
    s = ctx.s
    found = [t for t in s["board"] if level_of(ctx, t) == level and ctx.c.tiles[t].stairs_to in s["board"]]
    if level == "catacomb" and "catacomb_landing" in s["board"]:
        found.append("catacomb_landing")
    if level == "city":
        found += [t for t in s["board"] if ctx.c.tiles[t].sewer_grate]
    return found


def lair_tiles(ctx) -> list[str]:
    s = ctx.s
    here = s["players"][armour(ctx)]["tile"]
    mine_level = level_of(ctx, here)
    taken = {m["tile"] for m in rusts(ctx)}
    if mine(ctx)["placed"] == 0:
        tiles, sources = [t for t in s["board"] if level_of(ctx, t) == mine_level], [here]
    else:
        other = "city" if mine_level == "catacomb" else "catacomb"
        tiles, sources = [t for t in s["board"] if level_of(ctx, t) == other], exits_of(ctx, other)
    tiles = [t for t in tiles if t not in taken] or tiles
    if not tiles:
        return []
    reach = [distances(ctx, x) for x in sources]
    gap = {t: min((d.get(t, 99) for d in reach), default=0) for t in tiles}
    far = max(gap.values())
    return sorted((t for t in tiles if gap[t] == far), key=ctx.tile_name)


@effects.step("h42_place")
def _place(ctx, task, item):
    while mine(ctx)["placed"] < 3:
        tiles = lair_tiles(ctx)
        if not tiles:
            return
        if len(tiles) > 1:
            task["steps"].insert(0, item)
            effects.ask(ctx, task["player"], "h42_place", f"where does Rust Monster {mine(ctx)['placed'] + 1} "
                        "(in stasis) go?", [ctx.tile_name(t) for t in tiles], tiles=tiles)
            return
        put_rust(ctx, tiles[0])


@effects.decision("h42_place")
def _decide_place(ctx, pending, index):
    put_rust(ctx, pending["data"]["tiles"][index])


def put_rust(ctx, tile: str):
    mine(ctx)["placed"] += 1
    m = hp.add_monster(ctx, RUST, tile)
    m["stasis"] = True
    ctx.say(f"A Stasis token lies on Rust Monster {m['number']}.", kind="monster", monster=m["id"])


# --- the armour -------------------------------------------------------------------------------------

def reachable(ctx, pid: str, budget: int) -> dict[str, int]:
    """Placed tiles the armour can walk to within `budget` spaces, each
    tile it leaves costing 1 more for each hero there."""
    s = ctx.s
    start = s["players"][pid]["tile"]
    best, todo = {start: 0}, [start]
    while todo:
        tid = todo.pop(0)
        slow = sum(1 for p in hp.alive(s, hp.heroes(s)) if s["players"][p]["tile"] == tid)
        for other, cost in moves_from(ctx, tid):
            d = best[tid] + cost + slow
            if d <= budget and d < best.get(other, 99):
                best[other] = d
                todo.append(other)
    return best


def score(ctx, tile: str) -> tuple:
    s = ctx.s
    reach = distances(ctx, tile)
    away = min((reach.get(m["tile"], 99) for m in rusts(ctx, freed=True)), default=99)
    seen = sum(1 for p in hp.alive(s, hp.heroes(s)) if bd.line_of_sight(ctx.c, s["board"], tile, s["players"][p]["tile"]))
    near = min((reach.get(s["players"][p]["tile"], 99) for p in hp.alive(s, hp.heroes(s))), default=99)
    return (min(away, 3), seen, -near)


@effects.step("h42_walk")
def _walk(ctx, task, item):
    """Traitor's Tome, haunt 42: "Special Movement Rules". Ruling: the best
    tile keeps 3 or more spaces from every freed Rust Monster where it can,
    then sees the most heroes, then is nearest a hero."""
    pid = task["player"]
    options = reachable(ctx, pid, ctx.value(pid, "speed"))
    best = max(score(ctx, t) for t in options)
    tiles = sorted((t for t in options if score(ctx, t) == best), key=ctx.tile_name)
    here = ctx.s["players"][pid]["tile"]
    if here in tiles:
        return
    if len(tiles) == 1:
        walk_to(ctx, pid, tiles[0])
        return
    effects.ask(ctx, pid, "h42_walk", "the armour may go to any of these: which?", [ctx.tile_name(t) for t in tiles],
                tiles=tiles)


@effects.decision("h42_walk")
def _decide_walk(ctx, pending, index):
    walk_to(ctx, pending["player"], pending["data"]["tiles"][index])


def walk_to(ctx, pid: str, tile: str):
    p = ctx.s["players"][pid]
    p["tile"], p["half"] = tile, None
    ctx.s["turn"]["moved"] = ctx.value(pid, "speed")
    ctx.say(f"The armour strides with {ctx.name(pid)} to the {ctx.tile_name(tile)}.", kind="move", player=pid,
            tile=tile)


@effects.step("h42_fire")
def _fire(ctx, task, item):
    """Traitor's Tome, haunt 42: "Special Attack Rules": every opponent in
    line of sight, nearest first (Ruling)."""
    s = ctx.s
    pid = task["player"]
    if pid in mine(ctx)["tipped"]:
        return
    here = s["players"][pid]["tile"]
    reach = distances(ctx, here)
    foes = [p for p in hp.alive(s, hp.heroes(s)) if bd.line_of_sight(ctx.c, s["board"], here, s["players"][p]["tile"])]
    foes += [m["id"] for m in rusts(ctx) if bd.line_of_sight(ctx.c, s["board"], here, m["tile"])]
    where = {f: (s["players"][f]["tile"] if f in s["players"] else monster_by_id(ctx, f)["tile"]) for f in foes}
    foes.sort(key=lambda f: (reach.get(where[f], 99), label(ctx, f)))
    s["turn"]["attacked"] = True
    steps = [{"do": "h42_shot", "target": f} for f in foes]
    effects.push_front(ctx, steps)


@effects.step("h42_shot")
def _shot(ctx, task, item):
    s = ctx.s
    pid, target = task["player"], item["target"]
    if pid in mine(ctx)["tipped"] or s["phase"] != "haunt":
        return
    monster = target not in s["players"]
    if monster:
        m = monster_by_id(ctx, target)
        if m["dead"]:
            return
        tile, speed = m["tile"], m["traits"]["speed"]
    else:
        if not s["players"][target]["alive"]:
            return
        tile, speed = s["players"][target]["tile"], ctx.value(target, "speed")
    a = effects.make_roll(ctx, pid, attack.attack_dice(ctx, pid, "speed"), f"Speed: the armour fires at "
                          f"{label(ctx, target)}", trait="speed", kind="attack")
    d = attack.defence_roll(ctx, target, "speed", speed)
    if a > d:
        ray(ctx, pid, target, a - d)
    elif d > a and tile == s["players"][pid]["tile"]:
        hit_armour(ctx, pid, d - a)
    else:
        ctx.say(f"{label(ctx, target)} escapes the armour's fire.", kind="attack")


def ray(ctx, pid: str, target: str, amount: int):
    s = ctx.s
    name = label(ctx, target)
    if amount >= 5:
        ctx.say(f"Disintegration Ray: {name} is removed from the game.", kind="attack")
        mine(ctx)["gain"] += 1
        if target in s["players"]:
            die(ctx, target, "the armour's Disintegration Ray")
        else:
            monster_by_id(ctx, target)["dead"] = True
        return
    if amount >= 3:
        ctx.say(f"Paralysis Ray: {name} takes 2 Speed damage and is held in stasis.", kind="attack")
        if target in s["players"]:
            tr.change(ctx, target, "speed", -2)
            if s["players"][target]["alive"] and target not in mine(ctx)["tipped"]:
                mine(ctx)["tipped"].append(target)
        else:
            monster_by_id(ctx, target)["stasis"] = True
        return
    ctx.say(f"Blaster Ray: {name} takes 2 physical damage.", kind="attack")
    if target in s["players"]:
        effects.queue(ctx, target, [{"do": "damage", "kind": "physical", "amount": 2}], source="haunt", front=True)
    else:  # Traitor's Tome, haunt 42, L2597: no opponent is spared; a damaged monster is stunned (rulebook)
        attack.hurt_monster(ctx, monster_by_id(ctx, target), "physical", 2)


def hit_armour(ctx, pid: str, amount: int):
    """Traitor's Tome, haunt 42: "Power Shutdown Mode"."""
    if amount < 2:
        ctx.say(f"The armour takes the blow: {ctx.name(pid)} is unhurt.", kind="damage", player=pid)
        return
    s = ctx.s
    if pid not in mine(ctx)["tipped"]:
        mine(ctx)["tipped"].append(pid)
    ctx.say(f"The armour shuts down: {ctx.name(pid)} topples over.", kind="haunt", player=pid)
    turn = s["turn"]
    if turn and turn["player"] == pid and not turn.get("monsters") and not turn["ending"]:
        effects.queue(ctx, pid, [{"do": "_end_turn"}], source="haunt")


@effects.damage_stage("h42_armour", 1)
def _armour_stage(ctx, hit):
    s = ctx.s
    h = s.get("haunt") or {}
    if s.get("phase") != "haunt" or h.get("number") != 42 or hit["victim"] not in hp.traitors(s):
        return False
    amount, hit["amount"] = hit["amount"], 0
    hit_armour(ctx, hit["victim"], amount)
    return False


# --- the Rust Monsters' turn -----------------------------------------------------------------------

@effects.step("h42_rust_turn")
def _rust_turn(ctx, task, item):
    """Rulebook, How Monsters Work: a stunned monster misses this turn and
    recovers at its end."""
    freed = rusts(ctx, freed=True)
    resting = [m["id"] for m in freed if m["stunned"]]
    freed = [m for m in freed if not m["stunned"]]
    if freed:
        roll = effects.make_roll(ctx, task["player"], rng.dice_count(3), "Speed for the Rust Monsters")
        effects.push_front(ctx, [{"do": "h42_rust_move", "monster": m["id"], "left": max(1, roll)} for m in freed])
    task["steps"].append({"do": "h42_rust_end", "resting": resting})


@effects.step("h42_rust_move")
def _rust_move(ctx, task, item):
    s = ctx.s
    m = monster_by_id(ctx, item["monster"])
    if m["dead"] or m.get("stasis") or m["stunned"] or s["phase"] != "haunt":
        return
    _, goals = rust_targets(ctx)
    reach = distances(ctx, m["tile"])
    if m["tile"] in goals or not any(g in reach for g in goals) or item["left"] <= 0:
        effects.push_front(ctx, [{"do": "h42_eat", "monster": m["id"]}])
        return
    steps = []
    for other, cost in moves_from(ctx, m["tile"]):
        if cost <= item["left"]:
            there = distances(ctx, other)
            steps.append((min(there.get(g, 99) for g in goals), other, cost))
    best = min(d for d, _, _ in steps) if steps else None
    if best is None or best >= min(reach.get(g, 99) for g in goals):
        effects.push_front(ctx, [{"do": "h42_eat", "monster": m["id"]}])
        return
    ways = sorted({(o, c) for d, o, c in steps if d == best}, key=lambda x: ctx.tile_name(x[0]))
    if len(ways) == 1:
        step_rust(ctx, m, ways[0][0], ways[0][1], item)
        return
    effects.ask(ctx, task["player"], "h42_rust_way", f"which way does Rust Monster {m['number']} go?",
                [ctx.tile_name(o) for o, _ in ways], ways=[list(w) for w in ways], item=item)


@effects.decision("h42_rust_way")
def _decide_rust_way(ctx, pending, index):
    item = pending["data"]["item"]
    tile, cost = pending["data"]["ways"][index]
    step_rust(ctx, monster_by_id(ctx, item["monster"]), tile, cost, item)


def step_rust(ctx, m: dict, tile: str, cost: int, item: dict):
    m["tile"], m["half"] = tile, None
    ctx.say(f"Rust Monster {m['number']} scuttles to the {ctx.tile_name(tile)}.", kind="monster_move",
            monster=m["id"], tile=tile)
    effects.push_front(ctx, [{**item, "left": item["left"] - cost}])


@effects.step("h42_eat")
def _eat(ctx, task, item):
    s = ctx.s
    m = monster_by_id(ctx, item["monster"])
    tile = m["tile"]
    food = dropped(ctx, tile)
    if food:
        for cid in food:
            cd.discard(ctx, cid)
        ctx.say(f"Rust Monster {m['number']} eats what lies on the {ctx.tile_name(tile)}: "
                + ", ".join(ctx.card_name(c) for c in food) + ".", kind="monster", monster=m["id"])
        return
    meals = [p for p in hp.alive(s, hp.heroes(s)) if s["players"][p]["tile"] == tile and edible(ctx, p)]
    if len(meals) == 1:
        eat_from(ctx, m, meals[0])
        return
    if meals:
        effects.ask(ctx, task["player"], "h42_meal", f"whose items does Rust Monster {m['number']} eat?",
                    [ctx.name(p) for p in meals], targets=meals, monster=m["id"])  # `targets`: renamed on a handover
        return
    left = any(dropped(ctx, t) for t in s["board"]) or any(edible(ctx, p) for p in hp.alive(s, hp.heroes(s)))
    if tile == s["players"][armour(ctx)]["tile"] and not left:
        mine(ctx)["eaten"] = True
        ctx.say(f"Rust Monster {m['number']} sinks its feelers into the power armour and eats it away.",
                kind="monster", monster=m["id"])


@effects.decision("h42_meal")
def _decide_meal(ctx, pending, index):
    eat_from(ctx, monster_by_id(ctx, pending["data"]["monster"]), pending["data"]["targets"][index])


def eat_from(ctx, m: dict, pid: str):
    food = edible(ctx, pid)
    for cid in food:
        cd.discard(ctx, cid)
    ctx.say(f"Rust Monster {m['number']} eats {ctx.name(pid)}'s " + ", ".join(ctx.card_name(c) for c in food) + ".",
            kind="monster", monster=m["id"])


@effects.step("h42_rust_end")
def _rust_end(ctx, task, item):
    """Secrets of Survival, haunt 42: "You Must Do This at the End of the
    Monster Turn"."""
    s = ctx.s
    if s["phase"] != "haunt":
        return
    for m in s["monsters"]:
        if m["id"] in item.get("resting", []) and m["stunned"]:
            m["stunned"] = False
            ctx.say(f"{st.monster_called(m)} recovers.", kind="monster", monster=m["id"])
    counters = s["haunt"]["counters"]
    counters[TRACK] = counters.get(TRACK, 6) - 1
    ctx.say(f"The Turn/Damage track drops to {counters[TRACK]}.", kind="counter")
    hp.check_wins(ctx)
    if s["phase"] == "haunt":
        hp.next_slot(ctx)


# --- stasis -----------------------------------------------------------------------------------------

@effects.step("h42_stuck")
def _stuck(ctx, task, item):
    pid = task["player"]
    if pid not in mine(ctx)["tipped"]:
        mine(ctx)["tipped"].append(pid)
    ctx.say(f"{ctx.name(pid)} is caught in stasis and topples over.", kind="haunt", player=pid)
    effects.push_front(ctx, [{"do": "_end_turn"}])


@effects.step("h42_stand")
def _stand(ctx, task, item):
    pid = task["player"]
    if pid in mine(ctx)["tipped"]:
        mine(ctx)["tipped"].remove(pid)
    ctx.say(f"{ctx.name(pid)} stands up again.", kind="haunt", player=pid)


@effects.step("h42_freed")
def _freed(ctx, task, item):
    m = monster_by_id(ctx, item["monster"])
    m["stasis"] = False
    ctx.say(f"{ctx.name(task['player'])} frees Rust Monster {m['number']} from stasis.", kind="haunt",
            monster=m["id"])


@effects.step("h42_speed_gain")
def _speed_gain(ctx, task, item):
    n, mine(ctx)["gain"] = mine(ctx)["gain"], 0
    if n:
        tr.change(ctx, task["player"], "speed", n)


@rulesets.register(42)
class RustMonstersToTheRescue(rulesets.RuleSet):
    title = "Rust Monsters to the Rescue!"

    def setup_step(self, ctx, step):
        s = ctx.s
        text = step.get("text", "")
        if step.get("do") == "manual" and "drop all items" in text:
            pid = armour(ctx)
            p = s["players"][pid]
            cards = [c for c in p["cards"] if ctx.c.cards[c].deck != "event"]
            for cid in cards:
                if cid in p["cards"]:  # (losing a card's bonus may already have dropped the rest)
                    cd.lose(ctx, pid, cid)
                    s["piles"].setdefault(p["tile"], []).append(cid)
            if cards:
                ctx.say(f"Setup: the armour clamps shut; {ctx.name(pid)}'s items and omens fall onto the "
                        f"{ctx.tile_name(p['tile'])}.", kind="haunt_setup")
            ctx.say(f"Setup: {WORDS}", kind="haunt_setup", to="heroes")
            return True
        if step.get("monster") == RUST:
            effects.queue(ctx, armour(ctx), [{"do": "h42_place"}], source="haunt")
            return True
        return None

    def card_gaining(self, ctx, pid, cid):
        s = ctx.s
        if pid not in hp.traitors(s) or ctx.c.cards[cid].deck == "event":
            return None
        for pile in (*s["decks"].values(), *s["piles"].values()):
            if cid in pile:
                pile.remove(cid)
                break
        for other in s["players"].values():
            if cid in other["cards"]:
                cd.lose(ctx, next(k for k, v in s["players"].items() if v is other), cid)
        s["piles"] = {t: c for t, c in s["piles"].items() if c}
        s["piles"].setdefault(s["players"][pid]["tile"], []).append(cid)
        ctx.say(f"{ctx.card_name(cid)} clatters off the armour onto the {ctx.tile_name(s['players'][pid]['tile'])}.",
                kind="haunt")
        return True

    def turn_started(self, ctx, pid):
        s = ctx.s
        if pid in hp.traitors(s):
            steps = []
            if pid in mine(ctx)["tipped"]:  # "You Must Do This at the Start of Your Turn"
                steps.append({"do": "h42_stand"})
                s["turn"]["stopped"] = True
            else:
                steps.append({"do": "h42_walk"})
            steps.append({"do": "h42_fire"})
            effects.queue(ctx, pid, steps, source="haunt")
            return
        if pid in mine(ctx)["tipped"]:
            helpers = sum(1 for p in hp.alive(s, hp.heroes(s)) if p != pid
                          and s["players"][p]["tile"] == s["players"][pid]["tile"])
            target = STAND - helpers
            effects.queue(ctx, pid, [{"do": "roll", "trait": "sanity", "bands": [
                {"at_least": target, "then": [{"do": "h42_stand"}]},
                {"at_most": target - 1, "then": [{"do": "_end_turn"}]}]}], source="haunt")

    def turn_ending(self, ctx, pid):
        if pid in hp.traitors(ctx.s) and mine(ctx)["gain"]:
            return [{"do": "h42_speed_gain"}]
        return None

    def leave_blocked(self, ctx, pid):
        if pid in hp.traitors(ctx.s):
            return "The armour moves you itself."
        if pid in mine(ctx)["tipped"]:
            return "You are held in stasis."
        return None

    def next_slot(self, ctx):
        """The Rust Monsters' turn comes after the traitor's, steered for the
        heroes, even with none freed: it is when the track goes down."""
        s = ctx.s
        turn = s["turn"]
        if not s["haunt"].get("started") or turn.get("monsters") or turn["player"] not in hp.traitors(s):
            return None
        steer = hp.chooser(s, "heroes")
        t = st.new_turn(steer, turn["number"] + 1)
        t.update({"monsters": True, "moves": {}, "acted": [], "attacked": [], "rust": True})
        s["turn"] = t
        ctx.say(f"Turn {t['number']}: the Rust Monsters' turn ({ctx.name(steer)} steers them for the heroes).",
                kind="turn", player=steer)
        effects.queue(ctx, steer, [{"do": "h42_rust_turn"}], source="haunt")
        return True

    def win_check(self, ctx):
        s = ctx.s
        if mine(ctx)["eaten"]:  # Traitor's Tome, haunt 42, L2577; Secrets of Survival, haunt 42, L4999
            # the traitor first: `winner` stays the traitor's, as every reader of one side has had it
            return ("traitor", "heroes"), ("A Rust Monster has eaten the power armour: the heroes shut it down, "
                                           "and the traitor is freed before the Turn/Damage track ran out."), \
                "traitor freed from the armour"
        if s["haunt"]["counters"].get(TRACK, 6) <= 0:
            return None, "The Turn/Damage track has reached 0: the armour locks for good and everyone loses."
        if not hp.alive(s, hp.heroes(s)):  # Ruling: nobody is left to steer the Rust Monsters
            return None, "Every hero is dead: nobody is left to steer the Rust Monsters, and the armour locks."
        if mine(ctx)["placed"] >= 3 and not rusts(ctx):
            return None, "The last Rust Monster is gone: nobody can free the traitor, and everyone loses."
        return None

    own = OWN
    moves = (
        rulesets.Move("release", "Release a Rust Monster", lambda ctx, pid, trait: release(ctx, pid),
                      traits=("knowledge",), who="heroes", once_per_turn=True,
                      allowed=lambda ctx, pid: "You are held in stasis." if pid in mine(ctx)["tipped"] else None,
                      summary="On a Rust Monster's tile: Knowledge 5+ lifts its Stasis token; a failure tips you "
                              "over and ends your turn."),
    )

    def haunt_goals(self, ctx, pid):
        """A hero frees the Rust Monsters still in stasis first; then one
        carrying items goes to be eaten by a freed one."""
        s = ctx.s
        if pid in hp.traitors(s):
            return None
        held = {m["tile"] for m in rusts(ctx, freed=False)}
        if held:
            return held
        if edible(ctx, pid):
            return {m["tile"] for m in rusts(ctx, freed=True)} or None
        return None


def release(ctx, pid: str):
    """Secrets of Survival, haunt 42: "Releasing Rust Monsters"."""
    s = ctx.s
    held = [m for m in rusts(ctx, freed=False) if m["tile"] == s["players"][pid]["tile"]]
    if not held:
        raise IllegalAction("There is no Rust Monster in stasis on your tile.")
    effects.queue(ctx, pid, [{"do": "roll", "trait": "knowledge", "bands": [
        {"at_least": RELEASE, "then": [{"do": "h42_freed", "monster": held[0]["id"]}]},
        {"at_most": RELEASE - 1, "then": [{"do": "h42_stuck"}]}]}], source="haunt", front=True)
