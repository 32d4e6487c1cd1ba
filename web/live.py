"""A live table: its board as the channel sees it, updated while it plays (Server-Sent
Events), public information only.

The web process drives nothing: it reads the table's saved snapshot (written by the bot
after every step) and shows what the game's **public view** shows (`Game.public_view`, the
engine's one door for what everyone may see), drawn by the game's own renderer as the
channel's board is, with the last public moves and whose turn it is. No seat's view, hand
or sealed choice is ever read here. One reader a table (`Watch`), shared by all its event
streams, looks at the snapshot's version every `Config.poll_seconds`; each stream sends the
board again when it moved, and when the table ends says so, with the link to its replay.
The page itself is kept under the snapshot's version.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from aiohttp import web

from bot.core.table_state import TableState
from bot.present import i18n
from bot.present.i18n import render as render_text
from bot.present.i18n import t
from bot.present.render import renderer_for, shown_view
from engine.games import GAMES
from web.app import CONFIG, RENDERED, STORE, Guild, open_guild, render
from web.cards import card_labels, table_cards
from web.markup import discord_lines

log = logging.getLogger(__name__)

MAX_STREAMS = 500  # event streams open at once, all clients together


def board(table: TableState) -> dict[str, Any]:
    """What the page shows of a table, from its public information only: JSON-safe, and
    what the event stream sends (its `html` escaped here, by the template's own filters)."""
    names = [seat.name for seat in table.seats]
    game = table.game
    info: dict[str, Any] = {"table": table.table_id, "kind": table.kind, "step": table.steps,
                            "status": table.status, "names": names, "cards": [],
                            "lines": [], "whose_turn": "", "last_moves": [], "over": False}
    if GAMES[table.kind].chip_game and table.stacks:
        info["stacks"] = list(zip(names, table.stacks, strict=False))
    if game is None:
        info["whose_turn"] = t("The table is waiting for players in its lobby.")
        return info
    public = game.public_view()
    lines = renderer_for(table.kind).public(shown_view(public))
    info["lines"] = [str(line) for text in lines for line in discord_lines(text)]
    info["cards"] = table_cards(public.to_json())
    info["last_moves"] = [str(line) for text in table.recent
                          for line in discord_lines(render_text(text))]
    info["over"] = game.is_over
    if game.is_over:
        info["whose_turn"] = t("This deal is over.")
    elif public.to_act:
        waiting = ", ".join(names[seat] for seat in public.to_act if seat < len(names))
        info["whose_turn"] = t("Waiting for {names}.", names=waiting)
    return info


def _table_id(request: web.Request) -> str:
    table_id = request.match_info["table"].lower()
    if not (table_id.isascii() and table_id.isalnum() and len(table_id) <= 16):
        raise web.HTTPNotFound()
    return table_id


async def _table(request: web.Request, guild: Guild) -> tuple[int, TableState]:
    """This server's unfinished table of the path (404 for an ended one, or another's)."""
    table_id = _table_id(request)
    found = await request.app[STORE].table_snapshot(guild.id, table_id)
    if found is None:
        raise web.HTTPNotFound()
    version, snapshot = found
    table = restored(snapshot)
    if table is None:
        raise web.HTTPNotFound()
    return version, table


def restored(snapshot: dict[str, Any]) -> TableState | None:
    """A table from its snapshot, as the bot restores it; None (logged) for one that cannot
    be shown, so a page or an event stream never fails half-way on it."""
    try:
        table = TableState.from_dict(snapshot)
        board(table)  # drawing it too: what the page and the stream will do with it
    except Exception:
        log.warning("table %s cannot be shown", snapshot.get("table_id"), exc_info=True)
        return None
    return table


async def table_page(request: web.Request) -> web.Response:
    """The table's page, kept (whole, `RenderCache`) under its snapshot's version: a table
    looked at by many people is read and drawn once a move, not once a visitor."""
    guild = await open_guild(request)
    table_id = _table_id(request)
    version = await request.app[STORE].table_version(guild.id, table_id)
    if version is None:
        raise web.HTTPNotFound()

    async def make() -> web.Response:
        _, table = await _table(request, guild)
        info = board(table)
        return render(request, "table.html", {
            "guild": guild, "table": table, "info": info, "cards": card_labels(info["cards"]),
            "events": f"{guild.home}/table/{table.table_id}/events",
            "title": render_text(GAMES[table.kind].title, markdown=False),
        })

    return await request.app[RENDERED].page(request, ("table", guild.id, table_id), version,
                                            make)


def _event(name: str, data: dict[str, Any]) -> bytes:
    return f"event: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()


class Watch:
    """One table looked at by one or more event streams: one reader (`run`) looks at its
    snapshot's version every `poll` seconds for all of them and reads and restores the
    snapshot once a move, where each stream would read it on its own; the streams wait
    for `changed`. Each stream draws the board in its own language, once a move a
    language (`board_in`)."""

    def __init__(self, version: int, table: TableState) -> None:
        self.version, self.table = version, table
        self.ended = False
        self.streams = 0
        self.changed = asyncio.Event()
        self._boards: dict[str, dict[str, Any]] = {}
        self.task: asyncio.Task[None] | None = None

    def board_in(self, locale: str) -> dict[str, Any]:
        """The board as the streams send it, drawn once a version in each language."""
        found = self._boards.get(locale)
        if found is None:
            found = self._boards[locale] = _cards_shown(board(self.table))
        return found

    def _tell(self) -> None:
        self.changed.set()
        self.changed = asyncio.Event()

    async def run(self, store: Any, guild_id: int, table_id: str, poll: float) -> None:
        """Look at the table until it ends or nobody watches it any more."""
        while self.streams > 0:
            await asyncio.sleep(poll)
            try:
                now = await store.table_version(guild_id, table_id)
                if now is None:
                    self.ended = True
                    self._tell()
                    return
                if now > self.version:
                    found = await store.table_snapshot(guild_id, table_id)
                    moved = None if found is None else restored(found[1])
                    if found is not None and moved is not None:
                        self.version, self.table = found[0], moved
                        self._boards = {}
                        self._tell()
            except Exception:  # a failed read is tried again at the next look
                log.warning("live table %s: a look failed", table_id, exc_info=True)


async def table_events(request: web.Request) -> web.StreamResponse:
    """The board each time the table moves on (`board`), then `end` when it has ended."""
    guild = await open_guild(request)
    version, table = await _table(request, guild)
    app = request.app
    streams = app[_STREAMS]
    if streams[0] >= MAX_STREAMS:
        raise web.HTTPServiceUnavailable()
    config = app[CONFIG]
    response = web.StreamResponse(headers={"Content-Type": "text/event-stream",
                                           "Cache-Control": "no-cache",
                                           "X-Accel-Buffering": "no"})
    watches = app[_WATCHES]
    key = (guild.id, table.table_id)
    watch = watches.get(key)
    if watch is None or watch.ended:
        watch = watches[key] = Watch(version, table)
    watch.streams += 1
    if watch.task is None or watch.task.done():
        watch.task = asyncio.create_task(watch.run(app[STORE], guild.id, table.table_id,
                                                   config.poll_seconds))
    streams[0] += 1
    locale = i18n.current()
    try:
        await response.prepare(request)
        await response.write(_event("board", _cards_shown(board(table))))
        seen = version
        while True:
            changed = watch.changed
            if watch.ended:
                await response.write(_event("end", {
                    "replay": f"{guild.home}/replay/{table.table_id}",
                    "text": t("This table has ended.")}))
                break
            if watch.version > seen:
                seen = watch.version
                await response.write(_event("board", watch.board_in(locale)))
                continue
            try:
                await asyncio.wait_for(changed.wait(), config.keepalive_seconds)
            except TimeoutError:
                await response.write(b": still here\n\n")
    except ConnectionResetError:
        pass  # the page was closed
    finally:
        streams[0] -= 1
        watch.streams -= 1
        if watch.streams == 0:
            if watches.get(key) is watch:
                del watches[key]
            if watch.task is not None:
                watch.task.cancel()
    return response


def _cards_shown(info: dict[str, Any]) -> dict[str, Any]:
    """The board with its cards labelled as the page shows them."""
    return {**info, "cards": [{"card": text, "label": label}
                              for text, label in card_labels(info["cards"])]}


_STREAMS = web.AppKey("live_streams", list[int])
_WATCHES = web.AppKey("live_watches", dict[tuple[int, str], Watch])


def setup(app: web.Application) -> None:
    app[_STREAMS] = [0]
    app[_WATCHES] = {}
    app.router.add_get(r"/g/{guild}/table/{table}", table_page)
    app.router.add_get(r"/g/{guild}/table/{table}/events", table_events)
