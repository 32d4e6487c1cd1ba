"""The browser harness itself (tests/support/browser.py): it cannot pass by skipping where the
browser must be, axe-core finds what it should under the site's strict Content-Security-Policy
(so a clean result of the page tests means something), the policy is not loosened for the
tests, and screenshots are written."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from tests.support import browser as harness

if TYPE_CHECKING:  # the test extras' Playwright: imported only where it runs
    from playwright.async_api import Page

CSP = ("default-src 'self'; img-src 'self' data:; script-src 'self'; style-src 'self'; "
       "frame-ancestors 'none'")
GOOD = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fine</title>
<script src="/ok.js"></script></head>
<body><main><h1>Leaderboard</h1><p id="said">not yet</p>
<button type="button">Next</button></main></body></html>"""
BAD = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Broken</title>
</head><body><main><h1>Replay</h1><img src="/card.png"><button type="button"></button>
<script>document.title = 'inline ran';</script></main></body></html>"""


@pytest.fixture
async def site() -> AsyncIterator[str]:
    """Two pages served with the web page's policy: one accessible, one not (and with an
    inline script, which the policy must refuse)."""
    async def good(_: web.Request) -> web.Response:
        return web.Response(text=GOOD, content_type="text/html", headers={
            "Content-Security-Policy": CSP})

    async def bad(_: web.Request) -> web.Response:
        return web.Response(text=BAD, content_type="text/html", headers={
            "Content-Security-Policy": CSP})

    async def script(_: web.Request) -> web.Response:
        return web.Response(text="document.addEventListener('DOMContentLoaded', () => {"
                                 "document.getElementById('said').textContent = 'ran';});",
                            content_type="text/javascript")

    app = web.Application()
    app.router.add_get("/good", good)
    app.router.add_get("/bad", bad)
    app.router.add_get("/ok.js", script)
    server = TestServer(app, host="127.0.0.1")
    await server.start_server()
    try:
        yield str(server.make_url(""))
    finally:
        await server.close()


def test_a_missing_browser_fails_where_it_is_required(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DC_TEST_CHROMIUM", "/nonexistent/chromium")
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("DC_TEST_BROWSER", "required")
    with pytest.raises(pytest.fail.Exception, match="chromium is not installed"):
        harness.require_browser()
    monkeypatch.delenv("DC_TEST_BROWSER")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception):
        harness.require_browser()
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception, match=r"\./dev test installs it"):
        harness.require_browser()


async def test_axe_reports_serious_problems_under_the_strict_policy(
        page: Page, site: str, tmp_path: Path) -> None:
    await page.goto(f"{site}/good")
    await harness.wait_until(page, "document.getElementById('said').textContent === 'ran'")
    await harness.assert_accessible(page)
    assert harness.page_problems(page) == []

    await page.goto(f"{site}/bad")
    found = {v["id"]: v for v in await harness.axe_violations(page)}
    assert {"image-alt", "button-name"} <= set(found)
    assert found["image-alt"]["nodes"] == ["img"]
    with pytest.raises(AssertionError, match="image-alt"):
        await harness.assert_accessible(page)
    # The inline script was refused, and the refusal is seen: nothing bypasses the policy.
    assert await page.title() == "Broken"
    assert any("Content Security Policy" in p for p in harness.page_problems(page))

    shot = await harness.screenshot(page, "bad", tmp_path)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
