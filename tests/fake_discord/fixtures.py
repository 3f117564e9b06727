"""pytest fixtures. Import them into a test module (or a conftest.py):

    from tests.fake_discord.fixtures import fake_discord  # noqa: F401
"""

from __future__ import annotations

from typing import AsyncIterator

import pytest_asyncio

from .server import FakeDiscord


@pytest_asyncio.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A started FakeDiscord on 127.0.0.1 with discord.py pointed at it.
    Every bot started with server.start_bot() is closed at teardown, then
    the server, then the patches are undone."""
    server = FakeDiscord()
    await server.start()
    try:
        yield server
    finally:
        await server.close()
