"""Replays of the store's ended games (bot/core/replays.py), without Discord: the notation of a
finished game rebuilds it, a cash table's deals come back with the seats and stacks each was
dealt on, a game still running has no replay, and the final message carries the Replay
button and the game's short id."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.between_deals import CashDesk
from bot.core.replays import (
    EVERYONE,
    ReplayUnavailable,
    find_game,
    frame_text,
    load_notation,
    recent_games,
)
from bot.core.service import TableService
from bot.core.table import DEAL_RECORD
from bot.store import Store
from engine.games import GAMES
from engine.notation import Replayer, games, parse, write
from tests.support.guessing import Guessing
from tests.support.highcard import HighCard
from tests.support.service_play import Clock, play_to_the_end

GUILD, CHANNEL, OTHER_GUILD = 1, 100, 2
ALICE, BOB, CAROL = 11, 12, 13


@pytest.fixture
async def store(database: Path | str) -> AsyncIterator[Store]:
    """On each backend (tests/conftest.py)."""
    opened = await Store.open(database)
    yield opened
    await opened.close()


@pytest.fixture
async def service(store: Store, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[TableService]:
    monkeypatch.setitem(GAMES, "guessing", Guessing)
    monkeypatch.setitem(GAMES, "highcard", HighCard)
    made = TableService(store, clock=Clock(), ai_pause=0.0)
    yield made
    await made.close()


async def test_a_finished_game_replays_from_its_record_and_log(service: TableService,
                                                                store: Store) -> None:
    table_id, _ = await service.open_table(GUILD, CHANNEL, ALICE, "Alice", "guessing",
                                           {"target": 2})
    await service.lobby_action(table_id, BOB, "Bob", "join")
    await service.lobby_action(table_id, ALICE, "Alice", "start")
    table = service.tables[table_id]
    with pytest.raises(ReplayUnavailable, match="still being played"):
        await load_notation(store, GUILD, table_id)  # running: no replay, nothing shown
    table = await play_to_the_end(service, table)
    final = table.require_game().to_dict()
    bodies = [row.body for row in await store.pending_messages(table_id)]
    replay_posts = [b for b in bodies if (b.get("view") or {}).get("type") == "replay"]
    assert len(replay_posts) == 1 and f"/replay game:{table_id}" in replay_posts[0]["content"]
    assert "won the game" in replay_posts[0]["content"]

    game, notation = await load_notation(store, GUILD, f" #{table_id.upper()} ")
    assert game.names == ("Alice", "Bob") and game.kind == "guessing"
    assert notation.seed == table.seed and notation.tags["Table"] == table_id
    assert not notation.concealed and not notation.sectioned
    (again,) = games(parse(write(notation)))
    assert again.to_dict() == final
    with pytest.raises(ReplayUnavailable, match="No finished game"):
        await load_notation(store, OTHER_GUILD, table_id)  # another server's
    assert [g.table_id for g in await recent_games(store, GUILD, user_id=BOB)] == [table_id]
    assert await recent_games(store, GUILD, user_id=CAROL) == []
    assert await recent_games(store, GUILD, starting=table_id[:3]) != []
    assert await find_game(store, GUILD, "") is None

    replayer = Replayer(notation)
    last = replayer.frame(len(replayer) - 1)
    text = frame_text(game, notation, last)
    assert "Every hand, face up" in text and "Alice:" in text and "🏁" in text
    assert f"move {len(notation.deals[0].moves)} of" in text
    knew = frame_text(game, notation, replayer.frame(1), 1)
    assert "What Bob knew" in knew and "Every hand" not in knew
    assert frame_text(game, notation, replayer.frame(0), EVERYONE).count("\n") > 3


async def test_a_cash_table_replays_each_deal_on_its_own_seats_and_stacks(
        service: TableService, store: Store) -> None:
    for user in (ALICE, BOB, CAROL):
        await store.balance(GUILD, user)
    table_id, _ = await service.open_table(GUILD, CHANNEL, ALICE, "Alice", "highcard",
                                           {"buy_in": 100})
    await service.lobby_action(table_id, BOB, "Bob", "join")
    await service.lobby_action(table_id, ALICE, "Alice", "start")
    table = service.tables[table_id]
    table = await play_to_the_end(service, table)
    first_stacks = list(table.stacks)
    desk = CashDesk(service)
    await desk.act(table_id, CAROL, "Carol", "join")
    await desk.act(table_id, BOB, "Bob", "deal")
    table = await play_to_the_end(service, service.tables[table_id])
    last = table.require_game().to_dict()
    logged = await store.table_actions(table_id)
    assert [row.action[0] for row in logged].count(DEAL_RECORD) == 2
    await desk.act(table_id, ALICE, "Alice", "end")
    bodies = [row.body for row in await store.pending_messages(table_id)]
    ended = [b for b in bodies if (b.get("view") or {}).get("type") == "replay"]
    assert len(ended) == 1 and "Alice ended the table" in ended[0]["content"]

    game, notation = await load_notation(store, GUILD, table_id)
    assert notation.sectioned and len(notation.deals) == 2
    one, two = notation.deals
    assert one.names == ("Alice", "Bob") and two.names == ("Alice", "Bob", "Carol")
    assert one.options["stacks"] == [100, 100] and one.seed == f"{table.seed}:1"
    assert two.options["stacks"] == [*first_stacks, 100] and two.options["button"] == 1
    text = write(notation)
    assert "[Deal 2]" in text and "[Stacks [" in text
    rebuilt = games(parse(text))
    assert rebuilt[-1].to_dict() == last and all(g.is_over for g in rebuilt)
    replayer = Replayer(notation)
    assert replayer.chapters() == replayer.starts == [0, len(one.moves) + 1]
    page = frame_text(game, notation, replayer.frame(replayer.starts[1]))
    assert "Deal 2 of 2 · as dealt" in page and "Carol:" in page
