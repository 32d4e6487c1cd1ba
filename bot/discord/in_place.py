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

Only memory is kept here: after a restart there is no token, and prompts go by DM.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.present.render import MAX_CONTENT

log = logging.getLogger(__name__)

# A person who answered this recently is taken to be looking at the message; beyond it the
# next prompt is a new DM, which pings them. Well inside the token's 15 minutes.
RECENT_SECONDS = 30.0


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
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.recent = recent
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
                              if now - found.at <= self.recent}
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
        if self._clock() - found.at > self.recent or len(content) > MAX_CONTENT:
            return None
        return found

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
