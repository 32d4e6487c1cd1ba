"""A table played to its end through the table service, each seat answering its first
choice: what the replay and web tests need of a finished game, without Discord."""

from __future__ import annotations

from bot.core.outcomes import action_for
from bot.core.service import TableService
from bot.core.table import Table


class Clock:
    """A clock for the table service that moves one second a reading: every step its own
    time, whatever the machine's clock does."""

    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        self.now += 1
        return self.now


async def play_to_the_end(service: TableService, table: Table) -> Table:
    """Every seat answers its first choice until the game (or the deal) is over; returns the
    table as the last step left it. Each step installs a new table object, and a finished
    game's table leaves the service, so each step is also applied to a draft of our own."""
    while not table.require_game().is_over:
        game = table.require_game()
        seat = min(game.to_act)
        user = table.seats[seat].user_id
        assert user is not None
        prompt = game.prompt(seat)
        assert prompt is not None
        index = min(seat, len(prompt.choices) - 1)
        shadow = table.draft()
        shadow.act(user, seat, action_for(prompt.choices[index], None, None))
        await service.act(table.table_id, user, seat, table.stamp(seat)[0], index)
        table = service.tables.get(table.table_id, shadow)
    return table
