"""What a person's page on the web reads (issue 25): their record, ratings, rating history
and last games in one server, found from the person outwards.

Apart from the rest of `bot.store.web_reads` because a person's page is the web's most
asked-for read: every query here starts from the person's own rows (their results, their
ratings), never from all of a server's, and the page is read on one connection at once.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.store.base import StoreCore, _check_id, _from_ts
from bot.store.drivers.base import Connection, Row
from bot.store.drivers.read_only import quick_reading
from bot.store.ratings import player_rating
from bot.store.rows import KindStats
from bot.store.skill import PlayerRating, Skill, user_entity

__all__ = ["PlayerPage", "PlayerReads", "RatingPoint", "WebGame", "WebSeat", "seats_of"]


@dataclass(frozen=True)
class WebSeat:
    """One seat of an ended game as a list of games shows it."""

    seat: int
    name: str
    user_id: int | None
    score: int | None
    win: bool


@dataclass(frozen=True)
class WebGame:
    """An ended game with its seats, newest first in the lists."""

    game_id: int
    table_id: str | None
    kind: str
    status: str
    finished_at: datetime
    seats: tuple[WebSeat, ...]


@dataclass(frozen=True)
class RatingPoint:
    """A person's shown rating at one game after one rated game of it."""

    kind: str
    game_id: int
    at: datetime
    rating: int


@dataclass(frozen=True)
class PlayerPage:
    """What a person's page shows, read at once (`WebReads.player_page`)."""

    #: Their display name; None for someone the store does not know.
    name: str | None
    records: dict[str, KindStats]
    ratings: dict[str, PlayerRating]
    #: Their latest ended games here, newest first.
    recent: list[WebGame]


class PlayerReads(StoreCore):
    """A person's page's reads (mixed into `WebReads`)."""

    def _read_quick(self) -> AbstractAsyncContextManager[Connection]:
        """A connection for a short, indexed read, which every page or the most asked-for
        one makes: on SQLite run on the loop's thread, no hop to a reader's thread and back
        (`bot.store.drivers.read_only.InlineReads`); else as `_read`."""
        return quick_reading(self._db)

    async def player_records(self, guild_id: int, user_id: int) -> dict[str, KindStats]:
        """`Store.player_stats` (a person's record per game kind here), read from the
        person's own results outwards: the store's query lets SQLite walk every game of the
        server to find one person's, 35 ms on 20,000 games where this takes a few."""
        _check_id(guild_id, "guild_id")
        _check_id(user_id, "user_id")
        async with self._read() as conn:
            return await _records(conn, guild_id, user_id)

    # --- a person's page --------------------------------------------------------------------

    async def player_ratings_here(self, guild_id: int, user_id: int
                                  ) -> dict[str, PlayerRating]:
        """`Store.player_ratings` (a person's rating per game here, with their last rated
        game's change), found by the person (the ratings_by_user index) rather than among
        every rating of the server, as the store's query (by the key: server, game, entity)
        has SQLite and PostgreSQL do: 1.3 ms on a server of 1,000 players, this 0.3."""
        _check_id(guild_id, "guild_id")
        _check_id(user_id, "user_id")
        async with self._read() as conn:
            return await _ratings(conn, guild_id, user_id)

    async def player_page(self, guild_id: int, user_id: int, recent: int) -> PlayerPage:
        """Everything a person's page shows (name, record and rating per game, last
        `recent` games with their seats), in one query (`_PAGE`): the page read as
        `player`, `player_records`, `player_ratings_here` and `recent_results` side by side
        cost six queries, four connections and their tasks, most of a page's time once the
        database has the rows in memory; as two queries, the second's round trip was a
        third of the web process's CPU for the page's reads on PostgreSQL. A rating is
        read for a game the person has a finished game of (the only games rated)."""
        _check_id(guild_id, "guild_id")
        _check_id(user_id, "user_id")
        async with self._read_quick() as conn:
            rows = await conn.fetch_all(_PAGE, (user_id, guild_id, user_id, guild_id,
                                                user_entity(user_id), user_id, guild_id,
                                                recent))
            kinds = [row for row in rows if row["part"] == 0]
            if kinds:
                name = kinds[0]["name"]
            else:  # no finished game here: maybe aborted ones, maybe nobody
                known = await conn.fetch_one(
                    "SELECT display_name FROM players WHERE user_id = ?", (user_id,))
                if known is None:
                    return PlayerPage(None, {}, {}, [])
                name = known["display_name"]
        records = {str(row["kind"]): _record(row) for row in kinds}
        ratings = {str(row["kind"]): player_rating(row) for row in kinds
                   if row["mu"] is not None}
        played = rows[len(kinds):]  # the seats of the last games, after the records
        games: list[WebGame] = []
        seats: list[WebSeat] = []
        for at, row in enumerate(played):
            seats.append(_seat(row))
            if at + 1 == len(played) or played[at + 1]["id"] != row["id"]:
                games.append(WebGame(int(row["id"]), row["table_id"], str(row["kind"]),
                                     str(row["status"]), _from_ts(row["finished_at"]),
                                     tuple(seats)))
                seats = []
        return PlayerPage(name, records, ratings, games)

    async def rating_history(self, guild_id: int, user_id: int) -> list[RatingPoint]:
        """A person's shown rating after each rated game in this server, in game order, per
        game kind (the chart on their page)."""
        _check_id(guild_id, "guild_id")
        _check_id(user_id, "user_id")
        async with self._read_quick() as conn:
            rows = await conn.fetch_all(
                "SELECT g.kind AS kind, g.id AS id, g.finished_at AS finished_at,"
                " c.mu_after AS mu, c.sigma_after AS sigma"
                " FROM rating_changes c JOIN games g ON g.id = c.game_id"
                " WHERE c.entity = ? AND g.guild_id = ? ORDER BY c.game_id",
                (user_entity(user_id), guild_id))
        return [RatingPoint(str(row["kind"]), int(row["id"]), _from_ts(row["finished_at"]),
                            Skill(float(row["mu"]), float(row["sigma"])).shown)
                for row in rows]

    async def known_in_guild(self, guild_id: int, user_id: int) -> bool:
        """Whether this person has played in this server or holds chips in it: a person's
        page exists only there (no page of a stranger, nor one across servers)."""
        async with self._read() as conn:
            row = await conn.fetch_one(
                "SELECT 1 FROM game_results r JOIN games g ON g.id = r.game_id"
                " WHERE r.user_id = ? AND g.guild_id = ?"
                " UNION ALL SELECT 1 FROM chip_balances WHERE guild_id = ? AND user_id = ?"
                " LIMIT 1", (user_id, guild_id, guild_id, user_id))
        return row is not None


#: A person's record per game kind here (`WebReads.player_records`), found from their own
#: results outwards; its parameters: the user's id, the server's.
_RECORDS = (
    "SELECT g.kind AS kind, count(*) AS played, CAST(sum(r.win) AS BIGINT) AS won,"
    " max(r.score) AS best_score, max(g.finished_at) AS last_played"
    " FROM game_results r CROSS JOIN games g"  # CROSS JOIN: SQLite keeps r outer
    " WHERE g.id = r.game_id AND r.user_id = ? AND g.guild_id = ?"
    " AND g.status = 'finished' GROUP BY g.kind")


#: A person's page (`PlayerReads.player_page`) in one query: their record and rating per
#: game kind (`part` 0, by kind), then each seat of their last games (`part` 1, the newest
#: game first, by seat), each part's columns NULL in the other's rows. Its parameters: the
#: user's id, the server's (`_RECORDS`); the user's id, the server's, the user's rating
#: entity (their name, ratings by the key: server, game, entity, one row a game kind); the
#: user's id, the server's, how many games.
_PAGE = (
    "SELECT 0 AS part, k.kind AS kind, k.played AS played, k.won AS won,"
    " k.best_score AS best_score, k.last_played AS last_played, p.display_name AS name,"
    " r.mu AS mu, r.sigma AS sigma, r.games AS games, c.mu_before AS mu_before,"
    " c.sigma_before AS sigma_before, NULL AS id, NULL AS table_id, NULL AS status,"
    " NULL AS finished_at, NULL AS seat, NULL AS user_id, NULL AS score, NULL AS win"
    f" FROM ({_RECORDS}) k JOIN players p ON p.user_id = ?"
    " LEFT JOIN ratings r ON r.guild_id = ? AND r.kind = k.kind AND r.entity = ?"
    " LEFT JOIN rating_changes c ON c.game_id = r.last_game_id AND c.entity = r.entity"
    " UNION ALL"
    " SELECT 1, g.kind, NULL, NULL, NULL, NULL, coalesce(s.seat_label, p.display_name),"
    " NULL, NULL, NULL, NULL, NULL, g.id, g.table_id, g.status, g.finished_at, s.seat,"
    " s.user_id, s.score, s.win"
    " FROM (SELECT r.game_id AS game_id FROM game_results r"
    " JOIN games m ON m.id = r.game_id WHERE r.user_id = ? AND m.guild_id = ?"
    " ORDER BY r.game_id DESC LIMIT ?) mine"
    " JOIN games g ON g.id = mine.game_id"
    " JOIN game_results s ON s.game_id = g.id"
    " LEFT JOIN players p ON p.user_id = s.user_id"
    # a compound's order names its columns: the records have no id nor seat, so by kind
    " ORDER BY part, id DESC, seat, kind")


async def _records(conn: Any, guild_id: int, user_id: int) -> dict[str, KindStats]:
    """`WebReads.player_records` on a connection held."""
    rows: list[Row] = await conn.fetch_all(_RECORDS + " ORDER BY kind", (user_id, guild_id))
    return {str(row["kind"]): _record(row) for row in rows}


def _record(row: Row) -> KindStats:
    return KindStats(
        kind=str(row["kind"]), played=int(row["played"]), won=int(row["won"]),
        best_score=None if row["best_score"] is None else int(row["best_score"]),
        last_played=_from_ts(row["last_played"]))


async def _ratings(conn: Any, guild_id: int, user_id: int) -> dict[str, PlayerRating]:
    """`WebReads.player_ratings_here` on a connection held."""
    rows: list[Row] = await conn.fetch_all(
        "SELECT r.kind AS kind, r.mu AS mu, r.sigma AS sigma, r.games AS games,"
        " c.mu_before AS mu_before, c.sigma_before AS sigma_before"
        " FROM ratings r LEFT JOIN rating_changes c"
        " ON c.game_id = r.last_game_id AND c.entity = r.entity"
        # +r.guild_id: not the key's first column, which SQLite would rather take
        " WHERE r.user_id = ? AND +r.guild_id = ? AND r.entity = ? ORDER BY r.kind",
        (user_id, guild_id, user_entity(user_id)))
    return {str(row["kind"]): player_rating(row) for row in rows}


def _seat(row: Row) -> WebSeat:
    return WebSeat(int(row["seat"]), str(row["name"] or f"seat {row['seat']}"),
                   row["user_id"], row["score"], bool(row["win"]))


async def seats_of(conn: Any, game_ids: list[int]) -> dict[int, list[WebSeat]]:
    """Every seat of these games, in one query, by game."""
    if not game_ids:
        return {}
    marks = ", ".join("?" for _ in game_ids)
    rows: list[Row] = await conn.fetch_all(
        "SELECT r.game_id AS game_id, r.seat AS seat, r.user_id AS user_id,"
        " coalesce(r.seat_label, p.display_name) AS name, r.score AS score, r.win AS win"
        " FROM game_results r LEFT JOIN players p ON p.user_id = r.user_id"
        f" WHERE r.game_id IN ({marks}) ORDER BY r.game_id, r.seat", tuple(game_ids))
    found: dict[int, list[WebSeat]] = {}
    for row in rows:
        found.setdefault(int(row["game_id"]), []).append(_seat(row))
    return found
