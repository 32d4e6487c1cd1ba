"""The loopback's OAuth2 (loopback/rest_oauth.py), as a web page's "Log in with Discord" uses it:
the authorize page and its refusals, the code exchange and its refusals, and the Bearer reads
of the person and their servers, on the versioned and the unversioned API alike."""

from __future__ import annotations

import base64
import doctest
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
import yarl

from loopback import LoopbackDiscord, rest_oauth
from loopback.rest_oauth import CODE_SECONDS, TOKEN_SECONDS

CALLBACK = "http://127.0.0.1:9/oauth/callback"


@pytest.fixture
async def http(loopback: LoopbackDiscord) -> AsyncIterator[aiohttp.ClientSession]:
    loopback.oauth.redirect_uris.append(CALLBACK)
    async with aiohttp.ClientSession(yarl.URL(loopback.server.url)) as session:
        yield session


def authorize_query(loopback: LoopbackDiscord, **changes: str) -> dict[str, str]:
    query = {"client_id": loopback.oauth.client_id, "redirect_uri": CALLBACK,
             "response_type": "code", "scope": "identify guilds", "state": "s-123"}
    return {k: v for k, v in (query | changes).items() if v != "-"}


async def authorize(http: aiohttp.ClientSession, loopback: LoopbackDiscord, **changes: str
                    ) -> aiohttp.ClientResponse:
    async with http.get("/oauth2/authorize", params=authorize_query(loopback, **changes),
                        allow_redirects=False) as response:
        await response.read()
        return response


async def decide(http: aiohttp.ClientSession, loopback: LoopbackDiscord, decision: str,
                 **changes: str) -> yarl.URL:
    """What the consent page's button posts; the redirect it answers with."""
    form = authorize_query(loopback, **changes) | {"decision": decision}
    async with http.post("/oauth2/authorize", data=form, allow_redirects=False) as response:
        assert response.status == 302, await response.text()
        return yarl.URL(response.headers["Location"])


async def code_for(http: aiohttp.ClientSession, loopback: LoopbackDiscord,
                   **changes: str) -> str:
    location = await decide(http, loopback, "authorize", **changes)
    return location.query["code"]


def basic(client_id: str, secret: str) -> dict[str, str]:
    pair = base64.b64encode(f"{client_id}:{secret}".encode()).decode()
    return {"Authorization": f"Basic {pair}"}


async def exchange(http: aiohttp.ClientSession, loopback: LoopbackDiscord, form: dict[str, str],
                   *, prefix: str = "/api/v10", headers: dict[str, str] | None = None
                   ) -> tuple[int, Any]:
    if headers is None:
        headers = basic(loopback.oauth.client_id, loopback.oauth.client_secret)
    async with http.post(f"{prefix}/oauth2/token", data=form, headers=headers) as response:
        return response.status, await response.json()


async def get(http: aiohttp.ClientSession, path: str, token: str, *, kind: str = "Bearer"
              ) -> tuple[int, Any]:
    async with http.get(path, headers={"Authorization": f"{kind} {token}"}) as response:
        return response.status, await response.json()


async def logged_in_token(http: aiohttp.ClientSession, loopback: LoopbackDiscord,
                          name: str = "alice", scope: str = "identify guilds") -> str:
    loopback.oauth.sign_in(name)
    code = await code_for(http, loopback, scope=scope)
    status, body = await exchange(http, loopback, {
        "grant_type": "authorization_code", "code": code, "redirect_uri": CALLBACK})
    assert status == 200, body
    return str(body["access_token"])


async def test_the_whole_flow_names_the_person_and_their_servers(
        loopback: LoopbackDiscord, http: aiohttp.ClientSession) -> None:
    loopback.oauth.sign_in("alice")
    page = await authorize(http, loopback)
    assert page.status == 200 and page.content_type == "text/html"
    async with http.get("/oauth2/authorize", params=authorize_query(loopback)) as response:
        text = await response.text()
    assert "Dealer wants to access your account" in text and "Signed in as alice" in text
    assert "Know what servers you&#x27;re in" in text and 'value="authorize"' in text

    location = await decide(http, loopback, "authorize")
    assert str(location.with_query(None)) == CALLBACK
    assert location.query["state"] == "s-123" and location.query["code"]

    status, token = await exchange(http, loopback, {
        "grant_type": "authorization_code", "code": location.query["code"],
        "redirect_uri": CALLBACK})
    assert status == 200
    assert token["token_type"] == "Bearer" and token["expires_in"] == TOKEN_SECONDS
    assert token["scope"] == "identify guilds" and token["refresh_token"]

    alice = loopback.user("alice")
    status, me = await get(http, "/api/v10/users/@me", token["access_token"])
    assert status == 200 and me["id"] == str(alice.id) and me["username"] == "alice"
    assert me["bot"] is False and "email" not in me

    other = loopback.state.add_guild("Other Guild", ["elsewhere"])
    left = loopback.state.add_guild("Left Guild", ["gone"])
    left.member_ids.remove(alice.id)  # she left it: it is not hers to see
    status, guilds = await get(http, "/api/v10/users/@me/guilds", token["access_token"])
    assert status == 200
    assert [g["id"] for g in guilds] == [str(loopback.state.guild.id), str(other.id)]
    first = guilds[0]
    assert first["name"] == "Test Guild" and first["owner"] is True  # alice is the owner
    assert set(first) >= {"icon", "banner", "permissions", "features"}
    assert "approximate_member_count" not in first


async def test_refusals_before_the_redirect_never_redirect(
        loopback: LoopbackDiscord, http: aiohttp.ClientSession) -> None:
    loopback.oauth.sign_in("alice")
    for changes, words in (({"client_id": "123"}, "Unknown Application"),
                           ({"redirect_uri": "http://127.0.0.1:9/evil"}, "redirect_uri"),
                           ({"redirect_uri": "-", "client_id": "-"}, "Unknown Application")):
        response = await authorize(http, loopback, **changes)
        assert response.status == 400 and "Location" not in response.headers
        async with http.get("/oauth2/authorize", params=authorize_query(loopback, **changes),
                            allow_redirects=False) as again:
            assert words in await again.text()
    # With one redirect URI registered, Discord uses it when none is named.
    assert (await authorize(http, loopback, redirect_uri="-")).status == 200
    loopback.oauth.redirect_uris.append("http://127.0.0.1:9/second")
    assert (await authorize(http, loopback, redirect_uri="-")).status == 400

    loopback.oauth.sign_in(None)
    nobody = await authorize(http, loopback)
    assert nobody.status == 401 and "Location" not in nobody.headers


async def test_refusals_after_the_redirect_go_back_with_rfc_errors(
        loopback: LoopbackDiscord, http: aiohttp.ClientSession) -> None:
    loopback.oauth.sign_in("alice")
    for changes, error in (({"scope": "identify nonsense"}, "invalid_scope"),
                           ({"scope": "-"}, "invalid_scope"),
                           ({"response_type": "token"}, "unsupported_response_type")):
        response = await authorize(http, loopback, **changes)
        assert response.status == 302
        location = yarl.URL(response.headers["Location"])
        assert location.query["error"] == error and location.query["state"] == "s-123"
        assert "code" not in location.query

    cancelled = await decide(http, loopback, "cancel")
    assert cancelled.query["error"] == "access_denied" and cancelled.query["state"] == "s-123"
    assert "code" not in cancelled.query
    without_state = await decide(http, loopback, "cancel", state="-")
    assert "state" not in without_state.query


async def test_login_as_prompt_none_and_auto_approve(
        loopback: LoopbackDiscord, http: aiohttp.ClientSession) -> None:
    # login_as names the person for this request alone.
    bob = loopback.user("bob")
    code = await code_for(http, loopback, login_as="bob")
    status, token = await exchange(http, loopback, {
        "grant_type": "authorization_code", "code": code, "redirect_uri": CALLBACK})
    assert status == 200
    assert (await get(http, "/api/v10/users/@me", token["access_token"]))[1]["id"] == str(bob.id)
    assert (await authorize(http, loopback, login_as="nobody")).status == 400

    # prompt=none skips the consent page only for scopes granted before.
    loopback.oauth.sign_in("bob")
    again = await authorize(http, loopback, prompt="none")
    assert again.status == 302 and "code" in yarl.URL(again.headers["Location"]).query
    more = await authorize(http, loopback, prompt="none", scope="identify guilds email")
    assert more.status == 200  # the consent page: email was never granted

    loopback.oauth.sign_in("alice")
    assert (await authorize(http, loopback)).status == 200
    loopback.oauth.auto_approve = True
    assert (await authorize(http, loopback)).status == 302


async def test_the_token_endpoint_refuses_as_discord_does(
        loopback: LoopbackDiscord, http: aiohttp.ClientSession) -> None:
    loopback.oauth.sign_in("alice")
    oauth = loopback.oauth
    grant = {"grant_type": "authorization_code", "redirect_uri": CALLBACK}

    code = await code_for(http, loopback)
    status, body = await exchange(http, loopback, grant | {"code": code},
                                  headers=basic(oauth.client_id, "wrong"))
    assert (status, body) == (401, {"error": "invalid_client"})
    # Client id and secret in the form work as well as HTTP Basic.
    status, body = await exchange(http, loopback, grant | {
        "code": code, "client_id": oauth.client_id, "client_secret": oauth.client_secret},
        headers={})
    assert status == 200 and body["access_token"]
    status, body = await exchange(http, loopback, grant | {"code": code})
    assert (status, body["error"]) == (400, "invalid_grant")  # a code is good once
    assert body["error_description"] == 'Invalid "code" in request.'

    code = await code_for(http, loopback)
    status, body = await exchange(http, loopback, grant | {
        "code": code, "redirect_uri": "http://127.0.0.1:9/other"})
    assert (status, body["error_description"]) == (400, 'Invalid "redirect_uri" in request.')

    code = await code_for(http, loopback)
    loopback.advance_time(CODE_SECONDS + 1)
    status, body = await exchange(http, loopback, grant | {"code": code})
    assert (status, body["error"]) == (400, "invalid_grant")

    status, body = await exchange(http, loopback, {"grant_type": "password"})
    assert (status, body["error"]) == (400, "unsupported_grant_type")
    async with http.post("/api/v10/oauth2/token", json=grant | {"code": "x"},
                         headers=basic(oauth.client_id, oauth.client_secret)) as response:
        assert response.status == 400
        assert (await response.json())["error"] == "unsupported_grant_type"
    recorded = [e for e in loopback.errors() if e.path == "/oauth2/token"]
    assert [e.status for e in recorded] == [401, 400, 400, 400, 400, 400]


async def test_refresh_revoke_and_expiry_of_tokens(
        loopback: LoopbackDiscord, http: aiohttp.ClientSession) -> None:
    loopback.oauth.sign_in("alice")
    code = await code_for(http, loopback)
    _, first = await exchange(http, loopback, {
        "grant_type": "authorization_code", "code": code, "redirect_uri": CALLBACK})
    status, second = await exchange(http, loopback, {
        "grant_type": "refresh_token", "refresh_token": first["refresh_token"]})
    assert status == 200 and second["access_token"] != first["access_token"]
    assert (await get(http, "/api/v10/users/@me", first["access_token"]))[0] == 401
    assert (await get(http, "/api/v10/users/@me", second["access_token"]))[0] == 200
    status, body = await exchange(http, loopback, {
        "grant_type": "refresh_token", "refresh_token": first["refresh_token"]})
    assert (status, body["error"]) == (400, "invalid_grant")

    async with http.post("/api/v10/oauth2/token/revoke", data={
            "token": second["access_token"], "client_id": loopback.oauth.client_id,
            "client_secret": loopback.oauth.client_secret}) as response:
        assert response.status == 200
    assert (await get(http, "/api/v10/users/@me", second["access_token"]))[0] == 401

    token = await logged_in_token(http, loopback)
    loopback.advance_time(TOKEN_SECONDS + 1)
    status, body = await get(http, "/api/v10/users/@me/guilds", token)
    assert (status, body) == (401, {"code": 0, "message": "401: Unauthorized"})


async def test_bearer_reads_need_their_scope_and_a_real_token(
        loopback: LoopbackDiscord, http: aiohttp.ClientSession) -> None:
    token = await logged_in_token(http, loopback, scope="identify")
    assert (await get(http, "/api/v10/users/@me", token))[0] == 200
    assert (await get(http, "/api/v10/users/@me/guilds", token))[0] == 401
    assert (await get(http, "/api/v10/users/@me", "made-up"))[0] == 401
    # A Bearer token opens only the OAuth2 reads, not the bot's routes.
    guild = loopback.state.guild.id
    assert (await get(http, f"/api/v10/guilds/{guild}", token))[0] == 401
    # The bot's own token still reads the bot, and its servers.
    status, me = await get(http, "/api/v10/users/@me", loopback.token, kind="Bot")
    assert status == 200 and me["id"] == str(loopback.bot.id) and me["bot"] is True
    status, guilds = await get(http, "/api/v10/users/@me/guilds", loopback.token, kind="Bot")
    assert status == 200 and [g["id"] for g in guilds] == [str(guild)]


async def test_paging_and_counts_of_my_guilds(
        loopback: LoopbackDiscord, http: aiohttp.ClientSession) -> None:
    ids = [loopback.state.guild.id] + [loopback.state.add_guild(f"G{n}", [f"c{n}"]).id
                                       for n in range(3)]
    token = await logged_in_token(http, loopback)
    path = "/api/v10/users/@me/guilds"
    _, page = await get(http, f"{path}?limit=2", token)
    assert [g["id"] for g in page] == [str(i) for i in ids[:2]]
    _, page = await get(http, f"{path}?after={ids[1]}", token)
    assert [g["id"] for g in page] == [str(i) for i in ids[2:]]
    _, page = await get(http, f"{path}?before={ids[3]}&limit=2", token)
    assert [g["id"] for g in page] == [str(i) for i in ids[1:3]]
    _, page = await get(http, f"{path}?with_counts=true", token)
    assert page[0]["approximate_member_count"] == 3  # the bot, alice and bob
    status, body = await get(http, f"{path}?limit=201", token)
    assert (status, body["code"]) == (400, 50035)
    assert page[1]["owner"] is True and page[1]["permissions"] != "0"


async def test_the_unversioned_api_answers_the_same(
        loopback: LoopbackDiscord, http: aiohttp.ClientSession) -> None:
    loopback.oauth.sign_in("bob")
    code = await code_for(http, loopback)
    status, token = await exchange(http, loopback, {
        "grant_type": "authorization_code", "code": code, "redirect_uri": CALLBACK},
        prefix="/api")
    assert status == 200
    status, me = await get(http, "/api/users/@me", token["access_token"])
    assert status == 200 and me["username"] == "bob"
    status, guilds = await get(http, "/api/users/@me/guilds", token["access_token"])
    assert status == 200 and len(guilds) == 1 and guilds[0]["owner"] is False
    assert (await get(http, "/api/users/@me", "made-up"))[1] == {
        "code": 0, "message": "401: Unauthorized"}
    status, body = await exchange(http, loopback, {"grant_type": "authorization_code",
                                                   "code": code}, prefix="/api")
    assert (status, body["error"]) == (400, "invalid_grant")


def test_the_modules_examples() -> None:
    assert doctest.testmod(rest_oauth).failed == 0
