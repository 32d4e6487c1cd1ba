"""The web page in a real browser (issue 25): Debian's chromium, driven by Playwright, on the
pages `python -m web` serves from the database the real bot (`python -m bot`) writes while
people play through the loopback Discord.

- A public server: a Sppoker table opened with the bot's commands is found on the server's
  home and followed on its live page, which changes after a move (Server-Sent Events) and
  never shows a held card; once the game ends the page links its replay, which is stepped
  through with the arrow keys, each step's cards (`data-card`, per seat) checked against the
  notation the page offers for download (replayed by the engine), and "what Bob knew" shows
  Bob's cards alone. The leaderboard and the player's page (a Chart.js chart) come next.
- A members-only server: a visitor is sent to Discord's log-in (the loopback's OAuth2
  consent page), authorizes, and comes back to the page; another server's page, whose
  member they are not, is refused (403); after logging out the page asks for log-in again.

Every page runs axe-core (no serious or critical violation), shows no console error (a
Content-Security-Policy refusal is one), and is saved as a screenshot (.cache/screenshots, or
docs/screenshots with DC_SCREENSHOTS=docs/screenshots).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from engine.notation import Replayer, parse
from loopback import LoopbackDiscord
from loopback.process import BotProcess
from tests.e2e.helpers import wait_dm_button
from tests.support import browser as harness
from tests.support.autoplay import HAND_LINE, POKER_LABEL, AutoPlayer, open_table
from tests.support.browser import (
    assert_accessible,
    page_problems,
    screenshot,
    wait_until,
)
from tests.support.patience import AnsweredDiscord, patient
from tests.support.web_process import web_process

if TYPE_CHECKING:  # the test extras' Playwright: imported only where it runs
    from playwright.async_api import Page

pytestmark = pytest.mark.e2e

SECRET = "a-web-secret-of-at-least-32-characters!"


@dataclass
class Site:
    discord: LoopbackDiscord
    bot: BotProcess
    url: str

    @property
    def home(self) -> str:
        return f"{self.url}/g/{self.discord.state.guild.id}"


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    """The bot on a SQLite file, the loopback Discord (its OAuth2 set up for the web page's
    log-in), and `python -m web` on the same file."""
    harness.require_browser()  # before a bot is started for nothing
    database = tmp_path / "bot.sqlite3"
    async with AnsweredDiscord(users=["alice", "bob", "carol"], channels=["general"],
                               rate_limits=False) as discord:
        bot = BotProcess(discord, database, log_path=tmp_path / "bot.log",
                         extra_env={"AI_DELAY": "0.05"})
        await bot.start()
        try:
            oauth = discord.oauth
            env = {"WEB_SECRET": SECRET, "DISCORD_CLIENT_ID": oauth.client_id,
                   "DISCORD_CLIENT_SECRET": oauth.client_secret,
                   "DISCORD_API": discord.api_base,
                   "DISCORD_OAUTH_AUTHORIZE": f"{discord.server.url}/oauth2/authorize",
                   "WEB_RATE": "1000", "WEB_BURST": "1000"}
            async with web_process(database, tmp_path / "web.log", env=env,
                                   timeout=patient(60)) as served:
                oauth.redirect_uris.append(f"{served.url}/oauth/callback")
                yield Site(discord, bot, served.url)
                served.check()  # it served the whole test
        finally:
            await bot.stop()
        discord.assert_no_rejected()


async def set_web(site: Site, channel: str, owner: str, access: str) -> None:
    """`/table settings web:<access>`, as the server's owner sets it."""
    answer = await site.discord.user(owner).slash(channel, f"table settings web:{access}")
    shown = {"public": "Public", "members": "Members only"}[access]
    assert f"web page is **{shown}**" in answer.text, answer.text


async def checked(page: Page, name: str) -> None:
    """The page as a visitor has it now: accessible, without console errors or failed
    loads, and saved as a screenshot."""
    await assert_accessible(page)
    assert page_problems(page) == [], page_problems(page)
    await screenshot(page, name)


async def page_cards(page: Page, selector: str) -> list[str]:
    found: list[str] = await page.eval_on_selector_all(
        f"{selector} [data-card]", "nodes => nodes.map(n => n.getAttribute('data-card'))")
    return found


async def step_of(page: Page) -> int:
    return int(await page.get_attribute("main", "data-step") or "-1")


async def test_a_game_followed_live_then_replayed_with_the_keyboard(site: Site,
                                                                    page: Page) -> None:
    discord = site.discord
    alice, bob = discord.user("alice"), discord.user("bob")
    general = discord.channel("general")
    await set_web(site, "general", "alice", "public")
    await open_table(discord, alice, general, "sppoker start target:1", [bob])
    player = AutoPlayer(discord, general, [alice, bob], seed=5)
    hands = {}
    for user in (alice, bob):
        prompt = await user.wait_for_dm(lambda m: HAND_LINE.search(m.text) is not None)
        found = HAND_LINE.search(prompt.text)
        assert found is not None
        hands[user.name] = found["cards"]

    # The server's home lists the table playing now; its live page shows no held card.
    await page.goto(site.home)
    await checked(page, "home-playing")
    link = await page.get_attribute("a[href*='/table/']", "href")
    assert link is not None
    live = await page.goto(link if link.startswith("http") else site.url + link)
    assert live is not None and live.status == 200, (link, await page.content())
    before = await step_of(page)
    whose = await page.text_content("#whose-turn")
    content = await page.content()
    for cards in hands.values():
        for label in cards.split():
            assert f'data-card="{label}"' not in content, (label, "a held card is shown")
    await checked(page, "live-table")

    # A move (Alice's alone: Bob's would end the game): the page follows it without a reload.
    await alice.click(await wait_dm_button(discord, alice, POKER_LABEL), label=POKER_LABEL)
    await wait_until(page, f"Number(document.querySelector('main').dataset.step) > {before}",
                     patient(30))
    assert await page.text_content("#whose-turn") != whose
    assert await page.locator("#last-moves li").count() >= 1

    # The game ends: the live page says so and links the replay.
    await player.play()
    await page.wait_for_selector("#replay-link", timeout=patient(30) * 1000)
    await page.click("#replay-link")
    await page.wait_for_selector("main.replay")
    assert await step_of(page) == 0
    replay_url = page.url.split("?")[0]

    download = await page.request.get(f"{replay_url}/notation")
    assert download.ok and "attachment" in download.headers["content-disposition"]
    notation = parse(await download.text())
    assert notation.game == "sppoker" and notation.names == ("Alice", "Bob")
    replayer = Replayer(notation)
    last = len(replayer) - 1
    assert last >= 2  # as dealt, and both declarations

    async def matches_notation(index: int) -> None:
        frame = replayer.frame(index)
        assert await step_of(page) == index
        for seat, view in enumerate(frame.views):
            shown = await page_cards(page, f".hand[data-seat='{seat}']")
            assert shown == [str(card) for card in view.hand], (index, seat)

    # Every step with → and back with ←, each checked against the notation.
    await matches_notation(0)
    await checked(page, "replay")
    for index in range(1, last + 1):
        async with page.expect_navigation():
            await page.keyboard.press("ArrowRight")
        await matches_notation(index)
    await page.keyboard.press("ArrowRight")  # past the last step: nowhere to go
    assert await step_of(page) == last
    async with page.expect_navigation():
        await page.keyboard.press("ArrowLeft")
    await matches_notation(last - 1)

    # What Bob knew as dealt: his hand alone; none of Alice's cards.
    await page.goto(f"{replay_url}?step=0&as=1")
    first = replayer.frame(0)
    assert await page_cards(page, ".hand") == [str(card) for card in first.views[1].hand]
    alices = {str(card) for card in first.views[0].hand} - {
        str(card) for card in first.views[1].hand}
    assert not alices & set(await page_cards(page, "main"))
    await checked(page, "replay-what-bob-knew")

    # The game's board and Alice's page, with her rating chart drawn.
    await page.goto(f"{site.home}/leaderboard/sppoker")
    await page.wait_for_selector("main")
    assert "Alice" in (await page.text_content("main") or "")
    await checked(page, "leaderboard")
    await page.goto(f"{site.home}/player/{alice.id}")
    await wait_until(page, "document.querySelector('canvas') !== null"
                     " && document.querySelector('canvas').width > 0"
                     " && window.Chart !== undefined", patient(10))
    await checked(page, "player")
    await page.goto(site.home)
    assert "Alice" in (await page.text_content("main") or "")  # among the recent results
    await checked(page, "home")


async def test_members_log_in_with_discord_and_are_refused_another_server(
        site: Site, page: Page) -> None:
    discord = site.discord
    await set_web(site, "general", "alice", "members")
    # Another server, with the bot in it and its page for members too; Alice is not one.
    other = discord.state.add_guild("Other Server", ["elsewhere"])
    bob = discord.user("bob")
    other.owner_id = bob.id
    await discord.wait_for(lambda: discord.bot_connected, timeout=10)
    await set_web(site, "elsewhere", "bob", "members")
    other.member_ids.remove(discord.user("alice").id)
    discord.oauth.sign_in("alice")

    # Not logged in: the page sends the visitor to Discord, whose consent page they accept
    # (the first time only: Discord skips it for an application already authorized).
    await page.goto(site.home)
    assert page.url.startswith(f"{discord.server.url}/oauth2/authorize"), page.url
    assert "Signed in as alice" in (await page.text_content("main") or "")
    async with page.expect_navigation(url=f"{site.home}**"):
        await page.click("button[value='authorize']")
    assert page.url.rstrip("/") == site.home
    assert "Log out" in (await page.text_content("body") or "")
    await checked(page, "home-members")

    # Another server's page: refused, with a page that says so.
    response = await page.goto(f"{site.url}/g/{other.id}")
    assert response is not None and response.status == 403
    await assert_accessible(page)
    await screenshot(page, "refused")

    # Logged out (of the page, and of Discord), the page asks for log-in again.
    await page.goto(site.home)
    async with page.expect_navigation():
        await page.click("a[href='/logout']")
    assert "Log out" not in (await page.text_content("body") or "")
    discord.oauth.sign_in(None)
    await page.goto(site.home)
    assert page.url.startswith(f"{discord.server.url}/oauth2/authorize"), page.url
    assert "Log in to Discord" in (await page.text_content("body") or "")
