"""A fake Discord server (REST v10 + gateway) on 127.0.0.1 for end-to-end
tests of a discord.py bot. See README.md."""

from .interactions import FakeInteraction
from .models import FakeChannel, FakeGuild, FakeMember, FakeRole, FakeUser, LogEntry, StoredAttachment, StoredMessage
from .server import FakeDiscord, NetworkGuardError
from .validation import ApiError

__all__ = [
    "ApiError",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeInteraction",
    "FakeMember",
    "FakeRole",
    "FakeUser",
    "LogEntry",
    "NetworkGuardError",
    "StoredAttachment",
    "StoredMessage",
]
