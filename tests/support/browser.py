"""A real browser for the web page's tests (issue 25): Debian's `chromium`, driven by
Playwright for Python through `executable_path`, so nothing is downloaded (Playwright's own
browser builds are never installed); and axe-core, the accessibility checker, run inside the
pages it opens.

    DC_TEST_BROWSER=required   fail, rather than skip, when the browser, Playwright or
                               axe-core is missing (`./dev test` sets it, and CI=true
                               implies it: there ./dev has installed all three)
    DC_TEST_CHROMIUM=/path     the browser (default: `chromium` on PATH)
    DC_TEST_AXE=/path          axe-core's axe.min.js (default: where ./dev installs it,
                               .cache/node/node_modules/axe-core/axe.min.js)

Outside CI a machine without chromium skips the browser tests with the reason and the
command that installs it; `./dev test` installs it like the other system packages.

The browser runs headless, with `--no-sandbox` when the tests run as root (CI does: Chromium
refuses to start its sandbox as root). axe-core is evaluated through the DevTools protocol
rather than added as a <script>: the site's Content-Security-Policy (`script-src 'self'`)
rightly refuses an injected script, and a test must not loosen it (no `bypass_csp`) since
the browser tests are also what shows that the pages work under that policy.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import weakref
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Screenshots go where no commit picks them up (.cache is ignored), since every run draws
# new table ids and dates; `DC_SCREENSHOTS=docs/screenshots` refreshes the committed ones
# (the README shows one).
SCREENSHOTS = Path(os.environ.get("DC_SCREENSHOTS") or ROOT / ".cache" / "screenshots")
#: What the suite asserts on: axe-core's two worst impacts.
FAILING_IMPACTS = ("serious", "critical")
INSTALL_HINT = "./dev test installs it (apt chromium, pip playwright, npm axe-core)"

try:  # the test extras: a checkout installed without them still collects
    from playwright.async_api import Browser, BrowserContext, Page, async_playwright
    HAVE_PLAYWRIGHT = True
except ImportError:  # pragma: no cover - ./dev test installs it
    HAVE_PLAYWRIGHT = False

_LOAD_FAILED = "Failed to load resource"
#: Each open page's console errors and uncaught exceptions, as they come.
_PROBLEMS: weakref.WeakKeyDictionary[Page, list[str]] = weakref.WeakKeyDictionary()


def browser_required() -> bool:
    """Whether a missing browser fails the tests: in CI and in `./dev test`, always."""
    return (os.environ.get("DC_TEST_BROWSER") == "required"
            or os.environ.get("CI", "").lower() in ("1", "true", "yes"))


def chromium_path() -> Path | None:
    configured = os.environ.get("DC_TEST_CHROMIUM")
    if configured:
        return Path(configured) if Path(configured).exists() else None
    found = shutil.which("chromium")
    return Path(found) if found else None


def axe_path() -> Path | None:
    configured = os.environ.get("DC_TEST_AXE")
    path = (Path(configured) if configured
            else ROOT / ".cache" / "node" / "node_modules" / "axe-core" / "axe.min.js")
    return path if path.exists() else None


def missing() -> str | None:
    """What of the browser set-up is not installed, in words; None when all of it is."""
    if not HAVE_PLAYWRIGHT:
        return "Playwright for Python is not installed"
    if chromium_path() is None:
        return "Debian's chromium is not installed (no `chromium` on PATH)"
    if axe_path() is None:
        return "axe-core is not installed (no axe.min.js)"
    return None


def require_browser() -> None:
    """Skip the test when the browser is missing on a developer's machine; fail it where the
    browser must be there (so CI can never pass by skipping)."""
    problem = missing()
    if problem is None:
        return
    if browser_required():
        pytest.fail(f"{problem}, and the browser tests must run here; {INSTALL_HINT}.")
    pytest.skip(f"{problem}; {INSTALL_HINT}.")


def launch_args() -> list[str]:
    args = ["--disable-dev-shm-usage", "--disable-gpu"]
    if os.geteuid() == 0:
        args.append("--no-sandbox")  # Chromium will not sandbox itself as root
    return args


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    """A headless system chromium for one test."""
    require_browser()
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(
            executable_path=str(chromium_path()), headless=True, args=launch_args())
        try:
            yield launched
        finally:
            await launched.close()


@pytest.fixture
async def browser_context(browser: Browser) -> AsyncIterator[BrowserContext]:
    """A fresh profile (no cookies) with a phone-friendly desktop window, in English."""
    context = await browser.new_context(viewport={"width": 1100, "height": 900},
                                        locale="en-US")
    try:
        yield context
    finally:
        await context.close()


@pytest.fixture
async def page(browser_context: BrowserContext) -> AsyncIterator[Page]:
    """A page whose console errors and failed requests a test can read (`page_problems`)."""
    opened = await browser_context.new_page()
    problems = _PROBLEMS.setdefault(opened, [])
    opened.on("console", lambda message: problems.append(f"console: {message.text}")
              if message.type == "error" and not message.text.startswith(_LOAD_FAILED)
              else None)
    opened.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    # A failed load, by its address (the console's line names none); the favicon the browser
    # asks for on its own is no problem of a page's.
    opened.on("response", lambda response: problems.append(
        f"{response.status} {response.request.method} {response.url}")
        if response.status >= 400 and not response.url.endswith("/favicon.ico") else None)
    yield opened


async def wait_until(page: Page, expression: str, timeout: float = 30.0) -> None:
    """Until the JavaScript `expression` is true in the page. Playwright's own
    `wait_for_function` polls with an eval inside the page, which the site's policy
    (`script-src 'self'`, no 'unsafe-eval') refuses; each `evaluate` here comes through the
    DevTools protocol instead, which the policy does not govern."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not await page.evaluate(expression):
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"{expression} still false on {page.url} after {timeout:.0f} s")
        await asyncio.sleep(0.1)


def page_problems(page: Page) -> list[str]:
    """The console errors, uncaught exceptions and failed loads (4xx/5xx) the page had; a
    CSP refusal is one."""
    return list(_PROBLEMS.get(page, []))


async def axe_violations(page: Page, impacts: tuple[str, ...] = FAILING_IMPACTS
                         ) -> list[dict[str, Any]]:
    """axe-core's violations of the page as it is now, of the given impacts: each with its
    rule id, impact, help text and the elements (CSS selectors) at fault."""
    path = axe_path()
    assert path is not None, "axe-core is missing"
    if not await page.evaluate("() => typeof window.axe === 'object'"):
        await page.evaluate(path.read_text(encoding="utf-8"))
    found: list[dict[str, Any]] = await page.evaluate(
        """async () => {
            const results = await window.axe.run(document, {resultTypes: ['violations']});
            return results.violations.map(v => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map(n => n.target.join(' ')),
            }));
        }""")
    return [v for v in found if v["impact"] in impacts]


def describe(violations: list[dict[str, Any]]) -> str:
    return "\n".join(f"  {v['impact']} {v['id']}: {v['help']} at {', '.join(v['nodes'])}"
                     for v in violations)


async def assert_accessible(page: Page) -> None:
    """No serious or critical axe-core violation on the page."""
    violations = await axe_violations(page)
    assert not violations, f"axe-core found on {page.url}:\n{describe(violations)}"


async def screenshot(page: Page, name: str, folder: Path = SCREENSHOTS) -> Path:
    """The whole page saved as <name>.png in `folder` (SCREENSHOTS: see there)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    await page.screenshot(path=str(path), full_page=True)
    return path
