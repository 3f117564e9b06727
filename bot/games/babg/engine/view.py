"""What one player may see of a game (boardgame.io's playerView): the state
with everything secret from them taken out. Adapters draw and write from a
view, so a picture or a status line cannot show what its reader may not
know.

Secret from everyone: the RNG and the seed (until the game ends), the order
of every deck and tile stack, a haunt module's hidden pieces (the keys its
rule set lists in `secret`, its own record or the fields of it declared
secret, and what lies under its face-down tokens, `secret_token_fields`). Secret from all but their holders: hidden
traitor tokens, and who the traitor is until the table knows."""
import copy

from . import rulesets
from . import state as st
from .undo import SECRET_SENT

HIDDEN = "?"  # stands for a card or tile nobody may see; lists keep their length, so counts still show


def view(state: dict, pid: str | None = None) -> dict:
    """The game as `pid` sees it (None: as the channel sees it)."""
    chain = state.get("undo")
    if chain and "base" in chain:  # the state before a take-back chain holds what this view hides
        state = {**state, "undo": {"player": chain["player"], "actions": len(chain["actions"])}}
    elif chain and chain.get("stop") == SECRET_SENT:  # that a secret went out is itself a secret (a hidden move)
        state = {**state, "undo": {"stop": "that cannot be taken back"}}
    v = copy.deepcopy(state)
    if v.get("phase") != "over":
        v.pop("seed", None)
    v.pop("rng", None)
    v["queue"] = []  # the steps still to run may name what is yet to come
    if v.get("pending"):
        v["pending"] = {k: v["pending"][k] for k in ("player", "kind", "prompt", "options")}
    for piles in ("decks", "stacks", "set_aside"):
        v[piles] = {name: [HIDDEN] * len(cards) for name, cards in v.get(piles, {}).items()}
    for place in v.get("board", {}).values():  # a tile laid face down on another (bot.games.babg.engine.city.cover)
        if place.get("cover"):
            place["cover"] = HIDDEN
    h = v.get("haunt")
    if h and v.get("phase") != "over":
        tokens = h.get("hidden_tokens") or {}
        h["hidden_tokens"] = {p: n for p, n in tokens.items() if p == pid} or None
        if not all(st.known_traitor(state, t) or t == pid for t in h["traitors"]):
            h["traitors"] = [t for t in h["traitors"] if t == pid]
        ruleset = rulesets.REGISTRY.get(h["number"])
        for key in getattr(ruleset, "secret", ()):
            h.pop(key, None)
        own = getattr(ruleset, "own", None)
        if own is not None and own.key in h:  # the haunt's own record hides what it declares secret
            if own.secret:
                h.pop(own.key)
            else:
                for key in own.secret_fields:
                    h[own.key].pop(key, None)
        for token in v.get("tokens", []):  # face-down tokens: what is written under them
            for key in getattr(ruleset, "secret_token_fields", ()):
                token.pop(key, None)
    return v
