"""Run the bot's image against the loopback Discord and prove it answers; `.ci/image` calls it.

The loopback Discord runs here (the project's .venv); the image's entry point runs in a buildah
container that shares this host's network (chroot isolation), pointed at the loopback by the
same DISCORD_* variables the end-to-end tests give `python -m bot`. Once the bot is ready, a
loopback user sends `/table status`, another opens a Sppoker table, and `/table status` must
then show it; the bot is stopped with the image's stop signal (as `docker stop` sends it) and
must exit cleanly; started again, it still shows the table, kept in its database on the /data
volume. With --postgres, all that again with DATABASE a throwaway PostgreSQL server.

    python .ci/image_check.py --container CTR --data DIR [--stop-signal SIGINT] [--postgres] \
        -- python -m bot
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import pwd
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from loopback import LoopbackDiscord
from loopback.driver import describe_rejection
from loopback.process import die_with_parent

READY_TIMEOUT = 180.0  # the first start builds the word lists from the dictionaries
STOP_TIMEOUT = 30.0
POSTGRES_BIN = Path(os.environ.get("DC_TEST_POSTGRES_BIN", "/usr/lib/postgresql/15/bin"))


def say(text: str) -> None:
    print(f"[image {time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


def entry_point(pid: int) -> int:
    """The container's first process under `buildah run` (which runs it through its own
    buildah-chroot-runtime and buildah-chroot-exec): where `docker stop` sends its signal.
    buildah itself does not pass signals on; it kills the container."""
    queue = [pid]
    while queue:
        current = queue.pop(0)
        # Not /proc/PID/comm: buildah re-executes itself through /proc/self/exe ("exe").
        argv0 = Path(f"/proc/{current}/cmdline").read_bytes().split(b"\0")[0]
        if current != pid and not Path(argv0.decode()).name.startswith("buildah"):
            return current
        for task in Path(f"/proc/{current}/task").iterdir():
            queue += [int(child) for child in (task / "children").read_text().split()]
    raise LookupError(f"no container process under buildah (pid {pid})")


class ImageBot:
    """The image's entry point in its buildah container, pointed at `discord` by its
    environment only, as the end-to-end tests start `python -m bot` (loopback.process)."""

    def __init__(self, discord: LoopbackDiscord, args: argparse.Namespace,
                 env: dict[str, str], volumes: dict[Path, str]) -> None:
        self.discord, self.args = discord, args
        self.env = discord.bot_env() | {"LOG_LEVEL": "INFO"} | env
        self.volumes = volumes
        self.log: Path = args.log
        self.process: asyncio.subprocess.Process | None = None
        self.starts = 0

    async def start(self) -> None:
        self.starts += 1
        command = ["buildah", "run", "--isolation", "chroot", "--network", "host"]
        for host, inside in self.volumes.items():
            command += ["--volume", f"{host}:{inside}"]
        for key, value in self.env.items():
            command += ["--env", f"{key}={value}"]
        command += [self.args.container, "--", *self.args.command]
        with self.log.open("ab") as log:
            log.write(f"--- start {self.starts} ---\n".encode())
            log.flush()
            self.process = await asyncio.create_subprocess_exec(
                *command, stdout=log, stderr=log, stdin=asyncio.subprocess.DEVNULL,
                preexec_fn=die_with_parent)
        started = time.monotonic()
        ready = asyncio.create_task(self.discord.wait_for_bot_ready(
            timeout=READY_TIMEOUT, identifies=self.starts))
        exited = asyncio.create_task(self.process.wait())
        done, _ = await asyncio.wait({ready, exited}, return_when=asyncio.FIRST_COMPLETED)
        if exited in done:
            ready.cancel()
            raise SystemExit(f"the image's bot exited with {exited.result()}:\n{self.tail()}")
        exited.cancel()
        try:
            ready.result()
        except Exception as error:
            raise SystemExit(f"the image's bot did not get ready: {error}\n{self.tail()}"
                             ) from error
        await self.discord.wait_for(lambda: self.text().count(" ready as ") >= self.starts,
                                    timeout=READY_TIMEOUT)
        say(f"the image's bot is ready after {time.monotonic() - started:.1f} s")

    async def stop(self) -> None:
        """The image's stop signal to its entry point; the bot must exit with 0 and no
        traceback."""
        process = self.process
        assert process is not None
        if process.returncode is not None:
            raise SystemExit(f"the image's bot died during the check:\n{self.tail()}")
        os.kill(entry_point(process.pid), signal.Signals[self.args.stop_signal])
        try:
            code = await asyncio.wait_for(process.wait(), timeout=STOP_TIMEOUT)
        except TimeoutError:
            process.kill()
            await process.wait()
            raise SystemExit(f"the bot did not stop within {STOP_TIMEOUT:.0f} s of "
                             f"{self.args.stop_signal}:\n{self.tail()}") from None
        if code != 0 or "Traceback" in self.text():
            raise SystemExit(f"the bot stopped with exit code {code}:\n{self.tail()}")
        with contextlib.suppress(Exception):
            await self.discord.wait_for(lambda: not self.discord.bot_connected, timeout=5)
        say(f"stopped by {self.args.stop_signal}: exit code 0")

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def tail(self, lines: int = 40) -> str:
        return "\n".join(self.text().splitlines()[-lines:])


async def play(discord: LoopbackDiscord, bot: ImageBot) -> None:
    """/table status; a table opened; /table status again; a restart; the table is still
    there."""
    alice, bob = discord.user("alice"), discord.user("bob")
    await bot.start()
    try:
        empty = await alice.slash("general", "table status")
        say(f"alice: /table status -> {empty.text!r}")
        assert empty.acked and empty.ephemeral, empty
        assert "No table is open" in empty.text, empty.text

        await bob.slash("general", "sppoker start")
        await discord.wait_for(lambda: discord.channel("general").last_message is not None)
        shown = await alice.slash("general", "table status")
        await shown.wait_for_message(lambda message: "Bob" in message.text)
        say(f"bob: /sppoker start; alice: /table status -> {shown.text!r}")
        assert shown.ephemeral, shown
        await bot.stop()

        await bot.start()
        kept = await alice.slash("general", "table status")
        await kept.wait_for_message(lambda message: "Bob" in message.text)
        say(f"after a restart, alice: /table status -> {kept.text.splitlines()[0]!r} ...")

        for rejected in discord.rejected():
            say(describe_rejection(rejected))
        discord.assert_no_rejected()
    except BaseException:
        say(f"the image's bot's log ends:\n{bot.tail()}")
        raise
    finally:
        if bot.process is not None and bot.process.returncode is None:
            await bot.stop()


@contextlib.contextmanager
def postgres_server(folder: Path) -> Iterator[Path]:
    """A throwaway PostgreSQL server that listens only on a unix socket in `folder`, run as
    the `postgres` user when this runs as root (PostgreSQL refuses root); yields the socket's
    folder."""
    user = "postgres" if os.geteuid() == 0 else None
    socket_dir, data = folder / "socket", folder / "data"
    socket_dir.mkdir()
    if user is not None:
        entry = pwd.getpwnam(user)
        os.chown(folder, entry.pw_uid, entry.pw_gid)
        os.chown(socket_dir, entry.pw_uid, entry.pw_gid)
    socket_dir.chmod(0o755)  # the image's user connects through it
    done = subprocess.run(
        [str(POSTGRES_BIN / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust",
         "--no-sync", "--encoding=UTF8", "--locale=C"],
        user=user, capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise SystemExit(f"initdb failed: {done.stderr[-2000:]}")
    with (folder / "postgres.log").open("wb") as log:
        server = subprocess.Popen(
            [str(POSTGRES_BIN / "postgres"), "-D", str(data), "-c", "listen_addresses=",
             "-c", f"unix_socket_directories={socket_dir}", "-c", "fsync=off"],
            user=user, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            preexec_fn=die_with_parent)
    try:
        deadline = time.monotonic() + 30
        while not (socket_dir / ".s.PGSQL.5432").exists() and server.poll() is None:
            if time.monotonic() > deadline:
                break
            time.sleep(0.05)
        ready = subprocess.run(
            [str(POSTGRES_BIN / "pg_isready"), "-h", str(socket_dir), "-t", "30", "-q"],
            timeout=60)
        if ready.returncode != 0:
            raise SystemExit("PostgreSQL did not accept connections within 30 s: "
                             + (folder / "postgres.log").read_text(errors="replace")[-2000:])
        yield socket_dir
    finally:
        server.send_signal(signal.SIGINT)  # fast shutdown
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


async def check(args: argparse.Namespace) -> None:
    async with LoopbackDiscord(users=["alice", "bob"], channels=["general"]) as discord:
        say(f"SQLite on /data; loopback Discord at {discord.api_base}")
        await play(discord, ImageBot(discord, args, {}, {args.data: "/data"}))
    files = sorted(path.name for path in args.data.iterdir())
    if "dealers_choice.sqlite3" not in files:
        raise SystemExit(f"no database on the /data volume: {files}")
    say(f"/data holds {', '.join(files)}")
    if not args.postgres:
        return
    with tempfile.TemporaryDirectory(prefix="dc-image-pg-") as folder, \
            postgres_server(Path(folder)) as socket_dir:
        database = "postgresql://postgres@/postgres?host=/run/dc-postgres"
        data = Path(folder) / "data-volume"  # a fresh /data: no SQLite file may appear in it
        data.mkdir()
        owner = args.data.stat()
        os.chown(data, owner.st_uid, owner.st_gid)
        async with LoopbackDiscord(users=["alice", "bob"], channels=["general"]) as discord:
            say(f"PostgreSQL, DATABASE={database}; loopback Discord at {discord.api_base}")
            await play(discord, ImageBot(discord, args, {"DATABASE": database},
                                         {data: "/data", socket_dir: "/run/dc-postgres"}))
        files = sorted(path.name for path in data.iterdir())
        if any(".sqlite3" in name for name in files):
            raise SystemExit(f"a SQLite file on /data with DATABASE a PostgreSQL URL: {files}")
        say(f"the tables were in PostgreSQL; /data holds {', '.join(files) or 'nothing'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--container", required=True, help="a buildah container of the image")
    parser.add_argument("--data", type=Path, required=True, help="host folder for /data")
    parser.add_argument("--stop-signal", default="SIGTERM", help="the image's STOPSIGNAL")
    parser.add_argument("--log", type=Path, default=Path("/tmp/dc-image-bot.log"))
    parser.add_argument("--postgres", action="store_true",
                        help="then all again with DATABASE a throwaway PostgreSQL server")
    parser.add_argument("command", nargs="+", help="the image's entry point and command")
    args = parser.parse_args()
    args.log.unlink(missing_ok=True)
    asyncio.run(check(args))


if __name__ == "__main__":
    main()
