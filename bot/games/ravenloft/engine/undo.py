"""Take-back: the `undo` action takes back the seat's last action of its own hero phase, back to
the last thing that came out hidden (a die rolled, a card or a tile drawn, a word to one player
alone), as in Board Game Arena's rule and Baldur's Gate's engine.

After each action the state keeps `undo`, one of:
- a chain `{player, base, actions, said}`: the state from before the first action since anything
  came out (`base`, never holding a chain itself) and the actions since then, all by one player in
  one hero phase;
- a stop `{stop: reason}`: why nothing can be taken back now.
Taking one back replays every action of the chain but the last from `base`; nothing hidden came out
meanwhile, so the replay gives back exactly the state before the last action."""

from bot.kit.errors import IllegalAction

UNDOABLE = ("move", "use", "pickup", "decide")


def _lengths(s: dict) -> tuple:
    return (tuple(len(d["deck"]) for d in s["decks"].values()), len(s["tiles"]["stack"]))


def what_came_out(before: dict, after: dict, events: list, player: str):
    if after["phase"] != "play" or before["phase"] != "play":
        return "the game moved on"
    t, was = after.get("turn"), before.get("turn")
    if not t or not was or t["number"] != was["number"] or t["phase"] != "hero" or t["player"] != player:
        return "the hero phase is over"
    if _lengths(after) != _lengths(before):
        return "a card or a tile was drawn"
    if after["rng"] != before["rng"]:
        return "the die was rolled"
    if any(e.get("to", "all") != "all" for e in events):
        return "a player was told something alone"
    q = after.get("pending")
    if q and q["player"] != player:
        return "another player was asked a question"
    return None


def without_chain(state: dict) -> dict:
    return {k: v for k, v in state.items() if k != "undo"} if "undo" in state else state


def after_action(before: dict, after: dict, action: dict, events: list):
    player, chain = action.get("player"), before.get("undo") or {}
    if action["type"] not in UNDOABLE:
        after["undo"] = {"stop": "that cannot be taken back"}
        return
    reason = what_came_out(before, after, events, player)
    if reason:
        after["undo"] = {"stop": reason}
        return
    if "base" in chain and chain["player"] != player:
        after["undo"] = {"stop": "another player has acted since"}
        return
    said = next((e["text"] for e in events if e.get("to", "all") == "all"), "")
    if "base" in chain:
        after["undo"] = dict(chain, actions=chain["actions"] + [action], said=chain["said"] + [said])
    else:
        after["undo"] = {"player": player, "base": without_chain(before), "actions": [action], "said": [said]}


def open_to(state: dict):
    chain = state.get("undo") or {}
    return chain.get("player") if "base" in chain else None


def check(state: dict, player: str) -> dict:
    chain = state.get("undo") or {}
    if "base" not in chain:
        stop = chain.get("stop")
        why = f": {stop}" if stop and stop != "that cannot be taken back" else ""
        raise IllegalAction(f"There is nothing to take back{why}. A move or a use can be taken back in its own hero "
                            f"phase, until the die is rolled or a card or tile is drawn.")
    if chain["player"] != player:
        raise IllegalAction(f"Only {state['players'][chain['player']]['name']} can take back what they just did.")
    return chain


def taken_back(chain: dict, name: str) -> str:
    said = chain["said"][-1].rstrip(".")
    return f"{name} takes back: {said}." if said else f"{name} takes back the last action."
