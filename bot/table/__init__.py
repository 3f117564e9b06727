"""The local table: a game in a terminal, for one keyboard or a piped script, of any system.

`python -m bot table --game <id> ...` plays the system with that id (bot.games; `babg`, Baldur's
Gate, when left out). A system with a table of its own names it (`table_face`: Baldur's Gate's has
its typed words, sheets and maps); any other plays on the plain table below, built from the contract
alone: `join <pick> as <name>`, `builtin [pick]`, `start`, the system's declared commands (typed as
`<command> <value> ...`), `undo`, `status`, `sheet [name]`, `secrets <name>`, `help`, `quit`, and
`as <name> <command>` to act for someone else. Every action goes through the game service over an
in-memory store, as on Discord."""
import argparse
import asyncio
import importlib
import json
import random
import sys

from bot import games
from bot.kit.errors import IllegalAction
from bot.service import GameService

CHANNEL = "table"


class PlainTable:
    """One game of a system on one keyboard, through the service."""

    def __init__(self, system, seed: int, out=print, events_json: bool = False, options: dict | None = None):
        self.system, self.seed, self.out, self.events_json = system, seed, out, events_json
        self.loop = asyncio.new_event_loop()
        self.service = GameService.in_memory()
        self.game = self._run(self.service.new_game(CHANNEL, None, "table", seed=seed, options=options,
                                                    system=system.id))
        self.secrets: dict[str, list[str]] = {}
        self.people = 0

    def _run(self, coro):
        return self.loop.run_until_complete(coro)

    @property
    def state(self) -> dict:
        return self.game.state

    # --- saying what happened ------------------------------------------------------------------
    def show(self, outcome):
        for e in outcome.events:
            if self.events_json:
                self.out(json.dumps(e, sort_keys=True, default=str))
            elif e["to"] == "all":
                self.out(self.system.speak(e["text"], outcome.state, "table"))
            else:
                self.secrets.setdefault(e["to"], []).append(e["text"])
                name = outcome.state["players"].get(e["to"], {}).get("name", e["to"])
                self.out(f"(a private message for {name}: `secrets {name}` shows it)")
        if self.system.phase(outcome.state) == "over" and self.system.phase(outcome.before) != "over":
            closing = {"kind": "game_over", "to": "all", **(outcome.state.get("outcome") or
                                                              outcome.state.get("result") or {})}
            if closing.get("result") in ("victory", "defeat"):
                closing["outcome"] = closing["result"]  # (a co-operative game: won or lost together)
            if self.events_json:
                self.out(json.dumps(closing, sort_keys=True, default=str))
            for line in self.system.story(outcome.state):
                if not self.events_json:
                    self.out(line)

    def act(self, action: dict):
        self.show(self._run(self.service.act(CHANNEL, action)))
        self.play_builtin()

    def play_builtin(self):
        while self.game.active:
            outcome = self._run(self.service.play_builtin(CHANNEL))
            if outcome is None:
                break
            self.show(outcome)
            self.game = self._run(self.service.latest_game(CHANNEL))

    def seat_named(self, name: str) -> str:
        for pid in self.state["seats"]:
            if self.system.seat_name(self.state, pid).lower() == name.lower():
                return pid
        raise IllegalAction(f"Nobody called {name!r} is seated: "
                            f"{', '.join(self.system.seat_name(self.state, p) for p in self.state['seats'])}.")

    # --- one typed line ------------------------------------------------------------------------
    def command(self, line: str) -> bool:
        """Carry out a typed line; False when the table closes."""
        words = line.strip()
        if not words or words.startswith("#"):
            return True
        try:
            return self._command(words)
        except IllegalAction as e:
            self.out(f"! {e.reason}")
            return True

    def _command(self, words: str) -> bool:
        s, head = self.system, words.split()[0].lower()
        acting = None
        if head == "as" and len(words.split()) > 2:
            _, name, words = words.split(maxsplit=2)
            acting, head = self.seat_named(name), words.split()[0].lower()
        rest = words.split()[1:]
        if head == "quit":
            return False
        if head == "help":
            self.out(self.help())
        elif head == "join":
            pick, name = (" ".join(rest).split(" as ") + [""])[:2]
            self.people += 1
            self.act(s.join_action(f"p{self.people}", name.strip() or f"Player {self.people}",
                                   s.find_pick(pick) if pick.strip() else None))
        elif head == "builtin":
            self.show(self._run(self.service.add_builtin(CHANNEL, "table", s.find_pick(" ".join(rest))
                                                         if rest else None)))
        elif head == "start":
            self.act(s.start_action(acting or (self.state["seats"] or ["table"])[0]))
            self.game = self._run(self.service.latest_game(CHANNEL))
        elif head == "status":
            self.out(s.status_text(s.view(self.state, None)))
        elif head == "sheet":
            seat = self.seat_named(" ".join(rest)) if rest else (acting or s.actor(self.state))
            self.out(s.sheet_text(self.state, seat) if seat else "Whose sheet? `sheet <name>`.")
        elif head == "secrets":
            seat = self.seat_named(" ".join(rest)) if rest else acting
            self.out("\n".join(self.secrets.get(seat, [])) or "Nothing private yet.")
        elif head == "undo":
            self.act(s.undo_action(acting or s.actor(self.state)))
        else:
            seat = acting or s.actor(self.state)
            if seat is None:
                raise IllegalAction("Nobody is to play now: join, then start.")
            self.act(s.parse(words, self.state, seat))
        return True

    def help(self) -> str:
        mine = ", ".join(f"{c.name} " + " ".join(f"<{p.name}>" for p in c.params) for c in self.system.commands)
        return (f"{self.system.title}: join <{self.system.pick_word}> as <name>, builtin [{self.system.pick_word}], "
                f"start, {mine}, undo, status, sheet [name], secrets <name>, as <name> <command>, help, quit.")


def plain_main(system, argv) -> int:
    ap = argparse.ArgumentParser(prog=f"python -m bot table --game {system.id}", description=f"Play {system.title}.")
    ap.add_argument("script", nargs="?")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--auto", action="store_true", help="built-in players play a whole game")
    ap.add_argument("--players", type=int, default=system.players[0])
    ap.add_argument("--builtin", type=int, default=0)
    ap.add_argument("--events", choices=["text", "json"], default="text")
    for o in system.options:
        ap.add_argument(f"--{o.name.replace('_', '-')}", dest=o.name, default=None,
                        type=int if o.kind == "number" else str, help=o.description)
    args = ap.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
    options = system.table_options({o.name: getattr(args, o.name) for o in system.options})
    try:
        table = PlainTable(system, seed, events_json=args.events == "json", options=options)
    except IllegalAction as e:
        print(f"! {e.reason}")
        return 2
    if args.auto:
        for _ in range(max(system.players[0], min(system.players[1], args.players))):
            table.command("builtin")
        try:
            table.act(system.start_action(table.state["seats"][0]))
        except IllegalAction as e:
            print(f"! {e.reason}")
            return 2
        return 0 if system.phase(table.state) == "over" else 1
    for _ in range(max(0, args.builtin)):
        table.command("builtin")
    if not table.events_json:
        print(f"{system.title} - local table (seed {seed}). Type help for commands.")
    source = open(args.script) if args.script else sys.stdin
    for line in source:
        if not table.events_json and line.strip():
            print(f"$ {line.rstrip()}")
        if not table.command(line):
            break
    return 0


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    ap = argparse.ArgumentParser(add_help=False)
    ap.add_argument("--game", default=games.DEFAULT)
    known, rest = ap.parse_known_args(argv)
    try:
        system = games.get(known.game)
    except IllegalAction as e:
        print(f"! {e.reason}")
        return 2
    if system.table_face:
        return importlib.import_module(system.table_face).main(rest, system)
    return plain_main(system, rest)
