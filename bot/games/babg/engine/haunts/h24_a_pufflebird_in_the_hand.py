"""Haunt 24, A Pufflebird in the Hand . . . (Traitor's Tome and Secrets of
Survival; the revealer is the traitor).

What the bot carries out: the traitor's 2 Might; a Cultist of Bhaal on each
hero's tile and the Harper badges on the Elfsong Tavern (data); Drabin
Pufflebird placed on the catacomb tile farthest from the Kitchen Basement,
as an NPC figure on the heroes' side (data: the heroes' chooser is asked only
when several tiles are equally far); picking up Harper badges (the declared
move `badge`, heroes only, one badge each time, where badge tokens lie); the escort
(the declared move `escort`: on Drabin's tile with a badge, before moving, roll
Speed, half the total rounded down and at least 1 is how far you may move
this turn, and Drabin goes with you); Drabin never attacking, defending with
1 more die per hero on his tile and dying to 2 or more damage from one
attack; the traitor's and the Cultists' Might or Sanity attacks, on heroes
and on Drabin (ordinary attacks and monster attacks); a Cultist removed by
any damage; Lord of Murder (the traitor gains 1 Might or Sanity, asked, for
each hero or Cultist killed); the heroes' win when a turn ends with Drabin on
the Mansion, and the traitor's when he dies (data).

Left to the players: nothing.
"""
from .. import attack, effects, hooks, rng, rulesets
from .. import haunt_play as hp
from .. import marks as mk
from .. import state as st
from .. import tokens as tk
from .. import traits as tr
from ..errors import IllegalAction
from ..geometry import distances
from ..sides import monster_by_id

DRABIN = "Drabin Pufflebird"
CULTIST = "Cultist of Bhaal"
BADGE = "Harper badge"
MANSION = "mansion"
DEADLY = 2  # damage in one attack that kills Drabin


# badges: {hero: Harper badges carried}; escort: {"player": hero, "turn": number} for this turn's escort
OWN = rulesets.Own("h24", {"badges": {}, "escort": None}, players=("badges", "escort"))


def mine(ctx) -> dict:
    return rulesets.REGISTRY[24].record(ctx.s)


def drabin(ctx) -> dict | None:
    return next((m for m in ctx.s["monsters"] if m["name"] == DRABIN and not m["dead"]), None)


def lord_of_murder(ctx):
    """Traitor's Tome, haunt 24: "Lord of Murder"."""
    s = ctx.s
    traitor = hp.traitors(s)[0]
    if s["players"][traitor]["alive"]:
        effects.queue(ctx, traitor, [{"do": "gain", "traits": ["might", "sanity"], "amount": 1}], source="haunt",
                      front=True)


@effects.step("h24_home")
def _home(ctx, task, item):
    """Secrets of Survival, haunt 24: "You Win When..." (Drabin on the Mansion
    as the active player's turn ends)."""
    m = drabin(ctx)
    if m and m["tile"] == MANSION and ctx.s["phase"] == "haunt":
        hp.finish(ctx, "heroes", "Drabin Pufflebird is safe in the Mansion.")


def pick_badge(ctx, pid: str):
    """Secrets of Survival, haunt 24: "Retrieving a Harper Badge"."""
    s = ctx.s
    if pid in hp.traitors(s):
        raise IllegalAction("The traitor may not pick up Harper badges.")
    token = next((t for t in tk.on_tile(s, s["players"][pid]["tile"]) if t["name"] == BADGE), None)
    if token is None:
        raise IllegalAction("There is no Harper badge on your tile.")
    tk.remove(s, token)
    badges = mine(ctx)["badges"]
    badges[pid] = badges.get(pid, 0) + 1
    ctx.say(f"{ctx.name(pid)} picks up a Harper badge ({badges[pid]} carried).", kind="haunt", player=pid)


def escort(ctx, pid: str, trait: str):
    """Secrets of Survival, haunt 24: "Special Movement Rules"."""
    s = ctx.s
    turn = s["turn"]
    m = drabin(ctx)
    if trait != "speed":
        raise IllegalAction("The escort rolls Speed.")
    if pid in hp.traitors(s):
        raise IllegalAction("Drabin follows only the heroes.")
    if m is None or not st.beside(s, pid, m):
        raise IllegalAction("You must share Drabin's tile to escort him.")
    if not mine(ctx)["badges"].get(pid):
        raise IllegalAction("Drabin follows only someone carrying a Harper badge.")
    if turn["moved"] or turn["stopped"] or "task:escort" in turn["rolls"]:
        raise IllegalAction("The escort takes the place of your normal movement: roll before you move.")
    turn["rolls"].append("task:escort")
    total = effects.make_roll(ctx, pid, rng.dice_count(ctx.value(pid, "speed")), "Speed to escort Drabin",
                              trait="speed", kind="dice")
    spaces = max(1, total // 2)
    mk.add(ctx, pid, "move_cap", cap=spaces, armed=True)
    mine(ctx)["escort"] = {"player": pid, "turn": turn["number"]}
    ctx.say(f"{ctx.name(pid)} and Drabin may move {spaces} together this turn.", kind="haunt", player=pid)


def attack_drabin(ctx, m: dict, trait: str | None):
    """A Cultist attacks Drabin (Traitor's Tome, haunt 24: "Special Attack
    Rules": Might or Sanity)."""
    s = ctx.s
    turn = s["turn"]
    target = drabin(ctx)
    trait = (trait or "might").lower()
    if trait not in ("might", "sanity"):
        raise IllegalAction("The Cultists attack with Might or Sanity.")
    if m["stunned"]:
        raise IllegalAction(f"{st.monster_called(m)} is stunned and cannot attack.")
    if m["id"] in turn["attacked"]:
        raise IllegalAction(f"{st.monster_called(m)} has already attacked this turn.")
    if target["tile"] != m["tile"]:
        raise IllegalAction(f"Drabin is not on {st.monster_called(m)}'s tile.")
    turn["attacked"].append(m["id"])
    ctx.say(f"{st.monster_called(m)} attacks Drabin Pufflebird with {trait.capitalize()}.", kind="attack")
    a = effects.make_roll(ctx, hp.controller(s), rng.dice_count(m["traits"][trait]),
                          f"{trait.capitalize()} for {st.monster_called(m)}", kind="contest")
    d = attack.defence_roll(ctx, target["id"], trait, target["traits"][trait])
    s["haunt"]["last_attacker"] = m["id"]
    effects.queue(ctx, hp.controller(s), [attack.roll_off(m["id"], target["id"], trait, a, d, False),
                                          {"do": "_attack_over"}], source="attack", front=True)


@rulesets.register(24)
class APufflebirdInTheHand(rulesets.RuleSet):
    title = "A Pufflebird in the Hand . . ."

    def setup_step(self, ctx, step):
        """Traitor's Tome and Secrets of Survival, haunt 24: "Right Now"."""
        s = ctx.s
        text = step.get("text", "")
        if "gains 2 Might" in text:
            tr.change(ctx, hp.traitors(s)[0], "might", 2)
            ctx.say("Setup: you attack with Might or Sanity, Drabin too; in the monster turn a Cultist of Bhaal on "
                    "Drabin's tile may attack him.", kind="haunt_setup", to="traitors")
            return True
        if "escorted" in text:
            ctx.say("Setup: on the Elfsong Tavern {move:badge} picks up a Harper badge; on Drabin's tile with a "
                    "badge, before moving, {move:escort}.", kind="haunt_setup", to="heroes")
            return True
        return None

    def attack_traits(self, ctx, pid, weapon):
        return ["sanity"] if pid in hp.traitors(ctx.s) and not weapon else None

    def defence_dice(self, ctx, defender, trait):
        """Secrets of Survival, haunt 24: "Special Drabin Pufflebird Rules" (1
        more die per hero on his tile)."""
        m = drabin(ctx)
        if m is None or defender != m["id"]:
            return None
        return len([h for h in hp.alive(ctx.s, hp.heroes(ctx.s)) if st.beside(ctx.s, h, m)])

    def monster_hurt(self, ctx, m, kind, amount):
        """Drabin dies to 2 or more damage from one attack; a Cultist that
        takes any damage is removed ("Killing the Cultists")."""
        if m["name"] == DRABIN:
            if amount >= DEADLY:
                m["dead"] = True
                ctx.say(f"Drabin Pufflebird takes {amount} damage and dies.", kind="monster", monster=m["id"])
                hooks.fire("monster_killed", ctx, m["id"])
            else:
                ctx.say("Drabin Pufflebird takes 1 damage and lives.", kind="monster", monster=m["id"])
            return True
        if m["name"] == CULTIST:
            m["dead"] = True
            ctx.say(f"{st.monster_called(m)} is hurt and removed from the game.", kind="monster", monster=m["id"])
            hooks.fire("monster_killed", ctx, m["id"])
            return True
        return None

    def monster_killed(self, ctx, mid):
        if monster_by_id(ctx, mid)["name"] == CULTIST:
            lord_of_murder(ctx)

    def death(self, ctx, pid, killer):
        s = ctx.s
        if pid in hp.heroes(s):
            lord_of_murder(ctx)
            if mine(ctx)["badges"].get(pid):  # Ruling: a dead hero's badges lie on their tile
                for _ in range(mine(ctx)["badges"].pop(pid)):
                    tk.place(s, BADGE, s["players"][pid]["tile"])

    def monster_attack(self, ctx, m, target, trait):
        d = drabin(ctx)
        if d is None or target in ctx.s["players"] or str(target).lower() not in (
                d["id"], DRABIN.lower(), f"{DRABIN.lower()} {d['number']}", "drabin"):
            return None
        attack_drabin(ctx, m, trait)
        return True

    def entered(self, ctx, mover, tile):
        escort_now = mine(ctx)["escort"]
        m = drabin(ctx)
        if m and escort_now and escort_now["player"] == mover and escort_now["turn"] == ctx.s["turn"]["number"]:
            m["tile"], m["half"] = tile, ctx.s["players"][mover]["half"]
            ctx.say(f"Drabin Pufflebird hurries along to the {ctx.tile_name(tile)}.", kind="monster_move",
                    monster=m["id"], tile=tile)

    def turn_ending(self, ctx, pid):
        return [{"do": "h24_home"}]

    def haunt_actions(self, ctx, pid):
        """In the monster turn, each Cultist's attack on Drabin (each tried
        before it is offered)."""
        s = ctx.s
        m = drabin(ctx)
        if (s["turn"] or {}).get("monsters"):
            return [{"type": "monster", "op": "attack", "monster": c["id"], "target": m["id"], "trait": t}
                    for c in s["monsters"] if m and c["name"] == CULTIST and not c["dead"] and c["tile"] == m["tile"]
                    for t in ("might", "sanity")]
        return None

    def haunt_goals(self, ctx, pid):
        """The traitor: Drabin. The heroes: one of them (a badge carrier, or
        the one nearest a badge) fetches a Harper badge, goes to Drabin and
        escorts him to the Mansion; the others guard Drabin (each hero on
        his tile is a defence die for him)."""
        s = ctx.s
        m = drabin(ctx)
        if m is None or not st.on_board(s["players"][pid]):
            return None
        if pid in hp.traitors(s):
            return {m["tile"]}
        escort_now = mine(ctx)["escort"] or {}
        if escort_now.get("player") == pid and escort_now.get("turn") == (s["turn"] or {}).get("number"):
            return {MANSION}
        badges = {t["tile"] for t in s["tokens"] if t["name"] == BADGE}
        if mine(ctx)["badges"].get(pid) or not badges:
            return {m["tile"]}
        team = [h for h in hp.alive(s, hp.heroes(s)) if st.on_board(s["players"][h])]
        if any(mine(ctx)["badges"].get(h) for h in team):
            return {m["tile"]}
        fetcher = min(team, key=lambda h: min(distances(ctx, s["players"][h]["tile"]).get(t, 99) for t in badges))
        return badges if fetcher == pid else {m["tile"]}

    def monster_goals(self, ctx, m):
        """The Cultists go for Drabin."""
        d = drabin(ctx)
        return {d["tile"]} if d and m["name"] == CULTIST else None

    own = OWN
    moves = (
        rulesets.Move("badge", "Pick up a Harper badge", lambda ctx, pid, trait: pick_badge(ctx, pid), who="heroes",
                      summary="Take a Harper badge from your tile."),
        rulesets.Move("escort", "Escort Drabin", lambda ctx, pid, trait: escort(ctx, pid, trait),
                      traits=("speed",), who="heroes",
                      summary="On Drabin's tile with a badge, before moving: roll Speed; Drabin follows you for "
                              "half the total in spaces."),
    )
