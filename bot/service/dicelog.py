"""Dice anyone can check. Every game's chance (dice, shuffles, draws) comes
from one secret seed. At the start the table is shown its commitment, the
SHA-256 of the seed; at the end the seed itself. The game's log (its actions,
every roll's faces, every card and tile drawn) then replays from the seed,
and `verify` confirms that each roll and draw is the one the seed gives.

Before the game ends a log carries no seed, and answers that would point at
a hidden player (how each player answered a claimed win) are left out."""
import hashlib
import json

from bot.kit.errors import IllegalAction

FORMAT = "betrayal-bot-log/1"
PRIVATE_UNTIL_OVER = ("confirm",)  # actions whose author stays hidden while the game runs


def commitment(seed: int) -> str:
    return hashlib.sha256(str(int(seed)).encode()).hexdigest()


def chance(events: list[dict]) -> tuple[list[list[int]], list[str], list[str]]:
    """What chance decided in these events, as everyone saw it: the faces of
    each roll, the cards drawn or taken from a deck, the tiles discovered."""
    rolls, cards, tiles = [], [], []
    for e in events:
        if e.get("to") != "all":
            continue
        if e["kind"] == "roll" and "faces" in e:
            rolls.append(list(e["faces"]))
        elif e["kind"] in ("draw", "take") and e.get("card"):
            cards.append(e["card"])
        elif e["kind"] == "discover" and e.get("tile"):
            tiles.append(e["tile"])
    return rolls, cards, tiles


def build(system, game_id: int, seed: int, options: dict, actions: list[dict], over: bool) -> dict:
    """The log of a game: replayed from its seed (the service holds it) so
    that each action carries what chance gave it."""
    state = system.new_game(seed, dict(options))
    entries = []
    for n, action in enumerate(actions, 1):
        try:
            state, events = system.apply(state, action)
        except IllegalAction:
            events = []  # a state set by hand (tests, tools): the log no longer replays past here
        rolls, cards, tiles = chance(events)
        shown = action if over or action.get("type") not in PRIVATE_UNTIL_OVER else {"type": action["type"],
                                                                                      "player": "hidden"}
        entries.append({"n": n, "action": shown, "rolls": rolls, "cards": cards, "tiles": tiles})
    return {"format": FORMAT, "game": game_id, "system": system.id, "commitment": commitment(seed), "seed": seed if over else None,
            "options": options, "actions": entries}


def dumps(log: dict) -> bytes:
    return json.dumps(log, indent=1, sort_keys=True).encode()


def _faces(faces) -> str:
    return " ".join(map(str, faces)) or "(no dice)"


def verify(system, seed: int, log: dict) -> tuple[bool, list[str]]:
    """(True, summary) when the log is the game the seed gives: the seed
    matches the commitment and every action, roll and draw replays; else
    (False, [the first thing that does not match])."""
    if not isinstance(log, dict) or log.get("format") != FORMAT or not isinstance(log.get("actions"), list):
        return False, [f"This is not a game log of this bot (format {FORMAT})."]
    if log.get("commitment") != commitment(seed):
        return False, [f"The seed {seed} does not match the commitment posted at the start "
                       f"({log.get('commitment')}): its SHA-256 is {commitment(seed)}."]
    if log.get("seed") not in (None, seed):
        return False, [f"The log names another seed ({log['seed']})."]
    options = dict(log.get("options") or {})
    try:
        state = system.new_game(seed, options)
    except IllegalAction as e:
        return False, [f"The log's options cannot be played: {e.reason}"]
    roll_no = card_no = tile_no = 0
    for entry in log["actions"]:
        n, action = entry.get("n"), entry.get("action")
        try:
            state, events = system.apply(state, action)
        except (IllegalAction, TypeError, KeyError) as e:
            return False, [f"Action {n} ({json.dumps(action)}) does not replay: "
                           f"{getattr(e, 'reason', e)}"]
        rolls, cards, tiles = chance(events)
        for i in range(max(len(rolls), len(entry.get("rolls", [])))):
            roll_no += 1
            said = entry.get("rolls", [])[i] if i < len(entry.get("rolls", [])) else None
            given = rolls[i] if i < len(rolls) else None
            if said != given:
                return False, [f"Roll {roll_no} (action {n}, {action.get('type')}) does not match: the log says "
                               f"{_faces(said) if said is not None else 'no roll'}, the seed gives "
                               f"{_faces(given) if given is not None else 'no roll'}."]
        for kind, seen, logged in (("card", cards, entry.get("cards", [])), ("tile", tiles, entry.get("tiles", []))):
            for i in range(max(len(seen), len(logged))):
                if kind == "card":
                    card_no += 1
                else:
                    tile_no += 1
                said = logged[i] if i < len(logged) else None
                given = seen[i] if i < len(seen) else None
                if said != given:
                    return False, [f"Draw {card_no if kind == 'card' else tile_no} of a {kind} (action {n}) does "
                                   f"not match: the log says {said or 'none'}, the seed gives {given or 'none'}."]
    return True, [f"Seed {seed} matches the commitment {commitment(seed)}.",
                  f"All {len(log['actions'])} actions replay: {roll_no} rolls, {card_no} cards and {tile_no} tiles "
                  "are exactly the ones the seed gives."]
