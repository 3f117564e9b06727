"""The shape of a game's state and small readers over it.

A game is one plain dict (see `new_state`); nothing in it but dicts, lists,
strings, numbers, booleans and None, so it saves as JSON as it is.
"""
from .content import TRAITS

STATE_VERSION = 1
MIN_PLAYERS, MAX_PLAYERS = 3, 6


def new_state(seed: int, haunt: str = "play", options: dict | None = None) -> dict:
    return {
        "version": STATE_VERSION,
        "seed": seed,
        # haunt: "play" (the bot runs the haunt) or "stop" (the game ends at the reveal); the table's own
        # options, fixed when the game is made (bot.games.babg.engine.game.check_options): chosen_haunt, rules,
        # avoid_repeats and the haunts already played
        "options": {"haunt": haunt, **(options or {})},
        "rng": seed & ((1 << 64) - 1),
        "phase": "lobby",          # lobby -> exploring -> haunt -> over
        "seats": [],               # player ids in seat order; "left" is the next seat
        "players": {},             # player id -> seat (see `new_player`)
        "order": [],               # turn order: first player, then to the left
        "turn": None,              # the current turn (see `new_turn`)
        "board": {},               # tile id -> {level, x, y, rot, face_down?} (face_down: see bot.games.babg.engine.city)
        "stacks": {},              # tile stack -> tile ids, top first
        "set_aside": {},           # tile stack -> tiles set aside (would have sealed a level)
        "decks": {},               # card deck -> card ids, top first
        "discard": {},             # card deck -> discarded card ids
        "piles": {},               # tile id -> card ids lying there (item piles)
        "tokens": [],              # {name, tile, ...} markers left by cards and haunts (see bot.games.babg.engine.tokens)
        "monsters": [],            # haunt monsters: {id, name, number, tile, traits, stunned, dead, alone?}
        "omens_revealed": 0,
        "pending": None,           # a decision the game waits for (see effects.ask)
        "queue": [],               # effect steps still to resolve, front first
        "haunt": None,
        "result": None,            # how the game ended
    }


def new_player(name: str, adventurer_id: str) -> dict:
    return {
        "name": name,
        "adventurer": adventurer_id,
        "aid_card": None,
        "tile": None,
        "half": None,              # which half of a barrier tile
        "traits": {},              # trait -> 1-based position on the track
        "cards": [],               # card ids held, in the order gained
        "held_bonus": {},          # card id -> {trait: points it actually added}
        "once": [],                # once-per-game things already used
        "marks": [],               # lasting effects on the adventurer (see bot.games.babg.engine.marks)
        "power": {},               # the adventurer power's own tokens (see bot.games.babg.engine.specials.powers)
        "alive": True,
    }


def slot_of(turn: dict) -> str:
    """Whose place in the turn order a turn is: a player's, or "monsters"."""
    return "monsters" if turn.get("monsters") else turn["player"]


def next_round(s: dict, slot: str) -> int:
    """The round of a new turn of `slot` (a player, or "monsters"): a new
    one when play has come back round the turn order, or after a pause
    without a turn, as while the haunt's rules are read (its first turn
    opens a round)."""
    prev, order, current = s.get("turn"), s.get("order") or [], s.get("round", 0)
    if not prev or not current:
        return current + 1
    prev_slot = slot_of(prev)
    if prev_slot not in order or slot not in order or order.index(slot) <= order.index(prev_slot):
        return current + 1
    return current


def new_turn(player_id: str, number: int) -> dict:
    return {
        "player": player_id,
        "number": number,
        "moved": 0,                # spaces moved this turn
        "stopped": False,          # movement over (a card was drawn, a barrier failed)
        "rolls": [],               # rolls attempted this turn (each at most once)
        "used": [],                # cards used, dropped, picked up or traded this turn
        "omens": [],               # [omen id, tile id] for each omen drawn this turn
        "powers": [],              # adventurer powers used this turn
        "extra_moves": 0,          # spaces of movement added this turn (Potion of Speed)
        "ending": False,
    }


def trait_value(content, state: dict, pid: str, trait: str) -> int:
    pos = state["players"][pid]["traits"][trait]
    if pos <= 0:
        return 0
    return content.adventurers[state["players"][pid]["adventurer"]].tracks[trait].values[pos - 1]


def traits_line(content, state: dict, pid: str) -> str:
    return "  ".join(f"{t.capitalize()} {trait_value(content, state, pid, t)}" for t in TRAITS)


def who(content, state: dict, pid: str) -> str:
    """A player as the table names them: 'Ann (Torskar Stonecleaver)'."""
    p = state["players"][pid]
    return f"{p['name']} ({content.adventurers[p['adventurer']].name})"


def current(state: dict) -> str | None:
    return state["turn"]["player"] if state["turn"] else None


def on_board(player: dict) -> bool:
    """Alive and standing on a tile (a Will-o'-Wisp can take a figure off the board)."""
    return player["alive"] and bool(player["tile"]) and not any(m["kind"] == "away" for m in player.get("marks", []))


def players_on(state: dict, tile_id: str, beside: str | None = None) -> list[str]:
    """The adventurers on a tile; with `beside`, only those on that player's
    side of a barrier (rulebook: Special Tiles, barrier tiles: nobody fights
    or deals with anyone across the barrier)."""
    return [pid for pid in state["seats"] if state["players"][pid]["tile"] == tile_id
            and on_board(state["players"][pid]) and (beside is None or together(state, pid, beside))]


def _same_place(a: dict, b: dict) -> bool:
    """The same tile and, on a barrier tile, the same side (no side known: either)."""
    return a["tile"] == b["tile"] and (a.get("half") is None or b.get("half") is None or a["half"] == b["half"])


def beside(state: dict, pid: str, monster: dict) -> bool:
    """An adventurer and a monster on the same tile and side of its barrier
    (a monster's side is the one its controller picked, if any)."""
    p = state["players"][pid]
    return on_board(p) and _same_place(p, monster)


def together(state: dict, a: str, b: str) -> bool:
    """Two adventurers on the same tile and the same side of its barrier."""
    pa, pb = state["players"][a], state["players"][b]
    return on_board(pa) and on_board(pb) and _same_place(pa, pb)


KNOWN_TRAITOR_KINDS = ("traitor", "several_traitors")  # haunts whose traitors are named at the reveal
SIDES = ("traitors", "heroes")  # event audiences beside "all" and one player


def known_traitor(state: dict, pid: str) -> bool:
    """A traitor the table knows: named at the reveal, or a hidden traitor
    whose token is face up. A hidden one is treated like a hero until then,
    or the rules themselves would give them away."""
    h = state.get("haunt")
    return bool(h) and pid in h["traitors"] and (h["kind"] in KNOWN_TRAITOR_KINDS or bool(h.get("unmasked")))


def side_members(state: dict, side: str) -> list[str]:
    """Who reads what is addressed to a side ("traitors" or "heroes"), in
    seat order. Until a hidden traitor is unmasked the table takes everyone
    for a hero, so the heroes' messages reach the hidden traitor too:
    leaving them out would point at them."""
    h = state.get("haunt")
    traitors = h["traitors"] if h else []
    if side == "traitors":
        return [p for p in state["seats"] if p in traitors]
    hidden = bool(h) and bool(h.get("hidden_tokens")) and not h.get("unmasked")
    return [p for p in state["seats"] if hidden or p not in traitors]


def token_numbers(held) -> list[int]:
    """A player's hidden traitor tokens as a list: one number, or several
    where a haunt deals more than one each (haunt data: `hidden_tokens`
    with `each`)."""
    if held is None:
        return []
    return list(held) if isinstance(held, list) else [held]


def left_of(state: dict, pid: str, steps: int = 1) -> str:
    seats = state["seats"]
    return seats[(seats.index(pid) + steps) % len(seats)]


def monster_called(m: dict) -> str:
    """What a monster is called in the game's lines: "the Beholder" when it
    is the only one of its name the haunt has, else its name and number
    ("Gelatinous Cube 2"). Its id never changes."""
    return f"the {m['name']}" if m.get("alone") else f"{m['name']} {m['number']}"
