"""Haunt 11, You'll Have the House Slaad with That (Traitor's Tome and
Secrets of Survival; the traitor plays the Death Slaad).

What the bot carries out:
- Setup: the Death Slaad token takes the traitor's figure's place (data);
  the figure leaves the board but the traitor plays on, the Death Slaad
  being their figure; the traitor's item cards drop on the tile; the
  Fireball tokens and both scroll piles are counters (data); the quoted
  speech is read out to all; every hero is a host (a Slaad Tadpole on their
  card); the Arcane Retreat, Sorcerous Sundries and Warehouse are fetched
  from their stacks when not in play, the heroes picking the door (data,
  `fetch_tile`).
- Turns: heroes from the traitor's left, then the Death Slaad in the
  traitor's turn (it moves up to its Speed, no roll, and attacks once as a
  monster, or casts the declared move `fireball` at a tile), then
  the monster turn of the Slaad Tadpoles. A stunned Death Slaad misses its
  own turn and recovers at its end.
- Fireball: one token spent, the traitor picks the Slaad's tile or a tile
  1 space away with adventurers on it; a separate attack of 5 dice against
  each adventurer there, who defends with Speed; losing to one on another
  tile costs nothing.
- The hosts' Might 3+ roll at the end of their turns (failing: 1 Might, 1
  Speed and 1 Sanity lost); a host who dies for any reason lets a Slaad
  Tadpole onto their tile.
- Spell scrolls: the declared move `scroll` (Speed) on one of the three
  shops (once per turn; 3+ a Cure Disease Scroll, 5+ the hero's pick of
  either; at most one of each carried, while the piles last). `cure` (once
  per turn) cures a host on the hero's tile or destroys a Slaad Tadpole
  there. `banish` in place of an attack: a Sanity attack on the Death
  Slaad on the tile that succeeds at once against a stunned one; beating it
  sends it away for good.
- The Death Slaad, hurt, is stunned; hurt by a hero while already stunned it
  dies (coup de grace), and while stunned it defends with half its dice
  (rounded down), except against a Banishment Scroll. A Slaad Tadpole hurt
  is killed. Once the Death Slaad is gone every Slaad Tadpole takes the
  stronger traits.
- Wins: the heroes once the Death Slaad and every Slaad Tadpole are gone
  and no living hero is a host; the traitor when every hero is dead (data).

Left to the players: nothing the books print.
"""
from .. import attack, effects, hooks, rulesets
from .. import haunt_play as hp
from .. import marks as mk
from .. import state as st
from ..errors import IllegalAction
from ..geometry import distances
from ..sides import heroes, traitors
from ..turns import begin_turn

SLAAD, TADPOLE = "Death Slaad", "Slaad Tadpole"
STRONGER = "Slaad Tadpole (without Death Slaad in play)"
FIREBALLS, CURES, BANISHES = "Fireball spells", "Cure Disease Scrolls", "Banishment Scrolls"
SHOPS = ("arcane_retreat", "sorcerous_sundries", "warehouse")
FIREBALL_DICE, FIREBALL_REACH = 5, 1
FIREBALL, BANISH = "haunt:fireball", "haunt:banishment"
HOST_TARGET = 3


OWN = rulesets.Own("h11", {"hosts": [], "cure": [], "banish": []}, players=("hosts", "cure", "banish"))


def mine(ctx) -> dict:
    """This haunt's own state: the hosts, the scrolls each hero carries (lists
    of player ids)."""
    return rulesets.REGISTRY[11].record(ctx.s)


def the_slaad(s: dict) -> dict | None:
    return next((m for m in s["monsters"] if m["name"] == SLAAD and not m["dead"]), None)


def tadpoles(s: dict) -> list[dict]:
    return [m for m in s["monsters"] if m["name"] == TADPOLE and not m["dead"]]


def slaad_turn_now(s: dict) -> bool:
    return bool((s["turn"] or {}).get("h11_slaad"))


def slaad_gone(ctx) -> bool:
    return SLAAD in ctx.s["haunt"]["placed"] and the_slaad(ctx.s) is None


def kill(ctx, m: dict, why: str):
    m["dead"] = True
    ctx.say(f"{st.monster_called(m)} {why}", kind="monster", monster=m["id"])
    hooks.fire("monster_killed", ctx, m["id"])
    if m["name"] == SLAAD:
        stronger = hp.monster_stats(ctx, STRONGER)
        for t in tadpoles(ctx.s):
            t["traits"] = dict(stronger)
        if tadpoles(ctx.s):
            ctx.say("With the Death Slaad gone, the Slaad Tadpoles grow stronger: " + ", ".join(
                f"{k.capitalize()} {v}" for k, v in stronger.items()) + ".", kind="monster")


def new_tadpole(ctx, tile: str) -> dict:
    m = hp.add_monster(ctx, TADPOLE, tile)
    if slaad_gone(ctx):
        m["traits"] = dict(hp.monster_stats(ctx, STRONGER))
    return m


# --- the Death Slaad's turn --------------------------------------------------------------------

def slaad_turn(ctx, pid: str, number: int):
    """Traitor's Tome, haunt 11, "Right Now": the Death Slaad is the traitor's
    figure, so it acts in the traitor's turn. Ruling: it moves up to its
    Speed without a roll, as the Banshee of haunt 31 does."""
    s = ctx.s
    m = the_slaad(s)
    turn = st.new_turn(pid, number)
    turn.update({"monsters": True, "moves": {SLAAD: m["traits"]["speed"]}, "acted": [], "attacked": [],
                 "stunned_at_start": [m["id"]] if m["stunned"] else [], "h11_slaad": True})
    s["turn"] = turn
    ctx.say(f"Turn {number}: {ctx.name(pid)} plays the Death Slaad on the {ctx.tile_name(m['tile'])}"
            + (" (stunned: it misses this turn)." if m["stunned"] else
               f" (Speed {m['traits']['speed']}; Fireball tokens left: "
               f"{s['haunt']['counters'].get(FIREBALLS, 0)})."), kind="turn", player=pid)


def fireball_tiles(ctx) -> list[str]:
    s = ctx.s
    m = the_slaad(s)
    near = distances(ctx, m["tile"])
    return sorted((t for t, d in near.items() if d <= FIREBALL_REACH and st.players_on(s, t)), key=ctx.tile_name)


def fireball_closed(ctx) -> str | None:
    """Why the Death Slaad cannot cast Fireball now, or None."""
    s = ctx.s
    m = the_slaad(s)
    if not slaad_turn_now(s) or m is None:
        return "Only the Death Slaad casts Fireball, in its own turn."
    if m["stunned"]:
        return "The Death Slaad is stunned and cannot act this turn."
    if s["haunt"]["counters"].get(FIREBALLS, 0) <= 0:
        return "No Fireball token is left on your card."
    if not fireball_tiles(ctx):
        return "No adventurer stands on the Death Slaad's tile or a tile 1 space from it."
    return None


def fireball(ctx, pid: str, tile: str):
    """Traitor's Tome, haunt 11, "Special Death Slaad Rules": in place of its
    attack, one Fireball token on its tile or a tile 1 space away."""
    s = ctx.s
    m = the_slaad(s)
    if not slaad_turn_now(s) or m is None:
        raise IllegalAction("Only the Death Slaad casts Fireball, in its own turn.")
    if m["stunned"]:
        raise IllegalAction("The Death Slaad is stunned and cannot act this turn.")
    if m["id"] in s["turn"]["attacked"]:
        raise IllegalAction("The Death Slaad has already attacked this turn.")
    if s["haunt"]["counters"].get(FIREBALLS, 0) <= 0:
        raise IllegalAction("No Fireball token is left on your card.")
    tiles = fireball_tiles(ctx)
    if not tiles:
        raise IllegalAction("No adventurer stands on the Death Slaad's tile or a tile 1 space from it.")
    if tile not in tiles:
        raise IllegalAction("The Fireball strikes the Death Slaad's tile or a tile 1 space from it, where an "
                            "adventurer stands.")
    s["turn"]["attacked"].append(m["id"])
    s["haunt"]["counters"][FIREBALLS] -= 1
    cast(ctx, pid, tile)


def cast(ctx, pid: str, tile: str):
    """Traitor's Tome, haunt 11, "Special Death Slaad Rules" (L1378): 5 dice
    to attack each adventurer on the tile, each defending with Speed: a
    separate attack roll against each of them."""
    s = ctx.s
    m = the_slaad(s)
    ctx.say(f"The Death Slaad hurls a Fireball at the {ctx.tile_name(tile)} "
            f"({s['haunt']['counters'][FIREBALLS]} left).", kind="attack", tile=tile)
    s["haunt"]["last_attacker"] = m["id"]
    steps = []
    for target in st.players_on(s, tile):
        a = effects.make_roll(ctx, pid, FIREBALL_DICE, f"5 dice for the Fireball at {ctx.name(target)}",
                              kind="contest")
        d = attack.defence_roll(ctx, target, "speed", ctx.value(target, "speed"))
        steps.append(attack.roll_off(m["id"], target, "speed", a, d, tile != m["tile"]))
    effects.queue(ctx, pid, steps + [{"do": "_attack_over"}], source=FIREBALL, front=True)


# --- the hosts ----------------------------------------------------------------------------------

@effects.step("h11_gnaw")
def _gnaw(ctx, task, item):
    """Secrets of Survival, haunt 11, "You Must Do This at the End of Your
    Turn": a host fails the Might roll and loses 1 Might, 1 Speed and 1 Sanity."""
    pid = task["player"]
    ctx.say(f"The Slaad Tadpole gnaws at {ctx.name(pid)} from inside.", kind="haunt", player=pid)
    task["steps"][0:0] = [{"do": "lose", "trait": t, "amount": 1} for t in ("might", "speed", "sanity")]


HOST_ROLL = [{"do": "roll", "trait": "might", "bands": [
    {"at_least": HOST_TARGET, "then": []},
    {"at_most": HOST_TARGET - 1, "then": [{"do": "h11_gnaw"}]}]}]


# --- the spell scrolls --------------------------------------------------------------------------

def can_take(ctx, pid: str, kind: str) -> bool:
    counter = CURES if kind == "cure" else BANISHES
    return pid not in mine(ctx)[kind] and ctx.s["haunt"]["counters"].get(counter, 0) > 0


def search(ctx, pid: str, trait: str):
    """Secrets of Survival, haunt 11, "How to Acquire a Spell Scroll"."""
    s = ctx.s
    if trait != "speed":
        raise IllegalAction("Finding a Spell Scroll takes a Speed roll.")
    if s["players"][pid]["tile"] not in SHOPS:
        raise IllegalAction("Spell Scrolls are found only on the Arcane Retreat, Sorcerous Sundries or Warehouse.")
    if not can_take(ctx, pid, "cure") and not can_take(ctx, pid, "banish"):
        raise IllegalAction("You can take no Spell Scroll: you carry one of each kind left in the pile already.")
    effects.queue(ctx, pid, [{"do": "roll", "trait": "speed", "bands": [
        {"at_least": 5, "then": [{"do": "h11_found", "best": True}]},
        {"at_least": 3, "at_most": 4, "then": [{"do": "h11_found", "best": False}]},
        {"at_most": 2, "then": []}]}], source="haunt", front=True)


@effects.step("h11_found")
def _found(ctx, task, item):
    pid = task["player"]
    kinds = [k for k in (("cure", "banish") if item["best"] else ("cure",)) if can_take(ctx, pid, k)]
    if not kinds:
        ctx.say(f"{ctx.name(pid)} finds a scroll but can carry no more of that kind.", kind="haunt", player=pid)
        return
    if len(kinds) == 1:
        take_scroll(ctx, pid, kinds[0])
        return
    effects.ask(ctx, pid, "h11_scroll", "which Spell Scroll do you take?",
                ["A Cure Disease Scroll", "A Banishment Scroll"], kinds=kinds)


@effects.decision("h11_scroll")
def _decide_scroll(ctx, pending, index):
    take_scroll(ctx, pending["player"], pending["data"]["kinds"][index])


def take_scroll(ctx, pid: str, kind: str):
    h = ctx.s["haunt"]
    mine(ctx)[kind].append(pid)
    h["counters"][CURES if kind == "cure" else BANISHES] -= 1
    words = {"cure": "a Cure Disease Scroll (use it: {move:cure})",
             "banish": "a Banishment Scroll (use it in place of an attack: {move:banish})"}
    ctx.say(f"{ctx.name(pid)} finds {words[kind]}.", kind="haunt", player=pid)


def cure(ctx, pid: str):
    """Secrets of Survival, haunt 11, "Killing Tadpoles with the Cure Disease
    Scroll": once per turn, a host on your tile (you too) or a Slaad Tadpole
    there."""
    s = ctx.s
    if pid not in mine(ctx)["cure"]:
        raise IllegalAction("You carry no Cure Disease Scroll.")
    hosts = [p for p in mine(ctx)["hosts"] if s["players"][p]["alive"] and (p == pid or st.together(s, p, pid))]
    hosts.sort(key=lambda p: p != pid)
    spawn = [m for m in tadpoles(s) if st.beside(s, pid, m)]
    options = [f"Cure {ctx.name(p)}" for p in hosts] + [f"Destroy {st.monster_called(m)}" for m in spawn]
    if not options:
        raise IllegalAction("No host and no Slaad Tadpole is on your tile.")
    targets = hosts + [m["id"] for m in spawn]
    if len(targets) == 1:
        use_cure(ctx, pid, targets[0])
        return
    effects.ask(ctx, pid, "h11_cure", "where does the Cure Disease Scroll go?", options, targets=targets)


@effects.decision("h11_cure")
def _decide_cure(ctx, pending, index):
    use_cure(ctx, pending["player"], pending["data"]["targets"][index])


def use_cure(ctx, pid: str, target: str):
    h11 = mine(ctx)
    h11["cure"].remove(pid)
    if target in ctx.s["players"]:
        h11["hosts"].remove(target)
        ctx.say(f"{ctx.name(pid)} reads a Cure Disease Scroll: the Slaad Tadpole in {ctx.name(target)}'s chest "
                "dies.", kind="haunt", player=pid)
        return
    m = next(x for x in ctx.s["monsters"] if x["id"] == target)
    ctx.say(f"{ctx.name(pid)} reads a Cure Disease Scroll at {st.monster_called(m)}.", kind="haunt", player=pid)
    kill(ctx, m, "is destroyed.")


def banish(ctx, pid: str, trait: str):
    """Secrets of Survival, haunt 11, "Killing the Death Slaad with the
    Banishment Scroll"."""
    s = ctx.s
    m = the_slaad(s)
    if pid not in mine(ctx)["banish"]:
        raise IllegalAction("You carry no Banishment Scroll.")
    if m is None or not st.beside(s, pid, m):
        raise IllegalAction("The Death Slaad is not on your tile.")
    if s["turn"].get("attacked"):
        raise IllegalAction("You have already attacked this turn; an attack is once per turn.")
    s["turn"]["attacked"] = True
    mine(ctx)["banish"].remove(pid)
    ctx.say(f"{ctx.name(pid)} reads a Banishment Scroll at the Death Slaad.", kind="attack", player=pid)
    if m["stunned"]:
        kill(ctx, m, "is stunned and cannot resist: it is sent back to the Ever-Changing Chaos of Limbo.")
        return
    a = effects.make_roll(ctx, pid, attack.attack_dice(ctx, pid, "sanity"), "Sanity to attack", trait="sanity",
                          kind="attack")
    d = attack.defence_roll(ctx, m["id"], "sanity", m["traits"]["sanity"])
    s["haunt"]["last_attacker"] = pid
    effects.queue(ctx, pid, [attack.roll_off(pid, m["id"], "sanity", a, d, False), {"do": "_attack_over"}],
                  source=BANISH, front=True)


# --- the rule set -------------------------------------------------------------------------------

@rulesets.register(11)
class HouseSlaad(rulesets.RuleSet):
    title = "You'll Have the House Slaad with That"

    def setup_step(self, ctx, step):
        if step.get("do") != "manual":
            return None
        s = ctx.s
        text = step.get("text", "")
        h11 = mine(ctx)
        if "figure leaves the board" in text:
            pid = traitors(s)[0]
            p = s["players"][pid]
            for cid in [c for c in p["cards"] if ctx.c.cards[c].deck == "item"]:
                p["cards"].remove(cid)
                p["held_bonus"].pop(cid, None)
                s["piles"].setdefault(p["tile"], []).append(cid)
                ctx.say(f"{ctx.card_name(cid)} drops to the {ctx.tile_name(p['tile'])}.", kind="drop", card=cid)
            mk.add(ctx, pid, "away", why="death_slaad")
            ctx.say(f"{ctx.who(pid)} sheds their disguise: the Death Slaad stands in their place and takes their "
                    "turns.", kind="haunt", player=pid)
            ctx.say("In the Death Slaad's turn it moves up to its Speed (no roll), then attacks once as a "
                    "monster, or in its place casts {move:fireball}.", kind="haunt_setup", to="traitors")
            return True
        if "speech" in text:
            intro = ctx.c.haunts[11].raw["traitor"]["intro"]
            speech = intro[intro.find('"'):intro.rfind('"') + 1]
            ctx.say(f"The Death Slaad croaks: {speech}", kind="haunt")
            return True
        if "Slaad Tadpole" in text:
            h11["hosts"] = list(heroes(s))
            ctx.say("Setup: a Slaad Tadpole squirms in every hero's chest. On the Arcane Retreat, Sorcerous Sundries "
                    "or Warehouse: {move:scroll} (once per turn). With a Cure Disease Scroll: {move:cure}. With a "
                    "Banishment Scroll, in place of an attack: {move:banish}.", kind="haunt_setup", to="heroes")
            return True
        return None

    def next_slot(self, ctx):
        """Heroes, then the Death Slaad in the traitor's turn, then the Slaad
        Tadpoles' monster turn."""
        s = ctx.s
        if not s["haunt"].get("started"):
            return None
        turn = s["turn"]
        order = s["order"]
        current = hp.MONSTERS if turn.get("monsters") and not turn.get("h11_slaad") else turn["player"]
        i = order.index(current) if current in order else len(order) - 1
        number = turn["number"] + 1
        for k in range(1, len(order) + 1):
            nxt = order[(i + k) % len(order)]
            if nxt == hp.MONSTERS:
                if tadpoles(s):
                    hp.begin_monster_turn(ctx, number)
                    return True
            elif nxt in traitors(s):
                if the_slaad(s):
                    slaad_turn(ctx, nxt, number)
                    return True
            elif s["players"][nxt]["alive"]:
                begin_turn(ctx, nxt, number)
                return True
        hp.check_wins(ctx)
        if s["phase"] == "haunt":
            hp.finish(ctx, None, "Nobody is left to take a turn.")
        return True

    def monster_blocked(self, ctx, m, dest):
        s = ctx.s
        if not (s["turn"] or {}).get("monsters"):
            return None
        if m["name"] == SLAAD and not slaad_turn_now(s):
            return "The Death Slaad acts in the traitor's turn."
        if m["name"] != SLAAD and slaad_turn_now(s):
            return "The Slaad Tadpoles act in the monster turn."
        return None

    def monster_attack(self, ctx, m, target, trait):
        why = self.monster_blocked(ctx, m, m["tile"])
        if why:
            raise IllegalAction(why)
        return None

    def turn_ending(self, ctx, pid):
        s = ctx.s
        if pid in mine(ctx)["hosts"] and s["players"][pid]["alive"]:
            ctx.say(f"{ctx.name(pid)} is still a host: a Might roll of {HOST_TARGET}+ or the Slaad Tadpole gnaws.",
                    kind="haunt", player=pid)
            return list(HOST_ROLL)
        return None

    def death(self, ctx, pid, killer):
        """Secrets of Survival, haunt 11, "When a Hero Dies"."""
        s = ctx.s
        if pid in mine(ctx)["hosts"]:
            mine(ctx)["hosts"].remove(pid)
            ctx.say(f"A Slaad Tadpole bursts from {ctx.name(pid)}'s chest!", kind="haunt", player=pid)
            new_tadpole(ctx, s["players"][pid]["tile"])
        for kind in ("cure", "banish"):  # the scrolls are spent with their carrier
            if pid in mine(ctx)[kind]:
                mine(ctx)[kind].remove(pid)

    def defence_dice(self, ctx, defender, trait):
        """Secrets of Survival, haunt 11, "Killing the Death Slaad Normally":
        stunned, it defends with half its dice (not against a Banishment Scroll)."""
        m = next((x for x in ctx.s["monsters"] if x["id"] == defender), None)
        if m is None or m["name"] != SLAAD or not m["stunned"] or ctx.src == BANISH:
            return None
        return m["traits"][trait] // 2 - m["traits"][trait]

    def monster_hurt(self, ctx, m, kind, amount):
        s = ctx.s
        if m["name"] == TADPOLE:  # Traitor's Tome, haunt 11, "Special Slaad Tadpole Rules"
            kill(ctx, m, "is killed.")
            return True
        if m["name"] != SLAAD:
            return None
        by_hero = s["haunt"].get("last_attacker") in s["players"]
        if ctx.src == BANISH:
            kill(ctx, m, "is beaten by the Banishment Scroll and sent back to the Ever-Changing Chaos of Limbo.")
            return True
        if m["stunned"] and by_hero:
            kill(ctx, m, "is stunned and falls to a coup de grace.")
            return True
        return None  # stunned, as every monster is

    def win_check(self, ctx):
        s = ctx.s
        hosts = [p for p in mine(ctx)["hosts"] if s["players"][p]["alive"]]
        if slaad_gone(ctx) and not tadpoles(s) and not hosts and hp.alive(s, heroes(s)):
            return "heroes", "The Death Slaad and every Slaad Tadpole are destroyed, and no hero is a host any more."
        return None

    def haunt_goals(self, ctx, pid):
        """A hero: a shop while a scroll is left to take, the Death Slaad
        with a Banishment Scroll, else the Slaad Tadpoles and the Slaad (a
        host with a Cure Disease Scroll cures where they stand). The Death
        Slaad hunts the heroes."""
        s = ctx.s
        if pid not in heroes(s):
            return None
        own = mine(ctx)
        slaad = the_slaad(s)
        if pid in own["cure"] and pid in own["hosts"]:
            return {s["players"][pid]["tile"]}
        if pid in own["banish"] and slaad:
            return {slaad["tile"]}
        if (can_take(ctx, pid, "cure") or can_take(ctx, pid, "banish")) and any(t in s["board"] for t in SHOPS):
            return {t for t in SHOPS if t in s["board"]}
        return {m["tile"] for m in tadpoles(s)} | ({slaad["tile"]} if slaad else set()) or None

    own = OWN
    moves = (
        rulesets.Move("fireball", "Cast Fireball", lambda ctx, pid, trait, tile: fireball(ctx, pid, tile),
                      who="traitors", when="monster_turn", instead_of_attack=True,
                      allowed=lambda ctx, pid: fireball_closed(ctx),
                      args=(rulesets.Arg("tile", lambda ctx, pid: fireball_tiles(ctx) if the_slaad(ctx.s) else [],
                                         "Which tile?"),),
                      summary="In place of the Death Slaad's attack, spend a Fireball token: 5 dice against each "
                              "adventurer on its tile or one 1 space away, who defend with Speed."),
        rulesets.Move("scroll", "Search for a Spell Scroll", lambda ctx, pid, trait: search(ctx, pid, trait),
                      traits=("speed",), who="heroes", once_per_turn=True,
                      summary="On the Arcane Retreat, Sorcerous Sundries or Warehouse: Speed 3+ finds a Cure "
                              "Disease Scroll, 5+ either scroll."),
        rulesets.Move("cure", "Read a Cure Disease Scroll", lambda ctx, pid, trait: cure(ctx, pid),
                      who="heroes", once_per_turn=True,
                      summary="Spend the scroll to cure a host on your tile (you too) or destroy a Slaad Tadpole "
                              "there."),
        rulesets.Move("banish", "Read a Banishment Scroll", lambda ctx, pid, trait: banish(ctx, pid, trait),
                      traits=("sanity",), who="heroes", instead_of_attack=True,
                      summary="In place of an attack, a Sanity attack on the Death Slaad on your tile; it wins at "
                              "once against a stunned one, and a beaten Slaad is gone for good."),
    )
