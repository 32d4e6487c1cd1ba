"""Discord's limits without any client: each broken rule gives Discord's 50035 body and path."""

from __future__ import annotations

from typing import Any

import pytest

from loopback.clock import Clock
from loopback.commands import parse_invocation
from loopback.errors import BadOption, DiscordError, FormErrors
from loopback.faults import Faults
from loopback.limits import check_commands, check_message, check_modal


def button(custom_id: str, label: str = "Go", **extra: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id, **extra}


def row(*items: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(items)}


def select(custom_id: str, n: int = 2, **extra: Any) -> dict[str, Any]:
    options = [{"label": f"o{i}", "value": f"v{i}"} for i in range(n)]
    return {"type": 3, "custom_id": custom_id, "options": options, **extra}


def errors_of(payload: dict[str, Any], check: Any = check_message) -> dict[str, Any]:
    form = FormErrors()
    check(payload, form)
    with pytest.raises(DiscordError) as raised:
        form.raise_if_any()
    assert (raised.value.status, raised.value.code) == (400, 50035)
    assert raised.value.body()["message"] == "Invalid Form Body"
    return raised.value.errors or {}


def codes(errors: dict[str, Any], path: str) -> list[str]:
    node = errors
    for part in path.split("."):
        node = node[part]
    return [e["code"] for e in node["_errors"]]


def test_full_grid_of_five_rows_of_five_buttons_is_allowed() -> None:
    grid = [row(*(button(f"b{r}{c}") for c in range(5))) for r in range(5)]
    form = FormErrors()
    check_message({"content": "x" * 2000, "components": grid}, form)
    assert form.errors == {}


def test_sixth_row_and_sixth_button_are_rejected() -> None:
    six_rows = [row(button(f"b{r}")) for r in range(6)]
    assert codes(errors_of({"components": six_rows}), "components") == ["BASE_TYPE_MAX_LENGTH"]
    wide = [row(*(button(f"b{c}") for c in range(6)))]
    assert codes(errors_of({"components": wide}), "components.0.components") == [
        "BASE_TYPE_MAX_LENGTH"]


def test_a_select_must_have_its_row_to_itself() -> None:
    errors = errors_of({"components": [row(select("s"), button("b"))]})
    assert codes(errors, "components.0.components.1") == ["COMPONENT_LAYOUT_WIDTH_EXCEEDED"]


def test_custom_id_label_and_duplicates() -> None:
    errors = errors_of({"components": [row(button("x" * 101), button("a", "L" * 81),
                                           button("a"))]})
    assert codes(errors, "components.0.components.0.custom_id") == ["BASE_TYPE_MAX_LENGTH"]
    assert codes(errors, "components.0.components.1.label") == ["BASE_TYPE_MAX_LENGTH"]
    assert codes(errors, "components.0.components.2.custom_id") == [
        "COMPONENT_CUSTOM_ID_DUPLICATED"]


def test_select_options_and_values() -> None:
    errors = errors_of({"components": [row(select("s", 26)), row(select("t", 2, max_values=3))]})
    assert codes(errors, "components.0.components.0.options") == ["BASE_TYPE_MAX_LENGTH"]
    assert codes(errors, "components.1.components.0.max_values") == [
        "SELECT_COMPONENT_TOO_MANY_MAX_VALUES"]


def test_content_and_embed_limits() -> None:
    assert codes(errors_of({"content": "x" * 2001}), "content") == ["BASE_TYPE_MAX_LENGTH"]
    embed = {"title": "t" * 257, "description": "d" * 4097,
             "fields": [{"name": "n", "value": "v"}] * 26, "footer": {"text": "f" * 2049}}
    errors = errors_of({"embeds": [embed]})
    for path in ("embeds.0.title", "embeds.0.description", "embeds.0.fields",
                 "embeds.0.footer.text"):
        assert codes(errors, path) == ["BASE_TYPE_MAX_LENGTH"], path
    big = [{"description": "d" * 4000}, {"description": "d" * 2001}]
    assert codes(errors_of({"embeds": big}), "embeds") == ["MAX_EMBED_SIZE_EXCEEDED"]
    assert "BASE_TYPE_MAX_LENGTH" in codes(errors_of({"embeds": [{"title": "t"}] * 11}), "embeds")
    field = {"fields": [{"name": "n" * 257, "value": "v" * 1025}]}
    errors = errors_of({"embeds": [field]})
    assert codes(errors, "embeds.0.fields.0.value") == ["BASE_TYPE_MAX_LENGTH"]


def test_layout_components_count_nested_ones() -> None:
    texts = [{"type": 10, "content": "x"} for _ in range(41)]
    errors = errors_of({"flags": 1 << 15, "components": [{"type": 17, "components": texts}]})
    assert codes(errors, "components") == ["BASE_TYPE_MAX_LENGTH"]
    assert "content" in errors_of({"flags": 1 << 15, "content": "hi", "components": texts[:1]})


def test_modal_limits() -> None:
    text = {"type": 4, "custom_id": "w", "label": "Word", "style": 1}
    rows = [row({**text, "custom_id": f"w{i}"}) for i in range(6)]
    errors = errors_of({"title": "T" * 46, "custom_id": "m", "components": rows}, check_modal)
    assert codes(errors, "title") == ["BASE_TYPE_MAX_LENGTH"]
    assert codes(errors, "components") == ["BASE_TYPE_MAX_LENGTH"]


def test_command_names_must_be_lowercase_and_short() -> None:
    bad = [{"name": "Table", "description": "x"}, {"name": "a" * 33, "description": "x"}]
    errors = errors_of(bad, check_commands)  # type: ignore[arg-type]
    assert codes(errors, "0.name") == ["APPLICATION_COMMAND_INVALID_NAME"]
    assert codes(errors, "1.name") == ["APPLICATION_COMMAND_INVALID_NAME"]


def test_typed_commands_split_into_path_and_options() -> None:
    assert parse_invocation("/table status") == (["table", "status"], {})
    assert parse_invocation("sppoker start target:10") == (["sppoker", "start"], {"target": "10"})
    with pytest.raises(BadOption):
        parse_invocation("sppoker target:10 start")


def test_faults_are_used_up_in_order() -> None:
    faults = Faults()
    faults.add("POST", r"/messages$", 429, 2, retry_after=0.5)
    faults.add("*", r"/messages$", 503)
    assert faults.take("GET", "/channels/1/messages") is not None  # the "*" one
    first = faults.take("POST", "/channels/1/messages")
    assert first is not None and first.status == 429
    assert first.body()["retry_after"] == 0.5 and first.headers["Via"]
    assert faults.take("POST", "/channels/1/messages") is not None
    assert faults.take("POST", "/channels/1/messages") is None


def test_the_clock_only_goes_forward() -> None:
    with pytest.raises(ValueError):
        Clock().advance(-1)


def test_text_input_labels_in_both_modal_layouts() -> None:
    long_label = {"type": 4, "custom_id": "w", "label": "L" * 46, "style": 1}
    errors = errors_of({"title": "T", "custom_id": "m", "components": [
        row(long_label),
        {"type": 18, "label": "L" * 46, "component": {**long_label, "custom_id": "v",
                                                      "label": None}},
        {"type": 18, "label": "Pick", "component": select("s", 26)},
    ]}, check_modal)
    assert codes(errors, "components.0.components.0.label") == ["BASE_TYPE_MAX_LENGTH"]
    assert codes(errors, "components.1.label") == ["BASE_TYPE_MAX_LENGTH"]
    assert codes(errors, "components.2.component.options") == ["BASE_TYPE_MAX_LENGTH"]


def test_a_select_custom_id_is_limited_like_a_buttons() -> None:
    errors = errors_of({"components": [row(select("s" * 101))]})
    assert codes(errors, "components.0.components.0.custom_id") == ["BASE_TYPE_MAX_LENGTH"]
