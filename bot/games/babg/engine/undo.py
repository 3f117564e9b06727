"""Take-back: a player's own actions of this turn, back to the last thing
that came out hidden (Board Game Arena's rule: undo within your turn until a
die is rolled, a card or tile drawn, or a secret sent).

After each action the state keeps `undo`, one of:
- a chain: `{"player", "base", "actions", "said"}`: the state from
  before the first action since anything came out (`base`, which never holds
  a chain itself), and the actions since then, all by one player in one turn;
- a stop: `{"stop": reason}`: why nothing can be taken back now.
Taking one back replays every action of the chain but the last from `base`.
Nothing hidden came out meanwhile, so no die or draw is made again: the
replay gives back exactly the state before the last action."""
from bot.kit import undo as kit
from bot.kit.undo import open_to, without_chain  # noqa: F401  (the chain itself is the kit's)

SECRET_SENT = "a secret was sent"  # a stop the view shows as any other: that a secret went out is one itself

# The actions a player may take back (the rest are the lobby, the haunt's
# reveal and its Ready, a handover, ending a turn: never taken back).
UNDOABLE = ("move", "use", "drop", "pickup", "trade", "power", "decide", "task", "monster", "counter", "token",
            "trait", "slay")


def _lengths(piles: dict) -> dict:
    return {name: len(items) for name, items in piles.items()}


def what_came_out(before: dict, after: dict, events: list[dict], player: str) -> str | None:
    """Why an action closes the take-back: something hidden came out, the
    turn moved on, or the game now waits on someone else. None if nothing did."""
    if after["phase"] != before["phase"] or after["phase"] not in ("exploring", "haunt"):
        return "the game moved on to another phase"
    turn, was = after.get("turn"), before.get("turn")
    if not turn or not was or turn.get("number") != was.get("number") or turn["player"] != was["player"]:
        return "a new turn began"
    if _lengths(after["stacks"]) != _lengths(before["stacks"]) or \
            _lengths(after.get("set_aside", {})) != _lengths(before.get("set_aside", {})):
        return "a tile was drawn"
    if _lengths(after["decks"]) != _lengths(before["decks"]):
        return "a card was drawn"
    if after["rng"] != before["rng"]:
        return "dice were rolled"
    if any(e["to"] != "all" for e in events):
        return SECRET_SENT
    pending = after.get("pending")
    if pending and pending["player"] != player:
        return "another player was asked a question"
    return None


def after_action(before: dict, after: dict, action: dict, events: list[dict]):
    """Keep the take-back up to date in `after` (the state the action made)."""
    kit.after_action(before, after, action, events, UNDOABLE, what_came_out,
                     told=lambda e: e["to"] == "all" and e["kind"] != "decision")


def check(state: dict, player: str) -> dict:
    """The chain `player` takes an action back from; IllegalAction saying why not."""
    return kit.check(state, player, "An action can be taken back in its own turn, until a die is rolled, a card "
                                    "or tile is drawn or a secret is sent.")


def taken_back(chain: dict, name: str) -> str:
    return kit.taken_back(chain, name, "their last action")
