"""The server's sense of time, separate from the real clock so tests can jump ahead.

Discord's interaction deadlines (3 s to acknowledge, 15 min per token) are measured on this
clock; a test that wants to see a late acknowledgement advances it instead of sleeping, and a
test that holds an answer on purpose (`Faults.hold`) can stop it meanwhile, so that a busy
machine does not spend Discord's 3 s for the test.
"""

from __future__ import annotations

import time


class Clock:
    """Real time plus an offset that only ever grows.

    Time keeps flowing (so a real bot's sleeps and the server agree), and `advance` jumps
    forward without waiting.

    >>> clock = Clock()
    >>> before = clock.time()
    >>> clock.advance(900)
    >>> clock.time() - before >= 900
    True
    """

    def __init__(self) -> None:
        self._offset = 0.0
        self._stopped_at: float | None = None

    def time(self) -> float:
        """Seconds since the Unix epoch, as the server sees them."""
        if self._stopped_at is not None:
            return self._stopped_at
        return time.time() + self._offset

    def stop(self) -> None:
        """Time stands still on the server until `go`: no deadline runs out meanwhile.

        >>> clock = Clock()
        >>> clock.stop()
        >>> stopped = clock.time()
        >>> clock.time() == stopped
        True
        >>> clock.go()
        >>> stopped <= clock.time() < stopped + 60
        True
        """
        if self._stopped_at is None:
            self._stopped_at = self.time()

    def go(self) -> None:
        """Time flows again from where it stood (never back: the offset takes the pause)."""
        if self._stopped_at is not None:
            self._offset = self._stopped_at - time.time()
            self._stopped_at = None

    def advance(self, seconds: float) -> None:
        """Jump ahead; going back would let expired tokens come back to life."""
        if seconds < 0:
            raise ValueError("the loopback clock cannot go backwards")
        self._offset += seconds
        if self._stopped_at is not None:
            self._stopped_at += seconds
