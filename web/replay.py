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
from engine.notation import Frame, Notation, NotationError, Replayer, write
from engine.replay import ReplayError
from web.app import STORE, Guild, open_guild, render
from web.cards import card_labels, picture, table_cards
from web.markup import discord_lines

log = logging.getLogger(__name__)

CACHED = 32  # replayed games kept: a step forward costs one move, not the whole game again
PICTURES = 128  # step pictures kept

Entry = tuple[PlayedGame, Notation, Replayer]
_REPLAYS = web.AppKey("replays", OrderedDict[tuple[int, str], Entry])
_PICTURES = web.AppKey("replay_pictures", OrderedDict[tuple[int, str, int, int], bytes])


async def _replayer(request: web.Request, guild: Guild) -> Entry:
    """This server's game of the path (404 when there is none here), replayable."""
    short_id = request.match_info["game"].lower()
    if not (short_id.isascii() and short_id.isalnum() and len(short_id) <= 16):
        raise web.HTTPNotFound()
    cache = request.app[_REPLAYS]
    key = (guild.id, short_id)
    if key in cache:
        cache.move_to_end(key)
        return cache[key]
    try:
        game, notation = await load_notation(request.app[STORE], guild.id, short_id)
        entry = (game, notation, Replayer(notation))
    except ReplayUnavailable as error:
        raise web.HTTPNotFound(text=render_text(error.args[0], markdown=False)
                               if error.args else None) from None
    except (NotationError, ReplayError) as error:
        log.warning("replay of %s failed: %s", short_id, error)
        raise web.HTTPNotFound(text=t("This game no longer replays with today's rules "
                                      "({error}).", error=clean(str(error), limit=200))
                               ) from None
    cache[key] = entry
    while len(cache) > CACHED:
        cache.popitem(last=False)
    return entry


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


def _frame(entry: Entry, index: int) -> Frame:
    try:
        return entry[2].frame(index)
    except (NotationError, ReplayError) as error:
        raise web.HTTPNotFound(text=t("This game no longer replays with today's rules "
                                      "({error}).", error=clean(str(error), limit=200))
                               ) from None


async def replay_page(request: web.Request) -> web.Response:
    guild = await open_guild(request)
    entry = await _replayer(request, guild)
    game, notation, replayer = entry
    frame = _frame(entry, _step(request.query.get("step", "0")))
    who = _who(request, len(frame.names))
    who_param = "all" if who == EVERYONE else str(who)
    base = f"{guild.home}/replay/{game.table_id}"
    last = len(replayer) - 1
    return render(request, "replay.html", {
        "guild": guild, "game": game, "base": base, "who": who, "as": who_param,
        "frame": frame, "last": last, "chapters": replayer.chapters(),
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
    game = entry[0]
    frame = _frame(entry, _step(request.match_info["step"]))
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
    game, notation, _ = await _replayer(request, guild)
    return web.Response(text=write(notation), content_type="text/plain", charset="utf-8",
                        headers={"Content-Disposition":
                                 f'attachment; filename="{file_name(game)}"'})


def setup(app: web.Application) -> None:
    app[_REPLAYS] = OrderedDict()
    app[_PICTURES] = OrderedDict()
    app.router.add_get(r"/g/{guild}/replay/{game}", replay_page)
    app.router.add_get(r"/g/{guild}/replay/{game}/notation", notation_file)
    app.router.add_get(r"/g/{guild}/replay/{game}/step/{step}.png", step_picture)
