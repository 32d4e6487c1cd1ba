"""A server's pages: its home (games, tables playing now, recent results), its leaderboards
(per game and for chips, in the orders `/leaderboard` has, paged) and each player's page
(per game played, won, best and rating, a chart of the rating, last games).

Every page is one or a few indexed reads of the store, whatever the server's size; the
boards are the store's own (`Store.leaderboard`, `Store.rating_board`,
`Store.chip_leaderboard`), so the web and `/leaderboard` rank alike.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from bot.present import i18n
from bot.present.i18n import render as render_text
from bot.present.i18n import t
from bot.store import LeaderboardRow
from bot.store.skill import BASE, SCALE
from bot.store.web_reads import WebGame, rank_board
from engine.games import GAMES
from engine.i18n import N_
from web.app import (
    CACHE,
    RENDERED,
    STORE,
    Guild,
    browser_locale,
    once_per_language,
    open_guild,
    render,
)

PAGE_SIZE = 25
RECENT = 10
ORDERS = {"wins": N_("Wins"), "games": N_("Games"), "points": N_("Points"),
          "win_rate": N_("Win rate"), "rating": N_("Rating"), "best": N_("Best score")}
PER_GAME = frozenset({"points", "rating", "best"})  # orders the all-games board cannot have


def title_of(kind: str) -> str:
    """A game's title in the reader's language; "chips" and "all" are the two other boards."""
    if kind == "chips":
        return t("Chips")
    if kind == "all":
        return t("All games")
    if kind not in GAMES:
        return kind
    return once_per_language("title:" + kind,
                             lambda: render_text(GAMES[kind].title, markdown=False))


def is_solitaire(kind: str) -> bool:
    return kind in GAMES and GAMES[kind].max_seats == 1


def orders_for(kind: str) -> list[str]:
    """The orders a board offers, as `/leaderboard` offers them: a solitaire's board is its
    best scores only; the all-games board has neither points, ratings nor best scores (each
    game counts its own way); a game's board everything but best scores."""
    if kind == "all":
        return [key for key in ORDERS if key not in PER_GAME]
    if is_solitaire(kind):
        return ["best"]
    return [key for key in ORDERS if key != "best"]


async def default_order(request: web.Request, guild: Guild, kind: str) -> str:
    """`/leaderboard`'s default: by rating once someone has played a few rated games of it
    here, else by wins; a solitaire's by best score."""
    if is_solitaire(kind):
        return "best"
    if kind in GAMES and await request.app[STORE].rating_is_default(guild.id, kind):
        return "rating"
    return "wins"


def page_number(request: web.Request) -> int:
    raw = request.query.get("page", "1")
    return max(1, int(raw)) if raw.isascii() and raw.isdigit() and len(raw) < 7 else 1


# --- the pages ------------------------------------------------------------------------------


async def index(request: web.Request) -> web.Response:
    """What this is; no list of servers (a server's page is reached by its link)."""
    i18n.set_current(browser_locale(request) or i18n.DEFAULT_LOCALE)
    return render(request, "index.html", {})


async def home(request: web.Request) -> web.Response:
    guild = await open_guild(request)
    store = request.app[STORE]
    stamp, tables = guild.latest, await store.playing_tables(guild.id)

    async def read() -> tuple[dict[str, int], list[WebGame]]:
        return await store.game_counts(guild.id), await store.recent_results(guild.id, RECENT)

    async def make() -> web.Response:
        counts, recent = await request.app[CACHE].get(("home", guild.id), stamp, read)
        games = sorted(((kind, title_of(kind), n) for kind, n in counts.items()),
                       key=lambda item: item[1].lower())
        return render(request, "home.html", {
            "guild": guild, "games": games, "title_of": title_of,
            "tables": tables, "recent": recent,
            "titles": {game.kind: title_of(game.kind) for game in recent},
        })

    # The tables playing now change without a game ending: their versions are in the key.
    playing = tuple((table.table_id, table.version) for table in tables)
    return await request.app[RENDERED].page(request, ("home", guild.id, playing), stamp, make)


async def leaderboard(request: web.Request) -> web.Response:
    guild = await open_guild(request)
    kind = request.match_info["kind"]
    if kind not in GAMES and kind not in ("chips", "all"):
        raise web.HTTPNotFound()
    if kind == "chips":
        # Chips move without a game ending (dailies, grants): the board is kept while no
        # chip has moved in any server and no account opened here (one indexed query).
        size, moved = await request.app[STORE].chip_board_state(guild.id)
        return await request.app[RENDERED].page(
            request, ("chips", guild.id, size), moved,
            lambda: board(request, guild, kind, moved, size))
    stamp = guild.latest
    return await request.app[RENDERED].page(request, ("board", guild.id, kind), stamp,
                                            lambda: board(request, guild, kind, stamp))


async def board(request: web.Request, guild: Guild, kind: str, stamp: int,
                size: int = 0) -> web.Response:
    """A board's page, rendered (`leaderboard` keeps it while no game ends; the chips
    board, of `size` accounts, while no chip moves: `stamp` is then the latest move's id)."""
    store = request.app[STORE]
    page = page_number(request)
    rows: list[dict[str, Any]] = []
    if kind == "chips":
        order = "chips"
        orders: list[str] = []
        chip_rows = await store.chip_leaderboard(guild.id, limit=PAGE_SIZE,
                                                 offset=(page - 1) * PAGE_SIZE)
        rows = [{"rank": row.rank, "user_id": row.user_id, "name": row.display_name,
                 "chips": row.balance} for row in chip_rows]
    else:
        orders = orders_for(kind)
        asked = request.query.get("order", "")
        cache = request.app[CACHE]
        order = asked if asked in orders else await cache.get(
            ("default", guild.id, kind), stamp, lambda: default_order(request, guild, kind))
        size, rows = await cache.get(("board", guild.id, kind, order, page), stamp,
                                     lambda: board_page(request, guild, kind, order, page,
                                                        stamp))
    pages = max(1, -(-size // PAGE_SIZE))
    if page > pages:
        raise web.HTTPNotFound()
    return render(request, "leaderboard.html", {
        "guild": guild, "kind": kind, "title": title_of(kind), "order": order,
        "orders": [(key, t(ORDERS[key])) for key in orders], "rows": rows,
        "page": page, "pages": pages, "solitaire": is_solitaire(kind),
        "per_game": kind in GAMES, "scale": f"{SCALE:g}", "base": f"{BASE:g}",
    })


async def board_page(request: web.Request, guild: Guild, kind: str, order: str,
                     page: int, stamp: int) -> tuple[int, list[dict[str, Any]]]:
    """One page of a game's board (or all games'): how many rows it has in all, and the
    page's, read as `/leaderboard` reads them."""
    store = request.app[STORE]
    if order == "rating":
        size = await store.rating_board_size(guild.id, kind)
        rated = await store.rating_page(guild.id, kind, PAGE_SIZE, (page - 1) * PAGE_SIZE)
        return size, [{"rank": row.rank, "user_id": row.user_id, "name": row.display_name,
                       "games": row.games, "wins": row.wins, "rating": row.skill.shown}
                      for row in rated]
    cache = request.app[CACHE]
    game_kind = None if kind == "all" else kind

    async def ranked() -> list[LeaderboardRow]:
        totals = await cache.get(("totals", guild.id, kind), stamp,
                                 lambda: store.board_totals(guild.id, game_kind))
        return rank_board(totals, order)

    # The whole board read once per game ended, sorted once per order; a page is a slice.
    board = await cache.get(("ranked", guild.id, kind, order), stamp, ranked)
    start = (page - 1) * PAGE_SIZE
    return len(board), [{"rank": row.rank, "user_id": row.user_id, "name": row.display_name,
                         "games": row.games, "wins": row.wins, "points": row.points,
                         "win_rate": row.win_rate, "best": row.best}
                        for row in board[start:start + PAGE_SIZE]]


async def player(request: web.Request) -> web.Response:
    guild = await open_guild(request)
    user_id = _user_id(request)
    store = request.app[STORE]
    stamp = guild.latest

    async def make() -> web.Response:
        found = await request.app[CACHE].get(
            ("player", guild.id, user_id), stamp,
            lambda: store.player_page(guild.id, user_id, RECENT))
        if not (found.records or found.recent):
            raise web.HTTPNotFound()  # nobody who played here (nor anyone of another server)
        titles = {kind: title_of(kind) for kind in
                  {*found.records, *(game.kind for game in found.recent)}}
        kinds = sorted(found.records, key=lambda kind: titles[kind].lower())
        return render(request, "player.html", {
            "guild": guild, "user_id": user_id, "name": found.name,
            "kinds": kinds, "stats": found.records, "ratings": found.ratings,
            "recent": found.recent, "titles": titles,
        })

    return await request.app[RENDERED].page(request, ("player", guild.id, user_id), stamp,
                                            make)


async def ratings_json(request: web.Request) -> web.Response:
    """The chart's data: each game's rating after each rated game, oldest first."""
    guild = await open_guild(request)
    user_id = _user_id(request)
    store = request.app[STORE]
    stamp = guild.latest

    async def make() -> web.Response:
        points = await store.rating_history(guild.id, user_id)
        series: dict[str, dict[str, Any]] = {}
        for point in points:
            entry = series.setdefault(point.kind, {"kind": point.kind,
                                                   "title": title_of(point.kind),
                                                   "points": []})
            entry["points"].append({"x": point.at.isoformat(), "y": point.rating,
                                    "game": point.game_id})
        return web.json_response({"user": str(user_id), "label": t("Rating"),
                                  "series": list(series.values())})

    return await request.app[RENDERED].page(request, ("ratings", guild.id, user_id), stamp,
                                            make)


def _user_id(request: web.Request) -> int:
    raw = request.match_info["user"]
    if not (raw.isascii() and raw.isdigit() and len(raw) < 20) or not 0 < int(raw) < 2**63:
        raise web.HTTPNotFound()
    return int(raw)


def setup(app: web.Application) -> None:
    app.router.add_get("/", index)
    app.router.add_get(r"/g/{guild}", home)
    app.router.add_get(r"/g/{guild}/leaderboard/{kind}", leaderboard)
    app.router.add_get(r"/g/{guild}/player/{user}", player)
    app.router.add_get(r"/g/{guild}/player/{user}/ratings.json", ratings_json)
