"""How long the tests wait for something before they call it lost: long enough for a busy
machine, and no longer than the thing takes when it comes.

Every wait of the end-to-end and loopback tests is event-based: `LoopbackDiscord.wait_for`
checks its condition again on every change the loopback records (a request, a message, a
click's answer), so a wait ends the moment what it waits for happens. Its timeout only says
when to give up, and giving up early is the one way waiting can fail a test that checks
nothing about speed. On two cores shared by four pytest workers, their bots, a PostgreSQL
server and `stress-ng --cpu 2`, a step that takes 2 s on a quiet machine took over 10 s, and
the bot's start-up over 30 s: `./dev test` failed tests that were right. So, in the tests:

- every timeout is multiplied by PATIENCE: 10 s become a minute, which costs nothing when
  the bot is quick and only makes a real failure (something that never comes) take longer
  to report;
- a wait of the loopback gives up only once the bot has also gone quiet (no request to
  Discord for that long): a bot still sending is slow, not stuck, and what it sends at
  Discord's pace (a channel's narration behind its edits) comes later on a loaded machine.
  A bot that keeps sending without ever bringing what is awaited is given up on after
  PROGRESS_LIMIT times the timeout.

    DC_TEST_PATIENCE=12   wait twice as long again (a slower machine); 1 waits as written

The loopback's own rule is untouched: Discord's 3 s to acknowledge an interaction is a
deadline the bot must meet, not a wait of the tests. So that the loopback does not eat into
those 3 s itself, PatientDiscord compiles Discord's request schemas as it starts, before any
bot connects (see `PatientDiscord.start`).

A busy bot meets the 3 s by deferring: it acknowledges a click or a command whose answer is
not ready after 2 s (bot/discord/presenter.py `in_time`) and sends the answer when it has it, as an
edit of the clicked message or the "thinking…" placeholder, or as a followup. On a quiet
machine it never defers, so the tests read a click's answer right after the click
(`result.text`, `result.response == "update_message"`); on a busy one they read the
deferral. So an AnsweredDiscord interaction (the end-to-end tests') returns once the person
has the answer, deferred or not, and reads as that answer (`AnsweredResult`); `deferred`
says it was deferred.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable
from typing import Any

from loopback import InteractionResult, LoopbackDiscord, schemas
from loopback.models import DEFERRED_MESSAGE, DEFERRED_UPDATE, Message
from loopback.results import Predicate

#: The factor on every timeout of the tests' waits (see the module's docstring).
PATIENCE = float(os.environ.get("DC_TEST_PATIENCE", "6"))
#: A wait whose bot keeps sending gives up after this many patient timeouts in all.
PROGRESS_LIMIT = 3


def patient(seconds: float) -> float:
    """A timeout written for a quiet machine, as long as a busy one needs."""
    return seconds * PATIENCE


class AnsweredResult(InteractionResult):
    """An interaction's answer as the person sees it, whether the bot answered at once or
    deferred it and answered later: a click deferred and then answered by an edit of the
    clicked message reads as `update_message`; a click or command deferred and then answered
    by a message (a followup, or the filled "thinking…" placeholder) reads as `message`, with
    that message as `message` (and not among `followups`). An answer not come yet reads as
    the deferral it still is."""

    @property
    def deferred(self) -> bool:
        """The bot acknowledged first and answered after (a busy machine)."""
        return self._record.response_type in (DEFERRED_UPDATE, DEFERRED_MESSAGE)

    def _answer(self) -> tuple[str, Message | None] | None:
        """The deferred answer, once it has come: its kind and, for a followup, its message."""
        record = self._record
        original = self._discord.state.messages.get(record.original_id or 0)
        if self.deferred and record.followup_ids:
            # A followup is the answer (a refusal after a deferred click comes as one), even
            # if the clicked message was edited meanwhile by something else the bot sent.
            return "message", self._discord.state.messages[record.followup_ids[0]].snapshot()
        if record.response_type == DEFERRED_UPDATE and record.original_edited_at is not None:
            # Edited through the click's own token: the answer (the sender's edits of the
            # same message, a prompt or a strip after a restart, are not).
            return "update_message", None
        if record.response_type == DEFERRED_MESSAGE and original is not None and not (
                original.deleted or original.loading):
            return "message", None
        return None

    @property
    def answered(self) -> bool:
        """The person has the bot's answer (at once, or after a deferral)."""
        return self.acked and (not self.deferred or self._answer() is not None)

    @property
    def response(self) -> str | None:
        answer = self._answer() if self.deferred else None
        return answer[0] if answer is not None else super().response

    @property
    def message(self) -> Message | None:
        answer = self._answer() if self.deferred else None
        if answer is not None and answer[1] is not None:
            return answer[1]
        return super().message

    @property
    def followups(self) -> list[Message]:
        answer = self._answer() if self.deferred else None
        shown = super().followups
        return shown[1:] if answer is not None and answer[1] is not None else shown


class PatientDiscord(LoopbackDiscord):
    """The loopback Discord whose waits give up PATIENCE times later, and not while the bot
    is still sending. Every wait goes through `wait_for`: the tests' own, the handles'
    (`wait_for_dm`, `wait_for_message` ...), the bot's readiness (`wait_for_bot_ready`, which
    BotProcess.start and restart use) and the AutoPlayer's idle check."""

    async def start(self) -> None:
        """Compiles the request schemas first. The server checks a body against its schema
        as it reads the request, compiling each schema on first use (0.3-0.5 s on a quiet
        machine, several seconds on a loaded one) — for the first interaction callback of a
        test process, inside the 3 s the bot has to answer, so a busy machine failed a bot
        that had answered in time. Compiled once per process (cached)."""
        for endpoint in schemas.endpoints():
            schemas.fast_validator(endpoint)
        await super().start()

    async def wait_for(self, predicate: Predicate, timeout: float = 10.0, *,
                       message: str | Callable[[], str] | None = None) -> Any:
        quiet = patient(timeout)
        give_up = time.monotonic() + quiet * PROGRESS_LIMIT
        while True:
            sent = len(self.state.requests)
            try:
                return await super().wait_for(
                    predicate, max(0.0, min(quiet, give_up - time.monotonic())),
                    message=message)
            except TimeoutError:
                if len(self.state.requests) == sent or time.monotonic() >= give_up:
                    raise


class AnsweredDiscord(PatientDiscord):
    """A PatientDiscord whose interactions return once the person has the bot's answer,
    deferred or not, and read as that answer (AnsweredResult): the end-to-end tests' loopback.
    (The loopback's own tests keep reading deferrals as deferrals: they test them.)"""

    async def _interact(self, *args: Any, **kwargs: Any) -> InteractionResult:
        """The driver's interaction (every slash, click, select and modal goes through it),
        returned once its answer has come. An answer that never comes after a deferral is
        left for the test's own checks to find. One made with check=False returns at its
        acknowledgement, as always: its test watches the outcome itself, and may be holding
        back on purpose what the answer waits for (tests/e2e/test_integrity_prompts.py)."""
        acked = await super()._interact(*args, **kwargs)
        result = AnsweredResult(self, acked.id, acked.kind)
        if kwargs.get("check", True) and result.acked and not result.answered:
            with contextlib.suppress(TimeoutError):
                await self.wait_for(lambda: result.answered)
        return result
