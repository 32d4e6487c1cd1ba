"""Snapshots saved by earlier versions of the table, brought up to date, so tables left
unfinished by the previous release still restore after a deploy."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def legacy_refs(data: Mapping[str, Any]) -> dict[str, tuple[int, int]]:
    """The Discord message ids a version-1 snapshot kept inside the table; the service moves
    them into the store's message refs when it restores such a table."""
    if data.get("version") != 1:
        return {}
    refs: dict[str, tuple[int, int]] = {}
    channel = int(data["channel_id"])
    if data.get("lobby_message_id"):
        refs["lobby"] = (channel, int(data["lobby_message_id"]))
    if data.get("board_message_id"):
        refs["board"] = (channel, int(data["board_message_id"]))
    for seat, (chan, message) in (data.get("prompt_messages") or {}).items():
        refs[f"prompt:{int(seat)}"] = (int(chan), int(message))
    return refs


def upgrade_snapshot(data: Mapping[str, Any], current: int) -> Mapping[str, Any]:
    """Bring a snapshot saved by an earlier version up to the current version, so tables left
    unfinished by the previous release still restore."""
    version = data.get("version")
    if version == current:
        return data
    if version != 1:
        raise ValueError(f"unknown snapshot version {version!r}")
    upgraded = dict(data)
    digests = dict(upgraded.pop("sent_stamps", None) or {})
    upgraded["prompt_digests"] = digests
    # A version-1 button carries its prompt's digest as its stamp: `stamp_is_current` keeps
    # accepting those until the prompt changes.
    upgraded["prompt_since"] = {}
    for key in ("lobby_message_id", "board_message_id", "prompt_messages"):
        upgraded.pop(key, None)
    upgraded["version"] = current
    return upgraded
