"""Haunt 39, The Death Curse (Traitor's Tome and Secrets of Survival).

What the bot carries out:
- Setup: the traitor's traits back up to their starting values (data), then
  1 step in a trait of their choice for each hero; the Snakes (one per
  adventurer, on tiles the traitor picks, one per tile while possible; data);
  the clues, numbered 1 to adventurers + 2, shuffled face down and put one
  per tile: omen tiles, then the catacomb tiles farthest from the Catacomb
  Landing, then the city tiles farthest from the Elfsong Tavern (the heroes'
  chooser picks only where there are more such tiles than clues left).
- Face-down clues stay secret: nobody sees their numbers; the traitor's look
  at the start of each hero's turn is told to the traitor alone, and the
  traitor may then pick up a second face-down clue with it and put the two
  back as they were or swapped (the table sees which two were lifted, never
  whether they moved).
- Sowing Confusion: the declared move `confuse`, the traitor's attack for
  the turn: a face-down clue and a decoy from the box are shuffled unseen, one
  back on that tile, the other on a tile the traitor picks.
- The death curse: 1 physical damage to every adventurer (the traitor too)
  at the end of their turn unless they hold the Book of Spells; no armour,
  power or card can stop it.
- Searching: the move `search` on a tile with a face-down clue (Knowledge
  4+, once a turn): its number is shown to all; 1 and 2 are kept (as items:
  `drop` leaves them face up, `give` hands one to an adventurer on your tile,
  a won attack for 2 or more may steal it, the dead drop theirs), the rest
  are discarded; `pickup` takes a face-up clue from your tile.
- Delivering: the move `deliver` on the Elfsong Tavern with clue 1 or 2; both delivered wins for the heroes. The traitor's death turns every clue
  face up (the 3+ are discarded). The traitor wins when every hero is dead.

Left to the players: nothing of the haunt's rules.
"""
from .. import effects, rng, rulesets
from .. import haunt_play as hp
from .. import tokens as tk
from ..errors import IllegalAction
from ..geometry import distances

CLUE, HOME, LANDING = "Clue", "elfsong_tavern", "catacomb_landing"
BOOK = "book_of_spells"
DELIVERED = "Clues delivered"
NEEDED = (1, 2)
NOTES = {1: "a letter holding half of what you need: a seed planted in Chult grows on souls, and agents in the "
            "northern cities are to stir up killing",
         2: "a letter from Ras Nsi holding the other half: Acererak's plan goes on, though its writer feels "
            "himself withering"}
WORDS = ("On a tile with a face-down clue: {move:search} (Knowledge 4+). Holding clue 1 or 2 on the Elfsong "
         "Tavern: {move:deliver}. {move:pickup} takes a face-up clue from your tile, {move:drop} puts yours down "
         "face up, {move:give} hands it to someone on your tile.")
TRAITOR_WORDS = ("In place of your attack: {move:confuse} (Sowing Confusion). At the start of each hero's turn "
                 "the bot asks you which face-down clue to look at.")
OWN = rulesets.Own("h39", {"to_place": [], "held": {}, "decoy": 0}, players=("held",))


def mine(ctx) -> dict:
    """This haunt's own record: the clues still to place, the clues each adventurer holds, the decoys used."""
    return rulesets.REGISTRY[39].record(ctx.s)


def held(ctx, pid: str) -> list[int]:
    return mine(ctx)["held"].get(pid, [])


def face_down(ctx) -> list[dict]:
    return [t for t in ctx.s["tokens"] if t["name"] == CLUE and "clue" in t]


def face_up(ctx, tile: str) -> list[dict]:
    return [t for t in tk.on_tile(ctx.s, tile) if t["name"] == CLUE and "shown" in t]


def clue_tiles(ctx) -> list[str]:
    """Secrets of Survival, haunt 39: "Right Now": where the next clue may go."""
    s = ctx.s
    taken = {t["tile"] for t in s["tokens"] if t["name"] == CLUE}
    free = [t for t in s["board"] if t not in taken]
    omens = [t for t in free if ctx.c.tiles[t].symbol == "omen"]
    if omens:
        return sorted(omens, key=ctx.tile_name)
    for level, source in (("catacomb", LANDING), ("city", HOME)):
        tiles = [t for t in free if ctx.c.tiles[t].level == level]
        if tiles:
            reach = distances(ctx, source) if source in s["board"] else {}
            far = max(reach.get(t, 0) for t in tiles)
            return sorted((t for t in tiles if reach.get(t, 0) == far), key=ctx.tile_name)
    return []


@effects.step("h39_place")
def _place(ctx, task, item):
    left = mine(ctx)["to_place"]
    while left:
        tiles = clue_tiles(ctx)
        if not tiles:
            ctx.say(f"No tile is left for {len(left)} clue(s); they stay in the box.", kind="haunt_setup")
            left.clear()
            return
        if len(tiles) > len(left):
            task["steps"].insert(0, item)
            effects.ask(ctx, task["player"], "h39_clue_tile", f"where does the next face-down clue go "
                        f"({len(left)} left)?", [ctx.tile_name(t) for t in tiles], tiles=tiles)
            return
        put_clue(ctx, tiles[0])


@effects.decision("h39_clue_tile")
def _decide_clue_tile(ctx, pending, index):
    put_clue(ctx, pending["data"]["tiles"][index])


def put_clue(ctx, tile: str):
    tk.place(ctx.s, CLUE, tile, clue=mine(ctx)["to_place"].pop(0))
    ctx.say(f"A face-down clue is put on the {ctx.tile_name(tile)}.", kind="token", tile=tile)


# --- the traitor's look and swap at the start of each hero's turn --------------------------------

@effects.step("h39_peek")
def _peek(ctx, task, item):
    tiles = sorted({t["tile"] for t in face_down(ctx)}, key=ctx.tile_name)
    if not tiles:
        return
    effects.ask(ctx, task["player"], "h39_peek", "which face-down clue do you look at?",
                [ctx.tile_name(t) for t in tiles], tiles=tiles)


@effects.decision("h39_peek")
def _decide_peek(ctx, pending, index):
    pid, tile = pending["player"], pending["data"]["tiles"][index]
    token = next(t for t in face_down(ctx) if t["tile"] == tile)
    ctx.say(f"{ctx.name(pid)} looks at the face-down clue on the {ctx.tile_name(tile)}.", kind="haunt")
    ctx.say(f"The clue on the {ctx.tile_name(tile)} is number {token['clue']}.", kind="secret", to=pid)
    others = sorted({t["tile"] for t in face_down(ctx) if t["tile"] != tile}, key=ctx.tile_name)
    if others:
        effects.ask(ctx, pid, "h39_second", "pick up a second face-down clue with it?",
                    ["No"] + [ctx.tile_name(t) for t in others], tile=tile, others=others)


@effects.decision("h39_second")
def _decide_second(ctx, pending, index):
    if index == 0:
        return
    pid, data = pending["player"], pending["data"]
    other = data["others"][index - 1]
    ctx.say(f"{ctx.name(pid)} lifts the face-down clues on the {ctx.tile_name(data['tile'])} and the "
            f"{ctx.tile_name(other)} out of sight and puts them back face down.", kind="haunt")
    effects.ask(ctx, pid, "h39_swap", "how do the two clues go back?", ["Each where it was", "Swapped"],
                tiles=[data["tile"], other])


@effects.decision("h39_swap")
def _decide_swap(ctx, pending, index):
    if index == 1:
        a, b = pending["data"]["tiles"]
        ta = next(t for t in face_down(ctx) if t["tile"] == a)
        tb = next(t for t in face_down(ctx) if t["tile"] == b)
        ta["tile"], tb["tile"] = b, a


# --- Sowing Confusion ---------------------------------------------------------------------------

@effects.step("h39_confuse")
def _confuse(ctx, task, item):
    tiles = sorted({t["tile"] for t in face_down(ctx)}, key=ctx.tile_name)
    effects.ask(ctx, task["player"], "h39_confuse_from", "which face-down clue do you pick up (unseen)?",
                [ctx.tile_name(t) for t in tiles], tiles=tiles)


@effects.decision("h39_confuse_from")
def _decide_confuse_from(ctx, pending, index):
    tile = pending["data"]["tiles"][index]
    others = sorted((t for t in ctx.s["board"] if t != tile), key=ctx.tile_name)
    effects.ask(ctx, pending["player"], "h39_confuse_to", "which other tile gets the second face-down clue?",
                [ctx.tile_name(t) for t in others], tile=tile, others=others)


@effects.decision("h39_confuse_to")
def _decide_confuse_to(ctx, pending, index):
    s = ctx.s
    pid, tile, other = pending["player"], pending["data"]["tile"], pending["data"]["others"][index]
    token = next(t for t in face_down(ctx) if t["tile"] == tile)
    mine(ctx)["decoy"] += 1
    decoy = len(s["seats"]) + 2 + mine(ctx)["decoy"]  # a quest token from the box: never clue 1 or 2
    pair = rng.shuffle(s, [token["clue"], decoy])
    token["clue"] = pair[0]
    tk.place(s, CLUE, other, clue=pair[1])
    ctx.say(f"{ctx.name(pid)} sows confusion: the clue on the {ctx.tile_name(tile)} is mixed unseen with another "
            f"from the box, one goes back there and the other face down on the {ctx.tile_name(other)}.",
            kind="haunt")


# --- the death curse ----------------------------------------------------------------------------

@effects.step("h39_curse")
def _curse(ctx, task, item):
    """Both books, haunt 39: "You Must Do This at the End of Your Turn": no
    other effect prevents it, so it skips every damage stage."""
    pid = task["player"]
    if not ctx.s["players"][pid]["alive"] or BOOK in ctx.s["players"][pid]["cards"]:
        return
    ctx.say(f"The death curse withers {ctx.name(pid)}.", kind="haunt", player=pid)
    effects.hurt(ctx, {"victim": pid, "kind": "physical", "amount": 1, "source": "haunt",
                       "done": [name for _, name, _, _ in effects.DAMAGE_STAGES]})


# --- clues in hand ------------------------------------------------------------------------------

@effects.step("h39_found")
def _found(ctx, task, item):
    pid = task["player"]
    s = ctx.s
    token = next((t for t in face_down(ctx) if t["tile"] == s["players"][pid]["tile"]), None)
    if token is None:
        return
    number = token.pop("clue")
    tk.remove(s, token)
    if number in NEEDED:
        mine(ctx)["held"].setdefault(pid, []).append(number)
        ctx.say(f"{ctx.name(pid)} turns over clue {number}: {NOTES[number]}. They keep it.", kind="haunt",
                player=pid)
    else:
        ctx.say(f"{ctx.name(pid)} turns over clue {number}: nothing that matters. It is discarded.", kind="haunt",
                player=pid)


def drop_all(ctx, pid: str):
    tile = ctx.s["players"][pid]["tile"]
    for number in held(ctx, pid):
        tk.place(ctx.s, CLUE, tile, shown=number)
        ctx.say(f"Clue {number} lies face up on the {ctx.tile_name(tile)}.", kind="token", tile=tile)
    mine(ctx)["held"][pid] = []


def hand_over(ctx, giver: str, taker: str, number: int, verb: str):
    mine(ctx)["held"][giver].remove(number)
    mine(ctx)["held"].setdefault(taker, []).append(number)
    ctx.say(f"{ctx.name(taker)} {verb} clue {number} from {ctx.name(giver)}.", kind="haunt")


@effects.step("h39_steal")
def _steal(ctx, task, item):
    if item["number"] in held(ctx, item["loser"]):
        if ctx.s["turn"] and ctx.s["turn"]["player"] == task["player"]:
            handled(ctx).append(item["number"])  # stealing is the thief's one action with that clue this turn
        hand_over(ctx, item["loser"], task["player"], item["number"], "steals")


@rulesets.register(39)
class TheDeathCurse(rulesets.RuleSet):
    title = "The Death Curse"
    secret_token_fields = ("clue",)  # the number under a face-down clue

    def setup_step(self, ctx, step):
        s = ctx.s
        text = step.get("text", "")
        if step.get("do") == "manual" and "For every hero" in text:
            traitor = hp.traitors(s)[0]
            effects.queue(ctx, traitor, [{"do": "gain", "traits": "any", "amount": 1}] * len(hp.heroes(s)),
                          source="haunt")
            ctx.say(f"Setup: {TRAITOR_WORDS}", kind="haunt_setup", to="traitors")
            return True
        if step.get("label") == CLUE:
            count = hp.count_value(ctx, step.get("count", 0)) or 0
            mine(ctx)["to_place"] = rng.shuffle(s, list(range(1, count + 1)))
            ctx.say(f"Setup: {count} clues, numbered and face down, are shuffled. {WORDS}", kind="haunt_setup",
                    to="heroes")
            effects.queue(ctx, hp.chooser(s, "heroes"), [{"do": "h39_place"}], source="haunt")
            return True
        return None

    def turn_started(self, ctx, pid):
        s = ctx.s
        traitor = next(iter(hp.alive(s, hp.traitors(s))), None)
        if traitor and pid in hp.heroes(s) and face_down(ctx):
            effects.queue(ctx, traitor, [{"do": "h39_peek"}], source="haunt")

    def turn_ending(self, ctx, pid):
        return [{"do": "h39_curse"}]

    def death(self, ctx, pid, killer):
        s = ctx.s
        drop_all(ctx, pid)
        if pid in hp.traitors(s):
            for token in face_down(ctx):  # Secrets of Survival, haunt 39: "You Win When..."
                number = token.pop("clue")
                if number in NEEDED:
                    token["shown"] = number
                else:
                    tk.remove(s, token)
            ctx.say("With the traitor dead, every clue is turned face up: " + (", ".join(
                f"clue {t['shown']} on the {ctx.tile_name(t['tile'])}" for t in s["tokens"]
                if t["name"] == CLUE and "shown" in t) or "neither clue 1 nor 2 is left on the board") + ".",
                kind="haunt")

    def steal_instead(self, ctx, attacker, loser, amount, distance):
        if distance or loser not in ctx.s["players"]:
            return None
        return [{"label": f"Steal clue {n}", "steps": [{"do": "h39_steal", "loser": loser, "number": n}]}
                for n in held(ctx, loser)]

    own = OWN
    moves = (
        rulesets.Move("search", "Search for a clue", lambda ctx, pid, trait: search(ctx, pid),
                      traits=("knowledge",), who="heroes", once_per_turn=True,
                      summary="On a tile with a face-down clue: Knowledge 4+ turns it over; 1 and 2 are kept."),
        rulesets.Move("deliver", "Deliver your clues", lambda ctx, pid, trait: deliver(ctx, pid), who="heroes",
                      summary="On the Elfsong Tavern: hand over clue 1 or 2 that you hold."),
        rulesets.Move("pickup", "Pick up a clue", lambda ctx, pid, trait: pickup(ctx, pid),
                      summary="Take a face-up clue from your tile (each clue once a turn, as any item)."),
        rulesets.Move("drop", "Drop your clues", lambda ctx, pid, trait: drop(ctx, pid),
                      allowed=lambda ctx, pid: None if free_held(ctx, pid) else "You hold no clue to drop now.",
                      summary="Put the clues you hold down face up on your tile."),
        rulesets.Move("give", "Give a clue", lambda ctx, pid, trait, target: give(ctx, pid, target),
                      args=(rulesets.Arg("player", lambda ctx, pid: takers(ctx, pid), "Who takes the clue?"),),
                      allowed=lambda ctx, pid: None if free_held(ctx, pid) else "You hold no clue to give now.",
                      summary="Hand a clue you hold to an adventurer on your tile."),
        rulesets.Move("confuse", "Sow confusion", lambda ctx, pid, trait: confuse(ctx, pid), who="traitors",
                      instead_of_attack=True,
                      summary="In place of your attack: a face-down clue and a decoy are mixed unseen, one left "
                              "there, the other on a tile you pick."),
    )

    def haunt_goals(self, ctx, pid):
        s = ctx.s
        if pid in hp.traitors(s):
            return {s["players"][p]["tile"] for p in hp.alive(s, hp.heroes(s)) if held(ctx, p)} or None
        if any(n in NEEDED for n in held(ctx, pid)):
            return {HOME}
        return {t["tile"] for t in s["tokens"] if t["name"] == CLUE and ("clue" in t or t.get("shown") in NEEDED)}


def search(ctx, pid: str):
    """Secrets of Survival, haunt 39: "How to Search for Clues"."""
    tile = ctx.s["players"][pid]["tile"]
    if not any(t["tile"] == tile for t in face_down(ctx)):
        raise IllegalAction("There is no face-down clue on your tile.")
    effects.queue(ctx, pid, [{"do": "roll", "trait": "knowledge", "bands": [
        {"at_least": 4, "then": [{"do": "h39_found"}]}, {"at_most": 3, "then": []}]}], source="haunt", front=True)


def deliver(ctx, pid: str):
    """Secrets of Survival, haunt 39: "Delivering a Clue"."""
    s = ctx.s
    if s["players"][pid]["tile"] != HOME:
        raise IllegalAction("Clues are delivered at the Elfsong Tavern.")
    ready = [n for n in held(ctx, pid) if n in NEEDED]
    if not ready:
        raise IllegalAction("You hold neither clue 1 nor clue 2.")
    for number in ready:
        mine(ctx)["held"][pid].remove(number)
        s["haunt"]["counters"][DELIVERED] = s["haunt"]["counters"].get(DELIVERED, 0) + 1
        ctx.say(f"{ctx.name(pid)} hands clue {number} to the Harpers' contact.", kind="haunt", player=pid)


def handled(ctx) -> list[int]:
    """Rulebook, Use Item and Omen Cards: one action with each item a turn.
    The clue numbers the turn's player has dropped, picked up, given or
    stolen this turn."""
    return ctx.s["turn"].setdefault("h39_handled", [])


def free_held(ctx, pid: str) -> list[int]:
    return [n for n in held(ctx, pid) if n not in (ctx.s["turn"] or {}).get("h39_handled", [])]


def free_lying(ctx, pid: str) -> list[dict]:
    done = (ctx.s["turn"] or {}).get("h39_handled", [])
    return [t for t in face_up(ctx, ctx.s["players"][pid]["tile"]) if t["shown"] not in done]


def pickup(ctx, pid: str):
    s = ctx.s
    found = free_lying(ctx, pid)
    if not found:
        raise IllegalAction("There is no face-up clue on your tile that you have not handled this turn.")
    tk.remove(s, found[0])
    mine(ctx)["held"].setdefault(pid, []).append(found[0]["shown"])
    handled(ctx).append(found[0]["shown"])
    ctx.say(f"{ctx.name(pid)} picks up clue {found[0]['shown']}.", kind="haunt", player=pid)


def drop(ctx, pid: str):
    """Drop every clue held that has not been handled this turn, face up."""
    numbers = free_held(ctx, pid)
    if not numbers:
        raise IllegalAction("You hold no clue that you have not handled this turn.")
    tile = ctx.s["players"][pid]["tile"]
    for number in numbers:
        mine(ctx)["held"][pid].remove(number)
        tk.place(ctx.s, CLUE, tile, shown=number)
        handled(ctx).append(number)
        ctx.say(f"Clue {number} lies face up on the {ctx.tile_name(tile)}.", kind="token", tile=tile)


def takers(ctx, pid: str) -> list[str]:
    """The other living adventurers on your tile, in seat order."""
    s = ctx.s
    tile = s["players"][pid]["tile"]
    return [p for p in hp.alive(s, s["seats"]) if p != pid and s["players"][p]["tile"] == tile]


def give(ctx, pid: str, other: str):
    numbers = free_held(ctx, pid)
    if not numbers or other not in takers(ctx, pid):
        raise IllegalAction("You need a clue not yet handled this turn and someone on your tile to hand it to.")
    handled(ctx).append(numbers[0])
    hand_over(ctx, pid, other, numbers[0], "is handed")


def confuse(ctx, pid: str):
    """Traitor's Tome, haunt 39: "Sowing Confusion" (in place of the attack)."""
    if not face_down(ctx):
        raise IllegalAction("There is no face-down clue left to pick up.")
    ctx.s["turn"]["attacked"] = True
    effects.queue(ctx, pid, [{"do": "h39_confuse"}], source="haunt", front=True)
