"""The web application: its routes, the templates, and what every response goes through.

- **Headers** on every response, pages, pictures, errors and the event stream alike
  (`on_response_prepare`): a strict Content-Security-Policy (nothing but this site's own
  files; no inline script or style, no frames), no MIME sniffing, no referrer to other sites.
- **A rate limit** per client (`RateLimit`: a token bucket per IP address), answered with a
  429 page, so one client cannot keep the store busy for everyone.
- **Errors as pages**: a 404 is the same page for a server that is off, one that does not
  exist and another server's game, so a visitor cannot learn which servers or games exist.
- **Access** per server (`open_guild`): the server's `web` setting, off (404), members
  (logged in with Discord and a member, else /login or 403) or public; and its language.
"""

from __future__ import annotations

import logging
import time
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from aiohttp import web

from bot.present import i18n
from bot.present.i18n import t, t_n
from bot.store import Store
from engine.i18n import N_
from web.caches import PageCache, RenderCache
from web.markup import discord_html, game_items, shown_name, when
from web.page_states import PageStates
from web.session import SESSION_COOKIE, Session, Signer

log = logging.getLogger(__name__)

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"
MAX_SNOWFLAKE = 2**63 - 1

CSP = ("default-src 'self'; img-src 'self' data:; script-src 'self'; style-src 'self'; "
       "frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
}

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass(frozen=True)
class Config:
    """What the handlers need besides the store, fixed when the app is made."""

    #: The web's settings (web.settings.WebSettings), kept as Any-free fields below.
    url: str | None
    can_log_in: bool
    client_id: str | None
    client_secret: str | None
    discord_api: str
    discord_authorize: str
    secure_cookies: bool
    #: Seconds between two looks at a live table's saved state (Server-Sent Events).
    poll_seconds: float = 1.0
    #: Seconds between two comments keeping an idle event stream open through proxies.
    keepalive_seconds: float = 15.0


STORE = web.AppKey("store", Store)
CONFIG = web.AppKey("config", Config)
SIGNER = web.AppKey("signer", Signer)
JINJA = web.AppKey("jinja", jinja2.Environment)


# --- the rate limit -------------------------------------------------------------------------


class RateLimit:
    """A token bucket per client address: `burst` requests at once, refilled at `rate` a
    second. Buckets are forgotten oldest first past `clients`, so memory stays bounded."""

    def __init__(self, rate: float, burst: int, *, clients: int = 10_000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clients, self.clock = rate, burst, clients, clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def allow(self, client: str) -> bool:
        now = self.clock()
        tokens, then = self._buckets.pop(client, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) * self.rate)
        allowed = tokens >= 1.0
        self._buckets[client] = (tokens - 1.0 if allowed else tokens, now)
        while len(self._buckets) > self.clients:
            self._buckets.popitem(last=False)
        return allowed


LIMITER = web.AppKey("limiter", RateLimit)


CACHE = web.AppKey("page_cache", PageCache)
RENDERED = web.AppKey("render_cache", RenderCache)
PAGE_STATES = web.AppKey("page_states", PageStates)


@web.middleware
async def rate_limited(request: web.Request, handler: Handler) -> web.StreamResponse:
    if not request.app[LIMITER].allow(request.remote or "?"):
        raise web.HTTPTooManyRequests(headers={"Retry-After": "1"})
    return await handler(request)


# --- errors as pages ------------------------------------------------------------------------

ERROR_TITLES = {
    403: N_("This page is for the server's members"),
    404: N_("Nothing here"),
    429: N_("Slow down a little"),
    503: N_("Log-in is not set up here"),
}


@web.middleware
async def error_pages(request: web.Request, handler: Handler) -> web.StreamResponse:
    """A friendly page for every refusal, in the reader's language (a 404 says nothing of
    why: an unknown server, one whose page is off and another server's game look alike)."""
    try:
        return await handler(request)
    except web.HTTPException as error:
        if error.status < 400 or error.status not in ERROR_TITLES:
            raise
        if i18n.current() == i18n.DEFAULT_LOCALE:
            i18n.set_current(browser_locale(request) or i18n.DEFAULT_LOCALE)
        response = render(request, "error.html", {
            "status": error.status, "title": t(ERROR_TITLES[error.status]),
            "reason": error.text if error.status == 404 and error.text and
            not error.text.startswith("404") else None,
        }, status=error.status)
        for header in ("Retry-After",):
            if header in error.headers:
                response.headers[header] = error.headers[header]
        return response


async def security_headers(request: web.Request, response: web.StreamResponse) -> None:
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    if request.path.startswith("/static/"):
        response.headers.setdefault("Cache-Control", "public, max-age=86400")
    else:  # a members' page must never be kept by a shared cache
        response.headers.setdefault("Cache-Control", "private, no-cache")


# --- languages ------------------------------------------------------------------------------


def browser_locale(request: web.Request) -> str | None:
    """The first of our languages the browser asks for (`Accept-Language`, by its q), or
    None when it asks for none of them.

    >>> from aiohttp.test_utils import make_mocked_request
    >>> browser_locale(make_mocked_request("GET", "/", headers={
    ...     "Accept-Language": "de-DE, sv;q=0.8, en;q=0.5"}))
    'sv'
    """
    header = request.headers.get("Accept-Language", "")
    ranked: list[tuple[float, int, str]] = []
    for position, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        params = params.strip()
        if params.startswith("q="):
            try:
                weight = float(params[2:])
            except ValueError:
                weight = 0.0
        ours = i18n.normalize(tag.strip())
        if ours is not None and weight > 0:
            ranked.append((-weight, position, ours))
    return min(ranked)[2] if ranked else None


# --- pages ----------------------------------------------------------------------------------


_WORDS: weakref.WeakKeyDictionary[i18n.Catalogue, dict[str, str]] = \
    weakref.WeakKeyDictionary()


def once_per_language(key: str, make: Callable[[], str]) -> str:
    """`make()`, a text in the current language that depends on nothing else, worked out
    once per language: a page's fixed words (a dozen `t` calls, and a game's title a
    `Msg` rendered) were a tenth of a player's page. Kept by the language's catalogue, so
    catalogues loaded again (`i18n.load`) start afresh."""
    kept = _WORDS.get(i18n.catalogue())
    if kept is None:
        kept = _WORDS[i18n.catalogue()] = {}
    text = kept.get(key)
    if text is None:
        text = kept[key] = make()
    return text


def word(msgid: str, /, **params: Any) -> str:
    """The templates' `t`: a sentence with fields filled each time, one without looked up
    once per language (`once_per_language`)."""
    if params:
        return t(msgid, **params)
    return once_per_language("t:" + msgid, lambda: t(msgid))


def render(request: web.Request, template: str, context: dict[str, Any], *,
           status: int = 200) -> web.Response:
    """A template as a page, in the current locale, with the visitor's session."""
    html = request.app[JINJA].get_template(template).render(
        **context, locale=i18n.current(), session=read_session(request), path=request.path_qs)
    return web.Response(text=html, content_type="text/html", status=status)


def read_session(request: web.Request) -> Session | None:
    """The logged-in visitor, from the signed cookie (None without a valid one)."""
    if SIGNER not in request.app:
        return None
    data = request.app[SIGNER].unsign(request.cookies.get(SESSION_COOKIE))
    return None if data is None else Session.from_json(data)


@dataclass(frozen=True)
class Guild:
    """A server whose pages this visitor may see, and how."""

    id: int
    access: str
    locale: str
    #: The id of the server's latest ended game when the page was asked for (0 before its
    #: first): the stamp of what the caches keep of its games.
    latest: int = 0

    @property
    def home(self) -> str:
        return f"/g/{self.id}"


def guild_id_of(request: web.Request) -> int:
    raw = request.match_info["guild"]
    guild_id = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 20 else 0
    if not 0 < guild_id <= MAX_SNOWFLAKE:
        raise web.HTTPNotFound()
    return guild_id


async def open_guild(request: web.Request) -> Guild:
    """The server of this path, if the visitor may see its pages; else the refusal, raised:
    404 (its page is off, or no such server), a redirect to /login (members only, not
    logged in) or 403 (logged in, not a member). Sets the page's language: the browser's
    when it asks for one we speak, else the server's."""
    guild_id = guild_id_of(request)
    settings, latest = await request.app[PAGE_STATES].get(guild_id)
    access = settings.get("web", "off")
    server_locale = i18n.normalize(settings.get("locale")) or i18n.DEFAULT_LOCALE
    i18n.set_current(browser_locale(request) or server_locale)
    if access not in ("public", "members"):
        raise web.HTTPNotFound()
    if access == "members":
        if not request.app[CONFIG].can_log_in:
            raise web.HTTPServiceUnavailable()
        session = read_session(request)
        if session is None:
            raise web.HTTPFound(f"/login?next={_quote(request.path_qs)}")
        if guild_id not in session.guilds:
            raise web.HTTPForbidden()
    return Guild(guild_id, str(access), i18n.current(), latest)


def _quote(path: str) -> str:
    from urllib.parse import quote

    return quote(path, safe="")


# --- the application ------------------------------------------------------------------------


def environment() -> jinja2.Environment:
    """The templates: autoescaped, undefined names an error, the bot's catalogues for words."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,  # no look at each template's file on every page
    )
    env.globals.update(t=word, t_n=t_n, game_items=game_items)
    env.filters["discord"] = discord_html
    env.filters["name"] = shown_name
    env.filters["when"] = when
    env.filters["percent"] = lambda value: f"{value:.0%}"
    return env
