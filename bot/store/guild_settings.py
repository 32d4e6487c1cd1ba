"""A server's settings: any JSON-safe value under a key, the defaults left to the caller."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from bot.store.base import StoreCore, _check_id, _check_text, _json
from bot.store.page_changes import announce_change


class GuildSettingRows(StoreCore):
    """What a server changed from the defaults, one row per key."""

    async def get_guild_setting(self, guild_id: int, key: str, default: Any = None) -> Any:
        """A server's setting, or `default` if the server never changed it."""
        _check_id(guild_id, "guild_id")
        async with self._read() as conn:
            row = await conn.fetch_one(
                "SELECT value FROM guild_settings WHERE guild_id = ? AND key = ?",
                (guild_id, key),
            )
        return json.loads(row["value"]) if row is not None else default

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        """Every setting the server changed (defaults are the caller's business)."""
        _check_id(guild_id, "guild_id")
        async with self._read() as conn:
            rows = await conn.fetch_all(
                "SELECT key, value FROM guild_settings WHERE guild_id = ? ORDER BY key",
                (guild_id,),
            )
        return {row["key"]: json.loads(row["value"]) for row in rows}

    async def set_guild_setting(
        self, guild_id: int, key: str, value: Any, *, now: datetime | None = None
    ) -> None:
        """Store any JSON-safe value (None is stored as JSON null; use delete to unset)."""
        _check_id(guild_id, "guild_id")
        _check_text(key, "key")
        encoded = _json(value, f"the setting {key!r}")
        async with self._write() as conn:
            await conn.execute(
                "INSERT INTO guild_settings (guild_id, key, value, updated_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (guild_id, key)"
                " DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
                (guild_id, key, encoded, self._now(now)),
            )
            await announce_change(conn, guild_id)

    async def delete_guild_setting(self, guild_id: int, key: str) -> bool:
        """Back to the default; returns whether there was a setting to remove."""
        _check_id(guild_id, "guild_id")
        async with self._write() as conn:
            deleted = await conn.execute(
                "DELETE FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, key)
            )
            await announce_change(conn, guild_id)
        return deleted > 0
