"""Discord-shaped ids, so the client's timestamp and ordering helpers behave as in production."""

from __future__ import annotations

import itertools

DISCORD_EPOCH_MS = 1_420_070_400_000


class Snowflakes:
    """Increasing snowflakes whose timestamp part follows the given clock.

    >>> from loopback.clock import Clock
    >>> ids = Snowflakes(Clock())
    >>> a, b = ids.next(), ids.next()
    >>> a < b
    True
    """

    def __init__(self, clock: object) -> None:
        self._clock = clock
        self._counter = itertools.count()
        self._last = 0

    def next(self) -> int:
        ms = int(self._clock.time() * 1000) - DISCORD_EPOCH_MS  # type: ignore[attr-defined]
        value = (ms << 22) | (next(self._counter) & 0xFFF)
        # Two ids in the same millisecond, or a clock the test moved, must still increase.
        self._last = max(value, self._last + 1)
        return self._last

    def next_in_shard(self, index: int, count: int) -> int:
        """The next id of a guild that Discord would send to shard `index` of `count`
        (``(id >> 22) % count``): a few milliseconds ahead when need be."""
        value = self.next()
        shift = (index - (value >> 22) % count) % count
        self._last = value + (shift << 22)
        return self._last
