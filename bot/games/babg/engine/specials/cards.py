"""The card text the step vocabulary cannot say: one small handler per
`special` named in rules_data/cards/*.toml (registered by that name), the
checks for when an item can be used, the reactions offered after a roll
(Gambler's Dice) and the cards that change damage before it is taken."""
from .. import board as bd
from .. import cards as cd
from .. import death
from .. import effects, moves, rng
from .. import marks as mk
from .. import state as st
from .. import tokens as tk
from .. import traits as tr
from ..content import TRAITS
from ..errors import IllegalAction
from . import combat
from .common import adjust_next_roll, ask_tile, card_state, distances, right_of, tile_choices

special = effects.special


def _starts(ctx, pid: str) -> dict:
    adv = ctx.c.adventurers[ctx.s["players"][pid]["adventurer"]]
    return {t: adv.tracks[t].start for t in TRAITS}


def _below_start(ctx, pid: str, traits=TRAITS) -> list[str]:
    pos, start = ctx.s["players"][pid]["traits"], _starts(ctx, pid)
    return [t for t in traits if pos[t] < start[t]]


def _only_settle_left(task):
    task["steps"] = [s for s in task["steps"] if s.get("do") == "_settle_event"]


# --- events ------------------------------------------------------------------

@special("a_hags_blessing")
def _hags_blessing(ctx, task, item):
    """0: the next roll you make (not a haunt roll) counts as 0; the card
    stays in front of you as the reminder until then."""
    mk.add(ctx, task["player"], "cursed", card="a_hags_blessing")
    ctx.say(f"{ctx.name(task['player'])} is cursed: their next roll will count as 0.", kind="mark",
            player=task["player"])


@special("arcane_gate")
def _arcane_gate(ctx, task, item):
    """The second token goes on any other tile in play; the two tiles are
    then one space apart. Ruling: the game has one pair of tokens, so a
    later Arcane Gate moves the pair."""
    s = ctx.s
    pid = task["player"]
    here = s["players"][pid]["tile"]
    new = next((t for t in reversed(s["tokens"]) if t["name"] == "Arcane Gate" and not t.get("link")
                and t["tile"] == here), None)
    if new is None:
        return
    for old in [t for t in s["tokens"] if t["name"] == "Arcane Gate" and t is not new]:
        tk.remove(s, old)
    choices = tile_choices(ctx, [t for t in s["board"] if t != here])
    picked = ask_tile(ctx, pid, "where does the other Arcane Gate token go?", choices, "arcane_gate")
    if picked:
        _link_gate(ctx, picked[0], picked[1])


@effects.decision("arcane_gate")
def _decide_arcane_gate(ctx, pending, index):
    tid, half = pending["data"]["tiles"][index]
    _link_gate(ctx, tid, half)


def _link_gate(ctx, tid: str, half):
    s = ctx.s
    first = next(t for t in reversed(s["tokens"]) if t["name"] == "Arcane Gate" and not t.get("link"))
    first["link"] = tid
    tk.place(s, "Arcane Gate", tid, link=first["tile"], half=half)
    ctx.say(f"The other Arcane Gate token goes on the {ctx.tile_name(tid)}: the {ctx.tile_name(first['tile'])} "
            "and it are now one space apart.", kind="token", tile=tid)


@special("bhaals_call")
def _bhaals_call(ctx, task, item):
    """0-1: the player on your right rolls 3 dice against your current Sanity
    (no defence roll); you take the difference as mental damage."""
    pid = task["player"]
    combat.card_attack(ctx, pid, right_of(ctx, pid), 3, "sanity", task["source"], defend=False)


@special("crawling_claw")
def _crawling_claw(ctx, task, item):
    """End of your turn: on one of the tiles the card names it lets go (the
    card is discarded), anywhere else you take 1 physical damage."""
    pid = task["player"]
    tile = ctx.s["players"][pid]["tile"]
    if tile in item.get("safe_tiles", []) and st.on_board(ctx.s["players"][pid]):
        ctx.say(f"On the {ctx.tile_name(tile)} the Crawling Claw is pried loose.", kind="discard",
                card="crawling_claw")
        cd.discard(ctx, "crawling_claw", quiet=True)
        return
    ctx.say("The Crawling Claw squeezes.", kind="info")
    effects.take_damage(ctx, pid, "physical", 1, source="crawling_claw")


@special("familiar_echoes")
def _familiar_echoes(ctx, task, item):
    """First move to the tile of the nearest adventurer who is not your
    opponent; if everyone else is an opponent the card does nothing."""
    pid = task["player"]
    s = ctx.s
    others = [o for o in s["seats"] if o != pid and st.on_board(s["players"][o])]
    friends = [o for o in others if o not in effects.opponents_of(ctx, pid)]
    if not friends:
        ctx.say("Every other adventurer is an opponent, so Familiar Echoes does nothing.", kind="info")
        _only_settle_left(task)
        return
    here = s["players"][pid]["tile"]
    dist = distances(ctx, here)
    reach = {s["players"][o]["tile"]: dist[s["players"][o]["tile"]] for o in friends
             if s["players"][o]["tile"] in dist}
    if not reach or here in reach:
        return
    nearest = min(reach.values())
    tiles = sorted((t for t, d in reach.items() if d == nearest), key=list(s["board"]).index)
    choices = tile_choices(ctx, tiles)  # on a barrier tile you pick the side (rulebook: Special Tiles)
    picked = ask_tile(ctx, pid, "which nearest friend do you go to?", choices, "familiar_echoes")
    if picked:
        moves.place_on(ctx, pid, picked[0], picked[1], verb="follows the voice to")


@effects.decision("familiar_echoes")
def _decide_familiar_echoes(ctx, pending, index):
    tid, half = pending["data"]["tiles"][index]
    moves.place_on(ctx, pending["player"], tid, half, verb="follows the voice to")


@special("flash_flood")
def _flash_flood(ctx, task, item):
    """0-2: the water sweeps you to the Flooded Chamber, placing it first if
    it is not in play (at the open catacomb doorway farthest from the Kitchen
    Basement), onto its half farthest from the Kitchen Basement."""
    pid = task["player"]
    if "flooded_chamber" not in ctx.s["board"]:
        spots = _flood_spots(ctx)
        if not spots:
            ctx.say("There is nowhere for the Flooded Chamber to go; the water drains away.", kind="info")
            return
        if len(spots) > 1:
            effects.ask(ctx, pid, "flash_flood", "where does the Flooded Chamber join the catacombs?",
                        [label for *_, label in spots], spots=[list(sp[:4]) for sp in spots])
            return
        _place_chamber(ctx, *spots[0][:4])
    _sweep(ctx, pid)


@effects.decision("flash_flood")
def _decide_flash_flood(ctx, pending, index):
    tid, side, rot, square = pending["data"]["spots"][index]
    _place_chamber(ctx, tid, side, rot, square)
    _sweep(ctx, pending["player"])


def _flood_spots(ctx) -> list[tuple]:
    """(next to tile, its side, rotation, square, label) of the open catacomb
    doorways farthest (fewest spaces, most) from the Kitchen Basement.
    Ruling: ties are the swept player's choice."""
    s = ctx.s
    dist = distances(ctx, "kitchen_basement")
    found = []
    for tid, side in bd.open_doorways(ctx.c, s["board"], "catacomb"):
        square = bd.neighbour_square(s["board"][tid], side)
        options = moves.placements(ctx, "flooded_chamber", square, bd.OPPOSITE[side])
        fine = [o for o in options if not o[2]] or options
        if not fine or tid not in dist:
            continue
        rot = max(fine, key=lambda o: o[1])[0]
        found.append((tid, side, rot, list(square), f"beside the {ctx.tile_name(tid)} ({side} doorway)",
                      dist[tid]))
    if not found:
        return []
    far = max(f[5] for f in found)
    return [f[:5] for f in found if f[5] == far]


def _place_chamber(ctx, tid, side, rot, square):
    s = ctx.s
    for where in (s["stacks"], s["set_aside"]):
        for stack in where.values():
            if "flooded_chamber" in stack:
                stack.remove("flooded_chamber")
    level, x, y = square
    s["board"]["flooded_chamber"] = {"level": level, "x": x, "y": y, "rot": rot}
    ctx.say(f"The Flooded Chamber is taken from the catacomb stack and joined to the {ctx.tile_name(tid)}.",
            kind="discover", tile="flooded_chamber")


def _sweep(ctx, pid):
    moves.place_on(ctx, pid, "flooded_chamber", _far_half(ctx), verb="is swept into")


def _far_half(ctx) -> str:
    """The half of the Flooded Chamber farther from the Kitchen Basement:
    by the spaces to the doorways on each half; a half with no way in is the
    farther. Ruling: equal distances give the north half."""
    s = ctx.s
    tile = ctx.c.tiles["flooded_chamber"]
    rot = s["board"]["flooded_chamber"]["rot"]
    dist = distances(ctx, "kitchen_basement")
    near = {"north": 99, "south": 99}
    for side, other in bd.exits(ctx.c, s["board"], "flooded_chamber").items():
        if other and other in dist:
            half = moves.barrier_half(tile, side, rot)
            near[half] = min(near[half], dist[other] + 1)
    return "south" if near["south"] > near["north"] else "north"


@special("forgotten_relic")
def _forgotten_relic(ctx, task, item):
    """5+: one trait below its starting value goes back to it; 4: gain 1 in
    a trait below its starting value."""
    pid = task["player"]
    below = _below_start(ctx, pid)
    if not below:
        ctx.say(f"None of {ctx.name(pid)}'s traits is below its starting value.", kind="info")
        return
    restore = item.get("part") == "restore_trait"
    if len(below) == 1:
        _relic(ctx, pid, below[0], restore)
        return
    verb = "restore to its starting value" if restore else "raise by 1"
    effects.ask(ctx, pid, "forgotten_relic", f"which trait to {verb}?", [t.capitalize() for t in below],
                traits=below, restore=restore)


@effects.decision("forgotten_relic")
def _decide_relic(ctx, pending, index):
    _relic(ctx, pending["player"], pending["data"]["traits"][index], pending["data"]["restore"])


def _relic(ctx, pid, trait, restore):
    pos = ctx.s["players"][pid]["traits"][trait]
    tr.change(ctx, pid, trait, _starts(ctx, pid)[trait] - pos if restore else 1)


@special("illusory_wall")
def _illusory_wall(ctx, task, item):
    """The Illusion token goes against a wall of your tile or of a connected
    tile next to it; it then works as a connected doorway. A wall with
    nothing beyond draws a tile of that level, which you move onto and
    resolve as if discovered."""
    pid = task["player"]
    walls = _illusion_walls(ctx, pid)
    if not walls:
        ctx.say("No wall here can take the Illusion token.", kind="info")
        return
    if len(walls) == 1:
        _make_illusion(ctx, pid, *walls[0][:3])
        return
    effects.ask(ctx, pid, "illusory_wall", "which wall is an illusion?", [w[3] for w in walls],
                walls=[list(w[:3]) for w in walls])


@effects.decision("illusory_wall")
def _decide_illusory_wall(ctx, pending, index):
    _make_illusion(ctx, pending["player"], *pending["data"]["walls"][index])


def _illusion_walls(ctx, pid) -> list[tuple]:
    """(tile, board side, stack or None, label) for each wall that can take
    the token: beyond it a placed tile, or an empty square a stack can fill.
    Ruling: a city wall draws from the stack of its own tile's kind (the
    other city stack when that one is empty)."""
    s = ctx.s
    here = s["players"][pid]["tile"]
    squares = bd.grid(s["board"])
    near = [here] + [t for t in bd.exits(ctx.c, s["board"], here).values() if t and t != here]
    used = {(t["tile"], t["side"]) for t in s["tokens"] if t.get("side")}
    found = []
    for tid in dict.fromkeys(near):
        doors = bd.placed_doorways(ctx.c, s["board"], tid)
        for side in bd.SIDES:
            if side in doors or (tid, side) in used:
                continue
            square = bd.neighbour_square(s["board"][tid], side)
            other = squares.get(square)
            if other and (other, bd.OPPOSITE[side]) in used:
                continue
            stack = None
            if other is None:
                tile = ctx.c.tiles[tid]
                stack = moves.stack_for(ctx, "catacomb" if tile.level == "catacomb" else tile.kind)
                if stack is None:
                    continue
            beyond = f"the {ctx.tile_name(other)}" if other else "the unknown"
            found.append((tid, side, stack, f"the {ctx.tile_name(tid)}'s {side} wall, into {beyond}"))
    return found


def _make_illusion(ctx, pid, tid, side, stack):
    tk.place(ctx.s, "Illusion", tid, side=side)
    ctx.say(f"The {side} wall of the {ctx.tile_name(tid)} is only an illusion.", kind="token", tile=tid)
    if stack:
        square = bd.neighbour_square(ctx.s["board"][tid], side)
        moves.discover_at(ctx, pid, stack, square, bd.OPPOSITE[side])


@special("infernal_pact")
def _infernal_pact(ctx, task, item):
    """1-3: the rolled trait falls to its lowest value above the skull; for
    each step it fell, raise one of your other traits 1 step."""
    pid = task["player"]
    trait = item["part"]
    fell = ctx.s["players"][pid]["traits"][trait] - 1
    tr.change(ctx, pid, trait, -fell)
    others = [t for t in TRAITS if t != trait]
    effects.push_front(ctx, [{"do": "gain", "traits": others, "amount": 1}] * fell)


@special("pit_trap")
def _pit_trap(ctx, task, item):
    """Take 1 physical damage unless you are a halfling."""
    pid = task["player"]
    if ctx.c.adventurers[ctx.s["players"][pid]["adventurer"]].race.lower() == "halfling":
        ctx.say(f"{ctx.name(pid)} is a halfling and lands lightly.", kind="info")
        return
    effects.take_damage(ctx, pid, "physical", 1, source=task["source"])


@special("rogue_air_elemental")
def _rogue_air_elemental(ctx, task, item):
    """0-1: on your next turn you can move only 1 space."""
    pid = task["player"]
    if not any(m["kind"] == "move_cap" and not m["armed"] for m in mk.all_of(ctx, pid)):
        mk.add(ctx, pid, "move_cap", cap=1, armed=False)  # a cap already armed holds only this turn
    ctx.say(f"{ctx.name(pid)} is battered: on their next turn they can move only 1 space.", kind="mark")


@special("sound_of_looming_doom")
def _sound_of_looming_doom(ctx, task, item):
    """Everyone rolls Speed; the highest gains 1 Speed, the lowest is attacked
    (Speed 3, by the player on their right, defending with Speed); ties roll
    again among themselves. Ruling: after 10 tied rounds the tied player
    first in turn order from the drawer is taken."""
    pid = task["player"]
    everyone = effects.who_is(ctx, pid, "everywhere")
    rolls = {o: effects.make_roll(ctx, o, rng.dice_count(ctx.value(o, "speed")), "Speed", trait="speed",
                                  kind="contest") for o in everyone}
    top = _break_tie(ctx, [o for o in everyone if rolls[o] == max(rolls.values())], max, "highest")
    ctx.say(f"{ctx.name(top)} rolled highest.", kind="info")
    tr.change(ctx, top, "speed", 1)
    if len(everyone) < 2:
        return
    lowest = [o for o in everyone if rolls[o] == min(rolls.values()) and o != top]  # never both (all tied)
    low = _break_tie(ctx, lowest or [o for o in everyone if o != top], min, "lowest")
    ctx.say(f"{ctx.name(low)} rolled lowest and is attacked.", kind="info")
    combat.card_attack(ctx, low, right_of(ctx, low), 3, "speed", task["source"])


def _break_tie(ctx, tied, pick, word):
    for _ in range(10):
        if len(tied) == 1:
            return tied[0]
        ctx.say(f"{', '.join(ctx.name(o) for o in tied)} tie for {word} and roll again.", kind="info")
        again = {o: effects.make_roll(ctx, o, rng.dice_count(ctx.value(o, "speed")), "Speed", trait="speed",
                                      kind="contest") for o in tied}
        best = pick(again.values())
        tied = [o for o in tied if again[o] == best]
    return tied[0]


@special("test_of_the_dead_three")
def _test_of_the_dead_three(ctx, task, item):
    """If all three rolls came to 2 or more, gain 1 in one of those traits."""
    results = task.get("results", [])[-3:]
    if len(results) == 3 and all(r >= 2 for r in results):
        ctx.say("The Dead Three find you worthy.", kind="info")
        effects.push_front(ctx, [{"do": "gain", "traits": ["might", "speed", "knowledge"], "amount": 1}])


@special("the_green_devil_face")
def _green_devil_face(ctx, task, item):
    """0: before the haunt it counts as 1-2 (the steps that follow); once the
    haunt has begun the adventurer dies."""
    if ctx.s["phase"] != "haunt":
        ctx.say("Before the haunt a 0 counts as a 1-2 result.", kind="info")
        return
    _only_settle_left(task)
    death.die(ctx, task["player"], "the Green Devil Face swallows them")


@special("the_storm")
def _the_storm(ctx, task, item):
    """An adventurer on a street goes to the nearest building tile their
    Speed reaches, then rolls 1 die per space moved (8 if no building was in
    reach). Ruling: the storm puts you there: tiles on the way do nothing,
    and entering the building counts."""
    pid = task["player"]
    here = ctx.s["players"][pid]["tile"]
    speed = ctx.value(pid, "speed")
    dist = distances(ctx, here)
    reach = {t: d for t, d in dist.items() if ctx.c.tiles[t].kind == "building" and 0 < d <= speed}
    if not reach:
        ctx.say(f"No building is within {ctx.name(pid)}'s reach: 8 dice.", kind="info")
        adjust_next_roll(task, dice=8)
        return
    nearest = min(reach.values())
    adjust_next_roll(task, dice=rng.dice_count(nearest))
    tiles = sorted((t for t, d in reach.items() if d == nearest), key=list(ctx.s["board"]).index)
    picked = ask_tile(ctx, pid, "which building do you shelter in?", tile_choices(ctx, tiles), "the_storm")
    if picked:
        moves.place_on(ctx, pid, picked[0], picked[1], verb=f"runs {nearest} spaces through the storm to")


@effects.decision("the_storm")
def _decide_the_storm(ctx, pending, index):
    tid, half = pending["data"]["tiles"][index]
    moves.place_on(ctx, pending["player"], tid, half, verb="runs through the storm to")


@special("trapper")
def _trapper(ctx, task, item):
    """0 on drawing it, or 0 again at the start of your next turn: you keep
    the card and your turn ends (Ruling: a 0 again ends that turn too). At the
    start of your turn you roll Might with 1 extra die per other adventurer
    on your tile."""
    pid = task["player"]
    if item.get("part") == "helpers":
        here = ctx.s["players"][pid]["tile"]
        helpers = len([o for o in st.players_on(ctx.s, here, beside=pid) if o != pid])
        if helpers:
            ctx.say(f"{helpers} adventurer{'s' if helpers > 1 else ''} help{'' if helpers > 1 else 's'} pull "
                    f"{ctx.name(pid)} free.", kind="info")
        adjust_next_roll(task, extra_dice=helpers)
        return
    ctx.say(f"The trapper holds {ctx.name(pid)} fast.", kind="info")
    task["steps"].append({"do": "_end_turn"})


@special("wererat_bite")
def _wererat_bite(ctx, task, item):
    """You carry the wererat's curse and can pass it on with attacks (see
    combat.wererat_infect); nobody is infected twice in a game."""
    pid = task["player"]
    mk.add(ctx, pid, "wererat")
    ctx.s["players"][pid]["once"].append("wererat_bite")


@special("will_o_wisp")
def _will_o_wisp(ctx, task, item):
    """2-3: your figure leaves the board; at the start of your next turn you
    put it on any omen tile in play (the Elfsong Tavern if there is none).
    Ruling: while off the board nothing on the board affects you; coming
    back at the start of your turn does not end your movement."""
    pid = task["player"]
    if item.get("part") == "return":
        mk.take(ctx, pid, "away")
        omen_tiles = [t for t in ctx.s["board"] if ctx.c.tiles[t].symbol == "omen"] or ["elfsong_tavern"]
        picked = ask_tile(ctx, pid, "which omen tile do you come back on?", tile_choices(ctx, omen_tiles),
                          "will_o_wisp")
        if picked:
            moves.place_on(ctx, pid, picked[0], picked[1], verb="comes back on", stop=False)
        return
    mk.add(ctx, pid, "away", card="will_o_wisp")
    if ctx.s["turn"] and ctx.s["turn"]["player"] == pid:
        ctx.s["turn"]["stopped"] = True
    ctx.say(f"{ctx.name(pid)} follows the light and vanishes from the board until their next turn.", kind="move",
            player=pid, tile=None)


@effects.decision("will_o_wisp")
def _decide_will_o_wisp(ctx, pending, index):
    tid, half = pending["data"]["tiles"][index]
    moves.place_on(ctx, pending["player"], tid, half, verb="comes back on", stop=False)


@special("zhentarim_opportunist")
def _zhentarim(ctx, task, item):
    """Refuse to pay: the player on your right attacks you with 4 dice, you
    defend with Might. If the attack deals damage (Ruling: judged by the
    attack, before armour lessens it), this card and the top 3 events are
    shuffled back on top of the event deck."""
    pid = task["player"]
    if item.get("part") == "reshuffle":
        s = ctx.s
        effects.unsettle(ctx, "zhentarim_opportunist")
        top = s["decks"]["event"][:3]
        del s["decks"]["event"][:3]
        s["decks"]["event"][0:0] = rng.shuffle(s, top + ["zhentarim_opportunist"])
        ctx.say("The Zhentarim Opportunist and the top 3 event cards are shuffled back on top of the event deck.",
                kind="deck")
        return
    combat.card_attack(ctx, pid, right_of(ctx, pid), 4, "might", task["source"],
                       on_hit=[{"do": "special", "name": "zhentarim_opportunist", "part": "reshuffle"}])


# --- items --------------------------------------------------------------------

@special("caltrops")
def _caltrops(ctx, task, item):
    """Scatter them: the card lies on your tile like a dropped item; its
    effect on opponents who enter is combat.caltrops_on_enter."""
    pid = task["player"]
    tile = ctx.s["players"][pid]["tile"]
    cd.lose(ctx, pid, "caltrops")
    ctx.s["piles"].setdefault(tile, []).append("caltrops")
    tk.place(ctx.s, "Caltrops", tile, item="caltrops", by=pid)
    ctx.say(f"{ctx.name(pid)} scatters Caltrops over the {ctx.tile_name(tile)}.", kind="token", tile=tile)


@special("helm_of_teleportation")
def _helm(ctx, task, item):
    """4+: put your figure on any other tile in play (a barrier tile: pick the
    side). Not movement; it ends your movement."""
    pid = task["player"]
    here = ctx.s["players"][pid]["tile"]
    choices = tile_choices(ctx, [t for t in ctx.s["board"] if t != here])
    picked = ask_tile(ctx, pid, "which tile do you teleport to?", choices, "helm_of_teleportation")
    if picked:
        moves.place_on(ctx, pid, picked[0], picked[1], verb="teleports to")


@effects.decision("helm_of_teleportation")
def _decide_helm(ctx, pending, index):
    tid, half = pending["data"]["tiles"][index]
    moves.place_on(ctx, pending["player"], tid, half, verb="teleports to")


@special("potion_of_giant_strength")
def _giant_strength(ctx, task, item):
    """2 more dice on your next roll with Might (8 at most)."""
    mk.add(ctx, task["player"], "next_might_dice", dice=2, card="potion_of_giant_strength")
    ctx.say(f"{ctx.name(task['player'])}'s next Might roll gets 2 extra dice.", kind="mark")


@special("potion_of_healing")
def _healing(ctx, task, item):
    """Might and Speed below their starting values go back up to them."""
    pid = task["player"]
    below = _below_start(ctx, pid, ("might", "speed"))
    if not below:
        ctx.say(f"{ctx.name(pid)}'s Might and Speed are not below their starting values; the potion is wasted.",
                kind="info")
    for trait in below:
        _relic(ctx, pid, trait, restore=True)


@special("potion_of_invisibility")
def _invisibility(ctx, task, item):
    """Until the start of your next turn nobody can attack you and opponents
    do not slow you (combat.can_be_attacked, combat.leave_cost)."""
    mk.add(ctx, task["player"], "invisible")
    ctx.say(f"{ctx.name(task['player'])} fades from sight until their next turn.", kind="mark")


@special("potion_of_speed")
def _potion_of_speed(ctx, task, item):
    """Up to 4 extra spaces of movement this turn."""
    turn = ctx.s["turn"]
    if turn and turn["player"] == task["player"]:
        turn["extra_moves"] = turn.get("extra_moves", 0) + 4
        ctx.say(f"{ctx.name(task['player'])} may move 4 extra spaces this turn.", kind="mark")


@effects.usable("shiny_rock")
def _shiny_rock_usable(ctx, pid, cid):
    if not any(st.together(ctx.s, o, pid) and combat.stealable(ctx, o) for o in combat.opponents(ctx, pid)):
        return ("The Shiny Rock takes a card from an opponent on your tile"
                + (", and before the haunt nobody is your opponent." if ctx.s["phase"] != "haunt" else
                   "; no opponent here has a card that can be stolen."))
    return None


@special("shiny_rock")
def _shiny_rock(ctx, task, item):
    """Take 1 stealable card at random from an opponent on your tile."""
    pid = task["player"]
    victims = [o for o in combat.opponents(ctx, pid) if st.together(ctx.s, o, pid) and combat.stealable(ctx, o)]
    if not victims:
        return
    if len(victims) == 1:
        _shiny_take(ctx, pid, victims[0])
        return
    effects.ask(ctx, pid, "shiny_rock", "whose card do you take?", [ctx.name(v) for v in victims], victims=victims)


@effects.decision("shiny_rock")
def _decide_shiny_rock(ctx, pending, index):
    _shiny_take(ctx, pending["player"], pending["data"]["victims"][index])


def _shiny_take(ctx, pid, victim):
    options = combat.stealable(ctx, victim)
    cid = options[rng.below(ctx.s, len(options))]
    cd.lose(ctx, victim, cid)
    cd.gain(ctx, pid, cid)
    ctx.say(f"{ctx.name(pid)} dazzles {ctx.name(victim)} and takes {ctx.card_name(cid)}.", kind="steal", card=cid)


@effects.usable("book_of_vile_darkness")
def _vile_darkness_usable(ctx, pid, cid):
    """Ruling: the book's 2 dice wait for one roll; it cannot be used again
    until that roll is made."""
    if any(m.get("card") == "book_of_vile_darkness" for m in ctx.s["players"][pid]["marks"]):
        return "The Book of Vile Darkness's 2 extra dice are still waiting for your next roll."
    return None


@special("book_of_vile_darkness")
def _vile_darkness(ctx, task, item):
    """2 more dice on the next roll you make (not a haunt or damage roll);
    after that roll you take 1 mental damage."""
    mk.add(ctx, task["player"], "next_roll_dice", dice=2, card="book_of_vile_darkness",
           then_damage={"kind": "mental", "amount": 1})
    ctx.say(f"{ctx.name(task['player'])}'s next roll gets 2 extra dice, at a price.", kind="mark")


@effects.usable("gamblers_dice")
def _gamblers_usable(ctx, pid, cid):
    return "Gambler's Dice are offered right after one of your rolls that shows blank dice."


@special("gamblers_dice")
def _gamblers_step(ctx, task, item):
    """The dice are offered after your rolls (see _gamblers_offer); as a use
    of their own they do nothing."""
    raise IllegalAction(_gamblers_usable(ctx, task["player"], "gamblers_dice"))


def _gamblers_offer(ctx, pid, roll):
    """Right after one of your rolls, on anyone's turn: roll the blank dice
    again (offered only when that could change the result's band)."""
    turn = ctx.s["turn"]
    p = ctx.s["players"][pid]
    zeros = roll["faces"].count(0)
    if not (zeros and "gamblers_dice" in p["cards"] and turn and "gamblers_dice" not in turn["used"]):
        return None
    now = effects.band_of(roll["bands"], roll["total"])
    if all(effects.band_of(roll["bands"], roll["total"] + k) == now for k in range(1, 2 * zeros + 1)):
        return None
    return {"prompt": f"roll your {zeros} blank {'die' if zeros == 1 else 'dice'} again with the Gambler's Dice "
                      "(each blank again costs 1 mental damage)?",
            "options": ["Roll them again", "Keep the result"]}


def _gamblers_apply(ctx, pid, roll, index):
    if index != 0:
        return
    ctx.s["turn"]["used"].append("gamblers_dice")
    zeros = roll["faces"].count(0)
    again = rng.roll(ctx.s, zeros)
    roll["faces"] = [f for f in roll["faces"] if f] + again
    roll["total"] += sum(again)
    blanks = again.count(0)
    ctx.say(f"{ctx.name(pid)} rolls the blanks again with the Gambler's Dice: {' '.join(map(str, again))}; "
            f"the result is now {roll['total']}.", kind="roll", player=pid, faces=again, total=roll["total"])
    if blanks:
        effects.queue(ctx, pid, [{"do": "damage", "kind": "mental", "amount": blanks}], source="gamblers_dice",
                      front=True)


effects.roll_reaction("gamblers_dice", _gamblers_apply)(_gamblers_offer)


@special("ring_of_regeneration")
def _ring_of_regeneration(ctx, task, item):
    """End of your turn: if a trait is at the lowest value of its track, you
    may gain 1 in one of those traits."""
    pid = task["player"]
    lowest = [t for t in TRAITS if ctx.s["players"][pid]["traits"][t] == 1]
    if not lowest:
        return
    effects.ask(ctx, pid, "trait_or_not", "gain 1 with the Ring of Regeneration?",
                [f"Gain 1 {t.capitalize()}" for t in lowest] + ["No"], traits=lowest)


@effects.decision("trait_or_not")
def _decide_trait_or_not(ctx, pending, index):
    traits = pending["data"]["traits"]
    if index < len(traits):
        tr.change(ctx, pending["player"], traits[index], 1)


# --- omens ----------------------------------------------------------------------

@special("deck_of_many_things")
def _deck_of_many_things(ctx, task, item):
    """Subtract 1 from the roll per token on the card; after each draw add a
    token (it stays with the card whoever holds it); Void: a trait drops to
    its lowest value (after the haunt began: death)."""
    pid = task["player"]
    state = card_state(ctx, "deck_of_many_things", store=True)
    part = item.get("part")
    if part == "subtract_tokens":
        if state.get("tokens"):
            adjust_next_roll(task, bonus=-state["tokens"])
    elif part == "add_token":
        state["tokens"] = state.get("tokens", 0) + 1
        ctx.say(f"A token goes on the Deck of Many Things ({state['tokens']} now).", kind="token")
    elif part == "void":
        if ctx.s["phase"] == "haunt":
            task["steps"] = [x for x in task["steps"] if x.get("part") != "add_token"]
            _deck_of_many_things(ctx, task, {"part": "add_token"})  # the token goes on before the deck falls
            death.die(ctx, pid, "the Void card of the Deck of Many Things claims them")
            return
        effects.ask(ctx, pid, "void", "which trait drops to its lowest value?", [t.capitalize() for t in TRAITS])


@effects.decision("void")
def _decide_void(ctx, pending, index):
    trait = TRAITS[index]
    pid = pending["player"]
    tr.change(ctx, pid, trait, 1 - ctx.s["players"][pid]["traits"][trait])


def _haunt_only(ctx, pid, cid):
    if ctx.s["phase"] != "haunt":
        return f"{ctx.card_name(cid)} can be used only after the haunt has begun."
    return None


effects.usable("pipes_of_haunting")(_haunt_only)


@effects.usable("iron_flask_of_tuerny")
def _flask_usable(ctx, pid, cid):
    """Once per game, and instead of your attack."""
    if _haunt_only(ctx, pid, cid):
        return _haunt_only(ctx, pid, cid)
    if card_state(ctx, cid).get("used"):
        return "The Iron Flask of Tuerny has already been opened this game."
    if ctx.s["turn"].get("attacked"):
        return "The flask is opened instead of attacking, and you have already attacked this turn."
    return None


@special("iron_flask_of_tuerny")
def _iron_flask(ctx, task, item):
    """Instead of your attack: see combat.iron_flask."""
    ctx.s["turn"]["attacked"] = True
    if not combat.iron_flask(ctx, task["player"]):
        raise IllegalAction("The Iron Flask of Tuerny has already been opened this game.")


# --- damage: what you carry changes what you take -----------------------------------

def _holds(ctx, pid, cid):
    return cid in ctx.s["players"][pid]["cards"]


@effects.damage_stage("meenlock", 20)
def _meenlock(ctx, hit):
    """Meenlock: physical damage you take is taken as mental damage."""
    if hit["kind"] == "physical" and _holds(ctx, hit["victim"], "meenlock"):
        hit["kind"] = "mental"
        ctx.say(f"The Meenlock turns the blow into dread: {ctx.name(hit['victim'])} takes it as mental damage.",
                kind="info")


@effects.damage_stage("armour", 30)
def _armour(ctx, hit):
    """Chain Mail: 1 less physical damage; Locket: 1 less mental damage."""
    cid = {"physical": "chain_mail", "mental": "locket"}[hit["kind"]]
    if _holds(ctx, hit["victim"], cid):
        hit["amount"] -= 1
        ctx.say(f"The {ctx.card_name(cid)} takes 1 point of the damage.", kind="info")


@effects.damage_stage("ten_foot_pole", 40)
def _ten_foot_pole(ctx, hit):
    """Ten-Foot Pole: the next time an event card would deal you damage you
    take none; then the pole is discarded."""
    source = hit.get("source")
    if _holds(ctx, hit["victim"], "ten_foot_pole") and source in ctx.c.cards and \
            ctx.c.cards[source].deck == "event":
        hit["amount"] = 0
        ctx.say(f"{ctx.name(hit['victim'])} prods ahead with the Ten-Foot Pole and takes no damage.", kind="info")
        cd.discard(ctx, "ten_foot_pole")


def _figurine_decide(ctx, hit, index):
    if index == 0:
        card_state(ctx, "figurine_of_wondrous_power", store=True)["used"] = True
        hit["amount"] = 0
        ctx.say("The Figurine of Wondrous Power springs to life and takes the blow.", kind="info")


@effects.damage_stage("figurine", 50, _figurine_decide)
def _figurine(ctx, hit):
    """Figurine of Wondrous Power: once per game (Ruling: once per figurine,
    whoever holds it), ignore all of one damage of any kind."""
    if _holds(ctx, hit["victim"], "figurine_of_wondrous_power") and \
            not card_state(ctx, "figurine_of_wondrous_power").get("used"):
        return effects.ask_stage(ctx, hit["victim"], hit, "figurine",
                                 f"ignore all {hit['amount']} {hit['kind']} damage with the Figurine (once per game)?",
                                 ["Ignore it", "Take it"])
    return False


def _cloak_decide(ctx, hit, index):
    if index != 0:
        return
    pid = hit["victim"]
    total = effects.make_roll(ctx, pid, rng.dice_count(ctx.value(pid, "speed")), "Speed (Cloak of the Bat)",
                              trait="speed", kind="trait")
    if total >= 3:
        hit["amount"] = 0
        ctx.say(f"{ctx.name(pid)} becomes a bat and flutters clear; the Cloak of the Bat is spent.", kind="info")
        cd.discard(ctx, "cloak_of_the_bat")


@effects.damage_stage("cloak_of_the_bat", 60, _cloak_decide)
def _cloak_of_the_bat(ctx, hit):
    """Cloak of the Bat: about to take physical damage, you may roll Speed
    3+; on a success ignore it and discard the cloak."""
    if hit["kind"] == "physical" and _holds(ctx, hit["victim"], "cloak_of_the_bat"):
        return effects.ask_stage(ctx, hit["victim"], hit, "cloak_of_the_bat",
                                 f"roll Speed 3+ with the Cloak of the Bat to avoid {hit['amount']} physical damage?",
                                 ["Roll", "Take it"])
    return False
