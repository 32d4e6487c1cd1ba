"""A click's answer is an outbox row (`bot.core.outbox.Reply`), written with the click's step:
kill -9 after the step is saved and before the click's response carries the answer, and the
next process delivers it from the store, once, into the prompt the person clicked (no new DM).
"""

from __future__ import annotations

import asyncio
import contextlib

from tests.e2e.conftest import World
from tests.e2e.helpers import channel_text, open_table, wait_dm_button

CALLBACKS = r"/interactions/\d+/[^/]+/callback$"


async def test_kill_9_between_a_clicks_save_and_its_answer(world: World) -> None:
    discord = world.discord
    alice, bob = discord.user("alice"), discord.user("bob")
    general = discord.channel("general")
    await open_table(discord, alice, general, "sppoker start target:1", [bob])
    prompt = await wait_dm_button(discord, alice, "Poker")
    await wait_dm_button(discord, bob, "Poker")
    before = [m.id for m in alice.dms()]
    # Discord holds every interaction response back (a long 429): the step is saved and the
    # board tells of it, but the click is never answered by this process.
    discord.fail_next("POST", CALLBACKS, 429, count=1000, retry_after=60)
    click = asyncio.create_task(alice.click_dm(label="Poker", check=False, timeout=60))
    await discord.wait_for(lambda: "Alice has declared" in channel_text(general), timeout=20)
    await world.bot.kill()
    click.cancel()
    with contextlib.suppress(BaseException):
        await click
    assert "You declared" not in next(m for m in alice.dms() if m.id == prompt.id).text
    discord.server.faults.clear()
    await world.bot.start()

    def answered() -> bool:
        shown = next(m for m in alice.dms() if m.id == prompt.id)
        return "You declared" in shown.text

    await discord.wait_for(answered, timeout=30,
                           message=lambda: f"no answer: {[m.text for m in alice.dms()]}")
    await world.bot.stop()  # whatever was still to send has had its chance
    assert [m.id for m in alice.dms()] == before  # in place: no new DM
    texts = [m.text for m in alice.dms()]
    assert sum("You declared" in text for text in texts) == 1, texts
