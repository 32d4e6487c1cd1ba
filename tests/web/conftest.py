"""Fixtures of the web page's tests (issue 25): a real browser and its pages, from
tests/support/browser.py (headless system chromium; skipped only where it may be missing),
and the site served from a store with the games' renderers installed, from
tests/support/web_site.py."""

from tests.support.browser import browser, browser_context, page  # noqa: F401  (fixtures)
from tests.support.web_site import game_renderers, site  # noqa: F401  (fixtures)
