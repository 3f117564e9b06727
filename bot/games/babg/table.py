"""The local table: play or watch a whole game in a terminal, no Discord.

People type the same commands the slash commands offer; whoever the game is
waiting for acts (a hot seat), so one keyboard serves the whole table.
"""
import argparse
import asyncio
import atexit
import json
import os
import pathlib
import random
import sys

from bot.games.babg import autoplay, text, vocabulary
from bot.games.babg.content import ContentError, load_content
from bot.games.babg.engine import Engine, IllegalAction, story
from bot.games.babg.engine.legal import actor, legal_actions
from bot.games.babg.engine.state import monster_called
from bot.games.babg.engine.specials.house_rules import HOUSE_RULES
from bot import chronicle as ch
from bot.service import GameService, seats
from bot.service.chronicle import book, chapter_end_lines
from bot.games.babg.vocabulary import HAUNT_VERBS, SHORT_WAYS, TRAIT_WORDS, whole_number  # noqa: F401  (the table's words)

HELP = """Commands (the player the game waits for acts; `as <name> <command>` acts for someone else):
  join <adventurer> [as <name>]   take a seat (3 to 6 players), e.g. `join torskar as Ann`
  builtin [adventurer]             a seat the bot plays (Built-in 1, 2...): one or two people can play
  leave <name>                     leave before the start
  start                            deal the aid cards and begin
  move <north|east|south|west|stairs|grate>   (or just `north`, `n`, `up`, `down`...)
  roll [trait]                     attempt the roll your tile offers (once per turn)
  use <item> | drop <item> | pickup <item> | trade <item> <player>
  power [player] [trait]           use your adventurer power (e.g. `power`, `power Bo sanity`)
  choose <number>                  answer the question the game asks you
  undo                             take back your last action of this turn (until a die, a draw or a secret)
  end                              end your turn
 In the haunt:
  ready                            you have read your side's rules (`as <name> ready` for each player)
  rules [name]                     show that player's secret rules again
  attack <player|monster> [trait] [with <weapon>] [reckless]   trait <trait> <+N|-N> (a haunt's order)
  monster move <monster> <way>  |  monster attack <monster> <player>   (the monster turn)
  counter <name> <+N|-N|=N>   token <place|remove> <name>   slay <monster>
  moves: the haunt's own moves open to you; task <move> [trait] [target], e.g. `task search speed`
  declare <traitor|heroes>   confirm <yes|no> (answer a claimed win: every other player must say yes)
  part2 (open your side's second part)   unmask (a hidden traitor shows token 1)
  The toolkit (counter, token, slay) is for the player whose turn it is; trait changes your own traits.
  sheet [name]   status   map (text, and a picture saved to out/)   replay (an animated picture)
  log (the game's log, to check with --verify)   rules house (the house rules of --rules legacy-house-rules)
  adventurers   help   quit
 With --chronicle FILE (a campaign, kept in FILE between games):
  chronicle                        the campaign so far
  family <family> [name]           take a family (blue, green, red, yellow, purple), naming it (`as <name> family ...`)
  member <first name> <age>        who your family sends to this chapter (`as <name> member ...`, before the start)"""

MAX_LINE = 300  # characters: commands are a few words; longer lines are refused, not parsed
CHANNEL = "table"  # the table's one game, in the service's terms


class Table:
    """One game on one keyboard. The game lives in a GameService over an
    in-memory store, so every action goes through the same door as on
    Discord (checked, committed, logged); the table stays synchronous by
    running the service's coroutines on its own event loop."""

    def __init__(self, seed: int, out=print, events_json: bool = False, options: dict | None = None,
                 chronicle: dict | None = None, engine: Engine | None = None):
        """`chronicle`: a campaign's record (bot.chronicle): this game is its next chapter."""
        self.quitting = False  # `quit` typed once in a game in play: the next `quit` closes the table
        self.engine = engine or Engine(load_content())
        self.content = self.engine.content
        self.seed = seed
        self.service = GameService.in_memory(self.engine)
        if chronicle is not None:
            run(self.service.chronicles.adopt(CHANNEL, None, "table", chronicle))
        self.game = run(self.service.new_game(CHANNEL, None, "table", seed=seed, options=options))
        self._state = self._stored = self.game.state  # _stored: what the service holds
        self.out_dir = pathlib.Path(os.environ.get("TABLE_OUT", "out"))
        self.out_dir.mkdir(parents=True, exist_ok=True)
        self.out = out
        self.events_json = events_json
        self.log: list[dict] = []
        self.secrets: dict[str, list[str]] = {}
        self.numbers: dict[str, int] = {}  # the options of the question series now asked, with their numbers
        self.numbers_for: tuple | None = None  # (player, kind) of that series

    @property
    def state(self) -> dict:
        """The game as it stands (read it; do not change it in place)."""
        return self._state

    @state.setter
    def state(self, value: dict):
        # Tests and tools set up a moment of a game; it reaches the service before the next action.
        self._state = value

    # --- players and names ----------------------------------------------------

    def player_by_name(self, name: str) -> str:
        return vocabulary.player_by_name(self.state, name)

    def _power_action(self, who: str, words: list[str]) -> dict:
        return vocabulary.power_action(self.state, who, words)

    def apply(self, action: dict):
        """Apply one action through the service and print what happened."""
        if self._state["phase"] == "over":
            raise IllegalAction("This game is over.")
        outcome = run(self._act(action))
        self.log.append(action)
        self.show(outcome)
        self.play_builtin()

    def add_builtin(self, adventurer: str | None = None):
        """A built-in player takes a seat (bot.service.seats)."""
        adv = self.engine.find_adventurer(adventurer) if adventurer else None
        self.show(run(self.service.add_builtin(CHANNEL, "table", adv)))

    def play_builtin(self):
        """The seats the bot plays take their turns and answer their questions,
        each stretch shown as it happened."""
        while self._state["phase"] != "over":
            outcome = run(self.service.play_builtin(CHANNEL))
            if outcome is None:
                return
            self.show(outcome)

    def show(self, outcome):
        """Print what an action (or a built-in stretch) did: everyone's lines,
        and a player's own marked as theirs (a built-in seat's stay unsaid)."""
        self.game = outcome.game
        self._state = self._stored = outcome.state
        for line in outcome.notes:
            self.out(line)
        for ev in outcome.events:
            if seats.is_builtin(self._state, ev["to"]):
                continue  # the bot keeps its built-in seats' secrets
            ev = {**ev, "text": vocabulary.spoken(ev["text"], self._state, "table")}
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
            if self._state["phase"] == "over":  # the game's end: all that was hidden, for everyone
                for line in story.reveal_lines(self.content, self._state):
                    self.out(line)
        news = self.service.chronicles.take_news(CHANNEL)  # the campaign's, with --chronicle
        for ended in self.service.chronicles.take_ended(CHANNEL):
            if self.events_json:
                self.out(json.dumps(ended, sort_keys=True))
        if not self.events_json:
            for line in news:
                self.out(line)
            self.prompt_line()

    def chronicle_record(self) -> dict | None:
        """The campaign's record as it stands (None: a plain game)."""
        row = run(self.service.chronicles.campaign(CHANNEL))
        return row.record if row else None

    async def _act(self, action: dict):
        if self._state is not self._stored:  # set from outside since the last action
            await self.service.overwrite_state(self.game, self._state)
            self._stored = self._state
        return await self.service.act(CHANNEL, action)

    def prompt_line(self):
        s = self.state
        if s["phase"] == "over":
            return
        who = actor(s)
        if who is None:
            return
        if who in seats.played_by_bot(s, self.game.settings) and (s.get("haunt") or {}).get("started", True):
            self.out(f"> {s['players'][who]['name']}, a built-in player, is playing.")
            return
        if s["pending"]:
            opts = "; ".join(f"{n}. {o}" for n, o in self.numbered())
            self.out(f"> {s['players'][who]['name']}, choose with `choose <number>`: {opts}")
            return
        h = s.get("haunt")
        if s["phase"] == "haunt" and not (h or {}).get("started", True):
            waiting = [s["players"][p]["name"] for p in s["seats"] if s["players"][p]["alive"] and p not in h["ready"]
                       and not seats.is_builtin(s, p)]
            self.out(f"> Waiting for {', '.join(waiting)}: each types `as <name> ready` after reading `rules <name>`.")
            return
        if s["turn"].get("monsters"):
            names = ", ".join(monster_called(m) + (" (stunned)" if m["stunned"] else "")
                              for m in s["monsters"] if not m["dead"])
            self.out(f"> {s['players'][who]['name']} runs the monster turn ({names}): `monster move <monster> <way>`, "
                     "`monster attack <monster> <player>`, then `end`.")
            return
        ways = [a["way"] for a in legal_actions(self.content, s) if a["type"] == "move"]  # what Speed still allows
        over = s["turn"]["stopped"] or (not ways and s["turn"]["moved"])
        moves = "movement over" if over else ("move " + "/".join(ways) if ways else "no way out")
        extra = "attack, " if s["phase"] == "haunt" else ""
        if s["phase"] == "haunt" and any(a["type"] == "task" for a in vocabulary.legal_for(self.content, s, who)):
            extra += "`moves` (the haunt's moves open to you), "
        self.out(f"> {s['players'][who]['name']}: {moves}; or {extra}use/drop/pickup/roll, sheet, map, end.")

    def numbered(self) -> list[tuple[int, str]]:
        """The question's options with their numbers. A question asked again
        with what is left of its options (tokens laid one by one) keeps each
        option's number, so a number read from the last list never picks
        another option."""
        pending = self.state["pending"]
        options, asked = pending["options"], (pending["player"], pending["kind"])
        again = asked == self.numbers_for and set(options) <= set(self.numbers) and len(set(options)) == len(options)
        if not again:
            self.numbers, self.numbers_for = {o: i + 1 for i, o in enumerate(options)}, asked
        return [(self.numbers[o], o) for o in options] if len(set(options)) == len(options) \
            else list(enumerate(options, 1))

    def _by_number(self, action: dict) -> dict:
        """A `choose N` as numbered on the last list shown."""
        pending = self.state["pending"]
        if action["type"] != "decide" or not isinstance(action["choice"], int) or not pending \
                or len(set(pending["options"])) != len(pending["options"]):
            return action
        shown = dict(self.numbered())
        if action["choice"] + 1 not in shown:
            raise IllegalAction(f"There is no option {action['choice'] + 1} now: "
                                f"{'; '.join(f'{n}. {o}' for n, o in self.numbered())}.")
        return {**action, "choice": pending["options"].index(shown[action["choice"] + 1])}

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
        """The table's own words (help, status, map...) here; every action
        is parsed by the shared vocabulary."""
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
        quitting, self.quitting = self.quitting, False
        if verb in ("quit", "exit"):
            if s["phase"] in ("exploring", "haunt") and not quitting:  # a slip of the keyboard must not end a game
                self.quitting = True
                self.out("The game in play is not kept once the table closes: type quit again to close it, "
                         "or any other command to play on (`log` saves the game's log first).")
                return True
            return False
        if verb == "pickup" and not arg and who is not None and s["phase"] in ("exploring", "haunt"):
            pile = [self.content.cards[c].name for c in s["piles"].get(s["players"][who]["tile"], [])]
            raise IllegalAction(f"Pick up which card? Here: {', '.join(pile)} (`pickup <card name>`)." if pile
                                else "There is nothing here to pick up.")
        if verb == "help":
            self.out(HELP)
        elif verb == "adventurers":
            for a in self.content.adventurers.values():
                free = "free" if a.id in self.engine.free_adventurers(s) else "taken or paired"
                self.out(f"  {a.id:<9} {a.name} ({a.race} {a.klass}) - {a.power['name']} [{free}]")
        elif verb == "moves":
            pid = self.player_by_name(arg) if arg else who
            offered = [a for a in vocabulary.legal_for(self.content, s, pid)
                       if a["type"] == "task"] if pid and s["phase"] == "haunt" else []
            for a in offered:
                self.out(f"  {vocabulary.to_words(a, s, self.content):<40} {vocabulary.describe(a, s, self.content)}")
            if not offered:
                self.out("No haunt move is open now." if s["phase"] == "haunt" else "Haunt moves open once the haunt "
                         "begins.")
        elif verb == "builtin":
            self.add_builtin(arg or None)
        elif verb == "chronicle":
            record = self.chronicle_record()
            if record is None:
                raise IllegalAction("This table keeps no chronicle: start it with --chronicle FILE.")
            for line in ch.summary_lines(record):
                self.out(line)
        elif verb in ("member", "family"):
            if who is None:
                raise IllegalAction(f"For whom? `as <name> {verb} ...`.")
            if verb == "family" and rest:
                self.out(run(self.service.chronicles.pick_family(CHANNEL, who, rest[0], " ".join(rest[1:]) or None)))
            elif verb == "member" and len(rest) >= 2 and rest[-1].isdigit():
                self.out(run(self.service.chronicles.set_member(CHANNEL, who, " ".join(rest[:-1]), int(rest[-1]))))
            else:
                raise IllegalAction("`member <first name> <age>`, `family <family> [name]`.")
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
        elif verb == "rules" and arg.lower() in ("house", "house rules") and not self._named(arg):
            for _, source, words in HOUSE_RULES:
                self.out(f"- {words} ({source})")
        elif verb == "log":
            self.out(f"Log saved to {self.save_log()}" + ("" if self.service.finished(self.game) else
                                                          " (the game is not over: it holds no seed yet)"))
        elif verb == "rules":
            pid = self.player_by_name(arg) if arg else who
            if pid is None:
                raise IllegalAction("Whose rules? `rules <name>`.")
            texts = [line for line in self.secrets.get(pid, [])]
            self.out("\n\n".join(texts) if texts else "No secret rules yet.")
        else:
            self.apply(self._by_number(vocabulary.parse(words, s, acting, self.engine.content)))
        return True

    def _named(self, name: str) -> bool:
        try:
            return bool(self.player_by_name(name))
        except IllegalAction:
            return False

    def save_log(self) -> str:
        """The game's log (actions, rolls, draws), as /log file gives it."""
        path = self.out_dir / f"log-game-seed{self.seed}.json"
        path.write_bytes(run(self.service.log_file(self.game)))
        return str(path)

    def save_map(self) -> str:
        """The same picture /map posts on Discord, written to a file."""
        from bot.games.babg.render import render_map
        turn = (self.state.get("turn") or {})
        path = self.out_dir / f"map-seed{self.seed}-turn{turn.get('number', 0)}.png"
        path.write_bytes(render_map(self.content, self.state, highlight=turn.get("player")))
        return str(path)

    def save_replay(self) -> str:
        from bot.games.babg.render import render_replay_gif
        from bot.games.babg.replay import turn_states
        frames = turn_states(self.engine, self.seed, self.log, self.state["options"]["haunt"],
                             options=self.state["options"])
        path = self.out_dir / f"replay-seed{self.seed}.gif"
        path.write_bytes(render_replay_gif(self.content, frames))
        return str(path)


_loop: asyncio.AbstractEventLoop | None = None


def run(coro):
    """Run one of the service's coroutines to its end, on the tables' own
    event loop (one for the life of the process, closed at exit)."""
    global _loop
    if _loop is None:
        _loop = asyncio.new_event_loop()
        atexit.register(_loop.close)
    return _loop.run_until_complete(coro)


def verify(seed: str, path: str) -> int:
    """`--verify SEED LOG`: 0 when every roll and draw of the log is the one
    the seed gives, else 1 with the first that is not."""
    try:
        number = int(seed)
        log = json.loads(pathlib.Path(path).read_text())
    except ValueError:
        print("! The seed is a whole number and the log the JSON file /log file gives.")
        return 2
    except OSError as e:
        print(f"! Cannot read {path}: {e.strerror}.")
        return 2
    engine = Engine(load_content())
    ok, lines = GameService.in_memory(engine).verify(number, log)
    print(("Verified. " if ok else "Rejected. ") + " ".join(lines))
    return 0 if ok else 1


def auto_game(table: Table, players: int, rnd: random.Random, max_actions: int, names: list[str] | None = None):
    ids = list(table.content.adventurers)
    rnd.shuffle(ids)
    chosen = []
    for aid in ids:
        if len(chosen) == players:
            break
        if all(table.content.adventurers[a].card != table.content.adventurers[aid].card for a in chosen):
            chosen.append(aid)
    names = names or NAMES
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


NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]


def load_chronicle(path: str) -> dict:
    """The campaign kept in `path` (JSON), or a new one when the file does not exist yet."""
    file = pathlib.Path(path)
    if not file.exists():
        return {**ch.new_campaign("table", book()), "id": file.stem}
    try:
        record = json.loads(file.read_text())
    except (OSError, ValueError) as e:
        raise IllegalAction(f"{path} is not a chronicle the table can read ({e}).") from None
    if not isinstance(record, dict) or "families" not in record or "chapters" not in record:
        raise IllegalAction(f"{path} is not a chronicle: it has no families and chapters.")
    return record


def save_chronicle(path: str, record: dict | None):
    if record is not None:
        tmp = pathlib.Path(f"{path}.tmp")
        tmp.write_text(json.dumps(record, indent=1, sort_keys=True))
        tmp.replace(path)  # whole or not at all


def auto_campaign(args, seed: int, options: dict, record: dict, path: str) -> int:
    """`--auto --chronicle FILE`: the built-in players play the rest of the campaign (the prologue and
    13 chapters; a campaign already told plays one game of free play), each chapter written down in
    FILE as it ends. Each fourth chapter one family sits out (with four players or more)."""
    players = max(3, min(5, args.players))
    engine = Engine(load_content())
    rnd = random.Random(seed)
    first = ch.next_chapter(record)
    last = max(first, ch.CHAPTERS)
    for attempt in range(3 * (last - first + 1)):
        number = ch.next_chapter(record)
        if number > last:
            break
        present = NAMES[:players]
        if players > 3 and number % 4 == 3:
            present = [n for i, n in enumerate(present) if i != (number // 4) % players]
        table = Table(seed + attempt, events_json=args.events == "json", options=options, chronicle=record,
                      engine=engine, out=print if args.events == "json" else (lambda *_: None))
        auto_game(table, len(present), rnd, args.max_actions, names=present)
        close_unfinished(table)
        record = table.chronicle_record()
        for fid, fam in record["families"].items():  # the built-in players name their heirlooms plainly
            for h in fam["heirlooms"]:
                if not h["name"]:
                    record = ch.name_heirloom(record, fid, h["item"],
                                              f"{ch.family_called(record, fid)}'s {h['item'].replace('_', ' ')}")
        save_chronicle(path, record)
        if args.events != "json":
            if ch.next_chapter(record) > number:
                print("\n".join(chapter_end_lines(record, record["chapters"][-1])))
            else:
                print(f"{ch.chapter_title(number).capitalize()} did not reach its end; played again.")
    if args.events != "json":
        print("\n".join(ch.summary_lines(record)))
    return 0


def describe(table: Table, action: dict) -> str:
    """`Ann: <the command that does it>`, for the demo's listing."""
    name = table.state["players"][action["player"]]["name"]
    words = vocabulary.to_words(action, table.state, table.content)
    return f"{name}: {words or vocabulary.describe(action, table.state, table.content)}"


def close_unfinished(table: Table):
    """A game the built-in players did not finish gets a closing line too,
    so every game's end carries a winner and a reason."""
    if table.state["phase"] == "over":
        return
    if table.events_json:
        table.out(json.dumps({"kind": "over", "to": "all", "text": "Stopped: the action limit was reached.",
                              "winner": None, "reason": "action_limit"}, sort_keys=True))
    else:
        table.out("Stopped: the action limit was reached.")


def ending(state: dict) -> tuple[str, str]:
    """(winner, reason) of a finished or stopped game."""
    if state["phase"] != "over":
        return "nobody", "action_limit"
    result = state.get("result") or {}
    return result.get("winner") or "nobody", result.get("condition") or result.get("reason") or "?"


def auto_games(args, seed: int, options: dict) -> int:
    """`--auto --games K`: K games, one after another, then how they ended."""
    tally: dict[tuple[str, str], int] = {}
    players = max(3, min(6, args.players))
    for k in range(args.games):
        table = Table(seed + k, events_json=args.events == "json", options=options, out=print if
                      args.events == "json" else (lambda *_: None))
        auto_game(table, players, random.Random(seed + k), args.max_actions)
        close_unfinished(table)
        winner, reason = ending(table.state)
        tally[winner, reason] = tally.get((winner, reason), 0) + 1
        if args.events != "json":
            h = table.state.get("haunt") or {}
            print(f"game {k + 1} (seed {seed + k}): haunt {h.get('number', '-')}, {winner} ({reason})")
    if args.events != "json":
        heroes = sum(n for (w, _), n in tally.items() if w == "heroes")
        print(f"{args.games} games: " + ", ".join(f"{w} ({r}) {n}" for (w, r), n in sorted(tally.items()))
              + f"; heroes won {heroes} ({100 * heroes // args.games}%)")
    return 0


def main(argv=None, system=None):
    ap = argparse.ArgumentParser(prog="python -m bot table", description="Play Betrayal at Baldur's Gate locally.")
    ap.add_argument("script", nargs="?", help="a file of commands to play (default: type them)")
    ap.add_argument("--seed", type=int, default=None, help="reproduce a game exactly")
    ap.add_argument("--auto", action="store_true", help="built-in players play a whole game")
    ap.add_argument("--players", type=int, default=4, help="how many built-in players with --auto (3-6)")
    ap.add_argument("--builtin", type=int, default=0, metavar="N",
                    help="seats the bot plays beside you (1-5): join, then start, and they play their turns")
    ap.add_argument("--events", choices=["text", "json"], default="text", help="print events as text or JSON lines")
    ap.add_argument("--max-actions", type=int, default=3000)
    ap.add_argument("--games", type=int, default=1,
                    help="with --auto, play this many games (seeds SEED, SEED+1, ...) and sum up how they ended")
    ap.add_argument("--haunt", type=int, default=None, help="play this haunt (1-50) in place of the chart's")
    ap.add_argument("--rules", choices=["baldurs-gate", "legacy-house-rules"], default="baldurs-gate",
                    help="house rules from Betrayal Legacy (`rules house` lists them)")
    ap.add_argument("--avoid-repeats", action="store_true",
                    help="the rulebook's optional rule: search on past haunts already played (see --played)")
    ap.add_argument("--played", default="", help="haunts already played, e.g. 3,18 (with --avoid-repeats)")
    ap.add_argument("--chronicle", metavar="FILE", default=None,
                    help="play the next chapter of the campaign kept in FILE (JSON, made if missing); "
                         "with --auto, the built-in players play the whole campaign")
    ap.add_argument("--verify", nargs=2, metavar=("SEED", "LOG"),
                    help="check a finished game's log against its revealed seed: every roll and draw")
    args = ap.parse_args(argv)
    if args.verify:
        return verify(*args.verify)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
    try:
        played = [int(n) for n in args.played.replace(",", " ").split()]
        options = {"chosen_haunt": args.haunt, "rules": [args.rules], "avoid_repeats": args.avoid_repeats,
                   "played": played}
        record = load_chronicle(args.chronicle) if args.chronicle else None
        if args.auto and record is not None:
            return auto_campaign(args, seed, options, record, args.chronicle)
        table = Table(seed, events_json=args.events == "json", options=options, chronicle=record)
    except ContentError:
        raise  # (said in one line by python -m bot)
    except (IllegalAction, ValueError) as e:
        print(f"! {getattr(e, 'reason', None) or 'Haunts in --played are numbers, e.g. 3,18.'}")
        return 2
    if args.auto and args.games > 1:
        return auto_games(args, seed, options)
    if not table.events_json:
        print(f"Betrayal at Baldur's Gate - local table (seed {seed}). Type help for commands.")
    if args.auto:
        auto_game(table, max(3, min(6, args.players)), random.Random(seed), args.max_actions)
        close_unfinished(table)
        return 0
    if record is not None and not table.events_json:
        print(f"This game is {ch.chapter_title(ch.next_chapter(record))} of the chronicle in {args.chronicle}.")
    for _ in range(max(0, min(5, args.builtin))):
        table.add_builtin()
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
        if record is not None:
            save_chronicle(args.chronicle, table.chronicle_record())  # kept as it goes: a chapter's end is not lost
    return 0
