"""Games played: their records, leaderboards and each player's stats."""

from __future__ import annotations

from datetime import datetime
from typing import Any, get_args

from bot.store.base import _check_page, _check_record, _from_ts, _json, _ts
from bot.store.chips import ChipAccounts
from bot.store.drivers import Connection
from bot.store.page_changes import announce_change
from bot.store.ratings import Ratings
from bot.store.rows import (
    GameRecord,
    KindStats,
    LeaderboardOrder,
    LeaderboardRow,
)

# Equal wins: the better win rate first (fewer games, when there are wins), then the more
# games (at 0 wins, two games played are not worse than one).
_LEADERBOARD_ORDER: dict[str, str] = {
    "wins": "wins DESC, win_rate DESC, games DESC, points DESC, user_id ASC",
    "games": "games DESC, wins DESC, points DESC, user_id ASC",
    "points": "points DESC, wins DESC, win_rate DESC, games DESC, user_id ASC",
    "win_rate": "win_rate DESC, games DESC, points DESC, user_id ASC",
    # A solitaire's record: the best single game, then who reached it in fewer games.
    "best": "best DESC, games ASC, user_id ASC",
}
assert set(_LEADERBOARD_ORDER) == set(get_args(LeaderboardOrder))




class GameRecords(ChipAccounts, Ratings):
    """Finished and aborted games, their results, and the leaderboards and stats read from
    them (aborted games never count)."""

    async def record_game(
        self,
        record: GameRecord,
        *,
        table_id: str | None = None,
        now: datetime | None = None,
    ) -> int:
        """Record an ended game without touching snapshots or chips; returns the game id.

        A table should prefer `finish_table`, which also applies the last chip changes and
        clears the snapshot in the same transaction.
        """
        _check_record(record)
        stamp = self._now(now)
        async with self._write() as conn:
            return await self._insert_game(conn, record, table_id, stamp)

    async def _insert_game(
        self,
        conn: Connection,
        record: GameRecord,
        table_id: str | None,
        stamp: str,
    ) -> int:
        started = _ts(record.started_at)
        finished = stamp if record.finished_at is None else _ts(record.finished_at)
        if finished < started:
            raise ValueError("a game cannot finish before it started (check the clock)")
        row = await conn.fetch_one(
            "INSERT INTO games (guild_id, channel_id, kind, table_id, started_at, finished_at,"
            " status, options, seed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (
                record.guild_id,
                record.channel_id,
                record.kind,
                table_id,
                started,
                finished,
                str(record.status),
                _json(dict(record.options), "the game options"),
                None if record.seed is None else str(record.seed),
            ),
        )
        assert row is not None
        game_id = int(row["id"])
        await announce_change(conn, record.guild_id)  # a new latest game for the web's pages
        # Results point at players; make sure an unseen player has a row (the table manager
        # normally upserts players as they sit down). In user-id order, the one lock order.
        await conn.executemany(
            "INSERT INTO players (user_id, display_name, first_seen, last_seen)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (user_id) DO NOTHING",
            [
                (p.user_id, p.name or f"user {p.user_id}", stamp, stamp)
                for p in sorted(record.players, key=lambda p: p.user_id or 0)
                if p.user_id is not None
            ],
        )
        await conn.executemany(
            "INSERT INTO game_results (game_id, seat, user_id, seat_label, score, place, win)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (game_id, p.seat, p.user_id, p.name, p.score, p.place, int(p.win))
                for p in record.players
            ],
        )
        await self._rate_game(conn, game_id, record, stamp)  # rated with it, never apart
        return game_id

    # --- stats ------------------------------------------------------------------------------

    async def leaderboard(
        self,
        guild_id: int,
        kind: str | None = None,
        order_by: LeaderboardOrder = "wins",
        limit: int = 10,
        offset: int = 0,
        *,
        min_games: int = 1,
    ) -> list[LeaderboardRow]:
        """Ranked players of a server, for one kind of game or (kind=None) all of them.

        Only finished games and human seats count. Ties are broken by further columns and
        finally by user id, so that pages are stable and never overlap. `min_games` keeps
        one lucky game from topping a win-rate board. Across all games there are no points
        (each game counts them its own way), so they cannot order that board either.
        """
        if order_by not in _LEADERBOARD_ORDER:
            raise ValueError(f"order_by must be one of {', '.join(_LEADERBOARD_ORDER)}")
        if kind is None and order_by in ("points", "best"):
            what = "points" if order_by == "points" else "best scores"
            raise ValueError(f"{what} of different games do not compare: order by "
                             f"{order_by} needs a game")
        _check_page(limit, offset)
        where, params = _stats_filter(guild_id, kind)
        points = "NULL" if kind is None else "CAST(coalesce(sum(r.score), 0) AS BIGINT)"
        best = "NULL" if kind is None else "CAST(max(r.score) AS BIGINT)"
        async with self._read() as conn:
            rows = await conn.fetch_all(
                "SELECT r.user_id AS user_id, p.display_name AS display_name,"
                f" count(*) AS games, CAST(sum(r.win) AS BIGINT) AS wins, {points} AS points,"
                f" {best} AS best,"
                " CAST(sum(r.win) AS DOUBLE PRECISION) / count(*) AS win_rate"
                " FROM games g JOIN game_results r ON r.game_id = g.id"
                " JOIN players p ON p.user_id = r.user_id"
                f" WHERE {where} GROUP BY r.user_id, p.display_name HAVING count(*) >= ?"
                f" ORDER BY {_LEADERBOARD_ORDER[order_by]} LIMIT ? OFFSET ?",
                (*params, min_games, limit, offset),
            )
        return [
            LeaderboardRow(
                rank=offset + i + 1,
                user_id=row["user_id"],
                display_name=row["display_name"],
                games=row["games"],
                wins=row["wins"],
                points=row["points"],
                win_rate=row["win_rate"],
                best=row["best"],
            )
            for i, row in enumerate(rows)
        ]

    async def leaderboard_size(
        self, guild_id: int, kind: str | None = None, *, min_games: int = 1
    ) -> int:
        """How many players `leaderboard` can list, so a paginator knows its page count."""
        where, params = _stats_filter(guild_id, kind)
        async with self._read() as conn:
            row = await conn.fetch_one(
                "SELECT count(*) FROM (SELECT r.user_id FROM games g"
                " JOIN game_results r ON r.game_id = g.id"
                f" WHERE {where} GROUP BY r.user_id HAVING count(*) >= ?) AS ranked",
                (*params, min_games),
            )
        assert row is not None
        return int(row[0])

    async def player_stats(self, guild_id: int, user_id: int) -> dict[str, KindStats]:
        """A player's record in a server per kind of game (finished games only), by kind."""
        async with self._read() as conn:
            rows = await conn.fetch_all(
                "SELECT g.kind AS kind, count(*) AS played, CAST(sum(r.win) AS BIGINT) AS won,"
                " max(r.score) AS best_score, max(g.finished_at) AS last_played"
                " FROM game_results r JOIN games g ON g.id = r.game_id"
                " WHERE r.user_id = ? AND g.guild_id = ? AND g.status = 'finished'"
                " GROUP BY g.kind ORDER BY g.kind",
                (user_id, guild_id),
            )
        return {
            row["kind"]: KindStats(
                kind=row["kind"],
                played=row["played"],
                won=row["won"],
                best_score=row["best_score"],
                last_played=_from_ts(row["last_played"]),
            )
            for row in rows
        }



def _stats_filter(guild_id: int, kind: str | None) -> tuple[str, tuple[Any, ...]]:
    # Two fixed variants rather than "(? IS NULL OR kind = ?)", so the index on
    # (guild_id, kind, status) is used in both cases.
    base = "g.guild_id = ? AND g.status = 'finished' AND r.user_id IS NOT NULL"
    if kind is None:
        return base, (guild_id,)
    return base + " AND g.kind = ?", (guild_id, kind)


