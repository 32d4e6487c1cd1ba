"""The replay viewer: a finished game step by step, a URL per step, every hand face up or
what one seat knew, the card pictures, and the notation file to download.

Everything is the bot's own: the game and its notation are read by `bot.core.replays` (the
same query as `/replay`, within this server only: another server's game is not found), the
steps by `engine.notation.Replayer`, each step's words by `frame_text` (what `/replay` shows
in Discord), and what "what X knew" hides is the notation's rule (`Frame.known_to`,
`Frame.move_seen_by`, the seat's own view): no second rule here. The pictures are drawn
with the bot's card art (`web.cards.picture`).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import hashlib
import logging
import multiprocessing
import os
import pickle
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from aiohttp import web

from bot.core.replays import (
    EVERYONE,
    PlayedGame,
    ReplayUnavailable,
    file_name,
    frame_text,
    load_notation,
)
from bot.present import i18n
from bot.present.i18n import render as render_text
from bot.present.i18n import t
from bot.present.inert import clean
from bot.store import Store
from engine.notation import Frame, Notation, NotationError, Replayer, write
from engine.replay import ReplayError
from web.app import STORE, Guild, open_guild, render
from web.cards import card_labels, picture, table_cards
from web.markup import discord_lines

log = logging.getLogger(__name__)
T = TypeVar("T")

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
PICTURES_BYTES = 16 * 2**20  # step pictures kept, in bytes (a picture weighs 10-40 kB)
#: A step picture never changes (a finished game is finished): browsers keep it a day
#: without asking again. Private for a members-only server (no shared cache may keep it).
PICTURE_AGE = "max-age=86400, immutable"


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


class Runner:
    """Where the long replays and the step pictures are made: threads of this process, or
    (`processes`, as `python -m web` runs) one process of its own, started on first use,
    at a lower priority (`NICE`). In a process of its own, an open game's replay (tens of
    milliseconds of CPU, up to 150) never holds this process's interpreter, so the event
    loop serves every other page and the next step of every visit meanwhile; and when the
    machine is busy the steps and pages, which cost a few milliseconds, go first."""

    def __init__(self, processes: bool = False) -> None:
        self.processes = processes
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None

    def start(self) -> None:
        """Start the process now, not at the first replay asked (its start, a second or
        two of imports, is not a visitor's to wait for)."""
        if self.processes and self._pool is None:
            self._pool = concurrent.futures.ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                initializer=_replay_process)
            self._pool.submit(int)  # a first task: the process starts now

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        if not self.processes:
            return await asyncio.to_thread(function, *args)
        self.start()
        pool = self._pool
        assert pool is not None
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, function, *args)
        except concurrent.futures.process.BrokenProcessPool:
            log.warning("the replay process stopped; a new one is started")
            if self._pool is pool:
                self._pool = None
            return await asyncio.to_thread(function, *args)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


NICE = 10  # the replay process's niceness above the web process's


def _replay_process() -> None:
    """A replay process's start: lower priority, and what replaying needs, as `python -m
    web` sets it up (the games' plugins, the bot's word lists for a word game's moves)."""
    from bot.plugins import install_plugins
    from bot.wordlists import data_dir_words
    from engine.words import set_word_source

    with contextlib.suppress(OSError):
        os.nice(NICE)
    install_plugins()
    set_word_source(data_dir_words())


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
    `max_bytes` in all (each game's `Entry.weight`, which grows as its steps are shown).
    Opening a game is shared by the requests arriving while it loads."""

    def __init__(self, max_bytes: int = CACHED_BYTES) -> None:
        self.max_bytes = max_bytes
        self._entries: OrderedDict[tuple[int, str], asyncio.Future[Entry]] = OrderedDict()
        self._weight = 0

    @property
    def size(self) -> int:
        """The bytes of the games kept."""
        return self._weight

    async def get(self, store: Store, guild_id: int, short_id: str) -> Entry:
        key = (guild_id, short_id)
        found = self._entries.get(key)
        if found is None:
            found = asyncio.ensure_future(_load(store, guild_id, short_id))
            self._entries[key] = found
            found.add_done_callback(lambda done: self._weigh(key, done))
        else:
            self._entries.move_to_end(key)
        try:
            return await asyncio.shield(found)
        except Exception:
            if self._entries.get(key) is found:
                del self._entries[key]  # not found, or failed: asked again next time
            raise

    def _weigh(self, key: tuple[int, str], done: asyncio.Future[Entry]) -> None:
        if done.cancelled() or done.exception() is not None or self._entries.get(key) is not done:
            return
        entry = done.result()
        self._weight += entry.weight

        def resized(change: int) -> None:
            if self._entries.get(key) is done:  # a game dropped already is counted no more
                self._weight += change
                self._drop_oldest()

        entry.on_resize = resized
        self._drop_oldest()

    def _drop_oldest(self) -> None:
        """The least recently used games out, while past the bytes (the last one stays)."""
        while self._weight > self.max_bytes and len(self._entries) > 1:
            _, oldest = self._entries.popitem(last=False)
            if oldest.done() and not oldest.cancelled() and oldest.exception() is None:
                self._weight -= oldest.result().weight


async def _load(store: Store, guild_id: int, short_id: str) -> Entry:
    game, notation = await load_notation(store, guild_id, short_id)
    replayer = Replayer(notation)
    return Entry(game, notation, replayer, weight=weigh(notation))


def weigh(notation: Notation) -> int:
    """A game's bytes before its frames: its notation's, pickled, twice over (the notation,
    and the game its replayer stands at, of about the same size)."""
    return 2 * len(pickle.dumps(notation, protocol=5))


_REPLAYS = web.AppKey("replays", Replays)


def _unreplayable(error: Exception) -> web.HTTPNotFound:
    return web.HTTPNotFound(text=t("This game no longer replays with today's rules "
                                   "({error}).", error=clean(str(error), limit=200)))


async def _replayer(request: web.Request, guild: Guild) -> Entry:
    """This server's game of the path (404 when there is none here), replayable."""
    short_id = request.match_info["game"].lower()
    if not (short_id.isascii() and short_id.isalnum() and len(short_id) <= 16):
        raise web.HTTPNotFound()
    try:
        return await request.app[_REPLAYS].get(request.app[STORE], guild.id, short_id)
    except ReplayUnavailable as error:
        raise web.HTTPNotFound(text=render_text(error.args[0], markdown=False)
                               if error.args else None) from None
    except (NotationError, ReplayError) as error:
        log.warning("replay of %s failed: %s", short_id, error)
        raise _unreplayable(error) from None


def _who(request: web.Request, seats: int) -> int:
    raw = request.query.get("as", "all")
    if raw == "all":
        return EVERYONE
    if raw.isascii() and raw.isdigit() and int(raw) < seats:
        return int(raw)
    raise web.HTTPNotFound()


def _step(raw: str) -> int:
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 7 else 0


def _hands(frame: Frame, who: int) -> list[dict[str, Any]]:
    """The hands this page shows: every seat's, or the one seat's whose knowledge it is."""
    seats = range(len(frame.views)) if who == EVERYONE else [who]
    return [{"seat": seat, "name": frame.names[seat],
             "cards": card_labels(frame.views[seat].hand)} for seat in seats]


async def _frame(request: web.Request, entry: Entry, index: int) -> Frame:
    try:
        return await entry.frame(index, request.app[RUNNER])
    except (NotationError, ReplayError) as error:
        raise _unreplayable(error) from None


async def replay_page(request: web.Request) -> web.Response:
    guild = await open_guild(request)
    entry = await _replayer(request, guild)
    game, notation, replayer = entry.game, entry.notation, entry.replayer
    frame = await _frame(request, entry, _step(request.query.get("step", "0")))
    who = _who(request, len(frame.names))
    who_param = "all" if who == EVERYONE else str(who)
    base = f"{guild.home}/replay/{game.table_id}"
    last = len(replayer) - 1
    return render(request, "replay.html", {
        "guild": guild, "game": game, "base": base, "who": who, "as": who_param,
        "frame": frame, "last": last, "chapters": entry.chapters or [],
        "text": discord_lines(frame_text(game, notation, frame, who)),
        "hands": _hands(frame, who),
        "table": card_labels(table_cards(frame.public.to_json())),
        "picture": f"{base}/step/{frame.index}.png?as={who_param}",
        "names": frame.names, "file_name": file_name(game),
    })


async def step_picture(request: web.Request) -> web.Response:
    """A step's cards as a PNG: the hands the page shows and the cards on the table. A
    finished game's step never changes, so each picture is drawn once (kept by
    `Pictures`) and sent with an ETag, kept by the browser (`PICTURE_AGE`), and answered
    304 to a browser that has it."""
    guild = await open_guild(request)
    entry = await _replayer(request, guild)
    game = entry.game
    frame = await _frame(request, entry, _step(request.match_info["step"]))
    who = _who(request, len(frame.names))
    key = (guild.id, game.table_id, frame.index, who, i18n.current())

    async def draw() -> bytes:
        rows = [(hand["name"], [text for text, _ in hand["cards"]])
                for hand in _hands(frame, who)]
        on_table = table_cards(frame.public.to_json())
        if on_table:
            rows.append((t("On the table"), on_table))
        title = t("{title} · step {n}", title=game.title, n=frame.index)
        return await request.app[RUNNER].run(picture, title, rows)

    png, etag = await request.app[_PICTURES].get(key, draw)
    shared = "public" if guild.access == "public" else "private"
    headers = {"ETag": etag, "Cache-Control": f"{shared}, {PICTURE_AGE}"}
    if etag in request.headers.get("If-None-Match", ""):
        return web.Response(status=304, headers=headers)
    return web.Response(body=png, content_type="image/png", headers=headers)


class Pictures:
    """Step pictures drawn, by (server, game, step, whose view, language), the least
    recently used out first past `max_bytes`; each with its ETag. A picture asked for
    while it is being drawn is drawn once, for all who asked."""

    def __init__(self, max_bytes: int = PICTURES_BYTES) -> None:
        self.max_bytes = max_bytes
        self._items: OrderedDict[tuple[Any, ...], asyncio.Future[tuple[bytes, str]]] = \
            OrderedDict()
        self._bytes = 0

    async def get(self, key: tuple[Any, ...], draw: Callable[[], Awaitable[bytes]]
                  ) -> tuple[bytes, str]:
        """The picture of `key` and its ETag, drawn by `draw` unless kept."""
        found = self._items.get(key)
        if found is None:
            found = asyncio.ensure_future(self._drawn(draw))
            self._items[key] = found
            found.add_done_callback(lambda done: self._weigh(key, done))
        else:
            self._items.move_to_end(key)
        try:
            return await asyncio.shield(found)
        except Exception:
            if self._items.get(key) is found:
                del self._items[key]  # not kept: drawn again next time
            raise

    @staticmethod
    async def _drawn(draw: Callable[[], Awaitable[bytes]]) -> tuple[bytes, str]:
        png = await draw()
        return png, '"' + hashlib.blake2b(png, digest_size=12).hexdigest() + '"'

    def _weigh(self, key: tuple[Any, ...], done: asyncio.Future[tuple[bytes, str]]) -> None:
        if done.cancelled() or done.exception() is not None or self._items.get(key) is not done:
            return
        self._bytes += len(done.result()[0])
        while self._bytes > self.max_bytes and self._items:
            _, oldest = self._items.popitem(last=False)
            if oldest.done() and not oldest.cancelled() and oldest.exception() is None:
                self._bytes -= len(oldest.result()[0])

    @property
    def size(self) -> int:
        """The bytes of the pictures kept."""
        return self._bytes


async def notation_file(request: web.Request) -> web.Response:
    """The game's notation, the same file `/replay export:True` attaches."""
    guild = await open_guild(request)
    entry = await _replayer(request, guild)
    game, notation = entry.game, entry.notation
    return web.Response(text=write(notation), content_type="text/plain", charset="utf-8",
                        headers={"Content-Disposition":
                                 f'attachment; filename="{file_name(game)}"'})


_PICTURES = web.AppKey("replay_pictures", Pictures)


RUNNER = web.AppKey("replay_runner", Runner)


def setup(app: web.Application, *, processes: bool = False) -> None:
    """The replay's routes; `processes`: long replays in a process of their own (`Runner`)."""
    app[_REPLAYS] = Replays()
    app[RUNNER] = Runner(processes)

    async def start(app: web.Application) -> None:
        app[RUNNER].start()

    async def close(app: web.Application) -> None:
        app[RUNNER].close()

    app.on_startup.append(start)
    app.on_cleanup.append(close)
    app[_PICTURES] = Pictures()
    app.router.add_get(r"/g/{guild}/replay/{game}", replay_page)
    app.router.add_get(r"/g/{guild}/replay/{game}/notation", notation_file)
    app.router.add_get(r"/g/{guild}/replay/{game}/step/{step}.png", step_picture)
