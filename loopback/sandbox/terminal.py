"""Line input that never blocks the event loop, and output that never tramples a typed line.

The bot's messages arrive while the player is typing, so reading stdin must not stop the
loopback Discord from serving the bot: lines are read on a thread and handed to the loop.
In a terminal GNU readline gives history and editing; a message printed mid-line clears the
line, prints, then puts the prompt and the half-typed text back. Piped input (scripts, CI)
gets no prompts and no control sequences: each command is echoed so the output reads as a
transcript.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import shutil
import sys
import threading
from collections.abc import Iterator
from types import ModuleType
from typing import TextIO

CLEAR_LINE = "\r\x1b[K"  # VT100: back to column 0, erase to the end of the line
MAX_WIDTH = 78


def _readline() -> ModuleType | None:
    try:
        import readline
    except ImportError:  # Windows, or a Python built without it
        return None
    return readline


class Terminal:
    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.interactive = self.stdin.isatty() and self.stdout.isatty()
        self._readline = _readline() if self.interactive else None
        self._requests: queue.Queue[tuple[str, asyncio.Future[str | None]] | None] = (
            queue.Queue())
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._prompt: str | None = None

    @property
    def width(self) -> int:
        return min(MAX_WIDTH, shutil.get_terminal_size((80, 24)).columns - 1)

    async def ask(self, prompt: str) -> str | None:
        """The next line typed after `prompt`, without its newline; None at end of input."""
        loop = asyncio.get_running_loop()
        if self._thread is None:
            self._loop = loop
            self._thread = threading.Thread(target=self._read_lines, name="sandbox-stdin",
                                            daemon=True)
            self._thread.start()
        future: asyncio.Future[str | None] = loop.create_future()
        self._prompt = prompt
        self._requests.put((prompt, future))
        try:
            return await future
        finally:
            self._prompt = None
            if future.cancelled() and self.interactive:
                self._write("\n")  # leaving mid-line (Ctrl-C): what follows starts afresh

    def show(self, lines: list[str]) -> None:
        """Print lines; if a prompt is waiting, redraw it (and what was typed) below them."""
        text = "".join(f"{line}\n" for line in lines)
        prompt = self._prompt
        if prompt is not None and self.interactive:
            typed = self._readline.get_line_buffer() if self._readline else ""
            text = f"{CLEAR_LINE}{text}{prompt}{typed}"
        self._write(text)

    def _write(self, text: str) -> None:
        """Write, unless the terminal has gone (closed window, closed pipe): then there is
        nobody to tell, and the session must still stop the bot on its way out."""
        with contextlib.suppress(OSError, ValueError):
            self.stdout.write(text)
            self.stdout.flush()

    def close(self) -> None:
        """Let the reader thread finish if it is idle (it is a daemon if it is not)."""
        self._requests.put(None)

    @contextlib.contextmanager
    def keep_settings(self) -> Iterator[None]:
        """Give the terminal back as it was, even if we leave while readline holds it raw."""
        try:
            import termios
            saved = termios.tcgetattr(self.stdin) if self.interactive else None
        except (ImportError, OSError, ValueError):
            saved = None
        try:
            yield
        finally:
            if saved is not None:
                with contextlib.suppress(OSError, ValueError):
                    termios.tcsetattr(self.stdin, termios.TCSADRAIN, saved)

    def _read_lines(self) -> None:
        while (request := self._requests.get()) is not None:
            prompt, future = request
            line = self._read_one(prompt)
            assert self._loop is not None
            with contextlib.suppress(RuntimeError):  # the loop closed while we were reading
                self._loop.call_soon_threadsafe(_settle, future, line)

    def _read_one(self, prompt: str) -> str | None:
        if self.interactive:
            try:
                return input(prompt)
            except (EOFError, KeyboardInterrupt):
                return None
        raw = self.stdin.readline()
        if not raw:
            return None
        line = raw.rstrip("\r\n")
        self._write(f"{prompt}{line}\n")  # a transcript: what was typed, after what
        return line


def _settle(future: asyncio.Future[str | None], line: str | None) -> None:
    if not future.done():
        future.set_result(line)
