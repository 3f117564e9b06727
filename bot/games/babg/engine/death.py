"""Death in the haunt (rulebook: Playing the Haunt: a trait at the skull is
death; Haunts With a Hidden Traitor: the dead adventurer's token is turned
over). What cards and powers do about a death answers the "death" hook."""
from . import effects, hooks
from . import state as st
from . import traits as tr

KEEP_ON_DEATH = ("_next_turn", "_settle_event", "_flask_closes", "_attack_over")  # bookkeeping that runs on after a death


def on_zero(ctx, pid: str, trait: str):
    """Rulebook: Playing the Haunt: a trait at the skull is death."""
    die(ctx, pid, f"their {trait.capitalize()} fell to the skull")


def die(ctx, pid: str, why: str):
    """An adventurer dies (a trait at the skull, or a card that says so).
    Items drop as a pile (companions stay there too); a hidden traitor's
    token is turned over (rulebook: Haunts With a Hidden Traitor)."""
    s = ctx.s
    p = s["players"][pid]
    if not p["alive"]:
        return
    p["alive"] = False
    ctx.say(f"{ctx.who(pid)} dies: {why}.", kind="death", player=pid)
    hooks.fire("death", ctx, pid, s["haunt"].get("last_attacker"))
    tokens = s["haunt"].get("hidden_tokens")
    if tokens:
        numbers = st.token_numbers(tokens[pid])
        ctx.say(f"{ctx.name(pid)}'s {'token is' if len(numbers) == 1 else 'tokens are'} turned over: "
                f"{' and '.join(map(str, numbers))}" + (" - the hidden traitor!" if 1 in numbers else "."),
                kind="death")
    for task in s["queue"]:  # what the dead player was still doing stops here
        if task["player"] == pid:
            task["steps"] = [x for x in task["steps"] if x["do"] in KEEP_ON_DEATH]
    if p["cards"]:
        for cid in p["cards"]:  # dropped as they are: a corpse's traits no longer change
            if ctx.c.cards[cid].deck == "event":
                if not hooks.first("discarding", ctx, cid):
                    s["discard"]["event"].append(cid)
            else:
                s["piles"].setdefault(p["tile"], []).append(cid)
        p["cards"], p["held_bonus"] = [], {}
        ctx.say(f"Their belongings lie in a pile on the {ctx.tile_name(p['tile'])}.", kind="death")
    turn = s["turn"]
    if turn and turn["player"] == pid and not turn.get("monsters") and not turn["ending"]:
        turn["ending"] = True
        effects.queue(ctx, pid, [{"do": "_next_turn"}])


tr.AT_SKULL.append(on_zero)
