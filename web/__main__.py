"""`python -m web` (`./dev web`): the servers' web pages, over the bot's database.

`--workers N` (or WEB_WORKERS; default one a core) runs N processes serving the one port
(SO_REUSEPORT: the kernel spreads the connections, and a worker holding more than its share
closes some: `web.balance`), each with its own read-only store and caches: a page is
rendered by Python, which uses one core a process, so one process would queue every client
behind one core. The first process watches the others: when one stops, all stop, with its
exit code.

A wrong setting, a database that is missing or older than this code, or a server whose
pages are for members while log-in is not set up stops it at once with one sentence and exit
code 2, as the bot does."""

from __future__ import annotations

import argparse
import asyncio
import logging
import multiprocessing
import os
import signal
import sys
import time
from dataclasses import replace
from multiprocessing.connection import wait

from aiohttp import web

from bot import wordlists
from bot.collector import settle_garbage_collector
from bot.plugins import install_plugins
from bot.settings import SettingsError
from bot.store import Store, StoreError
from bot.wordlists import data_dir_words
from engine.words import set_word_source
from web.app import Config
from web.balance import Shares, WorkerShare
from web.settings import WebSettings, load_web_settings
from web.site import make_app

EXIT_CONFIG = 2
STOP_SECONDS = 10.0  # a worker still running this long after SIGTERM gets SIGKILL
log = logging.getLogger("web")


def config_of(settings: WebSettings) -> Config:
    return Config(url=settings.url, can_log_in=settings.can_log_in,
                  client_id=settings.client_id, client_secret=settings.client_secret,
                  discord_api=settings.discord_api,
                  discord_authorize=settings.discord_authorize,
                  secure_cookies=bool(settings.url and settings.url.startswith("https://")))


async def members_without_log_in(store: Store, settings: WebSettings) -> str | None:
    """The sentence to stop with when a server's pages are for members but nobody could
    log in (WEB_SECRET, DISCORD_CLIENT_ID or DISCORD_CLIENT_SECRET missing)."""
    if settings.can_log_in:
        return None
    async with store._read() as conn:
        row = await conn.fetch_one(
            "SELECT count(*) FROM guild_settings WHERE key = 'web' AND value = ?",
            ('"members"',))
    if row is None or int(row[0]) == 0:
        return None
    missing = [name for name, value in (("WEB_SECRET", settings.secret),
                                        ("DISCORD_CLIENT_ID", settings.client_id),
                                        ("DISCORD_CLIENT_SECRET", settings.client_secret))
               if not value]
    return (f"{int(row[0])} server(s) show their web page to members only, who log in with "
            f"Discord: set {', '.join(missing)} (the application's OAuth2 id and secret, and "
            "a random string of at least 32 characters to sign sessions).")


async def open_checked(settings: WebSettings) -> Store | int:
    """The store, read-only; or exit code 2 after one sentence when the database or the
    log-in settings cannot serve."""
    try:
        store = await Store.open_read_only(settings.database)
    except StoreError as error:
        print(error, file=sys.stderr)
        return EXIT_CONFIG
    try:
        problem = await members_without_log_in(store, settings)
    except BaseException:
        await store.close()
        raise
    if problem:
        await store.close()
        print(problem, file=sys.stderr)
        return EXIT_CONFIG
    return store


async def preflight(settings: WebSettings) -> int | None:
    """`open_checked`'s exit code, or None when the web can serve. Run once before the
    workers start, so a sentence is said once."""
    opened = await open_checked(settings)
    if isinstance(opened, int):
        return opened
    await opened.close()
    return None


async def serve(settings: WebSettings, *, reuse_port: bool = False,
                share: WorkerShare | None = None) -> int:
    """Serve the pages until a signal stops it; `reuse_port` and `share` for one of several
    workers (`run_workers`)."""
    store = await open_checked(settings)
    if isinstance(store, int):
        return store
    try:
        install_plugins()  # each game's renderer: the boards look as in Discord
        wordlists.install(settings.data_dir)  # a word game's table is restored with its words
        # A word game's snapshot loads its word finder: the bot's lists (DATA_DIR), as the
        # bot's own `replay` command reads them (a live Sppoker table failed without them).
        set_word_source(data_dir_words())
        app = make_app(store, config_of(settings), secret=settings.secret,
                       rate=settings.rate, burst=settings.burst, replay_processes=True)
        runner = web.AppRunner(app, access_log=None)
        if share is not None:  # before `setup`, which freezes the application's hooks
            app.on_response_prepare.append(
                share.closing_hook(lambda: len(runner.server.connections)
                                   if runner.server is not None else 0))
        await runner.setup()
        try:
            site = web.TCPSite(runner, settings.host, settings.port, reuse_port=reuse_port)
            try:
                await site.start()
            except OSError as error:
                print(f"Cannot listen on {settings.host}:{settings.port} ({error.strerror}); "
                      "set WEB_HOST and WEB_PORT to a free address.", file=sys.stderr)
                return EXIT_CONFIG
            log.info("serving the web pages on http://%s:%s", settings.host, settings.port)
            # As in the bot: a full collection walked every object the worker held (its
            # modules, the games' renderers, the caches' indexes) every few dozen pages, and
            # each one held up every page behind it: on SQLite, most of the player page's
            # p95 in bench/web.py (114-121 ms; 55-66 with it).
            settle_garbage_collector()
            stop = asyncio.Event()  # SIGTERM (docker stop) and SIGINT end it cleanly
            loop = asyncio.get_running_loop()
            for signal_number in (signal.SIGTERM, signal.SIGINT):
                loop.add_signal_handler(signal_number, stop.set)
            await stop.wait()
        finally:
            await runner.cleanup()
    finally:
        await store.close()
    return 0


def _worker(settings: WebSettings, share: WorkerShare) -> None:
    """One of several processes on the port (a child of `run_workers`)."""
    try:
        code = asyncio.run(serve(settings, reuse_port=True, share=share))
    except KeyboardInterrupt:
        code = 0
    raise SystemExit(code)


def run_workers(settings: WebSettings) -> int:
    """`settings.workers` processes serving the port side by side, until a signal stops
    them (passed on to each) or one of them stops (then the others are stopped too, and its
    exit code is this one's: a port in use stops them all with code 2)."""
    code = asyncio.run(preflight(settings))
    if code is not None:
        return code
    context = multiprocessing.get_context("fork")  # the settings and plugins as loaded here
    shares = Shares(context, settings.workers)  # the connections each holds (web.balance)
    workers = [context.Process(target=_worker, args=(settings, shares.worker(n)),
                               name=f"web-{n}", daemon=False)
               for n in range(settings.workers)]
    stopping_since: float | None = None

    def stop(signal_number: int, _frame: object) -> None:
        nonlocal stopping_since
        if stopping_since is None:
            stopping_since = time.monotonic()
        for worker in workers:
            if worker.pid is not None and worker.exitcode is None:
                os.kill(worker.pid, signal.SIGTERM)

    for worker in workers:
        worker.start()
    previous = {number: signal.signal(number, stop)
                for number in (signal.SIGTERM, signal.SIGINT)}
    try:
        log.info("%d web workers on port %d", len(workers), settings.port)
        first_code = 0
        while any(worker.exitcode is None for worker in workers):
            wait([worker.sentinel for worker in workers if worker.exitcode is None],
                 timeout=1.0)
            for worker in workers:
                if worker.exitcode is not None and stopping_since is None:
                    first_code = worker.exitcode  # one stopped by itself: the others follow
                    stop(signal.SIGTERM, None)
            if stopping_since is not None and time.monotonic() - stopping_since > STOP_SECONDS:
                for worker in workers:  # one that does not stop in time is stopped
                    if worker.pid is not None and worker.exitcode is None:
                        os.kill(worker.pid, signal.SIGKILL)
        return first_code
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m web",
                                     description="The servers' web pages (issue 25).")
    parser.add_argument("--workers", type=int, default=None,
                        help="processes serving the port side by side (WEB_WORKERS; "
                             "default: one a core)")
    args = parser.parse_args(argv)
    try:
        settings = load_web_settings()
    except SettingsError as error:
        print(error, file=sys.stderr)
        return EXIT_CONFIG
    if args.workers is not None:
        if not 1 <= args.workers <= 64:
            print("--workers must be a number of processes from 1 to 64.", file=sys.stderr)
            return EXIT_CONFIG
        settings = replace(settings, workers=args.workers)
    logging.basicConfig(level=settings.log_level,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if settings.workers > 1:
        return run_workers(settings)
    try:
        return asyncio.run(serve(settings))
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
