"""Run the bot's image against the loopback Discord and prove it answers; `.ci/image` calls it.

The loopback Discord runs here (the project's .venv); the image's entry point runs in a buildah
container that shares this host's network (chroot isolation), pointed at the loopback by the
same DISCORD_* variables the end-to-end tests give `python -m bot`. Once the bot is ready, a
loopback user sends `/table status`, another opens a Sppoker table, and `/table status` must
then show it; the bot is stopped with the image's stop signal and must exit cleanly, leaving
its database on the /data volume.

    python .ci/image_check.py --container CTR --data DIR [--stop-signal SIGINT] -- python -m bot
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import os
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from loopback import LoopbackDiscord
from loopback.driver import describe_rejection

READY_TIMEOUT = 180.0  # the first start builds the word lists from the dictionaries
STOP_TIMEOUT = 30.0


def _die_with_parent() -> None:
    """buildah gets SIGTERM if this script dies, so no bot is left running."""
    with contextlib.suppress(Exception):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def say(text: str) -> None:
    print(f"[image {time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


def tail(log: Path, lines: int = 40) -> str:
    return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])


async def start_bot(discord: LoopbackDiscord, args: argparse.Namespace
                    ) -> asyncio.subprocess.Process:
    env = discord.bot_env() | {"LOG_LEVEL": "INFO"}
    command = ["buildah", "run", "--isolation", "chroot", "--network", "host",
               "--volume", f"{args.data}:/data"]
    for key, value in env.items():
        command += ["--env", f"{key}={value}"]
    command += [args.container, "--", *args.command]
    with args.log.open("wb") as log:
        return await asyncio.create_subprocess_exec(
            *command, stdout=log, stderr=log, stdin=asyncio.subprocess.DEVNULL,
            preexec_fn=_die_with_parent)


async def wait_ready(discord: LoopbackDiscord, process: asyncio.subprocess.Process,
                     log: Path) -> None:
    ready = asyncio.create_task(discord.wait_for_bot_ready(timeout=READY_TIMEOUT))
    exited = asyncio.create_task(process.wait())
    done, _ = await asyncio.wait({ready, exited}, return_when=asyncio.FIRST_COMPLETED)
    if exited in done:
        ready.cancel()
        raise SystemExit(f"the image's bot exited with {exited.result()}:\n{tail(log)}")
    exited.cancel()
    try:
        ready.result()
    except Exception as error:
        raise SystemExit(f"the image's bot did not get ready: {error}\n{tail(log)}") from error
    await discord.wait_for(lambda: " ready as " in log.read_text(errors="replace"),
                           timeout=READY_TIMEOUT)


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


async def stop_bot(process: asyncio.subprocess.Process, stop_signal: str, log: Path) -> int:
    if process.returncode is not None:
        raise SystemExit(f"the image's bot died during the check:\n{tail(log)}")
    os.kill(entry_point(process.pid), signal.Signals[stop_signal])
    try:
        return await asyncio.wait_for(process.wait(), timeout=STOP_TIMEOUT)
    except TimeoutError:
        process.kill()
        await process.wait()
        raise SystemExit(f"the bot did not stop within {STOP_TIMEOUT:.0f} s of {stop_signal}:"
                         f"\n{tail(log)}") from None


async def check(args: argparse.Namespace) -> None:
    async with LoopbackDiscord(users=["alice", "bob"], channels=["general"]) as discord:
        say(f"loopback Discord at {discord.api_base}")
        started = time.monotonic()
        process = await start_bot(discord, args)
        try:
            await wait_ready(discord, process, args.log)
            say(f"the image's bot is ready after {time.monotonic() - started:.1f} s")
            alice, bob = discord.user("alice"), discord.user("bob")

            empty = await alice.slash("general", "table status")
            say(f"alice: /table status -> {empty.text!r}")
            assert empty.acked and empty.ephemeral, empty
            assert "No table is open" in empty.text, empty.text

            await bob.slash("general", "sppoker start")
            await discord.wait_for(lambda: discord.channel("general").last_message is not None)
            shown = await alice.slash("general", "table status")
            await shown.wait_for_message(lambda message: "Bob" in message.text)
            say(f"bob: /sppoker start; alice: /table status -> {shown.text!r}")
            assert shown.ephemeral and "Bob" in shown.text, shown.text

            for rejected in discord.rejected():
                say(describe_rejection(rejected))
            discord.assert_no_rejected()
        except BaseException:
            say(f"the image's bot's log ends:\n{tail(args.log)}")
            raise
        finally:
            code = await stop_bot(process, args.stop_signal, args.log)
    text = args.log.read_text(errors="replace")
    if code != 0 or "Traceback" in text:
        raise SystemExit(f"the bot stopped with exit code {code}:\n{tail(args.log)}")
    database = args.data / "dealers_choice.sqlite3"
    if not database.is_file():
        raise SystemExit(f"no database on the /data volume ({sorted(args.data.iterdir())})")
    say(f"stopped by {args.stop_signal} with exit code 0; /data holds "
        f"{', '.join(sorted(p.name for p in args.data.iterdir()))}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--container", required=True, help="a buildah container of the image")
    parser.add_argument("--data", type=Path, required=True, help="host folder for /data")
    parser.add_argument("--stop-signal", default="SIGTERM", help="the image's STOPSIGNAL")
    parser.add_argument("--log", type=Path, default=Path("/tmp/dc-image-bot.log"))
    parser.add_argument("command", nargs="+", help="the image's entry point and command")
    args = parser.parse_args()
    asyncio.run(check(args))


if __name__ == "__main__":
    main()
