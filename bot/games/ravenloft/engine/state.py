"""The game state (plain JSON data), the context an action runs in, events and the card decks.

State shape (every key a str, no tuples):

- `game` "ravenloft", `phase` "lobby" | "play" | "over", `rng` the generator's whole state,
  `options` {adventure, surges, powers, first_player}, `adventure` the adventure's number;
- `players` {pid: {name, hero, picks (powers asked for in the lobby), and once in play: square "x,y",
  hp, max_hp, level, powers {power id: "ready" | "used"}, items [treasure ids], conditions
  {slowed, immobilized} (one marker each at most), cards [{kind: "monster"|"trap", card}] in the order
  drawn, escaped, bonuses [{kind: "attack"|"ac"|"speed", value, until: turn number, source}]}};
- `seats` the join order (clockwise), `turn` {player, phase: "hero"|"exploration"|"villain", number,
  actions (moves and attacks made), attacked, treasure (drawn this turn), placed (a tile id or None),
  step (where the villain phase stands)} or None;
- `tiles` {placed: {"tx,ty": {tile, name, grid (turned), black, start, rot}}, stack [tile ids]};
- `figures` {fid: {id, monster (content id), name, square, hp, max_hp, villain, large}};
- `decks` {monster|encounter|treasure: {deck [ids], discard [ids]}}; `xp` [card ids] the shared
  experience pile; `environment` a card id or None; `markers` [{id, kind, card, tile, owner}];
- `surges`, `pending` None or {player, prompt, options, kind, ...}, `outcome` None or {result,
  condition, text}, `adv` the adventure's own record, `blessings` [{card, player, until}],
  `log_turn` {turns, actions}, `next_id`; `tally` {defeated [{by, name, xp}], xp_spent, falls {pid: n}}
  for the story at the end; `undo` the take-back (undo.py)."""

import marshal

from bot.kit.rng import shuffle


def copy(state: dict) -> dict:
    """A deep copy of the plain-data state: marshal round-trips dicts, lists, strings and numbers (what
    the state holds, JSON's types), keeping shared parts shared as pickle does, and faster."""
    return marshal.loads(marshal.dumps(state))


class Ctx:
    """What a rule needs while an action runs: the content, the state being changed and the events
    said so far."""

    def __init__(self, content, state: dict, events: list | None = None):
        self.content = content
        self.s = state
        self.events = events if events is not None else []

    def say(self, kind: str, text: str, to: str = "all", **data):
        ev = {"kind": kind, "to": to, "text": text}
        ev.update(data)
        self.events.append(ev)
        return ev

    def new_id(self, prefix: str) -> str:
        self.s["next_id"] = self.s.get("next_id", 0) + 1
        return f"{prefix}{self.s['next_id']}"


def empty_state(seed_value: int, options: dict) -> dict:
    return {
        "game": "ravenloft",
        "version": 1,
        "rng": seed_value,
        "phase": "lobby",
        "options": options,
        "adventure": options["adventure"],
        "players": {},
        "seats": [],
        "turn": None,
        "pending": None,
        "outcome": None,
        "tiles": {"placed": {}, "stack": []},
        "figures": {},
        "decks": {"monster": {"deck": [], "discard": []}, "encounter": {"deck": [], "discard": []},
                  "treasure": {"deck": [], "discard": []}},
        "xp": [],
        "environment": None,
        "markers": [],
        "surges": options.get("surges", 2),
        "adv": {},
        "blessings": [],
        "set_aside": [],
        "log_turn": {"turns": 0, "actions": 0, "round": 0},
        "next_id": 0,
    }


def draw(ctx: Ctx, deck: str):
    """The top card of a deck, its discard pile shuffled in when it runs out (FAQ); None when both are
    empty."""
    d = ctx.s["decks"][deck]
    if not d["deck"]:
        if not d["discard"]:
            return None
        d["deck"] = shuffle(ctx.s, d["discard"])
        d["discard"] = []
        ctx.say("reshuffle", f"The {deck} deck ran out: its discard pile is shuffled into a new deck.")
    return d["deck"].pop(0)


def discard(ctx: Ctx, deck: str, card):
    ctx.s["decks"][deck]["discard"].append(card)


def hero_pids(state: dict) -> list:
    return [p for p in state["seats"] if p in state["players"]]


def active_pid(state: dict):
    t = state.get("turn")
    return t["player"] if t else None


def clockwise_from(state: dict, pid: str) -> list:
    """The seats starting at `pid` and going clockwise (the join order, wrapping)."""
    seats = hero_pids(state)
    if pid not in seats:
        return seats
    i = seats.index(pid)
    return seats[i:] + seats[:i]


def squares_of_heroes(state: dict, standing_only: bool = False) -> dict:
    out = {}
    for pid in hero_pids(state):
        p = state["players"][pid]
        if p.get("square") and not p.get("escaped") and (not standing_only or p["hp"] > 0):
            out[p["square"]] = pid
    return out


def squares_of_figures(state: dict) -> dict:
    out = {}
    for fid, f in state["figures"].items():
        for sq in f.get("squares") or [f["square"]]:
            out[sq] = fid
    return out
