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

from bot.kit import undo as kit
from bot.kit.undo import open_to, without_chain  # noqa: F401  (the chain itself is the kit's)

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


def after_action(before: dict, after: dict, action: dict, events: list):
    kit.after_action(before, after, action, events, UNDOABLE, what_came_out, base=without_chain)


def check(state: dict, player: str) -> dict:
    return kit.check(state, player, "A move or a use can be taken back in its own hero phase, until the die is "
                                    "rolled or a card or tile is drawn.")


def taken_back(chain: dict, name: str) -> str:
    return kit.taken_back(chain, name, "the last action")
