"""The outbox's sender: delivers each table's saved messages in order, exactly once.

Rows are written by the table service with the step that caused them; this is the only
place they leave. A table's rows go out one after another (so a reveal never overtakes
what led to it) while different tables send side by side. A row is deleted, with the
message ids it created, only once Discord has it; after a crash the rows still saved are
sent again, and every new message carries a nonce made from its row, which Discord
(`enforce_nonce`) uses to hand back the message it already made rather than post a copy.

A seat's own answer outranks every prompt of the seat written before it: the click's step
saves the answer as a `Reply` row in the seat's queue (`bot.core.outbox.Reply`), which the
click's interaction response carries (`bot.discord.replies`: the sender waits for it, and
drops the row once it is marked delivered) or, when none does, the sender delivers. This
process learns of the answer, and of the message it was clicked on, before the click is
acknowledged (`Replies.answering`). From then on no older prompt of the seat is posted, or
edited in with buttons: a queued one is dropped (`overtaken`), one being posted at that
instant is taken back once Discord has it (unless that very message is the one answered),
and the click's answer waits for one being edited into the very message it answers on.

This module keeps the order and the bookkeeping (which rows are done, which messages they
made); it decodes each row's JSON once, as it reads it (`bot.core.outbox_json`), and works on
the typed message from then on. What of a row still goes is `bot.discord.stale_rows`', a row
put into a message just answered is `bot.discord.in_place`'s, its pictures
`bot.discord.painter`'s and its buttons `bot.discord.views`'.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

import aiohttp
import discord

from bot.core.outbox import (
    BOARD_REF,
    CHANNEL_QUEUE,
    Answered,
    Edit,
    OutboxMessage,
    Post,
    Reply,
    Strip,
    TableButtons,
    Upsert,
    ViewSpec,
    pinged,
)
from bot.core.outbox_json import embed_to_json, message_from_json
from bot.discord.board_pace import BoardPace
from bot.discord.delivery import Delivery, DiscordClient
from bot.discord.global_pace import URGENT
from bot.discord.in_place import InPlaceDelivery, in_place_marker
from bot.discord.painter import Painter, box_pictures
from bot.discord.replies import Replies, deliver_reply
from bot.discord.stale_rows import (
    PromptStamp,
    queue_of,
    ref_of,
    what_goes,
)
from bot.discord.views import build_view
from bot.discord.web_links import WebLinks
from bot.store import MessageRef, PendingMessage, Store

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 5
RETRY_PAUSE = 2.0
# The sender's reads and writes at a time. A wave of deals wakes hundreds of workers, each
# with a few small reads and writes a row; uncapped, they queued ahead of every click's save
# (1-2 s at 1,000 tables a process, bench/scale.py). PostgreSQL's pool has 10 connections.
DATABASE_SHARE = 3
DmClosed = Callable[[str, int], Awaitable[bool]]
Delivered = Callable[[str, list[str], float], Awaitable[None]]
Queued = tuple[PendingMessage, OutboxMessage]  # a saved row, and the message it holds


class Sender:
    def __init__(self, bot: DiscordClient, store: Store,
                 dm_closed: DmClosed, delivered: Delivered | None = None,
                 prompt_stamp: PromptStamp | None = None, *,
                 clock: Callable[[], float] = time.monotonic,
                 painter: Painter | None = None, links: WebLinks | None = None,
                 boards: BoardPace | None = None) -> None:
        """`clock` times how recent a click must be for a prompt to take its message's place
        (`bot.discord.in_place`); `painter` draws the pictures (by default a process of its
        own, so drawing keeps no click waiting); `links`, the servers' web pages a finished
        game's message links to; `boards`, how often a board is edited under load."""
        self.store = store.background(DATABASE_SHARE)
        self.prompt_stamp = prompt_stamp  # a seat's buttons as the table has them now
        self.delivery = Delivery(bot)
        self.in_place = InPlaceDelivery(self.store, self.delivery, clock, pressure=boards)
        self.dm_closed = dm_closed
        self.delivered = delivered  # a prompt that starts a clock reached its player
        self.painter = painter or Painter()
        self.links = links
        self.boards = boards or BoardPace()
        self._dispatchers: dict[str, asyncio.Task[None]] = {}
        self._workers: dict[tuple[str, str], asyncio.Task[None]] = {}
        self._again: set[str | tuple[str, str]] = set()
        self._closing = False  # no new sending once `close` began: the rows wait in the store
        # The clicks' answers under way and delivered, and those saved while a queue is sent.
        self.replies = Replies(store, running=self._workers.__contains__)

    def answered_here(self, table_id: str, seat: int, interaction: discord.Interaction) -> None:
        """The seat's click in its DMs was just answered: its next prompt may replace that
        message instead of costing the DM channel a new message and a strip."""
        self.in_place.clicks.note(table_id, seat, interaction)

    def wake(self, table_id: str) -> None:
        """Rows are waiting for this table: each destination's worker sends them."""
        if self._closing:
            return
        if table_id in self._dispatchers:
            self._again.add(table_id)
            return
        self._dispatchers[table_id] = asyncio.create_task(self._dispatch(table_id))

    async def start(self, owns: Callable[[int | None], bool] | None = None) -> None:
        """After a restart: whatever was saved but not yet sent goes out (for the tables of
        the guilds `owns` accepts: this process's shards)."""
        for table_id in await self.store.tables_with_pending_messages(owns):
            self.wake(table_id)

    async def drain(self) -> None:
        """Wait until everything woken so far has been delivered (tests, shutdown)."""
        while self._workers or self._dispatchers:
            tasks = [*self._workers.values(), *self._dispatchers.values()]
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _dispatch(self, table_id: str) -> None:
        try:
            while True:
                self._again.discard(table_id)
                rows = await self._read(table_id)
                for where in dict.fromkeys(queue_of(message) for _, message in rows):
                    self._start_worker(table_id, where)
                if table_id not in self._again:
                    return
        except Exception:
            log.exception("sending failed for table %s", table_id)
        finally:
            self._dispatchers.pop(table_id, None)
            if table_id in self._again:
                self._again.discard(table_id)
                self.wake(table_id)

    def _start_worker(self, table_id: str, where: str) -> None:
        if self._closing:
            return
        key = (table_id, where)
        if key in self._workers:
            self._again.add(key)
        else:
            self._workers[key] = asyncio.create_task(self._work(table_id, where))

    async def _work(self, table_id: str, where: str) -> None:
        """One destination of one table: its rows in order, one at a time. A seat's prompts
        and a person's DMs keep someone waiting: under Discord's global limit they go before
        the channels' messages (`global_pace.URGENT`; this task's own setting)."""
        key = (table_id, where)
        URGENT.set(where != CHANNEL_QUEUE)
        try:
            while True:
                self._again.discard(key)
                # The rows read now hold every answer saved so far (its `answered` row, or
                # nothing older left to send): what memory kept for the pass before is moot.
                self.replies.answered.pop(key, None)
                rows = [(row, message) for row, message in await self._read(table_id)
                        if queue_of(message) == where]
                # Every click leaves a `Reply` row in its seat's queue; most often it is all
                # there is, its interaction carries it, and it needs no message refs.
                loaded = any(not isinstance(message, Answered | Reply) for _, message in rows)
                refs = await self.store.message_refs(table_id) if loaded else {}
                # While the budget is short, the channel's news rides on its board; the rows
                # carried are deleted once the board is edited (a crash first: sent twice).
                carried = {id(board): riders for board, riders in (
                    self.boards.carry(rows, BOARD_REF in refs) if where == CHANNEL_QUEUE else ())}
                for index, (row, message) in enumerate(rows):
                    if isinstance(message, Reply):
                        message, loaded = await self.replies.settled(
                            table_id, message, refs, None if loaded else self.store)
                    message = self.boards.in_place(message, BOARD_REF in refs)
                    going = what_goes(table_id, message, [later for _, later in rows[index + 1:]],
                                      self.prompt_stamp, self.replies.answered.get(key))
                    if going is None:
                        await self._dropped(row, message, refs)
                        continue
                    if not loaded:
                        refs.update(await self.store.message_refs(table_id))
                        loaded = True
                    if await self.boards.waited(table_id, going, id(row) in carried):
                        self._again.add(key)  # read again: the latest edit goes, as one
                        break
                    await self._deliver_row(row, refs, going)
                    self.boards.sent(table_id, going)
                    for rider, news in carried.pop(id(row), ()):  # on the board now
                        await self._dropped(rider, news, refs)
                if key not in self._again:
                    return
        except Exception:
            log.exception("sending failed for table %s (%s)", table_id, where)
        finally:
            self._workers.pop(key, None)
            self.replies.answered.pop(key, None)
            if key in self._again:
                self._again.discard(key)
                self._start_worker(table_id, where)

    async def _read(self, table_id: str) -> list[Queued]:
        """The table's saved rows, each decoded once, here. A row that holds no message
        (none this code writes: a row from a version that is gone) cannot be sent, and is
        dropped rather than hold its table's queue for ever."""
        queued: list[Queued] = []
        for row in await self.store.pending_messages(table_id):
            try:
                queued.append((row, message_from_json(row.body)))
            except (KeyError, TypeError, ValueError):
                log.error("dropping message %s of table %s, which holds no message: %r",
                          row.id, row.table_id, row.body)
                await self.store.message_delivered(row.id, row.table_id)
        return queued

    async def _dropped(self, row: PendingMessage, message: OutboxMessage,
                       refs: dict[str, MessageRef]) -> None:
        """A row nothing of which goes: deleted (with its mark, for an answer's)."""
        marker = self.replies.marker(row.table_id, row.body, message)
        await self.store.message_delivered(row.id, row.table_id,
                                           {marker: None} if marker else None)
        refs.pop(marker or "", None)

    def _left_of(self, table_id: str, post: Post,
                 posted: int | None = None) -> OutboxMessage | None:
        """What is left of a prompt once the answers of its seat this process saw saved since
        its queue was read are counted (`stale_rows.what_goes`; the very `post` if they change
        nothing); `posted`, the message it was just posted as, which an answer on it leaves as
        it is. Asked with no await between it and what it decides: it compares what is known
        in memory, the answer's step and message, with what was just posted."""
        return what_goes(table_id, post, [], posted=posted,
                         answered=self.replies.answered.get((table_id, ref_of(post))))

    async def _deliver_row(self, row: PendingMessage, refs: dict[str, MessageRef],
                           message: OutboxMessage) -> None:
        marker = in_place_marker(row.id)
        if row.attempts >= MAX_ATTEMPTS:
            log.error("giving up on message %s of table %s", row.id, row.table_id)
            await self.store.message_delivered(row.id, row.table_id,
                                               {marker: None} if marker in refs else None)
            refs.pop(marker, None)
            return
        await self.store.message_attempted(row.id)
        while True:
            try:
                changed = await self._deliver(row.table_id, row.id, message, refs)
                break
            except (aiohttp.ClientError, OSError, discord.GatewayNotFound) as error:
                log.warning("Discord unreachable (%s); retrying message %s", error, row.id)
                await asyncio.sleep(RETRY_PAUSE)
        if marker in refs:  # an in-place try that was refused: the row went as a DM
            changed = {marker: None, **changed}
        await self.store.message_delivered(row.id, row.table_id, changed)
        for ref, value in changed.items():
            if value is None:
                refs.pop(ref, None)
            else:
                refs[ref] = value

    async def _deliver(self, table_id: str, row_id: int, message: OutboxMessage,
                       refs: dict[str, MessageRef]) -> dict[str, MessageRef | None]:
        if isinstance(message, Edit):  # a board's last words: text alone, no news left on it
            where = refs.get(message.ref)
            if where is not None:
                await self.delivery.edit(where.channel_id, where.message_id, message.content,
                                         build_view(message.view), [], [])
            return {}
        if isinstance(message, Upsert):
            where = refs.get(message.ref)
            if where is not None:
                files = await self.painter.files(message.picture)
                embeds = [discord.Embed.from_dict(embed_to_json(e)) for e in message.embeds]
                box_pictures(embeds, files)
                if await self.delivery.edit(where.channel_id, where.message_id, message.content,
                                            build_view(message.view), files or None,
                                            embeds or None):
                    return {}
            # No board yet, or Discord refused the edit (someone deleted the board): a new
            # one (the old one deleted, if it is there), so that what it carries, the news
            # riding on it, is not lost.
            return await self._post(table_id, row_id, Post(
                channel=message.channel, content=message.content, view=message.view,
                ref=message.ref, previous="delete", pings=message.pings,
                embeds=message.embeds, picture=message.picture), refs)
        if isinstance(message, Strip):
            where = refs.get(message.ref)
            if where is not None and not await self.in_place.strip(table_id, message.ref, where):
                await self.delivery.strip_components(where.channel_id, where.message_id)
            return {message.ref: None}
        if isinstance(message, Answered):  # a mark, never sent (`what_goes`)
            return {}
        if isinstance(message, Reply):  # no interaction carried it
            return await deliver_reply(self.delivery, await self.painter.files(message.picture),
                                       f"{table_id}.{row_id}", message, refs)
        return await self._post(table_id, row_id, message, refs)

    async def _link(self, view: ViewSpec | None) -> str | None:
        """A finished game's replay on its server's web page, when the page is on."""
        if self.links is None or not isinstance(view, TableButtons) or view.kind != "replay":
            return None
        return await self.links.url(view.guild, f"/replay/{view.table}")

    async def _post(self, table_id: str, row_id: int, post: Post,
                    refs: dict[str, MessageRef]) -> dict[str, MessageRef | None]:
        nonce = f"{table_id}.{row_id}"  # at most 25 characters, as Discord allows
        placed: dict[str, MessageRef | None] | None = None
        with self.replies.editing(table_id, post):
            left = self._left_of(table_id, post)  # answered while this row waited
            if not isinstance(left, Post):
                return {}
            post = left
            files = await self.painter.files(post.picture)
            view = build_view(post.view, link=await self._link(post.view))
            if post.turn is not None and await self.in_place.turn(table_id, post.turn):
                return {}
            if post.user is not None:
                placed = await self.in_place.prompt(table_id, row_id, post, refs, view, files)
        if placed is not None:
            if post.clocks and self.delivered is not None:
                await self.delivered(table_id, list(post.clocks), time.time())
            return placed
        embeds = [discord.Embed.from_dict(embed_to_json(embed)) for embed in post.embeds]
        box_pictures(embeds, files)
        if post.user is not None:
            sent = await self.delivery.dm(post.user, post.content, view, files, nonce=nonce)
            log.debug("row %s: DM %s for %s (stamp %s, step %s)", nonce,
                      sent.id if sent else None, ref_of(post),
                      getattr(post.view, "stamp", None), post.step)
            left = post if sent is None else self._left_of(table_id, post, sent.id)
            if left is not post and sent is not None:
                # Answered while this went out: taken back, so the message answered on stays
                # the seat's prompt (not stripped, its ref kept) and no step-old buttons stay.
                await self._take_back(sent, post, left)
                return {}
            if sent is None and post.fallback and post.table_channel is not None and \
                    await self.dm_closed(table_id, post.user):
                await self.delivery.channel(post.table_channel, post.fallback,
                                            nonce=f"{nonce}f",
                                            pings=pinged(post, fallback=True))
        elif post.channel is not None:
            sent = await self.delivery.channel(post.channel, post.content, view, files,
                                               embeds, nonce=nonce, pings=pinged(post))
        else:  # never: a post goes to a user or a channel (`Post.__post_init__`)
            return {}
        if sent is not None and post.clocks and self.delivered is not None:
            await self.delivered(table_id, list(post.clocks), time.time())
        if sent is None or not post.ref:
            return {}
        old = refs.get(post.ref)
        if old is not None and old.message_id != sent.id:
            if post.previous == "delete":
                await self.delivery.delete(old.channel_id, old.message_id)
            elif post.previous == "strip":
                await self.delivery.strip_components(old.channel_id, old.message_id)
        return {post.ref: MessageRef(sent.channel.id, sent.id)}

    async def _take_back(self, sent: discord.Message, post: Post,
                         left: OutboxMessage | None) -> None:
        """A prompt posted just as its seat answered: what is `left` of it then stays (its
        pictures, without buttons: `bot.discord.stale_rows.overtaken_news`); nothing left,
        it is deleted."""
        if left is None:
            await self.delivery.delete(sent.channel.id, sent.id)
        elif post.view is not None:
            await self.delivery.strip_components(sent.channel.id, sent.id)

    async def close(self) -> None:
        self._closing = True  # a cancelled worker must not start another on its way out
        tasks = [*self._dispatchers.values(), *self._workers.values()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.painter.shutdown()

