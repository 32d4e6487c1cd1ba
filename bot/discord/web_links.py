"""Link buttons to a server's web page (issue 25): on `/leaderboard`, `/stats` and `/replay`
answers and on a finished game's final message, when the bot knows the page's address
(`WEB_URL`, `bot.settings`) and the server turned its page on (`/table settings
web:members|public`). A link button opens the browser; it sends the bot nothing, so it
needs no handler and survives restarts by itself.
"""

from __future__ import annotations

import discord

from bot.core.validation import guild_setting
from bot.present.i18n import t
from bot.store import Store


class WebLinks:
    """The addresses of a server's pages, or None where there is no page to open."""

    def __init__(self, store: Store, base: str | None) -> None:
        self.store = store
        self.base = base  # WEB_URL without its trailing slash

    async def url(self, guild_id: int | None, path: str = "") -> str | None:
        """The address of a page of this server (`path` after `/g/<server>`), or None when
        the bot has no WEB_URL or the server's page is off (a link to a "not found")."""
        if self.base is None or guild_id is None:
            return None
        access = await guild_setting(self.store, guild_id, "web", "off")
        if access not in ("members", "public"):
            return None
        return f"{self.base}/g/{guild_id}{path}"

    async def button(self, guild_id: int | None, path: str = "", *,
                     row: int | None = None) -> discord.ui.Button[discord.ui.View] | None:
        """A "Web page" link button to a page of this server, or None (see `url`)."""
        url = await self.url(guild_id, path)
        return None if url is None else link_button(url, row=row)


def link_button(url: str, *, row: int | None = None) -> discord.ui.Button[discord.ui.View]:
    return discord.ui.Button(label=t("Web page"), emoji="🌐", url=url, row=row)
