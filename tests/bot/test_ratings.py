"""Skill ratings: the project's numbers are OpenSkill's, games against AI seats count, a
stronger AI level is rated above a weaker one, and the boards and /stats show them.

The reference here is the `openskill` package itself, called directly on the results as the
store recorded them, never the project's own `bot.store.skill`. The store's tests run on both
backends (SQLite, PostgreSQL: the `database` fixture).
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path
from statistics import fmean

import pytest
from openskill.models import PlackettLuce

from bot.store import GameRecord, PlayerResult, Store
from bot.store.skill import RATED_AFTER, Skill, ai_entity, rate
from cogs.leaderboards import PageButton, default_order, leaderboard_page
from engine.ai_levels import NOVICE, STANDARD, ai_move
from engine.game import Game
from engine.games.poangpoker.rules import Poangpoker
from engine.games.poke.rules import Poke
from tests.support.rawdb import fetch

GUILD, OTHER_GUILD, CHANNEL = 5, 6, 9
PEOPLE = {1: "Anna", 2: "Bo", 3: "Cia", 4: "Dan"}


@pytest.fixture
def db_path(database: Path | str) -> Path | str:
    return database


@pytest.fixture
async def store(db_path: Path | str) -> AsyncIterator[Store]:
    opened = await Store.open(db_path)
    for user, name in PEOPLE.items():
        await opened.upsert_player(user, name)
    yield opened
    await opened.close()


def play(cls: type[Game], seats: list[int | None], seed: int) -> Game:
    """A whole game from the engine: people (ids) move at random, AI seats (None) as the
    standard AI."""
    game = cls([PEOPLE[s] if s else f"AI {i + 1}" for i, s in enumerate(seats)], {},
               random.Random(seed))
    rng = random.Random(seed + 1)
    while not game.is_over:
        seat = min(game.to_act)
        level = STANDARD if seats[seat] is None else NOVICE
        game.apply(seat, ai_move(level, game, seat, rng))
    return game


def record_of(game: Game, seats: list[int | None], guild: int = GUILD,
              status: str = "finished") -> GameRecord:
    result = game.result
    assert result is not None
    return GameRecord(
        guild_id=guild, channel_id=CHANNEL, kind=game.kind, started_at=1_000.0,
        finished_at=2_000.0, status=status, seed=0,
        players=[PlayerResult(seat, user, game.seats[seat], result.scores[seat],
                              result.places[seat], seat in result.winners)
                 for seat, user in enumerate(seats)],
    )


async def replay_with_openskill(
        path: Path | str) -> dict[tuple[int, str, str], tuple[float, float]]:
    """Every finished game the store recorded, in order, through OpenSkill's Plackett–Luce
    directly: (guild, kind, entity) -> (mu, sigma). AI seats are their level; two seats of
    one level take the mean of their new ratings."""
    model = PlackettLuce()
    ratings: dict[tuple[int, str, str], tuple[float, float]] = {}
    games = await fetch(path, "SELECT id, guild_id, kind FROM games WHERE status = 'finished'"
                              " ORDER BY id")
    for game_id, guild, kind in games:
        seats = await fetch(path, "SELECT user_id, place FROM game_results WHERE game_id = ?"
                                  " ORDER BY seat", (game_id,))
        keys = [(guild, kind, f"user:{user}" if user is not None else "ai:standard")
                for user, _ in seats]
        if len(set(keys)) < 2:
            continue
        teams = [[model.rating(*ratings.get(key, (model.mu, model.sigma)))] for key in keys]
        new = model.rate(teams, ranks=[place for _, place in seats])
        by_key: dict[tuple[int, str, str], list[tuple[float, float]]] = {}
        for key, (rating,) in zip(keys, new, strict=True):
            by_key.setdefault(key, []).append((rating.mu, rating.sigma))
        for key, found in by_key.items():
            ratings[key] = (fmean(m for m, _ in found), fmean(s for _, s in found))
    return ratings


async def stored_ratings(path: Path | str) -> dict[tuple[int, str, str], tuple[float, float]]:
    return {(guild, kind, entity): (mu, sigma) for guild, kind, entity, mu, sigma
            in await fetch(path, "SELECT guild_id, kind, entity, mu, sigma FROM ratings")}


async def test_the_projects_ratings_are_openskills_on_recorded_games(
        store: Store, db_path: Path | str) -> None:
    tables: list[tuple[type[Game], list[int | None]]] = [
        (Poangpoker, [1, 2, None]),  # against the AI: it counts
        (Poangpoker, [3, None, 1, None]),  # two AI seats of one level
        (Poangpoker, [2, 4]),
        (Poke, [1, 2]),
        (Poke, [None, 3]),
    ]
    for n in range(30):
        cls, seats = tables[n % len(tables)]
        game = play(cls, seats, seed=n)
        await store.finish_table(f"t{n}", record_of(game, seats))
    # Not rated: an aborted game, and a game in another server is rated on its own.
    aborted = play(Poangpoker, [1, 2], seed=99)
    await store.finish_table("aborted", record_of(aborted, [1, 2], status="aborted"))
    elsewhere = play(Poangpoker, [1, 2], seed=100)
    await store.finish_table("elsewhere", record_of(elsewhere, [1, 2], guild=OTHER_GUILD))

    expected = await replay_with_openskill(db_path)
    assert await stored_ratings(db_path) == expected  # exactly: the same arithmetic, no drift
    assert (GUILD, "poangpoker", "ai:standard") in expected
    assert (OTHER_GUILD, "poangpoker", "user:1") in expected
    changes = await fetch(db_path, "SELECT count(*) FROM rating_changes c JOIN games g"
                                   " ON g.id = c.game_id WHERE g.status = 'aborted'")
    assert changes == [(0,)]


async def test_a_chip_session_is_rated_by_its_net_chips(store: Store,
                                                        db_path: Path | str) -> None:
    """A cash table's record ranks its seats by net chips (`bot.core.game_records.record`); a shared
    place is a draw, as OpenSkill rates a tie."""
    nets = {1: 140, 2: -70, 3: -70, None: 0}
    places = {1: 1, 2: 3, 3: 3, None: 2}
    await store.finish_table("cash", GameRecord(
        guild_id=GUILD, channel_id=CHANNEL, kind="badugi", started_at=1_000.0,
        finished_at=2_000.0, players=[
            PlayerResult(seat, user, PEOPLE[user] if user else "AI 1", net, places[user],
                         net > 0)
            for seat, (user, net) in enumerate(nets.items())
        ]))
    ratings = await store.player_ratings(GUILD, 1)
    assert ratings["badugi"].skill.mu > 25 and ratings["badugi"].last_change > 0
    two, three = await store.player_ratings(GUILD, 2), await store.player_ratings(GUILD, 3)
    assert two["badugi"].skill == three["badugi"].skill  # tied on net chips, rated alike
    assert await replay_with_openskill(db_path) == await stored_ratings(db_path)


def test_a_stronger_ai_level_ends_rated_above_a_weaker_one() -> None:
    """200 heads-up Poängpoker games between the standard AI and the novice, each seat in
    turn first, rated game by game as the store rates them."""
    ratings: dict[str, Skill] = {}
    levels = (STANDARD, NOVICE)
    for n in range(200):
        order = levels if n % 2 == 0 else levels[::-1]
        game = Poangpoker([f"AI {level}" for level in order], {}, random.Random(n))
        rng = random.Random(n ^ 0x5EED)
        while not game.is_over:
            seat = min(game.to_act)
            game.apply(seat, ai_move(order[seat], game, seat, rng))
        result = game.result
        assert result is not None
        seats = [(ai_entity(level), result.places[seat]) for seat, level in enumerate(order)]
        ratings.update(rate(seats, ratings))
    strong, weak = ratings[ai_entity(STANDARD)], ratings[ai_entity(NOVICE)]
    assert strong.shown > weak.shown
    assert strong.mu - 3 * strong.sigma > weak.mu + 3 * weak.sigma  # apart beyond doubt


async def rated_games(store: Store, count: int) -> None:
    """Anna beats Bo `count` times at Poängpoker; Cia loses once to the AI."""
    for n in range(count):
        await store.record_game(GameRecord(
            guild_id=GUILD, channel_id=CHANNEL, kind="poangpoker", started_at=1_000.0,
            finished_at=2_000.0, players=[PlayerResult(0, 1, "Anna", 13, 1, True),
                                          PlayerResult(1, 2, "Bo", 5 + n % 3, 2, False)]))
    await store.record_game(GameRecord(
        guild_id=GUILD, channel_id=CHANNEL, kind="poangpoker", started_at=1_000.0,
        finished_at=2_000.0, players=[PlayerResult(0, None, "AI 1", 13, 1, True),
                                      PlayerResult(1, 3, "Cia", 2, 2, False)]))


async def test_the_board_by_rating_and_when_it_is_the_default(store: Store) -> None:
    await rated_games(store, RATED_AFTER - 1)
    assert await default_order(store, GUILD, "poangpoker") == "wins"  # too few games yet
    await rated_games(store, 1)
    assert await default_order(store, GUILD, "poangpoker") == "rating"
    assert await default_order(store, GUILD, "poke") == "wins"  # nobody rated at Poke
    assert await default_order(store, GUILD, "all") == "wins"  # ratings are per game

    embed, view = await leaderboard_page(store, GUILD, "poangpoker", "rating", 0)
    lines = (embed.description or "").splitlines()
    anna = (await store.player_ratings(GUILD, 1))["poangpoker"].skill.shown
    assert lines[0] == f"**1.** Anna — rating {anna}, {RATED_AFTER} won of {RATED_AFTER}"
    assert [line.split()[1] for line in lines] == ["Anna", "Cia", "Bo"]
    assert "by rating" in (embed.title or "")
    assert "AI (standard)" in (embed.footer.text or "")
    assert "newcomers start at 1000" in (embed.footer.text or "")
    labels = {item.item.label: item.item for item in view.children
              if isinstance(item, PageButton)}
    assert labels["Rating"].disabled and not labels["Wins"].disabled

    every, every_view = await leaderboard_page(store, GUILD, "all", "rating", 0)
    assert "by wins" in (every.title or "")  # no rating across games
    assert "Rating" not in [item.item.label for item in every_view.children
                            if isinstance(item, PageButton)]


async def test_stats_show_each_rating_and_its_last_change(store: Store) -> None:
    await rated_games(store, 2)
    anna = (await store.player_ratings(GUILD, 1))["poangpoker"]
    bo = (await store.player_ratings(GUILD, 2))["poangpoker"]
    assert anna.games == bo.games == 2
    assert anna.last_change > 0 > bo.last_change
    assert anna.skill.shown > bo.skill.shown
    assert await store.player_ratings(GUILD, 4) == {}  # never played
    assert await store.player_ratings(OTHER_GUILD, 1) == {}  # per server
