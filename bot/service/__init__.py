"""One game per channel: load it, apply an action, commit, and say what
happened. The only layer that both saves and is called by the adapters: the
adapters (Discord, the local table) read and write games only through a
GameService, which owns its store (a database file, or memory)."""
import asyncio
import random
import time
from collections import defaultdict
from dataclasses import dataclass, field

from bot import games
from bot.kit.errors import IllegalAction
from bot.store import GUILD_DEFAULTS, GameMovedOn, GameRow, Store, StoreError, shard_of

from . import dicelog, seats
from .chronicle import Chronicles
from .memory import MemoryStore
from .stats import server_stats

__all__ = ["GameService", "GameRow", "Outcome", "StoreError", "Superseded", "SET_ASIDE", "GAME_OVER", "history_lines"]

SKIP_STEPS = 100  # a skipped turn's steps at most (its questions, its end, the questions its end brings)
DEFAULT_SETTINGS = {"reminder_hours": 12.0, "deadline_hours": 48.0, "stand_in": "off"}
STAND_IN_MODES = ("off", "deadline")  # the stand-in never plays, or plays a seat once its deadline has passed
CLAIMS_KEPT = 15 * 60.0  # seconds an interaction claim is kept: Discord's lifetime of an interaction
SET_ASIDE = ("This channel's saved game could not be read and has been set aside for inspection; "
             "start a new one with /game new.")
GAME_OVER = "This game is over — start another with /game new."
ANSWERED = "That question has already been answered; use the newest buttons."
SECRETS_PLACES = ("dm", "threads")  # where a server's secrets may go


class Superseded(IllegalAction):
    """A button from an earlier turn, or for a question already answered:
    the game has moved on (the adapter may point to its newest buttons)."""


@dataclass
class Outcome:
    """An action's result: the state just after it (the game row itself
    moves on with the next action), its events and the state before."""
    game: GameRow
    events: list[dict]
    before: dict
    state: dict
    notes: list[str] = field(default_factory=list)
    seq: int | None = None  # the action's place in the game's log (when the store counts them)

    @property
    def turn_changed(self) -> bool:
        old, new = self.before.get("turn"), self.state.get("turn")
        return bool(new) and (not old or old["number"] != new["number"])


class GameService:
    def __init__(self, store: Store, engine=None, clock=time.time):
        """`engine`: the default system's engine to play with (tests give one over their content);
        None plays every system as registered (bot.games)."""
        self.store = store
        self.default = games.get(games.DEFAULT).over(engine) if engine is not None else games.get(games.DEFAULT)
        self.engine = getattr(self.default, "engine", None)
        self.clock = clock
        self.locks: dict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        # Each channel's game in play, as last committed: read from the store once, then kept, since
        # every change to it goes through this service (an action reads nothing back from the disk).
        self.playing: dict[str, GameRow] = {}
        self.fixed_seed: int | None = None  # tests set this to make games reproducible
        self.guilds: dict[str, dict] = {}  # each server's settings, read once (they change only through here)
        # (id, count) when this process runs one of Discord's shards: its games are those of that shard's servers
        self.shard: tuple[tuple[int, ...], int] | None = None
        self.chronicles = Chronicles(self)  # each channel's campaign, if it keeps one (bot.service.chronicle)

    @classmethod
    async def open(cls, database: str, engine=None, clock=time.time) -> "GameService":
        """A service over the game database: an SQLite file's path, or a
        PostgreSQL URL (checked and migrated on opening; StoreError says why
        it cannot be used)."""
        from bot.store import open_store
        return cls(await open_store(database), engine, clock)

    @classmethod
    def in_memory(cls, engine=None, clock=time.time) -> "GameService":
        """A service whose games live in memory only (the local table)."""
        return cls(MemoryStore(), engine, clock)

    @staticmethod
    async def check_database(database: str):
        """Open (check, migrate) and close the database: StoreError if it
        cannot be used."""
        from bot.store import open_store
        store = await open_store(database)
        await store.close()

    async def close(self):
        await self.store.close()

    def system_named(self, system_id: str | None):
        """The game system with that id (bot.games), the default one when None."""
        if system_id is None or system_id == self.default.id:
            return self.default
        return games.get(system_id)

    def system(self, game: GameRow):
        """The game system a game plays (a game stored before systems had ids is the default one's)."""
        return self.system_named(getattr(game, "system", None))

    async def new_game(self, channel_id: str, guild_id: str | None, creator_id: str, seed: int | None = None,
                       settings: dict | None = None, options: dict | None = None,
                       system: str | None = None) -> GameRow:
        """A new game in the channel. `options` are the table's (see
        system's, checked by its new_game); with avoid_repeats, the haunts this
        server has played go into them, so the game replays as it was. `system`: the
        game's id in bot.games (the default system when None)."""
        chosen = self.system_named(system)
        async with self.locks[channel_id]:
            if await self.store.active_game(channel_id):
                raise IllegalAction("This channel already has a game. Finish it with /game end, "
                                    "or start one in another channel or thread.")
            if seed is not None and not 0 <= seed < 1 << 62:
                raise IllegalAction("A seed is a whole number from 0 to 4611686018427387903.")
            if seed is None:
                # A secret seed too large to guess from its commitment (SHA-256) before the end.
                seed = self.fixed_seed if self.fixed_seed is not None else random.SystemRandom().randrange(1 << 62)
            options = dict(options or {})
            if options.get("avoid_repeats"):
                options["played"] = sorted(set(options.get("played") or []) |
                                           set(await self.store.played_haunts(guild_id)))
            # a chapter of the channel's campaign, if it keeps one (bot.service.chronicle)
            options, campaign, chapter = await self.chronicles.chapter_options(channel_id, chosen, seed, options)
            state = chosen.new_game(seed, options)
            game = await self.store.create_game(channel_id, guild_id, creator_id, seed, state,
                                                {**DEFAULT_SETTINGS, **(settings or {})}, system=chosen.id,
                                                campaign_id=campaign.id if campaign else None, chapter=chapter)
            self.playing[channel_id] = game
            return game

    async def _playing(self, channel_id: str) -> GameRow | None:
        """The channel's game in play: kept, else read from the store."""
        game = self.playing.get(channel_id)
        if game is not None and game.active:
            return game
        self.playing.pop(channel_id, None)
        game = await self.store.active_game(channel_id)
        if game is not None:
            self.playing[channel_id] = game
        return game

    async def game(self, channel_id: str) -> GameRow:
        game = await self._playing(channel_id)
        if game is None:
            if self.store.take_set_aside(channel_id):  # told once; afterwards the channel simply has no game
                raise IllegalAction(SET_ASIDE)
            raise IllegalAction("There is no game in this channel. Start one with /game new.")
        return game

    async def act(self, channel_id: str, action: dict, *, game_id: int | None = None, turn: int | None = None,
                  question: str | None = None) -> Outcome:
        """Apply one action and commit it before anyone is told. A button says
        which game (`game_id`), turn and question it was offered for: an
        action from a finished game, an earlier turn or an answered question
        is refused, checked under the channel's lock so no other action can
        slip in between. If another bot process on the same database moved
        the game on meanwhile, the game is read again and the action tried
        once more, against the game as it now stands."""
        try:
            return await self._act(channel_id, action, game_id, turn, question)
        except GameMovedOn:
            return await self._act(channel_id, action, game_id, turn, question)
        except IllegalAction:
            if not await self._moved_on(channel_id):
                raise
            return await self._act(channel_id, action, game_id, turn, question)

    async def _moved_on(self, channel_id: str) -> bool:
        """Whether the game this process keeps for the channel is behind the
        database (another process on it moved the game on, as in a rolling
        restart): then it is dropped, to be read again. A refusal made
        against a game kept from before would be wrong."""
        game = self.playing.get(channel_id)
        if game is None or not await self.store.moved_on(game):
            return False
        self.playing.pop(channel_id, None)
        return True

    async def _act(self, channel_id: str, action: dict, game_id: int | None, turn: int | None,
                   question: str | None) -> Outcome:
        async with self.locks[channel_id]:
            if game_id is None:
                game = await self.game(channel_id)
            else:
                game = await self._playing(channel_id)
                if game is None and self.store.take_set_aside(channel_id):
                    raise IllegalAction(SET_ASIDE)
                if game is None or game.id != game_id:
                    raise IllegalAction(GAME_OVER)
            system = self.system(game)
            now = system.turn_number(game.state)
            if turn is not None and turn != now:
                raise Superseded(f"This button is from turn {turn}; the game is now at turn {now}.")
            if question is not None and question != system.pending_key(game.state):
                raise Superseded(ANSWERED)
            back = await self._hand_back(game, action["player"])
            try:
                outcome = await self._apply(game, action)
            except IllegalAction as e:
                e.back = back  # refused or not, the seat is theirs again (the adapter tells the table)
                raise
            if back:
                outcome.notes.append(back)
            return outcome

    # --- reading (what the adapters show) ------------------------------------------

    async def active_game(self, channel_id: str) -> GameRow | None:
        """The channel's game in play, or None."""
        return await self._playing(channel_id)

    async def active_games(self) -> list[GameRow]:
        """Every game in play in this process's servers (each kept from now on)."""
        return [self.playing.setdefault(g.channel_id, g) for g in await self.store.active_games() if self.owns(g)]

    def owns(self, game: GameRow) -> bool:
        """Whether this process runs the game: all of them, or with several
        processes, those of the servers its shard receives."""
        return self.shard is None or shard_of(game.guild_id, self.shard[1]) in self.shard[0]

    async def latest_game(self, channel_id: str) -> GameRow | None:
        """The channel's game in play, else its last one (to look back at a
        finished game: its log, map, sheets and secrets)."""
        return await self._playing(channel_id) or await self.store.latest_game(channel_id)

    async def log_lines(self, game: GameRow, viewer: str, limit: int = 15) -> list[str]:
        """The game's recent events that `viewer` may read: everyone's and their own."""
        return await self.store.recent_events(game.id, ["all", viewer], limit=limit)

    async def private_lines(self, game: GameRow, player: str, limit: int = 80) -> list[str]:
        """What was said to `player` alone (secret rules, hidden tokens)."""
        return await self.store.recent_events(game.id, [player], limit=limit)

    async def actions(self, game: GameRow) -> list[dict]:
        """The game's action log, oldest first (it replays to the state)."""
        return await self.store.actions(game.id)

    # --- dice anyone can check, and the server's history ------------------------------

    @staticmethod
    def commitment(game: GameRow) -> str:
        """The SHA-256 of the game's secret seed, shown at the start."""
        return dicelog.commitment(game.seed)

    @staticmethod
    def finished(game: GameRow) -> bool:
        return not game.active or game.state.get("phase") == "over"

    async def revealed_seed(self, game: GameRow) -> int:
        """The secret seed, once the game is over (never before)."""
        if not self.finished(game):
            raise IllegalAction("The seed is revealed when the game ends.")
        return game.seed

    async def log_file(self, game: GameRow) -> bytes:
        """The game's log to download: its actions, every roll's faces, every
        card and tile drawn; the seed only once the game is over."""
        actions = await self.store.actions(game.id)
        return dicelog.dumps(dicelog.build(self.system(game), game.id, game.seed, game.state.get("options", {}), actions,
                                           over=self.finished(game)))

    def verify(self, seed: int, log: dict) -> tuple[bool, list[str]]:
        return dicelog.verify(self.system_named(log.get("system") if isinstance(log, dict) else None), seed, log)

    async def history(self, guild_id: str | None, limit: int = 10) -> list[dict]:
        """The server's finished games, newest first: when, who played whom,
        the haunt, the winners and how it ended."""
        return [history_entry(self.system(g), g) for g in await self.store.finished_games(guild_id, limit)]

    async def stats(self, guild_id: str | None, player: str | None = None) -> dict:
        """The server's statistics, and a player's (bot.service.stats.server_stats)."""
        return await server_stats(self, guild_id, player)

    async def finished_game(self, guild_id: str | None, game_id: int) -> GameRow:
        game = await self.store.game_by_id(game_id)
        if game is None or game.guild_id != guild_id or not self.finished(game) or not game.state.get("board"):
            raise IllegalAction(f"This server has no finished game number {game_id}; /history lists them.")
        return game

    # --- server settings: where secrets go -----------------------------------------------

    async def guild_settings(self, guild_id: str | None) -> dict:
        """The server's settings (the defaults outside a server): `secrets`
        is "dm" (direct messages) or "threads" (a private thread per player)."""
        if guild_id is None:
            return dict(GUILD_DEFAULTS)
        if guild_id not in self.guilds:
            self.guilds[guild_id] = await self.store.guild_settings(guild_id)
        return dict(self.guilds[guild_id])

    async def set_secrets_place(self, guild_id: str | None, where: str) -> dict:
        """Where the server's secrets go from now on: "dm" or "threads"."""
        if guild_id is None:
            raise IllegalAction("This setting belongs to a server; use it in one of its channels.")
        if where not in SECRETS_PLACES:
            raise IllegalAction("Secrets go by direct message or in private threads.")
        await self.store.set_guild_settings(guild_id, secrets=where)
        self.guilds[guild_id] = {**await self.guild_settings(guild_id), "secrets": where}
        return dict(self.guilds[guild_id])

    async def secret_thread(self, game: GameRow, player: str) -> str | None:
        """The private thread that holds this player's secrets of the game, if made."""
        return await self.store.secret_thread(game.id, player)

    async def remember_secret_thread(self, game: GameRow, player: str, thread_id: str):
        await self.store.set_secret_thread(game.id, player, thread_id)

    async def delivered(self, game: GameRow, seq: int | None):
        """The private messages of the game's actions up to `seq` went out.
        (After a crash before this, the bot sends them when it starts again:
        at least once, see undelivered.)"""
        if seq and seq > game.delivered:
            await self.store.set_delivered(game.id, seq)
            game.delivered = seq

    async def undelivered(self, game: GameRow) -> tuple[dict[str, list[str]], int]:
        """Each player's private messages the game committed but never sent
        (the bot stopped in between), oldest first, and the last action they
        belong to (to pass to `delivered` once they are out)."""
        found = await self.store.undelivered(game.id, game.delivered)
        private: dict[str, list[str]] = {}
        for _, audience, text in found:
            private.setdefault(audience, []).append(text)
        return private, max((seq for seq, _, _ in found), default=game.delivered)

    async def set_summary_message(self, game: GameRow, message_id: str | None):
        """Remember the pinned summary message, so it is edited, not reposted."""
        await self.store.set_summary_message(game.id, message_id)
        game.summary_message_id = message_id

    async def set_turn_message(self, game: GameRow, message_id: str | None):
        """Remember the game's current turn message, so that a restarted
        adapter finds it again (and gives it live buttons)."""
        if game.turn_message_id == message_id:
            return
        game.turn_message_id = message_id
        await self.store.set_turn_message(game.id, message_id)

    async def overwrite_state(self, game: GameRow, state: dict):
        """Put a state in place without an action: for tests and tools that
        set up a moment of a game (the log no longer replays to it). A state
        that is not over puts the game back in play."""
        async with self.locks[game.channel_id]:
            await self.store.set_state(game.id, state, active=state["phase"] != "over")
            game.state, game.active = state, state["phase"] != "over"
            if game.active:
                self.playing[game.channel_id] = game
            else:
                self.playing.pop(game.channel_id, None)

    async def _apply(self, game: GameRow, action: dict) -> Outcome:
        if game.campaign_id is not None:  # a chapter in its lobby: its seats' families, as they stand now
            await self.chronicles.before(game)
        before = game.state
        system = self.system(game)
        state, events = system.apply(before, action)
        outcome = Outcome(game, events, before, state)
        over = system.phase(state) == "over"
        waiting_on_another = not over and (outcome.turn_changed or system.actor(state) != system.actor(before))
        # The reminder and deadline move to whoever the game waits for now, in the action's own commit.
        rename, stored = _handover(action, state), events
        if rename:  # the seat's past private events go to the new holder: those sent again are not stored twice
            had = set(await self.store.recent_events(game.id, [rename[0]], limit=1 << 30))
            stored = [e for e in events if not (e["to"] == rename[1] and e["text"] in had)]
        try:
            await self.store.record(game, action, state, stored, rename=rename, finished=over,
                                    timers=self._timers(game, state) if waiting_on_another else None)
        except StoreError:
            self.playing.pop(game.channel_id, None)  # (another process may have moved it on: read it afresh next time)
            raise
        outcome.seq = game.seq
        if game.campaign_id is not None:  # the campaign follows: a family handed over, a chapter written down
            await self.chronicles.after(game, outcome, rename)
        if over:
            self.playing.pop(game.channel_id, None)
        if waiting_on_another:
            await self._forget_skippable(game)
        return outcome

    async def _schedule(self, game: GameRow):
        """Reminder and deadline for the player the game now waits for."""
        await self.store.replace_timers(game.id, self._timers(game, game.state))
        await self._forget_skippable(game)

    async def _forget_skippable(self, game: GameRow):
        if game.settings.get("skippable_turn") is not None:
            game.settings.pop("skippable_turn")
            await self.store.set_settings(game.id, game.settings)

    def _timers(self, game: GameRow, state: dict) -> list[tuple[str, str, int, float]]:
        now = self.clock()
        who = self.system(game).actor(state)
        timers = []
        if who and who not in seats.played_by_bot(state, game.settings):  # the bot needs no reminding
            number = (state["turn"] or {}).get("number", 0)  # 0: waiting for "ready" before the haunt
            if game.settings.get("reminder_hours"):
                timers.append(("reminder", who, number, now + 3600 * game.settings["reminder_hours"]))
            if game.settings.get("deadline_hours"):
                timers.append(("deadline", who, number, now + 3600 * game.settings["deadline_hours"]))
        return timers

    async def end(self, channel_id: str, by: str, can_manage: bool) -> GameRow:
        async with self.locks[channel_id]:
            game = await self.game(channel_id)
            if by != game.creator_id and not can_manage:
                raise IllegalAction("Only the player who created this game, or someone with Manage Channels, "
                                    "can end it.")
            await self.store.finish(game.id)
            game.active = False
            self.playing.pop(channel_id, None)
            return game

    async def configure(self, channel_id: str, **settings) -> GameRow:
        async with self.locks[channel_id]:
            game = await self.game(channel_id)
            for key, value in settings.items():
                if key == "stand_in" and value is not None:
                    if value not in STAND_IN_MODES:
                        raise IllegalAction("The stand-in is either off or plays once a deadline has passed.")
                    game.settings[key] = value
                elif value is not None:
                    if value < 0:
                        raise IllegalAction(f"{key.replace('_', ' ')} cannot be negative.")
                    game.settings[key] = value
            await self.store.set_settings(game.id, game.settings)
            await self._schedule(game)
            return game

    # --- seats the bot plays (bot.service.seats) ----------------------------------

    async def add_builtin(self, channel_id: str, by: str, adventurer: str | None = None) -> Outcome:
        """A built-in player takes a seat, with that adventurer or a free one."""
        async with self.locks[channel_id]:
            game = await self.game(channel_id)
            state = game.state
            if by not in state["players"] and by != game.creator_id:
                raise IllegalAction("Only the game's creator or a seated player can add a built-in player.")
            system = self.system(game)
            free = [value for _, value in system.picks(state)]
            if adventurer is None and free and system.phase(state) == "lobby":
                adventurer = seats.choice_rng(game.seed, game.seq, len(state["seats"])).choice(free)
            pid, n = seats.next_id(state)
            return await self._apply(game, system.join_action(pid, f"Built-in {n}", adventurer, builtin=True))

    async def set_away(self, channel_id: str, player: str, gone: bool) -> GameRow:
        """`gone`: the player hands their seat to the stand-in until they act
        again; else they take it back now."""
        async with self.locks[channel_id]:
            game = await self.game(channel_id)
            state = game.state
            if player not in state["players"] or seats.is_builtin(state, player):
                raise IllegalAction("You are not playing in this channel's game.")
            if self.system(game).phase(state) != "play":
                raise IllegalAction("The stand-in plays only once the game has started.")
            now = seats.away(game.settings)
            if gone == (player in now):
                raise IllegalAction("The stand-in is already playing your seat; /game back takes it back."
                                    if gone else "Your seat is yours already: the stand-in is not playing it.")
            game.settings["away"] = [*now, player] if gone else [p for p in now if p != player]
            await self.store.set_settings(game.id, game.settings)
            await self._schedule(game)
            return game

    async def _hand_back(self, game: GameRow, player: str) -> str | None:
        """A person the stand-in plays for acts: their seat is theirs again at once."""
        if player not in seats.away(game.settings):
            return None
        game.settings["away"] = [p for p in seats.away(game.settings) if p != player]
        await self.store.set_settings(game.id, game.settings)
        return f"{game.state['players'][player]['name']} is back: the stand-in gives the seat back."

    def bot_to_play(self, game: GameRow, state: dict | None = None) -> str | None:
        """The seat the bot must act for in this game now, if any (`state`:
        the game's state when the caller holds it decoded already)."""
        if not game.active:
            return None
        return seats.seat_to_play(self.system(game), game.state if state is None else state, game.settings)

    async def play_builtin(self, channel_id: str) -> Outcome | None:
        """Play the seats the bot holds (built-in ones, absent people's) until
        a person must act or the turn passes: one outcome for the stretch, so
        its turn message shows what they did. None when the bot has nothing
        to play. Every action is committed like a person's."""
        async with self.locks[channel_id]:
            game = await self._playing(channel_id)
            if game is None:
                return None
            before, events, done = game.state, [], 0
            system = self.system(game)
            while done < seats.STRETCH and game.active:
                seat = seats.seat_to_play(system, game.state, game.settings)
                if seat is None:
                    break
                rnd = seats.choice_rng(game.seed, game.seq, system.turn_number(game.state))
                action = seats.pick(system, game.state, seat, rnd, done)
                if action is None:
                    break
                try:
                    out = await self._apply(game, action)
                except IllegalAction:  # (never expected: the choice comes from the legal actions) the plainest way on
                    action = seats.pick(system, game.state, seat, rnd, seats.PATIENCE)
                    out = await self._apply(game, action)
                events += out.events
                done += 1
                if out.turn_changed:
                    break
            if not done:
                return None
            return Outcome(game, events, before, game.state, seq=game.seq)

    # --- timers -----------------------------------------------------------------

    async def claim(self, interaction_id: int) -> bool:
        """Whether this process handles the interaction: the first of the
        processes connected to its shard to claim it (a rolling restart
        connects two). One process on SQLite always does."""
        return await self.store.claim_interaction(interaction_id, self.clock())

    async def due_timers(self) -> list[tuple[dict, GameRow]]:
        """Timers that came due, each removed once taken; a deadline makes the
        absent player's turn skippable by vote."""
        await self.store.forget_claims(self.clock() - CLAIMS_KEPT)
        found = []
        for timer in await self.store.due_timers(self.clock(), self.shard):
            await self.store.delete_timer(timer["id"])
            game = next((g for g in self.playing.values() if g.id == timer["game_id"] and g.active), None) \
                or await self.store.game_by_id(timer["game_id"])
            if not game or not game.active:
                continue
            system = self.system(game)
            if system.turn_number(game.state) != timer["turn"] or system.actor(game.state) != timer["user_id"]:
                continue
            if timer["kind"] == "deadline":
                game.settings["skippable_turn"] = timer["turn"]
                if game.settings.get("stand_in") == "deadline" and timer["user_id"] not in seats.away(game.settings):
                    game.settings["away"] = [*seats.away(game.settings), timer["user_id"]]
                    timer = {**timer, "stand_in": True}  # the adapter tells the table and lets the stand-in play
                await self.store.set_settings(game.id, game.settings)
            found.append((timer, game))
        return found

    async def vote_skip(self, channel_id: str, voter: str) -> tuple[int, int, Outcome | None]:
        """A vote to skip the absent player's turn once its deadline passed.
        Returns (votes, needed, outcome if the turn was skipped)."""
        async with self.locks[channel_id]:
            game = await self.game(channel_id)
            state = game.state
            absent = self.system(game).actor(state)
            if voter not in state["players"]:
                raise IllegalAction("Only seated players can vote to skip a turn.")
            if absent is None or voter == absent or state["turn"] is None:
                raise IllegalAction("There is no one else's turn to skip.")
            turn = state["turn"]["number"]
            if game.settings.get("skippable_turn") != turn:
                hours = game.settings.get("deadline_hours")
                raise IllegalAction(f"{state['players'][absent]['name']} still has time: a turn can be skipped only "
                                    f"after its deadline ({hours:g} hours)." if hours else
                                    "This game has no turn deadline, so turns cannot be skipped.")
            votes = await self.store.add_skip_vote(game.id, turn, voter)
            others = [p for p in state["seats"] if p != absent and state["players"][p].get("alive", True)]
            needed = len(others) // 2 + 1
            if votes < needed:
                return votes, needed, None
            return votes, needed, await self._skip(game, absent)

    async def _skip(self, game: GameRow, absent: str) -> Outcome:
        """Answer the absent player's pending choices with the first option,
        then end their turn; every step goes into the log like any action."""
        before = game.state
        events = []
        system = self.system(game)
        ended = False
        for _ in range(SKIP_STEPS):
            step = system.skip_action(game.state, absent) if game.active else None
            # after the turn's end, only the absent seat's questions it brought (a villain phase's) are answered
            if step is None or ended and step["type"] != "decide":
                break
            out = await self._apply(game, step)
            events += out.events
            ended = ended or step["type"] == "end"
        return Outcome(game, events, before, game.state, notes=["The turn was skipped by vote."], seq=game.seq)


def history_entry(system, game: GameRow) -> dict:
    """The game's line in the server's history: when, and the system's own account (players, the
    scenario, the winners and how it ended)."""
    return {"id": game.id, "date": time.strftime("%Y-%m-%d", time.gmtime(game.updated_at or game.created_at)),
            "game": system.title, **system.history_entry(game.state)}


def history_lines(entries: list[dict]) -> list[str]:
    """The history as lines for a channel or a terminal: each game's number, date and game, its players,
    its scenario (an entry's `scenario` as its system says it, else its haunt) and how it ended."""
    if not entries:
        return ["This server has no finished games yet."]
    return [f"#{e['id']} {e['date']}, {e['game']}: {', '.join(e['players'])}; "
            f"{e.get('scenario') or 'haunt ' + (e['haunt'] or '(not reached)')}; {e['how']}"
            + (f" ({', '.join(e['winners'])})" if e["winners"] else "") + "." for e in entries]


def _handover(action: dict, state: dict) -> tuple[str, str] | None:
    """(old, new) when the action handed a seat over: the seat's private
    messages go with it, so the new holder reads them and the old one no
    longer does."""
    new = str(action.get("to", ""))
    if action.get("type") == "handover" and new in state["players"]:
        return action["player"], new
    return None
