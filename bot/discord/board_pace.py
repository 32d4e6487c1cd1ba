"""How often a table's board is edited when Discord's global budget is short (issue 27).

Every move rewrites its table's board, one message; at a thousand tables those edits alone
would spend the bot's 50 requests a second that the next player's prompt is waiting for. So
while requests wait for the budget (`GlobalPace.pressed`), a board edited moments ago waits
until `BOARD_EDIT_SECONDS` have passed, and its queue is read again then: the edits saved
meanwhile go as one, with the latest state (`bot.discord.stale_rows.superseded`). An idle bot
edits a board at once.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

from bot.core.outbox import BOARD_REF, Edit, OutboxMessage, Upsert

BOARD_EDIT_SECONDS = 2.0


class Pressure(Protocol):
    """Whether requests wait for Discord's global budget (`bot.discord.global_pace`)."""

    @property
    def pressed(self) -> bool: ...


def is_board_edit(message: OutboxMessage) -> bool:
    """An edit of a table's live board (its one message, rewritten at every move)."""
    return isinstance(message, Edit | Upsert) and message.ref == BOARD_REF


class BoardPace:
    def __init__(self, pressure: Pressure | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 seconds: float = BOARD_EDIT_SECONDS,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        """`pressure`: the process's pace under Discord's global limit (None: never short);
        `clock` and `sleep` measure and wait the `seconds` (tests give their own)."""
        self.pressure = pressure
        self.clock, self.sleep = clock, sleep
        self.seconds = seconds
        self._edited: dict[str, float] = {}  # table -> when its board was last edited

    async def waited(self, table_id: str, message: OutboxMessage) -> bool:
        """Whether this message had to wait (`hold`): its queue is then read again, so that
        it goes with the edits saved meanwhile, as one."""
        hold = self.hold(table_id, message)
        if hold > 0:
            await self.sleep(hold)
        return hold > 0

    def hold(self, table_id: str, message: OutboxMessage) -> float:
        """How long this message waits before it is sent: a board's edit, while the budget
        is short, until `seconds` since the board's last edit; anything else not at all."""
        edited = self._edited.get(table_id)
        if edited is None or not is_board_edit(message):
            return 0.0
        left = edited + self.seconds - self.clock()
        if left <= 0:
            del self._edited[table_id]  # long enough ago: forgotten
            return 0.0
        return left if self.pressure is not None and self.pressure.pressed else 0.0

    def sent(self, table_id: str, message: OutboxMessage) -> None:
        """A message of the table went out: if it edited the board, the wait counts from now
        (kept only where a wait can come of it: with no pressure to read, none ever does)."""
        if self.pressure is not None and is_board_edit(message):
            self._edited[table_id] = self.clock()
