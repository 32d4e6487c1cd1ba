"""A person's next prompt, shown where they just answered instead of in a new DM.

Discord allows about 5 messages per 5 s in a DM channel, and every new prompt used to cost
two of them there (the new DM, and an edit taking the buttons off the old one): a quick player
waited seconds for their buttons. A click answered in a DM leaves an interaction token good
for 15 minutes, and editing the clicked message through it goes to the interaction's own
webhook bucket, not the DM channel's. So while someone is at the keyboard (they answered
moments ago) their next prompt replaces the one they clicked; after a pause it comes as a new
DM again, which notifies them (an edit does not). Likewise for someone whose DMs are closed:
their turn is a ping in the channel (a new message: the channel's bucket), unless they just
answered on their "Show my hand" view, which then becomes their next prompt.

While requests wait for Discord's global budget (issue 27), "moments ago" stretches to
`PRESSED_RECENT_SECONDS`: a new DM and the strip of the old one are two requests against the
bot's 50 a second, while an edit through the click's token is none, so a busy bot keeps its
budget for the people who have been away longer (and for the boards).

The clicks are kept only in memory (`InPlace`): after a restart there is no token, and
prompts go by DM. An edit under way is made durable, though (`InPlaceDelivery`, the sender's
way to deliver a row in place): a crash between the edit and the row's deletion finishes the
row in the same message, never with a second DM.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.core.outbox import Post, Turn
from bot.discord.delivery import Delivery
from bot.discord.global_pace import Pressure
from bot.discord.stale_rows import ref_of, seat_of
from bot.discord.views import build_view
from bot.present.render import MAX_CONTENT
from bot.store import MessageRef, Store

log = logging.getLogger(__name__)

# A person who answered this recently is taken to be looking at the message; beyond it the
# next prompt is a new DM, which pings them. Well inside the token's 15 minutes.
RECENT_SECONDS = 30.0
# Under pressure: two minutes covers a hand at a people's pace (20 s a decision, a showdown
# between two of a seat's turns) while whoever has been gone longer still gets the DM that
# notifies them; well inside the token's 15 minutes too.
PRESSED_RECENT_SECONDS = 120.0


@dataclass(frozen=True)
class Answered:
    """The message a seat last answered on, and the interaction that can still edit it."""

    interaction: discord.Interaction
    user_id: int
    channel_id: int
    message_id: int
    at: float  # time.monotonic()
    in_dm: bool  # a DM prompt, or else the ephemeral "Show my hand" view in the channel


class InPlace:
    """The last click of each seat on its private view, and the edit of that message into
    the seat's next prompt."""

    def __init__(self, recent: float = RECENT_SECONDS,
                 clock: Callable[[], float] = time.monotonic,
                 pressure: Pressure | None = None,
                 pressed_recent: float = PRESSED_RECENT_SECONDS) -> None:
        """`recent`: how long ago a click may have been for its message to take the next
        prompt; `pressed_recent`, the same while `pressure` says the global budget is short."""
        self.recent, self.pressed_recent = recent, max(recent, pressed_recent)
        self.pressure = pressure
        self._clock = clock
        self._answered: dict[tuple[str, int], Answered] = {}
        self._pruned_at = clock()

    def note(self, table_id: str, seat: int, interaction: discord.Interaction) -> None:
        """A seat answered a click on its private view, a DM or the ephemeral "Show my hand"
        reply (the message now shows the seat's view)."""
        message = interaction.message
        in_dm = interaction.guild_id is None
        if message is None or not (in_dm or message.flags.ephemeral):
            return
        now = self._clock()
        # Ended tables and people who left: let them go, once in a while (not on every
        # click, which with a thousand busy tables would copy thousands of entries each).
        if len(self._answered) > 64 and now - self._pruned_at > self.recent:
            self._answered = {key: found for key, found in self._answered.items()
                              if now - found.at <= self.pressed_recent}
            self._pruned_at = now
        self._answered[(table_id, seat)] = Answered(
            interaction, interaction.user.id, message.channel.id, message.id, now, in_dm)

    def target(self, table_id: str, seat: int, user_id: int | None, current: int | None,
               content: str) -> Answered | None:
        """Where this prompt may go in place: the seat (its person, `user_id`, if given)
        answered in its DMs moments ago, on the message that is still its prompt (`current`),
        and the text fits one message."""
        found = self._recent(table_id, seat, user_id, content)
        if found is None or not found.in_dm or found.message_id != current:
            return None
        return found

    def private_view(self, table_id: str, seat: int, user_id: int,
                     content: str) -> Answered | None:
        """Where the turn of a seat whose DMs are closed may go instead of a ping: the
        "Show my hand" view its person answered on moments ago."""
        found = self._recent(table_id, seat, user_id, content)
        return None if found is None or found.in_dm else found

    def _recent(self, table_id: str, seat: int, user_id: int | None,
                content: str) -> Answered | None:
        found = self._answered.get((table_id, seat))
        if found is None or (user_id is not None and found.user_id != user_id):
            return None
        if self._clock() - found.at > self.window() or len(content) > MAX_CONTENT:
            return None
        return found

    def window(self) -> float:
        """How recent a click must be now: longer while the global budget is short."""
        pressed = self.pressure is not None and self.pressure.pressed
        return self.pressed_recent if pressed else self.recent

    async def edit(self, where: Answered, content: str | None, view: discord.ui.View | None,
                   files: list[discord.File]) -> bool:
        """Replace the clicked message's buttons, and its text unless `content` is None (and
        its pictures when the prompt brings new ones); False when Discord refused (an expired
        token, a deleted message), and the prompt must go by DM instead."""
        changes: dict[str, Any] = {"view": view}
        if content is not None:
            changes["content"] = content
        if files:
            changes["attachments"] = files
        try:
            await where.interaction.edit_original_response(**changes)
        except discord.HTTPException as error:
            log.info("could not edit prompt %s in place: %s", where.message_id, error)
            for file in files:
                file.reset()
            return False
        return True


def in_place_marker(row_id: int) -> str:
    """The ref naming the message a row is being edited into in place
    (`InPlaceDelivery.prompt`), kept until the row is done."""
    return f"in-place:{row_id}"


class InPlaceDelivery:
    """The sender's rows that may go into a message answered moments ago rather than as a
    new one: a seat's prompt, a closed-DM seat's turn, a withdrawn prompt's strip."""

    def __init__(self, store: Store, delivery: Delivery,
                 clock: Callable[[], float] = time.monotonic,
                 pressure: Pressure | None = None) -> None:
        self.store = store  # the sender's share of the store
        self.delivery = delivery
        self.clicks = InPlace(clock=clock, pressure=pressure)

    async def prompt(self, table_id: str, row_id: int, post: Post,
                     refs: dict[str, MessageRef], view: discord.ui.View | None,
                     files: list[discord.File]) -> dict[str, MessageRef | None] | None:
        """A seat's prompt edited into the DM message its person just answered, when they
        did so moments ago; None when it must go as a new DM.

        Durable like a post: before the edit, the message is remembered under a name of its
        own row's, so a crash between the edit and the row's deletion finishes the same row
        by editing the same message again (the token is gone then; the bot edits its own
        message), never by a second DM. The prompt's ref keeps naming that message, so no
        old prompt is left to strip."""
        ref = ref_of(post)
        if not ref.startswith("prompt:"):
            return None
        marker = in_place_marker(row_id)
        begun = refs.get(marker)
        if begun is not None and begun.message_id:  # tried in place before a restart
            if await self.delivery.edit(begun.channel_id, begun.message_id, post.content,
                                        view, files or None):
                return {ref: begun, marker: None}
            for file in files:
                file.reset()
            return None
        current = refs.get(ref)
        where = self.clicks.target(table_id, seat_of(ref), post.user,
                                   current.message_id if current else None, post.content)
        if where is None:
            return None
        placed = MessageRef(where.channel_id, where.message_id)
        log.debug("row %s.%s: in place into %s for %s (stamp %s)", table_id, row_id,
                  where.message_id, ref, getattr(post.view, "stamp", None))
        await self.store.remember_message(table_id, marker, placed)
        refs[marker] = placed
        if await self.clicks.edit(where, post.content, view, files):
            return {ref: placed, marker: None}
        # Refused, so nothing changed: the row goes by DM, and a restart must not redo the
        # edit (a message id of 0 says so; the row's deletion forgets the marker).
        refs[marker] = MessageRef(0, 0)
        await self.store.remember_message(table_id, marker, refs[marker])
        return None

    async def turn(self, table_id: str, turn: Turn) -> bool:
        """The turn of a seat whose DMs are closed, shown on the "Show my hand" view its
        person just answered on, instead of a ping in the channel. Nothing to make durable:
        after a crash the row is sent again, and this edit or the ping it replaces says the
        same."""
        where = self.clicks.private_view(table_id, turn.seat, turn.user, turn.content)
        return where is not None and await self.clicks.edit(
            where, turn.content, build_view(turn.view), [])

    async def strip(self, table_id: str, ref: str, where: MessageRef) -> bool:
        """A withdrawn prompt loses its buttons through the token of the click that was
        answered on it, when there is one, rather than through the DM channel's bucket."""
        if not ref.startswith("prompt:"):
            return False
        found = self.clicks.target(table_id, seat_of(ref), None, where.message_id, "")
        return found is not None and await self.clicks.edit(found, None, None, [])
