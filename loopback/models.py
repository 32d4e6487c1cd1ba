"""What the loopback knows and records: users, channels, messages, modals, interactions,
errors.

Tests receive deep copies of these, so they can keep an old `Message` and compare it with
the current one after the bot has edited it.
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

EPHEMERAL = 1 << 6
LOADING = 1 << 7

GUILD_TEXT, DM = 0, 1
PUBLIC_THREAD, PRIVATE_THREAD = 11, 12
THREAD_TYPES = frozenset({PUBLIC_THREAD, PRIVATE_THREAD})


@dataclass
class User:
    id: int
    name: str
    bot: bool = False
    dms_open: bool = True
    permissions: int = 0
    locale: str = "en-US"  # the client's language, sent with every interaction


@dataclass
class Channel:
    id: int
    name: str
    type: int = GUILD_TEXT
    guild_id: int | None = None
    recipient_id: int | None = None
    position: int = 0
    # A thread's: the channel it hangs off, who started it, its archive state.
    parent_id: int | None = None
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    archive_timestamp: float = 0.0
    member_ids: list[int] = field(default_factory=list)

    @property
    def is_dm(self) -> bool:
        return self.type == DM

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES


@dataclass
class ScheduledEvent:
    """A guild's scheduled event, as Discord keeps it (times as Unix seconds)."""

    id: int
    guild_id: int
    creator_id: int
    name: str
    entity_type: int  # 1 stage, 2 voice, 3 external
    scheduled_start_time: float
    scheduled_end_time: float | None = None
    description: str | None = None
    channel_id: int | None = None
    location: str | None = None
    status: int = 1  # 1 scheduled, 2 active, 3 completed, 4 canceled
    privacy_level: int = 2
    interested: list[int] = field(default_factory=list)
    deleted: bool = False


@dataclass
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    roles: list[Role] = field(default_factory=list)
    channel_ids: list[int] = field(default_factory=list)
    member_ids: list[int] = field(default_factory=list)
    joined_at: float = 0.0


@dataclass
class Attachment:
    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None
    url: str = ""

    @property
    def size(self) -> int:
        return len(self.data)


@dataclass(frozen=True)
class Button:
    label: str | None
    custom_id: str | None
    style: int
    disabled: bool
    url: str | None = None
    emoji: str | None = None


@dataclass(frozen=True)
class SelectOption:
    label: str
    value: str
    description: str | None = None
    default: bool = False


@dataclass(frozen=True)
class Select:
    custom_id: str
    type: int
    placeholder: str | None
    options: tuple[SelectOption, ...]
    min_values: int
    max_values: int
    disabled: bool


@dataclass
class MessageVersion:
    """A message as it was before one edit."""

    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    attachments: list[Attachment]
    flags: int
    at: float


@dataclass
class Message:
    """One message the bot (or a test user) sent, in its current state plus its edit history.

    `visible_to` is None for messages everyone in the channel sees, or the id of the one user
    who sees an ephemeral reply.
    """

    id: int
    channel_id: int
    author_id: int
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    created_at: float = 0.0
    edited_at: float | None = None
    guild_id: int | None = None
    visible_to: int | None = None
    interaction_id: int | None = None
    webhook_id: int | None = None
    type: int = 0
    deleted: bool = False
    reply_to: int | None = None
    history: list[MessageVersion] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred "Bot is thinking..." placeholder not yet filled in."""
        return bool(self.flags & LOADING)

    @property
    def text(self) -> str:
        """Everything a reader sees as text: content, embeds and text displays, one per line."""
        parts: list[str | None] = [self.content] if self.content else []
        for embed in self.embeds:
            parts += [embed.get("author", {}).get("name"), embed.get("title"),
                      embed.get("description")]
            for f in embed.get("fields", []):
                parts += [f.get("name"), f.get("value")]
            parts.append(embed.get("footer", {}).get("text"))
        parts += [c.get("content") for c in walk_components(self.components)
                  if c.get("type") == 10]
        return "\n".join(str(p) for p in parts if p)

    def buttons(self) -> list[Button]:
        return [
            Button(c.get("label"), c.get("custom_id"), c.get("style", 1), c.get("disabled", False),
                   c.get("url"), (c.get("emoji") or {}).get("name"))
            for c in walk_components(self.components)
            if c.get("type") == 2
        ]

    def selects(self) -> list[Select]:
        return [
            Select(
                c["custom_id"], c["type"], c.get("placeholder"),
                tuple(SelectOption(o["label"], o["value"], o.get("description"),
                                   o.get("default", False)) for o in c.get("options", [])),
                c.get("min_values", 1), c.get("max_values", 1), c.get("disabled", False),
            )
            for c in walk_components(self.components)
            if c.get("type") in (3, 5, 6, 7, 8)
        ]

    def button(self, label: str | None = None, *, custom_id: str | None = None) -> Button | None:
        for b in self.buttons():
            if (label is None or b.label == label) and (
                custom_id is None or b.custom_id == custom_id
            ):
                return b
        return None

    def attachment(self, filename: str) -> Attachment | None:
        return next((a for a in self.attachments if a.filename == filename), None)

    def snapshot(self) -> Message:
        return copy.deepcopy(self)


@dataclass(frozen=True)
class TextField:
    custom_id: str
    label: str | None
    style: int
    required: bool
    min_length: int | None
    max_length: int | None
    value: str | None
    placeholder: str | None


@dataclass
class Modal:
    """A modal the bot opened for one user, waiting to be submitted."""

    custom_id: str
    title: str
    components: list[dict[str, Any]]
    user_id: int
    interaction_id: int
    channel_id: int
    message_id: int | None
    opened_at: float
    submitted: bool = False

    def fields(self) -> list[TextField]:
        found = []
        for item in self.components:
            label = item.get("label")
            inners = item.get("components") or ([item["component"]] if "component" in item else [])
            for inner in inners:
                if inner.get("type") == 4:
                    found.append(TextField(
                        inner["custom_id"], inner.get("label") or label, inner.get("style", 1),
                        inner.get("required", True), inner.get("min_length"),
                        inner.get("max_length"), inner.get("value"), inner.get("placeholder"),
                    ))
        return found


# Discord's numbers: an interaction's type, and the types of callback that answer one.
APPLICATION_COMMAND, COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5
MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE = 4, 5, 6, 7
AUTOCOMPLETE_RESULT, MODAL = 8, 9
RESPONSE_NAMES = {
    MESSAGE: "message",
    DEFERRED_MESSAGE: "deferred_message",
    DEFERRED_UPDATE: "deferred_update",
    UPDATE_MESSAGE: "update_message",
    AUTOCOMPLETE_RESULT: "autocomplete",
    MODAL: "modal",
}


@dataclass
class Interaction:
    """One interaction a test user made, and how the bot has answered it so far.

    A record like the others here; the rules of its life (which callbacks fit it, the 3 s to
    acknowledge, the token's 15 minutes, a deferral filled in by the first followup) are
    loopback.interactions'.
    """

    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    guild_id: int | None
    data: dict[str, Any]
    created_at: float
    message_id: int | None = None
    # When INTERACTION_CREATE was handed to the gateway, after its payload was built: the
    # start of the bot's share of the acknowledgement time (bench/load.py).
    dispatched_at: float | None = None
    response_type: int | None = None
    responded_at: float | None = None
    original_id: int | None = None
    # When the original was last edited through this interaction's token (its answer after
    # a deferral, or a later change of it): not by the bot's other edits of the same message.
    original_edited_at: float | None = None
    followup_ids: list[int] = field(default_factory=list)
    errors: list[ErrorRecord] = field(default_factory=list)
    late: bool = False
    modal: Modal | None = None
    choices: list[dict[str, Any]] | None = None
    settled: asyncio.Event = field(default_factory=asyncio.Event, repr=False)


@dataclass
class ErrorRecord:
    """An error answer the loopback gave the bot; `injected` ones were asked for by a test."""

    method: str
    path: str
    status: int
    code: int
    message: str
    at: float
    injected: bool = False
    details: dict[str, Any] | None = None
    # What the bot sent, for a rejected request: a failing test shows what Discord refused.
    body: Any = None


@dataclass
class RequestRecord:
    method: str
    path: str
    status: int
    body: Any
    files: list[str]
    at: float
    kind: str = "other"  # ratelimits.route_kind: message_create, followup_edit, ...


def walk_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component in a tree of rows, sections, containers and labels, depth first."""
    for item in components:
        yield item
        yield from walk_components(item.get("components") or [])
        for key in ("accessory", "component"):
            if item.get(key):
                yield from walk_components([item[key]])
