"""The players the bot has seen, and the name to show for each."""

from __future__ import annotations

from datetime import datetime

from bot.store.base import StoreCore, _check_id, _check_text, _from_ts
from bot.store.rows import Player


class PlayerRows(StoreCore):
    """One row per Discord user who played or was named: their display name and when they
    were first and last seen."""

    async def upsert_player(
        self, user_id: int, display_name: str, *, now: datetime | None = None
    ) -> None:
        """Remember a player and the name to show for them; first_seen never moves."""
        _check_id(user_id, "user_id")
        _check_text(display_name, "display_name")
        stamp = self._now(now)
        await self._write_one(
            "INSERT INTO players (user_id, display_name, first_seen, last_seen)"
            " VALUES (?, ?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET display_name = excluded.display_name,"
            " last_seen = CASE WHEN excluded.last_seen > players.last_seen"
            " THEN excluded.last_seen ELSE players.last_seen END",
            (user_id, display_name, stamp, stamp),
        )

    async def player(self, user_id: int) -> Player | None:
        async with self._read() as conn:
            row = await conn.fetch_one(
                "SELECT user_id, display_name, first_seen, last_seen FROM players"
                " WHERE user_id = ?",
                (user_id,),
            )
        if row is None:
            return None
        return Player(
            row["user_id"],
            row["display_name"],
            _from_ts(row["first_seen"]),
            _from_ts(row["last_seen"]),
        )
