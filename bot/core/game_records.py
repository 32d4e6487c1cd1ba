"""A table's results as the store takes them: the game record for leaderboards and stats,
what a table that ends gives back in chips, and its players' names.

A points game is scored by its result; a cash table (a chip game) by each seat's net chips,
whose ledger rows are the buy-ins and cash-outs (`bot.core.cash_table`), written with the record.
"""

from __future__ import annotations

from datetime import UTC, datetime

from bot.core import cash_table
from bot.core.table import Table
from bot.store import ChipChange, GameRecord, GameStatus, PlayerResult, Store
from engine.game import Event, GameResult, places_from_scores


def record(table: Table, status: str, now: float) -> GameRecord:
    result = table.require_game().result
    seats = list(table.seats)
    if table.game_class.chip_game:  # a cash table is scored by each seat's net chips
        seats, nets = cash_table.final_nets(table)
        result = GameResult(tuple(nets), places_from_scores(nets),
                            tuple(seat for seat, won in enumerate(nets) if won > 0))
    players = [
        PlayerResult(
            seat=seat, user_id=occupant.user_id, name=occupant.name,
            score=result.scores[seat] if result else 0,
            place=result.places[seat] if result else None,
            win=bool(result and seat in result.winners),
        )
        for seat, occupant in enumerate(seats)
    ]
    return GameRecord(
        guild_id=table.guild_id, channel_id=table.channel_id, kind=table.kind,
        started_at=datetime.fromtimestamp(table.created_at, UTC),
        finished_at=datetime.fromtimestamp(now, UTC), status=GameStatus(status),
        options=table.options, seed=table.seed, players=players,
    )


def deal_end(table: Table) -> list[Event]:
    """A chip game's deal just ended: its result moves the stacks at the table."""
    game = table.game
    if game is None or not game.is_over or not table.game_class.chip_game:
        return []
    return cash_table.settle_deal(table)


def refunds(table: Table) -> list[ChipChange]:
    """A table that ends gives everyone their chips back: a deal cut short counts as never
    dealt."""
    return cash_table.cash_out_all(table) if table.game_class.chip_game else []


async def register_players(store: Store, table: Table) -> None:
    """Players are written when a game is recorded, under their names at the table."""
    for occupant in table.seats:
        if occupant.user_id is not None:
            await store.upsert_player(occupant.user_id, occupant.name)
