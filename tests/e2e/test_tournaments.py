"""Tournaments through the real bot (issue 26), on Toy High Card (docs/examples/toy-high-card,
installed for the bot alone as in test_toy_game.py): one card, keep or swap, so a table is
over in a move or two.

- A Swiss tournament of 9 (5 people, 4 AI entrants) over 3 rounds: the sign-up message and
  Discord's scheduled event, each round's tables in threads of their own (the channel shows
  only pairings, results and standings), a kill -9 during round 2, and the pairings (no
  repeat, by score then join order: everyone's rating is a newcomer's), the byes, the scores
  and Buchholz of the final standings checked against a computation of the test's own from
  the results the channel showed; the closing note with the podium and the standings picture.
- An elimination of 8 and a round robin of 4 (AI entrants but for the organiser's seat).
- The organiser's steps refused to others, changing nothing.

- A chip game's tournament (Badugi, 2 deals a table: tournament chips, places by net chips),
  a Swiss of 4 over 2 rounds.

Each runs on both databases (`backend`, as tests/e2e/conftest.py's `world` does): the kill -9
in round 2 on PostgreSQL too."""

from __future__ import annotations

import asyncio
import json
import os
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from engine.tournaments import places_by_chips
from loopback.driver import describe_rejection
from loopback.handles import ChannelHandle, UserHandle
from loopback.models import Message
from loopback.process import BotProcess
from tests.e2e.conftest import CALL_REPORT, World, loopback_options
from tests.support import rawdb
from tests.support.autoplay import AutoPlayer
from tests.support.patience import AnsweredDiscord
from tests.support.postgres import PostgresServer
from tests.support.toy import KIND, write_distribution

pytestmark = pytest.mark.e2e

PEOPLE = ["ann", "bo", "cy", "dan", "eva"]
RESULT = re.compile(r"^Round (?P<round>\d+), table (?P<table>\d+): (?P<rest>.*)$", re.M)
PLACED = re.compile(r"(?P<place>\d+)\. (?P<name>.+?) \((?P<points>[\d½]+)\)")
TABLE = re.compile(r"^Table (?P<n>\d+): (?P<players>.+?) — <#(?P<thread>\d+)>$", re.M)
BYE = re.compile(r"^(?P<name>.+?) has a bye", re.M)
STANDING = re.compile(r"^(?P<place>\d+)\. (?P<name>.+?) — (?P<score>[\d½]+)"
                      r"(?: \(Buchholz (?P<b>[\d½]+)\))?$", re.M)


@pytest.fixture
async def cup(tmp_path: Path, request: pytest.FixtureRequest,
              backend: str) -> AsyncIterator[World]:
    """The bot with Toy High Card, five people and a #cup channel, on `backend`."""
    site = write_distribution(tmp_path / "site")
    python_path = os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")]))
    database: Path | str = tmp_path / "bot.sqlite3"
    if backend == "postgresql":
        server: PostgresServer = request.getfixturevalue("postgres_server")
        database = await server.fresh_database()
    async with AnsweredDiscord(users=PEOPLE, channels=["cup"],
                               **loopback_options(request)) as discord:
        bot = BotProcess(discord, database, log_path=tmp_path / "bot.log",
                         extra_env={"AI_DELAY": "0.05", "PYTHONPATH": python_path})
        await bot.start()
        try:
            yield World(discord, bot, database)
        finally:
            await bot.stop()
            report: pytest.TestReport | None = request.node.stash.get(CALL_REPORT, None)
            if report is None or report.failed:
                print(bot.log_tail(150))
                for rejected in discord.rejected():
                    print(describe_rejection(rejected))
        discord.assert_no_rejected()


def value(text: str) -> float:
    return float(text.replace("½", ".5")) if text != "½" else 0.5


def channel_posts(channel: ChannelHandle) -> list[Message]:
    return channel.messages()


def text_of(channel: ChannelHandle) -> str:
    return "\n".join(m.content for m in channel.messages())


def signup_message(channel: ChannelHandle) -> Message:
    for message in reversed(channel.messages()):
        if "dc:tn:" in str(message.components):
            return message
    raise AssertionError("no sign-up message in the channel")


async def sign_up(world: World, organiser: UserHandle, command: str, people: list[str],
                  ai: int, **options: str) -> ChannelHandle:
    discord = world.discord
    cup = discord.channel("cup")
    await organiser.slash(cup, command, **options)
    signup = signup_message(cup)
    for name in people:
        await discord.user(name).click(signup, label="Join")
    for _ in range(ai):
        await organiser.click(signup, label="Add AI")
    return cup


class Results:
    """What the channel told of a tournament: each round's tables and byes, each table's
    points, read from its messages."""

    def __init__(self, channel: ChannelHandle) -> None:
        self.channel = channel

    def pairings(self, round_number: int) -> tuple[list[tuple[str, ...]], list[str], list[int]]:
        for message in self.channel.messages():
            if message.content.startswith(f"**Round {round_number}**"):
                tables = [tuple(m["players"].split(" v ")) for m in TABLE.finditer(message.content)]
                threads = [int(m["thread"]) for m in TABLE.finditer(message.content)]
                byes = [m["name"] for m in BYE.finditer(message.content)]
                return tables, byes, threads
        raise AssertionError(f"no pairings of round {round_number}:\n{text_of(self.channel)}")

    def points(self, round_number: int) -> dict[int, dict[str, float]]:
        found: dict[int, dict[str, float]] = {}
        for match in RESULT.finditer(text_of(self.channel)):
            if int(match["round"]) == round_number:
                found[int(match["table"])] = {m["name"]: value(m["points"])
                                              for m in PLACED.finditer(match["rest"])}
        return found


async def play_round(world: World, results: Results, round_number: int,
                     until_killed: bool = False, *, deals: bool = False) -> None:
    """Every table of the round played to its result (people by AutoPlayer, AI by the bot);
    with `until_killed`, the bot is killed (-9) once the first table's result is told, and
    started again, and the round goes on. `deals`: a chip game's table, whose every deal
    has a winner, is played until the channel tells its result."""
    discord = world.discord
    tables, _, threads = results.pairings(round_number)
    people = [discord.user(name) for name in PEOPLE]

    def told(n: int) -> bool:
        return n in results.points(round_number)

    async def play(n: int, thread_id: int) -> None:
        seated = [u for u in people if u.user.name.capitalize() in tables[n - 1]]
        thread = ChannelHandle(discord, thread_id)
        if seated:
            player = AutoPlayer(discord, thread, seated, seed=n)
            try:  # until the game is over in its thread (its result reaches the channel after)
                await asyncio.wait_for(player.play(
                    until=lambda: told(n) or (not deals and player.winners() is not None)), 60)
            except TimeoutError:
                raise AssertionError(f"table {n} of round {round_number}: "
                                     f"{text_of(thread)[-800:]}\n---\n"
                                     f"{text_of(results.channel)[-800:]}") from None
        await discord.wait_for(lambda: told(n), timeout=60,
                               message=lambda: f"table {n}: {text_of(thread)[-400:]}")

    if until_killed:
        first = asyncio.gather(*(play(n, th) for n, th in enumerate(threads, 1)),
                               return_exceptions=True)
        await discord.wait_for(lambda: len(results.points(round_number)) >= 1, timeout=10,
                               message=lambda: text_of(results.channel)[-1500:])
        first.cancel()
        await asyncio.gather(first, return_exceptions=True)
        await world.bot.restart()  # kill -9, Discord sees it gone, started again
    await asyncio.gather(*(play(n, th) for n, th in enumerate(threads, 1)
                           if not told(n)))


def swiss_pairing(ranked: list[str], met: set[frozenset[str]],
                  byes: set[str]) -> tuple[list[tuple[str, ...]], list[str]]:
    """The test's own Swiss pairing at heads-up: the bye to the lowest-ranked without one,
    then the ranking paired from the top, each with the first below not yet met
    (backtracking: a seating without repeats, the first in that order)."""
    bye = [p for p in ranked if p not in byes][-1:] if len(ranked) % 2 else []
    rest = [p for p in ranked if p not in bye]

    def seat(left: list[str]) -> list[tuple[str, ...]] | None:
        if not left:
            return []
        top = left[0]
        for other in left[1:]:
            if frozenset((top, other)) in met:
                continue
            after = seat([p for p in left[1:] if p != other])
            if after is not None:
                return [(top, other), *after]
        return None

    tables = seat(rest)
    assert tables is not None, "no seating without repeats (the test's field allows one)"
    return tables, bye


async def test_a_swiss_of_nine_over_three_rounds_with_a_kill_in_round_2(cup: World) -> None:
    discord = cup.discord
    ann = discord.user("ann")
    channel = await sign_up(cup, ann, f"tournament create game:{KIND} rounds:3", PEOPLE, ai=4)
    signup = signup_message(channel)
    assert "Players (9): Ann, Bo, Cy, Dan, Eva, AI 1 🤖, AI 2 🤖, AI 3 🤖, AI 4 🤖" in \
        signup.content, signup.content
    [event] = discord.scheduled_events()
    assert event.entity_type == 3 and event.location == "#cup" and event.status == 1
    # Only the organiser starts (or a member with Manage Server).
    refused = await discord.user("bo").click(signup, label="Start")
    assert "Only the organiser" in refused.text and refused.ephemeral
    await ann.click(signup, label="Start")
    await discord.wait_for(lambda: "**Round 1**" in text_of(channel), timeout=30)
    assert discord.scheduled_events()[0].status == 2  # Discord's event is under way

    joined = ["Ann", "Bo", "Cy", "Dan", "Eva", "AI 1", "AI 2", "AI 3", "AI 4"]
    scores = dict.fromkeys(joined, 0.0)
    met: set[frozenset[str]] = set()
    opponents: dict[str, list[str]] = {p: [] for p in joined}
    byes: set[str] = set()
    results = Results(channel)
    for round_number in (1, 2, 3):
        tables, bye, threads = results.pairings(round_number)
        # The hand computation: round 1 by the slide (everyone rated as a newcomer: in the
        # order they joined), later rounds by score then that order, no repeats.
        ranked = sorted(joined, key=lambda p: (-scores[p], joined.index(p)))
        if round_number == 1:
            expected = [(joined[i], joined[i + 4]) for i in range(4)], [joined[8]]
        else:
            expected = swiss_pairing(ranked, met, byes)
        assert (tables, bye) == expected, (round_number, text_of(channel)[-1500:])
        assert all(discord.thread(t).parent_id == channel.id for t in threads)
        await play_round(cup, results, round_number, until_killed=round_number == 2)
        for number, table in enumerate(tables, 1):
            got = results.points(round_number)[number]
            assert set(got) == set(table)
            for player in table:
                scores[player] += got[player]
                opponents[player] += [p for p in table if p != player]
            met.add(frozenset(table))
        for player in bye:
            scores[player] += 1
            byes.add(player)
        if round_number < 3:
            await discord.wait_for(lambda n=round_number: f"Standings after round {n}"
                                   in text_of(channel), timeout=30)
            said = await ann.slash(channel, "tournament next")
            assert f"Round {round_number + 1} is open" in said.text, said.text
            await discord.wait_for(lambda n=round_number + 1: f"**Round {n}**"
                                   in text_of(channel), timeout=60)
    await discord.wait_for(lambda: "Final standings" in text_of(channel), timeout=60)
    final = next(m for m in channel.messages() if m.content.startswith("Final standings"))
    assert [a.filename for a in final.attachments] == ["standings.png"]
    buchholz = {p: sum(scores[o] for o in opponents[p]) for p in joined}
    lines = [(m["name"], value(m["score"]), value(m["b"])) for m in STANDING.finditer(
        final.content)]
    assert sorted(lines) == sorted((p, scores[p], buchholz[p]) for p in joined)
    keys = [(-s, -b) for _, s, b in lines]
    assert keys == sorted(keys)  # by score, then Buchholz (then head-to-head, rating)
    assert len(byes) == 3  # three different players had the byes
    podium = next(m for m in channel.messages() if "**The tournament is over!**" in m.content)
    assert f"🥇 {lines[0][0]}" in podium.content
    # The channel showed only the tournament's own messages: no table's board or prompt.
    assert not any("dc:" in str(m.components) and "dc:tn:" not in str(m.components)
                   for m in channel.messages())
    assert discord.scheduled_events()[0].status == 3
    board = await ann.slash(channel, "tournament board")  # people only: AI entrants are not
    assert board.text.count("played 1") == 5, board.text
    if not lines[0][0].startswith("AI "):
        assert f"1. {lines[0][0]} — won 1, best place 1st," in board.text, board.text


async def test_an_elimination_of_eight(cup: World) -> None:
    discord = cup.discord
    ann = discord.user("ann")
    channel = await sign_up(cup, ann, f"tournament create game:{KIND} format:elimination",
                            ["ann"], ai=7)
    await ann.click(signup_message(channel), label="Start")
    results = Results(channel)
    for round_number, tables in ((1, 4), (2, 2), (3, 1)):
        await discord.wait_for(lambda n=round_number: f"**Round {n}**" in text_of(channel),
                               timeout=60)
        pairs, byes, _ = results.pairings(round_number)
        assert len(pairs) == tables and not byes
        if round_number == 1:  # seeded 1 v 8, 4 v 5, 2 v 7, 3 v 6 (newcomers: join order)
            assert pairs == [("Ann", "AI 7"), ("AI 3", "AI 4"), ("AI 1", "AI 6"),
                             ("AI 2", "AI 5")]
        await play_round(cup, results, round_number)
        if round_number < 3:
            await discord.wait_for(lambda n=round_number: f"Standings after round {n}"
                                   in text_of(channel), timeout=30)
            await ann.slash(channel, "tournament next")
    await discord.wait_for(lambda: "Final standings" in text_of(channel), timeout=60)
    final = next(m for m in channel.messages() if m.content.startswith("Final standings"))
    assert sorted(a.filename for a in final.attachments) == ["bracket.png", "standings.png"]
    places = [int(m["place"]) for m in STANDING.finditer(final.content)]
    assert places == [1, 2, 3, 3, 5, 5, 5, 5]
    headings = [m.content.split("\n")[0] for m in channel.messages()
                if m.content.startswith("**Round")]
    assert headings == ["**Round 1** — **Quarter-finals**", "**Round 2** — **Semi-finals**",
                        "**Round 3** — **Final**"]


async def test_a_round_robin_of_four_and_the_organisers_steps(cup: World) -> None:
    discord = cup.discord
    ann, bo = discord.user("ann"), discord.user("bo")
    channel = await sign_up(cup, ann, f"tournament create game:{KIND} format:round_robin",
                            ["ann"], ai=3, start="in 30 minutes")
    # Others may not take the organiser's steps; nothing changes.
    for step in ("start", "pause", "next", "end"):
        said = await bo.slash(channel, f"tournament {step}")
        assert "Only the organiser" in said.text and said.ephemeral, (step, said.text)
    said = await bo.slash(channel, "tournament drop player:ann")
    assert "Only the organiser" in said.text
    assert "dc:tn:" in str(signup_message(channel).components)  # still open for sign-up
    await ann.slash(channel, "tournament start")
    results = Results(channel)
    met: set[frozenset[str]] = set()
    for round_number in (1, 2, 3):
        await discord.wait_for(lambda n=round_number: f"**Round {n}**" in text_of(channel),
                               timeout=60)
        pairs, _, _ = results.pairings(round_number)
        met |= {frozenset(p) for p in pairs}
        await play_round(cup, results, round_number)
        if round_number < 3:
            await discord.wait_for(lambda n=round_number: f"Standings after round {n}"
                                   in text_of(channel), timeout=30)
            said = await bo.slash(channel, "tournament next")
            assert "Only the organiser" in said.text
            await ann.slash(channel, "tournament next")
    assert len(met) == 6  # everyone met everyone once
    await discord.wait_for(lambda: "Final standings" in text_of(channel), timeout=60)


async def test_a_chip_game_swiss_of_four_with_tournament_chips(cup: World) -> None:
    """Badugi, 2 deals a table: the tables deal on by themselves and end after their deals,
    placed by net chips; the chips were the house's, lent to each table and given back, and
    no member's balance moved."""
    discord = cup.discord
    ann = discord.user("ann")
    channel = await sign_up(cup, ann, "tournament create game:Badugi rounds:2 deals:2",
                            ["ann", "bo"], ai=2)
    await ann.click(signup_message(channel), label="Start")
    results = Results(channel)
    for round_number in (1, 2):
        await discord.wait_for(lambda n=round_number: f"**Round {n}**" in text_of(channel),
                               timeout=60)
        pairs, byes, _ = results.pairings(round_number)
        assert len(pairs) == 2 and not byes
        await play_round(cup, results, round_number, deals=True)
        if round_number == 1:
            await discord.wait_for(lambda: "Standings after round 1" in text_of(channel),
                                   timeout=30)
            await ann.slash(channel, "tournament next")
    await discord.wait_for(lambda: "Final standings" in text_of(channel), timeout=60)
    tables = await rawdb.fetch(cup.database, "SELECT table_id, result, places FROM"
                               " tournament_tables ORDER BY round, number")
    assert [result for _, result, _ in tables] == ["finished"] * 4
    for table_id, _, places in tables:
        seats = await rawdb.fetch(cup.database, "SELECT r.score, r.place FROM game_results r"
                                  " JOIN games g ON g.id = r.game_id WHERE g.table_id = ?"
                                  " ORDER BY r.seat", (table_id,))
        nets = [int(net) for net, _ in seats]
        assert sum(nets) == 0 and [int(place) for _, place in seats] == \
            list(places_by_chips(nets)) == json.loads(places)
        deals = await rawdb.fetch(cup.database, "SELECT count(*) FROM table_actions WHERE"
                                  " table_id = ? AND action LIKE '[\"deal\"%'", (table_id,))
        assert int(deals[0][0]) in (1, 2)  # 2, or 1 when someone lost their whole stack
    # Tournament chips: no member's balance moved at a table; each table's account was
    # lent its stacks by the house and gave them back.
    [(moved,)] = await rawdb.fetch(cup.database, "SELECT count(*) FROM chip_ledger"
                                   " WHERE table_id IS NOT NULL")
    assert int(moved) == 0
    [(lent, back)] = await rawdb.fetch(
        cup.database, "SELECT count(*), coalesce(sum(delta), 0) FROM chip_account_ledger"
        " WHERE account = 'house' AND table_id IS NOT NULL")
    assert int(lent) >= 16 and int(back) == 0
    [(kept,)] = await rawdb.fetch(cup.database, "SELECT count(*) FROM chip_accounts"
                                  " WHERE account LIKE 'table:%' AND balance <> 0")
    assert int(kept) == 0
