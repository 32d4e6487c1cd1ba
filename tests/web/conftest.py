"""Fixtures of the web page's tests (issue 25): a real browser and its pages, from
tests/support/browser.py (headless system chromium; skipped only where it may be missing)."""

from tests.support.browser import browser, browser_context, page  # noqa: F401  (fixtures)
