"""How often a table's board is edited when Discord's global budget is short (issue 27).

Every move rewrites its table's board, one message; at a thousand tables those edits alone
would spend the bot's 50 requests a second that the next player's prompt is waiting for. So
while requests wait for the budget (`GlobalPace.pressed`), a board edited moments ago waits
until `BOARD_EDIT_SECONDS` have passed, and its queue is read again then: the edits saved
meanwhile go as one, with the latest state (`bot.discord.stale_rows.superseded`). An idle bot
edits a board at once.

A notable step (a showdown, a deal's end) posts its news and moves the board to the bottom of
the channel: a new board, the old one deleted, two requests besides the news. While the
budget is short the board stays where it is and is edited instead (`in_place`), and the news
rides on that edit (`ride_on_board`): its text above the board's, its boxes and picture with
it, one request for the whole step, and for every step the table's queue gathered while its
last request waited for the budget. So a table costs at most one request in the channel at a
time, however fast it plays, and the budget's wait is what coalesces it: the more tables
want the budget, the longer each waits, and the more steps its next edit carries. The news
then notifies nobody (an edit does not); the next prompt, in each player's DMs, does. The
board comes back to the bottom with the first notable step once the budget has room again.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import TypeVar

from bot.core.outbox import BOARD_REF, Edit, OutboxMessage, Post, TableButtons, Upsert
from bot.discord.global_pace import Pressure
from bot.present.render import MAX_CONTENT

BOARD_EDIT_SECONDS = 2.0
Row = TypeVar("Row")  # the sender's row, carried along untouched


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


def is_news(message: OutboxMessage) -> bool:
    """A running table's news in its channel (a step's narration, a reveal's box and picture,
    the restart notice): what may ride on the board. Not a ping (it must notify), nor a
    finished game's last words (their Replay button), nor anything a ref follows."""
    return (isinstance(message, Post) and message.channel is not None and message.ref is None
            and not message.pings and message.turn is None
            and (message.view is None
                 or (isinstance(message.view, TableButtons) and message.view.kind == "board")))


def ride_on_board(messages: Sequence[OutboxMessage]) -> tuple[int, list[int], Upsert] | None:
    """Where a channel queue's news rides on its board, while the global budget is short: the
    index of the queue's last board write (an `Upsert`, after `BoardPace.in_place`), the
    indexes of the news before it that ride on it, and the write that carries them. None when
    there is nothing to carry or nothing to carry it (the board's last words, an `Edit`, or a
    board that must move to ping someone).

    The text of the news comes first, as above the board when posted, the oldest lines
    dropped if the message would pass Discord's 2,000 characters; the boxes and picture are
    those of the last news that had any (a picture belongs to the boxes it was drawn with)."""
    last = max((i for i, m in enumerate(messages)
                if isinstance(m, Edit | Upsert | Post) and m.ref == BOARD_REF), default=None)
    if last is None or not isinstance(board := messages[last], Upsert):
        return None
    riding = [i for i in range(last) if is_news(messages[i])]
    if not riding:
        return None
    news = [messages[i] for i in riding]
    lines = [line for post in news if isinstance(post, Post) for line in post.content.split("\n")
             if line]
    room = MAX_CONTENT - len(board.content) - 2
    while lines and len("\n".join(lines)) > room:
        del lines[0]
    boxed = next((post for post in reversed(news)
                  if isinstance(post, Post) and (post.embeds or post.picture)), None)
    carried = replace(board, content="\n\n".join(filter(None, ["\n".join(lines), board.content])),
                      embeds=boxed.embeds if boxed else board.embeds,
                      picture=boxed.picture if boxed else board.picture)
    return last, riding, carried


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

    def carry(self, rows: list[tuple[Row, OutboxMessage]],
              board_exists: bool) -> list[tuple[Row, list[tuple[Row, OutboxMessage]]]]:
        """While the budget is short, a channel queue's news rides on its board
        (`ride_on_board`): the board's row now holds the write that carries it, and the rows
        carried are taken out of `rows`; returned with the board's row, for the sender to
        delete once that write is made."""
        if not self.pressed:
            return []
        found = ride_on_board([self.in_place(message, board_exists) for _, message in rows])
        if found is None:
            return []
        last, riding, carrying = found
        board = rows[last][0]
        riders = [rows[index] for index in riding]
        rows[last] = (board, carrying)
        for index in reversed(riding):
            del rows[index]
        return [(board, riders)]

    async def waited(self, table_id: str, message: OutboxMessage,
                     carrying: bool = False) -> bool:
        """Whether this message had to wait (`hold`): its queue is then read again, so that
        it goes with the edits saved meanwhile, as one. A board carrying news does not wait:
        the news was a step people look for."""
        hold = 0.0 if carrying else self.hold(table_id, message)
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
