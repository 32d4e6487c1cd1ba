"""A person's next prompt replaces the DM message they just answered (`bot/discord/in_place.py`).

Discord allows about 5 messages per 5 s in a DM channel; a new DM per prompt plus the edit
that took the buttons off the old one kept a quick player waiting seconds for their buttons.
Edited through the click's interaction token, the next prompt costs the DM channel nothing.
Chicago with one person and three AI seats: every prompt of the person follows their own
answer (and the AI seats' quick moves).
"""

from __future__ import annotations

from loopback import LoopbackDiscord
from loopback.handles import UserHandle
from loopback.models import Message
from tests.e2e.conftest import World
from tests.e2e.helpers import AutoPlayer, open_table, settle

WEBHOOK_EDITS = r"/webhooks/\d+/[^/]+/messages/"


def dm_requests(discord: LoopbackDiscord, user: UserHandle, since: int) -> list[str]:
    """The requests made in `user`'s DM channel (its bucket) since request number `since`."""
    channel = discord.state.dm_channels[user.id]
    return [f"{r.method} {r.path}" for r in discord.state.requests[since:]
            if r.path.startswith(f"/channels/{channel}/") and r.status != 429]


async def next_prompt(discord: LoopbackDiscord, player: AutoPlayer,
                      user: UserHandle) -> Message:
    await discord.wait_for(lambda: player.prompt_of(user) is not None, timeout=20,
                           message=lambda: f"{user.name} got no prompt: {player._stuck()}")
    prompt = player.prompt_of(user)
    assert prompt is not None
    return prompt


async def chicago_with_alice(world: World) -> tuple[AutoPlayer, UserHandle]:
    discord = world.discord
    alice, games = discord.user("alice"), discord.channel("games")
    await open_table(discord, alice, games, "chicago start", [], ai=3)
    return AutoPlayer(discord, games, [alice], seed=7), alice


async def test_quick_answers_get_their_next_prompt_in_place(world: World) -> None:
    discord = world.discord
    player, alice = await chicago_with_alice(world)
    await next_prompt(discord, player, alice)
    # The deal's first DMs (a prompt, perhaps replaced at once) are out.
    await settle(discord, world.database)
    first = await next_prompt(discord, player, alice)
    since = len(discord.state.requests)
    moves = 0
    while moves < 12 and player.winners() is None:
        move = await player.answer(alice, await next_prompt(discord, player, alice))
        moves += move is not None
    await next_prompt(discord, player, alice)
    # Every prompt after the first was the first message, edited through the click's token:
    # no new DM, and no old prompt to strip.
    assert dm_requests(discord, alice, since) == []
    assert alice.dms()[-1].id == first.id
    assert not [r for r in player.seats[0].refusals if "Nothing is awaited" in r]


async def test_a_prompt_being_edited_in_place_survives_a_kill_9(world: World) -> None:
    """Killed while the in-place edit is held back (a long 429 on the interaction's webhook):
    after the restart the same message becomes the prompt (no second DM), and play goes on
    from it."""
    discord = world.discord
    player, alice = await chicago_with_alice(world)
    await player.answer(alice, await next_prompt(discord, player, alice))
    prompt = await next_prompt(discord, player, alice)
    held = 1000
    discord.fail_next("PATCH", WEBHOOK_EDITS, 429, count=held, retry_after=60)
    assert await player.answer(alice, prompt) is not None
    await discord.wait_for(lambda: discord.server.faults.pending() < held, timeout=20,
                           message="the next prompt was never tried in place")
    await world.bot.kill()
    discord.server.faults.clear()
    since = len(discord.state.requests)
    await world.bot.start()
    again = await next_prompt(discord, player, alice)
    assert again.id == prompt.id, "the prompt came as a new DM after the restart"
    assert alice.dms()[-1].id == prompt.id
    assert not [r for r in dm_requests(discord, alice, since) if r.startswith("POST")]
    await player.answer(alice, again)
    await next_prompt(discord, player, alice)


async def test_with_closed_dms_the_next_turn_comes_on_the_show_my_hand_view(world: World) -> None:
    """Someone whose DMs are closed is pinged in the channel when their turn comes (a new
    channel message each time, at 5 per 5 s); once they answer on their "Show my hand" view,
    their next turns come there instead, edited through that click's token."""
    discord = world.discord
    alice, games = discord.user("alice"), discord.channel("games")
    alice.close_dms()
    await open_table(discord, alice, games, "chicago start", [], ai=3)
    player = AutoPlayer(discord, games, [alice], seed=3)
    await player.play(until=lambda: len(player.moves) >= 10)
    # A deal's first turn is told by the notice that DMs are closed (tried once a deal);
    # every later one came where Alice had just answered (5 pings in 10 moves before).
    pings = [m.text for m in games.messages() if "your turn at" in m.text]
    assert not pings, pings
