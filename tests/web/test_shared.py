"""What the web shares between visitors to stay fast (issue 25's speed targets) keeps every
page right: a step picture is drawn once, kept within its bound in bytes, sent with an ETag
and as never changing, in the reader's language; a live table's event streams share one
reader and its page is kept under the table's version, so a move shows at once; and
bench/web.py's kept databases are refused when filled otherwise."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.web_site import (
    ALICE,
    CAROL,
    CHANNEL,
    GUILD,
    OTHER,
    Site,
    finished_guessing,
    next_event,
)
from web.live import _WATCHES
from web.replay import Pictures
from web.replay_runner import Runner
from web.replayed_games import Entry, Replays

ROOT = Path(__file__).resolve().parents[2]


async def test_pictures_kept_stay_within_their_bytes() -> None:
    pictures = Pictures(max_bytes=1000)
    drawn: list[int] = []

    def drawer(n: int) -> Any:
        async def draw() -> bytes:
            drawn.append(n)
            return bytes([n % 256]) * 300

        return draw

    for n in range(10):
        png, etag = await pictures.get(("g", n), drawer(n))
        assert png == bytes([n]) * 300 and etag.startswith('"')
        assert pictures.size <= 1000
    assert pictures.size == 900  # the last three
    await pictures.get(("g", 9), drawer(9))
    await pictures.get(("g", 0), drawer(0))
    assert drawn == [*range(10), 0]  # the kept one not drawn again, the dropped one drawn


async def test_the_games_replayed_kept_stay_within_their_bytes(site: Site) -> None:
    tables = [await finished_guessing(site) for _ in range(4)]
    runner = Runner()

    async def visit(replays: Replays, table_id: str) -> Entry:
        entry = await replays.get(site.writer, GUILD, table_id)
        for step in (2, 3, 4, 0):  # opened midway, stepped on, then back to the start
            await entry.frame(step, runner)
        return entry

    alone = Replays()
    one = await visit(alone, tables[0])
    assert alone.size == one.weight > sum(one.sizes.values()) > 0
    replays = Replays(max_bytes=one.weight * 5 // 2)  # two such games, not three
    entries = [await visit(replays, table_id) for table_id in tables]
    assert replays.size <= replays.max_bytes
    assert replays.size == sum(entry.weight for entry in entries[-2:])
    assert await replays.get(site.writer, GUILD, tables[-1]) is entries[-1]  # kept
    assert await replays.get(site.writer, GUILD, tables[0]) is not entries[0]  # dropped


async def test_a_picture_asked_at_once_is_drawn_once() -> None:
    pictures = Pictures()
    drawn = 0
    release = asyncio.Event()

    async def draw() -> bytes:
        nonlocal drawn
        drawn += 1
        await release.wait()
        return b"png"

    asked = [asyncio.create_task(pictures.get(("g", 1), draw)) for _ in range(3)]
    await asyncio.sleep(0)
    release.set()
    assert {await task for task in asked} == {(b"png", (await asked[0])[1])}
    assert drawn == 1


async def test_a_step_picture_is_kept_by_the_browser_and_answered_304(site: Site) -> None:
    table_id = await finished_guessing(site)
    url = f"/g/{GUILD}/replay/{table_id}/step/1.png?as=all"
    first = await site.client.get(url)
    body = await first.read()
    etag = first.headers["ETag"]
    assert first.status == 200 and body.startswith(b"\x89PNG")
    assert first.headers["Cache-Control"] == "public, max-age=86400, immutable"
    again = await site.client.get(url, headers={"If-None-Match": etag})
    assert again.status == 304 and again.headers["ETag"] == etag
    assert await (await site.client.get(url)).read() == body  # kept: the same bytes
    swedish = await site.client.get(url, headers={"Accept-Language": "sv"})
    assert swedish.headers["ETag"] != etag  # its title in Swedish: another picture
    other_step = await site.client.get(f"/g/{GUILD}/replay/{table_id}/step/2.png?as=all")
    assert other_step.headers["ETag"] != etag
    # Another server's path to this game finds nothing, kept picture or not.
    assert (await site.client.get(f"/g/{OTHER}/replay/{table_id}/step/1.png?as=all")
            ).status == 404


async def _live_table(site: Site) -> str:
    service = site.service
    table_id, _ = await service.open_table(GUILD, CHANNEL, ALICE, "Alice", "poangpoker", {})
    await service.lobby_action(table_id, CAROL, "Carol", "join")
    await service.lobby_action(table_id, ALICE, "Alice", "start")
    return table_id


async def _move(site: Site, table_id: str) -> None:
    table = site.service.tables[table_id]
    seat = min(table.require_game().to_act)
    await site.service.act(table_id, table.seats[seat].user_id or 0, seat,
                           table.stamp(seat)[0], 0)


def _step_on(html: str) -> str:
    import re

    found = re.search(r'data-step="(\d+)"', html)
    assert found is not None
    return found.group(1)


async def test_a_live_tables_page_shows_a_move_at_once(site: Site) -> None:
    table_id = await _live_table(site)
    page = f"/g/{GUILD}/table/{table_id}"
    before = await (await site.client.get(page)).text()
    assert await (await site.client.get(page)).text() == before  # kept
    await _move(site, table_id)
    after = await (await site.client.get(page)).text()
    assert int(_step_on(after)) > int(_step_on(before))
    assert (await site.client.get(f"/g/{OTHER}/table/{table_id}")).status == 404


async def test_a_live_tables_streams_share_one_reader(site: Site) -> None:
    table_id = await _live_table(site)
    events = f"/g/{GUILD}/table/{table_id}/events"
    watches = site.client.app[_WATCHES]
    async with site.client.get(events) as one, site.client.get(events) as two:
        first = [await next_event(one), await next_event(two)]
        assert list(watches) == [(GUILD, table_id)]  # one reader for both streams
        assert watches[(GUILD, table_id)].streams == 2
        await _move(site, table_id)
        moved = [await next_event(one), await next_event(two)]
        for (name, before), (moved_name, after) in zip(first, moved, strict=True):
            assert name == moved_name == "board"
            assert int(str(after["step"])) > int(str(before["step"]))
        assert moved[0][1] == moved[1][1]
    for _ in range(400):  # the streams closed: the reader stops, once the server sees it
        if not watches:
            break
        await asyncio.sleep(0.05)
    assert not watches


# --- bench/web.py's kept databases ----------------------------------------------------------


def _bench() -> Any:
    spec = importlib.util.spec_from_file_location("bench_web", ROOT / "bench" / "web.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_web"] = module
    spec.loader.exec_module(module)
    return module


def test_the_bench_refuses_a_database_filled_otherwise(tmp_path: Path) -> None:
    bench = _bench()
    args = bench.argparse.Namespace(players=1000, games=20_000, pool=25, seed=25)
    stamp = bench.fill_stamp(args)
    with pytest.raises(SystemExit, match="was not filled to the end"):
        bench.check_stamp(tmp_path, "sqlite", stamp)
    bench.write_stamp(tmp_path, "sqlite", {**stamp, "fill": stamp["fill"] - 1})
    with pytest.raises(SystemExit, match="without --reuse"):
        bench.check_stamp(tmp_path, "sqlite", stamp)
    bench.write_stamp(tmp_path, "sqlite", stamp)
    bench.check_stamp(tmp_path, "sqlite", stamp)  # filled as this run needs: reused
    with pytest.raises(SystemExit):
        bench.check_stamp(tmp_path, "postgresql", stamp)  # each database its own stamp
    bench.forget_stamp(tmp_path, "sqlite")
    assert json.loads((tmp_path / bench.STAMPS).read_text()) == {}
