"""Tournaments: their state, their tables, what they have to post and their final places.

Why it is shaped like this:

* A tournament's state is the engine's JSON (`engine.tournaments.Tournament.to_json`), saved
  whole after every change with a version that counts the writes: `save_tournament` refuses
  a write over a version it did not read, so two writers cannot both win.
* A tournament's table is written (`tournament_tables`) before the table is opened. When the
  table's game is recorded (`finish_table`), `_tournament_table_finished` writes its places
  beside it in the same transaction, so no crash can lose a result or count one without its
  game. The tournament takes the result in later (`applied`, set in the same write as the
  state that took it), so applying is idempotent and happens after a restart too.
* What a tournament says in its channel is written with the change that said it
  (`tournament_messages`) and posted afterwards, until it is marked sent.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.store.base import StoreCore, _check_id, _check_text, _json
from bot.store.drivers import Connection, Row
from bot.store.errors import StoreError
from bot.store.rows import GameRecord

__all__ = [
    "TournamentBoardRow",
    "TournamentConflictError",
    "TournamentMessage",
    "TournamentPlace",
    "TournamentRow",
    "TournamentRows",
    "TournamentTable",
]


@dataclass(frozen=True)
class TournamentRow:
    """A tournament as stored: `state` is the engine's JSON, `extra` the bot's own part."""

    id: int
    guild_id: int
    channel_id: int
    kind: str
    organiser_id: int
    status: str
    version: int
    state: dict[str, Any]
    extra: dict[str, Any]


@dataclass(frozen=True)
class TournamentTable:
    """One table a tournament opened. `result` is None while it plays, then ``finished``
    (with `places` in seat order) or ``aborted``; `applied`: the tournament has taken it in."""

    table_id: str
    tournament_id: int
    round: int
    number: int
    thread_id: int
    game_id: int | None = None
    result: str | None = None
    places: tuple[int, ...] | None = None
    applied: bool = False


@dataclass(frozen=True)
class TournamentMessage:
    """A message a tournament has to post in its channel (`body`: the core's JSON)."""

    id: int
    tournament_id: int
    body: dict[str, Any]


@dataclass(frozen=True)
class TournamentPlace:
    """One entrant's final place, written when the tournament is over."""

    player: str
    user_id: int | None
    name: str
    place: int
    score: float


@dataclass(frozen=True)
class TournamentBoardRow:
    """A member's line on the tournaments board."""

    user_id: int
    name: str
    events: int
    won: int
    best: int


class TournamentConflictError(StoreError):
    """The tournament was saved by someone else since it was read."""


def _row(row: Row) -> TournamentRow:
    return TournamentRow(
        id=int(row["id"]), guild_id=int(row["guild_id"]), channel_id=int(row["channel_id"]),
        kind=row["kind"], organiser_id=int(row["organiser_id"]), status=row["status"],
        version=int(row["version"]), state=json.loads(row["state"]),
        extra=json.loads(row["extra"]),
    )


def _table_row(row: Row) -> TournamentTable:
    places = row["places"]
    return TournamentTable(
        table_id=row["table_id"], tournament_id=int(row["tournament_id"]),
        round=int(row["round"]), number=int(row["number"]), thread_id=int(row["thread_id"]),
        game_id=None if row["game_id"] is None else int(row["game_id"]),
        result=row["result"],
        places=None if places is None else tuple(int(p) for p in json.loads(places)),
        applied=bool(row["applied"]),
    )


_COLUMNS = ("id, guild_id, channel_id, kind, organiser_id, status, version, state, extra")
_TABLE_COLUMNS = ("table_id, tournament_id, round, number, thread_id, game_id, result, places,"
                  " applied")


class TournamentRows(StoreCore):
    """Tournaments' rows. A table's result is written by `finish_table` (`bot.store.tables`)
    through `_tournament_table_finished`, in the game's own transaction."""

    _tournament_listeners: list[Callable[[int], None]] | None = None

    def on_tournament_result(self, listener: Callable[[int], None]) -> None:
        """Call `listener(tournament_id)` after a write that gave a tournament's table its
        result has committed (the tournament service wakes on it; it also looks at start)."""
        if self._tournament_listeners is None:
            self._tournament_listeners = []
        self._tournament_listeners.append(listener)

    def _tournament_result_committed(self, tournament_id: int | None) -> None:
        if tournament_id is None:
            return
        for listener in self._tournament_listeners or ():
            listener(tournament_id)

    async def _tournament_table_finished(self, conn: Connection, table_id: str, game_id: int,
                                         record: GameRecord) -> int | None:
        """Inside `finish_table`'s transaction: if the table is a tournament's, write its
        result there (places in seat order; an aborted game, or one without places, as
        ``aborted``); the tournament's id, or None for an ordinary table. A table already
        given a result keeps the first."""
        found = await conn.fetch_one(
            "SELECT tournament_id FROM tournament_tables WHERE table_id = ? AND result IS NULL",
            (table_id,))
        if found is None:
            return None
        seats = sorted(record.players, key=lambda p: p.seat)
        places = [p.place for p in seats]
        finished = str(record.status) == "finished" and all(p is not None for p in places)
        await conn.execute(
            "UPDATE tournament_tables SET game_id = ?, result = ?, places = ?"
            " WHERE table_id = ?",
            (game_id, "finished" if finished else "aborted",
             _json(places, "the places") if finished else None, table_id))
        return int(found["tournament_id"])

    # --- writing ----------------------------------------------------------------------------

    async def create_tournament(
        self, guild_id: int, channel_id: int, kind: str, organiser_id: int,
        state: Mapping[str, Any], extra: Mapping[str, Any], *,
        messages: Iterable[Mapping[str, Any]] = (), now: datetime | None = None,
    ) -> int:
        """A new tournament (version 1) and the messages it posts first; its id."""
        _check_id(guild_id, "guild_id")
        _check_id(channel_id, "channel_id")
        _check_id(organiser_id, "organiser_id")
        _check_text(kind, "kind")
        stamp = self._now(now)
        async with self._write() as conn:
            row = await conn.fetch_one(
                "INSERT INTO tournaments (guild_id, channel_id, kind, organiser_id, status,"
                " version, state, extra, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?) RETURNING id",
                (guild_id, channel_id, kind, organiser_id, str(state.get("status", "signup")),
                 _json(dict(state), "the tournament"), _json(dict(extra), "its extra"),
                 stamp, stamp))
            assert row is not None
            tournament_id = int(row["id"])
            await self._insert_messages(conn, tournament_id, messages, stamp)
        return tournament_id

    async def save_tournament(
        self, tournament_id: int, version: int, state: Mapping[str, Any],
        extra: Mapping[str, Any], *,
        messages: Iterable[Mapping[str, Any]] = (),
        applied: Iterable[str] = (),
        new_tables: Iterable[TournamentTable] = (),
        places: Sequence[TournamentPlace] = (),
        now: datetime | None = None,
    ) -> int:
        """Save a change made on `version`, all or nothing: the state, the messages it posts,
        the table results it took in (`applied`), the tables it is about to open and, once it
        is over, its final places. Returns the new version; `TournamentConflictError` (and
        nothing written) when the stored version is no longer `version`."""
        stamp = self._now(now)
        status = str(state.get("status", "signup"))
        async with self._write() as conn:
            done = await conn.execute(
                "UPDATE tournaments SET version = version + 1, status = ?, state = ?, extra = ?,"
                " updated_at = ? WHERE id = ? AND version = ?",
                (status, _json(dict(state), "the tournament"), _json(dict(extra), "its extra"),
                 stamp, tournament_id, version))
            if done != 1:
                raise TournamentConflictError(
                    f"tournament {tournament_id} was saved since version {version}")
            for table_id in applied:
                await conn.execute(
                    "UPDATE tournament_tables SET applied = 1 WHERE table_id = ?"
                    " AND tournament_id = ?", (table_id, tournament_id))
            await conn.executemany(
                "INSERT INTO tournament_tables (table_id, tournament_id, round, number,"
                " thread_id) VALUES (?, ?, ?, ?, ?)",
                [(t.table_id, tournament_id, t.round, t.number, t.thread_id)
                 for t in new_tables])
            if places:
                row = await conn.fetch_one(
                    "SELECT guild_id, kind FROM tournaments WHERE id = ?", (tournament_id,))
                assert row is not None
                await conn.execute("DELETE FROM tournament_places WHERE tournament_id = ?",
                                   (tournament_id,))
                await conn.executemany(
                    "INSERT INTO tournament_places (tournament_id, player, guild_id, kind,"
                    " user_id, name, place, score) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    [(tournament_id, p.player, row["guild_id"], row["kind"], p.user_id,
                      p.name, p.place, p.score) for p in places])
            await self._insert_messages(conn, tournament_id, messages, stamp)
        return version + 1

    async def _insert_messages(self, conn: Connection, tournament_id: int,
                               messages: Iterable[Mapping[str, Any]], stamp: str) -> None:
        await conn.executemany(
            "INSERT INTO tournament_messages (tournament_id, body, created_at) VALUES (?, ?, ?)",
            [(tournament_id, _json(dict(body), "a tournament's message"), stamp)
             for body in messages])

    async def mark_tournament_message_sent(self, message_id: int, *,
                                           now: datetime | None = None) -> None:
        await self._write_one(
            "UPDATE tournament_messages SET sent_at = ? WHERE id = ? AND sent_at IS NULL",
            (self._now(now), message_id))

    # --- reading ----------------------------------------------------------------------------

    async def tournament(self, tournament_id: int) -> TournamentRow | None:
        async with self._read() as conn:
            row = await conn.fetch_one(f"SELECT {_COLUMNS} FROM tournaments WHERE id = ?",
                                       (tournament_id,))
        return None if row is None else _row(row)

    async def live_tournaments(self) -> list[TournamentRow]:
        """Every tournament not yet over, or over with messages still to post (to restore)."""
        async with self._read() as conn:
            rows = await conn.fetch_all(
                f"SELECT {_COLUMNS} FROM tournaments t WHERE status <> 'over' OR EXISTS"
                " (SELECT 1 FROM tournament_messages m WHERE m.tournament_id = t.id"
                " AND m.sent_at IS NULL) ORDER BY id")
        return [_row(row) for row in rows]

    async def tournaments_in(self, guild_id: int, channel_id: int | None = None,
                             *, live: bool = True) -> list[TournamentRow]:
        """A server's tournaments (in one channel), newest first; `live`: not over."""
        sql = f"SELECT {_COLUMNS} FROM tournaments WHERE guild_id = ?"
        params: list[Any] = [guild_id]
        if channel_id is not None:
            sql += " AND channel_id = ?"
            params.append(channel_id)
        if live:
            sql += " AND status <> 'over'"
        async with self._read() as conn:
            rows = await conn.fetch_all(sql + " ORDER BY id DESC", params)
        return [_row(row) for row in rows]

    async def last_tournament_in(self, guild_id: int, channel_id: int) -> TournamentRow | None:
        """The newest tournament of a channel, or of the tournament whose table played in
        `channel_id` (a table's thread), over or not; None when there was none. One row read
        on demand: `/tournament standings` after the end shows a finished tournament's final
        standings without the bot keeping every finished tournament in memory."""
        async with self._read() as conn:
            row = await conn.fetch_one(
                f"SELECT {_COLUMNS} FROM tournaments WHERE guild_id = ? AND (channel_id = ?"
                " OR id IN (SELECT tournament_id FROM tournament_tables WHERE thread_id = ?))"
                " ORDER BY id DESC LIMIT 1", (guild_id, channel_id, channel_id))
        return None if row is None else _row(row)

    async def tournament_tables(self, tournament_id: int) -> list[TournamentTable]:
        async with self._read() as conn:
            rows = await conn.fetch_all(
                f"SELECT {_TABLE_COLUMNS} FROM tournament_tables WHERE tournament_id = ?"
                " ORDER BY round, number", (tournament_id,))
        return [_table_row(row) for row in rows]

    async def unsent_tournament_messages(self, tournament_id: int) -> list[TournamentMessage]:
        async with self._read() as conn:
            rows = await conn.fetch_all(
                "SELECT id, tournament_id, body FROM tournament_messages"
                " WHERE tournament_id = ? AND sent_at IS NULL ORDER BY id", (tournament_id,))
        return [TournamentMessage(int(r["id"]), int(r["tournament_id"]), json.loads(r["body"]))
                for r in rows]

    async def tournament_places(self, tournament_id: int) -> list[TournamentPlace]:
        async with self._read() as conn:
            rows = await conn.fetch_all(
                "SELECT player, user_id, name, place, score FROM tournament_places"
                " WHERE tournament_id = ? ORDER BY place, player", (tournament_id,))
        return [TournamentPlace(r["player"], None if r["user_id"] is None else int(r["user_id"]),
                                r["name"], int(r["place"]), float(r["score"])) for r in rows]

    async def tournament_board(self, guild_id: int, kind: str | None = None, *,
                               limit: int = 10, offset: int = 0) -> list[TournamentBoardRow]:
        """A server's members by tournaments won, then best place, then tournaments played
        (AI entrants are not on it); of one game, or of all."""
        if limit < 1 or offset < 0:
            raise StoreError("limit must be at least 1 and offset at least 0")
        where = "p.guild_id = ? AND p.user_id IS NOT NULL"
        params: list[Any] = [guild_id]
        if kind is not None:
            where += " AND p.kind = ?"
            params.append(kind)
        async with self._read() as conn:
            rows = await conn.fetch_all(
                "SELECT p.user_id, coalesce(max(pl.display_name), max(p.name)) AS name,"
                " count(*) AS events, sum(CASE WHEN p.place = 1 THEN 1 ELSE 0 END) AS won,"
                " min(p.place) AS best"
                " FROM tournament_places p LEFT JOIN players pl ON pl.user_id = p.user_id"
                f" WHERE {where}"
                " GROUP BY p.user_id ORDER BY won DESC, best ASC, events DESC, p.user_id ASC"
                " LIMIT ? OFFSET ?", (*params, limit, offset))
        return [TournamentBoardRow(int(r["user_id"]), r["name"] or str(r["user_id"]),
                                   int(r["events"]), int(r["won"]), int(r["best"]))
                for r in rows]
