"""What a user can click, pick or type: finding components and filling in modals.

A real user only sees enabled components on messages visible to them, and the Discord client
will not submit a select or modal that breaks its own limits; the driver refuses the same
things, so a test cannot do what no player could.
"""

from __future__ import annotations

from typing import Any

from loopback.errors import BadOption, ComponentNotFound
from loopback.models import Button, Message, Modal, Select
from loopback.payloads import member_payload, user_payload
from loopback.state import LoopbackState

LINK_STYLE = 5


def find_button(
    messages: list[Message],
    *,
    label: str | None = None,
    custom_id: str | None = None,
    emoji: str | None = None,
) -> tuple[Message, Button]:
    """The newest enabled button matching every given criterion, on the given messages."""
    if label is None and custom_id is None and emoji is None:
        raise ValueError("say which button: label=, custom_id= or emoji=")
    disabled = None
    for message in messages:
        for button in message.buttons():
            if (
                (label is None or button.label == label)
                and (custom_id is None or button.custom_id == custom_id)
                and (emoji is None or button.emoji == emoji)
            ):
                if button.style == LINK_STYLE:
                    raise ComponentNotFound(f"{button.label!r} is a link button; it opens a URL")
                if not button.disabled:
                    return message, button
                disabled = disabled or (message, button)
    wanted = ", ".join(f"{k}={v!r}" for k, v in
                       (("label", label), ("custom_id", custom_id), ("emoji", emoji)) if v)
    if disabled is not None:
        raise ComponentNotFound(f"button ({wanted}) is disabled on message {disabled[0].id}")
    raise ComponentNotFound(f"no button ({wanted}) is visible; visible buttons: "
                            f"{_visible_buttons(messages)}")


def _visible_buttons(messages: list[Message]) -> str:
    found = [f"{b.label or b.emoji!r}({b.custom_id})" for m in messages[:10] for b in m.buttons()]
    return ", ".join(found) or "none"


def find_select(
    messages: list[Message], *, custom_id: str | None = None, placeholder: str | None = None
) -> tuple[Message, Select]:
    for message in messages:
        for select in message.selects():
            if (custom_id is None or select.custom_id == custom_id) and (
                placeholder is None or select.placeholder == placeholder
            ):
                if select.disabled:
                    raise ComponentNotFound(f"select {select.custom_id!r} is disabled")
                return message, select
    seen = [s.placeholder or s.custom_id for m in messages[:10] for s in m.selects()]
    raise ComponentNotFound(f"no select (custom_id={custom_id!r}, placeholder={placeholder!r}) "
                            f"is visible; visible selects: {seen or 'none'}")


def select_data(
    state: LoopbackState, select: Select, values: list[Any], guild_id: int | None
) -> dict[str, Any]:
    """The interaction data of picking `values`; option labels are accepted for values."""
    if not select.min_values <= len(values) <= select.max_values:
        raise BadOption(f"select {select.custom_id!r} takes {select.min_values} to "
                        f"{select.max_values} values, not {len(values)}")
    data: dict[str, Any] = {"custom_id": select.custom_id, "component_type": select.type}
    if select.type == 3:
        picked = []
        for value in values:
            option = next((o for o in select.options if value in (o.value, o.label)), None)
            if option is None:
                raise BadOption(f"{value!r} is not an option of select {select.custom_id!r}; "
                                f"options: {[o.label for o in select.options]}")
            picked.append(option.value)
        data["values"] = picked
        return data
    users = [next((u for u in state.users.values()
                   if getattr(v, "name", v) in (u.name, u.id, str(u.id))), None) for v in values]
    if select.type == 5 and all(users):
        guild = state.guilds.get(guild_id or 0)
        resolved: dict[str, Any] = {"users": {str(u.id): user_payload(u) for u in users if u}}
        if guild is not None:
            resolved["members"] = {str(u.id): member_payload(guild, u, with_user=False)
                                   for u in users if u}
        data["values"] = [str(u.id) for u in users if u]
        data["resolved"] = resolved
        return data
    data["values"] = [str(v) for v in values]
    return data


def modal_submission(modal: Modal, fields: dict[str, Any]) -> list[dict[str, Any]]:
    """The `components` of a modal submit, mirroring the modal's rows and labels."""
    by_key = dict(fields)
    out: list[dict[str, Any]] = []
    used: set[str] = set()
    ids = iter(range(1, 1000))  # Discord numbers every component the bot left without an id

    def numbered(component: dict[str, Any], submitted: dict[str, Any]) -> dict[str, Any]:
        return {"type": submitted.pop("type"), "id": component.get("id") or next(ids),
                **submitted}

    for item in modal.components:
        if item.get("type") == 1:
            row_id = item.get("id") or next(ids)
            inner = item["components"][0]
            value = _field_value(inner, inner.get("label"), by_key, used)
            out.append({"type": 1, "id": row_id, "components": [numbered(inner, value)]})
        elif item.get("type") == 18:
            label_id = item.get("id") or next(ids)
            inner = item["component"]
            value = _field_value(inner, item.get("label"), by_key, used)
            out.append({"type": 18, "id": label_id, "component": numbered(inner, value)})
        else:
            next(ids)  # a text display is numbered too, and not submitted
    unused = set(by_key) - used
    if unused:
        known = [f.custom_id for f in modal.fields()]
        raise BadOption(f"modal {modal.custom_id!r} has no field(s) {sorted(unused)}; "
                        f"fields: {known}")
    return out


def _field_value(
    component: dict[str, Any], label: str | None, given: dict[str, Any], used: set[str]
) -> dict[str, Any]:
    custom_id = component["custom_id"]
    key = custom_id if custom_id in given else label if label in given else None
    if key is not None:
        used.add(key)
    if component.get("type") != 4:
        values = given.get(key, []) if key else []
        return {"type": component["type"], "custom_id": custom_id,
                "values": [values] if isinstance(values, str) else list(values)}
    value = str(given[key]) if key is not None else component.get("value") or ""
    if component.get("required", True) and not value:
        raise BadOption(f"modal field {custom_id!r} ({label}) is required")
    low, high = component.get("min_length"), component.get("max_length")
    if value and ((low and len(value) < low) or (high and len(value) > high)):
        raise BadOption(f"modal field {custom_id!r} must be {low or 0}..{high or 4000} long")
    return {"type": 4, "custom_id": custom_id, "value": value}

