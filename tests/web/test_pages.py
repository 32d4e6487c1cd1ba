"""The web pages served from a store (issue 25), through aiohttp's test client, on both
databases: who may see a server's pages (off, members, public; another server's game), that
names render inert, that the boards page and order as the store's `/leaderboard` does, the
player page and its chart's data, the replay viewer (steps, "what X knew", pictures, the
notation), the live table (public information only: no held card on the page or in its
events) and the headers every response carries."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yarl
from aiohttp.test_utils import TestClient, TestServer

from bot.store import Store
from engine.notation import parse
from tests.support.leaks import held
from tests.support.web_site import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    EVIL,
    GUILD,
    MEMBERS,
    OFF,
    OTHER,
    SECRET,
    Site,
    cards_on,
    config,
    finished_guessing,
    next_event,
    record,
)
from web.app import CSP
from web.session import SESSION_COOKIE, Session, Signer
from web.site import make_app


async def test_access_follows_the_servers_setting(site: Site) -> None:
    client = site.client
    assert (await client.get(f"/g/{GUILD}")).status == 200
    off = await client.get(f"/g/{OFF}")  # never set: off
    unknown = await client.get("/g/999999")
    assert off.status == unknown.status == 404
    assert await off.text() == await unknown.text()  # no way to tell them apart
    await site.writer.set_guild_setting(GUILD, "web", "off")
    assert (await client.get(f"/g/{GUILD}/leaderboard/chips")).status == 404
    assert (await client.get("/g/not-a-number")).status == 404

    members = await client.get(f"/g/{MEMBERS}/leaderboard/chips", allow_redirects=False)
    assert members.status == 302
    location = yarl.URL(members.headers["Location"])
    assert location.path == "/login"
    assert location.query["next"] == f"/g/{MEMBERS}/leaderboard/chips"
    signer = Signer(SECRET)
    stranger = signer.sign(Session(CAROL, "Carol", frozenset({GUILD})).to_json(), ttl=60)
    client.session.cookie_jar.update_cookies({SESSION_COOKIE: stranger})
    assert (await client.get(f"/g/{MEMBERS}")).status == 403
    member = signer.sign(Session(CAROL, "Carol", frozenset({MEMBERS})).to_json(), ttl=60)
    client.session.cookie_jar.update_cookies({SESSION_COOKIE: member})
    page = await client.get(f"/g/{MEMBERS}")
    assert page.status == 200 and "Carol" in await page.text()
    forged = member[:-3] + ("AAA" if not member.endswith("AAA") else "BBB")
    client.session.cookie_jar.update_cookies({SESSION_COOKIE: forged})
    assert (await client.get(f"/g/{MEMBERS}", allow_redirects=False)).status == 302


async def test_members_pages_without_log_in_set_up_answer_503(database: Path | str) -> None:
    writer = await Store.open(database)
    await writer.set_guild_setting(MEMBERS, "web", "members")
    reader = await Store.open_read_only(database)
    client = TestClient(TestServer(make_app(reader, config(can_log_in=False))))
    await client.start_server()
    try:
        assert (await client.get(f"/g/{MEMBERS}")).status == 503
        assert (await client.get("/login")).status == 503
    finally:
        await client.close()
        await reader.close()
        await writer.close()


async def test_another_servers_game_and_table_are_not_found_here(site: Site) -> None:
    table_id = await finished_guessing(site, guild=OTHER)
    assert (await site.client.get(f"/g/{OTHER}/replay/{table_id}")).status == 200
    for path in (f"/g/{GUILD}/replay/{table_id}", f"/g/{GUILD}/replay/{table_id}/notation",
                 f"/g/{GUILD}/replay/{table_id}/step/0.png"):
        assert (await site.client.get(path)).status == 404, path
    running, _ = await site.service.open_table(OTHER, CHANNEL, ALICE, "Alice", "poangpoker", {})
    assert (await site.client.get(f"/g/{OTHER}/table/{running}")).status == 200
    assert (await site.client.get(f"/g/{GUILD}/table/{running}")).status == 404
    await record(site.writer, OTHER, "poke", [(CAROL, 5), (ALICE, 1)])
    assert (await site.client.get(f"/g/{OTHER}/player/{CAROL}")).status == 200
    assert (await site.client.get(f"/g/{GUILD}/player/{CAROL}")).status == 404


# --- headers, limits, escaping ------------------------------------------------------------------


async def test_every_response_carries_the_security_headers(site: Site) -> None:
    for path in ("/", f"/g/{GUILD}", f"/g/{OFF}", "/static/site.css"):
        answer = await site.client.get(path)
        assert answer.headers["Content-Security-Policy"] == CSP, path
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert answer.headers["X-Frame-Options"] == "DENY"
    html = await (await site.client.get(f"/g/{GUILD}")).text()
    assert "<script>" not in html and "style=" not in html


async def test_a_client_over_its_rate_gets_429(database: Path | str) -> None:
    writer = await Store.open(database)
    reader = await Store.open_read_only(database)
    client = TestClient(TestServer(make_app(reader, config(), rate=0.001, burst=3)))
    await client.start_server()
    try:
        statuses = [(await client.get("/")).status for _ in range(5)]
        assert statuses == [200, 200, 200, 429, 429]
        refused = await client.get("/")
        assert refused.headers["Retry-After"] == "1"
        assert refused.headers["Content-Security-Policy"] == CSP
    finally:
        await client.close()
        await reader.close()
        await writer.close()


async def test_names_render_inert(site: Site) -> None:
    await record(site.writer, GUILD, "poke", [(BOB, 3), (ALICE, 1)])
    table_id = await finished_guessing(site)
    for path in (f"/g/{GUILD}", f"/g/{GUILD}/leaderboard/poke", f"/g/{GUILD}/player/{BOB}",
                 f"/g/{GUILD}/replay/{table_id}", f"/g/{GUILD}/replay/{table_id}?as=1"):
        html = await (await site.client.get(path)).text()
        assert EVIL not in html, path
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html, path


# --- boards and players -----------------------------------------------------------------------


async def test_boards_page_and_order_as_the_store_does(site: Site) -> None:
    people = list(range(100, 130))
    for user in people:
        await site.writer.upsert_player(user, f"P{user}")
    await site.writer.upsert_player(99, "Opponent")
    for n, user in enumerate(people):  # each wins a few games against the same opponent
        for k in range(n % 5 + 1):
            pair = [(user, 10 + n), (99, 2)] if k else [(99, 5), (user, n)]
            await record(site.writer, GUILD, "poke", pair)
    for order in ("wins", "games", "points", "win_rate"):
        expected = await site.writer.leaderboard(GUILD, "poke", order, 25, 0)  # type: ignore[arg-type]
        html = await (await site.client.get(
            f"/g/{GUILD}/leaderboard/poke?order={order}")).text()
        assert re.findall(r'data-user="(\d+)"', html) == [str(r.user_id) for r in expected]
        assert f'data-order="{order}"' in html
    size = await site.writer.leaderboard_size(GUILD, "poke")
    second = await site.writer.leaderboard(GUILD, "poke", "wins", 25, 25)
    html = await (await site.client.get(f"/g/{GUILD}/leaderboard/poke?order=wins&page=2")).text()
    assert re.findall(r'data-user="(\d+)"', html) == [str(r.user_id) for r in second]
    assert size > 25 and len(second) == size - 25
    assert (await site.client.get(f"/g/{GUILD}/leaderboard/poke?page=3")).status == 404
    rated = await site.writer.rating_board(GUILD, "poke", 25, 0)
    html = await (await site.client.get(f"/g/{GUILD}/leaderboard/poke?order=rating")).text()
    assert re.findall(r'data-user="(\d+)"', html) == [str(r.user_id) for r in rated]
    assert (await site.client.get(f"/g/{GUILD}/leaderboard/nonsense")).status == 404
    await site.writer.balance(GUILD, ALICE)
    chips = await (await site.client.get(f"/g/{GUILD}/leaderboard/chips")).text()
    assert f'data-user="{ALICE}"' in chips


async def test_a_players_page_and_its_charts_data(site: Site) -> None:
    await record(site.writer, GUILD, "poke", [(ALICE, 7), (CAROL, 1)])
    await record(site.writer, GUILD, "poke", [(CAROL, 7), (ALICE, 3)], minutes=5)
    html = await (await site.client.get(f"/g/{GUILD}/player/{ALICE}")).text()
    assert "Alice" in html and 'data-kind="poke"' in html and "rating-chart" in html
    data = await (await site.client.get(f"/g/{GUILD}/player/{ALICE}/ratings.json")).json()
    (series,) = data["series"]
    ratings = await site.writer.player_ratings(GUILD, ALICE)
    assert series["kind"] == "poke" and len(series["points"]) == 2
    assert series["points"][-1]["y"] == ratings["poke"].skill.shown
    assert (await site.client.get(f"/g/{GUILD}/player/424242")).status == 404


# --- replays ------------------------------------------------------------------------------------


async def test_a_replay_steps_shows_what_a_seat_knew_and_gives_its_notation(site: Site) -> None:
    table_id = await finished_guessing(site)
    base = f"/g/{GUILD}/replay/{table_id}"
    first = await (await site.client.get(base)).text()
    assert 'data-step="0"' in first and 'id="next"' in first and 'id="prev"' not in first
    second = await (await site.client.get(f"{base}?step=1&as=0")).text()
    assert 'data-step="1"' in second and 'id="prev"' in second
    assert "What Alice knew" in second
    notation = await site.client.get(f"{base}/notation")
    assert notation.status == 200
    assert f'filename="guessing-{table_id}.txt"' in notation.headers["Content-Disposition"]
    parsed = parse(await notation.text())
    assert parsed.tags["Table"] == table_id
    last = await (await site.client.get(f"{base}?step=9999")).text()
    assert f'data-step="{parsed.moves}"' in last and 'id="next"' not in last
    assert (await site.client.get(f"{base}?as=7")).status == 404
    picture = await site.client.get(f"{base}/step/1.png?as=all")
    assert picture.status == 200 and picture.content_type == "image/png"
    assert (await picture.read()).startswith(b"\x89PNG")


# --- live tables ----------------------------------------------------------------------------------


async def test_a_live_table_shows_no_held_card_on_its_page_or_in_its_events(site: Site) -> None:
    service = site.service
    table_id, _ = await service.open_table(GUILD, CHANNEL, ALICE, "Alice", "poangpoker", {})
    await service.lobby_action(table_id, CAROL, "Carol", "join")
    await service.lobby_action(table_id, ALICE, "Alice", "start")
    game = service.tables[table_id].require_game()
    hidden = {card.strip('"') for hand in held(game) for card in hand}
    assert hidden
    page = await site.client.get(f"/g/{GUILD}/table/{table_id}")
    html = await page.text()
    assert page.status == 200 and 'id="whose-turn"' in html and 'id="last-moves"' in html
    assert not hidden & set(cards_on(html))
    text = re.sub(r"<[^>]+>", " ", html)
    assert not [card for card in hidden if re.search(rf"(?<![\w-]){re.escape(card)}(?!\w)",
                                                     text)]
    home = await (await site.client.get(f"/g/{GUILD}")).text()
    assert f"/g/{GUILD}/table/{table_id}" in home

    async with site.client.get(f"/g/{GUILD}/table/{table_id}/events") as stream:
        assert stream.headers["Content-Type"].startswith("text/event-stream")
        first = await next_event(stream)
        assert first[0] == "board" and not hidden & {c["card"] for c in first[1]["cards"]}
        step = first[1]["step"]
        table = service.tables[table_id]
        seat = min(table.require_game().to_act)
        await service.act(table_id, table.seats[seat].user_id or 0, seat,
                          table.stamp(seat)[0], 0)
        moved = await next_event(stream)
        assert moved[0] == "board" and moved[1]["step"] > step
        for event_json in (first[1], moved[1]):
            shown = {c["card"] for c in event_json["cards"]}
            assert not shown & {card.strip('"') for hand in
                                held(service.tables[table_id].require_game())
                                for card in hand}


# --- languages and start-up ----------------------------------------------------------------------


async def test_pages_speak_the_servers_language_unless_the_browser_asks(site: Site) -> None:
    english = await (await site.client.get(f"/g/{GUILD}")).text()
    assert "Recent results" in english and 'lang="en"' in english
    await site.writer.set_guild_setting(GUILD, "locale", "sv")
    swedish = await (await site.client.get(f"/g/{GUILD}")).text()
    assert "Senaste resultaten" in swedish and 'lang="sv"' in swedish
    asked = await (await site.client.get(f"/g/{GUILD}", headers={
        "Accept-Language": "en-GB,en;q=0.9"})).text()
    assert "Recent results" in asked
    refused = await (await site.client.get(f"/g/{OFF}", headers={
        "Accept-Language": "sv-SE"})).text()
    assert "Här finns ingenting" in refused


def test_a_wrong_setting_stops_the_web_process_with_one_sentence(tmp_path: Path) -> None:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "web"], capture_output=True, text=True,
                          cwd=tmp_path, timeout=120,
                          env={"PATH": "/usr/bin:/bin", "WEB_PORT": "eighty",
                               "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
    assert done.returncode == 2
    assert done.stderr.strip() == ("WEB_PORT must be a TCP port, a whole number from 1 to "
                                   "65535, not 'eighty'.")
    missing = subprocess.run([sys.executable, "-m", "web"], capture_output=True, text=True,
                             cwd=tmp_path, timeout=120,
                             env={"PATH": "/usr/bin:/bin",
                                  "DATABASE": str(tmp_path / "none.sqlite3"),
                                  "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
    assert missing.returncode == 2 and "start the bot first" in missing.stderr


# --- log in with Discord ------------------------------------------------------------------------


async def test_log_in_with_discord_keeps_the_membership_in_a_signed_cookie(
        database: Path | str) -> None:
    """The whole code flow against a tiny stand-in for Discord's token and user endpoints
    (the loopback Discord's own OAuth2 endpoints are driven by the browser tests)."""
    from aiohttp import web as aioweb

    seen: dict[str, object] = {}

    async def token(request: aioweb.Request) -> aioweb.Response:
        form = await request.post()
        seen["form"] = dict(form)
        if form.get("code") != "good-code":
            return aioweb.json_response({"error": "invalid_grant"}, status=400)
        return aioweb.json_response({"access_token": "tok", "token_type": "Bearer",
                                     "scope": "identify guilds"})

    async def me(request: aioweb.Request) -> aioweb.Response:
        assert request.headers["Authorization"] == "Bearer tok"
        return aioweb.json_response({"id": str(CAROL), "username": "carol",
                                     "global_name": "Carol"})

    async def guilds(request: aioweb.Request) -> aioweb.Response:
        return aioweb.json_response([{"id": str(MEMBERS), "name": "M"},
                                     {"id": str(OTHER), "name": "O"}])

    fake = aioweb.Application()
    fake.router.add_post("/api/oauth2/token", token)
    fake.router.add_get("/api/users/@me", me)
    fake.router.add_get("/api/users/@me/guilds", guilds)
    discord = TestServer(fake, host="127.0.0.1")
    await discord.start_server()
    writer = await Store.open(database)
    await writer.set_guild_setting(MEMBERS, "web", "members")
    reader = await Store.open_read_only(database)
    client = TestClient(TestServer(make_app(reader, config(
        discord_api=str(discord.make_url("/api")),
        discord_authorize="https://discord.example/oauth2/authorize"), secret=SECRET)))
    await client.start_server()
    try:
        refused = await client.get(f"/g/{MEMBERS}", allow_redirects=False)
        login = await client.get(refused.headers["Location"], allow_redirects=False)
        assert login.status == 302
        authorize = yarl.URL(login.headers["Location"])
        assert str(authorize.with_query(None)) == "https://discord.example/oauth2/authorize"
        assert authorize.query["scope"] == "identify guilds"
        assert authorize.query["client_id"] == "42"
        state = authorize.query["state"]
        callback = authorize.query["redirect_uri"]
        assert callback.endswith("/oauth/callback")
        forged = await client.get(f"/oauth/callback?code=good-code&state=not-{state}",
                                  allow_redirects=False)
        assert forged.status == 400 and SESSION_COOKIE not in forged.cookies
        login = await client.get(f"/login?next=/g/{MEMBERS}", allow_redirects=False)
        state = yarl.URL(login.headers["Location"]).query["state"]
        done = await client.get(f"/oauth/callback?code=good-code&state={state}",
                                allow_redirects=False)
        assert done.status == 302 and done.headers["Location"] == f"/g/{MEMBERS}"
        cookie = done.cookies[SESSION_COOKIE]
        assert cookie["httponly"] and cookie["samesite"] == "Lax"
        session = Session.from_json(Signer(SECRET).unsign(cookie.value) or {})
        assert session == Session(CAROL, "Carol", frozenset({MEMBERS}))  # members-only ones
        assert seen["form"]["redirect_uri"] == callback  # type: ignore[index]
        assert (await client.get(f"/g/{MEMBERS}")).status == 200
        evil = await client.get("/login?next=//evil.example/x", allow_redirects=False)
        state = yarl.URL(evil.headers["Location"]).query["state"]
        back = await client.get(f"/oauth/callback?code=good-code&state={state}",
                                allow_redirects=False)
        assert back.headers["Location"] == "/"  # only ever a path of this site
        out = await client.get("/logout", allow_redirects=False)
        assert out.status == 302
        assert (await client.get(f"/g/{MEMBERS}", allow_redirects=False)).status == 302
    finally:
        await client.close()
        await discord.close()
        await reader.close()
        await writer.close()


# --- the store read-only, the page cache ----------------------------------------------------------


async def test_the_web_store_cannot_write(database: Path | str) -> None:
    writer = await Store.open(database)
    reader = await Store.open_read_only(database)
    try:
        with pytest.raises(Exception, match=r"(?i)read.?only"):
            await reader.set_guild_setting(GUILD, "web", "public")
        assert await writer.get_guild_setting(GUILD, "web") is None
    finally:
        await reader.close()
        await writer.close()


async def test_the_page_cache_reads_once_per_latest_game() -> None:
    import asyncio

    from web.caches import PageCache

    now = [0.0]
    cache = PageCache(size=2, seconds=60, clock=lambda: now[0])
    reads: list[int] = []

    async def read() -> int:
        reads.append(1)
        await asyncio.sleep(0)
        return len(reads)

    together = await asyncio.gather(*(cache.get(("board",), 5, read) for _ in range(10)))
    assert together == [1] * 10 and len(reads) == 1  # one read for ten readers at once
    assert await cache.get(("board",), 6, read) == 2  # another game ended: read again
    now[0] = 61.0
    assert await cache.get(("board",), 6, read) == 3  # aged out

    async def broken() -> int:
        raise RuntimeError("database gone")

    with pytest.raises(RuntimeError):
        await cache.get(("other",), 1, broken)
    assert await cache.get(("other",), 1, read) == 4  # a failure is not kept


async def test_members_pages_without_log_in_stop_the_web_process(tmp_path: Path) -> None:
    import asyncio
    import sys

    path = tmp_path / "bot.sqlite3"
    writer = await Store.open(path)
    await writer.set_guild_setting(MEMBERS, "web", "members")
    await writer.close()
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "web", cwd=tmp_path, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env={"PATH": "/usr/bin:/bin", "DATABASE": str(path), "WEB_PORT": "1",
             "DISCORD_CLIENT_ID": "42", "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
    _, err = await asyncio.wait_for(process.communicate(), timeout=120)
    assert process.returncode == 2
    assert "set WEB_SECRET, DISCORD_CLIENT_SECRET" in err.decode()
