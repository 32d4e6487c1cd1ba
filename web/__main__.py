"""`python -m web` (`./dev web`): the servers' web pages, over the bot's database.

A wrong setting, a database that is missing or older than this code, or a server whose
pages are for members while log-in is not set up stops it at once with one sentence and exit
code 2, as the bot does."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys

from aiohttp import web

from bot import wordlists
from bot.plugins import install_plugins
from bot.settings import SettingsError
from bot.store import Store, StoreError
from bot.wordlists import data_dir_words
from engine.words import set_word_source
from web.app import Config
from web.settings import WebSettings, load_web_settings
from web.site import make_app

EXIT_CONFIG = 2
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


async def serve(settings: WebSettings) -> int:
    try:
        store = await Store.open_read_only(settings.database)
    except StoreError as error:
        print(error, file=sys.stderr)
        return EXIT_CONFIG
    try:
        problem = await members_without_log_in(store, settings)
        if problem:
            print(problem, file=sys.stderr)
            return EXIT_CONFIG
        install_plugins()  # each game's renderer: the boards look as in Discord
        wordlists.install(settings.data_dir)  # a word game's table is restored with its words
        # A word game's snapshot loads its word finder: the bot's lists (DATA_DIR), as the
        # bot's own `replay` command reads them (a live Sppoker table failed without them).
        set_word_source(data_dir_words())
        app = make_app(store, config_of(settings), secret=settings.secret,
                       rate=settings.rate, burst=settings.burst)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        try:
            site = web.TCPSite(runner, settings.host, settings.port)
            try:
                await site.start()
            except OSError as error:
                print(f"Cannot listen on {settings.host}:{settings.port} ({error.strerror}); "
                      "set WEB_HOST and WEB_PORT to a free address.", file=sys.stderr)
                return EXIT_CONFIG
            log.info("serving the web pages on http://%s:%s", settings.host, settings.port)
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


def main() -> int:
    try:
        settings = load_web_settings()
    except SettingsError as error:
        print(error, file=sys.stderr)
        return EXIT_CONFIG
    logging.basicConfig(level=settings.log_level,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        return asyncio.run(serve(settings))
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
