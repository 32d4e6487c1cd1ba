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

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from bot.core.replays import (
    EVERYONE,
    ReplayUnavailable,
    file_name,
    frame_text,
)
from bot.present import i18n
from bot.present.i18n import render as render_text
from bot.present.i18n import t
from bot.present.inert import clean
from engine.notation import Frame, NotationError, write
from engine.replay import ReplayError
from web.app import STORE, Guild, open_guild, render
from web.caches import KeptInBytes, etag_of, not_modified
from web.cards import card_labels, picture, table_cards
from web.markup import discord_lines
from web.replay_runner import Runner
from web.replayed_games import Entry, Replays

log = logging.getLogger(__name__)

PICTURES_BYTES = 16 * 2**20  # step pictures kept, in bytes (a picture weighs 10-40 kB)
#: A step picture never changes (a finished game is finished): browsers keep it a day
#: without asking again. Private for a members-only server (no shared cache may keep it).
PICTURE_AGE = "max-age=86400, immutable"


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
    if not_modified(request, etag):
        return web.Response(status=304, headers=headers)
    return web.Response(body=png, content_type="image/png", headers=headers)


class Pictures:
    """Step pictures drawn, by (server, game, step, whose view, language), the least
    recently used out first past `max_bytes`; each with its ETag. A picture asked for
    while it is being drawn is drawn once, for all who asked."""

    def __init__(self, max_bytes: int = PICTURES_BYTES) -> None:
        self._kept: KeptInBytes[tuple[bytes, str]] = KeptInBytes(
            max_bytes, lambda drawn: len(drawn[0]))

    async def get(self, key: tuple[Any, ...], draw: Callable[[], Awaitable[bytes]]
                  ) -> tuple[bytes, str]:
        """The picture of `key` and its ETag, drawn by `draw` unless kept."""
        return await self._kept.get(key, lambda: self._drawn(draw))

    @staticmethod
    async def _drawn(draw: Callable[[], Awaitable[bytes]]) -> tuple[bytes, str]:
        png = await draw()
        return png, etag_of(png)

    @property
    def size(self) -> int:
        """The bytes of the pictures kept."""
        return self._kept.size


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
