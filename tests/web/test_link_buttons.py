"""The link buttons to a server's web page on `/leaderboard` (issue 25): there when the bot
knows the page's address (WEB_URL) and the server turned its page on, pointing at the same
board, order and page; absent otherwise (no button to a page that answers "not found")."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import discord
import pytest

from bot.store import Store
from cogs import web_links
from cogs.leaderboards import leaderboard_page

GUILD = 5001


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(tmp_path / "links.sqlite3")
    yield opened
    await opened.close()


@pytest.fixture
def web_url(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    monkeypatch.chdir(tmp_path)  # no .env of the checkout's
    monkeypatch.setenv("WEB_URL", "https://cards.example.org/")
    web_links.web_url.cache_clear()
    yield
    web_links.web_url.cache_clear()


def links(view: discord.ui.View) -> list[str]:
    return [item.url for item in view.children
            if isinstance(item, discord.ui.Button) and item.url]


@pytest.mark.usefixtures("web_url")
async def test_a_board_links_its_web_page_once_the_server_turned_it_on(store: Store) -> None:
    _, view = await leaderboard_page(store, GUILD, "poke", "wins", 0)
    assert links(view) == []  # off by default
    await store.set_guild_setting(GUILD, "web", "public")
    _, view = await leaderboard_page(store, GUILD, "poke", "points", 0)
    assert links(view) == [
        f"https://cards.example.org/g/{GUILD}/leaderboard/poke?order=points&page=1"]
    await store.set_guild_setting(GUILD, "web", "members")
    assert await web_links.page_url(store, GUILD, "/player/7") == \
        f"https://cards.example.org/g/{GUILD}/player/7"


async def test_no_link_without_web_url(store: Store, monkeypatch: pytest.MonkeyPatch,
                                       tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("WEB_URL", raising=False)
    web_links.web_url.cache_clear()
    try:
        await store.set_guild_setting(GUILD, "web", "public")
        _, view = await leaderboard_page(store, GUILD, "poke", "wins", 0)
        assert links(view) == []
    finally:
        web_links.web_url.cache_clear()
