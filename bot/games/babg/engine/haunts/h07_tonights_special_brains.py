"""Haunt 7, Tonight's Special: Brains! (Traitor's Tome and Secrets of
Survival). What the data says (rules_data/haunts/07_tonights_special_brains.toml):
the traitor's Knowledge and Sanity back up to their start, then 2 more each;
the Intellect Devourers, one per adventurer, each placed by the traitor on a
tile with no hero and no other Devourer; their Knowledge attacks; the clues'
win on the Elfsong Tavern.

What the bot carries out:
- the Mind Flayer (the first traitor) attacks with Knowledge (its ordinary
  attack, Knowledge the trait it may pick), and eats the brain of each hero
  it kills: Knowledge back up to its start, then 2 more;
- an Intellect Devourer that beats a hero by 3 or more takes the hero's
  body instead of dealing damage: the hero becomes a traitor, is sent the
  Traitor's Tome privately and keeps their place in the turn order;
- a hero who stuns an Intellect Devourer gains 1 Knowledge;
- the clue search, the declared move `clue` (Knowledge, once a turn): on an
  omen tile without an Obstacle token, 5+ puts an Obstacle there and a clue
  on the Elfsong Tavern;
- the wins: the Mind Flayer dead (the turned heroes do not count), or no
  living hero left (killed or turned).

Left to the players: nothing.
"""
from .. import effects, hooks, rulesets
from .. import haunt_play as hp
from .. import tokens as tk
from ..sides import monster_by_id
from .. import traits as tr
from ..errors import IllegalAction

NUMBER = 7
DEVOURER = "Intellect Devourer"
CLUE, OBSTACLE = "Clue", "Obstacle"
TAVERN = "elfsong_tavern"
CLUE_TARGET = 5
TAKEOVER_BY = 3  # Traitor's Tome, haunt 7: "Special Intellect Devourer Attack Rules"


OWN = rulesets.Own("h07", {"flayer": None, "turned": []}, players=("flayer", "turned"))


def mine(ctx) -> dict:
    return rulesets.REGISTRY[NUMBER].record(ctx.s)


def flayer(ctx) -> str | None:
    """The Mind Flayer: the traitor named at the reveal (not a turned hero).
    A read: it never writes the haunt's state."""
    return ctx.s["haunt"].get("h07", {}).get("flayer") or (hp.traitors(ctx.s) or [None])[0]


def playing(ctx) -> bool:
    h = ctx.s.get("haunt")
    return bool(h) and ctx.s.get("phase") == "haunt" and h["number"] == NUMBER


@effects.step("h07_clue")
def _clue(ctx, task, item):
    """Secrets of Survival, haunt 7: "Find the Clues" (a success)."""
    pid = task["player"]
    tk.place(ctx.s, OBSTACLE, item["tile"])
    tk.place(ctx.s, CLUE, TAVERN)
    found = sum(1 for t in ctx.s["tokens"] if t["name"] == CLUE)
    ctx.say(f"{ctx.name(pid)} finds a clue on the {ctx.tile_name(item['tile'])} (an Obstacle token marks it); "
            f"the clue goes to the Elfsong Tavern: {found} of {len(ctx.s['seats'])}.", kind="haunt", player=pid)


@hooks.on("before_outcome", order=90)  # after the cards and powers that change a result (Cursed Armor ...)
def _devourer_takes_over(ctx, task, item):
    """Traitor's Tome, haunt 7: "Special Intellect Devourer Attack Rules": a
    Devourer that beats a hero by 3 or more takes the hero over instead of
    dealing damage."""
    if not playing(ctx):
        return None
    s = ctx.s
    attacker, defender = item["attacker"], item["defender"]
    if attacker in s["players"] or defender not in s["players"] or defender in hp.traitors(s):
        return None
    if monster_by_id(ctx, attacker)["name"] != DEVOURER or item["attack"] - item["defence"] < TAKEOVER_BY:
        return None
    ctx.say(f"The Intellect Devourer wins {item['attack']} to {item['defence']}: it devours "
            f"{ctx.name(defender)}'s brain and slips into the empty skull. {ctx.name(defender)} takes no damage "
            "but is a traitor now, out to kill the other heroes. Welcome to the team.", kind="haunt",
            traitors=[defender])
    turn_traitor(ctx, defender)
    return True


def turn_traitor(ctx, pid: str):
    h = ctx.s["haunt"]
    mine(ctx)["flayer"] = flayer(ctx)
    h["traitors"].append(pid)
    mine(ctx)["turned"].append(pid)
    # Ruling: Haunt 7: a turned hero keeps their seat in the turn order (s["order"] is left as it is).
    haunt = ctx.c.haunts.get(h["number"])
    for text in hp.rules_texts(ctx, haunt, pid):
        ctx.say(text, kind="secret_rules", to=pid)
    hooks.fire("traitor_named", ctx, pid)


@rulesets.register(NUMBER)
class TonightsSpecialBrains(rulesets.RuleSet):
    title = "Tonight's Special: Brains!"
    own = OWN

    def setup_step(self, ctx, step):
        text = step.get("text", "")
        if text.startswith("Your adventurer stays in play"):
            mine(ctx)["flayer"] = flayer(ctx)
            ctx.say("Setup: you are the Mind Flayer. Attack a hero with Knowledge (the trait of your attacks); "
                    "each hero you kill raises your Knowledge. The bot turns a hero your Devourers beat by 3 or "
                    "more.", kind="haunt_setup", to="traitors")
            return True
        if text.startswith("Set aside one triangular quest token"):
            ctx.say(f"Setup: {len(ctx.s['seats'])} clues to find. On an omen tile without an Obstacle token: "
                    "{move:clue} (Knowledge 5+, once per turn); each clue found goes to the Elfsong "
                    "Tavern. Stunning an Intellect Devourer gains you 1 Knowledge.", kind="haunt_setup",
                    to="heroes")
            return True
        if text.startswith("Set aside 13 square Obstacle"):
            return True  # the bot puts an Obstacle on each searched omen tile
        return None

    def attack_traits(self, ctx, pid, weapon):
        """Traitor's Tome, haunt 7: "Special Mind Flayer Attack Rules"."""
        return ["knowledge"] if pid == flayer(ctx) and weapon is None else None

    def death(self, ctx, pid, killer):
        """Traitor's Tome, haunt 7: "Special Mind Flayer Attack Rules" (the
        brain eaten: Knowledge back to its start, then 2 more)."""
        s = ctx.s
        if killer == flayer(ctx) and killer != pid and pid not in hp.traitors(s) and s["players"][killer]["alive"]:
            ctx.say(f"{ctx.name(killer)} eats {ctx.name(pid)}'s brain.", kind="haunt", player=killer)
            hp.restore_traits(ctx, killer, ["knowledge"], {"knowledge": 2})

    def monster_hurt(self, ctx, m, kind, amount):
        """Secrets of Survival, haunt 7: "Determine the Mind Flayer's
        Strategy": the hero who stuns a Devourer gains 1 Knowledge."""
        task = effects.current(ctx)
        pid = task["player"] if task else None
        s = ctx.s
        if m["name"] == DEVOURER and not m["stunned"] and pid in s["players"] and pid not in hp.traitors(s) \
                and s["players"][pid]["alive"]:
            ctx.say(f"{ctx.name(pid)} stuns an Intellect Devourer and learns more of the Mind Flayer's plans.",
                    kind="haunt", player=pid)
            tr.change(ctx, pid, "knowledge", 1)
        return None  # the Devourer is stunned as usual

    def win_check(self, ctx):
        s = ctx.s
        if not hp.alive(s, hp.heroes(s)):
            return ("traitor", "No hero remains: each one is dead or has been taken by an Intellect Devourer.")
        boss = flayer(ctx)
        if boss and not s["players"][boss]["alive"]:
            return ("heroes", "The Mind Flayer is dead.")
        return None

    def haunt_goals(self, ctx, pid):
        """A hero heads for an omen tile not yet searched while clues are
        left to find; the Mind Flayer and the turned hunt the heroes."""
        s = ctx.s
        if pid in hp.traitors(s) or sum(1 for t in s["tokens"] if t["name"] == CLUE) >= len(s["seats"]):
            return None
        searched = {t["tile"] for t in s["tokens"] if t["name"] == OBSTACLE}
        return {t for t in s["board"] if ctx.c.tiles[t].symbol == "omen" and t not in searched} or None

    moves = (
        rulesets.Move("clue", "Search for a clue", lambda ctx, pid, trait: search(ctx, pid, trait),
                      traits=("knowledge",), who="heroes", once_per_turn=True,
                      summary="On an omen tile not yet searched, Knowledge 5+ finds a clue for the Elfsong Tavern."),
    )


def search(ctx, pid: str, trait: str):
    """Secrets of Survival, haunt 7: "Find the Clues"."""
    s = ctx.s
    tile = s["players"][pid]["tile"]
    if pid in hp.traitors(s):
        raise IllegalAction("Only the heroes search for clues.")
    if s["turn"].get("monsters") or s["turn"]["player"] != pid:
        raise IllegalAction("A hero searches for clues in their own turn.")
    if trait != "knowledge":
        raise IllegalAction("Searching for a clue takes a Knowledge roll.")
    if ctx.c.tiles[tile].symbol != "omen":
        raise IllegalAction("Clues are found only on omen tiles.")
    if any(t["name"] == OBSTACLE for t in tk.on_tile(s, tile)):
        raise IllegalAction(f"The {ctx.tile_name(tile)} has already been searched (it has an Obstacle token).")
    if sum(1 for t in s["tokens"] if t["name"] == CLUE) >= len(s["seats"]):
        raise IllegalAction("Every clue has been found.")
    effects.queue(ctx, pid, [{"do": "roll", "trait": "knowledge", "bands": [
        {"at_least": CLUE_TARGET, "then": [{"do": "h07_clue", "tile": tile}]},
        {"at_most": CLUE_TARGET - 1, "then": []}]}], source="haunt", front=True)
