"""Built-in heroes for Castle Ravenloft: `choose_action(content, state, player) -> action`, the
same answer for the same state, from what the players see (never the decks' order or a die to come).
They play like a careful group:

- questions: cancel an encounter that hurts (attacks, traps, environments, the events that bring
  monsters on or make them strike more) with experience, level up whenever offered, give an item
  found to the hero it helps most; an encounter's own question answered for the least harm (a hero
  put where the fewest monsters reach, a new monster far from the heroes, the weakest power against
  a friend, the weaker of Music of the Damned's two monsters);
- heal: Healing Word on a downed friend first (that saves a healing surge), else a badly hurt one,
  a potion for oneself or a friend next to one;
- fight: the attack with the most expected damage on the best target (focus fire: the monster
  nearest its end, the villain, the monster next to a hurt friend), daily powers kept for villains,
  several targets or a sure kill; disabling a trap when the roll is likely;
- move: to the square from which the best attack may then be made (on an unexplored edge when
  the fall would clear the way, so the turn also explores); the last move of a turn that explores
  ends on an edge within reach; after striking, common monsters' reach is weighed, a villain's is
  not (it is pressed); otherwise toward the
  adventure's goal, else toward the nearest unexplored edge near the group, while monsters are
  about toward them instead, staying on a friend's tile when it costs nothing; every square is
  weighed against the harm expected there (`Danger`: the monsters in reach that would pick this
  hero, a trap on the tile);
- plans: never strike a villain whose fall loses (the Young Vampire); press it on the Dark
  Fountain from next to it (first thing in a turn, not stepping off for another monster, cancelling
  an Encounter that would move the hero away), and explore, or step on an unexplored edge, only with
  a friend on the tile while the Fountain may come; an object the goal asks smashed (the phylactery,
  Klak's artifact once Klak has fallen) is struck first and walked to; in Klak's adventure no
  cancelling that would drop the hero;
  in Daylight Assault dig nearest the Start tile so the way out stays short;
- end the hero phase exploring where the hero stands."""

from time import perf_counter

from bot.games.ravenloft.engine import combat, data, explore, geometry, heroes, items
from bot.games.ravenloft.engine.adventures.common import clauses, placed_key
from bot.games.ravenloft.engine.game import Engine
from bot.games.ravenloft.engine.legal import legal_actions
from bot.games.ravenloft.engine.rulesets import active
from bot.games.ravenloft.engine.state import Ctx, hero_pids
from bot.kit.rng import seeded, shuffle

HURTFUL = ("trap", "event_attack", "environment", "hazard")
KNOBS = {"explore_below": 1, "explore_below_extra": 3, "daily_small": 0.45, "cancel_all": 0, "fragile_surges": 0, "level_up": 1, "cancel_env": 0, "cancel_monster": 1, "cancel_cond": 1, "threat": 0.0, "explore_per_hero": 0, "hoard": 1, "safe_fight": 0, "area_share": 0.6, "other_share": 0.25, "safe_strike": 1.0, "safe_explore": 1.0, "safe_goal": 0.2, "safe_heal": 0.3, "later_share": 0.3, "together": 1, "heal_downed_only": 0, "heal_gap": 3, "near_stairs": 1, "safe_after": 0.5, "together_after": 5, "strike_edge": 3, "answer_cards": 1, "ghost_hp": 3, "last_edge": 1, "cancel_events": 1, "safe_after_villain": 0, "group_edges": 4, "downed_first": 1, "ring_hp": 2, "press": 1, "smash": 1, "cancel_price": 1, "smash_worth": 4}  # the weights tuned with bench/ravenloft_balance.py (explore_below*: explore only while fewer monsters are about)


def choose_action(content, state: dict, player: str) -> dict:
    acts = [a for a in legal_actions(content, state, player) if a["type"] != "undo"]
    if not acts:
        return {}
    ctx = Ctx(content, state)
    kinds = {a["type"] for a in acts}
    if state["phase"] == "lobby":
        for a in acts:
            if a["type"] in ("join", "start"):
                return a
        return acts[0]
    if "decide" in kinds:
        return _decide(ctx, acts)
    if _leaving(ctx) or _pressing(ctx, player) == "away":
        order = (_pickup, _heal, _move, _attack, _end)
    else:
        order = (_pickup, _heal, _buff, _attack, _move, _end)
    for pick in order:
        a = pick(ctx, player, acts)
        if a:
            return a
    return acts[-1]


# ------------------------------------------------------------------ questions

def _decide(ctx, acts):
    q = ctx.s["pending"]
    opts = [a["choice"] for a in acts]
    if q["kind"] == "cancel":
        e = data.encounter(ctx.content, q["card"])
        worst = ("damage",) + (("place_monster",) if KNOBS["cancel_monster"] else ()) + \
            (("condition",) if KNOBS["cancel_cond"] else ())
        bad = (e["type"] in HURTFUL and (KNOBS["cancel_env"] or e["type"] != "environment")) or e["attack"] or any(
            data.g(st, "do") in worst for st in e["steps"])
        bad = bad or KNOBS["cancel_all"] or _bad_event(ctx, e)
        if KNOBS["press"] and _pressing(ctx, q["player"]) == "there" and \
                any(data.g(st, "name") in PLACE_HERO for st in e["steps"]):
            bad = True  # it would take the hero off the Fountain: the Young Vampire walks away
        if KNOBS["cancel_price"] and ctx.s["players"][q["player"]]["hp"] <= _cancel_price(ctx):
            bad = False  # the price of cancelling (Klak's adventure) would drop the hero itself
        if bad and "dispel it" in opts:
            return next(a for a in acts if a["choice"] == "dispel it")
        if bad and "cancel it" in opts:
            return next(a for a in acts if a["choice"] == "cancel it")
        return next(a for a in acts if a["choice"] == "let it happen")
    if q["kind"] == "level" and "level up" in opts and KNOBS["level_up"]:
        return next(a for a in acts if a["choice"] == "level up")
    if q["kind"] == "give":
        return _give(ctx, q, acts)
    if q["kind"] == "item" and q.get("rule") == "ring_of_regeneration" and KNOBS["ring_hp"]:
        p = ctx.s["players"][q["player"]]
        if p["hp"] <= KNOBS["ring_hp"] and not _hoarding(ctx) and len(acts) > 1:
            return acts[1]  # a Hit Point now rather than a card that may be a fortune
    if q["kind"] == "stealth":
        return acts[0]
    if q["kind"] == "lucky":
        return next(a for a in acts if a["choice"] == "draw 3") if "draw 3" in opts else acts[0]
    if q["kind"] == "music" and KNOBS["answer_cards"]:
        # Music of the Damned: the weaker of the two monsters (fewer experience points)
        xp = [data._int(data.g(data.monster(ctx.content, data.card_monster(ctx.content, c)), "xp", 1), 1)
              for c in q.get("cards", [])]
        cards = q.get("cards", [])
        # asked for only while it lies in the discard pile, in sight (the engine would also take it back
        # from the deck)
        if len(xp) == len(acts) == 2 and xp[1] < xp[0] and cards[1] in ctx.s["decks"]["monster"]["discard"]:
            return acts[1]
        return acts[0]
    if q["kind"] == "encounter" and KNOBS["answer_cards"]:
        a = _answer_card(ctx, q, acts)
        if a:
            return a
    return acts[0]


PLACE_HERO = ("corner_of_your_eye", "strahds_trick", "icy_corridor", "king_tomescus_portal", "teleport_glyph",
              "strahds_minions")
PLACE_MONSTER = ("reinforcements",)


def _answer_card(ctx, q, acts):
    """An encounter card's question: the hero put where least harm waits (a friend near), a new
    monster put far from the heroes, the weakest power against a friend, a Daily given up rather
    than Hit Points when they run low."""
    s = ctx.s
    rule, values, pid = q.get("rule"), q.get("values") or [], q["player"]
    if len(values) != len(acts):
        return None
    if rule in PLACE_HERO or rule == "spirit_of_doom_event":
        danger = Danger(ctx, pid)
        mine = s["players"][pid]["square"]
        friends = {heroes.tile(ctx, o) for o in hero_pids(s) if o != pid and heroes.standing(ctx, o)}
        mon_tiles = {t for f in s["figures"].values() if not f.get("object") for t in combat.fig_tiles(f)}
        best = None
        for i, v in enumerate(values):
            if rule == "spirit_of_doom_event":
                sq = v or mine
            elif not v or v == heroes.tile(ctx, pid):
                sq = mine
            else:
                sq = explore.free_square_on(ctx, v)
                if sq is None:
                    continue
            t = geometry.tile_at_square(sq)
            harm = danger.at(sq) + (1.0 if rule == "spirit_of_doom_event" and t not in mon_tiles else 0.0)
            k = (round(harm - (0.3 if t in friends else 0.0), 2), i)
            if best is None or k < best[0]:
                best = (k, acts[i])
        return best[1] if best else None
    if rule in PLACE_MONSTER or rule == "voice_of_the_master":
        d = geometry.tile_distances(s, [heroes.tile(ctx, o) for o in hero_pids(s) if heroes.on_map(ctx, o)])
    if rule in PLACE_MONSTER or (rule == "voice_of_the_master" and q.get("place")):
        return acts[max(range(len(values)), key=lambda i: (d.get(values[i], 99), -i))]
    if rule == "voice_of_the_master":
        # the monster farthest from any hero acts: it likely only walks
        def far(i):
            f = s["figures"].get(values[i])
            return (min((d.get(t, 99) for t in combat.fig_tiles(f)), default=99) if f else -1, -i)
        return acts[max(range(len(values)), key=far)]
    if rule == "strahds_whispers":
        return acts[min(range(len(values)), key=lambda i: (data.power(ctx.content, values[i])["damage"], i))]
    if rule == "howling_ghost":
        p = s["players"][pid]
        if p["hp"] - q.get("damage", 2) <= KNOBS["ghost_hp"] and len(values) > 1:
            return acts[min(range(1, len(values)), key=lambda i: (data.power(ctx.content, values[i])["damage"], i))]
        return acts[0]
    if rule == "ghost_of_prince_aurel":
        def worth(i):
            pw = data.power(ctx.content, values[i])
            heal = data.slug(pw["name"]) in ("healingword", "dispelmagic")
            return (heal, pw["hits"], pw["damage"], i)
        return acts[min(range(len(values)), key=worth)]
    return None


def _cancel_price(ctx) -> int:
    """The Hit Points cancelling an Encounter costs the active hero here (0 in most adventures)."""
    return sum(data._int(c.amount, 1) for c in clauses(ctx, "rules") if c.kind == "xp_cancel_costs_hp")


# events that bring monsters on the heroes or make those about strike more (their cards' own words;
# cancelling more of them, Summoning Circle or Reinforcements too, left less experience for attacks)
BAD_EVENTS = ("frenzy", "bubblingcauldron", "howlofthewolf", "strahdsminions")
NEEDS_MONSTERS = ("frenzy", "bubblingcauldron", "howlofthewolf")


def _bad_event(ctx, e) -> bool:
    w = data.slug(e["name"])
    if not KNOBS["cancel_events"] or e["type"] != "event" or w not in BAD_EVENTS:
        return False
    return w not in NEEDS_MONSTERS or any(not f.get("object") for f in ctx.s["figures"].values())


def _give(ctx, q, acts):
    """An item to whoever holds fewest items (the finder when tied): spread the help."""
    s = ctx.s
    pid = q["player"]
    mine = len(s["players"][pid]["items"])
    best = None
    for i, to in enumerate(q.get("targets", [])):
        n = len(s["players"][to]["items"])
        if n < mine and (best is None or n < best[0]):
            best = (n, i)
    if best is None:
        return next(a for a in acts if a["choice"] == "keep")
    return acts[best[1] + 1] if len(acts) > best[1] + 1 else acts[0]


# ------------------------------------------------------------------ free things, healing, boosts

def _pickup(ctx, pid, acts):
    return next((a for a in acts if a["type"] == "pickup"), None)


def _word(ctx, a) -> str:
    if a.get("power"):
        return data.slug(data.power(ctx.content, a["power"])["name"])
    if a.get("item"):
        return data.slug(data.treasure(ctx.content, a["item"])["name"])
    return ""


def _heal(ctx, pid, acts):
    s = ctx.s
    if KNOBS["downed_first"]:
        # a downed friend first: raised before their turn, they spend no healing surge
        acts = sorted(acts, key=lambda a: 0 if a["type"] == "use" and a.get("target") in s["players"]
                      and s["players"][a["target"]]["hp"] <= 0 else 1)
    for a in acts:
        if a["type"] != "use":
            continue
        w = _word(ctx, a)
        if w in ("healingword", "potionofhealing") and a.get("target"):
            q = s["players"][a["target"]]
            if a.get("item") and _hoarding(ctx) and q["hp"] > 0:
                continue
            if q["hp"] <= 0 or (not KNOBS["heal_downed_only"] and (q["hp"] * 2 <= q["max_hp"] or q["max_hp"] - q["hp"] >= KNOBS["heal_gap"])):
                return a
        if w == "unstoppable":
            p = s["players"][pid]
            if p["hp"] + 2 <= p["max_hp"]:
                return a
        if a.get("item") and _hoarding(ctx):
            continue
        if w == "potionofrejuvenation" and data.power(ctx.content, a["target"])["type"] == "daily":
            return a
    return None


def _buff(ctx, pid, acts):
    """Powers and items that help before striking: Sneak Attack, Bless, Shield of Faith, an
    elixir on a crowded tile."""
    s = ctx.s
    if not s["figures"]:
        return None
    t = s["turn"]
    near = _monsters_near(ctx, pid, 1)
    hoard = _hoarding(ctx)
    for a in acts:
        if a["type"] != "use" or (hoard and a.get("item")):
            continue
        w = _word(ctx, a)
        if w == "sneakattack" and not t["attacked"] and near:
            return a
        if w in ("bless", "shieldoffaith") and near and len(_allies_within(ctx, pid)) >= 2:
            return a
        if w in ("dragonsbreathelixir",) and len([f for f in s["figures"].values()
                                                  if heroes.tile(ctx, pid) in combat.fig_tiles(f)]) >= 2:
            return a
        if w == "holywater" and a.get("target"):
            return a
    return None


def _allies_within(ctx, pid):
    d = geometry.tile_distances(ctx.s, [heroes.tile(ctx, pid)])
    return [q for q in hero_pids(ctx.s) if heroes.standing(ctx, q) and d.get(heroes.tile(ctx, q), 99) <= 1]


def _monsters_near(ctx, pid, n):
    d = geometry.tile_distances(ctx.s, [heroes.tile(ctx, pid)])
    return [f for f in ctx.s["figures"].values() if min((d.get(x, 99) for x in combat.fig_tiles(f)), default=99) <= n]


# ------------------------------------------------------------------ attacks

def _hit_chance(ctx, pid, pw, fig):
    if pw["attack"] is None:
        return 1.0
    need = combat.fig_ac(ctx, fig) - pw["attack"] - heroes.attack_bonus(ctx, pid, fig)
    return min(1.0, max(0.05, (21 - need) / 20))


def _target_worth(ctx, fig) -> float:
    """How much it matters to strike this figure: villains and objects the goal names most, then
    monsters next to a hurt hero, then those nearest their end."""
    w = 1.0
    if not fig.get("object"):
        atks = data.monster(ctx.content, fig["monster"])["attacks"].values()
        threat = max((a.get("damage", 0) + (a.get("miss") or 0) + (1 if a.get("area", "one") != "one" else 0)
                      for a in atks), default=0)
        w += KNOBS["threat"] * threat
    if fig.get("villain"):
        w += 1.5
    if fig.get("object"):
        w += 1.0
        if KNOBS["smash_worth"] and fig in _to_smash(ctx):
            w += KNOBS["smash_worth"]  # its fall wins (or is the last thing the goal asks)
    xy = combat.fig_xy(fig)
    for q in hero_pids(ctx.s):
        p = ctx.s["players"][q]
        if heroes.standing(ctx, q) and any(geometry.adjacent(heroes.xy(ctx, q), f) for f in xy):
            w += 0.3 if p["hp"] * 2 > p["max_hp"] else 0.6
    return w


def _spared(ctx) -> set:
    """The villains whose defeat loses the adventure (the Young Vampire is Kavan)."""
    return {c.villain for c in clauses(ctx, "defeat") if c.kind == "villain_defeated"}


def attack_score(ctx, pid, a) -> float:
    pw = data.power(ctx.content, a["power"]) if a.get("power") else items.as_power(ctx, a["item"])
    targets = combat.struck(ctx, pid, pw, a["target"].split(",")) if combat.area(ctx, pw) else a["target"].split(",")
    score = 0.0
    big = False
    for fid in targets:
        fig = ctx.s["figures"].get(fid)
        if fig is None:
            continue
        p = _hit_chance(ctx, pid, pw, fig)
        dmg = min(fig["hp"], pw["damage"] + heroes.damage_bonus(ctx, pid, fig))
        miss = min(fig["hp"], pw["miss"])
        kill_hit = 1.0 if dmg >= fig["hp"] else 0.0
        kill_miss = 1.0 if miss and miss >= fig["hp"] else 0.0
        if fig["monster"] in _spared(ctx):
            score -= 1.0 + 5 * (p * kill_hit + (1 - p) * kill_miss)  # its fall loses the adventure
            continue
        worth = _target_worth(ctx, fig)
        score += worth * (p * (dmg + 1.5 * kill_hit) + (1 - p) * (miss + 1.5 * kill_miss))
        if fig.get("villain") or fig["max_hp"] >= 5:
            big = True
    if pw["type"] != "at_will" and not big and len(targets) < 2:
        score *= KNOBS["daily_small"]
    return score


def _attack(ctx, pid, acts):
    best, key = None, None
    for i, a in enumerate(acts):
        if a["type"] == "disable":
            m = next((m for m in ctx.s["markers"] if m["id"] == a["trap"]), None)
            if m is None:
                continue
            need = data.encounter(ctx.content, m["card"])["disable"] if m.get("card") else 10
            bonus = 5 if heroes.has_ability(ctx, pid, "trap expert") or heroes.has_ability(ctx, pid, "trapexpert") else 0
            p = min(1.0, max(0.05, (21 - need + bonus) / 20))
            score = 2.2 * p
        elif a["type"] == "attack":
            score = attack_score(ctx, pid, a)
        elif a["type"] == "use" and a.get("item") and items.takes_attack(ctx, a["item"]) and not _hoarding(ctx):
            score = 0.5 * attack_score(ctx, pid, a)
        else:
            continue
        k = (score, -i)
        if key is None or k > key:
            best, key = a, k
    return best if best and key[0] > 0.1 else None


# ------------------------------------------------------------------ the map, read fast

class Map:
    """Floor squares and figures of one state, for many distance questions at once."""

    def __init__(self, ctx):
        s = ctx.s
        self.floor = set()
        for k in s["tiles"]["placed"]:
            self.floor.update(geometry.floor_squares(s, k))
        self.monsters = {geometry.parse(q) for f in s["figures"].values() for q in (f.get("squares") or [f["square"]])}

    def step_ok(self, x, y, nx, ny):
        if (nx, ny) not in self.floor:
            return False
        if nx != x and ny != y and (nx, y) not in self.floor and (x, ny) not in self.floor:
            return False
        return True

    def dist_from(self, sources) -> dict:
        """Steps from the nearest of `sources` to every square (monsters' squares not entered)."""
        dist = {q: 0 for q in sources if q in self.floor}
        frontier = list(dist)
        while frontier:
            nxt = []
            for (x, y) in frontier:
                dd = dist[(x, y)] + 1
                for dx, dy in geometry.KING:
                    n = (x + dx, y + dy)
                    if n in dist or n in self.monsters or not self.step_ok(n[0], n[1], x, y):
                        continue
                    dist[n] = dd
                    nxt.append(n)
            frontier = nxt
        return dist


def _goal_squares(ctx, pid) -> list:
    s = ctx.s
    rs = active(s)
    goals = []
    for c in clauses(ctx, "victory"):
        if c.kind == "hero_starts_turn_on":
            k = placed_key(ctx, c.tile)
            if k:
                goals += geometry.floor_squares(s, k)
        if c.kind == "treasure_taken":
            goals += [geometry.parse(m["square"]) for m in s["markers"] if m["kind"] == "object" and m.get("square")]
        if c.kind == "tokens_removed":
            k = placed_key(ctx, c.tile)
            held = [f for f in s["figures"].values() if f.get("villain") and k in combat.fig_tiles(f)]
            if k and held:
                # next to the Young Vampire on the Fountain: it bites and stays rather than walk off
                floor = set(geometry.floor_squares(s, k))
                near = [(q[0] + dx, q[1] + dy) for f in held for q in combat.fig_xy(f) for dx, dy in geometry.KING]
                goals += [q for q in near if q in floor] or sorted(floor)
        if c.kind == "escape":
            if rs.escape_squares(ctx) and _ready_to_escape(ctx, c):
                goals += [geometry.parse(q) for q in rs.escape_squares(ctx)]
        if c.kind == "items_carried_out":
            have = sum(len(s["players"][p]["items"]) for p in hero_pids(s))
            if have >= data._int(c.count, 12) or not s["tiles"]["stack"]:
                goals += [geometry.parse(q) for q in rs.escape_squares(ctx)]
    return goals


def _ready_to_escape(ctx, c) -> bool:
    """Escaping is the goal once every other clause of victory holds."""
    rs = active(ctx.s)
    for i, other in enumerate(clauses(ctx, "victory")):
        if other is c or other.kind in ("manual", "escape"):
            continue
        if not rs.holds(ctx, i, other):
            return False
    return True


def _attack_from(ctx, pid, sq, cache) -> float:
    """The best attack score the hero would have standing on `sq`."""
    xy = geometry.parse(sq)
    adj = frozenset(f for f, fig in ctx.s["figures"].items() if any(geometry.adjacent(xy, q) for q in combat.fig_xy(fig)))
    key = (geometry.tile_at_square(sq), adj)
    if key in cache:
        return cache[key]
    s2 = dict(ctx.s)
    s2["players"] = dict(ctx.s["players"])
    s2["players"][pid] = dict(ctx.s["players"][pid], square=sq)
    c2 = Ctx(ctx.content, s2)
    best = 0.0
    for pw_id, st in s2["players"][pid]["powers"].items():
        pw = data.power(ctx.content, pw_id)
        if st != "ready" or not pw["hits"]:
            continue
        for fid in combat.power_targets(c2, pid, pw):
            best = max(best, attack_score(c2, pid, {"power": pw_id, "target": fid}))
    cache[key] = best
    return best


# ------------------------------------------------------------------ where the monsters will strike

def _reach(ctx, fig) -> int:
    """Tiles from which the figure's tactics strike at a hero (most monsters: 1)."""
    m = data.monster(ctx.content, fig["monster"])
    reach = 1
    for line in m["tactics"]:
        cond, do = data.g(line, "condition", ""), data.g(line, "action", "")
        if "attack" in (do or "") and cond in ("hero_within", "heroes_within"):
            reach = max(reach, data._int(data.g(line, "within", 1), 1))
    return reach


def _blow(ctx, fig, pid) -> float:
    """The damage the figure's hardest attack is expected to deal the hero."""
    ac = heroes.ac(ctx, pid)
    best = 0.0
    for a in data.monster(ctx.content, fig["monster"])["attacks"].values():
        p = min(1.0, max(0.05, (21 - ac + a.get("bonus", 0)) / 20))
        best = max(best, p * a.get("damage", 0) + (1 - p) * (a.get("miss") or 0))
    return best


class Danger:
    """The harm a hero is likely to take standing on a square until their next turn: every monster
    within its reach that would pick this hero (the closest one) strikes once; a trap on the tile
    strikes too."""

    def __init__(self, ctx, pid):
        s = ctx.s
        self.ctx, self.pid = ctx, pid
        self.figs = []
        others = [q for q in hero_pids(s) if q != pid and heroes.standing(ctx, q)]
        for f in s["figures"].values():
            if f.get("object"):
                continue
            ftiles = combat.fig_tiles(f)
            d = geometry.tile_distances(s, ftiles)
            xy = combat.fig_xy(f)
            near = min(((d.get(heroes.tile(ctx, q), 99), min(geometry.square_distance(heroes.xy(ctx, q), c) for c in xy))
                        for q in others), default=(99, 99))
            area = any(a.get("area", "one") != "one" for a in data.monster(ctx.content, f["monster"])["attacks"].values())
            self.figs.append((d, xy, near, _reach(ctx, f), _blow(ctx, f, pid), area))
        self.traps = {}
        for m in s["markers"]:
            if m["kind"] in ("trap", "hazard"):
                self.traps[m["tile"]] = self.traps.get(m["tile"], 0) + 1.5
        self.cache = {}

    def at(self, sq: str) -> float:
        if sq in self.cache:
            return self.cache[sq]
        t = geometry.tile_at_square(sq)
        me = geometry.parse(sq)
        v = self.traps.get(t, 0.0)
        for d, xy, near, reach, blow, area in self.figs:
            td = d.get(t, 99)
            if td > reach:
                continue
            mine = (td, min(geometry.square_distance(me, c) for c in xy))
            if mine <= near:
                v += blow
            else:
                v += blow * (KNOBS["area_share"] if area else KNOBS["other_share"])
        self.cache[sq] = v
        return v


def _move(ctx, pid, acts):
    moves = [a for a in acts if a["type"] == "move"]
    s = ctx.s
    exits = set(active(s).escape_squares(ctx))
    if exits and not _goal_squares(ctx, pid):
        moves = [a for a in moves if a["to"] not in exits]  # never leave the dungeon before the goal asks it
    if KNOBS["press"] and s["tiles"]["stack"] and _together(ctx):
        # a hero left on an unexplored edge must explore: only where a friend stands too
        friends = {heroes.tile(ctx, q) for q in hero_pids(s) if q != pid and heroes.on_map(ctx, q)}
        if friends:
            moves = [a for a in moves if geometry.tile_at_square(a["to"]) in friends
                     or not geometry.edges_at_square(s, a["to"])]
    if not moves:
        return None
    t = s["turn"]
    me = heroes.xy(ctx, pid)
    can_attack_after = not t["attacked"] and len(t["actions"]) == 0
    mp = Map(ctx)
    allies = [heroes.xy(ctx, q) for q in hero_pids(s) if q != pid and heroes.on_map(ctx, q)]
    ally_tiles = {geometry.tile_at_square(s["players"][q]["square"]) for q in hero_pids(s)
                  if q != pid and heroes.on_map(ctx, q)}
    # 0. a hero close to falling, with few surges left, steps away from the monsters
    if _fragile(ctx, pid) and s["figures"]:
        mon = [q for f in s["figures"].values() if not f.get("object") for q in combat.fig_xy(f)]
        if mon:
            md = mp.dist_from(mon)
            here = md.get(me, 0)
            best = None
            for i, a in enumerate(moves):
                sq = geometry.parse(a["to"])
                on_edge = bool(geometry.edges_at_square(s, a["to"])) and bool(s["tiles"]["stack"])
                k = (min(md.get(sq, 99), 12), not on_edge, geometry.tile_at_square(a["to"]) in ally_tiles, -i)
                if best is None or k > best[0]:
                    best = (k, a)
            if best and best[0][0] > max(here, 1):
                return best[1]
    press = _pressing(ctx, pid)
    if press:
        # the Young Vampire stays on the Fountain only while a hero is next to it: stand there first
        held = {geometry.name(*q) for q in _goal_squares(ctx, pid)}
        if press == "there":
            moves = [a for a in moves if a["to"] in held]
            if not moves:
                return None
    danger = Danger(ctx, pid)
    # 1. a square to strike from (not when the haul is complete: then out, the quickest way)
    if can_attack_after and s["figures"] and not _leaving(ctx) and press != "away":
        cache = {}
        best = None
        # a strike from an unexplored edge explores after it when the fall clears the way
        alive = len([f for f in s["figures"].values() if not f.get("object")])
        edge_ok = bool(s["tiles"]["stack"]) and (_hoarding(ctx) or alive - 1 < _explore_limit(ctx)) and \
            not any(c.kind == "tokens_removed" for c in clauses(ctx, "victory"))
        for i, a in enumerate(moves):
            v = _attack_from(ctx, pid, a["to"], cache)
            if v <= 0.1:
                continue
            if edge_ok and KNOBS["strike_edge"] and geometry.edges_at_square(s, a["to"]):
                v += KNOBS["strike_edge"]
            sq = geometry.parse(a["to"])
            with_friend = geometry.tile_at_square(a["to"]) in ally_tiles
            k = (round(v - KNOBS["safe_strike"] * danger.at(a["to"]), 2), with_friend, -geometry.square_distance(sq, me), -i)
            if best is None or k > best[0]:
                best = (k, a)
        if best:
            return best[1]
    # 2. somewhere to go
    goal = _goal_squares(ctx, pid)
    many = not _want_explore(ctx)
    targets = []
    p = s["players"][pid]
    hurt = [q for q in hero_pids(s) if heroes.standing(ctx, q) and s["players"][q]["hp"] * 2 <= s["players"][q]["max_hp"]]
    healer = any(v == "ready" and _is_heal_power(ctx, k) for k, v in p["powers"].items())
    why = "fight"
    if press:
        targets = goal
        why = "goal"
    elif healer and [q for q in hurt if q != pid]:
        # a healer goes to the hurt
        targets = [heroes.xy(ctx, q) for q in hurt if q != pid]
        why = "heal"
    elif goal:
        targets = goal
        why = "goal"
    elif KNOBS["smash"] and _to_smash(ctx):
        # the goal's object does not strike back: every hero turns to it
        targets = [(q[0] + dx, q[1] + dy) for f in _to_smash(ctx) for q in combat.fig_xy(f) for dx, dy in geometry.KING]
        why = "goal"
    elif s["figures"] and (many or not s["tiles"]["stack"]):
        for f in s["figures"].values():
            for q in combat.fig_xy(f):
                targets += [(q[0] + dx, q[1] + dy) for dx, dy in geometry.KING]
    if not targets and s["tiles"]["stack"]:
        why = "explore"
        for k, d in geometry.all_unexplored(s):
            if _together(ctx) and allies and k not in ally_tiles:
                continue  # the group explores side by side (more than one hero near what comes)
            targets += [q for q in geometry.edge_squares(*geometry.parse(k), d) if q in mp.floor]
        if _hoarding(ctx) and targets and KNOBS["near_stairs"]:
            # the haul goes out by the Start tile's stairs: dig nearest them, the way back short
            starts = [k for k, tt in s["tiles"]["placed"].items() if tt.get("start")]
            td = geometry.tile_distances(s, starts)
            far = {q: td.get(geometry.tile_key(*geometry.tile_of(*q)), 99) for q in targets}
            nearest = min(far.values())
            targets = [q for q in targets if far[q] <= nearest + KNOBS["near_stairs"] - 1]
        if _together(ctx) and allies and not targets:
            why = "heal"
            targets = [(a[0] + dx, a[1] + dy) for a in allies for dx, dy in geometry.KING]
        if allies and targets:
            # the unexplored edges nearest the group
            ad = mp.dist_from(allies)
            near = min(ad.get(q, 999) for q in targets)
            targets = [q for q in targets if ad.get(q, 999) <= near + KNOBS["group_edges"]]
    if not targets and s["figures"]:
        why = "fight"
        for f in s["figures"].values():
            for q in combat.fig_xy(f):
                targets += [(q[0] + dx, q[1] + dy) for dx, dy in geometry.KING]
    if not targets and allies:
        targets = allies
        why = "heal"
    if not targets:
        return None
    dist = mp.dist_from(set(targets))
    speed = max(1, heroes.speed(ctx, pid))
    later = 2 + t.get("free_moves", 0) - len(t["actions"]) - 1 > 0 and t["actions"].count("move") + 1 < 2 + t.get("free_moves", 0)
    weight = KNOBS["safe_" + why] * (KNOBS["later_share"] if later else 1.0)
    if t["attacked"] and why == "fight":
        # struck already: nothing more to gain this turn next to common monsters; a villain is pressed
        villain = any(f.get("villain") for f in s["figures"].values())
        weight = KNOBS["safe_after_villain"] if villain else KNOBS["safe_after"]

    def cost(sq_name):
        return min(dist.get(geometry.parse(sq_name), 999), 60) / speed + weight * danger.at(sq_name)
    stay = cost(p["square"])
    if why == "explore" and not later and KNOBS["last_edge"]:
        # the last move of the turn: any edge within reach explores (no Encounter drawn for it, or one
        # fewer) rather than half a walk toward the chosen one
        edge = [a for a in moves if geometry.edges_at_square(s, a["to"])]
        if edge and not geometry.edges_at_square(s, p["square"]):
            moves, stay = edge, 9999.0
    best = None
    for i, a in enumerate(moves):
        sq = geometry.parse(a["to"])
        with_friend = geometry.tile_at_square(a["to"]) in ally_tiles
        k = (round(cost(a["to"]), 3), not with_friend, geometry.square_distance(sq, me), i)
        if best is None or k < best[0]:
            best = (k, a)
    if best and best[0][0] < round(stay, 3):
        return best[1]
    return None


def _pressing(ctx, pid):
    """Where a hero stands while a villain must be held on its tile (the Young Vampire on the Dark
    Fountain, walking off it when no hero is next to it): "there" next to it, "away", or None."""
    if not KNOBS["press"] or not heroes.on_map(ctx, pid):
        return None
    for c in clauses(ctx, "victory"):
        if c.kind != "tokens_removed":
            continue
        k = placed_key(ctx, c.tile)
        if not k or not any(f.get("villain") and k in combat.fig_tiles(f) for f in ctx.s["figures"].values()):
            return None
        me = heroes.xy(ctx, pid)
        return "there" if me in set(_goal_squares(ctx, pid)) else "away"
    return None


def _to_smash(ctx) -> list:
    """The objects on the map whose destruction the goal asks, once no villain it names is left."""
    cl = clauses(ctx, "victory")
    standing = {f["monster"] for f in ctx.s["figures"].values()}
    if KNOBS["smash"] < 2 and any(c.kind == "villain_defeated" and c.villain in standing for c in cl):
        return []  # (2: before the villain too, measured worse in Klak's adventure)
    tokens = {c.token for c in cl if c.kind == "object_destroyed"}
    return [f for f in ctx.s["figures"].values() if f.get("object") and f["monster"] in tokens]


def _alone(ctx, pid) -> bool:
    """No friend on the hero's tile while friends are on the map."""
    others = [q for q in hero_pids(ctx.s) if q != pid and heroes.on_map(ctx, q)]
    return bool(others) and all(heroes.tile(ctx, q) != heroes.tile(ctx, pid) for q in others)


def _together(ctx) -> bool:
    """Explore only from a tile a friend stands on: where a villain comes out with the tile and
    stays only while heroes press it (the Young Vampire on the Dark Fountain), or everywhere."""
    if KNOBS["together"] == 2:
        return True
    return bool(KNOBS["together"]) and any(c.kind == "tokens_removed" for c in clauses(ctx, "victory")) and \
        not placed_key(ctx, "dark_fountain") and len(ctx.s["tiles"]["placed"]) >= KNOBS["together_after"]


def _fragile(ctx, pid) -> bool:
    """Close to falling while the group has one healing surge or none left."""
    p = ctx.s["players"][pid]
    return ctx.s["surges"] <= KNOBS["fragile_surges"] and p["hp"] <= max(2, p["max_hp"] // 3)


def _is_heal_power(ctx, power_id) -> bool:
    return data.slug(data.power(ctx.content, power_id)["name"]) == "healingword"


def _want_explore(ctx) -> bool:
    if _hoarding(ctx):
        return True  # not exploring there draws two Encounters: a tile's Monster is the lesser harm
    if any(c.kind == "escape" for c in clauses(ctx, "victory")) and not active(ctx.s).escape_squares(ctx):
        return True  # the way out is still to be found: only the stack brings it
    alive = len([f for f in ctx.s["figures"].values() if not f.get("object")])
    return alive < _explore_limit(ctx)


def _explore_limit(ctx) -> float:
    """Explore while fewer monsters than this are about."""
    per = KNOBS["explore_per_hero"] * len(hero_pids(ctx.s))
    below = KNOBS["explore_below"]
    if any(c.kind == "encounter_every_villain_phase" for c in clauses(ctx, "rules")):
        below = KNOBS["explore_below_extra"]  # staying draws two Encounters there
    return max(1, below + per)


def _leaving(ctx) -> bool:
    """Enough Items are held: every hero heads for the stairs rather than the fight."""
    if not _hoarding(ctx):
        return False
    s = ctx.s
    c = next(c for c in clauses(ctx, "victory") if c.kind == "items_carried_out")
    return sum(len(s["players"][p]["items"]) for p in hero_pids(s)) >= data._int(c.count, 12)


def _hoarding(ctx) -> bool:
    """The goal counts the Items carried out: each one used is one fewer."""
    return bool(KNOBS["hoard"]) and any(c.kind == "items_carried_out" for c in clauses(ctx, "victory"))


def _end(ctx, pid, acts):
    ends = [a for a in acts if a["type"] == "end"]
    if not ends:
        return None
    alone = KNOBS["press"] and _together(ctx) and _alone(ctx, pid)
    if alone or (not _want_explore(ctx) and not _goal_squares(ctx, pid)):
        for a in ends:
            if a.get("explore") == "none":
                return a
    for a in ends:
        if a.get("explore") not in (None, "none"):
            return a
    return ends[0]


# ------------------------------------------------------------------ whole games (tests and bench/)

BUG_BOUND = 20000  # actions: a game still going after this many is a bug, never a result


def suited_counts(content, adv) -> list:
    """The player counts the adventure suits."""
    rec = data.adventure_record(content, adv)
    lo, hi = data._int(data.g(rec, "players_min", 1), 1), data._int(data.g(rec, "players_max", 5), 5)
    return list(range(lo, min(hi, len(data.hero_ids(content))) + 1))


def team_for(content, seed: int, n: int) -> list:
    """`n` heroes from the box, drawn by the seed."""
    return shuffle({"rng": seeded(seed * 7919 + n)}, data.hero_ids(content))[:n]


def play_auto_game(content, seed: int, adv, n: int, options: dict | None = None, on_action=None, times=None):
    """A whole game of `n` built-in heroes from its seed to its end: (final state, actions applied).
    `on_action(state, action)` sees each action before it is applied; `times` (a list) gets the
    seconds each `Engine.apply` of play took. Raises RuntimeError when the game is still going
    after BUG_BOUND actions."""
    e = Engine(content)
    s = e.new_game(seed, dict({"adventure": adv}, **(options or {})))
    for i, h in enumerate(team_for(content, seed, n)):
        a = {"type": "join", "player": f"p{i}", "name": f"P{i}", "hero": h}
        if s["options"].get("powers") == "chosen":
            hh = data.hero(content, h)
            a["powers"] = hh["suggested"][len(hh["fixed"]):]
        s, _ = e.apply(s, a)
    s, _ = e.apply(s, {"type": "start", "player": "p0"})
    count = 0
    while s["phase"] != "over":
        if count >= BUG_BOUND:
            raise RuntimeError(f"adventure {adv} seed {seed}: still going after {BUG_BOUND} actions")
        pid = s["pending"]["player"] if s["pending"] else s["turn"]["player"]
        a = choose_action(content, s, pid)
        if on_action:
            on_action(s, a)
        t0 = perf_counter()
        s, _ = e.apply(s, a)
        if times is not None:
            times.append(perf_counter() - t0)
        count += 1
    return s, count
