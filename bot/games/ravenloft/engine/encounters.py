"""Encounter cards: drawn in the villain phase (and by some cards), cancelled with 5 experience as
they are drawn or carried out at once. The active hero is always the hero of the player who drew
the card.

- environment: stays in play for everyone until another replaces it (cancelling a new one leaves the
  old one in place);
- event: happens and is discarded; event-attack: an event that rolls attacks at heroes;
- trap (and hazard): its marker goes on the active hero's tile (a tile already holding such a
  marker sends the card to the discard and another is drawn), the card joins the drawer's monster
  cards and acts in their villain phase; a hero on its tile may try to disable it instead of
  attacking."""

from bot.kit.rng import die

from . import combat, data, experience, explore, geometry, heroes, levels, pending, reactions, tactics, treasure
from .rulesets import active
from .state import Ctx, clockwise_from, discard, draw, hero_pids

RULES: dict = {}  # special step name -> fn(ctx, pid, card): the card's own rule (encounter_rules.py fills it)
OWN_ATTACK: set = set()  # special step names whose rule rolls the card's attack itself (a rider on each hit)
WAIT = "wait"  # a rule's answer when it asked a question: the card's later steps wait on the answer
ENVIRONMENTS = ("bat_swarm", "blood_fog", "crippling_miasma", "music_of_the_damned", "haunted_mists",
                "cackling_skull", "deadly_shadows", "spirit_of_doom")  # read where they apply


def draw_and_play(ctx: Ctx, pid: str, allow_cancel: bool = True):
    """Draw one encounter card for `pid`; it may wait on the cancel question."""
    for _ in range(20):
        card = draw(ctx, "encounter")
        if card is None:
            ctx.say("encounter", "The encounter deck is empty.")
            return
        e = data.encounter(ctx.content, card)
        ctx.say("encounter", f"{heroes.name(ctx, pid)} draws the encounter card {e['name']} ({_kind(e)}).", card=card)
        if e["type"] == "trap" and _marker_on(ctx, heroes.tile(ctx, pid)):
            ctx.say("encounter", f"A marker already lies on {heroes.name(ctx, pid)}'s tile: {e['name']} is "
                                 f"discarded and another card drawn.")
            discard(ctx, "encounter", card)
            continue
        dispel = reaction_power(ctx, pid, "dispelmagic") if allow_cancel else None
        if allow_cancel and (experience.total(ctx) >= 5 or dispel):
            opts = ["cancel it", "let it happen"] if experience.total(ctx) >= 5 else ["let it happen"]
            if dispel:
                opts.insert(0, "dispel it")
            cost = sum(experience.card_xp(ctx, c) for c in experience.pick(ctx, 5)) if experience.total(ctx) >= 5 else 0
            ask = f"Spend {cost} experience to cancel {e['name']}?" if cost else f"{e['name']} is drawn."
            if dispel:
                ask += " Or cancel it with Dispel Magic."
            pending.ask(ctx, pid, "cancel", ask, opts, card=card)
            return
        play(ctx, pid, card)
        return


def reaction_power(ctx: Ctx, pid: str, word: str):
    """The hero's face-up power of that name (a slug), or None."""
    for k, v in ctx.s["players"][pid]["powers"].items():
        if v == "ready" and data.slug(data.power(ctx.content, k)["name"]) == word:
            return k
    return None


def _kind(e: dict) -> str:
    return e["type"].replace("_", "-")


def _marker_on(ctx: Ctx, tkey) -> bool:
    return any(m["tile"] == tkey and m["kind"] in ("trap", "hazard") for m in ctx.s["markers"])


def answer_cancel(ctx: Ctx, q: dict, choice: str):
    card = q["card"]
    pid = q["player"]
    e = data.encounter(ctx.content, card)
    if choice == "dispel it":
        k = reaction_power(ctx, pid, "dispelmagic")
        ctx.s["players"][pid]["powers"][k] = "used"
        ctx.say("cancel", f"{heroes.name(ctx, pid)} uses Dispel Magic: {e['name']} is cancelled.", card=card)
        discard(ctx, "encounter", card)
        if heroes.environment_is(ctx, "Cackling Skull"):
            heroes.hurt(ctx, pid, 1, "Cackling Skull")
        return
    if choice == "cancel it":
        spent = experience.spend(ctx, 5)
        ctx.say("cancel", f"The heroes spend {spent} experience: {e['name']} is cancelled"
                          + (f" ({spent - 5} over 5 is lost)." if spent > 5 else "."), card=card)
        discard(ctx, "encounter", card)
        active(ctx.s).cancelled(ctx, pid)
        return
    play(ctx, pid, card)


def play(ctx: Ctx, pid: str, card: str):
    e = data.encounter(ctx.content, card)
    kind = e["type"]
    if kind == "environment":
        old = ctx.s["environment"]
        if old:
            discard(ctx, "encounter", old)
            ctx.say("environment", f"{data.encounter(ctx.content, old)['name']} gives way to {e['name']}.")
        else:
            ctx.say("environment", f"{e['name']} now hangs over the whole dungeon.")
        ctx.s["environment"] = card
        return
    if kind in ("trap", "hazard"):
        t = heroes.tile(ctx, pid)
        ctx.s["markers"].append({"id": ctx.new_id("k"), "kind": kind, "card": card, "tile": t, "owner": pid})
        ctx.s["players"][pid]["cards"].append({"kind": kind, "card": card})
        ctx.say("trap", f"The {e['name']} marker goes on tile {t}; the card joins {heroes.name(ctx, pid)}'s monster "
                        f"cards.", card=card, tile=t)
        return
    reactions.spring_away(ctx, pid, e, _endangered(ctx, pid, e))
    if e["attack"] and not any(data.g(st, "name") in OWN_ATTACK for st in e["steps"]):
        for target in _heroes_hit(ctx, pid, e["attack"]["target"], heroes.tile(ctx, pid)):
            for _ in range(e["attack"]["rolls"]):
                _attack_once(ctx, pid, e, e["name"], target)
    run_steps(ctx, pid, e, e["steps"])
    discard(ctx, "encounter", card)


def _attack_once(ctx: Ctx, pid: str, e: dict, source: str, target: str):
    """One roll of the card's attack; on a hit its `on_hit` steps befall that hero (Gray Ooze)."""
    if combat.monster_attack(ctx, source, dict(e["attack"], condition=_first(e["attack"]["conditions"])), target):
        on_hit = on_hit_steps(ctx, e)
        if on_hit:
            run_steps(ctx, pid, e, on_hit, who_override=target)


def on_hit_steps(ctx: Ctx, e: dict) -> list:
    """The card's attack's on_hit steps (read from the record: data.encounter leaves them out)."""
    rec = data.table(ctx.content, "encounters").get(e["id"])
    return list(data.g(data.g(rec, "attack"), "on_hit", ()) or ())


def _endangered(ctx: Ctx, pid: str, e: dict) -> list:
    """The heroes an event's attack or its damage or condition steps reach by where they stand (on the
    active hero's tile, or within 1 tile of it): those Spring Away can carry out of reach."""
    if e["type"] not in ("event", "event_attack"):
        return []
    tile = heroes.tile(ctx, pid)
    words = [e["attack"]["target"]] if e["attack"] else []
    words += [data.g(st, "who", "active_hero") for st in e["steps"] if data.g(st, "do") in ("damage", "condition")]
    out = []
    for w in words:
        if w in ("each_hero_on_tile", "each_hero_within_1_tile"):
            out += [q for q in _heroes_hit(ctx, pid, w, tile) if q not in out]
    return out


def _first(xs):
    return xs[0] if xs else None


def _heroes_hit(ctx: Ctx, pid: str, word: str, tkey) -> list:
    order = [p for p in clockwise_from(ctx.s, pid) if heroes.standing(ctx, p)]
    if word == "active_hero":
        return [pid] if pid in order else []
    if word == "each_hero_on_tile":
        return [p for p in order if heroes.tile(ctx, p) == tkey]
    if word == "each_hero_within_1_tile":
        d = geometry.tile_distances(ctx.s, [tkey])
        return [p for p in order if d.get(heroes.tile(ctx, p), 99) <= 1]
    if word == "most_hp_hero":
        return sorted(order, key=lambda p: -ctx.s["players"][p]["hp"])[:1]
    return order


def run_steps(ctx: Ctx, pid: str, e: dict, steps: list, who_override=None, tkey=None):
    """The card's steps in order; `tkey` is the tile "on tile" and "within 1 tile" count from (a trap's
    marker; the active hero's tile when None)."""
    for st in steps:
        do = data.g(st, "do")
        who = data.g(st, "who", "active_hero")
        targets = [who_override] if who_override else _heroes_hit(ctx, pid, who, tkey or heroes.tile(ctx, pid))
        if do == "damage":
            amount = data.g(st, "amount", 1)
            for p in targets:
                n = len([c for c in ctx.s["players"][p]["cards"] if c["kind"] == "monster"]) \
                    if amount == "monsters_controlled" else data._int(amount, 1)
                if n:
                    ctx.say("encounter", f"{e['name']}: {heroes.name(ctx, p)} takes {n} damage.")
                    heroes.hurt(ctx, p, n, e["name"])
        elif do == "condition":
            for p in targets:
                heroes.add_condition(ctx, p, data.g(st, "condition", ""), e["name"])
        elif do == "new_monster":
            where = data.g(st, "where", "active_hero_tile")
            if where in RULES:  # who places it, or where, is the card's own rule (encounter_rules.py)
                RULES[where](ctx, pid, e)
            else:
                explore.place_monster(ctx, pid, heroes.tile(ctx, pid))
        elif do == "draw_treasure":
            treasure.draw_one(ctx, pid)
        elif do == "discard_treasure":
            for p in targets:
                items = ctx.s["players"][p]["items"]
                pick = data.g(st, "pick", "")
                if len(set(items)) > 1 and pick == "choice":
                    pending.ask(ctx, p, "encounter", f"{e['name']}: which treasure card does {heroes.name(ctx, p)} "
                                                     f"give up?",
                                [data.treasure(ctx.content, i)["name"] for i in sorted(set(items))],
                                rule="give_up_treasure", enc=e["id"], values=sorted(set(items)))
                elif items:
                    lose_item(ctx, p, items[die(ctx.s, len(items)) - 1] if pick == "random" else items[0], e["name"])
        elif do == "flip_power":
            up = bool(data.g(st, "up", False))
            for p in targets:
                flip_power(ctx, p, up, e["name"])
        elif do == "roll":
            bands = data.g(st, "bands", ())
            rollers = [p for p in clockwise_from(ctx.s, pid) if heroes.on_map(ctx, p)] \
                if data.g(st, "each_hero", False) else [pid]
            for p in rollers:
                r = die(ctx.s, 20)
                ctx.say("roll", f"{e['name']}: {heroes.name(ctx, p)} rolls {r}.", roll=r)
                for b in bands:
                    if data._int(data.g(b, "at_least", 1)) <= r <= data._int(data.g(b, "at_most", 20)):
                        run_steps(ctx, pid, e, list(data.g(b, "then", ())),
                                  who_override=p if data.g(st, "each_hero", False) else None, tkey=tkey)
        elif do == "special":
            if special(ctx, pid, e, data.g(st, "name", "")) == WAIT:
                return  # the rule asked a question: its answer carries out the steps after this one


def lose_item(ctx: Ctx, pid: str, item: str, source: str):
    """The hero throws an item away (Spirit of Doom, 58: that costs 1 Hit Point)."""
    ctx.s["players"][pid]["items"].remove(item)
    discard(ctx, "treasure", item)
    ctx.say("encounter", f"{source}: {heroes.name(ctx, pid)} loses {data.treasure(ctx.content, item)['name']}.")
    if heroes.environment_is(ctx, "Spirit of Doom"):
        heroes.hurt(ctx, pid, 1, "Spirit of Doom")


def flip_power(ctx: Ctx, pid: str, up: bool, source: str):
    p = ctx.s["players"][pid]
    order = sorted(p["powers"], key=lambda k: (data.power(ctx.content, k)["type"] == "at_will", k))
    for k in order:
        kind = data.power(ctx.content, k)["type"]
        if kind == "at_will":
            continue
        if up and p["powers"][k] == "used":
            p["powers"][k] = "ready"
            ctx.say("power", f"{source}: {heroes.name(ctx, pid)} turns {data.power(ctx.content, k)['name']} face up.")
            return
        if not up and p["powers"][k] == "ready":
            p["powers"][k] = "used"
            ctx.say("power", f"{source}: {heroes.name(ctx, pid)} loses the use of "
                             f"{data.power(ctx.content, k)['name']}.")
            return
    if not up:
        heroes.hurt(ctx, pid, 1, source)


def nearest_unexplored_tile(ctx: Ctx, tkey):
    d = geometry.tile_distances(ctx.s, [tkey])
    edges = [(d.get(k, 99), geometry._tile_sort(k), k, e) for k, e in geometry.all_unexplored(ctx.s)]
    return min(edges)[2] if edges else None


def nearest_edge(ctx: Ctx, tkey):
    d = geometry.tile_distances(ctx.s, [tkey])
    edges = [(d.get(k, 99), geometry._tile_sort(k), "NESW".index(e), k, e) for k, e in geometry.all_unexplored(ctx.s)]
    if not edges:
        return None
    best = min(edges)
    return best[3], best[4]


def bottom_tile(ctx: Ctx, pid: str, edge, monsters: int, move_hero: bool, name: str):
    """A tile from the bottom of the stack laid at `edge`, with `monsters` new monsters on it; no
    encounter is drawn for it (FAQ: Cyrus Belview, Prowling Ghost)."""
    stack = ctx.s["tiles"]["stack"]
    if not stack or edge is None:
        ctx.say("encounter", f"{name}: no tile or unexplored edge is left, so nothing happens.")
        return None
    tid = stack.pop()
    new = explore.place_tile_anywhere(ctx, pid, tid, edge)
    rec = ctx.s["tiles"]["placed"][new]
    ctx.say("tile", f"{name}: a tile from the bottom of the stack ({rec['name'] or 'unnamed'}) is laid at tile {new}.",
            tile=new, tile_id=tid)
    for _ in range(monsters):
        explore.place_monster(ctx, pid, new)
    if move_hero:
        sq = explore.free_square_on(ctx, new)
        if sq:
            ctx.s["players"][pid]["square"] = sq
            ctx.say("move", f"{name}: {heroes.name(ctx, pid)} is moved to square {sq}.", hero=pid)
    return new


def special(ctx: Ctx, pid: str, e: dict, word: str):
    """The card's own rule by its step name; WAIT when it asked a question first."""
    t = ctx.s["turn"]
    if word == "frenzy":
        t["frenzy"] = True
        ctx.say("encounter", "Frenzy: in this villain phase every monster activates twice.")
    elif word == "howl_of_the_wolf":
        tiles = {heroes.tile(ctx, p) for p in hero_pids(ctx.s) if heroes.on_map(ctx, p)}
        cands = [f for f in sorted(ctx.s["figures"], key=combat._fid_order)
                 if set(combat.fig_tiles(ctx.s["figures"][f])) & tiles and not ctx.s["figures"][f].get("object")]
        if cands:
            f = cands[0]
            ctx.say("encounter", f"Howl of the Wolf: the {ctx.s['figures'][f]['name']} acts at once, alone.")
            tactics.activate(ctx, f)
    elif word == "cyrus_belview":
        new = bottom_tile(ctx, pid, nearest_edge(ctx, heroes.tile(ctx, pid)), 2, True, e["name"])
        if new:
            t["no_encounter_tiles"] = t.get("no_encounter_tiles", []) + [new]
    elif word == "prowling_ghost":
        new = bottom_tile(ctx, pid, nearest_edge(ctx, heroes.tile(ctx, pid)), 1, True, e["name"])
        if new:
            t["no_encounter_tiles"] = t.get("no_encounter_tiles", []) + [new]
    elif word in RULES:
        return RULES[word](ctx, pid, e)
    elif word not in ENVIRONMENTS:
        # every card of the box has its rule (tests/test_ravenloft_encounters.py); only new data lands here
        ctx.say("encounter", f"{e['name']}: the engine knows no rule named {word!r}; the card does nothing.")
    return None


def trap_acts(ctx: Ctx, pid: str, card: str):
    """A trap (or hazard) card's turn in its holder's villain phase."""
    e = data.encounter(ctx.content, card)
    marker = next((m for m in ctx.s["markers"] if m.get("card") == card), None)
    if marker is None:
        return
    if data.slug(e["name"]) == "alarm":
        t = nearest_unexplored_tile(ctx, marker["tile"]) or marker["tile"]
        ctx.say("trap", f"The Alarm rings: a monster comes from tile {t}.")
        explore.place_monster(ctx, pid, t)
        return
    if e["attack"]:
        for target in _heroes_hit(ctx, pid, e["attack"]["target"], marker["tile"]):
            _attack_once(ctx, pid, e, f"The {e['name']}", target)
    if e["steps"]:
        run_steps(ctx, pid, e, e["steps"], tkey=marker["tile"])  # the trap's own tile (Fire Trap)


def disable(ctx: Ctx, pid: str, marker: dict) -> dict:
    e = data.encounter(ctx.content, marker["card"])
    r = die(ctx.s, 20)
    bonus = 5 if heroes.has_ability(ctx, pid, "trapexpert") else 0
    bonus += heroes.item_bonus(ctx, pid, "disable")
    r, total = reactions.aid_roll(ctx, pid, r, r + bonus, e["disable"], False, lambda: die(ctx.s, 20))
    if total >= e["disable"]:
        ctx.say("disable", f"{heroes.name(ctx, pid)} disables the {e['name']}: {r}+{total - r} = {total} against "
                           f"{e['disable']}.", roll=r)
        combat.remove_marker(ctx, marker, "disabled")
    else:
        ctx.say("disable", f"{heroes.name(ctx, pid)} fails to disable the {e['name']}: {r}+{total - r} = {total}, "
                           f"{e['disable']} needed.", roll=r)
    if r == 20:
        levels.offer_level_up(ctx, pid)
    return {"roll": r}
