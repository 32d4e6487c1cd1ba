"""Keeping the connections of several web workers even (`python -m web --workers N`).

The workers share the port (SO_REUSEPORT), and the kernel hands each new connection to one of
them by a hash of its addresses: at random. A browser keeps its connection from page to page,
so with a few dozen visitors at once one worker can hold twice its share while the other's
core idles, and its visitors wait twice as long: in bench/web.py (20 clients, 2 workers) a
16/4 split gave the busy worker's person pages a p95 of 76 ms and the other's 22.

So each worker writes down how many connections it holds, in memory shared with the others
(`Shares`), and a worker holding more than an even share answers a request with "Connection:
close" (`over_share`): the browser opens a new connection for its next page, which the kernel
hands out afresh, until the split is even. A connection that ends costs its browser a
handshake with the server, next to nothing beside a page.
"""

from __future__ import annotations

from collections.abc import Callable
from multiprocessing.context import BaseContext
from typing import Any

from aiohttp import hdrs, web

__all__ = ["Shares", "WorkerShare"]


class Shares:
    """The connections each worker holds, in shared memory: made before the workers are
    forked, each worker then taking its own slot (`worker`)."""

    def __init__(self, context: BaseContext, workers: int) -> None:
        # lock=False: each slot has one writer, and a count read while it changes is
        # only one connection off
        self._counts: Any = context.Array("i", workers, lock=False)
        self.workers = workers

    def worker(self, number: int) -> WorkerShare:
        return WorkerShare(self._counts, number)


class WorkerShare:
    """One worker's slot among the `Shares`."""

    def __init__(self, counts: Any, number: int) -> None:
        self._counts = counts
        self.number = number
        self.workers: int = len(counts)

    def over_share(self, held: int) -> bool:
        """Whether this worker, holding `held` connections, holds more than an even share
        of all the workers' (written down for the others to see)."""
        self._counts[self.number] = held
        total: int = sum(self._counts)
        return held > -(-total // self.workers)

    def closing_hook(self, held: Callable[[], int]
                     ) -> Callable[[web.Request, web.StreamResponse], Any]:
        """An `on_response_prepare` hook: a response of a worker over its share closes its
        connection once sent. `held`: how many connections the worker holds now."""

        async def hook(request: web.Request, response: web.StreamResponse) -> None:
            if request.keep_alive and self.over_share(held()):
                response.force_close()  # the headers are made: say so as well
                response.headers[hdrs.CONNECTION] = "close"

        return hook
