"""A tournament's own part (`Live.extra`) as a typed value with one JSON codec
(`bot.core.tournament_extra`): rows as they have always been saved read back, and are
written again exactly; a tournament saved so before an upgrade goes on after it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.core.service import TableService
from bot.core.tournament_extra import TournamentExtra, extra_from_json, extra_to_json
from bot.core.tournament_state import Live
from bot.core.tournaments import TournamentService
from bot.store import Store, TournamentRow
from engine.tournaments import Format, Tournament, TournamentConfig
from tests.support.tournament_world import Places, settle

G, CH, ORGANISER = 10, 20, 1

# As `/tournament create` wrote them (a chip game's, then a points game's with a start time,
# its sign-up message and its scheduled event remembered, its first round announced).
CREATED: dict[str, Any] = {"options": {"deals": 2}, "start_at": None, "next_at": None,
                           "saved_at": 1764650000.25, "locale": "en", "announced": 0}
RUNNING: dict[str, Any] = {"options": {}, "start_at": None, "next_at": 1764650900.0,
                           "saved_at": 1764650840.5, "locale": "sv", "announced": 1,
                           "signup": [20, 987654321012345678], "event_id": 55501}


def test_saved_rows_read_back_as_typed_values_and_are_written_again_exactly() -> None:
    created = extra_from_json(CREATED)
    assert created == TournamentExtra(saved_at=1764650000.25, options=(("deals", 2),),
                                      locale="en")
    assert (created.deals, created.table_options) == (2, {"deals": 2})
    running = extra_from_json(RUNNING)
    assert running.signup == (20, 987654321012345678) and running.event_id == 55501
    assert (running.next_at, running.announced, running.locale) == (1764650900.0, 1, "sv")
    assert running.deals is None  # a points game's tables play to their end
    for saved in (CREATED, RUNNING):
        assert extra_to_json(extra_from_json(saved)) == saved


def test_the_tables_options_are_a_copy() -> None:
    extra = extra_from_json(CREATED)
    options = extra.table_options
    options["deals"] = 9
    assert extra.table_options == {"deals": 2}


def test_a_clock_resumes_with_the_time_it_had_left_and_at_least_the_least() -> None:
    extra = TournamentExtra(saved_at=1000.0, start_at=1300.0, next_at=1010.0)
    resumed = extra.resumed(5000.0, 30.0)
    assert (resumed.start_at, resumed.next_at) == (5300.0, 5030.0)
    assert TournamentExtra(saved_at=1000.0).resumed(5000.0, 30.0).start_at is None


def test_a_stored_row_becomes_a_live_tournament_with_its_extra() -> None:
    t = Tournament(TournamentConfig(Format.SWISS, seats=2, min_table=2))
    row = TournamentRow(7, G, CH, "badugi", ORGANISER, "running", 3, t.to_json(), RUNNING)
    live = Live.of(row)
    assert live.extra == extra_from_json(RUNNING)
    assert (live.locale, live.deals) == ("sv", None)
    draft = live.draft()
    assert draft.extra == live.extra and draft.t is not live.t


async def test_a_tournament_saved_in_the_old_format_goes_on(tmp_path: Path) -> None:
    """A literal row as the code of before saved it: restored, its start clock resumed,
    its sign-up message edited, and saved again in the same format."""
    store = await Store.open(tmp_path / "db.sqlite3")
    tables = TableService(store, ai_pause=0.0, clock=lambda: 2_000_000.0)
    t = Tournament(TournamentConfig(Format.SWISS, seats=2, min_table=2))
    saved = {"options": {}, "start_at": 1_500_600.0, "next_at": None, "saved_at": 1_500_000.0,
             "locale": "en", "announced": 0, "signup": [CH, 4242]}
    tid = await store.create_tournament(G, CH, "poangpoker", ORGANISER, t.to_json(), saved)
    places = Places()
    service = TournamentService(store, tables, places)
    try:
        await service.restore()
        await service.resume()
        live = service.live[tid]
        assert live.extra.start_at == 2_000_600.0  # ten minutes left, as when it was saved
        await service.refresh_signup(live)
        assert places.edits and "Tournament of Poängpoker" in places.edits[-1]
        [row] = await store.live_tournaments()
        assert row.extra == {**saved, "start_at": 2_000_600.0, "saved_at": 2_000_000.0}
    finally:
        await settle(service)
        await service.close()
        await tables.close()
        await store.close()
