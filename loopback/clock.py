"""The server's sense of time, separate from the real clock so tests can jump ahead.

Discord's interaction deadlines (3 s to acknowledge, 15 min per token) are measured on this
clock; a test that wants to see a late acknowledgement advances it instead of sleeping.
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

    def time(self) -> float:
        """Seconds since the Unix epoch, as the server sees them."""
        return time.time() + self._offset

    def advance(self, seconds: float) -> None:
        """Jump ahead; going back would let expired tokens come back to life."""
        if seconds < 0:
            raise ValueError("the loopback clock cannot go backwards")
        self._offset += seconds
