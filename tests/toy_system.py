"""A toy game system, to keep the game-system contract honest: a dice race for 2 to 4 runners, each
with a lucky number only they know. On your turn: `step` (one square, no die: it may be taken back),
`dash` (a die: your lucky number goes double), then `end`. The first to square 12 wins. Nothing of the
shared layers names it: they reach it through bot.kit.contract and the registry alone."""
import pickle
from dataclasses import dataclass

from bot.kit import rng
from bot.kit.contract import Command, GameSystem, Option
from bot.kit.errors import IllegalAction

COLOURS = ("red", "blue", "green", "gold")
GOAL = 12


@dataclass
class DiceRace(GameSystem):
    id: str = "toyrace"
    title: str = "Dice Race"
    players: tuple[int, int] = (2, 4)
    pick_word: str = "runner"

    def __post_init__(self):
        self.options = (Option("goal", "number", "Squares to the finish", low=4, high=30),)
        self.commands = (
            Command("dash", "Roll the die and run", lambda s, seat, v: {"type": "dash", "player": seat}),
            Command("step", "One square, no die", lambda s, seat, v: {"type": "step", "player": seat}),
            Command("end", "End your turn", lambda s, seat, v: {"type": "end", "player": seat}),
            Command("undo", "Take back your last step", lambda s, seat, v: {"type": "undo", "player": seat}),
        )

    def content(self):
        return {"colours": COLOURS}

    def new_game(self, seed, options=None):
        goal = (options or {}).get("goal") or GOAL
        return {"phase": "lobby", "seats": [], "players": {}, "turn": None, "pending": None, "rng": rng.seeded(seed),
                "goal": goal, "result": None, "before_step": None}

    def picks(self, state):
        taken = {p["runner"] for p in state["players"].values()}
        return [(c.capitalize(), c) for c in COLOURS if c not in taken]

    def join_action(self, seat, name, pick, builtin=False):
        return {"type": "join", "player": seat, "name": name, "runner": pick, "builtin": builtin}

    def actor(self, state):
        return (state.get("turn") or {}).get("player") if state["phase"] == "play" else None

    def legal_actions(self, state, seat=None):
        who = self.actor(state)
        if who is None or (seat is not None and seat != who):
            return []
        moves = [{"type": "dash", "player": who}] if not state["turn"]["dashed"] else []
        moves += [{"type": "step", "player": who}] if not state["turn"]["stepped"] else []
        if state["before_step"] is not None:
            moves.append({"type": "undo", "player": who})
        return moves + [{"type": "end", "player": who}]

    def apply(self, state, action):
        s = pickle.loads(pickle.dumps(state))
        kind, who = action.get("type"), action.get("player")
        say = []
        if kind == "join":
            if s["phase"] != "lobby":
                raise IllegalAction("The race has started; join the next one.")
            if who in s["players"]:
                raise IllegalAction("You are already running.")
            if action.get("runner") not in [v for _, v in self.picks(s)]:
                raise IllegalAction(f"Choose a free runner: {', '.join(v for _, v in self.picks(s))}.")
            s["seats"].append(who)
            s["players"][who] = {"name": action["name"], "runner": action["runner"], "square": 0, "lucky": None,
                                 "builtin": bool(action.get("builtin"))}
            say.append((f"{action['name']} runs in {action['runner']}.", "all"))
        elif kind == "start":
            if s["phase"] != "lobby" or len(s["seats"]) < self.players[0]:
                raise IllegalAction("A race needs 2 runners before it starts.")
            s["phase"] = "play"
            for p in s["seats"]:
                s["players"][p]["lucky"] = rng.die(s, 6)
                say.append((f"Your lucky number is {s['players'][p]['lucky']}.", p))
            s["turn"] = {"player": s["seats"][0], "number": 1, "dashed": False, "stepped": False}
            say.append((f"Turn 1: {s['players'][s['seats'][0]]['name']} runs.", "all"))
        elif who != self.actor(s):
            raise IllegalAction("It is not your turn.")
        elif kind == "undo":
            if s["before_step"] is None:
                raise IllegalAction("Nothing to take back: a die was rolled, or you have not stepped.")
            s = s["before_step"]
            say.append(("The step is taken back.", "all"))
        elif kind in ("step", "dash"):
            key = "stepped" if kind == "step" else "dashed"
            if s["turn"][key]:
                raise IllegalAction(f"You have already {key} this turn.")
            p = s["players"][who]
            if kind == "step":
                s["before_step"] = pickle.loads(pickle.dumps(state))
                run = 1
            else:
                s["before_step"] = None  # a die was rolled: nothing before it can be taken back
                face = rng.die(s, 6)
                run = face * 2 if face == p["lucky"] else face
                say.append((f"{p['name']} rolls {face}.", "all"))
            s["turn"][key] = True
            p["square"] += run
            say.append((f"{p['name']} runs to square {p['square']}.", "all"))
            if p["square"] >= s["goal"]:
                s["phase"], s["turn"] = "over", None
                s["result"] = {"winners": [who], "how": f"{p['name']} crossed the line first"}
                say.append((f"{p['name']} wins the race!", "all"))
        elif kind == "end":
            order = s["seats"]
            nxt = order[(order.index(who) + 1) % len(order)]
            s["turn"] = {"player": nxt, "number": s["turn"]["number"] + 1, "dashed": False, "stepped": False}
            s["before_step"] = None
            say.append((f"Turn {s['turn']['number']}: {s['players'][nxt]['name']} runs.", "all"))
        else:
            raise IllegalAction(f"Unknown action {kind!r}: dash, step, undo or end.")
        return s, [{"kind": "race", "to": to, "text": text} for text, to in say]

    def view(self, state, viewer):
        shown = pickle.loads(pickle.dumps(state))
        shown["before_step"] = None
        for pid, p in shown["players"].items():
            if pid != viewer and shown["phase"] != "over":
                p["lucky"] = None
        return shown

    def status_text(self, state):
        return "\n".join(f"{p['name']} ({p['runner']}): square {p['square']} of {state['goal']}"
                         for p in state["players"].values())

    def story(self, state):
        return ["The lucky numbers were: " + ", ".join(f"{p['name']} {p['lucky']}" for p in state["players"].values())
                + "."]

    def builtin_action(self, state, seat, rnd, patience=0):
        legal = self.legal_actions(state, seat)
        return next((a for a in legal if a["type"] == "dash"), legal[-1] if legal else None)


TOY = DiceRace()
