"""Errors the loopback answers with, shaped as Discord shapes them, and the driver's own errors.

discord.py picks its exception class from the HTTP status (403 -> Forbidden, 404 -> NotFound,
other 4xx -> HTTPException) and reads `code`, `message` and `errors` from the JSON body, so
both must match what Discord sends for the bot to react as it would in production.
"""

from __future__ import annotations

from typing import Any


class DiscordError(Exception):
    """One error answer: HTTP status plus Discord's JSON error body."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        *,
        errors: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{status} (code {code}): {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.headers = headers or {}
        self.extra = extra or {}

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.errors:
            body["errors"] = self.errors
        return body | self.extra


class FormErrors:
    """Collects field errors and raises them together as Discord's 50035 "Invalid Form Body".

    >>> form = FormErrors()
    >>> form.add("components.0.components", "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
    >>> form.errors["components"]["0"]["components"]["_errors"][0]["code"]
    'BASE_TYPE_MAX_LENGTH'
    """

    def __init__(self, prefix: str = "") -> None:
        self.prefix = prefix
        self.errors: dict[str, Any] = {}

    def add(self, path: str, code: str, message: str) -> None:
        node = self.errors
        full = f"{self.prefix}.{path}" if self.prefix else path
        for part in filter(None, full.split(".")):
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def max_length(self, path: str, value: Any, limit: int) -> None:
        if value is not None and len(value) > limit:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def min_length(self, path: str, value: Any, limit: int) -> None:
        if value is not None and len(value) < limit:
            self.add(path, "BASE_TYPE_MIN_LENGTH", f"Must be {limit} or more in length.")

    def required(self, path: str, value: Any) -> None:
        if value is None or value == "":
            self.add(path, "BASE_TYPE_REQUIRED", "This field is required")

    def raise_if_any(self) -> None:
        if self.errors:
            raise DiscordError(400, 50035, "Invalid Form Body", errors=self.errors)


def unknown(kind: str) -> DiscordError:
    """Discord's 404 for a missing object of the given kind."""
    codes = {
        "Application": 10002,
        "Channel": 10003,
        "Guild": 10004,
        "Member": 10007,
        "Message": 10008,
        "User": 10013,
        "Webhook": 10015,
        "interaction": 10062,
        "application command": 10063,
    }
    return DiscordError(404, codes[kind], f"Unknown {kind}")


def unauthorized() -> DiscordError:
    return DiscordError(401, 0, "401: Unauthorized")


def cannot_dm() -> DiscordError:
    return DiscordError(403, 50007, "Cannot send messages to this user")


def cannot_edit_others() -> DiscordError:
    return DiscordError(403, 50005, "Cannot edit a message authored by another user")


def already_acknowledged() -> DiscordError:
    return DiscordError(400, 40060, "Interaction has already been acknowledged.")


def invalid_webhook_token() -> DiscordError:
    return DiscordError(401, 50027, "Invalid Webhook Token")


def empty_message() -> DiscordError:
    return DiscordError(400, 50006, "Cannot send an empty message")


def too_large() -> DiscordError:
    return DiscordError(413, 40005, "Request entity too large")


def route_not_found() -> DiscordError:
    return DiscordError(404, 0, "404: Not Found")


def method_not_allowed() -> DiscordError:
    return DiscordError(405, 0, "405: Method Not Allowed")


class LoopbackError(Exception):
    """Base of the driver's errors: the test asked for something a user could not do."""


class ComponentNotFound(LoopbackError, LookupError):
    """No visible, enabled component matched (a real user would have nothing to click)."""


class CommandNotFound(LoopbackError, LookupError):
    """The slash command is not registered where the user typed it, or its options are wrong."""


class BadOption(LoopbackError, ValueError):
    """A slash command option a real Discord client would not let the user submit."""


class ModalNotOpen(LoopbackError):
    """The bot has not opened a modal for this user (or it was already submitted)."""


class BotNotConnected(LoopbackError):
    """No bot session has identified on the gateway, so nothing could be delivered."""


class InteractionFailed(LoopbackError):
    """The bot did not acknowledge the interaction in time; Discord shows "interaction failed"."""

    def __init__(self, message: str, result: Any) -> None:
        super().__init__(message)
        self.result = result
