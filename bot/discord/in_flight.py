"""The interactions this process is still answering, so that a stop lets them finish.

A command or a click runs as tasks of its own (discord.py starts them from the gateway's
INTERACTION_CREATE: the command tree's invoker, a button's dispatch, the `on_interaction`
event). A stop (SIGINT from `docker stop`, SIGTERM, Ctrl+C) closes the store; a task still
running then meets a closed store halfway through its work ("pool is closing"): a table
opened whose messages were never remembered, a traceback in the log, the person told
nothing. So the bot stops in two steps: first it answers no new interaction but "restarting"
(`closing`) and waits, a bounded time, for the ones already started (`drain`); only then does
it close the tables, the sender and the store (bot.discord.app `close`).

Which tasks an interaction started is read rather than guessed from discord.py's task names:
the parser runs synchronously, and while it runs a task factory (asyncio's own hook,
`loop.set_task_factory`) notes every task created. Comparing `asyncio.all_tasks()` before and
after would be as exact, but costs a copy of every task in the process at each click: some
6 ms with a thousand tables' five thousand tasks.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

log = logging.getLogger(__name__)

Parser = Callable[[dict[str, Any]], None]
DRAIN_SECONDS = 5.0
"""How long a stop waits for the interactions under way. A command answers in well under a
second; `docker stop` kills after 10 s by default, and closing the tables and the sender
after the wait needs a moment too."""


class InFlight:
    """Wraps one bot process's gateway INTERACTION_CREATE handler (install it before the
    InteractionRouter, which then passes interactions on to it)."""

    def __init__(self, parsers: dict[str, Parser],
                 refuse_closing: Callable[[dict[str, Any]], Coroutine[Any, Any, None]]) -> None:
        self._parsers = parsers
        self._parse: Parser = parsers["INTERACTION_CREATE"]
        self._refuse_closing = refuse_closing
        self._tasks: set[asyncio.Future[Any]] = set()
        self._deadline: float | None = None  # set by the first `drain`: stopping since

    def install(self) -> None:
        self._parsers["INTERACTION_CREATE"] = self.parse

    @property
    def closing(self) -> bool:
        """Whether a stop has begun: interactions are refused, not run."""
        return self._deadline is not None

    @property
    def under_way(self) -> int:
        """The tasks of interactions not yet finished."""
        return len(self._tasks)

    def parse(self, data: dict[str, Any]) -> None:
        if self.closing:
            self.track(asyncio.get_running_loop().create_task(self._refuse_closing(data)))
            return
        loop = asyncio.get_running_loop()
        previous = loop.get_task_factory()
        started: list[asyncio.Future[Any]] = []

        def noting(loop: asyncio.AbstractEventLoop, coro: Any, **options: Any
                   ) -> asyncio.Future[Any]:
            task = (previous(loop, coro, **options) if previous is not None
                    else asyncio.Task(coro, loop=loop, **options))
            started.append(task)
            return task

        loop.set_task_factory(noting)
        try:
            self._parse(data)
        finally:
            loop.set_task_factory(previous)
        for task in started:
            self.track(task)

    def track(self, task: asyncio.Future[Any]) -> None:
        """Count `task` among the interactions' work: a stop waits for it."""
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def drain(self, seconds: float = DRAIN_SECONDS) -> int:
        """Stop taking interactions, and wait up to `seconds` from the first call for those
        under way (and for the refusals sent meanwhile); how many were still running when
        time ran out."""
        if self._deadline is None:  # a second call waits out the first one's time, no more
            self._deadline = asyncio.get_running_loop().time() + seconds
        deadline = self._deadline
        if self._tasks:
            log.info("stopping: waiting for %d interaction task(s) under way", len(self._tasks))
        while self._tasks:
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                log.warning("stopping with %d interaction task(s) unfinished after %.0f s",
                            len(self._tasks), seconds)
                return len(self._tasks)
            await asyncio.wait(set(self._tasks), timeout=left)
        return 0
