"""Sessions in signed cookies: who is logged in and which servers they are a member of.

Nothing is written anywhere: the cookie carries the Discord user id and the ids of the
servers Discord listed for them at log-in (`identify guilds`), with an expiry, signed with
WEB_SECRET (HMAC-SHA256). A cookie changed by its holder, or signed with another key, or
expired, is no session. The same signing carries the OAuth2 `state` between /login and the
callback.

>>> signer = Signer("s" * 32)
>>> value = signer.sign({"u": 1}, ttl=60, now=1000.0)
>>> signer.unsign(value, now=1001.0)
{'u': 1}
>>> signer.unsign(value, now=2000.0) is None
True
>>> signer.unsign(value[:-2] + "xx", now=1001.0) is None
True
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from dataclasses import dataclass
from typing import Any

__all__ = ["SESSION_COOKIE", "SESSION_SECONDS", "STATE_COOKIE", "Session", "Signer"]

SESSION_COOKIE = "dc_session"
STATE_COOKIE = "dc_oauth"
SESSION_SECONDS = 12 * 3600  # a membership read at log-in is trusted this long
STATE_SECONDS = 600  # time to come back from Discord's authorization page


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Signer:
    """Signs small JSON values into cookie-safe text, with an expiry inside the signature."""

    def __init__(self, secret: str) -> None:
        self._key = hashlib.sha256(b"dealers-choice web\0" + secret.encode("utf-8")).digest()

    def _mac(self, payload: str) -> str:
        return _b64(hmac.new(self._key, payload.encode("ascii"), hashlib.sha256).digest())

    def sign(self, value: dict[str, Any], *, ttl: float, now: float | None = None) -> str:
        moment = time.time() if now is None else now
        payload = _b64(json.dumps({"v": value, "exp": int(moment + ttl)},
                                  separators=(",", ":")).encode("utf-8"))
        return f"{payload}.{self._mac(payload)}"

    def unsign(self, text: str | None, *, now: float | None = None) -> dict[str, Any] | None:
        """The value signed into `text`, or None: forged, damaged or expired."""
        if not text or text.count(".") != 1:
            return None
        payload, mac = text.split(".")
        try:
            if not hmac.compare_digest(mac, self._mac(payload)):
                return None
            data = json.loads(_unb64(payload))
        except (ValueError, UnicodeError):
            return None
        moment = time.time() if now is None else now
        if not isinstance(data, dict) or not isinstance(data.get("v"), dict) \
                or not isinstance(data.get("exp"), int) or data["exp"] < moment:
            return None
        value: dict[str, Any] = data["v"]
        return value


@dataclass(frozen=True)
class Session:
    """A logged-in person: their Discord id and name, and the servers they are in."""

    user_id: int
    name: str
    guilds: frozenset[int]

    def to_json(self) -> dict[str, Any]:
        # Ids as text: a JSON reader in a browser would round a snowflake.
        return {"u": str(self.user_id), "n": self.name, "g": [str(g) for g in self.guilds]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Session | None:
        try:
            return cls(int(data["u"]), str(data.get("n") or ""),
                       frozenset(int(g) for g in data.get("g") or ()))
        except (KeyError, TypeError, ValueError):
            return None
