"""The table service without Discord: each call saves the step, its action log and every
message it must send together, and refuses bad input without changing anything."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.between_deals import CashDesk
from bot.core.outbox import Reply
from bot.core.outbox_json import message_from_json
from bot.core.outcomes import LobbyOutcome, NeedText
from bot.core.service import TableService
from bot.core.table import Table, TableError
from bot.store import ChipChange, Store
from engine.game import Action
from engine.games import GAMES
from engine.replay import replay
from tests.support.guessing import Guessing

GUILD, CHANNEL = 1, 100
ALICE, BOB, CAROL = 11, 12, 13


class SoloGuessing(Guessing):
    """Guessing for one: a stand-in for a solitaire until Po-Ke-No's exists."""

    kind = "solo-guessing"
    title = "Solo guessing"
    min_seats = 1
    max_seats = 1


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def games(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(GAMES, "guessing", Guessing)
    monkeypatch.setitem(GAMES, "solo-guessing", SoloGuessing)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(tmp_path / "db.sqlite3")
    yield opened
    await opened.close()


@pytest.fixture
async def service(store: Store, games: None) -> AsyncIterator[TableService]:
    woken: list[str] = []
    made = TableService(store, clock=Clock(), ai_pause=0.0, wake=woken.append)
    yield made
    await made.close()


async def started(service: TableService, options: dict[str, object] | None = None) -> Table:
    table_id, _ = await service.open_table(GUILD, CHANNEL, ALICE, "Alice", "guessing",
                                           options or {"target": 1})
    await service.lobby_action(table_id, BOB, "Bob", "join")
    await service.lobby_action(table_id, ALICE, "Alice", "start")
    return service.tables[table_id]


async def test_a_step_is_saved_with_its_messages_and_its_action(service: TableService,
                                                                store: Store) -> None:
    table = await started(service, {"target": 2})
    before = await store.pending_messages(table.table_id)
    ops = [(row.body["op"], row.body.get("ref")) for row in before]
    assert ("upsert", "board") in ops  # the live board
    assert [row.body.get("user") for row in before if row.body["op"] == "post"] == [ALICE, BOB]

    answer = await service.act(table.table_id, ALICE, 0, table.stamp(0)[0], 2)
    assert isinstance(answer, Reply) and "Alice" in answer.content

    logged = await store.table_actions(table.table_id)
    assert [(row.seat, row.action) for row in logged] == [(0, ["pick", [3]])]
    snapshot = (await store.load_snapshots())[0].snapshot
    rebuilt = replay("guessing", ["Alice", "Bob"], {"target": 2}, table.seed,
                     [(row.seat, Action.from_json(row.action)) for row in logged])
    assert rebuilt.to_dict() == snapshot["game"]
    after = await store.pending_messages(table.table_id)
    assert len(after) > len(before)  # this step's board update, queued in the same write
    # The answer to the click is one of them, in Alice's prompt queue: durable with its step.
    [saved] = [message_from_json(row.body) for row in after if row.body["op"] == "reply"]
    assert saved == answer and (saved.ref, saved.step) == ("prompt:0", len(logged))


async def test_bad_input_is_refused_and_changes_nothing(service: TableService,
                                                        store: Store) -> None:
    table = await started(service)
    saved = (await store.load_snapshots())[0].snapshot
    pending = len(await store.pending_messages())
    stamp = table.stamp(0)[0]
    with pytest.raises(TableError, match="not your seat"):
        await service.act(table.table_id, BOB, 0, stamp, 0)
    with pytest.raises(TableError, match="out of date"):
        await service.act(table.table_id, ALICE, 0, "ff", 0)
    with pytest.raises(TableError, match="out of date"):
        await service.act(table.table_id, ALICE, 0, stamp, 7)
    with pytest.raises(TableError, match="not playing"):
        await service.show_hand(table.table_id, CAROL)
    with pytest.raises(TableError, match="already open"):
        await service.open_table(GUILD, CHANNEL, CAROL, "Carol", "guessing", {})
    assert (await store.load_snapshots())[0].snapshot == saved
    assert len(await store.pending_messages()) == pending
    assert await store.table_actions(table.table_id) == []


async def test_a_double_click_acts_once(service: TableService, store: Store) -> None:
    table = await started(service, {"target": 3})
    stamp = table.stamp(0)[0]
    await service.act(table.table_id, ALICE, 0, stamp, 0)
    with pytest.raises(TableError):
        await service.act(table.table_id, ALICE, 0, stamp, 0)
    assert len(await store.table_actions(table.table_id)) == 1


async def test_the_end_records_the_result_and_tells_everyone(service: TableService,
                                                             store: Store) -> None:
    table = await started(service)
    await service.act(table.table_id, ALICE, 0, table.stamp(0)[0], 2)
    table = service.tables[table.table_id]  # each step installs a new table object
    await service.act(table.table_id, BOB, 1, table.stamp(1)[0], 0)
    assert table.table_id not in service.tables
    assert await store.load_snapshots() == []
    bodies = [row.body for row in await store.pending_messages(table.table_id)]
    assert any("won the game" in body.get("content", "") for body in bodies)
    assert any(b["op"] == "edit" and b["ref"] == "board" for b in bodies)  # final board
    board = await store.leaderboard(GUILD, "guessing")
    assert [(row.display_name, row.wins) for row in board][:1] == [("Alice", 1)]
    assert len(await store.table_actions(table.table_id)) == 2  # kept after the end


async def test_abort_tells_the_board_after_whatever_is_still_queued(
        service: TableService, store: Store) -> None:
    table = await started(service)
    with pytest.raises(TableError, match="Only the host"):
        await service.abort(CHANNEL, BOB, "Bob", is_admin=False)
    text = await service.abort(CHANNEL, ALICE, "Alice", is_admin=False)
    assert "aborted" in text
    bodies = [row.body for row in await store.pending_messages(table.table_id)]
    # The board's first post is still queued: the "aborted" edit comes after it, so it edits
    # the board that post makes, whenever Discord lets it through.
    first_board = next(i for i, b in enumerate(bodies) if b.get("ref") == "board")
    aborted = next(i for i, b in enumerate(bodies)
                   if b["op"] == "edit" and "aborted" in b["content"])
    assert first_board < aborted
    assert await store.load_snapshots() == []
    assert service.table_in(CHANNEL) is None


async def test_two_people_play_solitaire_tables_side_by_side(service: TableService,
                                                             store: Store) -> None:
    alice_table, alice_lobby = await service.open_table(GUILD, CHANNEL, ALICE, "Alice",
                                                        "solo-guessing", {"target": 2})
    bob_table, _ = await service.open_table(GUILD, CHANNEL, BOB, "Bob", "solo-guessing",
                                            {"target": 2})
    assert alice_table != bob_table
    assert isinstance(alice_lobby, LobbyOutcome) and not alice_lobby.open  # started at once
    with pytest.raises(TableError, match="Your own table"):
        await service.open_table(GUILD, CHANNEL, ALICE, "Alice", "solo-guessing", {})
    assert service.table_in(CHANNEL, ALICE).table_id == alice_table  # type: ignore[union-attr]
    assert service.table_in(CHANNEL, BOB).table_id == bob_table  # type: ignore[union-attr]

    for _ in range(2):
        for user, table_id in ((ALICE, alice_table), (BOB, bob_table)):
            table = service.tables[table_id]
            await service.act(table_id, user, 0, table.stamp(0)[0], 0)
    assert service.tables == {}
    board = await store.leaderboard(GUILD, "solo-guessing")
    assert sorted(row.display_name for row in board) == ["Alice", "Bob"]


async def test_a_restart_restores_tables_and_clocks_resume_with_what_was_left(
        service: TableService, store: Store, games: None) -> None:
    table = await started(service, {"target": 2, "seconds": 100})
    (key, deadline), = table.deadlines.items()
    assert deadline == 1000.0 + 100
    clock = Clock()
    clock.now = 5000.0  # the bot was down for over an hour
    again = TableService(store, clock=clock, ai_pause=0.0)
    await again.restore()
    await again.resume()
    restored = again.tables[table.table_id]
    assert restored.deadlines[key] == pytest.approx(5000.0 + 100)
    notices = [row.body for row in await store.pending_messages(table.table_id)]
    assert any("I restarted" in body.get("content", "") for body in notices)
    await again.close()


async def test_a_reworded_prompt_keeps_its_buttons(service: TableService) -> None:
    table = await started(service, {"target": 2})
    stamp = table.stamp(1)[0]
    table.prompt_digests[1] = "reworded"  # as if the deploy changed the prompt's words
    table.reword_prompts()
    assert table.stamp(1) == (stamp, False)


async def test_a_text_choice_asks_for_text_first(service: TableService) -> None:
    table = await started(service)
    game = table.require_game()
    assert isinstance(game, Guessing)
    outcome = await service.act(table.table_id, ALICE, 0, table.stamp(0)[0], 0)
    assert not isinstance(outcome, NeedText)  # Guessing has no text choices


# --- cash tables: a chip game's table, from deal to deal ---------------------------------


@pytest.fixture
def chip_games(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.support.highcard import HighCard

    monkeypatch.setitem(GAMES, "highcard", HighCard)


async def chips_everywhere(store: Store, service: TableService, people: list[int]) -> int:
    """What the people hold in all: their balances plus their stacks at open tables."""
    total = sum([await store.balance(GUILD, user) for user in people])
    for table in service.tables.values():
        total += sum(stack for seat, stack in zip(table.seats, table.stacks, strict=True)
                     if seat.user_id is not None)
    return total


async def ledger_matches_balances(store: Store, people: list[int]) -> None:
    for user in people:
        rows = await store.ledger(GUILD, user, limit=1000)
        assert sum(row.delta for row in rows) == await store.balance(GUILD, user)


async def play_deal(service: TableService, table: Table) -> Table:
    """Play the deal out; the table as it stands after it (each step installs a new one)."""
    while not table.require_game().is_over:
        (seat,) = table.require_game().to_act
        user = table.seats[seat].user_id
        assert user is not None
        await service.act(table.table_id, user, seat, table.stamp(seat)[0], 0)
        table = service.tables[table.table_id]
    return table


async def test_a_cash_table_buys_in_plays_deals_and_cashes_out(
        service: TableService, store: Store, chip_games: None) -> None:
    people = [ALICE, BOB, CAROL]
    for user in people:
        await store.balance(GUILD, user)  # accounts open with the starting grant
    total = await chips_everywhere(store, service, people)
    table_id, _ = await service.open_table(GUILD, CHANNEL, ALICE, "Alice", "highcard",
                                           {"buy_in": 100})
    await service.lobby_action(table_id, BOB, "Bob", "join")
    assert await store.balance(GUILD, BOB) == 1000 - 100
    await service.lobby_action(table_id, ALICE, "Alice", "start")
    table = service.tables[table_id]
    with pytest.raises(TableError, match="between deals"):
        await CashDesk(service).act(table_id, CAROL, "Carol", "join")
    table = await play_deal(service, table)
    assert table_id in service.tables  # a chip table plays on after a deal
    assert sum(table.stacks) == 200  # the pot went to a stack, nothing made or lost
    assert await chips_everywhere(store, service, people) == total

    desk = CashDesk(service)
    assert "sat down" in await desk.act(table_id, CAROL, "Carol", "join")
    assert [seat.name for seat in service.tables[table_id].seats] == ["Alice", "Bob", "Carol"]
    assert "Deal 2" in await desk.act(table_id, BOB, "Bob", "deal")
    table = service.tables[table_id]
    assert table.require_game().seats == ("Alice", "Bob", "Carol")
    table = await play_deal(service, table)
    assert await chips_everywhere(store, service, people) == total
    stack = table.stacks[table.seat_of(BOB) or 0]
    before = await store.balance(GUILD, BOB)
    await desk.act(table_id, BOB, "Bob", "leave")
    assert await store.balance(GUILD, BOB) == before + stack
    with pytest.raises(TableError, match="Only the host"):
        await desk.act(table_id, CAROL, "Carol", "end")
    await desk.act(table_id, ALICE, "Alice", "end")
    assert table_id not in service.tables
    assert await chips_everywhere(store, service, people) == total
    await ledger_matches_balances(store, people)


async def test_an_aborted_deal_returns_every_chip_put_into_it(
        service: TableService, store: Store, chip_games: None) -> None:
    people = [ALICE, BOB]
    for user in people:
        await store.balance(GUILD, user)
    total = await chips_everywhere(store, service, people)
    table_id, _ = await service.open_table(GUILD, CHANNEL, ALICE, "Alice", "highcard",
                                           {"buy_in": 100, "ante": 10})
    await service.lobby_action(table_id, BOB, "Bob", "join")
    await service.lobby_action(table_id, ALICE, "Alice", "start")
    table = service.tables[table_id]
    (seat,) = table.require_game().to_act
    user = table.seats[seat].user_id
    assert user is not None
    await service.act(table_id, user, seat, table.stamp(seat)[0], 0)  # antes are in the pot
    await service.abort(CHANNEL, ALICE, "Alice", is_admin=False)
    assert await store.balance(GUILD, ALICE) == 1000
    assert await store.balance(GUILD, BOB) == 1000
    assert await chips_everywhere(store, service, people) == total
    await ledger_matches_balances(store, people)


async def test_a_buy_in_nobody_can_afford_is_refused_and_changes_nothing(
        service: TableService, store: Store, chip_games: None) -> None:
    table_id, _ = await service.open_table(GUILD, CHANNEL, ALICE, "Alice", "highcard",
                                           {"buy_in": 500})
    await store.apply_chip_changes(GUILD, [ChipChange(BOB, -800, "test")])
    with pytest.raises(TableError, match="/chips daily"):
        await service.lobby_action(table_id, BOB, "Bob", "join")
    assert await store.balance(GUILD, BOB) == 200
    assert [seat.name for seat in service.tables[table_id].seats] == ["Alice"]
    await service.lobby_action(table_id, ALICE, "Alice", "cancel")
    assert await store.balance(GUILD, ALICE) == 1000  # the lobby's buy-in came back


async def test_the_lobby_says_what_wins_and_stops_inviting_once_started(
        service: TableService) -> None:
    table_id, lobby = await service.open_table(GUILD, CHANNEL, ALICE, "Alice", "sppoker", {})
    assert "To win: first to 12 points." in lobby.content
    assert "Press **Join**" in lobby.content
    for user, name in ((BOB, "Bob"), (CAROL, "Carol")):
        lobby = await service.lobby_action(table_id, user, name, "join")
    assert "first to 11 points" in lobby.content  # the target follows the player count
    started = await service.lobby_action(table_id, ALICE, "Alice", "start")
    assert "Started" in started.content and "Press **Join**" not in started.content
    assert not started.open


async def test_a_player_short_of_the_buy_in_may_sit_down_with_at_least_the_minimum(
        service: TableService, store: Store, chip_games: None) -> None:
    table_id, _ = await service.open_table(GUILD, CHANNEL, ALICE, "Alice", "highcard",
                                           {"buy_in": 500, "min_buy_in": 100})
    await store.apply_chip_changes(GUILD, [ChipChange(BOB, -750, "test")])  # Bob has 250
    await service.lobby_action(table_id, BOB, "Bob", "join")
    table = service.tables[table_id]
    assert table.stacks == [500, 250]
    assert await store.balance(GUILD, BOB) == 0
    await store.apply_chip_changes(GUILD, [ChipChange(CAROL, -950, "test")])  # Carol: 50
    with pytest.raises(TableError, match="at least 100"):
        await service.lobby_action(table_id, CAROL, "Carol", "join")


async def test_a_next_deal_the_stacks_cannot_pay_for_says_rebuy_and_changes_nothing(
        service: TableService, store: Store) -> None:
    table_id, _ = await service.open_table(GUILD, CHANNEL, ALICE, "Alice", "red_dog",
                                           {"buy_in": 50, "ante": 2})
    await service.lobby_action(table_id, BOB, "Bob", "join")
    await service.lobby_action(table_id, ALICE, "Alice", "start")
    table = service.tables[table_id]
    table = await play_deal(service, table)  # everyone passes: the pot is shared
    table.stacks = [1, 1]  # as if both had lost all but one chip: under the ante of 2
    desk = CashDesk(service)
    with pytest.raises(TableError, match=r"next deal can't start: .*ante.*\*\*Rebuy\*\*"):
        await desk.act(table_id, BOB, "Bob", "deal")
    table = service.tables[table_id]
    assert table.deals == 1 and table.stacks == [1, 1]
    assert "You bought 49 chips" in await desk.act(table_id, ALICE, "Alice", "rebuy")
    assert "You bought 49 chips" in await desk.act(table_id, BOB, "Bob", "rebuy")
    assert "Deal 2" in await desk.act(table_id, BOB, "Bob", "deal")


async def test_the_current_stamp_is_the_told_one_and_reading_it_changes_nothing(
        service: TableService) -> None:
    table = await started(service)
    told = [table.stamp(seat)[0] for seat in range(2)]
    assert [service.prompt_stamp(table.table_id, seat) for seat in range(2)] == told
    seat = min(table.require_game().to_act)
    user = table.seats[seat].user_id
    assert user is not None
    await service.act(table.table_id, user, seat, told[seat], 0)
    table = service.tables[table.table_id]
    assert service.prompt_stamp(table.table_id, seat) == table.stamp(seat)[0]
    assert service.prompt_stamp("no-such-table", 0) is None


async def test_aborting_a_cash_table_after_a_deal_says_the_finished_deals_stand(
        service: TableService, store: Store, chip_games: None) -> None:
    for user in (ALICE, BOB):
        await store.balance(GUILD, user)
    table_id, _ = await service.open_table(GUILD, CHANNEL, ALICE, "Alice", "highcard",
                                           {"buy_in": 100})
    await service.lobby_action(table_id, BOB, "Bob", "join")
    await service.lobby_action(table_id, ALICE, "Alice", "start")
    await play_deal(service, service.tables[table_id])
    said = await service.abort(CHANNEL, ALICE, "Alice", is_admin=False)
    assert "deals played to the end stand" in said and "nothing of it" not in said
    assert await store.balance(GUILD, ALICE) + await store.balance(GUILD, BOB) == 2000
