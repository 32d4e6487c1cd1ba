"""Skill ratings through the real bot: a cash-table session against an AI seat is rated by its
net chips when the host ends it, the AI as its level; the board by rating and /stats show it.
(The Sppoker e2e shows the same for two people and a points game.)"""

from __future__ import annotations

import re

from tests.e2e.cash_tables import cash_board
from tests.e2e.conftest import World
from tests.e2e.helpers import AutoPlayer, open_table


async def test_a_session_against_the_ai_is_rated_by_net_chips(world: World) -> None:
    discord = world.discord
    alice, bob = discord.user("alice"), discord.user("bob")
    general = discord.channel("general")
    await open_table(discord, alice, general, "reddog start buy_in:50 ante:2", [bob], ai=1)
    player = AutoPlayer(discord, general, [alice, bob], seed=9)
    await player.play(until=lambda: any("Final stacks" in m.text for m in general.messages()))
    await discord.wait_for(lambda: cash_board(general) is not None, timeout=20)
    board = cash_board(general)
    assert board is not None
    await alice.click(board, label="End")  # the session is recorded, and rated, as it ends

    rated = await bob.slash(general, "leaderboard game:red_dog order:rating")
    text = rated.message.text.replace("*", "")
    assert "Red Dog — by rating" in text
    ranked = re.findall(r"\d+\. (\w+) — rating (\d+), ([01]) won of 1", text)
    assert sorted(name for name, _, _ in ranked) == ["Alice", "Bob"], text
    assert re.search(r"AI \(standard\) \d+", text), text  # the AI seat counted, as its level
    stats = await alice.slash(general, "stats")
    assert re.search(r"Red Dog\nplayed 1, won [01], best score -?\d+\n"
                     r"rating \d+ \([+-]\d+ in the last game\)", stats.message.text), \
        stats.message.text
