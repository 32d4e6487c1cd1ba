"""The size and layout limits Discord enforces on what a bot sends.

Each check adds to a `FormErrors` so the bot receives the same 400 / code 50035 body, with
the same field paths, that Discord would answer; a bot that passes here fits on Discord.
"""

from __future__ import annotations

import re
from typing import Any

from loopback.errors import FormErrors

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_ROWS = 5
MAX_ROW_WIDTH = 5
MAX_V2_COMPONENTS = 40
MAX_V2_TEXT = 4000
MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
MAX_SELECT_OPTIONS = 25
IS_COMPONENTS_V2 = 1 << 15

ACTION_ROW, BUTTON, STRING_SELECT, TEXT_INPUT = 1, 2, 3, 4
SELECTS = frozenset({3, 5, 6, 7, 8})
SECTION, TEXT_DISPLAY, CONTAINER, LABEL = 9, 10, 17, 18
LINK_STYLE, PREMIUM_STYLE = 5, 6

_COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")


def check_message(payload: dict[str, Any], form: FormErrors) -> None:
    """Content, embeds and components of a message create or edit (absent keys are fine)."""
    v2 = bool((payload.get("flags") or 0) & IS_COMPONENTS_V2)
    form.max_length("content", payload.get("content"), MAX_CONTENT)
    embeds = payload.get("embeds") or []
    if v2 and payload.get("content"):
        form.add("content", "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                 "The 'content' field cannot be used when using MessageFlags.IS_COMPONENTS_V2")
    if v2 and embeds:
        form.add("embeds", "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                 "The 'embeds' field cannot be used when using MessageFlags.IS_COMPONENTS_V2")
    check_embeds(embeds, form)
    components = payload.get("components") or []
    if v2:
        check_v2_components(components, form)
    else:
        check_rows(components, form)


def check_embeds(embeds: list[dict[str, Any]], form: FormErrors) -> None:
    form.max_length("embeds", embeds, MAX_EMBEDS)
    total = 0
    for i, embed in enumerate(embeds):
        at = f"embeds.{i}"
        form.max_length(f"{at}.title", embed.get("title"), 256)
        form.max_length(f"{at}.description", embed.get("description"), 4096)
        fields = embed.get("fields") or []
        form.max_length(f"{at}.fields", fields, 25)
        for j, field in enumerate(fields):
            form.required(f"{at}.fields.{j}.name", field.get("name"))
            form.required(f"{at}.fields.{j}.value", field.get("value"))
            form.max_length(f"{at}.fields.{j}.name", field.get("name"), 256)
            form.max_length(f"{at}.fields.{j}.value", field.get("value"), 1024)
        footer = (embed.get("footer") or {}).get("text")
        author = (embed.get("author") or {}).get("name")
        form.max_length(f"{at}.footer.text", footer, 2048)
        form.max_length(f"{at}.author.name", author, 256)
        parts = [embed.get("title"), embed.get("description"), footer, author]
        parts += [f.get("name") for f in fields] + [f.get("value") for f in fields]
        total += sum(len(p) for p in parts if p)
    if total > MAX_EMBED_TOTAL:
        form.add("embeds", "MAX_EMBED_SIZE_EXCEEDED",
                 f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}")


def check_rows(components: list[dict[str, Any]], form: FormErrors) -> None:
    """Classic components: up to 5 action rows at the top level, nothing else."""
    form.max_length("components", components, MAX_ROWS)
    seen: set[str] = set()
    for i, row in enumerate(components):
        if row.get("type") != ACTION_ROW:
            form.add(f"components.{i}.type", "UNION_TYPE_CHOICES",
                     "Value of field \"type\" must be one of (1,).")
            continue
        check_action_row(row, f"components.{i}", form, seen)


def check_action_row(row: dict[str, Any], at: str, form: FormErrors, seen: set[str]) -> None:
    children = row.get("components") or []
    form.min_length(f"{at}.components", children, 1)
    form.max_length(f"{at}.components", children, MAX_ROW_WIDTH)
    has_select = any(c.get("type") in SELECTS for c in children)
    for j, child in enumerate(children):
        here = f"{at}.components.{j}"
        kind = child.get("type")
        if has_select and (len(children) > 1 and (kind not in SELECTS or j > 0)):
            form.add(here, "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                     "The specified component exceeds the maximum width")
        if kind == BUTTON:
            check_button(child, here, form, seen)
        elif kind in SELECTS:
            check_select(child, here, form, seen)
        else:
            form.add(f"{here}.type", "COMPONENT_TYPE_INVALID",
                     f"Component type {kind} is not valid in an action row of a message")


def check_custom_id(component: dict[str, Any], at: str, form: FormErrors, seen: set[str]) -> None:
    custom_id = component.get("custom_id")
    form.required(f"{at}.custom_id", custom_id)
    form.max_length(f"{at}.custom_id", custom_id, MAX_CUSTOM_ID)
    if custom_id:
        if custom_id in seen:
            form.add(f"{at}.custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED",
                     "Component custom id cannot be duplicated")
        seen.add(custom_id)


def check_button(button: dict[str, Any], at: str, form: FormErrors, seen: set[str]) -> None:
    style = button.get("style")
    if style not in (1, 2, 3, 4, 5, 6):
        form.add(f"{at}.style", "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6}.")
    form.max_length(f"{at}.label", button.get("label"), MAX_BUTTON_LABEL)
    if style == LINK_STYLE:
        form.required(f"{at}.url", button.get("url"))
        if button.get("custom_id"):
            form.add(f"{at}.custom_id", "BUTTON_COMPONENT_CUSTOM_ID_MUST_BE_ABSENT",
                     "A link button cannot have a custom id")
    elif style == PREMIUM_STYLE:
        form.required(f"{at}.sku_id", button.get("sku_id"))
    else:
        check_custom_id(button, at, form, seen)
    if style != PREMIUM_STYLE and not button.get("label") and not button.get("emoji"):
        form.add(at, "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
                 "A button must have a label or an emoji")


def check_select(select: dict[str, Any], at: str, form: FormErrors, seen: set[str]) -> None:
    check_custom_id(select, at, form, seen)
    form.max_length(f"{at}.placeholder", select.get("placeholder"), 150)
    low, high = select.get("min_values", 1), select.get("max_values", 1)
    if not 0 <= low <= 25:
        form.add(f"{at}.min_values", "NUMBER_TYPE_MAX", "int value should be between 0 and 25")
    if not 1 <= high <= 25:
        form.add(f"{at}.max_values", "NUMBER_TYPE_MAX", "int value should be between 1 and 25")
    if low > high:
        form.add(f"{at}.min_values", "SELECT_COMPONENT_MIN_VALUES_GREATER_THAN_MAX",
                 "min_values must be less than or equal to max_values")
    if select.get("type") != STRING_SELECT:
        return
    options = select.get("options") or []
    form.min_length(f"{at}.options", options, 1)
    form.max_length(f"{at}.options", options, MAX_SELECT_OPTIONS)
    if options and high > len(options):
        form.add(f"{at}.max_values", "SELECT_COMPONENT_TOO_MANY_MAX_VALUES",
                 "max_values must be less than or equal to the number of options")
    values: set[str] = set()
    for k, option in enumerate(options):
        here = f"{at}.options.{k}"
        form.required(f"{here}.label", option.get("label"))
        form.required(f"{here}.value", option.get("value"))
        form.max_length(f"{here}.label", option.get("label"), 100)
        form.max_length(f"{here}.value", option.get("value"), 100)
        form.max_length(f"{here}.description", option.get("description"), 100)
        if option.get("value") in values:
            form.add(f"{here}.value", "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                     "Select option values must be unique")
        values.add(option.get("value"))


def check_v2_components(components: list[dict[str, Any]], form: FormErrors) -> None:
    """Layout components: up to 40 in all (nested ones count), text up to 4000 characters."""
    seen: set[str] = set()
    count = 0
    text = 0

    def walk(items: list[dict[str, Any]], at: str) -> None:
        nonlocal count, text
        for i, item in enumerate(items):
            here = f"{at}.{i}"
            count += 1
            kind = item.get("type")
            if kind == ACTION_ROW:
                count += len(item.get("components") or [])
                check_action_row(item, here, form, seen)
                continue
            if kind == BUTTON:
                check_button(item, here, form, seen)
            elif kind in SELECTS:
                check_select(item, here, form, seen)
            elif kind == TEXT_DISPLAY:
                text += len(item.get("content") or "")
            if item.get("components"):
                walk(item["components"], f"{here}.components")
            if item.get("accessory"):
                walk([item["accessory"]], f"{here}.accessory")

    walk(components, "components")
    if count > MAX_V2_COMPONENTS:
        form.add("components", "BASE_TYPE_MAX_LENGTH",
                 f"Must be {MAX_V2_COMPONENTS} or fewer in length.")
    if text > MAX_V2_TEXT:
        form.add("components", "MAX_TEXT_DISPLAY_LENGTH_EXCEEDED",
                 f"Text display content must be {MAX_V2_TEXT} or fewer in length in total.")


def check_modal(modal: dict[str, Any], form: FormErrors) -> None:
    """A type 9 callback: title, custom id, and 1 to 5 rows or labels of inputs."""
    form.required("title", modal.get("title"))
    form.max_length("title", modal.get("title"), 45)
    form.required("custom_id", modal.get("custom_id"))
    form.max_length("custom_id", modal.get("custom_id"), MAX_CUSTOM_ID)
    components = modal.get("components") or []
    form.min_length("components", components, 1)
    form.max_length("components", components, 5)
    seen: set[str] = set()
    for i, item in enumerate(components):
        here = f"components.{i}"
        kind = item.get("type")
        if kind == ACTION_ROW:
            children = item.get("components") or []
            if len(children) != 1 or children[0].get("type") != TEXT_INPUT:
                form.add(f"{here}.components", "BASE_TYPE_BAD_LENGTH",
                         "An action row in a modal must hold exactly one text input")
                continue
            form.required(f"{here}.components.0.label", children[0].get("label"))
            check_text_input(children[0], f"{here}.components.0", form, seen)
        elif kind == LABEL:
            form.required(f"{here}.label", item.get("label"))
            form.max_length(f"{here}.label", item.get("label"), 45)
            form.max_length(f"{here}.description", item.get("description"), 100)
            inner = item.get("component") or {}
            if inner.get("type") == TEXT_INPUT:
                check_text_input(inner, f"{here}.component", form, seen)
            elif inner.get("type") in SELECTS:
                check_select(inner, f"{here}.component", form, seen)
            else:
                check_custom_id(inner, f"{here}.component", form, seen)
        elif kind != TEXT_DISPLAY:
            form.add(f"{here}.type", "COMPONENT_TYPE_INVALID",
                     f"Component type {kind} is not valid in a modal")


def check_text_input(field: dict[str, Any], at: str, form: FormErrors, seen: set[str]) -> None:
    check_custom_id(field, at, form, seen)
    form.max_length(f"{at}.label", field.get("label"), 45)
    form.max_length(f"{at}.placeholder", field.get("placeholder"), 100)
    form.max_length(f"{at}.value", field.get("value"), 4000)
    if field.get("style") not in (1, 2):
        form.add(f"{at}.style", "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")
    low, high = field.get("min_length"), field.get("max_length")
    if low is not None and not 0 <= low <= 4000:
        form.add(f"{at}.min_length", "NUMBER_TYPE_MAX", "int value should be between 0 and 4000")
    if high is not None and not 1 <= high <= 4000:
        form.add(f"{at}.max_length", "NUMBER_TYPE_MAX", "int value should be between 1 and 4000")


def check_commands(commands: list[dict[str, Any]], form: FormErrors) -> None:
    """A bulk overwrite: names, descriptions and option counts as Discord validates them."""
    form.max_length("", commands, 100)
    names: set[tuple[str, int]] = set()
    for i, command in enumerate(commands):
        kind = command.get("type", 1)
        key = (command.get("name", ""), kind)
        if key in names:
            form.add(f"{i}.name", "APPLICATION_COMMANDS_DUPLICATE_NAME",
                     f"Application command names must be unique: {key[0]}")
        names.add(key)
        if kind == 1:
            _check_command_like(command, str(i), form, depth=0)
        else:
            form.required(f"{i}.name", command.get("name"))
            form.max_length(f"{i}.name", command.get("name"), 32)


def _check_command_like(item: dict[str, Any], at: str, form: FormErrors, depth: int) -> None:
    name = item.get("name") or ""
    if not _COMMAND_NAME.match(name) or name != name.lower():
        form.add(f"{at}.name", "APPLICATION_COMMAND_INVALID_NAME",
                 f"Command name is invalid: {name!r}")
    form.required(f"{at}.description", item.get("description"))
    form.max_length(f"{at}.description", item.get("description"), 100)
    options = item.get("options") or []
    form.max_length(f"{at}.options", options, 25)
    for k, option in enumerate(options):
        here = f"{at}.options.{k}"
        if option.get("type") in (1, 2):
            if depth >= 2 or (option["type"] == 2 and depth >= 1):
                form.add(f"{here}.type", "APPLICATION_COMMAND_TOO_DEEP",
                         "Subcommands can be nested at most two levels deep")
            _check_command_like(option, here, form, depth + 1)
        else:
            _check_command_like({**option, "options": []}, here, form, depth + 1)
            form.max_length(f"{here}.choices", option.get("choices"), 25)
