"""Haunt 1, Do Beholders Dream of Electric Eye Rays? (Traitor's Tome and
Secrets of Survival).

What the bot carries out:
- the Beholder's hit points (twice the adventurers): damage lowers them and
  does not stun it; at 0 it is dead;
- its attacks: on its own tile or a connected tile next to it, up to two
  different targets per monster turn, each with an eye ray rolled on 2 dice
  (0-1 Might, 2 Speed with a 2-space cap on the target's next turn, 3
  Knowledge hurling the target to the nearest other tile with an opponent, 4
  Sanity taking 1 die from the target's next attack); a loss against a target
  on another tile costs it nothing; it acts before the Beholderkin;
- its madness: at the start of the monster turn, with a quest token on every
  omen tile it is insane, may attack only the nearest of the traitor and the
  Beholderkin, and the bot makes that attack as its turn ends if it has not;
- its dreams: ending the monster turn on an omen tile with no quest token, it
  falls asleep (stunned), spawns a stunned Beholderkin on a connected tile
  next to it with none (the traitor picks when there is a choice) and leaves a
  quest token; it wakes at the start of the traitor's turn;
- the heroes' declared move `dream` (Knowledge or Sanity) on its tile
  (instead of an attack, opposed by its same trait: a win puts a quest token
  on every omen tile) and the traitor's declared move `sleep` (Knowledge or
  Sanity) on an omen tile once every omen tile is barred (4+ clears them
  all);
- a Beholderkin beaten by a hero for 2 or more is removed and the hero draws
  an item; less only stuns it; Stock Up (a hero drawing an item may look at 3,
  keep one and put the others at the bottom in the order they choose);
- both wins: the Beholderkin on the board reaching the adventurers' number,
  the heroes all dead; the Beholder and every Beholderkin destroyed.

Left to the players: nothing of the haunt's rules. The heroes leaving the
room is the private rules message itself.
"""
from .. import attack, effects, hooks, rng, rulesets
from .. import board as bd
from .. import cards as cd
from .. import haunt_play as hp
from .. import marks as mk
from .. import moves
from .. import state as st
from .. import tokens as tk
from ..errors import IllegalAction
from ..geometry import distances

BEHOLDER, KIN, QUEST = "Beholder", "Beholderkin", "Quest"
HP = "Beholder hit points"
RAYS = {0: ("Disintegration Ray", "might"), 1: ("Disintegration Ray", "might"), 2: ("Slowing Ray", "speed"),
        3: ("Telekinetic Ray", "knowledge"), 4: ("Enervation Ray", "sanity")}
SLEEP_TARGET = 4
SLOWED_TO = 2
KILL_AT = 2  # damage that removes a Beholderkin
STOCK_LOOK = 3


# "rays": per turn number, the ids of those the Beholder has aimed at (players or monsters); "enervated": players.
OWN = rulesets.Own("h01", {"insane": False, "asleep": False, "rays": {}, "enervated": []},
                   players=("rays", "enervated"))


def mine(ctx) -> dict:
    return rulesets.REGISTRY[1].record(ctx.s)


def peek(ctx) -> dict:
    """This haunt's state for a read (a legality check writes nothing)."""
    return ctx.s["haunt"].get("h01") or {**OWN.start, "rays": {}, "enervated": []}


def the_beholder(ctx) -> dict | None:
    return next((m for m in ctx.s["monsters"] if m["name"] == BEHOLDER and not m["dead"]), None)


def kin(ctx) -> list[dict]:
    return [m for m in ctx.s["monsters"] if m["name"] == KIN and not m["dead"]]


def omen_tiles(ctx) -> list[str]:
    return [t for t in ctx.s["board"] if ctx.c.tiles[t].symbol == "omen"]


def barred(ctx, tile: str) -> bool:
    return any(t["name"] == QUEST for t in tk.on_tile(ctx.s, tile))


def all_barred(ctx) -> bool:
    return all(barred(ctx, t) for t in omen_tiles(ctx))


def reach(ctx, tile: str) -> set[str]:
    """Its own tile and the connected tiles next to it."""
    return {tile} | {t for t in bd.exits(ctx.c, ctx.s["board"], tile).values() if t}


def where_is(ctx, who: str) -> str:
    if who in ctx.s["players"]:
        return ctx.s["players"][who]["tile"]
    return attack.monster_by_id(ctx, who)["tile"]


def mad_targets(ctx) -> list[str]:
    """Traitor's Tome, haunt 1: the nearest of the traitor and the
    Beholderkin (the traitor first, then the Beholderkin in order)."""
    s = ctx.s
    b = the_beholder(ctx)
    if b is None:
        return []
    found = [p for p in hp.alive(s, hp.traitors(s)) if st.on_board(s["players"][p])] + [m["id"] for m in kin(ctx)]
    gap = distances(ctx, b["tile"])
    found = [w for w in found if where_is(ctx, w) in gap]
    if not found:
        return []
    near = min(gap[where_is(ctx, w)] for w in found)
    return [w for w in found if gap[where_is(ctx, w)] == near]


def rays_this_turn(ctx) -> list[str]:
    return peek(ctx)["rays"].get(str(ctx.s["turn"]["number"]), [])


def why_not(ctx, m: dict, target: str) -> str | None:
    """Why the Beholder may not aim an eye ray at `target` now, or None."""
    s = ctx.s
    if m["stunned"]:
        return "The Beholder is asleep."
    done = rays_this_turn(ctx)
    if len(done) >= 2:
        return "The Beholder has already attacked two targets this turn."
    if target in done:
        return "The Beholder may not attack the same target twice in one turn."
    if target in s["players"]:
        p = s["players"][target]
        if not p["alive"] or not st.on_board(p):
            return f"{ctx.name(target)} is not on the board."
        tile = p["tile"]
    else:
        other = next((x for x in s["monsters"] if x["id"] == target and not x["dead"]), None)
        if other is None or other["name"] != KIN:
            return "The Beholder attacks heroes, or in its madness the traitor and the Beholderkin."
        tile = other["tile"]
    if peek(ctx)["insane"]:
        if target not in mad_targets(ctx):
            return "The Beholder is insane: it may attack only the nearest of the traitor and the Beholderkin."
    elif target not in s["players"] or target in hp.traitors(s):
        return "While sane, the Beholder attacks only the heroes."
    if tile not in reach(ctx, m["tile"]):
        return "The Beholder's eye rays reach its own tile and the connected tiles next to it only."
    why = attack.shielded(ctx, target) if target in s["players"] else None
    return why


def fire_ray(ctx, m: dict, target: str):
    """Traitor's Tome, haunt 1: "Special Beholder Attack Rules"."""
    s = ctx.s
    why = why_not(ctx, m, target)
    if why:
        raise IllegalAction(why)
    turn_key = str(s["turn"]["number"])
    mine(ctx)["rays"] = {turn_key: rays_this_turn(ctx) + [target]}
    if len(mine(ctx)["rays"][turn_key]) >= 2 and m["id"] not in s["turn"].get("attacked", []):
        s["turn"].setdefault("attacked", []).append(m["id"])
    boss = hp.controller(s)
    face = effects.make_roll(ctx, boss, 2, "2 dice for the eye ray")
    ray, trait = RAYS[min(face, 4)]
    name = attack.label(ctx, target)
    ctx.say(f"The Beholder fires its {ray} at {name}: a {trait.capitalize()} attack.", kind="attack")
    a = effects.make_roll(ctx, boss, rng.dice_count(m["traits"][trait]), f"{trait.capitalize()} for the Beholder",
                          kind="contest")
    value = ctx.value(target, trait) if target in s["players"] else attack.monster_by_id(ctx, target)["traits"][trait]
    d = attack.defence_roll(ctx, target, trait, value)
    s["haunt"]["last_attacker"] = m["id"]
    distance = where_is(ctx, target) != m["tile"]
    effects.queue(ctx, boss, [attack.roll_off(m["id"], target, trait, a, d, distance),
                              {"do": "h01_ray_effect", "ray": ray, "target": target, "hit": a > d},
                              {"do": "_attack_over"}], source="attack", front=True)


@effects.step("h01_ray_effect")
def _ray_effect(ctx, task, item):
    s = ctx.s
    target = item["target"]
    if not item["hit"] or target not in s["players"] or not s["players"][target]["alive"]:
        return
    if item["ray"] == "Slowing Ray":
        mk.add(ctx, target, "move_cap", cap=SLOWED_TO, armed=False)
        ctx.say(f"{ctx.name(target)} is slowed: at most {SLOWED_TO} spaces of movement next turn.", kind="haunt")
    elif item["ray"] == "Enervation Ray":
        if target not in mine(ctx)["enervated"]:
            mine(ctx)["enervated"].append(target)
        ctx.say(f"{ctx.name(target)} is drained: 1 die fewer on their next attack.", kind="haunt")
    elif item["ray"] == "Telekinetic Ray":
        tiles = hurl_tiles(ctx, target)
        if not tiles:
            ctx.say(f"No other tile holds an opponent of {ctx.name(target)}: the Telekinetic Ray moves nobody.",
                    kind="haunt")
        elif len(tiles) == 1:
            hurl(ctx, target, tiles[0])
        else:
            effects.ask(ctx, hp.controller(s), "h01_hurl", f"where does the Telekinetic Ray put {ctx.name(target)}?",
                        [ctx.tile_name(t) for t in tiles], tiles=tiles, target=target)


def hurl_tiles(ctx, target: str) -> list[str]:
    """Ruling: the nearest tile other than the target's own that holds one of
    their opponents (ties: the traitor picks)."""
    s = ctx.s
    here = s["players"][target]["tile"]
    if target in hp.traitors(s):
        foes = {s["players"][p]["tile"] for p in hp.alive(s, hp.heroes(s)) if st.on_board(s["players"][p])}
    else:
        foes = {s["players"][p]["tile"] for p in hp.alive(s, hp.traitors(s)) if st.on_board(s["players"][p])}
        foes |= {m["tile"] for m in s["monsters"] if not m["dead"] and not m.get("ally")}
    gap = distances(ctx, here)
    foes = [t for t in foes if t != here and t in gap]
    if not foes:
        return []
    near = min(gap[t] for t in foes)
    return sorted((t for t in foes if gap[t] == near), key=ctx.tile_name)


def hurl(ctx, target: str, tile: str):
    moves.place_on(ctx, target, tile, verb="is hurled by the Telekinetic Ray to", stop=False)


@effects.decision("h01_hurl")
def _decide_hurl(ctx, pending, index):
    hurl(ctx, pending["data"]["target"], pending["data"]["tiles"][index])


@effects.step("h01_enervation_spent")
def _enervation_spent(ctx, task, item):
    if item["pid"] in mine(ctx)["enervated"]:
        mine(ctx)["enervated"].remove(item["pid"])


@effects.step("h01_mad_rays")
def _mad_rays(ctx, task, item):
    """Traitor's Tome, haunt 1: an insane Beholder must try to attack the
    nearest of the traitor and the Beholderkin (Ruling: when it has not, the
    bot makes that attack as its turn ends, on up to two nearest in reach)."""
    b = the_beholder(ctx)
    if b is None or b["stunned"] or not mine(ctx)["insane"] or rays_this_turn(ctx):
        return
    aims = [w for w in mad_targets(ctx) if where_is(ctx, w) in reach(ctx, b["tile"])][:2]
    if not aims:
        ctx.say("The insane Beholder finds neither the traitor nor a Beholderkin within reach.", kind="haunt")
        return
    for w in reversed(aims):
        task["steps"].insert(0, {"do": "h01_one_mad_ray", "target": w})


@effects.step("h01_one_mad_ray")
def _one_mad_ray(ctx, task, item):
    b = the_beholder(ctx)
    if b is not None and not why_not(ctx, b, item["target"]):
        fire_ray(ctx, b, item["target"])


@effects.step("h01_dream")
def _dream(ctx, task, item):
    """Traitor's Tome, haunt 1: "Beholder Dreaming"."""
    b = the_beholder(ctx)
    if b is None or ctx.c.tiles[b["tile"]].symbol != "omen" or barred(ctx, b["tile"]):
        return
    b["stunned"] = True
    mine(ctx)["asleep"] = True
    ctx.say(f"The Beholder falls asleep on the {ctx.tile_name(b['tile'])} and dreams up a Beholderkin.",
            kind="haunt")
    tiles = spawn_tiles(ctx, b["tile"])
    if len(tiles) == 1:
        spawn(ctx, tiles[0])
    else:
        effects.push_front(ctx, [{"do": "h01_bar", "tile": b["tile"]}])
        effects.ask(ctx, task["player"], "h01_spawn", "where does the new Beholderkin appear?",
                    [ctx.tile_name(t) for t in tiles], tiles=tiles)
        return
    bar(ctx, b["tile"])


def spawn_tiles(ctx, tile: str) -> list[str]:
    """A connected tile next to the Beholder with no Beholderkin; Ruling:
    with none free, any connected tile next to it, else its own tile."""
    near = sorted(reach(ctx, tile) - {tile}, key=ctx.tile_name)
    free = [t for t in near if not any(m["tile"] == t for m in kin(ctx))]
    return free or near or [tile]


def spawn(ctx, tile: str):
    m = hp.add_monster(ctx, KIN, tile)
    m["stunned"] = True
    ctx.say(f"{KIN} {m['number']} lies stunned, newly dreamt.", kind="monster", monster=m["id"])


def bar(ctx, tile: str):
    tk.place(ctx.s, QUEST, tile)
    ctx.say(f"A quest token is put on the {ctx.tile_name(tile)}: the Beholder cannot dream there again.",
            kind="token", tile=tile)


@effects.decision("h01_spawn")
def _decide_spawn(ctx, pending, index):
    spawn(ctx, pending["data"]["tiles"][index])


@effects.step("h01_bar")
def _bar(ctx, task, item):
    bar(ctx, item["tile"])


@effects.step("h01_stock_up")
def _stock_up(ctx, task, item):
    """Secrets of Survival, haunt 1: "Stock Up"."""
    deck = ctx.s["decks"]["item"]
    if len(deck) < 2:
        take_item(ctx, task["player"], 0)
        return
    effects.ask(ctx, task["player"], "h01_stock", "draw the top item card, or look at the top 3 and keep one?",
                ["Draw the top card", f"Look at the top {min(STOCK_LOOK, len(deck))} and keep one"])


@effects.decision("h01_stock")
def _decide_stock(ctx, pending, index):
    pid = pending["player"]
    if index == 0:
        take_item(ctx, pid, 0)
        return
    seen = ctx.s["decks"]["item"][:STOCK_LOOK]
    ctx.say(f"{ctx.name(pid)} looks at the top {len(seen)} item cards.", kind="haunt", player=pid)
    effects.ask(ctx, pid, "h01_keep", "which item card do you keep?", [ctx.card_name(c) for c in seen], seen=seen)


@effects.decision("h01_keep")
def _decide_keep(ctx, pending, index):
    pid, seen = pending["player"], pending["data"]["seen"]
    take_item(ctx, pid, index)
    rest = [c for i, c in enumerate(seen) if i != index]
    if len(rest) == 2:
        effects.ask(ctx, pid, "h01_bottom", "which of the others goes to the bottom first (the other lies under it)?",
                    [ctx.card_name(c) for c in rest], rest=rest)
    else:
        bottom(ctx, pid, rest)


@effects.decision("h01_bottom")
def _decide_bottom(ctx, pending, index):
    rest = pending["data"]["rest"]
    bottom(ctx, pending["player"], [rest[index]] + [c for i, c in enumerate(rest) if i != index])


def bottom(ctx, pid: str, cards: list[str]):
    deck = ctx.s["decks"]["item"]
    for c in cards:
        deck.remove(c)
        deck.append(c)
    ctx.say(f"{ctx.name(pid)} puts {len(cards)} item card{'s' if len(cards) != 1 else ''} at the bottom of the "
            "item stack.", kind="haunt", player=pid)


def take_item(ctx, pid: str, index: int):
    """The chosen card is drawn as `cards.draw` would draw it."""
    s = ctx.s
    if not s["decks"]["item"]:
        return
    card_id = s["decks"]["item"].pop(index)
    card = ctx.c.cards[card_id]
    ctx.say(f"{ctx.name(pid)} draws the item card {card.name}: {card.text}", kind="draw", player=pid, card=card_id,
            deck="item")
    cd.gain(ctx, pid, card_id)
    if card.on_draw:
        effects.push_front(ctx, card.on_draw)


@rulesets.register(1)
class BeholdersDream(rulesets.RuleSet):
    title = "Do Beholders Dream of Electric Eye Rays?"
    own = OWN

    def setup_step(self, ctx, step):
        text = step.get("text", "")
        if "quest tokens aside" in text:
            mine(ctx)
            ctx.say("Setup: the bot keeps the quest tokens (magical barriers on omen tiles) and places them as the "
                    "rules say.", kind="haunt_setup")
            ctx.say("Setup: once every omen tile has a quest token, on an omen tile instead of attacking: "
                    "{move:sleep} with Knowledge or Sanity (4+ clears them all).", kind="haunt_setup",
                    to="traitors")
            ctx.say("Setup: on the Beholder's tile, instead of attacking: {move:dream} with Knowledge or Sanity "
                    "(opposed by the Beholder's same trait).", kind="haunt_setup", to="heroes")
            return True
        if "Beholderkin" in text and step.get("do") == "manual":
            ctx.say(f"Setup: {len(ctx.s['seats'])} Beholderkin wait off the board; the bot puts one out each time "
                    "the Beholder dreams.", kind="haunt_setup")
            return True
        if step.get("do") == "manual" and ("room" in text or "stays in play" in text):
            return True  # each side reads its own rules in private, and the reveal named the traitor
        return None

    def turn_started(self, ctx, pid):
        """Traitor's Tome, haunt 1: "You Must Do This at the Start of Your Turn"."""
        if pid in hp.traitors(ctx.s):
            wake(ctx)

    def monster_turn(self, ctx, number):
        """Traitor's Tome, haunt 1: "You Must Do This at the Start of the
        Monster Turn" (Ruling: with the traitor dead it wakes here)."""
        wake(ctx)
        insane = all_barred(ctx) and the_beholder(ctx) is not None
        if insane != mine(ctx)["insane"]:
            ctx.say("The Beholder cannot sleep anywhere and goes insane!" if insane
                    else "The Beholder can dream again: its madness passes.", kind="haunt")
        mine(ctx)["insane"] = insane
        return None

    def monster_turn_ending(self, ctx):
        return [{"do": "h01_mad_rays"}, {"do": "h01_dream"}]

    def monster_blocked(self, ctx, m, dest):
        """Traitor's Tome, haunt 1: the Beholder acts first, then the
        Beholderkin."""
        s = ctx.s
        if m["name"] != BEHOLDER or not s["turn"] or not s["turn"].get("monsters"):
            return None
        number = s["turn"]["number"]
        if any(k.get("moved_turn") == number or k["id"] in s["turn"]["attacked"] for k in kin(ctx)):
            return "The Beholder acts before the Beholderkin; they have begun."
        return None

    def monster_attack_blocked(self, ctx, m, target):
        if m["name"] != BEHOLDER:
            return None
        return why_not(ctx, m, target) or self.monster_blocked(ctx, m, m["tile"])

    def monster_attack(self, ctx, m, target, trait):
        if m["name"] != BEHOLDER:
            return None
        why = self.monster_blocked(ctx, m, m["tile"])
        if why:
            raise IllegalAction(why)
        if target not in ctx.s["players"]:
            target = hp.monster(ctx, target)["id"]
        if trait:
            raise IllegalAction("The eye ray's roll picks the Beholder's trait: attack without naming one.")
        fire_ray(ctx, m, target)
        return True

    def monster_hurt(self, ctx, m, kind, amount):
        s = ctx.s
        if m["name"] in (BEHOLDER, KIN) and ctx.src != "power:protection" and protector(ctx, m):
            return None  # Aldan's Protection is offered first; declined, the damage comes back here
        if m["name"] == BEHOLDER:
            counters = s["haunt"]["counters"]
            counters[HP] = max(0, counters.get(HP, 0) - amount)
            ctx.say(f"The Beholder takes {amount} damage: {counters[HP]} hit points left.", kind="monster",
                    monster=m["id"])
            if counters[HP] == 0:
                m["dead"] = True
                ctx.say("The Beholder is dead!", kind="monster", monster=m["id"])
                hooks.fire("monster_killed", ctx, m["id"])
            return True
        if m["name"] == KIN:
            hero = s["haunt"].get("last_attacker")
            if amount >= KILL_AT and hero in hp.heroes(s) and not s["turn"].get("monsters"):
                m["dead"] = True
                ctx.say(f"{KIN} {m['number']} is destroyed; {ctx.name(hero)} draws an item card.", kind="monster",
                        monster=m["id"])
                hooks.fire("monster_killed", ctx, m["id"])
                effects.queue(ctx, hero, [{"do": "draw", "deck": "item"}], source="haunt", front=True)
                return True
            attack.stun(ctx, m)
            return True
        return None

    def attack_dice(self, ctx, pid, trait, weapon, reckless):
        """Enervation Ray: 1 die fewer on the next attack."""
        return -1 if pid in (ctx.s["haunt"].get("h01") or {}).get("enervated", []) else None

    def attack_followups(self, ctx, pid, target, reckless):
        if pid in (ctx.s["haunt"].get("h01") or {}).get("enervated", []):
            return [{"do": "h01_enervation_spent", "pid": pid}]
        return None

    def card_gaining(self, ctx, pid, card):
        """Secrets of Survival, haunt 1: "Stock Up" (a hero's item draw)."""
        s = ctx.s
        deck = s["decks"]["item"]
        if not deck or deck[0] != card or pid not in hp.heroes(s) or len(deck) < 2 or not s["haunt"].get("started"):
            return None
        effects.queue(ctx, pid, [{"do": "h01_stock_up"}], source="haunt", front=True)
        return True

    def win_check(self, ctx):
        """Secrets of Survival, haunt 1: "You Win When..." (the traitor's
        Beholderkin count is the data's `token_count` of monsters)."""
        s = ctx.s
        b_placed = BEHOLDER in s["haunt"].get("placed", [])
        if b_placed and the_beholder(ctx) is None and not kin(ctx) and hp.alive(s, hp.heroes(s)):
            return ("heroes", "The Beholder and every Beholderkin are destroyed.")
        return None

    def haunt_goals(self, ctx, pid):
        """A hero heads for the Beholder while it can still dream, then for
        the Beholder and its brood; the traitor, once every omen tile is
        barred, for an omen tile to let it sleep."""
        s = ctx.s
        b = the_beholder(ctx)
        if pid in hp.traitors(s):
            return set(omen_tiles(ctx)) if b is not None and all_barred(ctx) else None
        if b is not None and not all_barred(ctx):
            return {b["tile"]}
        return {m["tile"] for m in kin(ctx)} | ({b["tile"]} if b else set()) or None

    def monster_goals(self, ctx, m):
        """The Beholder makes for an omen tile it can still dream on."""
        if m["name"] != BEHOLDER:
            return None
        return {t for t in omen_tiles(ctx) if not barred(ctx, t)} or None

    moves = (
        rulesets.Move("dream", "Stop the Beholder's dreams", lambda ctx, pid, trait: stop_dreams(ctx, pid, trait),
                      traits=("knowledge", "sanity"), who="heroes", instead_of_attack=True,
                      summary="On the Beholder's tile, beat its same trait to put a quest token on every omen tile."),
        rulesets.Move("sleep", "Let the Beholder sleep", lambda ctx, pid, trait: let_sleep(ctx, pid, trait),
                      traits=("knowledge", "sanity"), who="traitors", instead_of_attack=True,
                      summary="With every omen tile barred, on an omen tile a 4+ takes all the quest tokens away."),
    )


def protector(ctx, m: dict) -> bool:
    """Someone beside the monster whose power may take its damage (the
    rulebook's powers answer "monster_hurt" after the haunt)."""
    def guards(p):
        power = ctx.c.adventurers[ctx.s["players"][p]["adventurer"]].power
        return any(x.get("do") == "special" and x.get("name") == "protection" for x in power.get("effects", []))
    return any(ctx.s["players"][p]["alive"] and st.beside(ctx.s, p, m) and guards(p) for p in ctx.s["seats"])


def wake(ctx):
    b = the_beholder(ctx)
    if b is not None and mine(ctx)["asleep"]:
        b["stunned"] = False
        mine(ctx)["asleep"] = False
        ctx.say("The Beholder wakes.", kind="monster", monster=b["id"])


def stop_dreams(ctx, pid: str, trait: str):
    """Secrets of Survival, haunt 1: "Stopping the Beholder's Dreams"."""
    s = ctx.s
    turn = s["turn"]
    b = the_beholder(ctx)
    if pid not in hp.heroes(s) or turn.get("monsters") or turn["player"] != pid:
        raise IllegalAction("Only a hero, in their own turn, may try to stop the Beholder's dreams.")
    if trait not in ("knowledge", "sanity"):
        raise IllegalAction("Stopping the Beholder's dreams takes a Knowledge or Sanity roll.")
    if b is None or s["players"][pid]["tile"] != b["tile"]:
        raise IllegalAction("You must be on the Beholder's tile.")
    if all_barred(ctx):
        raise IllegalAction("Every omen tile is already barred: the Beholder cannot sleep anyway.")
    if turn.get("attacked"):
        raise IllegalAction("This takes the place of your attack, and you have already attacked this turn.")
    turn["attacked"] = True
    mine_roll = effects.make_roll(ctx, pid, rng.dice_count(ctx.value(pid, trait)),
                                  f"{trait.capitalize()} against the Beholder", trait=trait, kind="trait")
    its = effects.make_roll(ctx, hp.controller(s), rng.dice_count(b["traits"][trait]),
                            f"{trait.capitalize()} for the Beholder", kind="contest")
    if mine_roll <= its:
        ctx.say(f"The Beholder's mind holds ({its} to {mine_roll}).", kind="haunt")
        return
    for t in omen_tiles(ctx):
        if not barred(ctx, t):
            tk.place(s, QUEST, t)
    ctx.say(f"{ctx.name(pid)} wins {mine_roll} to {its}: a quest token bars every omen tile. The Beholder can no "
            "longer sleep and begins to go insane.", kind="haunt")


def let_sleep(ctx, pid: str, trait: str):
    """Traitor's Tome, haunt 1: "Allowing the Beholder to Sleep"."""
    s = ctx.s
    turn = s["turn"]
    if pid not in hp.traitors(s) or turn.get("monsters") or turn["player"] != pid:
        raise IllegalAction("Only the traitor, in their own turn, may let the Beholder sleep again.")
    if trait not in ("knowledge", "sanity"):
        raise IllegalAction("Letting the Beholder sleep takes a Knowledge or Sanity roll.")
    if not all_barred(ctx):
        raise IllegalAction("An omen tile is still free of quest tokens: the Beholder can still sleep.")
    if ctx.c.tiles[s["players"][pid]["tile"]].symbol != "omen":
        raise IllegalAction("You must be on an omen tile.")
    if turn.get("attacked"):
        raise IllegalAction("This takes the place of your attack, and you have already attacked this turn.")
    turn["attacked"] = True
    total = effects.make_roll(ctx, pid, rng.dice_count(ctx.value(pid, trait)), f"{trait.capitalize()} to let the "
                              "Beholder sleep", trait=trait, kind="trait")
    if total < SLEEP_TARGET:
        ctx.say("The barriers hold.", kind="haunt")
        return
    for t in [t for t in s["tokens"] if t["name"] == QUEST]:
        tk.remove(s, t)
    ctx.say("Every quest token is taken off the board: the Beholder may dream again.", kind="haunt")
