"""The local table: play or watch a whole game in a terminal, no Discord.

People type the same commands the slash commands offer; whoever the game is
waiting for acts (a hot seat), so one keyboard serves the whole table.
"""
import argparse
import json
import os
import pathlib
import random
import re
import sys

from bot.content import load_content
from bot.engine import Engine, IllegalAction
from bot.engine.legal import actor
from bot import autoplay, text

HELP = """Commands (the player the game waits for acts; `as <name> <command>` acts for someone else):
  join <adventurer> [as <name>]   take a seat (3 to 6 players), e.g. `join torskar as Ann`
  leave <name>                     leave before the start
  start                            deal the aid cards and begin
  move <north|east|south|west|stairs|grate>   (or just `north`, `n`, `up`, `down`...)
  roll [trait]                     attempt the roll your tile offers (once per turn)
  use <item> | drop <item> | pickup <item> | trade <item> <player>
  power [player] [trait]           use your adventurer power (e.g. `power`, `power Bo sanity`)
  choose <number>                  answer the question the game asks you
  end                              end your turn
 In the haunt:
  ready                            you have read your side's rules (`as <name> ready` for each player)
  rules [name]                     show that player's secret rules again
  attack <player|monster> [trait] [with <weapon>] [reckless]   trait <trait> <+N|-N> (a haunt's order)
  monster move <monster> <way>  |  monster attack <monster> <player>   (the monster turn)
  counter <name> <+N|-N|=N>   token <place|remove> <name>   task <trait> <task>   slay <monster>
  declare <traitor|heroes>   confirm <yes|no> (answer a claimed win: every other player must say yes)
  part2 (open your side's second part)   unmask (a hidden traitor shows token 1)
  The toolkit (counter, token, task, slay) is for the player whose turn it is; trait changes your own traits.
  sheet [name]   status   map (text, and a picture saved to out/)   replay (an animated picture)
  adventurers   help   quit"""

HAUNT_VERBS = ("ready", "attack", "monster", "counter", "token", "task", "declare", "confirm", "part2", "unmask",
               "trait", "slay")
TRAIT_WORDS = ("might", "speed", "knowledge", "sanity")

MAX_LINE = 300  # characters: commands are a few words; longer lines are refused, not parsed
MAX_NAME = 32  # the engine keeps at most this much of a player's name
_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]{1,9}")  # ASCII digits only: not "²", "٣", "1_000", "1e9" or "nan"


def whole_number(text: str) -> int | None:
    """The integer a player typed (`3`, `+2`, `-1`), or None when the text
    is not a plain whole number of at most 9 digits. Python's int() would
    also take "٣" (and isdigit() "²", which int() then refuses)."""
    return int(text) if _WHOLE_NUMBER.fullmatch(text) else None


SHORT_WAYS = {"n": "north", "e": "east", "s": "south", "w": "west", "up": "stairs", "down": "stairs",
              "north": "north", "east": "east", "south": "south", "west": "west", "stairs": "stairs",
              "grate": "grate", "sewer": "grate"}


class Table:
    def __init__(self, seed: int, out=print, events_json: bool = False):
        self.engine = Engine(load_content())
        self.content = self.engine.content
        self.seed = seed
        self.state = self.engine.new_game(seed)
        self.out_dir = pathlib.Path(os.environ.get("TABLE_OUT", "out"))
        self.out_dir.mkdir(parents=True, exist_ok=True)
        self.out = out
        self.events_json = events_json
        self.log: list[dict] = []
        self.secrets: dict[str, list[str]] = {}

    # --- players and names ----------------------------------------------------

    def player_by_name(self, name: str) -> str:
        key = name.strip().lower()
        for pid in self.state["seats"]:
            if self.state["players"][pid]["name"].lower() == key or pid == key:
                return pid
        raise IllegalAction(f"No player called '{name}'. Players: "
                            f"{', '.join(self.state['players'][p]['name'] for p in self.state['seats']) or 'none'}.")

    def apply(self, action: dict):
        self.state, events = self.engine.apply(self.state, action)
        self.log.append(action)
        for ev in events:
            if self.events_json:
                self.out(json.dumps(ev, sort_keys=True))
            elif ev["to"] == "all":
                self.out(ev["text"])
            elif ev["kind"] == "secret_rules":
                self.secrets.setdefault(ev["to"], []).append(ev["text"])
                if len(self.secrets[ev["to"]]) == 1:
                    self.out(f"(secret rules for {self.state['players'][ev['to']]['name']}: type "
                             f"`rules {self.state['players'][ev['to']]['name']}` to read them, in private)")
            else:
                self.out(f"(only {self.state['players'][ev['to']]['name']} sees this) {ev['text']}")
        if not self.events_json:
            self.prompt_line()

    def prompt_line(self):
        s = self.state
        if s["phase"] == "over":
            return
        who = actor(s)
        if who is None:
            return
        if s["pending"]:
            opts = "; ".join(f"{i + 1}. {o}" for i, o in enumerate(s["pending"]["options"]))
            self.out(f"> {s['players'][who]['name']}, choose with `choose <number>`: {opts}")
            return
        h = s.get("haunt")
        if s["phase"] == "haunt" and not (h or {}).get("started", True):
            waiting = [s["players"][p]["name"] for p in s["seats"] if s["players"][p]["alive"] and p not in h["ready"]]
            self.out(f"> Waiting for {', '.join(waiting)}: each types `as <name> ready` after reading `rules <name>`.")
            return
        if s["turn"].get("monsters"):
            names = ", ".join(f"{m['name']} {m['number']}" + (" (stunned)" if m["stunned"] else "")
                              for m in s["monsters"] if not m["dead"])
            self.out(f"> {s['players'][who]['name']} runs the monster turn ({names}): `monster move <monster> <way>`, "
                     "`monster attack <monster> <player>`, then `end`.")
            return
        ways = [w for w, info in self.engine.ways_out(s, who).items() if "blocked" not in info]
        moves = "movement over" if s["turn"]["stopped"] else ("move " + "/".join(ways) if ways else "no way out")
        extra = "attack, " if s["phase"] == "haunt" else ""
        self.out(f"> {s['players'][who]['name']}: {moves}; or {extra}use/drop/pickup/roll, sheet, map, end.")

    # --- commands --------------------------------------------------------------

    def command(self, line: str) -> bool:
        """Run one typed line; False when the table should close. A line the
        table cannot take is answered with one `! reason` line."""
        words = line.strip().split()
        if not words or words[0].startswith("#"):
            return True
        try:
            if len(line.strip()) > MAX_LINE:
                raise IllegalAction(f"That line is too long ({len(line.strip())} characters): a command is a few "
                                    "words. Type help for the list.")
            if not all(w.isprintable() for w in words):
                raise IllegalAction("That line has control or invisible characters: type the command in plain text.")
            return self._command(words)
        except IllegalAction as e:
            self.out(f"! {e.reason}")
            return True

    def _command(self, words: list[str]) -> bool:
        s = self.state
        acting = None
        if words[0].lower() == "as":
            if len(words) < 3:
                raise IllegalAction("`as <name> <command>` acts for someone else, e.g. `as Bo choose 1`.")
            acting = self.player_by_name(words[1])
            words = words[2:]
        verb, rest = words[0].lower(), words[1:]
        arg = " ".join(rest)
        who = acting or actor(s)
        if verb in ("quit", "exit"):
            return False
        if verb == "help":
            self.out(HELP)
        elif verb == "adventurers":
            for a in self.content.adventurers.values():
                free = "free" if a.id in self.engine.free_adventurers(s) else "taken or paired"
                self.out(f"  {a.id:<9} {a.name} ({a.race} {a.klass}) - {a.power['name']} [{free}]")
        elif verb == "join":
            adventurer, name = self._join_words(rest)
            self.apply({"type": "join", "player": name.lower(), "name": name, "adventurer": adventurer})
        elif verb == "leave":
            self.apply({"type": "leave", "player": self.player_by_name(arg)})
        elif verb == "start":
            self.apply({"type": "start", "player": acting or (s["seats"][0] if s["seats"] else "nobody")})
        elif verb == "status":
            self.out(text.status(self.content, s))
        elif verb == "map":
            if not s["board"]:
                raise IllegalAction("The map appears once the game starts.")
            self.out(text.text_map(self.content, s))
            self.out(f"Map picture saved to {self.save_map()}")
        elif verb == "replay":
            if not s["board"]:
                raise IllegalAction("There is nothing to replay before the game starts.")
            self.out(f"Replay saved to {self.save_replay()} (one frame per turn)")
        elif verb == "sheet":
            pid = self.player_by_name(arg) if arg else who
            if pid is None:
                raise IllegalAction("Whose sheet? Type `sheet <name>`.")
            self.out(text.sheet(self.content, s, pid))
        elif verb in SHORT_WAYS or verb == "move":
            way = SHORT_WAYS.get(arg.lower(), arg.lower()) if verb == "move" else SHORT_WAYS[verb]
            if not way:
                raise IllegalAction("Move where? north, east, south, west, stairs or grate.")
            self.apply({"type": "move", "player": self._need(who), "way": way})
        elif verb == "roll":
            self.apply({"type": "roll", "player": self._need(who), "trait": arg or None})
        elif verb in ("use", "drop", "pickup"):
            if not arg:
                raise IllegalAction(f"Which card? `{verb} <card name>`.")
            self.apply({"type": verb, "player": self._need(who), "card": arg})
        elif verb == "trade":
            if len(rest) < 2:
                raise IllegalAction("`trade <item> <player>`: the item, then who receives it.")
            self.apply({"type": "trade", "player": self._need(who), "card": " ".join(rest[:-1]),
                        "to": self.player_by_name(rest[-1])})
        elif verb in ("choose", "decide"):
            if not arg:
                raise IllegalAction("`choose <number>`: pick one of the listed options.")
            number = whole_number(arg)
            choice = number - 1 if number is not None else arg
            if isinstance(choice, int) and choice < 0:
                raise IllegalAction("Options are numbered from 1.")
            self.apply({"type": "decide", "player": self._need(who), "choice": choice})
        elif verb == "power":
            self.apply(self._power_action(self._need(who), rest))
        elif verb == "end":
            self.apply({"type": "end", "player": self._need(who)})
        elif verb in HAUNT_VERBS:
            self.apply(self._haunt_action(verb, rest, acting, who))
        elif verb == "rules":
            pid = self.player_by_name(arg) if arg else who
            if pid is None:
                raise IllegalAction("Whose rules? `rules <name>`.")
            texts = [line for line in self.secrets.get(pid, [])]
            self.out("\n\n".join(texts) if texts else "No secret rules yet.")
        else:
            raise IllegalAction(f"Unknown command '{verb}'. Type help for the list.")
        return True

    def _join_words(self, rest: list[str]) -> tuple[str, str]:
        """`join <adventurer> [as <name>]`: the adventurer's words and the
        player's name (by default "Player N")."""
        lowered = [w.lower() for w in rest]
        if "as" in lowered:
            at = lowered.index("as")
            adventurer, name = " ".join(rest[:at]), " ".join(rest[at + 1:])
            if not name:
                raise IllegalAction("Who is playing? Put a name after `as`: e.g. `join torskar as Ann`.")
        else:
            adventurer, name = " ".join(rest), f"Player {len(self.state['seats']) + 1}"
        if not adventurer:
            raise IllegalAction("Which adventurer? `join <adventurer> as <name>`, e.g. `join torskar as Ann` "
                                "(`adventurers` lists them).")
        if len(name) > MAX_NAME:
            raise IllegalAction(f"That name is too long ({len(name)} characters); at most {MAX_NAME}, "
                                "e.g. `join torskar as Ann`.")
        return adventurer, name

    def _power_action(self, who: str, words: list[str]) -> dict:
        """`power [player] [trait]`: the words may name who the power is for
        and which trait (Healing Word, Bardic Inspiration)."""
        action = {"type": "power", "player": who}
        rest = []
        for word in words:
            if word.lower() in ("might", "speed", "knowledge", "sanity"):
                action["trait"] = word.lower()
            else:
                rest.append(word)
        if rest:
            action["target"] = self.player_by_name(" ".join(rest))
        return action

    def save_map(self) -> str:
        """The same picture /map posts on Discord, written to a file."""
        from bot.render import render_map
        turn = (self.state.get("turn") or {})
        path = self.out_dir / f"map-seed{self.seed}-turn{turn.get('number', 0)}.png"
        path.write_bytes(render_map(self.content, self.state, highlight=turn.get("player")))
        return str(path)

    def save_replay(self) -> str:
        from bot.render import render_replay_gif
        from bot.replay import turn_states
        frames = turn_states(self.engine, self.seed, self.log, self.state["options"]["haunt"])
        path = self.out_dir / f"replay-seed{self.seed}.gif"
        path.write_bytes(render_replay_gif(self.content, frames))
        return str(path)

    def _haunt_action(self, verb: str, rest: list[str], acting, who) -> dict:
        if verb == "ready":
            pid = acting or who
            return {"type": "ready", "player": self._need(pid)}
        if verb == "attack":
            if not rest:
                raise IllegalAction("`attack <player or monster> [trait] [with <weapon>]`.")
            words = " ".join(rest)
            reckless = words.endswith(" reckless")
            words = words.removesuffix(" reckless")
            weapon = None
            if " with " in f" {words} ":
                words, weapon = [x.strip() for x in f" {words} ".split(" with ", 1)]
            parts = words.split()
            trait = parts[-1].lower() if len(parts) > 1 and parts[-1].lower() in TRAIT_WORDS else None
            target = " ".join(parts[:-1] if trait else parts)
            return {"type": "attack", "player": self._need(who), "target": self._target(target), "trait": trait,
                    "weapon": weapon, "reckless": reckless}
        if verb == "monster":
            if len(rest) < 3 or rest[0].lower() not in ("move", "attack"):
                raise IllegalAction("`monster move <monster> <way>` or `monster attack <monster> <player>`.")
            op, last, name = rest[0].lower(), rest[-1], " ".join(rest[1:-1])
            action = {"type": "monster", "player": self._need(who), "op": op, "monster": name}
            if op == "move":
                action["way"] = SHORT_WAYS.get(last.lower(), last.lower())
            else:
                action["target"] = self.player_by_name(last)
            return action
        if verb == "counter":
            if len(rest) < 2:
                raise IllegalAction("`counter <name> <+N|-N|=N>`.")
            change, name = rest[-1], " ".join(rest[:-1])
            number = whole_number(change[1:] if change.startswith("=") else change)
            if number is None:
                raise IllegalAction("The change is a whole number: `counter <name> +2`, `-1` or `=5`.")
            key = "value" if change.startswith("=") else "delta"
            return {"type": "counter", "player": self._need(acting or who), "name": name, key: number}
        if verb == "token":
            if len(rest) < 2 or rest[0].lower() not in ("place", "remove"):
                raise IllegalAction("`token place <name>` or `token remove <name>` (on your tile).")
            return {"type": "token", "player": self._need(acting or who), "op": rest[0].lower(),
                    "name": " ".join(rest[1:])}
        if verb == "slay":
            if not rest:
                raise IllegalAction("`slay <monster>`, when the haunt's own rule kills it (e.g. `slay Minotaur 1`).")
            return {"type": "slay", "player": self._need(acting or who), "monster": " ".join(rest)}
        if verb == "task":
            if len(rest) < 2:
                raise IllegalAction("`task <trait> <what you attempt>`.")
            return {"type": "task", "player": self._need(who), "trait": rest[0], "task": " ".join(rest[1:])}
        if verb == "declare":
            return {"type": "declare", "player": self._need(acting or who), "side": " ".join(rest)}
        if verb == "confirm":
            answer = " ".join(rest).lower()
            if answer not in ("yes", "no", "y", "n"):
                raise IllegalAction("`confirm yes` (that side has won) or `confirm no` (play on).")
            if acting is None:  # every other player answers, not whoever the game waits for
                raise IllegalAction("Each player answers for themselves: `as <name> confirm yes` (or no).")
            return {"type": "confirm", "player": acting, "agree": answer.startswith("y")}
        if verb == "trait":
            delta = whole_number(rest[1]) if len(rest) == 2 else None
            if delta is None:
                raise IllegalAction("`trait <trait> <+N|-N>`: a change the haunt orders, e.g. `trait might -1`.")
            return {"type": "trait", "player": self._need(acting or who), "trait": rest[0], "delta": delta}
        if verb == "unmask":
            return {"type": "unmask", "player": self._need(acting or who)}
        return {"type": "part_two", "player": self._need(acting or who)}

    def _target(self, text: str) -> str:
        try:
            return self.player_by_name(text)
        except IllegalAction:
            return text

    def _need(self, who):
        if who is None:
            raise IllegalAction("Nobody is acting yet: join players, then start.")
        return who


def auto_game(table: Table, players: int, rnd: random.Random, max_actions: int):
    ids = list(table.content.adventurers)
    rnd.shuffle(ids)
    chosen = []
    for aid in ids:
        if len(chosen) == players:
            break
        if all(table.content.adventurers[a].card != table.content.adventurers[aid].card for a in chosen):
            chosen.append(aid)
    names = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]
    for aid, name in zip(chosen, names):
        table.command(f"join {aid} as {name}")
    table.command("start")
    for _ in range(max_actions):
        action = autoplay.choose(table.content, table.state, rnd)
        if action is None:
            break
        if not table.events_json:
            table.out(f"$ {describe(table, action)}")
        table.apply(action)
    if not table.events_json:
        table.out(text.status(table.content, table.state))


def describe(table: Table, action: dict) -> str:
    name = table.state["players"][action["player"]]["name"]
    extra = {"attack": action.get("target"), "monster": f"{action.get('op')} {action.get('monster')} "
             f"{action.get('way') or action.get('target') or ''}".strip(), "move": action.get("way"), "use": action.get("card"), "drop": action.get("card"),
             "pickup": action.get("card"), "decide": (action.get("choice") or 0) + 1,
             "trade": f"{action.get('card')} to {action.get('to')}"}.get(action["type"], "")
    verb = "choose" if action["type"] == "decide" else action["type"]
    return f"{name}: {verb} {extra}".rstrip()


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m bot table", description="Play Betrayal at Baldur's Gate locally.")
    ap.add_argument("script", nargs="?", help="a file of commands to play (default: type them)")
    ap.add_argument("--seed", type=int, default=None, help="reproduce a game exactly")
    ap.add_argument("--auto", action="store_true", help="built-in players play a whole game")
    ap.add_argument("--players", type=int, default=4, help="how many built-in players with --auto (3-6)")
    ap.add_argument("--events", choices=["text", "json"], default="text", help="print events as text or JSON lines")
    ap.add_argument("--max-actions", type=int, default=3000)
    args = ap.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
    table = Table(seed, events_json=args.events == "json")
    if not table.events_json:
        print(f"Betrayal at Baldur's Gate - local table (seed {seed}). Type help for commands.")
    if args.auto:
        auto_game(table, max(3, min(6, args.players)), random.Random(seed), args.max_actions)
        return 0
    source = open(args.script) if args.script else sys.stdin
    interactive = source is sys.stdin and sys.stdin.isatty()
    if interactive and not table.events_json:
        print("Start with `adventurers` to see who can play, then `join <adventurer> as <name>` for each player.")
    while True:
        if interactive:
            try:
                line = input("> ")
            except EOFError:
                break
        else:
            line = source.readline()
            if not line:
                break
            if not table.events_json and line.strip():
                print(f"$ {line.rstrip()}")
        if not table.command(line):
            break
    return 0
