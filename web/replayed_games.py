"""The games the replay viewer is stepping through, kept within bytes.

A step's cost is the engine's replay (40-150 ms to open a game at a step, which means
replaying it once more for its deals), while a step next to one already shown costs one
move; so each game is replayed once for all its visitors, its frames kept as they are shown,
and the games kept weighed in bytes (their notation and frames, pickled), the least recently
used out first.
"""

from __future__ import annotations

import asyncio
import pickle
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.core.replays import PlayedGame, load_notation
from bot.store import Store
from engine.notation import Frame, Notation, Replayer
from web.caches import KeptInBytes
from web.replay_runner import Runner

#: Replayed games kept, weighed in bytes (their frames and notation, pickled): the
#: engine's replay is the costly part of a step (40-150 ms to open a game at a step, which
#: means replaying it once more for its deals), while a step next to one already shown
#: costs one move; so a visitor stepping through a game replays it once.
CACHED_BYTES = 64 * 2**20
FRAMES = 512  # frames kept per game (each step shown, for stepping back)
FRAME_BYTES = 8192  # a frame's weight before any of its game's is known
#: Steps ahead of where the replayer stands that are replayed in the event loop itself
#: (a move or two, about a millisecond), not in a thread behind the long replays.
NEAR = 3
#: Steps before one replayed from its deal's start that are kept on the way, and steps
#: after it replayed with it (`replayed`).
BEHIND = 3
AHEAD = 8

def replayed(replayer: Replayer, chapters: list[int] | None, index: int
             ) -> tuple[Replayer, list[int], list[tuple[int, Frame, int]]]:
    """The long part of showing a step: the deals' starts (on a game's first step) and the
    frame of `index`, with the `BEHIND` frames before it, replayed on the way from its
    deal's start (so a visitor's step back costs nothing), and the `AHEAD` after it in
    its deal (the visitor's next steps, kept whoever else moves the game's replayer
    meanwhile). Returns the replayer standing at the last of them (run in another process
    by `Runner`, it is a copy, sent back), and each frame with its weight in bytes."""
    if chapters is None:
        chapters = replayer.chapters()
    deal = replayer.locate(index)[0]
    start = replayer.starts[deal]
    end = replayer.starts[deal + 1] if deal + 1 < len(replayer.starts) else len(replayer)
    frames = [(step, replayer.frame(step))
              for step in range(max(start, index - BEHIND), min(end, index + AHEAD + 1))]
    return replayer, chapters, [(step, frame, len(pickle.dumps(frame, protocol=5)))
                                for step, frame in frames]


@dataclass
class Entry:
    """A game being replayed: its record, its notation and the engine's replayer standing
    at the last step replayed (`at`), the steps already shown (`frames`), and a lock, since
    the replayer is one game moved forward and back."""

    game: PlayedGame
    notation: Notation
    replayer: Replayer
    #: Its bytes (`weigh`): the notation's, the game its replayer stands at, the frames'.
    weight: int
    frames: OrderedDict[int, Frame] = field(default_factory=OrderedDict)
    chapters: list[int] | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: The step the replayer stands at (the last it replayed), -1 before the first.
    at: int = -1
    #: Each kept frame's bytes, pickled (weighed where it was replayed).
    sizes: dict[int, int] = field(default_factory=dict)
    #: Told of each change of `weight` (`Replays`, which keeps its games within bytes).
    on_resize: Callable[[int], None] | None = None

    def _keep(self, index: int, frame: Frame, size: int) -> None:
        before = self.weight
        if index in self.sizes:
            self.weight -= self.sizes[index]
        self.frames[index] = frame
        self.sizes[index] = size
        self.weight += size
        self.frames.move_to_end(index)
        while len(self.frames) > FRAMES:
            dropped, _ = self.frames.popitem(last=False)
            self.weight -= self.sizes.pop(dropped)
        if self.on_resize is not None and self.weight != before:
            self.on_resize(self.weight - before)

    def _size_like(self, index: int) -> int:
        """A frame replayed here weighs as the one before it did (the same game one move
        on), rather than being pickled only to be weighed."""
        return self.sizes.get(index - 1) or max(self.sizes.values(), default=FRAME_BYTES)

    def near(self, index: int) -> bool:
        """Whether step `index` is a move or a few after where the replayer stands, in the
        same deal (the next step of a visit): then it costs about a millisecond, less than
        handing it to a thread or a process."""
        if self.chapters is None or self.at < 0 or not self.at <= index <= self.at + NEAR:
            return False
        return self.replayer.locate(self.at)[0] == self.replayer.locate(index)[0]

    async def frame(self, index: int, runner: Runner) -> Frame:
        """The frame of step `index` (clamped to the game), replayed at most once: a step
        shown before is kept, the next steps are replayed here (`near`), a longer replay
        (opening the game, a jump, a step back) by `runner`."""
        index = min(max(index, 0), len(self.replayer) - 1)
        found = self.frames.get(index)
        if found is not None and self.chapters is not None:
            self.frames.move_to_end(index)
            return found
        async with self.lock:
            found = self.frames.get(index)
            if found is not None and self.chapters is not None:
                return found
            if self.near(index):
                frame = self.replayer.frame(index)
                self._keep(index, frame, self._size_like(index))
                self.at = index
                return frame
            replayer, self.chapters, frames = await runner.run(
                replayed, self.replayer, self.chapters, index)
            self.replayer = replayer
            for step, frame, size in frames:
                self._keep(step, frame, size)
            self.at = frames[-1][0]
            self.frames.move_to_end(index)
            return self.frames[index]


class Replays:
    """The games being replayed, by (server, game), the least recently used out first past
    `max_bytes` in all (each game's `Entry.weight`, which grows as its steps are shown; the
    game stepped through last stays). Opening a game is shared by the requests arriving
    while it loads."""

    def __init__(self, max_bytes: int = CACHED_BYTES) -> None:
        self._kept: KeptInBytes[Entry] = KeptInBytes(
            max_bytes, lambda entry: entry.weight, keep_last=True)

    @property
    def max_bytes(self) -> int:
        return self._kept.max_bytes

    @property
    def size(self) -> int:
        """The bytes of the games kept."""
        return self._kept.size

    async def get(self, store: Store, guild_id: int, short_id: str) -> Entry:
        key = (guild_id, short_id)
        entry = await self._kept.get(key, lambda: _load(store, guild_id, short_id))
        if entry.on_resize is None:  # counted from its load on: its growth is counted too
            entry.on_resize = lambda change: self._kept.resize(key, entry, change)
        return entry


async def _load(store: Store, guild_id: int, short_id: str) -> Entry:
    game, notation = await load_notation(store, guild_id, short_id)
    replayer = Replayer(notation)
    return Entry(game, notation, replayer, weight=weigh(notation))


def weigh(notation: Notation) -> int:
    """A game's bytes before its frames: its notation's, pickled, twice over (the notation,
    and the game its replayer stands at, of about the same size)."""
    return 2 * len(pickle.dumps(notation, protocol=5))

