"""Haunt 25, For the Glory of Tyr (Traitor's Tome and Secrets of Survival;
one traitor, the Lich).

What the bot carries out: the Lich's Speed and Knowledge mended and raised (1
and 2); the numbered face-down Obstacle tokens, each number placed where the
traitor picks (tiles without one first), the numbers told to the traitor
alone; the Lich's figure put on the tile the traitor picks; the Lich never
falling to the skull until the Phylactery is found; the heroes' search
(the declared move `search`, in place of an attack, Knowledge 3+ on a tile with
a token: 1 destroys the Phylactery, 2/4/6 raise a Skeleton that attacks the
searcher at once, 3/5 give an item); the Lich's Knowledge attack that stuns
instead of hurting (the declared move `stun`, as the turn's attack); once a
turn besides it, on a stunned hero's tile, Life Drain (`drain`: 2 dice, 3+
kills and the Lich gains 1 in every trait) or Dominate (`dominate`: a
Knowledge attack; a win stands the hero up, dominated); Snap Out of It
(`free`, in place of an attack: 2+ for a stunned hero, 4+ for a dominated one); a dominated hero
counted as the heroes' opponent and the Lich's ally (moving past, attacks,
the monsters leave them be); the Lich's win when every hero is dead or
dominated, and the heroes' when the Lich dies (data).

Left to the players: how a dominated hero plays their turns (the book asks
them to act as a traitor would; the choices stay the player's). A stunned
hero keeps playing their turns (Ruling: the books only lay the figure down).
The heroes leaving the room to read is unneeded: each side's rules are sent
privately.
"""
from .. import attack, effects, hooks, rng, rulesets
from .. import haunt_play as hp
from .. import state as st
from .. import tokens as tk
from .. import traits as tr
from ..content import TRAITS
from ..death import die
from ..errors import IllegalAction

SITE = "Obstacle token"  # the name the haunt's text and the map both use
SITES = (SITE, "Battlefield site")  # (a game saved before the rename named its tokens so)
SKELETON = "Skeleton"
SKELETONS = 3
PHYLACTERY, ITEMS = 1, (3, 5)
SEARCH, DRAIN = 3, 3
FREE = {"stunned": 2, "dominated": 4}


OWN = rulesets.Own("h25", {"stunned": [], "dominated": [], "phylactery": False, "risen": 0, "special": None},
                   players=("stunned", "dominated"))


def mine(ctx) -> dict:
    return rulesets.REGISTRY[25].record(ctx.s)


def to_place(ctx) -> list[int]:
    """The Obstacle numbers still to lay, in order: the traitor's secret."""
    return ctx.s["haunt"].setdefault("h25_sites", [])


def lich(ctx) -> str:
    return hp.traitors(ctx.s)[0]


def named(ctx, pid: str, words: str, pool: list[str], what: str) -> str:
    """The adventurer of `pool` the words name, on the player's tile."""
    s = ctx.s
    here = [o for o in pool if o != pid and st.together(s, pid, o)]
    if words:
        found = [o for o in s["seats"] if words in (o, s["players"][o]["name"].lower())]
        if not found or found[0] not in here:
            raise IllegalAction(f"Name {what} on your tile.")
        return found[0]
    if len(here) != 1:
        raise IllegalAction(f"Name {what} on your tile.")
    return here[0]


def living_heroes(ctx) -> list[str]:
    return hp.alive(ctx.s, hp.heroes(ctx.s))


# --- setup ----------------------------------------------------------------------------------

@effects.step("h25_place_site")
def _place_site(ctx, task, item):
    s = ctx.s
    left = to_place(ctx)
    if not left:
        return
    task["steps"].insert(0, item)
    taken = {t["tile"] for t in s["tokens"] if t["name"] in SITES}
    tiles = sorted([t for t in s["board"] if t not in taken] or list(s["board"]), key=ctx.tile_name)
    ctx.say(f"You now place Obstacle token {left[0]}.", kind="secret", to=task["player"])
    effects.ask(ctx, task["player"], "h25_site", "where does the next face-down Obstacle token go?",
                [ctx.tile_name(t) for t in tiles], tiles=tiles)


@effects.decision("h25_site")
def _decide_site(ctx, pending, index):
    tile = pending["data"]["tiles"][index]
    number = to_place(ctx).pop(0)
    tk.place(ctx.s, SITE, tile, number=number)
    ctx.say(f"A face-down Obstacle token is put on the {ctx.tile_name(tile)}.", kind="token", tile=tile)
    ctx.say(f"Obstacle token {number} lies on the {ctx.tile_name(tile)}.", kind="secret", to=pending["player"])


@effects.step("h25_lich_tile")
def _lich_tile(ctx, task, item):
    tiles = sorted(ctx.s["board"], key=ctx.tile_name)
    effects.ask(ctx, task["player"], "h25_lich_tile", "on which tile do you put the Lich?",
                [ctx.tile_name(t) for t in tiles], tiles=tiles)


@effects.decision("h25_lich_tile")
def _decide_lich_tile(ctx, pending, index):
    p = ctx.s["players"][pending["player"]]
    p["tile"], p["half"] = pending["data"]["tiles"][index], None
    ctx.say(f"The Lich appears on the {ctx.tile_name(p['tile'])}.", kind="move", player=pending["player"],
            tile=p["tile"])


# --- the heroes' search ---------------------------------------------------------------------

def search(ctx, pid: str, trait: str):
    """Secrets of Survival, haunt 25: "Search the Battlefield"."""
    s = ctx.s
    turn = s["turn"]
    if pid not in living_heroes(ctx) or pid in mine(ctx)["dominated"]:
        raise IllegalAction("Only the heroes search the battlefield.")
    if trait != "knowledge":
        raise IllegalAction("The search is a Knowledge roll.")
    if not any(t["name"] in SITES for t in tk.on_tile(s, s["players"][pid]["tile"])):
        raise IllegalAction("There is no face-down Obstacle token on your tile.")
    if turn.get("attacked"):
        raise IllegalAction("The search takes the place of your attack, which you have made this turn.")
    turn["attacked"] = True
    effects.queue(ctx, pid, [{"do": "roll", "trait": "knowledge", "bands": [
        {"at_least": SEARCH, "then": [{"do": "h25_found"}]},
        {"at_most": SEARCH - 1, "then": []}]}], source="haunt", front=True)


@effects.step("h25_found")
def _found(ctx, task, item):
    """Traitor's Tome, haunt 25: "Heroes Searching the Battlefield"."""
    s = ctx.s
    pid = task["player"]
    tile = s["players"][pid]["tile"]
    token = next((t for t in tk.on_tile(s, tile) if t["name"] in SITES), None)
    if token is None:
        return
    tk.remove(s, token)
    number = token["number"]
    ctx.say(f"{ctx.name(pid)} turns over Obstacle token {number}.", kind="haunt", player=pid)
    if number == PHYLACTERY:
        mine(ctx)["phylactery"] = True
        ctx.say("It is the Lich's Phylactery, and it is smashed: the Lich can now be killed!", kind="haunt")
    elif number in ITEMS:
        ctx.say("The Paladin left something behind: an item card.", kind="haunt")
        effects.push_front(ctx, [{"do": "draw", "deck": "item"}])
    elif mine(ctx)["risen"] >= SKELETONS:
        ctx.say("Old bones stir, but every Skeleton is already on the board.", kind="haunt")
    else:
        mine(ctx)["risen"] += 1
        m = hp.add_monster(ctx, SKELETON, tile)
        skeleton_strikes(ctx, m, pid)


def skeleton_strikes(ctx, m: dict, hero: str):
    """The risen Skeleton attacks the searcher at once."""
    s = ctx.s
    ctx.say(f"{st.monster_called(m)} attacks {ctx.name(hero)} at once (Might).", kind="attack")
    a = effects.make_roll(ctx, hp.controller(s), rng.dice_count(m["traits"]["might"]),
                          f"Might for {st.monster_called(m)}", kind="contest")
    d = attack.defence_roll(ctx, hero, "might", ctx.value(hero, "might"))
    s["haunt"]["last_attacker"] = m["id"]
    effects.queue(ctx, hero, [attack.roll_off(m["id"], hero, "might", a, d, False), {"do": "_attack_over"}],
                  source="attack", front=True)


# --- the Lich's attacks -----------------------------------------------------------------------

def knowledge_attack(ctx, pid: str, hero: str, then: str):
    a = effects.make_roll(ctx, pid, attack.attack_dice(ctx, pid, "knowledge"), "Knowledge to attack",
                          trait="knowledge", kind="attack")
    d = attack.defence_roll(ctx, hero, "knowledge", ctx.value(hero, "knowledge"))
    ctx.s["haunt"]["last_attacker"] = pid
    effects.queue(ctx, pid, [{**attack.roll_off(pid, hero, "knowledge", a, d, False), "do": "h25_mind_off",
                              "then": then}, {"do": "_attack_over"}], source="attack", front=True)


@effects.step("h25_mind_off")
def _mind_off(ctx, task, item):
    """A won stun or dominate deals no damage; a lost one hurts the Lich as
    any lost attack does."""
    if hooks.first("before_outcome", ctx, task, item):
        return
    if item["attack"] <= item["defence"]:
        effects.push_front(ctx, attack.resolve(ctx, item["attacker"], item["defender"], "knowledge", item["attack"],
                                               item["defence"], False))
        return
    hero = item["defender"]
    state = mine(ctx)
    if item["then"] == "stun":
        if hero not in state["stunned"]:
            state["stunned"].append(hero)
        ctx.say(f"The Lich wins {item['attack']} to {item['defence']}: {ctx.name(hero)} is stunned (figure laid on "
                "its side).", kind="haunt", player=hero)
        return
    if hero in state["stunned"]:
        state["stunned"].remove(hero)
    state["dominated"].append(hero)
    ctx.say(f"The Lich wins {item['attack']} to {item['defence']}: {ctx.name(hero)} stands up, dominated: the "
            "Lich's ally now.", kind="haunt", player=hero)


def lich_acts(ctx, pid: str, what: str, words: str, trait: str):
    s = ctx.s
    turn = s["turn"]
    if pid != lich(ctx):
        raise IllegalAction("Only the Lich does that.")
    state = mine(ctx)
    if what == "stun":
        if trait != "knowledge":
            raise IllegalAction("The stunning attack uses Knowledge.")
        if turn.get("attacked"):
            raise IllegalAction("You have already attacked this turn; an attack is once per turn.")
        hero = named(ctx, pid, words, [h for h in living_heroes(ctx) if h not in state["dominated"]], "a hero")
        why = attack.shielded(ctx, hero)
        if why:
            raise IllegalAction(why)
        turn["attacked"] = True
        ctx.say(f"The Lich attacks {ctx.name(hero)} with Knowledge, to stun.", kind="attack")
        knowledge_attack(ctx, pid, hero, "stun")
        return
    if state["special"] == turn["number"]:
        raise IllegalAction("You have already made Life Drain or Dominate this turn.")
    hero = named(ctx, pid, words, [h for h in living_heroes(ctx) if h in state["stunned"]], "a stunned hero")
    if what == "dominate" and trait != "knowledge":
        raise IllegalAction("Dominate is a Knowledge attack.")
    state["special"] = turn["number"]
    if what == "dominate":
        ctx.say(f"The Lich reaches into {ctx.name(hero)}'s mind: Dominate.", kind="attack")
        knowledge_attack(ctx, pid, hero, "dominate")
        return
    ctx.say(f"The Lich feeds on {ctx.name(hero)}: Life Drain, 2 dice, 3+ kills.", kind="attack")
    total = effects.make_roll(ctx, pid, 2, "for Life Drain")
    if total < DRAIN:
        ctx.say(f"{ctx.name(hero)} holds on to life.", kind="haunt")
        return
    s["haunt"]["last_attacker"] = pid
    die(ctx, hero, "the Lich drained their life")
    s["haunt"]["last_attacker"] = None
    for t in TRAITS:
        tr.change(ctx, pid, t, 1)


def free(ctx, pid: str, words: str, trait: str):
    """Secrets of Survival, haunt 25: "Snap Out of It!"."""
    s = ctx.s
    turn = s["turn"]
    state = mine(ctx)
    if pid not in living_heroes(ctx) or pid in state["dominated"]:
        raise IllegalAction("Only a free hero can snap another out of it.")
    if trait != "knowledge":
        raise IllegalAction("Snapping someone out of it is a Knowledge roll.")
    if turn.get("attacked"):
        raise IllegalAction("This takes the place of your attack, which you have made this turn.")
    hero = named(ctx, pid, words, state["stunned"] + state["dominated"], "a stunned or dominated hero")
    condition = "dominated" if hero in state["dominated"] else "stunned"
    turn["attacked"] = True
    target = FREE[condition]
    effects.queue(ctx, pid, [{"do": "roll", "trait": "knowledge", "bands": [
        {"at_least": target, "then": [{"do": "h25_freed", "hero": hero, "condition": condition}]},
        {"at_most": target - 1, "then": []}]}], source="haunt", front=True)


@effects.step("h25_freed")
def _freed(ctx, task, item):
    listed = mine(ctx)[item["condition"]]
    if item["hero"] in listed:
        listed.remove(item["hero"])
        ctx.say(f"{ctx.name(item['hero'])} snaps out of it: no longer {item['condition']}.", kind="haunt",
                player=item["hero"])


def _held_heroes(ctx, pid: str) -> list[str]:
    """The stunned or dominated heroes, in seat order."""
    held = mine(ctx)["stunned"] + mine(ctx)["dominated"]
    return [p for p in ctx.s["seats"] if p in held and p != pid]


@rulesets.register(25)
class ForTheGloryOfTyr(rulesets.RuleSet):
    title = "For the Glory of Tyr"
    secret = ("h25_sites",)  # the numbers still to lay, in order
    secret_token_fields = ("number",)  # what lies under a face-down Obstacle token

    def setup_step(self, ctx, step):
        """Traitor's Tome, haunt 25: "Right Now"."""
        s = ctx.s
        text = step.get("text", "")
        pid = lich(ctx)
        if "leave the room" in text or "now the Lich" in text or "3 small monster" in text:
            return True  # the rules reach each side privately; the Skeletons wait beside the board
        if "Raise Speed and Knowledge" in text:
            tracks = ctx.c.adventurers[s["players"][pid]["adventurer"]].tracks
            for trait, more in (("speed", 1), ("knowledge", 2)):
                below = max(0, tracks[trait].start - s["players"][pid]["traits"][trait])
                tr.change(ctx, pid, trait, below + more)
            ctx.say("Setup: {move:stun} is your Knowledge attack; besides it, on a stunned hero's tile, "
                    "{move:drain} or {move:dominate}.", kind="haunt_setup", to="traitors")
            ctx.say("Setup: on a tile with an Obstacle token, {move:search}; beside a stunned or dominated hero, "
                    "{move:free} (each in place of your attack).", kind="haunt_setup", to="heroes")
            return True
        if step.get("label") == SITE:
            to_place(ctx)[:] = list(range(1, len(s["seats"]) + 1))
            ctx.say(f"Setup: {ctx.name(pid)} lays {len(s['seats'])} numbered Obstacle tokens face down.",
                    kind="haunt_setup")
            effects.queue(ctx, pid, [{"do": "h25_place_site"}], source="haunt")
            return True
        if "any tile" in text:
            effects.queue(ctx, pid, [{"do": "h25_lich_tile"}], source="haunt")
            return True
        return None

    def skull_spared(self, ctx, pid, trait):
        """Traitor's Tome, haunt 25: "Immortality"."""
        return True if pid in hp.traitors(ctx.s) and not mine(ctx)["phylactery"] else None

    def opponents(self, ctx, pid):
        """Secrets of Survival, haunt 25: "Stunned and Dominated" (a dominated
        hero opposes the heroes and sides with the Lich)."""
        state = mine(ctx)
        if not state["dominated"]:
            return None
        free_heroes = [h for h in hp.heroes(ctx.s) if h not in state["dominated"]]
        if pid in free_heroes:
            return [o for o in ctx.s["seats"] if o not in free_heroes]
        return free_heroes

    def shielded(self, ctx, target):
        """The monsters leave a dominated hero, the Lich's ally, alone."""
        if (ctx.s["turn"] or {}).get("monsters") and target in mine(ctx)["dominated"]:
            return f"{ctx.name(target)} is dominated: the Lich's ally."
        return None

    def death(self, ctx, pid, killer):
        state = mine(ctx)
        for listed in (state["stunned"], state["dominated"]):
            if pid in listed:
                listed.remove(pid)

    def win_check(self, ctx):
        """Traitor's Tome, haunt 25: "You Win When..." (every hero killed or
        dominated)."""
        living = living_heroes(ctx)
        if not living and ctx.s["haunt"].get("started"):
            return "traitor", "Every hero is dead."
        if living and all(h in mine(ctx)["dominated"] for h in living):
            return "traitor", "Every hero left is dominated by the Lich."
        return None

    def haunt_goals(self, ctx, pid):
        """A free hero: the battlefield sites while the Phylactery is hidden,
        then the Lich; a dominated hero: the free heroes; the Lich hunts."""
        s = ctx.s
        state = mine(ctx)
        if pid not in living_heroes(ctx) or not st.on_board(s["players"][pid]):
            return None
        if pid in state["dominated"]:
            return {s["players"][h]["tile"] for h in living_heroes(ctx) if h not in state["dominated"]} or None
        sites = {t["tile"] for t in s["tokens"] if t["name"] in SITES}
        if sites and not state["phylactery"]:
            return sites
        foe = lich(ctx)
        return {s["players"][foe]["tile"]} if s["players"][foe]["alive"] else None

    own = OWN
    left_to_players = ("How a dominated hero plays their turns: the book has them act for the Lich, and the bot "
                       "leaves those choices to their player.",)
    moves = (
        rulesets.Move("search", "Search the battlefield", lambda ctx, pid, trait: search(ctx, pid, trait),
                      traits=("knowledge",), who="heroes", instead_of_attack=True,
                      summary="In place of an attack, on a tile with an Obstacle token, Knowledge 3+ turns it over."),
        rulesets.Move("free", "Snap them out of it", lambda ctx, pid, trait, target: free(ctx, pid, target, trait),
                      traits=("knowledge",), who="heroes", instead_of_attack=True,
                      args=(rulesets.Arg("player", _held_heroes, "Which hero?"),),
                      summary="In place of an attack, Knowledge 2+ frees a stunned hero, 4+ a dominated one."),
        rulesets.Move("stun", "Stun a hero", lambda ctx, pid, trait, target: lich_acts(ctx, pid, "stun", target, trait),
                      traits=("knowledge",), who="traitors", instead_of_attack=True,
                      args=(rulesets.Arg("player", lambda ctx, pid: living_heroes(ctx), "Which hero?"),),
                      summary="The Lich's Knowledge attack: a win stuns the hero instead of hurting."),
        rulesets.Move("drain", "Life Drain",
                      lambda ctx, pid, trait, target: lich_acts(ctx, pid, "drain", target, trait), who="traitors",
                      args=(rulesets.Arg("player", lambda ctx, pid: living_heroes(ctx), "Which stunned hero?"),),
                      summary="Once a turn, on a stunned hero's tile: 2 dice, 3+ kills and the Lich gains 1 in "
                              "every trait."),
        rulesets.Move("dominate", "Dominate",
                      lambda ctx, pid, trait, target: lich_acts(ctx, pid, "dominate", target, trait),
                      traits=("knowledge",), who="traitors",
                      args=(rulesets.Arg("player", lambda ctx, pid: living_heroes(ctx), "Which stunned hero?"),),
                      summary="Once a turn, on a stunned hero's tile: a Knowledge attack; a win makes the hero the "
                              "Lich's ally."),
    )
