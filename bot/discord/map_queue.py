"""Maps waiting for the render worker, newest first.

A turn waits a little for its map, then goes on without it. When turns end
faster than the worker draws, a first-come queue makes every map wait
until it is almost too late: the worker ends up drawing maps whose turns
have already gone on, and almost none arrive in time. So the worker takes
the newest map first (it has its whole wait ahead of it); an older one
still waiting when its turn gave up on it is never drawn. A map a player
asked for (/map, the Map button) goes before the turns' maps.
"""
import asyncio
from typing import Callable


class MapQueue:
    def __init__(self, executor):
        self.executor = executor
        self.waiting: list[tuple[bool, Callable, tuple, asyncio.Future]] = []  # (asked, render, args, result)
        self.drawing = False

    async def draw(self, render, *args, wait: float | None = None, asked: bool = False):
        """render(*args) in the worker; with `wait`, None if it is not done
        within that many seconds. `asked`: a player is waiting for this one."""
        result = asyncio.get_running_loop().create_future()
        self.waiting.append((asked, render, args, result))
        self._next()
        try:
            return await asyncio.wait_for(result, wait)
        except asyncio.TimeoutError:
            return None  # (cancelled with the wait: if it had not begun, it never will)

    def _next(self):
        if self.drawing:
            return
        self.waiting = [w for w in self.waiting if not w[3].done()]
        if not self.waiting:
            return
        asked = [w for w in self.waiting if w[0]]
        chosen = asked[0] if asked else self.waiting[-1]
        self.waiting.remove(chosen)
        _, render, args, result = chosen
        self.drawing = True
        drawing = asyncio.get_running_loop().run_in_executor(self.executor, render, *args)
        drawing.add_done_callback(lambda done: self._drawn(done, result))

    def _drawn(self, done: asyncio.Future, result: asyncio.Future):
        self.drawing = False
        error = None if done.cancelled() else done.exception()  # (read even when nobody waits any more)
        if not result.done():
            if done.cancelled():
                result.cancel()
            elif error is not None:
                result.set_exception(error)
            else:
                result.set_result(done.result())
        self._next()
