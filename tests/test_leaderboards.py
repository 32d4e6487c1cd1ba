"""Leaderboard pages and their buttons, from recorded results (aborted games never count)."""

from __future__ import annotations

from pathlib import Path

from bot.store import GameRecord, PlayerResult, Store
from cogs.leaderboards import PageButton, leaderboard_page

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


async def test_pages_orders_and_aborted_games(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "db.sqlite3")
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


async def test_an_empty_board_invites_a_first_game(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "db.sqlite3")
    embed, _ = await leaderboard_page(store, GUILD, "poke", "win_rate", 3)
    assert "No finished games yet" in (embed.description or "")
    assert "Page 1 of 1" in (embed.footer.text or "")
    await store.close()
