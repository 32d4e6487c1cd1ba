"""Which saved outbox rows are past sending, in full or in part, and where a row waits.

The sender (`bot.discord.sender`) reads a queue's rows and asks these rules, row by row, what
of each still goes: nothing (`superseded`, or an `overtaken` prompt with no news), its news
without its buttons (`outdated`, `stale`, `overtaken_news`), or all of it. They stand apart
from the sender because they are pure: they read a row and the rows after it (and, for
`stale`, the stamp the table has now), never Discord or the store, so they are tested alone
(tests/bot/test_in_place.py) and what "stale" means is written in one place.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.core.outbox import Body, destination
from bot.store import PendingMessage

# A seat's buttons as the table has them now (its prompt's stamp), None if it has none.
PromptStamp = Callable[[str, int], str | None]


def superseded(body: Body, later: list[PendingMessage]) -> bool:
    """An edit whose message a later row rewrites anyway need not be sent: a burst of moves
    (AI seats) costs one edit of the board, not one per move."""
    if body["op"] not in ("edit", "upsert") or not body.get("ref"):
        return False
    return any(row.body.get("ref") == body["ref"] and row.body["op"] in ("edit", "upsert", "post")
               for row in later)


def outdated(body: Body, later: list[PendingMessage]) -> bool:
    """A seat's prompt that a later row of the same queue replaces or withdraws: sent
    late (its queue was held), it would arrive with buttons for a question already gone
    ("Nothing is awaited")."""
    ref = body.get("ref")
    if body["op"] != "post" or not ref or not str(ref).startswith("prompt:"):
        return False
    return any(row.body.get("ref") == ref and row.body["op"] in ("post", "strip")
               for row in later)


def overtaken(body: Body, later: list[PendingMessage], answered: int | None = None) -> bool:
    """A seat's prompt written before the seat's own answer, which already showed it the
    table as it was then, or later: an `answered` row after it in its queue (saved with the
    answer's step, so this holds after a restart too), or `answered`, the step of an answer
    saved since the rows were read. Its buttons are out of date, and sent in place it would
    put an older view over that answer (seen when a quick player answers before the sender
    gets to a row of news for them, such as Sppoker's last call)."""
    ref, step = ref_of(body), body.get("step")
    if body["op"] != "post" or not ref.startswith("prompt:") or step is None:
        return False
    steps = [row.body["step"] for row in later
             if row.body["op"] == "answered" and row.body.get("ref") == ref]
    return any(mark > step for mark in [*steps, *([] if answered is None else [answered])])


def overtaken_news(body: Body) -> Body | None:
    """What is left to send of an overtaken prompt: a picture in it is news the answer did
    not draw, so it goes as a new DM without buttons (and names no message); else nothing."""
    if not body.get("picture"):
        return None
    return {**body, "view": None, "ref": None, "clocks": []}


def stale(row: PendingMessage, prompt_stamp: PromptStamp) -> bool:
    """A seat's prompt whose buttons the table no longer takes (a clock moved it on while
    the row waited its turn to be sent): its news still counts, its buttons would only be
    refused as out of date."""
    ref, view = ref_of(row.body), row.body.get("view") or {}
    if row.body["op"] != "post" or not ref.startswith("prompt:") or "stamp" not in view:
        return False
    now = prompt_stamp(row.table_id, seat_of(ref))
    return now is not None and now != view["stamp"]


def queue_of(body: Body) -> str:
    """The queue a row waits in (`bot.core.outbox.destination`); a closed-DM seat's turn waits
    with that seat's prompts, not behind the channel's narration, as it may go in place."""
    if body.get("turn"):
        return f"prompt:{body['turn']['seat']}"
    return destination(body)


def seat_of(ref: str) -> int:
    """The seat a prompt's ref ("prompt:<seat>") names."""
    return int(ref.split(":", 1)[1])


def ref_of(body: Body) -> str:
    """The name of the message a row writes, "" when it names none."""
    return str(body.get("ref") or "")
