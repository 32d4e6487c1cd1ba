"""Issue 22, defects 7 and 8: a seat's prompt written before the seat's own answer is never
sent over that answer, whether it is still queued, on its way to Discord at that instant,
or saved when the bot is killed.

Sppoker with three people: Alice and Bob declare, which makes Carol the last declarer and
writes her a "declare within 10 seconds" DM (the last call). Carol answers on the prompt she
already has before that DM is out. Her answer is the step that counts: the message she
answered on keeps showing it with its buttons (after the reveal, Next hand), and no prompt of
the step before arrives with buttons that would answer "That choice is out of date".

The last call is held in flight by the loopback (`Faults.hold`: the request has left the bot
and is not answered until the test says so, as on a slow link) or by a long 429, so Carol's
answer is saved while it waits; the tests then wait for events (a request answered, a row
gone from the outbox, a message edited), never for a time.
"""

from __future__ import annotations

import re

from loopback import LoopbackDiscord
from loopback.faults import Hold
from loopback.handles import UserHandle
from loopback.models import Message
from tests.e2e.conftest import World
from tests.e2e.helpers import open_table, wait_dm_button
from tests.support import rawdb

WEBHOOK_EDITS = r"/webhooks/\d+/{token}/messages/"


def seat_of(prompt: Message) -> int:
    """The seat a prompt's buttons answer for (their custom id: dc:c:table:seat:stamp:index)."""
    button = prompt.button("Poker")
    assert button is not None and button.custom_id is not None, prompt.text
    return int(button.custom_id.split(":")[3])


def current(discord: LoopbackDiscord, message: Message) -> Message:
    return discord.message(message.id)


def shows_her_answer(message: Message) -> bool:
    """The view Carol's declaration answered with: the hand is over, Next hand is offered."""
    return message.button("Next hand") is not None and message.button("Poker") is None


async def actions_saved(world: World) -> int:
    (count,) = await rawdb.fetch_one(world.database, "SELECT count(*) FROM table_actions")
    return int(count)


async def more_saved(world: World, before: int) -> bool:
    return await actions_saved(world) > before


async def queued_for(world: World, seat: int) -> int:
    """Rows still in the outbox for this seat's prompt (its queue)."""
    (count,) = await rawdb.fetch_one(
        world.database, "SELECT count(*) FROM outbox WHERE body LIKE ?",
        (f'%"ref":"prompt:{seat}"%',))
    return int(count)


async def worked_through(world: World, seat: int) -> bool:
    """Whether the sender is done with every row of this seat's prompt queue."""
    return await queued_for(world, seat) == 0


def answered(discord: LoopbackDiscord, method: str, path: str, since: int) -> bool:
    """Whether a request matching `path` was answered with success since request `since`."""
    return any(r.method == method and re.search(path, r.path) and r.status < 300
               for r in discord.state.requests[since:])


async def declare_poker(world: World, person: UserHandle, prompt: Message) -> None:
    """`person` declares poker, and the declaration is saved (its action logged; a busy bot
    may answer the click too late, which changes nothing of the move)."""
    before = await actions_saved(world)
    await person.click(prompt, label="Poker", check=False)
    await world.discord.wait_for(lambda: more_saved(world, before), timeout=20,
                                 message=f"{person.name}'s declaration was never saved")


async def three_at_the_table(world: World) -> tuple[UserHandle, UserHandle, UserHandle,
                                                    dict[str, Message]]:
    discord = world.discord
    alice, bob, carol = discord.user("alice"), discord.user("bob"), discord.user("carol")
    await open_table(discord, alice, discord.channel("general"), "sppoker start", [bob, carol])
    prompts = {person.name: await wait_dm_button(discord, person, "Poker")
               for person in (alice, bob, carol)}
    return alice, bob, carol, prompts


async def answer_while_the_last_call_is_held(world: World, carol: UserHandle,
                                             prompt: Message, hold: Hold) -> None:
    """Carol declares poker on `prompt` while her last call is held in flight. The hold is
    let go once her click is acknowledged (answered, or deferred while the bot waits) and her
    declaration saved, and the test waits until the held request is answered: so the last
    call reaches Discord after everything the click did on its own account."""
    discord = world.discord
    await discord.wait_for(lambda: hold.waiting >= 1, timeout=20,
                           message="the last call never left the bot")
    before = await actions_saved(world)
    since = len(discord.state.requests)
    try:
        await carol.click(prompt, label="Poker", check=False)
        await discord.wait_for(lambda: more_saved(world, before), timeout=20,
                               message="Carol's declaration was never saved")
    finally:
        hold.release()
    await discord.wait_for(lambda: answered(discord, hold.method, hold.pattern.pattern, since),
                           timeout=20, message="the held last call was never answered")


async def spell_a_non_word(world: World, carol: UserHandle, prompt: Message) -> str:
    """Carol answers on `prompt` with a word that is not one (so she has not declared yet),
    and sees the answer there; the token of that click, through which her next prompt is
    edited in. A bot too busy to open the word box or answer within Discord's 3 s is asked
    again, as a person would."""
    discord = world.discord
    for _ in range(5):
        await carol.click(prompt, label="Spelling", check=False)
        if carol.modal is None:
            continue
        spelled = await carol.submit_modal({"Your word": "qqqq"}, check=False)
        if spelled.acked and not spelled.late:
            await discord.wait_for(lambda: "not valid" in current(discord, prompt).text)
            return discord.state.interactions[spelled.id].token
    raise AssertionError("the bot never took Carol's word in time")


async def test_a_fast_answer_over_a_last_call_being_edited_in_place(world: World) -> None:
    """Carol answered moments ago, so her last call is edited into her DM through that
    click's token; her declaration comes while the edit is on its way. The edit must not land
    over her declaration's answer (before the fix it did: step-old Poker buttons, refused as
    out of date, where Next hand had been)."""
    discord = world.discord
    alice, bob, carol, prompts = await three_at_the_table(world)
    mine = prompts["carol"]
    token = await spell_a_non_word(world, carol, mine)
    hold = discord.server.faults.hold("PATCH", WEBHOOK_EDITS.format(token=re.escape(token)))
    await declare_poker(world, alice, prompts["alice"])
    await declare_poker(world, bob, prompts["bob"])  # Carol is the last declarer now

    await answer_while_the_last_call_is_held(world, carol, mine, hold)
    await discord.wait_for(
        lambda: shows_her_answer(current(discord, mine)), timeout=20,
        message=lambda: f"her answer was covered: {current(discord, mine).text!r} "
                        f"{[b.label for b in current(discord, mine).buttons()]}")
    assert [m.id for m in carol.dms()] == [mine.id]  # every prompt of hers came in place


async def test_a_fast_answer_over_a_last_call_being_posted(world: World) -> None:
    """Carol has not answered yet, so her last call is a new DM; her declaration comes while
    its post is on its way. Before the fix the post arrived after her answer with the
    step-old buttons, and took the Next hand button off the message she had answered on."""
    discord = world.discord
    alice, bob, carol, prompts = await three_at_the_table(world)
    mine = prompts["carol"]
    channel = discord.state.dm_channels[carol.id]
    hold = discord.server.faults.hold("POST", rf"/channels/{channel}/messages$")
    await declare_poker(world, alice, prompts["alice"])
    await declare_poker(world, bob, prompts["bob"])  # Carol is the last declarer now

    await answer_while_the_last_call_is_held(world, carol, mine, hold)
    await discord.wait_for(
        lambda: [m.id for m in carol.dms()] == [mine.id], timeout=20,
        message=lambda: f"a step-old DM stayed: {[(m.text, m.buttons()) for m in carol.dms()]}")
    await discord.wait_for(lambda: worked_through(world, seat_of(mine)), timeout=20)
    assert [m.id for m in carol.dms()] == [mine.id]
    assert shows_her_answer(current(discord, mine)), current(discord, mine).buttons()


async def test_kill_9_after_the_last_declaration_sends_no_stale_last_call(world: World) -> None:
    """Killed right after Carol's declaration, with her last call still saved (Discord held
    its post back with a long 429): after the restart the last call is not sent (before the
    fix it came as a new DM, and took the Next hand button off her answer)."""
    discord = world.discord
    alice, bob, carol, prompts = await three_at_the_table(world)
    mine = prompts["carol"]
    seat = seat_of(mine)
    channel = discord.state.dm_channels[carol.id]
    held = 1000
    discord.fail_next("POST", rf"/channels/{channel}/messages$", 429, count=held, retry_after=60)
    await declare_poker(world, alice, prompts["alice"])
    await declare_poker(world, bob, prompts["bob"])  # Carol is the last declarer now
    await discord.wait_for(lambda: discord.server.faults.pending() < held, timeout=20,
                           message="the last call was never tried")

    await carol.click(mine, label="Poker")
    await discord.wait_for(lambda: shows_her_answer(current(discord, mine)))
    assert await queued_for(world, seat) >= 1, "the last call is no longer saved"
    await world.bot.kill()
    discord.server.faults.clear()
    await world.bot.start()

    await discord.wait_for(lambda: worked_through(world, seat), timeout=30,
                           message="Carol's queue was never worked through")
    assert [m.id for m in carol.dms()] == [mine.id], [m.text for m in carol.dms()]
    assert shows_her_answer(current(discord, mine)), current(discord, mine).buttons()
