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
import logging
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from bot.core.replays import (
    EVERYONE,
    PlayedGame,
    ReplayUnavailable,
    file_name,
    frame_text,
    load_notation,
)
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

#: Replayed games kept, weighed by their moves (a game of 200 moves weighs 200): the
#: engine's replay is the costly part of a step (40-150 ms to open a game at a step, which
#: means replaying it once more for its deals), while a step next to one already shown
#: costs one move; so a visitor stepping through a game replays it once.
CACHED_MOVES = 200_000
FRAMES = 512  # frames kept per game (each step shown, for stepping back)
PICTURES = 128  # step pictures kept


@dataclass
class Entry:
    """A game being replayed: its record, its notation and the engine's replayer standing
    at the last step shown, the steps already shown (`frames`), and a lock, since the
    replayer is one game moved forward and back."""

    game: PlayedGame
    notation: Notation
    replayer: Replayer
    weight: int
    frames: OrderedDict[int, Frame] = field(default_factory=OrderedDict)
    chapters: list[int] | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def _frame(self, index: int) -> Frame:
        """A frame, from those shown or replayed; the deals' starts on first use (run in a
        thread: a replay is CPU work, and other pages go on meanwhile)."""
        if self.chapters is None:
            self.chapters = self.replayer.chapters()
        index = min(max(index, 0), len(self.replayer) - 1)
        frame = self.frames.get(index)
        if frame is None:
            frame = self.replayer.frame(index)
            self.frames[index] = frame
            while len(self.frames) > FRAMES:
                self.frames.popitem(last=False)
        return frame

    async def frame(self, index: int) -> Frame:
        """The frame of step `index` (clamped to the game), replayed at most once."""
        index = min(max(index, 0), len(self.replayer) - 1)
        found = self.frames.get(index)
        if found is not None and self.chapters is not None:
            self.frames.move_to_end(index)
            return found
        async with self.lock:
            return await asyncio.to_thread(self._frame, index)


class Replays:
    """The games being replayed, by (server, game), the least recently used out first past
    `CACHED_MOVES` moves in all. Opening a game is shared by the requests arriving while it
    loads."""

    def __init__(self, moves: int = CACHED_MOVES) -> None:
        self.moves = moves
        self._entries: OrderedDict[tuple[int, str], asyncio.Future[Entry]] = OrderedDict()
        self._weight = 0

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
        self._weight += done.result().weight
        while self._weight > self.moves and len(self._entries) > 1:
            _, oldest = self._entries.popitem(last=False)
            if oldest.done() and not oldest.cancelled() and oldest.exception() is None:
                self._weight -= oldest.result().weight


async def _load(store: Store, guild_id: int, short_id: str) -> Entry:
    game, notation = await load_notation(store, guild_id, short_id)
    replayer = Replayer(notation)
    return Entry(game, notation, replayer, weight=len(replayer))


_REPLAYS = web.AppKey("replays", Replays)
_PICTURES = web.AppKey("replay_pictures", OrderedDict[tuple[int, str, int, int], bytes])


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


async def _frame(entry: Entry, index: int) -> Frame:
    try:
        return await entry.frame(index)
    except (NotationError, ReplayError) as error:
        raise _unreplayable(error) from None


async def replay_page(request: web.Request) -> web.Response:
    guild = await open_guild(request)
    entry = await _replayer(request, guild)
    game, notation, replayer = entry.game, entry.notation, entry.replayer
    frame = await _frame(entry, _step(request.query.get("step", "0")))
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
    """A step's cards as a PNG: the hands the page shows and the cards on the table."""
    guild = await open_guild(request)
    entry = await _replayer(request, guild)
    game = entry.game
    frame = await _frame(entry, _step(request.match_info["step"]))
    who = _who(request, len(frame.names))
    key = (guild.id, game.table_id, frame.index, who)
    cache = request.app[_PICTURES]
    png = cache.get(key)
    if png is None:
        rows = [(hand["name"], [text for text, _ in hand["cards"]])
                for hand in _hands(frame, who)]
        on_table = table_cards(frame.public.to_json())
        if on_table:
            rows.append((t("On the table"), on_table))
        title = t("{title} · step {n}", title=game.title, n=frame.index)
        png = await asyncio.to_thread(picture, title, rows)
        cache[key] = png
        while len(cache) > PICTURES:
            cache.popitem(last=False)
    return web.Response(body=png, content_type="image/png")


async def notation_file(request: web.Request) -> web.Response:
    """The game's notation, the same file `/replay export:True` attaches."""
    guild = await open_guild(request)
    entry = await _replayer(request, guild)
    game, notation = entry.game, entry.notation
    return web.Response(text=write(notation), content_type="text/plain", charset="utf-8",
                        headers={"Content-Disposition":
                                 f'attachment; filename="{file_name(game)}"'})


def setup(app: web.Application) -> None:
    app[_REPLAYS] = Replays()
    app[_PICTURES] = OrderedDict()
    app.router.add_get(r"/g/{guild}/replay/{game}", replay_page)
    app.router.add_get(r"/g/{guild}/replay/{game}/notation", notation_file)
    app.router.add_get(r"/g/{guild}/replay/{game}/step/{step}.png", step_picture)
