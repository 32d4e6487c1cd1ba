"""Request bodies checked against Discord's own JSON schemas (vendored by build.py).

A payload that the loopback accepted but Discord would refuse is a bug that only shows in
production; so every body the bot sends to an endpoint listed here is validated, and a
mismatch is answered as Discord answers it: 400, code 50035, with the error tree by field.

The schemas say what each field may hold (types, enums, lengths the spec knows); the limits
the spec leaves out (content 2,000, embed totals, 5 rows of 5) are in limits.py.

Each body is first run through the schema compiled to Python by fastjsonschema, about 16
times faster than jsonschema's interpreter (which took two thirds of a busy loopback's
CPU); only a body it refuses goes through jsonschema, whose errors say where and why as
Discord does. tests/loopback/test_conformance.py checks the two agree on every body it sends.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import fastjsonschema
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from jsonschema.exceptions import ValidationError  # type: ignore[import-untyped]

from loopback.errors import FormErrors

SCHEMA_FILE = Path(__file__).with_name("discord_requests.json")

# (method, route template as the loopback registers it under /api/v10) -> endpoint name.
ROUTES: dict[tuple[str, str], str] = {
    ("POST", "/channels/{channel_id}/messages"): "message_create",
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"): "message_edit",
    ("POST", "/users/@me/channels"): "dm_open",
    ("POST", "/interactions/{interaction_id}/{token}/callback"): "interaction_callback",
    ("POST", "/webhooks/{app_id}/{token}"): "followup_create",
    ("PATCH", "/webhooks/{app_id}/{token}/messages/{ref}"): "followup_edit",
    ("PUT", "/applications/{app_id}/commands"): "commands_overwrite",
    ("PUT", "/applications/{app_id}/guilds/{guild_id}/commands"): "guild_commands_overwrite",
    ("POST", "/channels/{channel_id}/threads"): "thread_create",
    ("POST", "/channels/{channel_id}/messages/{message_id}/threads"):
        "thread_create_from_message",
    ("PATCH", "/channels/{channel_id}"): "channel_edit",
    ("POST", "/guilds/{guild_id}/scheduled-events"): "scheduled_event_create",
    ("PATCH", "/guilds/{guild_id}/scheduled-events/{event_id}"): "scheduled_event_edit",
}
_UNIONS = ("oneOf", "anyOf")


@cache
def _document() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(SCHEMA_FILE.read_text())
    return document


@cache
def validator(endpoint: str) -> Draft202012Validator:
    """The compiled schema of one endpoint (KeyError for an endpoint not vendored)."""
    document = _document()
    schema = {**document["endpoints"][endpoint], "$defs": document["$defs"]}
    return Draft202012Validator(schema)


@cache
def fast_validator(endpoint: str) -> Callable[[Any], Any]:
    """The same schema as `validator`, compiled to Python: it only says yes or no (raising
    `fastjsonschema.JsonSchemaException` at the first error it meets)."""
    document = _document()
    compiled: Callable[[Any], Any] = fastjsonschema.compile(
        {**document["endpoints"][endpoint], "$defs": document["$defs"]})
    return compiled


def fast_accepts(endpoint: str, payload: Any) -> bool:
    try:
        fast_validator(endpoint)(payload)
    except fastjsonschema.JsonSchemaException:
        return False
    return True


def endpoints() -> list[str]:
    return sorted(_document()["endpoints"])


def endpoint_for(method: str, template: str) -> str | None:
    """The vendored endpoint a loopback route serves, if any."""
    return ROUTES.get((method.upper(), template))


def check_body(endpoint: str, payload: Any, form: FormErrors) -> None:
    """Add Discord-style field errors for everything in `payload` the schema refuses."""
    if fast_accepts(endpoint, payload):
        return
    for error in validator(endpoint).iter_errors(payload):
        for path, code, message in _explain(error):
            form.add(path, code, message)


def _dotted(error: ValidationError, *extra: Any) -> str:
    return ".".join(str(p) for p in (*error.absolute_path, *extra))


def _explain(error: ValidationError) -> list[tuple[str, str, str]]:
    """Discord's code and message for one schema error; unions report the branch that fits."""
    if error.validator in _UNIONS:
        return _explain_union(error)
    value = error.validator_value
    at = _dotted(error)
    match error.validator:
        case "maxLength" | "maxItems" | "maxProperties":
            return [(at, "BASE_TYPE_MAX_LENGTH", f"Must be {value} or fewer in length.")]
        case "minLength" | "minItems" | "minProperties":
            return [(at, "BASE_TYPE_MIN_LENGTH", f"Must be {value} or more in length.")]
        case "required":
            present = error.instance if isinstance(error.instance, dict) else {}
            return [(_dotted(error, name), "BASE_TYPE_REQUIRED", "This field is required")
                    for name in value if name not in present]
        case "maximum":
            return [(at, "NUMBER_TYPE_MAX", f"int value should be less than or equal to {value}.")]
        case "minimum":
            return [(at, "NUMBER_TYPE_MIN",
                     f"int value should be greater than or equal to {value}.")]
        case "enum" | "const":
            choices = value if isinstance(value, list) else [value]
            return [(at, "BASE_TYPE_CHOICES", f"Value must be one of {_set(choices)}.")]
        case "type":
            return [(at, _type_code(value), f"Value {error.instance!r} is not of type {value}.")]
        case "pattern":
            return [(at, "STRING_TYPE_REGEX", "String value did not match validation regex.")]
        case "uniqueItems":
            return [(at, "BASE_TYPE_UNIQUE", "Values must be unique.")]
    return [(at, "BASE_TYPE_INVALID", error.message)]


def _explain_union(error: ValidationError) -> list[tuple[str, str, str]]:
    """Component and callback unions are told apart by their `type` (or by being null):
    report the errors of the branch whose type matches, as Discord does, or that no type fits.
    """
    at = _dotted(error)
    branches: dict[int, list[ValidationError]] = {}
    for sub in error.context or []:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    if not branches:  # oneOf matched more than one branch: the schema's ambiguity, not a reject
        return []
    fitting = [subs for subs in branches.values()
               if not any(_wrong_kind(sub, error) for sub in subs)]
    if fitting:
        best = min(fitting, key=len)
        return [found for sub in best for found in _explain(sub)]
    consts = [sub.validator_value for subs in branches.values() for sub in subs
              if sub.validator == "const"]
    if consts and len(consts) == len(branches):
        return [(at, "BASE_TYPE_CHOICES", f"Value must be one of {_set(consts)}.")]
    kinds = sorted({v for subs in branches.values() for sub in subs
                    if list(sub.relative_path) == ["type"] and sub.validator == "enum"
                    for v in sub.validator_value})
    if kinds:
        listed = ", ".join(str(k) for k in kinds)
        return [(_dotted(error, "type"), "UNION_TYPE_CHOICES",
                 f'Value of field "type" must be one of ({listed}).')]
    return [(at, "BASE_TYPE_INVALID", error.message)]


def _wrong_kind(sub: ValidationError, parent: ValidationError) -> bool:
    """Whether a branch failed on what the value is (its JSON type, its `type` field, a
    constant) rather than on its contents."""
    depth = len(parent.absolute_path)
    relative = list(sub.absolute_path)[depth:]
    if not relative:
        if sub.validator in ("type", "const", "enum"):
            return True
        return sub.validator == "required" and "type" in sub.validator_value and (
            isinstance(sub.instance, dict) and "type" not in sub.instance)
    return relative == ["type"] and sub.validator in ("enum", "const", "type")


def _type_code(expected: Any) -> str:
    names = expected if isinstance(expected, list) else [expected]
    for name, code in (("integer", "NUMBER_TYPE_COERCE"), ("number", "NUMBER_TYPE_COERCE"),
                       ("string", "BASE_TYPE_STRING"), ("boolean", "BASE_TYPE_BOOLEAN"),
                       ("array", "BASE_TYPE_ARRAY"), ("object", "DICT_TYPE_CONVERT")):
        if name in names:
            return code
    return "BASE_TYPE_INVALID"


def _set(values: list[Any]) -> str:
    return "{" + ", ".join(str(v) for v in values) + "}"
