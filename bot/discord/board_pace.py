"""How often a table's board is edited when Discord's global budget is short (issue 27).

Every move rewrites its table's board, one message; at a thousand tables those edits alone
would spend the bot's 50 requests a second that the next player's prompt is waiting for. So
while requests wait for the budget (`GlobalPace.pressed`), a board edited moments ago waits
until `BOARD_EDIT_SECONDS` have passed, and its queue is read again then: the edits saved
meanwhile go as one, with the latest state (`bot.discord.stale_rows.superseded`). An idle bot
edits a board at once.

A notable step (a showdown, a deal's end) posts its news and moves the board to the bottom of
the channel: a new board, the old one deleted, two requests besides the news. While the
budget is short the board stays where it is and is edited instead (`in_place`): one request,
paced and folded with the table's next moves like any board edit. The news is posted all
the same (it notifies, and carries **Show my hand**); the board below it comes back to the
bottom at the first notable step once the budget has room again.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from bot.core.outbox import BOARD_REF, Edit, OutboxMessage, Post, Upsert
from bot.discord.global_pace import Pressure

BOARD_EDIT_SECONDS = 2.0




def is_board_edit(message: OutboxMessage) -> bool:
    """An edit of a table's live board (its one message, rewritten at every move)."""
    return isinstance(message, Edit | Upsert) and message.ref == BOARD_REF


def moves_board(message: OutboxMessage) -> bool:
    """A table's board posted anew at the bottom of the channel, the old one deleted."""
    return isinstance(message, Post) and message.ref == BOARD_REF \
        and message.previous == "delete" and message.channel is not None


def ends_board(message: OutboxMessage) -> bool:
    """A table's board given its last words: an `Edit`, not an `Upsert`, is what a table
    writes on its board only as it ends (finished, aborted or closed), never during play."""
    return isinstance(message, Edit) and message.ref == BOARD_REF


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
        self._pruned_at = clock()

    @property
    def remembered(self) -> int:
        """How many tables' last board edits are kept now (the tests', and the logs')."""
        return len(self._edited)

    @property
    def pressed(self) -> bool:
        """Whether requests wait for Discord's global budget now."""
        return self.pressure is not None and self.pressure.pressed

    def in_place(self, message: OutboxMessage, board_exists: bool) -> OutboxMessage:
        """The message as it goes now: under pressure, a board that would move to the bottom
        of the channel is edited where it is instead (an `Upsert` of the same text and
        buttons), when there is a board to edit. A board that pings someone (a player whose
        DMs are closed, whose turn it is) still moves: an edit notifies nobody."""
        if board_exists and self.pressed and moves_board(message) \
                and isinstance(message, Post) and message.channel is not None \
                and not message.pings:
            return Upsert(ref=BOARD_REF, channel=message.channel, content=message.content,
                          view=message.view)
        return message

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
        if ends_board(message):  # the table is over: nothing of it waits any more
            self._edited.pop(table_id, None)
        elif self.pressure is not None and is_board_edit(message):
            now = self.clock()
            self._prune(now)
            self._edited[table_id] = now

    def _prune(self, now: float) -> None:
        """Forget the boards edited longer than `seconds` ago, once in a while: their next
        edit would not wait anyway, and a table that ends without its last words reaching
        this process (a crash, another process's shard) must not be kept for ever."""
        if len(self._edited) > 64 and now - self._pruned_at > self.seconds:
            self._edited = {table: at for table, at in self._edited.items()
                            if now - at < self.seconds}
            self._pruned_at = now
