"""Several web workers keep their connections even (`web.balance`): a worker holding more
than an even share of all the workers' connections answers with "Connection: close", one at
its share or under keeps the connection alive; the counts live in memory the forked workers
share."""

from __future__ import annotations

import multiprocessing

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from web.balance import Shares, WorkerShare


def test_a_worker_over_an_even_share_is_over() -> None:
    shares = Shares(multiprocessing.get_context("fork"), 2)
    first, second = shares.worker(0), shares.worker(1)
    assert first.over_share(3)  # 3 of 3: an even share is 2
    assert not second.over_share(3)  # 3 of 6
    assert not first.over_share(3)
    assert first.over_share(5)  # 5 of 8
    assert not second.over_share(1)  # 1 of 6
    assert first.over_share(4)  # 4 of 5
    assert not second.over_share(2)  # 2 of 6
    assert not first.over_share(3)  # 3 of 5: an even share is 3


def test_the_counts_are_seen_across_a_fork() -> None:
    context = multiprocessing.get_context("fork")
    shares = Shares(context, 2)
    child = context.Process(target=_hold_seven, args=(shares.worker(1),))
    child.start()
    child.join(timeout=60)
    assert child.exitcode == 0
    assert shares.worker(0).over_share(1) is False  # 1 of 8: the child's 7 are seen
    assert shares.worker(0).over_share(9)


def _hold_seven(share: WorkerShare) -> None:
    share.over_share(7)


async def test_a_response_of_a_worker_over_its_share_closes_its_connection() -> None:
    shares = Shares(multiprocessing.get_context("fork"), 2)
    mine, other = shares.worker(0), shares.worker(1)
    held = {"now": 1}
    app = web.Application()

    async def page(request: web.Request) -> web.Response:
        return web.Response(text="page")

    app.router.add_get("/", page)
    app.on_response_prepare.append(mine.closing_hook(lambda: held["now"]))
    async with TestClient(TestServer(app)) as client:
        other.over_share(1)
        answer = await client.get("/")  # 1 of 2
        assert answer.status == 200 and answer.headers.get("Connection") != "close"
        await answer.release()
        held["now"] = 4
        answer = await client.get("/")  # 4 of 5
        assert answer.status == 200 and answer.headers["Connection"] == "close"
        await answer.release()
        other.over_share(4)
        answer = await client.get("/")  # 4 of 8
        assert answer.status == 200 and answer.headers.get("Connection") != "close"
        await answer.release()
