"""The life of one interaction: its gateway payload, its callback, its token's webhook.

Discord's rules live here: acknowledge once and within 3 seconds, the token works for 15
minutes, a deferred reply is filled in by the first followup, and which callback types fit
which interaction.
"""

from __future__ import annotations

from typing import Any

from loopback import errors
from loopback.errors import FormErrors
from loopback.limits import check_modal
from loopback.models import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    COMPONENT,
    DEFERRED_MESSAGE,
    DEFERRED_UPDATE,
    EPHEMERAL,
    LOADING,
    MESSAGE,
    MODAL,
    MODAL_SUBMIT,
    UPDATE_MESSAGE,
    Interaction,
    Message,
    Modal,
)
from loopback.payloads import (
    ALL_PERMISSIONS,
    ATTACHMENT_SIZE_LIMIT,
    BOT_PERMISSIONS,
    channel_payload,
    member_payload,
    member_permissions,
    message_payload,
    owners,
    user_payload,
)
from loopback.state import LoopbackState, UploadedFile

ACK_DEADLINE = 3.0
TOKEN_LIFETIME = 15 * 60


def allowed_responses(interaction: Interaction) -> set[int]:
    """The callback types Discord accepts for this kind of interaction."""
    if interaction.type == APPLICATION_COMMAND:
        return {MESSAGE, DEFERRED_MESSAGE, MODAL}
    if interaction.type == COMPONENT:
        return {MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, MODAL}
    if interaction.type == MODAL_SUBMIT:
        on_message = {DEFERRED_UPDATE, UPDATE_MESSAGE} if interaction.message_id else set()
        return {MESSAGE, DEFERRED_MESSAGE} | on_message
    if interaction.type == AUTOCOMPLETE:
        return {AUTOCOMPLETE_RESULT}
    return set()


def interaction_payload(state: LoopbackState, interaction: Interaction) -> dict[str, Any]:
    """INTERACTION_CREATE as Discord sends it: `member` in a guild, `user` in a DM."""
    channel = state.channels[interaction.channel_id]
    user = state.users[interaction.user_id]
    payload: dict[str, Any] = {
        "id": str(interaction.id),
        "application_id": str(state.application_id),
        "type": interaction.type,
        "data": interaction.data,
        "token": interaction.token,
        "version": 1,
        "channel_id": str(channel.id),
        "channel": channel_payload(state, channel),
        "locale": user.locale,
        "app_permissions": str(BOT_PERMISSIONS if channel.guild_id else ALL_PERMISSIONS),
        "entitlements": [],
        "authorizing_integration_owners": owners(channel.guild_id),
        "context": 1 if channel.is_dm else 0,
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
    }
    if channel.guild_id is not None:
        guild = state.guilds[channel.guild_id]
        member = member_payload(guild, user)
        member["permissions"] = str(member_permissions(guild, user))
        payload |= {
            "guild_id": str(guild.id),
            "guild": {"id": str(guild.id), "locale": "en-US", "features": []},
            "guild_locale": "en-US",
            "member": member,
        }
    else:
        payload["user"] = user_payload(user)
    if interaction.message_id is not None:
        message = state.messages[interaction.message_id]
        payload["message"] = message_payload(state, message)
    return payload


def respond(
    state: LoopbackState, interaction: Interaction, body: dict[str, Any], files: list[UploadedFile]
) -> dict[str, Any]:
    """POST /interactions/{id}/{token}/callback; answers the `with_response` body."""
    if interaction.response_type is not None:
        raise errors.already_acknowledged()
    if state.clock.time() - interaction.created_at > ACK_DEADLINE:
        interaction.late = True
        interaction.settled.set()
        raise errors.unknown("interaction")
    kind = body.get("type")
    data = body.get("data") or {}
    if kind not in allowed_responses(interaction):
        form = FormErrors()
        form.add("type", "INTERACTION_RESPONSE_TYPE_INVALID",
                 f"Interaction response type {kind} is not valid for this interaction")
        form.raise_if_any()
    channel = state.channel(interaction.channel_id)
    message: Message | None = None
    if kind == MESSAGE:
        message = state.create_message(channel, data, files, interaction=interaction)
        interaction.original_id = message.id
    elif kind == DEFERRED_MESSAGE:
        flags = LOADING | ((data.get("flags") or 0) & EPHEMERAL)
        message = state.create_message(channel, {}, [], interaction=interaction, flags=flags)
        interaction.original_id = message.id
    elif kind == DEFERRED_UPDATE:
        interaction.original_id = interaction.message_id
    elif kind == UPDATE_MESSAGE:
        target = state.messages[interaction.message_id]  # type: ignore[index]
        if target.deleted:
            raise errors.unknown("Message")
        message = state.edit_message(target, data, files)
        interaction.original_id = message.id
    elif kind == MODAL:
        form = FormErrors("data")
        check_modal(data, form)
        form.raise_if_any()
        interaction.modal = Modal(
            data["custom_id"], data["title"], data["components"], interaction.user_id,
            interaction.id, interaction.channel_id, interaction.message_id, state.clock.time(),
        )
        state.modals[interaction.user_id] = interaction.modal
    elif kind == AUTOCOMPLETE_RESULT:
        interaction.choices = data.get("choices") or []
    interaction.response_type = kind
    interaction.responded_at = state.clock.time()
    interaction.settled.set()
    state.notify()
    original = interaction.original_id
    answer: dict[str, Any] = {
        "interaction": {
            "id": str(interaction.id),
            "type": interaction.type,
            "activity_instance_id": None,
            "response_message_id": str(original) if original else None,
            "response_message_loading": kind == DEFERRED_MESSAGE,
            "response_message_ephemeral": bool(message and message.ephemeral),
        },
        "resource": {"type": kind},
    }
    if message is not None:
        answer["resource"]["message"] = message_payload(state, message)
    return answer


def by_token(state: LoopbackState, application_id: int, token: str) -> Interaction:
    """The interaction behind a webhook token, if the token is still alive."""
    found = state.interaction_tokens.get(token)
    if found is None or application_id != state.application_id:
        raise errors.unknown("Webhook")
    if state.clock.time() - found.created_at > TOKEN_LIFETIME:
        raise errors.invalid_webhook_token()
    return found


def followup(
    state: LoopbackState, interaction: Interaction, payload: dict[str, Any],
    files: list[UploadedFile],
) -> Message:
    """POST /webhooks/{app}/{token}: the first followup after a defer fills in the placeholder."""
    if interaction.response_type is None:
        raise errors.unknown("Webhook")
    original = state.messages.get(interaction.original_id or 0)
    if (
        interaction.response_type == DEFERRED_MESSAGE
        and original is not None
        and original.loading
        and not original.deleted
    ):
        return state.edit_message(original, {k: v for k, v in payload.items() if k != "flags"},
                                  files)
    channel = state.channel(interaction.channel_id)
    message = state.create_message(channel, payload, files, interaction=interaction)
    interaction.followup_ids.append(message.id)
    return message


def webhook_message(state: LoopbackState, interaction: Interaction, ref: str) -> Message:
    """`@original` or a followup id; other messages are not this token's to touch."""
    if ref == "@original":
        message_id = interaction.original_id
    else:
        message_id = int(ref) if ref.isdigit() else None
        if message_id not in (interaction.original_id, *interaction.followup_ids):
            message_id = None
    message = state.messages.get(message_id or 0)
    if message is None or message.deleted:
        raise errors.unknown("Message")
    return message

