"""The link buttons to a server's web page (issue 25): there when the bot knows the page's
address (WEB_URL) and the server turned its page on, pointing at the same board, order and
page, or at the finished game's replay; absent otherwise (no button to a page that answers
"not found"). A wrong WEB_URL stops the bot at start-up instead of making broken links."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest

from bot.discord.web_links import WebLinks
from bot.settings import SettingsError, load_settings
from bot.store import Store
from cogs.leaderboards import leaderboard_page
from engine.games import GAMES
from tests.support.guessing import Guessing
from tests.support.in_process import ALICE, BOB, GUILD, Bot, running_bot

BASE = "https://cards.example.org"
SERVER = 5001


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(tmp_path / "links.sqlite3")
    yield opened
    await opened.close()


@pytest.fixture
async def bot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Bot]:
    monkeypatch.setitem(GAMES, "guessing", Guessing)
    async with running_bot(tmp_path) as running:
        yield running


def links(view: discord.ui.View) -> list[str]:
    return [item.url for item in view.children
            if isinstance(item, discord.ui.Button) and item.url]


async def test_a_board_links_its_web_page_once_the_server_turned_it_on(store: Store) -> None:
    web = WebLinks(store, BASE)
    _, view = await leaderboard_page(store, SERVER, "poke", "wins", 0, web)
    assert links(view) == []  # off by default
    await store.set_guild_setting(SERVER, "web", "public")
    _, view = await leaderboard_page(store, SERVER, "poke", "points", 0, web)
    assert links(view) == [f"{BASE}/g/{SERVER}/leaderboard/poke?order=points&page=1"]
    await store.set_guild_setting(SERVER, "web", "members")
    assert await web.url(SERVER, "/player/7") == f"{BASE}/g/{SERVER}/player/7"


async def test_no_link_without_web_url(store: Store) -> None:
    await store.set_guild_setting(SERVER, "web", "public")
    _, view = await leaderboard_page(store, SERVER, "poke", "wins", 0, WebLinks(store, None))
    assert links(view) == []


def test_web_url_is_checked_at_start_up() -> None:
    assert load_settings({"WEB_URL": f"{BASE}/"}, env_file=None).web_url == BASE
    assert load_settings({}, env_file=None).web_url is None
    with pytest.raises(SettingsError, match="WEB_URL must be a URL"):
        load_settings({"WEB_URL": "cards.example.org"}, env_file=None)


async def play_to_the_end(bot: Bot) -> str:
    """A game of Guessing to its end; its final message's buttons' urls (links only)."""
    table = await bot.open_table({"target": 1, "seconds": 3600})
    await bot.deliver()
    await bot.press(bot.prompt(ALICE), ALICE, "1")
    await bot.press(bot.prompt(BOB), BOB, "3")
    await bot.deliver()
    final = bot.channel.shown[-1]
    assert "Replay" in final.labels
    return table.table_id


async def test_a_finished_games_message_links_its_replay_on_the_web_page(bot: Bot) -> None:
    bot.links.base = BASE
    await bot.store.set_guild_setting(GUILD, "web", "public")
    table_id = await play_to_the_end(bot)
    final = bot.channel.shown[-1]
    urls = [item.get("url") for item in final.items if item.get("url")]
    assert urls == [f"{BASE}/g/{GUILD}/replay/{table_id}"]
    assert final.labels[-1] == "Web page"


async def test_no_link_on_the_final_message_while_the_page_is_off(bot: Bot) -> None:
    bot.links.base = BASE
    await play_to_the_end(bot)
    assert [item for item in bot.channel.shown[-1].items if item.get("url")] == []
