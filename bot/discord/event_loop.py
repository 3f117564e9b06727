"""The event loop the bot runs on: uvloop's when it is installed (one of
the bot's dependencies on Linux and macOS), asyncio's own otherwise. Every answer the
bot sends crosses the loop's sockets and callbacks several times, and
uvloop does that work in C: the same game for less CPU per interaction."""
import asyncio

try:
    import uvloop
except ImportError:  # Windows, or installed without it: asyncio's loop plays the same game
    uvloop = None


def new_event_loop() -> asyncio.AbstractEventLoop:
    return uvloop.new_event_loop() if uvloop is not None else asyncio.new_event_loop()


def run(main):
    """asyncio.run(main) on that loop."""
    with asyncio.Runner(loop_factory=new_event_loop) as runner:
        return runner.run(main)


def run_client(client, token: str):
    """discord.Client.run on that loop (the caller sets up logging)."""
    async def runner():
        async with client:
            await client.start(token)
    try:
        run(runner())
    except KeyboardInterrupt:  # Ctrl-C at a terminal: stop quietly, as Client.run does
        pass
