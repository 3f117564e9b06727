"""The handle a test gets back from ``server.slash`` / ``server.click`` / ..."""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any, Callable, Optional

from .models import LOADING, FakeChannel, FakeGuild, FakeUser, StoredMessage

if TYPE_CHECKING:  # pragma: no cover
    from .server import FakeDiscord

# Interaction types
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
# Callback types
CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE = 4, 5, 6, 7
AUTOCOMPLETE_RESULT, MODAL = 8, 9


class FakeInteraction:
    """One interaction the fake dispatched, and everything the bot answered.

    ``await interaction`` waits for the initial callback (and returns self).

    Attributes filled in as the bot responds:
      callback_type  4 message, 5 deferred (thinking), 6 deferred update,
                     7 update message, 8 autocomplete choices, 9 modal
      callback       the raw callback body ({"type": .., "data": {...}})
      callback_files filename -> bytes uploaded with the callback
      message        the response message (type 4/5), or the component's
                     message for type 6/7 responses
      followups      follow-up messages (POST /webhooks/{app}/{token})
      choices        autocomplete choices (type 8)
      modal          the modal the bot opened (type 9)
      errors         ApiErrors the bot got on this interaction's token
    """

    def __init__(
        self,
        server: "FakeDiscord",
        *,
        id: int,
        token: str,
        type: int,
        user: FakeUser,
        channel: FakeChannel,
        guild: Optional[FakeGuild],
        payload: dict,
        name: str,
        source_message: Optional[StoredMessage] = None,
    ):
        self.server = server
        self.id = id
        self.token = token
        self.type = type
        self.user = user
        self.channel = channel
        self.guild = guild
        self.payload = payload
        self.name = name
        self.source_message = source_message
        self.dispatched_at = time.monotonic()
        self.responded_at: Optional[float] = None
        self.callback_type: Optional[int] = None
        self.callback: Optional[dict] = None
        self.callback_files: dict[str, bytes] = {}
        self.message: Optional[StoredMessage] = None
        self.followups: list[StoredMessage] = []
        self.choices: Optional[list[dict]] = None
        self.modal: Optional[dict] = None
        self.errors: list[Any] = []
        # Set when the bot answers (the initial callback) and when it sends a
        # follow-up or replaces its "thinking" (an edit, or a delete to answer
        # in the channel): a load bench with thousands of waiting players
        # awaits these instead of re-checking a predicate on every event.
        self.answered = asyncio.Event()
        self.followed_up = asyncio.Event()

    # ---- state ------------------------------------------------------------

    @property
    def responded(self) -> bool:
        return self.callback_type is not None

    @property
    def deferred(self) -> bool:
        return self.callback_type in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE)

    @property
    def loading(self) -> bool:
        """True while a deferred ("thinking...") response has not been filled in."""
        return self.message is not None and bool(self.message.flags & LOADING)

    @property
    def ephemeral(self) -> bool:
        return self.message is not None and self.message.ephemeral

    @property
    def content(self) -> Optional[str]:
        return None if self.message is None else self.message.content

    @property
    def messages(self) -> list[StoredMessage]:
        """The response message (if any) followed by follow-ups, deleted ones excluded."""
        out = [self.message] if self.message is not None and self.callback_type in (4, 5) else []
        return [m for m in out + self.followups if not m.deleted]

    @property
    def files(self) -> dict[str, bytes]:
        out: dict[str, bytes] = {}
        for m in self.messages:
            out.update(m.files)
        return out

    @property
    def latency(self) -> Optional[float]:
        """Seconds between dispatch and the bot's initial callback."""
        return None if self.responded_at is None else self.responded_at - self.dispatched_at

    # ---- waiting -----------------------------------------------------------

    async def wait(self, timeout: Optional[float] = None) -> "FakeInteraction":
        await self.server.wait_for(lambda: self.responded, timeout=timeout, what=f"a response to {self!r}")
        return self

    def __await__(self):
        return self.wait().__await__()

    async def wait_until(self, predicate: Callable[["FakeInteraction"], Any], timeout: Optional[float] = None) -> Any:
        return await self.server.wait_for(lambda: predicate(self), timeout=timeout, what=f"condition on {self!r}")

    async def wait_followups(self, count: int = 1, timeout: Optional[float] = None) -> list[StoredMessage]:
        await self.server.wait_for(
            lambda: len(self.followups) >= count, timeout=timeout, what=f"{count} follow-up(s) to {self!r}"
        )
        return self.followups

    async def wait_loaded(self, timeout: Optional[float] = None) -> StoredMessage:
        """For deferred responses: wait until the 'thinking' message is filled in."""
        await self.wait(timeout)
        await self.server.wait_for(lambda: self.message is not None and not self.loading, timeout=timeout,
                                   what=f"the deferred response of {self!r}")
        assert self.message is not None
        return self.message

    def __repr__(self) -> str:
        kind = {2: "slash", 3: "component", 4: "autocomplete", 5: "modal"}.get(self.type, str(self.type))
        return f"<FakeInteraction {kind} {self.name!r} by {self.user.name} callback={self.callback_type}>"
