"""Haunt 12, Blackrazor (Traitor's Tome and Secrets of Survival: the
revealer is the traitor).

What the bot carries out:
- the Ioun Stones face down: the bot places them, asking the heroes where
  within the order the book sets;
- a hero picks one up with the declared move `ioun` (Knowledge 3+, once a
  turn); only the finder is told which stone it is; its use with the
  declared move `use` (the stone's number, offered only to its holder);
- A Cursed Weapon: Blackrazor (the Berserker Axe) cannot be stolen while its
  owner lives (the card itself cannot be dropped or traded); a hero with
  the Shiny Rock on the traitor's tile may try it on the sword with the
  declared move `rock`: the rock is discarded and the hero rolls 1 die (2:
  the traitor takes 1 physical damage; 1: nothing; 0: the hero takes 1
  mental damage);
- killing the traitor wins with the Leadership stone; without it the killer
  inherits the curse: they become the traitor, receive the Tome privately,
  and the turn order is laid again;
- Devour Soul asks the traitor which trait gains 2.

Left to the players: nothing."""
from .. import cards as cd
from .. import effects, hooks, rng, rulesets
from .. import haunt_play as hp
from .. import state as st
from .. import tokens as tk
from .. import traits as tr
from ..errors import IllegalAction

STONE = "Ioun Stone"
NAMES = {1: "Leadership", 2: "Mastery", 3: "Strength", 4: "Agility", 5: "Intellect", 6: "Insight"}
BOOSTS = {3: "might", 4: "speed", 5: "knowledge", 6: "sanity"}  # stones that mend and raise a trait
LEADERSHIP = 1
FILL_ORDER = ("event", "omen", "item", "none")  # Secrets of Survival, haunt 12: "Right Now"
PICK_TARGET = 3
BLACKRAZOR = "berserker_axe"


SHINY_ROCK = "shiny_rock"
OWN = rulesets.Own("h12", {"to_place": [], "held": {}, "won": None}, players=("held",), secret=True)


def mine(ctx) -> dict:
    return rulesets.REGISTRY[12].record(ctx.s)


def held(ctx, pid: str) -> list[int]:
    return mine(ctx)["held"].setdefault(pid, [])


def what_it_does(number: int) -> str:
    if number == LEADERSHIP:
        return "the curse of Blackrazor cannot touch you; kill the traitor while you hold it and the heroes win"
    if number == 2:
        return "use it to look at the top 3 item cards and keep one"
    return f"use it to bring your {BOOSTS[number].capitalize()} up to its starting value, then gain 2"


def stone_tiles(ctx) -> list[str]:
    """The tiles the next stone may go on: the first kind in the fill order
    with a tile free of adventurers and stones; when none is free, any
    tile without a stone (Ruling), else any tile."""
    s = ctx.s
    people = {p["tile"] for p in s["players"].values() if p["alive"]}
    stones = {t["tile"] for t in s["tokens"] if t["name"] == STONE}
    for symbol in FILL_ORDER:
        free = [t for t in s["board"] if ctx.c.tiles[t].symbol == symbol and t not in people and t not in stones]
        if free:
            return sorted(free, key=ctx.tile_name)
    return sorted([t for t in s["board"] if t not in stones] or list(s["board"]), key=ctx.tile_name)


@effects.step("h12_place_stone")
def _place_stone(ctx, task, item):
    if not mine(ctx)["to_place"]:
        ctx.say("Setup: every Ioun Stone lies face down on the board.", kind="haunt_setup")
        return
    task["steps"].insert(0, item)  # again, until every stone is down
    tiles = stone_tiles(ctx)
    if len(tiles) == 1:
        put_stone(ctx, tiles[0])
        return
    effects.ask(ctx, task["player"], "h12_stone_tile", f"where does the next face-down Ioun Stone go "
                f"({len(mine(ctx)['to_place'])} left)?", [ctx.tile_name(t) for t in tiles], tiles=tiles)


@effects.decision("h12_stone_tile")
def _decide_stone_tile(ctx, pending, index):
    put_stone(ctx, pending["data"]["tiles"][index])


def put_stone(ctx, tile: str):
    tk.place(ctx.s, STONE, tile, stone=mine(ctx)["to_place"].pop(0))
    ctx.say(f"A face-down Ioun Stone is placed on the {ctx.tile_name(tile)}.", kind="token", tile=tile)


@effects.step("h12_found")
def _found(ctx, task, item):
    pid = task["player"]
    token = next((t for t in tk.on_tile(ctx.s, ctx.s["players"][pid]["tile"]) if t["name"] == STONE), None)
    if token is None:
        return
    tk.remove(ctx.s, token)
    held(ctx, pid).append(token["stone"])
    ctx.say(f"{ctx.name(pid)} picks up an Ioun Stone and looks at it in secret.", kind="haunt", player=pid)
    number = token["stone"]
    ctx.say(f"Your Ioun Stone is number {number}, {NAMES[number]}: {what_it_does(number)}."
            + ("" if number == LEADERSHIP else " Use it when you wish: {move:use}."), kind="secret", to=pid)


@rulesets.register(12)
class Blackrazor(rulesets.RuleSet):
    title = "Blackrazor"
    secret = ("h12",)  # which stone is which, and who holds which
    secret_token_fields = ("stone",)  # the number under a face-down stone

    def setup_step(self, ctx, step):
        s = ctx.s
        text = step.get("text", "")
        if "numbered 1" in text:
            mine(ctx)["to_place"] = rng.shuffle(s, list(range(1, len(s["seats"]) + 1)))
            ctx.say(f"Setup: {len(s['seats'])} Ioun Stones, numbered and face down, are shuffled.",
                    kind="haunt_setup")
            placer = hp.turn_order(s)[0]  # the hero on the traitor's left
            effects.queue(ctx, placer, [{"do": "h12_place_stone"}], source="haunt")
            return True
        if "one at a time" in text:
            return True  # the placing queued above
        if text.startswith("(Reconstructed)"):
            if "Berserker Axe" in text:
                ctx.say("Setup: the Berserker Axe you hold is Blackrazor.", kind="haunt_setup", to="traitors")
            return True
        return None

    def death(self, ctx, pid, killer):
        s = ctx.s
        if held(ctx, pid):  # the dead drop what they carry: the stones lie face down where they fell
            for number in held(ctx, pid):
                tk.place(s, STONE, s["players"][pid]["tile"], stone=number)
            ctx.say(f"{ctx.name(pid)}'s Ioun Stones fall face down on the {ctx.tile_name(s['players'][pid]['tile'])}.",
                    kind="haunt")
            mine(ctx)["held"][pid] = []
        if pid in hp.traitors(s):
            owner_killed(ctx, pid, killer)
        elif killer in hp.traitors(s) and s["players"][killer]["alive"]:
            # Traitor's Tome, haunt 12: "Devour Soul"
            effects.queue(ctx, killer, [{"do": "gain", "traits": "any", "amount": 2}], source="haunt", front=True)

    def win_check(self, ctx):
        won = mine(ctx)["won"]
        return ("heroes", won) if won else None

    def card_stealable(self, ctx, card):
        """Traitor's Tome, haunt 12: "A Cursed Weapon" (Blackrazor cannot be
        stolen until the traitor is killed)."""
        if card == BLACKRAZOR and owner(ctx) is not None:
            return False
        return None

    def haunt_goals(self, ctx, pid):
        """A hero collects the face-down stones, then goes after the traitor;
        the traitor hunts the heroes."""
        s = ctx.s
        if pid in hp.traitors(s):
            return None
        stones = {t["tile"] for t in s["tokens"] if t["name"] == STONE}
        return stones or {s["players"][p]["tile"] for p in hp.alive(s, hp.traitors(s))} or None

    own = OWN
    moves = (
        rulesets.Move("ioun", "Pick up an Ioun Stone", lambda ctx, pid, trait: pick_up(ctx, pid, trait),
                      traits=("knowledge",), who="heroes", once_per_turn=True,
                      summary="On a tile with a face-down Ioun Stone, a Knowledge roll of 3+ picks it up; only "
                              "the finder learns which stone it is."),
        rulesets.Move("use", "Use an Ioun Stone", lambda ctx, pid, trait, number: use_stone(ctx, pid, number),
                      args=(rulesets.Arg("number", lambda ctx, pid: usable_stones(ctx, pid), "Which stone?"),),
                      summary="Spend a stone you hold (not Leadership): Mastery keeps 1 of the top 3 items; the "
                              "others mend a trait to its start, then add 2."),
        rulesets.Move("rock", "Try the Shiny Rock on Blackrazor", lambda ctx, pid, trait: tempt(ctx, pid),
                      who="heroes", allowed=lambda ctx, pid: rock_closed(ctx, pid),
                      summary="With the Shiny Rock on the traitor's tile: discard it and roll 1 die; 2 hurts the "
                              "traitor 1 physical, 0 hurts you 1 mental."),
    )


def owner_killed(ctx, owner: str, killer: str | None):
    """Secrets of Survival, haunt 12: "You Win When..." and "Special Attack
    Rules"; Traitor's Tome, haunt 12: "Special Attack Rules"."""
    s = ctx.s
    if killer not in s["players"] or killer == owner or not s["players"][killer]["alive"]:
        # Ruling: the owner died by no hero's hand, so nobody takes up the curse.
        mine(ctx)["won"] = "Blackrazor's owner is dead and nobody took up its curse."
        return
    if LEADERSHIP in held(ctx, killer):
        mine(ctx)["won"] = f"{ctx.name(killer)} slew Blackrazor's owner, shielded by the Leadership Ioun Stone."
        return
    h = s["haunt"]
    h["traitors"] = [killer]
    if BLACKRAZOR in s["players"][owner]["cards"]:
        cd.lose(ctx, owner, BLACKRAZOR)
        cd.gain(ctx, killer, BLACKRAZOR)
    s["order"] = hp.turn_order(s)
    ctx.say(f"Blackrazor's curse passes to {ctx.who(killer)}, who takes up the sword and becomes the new "
            "traitor.", kind="haunt", traitors=[killer])
    haunt = ctx.c.haunts.get(h["number"])
    for text in hp.rules_texts(ctx, haunt, killer):
        ctx.say(text, kind="secret_rules", to=killer)
    hooks.fire("traitor_named", ctx, killer)


def owner(ctx) -> str | None:
    """Blackrazor's owner while the curse holds: the living traitor holding it."""
    s = ctx.s
    return next((p for p in hp.traitors(s) if s["players"][p]["alive"] and BLACKRAZOR in s["players"][p]["cards"]),
                None)


def usable_stones(ctx, pid: str) -> list[int]:
    return sorted({n for n in (mine(ctx)["held"].get(pid) or []) if n != LEADERSHIP})


def rock_closed(ctx, pid: str) -> str | None:
    s = ctx.s
    if SHINY_ROCK not in s["players"][pid]["cards"]:
        return "You do not hold the Shiny Rock."
    if SHINY_ROCK in s["turn"]["used"]:
        return "You have already used, dropped, picked up or traded the Shiny Rock this turn."
    sword = owner(ctx)
    if sword is None or not st.together(s, pid, sword):
        return "Blackrazor's owner is not on your tile."
    return None


def tempt(ctx, pid: str):
    """Traitor's Tome, haunt 12: "A Cursed Weapon" (the Shiny Rock cannot
    take Blackrazor: it is discarded and the hero rolls a die)."""
    ctx.say(f"{ctx.name(pid)} holds the Shiny Rock out to Blackrazor.", kind="haunt", player=pid)
    cd.discard(ctx, SHINY_ROCK)
    effects.queue(ctx, pid, [{"do": "roll", "dice": 1, "bands": [
        {"at_least": 2, "then": [{"do": "h12_say", "text": "Blackrazor is torn between owners."},
                                 {"do": "h12_hurt_owner"}]},
        {"at_least": 1, "at_most": 1, "then": [{"do": "h12_say", "text": "Nothing happens; the rock still shines."}]},
        {"at_most": 0, "then": [{"do": "h12_say", "text": "Laughter rings in the hero's mind."},
                                {"do": "damage", "kind": "mental", "amount": 1}]}]}], source="haunt", front=True)


@effects.step("h12_say")
def _say(ctx, task, item):
    ctx.say(item["text"], kind="haunt")


@effects.step("h12_hurt_owner")
def _hurt_owner(ctx, task, item):
    sword = owner(ctx)
    if sword is not None:
        effects.queue(ctx, sword, [{"do": "damage", "kind": "physical", "amount": 1}], source="haunt",
                      front=True)


def pick_up(ctx, pid: str, trait: str):
    """Secrets of Survival, haunt 12: "How to Collect Ioun Stones" (once per
    turn, Knowledge 3+)."""
    s = ctx.s
    if trait != "knowledge":
        raise IllegalAction("Picking up an Ioun Stone takes a Knowledge roll.")
    if pid in hp.traitors(s):
        raise IllegalAction("The Ioun Stones are for the heroes.")
    if not any(t["name"] == STONE for t in tk.on_tile(s, s["players"][pid]["tile"])):
        raise IllegalAction("There is no Ioun Stone on your tile.")
    effects.queue(ctx, pid, [{"do": "roll", "trait": "knowledge", "bands": [
        {"at_least": PICK_TARGET, "then": [{"do": "h12_found"}]},
        {"at_most": PICK_TARGET - 1, "then": []}]}], source="haunt", front=True)


def use_stone(ctx, pid: str, number: int):
    """Secrets of Survival, haunt 12: "How to Collect Ioun Stones" (each
    stone but Leadership is discarded once used)."""
    if number not in usable_stones(ctx, pid):
        raise IllegalAction("You hold no such Ioun Stone to use.")
    held(ctx, pid).remove(number)
    ctx.say(f"{ctx.name(pid)} uses the {NAMES[number]} Ioun Stone.", kind="haunt", player=pid)
    if number == 2:
        effects.queue(ctx, pid, [{"do": "pick", "deck": "item", "look": 3}], source="haunt", front=True)
        return
    trait = BOOSTS[number]
    p = ctx.s["players"][pid]
    start = ctx.c.adventurers[p["adventurer"]].tracks[trait].start
    if p["traits"][trait] < start:
        tr.change(ctx, pid, trait, start - p["traits"][trait])
    tr.change(ctx, pid, trait, 2)
