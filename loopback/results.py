"""What a test gets back from an interaction: a live view of how the bot answered it.

A result reads through a `Watcher` (the loopback's records and its waits), which the driver's
LoopbackDiscord is: named here as a protocol, not imported, because the driver makes results.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from loopback.models import RESPONSE_NAMES, ErrorRecord, Interaction, Message, Modal
from loopback.state import LoopbackState

Predicate = Callable[[], Any]
MessagePredicate = Callable[[Message], Any]
T = TypeVar("T")


class Watcher(Protocol):
    """The loopback's records, and a wait until they read as wanted (LoopbackDiscord)."""

    @property
    def state(self) -> LoopbackState: ...

    async def wait_for(
        self,
        predicate: Callable[[], T | None],
        timeout: float = 10.0,
        *,
        message: str | Callable[[], str] | None = None,
    ) -> T: ...


class InteractionResult:
    """A live view of one interaction: how the bot answered, and what it showed.

    Properties read the current record, so a result also shows later edits and followups.
    """

    def __init__(self, discord: Watcher, interaction_id: int, kind: str = "") -> None:
        self._discord = discord
        self.id = interaction_id
        self.kind = kind or {2: "slash", 3: "component", 4: "autocomplete", 5: "modal"}.get(
            self._record.type, "")

    def __repr__(self) -> str:
        return f"<InteractionResult {self.kind} response={self.response} errors={self.errors}>"

    @property
    def _record(self) -> Interaction:
        return self._discord.state.interactions[self.id]

    @property
    def acked(self) -> bool:
        return self._record.response_type is not None

    @property
    def response_type(self) -> int | None:
        return self._record.response_type

    @property
    def response(self) -> str | None:
        """"message", "deferred_message", "deferred_update", "update_message", "modal" ..."""
        kind = self._record.response_type
        return None if kind is None else RESPONSE_NAMES.get(kind, str(kind))

    @property
    def late(self) -> bool:
        """The bot tried to answer after the 3 s deadline (and got 404 Unknown interaction)."""
        return self._record.late

    @property
    def errors(self) -> list[ErrorRecord]:
        return list(self._record.errors)

    @property
    def message(self) -> Message | None:
        """The response message: the new reply, or the updated component message."""
        original = self._record.original_id
        found = self._discord.state.messages.get(original or 0)
        return found.snapshot() if found is not None else None

    @property
    def followups(self) -> list[Message]:
        messages = self._discord.state.messages
        return [messages[i].snapshot() for i in self._record.followup_ids]

    @property
    def modal(self) -> Modal | None:
        return copy.deepcopy(self._record.modal)

    @property
    def choices(self) -> list[dict[str, Any]] | None:
        """Autocomplete suggestions the bot answered with."""
        return self._record.choices

    @property
    def ephemeral(self) -> bool:
        message = self.message
        return bool(message and message.ephemeral)

    @property
    def text(self) -> str:
        message = self.message
        return message.text if message is not None else ""

    async def wait_for_message(
        self, predicate: MessagePredicate | None = None, timeout: float = 10.0
    ) -> Message:
        """The response message once it is filled in (not "thinking") and matches."""

        def done() -> Message | None:
            message = self.message
            if message is None or message.loading or message.deleted:
                return None
            return message if predicate is None or predicate(message) else None

        return await self._discord.wait_for(done, timeout, message=lambda: (
            f"response to {self.kind} not as expected; now: {self.message!r}"))

    async def wait_for_followup(
        self, predicate: MessagePredicate | None = None, timeout: float = 10.0
    ) -> Message:
        def found() -> Message | None:
            return next((m for m in reversed(self.followups)
                         if predicate is None or predicate(m)), None)

        return await self._discord.wait_for(found, timeout, message="no matching followup")
