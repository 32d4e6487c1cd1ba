"""Reading requests and writing answers the way discord.py expects them.

The client parses a body as JSON only when Content-Type is exactly `application/json`
(aiohttp's json_response adds a charset, and login then breaks), and sends attachments as
multipart with a `payload_json` part and `files[n]` parts.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from aiohttp import BodyPartReader, web

from loopback.errors import DiscordError
from loopback.state import UploadedFile

_FILE_FIELD = re.compile(r"^files\[(\d+)\]$")
# What a handler learned about a request, for the middleware's records.
BODY_KEY = web.RequestKey("loopback_body", object)
FILES_KEY = web.RequestKey("loopback_files", list)
INTERACTION_KEY = web.RequestKey("loopback_interaction", object)
# The server's check of a parsed body against Discord's schemas; raises DiscordError.
BodyCheck = Callable[[web.Request, Any], None]
BODY_CHECK_KEY: web.AppKey[BodyCheck] = web.AppKey("loopback_body_check")


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None
                  ) -> web.Response:
    return web.Response(body=json.dumps(data).encode(), status=status,
                        content_type="application/json", headers=headers)


def no_content() -> web.Response:
    return web.Response(status=204)


def error_response(error: DiscordError) -> web.Response:
    return json_response(error.body(), error.status, error.headers)


async def read_body(request: web.Request) -> tuple[Any, list[UploadedFile]]:
    """The JSON payload and uploaded files of a request, JSON or multipart alike."""
    if request.content_type == "multipart/form-data":
        payload: Any = None
        files: list[UploadedFile] = []
        reader = await request.multipart()
        async for part in reader:
            if not isinstance(part, BodyPartReader):
                continue  # a nested multipart: discord.py sends none
            name = part.name or ""
            data = await part.read()
            if name == "payload_json":
                payload = json.loads(data)
            elif match := _FILE_FIELD.match(name):
                files.append(UploadedFile(int(match.group(1)), part.filename or name,
                                          bytes(data), part.headers.get("Content-Type")))
        request[BODY_KEY] = payload
        request[FILES_KEY] = [f.filename for f in files]
        _check(request, payload)
        return payload, files
    raw = await request.read()
    if not raw:
        return None, []
    try:
        payload = json.loads(raw)
    except ValueError:
        raise DiscordError(400, 50109, "The request body contains invalid JSON.") from None
    request[BODY_KEY] = payload
    _check(request, payload)
    return payload, []


def _check(request: web.Request, payload: Any) -> None:
    check = request.app.get(BODY_CHECK_KEY)
    if check is not None and payload is not None:
        check(request, payload)


def snowflake(request: web.Request, name: str) -> int:
    value = request.match_info[name]
    if not value.isdigit():
        raise DiscordError(400, 50035, "Invalid Form Body", errors={name: {"_errors": [
            {"code": "NUMBER_TYPE_COERCE", "message": f"Value \"{value}\" is not snowflake."}]}})
    return int(value)
