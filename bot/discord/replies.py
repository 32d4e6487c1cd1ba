"""The answers to clicks, between the presenter that sends them and the sender that owns their rows.

A click's answer is an outbox row (`bot.core.outbox.Reply`), written in the step's commit into
its seat's prompt queue, so it has one route, whoever delivers it:

- the click's interaction response, normally: the presenter registers the click here before
  the service call (`Replies.click`), so the sender, reaching the new row, knows an
  interaction will carry it and waits for that instead of delivering it too; once the
  response carried it, the presenter marks it delivered in the store (`Replies.delivered`: a
  message ref named `answered_marker`, naming the message answered on, deleted with the row);
- the sender itself, when no interaction carries it: the process died between the commit and
  the response (nothing is registered after a restart), or the response failed (`release`).

It also keeps a click in order with its seat's prompts (`Replies.answering`): from the save of
its step, no older prompt of the seat goes out over its answer, and the answer waits for one
being edited into the very message it answers on (`Replies.editing`).

What this keeps in memory is the clicks in flight, which die with the process exactly when the
sender must take their rows over; a cache of delivered marks already committed (`carried`),
which the store holds too (a restart reads the mark from the store instead); and the answers
saved while a queue's worker was running (`answered`: step and message clicked, rows of the
store its worker read too early), which its next pass reads from the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

import discord

from bot.core.outbox import Answered, OutboxMessage, Reply
from bot.discord.delivery import Delivery
from bot.discord.stale_rows import queue_of
from bot.discord.views import build_view
from bot.store import MessageRef, Store

log = logging.getLogger(__name__)

# How long the sender waits, at most, for a click's response to carry its answer (the service
# call is done by then: what is left is the response's round trip and the mark's write). Past
# it the sender delivers the answer itself, and the click's own delivery leaves no mark.
CARRY_WAIT = 120.0
# How long a click's answer waits, at most, for a prompt of its seat that is being edited into
# the message it answers on at that instant (`Replies.answering`): a webhook edit's round trip,
# normally; past this the answer goes anyway.
ANSWER_WAIT = 10.0

T = TypeVar("T")
Queue = tuple[str, str]  # a table's queue: (table, "prompt:<seat>")


def answered_marker(seat: int, step: int) -> str:
    """The message ref marking a seat's answer at `step` delivered by its click's response,
    naming the message it answered on; deleted with the answer's row."""
    return f"answered:{seat}:{step}"


@dataclass(eq=False)
class Click:
    """A click on a seat's private view, from its registration to its answer's delivery."""

    table_id: str
    seat: int
    message: int | None  # the message clicked (None: a modal without one)
    step: int | None = None  # the step its answer was saved at, once saved
    abandoned: bool = False  # the sender gave up waiting and delivered the answer itself
    known: asyncio.Event = field(default_factory=asyncio.Event)  # step saved, or no answer
    carried: asyncio.Future[MessageRef | None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future())

    def answered(self) -> Answered | None:
        """The mark of this click's answer, once saved (the message it answered on)."""
        return None if self.step is None else Answered(self.seat, self.step, self.message)


class Replies:
    """The clicks whose answers an interaction is carrying, and the answers it carried."""

    def __init__(self, store: Store, running: Callable[[Queue], bool]) -> None:
        """`store`: the whole store, not the sender's share (a mark is written on a click's
        path); `running`, whether the sender's worker of a queue is under way."""
        self.store = store
        self._running = running
        self._clicks: dict[tuple[str, int], list[Click]] = {}
        self._delivered: dict[tuple[str, int, int], MessageRef] = {}
        # Per prompt queue: the latest answer of its seat saved while its worker was running
        # (its rows may have been read before that save), and the in-place edit of a prompt
        # under way, which that answer waits for.
        self.answered: dict[Queue, Answered] = {}
        self._editing: dict[Queue, asyncio.Event] = {}

    def click(self, table_id: str, seat: int, message: int | None) -> Click:
        """Register a click before its service call: an answer its step saves is the
        interaction's to deliver, until `release`."""
        click = Click(table_id, seat, message)
        self._clicks.setdefault((table_id, seat), []).append(click)
        return click

    async def answering(self, click: Click, work: Awaitable[T]) -> T:
        """`work`, the service call of `click`, in order with the seat's prompts: once it has
        saved an answer (a `Reply`, at its step), no prompt of the seat written before that
        step is sent any more, and a prompt being edited into the seat's DM message at this
        instant has landed before this returns and the click is acknowledged (else the edit
        could cover the answer with step-old buttons). Called in the click's own task, so
        this process knows of the answer from the moment its step is saved."""
        outcome = await work
        if not isinstance(outcome, Reply):
            return outcome
        click.step = outcome.step
        click.known.set()
        key = (click.table_id, outcome.ref)
        mark, before = click.answered(), self.answered.get(key)
        if self._running(key) and mark is not None and (before is None
                                                        or mark.step >= before.step):
            self.answered[key] = mark  # a pass that read its rows before the save is on
        editing = self._editing.get(key)
        if editing is not None:
            try:
                await asyncio.wait_for(editing.wait(), ANSWER_WAIT)
            except TimeoutError:
                log.warning("answering table %s seat %d while its prompt is still being "
                            "edited in place", click.table_id, outcome.seat)
        return outcome

    @contextlib.contextmanager
    def editing(self, table_id: str, message: OutboxMessage) -> Iterator[None]:
        """While a seat's prompt may be edited into the message its person answered on, an
        answer of theirs saved meanwhile waits before it is acknowledged (`answering`)."""
        key = (table_id, queue_of(message))
        if not key[1].startswith("prompt:"):
            yield
            return
        editing = asyncio.Event()
        self._editing[key] = editing
        try:
            yield
        finally:
            editing.set()
            if self._editing.get(key) is editing:
                del self._editing[key]

    async def delivered(self, click: Click, reply: Reply, where: MessageRef) -> None:
        """The click's response carried its answer, on the message `where`: marked in the
        store, then known here (a cache of that mark), so the sender drops the row."""
        if click.abandoned:  # delivered by the sender already; its row is gone
            return
        key = (click.table_id, reply.seat, reply.step)
        try:
            await self.store.remember_message(click.table_id,
                                              answered_marker(reply.seat, reply.step), where)
        finally:  # unsaved, the mark is still true of this process: its sender drops the row
            self._delivered[key] = where
            self.release(click)

    def release(self, click: Click) -> None:
        """The click is done: an answer its response did not carry is the sender's now."""
        click.known.set()
        if not click.carried.done():
            click.carried.set_result(self._delivered.get(
                (click.table_id, click.seat, click.step if click.step is not None else -1)))
        clicks = self._clicks.get((click.table_id, click.seat), [])
        if click in clicks:
            clicks.remove(click)
        if not clicks:
            self._clicks.pop((click.table_id, click.seat), None)

    async def carried(self, table_id: str, reply: Reply) -> MessageRef | None:
        """Where a click's response delivered this answer, as far as this process knows
        (waiting for a response under way); None when no click here carried it, and the
        sender must (or a mark in the store says it was, before a restart)."""
        key = (table_id, reply.seat, reply.step)
        while key not in self._delivered:
            clicks = [click for click in self._clicks.get((table_id, reply.seat), ())
                      if click.step in (None, reply.step)]
            if not clicks:
                return None
            click = clicks[0]
            try:
                if click.step is None:  # its step is being saved: this row may be its answer
                    await asyncio.wait_for(click.known.wait(), CARRY_WAIT)
                else:
                    await asyncio.wait_for(asyncio.shield(click.carried), CARRY_WAIT)
            except TimeoutError:
                log.warning("table %s seat %d: no response carried the answer at step %d; "
                            "sending it", table_id, reply.seat, reply.step)
                click.abandoned = True
                self.release(click)
                return None
            if click.step is None and click.known.is_set():
                self.release(click)  # it saved no answer (refused, or asked for text)
        return self._delivered[key]

    async def settled(self, table_id: str, reply: Reply, refs: dict[str, MessageRef],
                      store: Store | None) -> tuple[OutboxMessage, bool]:
        """A click's answer as the sender is to take it: `Answered` (a mark) once a click's
        response carried it, as this process knows (`carried`) or the store's mark in
        `refs` says; else the `Reply` itself, to deliver. `store`: where to read `refs`
        from first, when they are not read yet. Returns it, and that `refs` are read."""
        where = await self.carried(table_id, reply)
        if where is None:
            if store is not None:
                refs.update(await store.message_refs(table_id))
            where = refs.get(answered_marker(reply.seat, reply.step))
        if where is None:
            return reply, True
        return Answered(reply.seat, reply.step, where.message_id), True

    def marker(self, table_id: str, body: Mapping[str, Any],
               message: OutboxMessage) -> str | None:
        """The mark to delete with a row nothing of which goes: an answer's (forgotten here
        too); None for any other row (and for an `answered` row of before)."""
        if not isinstance(message, Answered | Reply) or body.get("op") != "reply":
            return None
        self._delivered.pop((table_id, message.seat, message.step), None)
        return answered_marker(message.seat, message.step)


async def deliver_reply(delivery: Delivery, files: list[discord.File], nonce: str,
                        reply: Reply, refs: Mapping[str, MessageRef],
                        ) -> dict[str, MessageRef | None]:
    """A click's answer no interaction carried, as the sender delivers it: edited into the
    seat's prompt message (most often the message clicked), else a new DM (the row's
    `nonce`). After a crash before the row's deletion the same edit is made again: the
    person sees it once. Its mark, if a response wrote one after all, goes with the row."""
    view = build_view(reply.view)
    done: dict[str, MessageRef | None] = {answered_marker(reply.seat, reply.step): None}
    where = refs.get(reply.ref)
    if where is not None and await delivery.edit(where.channel_id, where.message_id,
                                                 reply.content, view, files or None):
        return done
    for file in files:
        file.reset()
    sent = await delivery.dm(reply.user, reply.content, view, files, nonce=nonce)
    if sent is None:
        return done
    return {**done, reply.ref: MessageRef(sent.channel.id, sent.id)}
