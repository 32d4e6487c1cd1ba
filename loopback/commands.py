"""Turning what a user types ("/sppoker start target:10") into an interaction's `data`.

The registered command definitions decide the shape, exactly as the Discord client uses them:
subcommand groups nest, options are coerced to their declared types, choices, ranges and
required options are checked, and users, channels and roles come with `resolved` data.

A user types names as their Discord client shows them: a client in Swedish (`User.locale`
sv-SE) shows a command's, option's and choice's `name_localizations` for its locale (`/repris
spel:…`), and the interaction carries the names the bot registered (`/replay game:…`), as
Discord sends them. The registered names are accepted too, in any locale.
"""

from __future__ import annotations

import shlex
from typing import Any

from loopback.errors import BadOption, CommandNotFound
from loopback.models import Channel, User
from loopback.payloads import (
    attachment_payload,
    channel_payload,
    member_payload,
    member_permissions,
    role_payload,
    user_payload,
)
from loopback.state import LoopbackState

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = range(3, 12)
_TRUE, _FALSE = {"true", "yes", "1", "on"}, {"false", "no", "0", "off"}


def parse_invocation(text: str) -> tuple[list[str], dict[str, str]]:
    """Split typed text into the command path and `name:value` options.

    >>> parse_invocation('/sppoker start target:10 name:"Big game"')
    (['sppoker', 'start'], {'target': '10', 'name': 'Big game'})
    """
    path: list[str] = []
    options: dict[str, str] = {}
    for token in shlex.split(text.strip().removeprefix("/")):
        name, colon, value = token.partition(":")
        if colon and name:
            options[name] = value
        elif options:
            raise BadOption(f"{token!r} comes after the options in {text!r}")
        else:
            path.append(token)
    if not path:
        raise CommandNotFound("no command name given")
    return path, options


def shown_name(node: dict[str, Any], locale: str) -> str:
    """A command's, option's or choice's name as a client in `locale` shows it."""
    return str((node.get("name_localizations") or {}).get(locale) or node["name"])


def _named(node: dict[str, Any], word: str, locale: str) -> bool:
    """Whether a typed word names this command, option or choice: as the user's client shows
    it, or as registered."""
    return word in (node["name"], shown_name(node, locale))


def find_command(
    state: LoopbackState, name: str, channel: Channel, user: User
) -> dict[str, Any]:
    """The chat-input command a user can see in this channel, guild commands first."""
    scopes = [channel.guild_id, None] if channel.guild_id is not None else [None]
    for scope in scopes:
        for command in state.commands.get(scope, []):
            if _named(command, name, user.locale) and command.get("type", 1) == 1:
                _check_available(state, command, channel, user)
                return command
    known = sorted({shown_name(c, user.locale) for s in scopes for c in state.commands.get(s, [])})
    raise CommandNotFound(f"/{name} is not registered here; known: {', '.join(known) or 'none'}")


def _check_available(
    state: LoopbackState, command: dict[str, Any], channel: Channel, user: User
) -> None:
    """Discord hides commands from DMs or from members without the default permissions."""
    if channel.is_dm:
        contexts = command.get("contexts")
        if command.get("dm_permission") is False or (contexts is not None and 1 not in contexts):
            raise CommandNotFound(f"/{command['name']} is not available in DMs")
        return
    needed = command.get("default_member_permissions")
    if needed is not None:
        perms = member_permissions(state.guilds[channel.guild_id], user)  # type: ignore[index]
        if int(needed) & perms != int(needed):
            raise CommandNotFound(f"/{command['name']} needs permissions {needed} that "
                                  f"{user.name} does not have")


def build_data(
    state: LoopbackState,
    channel: Channel,
    user: User,
    path: list[str],
    options: dict[str, Any],
    *,
    focused: str | None = None,
) -> dict[str, Any]:
    """The `data` of a type 2 (or, with `focused`, type 4 autocomplete) interaction."""
    command = find_command(state, path[0], channel, user)
    node, chain = command, []
    locale = user.locale
    for word in path[1:]:
        sub = next((o for o in node.get("options") or []
                    if o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)
                    and _named(o, word, locale)), None)
        if sub is None:
            raise CommandNotFound(f"/{' '.join(path)}: no subcommand {word!r}; "
                                  f"choose from {_subcommands(node, locale)}")
        chain.append(sub)
        node = sub
    if _subcommands(node):
        raise CommandNotFound(f"/{' '.join(path)} needs a subcommand: "
                              f"{_subcommands(node, locale)}")
    resolved: dict[str, dict[str, Any]] = {}
    if focused is not None:
        [focused] = _registered(node, {focused: None}, locale)
    leaf = _leaf_options(state, channel, node, _registered(node, options, locale), resolved,
                         focused, locale)
    for sub in reversed(chain):
        leaf = [{"name": sub["name"], "type": sub["type"], "options": leaf}]
    data: dict[str, Any] = {"id": command["id"], "name": command["name"], "type": 1,
                            "options": leaf}
    if "guild_id" in command:
        data["guild_id"] = command["guild_id"]
    if resolved:
        data["resolved"] = resolved
    return data


def _subcommands(node: dict[str, Any], locale: str = "en-US") -> list[str]:
    return [shown_name(o, locale) for o in node.get("options") or []
            if o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)]


def _registered(node: dict[str, Any], given: dict[str, Any], locale: str) -> dict[str, Any]:
    """The typed options under the names the bot registered (a name the user's client shows
    in its language is the option's own name in the interaction)."""
    declared = [o for o in node.get("options") or []
                if o.get("type") not in (SUB_COMMAND, SUB_COMMAND_GROUP)]
    out: dict[str, Any] = {}
    for typed, value in given.items():
        option = next((o for o in declared if o["name"] == typed), None) \
            or next((o for o in declared if _named(o, typed, locale)), None)
        out[option["name"] if option is not None else typed] = value
    return out


def _leaf_options(
    state: LoopbackState,
    channel: Channel,
    node: dict[str, Any],
    given: dict[str, Any],
    resolved: dict[str, dict[str, Any]],
    focused: str | None,
    locale: str = "en-US",
) -> list[dict[str, Any]]:
    declared = {o["name"]: o for o in node.get("options") or []}
    unknown = set(given) - set(declared)
    if unknown:
        shown = sorted(shown_name(o, locale) for o in declared.values())
        raise BadOption(f"unknown option(s) {sorted(unknown)}; declared: {shown}")
    out = []
    for name, option in declared.items():
        if name not in given:
            if option.get("required") and name != focused and focused is None:
                raise BadOption(f"option {name!r} is required")
            continue
        if name == focused:
            out.append({"name": name, "type": option["type"], "value": str(given[name]),
                        "focused": True})
            continue
        value = _coerce(state, channel, option, given[name], resolved, locale)
        out.append({"name": name, "type": option["type"], "value": value})
    return out


def _coerce(
    state: LoopbackState,
    channel: Channel,
    option: dict[str, Any],
    raw: Any,
    resolved: dict[str, dict[str, Any]],
    locale: str = "en-US",
) -> Any:
    kind, name = option["type"], option["name"]
    if kind in (STRING, INTEGER, NUMBER):
        value = _scalar(kind, name, _choice_value(option, raw, locale))
        _check_range(option, value)
        return value
    if kind == BOOLEAN:
        text = str(raw).lower()
        if isinstance(raw, bool) or text in _TRUE | _FALSE:
            return raw if isinstance(raw, bool) else text in _TRUE
        raise BadOption(f"option {name!r} wants true or false, not {raw!r}")
    if kind in (USER, MENTIONABLE) and _find_user(state, raw) is not None:
        user = _find_user(state, raw)
        assert user is not None
        resolved.setdefault("users", {})[str(user.id)] = user_payload(user)
        guild = state.guilds.get(channel.guild_id or 0)
        if guild is not None and user.id in guild.member_ids:
            member = member_payload(guild, user, with_user=False)
            member["permissions"] = str(member_permissions(guild, user))
            resolved.setdefault("members", {})[str(user.id)] = member
        return str(user.id)
    if kind in (ROLE, MENTIONABLE):
        role = next((r for g in state.guilds.values() for r in g.roles
                     if raw in (r.name, r.id, str(r.id))), None)
        if role is not None:
            resolved.setdefault("roles", {})[str(role.id)] = role_payload(role)
            return str(role.id)
    if kind == CHANNEL:
        target = _find_channel(state, raw)
        if target is not None:
            payload = channel_payload(state, target) | {"permissions": "0"}
            resolved.setdefault("channels", {})[str(target.id)] = payload
            return str(target.id)
    if kind == ATTACHMENT and isinstance(raw, tuple) and len(raw) == 2:
        upload = state.upload(raw[0], raw[1])
        resolved.setdefault("attachments", {})[str(upload.id)] = attachment_payload(upload)
        return str(upload.id)
    raise BadOption(f"option {name!r} (type {kind}) cannot take {raw!r}")


def _choice_value(option: dict[str, Any], raw: Any, locale: str = "en-US") -> Any:
    choices = option.get("choices") or []
    if not choices:
        return raw
    for choice in choices:
        if raw == choice["value"] or str(raw) == str(choice["value"]) \
                or (isinstance(raw, str) and _named(choice, raw, locale)):
            return choice["value"]
    names = [shown_name(c, locale) for c in choices]
    raise BadOption(f"option {option['name']!r} must be one of {names}, not {raw!r}")


def _scalar(kind: int, name: str, raw: Any) -> Any:
    try:
        if kind == STRING:
            return str(raw)
        if isinstance(raw, bool):
            raise ValueError
        return int(raw) if kind == INTEGER else float(raw)
    except (TypeError, ValueError):
        wanted = "an integer" if kind == INTEGER else "a number"
        raise BadOption(f"option {name!r} wants {wanted}, not {raw!r}") from None


def _check_range(option: dict[str, Any], value: Any) -> None:
    name = option["name"]
    if isinstance(value, str):
        low, high = option.get("min_length"), option.get("max_length")
        if (low is not None and len(value) < low) or (high is not None and len(value) > high):
            raise BadOption(f"option {name!r} must be {low}..{high} characters long")
        return
    low, high = option.get("min_value"), option.get("max_value")
    if (low is not None and value < low) or (high is not None and value > high):
        raise BadOption(f"option {name!r} must be between {low} and {high}, not {value}")


def _find_user(state: LoopbackState, raw: Any) -> User | None:
    raw = getattr(raw, "user", raw)
    if isinstance(raw, User):
        return raw
    return next((u for u in state.users.values() if raw in (u.name, u.id, str(u.id))), None)


def _find_channel(state: LoopbackState, raw: Any) -> Channel | None:
    raw = getattr(raw, "channel", raw)
    if isinstance(raw, Channel):
        return raw
    if isinstance(raw, str):
        return state.channel_by_name(raw) or state.channels.get(int(raw) if raw.isdigit() else 0)
    return state.channels.get(raw)
