"""Haunt 36, The Big Score (Secrets of Survival first; the Traitor's Tome
once the Star of Thay is found).

What the bot carries out:
- Setup: the Star of Thay set beside the board; play starts to the haunt
  revealer's left (the default order for a haunt with no traitor yet).
- The search: the declared move `search` (Knowledge or Speed) on an item
  tile of the catacomb level, once a turn, while the Star is unfound; first
  every other hero on the tile is asked whether they help (each helper takes
  1 off the target of 7); on a success the searcher and the helpers roll
  Speed, ties rolled again, and the highest takes the Star: they become the
  traitor (the Tome's side sent to them alone) and gain 1 Speed; the other
  participants gain 1 Speed and 1 Might; the heroes' second part opens.
- The Star counts as an item: stealing it is offered to whoever wins an
  attack on its holder for 2 or more damage on their tile (the thief becomes
  the traitor, the robbed traitor a hero again with 1 Speed less); the
  moves `drop`, `take` (on its tile) and `give` (to someone on your tile,
  who may refuse), one action with it a turn as with any item; a dead
  holder drops it where they fell.
- Fencing: ending a turn on the Marketplace with the Star, Knowledge 2+
  (+1 per opponent on the tile): success wins, failure gains 1 Knowledge.
- The wins: the Star fenced (the traitor); the last adventurer alive, who
  wins alone (the closing message names them: the dead share nothing).

Left to the players: nothing.
"""
from .. import board as bd
from .. import effects, hooks, rng, rulesets
from .. import haunt_play as hp
from .. import state as st
from .. import tokens as tk
from .. import traits as tr
from ..errors import IllegalAction

KEY = "h36"
STAR = "Star of Thay"
MARKET = "marketplace"
SEARCH_TARGET = 7
FENCE_TARGET = 2
DONE = "h36_star_done"  # in the turn: its player has dropped, taken, offered or stolen the Star this turn


START = {"found": False, "holder": None, "fenced": None, "asked": [], "helpers": []}
# asked/helpers: the search under way (who was asked to help, who helps)
OWN = rulesets.Own(KEY, START, players=("holder", "fenced", "asked", "helpers"))


def mine(ctx) -> dict:
    return rulesets.REGISTRY[36].record(ctx.s)


def state_of(s: dict) -> dict:
    return s["haunt"].get(KEY) or START


def holder(s: dict) -> str | None:
    return state_of(s)["holder"]


def star_tile(s: dict) -> str | None:
    """Where the Star lies when nobody holds it."""
    return next((t["tile"] for t in s["tokens"] if t["name"] == STAR), None)


def search_tiles(ctx) -> set[str]:
    return {t for t in ctx.s["board"] if ctx.c.tiles[t].level == "catacomb" and ctx.c.tiles[t].symbol == "item"}


def make_traitor(ctx, pid: str):
    """The holder of the Star becomes the traitor: the Tome's side goes to
    them alone; a former traitor is a hero again and reads the heroes'
    second part. Ruling: play goes on around the table as before."""
    s, h = ctx.s, ctx.s["haunt"]
    haunt = ctx.c.haunts[h["number"]]
    old = [p for p in hp.traitors(s) if p != pid]
    h["kind"] = "traitor"
    h["traitors"] = [pid]
    ctx.say(f"{ctx.who(pid)} holds the Star of Thay and is now the traitor.", kind="haunt", traitors=[pid])
    for text in hp.rules_texts(ctx, haunt, pid):
        ctx.say(text, kind="secret_rules", to=pid)
    for former in hp.alive(s, old):
        ctx.say(f"{ctx.name(former)} is a hero again.", kind="haunt", player=former)
        for text in hp.rules_texts(ctx, haunt, former, part=2):
            ctx.say(text, kind="secret_rules", to=former)
    hooks.fire("traitor_named", ctx, pid)
    tr.change(ctx, pid, "speed", 1)  # Traitor's Tome, haunt 36: "Right Now"


def take_star(ctx, pid: str, how: str, robbed: str | None = None):
    """`pid` now holds the Star (found, stolen, handed over or picked up)."""
    s = ctx.s
    mine(ctx)["holder"] = pid
    ctx.say(f"{ctx.name(pid)} {how} the Star of Thay.", kind="haunt", player=pid)
    if robbed and robbed in hp.traitors(s):  # Traitor's Tome, haunt 36: "If the Star of Thay Is Stolen"
        tr.change(ctx, robbed, "speed", -1)
    if pid not in hp.traitors(s):
        make_traitor(ctx, pid)


@effects.step("h36_help")
def _help(ctx, task, item):
    """Secrets of Survival, haunt 36, "How to Search": each other hero on
    the tile is asked in turn whether they help."""
    s = ctx.s
    pid = task["player"]
    record = mine(ctx)
    tile = s["players"][pid]["tile"]
    left = [p for p in hp.alive(s, s["seats"]) if p != pid and p not in record["asked"]
            and s["players"][p]["tile"] == tile and st.on_board(s["players"][p])]
    if left:
        effects.ask(ctx, left[0], "h36_help", f"help {ctx.name(pid)} search for the Star of Thay (the target drops "
                    "by 1; if found, you join the Speed roll for it)?", ["Help", "Do not help"], trait=item["trait"])
        return
    target = SEARCH_TARGET - len(record["helpers"])
    ctx.say(f"{ctx.name(pid)} searches for the Star of Thay: {item['trait'].capitalize()} {target}+.", kind="haunt")
    effects.push_front(ctx, [{"do": "roll", "trait": item["trait"], "bands": [
        {"at_least": target, "then": [{"do": "h36_found"}]},
        {"at_most": target - 1, "then": []}]}])


@effects.decision("h36_help")
def _decide_help(ctx, pending, index):
    who, record = pending["player"], mine(ctx)
    record["asked"].append(who)
    if index == 0:
        record["helpers"].append(who)
        ctx.say(f"{ctx.name(who)} helps.", kind="haunt")
    effects.push_front(ctx, [{"do": "h36_help", "trait": pending["data"]["trait"]}])


@effects.step("h36_found")
def _found(ctx, task, item):
    """The Speed roll-off, ties rolled again; the winner takes the Star,
    the others gain 1 Speed and 1 Might."""
    s = ctx.s
    everyone = [task["player"]] + [p for p in mine(ctx)["helpers"] if s["players"][p]["alive"]]
    ctx.say("The Star of Thay is found!", kind="haunt")
    mine(ctx)["found"] = True
    rolling = list(everyone)
    while len(rolling) > 1:
        results = {p: effects.make_roll(ctx, p, rng.dice_count(ctx.value(p, "speed")), "Speed for the Star",
                                        trait="speed") for p in rolling}
        best = max(results.values())
        rolling = [p for p in rolling if results[p] == best]
        if len(rolling) > 1:
            ctx.say("A tie: those tied roll again.", kind="haunt")
    winner = rolling[0]
    take_star(ctx, winner, "grabs")
    hp.open_part_two(ctx, "heroes")  # the heroes' book reads on once the Star is found
    for p in everyone:
        if p != winner:
            tr.change(ctx, p, "speed", 1)
            tr.change(ctx, p, "might", 1)


@effects.step("h36_steal")
def _steal(ctx, task, item):
    s = ctx.s
    if holder(s) == item["loser"]:
        if s["turn"] and s["turn"]["player"] == task["player"]:
            s["turn"][DONE] = True  # stealing is the thief's one action with the Star this turn
        take_star(ctx, task["player"], f"steals from {ctx.name(item['loser'])}", robbed=item["loser"])


@effects.step("h36_fenced")
def _fenced(ctx, task, item):
    mine(ctx)["fenced"] = task["player"]
    hp.check_wins(ctx)  # at once, before the next turn begins


@effects.decision("h36_give")
def _decide_give(ctx, pending, index):
    s = ctx.s
    giver, taker = pending["data"]["giver"], pending["player"]
    if index != 0 or holder(s) != giver:
        ctx.say(f"{ctx.name(taker)} refuses the Star of Thay.", kind="haunt")
        return
    take_star(ctx, taker, f"takes from {ctx.name(giver)}")


@rulesets.register(36)
class TheBigScore(rulesets.RuleSet):
    title = "The Big Score"

    def setup_step(self, ctx, step):
        if step.get("do") != "manual":
            return None
        if step.get("side") == "heroes":
            ctx.say("Setup: the Star of Thay waits beside the board. On an item tile of the catacombs: "
                    "{move:search} (Knowledge or Speed 7+, 1 less per helper). Its holder: {move:drop}, "
                    "{move:give}; anyone on its tile: {move:take}.", kind="haunt_setup")
        return True  # the traitor's steps wait for the Star's finder (take_star)

    own = OWN
    moves = (
        rulesets.Move("search", "Search for the Star of Thay", lambda ctx, pid, trait: search(ctx, pid, trait),
                      traits=("knowledge", "speed"), who="heroes", once_per_turn=True,
                      summary="On a catacomb item tile while the Star is unfound: Knowledge or Speed 7+, 1 less "
                              "for each hero there who helps; the finders roll Speed for it."),
        rulesets.Move("drop", "Drop the Star of Thay", lambda ctx, pid, trait: drop(ctx, pid),
                      allowed=lambda ctx, pid: "You do not hold the Star of Thay." if holder(ctx.s) != pid
                      else star_free(ctx, pid),
                      summary="Its holder leaves the Star on their tile (once a turn, as any item)."),
        rulesets.Move("take", "Take the Star of Thay", lambda ctx, pid, trait: take(ctx, pid),
                      allowed=lambda ctx, pid: star_free(ctx, pid),
                      summary="Pick up the Star lying on your tile: whoever holds it is the traitor."),
        rulesets.Move("give", "Give the Star of Thay", lambda ctx, pid, trait, target: give(ctx, pid, target),
                      args=(rulesets.Arg("player", lambda ctx, pid: takers(ctx, pid), "Who is offered the Star?"),),
                      allowed=lambda ctx, pid: "You do not hold the Star of Thay." if holder(ctx.s) != pid
                      else star_free(ctx, pid),
                      summary="Offer the Star to an adventurer on your tile, who may refuse it."),
    )

    def steal_instead(self, ctx, attacker, loser, amount, distance):
        """Both books, haunt 36, "The Star of Thay" (stolen like an item)."""
        if distance or holder(ctx.s) != loser or attacker not in ctx.s["players"]:
            return None
        return [{"label": "Steal the Star of Thay", "steps": [{"do": "h36_steal", "loser": loser}]}]

    def death(self, ctx, pid, killer):
        s = ctx.s
        if holder(s) == pid:  # Ruling: the Star drops where its holder fell, like their items
            mine(ctx)["holder"] = None
            tk.place(s, STAR, s["players"][pid]["tile"])
            ctx.say(f"The Star of Thay falls on the {ctx.tile_name(s['players'][pid]['tile'])}.", kind="haunt")

    def turn_ending(self, ctx, pid):
        """Traitor's Tome, haunt 36, "Fencing the Star of Thay"."""
        s = ctx.s
        if holder(s) != pid or s["players"][pid]["tile"] != MARKET:
            return None
        rivals = [p for p in hp.alive(s, s["seats"]) if p != pid and st.together(s, p, pid)]
        target = FENCE_TARGET + len(rivals)
        ctx.say(f"{ctx.name(pid)} tries to fence the Star of Thay: Knowledge {target}+.", kind="haunt")
        return [{"do": "roll", "trait": "knowledge", "bands": [
            {"at_least": target, "then": [{"do": "h36_fenced"}]},
            {"at_most": target - 1, "then": [{"do": "gain", "trait": "knowledge", "amount": 1}]}]}]

    def win_check(self, ctx):
        s = ctx.s
        fenced = state_of(s)["fenced"]
        if fenced:
            return "traitor", f"{ctx.name(fenced)} fences the Star of Thay."
        living = hp.alive(s, s["seats"])
        if len(living) == 1 and living[0] in hp.traitors(s):
            return "traitor", f"{ctx.name(living[0])} is the last adventurer alive and wins alone.", \
                "last adventurer alive"
        if len(living) == 1:
            win_alone(ctx, living[0])
            return None
        if not living:
            return None, "Nobody is left alive."
        return None

    def haunt_goals(self, ctx, pid):
        s = ctx.s
        if not state_of(s)["found"]:
            return search_tiles(ctx) or None
        if holder(s) == pid:
            if MARKET in s["board"]:
                return {MARKET}
            return {t for t, _ in bd.open_doorways(ctx.c, s["board"], "city")} or None
        if holder(s):
            return {s["players"][holder(s)]["tile"]}
        return {star_tile(s)} if star_tile(s) else None


def search(ctx, pid: str, trait: str):
    """Secrets of Survival, haunt 36, "How to Search for the Star of Thay"
    (once a turn: Ruling, as for every task roll)."""
    s = ctx.s
    if state_of(s)["found"]:
        raise IllegalAction("The Star of Thay has been found already.")
    if s["players"][pid]["tile"] not in search_tiles(ctx):
        raise IllegalAction("The Star of Thay is searched for on an item tile of the catacomb level.")
    mine(ctx).update(asked=[], helpers=[])
    effects.queue(ctx, pid, [{"do": "h36_help", "trait": trait}], source="haunt", front=True)


def win_alone(ctx, pid: str):
    """Both books, haunt 36, "You Win When..." (Secrets of Survival L4715,
    the Tome L2371): a hero who is the last adventurer alive wins alone,
    not with the heroes who fell: the result names the one winner."""
    hp.finish(ctx, "heroes", f"{ctx.name(pid)} is the last adventurer alive; the fallen share nothing.",
              condition="last adventurer alive", winners=[pid], headline=f"{ctx.name(pid)} wins alone")


def star_free(ctx, pid: str) -> str | None:
    """Rulebook, Use Item and Omen Cards: one action with an item a turn
    (drop, pick up, trade, steal or use), and the Star counts as an item.
    Ruling: offering it to someone who refuses spends that action too."""
    return "You have already handled the Star of Thay this turn." if (ctx.s["turn"] or {}).get(DONE) else None


def drop(ctx, pid: str):
    s = ctx.s
    if holder(s) != pid:
        raise IllegalAction("You do not hold the Star of Thay.")
    s["turn"][DONE] = True
    mine(ctx)["holder"] = None
    tk.place(s, STAR, s["players"][pid]["tile"])
    ctx.say(f"{ctx.name(pid)} drops the Star of Thay on the {ctx.tile_name(s['players'][pid]['tile'])}.",
            kind="haunt")


def take(ctx, pid: str):
    s = ctx.s
    token = next((t for t in tk.on_tile(s, s["players"][pid]["tile"]) if t["name"] == STAR), None) \
        if st.on_board(s["players"][pid]) else None
    if token is None:
        raise IllegalAction("The Star of Thay is not on your tile.")
    s["turn"][DONE] = True
    tk.remove(s, token)
    take_star(ctx, pid, "picks up")


def takers(ctx, pid: str) -> list[str]:
    """The living adventurers on `pid`'s tile, in seat order."""
    s = ctx.s
    if not st.on_board(s["players"][pid]):
        return []
    return [p for p in hp.alive(s, s["seats"]) if p != pid and st.on_board(s["players"][p])
            and st.together(s, pid, p)]


def give(ctx, pid: str, other: str):
    """Ruling: handing the Star over is a trade: the other adventurer, on
    your tile, may refuse."""
    s = ctx.s
    if holder(s) != pid:
        raise IllegalAction("You do not hold the Star of Thay.")
    if other not in takers(ctx, pid):
        raise IllegalAction("Offer the Star to an adventurer on your tile.")
    s["turn"][DONE] = True
    effects.ask(ctx, other, "h36_give", f"take the Star of Thay from {ctx.name(pid)} (whoever holds it is the "
                "traitor)?", ["Take it", "Refuse"], giver=pid)
