"""Crashes under load: two bot processes on one PostgreSQL database (one
Discord shard each, as bench/discord_load.py --processes 2 runs them), games
played in both shards' servers, and --kills times, at random moments, one of
the two processes killed with SIGKILL (no goodbye to Discord or the
database) and started again at once on the same shard. Prints, for each
kill, when it happened and how long until the killed shard's games answered
again; at the end, acknowledged actions lost, actions applied twice, and
errors. Target: 20 kills, 0 lost, 0 double-applied, every shard's games
back within 5 s of its kill.

The players. Every game has three players in one channel of its shard's
server. Each loop a player looks at the game (its state as last committed,
read from the database, as a person reads the turn message), picks a command
the game's rules accept from that state (/game new, /game join, /game start,
/move, /choose, /haunt ready, /end: each checked first with the engine on
that state, so a refusal is never expected), waits a think time
(exponential, mean --think s) and sends it. A player waits 3 s for the bot's
first answer (Discord's limit, after which the person sees "the application
did not respond") and 10 s more for the result of a deferred one. With no
answer, the player waits --resend-wait seconds, looks at the game again and
sends what it now needs, without a think time: the same command again if it
was not done, the next one if it was (a person resending after a crash
looks first). A game whose actor has no command the bench plays is ended
with /game end and a new one opened (not checked below).

How each interaction is counted:
- acknowledged: the bot's answer arrived in time and said the command was
  done. For a command of a started game the bot answers privately with what
  happened; the player computes that text beforehand by applying the action
  to the state it read with the engine and the bot's own message code
  (bot.discord.messages.deliver, as bot.discord.turn_posts does), and the
  answer counts as acknowledged only if it carries exactly that text. For
  /game new, join, start and an action that ends the game, the bot answers
  in the channel, and a refusal privately: acknowledged is an answer with
  no private message in it.
- refused: answered, but not acknowledged (a private refusal such as "the
  database is not answering", or a text other than the one predicted).
- unanswered: no first answer within 3 s, or no result within 10 s more.
  One sent to a shard within 13 s before its kill (or up to 1 s after, before
  the fake Discord notices the connection gone) is put down to the kill;
  any other is an error.
- The action log: every games row (a /game new) and actions row in the
  database at the end, per channel and player, in the order written. Each
  entry is matched to the latest interaction of that player in that channel
  that sent the same command (type and argument: the way for /move, the
  option for /choose, the adventurer for /game join), was sent before the
  entry was written and comes after the interaction matched to the previous
  entry (so a command resent after no answer is matched, not the unanswered
  one before it that was never applied).
- lost: an acknowledged interaction that no log entry matches.
- Each log entry is put in one class (CLASSES, printed with a line each):
  answered; done at a kill (its interaction went unanswered because the
  process was killed after the commit; the player found it done on looking
  again); the bot's seats (an entry of a seat no player of the bench holds,
  as a built-in seat); and the faults, whose count is printed
  first (target 0): told otherwise (a refused interaction that a log entry
  matches: the player was told no, or something else, yet it happened),
  unanswered (no answer and no kill to explain it), double (no interaction
  left to match it, though the player did send that command there: applied
  more times than sent), never sent (a command that player never sent).
  The engine's own steps (a monster turn's moves, an effect's rolls, the
  haunt's setup) happen inside the action that set them off: no entry of
  their own.
- errors: refused + unanswered not put down to a kill + sends the fake could
  not deliver (no connected process for 60 s) + ERROR lines the bots logged.

usage: python bench/failover.py [--games 100] [--think 1] [--kills 20]
       [--database postgres|postgresql://...] [--seed N]
"""
import argparse
import collections
import asyncio
import copy
import json
import pathlib
import random
import sys
import tempfile
import time
from types import SimpleNamespace

BENCH = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent))
sys.path.insert(0, str(BENCH))

import discord_load as load  # noqa: E402  (bench/discord_load.py: processes, database, players)

ANSWER_TIMEOUT = 3.0  # Discord's limit for the first answer
RESULT_TIMEOUT = 10.0  # for the result of a deferred answer
NOTICED = 1.0  # seconds after a kill in which the fake may still hand an interaction to the dead connection


# --- what a player expects -------------------------------------------------------------

def expected(engine, state: dict, action: dict):
    """How the bot answers `action` on `state` when it does it: ("private",
    text) for an action of a started game (the text the player alone sees),
    ("public", None) for the lobby's, the start and a game's end (told in the
    channel); None when the rules refuse it."""
    from bot.games.babg.discord import messages
    from bot.discord.turn_posts import in_play
    from bot.games.babg.engine import IllegalAction
    from bot.service import seats
    try:
        after, events = engine.apply(state, action)
    except IllegalAction:
        return None
    if in_play(SimpleNamespace(game=SimpleNamespace(system="babg"), before=state, state=after)):  # (its system's face)
        d = messages.deliver(engine.content, state, after, events, seats.played_by_bot(after, {}))
        return "private", (messages.chunks(list(d.said)) or d.public or ["Done."])[0]
    return "public", None


def log_key(action: dict) -> tuple:
    kind = action.get("type")
    field = {"join": "adventurer", "move": "way", "decide": "choice"}.get(kind)
    return (kind, action.get(field)) if field else (kind,)


def next_command(engine, state: dict | None, users, rnd: random.Random, map_setting: str | None):
    """(user, command name, its options, note) for what the game needs next;
    the note holds the log key and the answer that says it was done. None:
    nothing to do (nobody to act)."""
    from bot.games.babg.engine.legal import actor
    if state is None:
        options = {"map": map_setting} if map_setting else {}
        return users[0], "game", {"subcommand": "new", "options": options}, \
            {"key": ("new",), "expect": ("public", None)}
    candidates = []  # (user, name, options, action)
    if state["phase"] == "lobby":
        for user, adventurer in zip(users, load.ADVENTURERS):
            if str(user.id) not in state["players"]:
                candidates.append((user, "game", {"subcommand": "join", "options": {"adventurer": adventurer}},
                                   {"type": "join", "adventurer": adventurer, "name": user.name}))
                break
        else:
            candidates.append((users[0], "game", {"subcommand": "start"}, {"type": "start"}))
    else:
        by_id = {str(u.id): u for u in users}
        who = actor(state)
        if who not in by_id:
            return None
        user = by_id[who]
        haunt = state.get("haunt") or {}
        if state["pending"]:
            candidates.append((user, "choose", {"options": {"option": 1}}, {"type": "decide", "choice": 0}))
        elif state["phase"] == "haunt" and not haunt.get("started", True):
            candidates.append((user, "haunt", {"subcommand": "ready"}, {"type": "ready"}))
        else:
            if not state["turn"]["stopped"] and state["players"][who]["tile"] and rnd.random() < 0.6:  # (on the board)
                ways = [w for w, i in engine.ways_out(state, who).items() if "blocked" not in i]
                rnd.shuffle(ways)
                candidates += [(user, "move", {"options": {"direction": w}}, {"type": "move", "way": w})
                               for w in ways]
            candidates.append((user, "end", {}, {"type": "end"}))
    for user, name, options, action in candidates:
        action = {**action, "player": str(user.id)}
        answer = expected(engine, copy.deepcopy(state), action)
        if answer is not None:
            return user, name, options, {"key": log_key(action), "expect": answer}
    # nothing the bench plays is accepted: the game is ended (/game end by its creator) and another opened
    return users[0], "game", {"subcommand": "end"}, None


# --- the players -------------------------------------------------------------------------

def answers(handle) -> list[tuple[str, bool]]:
    """The texts the user got in answer to the interaction, and whether each was private."""
    from tests.fake_discord.models import LOADING
    return [(m.content or "", m.ephemeral) for m in (handle.message, *handle.followups)
            if m is not None and not m.deleted and not m.flags & LOADING]


def acknowledged(sent) -> bool:
    if sent.outcome != "answered" or sent.note is None:
        return False
    kind, text = sent.note["expect"]
    private = [content for content, is_private in answers(sent.handle) if is_private]
    return text in private if kind == "private" else not private


class Crew(load.Players):
    """The players, and when each server's games last said a command was done."""

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.acked: dict[int, list[tuple[float, float]]] = {}  # guild id -> (dispatched, answer seen), each done
        self.send_failures: list[str] = []
        self.stuck = 0

    def back_after(self, guild_id: int, moment: float) -> float | None:
        """When the first command sent to the server after `moment` was answered as done."""
        seen = [at for dispatched, at in self.acked.get(guild_id, ()) if dispatched > moment]
        return min(seen) if seen else None

    async def play(self, channel, users, stop: asyncio.Event, resend_wait: float):
        self.channels.add(channel.id)
        again = False  # the last command went unanswered: look, then send without thinking
        while not stop.is_set():
            state = await self.state(channel.id)
            command = next_command(self.engine, state, users, self.rnd, self.map)
            if command is None:
                await asyncio.sleep(0.5)
                continue
            user, name, options, note = command
            if note is None:
                self.stuck += 1
            try:
                handle = await self.command(user, channel, name, think=not again, note=note, **options)
            except Exception as e:  # noqa: BLE001 - the fake found no connected bot for the server in time
                self.send_failures.append(repr(e)[:200])
                again = True
                await asyncio.sleep(resend_wait)
                continue
            sent = next(s for s in reversed(self.sent) if s.handle is handle)
            if acknowledged(sent):
                self.acked.setdefault(sent.guild_id, []).append((handle.dispatched_at, time.monotonic()))
            again = sent.outcome != "answered"
            if again:
                await asyncio.sleep(resend_wait)


# --- the kills ---------------------------------------------------------------------------

async def kill_and_restart(args, s, bots: load.BotProcesses, guilds, crew: Crew, rnd: random.Random,
                           t0: float) -> list[dict]:
    kills = []
    await asyncio.sleep(args.warmup)
    for k in range(args.kills):
        await asyncio.sleep(rnd.uniform(args.gap_min, args.gap_max))
        i = rnd.randrange(len(guilds))
        guild = guilds[i]
        waiting = sum(1 for x in crew.sent if x.guild_id == guild.id and x.outcome == "waiting")
        pid = bots.procs[i].pid
        old_sessions = set(s.gateway.sessions)
        kill_at = time.monotonic()
        bots.kill(i)
        bots.start(i)
        connected = back = None
        while time.monotonic() < kill_at + args.give_up:
            if connected is None and any(x.id not in old_sessions for x in s.gateway.ready_sessions(guild.id)):
                connected = time.monotonic()
            back = crew.back_after(guild.id, kill_at)
            if back is not None:
                break
            if bots.dead():
                raise SystemExit(f"bot process {bots.dead()[0]} stopped by itself; see {bots.logs[bots.dead()[0]]}")
            await asyncio.sleep(0.01)
        kill = {"n": k + 1, "at": kill_at - t0, "moment": kill_at, "shard": i, "guild": guild.id, "pid": pid,
                "waiting": waiting, "connected": None if connected is None else connected - kill_at,
                "back": None if back is None else back - kill_at}
        kills.append(kill)
        print(f"kill {k + 1:2}/{args.kills}: at {kill['at']:6.1f} s, shard {i}'s process (pid {pid}; "
              f"{waiting} interaction{'s' if waiting != 1 else ''} not yet answered); the new one connected "
              + (f"after {kill['connected']:.2f} s" if connected is not None else "not at all")
              + ", its games answered again "
              + (f"after {kill['back']:.2f} s ({'within' if kill['back'] < args.target else 'OVER'} "
                 f"{args.target:g} s)" if back is not None else f"NOT within {args.give_up:g} s"), flush=True)
    return kills


async def rolling_restarts(args, s, bots: load.BotProcesses, guilds) -> list[dict]:
    """A deploy, --rolling times over: each process in turn is replaced
    the way a deploy does it, the new one started first on the same shard
    and the old one sent SIGTERM once the new one is connected (it takes no
    new interaction, answers those it took, and exits)."""
    restarts = []
    await asyncio.sleep(args.warmup)
    for r in range(args.rolling):
        for i, guild in enumerate(guilds):
            await asyncio.sleep(args.gap_min)
            old = bots.procs[i]
            before = {x.id for x in s.gateway.ready_sessions(guild.id)}
            began = time.monotonic()
            bots.start(i)
            while not any(x.id not in before for x in s.gateway.ready_sessions(guild.id)):
                if bots.dead() or time.monotonic() > began + args.give_up:
                    raise SystemExit(f"the new process of shard {i} did not connect; see {bots.logs[i]}")
                await asyncio.sleep(0.01)
            connected = time.monotonic() - began
            old.terminate()
            await asyncio.to_thread(old.wait, 60)
            stopped = time.monotonic() - began - connected
            restarts.append({"shard": i, "connected": connected, "stopped": stopped, "exit": old.returncode})
            print(f"restart {r + 1}/{args.rolling}, shard {i}: the new process connected after {connected:.2f} s; "
                  f"the old one answered what it had taken and stopped {stopped:.2f} s later "
                  f"(exit {old.returncode})", flush=True)
    return restarts


# --- the count ----------------------------------------------------------------------------

# Every entry of the action log (a games row for a /game new, an actions row for anything else the service
# applied) is put in one class. The log holds only what the service applied and committed: one row per person's
# command and one per action of a seat the bot plays; the engine's own steps (a monster turn's moves, a rolled
# effect, the haunt's setup) happen inside the action that set them off and write no row of their own.
CLASSES = {  # class: (a fault?, what it is, in one line)
    "answered": (False, "a person's command, committed and answered as done (the text the player expected)"),
    "done at a kill": (False, "a person's command the killed process committed just before it died: the dead "
                              "process could not answer it; the player looked again and found it done"),
    "the bot's seats": (False, "an action of a seat no person of the bench holds (a built-in seat): played by the "
                               "bot itself, never sent by anyone"),
    "told otherwise": (True, "committed, yet the person was answered with a refusal or another text"),
    "unanswered": (True, "committed, but the person got no answer, and no kill explains it"),
    "double": (True, "committed once more than the person sent it (no interaction left to match it)"),
    # (the bench's games leave the stand-in off, as a new game does: nothing plays a person's seat for them)
    "never sent": (True, "committed on a person's seat, a command that person never sent"),
}
FAULTS = [name for name, (fault, _) in CLASSES.items() if fault]

# What came of an interaction (its fate), for the classifier.
ACKNOWLEDGED, REFUSED, KILLED, NO_ANSWER = "acknowledged", "refused", "unanswered at a kill", "unanswered"


def classify(entries: list[tuple[float, tuple]], sends: list[tuple[tuple, float, str]],
             person: bool) -> tuple[list[str], set[int]]:
    """One player's log entries in one channel, each in a class of CLASSES.
    `entries`: (when written, log key), in the order written; `sends`: that
    player's interactions there, in the order sent, each (log key, when sent,
    its fate); `person`: whether the seat is one of the bench's players (not a
    seat the bot plays). Each entry is matched to the latest interaction that
    sent the same command before it was written and after the one matched to
    the entry before (so a command resent after no answer is matched, not the
    unanswered one before it that was never applied). Returns the classes, and
    the indices of the interactions matched (an acknowledged one not among
    them was lost)."""
    classes, matched, after = [], set(), 0
    keys = {key for key, _, _ in sends}
    for at, key in entries:
        k = max((k for k in range(after, len(sends)) if sends[k][0] == key and sends[k][1] <= at), default=None)
        if k is None:
            classes.append("the bot's seats" if not person else "double" if key in keys else "never sent")
            continue
        matched.add(k)
        after = k + 1
        fate = sends[k][2]
        classes.append({ACKNOWLEDGED: "answered", REFUSED: "told otherwise", KILLED: "done at a kill"}.get(
            fate, "unanswered"))
    return classes, matched


def fate(x, kills: list[dict]) -> str:
    """What came of the interaction `x`: acknowledged, refused (answered
    otherwise), or unanswered, put down to a kill when sent to the shard
    within 13 s before it (or up to 1 s after, before the fake Discord
    notices the connection gone)."""
    if acknowledged(x):
        return ACKNOWLEDGED
    if x.outcome == "answered":
        return REFUSED
    at = x.handle.dispatched_at
    if any(k["guild"] == x.guild_id and k["moment"] - ANSWER_TIMEOUT - RESULT_TIMEOUT <= at <= k["moment"] + NOTICED
           for k in kills):
        return KILLED
    return NO_ANSWER


async def count(db: load.Database, crew: Crew, kills: list[dict], people: set[tuple[str, str]]) -> dict:
    """The action log against the interactions. `people`: (channel id, user
    id) of every player the bench plays."""
    games = await db.query("SELECT channel_id, id, creator_id, created_at FROM games ORDER BY id")
    actions = await db.query("SELECT g.channel_id, g.id, a.seq, a.action, a.at FROM actions a"
                             " JOIN games g ON g.id = a.game_id ORDER BY g.id, a.seq")
    log: dict[tuple[str, str], list[tuple[float, int, int, tuple]]] = {}
    for channel_id, game_id, creator, created in games:
        log.setdefault((channel_id, creator), []).append((created, game_id, -1, ("new",)))
    for channel_id, game_id, seq, text, at in actions:
        action = json.loads(text)
        log.setdefault((channel_id, str(action.get("player"))), []).append((at, game_id, seq, log_key(action)))
    sent: dict[tuple[str, str], list] = {}
    for x in crew.sent:
        if x.note is not None:
            sent.setdefault((str(x.channel_id), str(x.user_id)), []).append(x)
    c = dict(checked=sum(len(v) for v in sent.values()), entries=0, classes=collections.Counter(),
             fates=collections.Counter(), lost=0, examples=[])
    for who in set(log) | set(sent):
        mine = sent.get(who, [])
        fates = [fate(x, kills) for x in mine]
        entries = sorted(log.get(who, []))
        classes, matched = classify([(at, key) for at, _, _, key in entries],
                                    [(x.note["key"], x.wall, f) for x, f in zip(mine, fates)], who in people)
        c["entries"] += len(entries)
        c["classes"].update(classes)
        c["fates"].update(fates)
        for entry, name in zip(entries, classes):
            if CLASSES[name][0] and len(c["examples"]) < 5:
                c["examples"].append(f"{name}: channel {who[0]}, player {who[1]}, game {entry[1]} seq {entry[2]} "
                                     f"{entry[3]}, written {entry[0]:.3f}; sent there: "
                                     f"{[(x.note['key'], round(x.wall, 3), f) for x, f in zip(mine, fates)][-6:]}"
                                     [:1500])
        for k, (x, f) in enumerate(zip(mine, fates)):
            if f == ACKNOWLEDGED and k not in matched:
                c["lost"] += 1
                if len(c["examples"]) < 5:
                    c["examples"].append(f"lost: {x.name} {x.kw} sent {x.wall:.3f}: {answers(x.handle)}; log: "
                                         f"{entries[-6:]}"[:1500])
            elif f == REFUSED and len(c["examples"]) < 5:
                c["examples"].append(f"refused: {x.name} {x.kw}: {answers(x.handle)}"[:300])
    c["faults"] = sum(c["classes"][name] for name in FAULTS)
    return c


def report_log(c: dict) -> list[str]:
    """The action log's classes, the faults first, each explained in one line."""
    lines = [f"the action log: {c['entries']} entries (games opened, actions committed); FAULTS: {c['faults']} "
             f"(target 0; a command a person sent, committed, whose answer never reached them); by class:"]
    lines += [f"  {c['classes'][name]:6} {name}: {what}" + (" [fault]" if fault else "")
              for name, (fault, what) in CLASSES.items()]
    return lines


async def main(args):
    from tests.fake_discord import FakeDiscord
    rnd = random.Random(args.seed)
    data_dir = tempfile.mkdtemp(prefix="failover-")
    async with load.Database(args.database, data_dir) as db, FakeDiscord(default_timeout=60) as s:
        guilds = await load.shard_guilds(s, 2, "Failover")
        made = load.tables(s, guilds, args.games)
        bots = load.BotProcesses(s.port, data_dir, db.url, guilds)
        bots.start_all()
        try:
            await load.wait_ready(s, guilds, bots)
            crew = Crew(s, db, args.think, random.Random(args.seed + 1), args.map,
                        answer_timeout=ANSWER_TIMEOUT, result_timeout=RESULT_TIMEOUT)
            print(f"games: {args.games} ({args.games - args.games // 2} and {args.games // 2} on the two shards' "
                  f"servers), mean think time {args.think:g} s, "
                  + (f"{args.rolling} rolling restart{'s' if args.rolling != 1 else ''}" if args.rolling else
                     f"{args.kills} kill{'s' if args.kills != 1 else ''}") + "; "
                  f"2 bot processes on {db.label}", flush=True)
            stop = asyncio.Event()
            t0 = time.monotonic()
            players = asyncio.gather(*(crew.play(channel, users, stop, args.resend_wait) for channel, users in made))
            restarts = []
            try:
                if args.rolling:
                    kills, restarts = [], await rolling_restarts(args, s, bots, guilds)
                else:
                    kills = await kill_and_restart(args, s, bots, guilds, crew, rnd, t0)
                await asyncio.sleep(args.gap_max)  # the last restart's games play on a little
            finally:
                stop.set()
                await players
            elapsed = time.monotonic() - t0
        finally:
            bots.stop_all()
        c = await count(db, crew, kills, {(str(channel.id), str(u.id)) for channel, users in made for u in users})
    bot_errors = bots.error_lines()
    api_late = sum(1 for e in s.api_errors if e[3] == 10062)
    backs = sorted(k["back"] for k in kills if k["back"] is not None)
    within = sum(1 for b in backs if b < args.target)
    fates = c["fates"]
    errors = fates[REFUSED] + fates[NO_ANSWER] + len(crew.send_failures) + len(bot_errors)
    print(f"run: {elapsed:.0f} s, {len(crew.sent)} interactions ({c['checked']} checked against the log; "
          f"{crew.stuck} /game end of a game the bench could not play on)")
    if restarts:
        print(f"rolling restarts: {len(restarts)} processes replaced; a new one connected after at most "
              f"{max(x['connected'] for x in restarts):.2f} s, an old one stopped at most "
              f"{max(x['stopped'] for x in restarts):.2f} s after; exits {sorted({x['exit'] for x in restarts})}")
    else:
        print(f"games back after a kill: {within} of {len(kills)} within {args.target:g} s"
              + (f"; p50 {backs[len(backs) // 2]:.2f} s, max {backs[-1]:.2f} s" if backs else ""))
    print(f"acknowledged: {fates[ACKNOWLEDGED]}; lost (acknowledged, not in the log): {c['lost']}")
    for line in report_log(c):
        print(line)
    print(f"unanswered: {fates[KILLED] + fates[NO_ANSWER]} ({fates[KILLED]} sent to a process as it was killed, "
          f"of which {c['classes']['done at a kill']} found done when looking again; {fates[NO_ANSWER]} otherwise)")
    print(f"errors: {errors} (refused: {fates[REFUSED]}, unanswered not put down to a kill: {fates[NO_ANSWER]}, "
          f"10062 from the fake: {api_late}, sends not delivered: {len(crew.send_failures)}, "
          f"bot ERROR lines: {len(bot_errors)})")
    for line in c["examples"] + crew.send_failures[:3] + bot_errors[:5]:
        print("  ", line)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--think", type=float, default=1.0, help="mean seconds a player takes before each command")
    ap.add_argument("--kills", type=int, default=20)
    ap.add_argument("--rolling", type=int, default=0, metavar="N",
                    help="instead of kills, N rolling restarts (each process replaced in turn, new one first)")
    load.add_database_options(ap, "postgres")
    ap.add_argument("--map", choices=("turn", "round", "request"), help="the games' map setting (/game new map:)")
    ap.add_argument("--seed", type=int, default=1, help="for the kills' moments and the players' choices")
    ap.add_argument("--warmup", type=float, default=5.0, help="seconds of play before the first kill")
    ap.add_argument("--gap-min", type=float, default=2.0, help="seconds between a shard's games back and the next kill")
    ap.add_argument("--gap-max", type=float, default=6.0)
    ap.add_argument("--resend-wait", type=float, default=1.0,
                    help="seconds a player with no answer waits before looking at the game again")
    ap.add_argument("--target", type=float, default=5.0, help="seconds within which a shard's games must answer")
    ap.add_argument("--give-up", type=float, default=60.0, help="seconds to wait for a shard's games after a kill")
    options = ap.parse_args()
    if options.database == "sqlite":
        ap.error("two bot processes share one PostgreSQL database: --database postgres or a postgresql:// URL")
    load.event_loop.run(main(options))  # as bench/discord_load.py: the fake Discord on uvloop when installed
