"""Leaderboard pages and their buttons, from recorded results (aborted games never count); on
both of the store's backends."""

from __future__ import annotations

from pathlib import Path

from bot.store import GameRecord, PlayerResult, Store
from cogs.leaderboards import PageButton, default_order, leaderboard_page

GUILD = 5


async def played(store: Store, winner: int, loser: int, status: str = "finished") -> None:
    await store.record_game(GameRecord(
        guild_id=GUILD, channel_id=9, kind="sppoker", started_at=1_000.0, finished_at=2_000.0,
        status=status, players=[
            PlayerResult(0, winner, f"P{winner}", 3, 1 if status == "finished" else None,
                         status == "finished"),
            PlayerResult(1, loser, f"P{loser}", 1, 2 if status == "finished" else None, False),
        ],
    ))


async def test_pages_orders_and_aborted_games(database: Path | str) -> None:
    store = await Store.open(database)
    for user in range(1, 16):
        await store.upsert_player(user, f"P{user}")
    for user in range(2, 16):
        await played(store, 1, user)  # P1 beats everyone once
    await played(store, 2, 1, status="aborted")  # never counts

    embed, view = await leaderboard_page(store, GUILD, "sppoker", "wins", 0)
    assert embed.description is not None
    assert embed.description.splitlines()[0].startswith("**1.** P1 — 14 won of 14")
    assert "Page 1 of 2" in (embed.footer.text or "")
    buttons = {item.item.label: item for item in view.children if isinstance(item, PageButton)}
    assert buttons["◀ Previous"].item.disabled and not buttons["Next ▶"].item.disabled
    assert buttons["Wins"].item.disabled  # the current order

    second, view2 = await leaderboard_page(store, GUILD, "sppoker", "wins", 1)
    assert "Page 2 of 2" in (second.footer.text or "")
    assert second.description is not None and second.description.count("\n") == 4  # 15 - 10

    by_games, _ = await leaderboard_page(store, GUILD, "sppoker", "games", 0)
    assert by_games.description is not None and "P1 — 14 won of 14" in by_games.description

    stats = await store.player_stats(GUILD, 2)
    assert stats["sppoker"].played == 1 and stats["sppoker"].won == 0  # aborted not counted
    custom_ids = [item.item.custom_id for item in view2.children]
    assert len(custom_ids) == len(set(custom_ids)) and all(len(c) <= 100 for c in custom_ids)
    await store.close()


async def test_an_empty_board_invites_a_first_game(database: Path | str) -> None:
    store = await Store.open(database)
    embed, _ = await leaderboard_page(store, GUILD, "poke", "win_rate", 3)
    assert "No finished games yet" in (embed.description or "")
    assert "Page 1 of 1" in (embed.footer.text or "")
    await store.close()


async def result(store: Store, kind: str, scores: dict[int, tuple[int, bool]]) -> None:
    """One finished game of `kind`: user -> (score, won)."""
    await store.record_game(GameRecord(
        guild_id=GUILD, channel_id=9, kind=kind, started_at=1_000.0, finished_at=2_000.0,
        status="finished", players=[
            PlayerResult(seat, user, f"P{user}", score, 1 if won else 2, won)
            for seat, (user, (score, won)) in enumerate(scores.items())
        ],
    ))


async def test_all_games_do_not_add_up_points_of_different_games(database: Path | str) -> None:
    store = await Store.open(database)
    for user in (1, 2):
        await store.upsert_player(user, f"P{user}")
    await result(store, "sppoker", {1: (12, True), 2: (3, False)})
    await result(store, "poke", {1: (300, False), 2: (900, True)})
    rows = await store.leaderboard(GUILD, None)
    assert [row.points for row in rows] == [None, None]
    embed, view = await leaderboard_page(store, GUILD, "all", "points", 0)
    assert embed.description is not None and "points" not in embed.description
    assert "by wins" in (embed.title or "")  # no points order across games
    labels = [item.item.label for item in view.children if isinstance(item, PageButton)]
    assert "Points" not in labels and "Wins" in labels
    one_game, _ = await leaderboard_page(store, GUILD, "sppoker", "points", 0)
    assert one_game.description is not None and "12 points" in one_game.description
    await store.close()


async def test_at_equal_wins_the_better_record_ranks_first(database: Path | str) -> None:
    store = await Store.open(database)
    for user in (1, 2, 3, 4, 5):
        await store.upsert_player(user, f"P{user}")
    await result(store, "sppoker", {5: (12, True), 1: (0, False), 2: (0, False)})
    await result(store, "sppoker", {5: (12, True), 2: (0, False)})
    await result(store, "poke", {3: (900, True), 4: (0, False)})
    await result(store, "poke", {4: (900, True), 3: (100, False)})
    for kind in ("all", "sppoker"):
        embed, _ = await leaderboard_page(store, GUILD, kind, "wins", 0)
        assert embed.description is not None
        names = [line.split()[1] for line in embed.description.splitlines()]
        # At 0 wins, P2 (two games) is not ranked below P1 (one game).
        assert names.index("P2") < names.index("P1")
    rows = await store.leaderboard(GUILD, None)
    # P5: 2 of 2 first; P3 and P4: 1 of 2 each; then P2 (0 of 2) above P1 (0 of 1).
    assert [row.user_id for row in rows] == [5, 3, 4, 2, 1]
    await store.close()


async def solitaire(store: Store, user: int, score: int) -> None:
    await store.record_game(GameRecord(
        guild_id=GUILD, channel_id=9, kind="pokeno_solitaire", started_at=1_000.0,
        finished_at=2_000.0, status="finished",
        players=[PlayerResult(0, user, f"P{user}", score, 1, True)],
    ))


async def test_a_solitaire_board_ranks_each_players_best_score(database: Path | str) -> None:
    """Issue 13: the solitaire keeps a best score per player. Many middling games do not
    outrank one great one, and a rating order is not offered (nobody to be rated against).
    Issue 23: nor any other: a finished solitaire counts as won, so wins, a win rate ("1 won
    of 1, 100%") and a sum of scores say only how often one played; the board is best
    scores only."""
    store = await Store.open(database)
    for user in (1, 2, 3):
        await store.upsert_player(user, f"P{user}")
    for score in (150, 160, 170, 180):
        await solitaire(store, 1, score)  # steady: 660 in all, best 180
    await solitaire(store, 2, 310)  # one great game
    await solitaire(store, 3, 90)
    await solitaire(store, 3, 240)

    assert await default_order(store, GUILD, "pokeno_solitaire") == "best"
    embed, view = await leaderboard_page(store, GUILD, "pokeno_solitaire", "best", 0)
    lines = (embed.description or "").splitlines()
    assert [line.split("—")[0].strip() for line in lines] == ["**1.** P2", "**2.** P3",
                                                              "**3.** P1"]
    assert "best 310 (1 game)" in lines[0] and "best 180 (4 games)" in lines[2]
    assert not [line for line in lines if "won" in line or "%" in line]
    labels = {item.item.label for item in view.children if isinstance(item, PageButton)}
    assert labels == {"◀ Previous", "Next ▶"}  # no order to choose

    for other in ("points", "win_rate", "wins"):  # asked for (an old button): best scores
        by_other, _ = await leaderboard_page(store, GUILD, "pokeno_solitaire", other, 0)
        assert (by_other.description or "") == (embed.description or "")
        assert "by best score" in (by_other.title or "")
    everything, _ = await leaderboard_page(store, GUILD, "all", "best", 0)
    assert "Best score" not in (everything.title or "")  # across games: by wins instead
    await store.close()
