"""How many actions the bot works on at once, and what a click or command
meets when the bot is busier than that.

Discord fails an interaction the bot has not acknowledged within 3 s. An
overloaded bot whose work grows without bound would be late for all of
them, so the work is bounded instead: at most SLOTS actions are applied at
once (the engine and the store: the CPU-heavy part), the rest wait in line,
first come first served, one game's actions one at a time. An action whose
wait would make its answer late is acknowledged first (a deferral,
GameBot.act) and answered when done; when its wait would pass LONGEST_WAIT,
its game already has GAME_QUEUE actions waiting, or the event loop runs
late (more work than CPU), the player is told at once that the bot is busy
and nothing was recorded, so the bot does not take on more than it can
finish. Either answer takes the bot a moment, so every interaction is
acknowledged in time even when twice as many come as it can apply."""
import asyncio
import collections
import contextlib
import time

SLOTS = 32  # actions applied at once: most of an action's time is its commit, which several games share
LONGEST_WAIT = 8.0  # seconds an action may expect to wait in line; past that the player hears "busy"
MEMORY = 0.1  # weight of the newest action's time in the running mean
GAME_QUEUE = 4  # actions of one game taken on at once (a few quick clicks); one more hears "busy"
LAGGING = 0.5  # seconds late the event loop may run before new actions hear "busy"


class Line:
    def __init__(self, slots: int = SLOTS, longest_wait: float = LONGEST_WAIT):
        self.slots, self.longest_wait = slots, longest_wait
        self.working = 0
        self.waiting: collections.deque[asyncio.Future] = collections.deque()
        self.each = 0.01  # running mean of the seconds one action holds its slot
        self.games: dict[str, int] = {}  # actions taken on and not yet applied, game by game
        self.turns: dict[str, asyncio.Lock] = {}  # a game's actions are applied one at a time, in order
        self.turned_away = 0  # actions answered "busy" (a figure for logs and benches)
        self.lag = 0.0  # how late the event loop ran in the last second (watch_lag)

    @property
    def taken(self) -> int:
        """Actions taken on and not yet applied (waiting, or holding a slot)."""
        return sum(self.games.values())

    def free(self) -> bool:
        """Whether a slot is free for an action now."""
        return self.working < self.slots and not self.waiting

    def expected_wait(self, game: str | None = None) -> float:
        """Seconds an action of `game` taken on now would wait before it is
        applied: behind its own game's actions (one at a time) and in the
        line for a slot."""
        in_line = (len(self.waiting) + 1) * self.each / self.slots if not self.free() else 0.0
        return self.games.get(game, 0) * self.each + in_line

    def too_long(self, waited: float, game: str | None = None) -> bool:
        """Whether an interaction that has already waited `waited` seconds
        (before the bot read it) should be turned away: its wait would take
        it past LONGEST_WAIT; its game has GAME_QUEUE actions taken on
        already (more than people click at once: a script, or a bot far
        behind); or the bot's event loop runs late (LAGGING: more work
        than CPU, whatever the work, so no more is taken on)."""
        return waited + self.expected_wait(game) > self.longest_wait or self.games.get(game, 0) >= GAME_QUEUE \
            or self.lag > LAGGING

    @contextlib.asynccontextmanager
    async def take(self, game: str):
        """Take on an action of `game` while it is applied: wait for the
        game's earlier actions (they would only wait for its lock in a
        slot), then for a slot."""
        self.games[game] = self.games.get(game, 0) + 1
        try:
            async with self.turns.setdefault(game, asyncio.Lock()), self.slot():
                yield
        finally:
            self.games[game] -= 1
            if not self.games[game]:  # nobody holds or waits for its lock any more
                del self.games[game]
                self.turns.pop(game, None)

    async def watch_lag(self, every: float = 0.1):
        """How late the event loop runs (a sleep of `every` seconds that
        takes longer): the lag of the last second, kept in self.lag."""
        loop = asyncio.get_running_loop()
        recent: collections.deque[float] = collections.deque(maxlen=max(1, round(1 / every)))
        while True:
            began = loop.time()
            await asyncio.sleep(every)
            recent.append(loop.time() - began - every)
            self.lag = max(recent)

    @contextlib.asynccontextmanager
    async def slot(self):
        """Hold one of the slots while applying an action (waiting in line
        for it first when all are taken)."""
        if self.free():
            self.working += 1
        else:
            turn = asyncio.get_running_loop().create_future()
            self.waiting.append(turn)
            try:
                await turn
            except asyncio.CancelledError:
                if turn.done() and not turn.cancelled():  # handed the slot as it was cancelled: pass it on
                    self._release()
                elif turn in self.waiting:
                    self.waiting.remove(turn)
                raise
        began = time.monotonic()
        try:
            yield
        finally:
            self.each += MEMORY * (time.monotonic() - began - self.each)
            self._release()

    def _release(self):
        while self.waiting:
            turn = self.waiting.popleft()
            if not turn.done():
                turn.set_result(None)  # the slot goes straight to the next in line
                return
        self.working -= 1

