"""Skill ratings in the store: updated with a finished game's result, read for the boards.

`_rate_game` runs inside the transaction that records the game (`GameRecords._insert_game`),
so a game's result and the ratings it moved are written together or not at all: no crash
can leave a counted game unrated, or rate a game that was never recorded. Aborted games are
never rated, as they never count. The arithmetic is OpenSkill's (`bot.store.skill`); this module
only reads the ratings before, and writes those after and the change.
"""

from __future__ import annotations

from bot.store.base import StoreCore, _check_id, _check_page
from bot.store.drivers import Connection, Row
from bot.store.rows import GameRecord, GameStatus
from bot.store.skill import (
    RATED_AFTER,
    PlayerRating,
    RatingRow,
    Skill,
    Z,
    ai_entity,
    fresh,
    level_of,
    rate,
    user_entity,
    user_of,
)

# The conservative rating, mu − 3 sigma, to order by (Z is a constant of ours, not input).
_CONSERVATIVE = f"(r.mu - {Z!r} * r.sigma)"


class Ratings(StoreCore):
    """One rating per person (and per AI level) per game per server."""

    async def _rate_game(self, conn: Connection, game_id: int, record: GameRecord,
                         stamp: str) -> None:
        """Rate a just-recorded game; the caller's transaction holds both."""
        if record.status is not GameStatus.FINISHED:
            return
        seats = [(user_entity(p.user_id) if p.user_id is not None else ai_entity(), p.place)
                 for p in record.players if p.place is not None]
        if len(seats) < len(record.players):
            return  # no finishing order, nothing to rate
        entities = sorted({entity for entity, _ in seats})
        if len(entities) < 2:
            return  # a solitaire, or AI seats of one level only: nobody to be rated against
        before = await _lock_current(conn, record.guild_id, record.kind, entities, stamp)
        after = rate(seats, before)
        for entity, skill in sorted(after.items()):
            old = before[entity]
            await conn.execute(
                "INSERT INTO rating_changes (game_id, entity, mu_before, sigma_before,"
                " mu_after, sigma_after) VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, entity, old.mu, old.sigma, skill.mu, skill.sigma),
            )
            await conn.execute(
                "UPDATE ratings SET mu = ?, sigma = ?, games = games + 1,"
                " last_game_id = ?, updated_at = ?"
                " WHERE guild_id = ? AND kind = ? AND entity = ?",
                (skill.mu, skill.sigma, game_id, stamp, record.guild_id, record.kind, entity),
            )

    # --- reading ----------------------------------------------------------------------------

    async def rating_board(self, guild_id: int, kind: str, limit: int = 10,
                           offset: int = 0) -> list[RatingRow]:
        """A game's people by conservative rating (then the more games, then the user id, so
        pages are stable), with their wins at that game beside it."""
        _check_id(guild_id, "guild_id")
        _check_page(limit, offset)
        async with self._read() as conn:
            rows = await conn.fetch_all(
                "SELECT r.user_id AS user_id, p.display_name AS display_name, r.mu AS mu,"
                " r.sigma AS sigma, r.games AS games,"
                " (SELECT count(*) FROM game_results w JOIN games g ON g.id = w.game_id"
                "  WHERE w.user_id = r.user_id AND g.guild_id = r.guild_id"
                "  AND g.kind = r.kind AND g.status = 'finished' AND w.win = 1) AS wins"
                " FROM ratings r JOIN players p ON p.user_id = r.user_id"
                " WHERE r.guild_id = ? AND r.kind = ? AND r.user_id IS NOT NULL"
                f" ORDER BY {_CONSERVATIVE} DESC, r.games DESC, r.user_id ASC"
                " LIMIT ? OFFSET ?",
                (guild_id, kind, limit, offset),
            )
        return [
            RatingRow(rank=offset + i + 1, user_id=int(row["user_id"]),
                      display_name=row["display_name"],
                      skill=_skill(row),
                      games=int(row["games"]), wins=int(row["wins"]))
            for i, row in enumerate(rows)
        ]

    async def rating_board_size(self, guild_id: int, kind: str) -> int:
        async with self._read() as conn:
            rows = await conn.fetch_all(
                "SELECT count(*) FROM ratings"
                " WHERE guild_id = ? AND kind = ? AND user_id IS NOT NULL",
                (guild_id, kind),
            )
        return int(rows[0][0])

    async def rating_is_default(self, guild_id: int, kind: str) -> bool:
        """Whether a game's board orders by rating unless asked otherwise: once someone has
        played `RATED_AFTER` rated games of it in this server (before that, the conservative
        rating mostly says who played most, and wins read better)."""
        async with self._read() as conn:
            rows = await conn.fetch_all(
                "SELECT count(*) FROM ratings WHERE guild_id = ? AND kind = ?"
                " AND user_id IS NOT NULL AND games >= ?",
                (guild_id, kind, RATED_AFTER),
            )
        return int(rows[0][0]) > 0

    async def ai_ratings(self, guild_id: int, kind: str) -> dict[str, Skill]:
        """The AI levels' ratings at a game in this server, by level."""
        async with self._read() as conn:
            rows = await conn.fetch_all(
                "SELECT entity, mu, sigma FROM ratings"
                " WHERE guild_id = ? AND kind = ? AND user_id IS NULL ORDER BY entity",
                (guild_id, kind),
            )
        return {level_of(row["entity"]): _skill(row) for row in rows}

    async def player_ratings(self, guild_id: int, user_id: int) -> dict[str, PlayerRating]:
        """A person's rating at every game they were rated at in this server, by kind, with
        the change their last rated game made to it."""
        _check_id(guild_id, "guild_id")
        _check_id(user_id, "user_id")
        async with self._read() as conn:
            rows = await conn.fetch_all(
                "SELECT r.kind AS kind, r.mu AS mu, r.sigma AS sigma, r.games AS games,"
                " c.mu_before AS mu_before, c.sigma_before AS sigma_before"
                " FROM ratings r LEFT JOIN rating_changes c"
                " ON c.game_id = r.last_game_id AND c.entity = r.entity"
                " WHERE r.guild_id = ? AND r.entity = ? ORDER BY r.kind",
                (guild_id, user_entity(user_id)),
            )
        return {str(row["kind"]): player_rating(row) for row in rows}


def player_rating(row: Row) -> PlayerRating:
    """A `PlayerRating` of a row with a rating's kind, mu, sigma and games and its last
    change's mu and sigma before (None before any change): the change is what that game did
    to the shown rating."""
    skill = _skill(row)
    change = 0 if row["mu_before"] is None else skill.shown - Skill(
        float(row["mu_before"]), float(row["sigma_before"])).shown
    return PlayerRating(str(row["kind"]), skill, int(row["games"]), change)


async def _lock_current(conn: Connection, guild_id: int, kind: str,
                        entities: list[str], stamp: str) -> dict[str, Skill]:
    """The ratings of these entities at this game in this server, held until the transaction
    ends: an entity never rated gets its row first (the prior, 0 games; the caller's update
    makes it 1 before anyone can see it), then every row is read and locked, in entity
    order. So two games ending at once (two tables against the same AI level) rate one after
    the other, on PostgreSQL too, rather than one overwriting the other or failing on a
    duplicate row. (SQLite's write transaction already holds the whole database.)"""
    prior = fresh()
    await conn.executemany(
        "INSERT INTO ratings (guild_id, kind, entity, user_id, mu, sigma, games, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, 0, ?) ON CONFLICT (guild_id, kind, entity) DO NOTHING",
        [(guild_id, kind, entity, user_of(entity), prior.mu, prior.sigma, stamp)
         for entity in entities],
    )
    marks = ", ".join("?" for _ in entities)
    rows = await conn.fetch_all(
        "SELECT entity, mu, sigma FROM ratings"
        f" WHERE guild_id = ? AND kind = ? AND entity IN ({marks}) ORDER BY entity"
        + conn.for_update,
        (guild_id, kind, *entities),
    )
    return {str(row["entity"]): _skill(row) for row in rows}


def _skill(row: Row) -> Skill:
    return Skill(float(row["mu"]), float(row["sigma"]))
