"""Haunt 22, Battle of the Bhaalspawn (Traitor's Tome; every adventurer is a
traitor, Secrets of Survival holds only a stub).

What the bot carries out: the item draw (from the haunt revealer to the
left, one card each time round, until each has drawn 3 or the item deck is
empty); the revealer playing again first, then turns to the left (the data's
`turn_order = "revealer_first"`); every adventurer the opponent of every
other (anyone may attack anyone, and everyone slows everyone who leaves
their tile); and the win of the last Bhaalspawn alive.

Left to the players: nothing.
"""
from .. import effects, rulesets
from .. import haunt_play as hp

NEW_ITEMS = 3


@rulesets.register(22)
class BattleOfTheBhaalspawn(rulesets.RuleSet):
    own = rulesets.Own("h22", {"empty": False})  # whether the item deck ran out in the setup's drawing
    title = "Battle of the Bhaalspawn"

    def setup_step(self, ctx, step):
        """Traitor's Tome, haunt 22: "Right Now"."""
        s = ctx.s
        text = step.get("text", "")
        if "draws 1 item card" in text:
            start = s["seats"].index(s["haunt"]["revealer"])
            around = [s["seats"][(start + k) % len(s["seats"])] for k in range(len(s["seats"]))]
            for _ in range(NEW_ITEMS):
                for pid in hp.alive(s, around):
                    effects.queue(ctx, pid, [{"do": "h22_draw"}], source="haunt")
            return True
        if "stays in play" in text or "another turn" in text:
            return True  # the reveal named everyone a traitor; the data's turn order starts with the revealer
        return None

    def opponents(self, ctx, pid):
        """Traitor's Tome, haunt 22: "What You Know About Your Fellow Traitors"
        (every other Bhaalspawn hunts you)."""
        return [o for o in ctx.s["seats"] if o != pid]

    def haunt_goals(self, ctx, pid):
        """Every Bhaalspawn hunts the others: their tiles."""
        s = ctx.s
        return {s["players"][o]["tile"] for o in hp.alive(s, s["seats"])
                if o != pid and s["players"][o]["tile"] in s["board"]} or None

    def win_check(self, ctx):
        """Traitor's Tome, haunt 22: "You Win When..."."""
        s = ctx.s
        living = hp.alive(s, s["seats"])
        if len(living) == 1:
            return "traitor", f"{ctx.who(living[0])} is the last Bhaalspawn alive."
        return None


@effects.step("h22_draw")
def _draw(ctx, task, item):
    """One item card each time round; nothing more once the deck is empty."""
    s = ctx.s
    if not s["decks"]["item"]:
        mine = rulesets.REGISTRY[22].record(s)
        if not mine["empty"]:
            mine["empty"] = True
            ctx.say("The item deck is empty: the drawing stops.", kind="haunt_setup")
        return
    effects.push_front(ctx, [{"do": "draw", "deck": "item"}])
