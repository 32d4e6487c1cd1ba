"""The whole site put together: the application of `web.app` with every page's routes
(`web.pages`, `web.replay`, `web.live`, `web.oauth`) and the static files. Apart from
`web.app`, which the pages' modules build on, so that no module imports one that imports it."""

from __future__ import annotations

from aiohttp import web

from bot.store import Store
from web import live, oauth, pages, replay
from web.app import (
    CACHE,
    CONFIG,
    JINJA,
    LIMITER,
    PAGE_STATES,
    RENDERED,
    SIGNER,
    STATIC,
    STORE,
    Config,
    RateLimit,
    environment,
    error_pages,
    rate_limited,
    security_headers,
)
from web.caches import PageCache, RenderCache
from web.page_states import PageStates
from web.session import Signer

__all__ = ["make_app"]


def make_app(store: Store, config: Config, *, secret: str | None = None,
             rate: float = 20.0, burst: int = 60,
             replay_processes: bool = False) -> web.Application:
    """The whole site over an open store (read-only in production: `Store.open_read_only`).
    Without `secret` nobody can log in, so members-only servers answer 503.
    `replay_processes`: games replayed in a process of their own (`web.replay_runner.Runner`), as
    `python -m web` does; else in threads (the tests' sites, which replay a few)."""
    app = web.Application(middlewares=[error_pages, rate_limited])
    app[STORE] = store
    app[CONFIG] = config
    app[JINJA] = environment()
    app[LIMITER] = RateLimit(rate, burst)
    app[CACHE] = PageCache()
    app[RENDERED] = RenderCache()
    app[PAGE_STATES] = PageStates(store)
    app.on_startup.append(_watch_page_changes)
    if secret:
        app[SIGNER] = Signer(secret)
    app.on_response_prepare.append(security_headers)
    pages.setup(app)
    replay.setup(app, processes=replay_processes)
    live.setup(app)
    oauth.setup(app)
    app.router.add_static("/static/", STATIC, append_version=False)
    return app


async def _watch_page_changes(app: web.Application) -> None:
    await app[PAGE_STATES].start()
