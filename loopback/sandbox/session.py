"""One sandbox session: a loopback Discord, the real bot as a child process, the terminal.

The bot is started exactly as a server owner starts it (`python -m bot`), only pointed at the
loopback Discord by its environment, so what the sandbox shows is what Discord would show.

The sandbox keeps its own database, sandbox.sqlite3 in the bot's data directory (the
directory of DATABASE; data/ by default, as the README says), so that it never touches a real
server's scores or restores its tables into the real bot, and so that its own scores and
unfinished tables carry over from one session to the next. The pictures the bot sends are
saved beside it, a folder per session (sandbox-pictures/<date and time>), and kept after the
session, so a hand's picture can still be opened once the person has quit. For its scores
and tables to carry over, the sandbox's server, channels and people must have the same ids
every time: they are made while the loopback's clock is pinned to a fixed moment, and ids
are derived from that clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import tempfile
import time
from pathlib import Path

from bot.settings import Settings, SettingsError, load_settings
from loopback import Clock, LoopbackDiscord
from loopback.process import BotProcess
from loopback.sandbox.client import SandboxClient
from loopback.sandbox.terminal import Terminal

DATABASE_NAME = "sandbox.sqlite3"
PICTURES = "sandbox-pictures"  # beside the database: a folder per session
# Not "you": the bot says "<name> has declared", "you are <name>", which must read right.
PEOPLE = ("alice", "bob", "carol", "dave")
CHANNELS = ("general", "games")
SERVER = "Sandbox"
ID_EPOCH = 1_735_689_600.0  # 2025-01-01 UTC: where the sandbox's fixed ids are stamped


class PinnedClock(Clock):
    """Real time, except while pinned: then always the same moment, so ids made then repeat
    exactly from one session to the next."""

    def __init__(self, pinned: float) -> None:
        super().__init__()
        self.pinned: float | None = pinned

    def time(self) -> float:
        return super().time() if self.pinned is None else self.pinned

    def release(self) -> None:
        self.pinned = None


def sandbox_discord() -> LoopbackDiscord:
    """The sandbox's server, with the same ids in every session."""
    clock = PinnedClock(ID_EPOCH)
    discord = LoopbackDiscord(users=PEOPLE, guild_name=SERVER, channels=CHANNELS, clock=clock)
    clock.release()
    # The people's Discord language (what they read in private follows it): SANDBOX_LOCALE,
    # e.g. sv-SE to play in Swedish (with /table settings locale:sv for the channels).
    locale = os.environ.get("SANDBOX_LOCALE") or "en-US"
    for user in discord.state.users.values():
        user.locale = locale
    return discord


def database_path(settings: Settings) -> Path:
    """The sandbox's database: beside the bot's own (DATABASE), never the same file."""
    return settings.data_dir / DATABASE_NAME


def pictures_folder(settings: Settings, now: float | None = None) -> Path:
    """A new folder for this session's pictures, beside the sandbox's database; a temporary
    one (kept too) if the data directory cannot take it."""
    base = database_path(settings).parent / PICTURES
    stamp = time.strftime("%Y-%m-%d-%H%M%S", time.localtime(now))
    folder, number = base / stamp, 1
    while folder.exists():
        number += 1
        folder = base / f"{stamp}-{number}"
    try:
        folder.mkdir(parents=True)
    except OSError:
        return Path(tempfile.mkdtemp(prefix="dealers-choice-sandbox-"))
    return folder


def pictures_kept(files: Path) -> list[str]:
    """What to say of this session's pictures as it ends: where they are kept; a folder
    that got none is removed, saying nothing."""
    if any(files.iterdir()):
        return [f"The pictures of this session are kept in {_shown(files)}"]
    with contextlib.suppress(OSError):
        files.rmdir()
    return []


def _shown(path: Path) -> str:
    """A path as short as it can be said from where the person is."""
    with contextlib.suppress(ValueError):
        return str(path.relative_to(Path.cwd()))
    return str(path)


async def _session(terminal: Terminal, database: Path, files: Path) -> int:
    database.parent.mkdir(parents=True, exist_ok=True)
    log = database.with_name(database.name + ".log")
    log.write_bytes(b"")  # one session's log, beside the database it belongs to
    async with sandbox_discord() as discord:
        # DEV_GUILD from a .env would aim the command sync at a real server; no such thing here.
        bot = BotProcess(discord, database, log_path=log, extra_env={"DEV_GUILD": ""})
        # Made before the bot starts, so that what the bot posts at start-up is shown too.
        client = SandboxClient(discord, terminal, files=files)
        terminal.show(["Starting the loopback Discord and the bot (python -m bot)..."])
        try:
            return await _play(terminal, discord, bot, client, database, files)
        finally:
            if bot.process is not None and bot.process.returncode is None:
                terminal.show(["Stopping the bot..."])
            await bot.stop()


async def _play(terminal: Terminal, discord: LoopbackDiscord, bot: BotProcess,
                client: SandboxClient, database: Path, files: Path) -> int:
    try:
        # Two minutes: the bot's start-up (dictionaries, tables, the database) took over the
        # default 30 s on a busy two-core machine. A bot that exits is told at once anyway.
        await bot.start(ready_timeout=120)
    except RuntimeError as error:
        terminal.show([f"The bot did not start: {error}", f"Its log: {_shown(bot.log_path)}"])
        return 1
    assert bot.process is not None
    others = ", ".join(PEOPLE[1:-1]) + f" and {PEOPLE[-1]}"
    terminal.show([
        "",
        f'Dealer\'s Choice sandbox: a Discord server ("{SERVER}") in your terminal.',
        f"You are {PEOPLE[0]}; {others} are here too (type: as bob).",
        f"Channels: {', '.join('#' + c for c in CHANNELS)}.",
        f"Scores are kept in {_shown(database)}; the bot's log is {_shown(bot.log_path)}.",
        f"Pictures the bot sends are saved in {_shown(files)} (and kept when you quit).",
        "Try: /sppoker start target:3   then: click Add AI   click Start",
        "Type help for everything else.",
        "",
    ])
    await client.flush()
    if discord.state.feed:  # the bot spoke first: tables it restored from last time
        terminal.show([
            "",
            "The bot brought back a table from your last sandbox session. Its old messages",
            "went with that session: /table status shows the table, Show my hand your cards",
            "and choices; /table abort ends it.",
        ])
    exit_code = await client.run(stopped=bot.process.wait())
    if exit_code is not None:
        terminal.show([f"The bot stopped unexpectedly (exit code {exit_code}). "
                       "The end of its log:", bot.log_tail(20), *pictures_kept(files)])
        return 1
    terminal.show(["Stopping the bot..."])
    await bot.stop()
    terminal.show([*pictures_kept(files), "Bye."])
    return 0


async def _main(terminal: Terminal, database: Path, files: Path) -> int:
    """The session, ended cleanly however the person leaves: a closed terminal (SIGHUP) or
    a `kill` (SIGTERM) must stop the bot too, or it would linger, retrying forever."""
    session = asyncio.current_task()
    assert session is not None
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGHUP):
        with contextlib.suppress(NotImplementedError, RuntimeError, AttributeError):
            loop.add_signal_handler(signum, session.cancel)
    try:
        return await _session(terminal, database, files)
    except asyncio.CancelledError:
        terminal.show([*pictures_kept(files), "Bye."])
        return 0


def run_sandbox() -> int:
    """`python -m bot --sandbox`: play without a Discord account. The exit code is 0 after
    quit (or Ctrl-C), 1 if the bot could not start or stopped by itself, 2 (with one
    sentence) if a setting is wrong, as for the bot itself."""
    try:
        settings = load_settings()
    except SettingsError as error:
        print(error, file=sys.stderr)
        return 2
    terminal = Terminal()
    files = pictures_folder(settings)
    try:
        with terminal.keep_settings():
            return asyncio.run(_main(terminal, database_path(settings), files))
    except KeyboardInterrupt:  # a second Ctrl-C while stopping
        return 0
    finally:
        terminal.close()
        if files.exists() and not any(files.iterdir()):  # however it ended: no empty folder
            with contextlib.suppress(OSError):
                files.rmdir()
