"""Tournaments of chip games in process: tournament chips, a fixed number of deals, places by
net chips, a bust, and a player handed to the AI at their running table.

The tables are real and play themselves: every entrant at them is an AI seat (or becomes one),
whose moves the table service's clocks make at once (`ai_pause` 0), so each table plays its
deals to the end and the tournament goes on by itself (no break between rounds). The books
are checked with `/chips audit`'s own reading (`Store.chip_audit`)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core import cash_table, tournament_chips, tournament_tables
from bot.core.between_deals import CashDesk
from bot.core.service import TableService
from bot.core.table import CASH_OPTIONS, DEAL_RECORD, Seat, Table, TableError
from bot.core.tournaments import TournamentService
from bot.store import Store
from engine.game import places_from_scores
from engine.tournaments import places_by_chips
from tests.support.tournament_world import Places, World, opened, settle

pytestmark = pytest.mark.usefixtures("game_renderers")

G, CH, ORGANISER, ANN = 10, 20, 1, 101


Cup = World  # the store, the tables, the tournaments and Discord's places


@pytest.fixture
async def cup(tmp_path: Path) -> AsyncIterator[Cup]:
    async with opened(tmp_path / "db.sqlite3", break_seconds=0.0) as made:
        yield made


async def until_over(cup: Cup, tid: int) -> None:
    """Let the tables play themselves until the tournament is over (bounded: a table that
    stops playing fails the test instead of hanging it)."""
    for _ in range(20_000):
        live = cup.service.live.get(tid)
        if live is not None and live.t.status == "over":
            await settle(cup.service)
            return
        await asyncio.sleep(0.002)
    raise AssertionError("the tournament did not finish: a table stopped playing")


async def results(store: Store, table_id: str) -> list[tuple[int | None, str, int, int]]:
    """The table's recorded game: (user, seat label, net chips, place), by seat."""
    async with store._read() as conn:
        rows = await conn.fetch_all(
            "SELECT r.user_id, r.seat_label, r.score, r.place FROM game_results r"
            " JOIN games g ON g.id = r.game_id WHERE g.table_id = ? ORDER BY r.seat",
            (table_id,))
    return [(r[0], r[1], int(r[2]), int(r[3])) for r in rows]


@pytest.mark.parametrize("kind", ["badugi", "dealers_choice"])
async def test_a_chip_swiss_plays_its_deals_and_places_by_net_chips(cup: Cup, kind: str) -> None:
    before = await cup.store.chip_audit(G)
    tid, _ = await cup.service.create(G, CH, ORGANISER, kind, rounds=2, deals=2)
    for _ in range(4):
        await cup.service.signup(tid, ORGANISER, "Org", "ai")
    await cup.service.signup(tid, ORGANISER, "Org", "start")
    await until_over(cup, tid)
    t = cup.service.live[tid].t
    rows = await cup.store.tournament_tables(tid)
    assert [(r.round, r.result) for r in rows] == [(1, "finished")] * 2 + [(2, "finished")] * 2
    for row in rows:
        table = next(tb for tb in t.rounds[row.round - 1].tables if tb.number == row.number)
        seated = await results(cup.store, row.table_id)
        nets = [net for _, _, net, _ in seated]
        # Tournament chips: every seat began with the same stack, nets sum to nothing, and
        # the places are the nets' (equal nets share), the tournament's too.
        assert sum(nets) == 0 and all(net >= -tournament_chips.DEFAULT_STACK for net in nets)
        assert [place for *_, place in seated] == list(places_by_chips(nets))
        assert list(row.places or ()) == list(places_by_chips(nets)) == list(table.places or ())
        deals = [a for a in await cup.store.table_actions(row.table_id)
                 if a.action[0] == DEAL_RECORD]
        busted = any(net == -tournament_chips.DEFAULT_STACK for net in nets)
        assert len(deals) == 2 or (busted and len(deals) == 1)
    # The bank never moved: the house lent each table its chips and took them back.
    after = await cup.store.chip_audit(G)
    assert after.ok and after.house_issued == before.house_issued and after.tables_total == 0
    assert cup.places.posts[-1][2] == ["standings.png"]


async def test_a_member_is_handed_to_the_ai_at_their_running_table_at_once(cup: Cup) -> None:
    balance = await cup.store.balance(G, ANN)
    tid, _ = await cup.service.create(G, CH, ORGANISER, "badugi", rounds=1, deals=2)
    await cup.service.signup(tid, ANN, "Ann", "join")
    await cup.service.signup(tid, ORGANISER, "Org", "ai")
    await cup.service.signup(tid, ORGANISER, "Org", "start")
    await settle(cup.service)
    [row] = await cup.store.tournament_tables(tid)
    table = cup.tables.tables[row.table_id]
    assert ANN in [seat.user_id for seat in table.seats]
    # No member's chips paid for the seat: tournament chips, lent by the house.
    assert await cup.store.balance(G, ANN) == balance
    assert (await cup.store.chip_audit(G)).ok
    for _ in range(5_000):  # the AI seat moves at once: the table comes to wait for Ann
        table = cup.tables.tables[row.table_id]
        seat = table.seat_of(ANN)
        if table.game is not None and seat in table.game.to_act:
            break
        await asyncio.sleep(0.002)
    assert seat is not None and table.game is not None and seat in table.game.to_act
    said = await cup.service.organise(G, CH, ORGANISER, "replace", player=ANN)
    assert said == "Ann is played by the AI from now on, at their table too."
    table = cup.tables.tables[row.table_id]  # the running table: at once, not next round
    assert sorted(seat.name for seat in table.seats if seat.is_ai) == ["AI 1", "Ann"]
    await settle(cup.service)
    assert any("played by the AI from now on, at their table too" in text
               for _, text, _ in cup.places.posts)
    with pytest.raises(TableError):  # Ann's own buttons no longer play the seat
        table.check_turn(ANN, seat)
    await until_over(cup, tid)  # her seat's awaited decision was the AI's: the table went on
    assert [r.result for r in await cup.store.tournament_tables(tid)] == ["finished"]
    assert await cup.store.balance(G, ANN) == balance
    assert (await cup.store.chip_audit(G)).ok


async def test_an_aborted_chip_table_gives_its_chips_back_to_the_house(cup: Cup) -> None:
    balance = await cup.store.balance(G, ANN)
    tid, _ = await cup.service.create(G, CH, ORGANISER, "badugi", rounds=1, deals=3)
    await cup.service.signup(tid, ANN, "Ann", "join")
    await cup.service.signup(tid, ORGANISER, "Org", "ai")
    await cup.service.signup(tid, ORGANISER, "Org", "start")
    await settle(cup.service)
    [row] = await cup.store.tournament_tables(tid)
    with pytest.raises(TableError, match="tournament's table"):  # no Join, Leave, Rebuy, End
        await CashDesk(cup.tables).act(row.table_id, ANN, "Ann", "end")
    await cup.tables.abort(row.thread_id, ORGANISER, "Org", is_admin=True)
    await until_over(cup, tid)
    assert [r.result for r in await cup.store.tournament_tables(tid)] == ["aborted"]
    assert await cup.store.balance(G, ANN) == balance
    audit = await cup.store.chip_audit(G)
    assert audit.ok and audit.tables_total == 0


async def test_deals_is_a_chip_games_option(cup: Cup) -> None:
    with pytest.raises(TableError, match="deals"):
        await cup.service.create(G, CH, ORGANISER, "poangpoker", deals=3)
    tid, _ = await cup.service.create(G, CH, ORGANISER, "red_dog")
    assert cup.service.live[tid].extra.table_options == {"deals": tournament_chips.DEFAULT_DEALS}


def test_the_tournament_options_stay_with_the_table() -> None:
    assert tournament_chips.TABLE_OPTIONS <= CASH_OPTIONS  # never handed to a deal's game


def test_a_busted_player_leaves_and_is_placed_by_the_whole_stack_lost() -> None:
    table = Table(table_id="t", guild_id=G, channel_id=CH, kind="badugi", host_id=ORGANISER,
                  seats=[Seat("Ann", ANN), Seat("Bo", 102), Seat("AI 1")])
    tournament_chips.seat_with_tournament_chips(table, 4, 200)
    assert table.stacks == table.bought == [200, 200, 200]
    table.stacks = [0, 250, 350]
    assert [seat.name for seat in tournament_chips.drop_busted(table)] == ["Ann"]
    assert [seat.name for seat in table.seats] == ["Bo", "AI 1"]
    assert tournament_chips.original_seats(table) == [1, 2]
    table.stacks = [600, 0]
    assert [seat.name for seat in tournament_chips.drop_busted(table)] == ["AI 1"]
    seats, nets = cash_table.final_nets(table)
    assert [(seat.name, seat.user_id) for seat in seats] == [("Ann", ANN), ("Bo", 102),
                                                             ("AI 1", None)]
    assert nets == [-200, 400, -200] and sum(nets) == 0
    assert list(places_from_scores(nets)) == list(places_by_chips(nets)) == [2, 1, 2]
    # Whatever is left goes back to the house, never to a member.
    assert all(change.user_id is None for change in cash_table.cash_out_all(table))


async def test_a_replacement_saved_just_before_a_crash_is_handed_over_after_it(
        tmp_path: Path) -> None:
    """`/tournament replace` writes the tournament, then the table. Killed between the two
    writes, the restarted bot hands the seat to the AI when it reopens the round."""
    path = tmp_path / "db.sqlite3"
    store = await Store.open(path)
    tables = TableService(store, ai_pause=0.0)
    service = TournamentService(store, tables, Places(), break_seconds=0.0)
    tid, _ = await service.create(G, CH, ORGANISER, "poangpoker", rounds=1)
    await service.signup(tid, ANN, "Ann", "join")
    await service.signup(tid, ORGANISER, "Org", "ai")
    await service.signup(tid, ORGANISER, "Org", "start")
    await settle(service)
    async with service.command(tid) as draft:  # the first write only
        draft.t.replace_by_ai(str(ANN), by=str(ORGANISER))
        await service.commit(draft)
    await settle(service)
    [row] = await store.tournament_tables(tid)
    assert tables.tables[row.table_id].seat_of(ANN) is not None  # the table never heard
    await service.close()
    await tables.close()
    await store.close()

    async with opened(path, break_seconds=0.0, restarted=True) as cup:
        table = cup.tables.tables.get(row.table_id)
        assert table is None or table.seat_of(ANN) is None  # Ann's seat is the AI's now
        await until_over(cup, tid)
        assert [r.result for r in await cup.store.tournament_tables(tid)] == ["finished"]


async def test_a_chip_table_saved_between_deals_deals_on_after_a_restart(
        tmp_path: Path) -> None:
    """Killed after a deal's end was saved and before the next deal was dealt, the restarted
    bot deals it when it reopens the round, and the table ends after its deals."""
    path = tmp_path / "db.sqlite3"
    store = await Store.open(path)
    tables = TableService(store, ai_pause=0.0)
    service = TournamentService(store, tables, Places(), break_seconds=0.0)
    tables.committed.clear()  # the bot "dies" before it deals on: nothing takes the next step
    tid, _ = await service.create(G, CH, ORGANISER, "badugi", rounds=1, deals=2)
    for _ in range(2):
        await service.signup(tid, ORGANISER, "Org", "ai")
    await service.signup(tid, ORGANISER, "Org", "start")
    [row] = await store.tournament_tables(tid)
    for _ in range(5_000):
        table = tables.tables[row.table_id]
        if tournament_tables.between_deals(table):
            break
        await asyncio.sleep(0.002)
    assert tournament_tables.between_deals(table) and table.deals == 1
    await settle(service)
    await service.close()
    await tables.close()
    await store.close()

    async with opened(path, break_seconds=0.0, restarted=True) as cup:
        await until_over(cup, tid)
        [row] = await cup.store.tournament_tables(tid)
        assert row.result == "finished"
        nets = [net for _, _, net, _ in await results(cup.store, row.table_id)]
        deals = [a for a in await cup.store.table_actions(row.table_id)
                 if a.action[0] == DEAL_RECORD]
        assert len(deals) == 2 or (len(deals) == 1 and -tournament_chips.DEFAULT_STACK in nets)
        assert (await cup.store.chip_audit(G)).ok


async def test_the_sign_up_says_a_chip_games_deals_and_its_tournament_chips(cup: Cup) -> None:
    tid, said = await cup.service.create(G, CH, ORGANISER, "badugi", deals=4)
    assert "Each table plays 4 deals with tournament chips (200 a seat, not from your " \
           "balance)" in said
    assert "tournament chips" in cup.service.signup_text(tid)
    _, said = await cup.service.create(G, CH + 1, ORGANISER, "poangpoker")
    assert "tournament chips" not in said
