"""The take-back chain every system keeps in its state (Board Game Arena's rule: undo within your turn
until a die is rolled, a card or tile drawn, or a secret sent).

After each action the state keeps `undo`, one of:
- a chain `{player, base, actions, said}`: the state from before the first action since anything came
  out (`base`) and the actions since then, all by one player;
- a stop `{stop: reason}`: why nothing can be taken back now.
Taking one back replays every action of the chain but the last from `base`: nothing hidden came out
meanwhile, so no die or draw is made again and the replay gives back exactly the state before the last
action. A system says which actions may be taken back and what closes the chain (`came_out`)."""
from .errors import IllegalAction

CANNOT = "that cannot be taken back"


def without_chain(state: dict) -> dict:
    """The state less its take-back, to copy for the next action: the chain's base is kept by reference,
    never copied or changed (a state is never changed once an action has made it)."""
    return {k: v for k, v in state.items() if k != "undo"} if "undo" in state else state


def after_action(before: dict, after: dict, action: dict, events: list, undoable, came_out, *,
                 told=lambda e: e.get("to", "all") == "all", base=lambda s: s):
    """Keep the take-back up to date in `after` (the state the action made). `came_out(before, after,
    events, player)` is why the action closes the chain, or None; `told(event)` picks the public line
    that says what the action did; `base(before)` is what the chain keeps of the state before it."""
    player, chain = action.get("player"), before.get("undo") or {}
    if action["type"] not in undoable:
        after["undo"] = {"stop": CANNOT}
        return
    reason = came_out(before, after, events, player)
    if reason:
        after["undo"] = {"stop": reason}
        return
    if "base" in chain and chain["player"] != player:
        after["undo"] = {"stop": "another player has acted since"}
        return
    said = next((e["text"] for e in events if told(e)), "")
    if "base" in chain:
        after["undo"] = {**chain, "actions": chain["actions"] + [action], "said": chain["said"] + [said]}
    else:
        after["undo"] = {"player": player, "base": base(before), "actions": [action], "said": [said]}


def open_to(state: dict) -> str | None:
    """The player who may take back an action now, if anyone."""
    chain = state.get("undo") or {}
    return chain.get("player") if "base" in chain else None


def check(state: dict, player: str, what_can: str) -> dict:
    """The chain `player` takes an action back from; IllegalAction saying why not (`what_can`: the
    system's sentence on what may be taken back, and until when)."""
    chain = state.get("undo") or {}
    if "base" not in chain:
        stop = chain.get("stop")
        why = f": {stop}" if stop and stop != CANNOT else ""
        raise IllegalAction(f"There is nothing to take back{why}. {what_can}")
    if chain["player"] != player:
        raise IllegalAction(f"Only {state['players'][chain['player']]['name']} can take back what they just did.")
    return chain


def taken_back(chain: dict, name: str, otherwise: str) -> str:
    """The line that tells the table what was taken back."""
    said = chain["said"][-1].rstrip(".")
    return f"{name} takes back: {said}." if said else f"{name} takes back {otherwise}."
