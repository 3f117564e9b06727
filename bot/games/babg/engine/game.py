"""The engine's front door: a new game, and `apply(state, action)`.

An action is a dict with a `type` and the acting `player` id:
  join {name, adventurer}   leave   start
  move {way}                roll {trait? | what?}   use / drop / pickup {card}
  trade {card, to}          decide {choice}   power {target?, trait?}   end
"""
import pickle

from . import actions, cards, effects, hooks, moves, specials, turns
from . import state as st
from . import tokens as tk
from .ctx import Ctx
from .content import TRAITS
from .errors import IllegalAction
from . import undo
from . import attack, haunt_moves, haunt_play, haunts, rulesets  # noqa: F401  (haunts: registers their rule sets)
from . import traits as trs


def clone(state: dict) -> dict:
    # The state is plain data; pickle copies it faster than copy.deepcopy.
    return pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))


def rename_player(s: dict, old: str, new: str):
    """Every place the state names a player, renamed."""
    s["players"] = {new if k == old else k: v for k, v in s["players"].items()}
    s["seats"] = [new if p == old else p for p in s["seats"]]
    s["order"] = [new if p == old else p for p in s["order"]]
    if s["turn"] and s["turn"]["player"] == old:
        s["turn"]["player"] = new
    if s["pending"]:  # a question's data and the steps still to run may name players anywhere (a giver, a victim)
        s["pending"] = rulesets.renamed(s["pending"], old, new)
    s["queue"] = rulesets.renamed(s["queue"], old, new)
    h = s["haunt"]
    if h:
        h["revealer"] = new if h["revealer"] == old else h["revealer"]
        if h.get("last_attacker") == old:
            h["last_attacker"] = new
        h["traitors"] = [new if p == old else p for p in h["traitors"]]
        if h.get("hidden_tokens"):
            h["hidden_tokens"] = {new if k == old else k: v for k, v in h["hidden_tokens"].items()}
        if h.get("ready"):
            h["ready"] = [new if p == old else p for p in h["ready"]]
        claim = h.get("claim")
        if claim:
            claim["by"] = new if claim["by"] == old else claim["by"]
            claim["waiting"] = [new if p == old else p for p in claim["waiting"]]
        ruleset = rulesets.REGISTRY.get(h["number"])
        if ruleset is not None:
            rulesets.rename_in_record(ruleset, s, old, new)
    specials.rename_player(s, old, new)


def roll_offers(ctx, pid: str) -> list[tuple[str, str, tuple]]:
    """(source, name, steps) of each roll the player's tile offers: the
    tile's own and those of cards lying on it. A tile roll the player has
    finished with for the game (Forgotten Cache) is not offered."""
    p = ctx.s["players"][pid]
    if not st.on_board(p):
        return []
    tile = ctx.c.tiles[p["tile"]]
    offers = []
    if tile.effects.get("action") and f"action:{tile.id}" not in p["once"] \
            and not ctx.s["board"][tile.id].get("face_down"):  # a face-down tile's text is hidden
        offers.append((tile.id, tile.name, tile.effects["action"]))
    for cid in tk.cards_on(ctx.s, tile.id):
        steps = ctx.c.cards[cid].on_tile.get("action")
        if steps:
            offers.append((cid, ctx.card_name(cid), steps))
    return offers


RULES = ("baldurs-gate", "legacy-house-rules")  # the rules a table may play by (bot.games.babg.engine.specials.house_rules)
OPTION_KEYS = ("chosen_haunt", "rules", "avoid_repeats", "played", "map", "chronicle")
MAP_SETTINGS = ("turn", "round", "request")  # when the channel gets the map: each turn, each round, on /map only


def check_options(content, options: dict | None) -> dict:
    """The table's options, checked: `chosen_haunt` (a haunt number played
    in place of the chart's), `rules` (a list of RULES), `avoid_repeats`
    (the rulebook's optional rule Selecting the Haunt) with `played`, the
    haunt numbers this server has played, `map` (MAP_SETTINGS: when the
    table is shown the map; no rule reads it). Plain data, as the state is."""
    options = dict(options or {})
    unknown = set(options) - set(OPTION_KEYS)
    if unknown:
        raise IllegalAction(f"Unknown game option {sorted(unknown)[0]!r}.")
    out = {}
    chosen = options.get("chosen_haunt")
    if chosen is not None:
        if type(chosen) is not int or chosen not in content.traitor_rules:
            raise IllegalAction(f"There is no haunt {chosen}: choose a number from 1 to {max(content.traitor_rules)}.")
        out["chosen_haunt"] = chosen
    rules = options.get("rules") or []
    if isinstance(rules, str) or any(r not in RULES for r in rules):
        raise IllegalAction(f"Unknown rules {rules!r}: choose from {', '.join(RULES)}.")
    out["rules"] = sorted(set(rules) - {"baldurs-gate"})
    out["avoid_repeats"] = bool(options.get("avoid_repeats"))
    out["played"] = sorted({int(n) for n in options.get("played") or [] if int(n) in content.traitor_rules})
    shown = options.get("map") or "turn"
    if shown not in MAP_SETTINGS:
        raise IllegalAction(f"Unknown map setting {shown!r}: choose from {', '.join(MAP_SETTINGS)}.")
    if shown != "turn":
        out["map"] = shown
    if options.get("chronicle"):  # a chapter of a campaign: its families and heirlooms (specials/legacy.py)
        out["chronicle"] = dict(options["chronicle"])
    return out


MONSTER_TURN_ACTIONS = ("monster", "end", "decide", "counter", "token", "declare", "confirm", "part_two", "handover",
                        "unmask", "ready", "slay", "trait", "task")  # task: a haunt's monster action (a charge)


class Engine:
    def __init__(self, content):
        self.content = content

    def new_game(self, seed: int, haunt: str = "play", options: dict | None = None) -> dict:
        """A new game; `haunt="stop"` ends it at the haunt's reveal. `options`
        are the table's choices (see check_options), kept in the state so
        the game replays exactly from its seed and log."""
        return st.new_state(seed, haunt, check_options(self.content, options))

    def apply(self, state: dict, action: dict) -> tuple[dict, list[dict]]:
        """Return the state after `action` and the events it produced; the
        given state is left untouched. Raises IllegalAction with a reason a
        player can read."""
        action = actions.check(action)
        if action["type"] == "undo":
            return self._take_back(state, action["player"])
        new, events = self._apply(state, action)
        undo.after_action(state, new, action, events)
        return new, events

    def _take_back(self, state: dict, pid: str) -> tuple[dict, list[dict]]:
        """The state before `pid`'s last action: their chain of this turn
        replayed from its base but for that action (see bot.games.babg.engine.undo)."""
        if pid not in state["players"]:
            raise IllegalAction("You are not playing in this game.")
        chain = undo.check(state, pid)
        s = chain["base"]
        for earlier in chain["actions"][:-1]:
            s, _ = self.apply(s, earlier)
        s = clone(s) if s is chain["base"] else s
        return s, [{"kind": "undo", "to": "all", "text": undo.taken_back(chain, state["players"][pid]["name"]),
                    "player": pid}]

    def _apply(self, state: dict, action: dict) -> tuple[dict, list[dict]]:
        ctx = Ctx(self.content, clone(undo.without_chain(state)))  # (the action sets the take-back anew)
        waiting = ctx.s["pending"]
        self._dispatch(ctx, action)
        effects.run(ctx)
        turn = ctx.s["turn"]
        if turn and "round" not in turn:
            # a turn a haunt began its own way, not through begin_turn, counts its round too
            ctx.s["round"] = turn["round"] = st.next_round({**ctx.s, "turn": state["turn"]}, st.slot_of(turn))
        if ctx.s["phase"] == "haunt":
            haunt_play.check_wins(ctx)
        if waiting and ctx.s["pending"] != waiting and action["type"] not in ("decide", "handover") \
                and ctx.s["phase"] != "over":
            # A question put to one player is never replaced by another's action.
            raise IllegalAction(f"Waiting for {ctx.name(waiting['player'])} to answer: {waiting['prompt']}")
        return ctx.s, ctx.ev

    def replay(self, seed: int, actions, haunt: str = "play", options: dict | None = None) -> tuple[dict, list[dict]]:
        state, events = self.new_game(seed, haunt, options), []
        for action in actions:
            state, ev = self.apply(state, action)
            events.extend(ev)
        return state, events

    # --- dispatch -----------------------------------------------------------

    def _dispatch(self, ctx: Ctx, action: dict):
        kind, pid = action["type"], action["player"]
        handler = getattr(self, f"_do_{kind}")
        turn = ctx.s.get("turn") or {}
        if turn.get("monsters") and kind not in MONSTER_TURN_ACTIONS and not ctx.s["pending"]:
            raise IllegalAction("It is the monster turn: move or attack with the monsters, then end the turn.")
        handler(ctx, pid, action)

    def _seated(self, ctx, pid):
        if pid not in ctx.s["players"]:
            raise IllegalAction("You are not playing in this game. Join it first (before it starts).")

    def _on_turn(self, ctx, pid, deciding: bool = False):
        """The common checks for a turn action (rulebook: On Your Turn)."""
        s = ctx.s
        self._seated(ctx, pid)
        if s["phase"] == "lobby":
            raise IllegalAction("The game has not started yet.")
        if s["phase"] == "over":
            raise IllegalAction("This game is over.")
        pending = s["pending"]
        if pending and not deciding:
            if pending["player"] == pid:
                raise IllegalAction(f"First answer: {pending['prompt']} "
                                    f"({'; '.join(f'{i + 1}. {o}' for i, o in enumerate(pending['options']))}).")
            raise IllegalAction(f"Waiting for {ctx.name(pending['player'])} to answer: {pending['prompt']}")
        if deciding:
            return
        if s["phase"] == "haunt" and not (s["haunt"] or {}).get("started", True):
            raise IllegalAction("The haunt is about to begin: read your rules and press Ready.")
        if s["turn"]["player"] != pid:
            raise IllegalAction(f"It is {ctx.who(s['turn']['player'])}'s turn, not yours.")
        if s["turn"]["ending"]:
            raise IllegalAction("Your turn is ending.")

    # --- the lobby ----------------------------------------------------------

    def _do_join(self, ctx, pid, action):
        s, c = ctx.s, ctx.c
        if s["phase"] != "lobby":
            raise IllegalAction("The game has already started; new players can join only before the start.")
        if pid in s["players"]:
            raise IllegalAction(f"You are already playing {c.adventurers[s['players'][pid]['adventurer']].name}.")
        if len(s["seats"]) >= st.MAX_PLAYERS:
            raise IllegalAction(f"The game is full ({st.MAX_PLAYERS} players).")
        adv_id = self.find_adventurer(action.get("adventurer", ""))
        adv = c.adventurers[adv_id]
        for other in s["players"].values():
            taken = c.adventurers[other["adventurer"]]
            if taken.id == adv_id:
                raise IllegalAction(f"{adv.name} is already taken by {other['name']}. Free: {self.free_names(s)}.")
            if taken.card == adv.card:
                raise IllegalAction(f"{adv.name} shares a card with {taken.name} ({other['name']}), so both cannot "
                                    f"play. Free: {self.free_names(s)}.")
        name = (action.get("name") or pid).strip()[:32]
        name = self.distinct_name(s, name, adv.name)
        s["players"][pid] = st.new_player(name, adv_id)
        if action.get("builtin"):
            s["players"][pid]["builtin"] = True  # the bot plays this seat (bot.service.seats)
        s["seats"].append(pid)
        ctx.say(f"{name} joins as {adv.name}, {adv.race} {adv.klass} ({len(s['seats'])} of {st.MAX_PLAYERS} seats).",
                kind="join", player=pid)

    @staticmethod
    def distinct_name(s: dict, name: str, adventurer: str) -> str:
        """A name no seated player shows already: names that differ only by
        what cleaning drops (invisible characters, case, spaces: actions.shown_name)
        would read the same, so the newcomer's gets their adventurer's name
        after it ("Bo (Lia)"), then a number if need be."""
        taken = {" ".join(p["name"].casefold().split()) for p in s["players"].values()}
        if " ".join(name.casefold().split()) not in taken:
            return name
        for n in range(1, 10):
            suffix = f" ({adventurer})" if n == 1 else f" ({adventurer} {n})"
            candidate = name[:max(1, 32 - len(suffix))] + suffix
            if " ".join(candidate.casefold().split()) not in taken:
                return candidate
        return name

    def _do_leave(self, ctx, pid, action):
        s = ctx.s
        self._seated(ctx, pid)
        if s["phase"] != "lobby":
            raise IllegalAction("The game has started: a seat can now only be handed to someone else (handover), "
                                "and an absent player's turns skipped by vote.")
        name = ctx.name(pid)
        del s["players"][pid]
        s["seats"].remove(pid)
        ctx.say(f"{name} leaves the game.", kind="leave", player=pid)

    def _do_start(self, ctx, pid, action):
        s = ctx.s
        self._seated(ctx, pid)
        if s["phase"] != "lobby":
            raise IllegalAction("The game has already started.")
        if len(s["seats"]) < st.MIN_PLAYERS:
            raise IllegalAction(f"At least {st.MIN_PLAYERS} players are needed to start; "
                                f"{len(s['seats'])} joined so far.")
        turns.setup(ctx)

    def _do_handover(self, ctx, pid, action):
        """Hand a seat to another person: they take over the adventurer, its
        cards and its turns. Any phase."""
        s = ctx.s
        self._seated(ctx, pid)
        new = str(action.get("to", ""))
        if not new or new in s["players"]:
            raise IllegalAction("Hand the seat to someone who is not already playing.")
        name = (action.get("name") or new).strip()[:32]
        old_name = ctx.name(pid)
        rename_player(s, pid, new)
        s["players"][new]["name"] = name
        s["players"][new].pop("builtin", None)  # a person holds it now
        ctx.say(f"{old_name} hands their seat ({ctx.c.adventurers[s['players'][new]['adventurer']].name}) "
                f"to {name}.", kind="handover", player=new)
        haunt_play.send_secrets(ctx, new)  # the seat's secrets now belong to its new holder alone

    # --- turn actions -------------------------------------------------------

    def _do_move(self, ctx, pid, action):
        self._on_turn(ctx, pid)
        moves.move(ctx, pid, str(action.get("way", "")).lower())

    def _do_use(self, ctx, pid, action):
        self._on_turn(ctx, pid)
        cards.use(ctx, pid, str(action.get("card", "")))

    def _do_drop(self, ctx, pid, action):
        self._on_turn(ctx, pid)
        cards.drop(ctx, pid, str(action.get("card", "")))

    def _do_pickup(self, ctx, pid, action):
        self._on_turn(ctx, pid)
        cards.pick_up(ctx, pid, str(action.get("card", "")))

    def _do_trade(self, ctx, pid, action):
        self._on_turn(ctx, pid)
        cards.offer_trade(ctx, pid, str(action.get("card", "")), str(action.get("to", "")))

    def _do_roll(self, ctx, pid, action):
        """A roll the tile, or a card lying on it, offers (rulebook: Attempt
        a Die Roll); each roll once per turn. `what` (or a `trait` that is
        not a trait) names the tile or card when there are several."""
        self._on_turn(ctx, pid)
        tile = ctx.c.tiles[ctx.s["players"][pid]["tile"]]
        offers = roll_offers(ctx, pid)
        if not offers:
            raise IllegalAction(f"The {tile.name} offers no roll to attempt.")
        trait = (action.get("trait") or "").strip().lower()
        what = (action.get("what") or ("" if trait in ("", *TRAITS) else trait)).strip().lower()
        if what:
            offers = [o for o in offers if what in (o[0], o[1].lower())]
            if not offers:
                raise IllegalAction(f"There is no '{what}' roll here. Rolls here: "
                                    f"{', '.join(o[1] for o in roll_offers(ctx, pid))}.")
        elif trait:
            uses = {o[0]: {s_["trait"] for s_ in o[2] if s_.get("do") == "roll" and "trait" in s_} for o in offers}
            offers = [o for o in offers if trait in uses[o[0]]] or [o for o in offers if not uses[o[0]]]
            if not offers:
                raise IllegalAction(f"The {tile.name}'s roll uses "
                                    f"{', '.join(sorted(set().union(*uses.values())))}, not {trait}.")
        fresh = [o for o in offers if f"action:{o[0]}" not in ctx.s["turn"]["rolls"]]
        if not fresh:
            raise IllegalAction("You have already attempted that roll this turn; the same roll is once per turn.")
        if len(fresh) > 1:
            raise IllegalAction(f"Which roll? Name one of: {', '.join(o[1] for o in fresh)}.")
        source, _, steps = fresh[0]
        if source in ctx.c.tiles and haunt_play.ignores_harm(ctx.s, pid):
            steps = haunt_play.without_harm(steps)  # Rulebook: The Traitor's New Powers
        if source in ctx.c.tiles:
            steps = hooks.first("tile_roll", ctx, pid, source, steps) or steps  # a house rule (take a 5)
        ctx.s["turn"]["rolls"].append(f"action:{source}")
        effects.queue(ctx, pid, steps, source=source, front=True)

    def _do_power(self, ctx, pid, action):
        """Use your adventurer power (rulebook: Use Your Adventurer Power)."""
        self._on_turn(ctx, pid)
        specials.powers.use(ctx, pid, action)

    def _do_attack(self, ctx, pid, action):
        """Rulebook: Make an Attack ("You can't attack anyone until after the haunt starts")."""
        self._on_turn(ctx, pid)
        if ctx.s["phase"] != "haunt":
            raise IllegalAction("Nobody can attack before the haunt begins.")
        target = str(action.get("target") or "")
        if not target:
            raise IllegalAction("Attack whom? Name a player or a monster on your tile.")
        attack.attack(ctx, pid, self._player_ref(ctx, target), action.get("trait"), action.get("weapon"),
                      bool(action.get("reckless")))

    # --- the haunt ------------------------------------------------------------

    def _haunt(self, ctx, pid):
        self._seated(ctx, pid)
        if ctx.s["phase"] != "haunt":
            raise IllegalAction("That is for the haunt, which has not begun." if ctx.s["phase"] != "over"
                                else "This game is over.")

    def _do_ready(self, ctx, pid, action):
        self._haunt(ctx, pid)
        haunt_play.ready(ctx, pid)

    def _do_monster(self, ctx, pid, action):
        """The monster turn, run by the traitor (or the revealer)."""
        self._on_turn(ctx, pid)
        if not ctx.s["turn"].get("monsters"):
            raise IllegalAction("Monsters act only in the monster turn, after the traitor's turn.")
        op = action.get("op")
        if op == "move":
            haunt_play.monster_move(ctx, pid, str(action.get("monster", "")), str(action.get("way", "")).lower())
        elif op == "attack":
            attack.monster_attack(ctx, str(action.get("monster", "")), self._player_ref(ctx, str(action.get("target", ""))),
                                  action.get("trait"))
        else:
            raise IllegalAction("A monster either moves or attacks.")

    def _player_ref(self, ctx, ref: str) -> str:
        if ref in ctx.s["players"]:
            return ref
        for pid, p in ctx.s["players"].items():
            if p["name"].lower() == ref.lower():
                return pid
        return ref

    # The toolkit: game-master overrides for a rule the bot does not carry out.
    # Counters, tokens and slaying are the acting player's, on their own turn
    # (the monster turn's runner in the monster turn); a trait change is your
    # own, at any time of the haunt; a claimed win needs everyone else's yes.

    def _toolkit(self, ctx, pid):
        self._on_turn(ctx, pid)
        if ctx.s["phase"] != "haunt":
            raise IllegalAction("That is for the haunt, which has not begun.")

    def _do_counter(self, ctx, pid, action):
        self._toolkit(ctx, pid)
        haunt_play.set_counter(ctx, pid, action["name"].strip(), action.get("delta"), action.get("value"))

    def _do_token(self, ctx, pid, action):
        self._toolkit(ctx, pid)
        haunt_play.place_token(ctx, pid, (action.get("name") or "").strip() or "quest", action.get("tile"),
                               action.get("op") == "remove")

    def _do_slay(self, ctx, pid, action):
        """A haunt's own rule kills a monster (hit points run out, a ritual
        banishes it): the toolkit takes it off the board."""
        self._toolkit(ctx, pid)
        haunt_play.slay(ctx, pid, action["monster"])

    def _do_task(self, ctx, pid, action):
        """A haunt's declared special move (bot.games.babg.engine.haunt_moves)."""
        self._toolkit(ctx, pid)
        haunt_moves.make(ctx, pid, action)

    def _in_play(self, ctx, pid):
        """Seated, alive, the haunt under way and nobody choosing."""
        self._on_turn(ctx, pid, deciding=True)
        if ctx.s["phase"] != "haunt":
            raise IllegalAction("That is for the haunt, which has not begun.")
        if not ctx.s["haunt"].get("started", True):
            raise IllegalAction("The haunt is about to begin: read your rules and press Ready.")
        if ctx.s["pending"]:
            raise IllegalAction(f"Waiting for {ctx.name(ctx.s['pending']['player'])} to answer: "
                                f"{ctx.s['pending']['prompt']}")
        if not ctx.s["players"][pid]["alive"]:
            raise IllegalAction("Your adventurer is dead.")

    def _do_declare(self, ctx, pid, action):
        self._in_play(ctx, pid)
        haunt_play.declare(ctx, pid, action["side"].lower())

    def _do_confirm(self, ctx, pid, action):
        self._haunt(ctx, pid)
        haunt_play.answer_claim(ctx, pid, action["agree"])

    def _do_trait(self, ctx, pid, action):
        """A trait change the haunt orders (the toolkit): your own traits only."""
        self._in_play(ctx, pid)
        trait = action["trait"].lower()
        if trait not in TRAITS:
            raise IllegalAction("Which trait? might, speed, knowledge or sanity.")
        delta = action["delta"]
        if not -8 <= delta <= 8:
            raise IllegalAction("A trait moves at most 8 steps; give a number from -8 to +8.")
        ctx.say(f"{ctx.name(pid)} changes their {trait.capitalize()} by {delta:+d}, as the haunt says.", kind="toolkit")
        trs.change(ctx, pid, trait, delta)

    def _do_unmask(self, ctx, pid, action):
        self._haunt(ctx, pid)
        haunt_play.reveal_hidden(ctx, pid)

    def _do_part_two(self, ctx, pid, action):
        self._haunt(ctx, pid)
        haunt_play.reveal_part_two(ctx, pid)

    def _do_decide(self, ctx, pid, action):
        self._on_turn(ctx, pid, deciding=True)
        effects.decide(ctx, pid, action.get("choice"))

    def _do_end(self, ctx, pid, action):
        self._on_turn(ctx, pid)
        if ctx.s["turn"].get("monsters"):
            haunt_play.end_monster_turn(ctx)
            return
        turns.end_turn(ctx, pid)

    # --- lookups for the adapters ----------------------------------------------

    def find_adventurer(self, text: str) -> str:
        key = str(text).strip().lower().strip('"')
        advs = self.content.adventurers
        for a in advs.values():
            if key in (a.id, a.name.lower(), a.name.lower().replace('"', "")):
                return a.id
        # a unique start of one of the name's words ("tor", "silversong"), not any fragment: "bo" is not Tasha
        matches = [a.id for a in advs.values() if key and any(w.startswith(key) for w in a.name.lower().split())]
        if len(matches) == 1:
            return matches[0]
        raise IllegalAction(f"No adventurer called '{text}'. Choose from: "
                            f"{', '.join(a.name for a in advs.values())}.")

    def free_names(self, state: dict) -> str:
        return ", ".join(self.content.adventurers[a].name for a in self.free_adventurers(state)) or "none"

    def free_adventurers(self, state: dict) -> list[str]:
        taken = {self.content.adventurers[p["adventurer"]].card for p in state["players"].values()}
        return [a.id for a in self.content.adventurers.values() if a.card not in taken]

    def ways_out(self, state: dict, pid: str) -> dict:
        """Ways out of the player's tile (see moves.ways_out): the four sides,
        "stairs", "grate", and "gate" once an Arcane Gate is in play."""
        return moves.ways_out(Ctx(self.content, state), pid)
