"""`python -m bot`: run the bot with DISCORD_TOKEN (exit code 2 with one clear sentence when
the token is missing or rejected, or a setting is wrong); `--sandbox` plays it locally instead;
`replay FILE` replays a finished game's notation with the bot's own word lists."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
import yarl

from bot.settings import Settings, SettingsError, load_settings
from bot.wordlists import data_dir_words
from engine.__main__ import main as replay_main

if TYPE_CHECKING:
    from bot.discord.app import DealersChoiceBot

EXIT_CONFIG = 2
log = logging.getLogger("bot")


def point_at(settings: Settings) -> None:
    """Aim discord.py at another Discord-compatible server (the loopback Discord)."""
    if settings.discord_api_base:
        discord.http.Route.BASE = settings.discord_api_base.rstrip("/")
    if settings.discord_gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway_url)


async def run(settings: Settings) -> int:
    from bot.discord.app import DealersChoiceBot

    bot = DealersChoiceBot(settings)
    stop_on_signals(bot, asyncio.current_task())
    async with bot:
        try:
            await bot.start(settings.discord_token or "")
        except discord.LoginFailure:
            print("Discord rejected DISCORD_TOKEN: copy the bot token again from the "
                  "Developer Portal (Bot → Reset Token).", file=sys.stderr)
            return EXIT_CONFIG
        except (aiohttp.ClientConnectionError, OSError) as error:
            print(f"Could not reach Discord at {discord.http.Route.BASE} ({error}); check the "
                  "network, or DISCORD_API_BASE if you set it.", file=sys.stderr)
            return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    parser.add_argument(
        "--sandbox", action="store_true",
        help="play without a Discord account: a local Discord server in this terminal, "
             "with the real bot (no DISCORD_TOKEN needed)",
    )
    commands = parser.add_subparsers(dest="command", metavar="replay")
    replay = commands.add_parser(
        "replay", help="replay a finished game's notation file in this terminal, naming the "
                       "longest words from the bot's own word lists (python -m engine replay "
                       "--help for its options)", add_help=False)
    replay.add_argument("arguments", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    if args.command == "replay":
        return replay_main(["replay", *args.arguments], default_words=data_dir_words())
    if args.sandbox:
        try:
            from loopback.sandbox import run_sandbox
        except ImportError:
            print("The sandbox is not installed here (it ships with the source checkout, not "
                  "the bot's image): run it from a checkout with ./dev run.", file=sys.stderr)
            return EXIT_CONFIG
        return run_sandbox()
    try:
        settings = load_settings()
    except SettingsError as error:
        print(error, file=sys.stderr)
        return EXIT_CONFIG
    logging.basicConfig(
        level=settings.log_level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if not settings.discord_token:
        print("DISCORD_TOKEN is not set: put your bot's token in the environment or in "
              "a .env file (see README), or play without Discord: python -m bot --sandbox",
              file=sys.stderr)
        return EXIT_CONFIG
    point_at(settings)
    try:
        with asyncio.Runner(loop_factory=loop_factory()) as runner:
            return runner.run(run(settings))
    except (KeyboardInterrupt, asyncio.CancelledError):  # SIGINT, SIGTERM: stopped cleanly
        return 0


def stop_on_signals(bot: DealersChoiceBot, main: asyncio.Task[Any] | None) -> None:
    """SIGINT (`docker stop` with the image's STOPSIGNAL, Ctrl+C) and SIGTERM (systemd,
    Kubernetes) stop the bot in two steps: first the commands and clicks under way finish
    while the gateway still reads, so that anyone who clicks meanwhile is told the bot is
    restarting rather than seeing "This interaction failed" (`InFlight.drain`); then the main
    task is cancelled, and leaving `async with bot` closes it. A second signal cancels at
    once (the close still waits out what is left of the first one's few seconds). Without
    this, SIGTERM would end the process on the spot, as kill -9 does, and SIGINT would cut
    the gateway first. A SIGINT this process was started ignoring (a background job of a
    script) stays ignored, as Python itself leaves it."""
    if main is None:
        return
    loop = asyncio.get_running_loop()
    cancelled = False
    stopping: set[asyncio.Task[None]] = set()

    def cancel() -> None:
        nonlocal cancelled
        if not cancelled:
            cancelled = True
            main.cancel()

    async def finish_then_stop() -> None:
        await bot.in_flight.drain()
        cancel()

    def stop() -> None:
        if stopping:
            cancel()
            return
        log.info("stopping: the commands and clicks under way finish first")
        task = loop.create_task(finish_then_stop())
        stopping.add(task)

    for number in (signal.SIGINT, signal.SIGTERM):
        if number == signal.SIGINT and signal.getsignal(number) is signal.SIG_IGN:
            continue
        with contextlib.suppress(NotImplementedError, RuntimeError):  # no signals on Windows
            loop.add_signal_handler(number, stop)


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop where it installs (not on Windows): the bot's work is mostly sockets (the
    gateway, REST, the database) and uvloop's loop spends about half the CPU on them that
    the standard one does, which is what lets one process carry a thousand tables."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


if __name__ == "__main__":
    sys.exit(main())
