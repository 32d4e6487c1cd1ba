"""Chips are conserved at a cash table through any sequence of what people can do: sitting
down, leaving, rebuying, dealing, playing, timing out, aborting, ending. Balances plus the
stacks at the table never change, and every balance is the sum of its ledger."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.core.between_deals import CashDesk
from bot.core.service import TableService
from bot.core.table import TableError
from bot.store import Store
from engine.games import GAMES
from tests.support.highcard import HighCard

GUILD, CHANNEL = 1, 100
PEOPLE = (11, 12, 13)
OPS = ("join", "leave", "rebuy", "deal", "act", "timeout", "abort", "end")


async def held(store: Store, service: TableService) -> int:
    total = sum([await store.balance(GUILD, user) for user in PEOPLE])
    for table in service.tables.values():
        total += sum(stack for seat, stack in zip(table.seats, table.stacks, strict=True)
                     if seat.user_id is not None)
    return total


async def run(ops: list[tuple[str, int]], path: Path) -> None:
    store = await Store.open(path / "db.sqlite3")
    service = TableService(store, ai_pause=0.0)
    desk = CashDesk(service)
    for user in PEOPLE:
        await store.balance(GUILD, user)
    total = await held(store, service)
    table_id, _ = await service.open_table(GUILD, CHANNEL, PEOPLE[0], "P0", "highcard",
                                           {"buy_in": 40, "ante": 15})
    for op, who in ops:
        user = PEOPLE[who]
        table = service.tables.get(table_id)
        try:
            if table is None:
                break
            if op in ("join", "leave") and table.status == "lobby":
                await service.lobby_action(table_id, user, f"P{who}", op)
            elif op == "deal" and table.status == "lobby":
                await service.lobby_action(table_id, PEOPLE[0], "P0", "start")
            elif op in ("join", "leave", "rebuy", "deal", "end"):
                await desk.act(table_id, user, f"P{who}", op, is_admin=who == 0)
            elif op == "act" and table.game is not None and not table.game.is_over:
                (seat,) = table.game.to_act
                await service.act(table_id, table.seats[seat].user_id or 0, seat,
                                  table.stamp(seat)[0], 0)
            elif op == "timeout" and table.game is not None and not table.game.is_over:
                async with service.command(table_id) as draft:
                    key = next(iter(draft.deadlines), None)
                    if key is not None:
                        await service.step_by_clock(draft, draft.timeout(key))
            elif op == "abort":
                await service.abort(CHANNEL, PEOPLE[0], "P0", is_admin=True)
        except TableError:
            pass  # refused: and a refusal changes nothing, which the totals check too
        assert await held(store, service) == total, (op, who)
    for user in PEOPLE:
        ledger = await store.ledger(GUILD, user, limit=1000)
        assert sum(entry.delta for entry in ledger) == await store.balance(GUILD, user)
    await service.close()
    await store.close()


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(OPS), st.integers(0, len(PEOPLE) - 1)),
                max_size=40))
def test_chips_are_conserved_through_anything_people_do(ops: list[tuple[str, int]]) -> None:
    with pytest.MonkeyPatch.context() as patch, tempfile.TemporaryDirectory() as folder:
        patch.setitem(GAMES, "highcard", HighCard)
        asyncio.run(run(ops, Path(folder)))
