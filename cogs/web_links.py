"""Link buttons to a server's web page (issue 25): on `/leaderboard`, `/stats` and `/replay`
answers, when the bot knows the page's address (`WEB_URL`, the web process's own setting,
read here from the same environment and `.env` file) and the server has turned its page on
(`/table settings web:members|public`). A link button opens the browser; it sends the bot
nothing, so it needs no handler and survives restarts by itself.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

import discord

from bot.core.validation import guild_setting
from bot.present.i18n import t
from bot.settings import SettingsError, _url, parse_env_file
from bot.store import Store

__all__ = ["page_url", "web_button", "web_url"]


@functools.cache
def web_url() -> str | None:
    """WEB_URL without its trailing slash, or None when unset (or not a URL: the web process
    refuses it at its start, and the bot then shows no link rather than a broken one)."""
    values: dict[str, str] = {}
    env_file = Path(".env")
    try:
        if env_file.is_file():
            values.update(parse_env_file(env_file))
    except SettingsError:
        pass  # the bot's own start-up reports a broken .env
    values.update(os.environ)
    raw = (values.get("WEB_URL") or "").strip()
    try:
        checked = _url("WEB_URL", raw or None, ("http", "https"))
    except SettingsError:
        return None
    return checked.rstrip("/") if checked else None


async def page_url(store: Store, guild_id: int, path: str = "") -> str | None:
    """The address of a page of this server (`path` after `/g/<server>`), or None when the
    bot has no WEB_URL or the server's page is off."""
    base = web_url()
    if base is None:
        return None
    access = await guild_setting(store, guild_id, "web", "off")
    if access not in ("members", "public"):
        return None
    return f"{base}/g/{guild_id}{path}"


async def web_button(store: Store, guild_id: int, path: str = "", *,
                     row: int | None = None) -> discord.ui.Button[discord.ui.View] | None:
    """A "Web page" link button to a page of this server, or None (see `page_url`)."""
    url = await page_url(store, guild_id, path)
    if url is None:
        return None
    return discord.ui.Button(label=t("Web page"), emoji="🌐", url=url, row=row)
