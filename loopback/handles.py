"""The people and places a test drives: a user's actions and what they were shown, a channel.

Everything a handle does is something a person could do in the Discord client; everything it
reads is what that person (or everyone in the channel) could see. A handle acts through a
`Driver`, which the driver's LoopbackDiscord is: named here as a protocol, not imported,
because the driver hands out handles.
"""

from __future__ import annotations

import copy
from typing import Any, Protocol

from loopback import commands, components
from loopback.errors import ModalNotOpen
from loopback.models import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    COMPONENT,
    MODAL_SUBMIT,
    Channel,
    Message,
    Modal,
    User,
)
from loopback.results import InteractionResult, MessagePredicate, Watcher


class Driver(Watcher, Protocol):
    """What the handles act through (LoopbackDiscord): its records and waits, and the three
    steps it keeps for them: make an interaction and await its acknowledgement, find the
    channel a test names, and list what a user can see."""

    async def _interact(
        self,
        kind: str,
        user: User,
        channel: Channel,
        type_: int,
        data: dict[str, Any],
        *,
        message_id: int | None,
        timeout: float | None,
        check: bool,
    ) -> InteractionResult: ...

    def _resolve_channel(self, user: User, where: Any) -> Channel: ...

    def _visible(self, user: User, channel: Channel | None = None) -> list[Message]: ...


class ChannelHandle:
    """A guild text channel or one user's DM channel with the bot."""

    def __init__(self, discord: Watcher, channel_id: int) -> None:
        self._discord = discord
        self.id = channel_id

    def __repr__(self) -> str:
        return f"<ChannelHandle #{self.name}>"

    @property
    def channel(self) -> Channel:
        return self._discord.state.channels[self.id]

    @property
    def name(self) -> str:
        return self.channel.name

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def messages(self, *, include_deleted: bool = False) -> list[Message]:
        """Public messages, oldest first (ephemeral replies are per user: see ephemerals())."""
        return [m.snapshot() for m in self._discord.state.messages.values()
                if m.channel_id == self.id and m.visible_to is None
                and (include_deleted or not m.deleted)]

    @property
    def last_message(self) -> Message | None:
        found = self.messages()
        return found[-1] if found else None

    async def wait_for_message(
        self, predicate: MessagePredicate | None = None, timeout: float = 10.0
    ) -> Message:
        """The newest public message matching `predicate` (any message if None)."""

        def found() -> Message | None:
            return next((m for m in reversed(self.messages())
                         if predicate is None or predicate(m)), None)

        return await self._discord.wait_for(found, timeout, message=lambda: (
            f"no matching message in #{self.name}; last: {self.last_message!r}"))


class UserHandle:
    """One test user: what they can do in Discord, and what Discord showed them."""

    def __init__(self, discord: Driver, user_id: int) -> None:
        self._discord = discord
        self.id = user_id

    def __repr__(self) -> str:
        return f"<UserHandle {self.name}>"

    @property
    def user(self) -> User:
        return self._discord.state.users[self.id]

    @property
    def name(self) -> str:
        return self.user.name

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    @property
    def dm_channel(self) -> ChannelHandle:
        return ChannelHandle(self._discord, self._discord.state.dm_channel(self.user).id)

    # --- settings ------------------------------------------------------------------------

    @property
    def dms_open(self) -> bool:
        return self.user.dms_open

    @dms_open.setter
    def dms_open(self, value: bool) -> None:
        """With DMs closed, the bot's DMs fail with 403 / 50007 as on Discord."""
        self.user.dms_open = value

    def close_dms(self) -> None:
        self.dms_open = False

    def open_dms(self) -> None:
        self.dms_open = True

    # --- actions -------------------------------------------------------------------------

    async def slash(
        self,
        where: Any,
        command: str,
        /,
        *,
        timeout: float | None = None,
        check: bool = True,
        **options: Any,
    ) -> InteractionResult:
        """Run "/name [group] [sub] [opt:value ...]" in a channel (or "dm"); awaits the ack.

        Options may also be keyword arguments; users and channels may be given by name.
        """
        channel = self._discord._resolve_channel(self.user, where)
        path, typed = commands.parse_invocation(command)
        data = commands.build_data(self._discord.state, channel, self.user, path,
                                   typed | options)
        return await self._discord._interact(
            f"/{' '.join(path)}", self.user, channel, APPLICATION_COMMAND, data,
            message_id=None, timeout=timeout, check=check)

    async def autocomplete(
        self, where: Any, command: str, focused: str, value: str = "", /, **options: Any
    ) -> list[dict[str, Any]]:
        """The suggestions the bot offers while the user types `value` into `focused`."""
        channel = self._discord._resolve_channel(self.user, where)
        path, typed = commands.parse_invocation(command)
        data = commands.build_data(self._discord.state, channel, self.user, path,
                                   typed | options | {focused: value}, focused=focused)
        result = await self._discord._interact(
            "autocomplete", self.user, channel, AUTOCOMPLETE, data, message_id=None,
            timeout=None, check=True)
        return result.choices or []

    async def click(
        self,
        target: Message | ChannelHandle | str | None = None,
        *,
        label: str | None = None,
        custom_id: str | None = None,
        emoji: str | None = None,
        timeout: float | None = None,
        check: bool = True,
    ) -> InteractionResult:
        """Click the newest visible enabled button matching label/custom_id/emoji.

        `target` narrows the search to one message, one channel (or "dm"); None searches
        everything this user can see.
        """
        message, button = components.find_button(
            self._candidates(target), label=label, custom_id=custom_id, emoji=emoji)
        data = {"custom_id": button.custom_id, "component_type": 2}
        return await self._component(f"click {button.label or button.emoji!r}", message, data,
                                     timeout, check)

    async def click_dm(
        self,
        *,
        label: str | None = None,
        custom_id: str | None = None,
        emoji: str | None = None,
        timeout: float | None = None,
        check: bool = True,
    ) -> InteractionResult:
        """Click a button on a message the bot sent this user by DM."""
        return await self.click("dm", label=label, custom_id=custom_id, emoji=emoji,
                                timeout=timeout, check=check)

    async def select(
        self,
        target: Message | ChannelHandle | str | None = None,
        *,
        values: list[Any],
        custom_id: str | None = None,
        placeholder: str | None = None,
        timeout: float | None = None,
        check: bool = True,
    ) -> InteractionResult:
        """Pick `values` (option values or labels; users by name) in a visible select."""
        message, select = components.find_select(
            self._candidates(target), custom_id=custom_id, placeholder=placeholder)
        data = components.select_data(self._discord.state, select, list(values),
                                      message.guild_id)
        return await self._component(f"select {select.custom_id!r}", message, data, timeout,
                                     check)

    @property
    def modal(self) -> Modal | None:
        """The modal the bot has open for this user, if any."""
        modal = self._discord.state.modals.get(self.id)
        return None if modal is None or modal.submitted else copy.deepcopy(modal)

    async def submit_modal(
        self,
        fields: dict[str, Any] | None = None,
        *,
        timeout: float | None = None,
        check: bool = True,
        **values: Any,
    ) -> InteractionResult:
        """Fill in and submit the open modal; fields by custom_id or by label."""
        modal = self._discord.state.modals.get(self.id)
        if modal is None or modal.submitted:
            raise ModalNotOpen(f"the bot has no modal open for {self.name}")
        submitted = components.modal_submission(modal, (fields or {}) | values)
        modal.submitted = True
        data = {"custom_id": modal.custom_id, "components": submitted}
        channel = self._discord.state.channels[modal.channel_id]
        message_id = modal.message_id
        if message_id is not None and self._discord.state.messages[message_id].deleted:
            message_id = None
        return await self._discord._interact(
            f"modal {modal.custom_id!r}", self.user, channel, MODAL_SUBMIT, data,
            message_id=message_id, timeout=timeout, check=check)

    async def say(self, where: Any, content: str) -> Message:
        """Type a plain message (MESSAGE_CREATE; content needs the message content intent)."""
        channel = self._discord._resolve_channel(self.user, where)
        return self._discord.state.user_message(self.user, channel, content).snapshot()

    async def _component(
        self, kind: str, message: Message, data: dict[str, Any], timeout: float | None,
        check: bool,
    ) -> InteractionResult:
        channel = self._discord.state.channels[message.channel_id]
        return await self._discord._interact(kind, self.user, channel, COMPONENT, data,
                                             message_id=message.id, timeout=timeout,
                                             check=check)

    def _candidates(self, target: Message | ChannelHandle | str | None) -> list[Message]:
        if isinstance(target, Message):
            return [m for m in self._discord._visible(self.user) if m.id == target.id]
        channel = None if target is None else self._discord._resolve_channel(self.user, target)
        return self._discord._visible(self.user, channel)

    # --- what this user was shown --------------------------------------------------------

    def dms(self) -> list[Message]:
        """Messages in this user's DM channel with the bot, oldest first."""
        channel_id = self._discord.state.dm_channels.get(self.id)
        return [m.snapshot() for m in self._discord.state.messages.values()
                if m.channel_id == channel_id and not m.deleted and m.visible_to is None]

    @property
    def last_dm(self) -> Message | None:
        found = self.dms()
        return found[-1] if found else None

    def ephemerals(self, where: Any = None) -> list[Message]:
        """Ephemeral replies only this user saw, oldest first (optionally in one channel)."""
        channel = None if where is None else self._discord._resolve_channel(self.user, where)
        return [m.snapshot() for m in self._discord.state.messages.values()
                if m.visible_to == self.id and not m.deleted
                and (channel is None or m.channel_id == channel.id)]

    @property
    def last_ephemeral(self) -> Message | None:
        found = self.ephemerals()
        return found[-1] if found else None

    def visible_messages(self, where: Any = None) -> list[Message]:
        """Everything this user can see (public, own DMs, own ephemerals), oldest first."""
        channel = None if where is None else self._discord._resolve_channel(self.user, where)
        return [m.snapshot() for m in reversed(self._discord._visible(self.user, channel))]

    async def wait_for_dm(
        self, predicate: MessagePredicate | None = None, timeout: float = 10.0
    ) -> Message:
        def found() -> Message | None:
            return next((m for m in reversed(self.dms())
                         if predicate is None or predicate(m)), None)

        return await self._discord.wait_for(found, timeout, message=lambda: (
            f"no matching DM for {self.name}; last: {self.last_dm!r}"))

    async def wait_for_ephemeral(
        self, predicate: MessagePredicate | None = None, timeout: float = 10.0
    ) -> Message:
        def found() -> Message | None:
            return next((m for m in reversed(self.ephemerals())
                         if predicate is None or predicate(m)), None)

        return await self._discord.wait_for(found, timeout, message=lambda: (
            f"no matching ephemeral for {self.name}; last: {self.last_ephemeral!r}"))
