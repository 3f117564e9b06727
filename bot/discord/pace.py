"""Discord lets a bot write (post, edit, pin) 5 times per 5 seconds in a
channel. The bot keeps under that itself, so that quick players are never
slowed by Discord's refusals: a write waits its turn here, and a turn
message edited while it waits is sent once, as it stands then."""
import asyncio
import time
from collections import defaultdict, deque

WRITES, PER = 5, 5.0  # Discord's limit for one channel: 5 writes per 5 seconds


class ChannelPace:
    def __init__(self, writes: int = WRITES, per: float = PER, clock=time.monotonic):
        self.writes, self.per, self.clock = writes, per, clock
        self.recent: dict[str, deque] = defaultdict(deque)  # channel id -> when its last writes went out
        self.locks: dict[str, asyncio.Lock] = defaultdict(asyncio.Lock)

    def free(self, channel_id) -> bool:
        """Whether a write would go out now, with nobody waiting before it."""
        channel_id = str(channel_id)
        now = self.clock()
        return not self.locks[channel_id].locked() and \
            sum(1 for at in self.recent[channel_id] if now - at < self.per) < self.writes

    async def wait(self, channel_id) -> None:
        """Return when one more write fits in the channel's window (and count it)."""
        channel_id = str(channel_id)
        async with self.locks[channel_id]:
            recent = self.recent[channel_id]
            while True:
                now = self.clock()
                while recent and now - recent[0] >= self.per:
                    recent.popleft()
                if len(recent) < self.writes:
                    recent.append(now)
                    return
                await asyncio.sleep(recent[0] + self.per - now + 0.01)
