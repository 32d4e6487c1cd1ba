"""Log in with Discord: OAuth2's authorization-code flow, scope `identify guilds`.

`/login?next=...` sends the visitor to Discord's authorization page with a random `state`,
kept in a signed, short-lived cookie; `/oauth/callback` checks that the state came back
unchanged (no one else's log-in can be slipped in), exchanges the code for a token at
Discord's token endpoint, reads who the visitor is and which servers they are in, and keeps
that in the signed session cookie (HttpOnly, SameSite=Lax); the token itself is dropped.
`/logout` forgets the session. `next` is only ever a path of this site.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any
from urllib.parse import urlencode

import aiohttp
from aiohttp import web

from bot.present import i18n
from bot.present.i18n import t
from web.app import CONFIG, SIGNER, STORE, browser_locale, render
from web.session import SESSION_COOKIE, SESSION_SECONDS, STATE_COOKIE, Session
from web.session import STATE_SECONDS as STATE_TTL

log = logging.getLogger(__name__)

SCOPES = "identify guilds"
TIMEOUT = aiohttp.ClientTimeout(total=10)


def safe_next(raw: str | None) -> str:
    """A path of this site to come back to; anything else (another site, `//host`) is /.

    >>> safe_next("/g/1/leaderboard/chips?page=2"), safe_next("//evil.example"), safe_next("https://x")
    ('/g/1/leaderboard/chips?page=2', '/', '/')
    """
    if not raw or not raw.startswith("/") or raw.startswith(("//", "/\\")) or "\n" in raw \
            or "\r" in raw:
        return "/"
    return raw


def base_url(request: web.Request) -> str:
    """The site's public address: WEB_URL, else the address this request came to."""
    return request.app[CONFIG].url or f"{request.scheme}://{request.host}"


def _cookie(response: web.StreamResponse, request: web.Request, name: str, value: str,
            max_age: int) -> None:
    response.set_cookie(name, value, max_age=max_age, path="/", httponly=True,
                        samesite="Lax", secure=request.app[CONFIG].secure_cookies)


async def login(request: web.Request) -> web.StreamResponse:
    i18n.set_current(browser_locale(request) or i18n.DEFAULT_LOCALE)
    config = request.app[CONFIG]
    if not config.can_log_in or SIGNER not in request.app:
        raise web.HTTPServiceUnavailable()
    state = secrets.token_urlsafe(24)
    query = urlencode({"response_type": "code", "client_id": config.client_id,
                       "scope": SCOPES, "state": state, "prompt": "none",
                       "redirect_uri": f"{base_url(request)}/oauth/callback"})
    response = web.HTTPFound(f"{config.discord_authorize}?{query}")
    signed = request.app[SIGNER].sign({"state": state,
                                       "next": safe_next(request.query.get("next"))},
                                      ttl=STATE_TTL)
    _cookie(response, request, STATE_COOKIE, signed, STATE_TTL)
    raise response


async def callback(request: web.Request) -> web.StreamResponse:
    i18n.set_current(browser_locale(request) or i18n.DEFAULT_LOCALE)
    config = request.app[CONFIG]
    if not config.can_log_in or SIGNER not in request.app:
        raise web.HTTPServiceUnavailable()
    kept = request.app[SIGNER].unsign(request.cookies.get(STATE_COOKIE))
    state = request.query.get("state", "")
    if kept is None or not secrets.compare_digest(str(kept.get("state", "")), state):
        return _failed(request, t("The log-in could not be checked (it took too long, or "
                                  "it was started elsewhere). Please try again."))
    code = request.query.get("code")
    if not code:  # the person said no on Discord's page
        return _failed(request, t("Discord did not log you in. You can try again whenever "
                                  "you like."))
    try:
        user, guilds = await _identify(request, code)
    except (aiohttp.ClientError, TimeoutError, ValueError, KeyError) as error:
        log.warning("log-in with Discord failed: %s", error)
        return _failed(request, t("Discord could not be reached to log you in. Please try "
                                  "again in a moment."))
    ids = [int(guild["id"]) for guild in guilds if str(guild.get("id", "")).isdigit()]
    members = await request.app[STORE].web_members_guilds(ids)
    session = Session(int(user["id"]), str(user.get("global_name") or user.get("username")
                                           or ""), frozenset(members))
    response = web.HTTPFound(safe_next(str(kept.get("next") or "/")))
    _cookie(response, request, SESSION_COOKIE,
            request.app[SIGNER].sign(session.to_json(), ttl=SESSION_SECONDS), SESSION_SECONDS)
    response.del_cookie(STATE_COOKIE, path="/")
    raise response


async def _identify(request: web.Request, code: str) -> tuple[dict[str, Any],
                                                              list[dict[str, Any]]]:
    """The code exchanged for a token, then who the token's owner is and their servers."""
    config = request.app[CONFIG]
    async with aiohttp.ClientSession(timeout=TIMEOUT) as http:
        async with http.post(f"{config.discord_api}/oauth2/token", data={
            "grant_type": "authorization_code", "code": code,
            "redirect_uri": f"{base_url(request)}/oauth/callback",
            "client_id": config.client_id or "", "client_secret": config.client_secret or "",
        }) as answer:
            answer.raise_for_status()
            token = await answer.json()
        headers = {"Authorization": f"Bearer {token['access_token']}"}
        async with http.get(f"{config.discord_api}/users/@me", headers=headers) as answer:
            answer.raise_for_status()
            user = await answer.json()
        async with http.get(f"{config.discord_api}/users/@me/guilds",
                            headers=headers) as answer:
            answer.raise_for_status()
            guilds = await answer.json()
    if not isinstance(user, dict) or not isinstance(guilds, list):
        raise ValueError("Discord answered with something that is not a user and servers")
    return user, [guild for guild in guilds if isinstance(guild, dict)]


def _failed(request: web.Request, why: str) -> web.Response:
    response = render(request, "error.html", {"status": 400, "title": t("Log-in failed"),
                                              "reason": why}, status=400)
    response.del_cookie(STATE_COOKIE, path="/")
    return response


async def logout(request: web.Request) -> web.StreamResponse:
    response = web.HTTPFound("/")
    response.del_cookie(SESSION_COOKIE, path="/")
    raise response


def setup(app: web.Application) -> None:
    app.router.add_get("/login", login)
    app.router.add_get("/oauth/callback", callback)
    app.router.add_get("/logout", logout)
