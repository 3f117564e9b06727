"""The turn: hero phase, exploration phase, villain phase, then the player to the left.

At the start of a hero phase a hero at 0 hit points must spend a healing surge and regains their
surge value; with none left the heroes lose. A hero who has escaped the dungeon skips the hero and
exploration phases and draws no encounter, but their villain phase still runs. The villain phase
draws an encounter card when no tile was laid in the exploration phase or the new tile has a black
triangle (a tile laid by a card's own rule never calls for one), then activates the villains, then
the player's monster and trap cards in order. It runs by itself up to a question it must ask."""

from . import data, encounter_rules, encounters, explore, geometry, heroes, pending, powers, treasure, villain
from .rulesets import active
from .state import Ctx, hero_pids


def _drop_questions(ctx: Ctx):
    """The questions left unanswered at the end: a card drawn and waiting on its cancel question goes
    to its discard pile (every card stays in one place)."""
    for q in ([ctx.s["pending"]] if ctx.s.get("pending") else []) + list(ctx.s.get("questions") or []):
        if q["kind"] == "cancel":
            ctx.s["decks"]["encounter"]["discard"].append(q["card"])


def lose(ctx: Ctx, condition: str, text: str):
    if ctx.s["outcome"] is None:
        _drop_questions(ctx)
        ctx.s["outcome"] = {"result": "defeat", "condition": condition, "text": text}
        ctx.s["phase"] = "over"
        ctx.s["pending"] = None
        ctx.s["questions"] = []
        ctx.say("over", text)


def win(ctx: Ctx, condition: str, text: str):
    if ctx.s["outcome"] is None:
        _drop_questions(ctx)
        ctx.s["outcome"] = {"result": "victory", "condition": condition, "text": text}
        ctx.s["phase"] = "over"
        ctx.s["pending"] = None
        ctx.s["questions"] = []
        ctx.say("over", text)


def check_end(ctx: Ctx):
    """The adventure's own victory and defeat, asked after every action and every turn."""
    if over(ctx) or ctx.s["phase"] != "play":
        return
    got = active(ctx.s).check(ctx)
    if got:
        result, cond, text = got
        (win if result == "victory" else lose)(ctx, cond, text)


def over(ctx: Ctx) -> bool:
    return ctx.s["outcome"] is not None


def begin_turn(ctx: Ctx, pid: str):
    s = ctx.s
    s["log_turn"]["turns"] += 1
    s["turn"] = {"player": pid, "phase": "hero", "number": s["log_turn"]["turns"], "actions": [],
                 "attacked": False, "treasure": False, "placed": None, "placed_at": None, "step": None,
                 "frenzy": False, "free_moves": 0}
    p = s["players"][pid]
    ctx.say("turn", f"{heroes.name(ctx, pid)}'s turn begins.", to="all", player=pid)
    if p.get("escaped"):
        start_villain_phase(ctx, pid)
        return
    if p.get("away"):
        encounter_rules.come_back(ctx, pid)  # King Tomescu's Portal: back at the start of the hero phase
    active(s).turn_started(ctx, pid)
    if over(ctx):
        return
    if p["hp"] <= 0:
        if s["surges"] <= 0:
            lose(ctx, "no_surge", f"{heroes.name(ctx, pid)} starts the turn at 0 HP with no healing surge left: "
                                  f"the heroes lose the adventure.")
            return
        s["surges"] -= 1
        value = heroes.stats(ctx, pid)["surge"]
        ctx.say("surge", f"{heroes.name(ctx, pid)} spends a healing surge ({s['surges']} left) and gets up.",
                hero=pid)
        heroes.heal(ctx, pid, value, "a healing surge")


def end_hero_phase(ctx: Ctx, pid: str, explore_dir=None):
    s = ctx.s
    t = s["turn"]
    aid_done = False
    if not t["attacked"] and heroes.has_ability(ctx, pid, "aid") and heroes.standing(ctx, pid):
        mine = heroes.tile(ctx, pid)
        hurt = [q for q in hero_pids(s) if q != pid and heroes.on_map(ctx, q) and heroes.tile(ctx, q) == mine
                and s["players"][q]["hp"] < s["players"][q]["max_hp"]]
        if hurt:
            heroes.heal(ctx, hurt[0], 1, f"{heroes.name(ctx, pid)}'s aid")
            aid_done = True
    heroes.clear_conditions(ctx, pid)
    heroes.expire_bonuses(ctx, pid)
    powers.hero_phase_ended(ctx, pid)  # Freezing Cloud
    escape = active(s).escape_squares(ctx)
    p = s["players"][pid]
    if p.get("square") in escape and p["hp"] > 0:
        p["escaped"] = True
        ctx.say("escape", f"{heroes.name(ctx, pid)} climbs out of the dungeon.", hero=pid)
    active(s).hero_phase_ended(ctx, pid)
    if over(ctx):
        return aid_done
    t["phase"] = "exploration"
    if not p.get("escaped") and heroes.on_map(ctx, pid):
        exploration(ctx, pid, explore_dir)
    if over(ctx) or pending.waiting(s):
        t["step"] = "start_villain"
        return aid_done
    start_villain_phase(ctx, pid)
    return aid_done


def explore_options(ctx: Ctx, pid: str) -> list:
    """The edges the hero may explore now: those along their square; a scout may pick any of their
    tile's unexplored edges (and may also not explore)."""
    p = ctx.s["players"][pid]
    if not p.get("square") or not ctx.s["tiles"]["stack"]:
        return []
    along = geometry.edges_at_square(ctx.s, p["square"])
    if heroes.has_ability(ctx, pid, "scout"):
        return geometry.unexplored_edges(ctx.s, geometry.tile_at_square(p["square"]))
    return along


def exploration(ctx: Ctx, pid: str, explore_dir=None):
    p = ctx.s["players"][pid]
    opts = explore_options(ctx, pid)
    along = geometry.edges_at_square(ctx.s, p["square"])
    if explore_dir == "none" and not along:
        return
    if explore_dir in opts:
        d = explore_dir
    elif along:
        d = along[0]
    else:
        return
    explore.explore(ctx, pid, geometry.tile_at_square(p["square"]), d)


def start_villain_phase(ctx: Ctx, pid: str):
    s = ctx.s
    t = s["turn"]
    t["phase"] = "villain"
    rs = active(s)
    draws = 0
    if rs.draws_encounters(ctx, pid):
        placed = t.get("placed")
        if placed is None or data.tile(ctx.content, placed)["black"]:
            draws = 1
        draws += rs.extra_encounters(ctx, pid)
    t["enc_left"] = draws
    t["step"] = "encounter"
    t["vi"] = 0
    t["ci"] = 0
    rs.villain_phase_started(ctx, pid)
    run_villain_phase(ctx)


def run_villain_phase(ctx: Ctx):
    """Carry the villain phase on from where it stands, up to a question or the next turn."""
    s = ctx.s
    while not over(ctx) and not pending.waiting(s):
        t = s["turn"]
        pid = t["player"]
        if t["step"] == "start_villain":
            start_villain_phase(ctx, pid)
            return
        if t["step"] == "encounter":
            if t["enc_left"] > 0 and heroes.on_map(ctx, pid):
                t["enc_left"] -= 1
                encounters.draw_and_play(ctx, pid)
                continue
            t["step"] = "villains"
        if t["step"] == "villains":
            vs = villain.villains_in_play(ctx)
            if not heroes.standing_heroes(ctx):
                ctx.say("villain", "Every hero is down: the monsters wait and the villain phase ends.")
                t["step"] = "done"
                continue
            if t["vi"] < len(vs):
                fid = vs[t["vi"]]
                t["vi"] += 1
                start = len(ctx.events)
                villain.activate_villain(ctx, fid)
                _activated(ctx, start, fid)
                continue
            t["step"] = "cards"
        if t["step"] == "cards":
            cards = s["players"][pid]["cards"]
            if t["ci"] < len(cards) and heroes.standing_heroes(ctx):
                entry = cards[t["ci"]]
                t["ci"] += 1
                start = len(ctx.events)
                villain.activate_card(ctx, pid, entry)
                _activated(ctx, start, entry["card"])
                continue
            t["step"] = "done"
        if t["step"] == "done":
            finish_turn(ctx, pid)
            return
        if t["step"] == "hero":
            return


def _activated(ctx: Ctx, start: int, source: str):
    """Marks the events a villain (its figure) or a monster or trap card (the card) brought about in the
    villain phase with it, so an adapter can tell each activation apart (Discord gives each one line)."""
    for ev in ctx.events[start:]:
        ev.setdefault("activation", source)


def finish_turn(ctx: Ctx, pid: str):
    s = ctx.s
    if heroes.environment_is(ctx, "Deadly Shadows") and heroes.standing(ctx, pid):
        mine = heroes.tile(ctx, pid)
        if any(q != pid and heroes.on_map(ctx, q) and heroes.tile(ctx, q) == mine for q in hero_pids(s)):
            heroes.hurt(ctx, pid, 1, "Deadly Shadows")
    treasure.end_of_turn(ctx, pid)
    check_end(ctx)
    if over(ctx):
        return
    if all(s["players"][q].get("escaped") for q in hero_pids(s)):
        lose(ctx, "left_the_dungeon", "Every hero has left the dungeon: the adventure ends unfinished.")
        return
    seats = hero_pids(s)
    nxt = seats[(seats.index(pid) + 1) % len(seats)]
    if nxt == s.get("first", seats[0]):
        s["log_turn"]["round"] += 1
    begin_turn(ctx, nxt)
