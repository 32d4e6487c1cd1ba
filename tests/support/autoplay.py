"""People who play a whole game by its buttons, for the end-to-end tests and bench/pace.py.

Shared so that the benchmark plays exactly as the tests do: the same reading of private
views, the same answers, the same retries when the bot refuses a card. The tests answer at
once; the benchmark answers one seat at a time through `prompt_of` and `answer`, after
thinking as long as a person would.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from loopback import LoopbackDiscord
from loopback.handles import ChannelHandle, UserHandle
from loopback.models import Button, Message, Select, walk_components


@dataclass(frozen=True)
class Words:
    """What a player reads on the bot's messages in one language: the labels it clicks and
    the lines it reads its hand, the deal and the winner from."""

    join: str = "Join"
    add_ai: str = "Add AI"
    start: str = "Start"
    show_hand: str = "Show my hand"
    stand: tuple[str, ...] = ("Stand pat", "Keep this hand")
    next: tuple[str, ...] = ("Next deal", "Next hand")
    call: str = "Call Chicago"
    no_call: str = "No call"
    poker: str = "Poker"
    private_mark: str = "— you are **"
    won: re.Pattern[str] = re.compile(r"🏆 \*\*(?P<names>.*?)\*\* won")
    hand_line: re.Pattern[str] = re.compile(r"^Your hand: ?(?P<cards>.*)$", re.MULTILINE)
    deal_line: re.Pattern[str] = re.compile(r"^Deal (?P<deal>\d+) · dealer", re.MULTILINE)
    waiting: re.Pattern[str] = re.compile(
        r"Waiting for (?:\*\*(?P<name>.+?)\*\*|<@(?P<id>\d+)>)")
    withdrawn: tuple[str, ...] = ("out of date", "Nothing is awaited", "This game is over.")


ENGLISH = Words()
SWEDISH = Words(
    join="Gå med", add_ai="Lägg till AI", start="Starta", show_hand="Visa min hand",
    stand=("Stå över",), next=("Nästa giv",), call="Ropa Chicago", no_call="Inget utrop",
    private_mark="— du är **",
    won=re.compile(r"🏆 \*\*(?P<names>.*?)\*\* vann"),
    hand_line=re.compile(r"^Din hand: ?(?P<cards>.*)$", re.MULTILINE),
    deal_line=re.compile(r"^Giv (?P<deal>\d+) · givare", re.MULTILINE),
    waiting=re.compile(r"Väntar på (?:\*\*(?P<name>.+?)\*\*|<@(?P<id>\d+)>)"),
    withdrawn=("inaktuellt", "Inget väntas", "Det här spelet är slut."),
)


def lobby_message(channel: ChannelHandle, words: Words = ENGLISH) -> Message:
    for message in reversed(channel.messages()):
        if message.button(words.join) is not None:
            return message
    raise AssertionError("no lobby message in the channel")


async def open_table(discord: LoopbackDiscord, host: UserHandle, channel: ChannelHandle,
                     command: str, players: list[UserHandle], ai: int = 0,
                     *, start: bool = True, words: Words = ENGLISH) -> None:
    """Host opens a table with `command`; `players` join; `ai` AI seats; host starts
    (unless not `start`: a benchmark times the Start click itself)."""
    await host.slash(channel, command)
    lobby = lobby_message(channel, words)
    for player in players:
        await player.click(lobby, label=words.join)
    for _ in range(ai):
        await host.click(lobby, label=words.add_ai)
    if start:
        await host.click(lobby, label=words.start)


PROMPT_PREFIXES = ("dc:c:", "dc:p:")  # a seat's choice buttons and card menus
STAND_LABELS = ("Stand pat", "Keep this hand")
NEXT_LABELS = ("Next deal", "Next hand")
CALL_LABEL, NO_CALL_LABEL = "Call Chicago", "No call"
POKER_LABEL = "Poker"  # Sppoker's declaration that needs no word (Spelling opens a modal)
PRIVATE_MARK = "— you are **"  # every private view (DM or "Show my hand") has it
WON = re.compile(r"🏆 \*\*(?P<names>.*?)\*\* won")
HAND_LINE = re.compile(r"^Your hand: ?(?P<cards>.*)$", re.MULTILINE)
DEAL_LINE = re.compile(r"^Deal (?P<deal>\d+) · dealer", re.MULTILINE)
# The board names whom it waits for; a player whose DMs are closed is pinged instead.
WAITING = re.compile(r"Waiting for (?:\*\*(?P<name>.+?)\*\*|<@(?P<id>\d+)>)")

Attempt = tuple[str, str, Button | Select, list[str]]  # kind, what, component, values


def version_key(message: Message) -> tuple[int, int]:
    """One state of a message: an edit makes a new one, so an edited prompt is fresh again."""
    return message.id, len(message.history)


def shown_hand(message: Message, words: Words = ENGLISH) -> tuple[int | None, list[str]]:
    """The deal number and the hand (card labels) a private view shows."""
    hand = words.hand_line.search(message.content)
    deal = words.deal_line.search(message.content)
    return (int(deal["deal"]) if deal else None, hand["cards"].split() if hand else [])


def is_prompt_component(custom_id: str | None) -> bool:
    return bool(custom_id) and str(custom_id).startswith(PROMPT_PREFIXES)


def prompt_stamp(message: Message) -> tuple[str, str] | None:
    """(seat, stamp) of the prompt a message offers (enabled components only): custom ids are
    dc:c:<table>:<seat>:<stamp>:<index> (dc:p: for menus), and the stamp is the step the
    prompt first appeared at."""
    for component in walk_components(message.components):
        custom_id = str(component.get("custom_id") or "")
        parts = custom_id.split(":")
        if is_prompt_component(custom_id) and len(parts) >= 6 and not component.get("disabled"):
            return parts[3], parts[4]
    return None


WITHDRAWN = ("out of date", "Nothing is awaited", "This game is over.")
"""Refusals that mean the prompt was withdrawn before the click, not that it was wrong."""

@dataclass
class Move:
    """One accepted answer and the hand around it, so a test can follow the cards."""

    player: str
    what: str
    kind: str  # "exchange" (a draw or buy, standing pat included), "play" or "other"
    deal: int | None
    before: list[str]
    after: list[str]
    message_id: int
    acked_at: float | None = None  # the server's clock when the bot answered the click


@dataclass
class AutoSeat:
    user: UserHandle
    answered: set[tuple[int, int]] = field(default_factory=set)
    # (message id, content): the board is edited in place, so a new version asks again
    looked_at_board: set[tuple[int, str]] = field(default_factory=set)
    refusals: list[str] = field(default_factory=list)
    # (seat, stamp) of prompts answered: a prompt that stays the same after an answer (a
    # Sppoker declaration may be changed) is the same question, not a new one
    answered_stamps: set[tuple[str, str]] = field(default_factory=set)


class AutoPlayer:
    """Plays a whole game for some users as a person would: reads their newest private view
    of this channel's table (a DM, or with DMs closed the "Show my hand" reply, pressed when
    the board says they are awaited), answers its buttons and menus, and tries another card
    when the bot explains why a card cannot be played. Decisions come from a seeded rng.

    It reads the server's records directly instead of copying every message: a whole game
    makes thousands, and waiting re-checks on every change.
    """

    def __init__(self, discord: LoopbackDiscord, channel: ChannelHandle,
                 users: list[UserHandle], *, seed: int = 0, exchange_chance: float = 0.5,
                 call_chance: float = 0.0, max_throw: int = 3,
                 words: Words = ENGLISH, last_resort: tuple[str, ...] = ()) -> None:
        self.discord = discord
        self.words = words
        self.channel = channel
        self.seats = [AutoSeat(user) for user in users]
        self.rng = random.Random(seed)
        self.exchange_chance = exchange_chance
        self.call_chance = call_chance
        self.max_throw = max_throw
        # labels tried only when nothing else is accepted (("Fold",): a player who stays in)
        self.last_resort = last_resort
        self.on_move: list[Callable[[Move], None]] = []
        self.moves: list[Move] = []
        self._winners: str | None = None
        self._scanned = 0

    # --- what the players see ------------------------------------------------------------
    def _views(self, seat: AutoSeat) -> Iterator[Message]:
        """The seat's private views of this table, newest first (not copies)."""
        state = self.discord.state
        user = seat.user.user
        if user.dms_open:
            where, visible_to = state.dm_channels.get(user.id), None
        else:
            where, visible_to = self.channel.id, user.id
        mark = f" <#{self.channel.id}> {self.words.private_mark}"  # a player may sit at two tables
        for message in reversed(state.messages.values()):
            if (message.channel_id == where and message.visible_to == visible_to
                    and not message.deleted and mark in message.content):
                yield message

    def hand_of(self, user: UserHandle) -> tuple[int | None, list[str]]:
        """The deal and the cards `user` holds, as their newest private view shows."""
        newest = next(self._views(self._seat(user)), None)
        return shown_hand(newest, self.words) if newest is not None else (None, [])

    def _prompt(self, seat: AutoSeat) -> Message | None:
        """The newest private view, if it asks something not answered yet."""
        newest = next(self._views(seat), None)
        if newest is None or version_key(newest) in seat.answered:
            return None
        if not any(is_prompt_component(c.get("custom_id"))
                   for c in walk_components(newest.components)):
            return None
        return newest.snapshot()

    def board(self) -> Message | None:
        """The table's board: the newest channel message with "Show my hand"."""
        for message in reversed(self.discord.state.messages.values()):
            if (message.channel_id == self.channel.id and message.visible_to is None
                    and not message.deleted
                    and message.button(self.words.show_hand) is not None):
                return message
        return None

    def winners(self) -> str | None:
        """The names in the channel's "🏆 **Name** won", once the game is over."""
        if self._winners is None:
            newest = self._scanned
            for message in reversed(self.discord.state.messages.values()):
                if message.id <= self._scanned:
                    break
                newest = max(newest, message.id)
                if message.channel_id == self.channel.id and message.visible_to is None:
                    found = self.words.won.search(message.content)
                    if found:
                        self._winners = found["names"]
            self._scanned = newest
        return self._winners

    def pending(self) -> list[UserHandle]:
        """Users with a question they have not answered yet."""
        return [seat.user for seat in self.seats if self._prompt(seat) is not None]

    def _board_asks(self, seat: AutoSeat) -> Message | None:
        """The board, when it says this seat (DMs closed) is awaited and the seat has not
        looked since: then it presses "Show my hand", as the bot tells it to."""
        if seat.user.user.dms_open:
            return None
        board = self.board()
        if board is None or (board.id, board.content) in seat.looked_at_board:
            return None
        found = self.words.waiting.search(board.content)
        if found is None:
            return None
        if found["id"] is not None and int(found["id"]) != seat.user.id:
            return None
        if found["name"] is not None and found["name"].lower() != seat.user.name.lower():
            return None
        return board.snapshot()

    def _anything_to_do(self) -> bool:
        return self.winners() is not None or any(
            self._prompt(seat) is not None or self._board_asks(seat) is not None
            for seat in self.seats)

    # --- playing -------------------------------------------------------------------------
    async def play(self, until: Callable[[], object] | None = None, *, idle: float = 15.0,
                   max_moves: int = 3000) -> None:
        """Answer until the game is won (or `until()`); fail when nothing is asked of anyone
        and the bot has sent nothing for `idle` seconds, which means somebody never got what
        they must answer. (At Discord's pace the channel's narration may trail the play by
        more than that: the game's end is told there last.)"""
        done = until or (lambda: self.winners() is not None)
        while not done():
            if len(self.moves) >= max_moves:
                raise AssertionError(f"no end in #{self.channel.name} after {max_moves} moves")
            acted = False
            for seat in self.seats:
                board = self._board_asks(seat)
                if board is not None:
                    seat.looked_at_board.add((board.id, board.content))
                    await seat.user.click(board, label=self.words.show_hand)
                prompt = self._prompt(seat)
                if prompt is not None:
                    await self._answer(seat, prompt)
                    acted = True
            if not acted and not done():
                await self._wait_while_sending(done, idle)

    async def _wait_while_sending(self, done: Callable[[], object], idle: float) -> None:
        """Until something is asked or `done()`; while the bot keeps sending, it is not stuck."""
        while True:
            sent = len(self.discord.state.requests)
            try:
                await self.discord.wait_for(lambda: done() or self._anything_to_do(),
                                            timeout=idle, message=self._stuck)
                return
            except TimeoutError:
                if len(self.discord.state.requests) == sent:
                    raise

    def _stuck(self) -> str:
        board = self.board()
        lines = [f"nothing asked of anyone in #{self.channel.name}; board: "
                 f"{board.content if board else None!r}"]
        for seat in self.seats:
            view = next(self._views(seat), None)
            buttons = [b.label for b in view.buttons()] if view else []
            lines.append(f"{seat.user.name}: {view.content if view else None!r} {buttons}")
        return "\n".join(lines)

    def _attempts(self, prompt: Message) -> list[Attempt]:
        """What to try on this prompt, in order: the first the bot accepts is the move."""
        buttons = [b for b in prompt.buttons()
                   if is_prompt_component(b.custom_id) and not b.disabled]
        menus = [s for s in prompt.selects() if is_prompt_component(s.custom_id)]
        labels = {button.label: button for button in buttons}
        words = self.words
        if next_deal := next((labels[x] for x in words.next if x in labels), None):
            return [("other", "next", next_deal, [])]
        if words.poker in labels:
            return [("other", "declares poker", labels[words.poker], [])]
        if words.call in labels:
            call = self.rng.random() < self.call_chance
            return [("other", "calls" if call else "no call",
                     labels[words.call if call else words.no_call], [])]
        if stand := next((labels[x] for x in words.stand if x in labels), None):
            attempts: list[Attempt] = []
            if menus and self.rng.random() < self.exchange_chance:
                menu = menus[0]
                low = max(1, menu.min_values)
                count = self.rng.randint(low, max(low, min(menu.max_values, self.max_throw)))
                thrown = self.rng.sample([o.value for o in menu.options], count)
                attempts.append(("exchange", f"throws {' '.join(thrown)}", menu, thrown))
            return [*attempts, ("exchange", stand.label or "stand", stand, [])]
        plays: list[Attempt] = [("play", f"plays {b.label}", b, []) for b in buttons]
        for menu in menus:
            picked = self.rng.sample([o.value for o in menu.options], menu.min_values)
            plays.append(("play", f"gives up {' '.join(picked)}", menu, picked))
        self.rng.shuffle(plays)
        return sorted(plays, key=lambda play: isinstance(play[2], Button)
                      and play[2].label in self.last_resort)

    # --- one seat at a time, for a player who takes their time (bench/pace.py) ---------
    def prompt_of(self, user: UserHandle) -> Message | None:
        """`user`'s newest private view, if it asks something not answered yet, counting a
        prompt that stayed the same after an answer as answered (a person does not change
        their Sppoker declaration over and over)."""
        seat = self._seat(user)
        prompt = self._prompt(seat)
        if prompt is not None and prompt_stamp(prompt) in seat.answered_stamps:
            seat.answered.add(version_key(prompt))
            return None
        return prompt

    async def look_if_asked(self, user: UserHandle) -> bool:
        """With DMs closed: press "Show my hand" when the board says `user` is awaited."""
        seat = self._seat(user)
        board = self._board_asks(seat)
        if board is None:
            return False
        seat.looked_at_board.add((board.id, board.content))
        await seat.user.click(board, label=self.words.show_hand)
        return True

    async def answer(self, user: UserHandle, prompt: Message) -> Move | None:
        """Answer `prompt` as `play` would; the move, or None when the prompt went out of
        date meanwhile (a newer one is on its way)."""
        return await self._answer(self._seat(user), prompt)

    async def _answer(self, seat: AutoSeat, prompt: Message) -> Move | None:
        seat.answered.add(version_key(prompt))
        stamp = prompt_stamp(prompt)
        if stamp is not None:
            seat.answered_stamps.add(stamp)
        deal, before = shown_hand(prompt, self.words)
        for kind, what, component, values in self._attempts(prompt):
            if isinstance(component, Select):
                result = await seat.user.select(prompt, custom_id=component.custom_id,
                                                values=values)
            else:
                result = await seat.user.click(prompt, custom_id=component.custom_id)
            if result.response == "update_message":
                after = result.message
                acked = self.discord.state.interactions[result.id].responded_at
                move = Move(seat.user.name, what, kind, deal, before,
                            shown_hand(after, self.words)[1] if after else [], prompt.id,
                            acked)
                self.moves.append(move)
                for callback in self.on_move:
                    callback(move)
                return move
            if not getattr(result, "answered", result.acked):
                # No answer came: the bot was killed (or fell far behind) between the click
                # and its answer, so whether the move was made is unknown. Not a refusal:
                # the prompt may be answered again once it is shown again (a move that was
                # saved is refused then as out of date; one that was not is made).
                seat.answered.discard(version_key(prompt))
                if stamp is not None:
                    seat.answered_stamps.discard(stamp)
                return None
            seat.refusals.append(result.text)
            if any(why in result.text for why in self.words.withdrawn):
                # A newer view is on its way, the clock answered for the seat meanwhile, or
                # another seat's move ended the game as this one clicked.
                return None
        raise AssertionError(f"{seat.user.name} found no answer the bot accepts to "
                             f"{prompt.content!r}; refusals: {seat.refusals[-5:]}")

    def _seat(self, user: UserHandle) -> AutoSeat:
        return next(seat for seat in self.seats if seat.user.id == user.id)
