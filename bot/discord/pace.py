"""Discord lets a bot write (post, edit, pin) 5 times per 5 seconds in a
channel. The bot keeps under that itself, so that quick players are never
slowed by Discord's refusals: a write waits its turn here, and a turn
message edited while it waits is sent once, as it stands then.

A write counts from when it may go until its answer came back (`write`):
Discord counts it when the request arrives, somewhere in between, so a
window measured that way holds at most 5 at Discord's end too, however
long the requests take on the way."""
import asyncio
import math
import time
from collections import defaultdict
from contextlib import asynccontextmanager

WRITES, PER = 5, 5.0  # Discord's limit for one channel: 5 writes per 5 seconds
UNUSED = -math.inf  # a slot given back (see ChannelPace.unused): it never counted


class ChannelPace:
    def __init__(self, writes: int = WRITES, per: float = PER, clock=time.monotonic):
        self.writes, self.per, self.clock = writes, per, clock
        self.recent: dict[str, list[list[float]]] = defaultdict(list)  # channel id -> its last writes' times
        self.locks: dict[str, asyncio.Lock] = defaultdict(asyncio.Lock)

    def _live(self, channel_id: str, now: float) -> list[list[float]]:
        recent = self.recent[channel_id] = [at for at in self.recent[channel_id] if now - at[0] < self.per]
        return recent

    def free(self, channel_id) -> bool:
        """Whether a write would go out now, with nobody waiting before it."""
        channel_id = str(channel_id)
        return not self.locks[channel_id].locked() and len(self._live(channel_id, self.clock())) < self.writes

    async def wait(self, channel_id) -> list[float]:
        """Return when one more write fits in the channel's window (and count
        it, from now; `write` counts it until its answer)."""
        channel_id = str(channel_id)
        async with self.locks[channel_id]:
            while True:
                now = self.clock()
                recent = self._live(channel_id, now)
                if len(recent) < self.writes:
                    slot = [now]
                    recent.append(slot)
                    return slot
                await asyncio.sleep(min(at[0] for at in recent) + self.per - now + 0.01)

    @asynccontextmanager
    async def write(self, channel_id):
        """`async with pace.write(channel) as slot:` one write, counted until it is done
        (unless it turned out not to be needed: `unused(slot)`)."""
        slot = await self.wait(channel_id)
        try:
            yield slot
        finally:
            if slot[0] != UNUSED:
                slot[0] = max(slot[0], self.clock())

    @staticmethod
    def unused(slot: list[float]):
        """The write its slot was taken for is not made (it was overtaken while it
        waited): the slot goes back to the window, for the write that overtook it."""
        slot[0] = UNUSED
