"""The people of bench/chaos.py: many tables of mixed games, played through the loopback Discord
at a person's pace, that carry on across the bot's kill -9s as people would (a click the dead
bot never answered is made again once it is back).

The players are the end-to-end tests' AutoPlayer (tests/support/autoplay.py): the same
reading of private views and the same answers. Two things are added for a soak of many tables
on one harness event loop:

* `Feed` follows the loopback's change feed once for everybody, keeps each channel's messages
  in order and wakes only the person or table whose messages moved (the driver's own scans
  walk every message in the server, which at tens of thousands of messages would eat the CPU
  the bot needs);
* `TablePlayer` is an AutoPlayer that reads through the Feed and only sees the prompts of its
  own table (people play many games in a row in one channel, and their old DMs stay).

What the harness knows and the records do not (which table it opened when, which clicks were
acknowledged as moves, which ends it saw) is kept in `TableRecord`s for bench/chaos_checks.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from engine.games import GAMES
from loopback import LoopbackDiscord
from loopback.errors import BotNotConnected, InteractionFailed, LoopbackError
from loopback.handles import ChannelHandle, UserHandle
from loopback.models import Message
from loopback.results import InteractionResult
from tests.support.autoplay import AutoPlayer, AutoSeat, prompt_stamp, version_key

REPLAY_LINE = re.compile(r"/replay game:(?P<table>[0-9a-f]+)")
RETRY_AFTER = 20.0  # a person clicks again on a prompt whose answer never came
PROMPT_WAIT = 2.0  # how often a waiting person looks again without being woken
ANSWER_WAIT = 15.0  # for a deferred answer to be filled in


# --- the games --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Setup:
    """How a game is opened here: its start command and the AI seats its host may add."""

    kind: str
    command: str
    max_ai: int = 2

    @property
    def chip(self) -> bool:
        return GAMES[self.kind].chip_game

    @property
    def seats(self) -> tuple[int, int]:
        return GAMES[self.kind].min_seats, GAMES[self.kind].max_seats


# Short targets and clocks a person can miss (a think of over a minute times a seat out), so
# that games end within a soak and the clocks' resumption after a restart is played too.
SETUPS: tuple[Setup, ...] = (
    Setup("sppoker", "sppoker start target:2 declare_seconds:60"),
    Setup("poke", "poke start turn_seconds:60", max_ai=0),
    Setup("poangpoker", "poangpoker start turn_seconds:60"),
    Setup("chicago", "chicago start turn_seconds:60"),
    Setup("pokeno", "pokeno start target:50 turn_seconds:60"),
    Setup("badugi", "badugi start buy_in:40"),
    Setup("red_dog", "reddog start buy_in:50 ante:2"),
    Setup("holdem_sppoker", "holdem-sppoker start buy_in:100"),
    Setup("spew", "spew start buy_in:100"),
    Setup("old_man_49er", "old-man-49er start buy_in:100"),
    Setup("zero_to_55", "zero-to-55 start buy_in:100 draw_fee:1"),
    Setup("dealers_choice", "dealers-choice start buy_in:60"),
)


def think_time(rng: random.Random, pace: float = 1.0) -> float:
    """Seconds a person takes to answer (times `pace`): mostly 1.5-10 (a quick table of
    people: about 9 s a decision on average), sometimes a while, now and then long enough
    for the table's clock to answer for them (turn clocks here are 60 s)."""
    roll = rng.random()
    if roll < 0.80:
        return rng.uniform(1.5, 10.0) * pace
    if roll < 0.97:
        return rng.uniform(10.0, 25.0) * pace
    return rng.uniform(30.0, 75.0)


# --- following the loopback ---------------------------------------------------------------------


class Feed:
    """The loopback's messages by channel, and a wake-up per person and per channel."""

    def __init__(self, discord: LoopbackDiscord) -> None:
        self.state = discord.state
        self.cursor = 0
        self.by_channel: dict[int, list[int]] = {}
        self.events: dict[tuple[str, int], asyncio.Event] = {}
        self.ended: set[str] = set()  # tables whose end a channel was told (the Replay line)

    def event(self, kind: str, key: int) -> asyncio.Event:
        return self.events.setdefault((kind, key), asyncio.Event())

    def catch_up(self) -> None:
        state, feed = self.state, self.state.feed
        while self.cursor < len(feed):
            change, message_id = feed[self.cursor]
            self.cursor += 1
            message = state.messages[message_id]
            if change == "created":
                self.by_channel.setdefault(message.channel_id, []).append(message_id)
            channel = state.channels[message.channel_id]
            if message.visible_to is None and message.author_id == state.bot.id:
                match = REPLAY_LINE.search(message.content)
                if match:
                    self.ended.add(match["table"])
            if channel.is_dm:
                self._wake("user", channel.recipient_id or 0)
            else:
                self._wake("channel", channel.id)
                if message.visible_to is not None:
                    self._wake("user", message.visible_to)

    def _wake(self, kind: str, key: int) -> None:
        event = self.events.get((kind, key))
        if event is not None:
            event.set()

    def newest(self, channel_id: int | None) -> Iterator[Message]:
        """The channel's messages, newest first (the live records, not copies)."""
        self.catch_up()
        messages = self.state.messages
        for message_id in reversed(self.by_channel.get(channel_id or 0, [])):
            yield messages[message_id]

    async def run(self) -> None:
        while True:
            self.catch_up()
            await self.state.changed(0.05)


def table_of(custom_id: str | None) -> str | None:
    """The table a component belongs to: every custom id of the bot's is dc:<kind>:<table>…"""
    parts = str(custom_id or "").split(":")
    return parts[2] if len(parts) >= 3 and parts[0] == "dc" else None


def has_button(message: Message, table_id: str, kind: str, label: str | None = None) -> bool:
    """Whether `message` offers an enabled dc:<kind>:<table_id> button (with that label)."""
    prefix = f"dc:{kind}:{table_id}"
    return any(b.custom_id and b.custom_id.startswith(prefix) and not b.disabled
               and (label is None or b.label == label) for b in message.buttons())


class FastUser(UserHandle):
    """A person who clicks on a message they hold, without the driver's search of every
    message visible to them (the harness hands it the very message)."""

    def _candidates(self, target: Message | ChannelHandle | str | None) -> list[Message]:
        if isinstance(target, Message):
            found = self._discord.state.messages.get(target.id)
            return [found] if found is not None and not found.deleted else []
        return super()._candidates(target)


class TablePlayer(AutoPlayer):
    """An AutoPlayer for one table among many: its prompts only, read through the Feed."""

    def __init__(self, discord: LoopbackDiscord, channel: ChannelHandle, users: list[UserHandle],
                 feed: Feed, table_id: str, seed: int) -> None:
        super().__init__(discord, channel, users, seed=seed)
        self.feed = feed
        self.table_id = table_id

    def _views(self, seat: AutoSeat) -> Iterator[Message]:
        user = seat.user.user
        mark = f" <#{self.channel.id}> {self.words.private_mark}"
        for message in self.feed.newest(self.discord.state.dm_channels.get(user.id)):
            if message.visible_to is None and not message.deleted and mark in message.content:
                ids = [c.custom_id for c in message.buttons()] + \
                      [s.custom_id for s in message.selects()]
                if any(table_of(i) not in (None, self.table_id) for i in ids):
                    continue  # an earlier table's prompt in the same channel
                yield message

    def forget(self, user: UserHandle, prompt: Message) -> None:
        """The click on `prompt` was never answered (the bot died): it is to be made again."""
        seat = self._seat(user)
        seat.answered.discard(version_key(prompt))
        stamp = prompt_stamp(prompt)
        if stamp is not None:
            seat.answered_stamps.discard(stamp)

    def refusals(self, user: UserHandle) -> list[str]:
        return self._seat(user).refusals

    def newest_prompt(self, user: UserHandle) -> Message | None:
        """The person's newest view of this table if it still offers a prompt, answered or
        not."""
        newest = next(self._views(self._seat(user)), None)
        if newest is None or prompt_stamp(newest) is None:
            return None
        return newest


# --- what the harness records ----------------------------------------------------------------


@dataclass
class TableRecord:
    """One table (one game, or one cash session) opened in a channel."""

    table_id: str
    kind: str
    channel_id: int
    people: list[int]  # user ids seated (or meant to be)
    opened_at: float
    ai_added: int = 0  # acknowledged Add AI clicks
    state: str = "lobby"  # lobby, playing, ended (End/abort acknowledged), cancelled, closed
    aborted: bool = False  # /table abort acknowledged while a game ran
    moves: Counter[int] = field(default_factory=Counter)  # acknowledged moves by seat
    ai_bought: int | None = None  # house chips the AI seats brought (read once dealt)
    ai_seats: int = 0  # the AI seats then
    deals: int = 0  # Next deal acknowledged
    last_accepted: float = 0.0  # time.time() of the last click the bot accepted
    notes: list[str] = field(default_factory=list)

    @property
    def chip(self) -> bool:
        return GAMES[self.kind].chip_game

    @property
    def active(self) -> bool:
        return self.state in ("lobby", "playing")


@dataclass(frozen=True)
class Outcome:
    """How the bot answered one click or command, as the person saw it."""

    status: str  # ok, refused, failed (never answered), unknown (deferred, nothing came)
    text: str = ""
    result: InteractionResult | None = None


async def outcome(result: InteractionResult) -> Outcome:
    """Read an answer as a person would: a reply only they see is a refusal; an updated
    message or a public reply is the thing done; a deferred answer is waited for."""
    response = result.response
    if response is None:
        return Outcome("failed", "", result)
    if response == "deferred_message":
        with contextlib.suppress(TimeoutError):
            await result.wait_for_message(timeout=ANSWER_WAIT)
        message = result.message
        if message is None or message.loading:
            return Outcome("unknown", "", result)
        return Outcome("refused" if message.ephemeral else "ok", message.text, result)
    if response == "deferred_update":
        with contextlib.suppress(TimeoutError):
            await result.wait_for_followup(timeout=ANSWER_WAIT)
        followups = result.followups
        if followups:
            last = followups[-1]
            return Outcome("refused" if last.ephemeral else "ok", last.text, result)
        return Outcome("unknown", "", result)
    if response == "update_message":
        return Outcome("ok", result.text, result)
    return Outcome("refused" if result.ephemeral else "ok", result.text, result)


class Lives:
    """When the bot process was started, killed and ready again: to say in which of its lives
    something happened."""

    def __init__(self, began: float, starts: list[float]) -> None:
        self.began = began
        self.starts = starts  # time.time() of each start's readiness, the first included

    def at(self, when: float) -> str:
        life = sum(1 for start in self.starts if start <= when)
        return f"+{when - self.began:.1f} s, life {life}"


class Bot:
    """Whether the bot is up, as the people need to know: they do not click a dead bot."""

    def __init__(self) -> None:
        self.up = asyncio.Event()
        self.began = time.time()
        self.ready_at = time.time()  # the last (re)start's readiness
        self.starts: list[float] = []
        self.kills: list[float] = []

    def started(self) -> None:
        self.ready_at = time.time()
        self.starts.append(self.ready_at)
        self.up.set()

    def lives(self) -> Lives:
        return Lives(self.began, self.starts)

    def died(self) -> None:
        self.kills.append(time.time())
        self.up.clear()

    async def wait(self) -> None:
        await self.up.wait()


class Soak:
    """Everything the table drivers share: the loopback, the Feed, the bot's liveness and
    the phase of the run (`closing`: open no new table; `stopped`: stop clicking)."""

    def __init__(self, discord: LoopbackDiscord, feed: Feed, bot: Bot,
                 snapshot_of: Callable[[str], Any], pace: float = 1.0) -> None:
        self.discord = discord
        self.pace = pace  # the people's think times, times this
        self.feed = feed
        self.bot = bot
        self.snapshot_of = snapshot_of  # async: table id -> its snapshot dict or None
        self.closing = asyncio.Event()
        self.stopped = asyncio.Event()
        self.records: list[TableRecord] = []
        self.problems: list[str] = []  # the harness's own trouble, not the bot's

    async def sleep(self, seconds: float) -> None:
        """A pause that ends early when the run stops."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.stopped.wait(), max(0.0, seconds))

    def user(self, user_id: int) -> FastUser:
        return FastUser(self.discord, user_id)

    def ended(self, table_id: str) -> bool:
        """Whether a channel was told the table's end (the finished game's Replay line)."""
        self.feed.catch_up()
        return table_id in self.feed.ended

    async def interact(self, action: Callable[[], Any]) -> Outcome:
        """One click or command once the bot is up; a dead or dying bot's silence is
        "failed", as the person would see it."""
        await self.bot.wait()
        try:
            result = await action()
        except (BotNotConnected, InteractionFailed) as error:
            return Outcome("failed", str(error)[:200])
        except LoopbackError as error:  # the button was gone by the time they clicked
            return Outcome("refused", f"gone: {error}"[:200])
        return await outcome(result)


# --- one channel's tables, one after another ---------------------------------------------------


class Channel:
    """A channel whose regulars (a host and two more) open one table after another in it."""

    def __init__(self, soak: Soak, channel: ChannelHandle, people: list[int], seed: int) -> None:
        self.soak = soak
        self.channel = channel
        self.people = people
        self.rng = random.Random(seed)
        self.record: TableRecord | None = None

    @property
    def discord(self) -> LoopbackDiscord:
        return self.soak.discord

    async def run(self) -> None:
        soak = self.soak
        await soak.sleep(self.rng.uniform(0, 10))  # people do not all arrive at once
        while not soak.closing.is_set() and not soak.stopped.is_set():
            setup = self.rng.choice(SETUPS)
            try:
                record = await self.open(setup)
                if record is not None:
                    await self.fill_and_start(record, setup)
                    if record.state == "playing":
                        await self.play(record)
            except Exception as error:  # the harness's own mistake must not end the soak
                soak.problems.append(f"#{self.channel.name}: {type(error).__name__}: {error}"[:300])
                await soak.sleep(5)
            await soak.sleep(self.rng.uniform(1, 8))

    # --- the lobby ------------------------------------------------------------------------
    async def open(self, setup: Setup) -> TableRecord | None:
        """The host's `start`; the table as the lobby's buttons name it. A table left open
        without a lobby message (the bot died before it answered) is aborted first."""
        soak, host = self.soak, self.soak.user(self.people[0])
        for _ in range(4):
            if soak.stopped.is_set():
                return None
            answer = await soak.interact(lambda: host.slash(self.channel, setup.command,
                                                            check=False))
            message = answer.result.message if answer.result is not None else None
            if answer.status == "ok" and message is not None:
                table_id = next((table_of(b.custom_id) for b in message.buttons()
                                 if table_of(b.custom_id)), None)
                if table_id is not None:
                    record = TableRecord(table_id, setup.kind, self.channel.id,
                                         [self.people[0]], time.time(),
                                         last_accepted=time.time())
                    record.notes.append(f"lobby {message.id}")
                    self.record = record
                    soak.records.append(record)
                    return record
            if answer.status == "refused" and "already open" in answer.text:
                await self.abort_leftover()
            elif answer.status in ("failed", "unknown"):
                await soak.sleep(2)  # the bot may have died: try again once it is back
            else:
                soak.problems.append(f"#{self.channel.name}: /{setup.command}: "
                                     f"{answer.status} {answer.text[:120]!r}")
                await soak.sleep(5)
        return None

    async def abort_leftover(self) -> None:
        """A table the host cannot see the lobby of (its answer never came): abort it, as the
        bot's refusal tells them to."""
        host = self.soak.user(self.people[0])
        answer = await self.soak.interact(lambda: host.slash(self.channel, "table abort",
                                                             check=False))
        for record in self.soak.records:
            if record.channel_id == self.channel.id and record.active and answer.status == "ok":
                record.state = "ended"
                record.aborted = True
                record.notes.append("aborted as a table whose lobby never came")

    def lobby(self, record: TableRecord) -> Message | None:
        for message in self.soak.feed.newest(self.channel.id):
            if not message.deleted and has_button(message, record.table_id, "l"):
                return message
        return None

    async def lobby_click(self, record: TableRecord, user_id: int, label: str) -> Outcome:
        """A lobby button, pressed again after a restart if the dead bot never answered."""
        soak = self.soak
        user = soak.user(user_id)
        answer = Outcome("failed")
        for _ in range(4):
            if soak.stopped.is_set():
                return Outcome("refused", "the soak is over")
            lobby = self.lobby(record)
            if lobby is None or lobby.button(label) is None:
                return Outcome("refused", "no lobby")
            answer = await soak.interact(partial(user.click, lobby, label=label, check=False))
            if answer.status in ("ok", "refused"):
                if answer.status == "ok":
                    record.last_accepted = time.time()
                return answer
            await soak.sleep(1)
        return answer

    async def fill_and_start(self, record: TableRecord, setup: Setup) -> None:
        soak, rng = self.soak, self.rng
        low, high = setup.seats
        people = min(high, rng.choice((1, 2, 2, 3, 3)))
        ai = rng.randint(0, min(setup.max_ai, high - people))
        if people + ai < low:
            people = min(high, len(self.people))
            ai = max(0, low - people)
        roll = rng.random()
        for guest in self.people[1:people]:
            await soak.sleep(think_time(rng, soak.pace) / 2)
            if roll < 0.06:  # Join while the host cancels: the first race
                join, cancel = await asyncio.gather(
                    self.lobby_click(record, guest, "Join"),
                    self.lobby_click(record, self.people[0], "Cancel"))
                record.notes.append(f"join/cancel race: join {join.status}, cancel "
                                    f"{cancel.status}")
                if cancel.status == "ok":
                    record.state = "cancelled"
                    return
                if join.status == "ok":
                    record.people.append(guest)
                continue
            answer = await self.lobby_click(record, guest, "Join")
            if answer.status == "ok" or "already seated" in answer.text:
                record.people.append(guest)
            elif "chips" in answer.text:  # short of the buy-in: today's chips, then again
                user = soak.user(guest)
                await soak.interact(partial(user.slash, self.channel, "chips daily",
                                            check=False))
                if (await self.lobby_click(record, guest, "Join")).status == "ok":
                    record.people.append(guest)
        for _ in range(ai):
            answer = await self.lobby_click(record, self.people[0], "Add AI")
            if answer.status == "ok":
                record.ai_added += 1
        if roll > 0.95:  # a host who changes their mind
            answer = await self.lobby_click(record, self.people[0], "Cancel")
            if answer.status == "ok":
                record.state = "cancelled"
                return
        await soak.sleep(think_time(rng, soak.pace) / 2)
        for _ in range(3):
            answer = await self.lobby_click(record, self.people[0], "Start")
            if answer.status == "ok":
                record.state = "playing"
                if record.chip:
                    await self.read_ai_chips(record)
                return
            if "no lobby" in answer.text or "closed" in answer.text:
                break
            too_few = "at least" in answer.text or "needs" in answer.text
            if too_few and (await self.lobby_click(record, self.people[0], "Add AI")).status \
                    == "ok":  # an AI seat makes up the numbers
                record.ai_added += 1
        # The answers left it open (the bot died under the clicks, or answered too late):
        # where the table is, as the saved table says (its board may still be on its way,
        # behind Discord's rate limits).
        await soak.bot.wait()
        snapshot = await soak.snapshot_of(record.table_id)
        status = snapshot.get("status") if snapshot is not None else None
        if status == "playing" or soak.ended(record.table_id):
            record.state = "playing"
            record.notes.append("started, as the saved table says")
            return
        if status == "lobby" and self.lobby(record) is not None:
            answer = await self.lobby_click(record, self.people[0], "Cancel")
            if answer.status == "ok":
                record.state = "cancelled"
                return
        record.state = "closed"
        record.notes.append(f"left as {status or 'gone'}")

    # --- the game -------------------------------------------------------------------------
    def board(self, record: TableRecord, kind: str = "h") -> Message | None:
        """The table's board (Show my hand), or with kind "k" its buttons between deals."""
        for message in self.soak.feed.newest(self.channel.id):
            if not message.deleted and message.visible_to is None and \
                    has_button(message, record.table_id, kind):
                return message
        return None

    def over(self, record: TableRecord) -> bool:
        if self.soak.ended(record.table_id):
            if record.state == "playing":
                record.state = "ended"
            return True
        return not record.active

    async def play(self, record: TableRecord) -> None:
        """The people at the table answer their prompts until the game ends; at a cash table
        the host deals again or ends the session between deals; now and then the host
        aborts the table instead."""
        soak = self.soak
        users = [soak.user(u) for u in record.people]
        player = TablePlayer(self.discord, self.channel, list(users), soak.feed, record.table_id,
                             self.rng.randrange(1 << 30))
        people = [asyncio.create_task(self.careful(self.person(
                      record, player, user, random.Random(self.rng.random()))))
                  for user in users]
        abort_at = time.time() + self.rng.uniform(20, 300) if self.rng.random() < 0.05 else None
        deals = self.rng.randint(1, 4)
        event = soak.feed.event("channel", self.channel.id)
        try:
            while not self.over(record) and not soak.stopped.is_set():
                if record.chip and record.ai_bought is None:
                    await self.read_ai_chips(record)
                if abort_at is not None and time.time() > abort_at:
                    await self.abort(record)
                    break
                if record.chip and self.board(record, "k") is not None:
                    await self.between_deals(record, users, deals)
                event.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(event.wait(), PROMPT_WAIT)
        finally:
            for task in people:
                task.cancel()
            await asyncio.gather(*people, return_exceptions=True)

    async def careful(self, work: Awaitable[None]) -> None:
        """A person's task: the harness's own mistake is told, not lost with the task."""
        try:
            await work
        except asyncio.CancelledError:
            raise
        except Exception as error:
            self.soak.problems.append(f"#{self.channel.name}: a person gave up: "
                                      f"{type(error).__name__}: {error}"[:300])

    async def read_ai_chips(self, record: TableRecord) -> None:
        """The house chips the AI seats brought, from the saved table (AI seats sit down in
        the lobby only and never rebuy, so the first deal's snapshot has them all)."""
        snapshot = await self.soak.snapshot_of(record.table_id)
        if snapshot is None or snapshot.get("status") != "playing":
            return
        ai = [bought for seat, bought in zip(snapshot["seats"], snapshot["bought"], strict=True)
              if seat.get("user_id") is None]
        record.ai_bought, record.ai_seats = sum(ai), len(ai)

    async def between_deals(self, record: TableRecord, users: list[FastUser],
                            deals: int) -> None:
        soak, host = self.soak, users[0]
        await soak.sleep(think_time(self.rng, soak.pace))
        board = self.board(record, "k")
        if board is None or self.over(record):
            return
        if record.deals + 1 >= deals:
            answer = await soak.interact(lambda: host.click(board, label="End", check=False))
            if answer.status == "ok" or "closed" in answer.text:
                record.state = "ended"
                record.last_accepted = time.time()
            return
        dealer = self.rng.choice(users)
        answer = await soak.interact(lambda: dealer.click(board, label="Next deal", check=False))
        if answer.status == "refused" and ("rebuy" in answer.text or "chips" in answer.text):
            for person in users:
                await soak.interact(partial(person.click, board, label="Rebuy", check=False))
            answer = await soak.interact(lambda: dealer.click(board, label="Next deal",
                                                              check=False))
            if answer.status == "refused" and "at least" in answer.text:
                answer = await soak.interact(lambda: host.click(board, label="End",
                                                                check=False))
                if answer.status == "ok":
                    record.state = "ended"
        if answer.status == "ok":
            record.deals += 1
            record.last_accepted = time.time()

    async def abort(self, record: TableRecord) -> None:
        host = self.soak.user(self.people[0])
        answer = await self.soak.interact(lambda: host.slash(self.channel, "table abort",
                                                             check=False))
        if answer.status == "ok":
            record.state = "ended"
            record.aborted = True
            record.last_accepted = time.time()

    async def person(self, record: TableRecord, player: TablePlayer, user: FastUser,
                     rng: random.Random) -> None:
        """One person: waits for their prompt, thinks, answers; clicks again on a prompt
        whose answer never came (the bot died, or was too slow to answer in time)."""
        soak, clock = self.soak, self.discord.clock
        event = soak.feed.event("user", user.id)
        tried = time.time()  # the last click (or the start)
        patience = RETRY_AFTER  # doubled after each try that moved nothing, up to 4 minutes
        while record.active and not soak.stopped.is_set():
            prompt = player.prompt_of(user)
            if prompt is None:
                newest = player.newest_prompt(user)
                if newest is not None and time.time() - tried > patience:
                    # Buttons they have not pressed for a while (an answer never came, or the
                    # same question again): a person presses them, less often each time.
                    player.forget(user, newest)
                    tried = time.time()
                    patience = min(patience * 2, 240.0)
                    continue
                event.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(event.wait(), PROMPT_WAIT)
                continue
            appeared = prompt.edited_at or prompt.created_at
            await soak.sleep(appeared + think_time(rng, soak.pace) - clock.time())
            if soak.stopped.is_set():
                return
            await soak.bot.wait()
            prompt = player.prompt_of(user) or prompt
            stamp = prompt_stamp(prompt)
            tried = time.time()
            try:
                move = await player.answer(user, prompt)
            except (BotNotConnected, InteractionFailed):
                player.forget(user, prompt)
                await soak.sleep(1)
                continue
            except LoopbackError as error:  # the button went as they reached for it
                record.notes.append(f"{user.name}: {type(error).__name__}: {str(error)[:120]}")
                await soak.sleep(1)
                continue
            except AssertionError as error:  # every choice refused: look again later
                record.notes.append(f"{user.name}: {str(error)[:160]}")
                continue
            if move is None:
                said = player.refusals(user)
                record.notes.append(f"{user.name} refused: {said[-1][:100] if said else ''}")
            if move is not None and stamp is not None:
                record.moves[int(stamp[0])] += 1
                record.last_accepted = time.time()
                patience = RETRY_AFTER
