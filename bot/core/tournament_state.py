"""A tournament as the bot holds it in memory (`Live`: the stored row and the engine's state),
what it asks of Discord (`TournamentPlaces`), and the small rules every tournament command
shares: who may take the organiser's steps, and the engine's refusals as the bot's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from bot.core.table import TableError
from bot.core.tournament_extra import TournamentExtra, extra_from_json
from bot.present import i18n
from bot.store import TournamentRow
from engine.i18n import Msg, msg
from engine.tournaments import Tournament, TournamentError

NO_TOURNAMENT = msg("There is no tournament running in this channel. Create one with "
                    "`/tournament create`.")

class TournamentPlaces(Protocol):
    """What a tournament needs of Discord (`bot.discord.tournament_places` is one)."""

    async def create_thread(self, channel_id: int, name: str) -> int: ...

    async def post(self, channel_id: int, text: str, files: list[tuple[str, bytes]]) -> None: ...

    async def create_event(self, guild_id: int, channel_id: int, name: str,
                           description: str, start: float) -> int | None: ...

    async def set_event(self, guild_id: int, event_id: int, status: str) -> None: ...

    async def edit_message(self, channel_id: int, message_id: int, text: str) -> None: ...


@dataclass
class Live:
    """A tournament in memory: the stored row's fields, the engine's state, the bot's part
    (`extra`: the game's options, the start and next-round clocks with when they were saved,
    the sign-up message, the scheduled event, the last round announced; a frozen value, so a
    change is a new one set on the draft: `bot.core.tournament_extra`)."""

    id: int
    guild_id: int
    channel_id: int
    kind: str
    organiser_id: int
    version: int
    t: Tournament
    extra: TournamentExtra = field(default_factory=lambda: TournamentExtra(saved_at=0.0))

    @classmethod
    def of(cls, row: TournamentRow) -> Live:
        return cls(row.id, row.guild_id, row.channel_id, row.kind, row.organiser_id,
                   row.version, Tournament.from_json(row.state), extra_from_json(row.extra))

    def draft(self) -> Live:
        """A copy to change: installed only once it is saved."""
        return Live(self.id, self.guild_id, self.channel_id, self.kind, self.organiser_id,
                    self.version, Tournament.from_json(self.t.to_json()), self.extra)

    @property
    def deals(self) -> int | None:
        """A chip game's deals at each table (None: a points game, played to its end)."""
        return self.extra.deals

    @property
    def locale(self) -> str:
        return self.extra.locale or i18n.guild_locale(self.guild_id)


def refused(error: TournamentError) -> TableError:
    """The engine's refusal as the bot's: its sentence, shown to whoever asked."""
    return TableError(error.args[0] if error.args else str(error))


def player_user(player: str) -> int:
    """A member entrant's user id (their entrant id is the id as text)."""
    return int(player)


def organiser_only(live: Live, user_id: int, is_admin: bool, what: Msg) -> None:
    """The organiser's steps are theirs (or a member with Manage Server's)."""
    if user_id != live.organiser_id and not is_admin:
        raise TableError(msg("Only the organiser or a member with Manage Server can {what}.",
                             what=what))
