"""Which saved outbox messages are past sending, in full or in part, and where a row waits.

The sender (`bot.discord.sender`) reads a queue's rows and asks `what_goes`, row by row, what
of each still goes: nothing (`superseded`, a mark, or an `overtaken` prompt or answer with no
news), its news without its buttons (`outdated`, `stale`, `overtaken_news`), or all of it. A
click's answer (`Reply`) is a row like the prompts: delivered by its interaction it is a mark
(`Answered`: the sender reads it so, `bot.discord.replies`); else it goes like a prompt. The rules
stand apart from the sender because they are pure: they read a message and the messages after
it in its queue (and, for `stale`, the stamp the table has now), never Discord or the store,
so they are tested alone (tests/bot/test_in_place.py) and what "stale" means is written in one
place.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from bot.core.outbox import (
    Answered,
    Edit,
    OutboxMessage,
    Post,
    PromptButtons,
    Reply,
    Strip,
    Upsert,
    destination,
)

# A seat's buttons as the table has them now (its prompt's stamp), None if it has none.
PromptStamp = Callable[[str, int], str | None]


def what_goes(table_id: str, message: OutboxMessage, later: Sequence[OutboxMessage],
              prompt_stamp: PromptStamp | None = None, answered: Answered | None = None,
              posted: int | None = None) -> OutboxMessage | None:
    """What of a queued message is still to be sent, given the messages after it in its
    queue, the stamps the table has now (`prompt_stamp`) and an answer of its seat saved
    since the rows were read (`answered`: its step and the message clicked), for a prompt
    just `posted` as that message (an answer on it is to it, and takes nothing back): None
    for nothing (the row is done), else the message itself, unchanged (the very object), or
    what is left of it."""
    if isinstance(message, Answered) or superseded(message, later):
        return None  # a mark for the rows before it, or an edit a later row makes anyway
    if overtaken(message, later, answered, posted):
        return overtaken_news(message)
    if isinstance(message, Post | Reply) and (outdated(message, later) or (
            prompt_stamp is not None and stale(table_id, message, prompt_stamp))):
        # Replaced, withdrawn or moved past: its news counts, not its buttons.
        return replace(message, view=None)
    return message


def superseded(message: OutboxMessage, later: Sequence[OutboxMessage]) -> bool:
    """An edit whose message a later row rewrites anyway need not be sent: a burst of moves
    (AI seats) costs one edit of the board, not one per move."""
    if not isinstance(message, Edit | Upsert) or not message.ref:
        return False
    return any(isinstance(row, Edit | Upsert | Post) and row.ref == message.ref
               for row in later)


def outdated(message: OutboxMessage, later: Sequence[OutboxMessage]) -> bool:
    """A seat's prompt (or a click's answer no interaction carried) that a later row of the
    same queue replaces or withdraws: sent late (its queue was held), it would arrive with
    buttons for a question already gone ("Nothing is awaited")."""
    ref = ref_of(message)
    if not isinstance(message, Post | Reply) or not ref.startswith("prompt:"):
        return False
    return any(isinstance(row, Post | Strip) and row.ref == ref for row in later)


def overtaken(message: OutboxMessage, later: Sequence[OutboxMessage],
              answered: Answered | None = None, posted: int | None = None) -> bool:
    """A seat's prompt (or an answer no interaction carried) written before the seat's own
    answer, which already showed it the table as it was then, or later: a `Reply` or its
    `Answered` mark after it in its queue (saved with the answer's step, so this holds after
    a restart too), or `answered`, an answer saved since the rows were read. Its buttons are
    out of date, and sent in place it would put an older view over that answer (seen when a
    quick player answers before the sender gets to a row of news for them, such as Sppoker's
    last call). An answer clicked on the very message the prompt was just `posted` as is
    an answer to it: it overtakes nothing (the mark names the message, so no read of the
    store stands between posting and this check)."""
    ref = ref_of(message)
    if not isinstance(message, Post | Reply) or not ref.startswith("prompt:") \
            or message.step is None:
        return False
    marks = [row for row in [*later, *([] if answered is None else [answered])]
             if isinstance(row, Answered | Reply) and row.ref == ref]
    return any(mark.step > message.step
               and (posted is None or not isinstance(mark, Answered) or mark.message != posted)
               for mark in marks)


def overtaken_news(message: OutboxMessage) -> Post | Reply | None:
    """What is left to send of an overtaken prompt or answer: a picture in it is news the
    later answer did not draw, so it goes without buttons (a prompt as a new DM that names
    no message); else nothing."""
    if isinstance(message, Reply) and message.picture is not None:
        return replace(message, view=None)
    if not isinstance(message, Post) or message.picture is None:
        return None
    return replace(message, view=None, ref=None, clocks=())


def stale(table_id: str, message: OutboxMessage, prompt_stamp: PromptStamp) -> bool:
    """A seat's prompt whose buttons the table no longer takes (a clock moved it on while
    the row waited its turn to be sent): its news still counts, its buttons would only be
    refused as out of date."""
    ref = ref_of(message)
    if not isinstance(message, Post | Reply) or not ref.startswith("prompt:") \
            or not isinstance(message.view, PromptButtons):
        return False
    now = prompt_stamp(table_id, seat_of(ref))
    return now is not None and now != message.view.stamp


def queue_of(message: OutboxMessage) -> str:
    """The queue a row waits in (`bot.core.outbox.destination`); a closed-DM seat's turn waits
    with that seat's prompts, not behind the channel's narration, as it may go in place."""
    if isinstance(message, Post) and message.turn is not None:
        return f"prompt:{message.turn.seat}"
    return destination(message)


def seat_of(ref: str) -> int:
    """The seat a prompt's ref ("prompt:<seat>") names."""
    return int(ref.split(":", 1)[1])


def ref_of(message: OutboxMessage) -> str:
    """The name of the message a row writes, "" when it names none."""
    return message.ref or ""
