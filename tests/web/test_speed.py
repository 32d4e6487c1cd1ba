"""What makes the web pages fast (issue 25's speed target) keeps them right: the caches under
a server's latest ended game (a newly finished game shows at once; one server's pages never
answer for another's; a renamed player shows after the next game, or once the page has aged),
the ETag and its 304, the boards sorted by the web as the store sorts them, a replay's steps
served from one replay as a fresh replay shows them, and `python -m web --workers N`."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path

import aiohttp
import pytest
from aiohttp.test_utils import make_mocked_request

from bot.core.replays import PlayedGame
from bot.present import i18n
from bot.settings import SettingsError
from bot.store import ChipChange, Store
from bot.store.web_reads import PlayerPage, rank_board
from engine.notation import Replayer
from tests.support.finished_games import finished
from tests.support.web_process import web_process
from tests.support.web_site import ALICE, BOB, CAROL, GUILD, OTHER, Site, finished_guessing, record
from web.app import once_per_language, word
from web.caches import RenderCache
from web.replay_runner import Runner
from web.replayed_games import Entry, Replays, weigh
from web.settings import load_web_settings


def users_on(html: str) -> list[str]:
    return re.findall(r'data-user="(\d+)"', html)


async def test_a_newly_finished_game_shows_at_once(site: Site) -> None:
    await record(site.writer, GUILD, "poke", [(ALICE, 5), (CAROL, 1)])
    board = f"/g/{GUILD}/leaderboard/poke?order=wins"
    assert users_on(await (await site.client.get(board)).text())[:1] == [str(ALICE)]
    player = await (await site.client.get(f"/g/{GUILD}/player/{CAROL}")).text()
    for _ in range(2):  # Carol now wins two: first on the board at once, her page too
        await record(site.writer, GUILD, "poke", [(CAROL, 7), (ALICE, 2)])
    assert users_on(await (await site.client.get(board)).text())[:1] == [str(CAROL)]
    again = await (await site.client.get(f"/g/{GUILD}/player/{CAROL}")).text()
    assert again != player and again.count("class=\"winner\"") > player.count("class=\"winner\"")
    home = await (await site.client.get(f"/g/{GUILD}")).text()
    assert home.count(f"/player/{CAROL}") >= 3  # each of her three games in the results


async def test_another_servers_cache_never_answers_here(site: Site) -> None:
    await record(site.writer, GUILD, "poke", [(ALICE, 5), (BOB, 1)])
    await record(site.writer, OTHER, "poke", [(CAROL, 5), (BOB, 1)])
    for _ in range(2):  # asked twice: the second answers come from the caches
        here = await (await site.client.get(f"/g/{GUILD}/leaderboard/poke")).text()
        there = await (await site.client.get(f"/g/{OTHER}/leaderboard/poke")).text()
        assert set(users_on(here)) == {str(ALICE), str(BOB)}
        assert set(users_on(there)) == {str(CAROL), str(BOB)}
        assert (await site.client.get(f"/g/{GUILD}/player/{CAROL}")).status == 404
        assert (await site.client.get(f"/g/{OTHER}/player/{ALICE}")).status == 404
        bob_here = await (await site.client.get(f"/g/{GUILD}/player/{BOB}")).text()
        assert f"/g/{GUILD}/player/{ALICE}" in bob_here and str(CAROL) not in bob_here


async def test_a_renamed_player_shows_after_the_next_game(site: Site) -> None:
    await record(site.writer, GUILD, "poke", [(ALICE, 5), (CAROL, 1)])
    page = f"/g/{GUILD}/player/{CAROL}"
    assert "Carol" in await (await site.client.get(page)).text()
    await site.writer.upsert_player(CAROL, "Caroline")
    await record(site.writer, GUILD, "poke", [(ALICE, 5), (CAROL, 1)])
    html = await (await site.client.get(page)).text()
    assert "Caroline" in html
    board = await (await site.client.get(f"/g/{GUILD}/leaderboard/poke")).text()
    assert "Caroline" in board


async def test_a_chip_move_shows_on_the_chips_board_at_once(site: Site) -> None:
    board = f"/g/{GUILD}/leaderboard/chips"
    await site.writer.balance(GUILD, ALICE, 100)
    await site.writer.balance(GUILD, BOB, 50)
    await site.writer.balance(OTHER, CAROL, 500)
    for _ in range(2):  # asked twice: the second answer is the kept page
        assert users_on(await (await site.client.get(board)).text()) == [str(ALICE), str(BOB)]
    await site.writer.apply_chip_changes(GUILD, [ChipChange(BOB, 70, "grant")])
    assert users_on(await (await site.client.get(board)).text()) == [str(BOB), str(ALICE)]
    await site.writer.balance(GUILD, CAROL, 0)  # an account opened empty: no ledger row
    assert users_on(await (await site.client.get(board)).text()) == \
        [str(BOB), str(ALICE), str(CAROL)]
    await site.writer.claim_daily(GUILD, CAROL, 1000)
    assert users_on(await (await site.client.get(board)).text())[0] == str(CAROL)
    # Another server's board, as many accounts and kept under the same latest move, is its own.
    await site.writer.balance(OTHER, ALICE, 1)
    await site.writer.balance(OTHER, BOB, 1)
    there = await (await site.client.get(f"/g/{OTHER}/leaderboard/chips")).text()
    assert users_on(there) == [str(CAROL), str(ALICE), str(BOB)]
    here = await (await site.client.get(board)).text()
    assert users_on(here) == [str(CAROL), str(BOB), str(ALICE)]


def test_fixed_words_are_kept_per_language_until_the_catalogues_load_again() -> None:
    made: list[str] = []

    def make(text: str) -> Callable[[], str]:
        def made_now() -> str:
            made.append(text)
            return text
        return made_now

    before = i18n.current()
    i18n.set_current("sv")
    try:
        assert word("Replay") == "Repris"
        assert once_per_language("probe", make("sv")) == "sv"
        i18n.set_current("en")
        assert word("Replay") == "Replay"
        assert word("Page {n} of {pages}", n=2, pages=3) == "Page 2 of 3"  # fields: each time
        for _ in range(2):
            assert once_per_language("probe", make("en")) == "en"
        assert made == ["sv", "en"]
        i18n.load()  # catalogues loaded again: nothing kept answers from the old ones
        assert once_per_language("probe", make("again")) == "again"
    finally:
        i18n.set_current(before)


async def test_a_page_unchanged_is_answered_304_by_its_etag(site: Site) -> None:
    await record(site.writer, GUILD, "poke", [(ALICE, 5), (CAROL, 1)])
    path = f"/g/{GUILD}/leaderboard/poke"
    first = await site.client.get(path)
    etag = first.headers["ETag"]
    same = await site.client.get(path, headers={"If-None-Match": etag})
    assert same.status == 304 and same.headers["ETag"] == etag
    assert same.headers["Cache-Control"] == "private, no-cache"  # asked again each time
    await record(site.writer, GUILD, "poke", [(CAROL, 5), (ALICE, 1)])
    changed = await site.client.get(path, headers={"If-None-Match": etag})
    assert changed.status == 200 and changed.headers["ETag"] != etag


async def test_the_render_cache_ages_pages_and_keeps_to_its_bytes() -> None:
    from aiohttp import web

    now = [0.0]
    cache = RenderCache(max_bytes=25, seconds=60, clock=lambda: now[0])
    renders: list[str] = []

    def maker(text: str) -> Callable[[], Awaitable[web.Response]]:
        async def make() -> web.Response:
            renders.append(text)
            await asyncio.sleep(0)
            return web.Response(text=text)
        return make

    request = make_mocked_request("GET", "/g/1/leaderboard/poke")
    pages = await asyncio.gather(*(cache.page(request, ("board", 1), 7, maker("ten bytes!"))
                                   for _ in range(5)))
    assert [page.body for page in pages] == [b"ten bytes!"] * 5 and len(renders) == 1
    other = make_mocked_request("GET", "/g/2/leaderboard/poke")
    assert (await cache.page(other, ("board", 2), 7, maker("server two"))).body == b"server two"
    now[0] = 61.0  # aged: rendered again (a renamed player shows within a minute)
    assert (await cache.page(request, ("board", 1), 7, maker("renamed!!!"))).body == \
        b"renamed!!!"
    assert cache.size <= 25  # three pages of ten bytes do not all stay


def test_rank_board_refuses_an_order_it_cannot_sort() -> None:
    with pytest.raises(ValueError):
        rank_board([], "rating")


async def test_the_boards_the_web_sorts_are_the_stores(database: Path | str) -> None:
    store = await Store.open(database)
    await store.set_guild_setting(GUILD, "web", "public")
    reader = await Store.open_read_only(database)
    try:
        rng = random.Random(7)
        people = list(range(200, 230))
        for user in people:
            await store.upsert_player(user, f"P{user}")
        for n in range(60):  # small scores and counts: many ties to break alike
            a, b = rng.sample(people, 2)
            game = rng.choice(("poke", "chicago"))
            await record(store, GUILD, game, [(a, rng.randint(0, 3)), (b, rng.randint(0, 3))],
                         minutes=n)
        for kind in ("poke", "chicago", None):
            totals = await reader.board_totals(GUILD, kind)
            assert len(totals) == await store.leaderboard_size(GUILD, kind)
            orders = ("wins", "games", "win_rate") + (("points", "best") if kind else ())
            for order in orders:
                expected = await store.leaderboard(GUILD, kind, order, 100, 0)  # type: ignore[arg-type]
                assert rank_board(totals, order) == expected, (kind, order)
        for user in people[:5]:
            assert await reader.player_records(GUILD, user) == \
                await store.player_stats(GUILD, user)
            ratings = await reader.player_ratings_here(GUILD, user)
            assert ratings and ratings == await store.player_ratings(GUILD, user)
            # The player's page in one read says what the reads one by one say.
            page = await reader.player_page(GUILD, user, 3)
            assert page.name == f"P{user}" and page.ratings == ratings
            assert page.records == await store.player_stats(GUILD, user)
            assert page.recent == await reader.recent_results(GUILD, 3, user_id=user)
            assert len(page.recent) == 3 and all(len(game.seats) == 2 for game in page.recent)
        assert await reader.player_page(GUILD, 999, 3) == PlayerPage(None, {}, {}, [])
        assert (await reader.player_page(OTHER, people[0], 3)).recent == []
        settings, latest = await reader.guild_page_state(GUILD)
        assert latest == await reader.latest_game(GUILD) > 0
        assert settings == await store.guild_settings(GUILD)
    finally:
        await reader.close()
        await store.close()


async def test_a_replays_steps_in_any_order_are_a_fresh_replays(site: Site) -> None:
    table_id = await finished_guessing(site)
    replays = Replays()
    entry = await replays.get(site.writer, GUILD, table_id)
    order = list(range(len(entry.replayer)))
    random.Random(3).shuffle(order)
    runner = Runner()
    shown = {index: await entry.frame(index, runner) for index in order}
    assert entry.chapters == Replayer(entry.notation).chapters()
    for index, frame in shown.items():
        fresh = Replayer(entry.notation).frame(index)
        assert frame.public.to_json() == fresh.public.to_json()
        assert [view.to_json() for view in frame.views] == \
            [view.to_json() for view in fresh.views]
        assert (frame.notes, frame.recent, frame.events) == \
            (fresh.notes, fresh.recent, fresh.events)
    assert await replays.get(site.writer, GUILD, table_id) is entry  # replayed once


@pytest.mark.parametrize("processes", [False, True], ids=["threads", "process"])
async def test_a_visit_shows_what_a_fresh_replay_shows(processes: bool) -> None:
    """A visit as people make it (opened midway, stepped forward in place, now and then
    back or a jump), its long replays in threads or in a process of their own, which sends
    back a copy of the replayer: every step is what a fresh replay shows."""
    _, notation = finished("poke", 2, 11)  # a registered game: the process knows it
    when = datetime(2026, 11, 30, tzinfo=UTC)
    game = PlayedGame(1, "5eed5eed", "poke", "finished", when, when, {}, 11,
                      notation.deals[0].names, (None, None))
    replayer = Replayer(notation)
    entry = Entry(game, notation, replayer, weight=weigh(notation))
    last = len(replayer) - 1
    visit = [last // 2, last // 2 + 1, last // 2 + 2, last // 2 - 1, last // 2 + 3, 0, 1,
             last, last - 1, last // 3]
    runner = Runner(processes)
    try:
        shown = [await entry.frame(index, runner) for index in visit]
    finally:
        runner.close()
    assert entry.chapters == Replayer(notation).chapters()
    for index, frame in zip(visit, shown, strict=True):
        fresh = Replayer(notation).frame(index)
        assert frame.index == index
        assert frame.public.to_json() == fresh.public.to_json()
        assert [view.to_json() for view in frame.views] == \
            [view.to_json() for view in fresh.views]
        assert (frame.notes, frame.recent, frame.events) == \
            (fresh.notes, fresh.recent, fresh.events)


def test_workers_are_a_setting() -> None:
    assert load_web_settings({"WEB_WORKERS": "3"}, env_file=None).workers == 3
    assert load_web_settings({}, env_file=None).workers >= 1  # one a core
    with pytest.raises(SettingsError, match="WEB_WORKERS"):
        load_web_settings({"WEB_WORKERS": "none"}, env_file=None)


async def test_several_workers_serve_one_port_and_stop_together(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    writer = await Store.open(path)
    await writer.set_guild_setting(GUILD, "web", "public")
    await writer.upsert_player(ALICE, "Alice")
    await writer.upsert_player(CAROL, "Carol")
    await record(writer, GUILD, "poke", [(ALICE, 5), (CAROL, 1)])
    await writer.close()
    async with web_process(path, tmp_path / "web.log", env={"WEB_WORKERS": "2"}) as served:
        async with aiohttp.ClientSession() as session:
            for _ in range(6):  # new connections: the kernel spreads them over the workers
                async with session.get(f"{served.url}/g/{GUILD}/player/{ALICE}",
                                       headers={"Connection": "close"}) as answer:
                    assert answer.status == 200 and "Alice" in await answer.text()
        process = served.process
    assert process.wait(timeout=30) == 0  # SIGTERM: every worker stopped, cleanly
