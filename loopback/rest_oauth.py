"""Discord's OAuth2, served by the loopback, so that "Log in with Discord" is tested end to end.

The web page (issue 25) lets only members of a server see its pages when the server asks for
that, and learns who someone is and which servers they are in through Discord's OAuth2
authorization-code flow with the scopes `identify guilds`. This module is Discord's side of
that flow, as Discord's reference describes it:

- `GET /oauth2/authorize` (Discord's website, not its API: no `/api` prefix) checks the
  application (`client_id`) and the `redirect_uri` (registered ones only: otherwise an error
  page and no redirect, since a redirect to an unregistered address is how codes get stolen),
  then shows the person signed in a consent page; "Authorize" sends the browser to
  `redirect_uri?code=...&state=...`, "Cancel" to `redirect_uri?error=access_denied&state=...`.
  Other mistakes after the redirect URI is known (`response_type`, `scope`) go back to it as
  RFC 6749's `error=` parameters.
- `POST /api[/v10]/oauth2/token`: a form-encoded `authorization_code` (or `refresh_token`)
  exchange, the client authenticated by HTTP Basic or by `client_id`/`client_secret` in the
  form; a code is good once, for 10 minutes, with the redirect URI it was issued for. Errors
  are RFC 6749's `{"error": ..., "error_description": ...}` bodies, as Discord sends them.
- `POST /api[/v10]/oauth2/token/revoke`: forget a token (a web page's log-out may call it).
- `GET /api[/v10]/users/@me` and `/users/@me/guilds` with `Authorization: Bearer <token>`:
  the person (scope `identify`) and the servers they are a member of (scope `guilds`); a bot
  token still gets the bot, as before.

Who is "signed in to Discord" in the browser is a test's choice, since the loopback has no
login page: `OAuth.sign_in(name)` (through `LoopbackDiscord.oauth`), or `login_as=<name or
id>` in the authorize URL for one request. Codes and tokens expire on the loopback's clock, so
a test advances it instead of waiting.
"""

from __future__ import annotations

import base64
import binascii
import html
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote_plus

import yarl
from aiohttp import web

from loopback import errors
from loopback.errors import DiscordError, FormErrors
from loopback.http_util import error_response, json_response
from loopback.models import Guild, User
from loopback.payloads import member_permissions, user_payload
from loopback.state import LoopbackState

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

#: Scopes Discord knows (a subset: the ones an application's login page asks for); any other
#: is refused with `invalid_scope`, as Discord does.
KNOWN_SCOPES = frozenset({
    "identify", "email", "guilds", "guilds.join", "guilds.members.read", "connections",
    "bot", "applications.commands", "role_connections.write", "openid",
})
CODE_SECONDS = 600  # Discord's authorization codes last 10 minutes
TOKEN_SECONDS = 604_800  # and its access tokens a week
#: The API paths (after the version prefix) that take a Bearer token instead of a bot token.
BEARER_PATHS = frozenset({"/users/@me", "/users/@me/guilds"})
#: The API paths that take no token at all (the client authenticates in the request body).
OPEN_PATHS = frozenset({"/oauth2/token", "/oauth2/token/revoke"})
DEFAULT_CLIENT_SECRET = "loopback-client-secret"


class OAuthError(DiscordError):
    """RFC 6749's error answer (`{"error": "invalid_grant", ...}`), which is what Discord's
    token endpoint sends instead of its usual `{"code", "message"}` body."""

    def __init__(self, status: int, error: str, description: str | None = None) -> None:
        super().__init__(status, 0, description or error)
        self.error = error
        self.description = description

    def body(self) -> dict[str, Any]:
        body = {"error": self.error}
        if self.description:
            body["error_description"] = self.description
        return body


@dataclass
class Grant:
    """An authorization code: whose, for which redirect URI and scopes, good until when."""

    user_id: int
    redirect_uri: str
    scopes: tuple[str, ...]
    expires_at: float


@dataclass
class Token:
    """An access token with its refresh token."""

    user_id: int
    scopes: tuple[str, ...]
    expires_at: float
    refresh_token: str


class OAuth:
    """The loopback's authorization server: its application's secret and registered redirect
    URIs, who is signed in to the browser, and the codes and tokens handed out.

    >>> from loopback.clock import Clock
    >>> state = LoopbackState(users=["alice"], guild_name="G", channels=["general"],
    ...                       bot_name="Dealer", token="t", clock=Clock())
    >>> oauth = OAuth(state)
    >>> oauth.sign_in("alice").name
    'alice'
    >>> code = oauth.issue_code(oauth.signed_in_user(), "http://127.0.0.1/cb", ("identify",))
    >>> token = oauth.exchange_code(code, "http://127.0.0.1/cb")
    >>> oauth.user_for(token["access_token"], "identify").name
    'alice'
    >>> oauth.exchange_code(code, "http://127.0.0.1/cb")  # a code is good once
    Traceback (most recent call last):
    ...
    loopback.rest_oauth.OAuthError: 400 (code 0): Invalid "code" in request.
    """

    def __init__(self, state: LoopbackState, client_secret: str = DEFAULT_CLIENT_SECRET) -> None:
        self.state = state
        self.client_secret = client_secret
        #: The application's registered redirect URIs (Discord's developer portal); a test
        #: adds the web page's `/oauth/callback`.
        self.redirect_uris: list[str] = []
        #: Skip the consent page, as Discord does for an application the person already
        #: authorized with `prompt=none`; for tests that only need a signed-in session.
        self.auto_approve = False
        self._signed_in: int | None = None
        self._authorized: dict[int, set[str]] = {}  # person -> scopes granted before
        self.codes: dict[str, Grant] = {}
        self.tokens: dict[str, Token] = {}

    @property
    def client_id(self) -> str:
        """The application's id, which is the bot's user id on Discord too."""
        return str(self.state.application_id)

    # --- the test's controls -------------------------------------------------------------

    def sign_in(self, name: str | None) -> User | None:
        """Who is signed in to Discord in the browser (None: nobody)."""
        if name is None:
            self._signed_in = None
            return None
        user = self._person(name)
        self._signed_in = user.id
        return user

    def signed_in_user(self) -> User | None:
        return self.state.users.get(self._signed_in) if self._signed_in is not None else None

    def _person(self, name_or_id: str) -> User:
        user = self.state.user_by_name(name_or_id)
        if user is None and name_or_id.isdigit():
            user = self.state.users.get(int(name_or_id))
        if user is None or user.bot:
            raise ValueError(f"no person called {name_or_id!r} on the loopback")
        return user

    # --- codes and tokens ----------------------------------------------------------------

    def issue_code(self, user: User | None, redirect_uri: str, scopes: tuple[str, ...]) -> str:
        if user is None:
            raise ValueError("nobody is signed in to give a code to")
        code = secrets.token_urlsafe(24)
        self.codes[code] = Grant(user.id, redirect_uri, scopes,
                                 self.state.clock.time() + CODE_SECONDS)
        self._authorized.setdefault(user.id, set()).update(scopes)
        return code

    def exchange_code(self, code: str, redirect_uri: str | None) -> dict[str, Any]:
        """The token answer for a code, which is then spent (even when the answer is an
        error about the redirect URI: Discord's codes are single-use)."""
        grant = self.codes.pop(code, None)
        if grant is None or grant.expires_at <= self.state.clock.time():
            raise OAuthError(400, "invalid_grant", 'Invalid "code" in request.')
        if redirect_uri != grant.redirect_uri:
            raise OAuthError(400, "invalid_grant", 'Invalid "redirect_uri" in request.')
        return self._issue_token(grant.user_id, grant.scopes)

    def refresh(self, refresh_token: str) -> dict[str, Any]:
        old = next((key for key, token in self.tokens.items()
                    if token.refresh_token == refresh_token), None)
        if old is None:
            raise OAuthError(400, "invalid_grant", 'Invalid "refresh_token" in request.')
        token = self.tokens.pop(old)
        return self._issue_token(token.user_id, token.scopes)

    def revoke(self, value: str) -> None:
        for key, token in list(self.tokens.items()):
            if value in (key, token.refresh_token):
                del self.tokens[key]

    def _issue_token(self, user_id: int, scopes: tuple[str, ...]) -> dict[str, Any]:
        access, refresh = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
        self.tokens[access] = Token(user_id, scopes, self.state.clock.time() + TOKEN_SECONDS,
                                    refresh)
        return {"access_token": access, "token_type": "Bearer", "expires_in": TOKEN_SECONDS,
                "refresh_token": refresh, "scope": " ".join(scopes)}

    def user_for(self, access_token: str, scope: str) -> User:
        """The person a Bearer token speaks for, if it is live and carries `scope`; Discord
        answers 401 otherwise."""
        token = self.tokens.get(access_token)
        if token is None or token.expires_at <= self.state.clock.time():
            raise errors.unauthorized()
        if scope not in token.scopes:
            raise errors.unauthorized()
        return self.state.users[token.user_id]

    def granted_before(self, user: User, scopes: tuple[str, ...]) -> bool:
        return set(scopes) <= self._authorized.get(user.id, set())


class OAuthRoutes:
    """The HTTP face of `OAuth`: the authorize page and the API routes."""

    def __init__(self, state: LoopbackState, oauth: OAuth) -> None:
        self.state = state
        self.oauth = oauth
        self._bot_me: Handler | None = None

    def register(self, router: web.UrlDispatcher, api_prefix: str, *, bot_me: Handler) -> None:
        """Routes under `api_prefix` (the versioned API, whose errors the server's middleware
        shapes) and under the unversioned `/api`, which Discord serves too; `bot_me` answers
        `/users/@me` for the bot's own token."""
        self._bot_me = bot_me
        router.add_get("/oauth2/authorize", self.authorize_page)
        router.add_post("/oauth2/authorize", self.authorize_decision)
        for base, wrap in ((api_prefix, _same), ("/api", _shaped)):
            router.add_post(f"{base}/oauth2/token", wrap(self.token))
            router.add_post(f"{base}/oauth2/token/revoke", wrap(self.revoke))
            router.add_get(f"{base}/users/@me", wrap(self.me))
            router.add_get(f"{base}/users/@me/guilds", wrap(self.my_guilds))

    # --- the authorize page --------------------------------------------------------------

    async def authorize_page(self, request: web.Request) -> web.StreamResponse:
        params = dict(request.query)
        admitted = self._admit(params)
        if isinstance(admitted, web.StreamResponse):
            return admitted
        redirect_uri, user, scopes = admitted
        if self.oauth.auto_approve or (params.get("prompt") == "none"
                                       and self.oauth.granted_before(user, scopes)):
            raise _back(redirect_uri, params, code=self.oauth.issue_code(user, redirect_uri,
                                                                        scopes))
        return _consent_page(self.state.bot.name, user, scopes, params)

    async def authorize_decision(self, request: web.Request) -> web.StreamResponse:
        params = {key: str(value) for key, value in (await request.post()).items()}
        admitted = self._admit(params)
        if isinstance(admitted, web.StreamResponse):
            return admitted
        redirect_uri, user, scopes = admitted
        if params.get("decision") != "authorize":
            raise _back(redirect_uri, params, "access_denied",
                        "The resource owner or authorization server denied the request")
        raise _back(redirect_uri, params, code=self.oauth.issue_code(user, redirect_uri, scopes))

    def _admit(self, params: dict[str, str]
               ) -> tuple[str, User, tuple[str, ...]] | web.StreamResponse:
        """The checks of the authorize page and of its decision alike: the application and
        its redirect (else an error page), who is signed in (else the sign-in page), and the
        request (else back to the application with RFC 6749's error)."""
        redirect_uri, problem = self._check_client(params)
        if problem is not None:
            return problem
        user, problem = self._browser_user(params)
        if problem is not None:
            return problem
        assert user is not None
        scopes, refusal = self._check_request(params)
        if refusal is not None:
            raise _back(redirect_uri, params, *refusal)
        return redirect_uri, user, scopes

    def _check_client(self, params: dict[str, str]) -> tuple[str, web.Response | None]:
        """The redirect URI to use, or the error page: an unknown application or a redirect
        URI that is not registered is never redirected to."""
        if params.get("client_id") != self.oauth.client_id:
            return "", _page("Unknown Application", "Invalid OAuth2 client_id.", 400)
        registered = self.oauth.redirect_uris
        redirect_uri = params.get("redirect_uri")
        if redirect_uri is None and len(registered) == 1:
            redirect_uri = registered[0]
        if redirect_uri is None or redirect_uri not in registered:
            return "", _page("Invalid OAuth2 redirect_uri",
                             "This address is not one of the application's redirects.", 400)
        return redirect_uri, None

    def _browser_user(self, params: dict[str, str]) -> tuple[User | None, web.Response | None]:
        login_as = params.get("login_as")
        if login_as:
            try:
                return self.oauth._person(login_as), None
            except ValueError:
                return None, _page("Unknown user", f"No one called {login_as} here.", 400)
        user = self.oauth.signed_in_user()
        if user is None:
            return None, _page("Log in to Discord",
                               "Nobody is signed in to the loopback Discord.", 401)
        return user, None

    def _check_request(self, params: dict[str, str]
                       ) -> tuple[tuple[str, ...], tuple[str, str] | None]:
        if params.get("response_type") != "code":
            return (), ("unsupported_response_type",
                        "The authorization server does not support obtaining an authorization "
                        "code using this method.")
        scopes = tuple(unquote_plus(params.get("scope", "")).split())
        if not scopes or not set(scopes) <= KNOWN_SCOPES:
            return (), ("invalid_scope", "The requested scope is invalid, unknown, or malformed.")
        return scopes, None

    # --- the API -------------------------------------------------------------------------

    async def token(self, request: web.Request) -> web.Response:
        form = await _form(request)
        self._authenticate(request, form)
        grant_type = form.get("grant_type")
        if grant_type == "authorization_code":
            answer = self.oauth.exchange_code(form.get("code", ""), form.get("redirect_uri"))
        elif grant_type == "refresh_token":
            answer = self.oauth.refresh(form.get("refresh_token", ""))
        else:
            raise OAuthError(400, "unsupported_grant_type",
                             f"Grant type {grant_type} is not supported")
        return json_response(answer, headers={"Cache-Control": "no-store", "Pragma": "no-cache"})

    async def revoke(self, request: web.Request) -> web.Response:
        form = await _form(request)
        self._authenticate(request, form)
        self.oauth.revoke(form.get("token", ""))
        return json_response({})

    def _authenticate(self, request: web.Request, form: dict[str, str]) -> None:
        """The client's id and secret, by HTTP Basic or in the form, as Discord takes both."""
        client_id, secret = form.get("client_id"), form.get("client_secret")
        header = request.headers.get("Authorization", "")
        if header.startswith("Basic "):
            try:
                pair = base64.b64decode(header[6:], validate=True).decode()
            except (binascii.Error, UnicodeDecodeError):
                raise OAuthError(401, "invalid_client") from None
            client_id, _, secret = (unquote_plus(part) for part in pair.partition(":"))
        if client_id != self.oauth.client_id or secret != self.oauth.client_secret:
            raise OAuthError(401, "invalid_client")

    async def me(self, request: web.Request) -> web.StreamResponse:
        bearer = _bearer(request)
        if bearer is None:
            if self._bot_me is None or not self._is_bot(request):
                raise errors.unauthorized()
            return await self._bot_me(request)
        scopes = self.oauth.tokens[bearer].scopes if bearer in self.oauth.tokens else ()
        user = self.oauth.user_for(bearer, "identify")
        payload = user_payload(user) | {"locale": user.locale, "mfa_enabled": False,
                                        "premium_type": 0, "banner": None,
                                        "accent_color": None}
        if "email" in scopes:
            payload |= {"email": f"{user.name}@example.com", "verified": True}
        return json_response(payload)

    async def my_guilds(self, request: web.Request) -> web.Response:
        bearer = _bearer(request)
        if bearer is None:
            if not self._is_bot(request):
                raise errors.unauthorized()
            user = self.state.bot
        else:
            user = self.oauth.user_for(bearer, "guilds")
        query = request.query
        limit = _int(query.get("limit"), 200)
        if not 1 <= limit <= 200:
            form = FormErrors()
            if limit > 200:
                form.add("limit", "NUMBER_TYPE_MAX", "int value should be less than or equal "
                         "to 200.")
            else:
                form.add("limit", "NUMBER_TYPE_MIN", "int value should be greater than or "
                         "equal to 1.")
            form.raise_if_any()
        before, after = _int(query.get("before"), 0), _int(query.get("after"), 0)
        counts = query.get("with_counts", "false").lower() == "true"
        guilds = sorted((g for g in self.state.guilds.values() if user.id in g.member_ids),
                        key=lambda g: g.id)
        if before:
            guilds = [g for g in guilds if g.id < before][-limit:]
        else:
            guilds = [g for g in guilds if g.id > after][:limit]
        return json_response([_my_guild(g, user, counts) for g in guilds])

    def _is_bot(self, request: web.Request) -> bool:
        return request.headers.get("Authorization") == f"Bot {self.state.token}"


def _my_guild(guild: Guild, user: User, counts: bool) -> dict[str, Any]:
    """A partial guild as `GET /users/@me/guilds` lists it (Discord's MyGuildResponse)."""
    payload: dict[str, Any] = {
        "id": str(guild.id), "name": guild.name, "icon": None, "banner": None,
        "owner": guild.owner_id == user.id,
        "permissions": str(member_permissions(guild, user)), "features": [],
    }
    if counts:
        payload["approximate_member_count"] = len(guild.member_ids)
        payload["approximate_presence_count"] = len(guild.member_ids)
    return payload


def _bearer(request: web.Request) -> str | None:
    header = request.headers.get("Authorization", "")
    return header[7:] if header.startswith("Bearer ") else None


def _int(value: str | None, default: int) -> int:
    if value is None:
        return default
    try:
        return int(value)
    except ValueError:
        raise DiscordError(400, 50035, "Invalid Form Body") from None


async def _form(request: web.Request) -> dict[str, str]:
    """The token endpoint's form. Discord reads only form-encoded bodies: a JSON body leaves
    it without a grant type, and it says so."""
    if request.content_type != "application/x-www-form-urlencoded":
        raise OAuthError(400, "unsupported_grant_type", "Grant type None is not supported")
    return {key: str(value) for key, value in (await request.post()).items()}


def _back(redirect_uri: str, params: dict[str, str], error: str | None = None,
          description: str | None = None, *, code: str | None = None) -> web.HTTPFound:
    """The redirect to the application with a code, or with RFC 6749's error parameters;
    the `state` parameter goes back unchanged, as the client checks it."""
    query: dict[str, str] = {"code": code} if code is not None else {"error": error or ""}
    if description:
        query["error_description"] = description
    if "state" in params:
        query["state"] = params["state"]
    return web.HTTPFound(str(yarl.URL(redirect_uri).update_query(query)))


def _page(title: str, text: str, status: int) -> web.Response:
    body = (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>'
            f"{html.escape(title)}</title></head><body><main><h1>{html.escape(title)}</h1>"
            f"<p>{html.escape(text)}</p></main></body></html>")
    return web.Response(text=body, status=status, content_type="text/html")


SCOPE_WORDS = {
    "identify": "Access your username, avatar, and banner",
    "guilds": "Know what servers you're in",
    "email": "Access your email address",
}


def _consent_page(app_name: str, user: User, scopes: tuple[str, ...],
                  params: dict[str, str]) -> web.Response:
    """Discord's "An external application wants to access your account" page, in short: the
    scopes in words and a form whose two buttons post the decision."""
    keep = ("client_id", "redirect_uri", "response_type", "scope", "state", "login_as", "prompt")
    hidden = "".join(f'<input type="hidden" name="{key}" value="{html.escape(params[key])}">'
                     for key in keep if key in params)
    items = "".join(f"<li>{html.escape(SCOPE_WORDS.get(s, s))}</li>" for s in scopes)
    body = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"<title>Authorize {html.escape(app_name)}</title></head><body><main>"
        f"<h1>{html.escape(app_name)} wants to access your account</h1>"
        f"<p>Signed in as {html.escape(user.name)}.</p>"
        f"<p>This will allow the developer of {html.escape(app_name)} to:</p><ul>{items}</ul>"
        f'<form method="post" action="/oauth2/authorize">{hidden}'
        '<button type="submit" name="decision" value="cancel">Cancel</button>'
        '<button type="submit" name="decision" value="authorize">Authorize</button>'
        "</form></main></body></html>"
    )
    return web.Response(text=body, content_type="text/html")


def _same(handler: Handler) -> Handler:
    return handler


def _shaped(handler: Handler) -> Handler:
    """For the unversioned `/api` routes, which the server's middleware leaves alone: Discord's
    error bodies made here instead."""
    async def shaped(request: web.Request) -> web.StreamResponse:
        try:
            return await handler(request)
        except DiscordError as error:
            return error_response(error)
    return shaped
