"""What a tournament says, as a person reads it: a game named as typed, a chip table's board
between its fixed deals (no cash table's buttons, nor their words), the organiser's answers
(what happened, never a bare "Done."), and the board's best places as ordinals."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core import narration, tournament_chips, tournament_tables
from bot.core.table import Table
from bot.core.table_text import board_text
from bot.core.tournament_text import board_text as tournament_board
from bot.core.tournament_text import (
    ordinal,
    pairings_text,
    round_heading,
    signup_text,
    standings_post,
    standings_text,
)
from bot.present import i18n
from bot.store import TournamentBoardRow
from engine.games import GAMES
from engine.tournaments import Entrant, Format, Tournament, TournamentConfig
from tests.support.tournament_world import USERS, World, opened, settle, tables_of

pytestmark = pytest.mark.usefixtures("game_renderers")

G, CH, ORGANISER = 10, 20, 1


Cup = World  # the store, the tables, the tournaments and Discord's places


@pytest.fixture
async def cup(tmp_path: Path) -> AsyncIterator[Cup]:
    async with opened(tmp_path / "db.sqlite3", break_seconds=3600.0) as made:
        yield made


@pytest.mark.parametrize(("typed", "kind"), [
    ("Badugi", "badugi"), ("Old Man 49er", "old_man_49er"), ("old man 49er", "old_man_49er"),
    ("Dealer's Choice", "dealers_choice"), ("POÄNGPOKER", "poangpoker")])
async def test_a_tournament_is_created_for_the_game_named_as_typed(
        cup: Cup, typed: str, kind: str) -> None:
    tid, said = await cup.service.create(G, CH, ORGANISER, typed)
    assert cup.service.live[tid].kind == kind
    assert f"Tournament of {GAMES[kind].title}" in said
    [row] = await cup.store.live_tournaments()
    assert row.kind == kind


async def between_deals(cup: Cup, deals: int) -> Table:
    """A chip tournament's table just after its first deal, before the next step."""
    cup.tables.committed.clear()  # nothing deals on: the table stays between deals
    tid, _ = await cup.service.create(G, CH, ORGANISER, "badugi", rounds=1, deals=deals)
    for _ in range(2):
        await cup.service.signup(tid, ORGANISER, "Org", "ai")
    await cup.service.signup(tid, ORGANISER, "Org", "start")
    [row] = await cup.store.tournament_tables(tid)
    for _ in range(5_000):
        table = cup.tables.tables[row.table_id]
        if tournament_tables.between_deals(table):
            return table
        await asyncio.sleep(0.002)
    raise AssertionError("the first deal did not end")


async def test_a_fixed_deals_board_between_deals_says_what_is_true_without_cash_buttons(
        cup: Cup) -> None:
    table = await between_deals(cup, deals=2)
    assert table.deals == 1
    assert narration.board_view(table).kind == "board"  # Show my hand, nothing refused
    said = board_text(table)
    assert " · deal 1 of 2" in said
    if all(stack > 0 for stack in table.stacks):
        assert "Deal 1 of 2 is over; the next deal is dealt in a moment, by itself." in said
    else:  # a bust in the first deal ends a table of two
        assert "Deal 1 of 2 is over, and with it this table" in said
    assert "**Next deal**" not in said and "**Rebuy**" not in said
    # Its last deal: the table is over, as it will be a moment later.
    table.options[tournament_chips.DEALS_OPTION] = 1
    assert "Deal 1 of 1 is over, and with it this table: its places go by net chips." \
        in board_text(table)
    assert narration.board_view(table).kind == "board"
    with i18n.using("sv"):
        table.locale = "sv"
        assert "Giv 1 av 1 är slut" in board_text(table)
    # A cash table between deals keeps its desk, in words and buttons.
    table.locale = "en"
    del table.options[tournament_chips.DEALS_OPTION]
    assert narration.board_view(table).kind == "cash"
    assert "**Next deal** deals again" in board_text(table)


async def test_every_organiser_step_answers_what_happened(cup: Cup) -> None:
    service = cup.service
    tid, _ = await service.create(G, CH, ORGANISER, "poangpoker", rounds=3)
    for name in ["Ann", "Bo", "Cy", "Dan"]:
        await service.signup(tid, USERS[name], name, "join")
    answers = [await service.organise(G, CH, ORGANISER, "start")]
    await settle(service)
    # The sign-up message is edited at the start and the end only: it names no round.
    assert "The tournament is under way: each round's pairings are posted below" in \
        service.signup_text(tid) and "round 1" not in service.signup_text(tid)
    answers.append(await service.organise(G, CH, ORGANISER, "pause"))
    answers.append(await service.organise(G, CH, ORGANISER, "resume"))
    [first, second] = tables_of(cup, tid)
    answers.append(await service.organise(G, CH, ORGANISER, "replace",
                                          player=USERS[second[0]]))
    answers.append(await service.organise(G, CH, ORGANISER, "drop", player=USERS[second[1]]))
    answers.append(await service.organise(G, CH, ORGANISER, "forfeit", player=USERS[first[0]]))
    answers.append(await service.organise(G, CH, ORGANISER, "forfeit", player=USERS[second[1]]))
    await settle(service)  # both tables are over: the break before round 2 (an hour)
    answers.append(await service.organise(G, CH, ORGANISER, "next"))
    answers.append(await service.organise(G, CH, ORGANISER, "end"))
    await settle(service)
    assert not any(answer.startswith("Done") for answer in answers)
    start, pause, resume, replace, drop, forfeit, last, next_, end = answers
    assert start.startswith("The tournament has started: round 1's tables are open")
    assert pause.startswith("The tournament is paused")
    assert resume.startswith("The tournament goes on")
    assert replace == f"{second[0]} is played by the AI from now on, at their table too."
    assert drop.startswith(f"{second[1]} has left the tournament: the next rounds")
    assert forfeit.startswith(f"{first[0]} forfeits table 1 of round 1: one player is left")
    assert last.startswith(f"{second[1]} forfeits table 2 of round 1: one player is left")
    assert next_ == "Round 2 is open: its tables are in their threads."
    assert end == "The tournament is over: the final standings are posted."
    # After the end, the channel's last tournament's final standings are still shown.
    said, pictures = await service.standings(G, CH)
    assert said.startswith("Final standings") and pictures
    posted = [text for _, text, _ in cup.places.posts]
    assert any(text.startswith("The tournament is paused") for text in posted)
    assert any(text.startswith("The tournament goes on") for text in posted)


def test_the_board_says_best_places_as_ordinals_in_each_language() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st",
        "111th"]
    rows = [TournamentBoardRow(1, "Bob", 1, 1, 1), TournamentBoardRow(2, "Ann", 3, 0, 3)]
    said = tournament_board(rows)
    assert "1. Bob — won 1, best place 1st, played 1" in said
    assert "2. Ann — won 0, best place 3rd, played 3" in said
    with i18n.using("sv"):
        assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 21, 22)] == [
            "1:a", "2:a", "3:e", "4:e", "11:e", "12:e", "21:a", "22:a"]
        said = tournament_board(rows)
        assert "2. Ann — vann 0, bästa placering 3:e, spelade 3" in said
    assert tournament_board([]) == "No tournament has been played to its end here yet."
    assert tournament_board(rows, "poke").startswith(
        "🏆 **Tournaments of Poke**: events won, best place, events played\n1. Bob")
    assert tournament_board([], "old_man_49er") == \
        "No member has played a tournament of Old Man 49er to its end here yet."


async def test_the_sign_up_counts_one_deal_and_names_the_format_mid_sentence(cup: Cup) -> None:
    tid, said = await cup.service.create(G, CH, ORGANISER, "Old Man 49er", deals=1)
    assert "Swiss system, tables of 2" in said
    assert "Each table plays 1 deal with tournament chips" in said
    live = cup.service.live[tid]
    with i18n.using("sv"):  # as a Swedish server's sign-up reads
        said = signup_text(live.t, live.kind, ORGANISER, None, live.deals)
    # Not the command menu's capitalised "Schweizisk" (the same English word, another use).
    assert "Turnering i Old Man 49er**: schweizersystem, bord med 2" in said
    assert "Varje bord spelar 1 giv med turneringsmarker" in said


AI_NOTE = "🤖 marks a member the AI now plays for."


async def test_a_member_replaced_by_the_ai_is_marked_in_later_pairings_and_standings(
        cup: Cup) -> None:
    service = cup.service
    tid, _ = await service.create(G, CH, ORGANISER, "poangpoker", rounds=2)
    for name in ["Ann", "Bo", "Cy", "Dan"]:
        await service.signup(tid, USERS[name], name, "join")
    await service.organise(G, CH, ORGANISER, "start")
    await settle(service)
    first, second = tables_of(cup, tid)
    for table in (first, second):  # one player left at each table: both are over
        await service.organise(G, CH, ORGANISER, "forfeit", player=USERS[table[1]])
    await settle(service)
    said = await service.organise(G, CH, ORGANISER, "replace", player=USERS[first[0]])
    assert said == f"{first[0]} is played by the AI from the next round on."
    standings, _ = await service.standings(G, CH)
    assert f"{first[0]} 🤖 — 1" in standings and standings.endswith(AI_NOTE), standings
    assert f"{second[0]} — 1" in standings and f"{first[1]} 🤖" not in standings
    await service.organise(G, CH, ORGANISER, "next")
    await settle(service)
    pairings = next(text for _, text, _ in cup.places.posts if text.startswith("**Round 2**"))
    assert f"{first[0]} 🤖 v {second[0]}" in pairings or \
        f"{second[0]} v {first[0]} 🤖" in pairings, pairings
    assert pairings.endswith(AI_NOTE)
    t = service.live[tid].t
    assert t.current_round is not None
    with i18n.using("sv"):
        swedish = pairings_text(t, t.current_round, {})
        assert swedish.startswith("**Omgång 2**") and f"{first[0]} 🤖" in swedish
        assert swedish.endswith("🤖 markerar en medlem som AI:n nu spelar för.")
        assert standings_text(t).endswith("🤖 markerar en medlem som AI:n nu spelar för.")
    picture = standings_post(t, "Standings", "").picture  # its font has no emoji: words
    assert picture is not None
    assert {row.name for row in picture.rows} == {f"{first[0]} (AI)", first[1], *second}
    await service.organise(G, CH, ORGANISER, "end")
    await settle(service)
    podium = next(text for _, text, _ in cup.places.posts if "The tournament was ended" in text)
    assert f"{first[0]} 🤖 (1)" in podium and podium.endswith(AI_NOTE), podium


def headings(players: int, seats: int = 2, format_: Format = Format.ELIMINATION) -> list[str]:
    """Each round's pairings' heading, played out (the better seed wins every table)."""
    t = Tournament(TournamentConfig(format_, seats=seats, min_table=2,
                                    rounds=2 if format_ is Format.SWISS else None))
    for i in range(players):
        t.join(Entrant(str(100 + i), f"P{i}", 2000.0 - i))
    said = []
    round_ = t.start({str(100 + i): 2000.0 - i for i in range(players)})
    while round_ is not None:
        said.append(round_heading(t, round_))
        for table in round_.tables:
            order = sorted(table.players, key=int)
            t.record_result(table.number, [order.index(p) + 1 for p in table.players])
        round_ = t.next_round()
    return said


def test_an_eliminations_last_rounds_are_named_as_players_say_them() -> None:
    assert headings(8) == ["**Round 1** — **Quarter-finals**",
                           "**Round 2** — **Semi-finals**", "**Round 3** — **Final**"]
    assert headings(16) == ["**Round 1**", "**Round 2** — **Quarter-finals**",
                            "**Round 3** — **Semi-finals**", "**Round 4** — **Final**"]
    # Six: two byes in a bracket of eight; three: one bye in a bracket of four.
    assert headings(6)[0] == "**Round 1** — **Quarter-finals**"
    assert headings(3) == ["**Round 1** — **Semi-finals**", "**Round 2** — **Final**"]
    # At tables of four the top two of each go on: only the final table is named.
    assert headings(8, seats=4) == ["**Round 1**", "**Round 2** — **Final**"]
    assert headings(4, format_=Format.SWISS) == ["**Round 1**", "**Round 2**"]
    with i18n.using("sv"):
        assert headings(8) == ["**Omgång 1** — **Kvartsfinaler**",
                               "**Omgång 2** — **Semifinaler**", "**Omgång 3** — **Final**"]
