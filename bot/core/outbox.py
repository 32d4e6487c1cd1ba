"""What a step must tell, as typed values: the messages of the durable outbox.

The table service decides every message under the table's lock and writes these values in
the same transaction as the step's snapshot (as JSON, `bot.core.outbox_json`, in the format
saved rows have always had); only the sender (`bot.discord.sender`) turns them into Discord
calls, decoding each row once as it reads it. Being plain data is what lets them outlive a
crash, and lets the service be tested without Discord.

A message is one of (`OutboxMessage`):
- `Post`: a new message to a channel or to a user's DMs, optionally remembered as a named
  `ref` (e.g. "board", "prompt:2"); `previous` says what becomes of the message that ref
  named before ("delete" it, "strip" its buttons, or "keep" it).
- `Edit`: replace the content (and components) of the message a ref names.
- `Upsert`: edit the message a ref names, or post it when there is none yet.
- `Strip`: take the components off the message a ref names, and forget the ref.
- `Reply`: the answer to a seat's own click (its view at the click's step), written in the
  step's commit into the seat's prompt queue. The click's interaction response carries it
  and marks it delivered (`bot.discord.sender.Sender.replied`); one that no response
  carried (the process died between the commit and the response, the response failed) the
  sender delivers itself. Either way no prompt of the seat written before it is sent any
  more.
- `Answered`: a delivered `Reply`, as the sender reads it: no message, the mark it leaves in
  the seat's prompt queue (and the form rows saved before replies were rows keep).

Views are named, not built (`ViewSpec`); the sender builds the discord.py view from the
name, so a view needs nothing from memory after a restart.

Mentions are allowed by id, never found in text: a channel `Post` or `Upsert` lists in
`pings` the users it means to ping (the sender allows exactly those, `pinged`), and a DM's
`fallback` in the channel pings only that DM's person. Everything else pings nobody, whatever
a name in it looks like (names are inert anyway: `bot.present.inert`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from bot.present import i18n
from engine.game import Event, Prompt
from engine.i18n import Msg

Previous = Literal["delete", "strip", "keep"]


# A view's labels are in the language current when its message is made (its readers').


@dataclass(frozen=True)
class TableButtons:
    """The buttons a table's public message carries: the board's (Show my hand), a cash
    table's between deals (Next deal, Join, Rebuy, Leave, End), the lobby's, or a finished
    game's Replay. Named, not built: the adapter builds them, so they outlive a restart."""

    kind: Literal["board", "cash", "lobby", "replay"]
    table: str
    locale: str
    guild: int | None = None  # a finished game's server: its replay on the web page


@dataclass(frozen=True)
class PromptButtons:
    """A seat's prompt: its choices, card menus and word boxes, as of `stamp` (the step it
    first appeared at, which a click's custom id carries back)."""

    table: str
    seat: int
    stamp: str
    prompt: Prompt | None
    locale: str


ViewSpec = TableButtons | PromptButtons
"""The buttons a message carries, as the core names them for the adapter."""


def board_view(table_id: str) -> TableButtons:
    return TableButtons("board", table_id, i18n.current())


def cash_view(table_id: str) -> TableButtons:
    return TableButtons("cash", table_id, i18n.current())


def replay_view(table_id: str, guild_id: int | None = None) -> TableButtons:
    """The Replay button of a game's final message (and, the server's web page being on, a
    link to the replay there: the adapter asks)."""
    return TableButtons("replay", table_id, i18n.current(), guild_id)


def lobby_view(table_id: str) -> TableButtons:
    return TableButtons("lobby", table_id, i18n.current())


def prompt_view(table_id: str, seat: int, stamp: str, prompt: Prompt | None) -> PromptButtons:
    return PromptButtons(table_id, seat, stamp, prompt, i18n.current())


@dataclass(frozen=True)
class Picture:
    """What to draw for a message: the sender draws it off the lock (`bot.discord.painter`).
    Its events' words are already in the language of whoever will see it, as plain text
    (names cleaned, not escaped: Pillow draws no markdown, and would draw the backslashes);
    `locale` is that language, which the drawing's own words (a caption, a declaration, a
    card's "WILD") are written in (None in a row saved before pictures said it: English)."""

    kind: str
    events: tuple[Event, ...]
    names: tuple[str, ...]
    locale: str | None


def pictures(kind: str, events: Sequence[Event], names: Sequence[str],
             locale: str | None = None) -> Picture:
    """The pictures of `events`, their words rendered now in `locale` (by default the
    current one): the painter's process knows no reader."""
    language = locale or i18n.current()
    return Picture(kind, tuple(Event(i18n.render(event.text, language, markdown=False),
                                     event.seat, event.kind,
                                     _rendered(dict(event.data), language))
                               for event in events), tuple(names), language)


def _rendered(value: Any, locale: str) -> Any:
    """An event's data with the words in it (hand names) rendered, as JSON holds it."""
    if isinstance(value, Msg):
        return i18n.render(value, locale, markdown=False)
    if isinstance(value, Mapping):
        return {key: _rendered(item, locale) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_rendered(item, locale) for item in value]
    return value


@dataclass(frozen=True)
class Embed:
    """A boxed event in a channel message (`bot.present.render.event_embed`), as Discord's
    embed: a title, a text, a colour, and the attachment shown inside it, if any."""

    title: str
    description: str
    color: int
    image: str | None = None


@dataclass(frozen=True, kw_only=True)
class Turn:
    """The turn of a seat whose DMs are closed, which its channel ping may become instead:
    its private view with the new prompt, shown where its person just answered on "Show my
    hand" (`bot.discord.in_place`)."""

    seat: int
    user: int
    content: str
    view: PromptButtons


@dataclass(frozen=True, kw_only=True)
class Post:
    """A new message, to a channel or to a user's DMs. For a DM, `fallback` is said in
    `table_channel` when DMs are closed (it may ping the DM's person, and nobody else);
    `clocks` are the table's clocks this prompt starts, restarted when it is delivered;
    `step`, the table's step a seat's prompt shows (`bot.discord.stale_rows`); `pings`, the
    users a channel message means to ping (mentioned in it by id); `turn`, for a closed-DM
    seat's ping, what it may become instead."""

    channel: int | None = None
    user: int | None = None
    content: str = ""
    view: ViewSpec | None = None
    embeds: tuple[Embed, ...] = ()
    picture: Picture | None = None
    ref: str | None = None
    previous: Previous = "keep"
    fallback: str | None = None
    table_channel: int | None = None
    clocks: tuple[str, ...] = ()
    step: int | None = None
    pings: tuple[int, ...] = ()
    turn: Turn | None = None

    def __post_init__(self) -> None:
        if (self.channel is None) == (self.user is None):
            raise ValueError("a post goes to a channel or to a user")


@dataclass(frozen=True)
class Edit:
    """Replace the content (and buttons) of the message `ref` names; nothing if none."""

    ref: str
    content: str
    view: ViewSpec | None = None


@dataclass(frozen=True, kw_only=True)
class Upsert:
    """Edit the message `ref` names in place, or post it if there is none yet (a live board:
    one message per table, not one per move). A later write to the same ref supersedes it.
    `pings` as for `Post` (an edit notifies nobody: Discord pings only for a new message).
    `embeds` and `picture`: a step's news riding on the board, when Discord's global budget
    is short (`bot.discord.board_pace.ride_on_board`); an edit without them keeps the ones
    the message has."""

    ref: str
    channel: int
    content: str
    view: ViewSpec | None = None
    pings: tuple[int, ...] = ()
    embeds: tuple[Embed, ...] = ()
    picture: Picture | None = None


@dataclass(frozen=True)
class Strip:
    """Take the buttons off the message `ref` names, and forget the ref."""

    ref: str


@dataclass(frozen=True, kw_only=True)
class Reply:
    """The answer to a seat's own click: what the seat sees once its step is made (`content`,
    `view`: its prompt at its stamp, or none left; `picture`: a new hand), in the language of
    the click. Written by the narration in the step's commit, so the answer is as durable as
    the step: the click's interaction response carries it, and is marked delivered with the
    message it answered on; if no response carried it (a crash between the commit and the
    response, a response Discord refused), the sender delivers it, into the seat's prompt
    message or as a new DM to `user`. `view` None: sent late, its buttons would be out of
    date (`bot.discord.stale_rows`)."""

    seat: int
    step: int
    user: int
    content: str
    view: PromptButtons | None
    picture: Picture | None = None

    @property
    def ref(self) -> str:
        return prompt_ref(self.seat)


@dataclass(frozen=True)
class Answered:
    """A delivered `Reply`, as the mark it leaves in its seat's prompt queue: the answer showed
    the seat the table at `step`, on the message `message` (None in a row saved before the
    mark said it), so the sender drops any prompt of the seat written before it that is still
    queued (`bot.discord.stale_rows`), a restart after a crash included, instead of sending it
    over that answer with step-old buttons."""

    seat: int
    step: int
    message: int | None = None

    @property
    def ref(self) -> str:
        return prompt_ref(self.seat)


OutboxMessage = Post | Edit | Upsert | Strip | Reply | Answered
"""One row of the outbox: what the sender is to do."""


def prompt_ref(seat: int) -> str:
    """The name of a seat's prompt message, and of its queue."""
    return f"prompt:{seat}"


def pinged(message: OutboxMessage, *, fallback: bool = False) -> list[int]:
    """The users a message may ping, by id: its `pings`, or for the `fallback` of a DM said
    in the channel, that DM's person. The sender lists exactly these in the message's
    `allowed_mentions`.

    >>> pinged(Post(channel=1, content="<@7>, your turn", pings=(7,)))
    [7]
    >>> pinged(Post(user=7, content="…", fallback="<@7> …", table_channel=1), fallback=True)
    [7]
    >>> pinged(Post(channel=1, content="<@7> named himself so"))
    []
    """
    if fallback:
        return [message.user] if isinstance(message, Post) and message.user is not None else []
    return list(message.pings) if isinstance(message, Post | Upsert) else []


CHANNEL_QUEUE = "channel"  # the table channel's messages: its board, its narration
BOARD_REF = "board"  # the table's live board: one message, edited at every move


def destination(message: OutboxMessage) -> str:
    """Which queue a message waits in: a seat's prompt and a person's DMs never wait behind
    the channel's narration (or each other); within one destination order is kept."""
    ref = message.ref or ""
    if ref.startswith("prompt:"):
        return ref
    if isinstance(message, Post) and message.user is not None:
        return f"user:{message.user}"
    return CHANNEL_QUEUE
