"""Simple built-in players: they pick among the legal actions with a bias
towards exploring, so whole games play themselves (a demo and a simulation)."""
import random

from bot.games.babg.engine import board as bd
from bot.games.babg.engine import hooks, moves
from bot.games.babg.engine import sides as hp
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.errors import IllegalAction
from bot.games.babg.engine import legal
from bot.games.babg.engine.game import Engine, clone
from bot.games.babg.engine.state import known_traitor, token_numbers
from bot.games.babg.engine.legal import legal_actions
from bot.games.babg.engine.specials import combat
from bot.games.babg.engine.specials.common import distances

WEIGHTS = {"move": 4, "use": 1, "pickup": 2, "roll": 2, "drop": 0.05, "trade": 0.1, "end": 1, "ready": 1,
           "attack": 12, "monster": 4, "task": 8}
TASK_CHANCE = 0.6  # in the haunt, how often a player with a haunt action open takes one


def choose(content, state: dict, rnd: random.Random, fair: bool = False) -> dict | None:
    """A legal action for whoever must act. `fair`: as a seat of a game with
    people in it, knowing only what that seat may know (see seat_world)."""
    if fair and legal.actor(state):
        state = seat_world(state, rnd)
    # (never a take-back: a built-in player means what it does, and undoing would loop)
    options = [a for a in legal_actions(content, state) if a["type"] != "undo"]
    if not options:
        return None
    if options[0]["type"] == "decide" and state["phase"] == "haunt":
        pick = hooks.first("bot_choice", Ctx(content, state), state["pending"])
        if pick is not None and 0 <= pick < len(options):
            return options[pick]
    if options[0]["type"] == "decide" and state["phase"] == "haunt":
        if state["pending"].get("kind") == "damage_sure":
            # the split was chosen by what taking it really does (careful_choice): take it. Judged again here,
            # "choose again" would look better than any damage at all, and the same split come back forever
            return options[0]
        return careful_choice(content, state, options, rnd)
    if options[0]["type"] in ("decide", "ready"):
        return rnd.choice(options)
    if state["phase"] == "haunt":
        unmask = masked_on_goal(content, state, options)
        if unmask:
            return unmask
        tasks = [a for a in options if a["type"] == "task"]
        if tasks and (rnd.random() < TASK_CHANCE or on_goal(content, state, tasks[0]["player"])):
            return rnd.choice(tasks)  # on its side's goal tile, a player does what it came for
        hunt = pursue(content, state, options, fair)
        if hunt and rnd.random() < 0.75:
            return hunt
    weights = []
    for a in options:
        w = WEIGHTS.get(a["type"], 1)
        if a["type"] == "move" and a["way"] in ("stairs", "grate"):
            w /= 2
        weights.append(w)
    return rnd.choices(options, weights)[0]


def seat_world(state: dict, rnd: random.Random) -> dict:
    """The game as the seat that acts could picture it: the board, the hands
    and the tokens it sees, but its own guess for the dice and for the order
    of every deck and stack (a fresh generator, each pile shuffled). What it
    tries on this copy (careful_choice) shows what might happen, never what
    will; who a hidden traitor is stays out of its reasoning (see pursue)."""
    world = clone(state)
    world["rng"] = rnd.getrandbits(64)
    for piles in ("decks", "stacks"):
        for cards in world.get(piles, {}).values():
            cards.sort()  # what the seat knows of a pile is what is in it, not its order
            rnd.shuffle(cards)
    return world


def careful_choice(content, state: dict, options: list[dict], rnd: random.Random) -> dict:
    """In the haunt, an answer that leaves the one answering alive and as
    strong as it can (e.g. where damage goes: never a trait to the skull
    when another can take it), tried on a copy; ties at random. Asked
    whether to take a deadly split after all, it chooses again."""
    engine, pid = Engine(content), options[0]["player"]
    best, best_score = [], None
    for option in options:
        try:
            after, _ = engine.apply(state, option)
            if (after.get("pending") or {}).get("kind") == "damage_sure" and after["pending"]["player"] == pid:
                # the engine asks once more before a deadly split: judge the split by what it really does
                after, _ = engine.apply(after, {"type": "decide", "player": pid, "choice": 0})
        except IllegalAction:
            continue
        p = after["players"][pid]
        score = (p["alive"], sum((p.get("traits") or {}).values()))
        if best_score is None or score > best_score:
            best, best_score = [option], score
        elif score == best_score:
            best.append(option)
    return rnd.choice(best or options)


def play(engine, state: dict, rnd: random.Random, max_actions: int = 5000, check=None, fair: bool = False):
    """Play until the game ends or `max_actions`; yields (action, state, events).
    `fair`: every seat knows only what it may (see choose)."""
    for _ in range(max_actions):
        action = choose(engine.content, state, rnd, fair)
        if action is None:
            return
        state, events = engine.apply(state, action)
        if check:
            check(state)
        yield action, state, events


def pursue(content, state: dict, options: list[dict], fair: bool = False) -> dict | None:
    """In the haunt: attack when an opponent is at hand, else take the step
    that brings a player closest to what the haunt says their side wants
    (its goals), or to the nearest opponent when it names none."""
    attacks = [a for a in options if a["type"] == "attack" or a.get("op") == "attack"]
    ctx = Ctx(content, state)
    attacks = [a for a in attacks if not (a["type"] == "monster" and on_its_way(ctx, a["monster"], options))]
    if attacks and attacks[0]["type"] == "attack" and hurrying(ctx, attacks[0]["player"], options):
        attacks = [a for a in attacks if a["target"] in state["players"]]  # no stop to fight monsters on the way
    if attacks:
        return with_best_trait(ctx, attacks[0])
    heroes = set(hp.alive(state, hp.heroes(state)))
    # played fair, a hero hunts only the traitors the table knows (a hidden one looks like any hero)
    seen_traitors = [t for t in hp.alive(state, hp.traitors(state)) if not fair or known_traitor(state, t)]
    best, best_d = None, None
    goals: dict[str, set] = {}
    for a in options:
        if a["type"] == "monster" and a["op"] == "move":
            m = next(m for m in state["monsters"] if m["id"] == a["monster"])
            dest = monster_dest(ctx, m["tile"], a["way"])
            targets = set().union(*hooks.fire("monster_goals", ctx, m)) or \
                {state["players"][p]["tile"] for p in heroes}
        elif a["type"] == "move":
            pid = a["player"]
            dest = ctx_way(ctx, pid, a["way"])
            if pid not in goals:
                goals[pid] = set().union(*hooks.fire("haunt_goals", ctx, pid))
            if goals[pid] and dest is None and discovers_goal(ctx, pid, a["way"], goals[pid]):
                return a  # a goal still in its stack is found by exploring
            if goals[pid]:
                targets = goals[pid]
            elif pid in heroes:
                targets = {m["tile"] for m in state["monsters"] if not m["dead"]} | \
                          {state["players"][p]["tile"] for p in seen_traitors}
            else:
                targets = {state["players"][p]["tile"] for p in heroes}
        else:
            continue
        if not dest or not targets:
            continue
        d = min(distances(ctx, dest).get(t, 99) for t in targets)
        if best_d is None or d < best_d:
            best, best_d = a, d
    if best and best["type"] == "move" and goals.get(best["player"]):
        here = state["players"][best["player"]]["tile"]
        if here in goals[best["player"]]:  # already where the side wants them: do the haunt's task there, or end
            return next((a for a in options if a["type"] == "task"), None) or \
                next((a for a in options if a["type"] == "end"), best)
    return best


def masked_on_goal(content, state: dict, options: list[dict]) -> dict | None:
    """A hidden traitor turns token 1 face up once in its own turn it stands
    where its side wants it (its own goals: nothing public shows them)."""
    h = state["haunt"]
    pid = options[0]["player"]
    if 1 not in token_numbers((h.get("hidden_tokens") or {}).get(pid)) or h.get("unmasked") \
            or (state["turn"] or {}).get("monsters") or state["turn"]["player"] != pid \
            or not on_goal(content, state, pid):
        return None
    return {"type": "unmask", "player": pid}


def on_goal(content, state: dict, pid: str) -> bool:
    """Whether the player stands where the haunt says their side wants them."""
    p = state["players"].get(pid)
    goals = set().union(*hooks.fire("haunt_goals", Ctx(content, state), pid)) if p else set()
    return bool(p and p["tile"] in goals)


def monster_dest(ctx, tile: str, way: str) -> str | None:
    """Where a monster's move leads: a doorway, the stairs, or a sewer grate
    down to the Catacomb Landing (as haunt_play.monster_way)."""
    here = ctx.c.tiles[tile]
    if way == "stairs":
        return here.stairs_to if here.stairs_to in ctx.s["board"] else None
    if way == "grate":
        return "catacomb_landing" if here.sewer_grate and "catacomb_landing" in ctx.s["board"] else None
    return bd.exits(ctx.c, ctx.s["board"], tile).get(way)


def on_its_way(ctx, mid: str, options: list[dict]) -> bool:
    """A monster the haunt sends somewhere (monster_goals), not there yet and
    still able to move: it keeps going rather than stop to fight."""
    m = next(m for m in ctx.s["monsters"] if m["id"] == mid)
    goals = set().union(*hooks.fire("monster_goals", ctx, m))
    return bool(goals) and m["tile"] not in goals and \
        any(a.get("op") == "move" and a["monster"] == mid for a in options)


def hurrying(ctx, pid: str, options: list[dict]) -> bool:
    """A player the haunt sends somewhere else, with a move open."""
    goals = set().union(*hooks.fire("haunt_goals", ctx, pid))
    return bool(goals) and ctx.s["players"][pid]["tile"] not in goals and any(a["type"] == "move" for a in options)


def discovers_goal(ctx, pid: str, way: str, goals: set) -> bool:
    """The way discovers a tile from the stack of a goal not yet on the board."""
    stack = moves.ways_out(ctx, pid).get(way, {}).get("discover")
    return bool(stack) and any(t not in ctx.s["board"] and t in ctx.c.tiles and ctx.c.tiles[t].stack == stack
                               for t in goals)


def ctx_way(ctx, pid: str, way: str) -> str | None:
    return moves.ways_out(ctx, pid).get(way, {}).get("to")


def with_best_trait(ctx, action: dict) -> dict:
    """An adventurer's attack with the trait (Might, or one a power allows:
    Eldritch Blast, Magic Missile, Wild Magic) that beats the defender's
    value by the most."""
    if action["type"] != "attack":
        return action
    pid, target = action["player"], action["target"]
    if target in ctx.s["players"]:
        defence = {t: ctx.value(target, t) for t in ("might", "speed", "knowledge", "sanity")}
    else:
        defence = next(m for m in ctx.s["monsters"] if m["id"] == target)["traits"]
    usable = [t for t in combat.attack_traits(ctx, pid) if t in defence
              and (t == "might" or hooks.first("attack_blocked", ctx, pid, target, t, None) is None)]
    best = max(usable, key=lambda t: ctx.value(pid, t) - defence[t], default="might")
    return action if best == "might" else {**action, "trait": best}
