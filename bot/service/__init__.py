"""One game per channel: load it, apply an action, commit, and say what
happened. The only layer that both saves and is called by the adapters."""
import asyncio
import random
import time
from collections import defaultdict
from dataclasses import dataclass, field

from bot.engine import IllegalAction
from bot.engine.legal import actor
from bot.store import GameRow, Store

DEFAULT_SETTINGS = {"reminder_hours": 12.0, "deadline_hours": 48.0}
SET_ASIDE = ("This channel's saved game could not be read and has been set aside for inspection; "
             "start a new one with /game new.")


@dataclass
class Outcome:
    game: GameRow
    events: list[dict]
    before: dict
    notes: list[str] = field(default_factory=list)

    @property
    def state(self) -> dict:
        return self.game.state

    @property
    def turn_changed(self) -> bool:
        old, new = self.before.get("turn"), self.state.get("turn")
        return bool(new) and (not old or old["number"] != new["number"])


class GameService:
    def __init__(self, store: Store, engine, clock=time.time):
        self.store = store
        self.engine = engine
        self.clock = clock
        self.locks: dict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self.fixed_seed: int | None = None  # tests set this to make games reproducible

    async def new_game(self, channel_id: str, guild_id: str | None, creator_id: str, seed: int | None = None,
                       settings: dict | None = None) -> GameRow:
        async with self.locks[channel_id]:
            if await self.store.active_game(channel_id):
                raise IllegalAction("This channel already has a game. Finish it with /game end, "
                                    "or start one in another channel or thread.")
            if seed is None:
                seed = self.fixed_seed if self.fixed_seed is not None else random.SystemRandom().randrange(1 << 31)
            state = self.engine.new_game(seed)
            return await self.store.create_game(channel_id, guild_id, creator_id, seed, state,
                                                {**DEFAULT_SETTINGS, **(settings or {})})

    async def game(self, channel_id: str) -> GameRow:
        game = await self.store.active_game(channel_id)
        if game is None:
            if self.store.take_set_aside(channel_id):  # told once; afterwards the channel simply has no game
                raise IllegalAction(SET_ASIDE)
            raise IllegalAction("There is no game in this channel. Start one with /game new.")
        return game

    async def act(self, channel_id: str, action: dict) -> Outcome:
        """Apply one action and commit it before anyone is told."""
        async with self.locks[channel_id]:
            game = await self.game(channel_id)
            return await self._apply(game, action)

    async def _apply(self, game: GameRow, action: dict) -> Outcome:
        before = game.state
        state, events = self.engine.apply(before, action)
        over = state["phase"] == "over"
        await self.store.record(game, action, state, events, rename=_handover(action, state), finished=over)
        outcome = Outcome(game, events, before)
        if not over and (outcome.turn_changed or actor(state) != actor(before)):
            await self._schedule(game)
        return outcome

    async def _schedule(self, game: GameRow):
        """Reminder and deadline for the player the game now waits for."""
        state, now = game.state, self.clock()
        who = actor(state)
        timers = []
        if who:
            number = (state["turn"] or {}).get("number", 0)  # 0: waiting for "ready" before the haunt
            if game.settings.get("reminder_hours"):
                timers.append(("reminder", who, number, now + 3600 * game.settings["reminder_hours"]))
            if game.settings.get("deadline_hours"):
                timers.append(("deadline", who, number, now + 3600 * game.settings["deadline_hours"]))
        await self.store.replace_timers(game.id, timers)
        if game.settings.get("skippable_turn") is not None:
            game.settings.pop("skippable_turn")
            await self.store.set_settings(game.id, game.settings)

    async def end(self, channel_id: str, by: str, can_manage: bool) -> GameRow:
        async with self.locks[channel_id]:
            game = await self.game(channel_id)
            if by != game.creator_id and not can_manage:
                raise IllegalAction("Only the player who created this game, or someone with Manage Channels, "
                                    "can end it.")
            await self.store.finish(game.id)
            return game

    async def configure(self, channel_id: str, **settings) -> GameRow:
        async with self.locks[channel_id]:
            game = await self.game(channel_id)
            for key, value in settings.items():
                if value is not None:
                    if value < 0:
                        raise IllegalAction(f"{key.replace('_', ' ')} cannot be negative.")
                    game.settings[key] = value
            await self.store.set_settings(game.id, game.settings)
            await self._schedule(game)
            return game

    # --- timers -----------------------------------------------------------------

    async def due_timers(self) -> list[tuple[dict, GameRow]]:
        """Timers that came due, each removed once taken; a deadline makes the
        absent player's turn skippable by vote."""
        found = []
        for timer in await self.store.due_timers(self.clock()):
            await self.store.delete_timer(timer["id"])
            game = await self.store.game_by_id(timer["game_id"])
            if not game or not game.active:
                continue
            if (game.state.get("turn") or {}).get("number", 0) != timer["turn"] or actor(game.state) != timer["user_id"]:
                continue
            if timer["kind"] == "deadline":
                game.settings["skippable_turn"] = timer["turn"]
                await self.store.set_settings(game.id, game.settings)
            found.append((timer, game))
        return found

    async def vote_skip(self, channel_id: str, voter: str) -> tuple[int, int, Outcome | None]:
        """A vote to skip the absent player's turn once its deadline passed.
        Returns (votes, needed, outcome if the turn was skipped)."""
        async with self.locks[channel_id]:
            game = await self.game(channel_id)
            state = game.state
            absent = actor(state)
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
            others = [p for p in state["seats"] if p != absent and state["players"][p]["alive"]]
            needed = len(others) // 2 + 1
            if votes < needed:
                return votes, needed, None
            return votes, needed, await self._skip(game, absent)

    async def _skip(self, game: GameRow, absent: str) -> Outcome:
        """Answer the absent player's pending choices with the first option,
        then end their turn; every step goes into the log like any action."""
        before = game.state
        events = []
        while game.state["pending"] and game.state["pending"]["player"] == absent:
            out = await self._apply(game, {"type": "decide", "player": absent, "choice": 0})
            events += out.events
        if game.state["phase"] != "over" and game.state["turn"]["player"] == absent and not game.state["pending"]:
            out = await self._apply(game, {"type": "end", "player": absent})
            events += out.events
        return Outcome(game, events, before, notes=["The turn was skipped by vote."])


def _handover(action: dict, state: dict) -> tuple[str, str] | None:
    """(old, new) when the action handed a seat over: the seat's private
    messages go with it, so the new holder reads them and the old one no
    longer does."""
    new = str(action.get("to", ""))
    if action.get("type") == "handover" and new in state["players"]:
        return action["player"], new
    return None
