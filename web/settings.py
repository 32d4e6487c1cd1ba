"""The web process's settings, read once at start-up from the environment and a `.env` file,
like the bot's (`bot.settings`): the same `DATABASE`, and the web's own keys.

Everything is checked here, before anything listens, so a wrong value stops the process with
one sentence saying what to fix (exit code 2, as the bot does) instead of a traceback at the
first request.

>>> s = load_web_settings({"WEB_PORT": "9000", "WEB_URL": "https://cards.example.org/"},
...                       env_file=None)
>>> s.port, s.url
(9000, 'https://cards.example.org')
>>> load_web_settings({"DATABASE": "/srv/dc/bot.sqlite3"}, env_file=None).data_dir.as_posix()
'/srv/dc'
>>> load_web_settings({"WEB_PORT": "web"}, env_file=None)
Traceback (most recent call last):
...
bot.settings.SettingsError: WEB_PORT must be a TCP port, a whole number from 1 to 65535, \
not 'web'.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from bot.settings import (
    DEFAULT_DATABASE,
    SettingsError,
    _data_dir,
    _database,
    _log_level,
    _url,
    parse_env_file,
)

__all__ = ["DEFAULT_DISCORD_API", "DEFAULT_DISCORD_AUTHORIZE", "WebSettings",
           "load_web_settings"]

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8080
DEFAULT_DISCORD_API = "https://discord.com/api/v10"
DEFAULT_DISCORD_AUTHORIZE = "https://discord.com/oauth2/authorize"
MIN_SECRET = 32  # characters: a session cookie is only as safe as the key that signs it
DEFAULT_RATE = 20.0  # requests a second a client may keep up (a page and its pictures)
DEFAULT_BURST = 60  # requests a client may make at once before it is slowed down


@dataclass(frozen=True)
class WebSettings:
    """What the web process reads from its environment, already checked; frozen, and the
    secrets left out of `repr` so the settings can be logged."""

    database: Path | str = DEFAULT_DATABASE
    #: DATA_DIR, as the bot's: where the bot keeps the word lists a word game's table needs.
    data_dir_setting: Path | None = None
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    #: WEB_URL without a trailing slash: the public address links and OAuth2 redirects use.
    url: str | None = None
    secret: str | None = field(default=None, repr=False)
    client_id: str | None = None
    client_secret: str | None = field(default=None, repr=False)
    discord_api: str = DEFAULT_DISCORD_API
    discord_authorize: str = DEFAULT_DISCORD_AUTHORIZE
    log_level: str = "INFO"
    #: WEB_RATE and WEB_BURST: each client's token bucket (requests a second, and at once).
    rate: float = DEFAULT_RATE
    burst: int = DEFAULT_BURST
    #: WEB_WORKERS: processes serving the one port (SO_REUSEPORT), each with its own
    #: read-only store and caches; a page costs CPU in Python, so one a core.
    workers: int = 1

    @property
    def data_dir(self) -> Path:
        """The bot's data folder (`bot.settings.Settings.data_dir`'s rule): DATA_DIR, else
        the SQLite file's folder, else the project's data/."""
        if self.data_dir_setting is not None:
            return self.data_dir_setting
        if isinstance(self.database, Path):
            return self.database.parent
        return DEFAULT_DATABASE.parent

    @property
    def can_log_in(self) -> bool:
        """Whether "Log in with Discord" can work: a `members` server's pages need it."""
        return bool(self.secret and self.client_id and self.client_secret)

    def base_url(self, fallback: str) -> str:
        """The public base URL: WEB_URL, else the address the request came to."""
        return self.url or fallback.rstrip("/")


def load_web_settings(environ: Mapping[str, str] | None = None,
                      env_file: Path | None = Path(".env")) -> WebSettings:
    """Read and check the web's settings (`environ` defaults to the process environment,
    which wins over the `.env` file, as for the bot)."""
    values: dict[str, str] = {}
    if env_file is not None and env_file.exists():
        values.update(parse_env_file(env_file))
    values.update(os.environ if environ is None else environ)

    def get(key: str) -> str | None:
        raw = (values.get(key) or "").strip()
        return raw or None

    url = _url("WEB_URL", get("WEB_URL"), ("http", "https"))
    secret = get("WEB_SECRET")
    if secret is not None and len(secret) < MIN_SECRET:
        raise SettingsError(f"WEB_SECRET must be at least {MIN_SECRET} characters long (a "
                            "random string, such as the output of `openssl rand -hex 32`).")
    client_id = get("DISCORD_CLIENT_ID")
    if client_id is not None and not (client_id.isascii() and client_id.isdigit()):
        raise SettingsError("DISCORD_CLIENT_ID must be your application's id (a whole number, "
                            f"shown under OAuth2 in the Developer Portal), not {client_id!r}.")
    return WebSettings(
        database=_database(get("DATABASE")),
        data_dir_setting=_data_dir(get("DATA_DIR")),
        host=get("WEB_HOST") or DEFAULT_HOST,
        port=_port(get("WEB_PORT")),
        url=url.rstrip("/") if url else None,
        secret=secret,
        client_id=client_id,
        client_secret=get("DISCORD_CLIENT_SECRET"),
        discord_api=(_url("DISCORD_API", get("DISCORD_API"), ("http", "https"))
                     or DEFAULT_DISCORD_API).rstrip("/"),
        discord_authorize=_url("DISCORD_OAUTH_AUTHORIZE", get("DISCORD_OAUTH_AUTHORIZE"),
                               ("http", "https")) or DEFAULT_DISCORD_AUTHORIZE,
        log_level=_log_level(get("LOG_LEVEL")) if get("LOG_LEVEL") else "INFO",
        rate=_positive("WEB_RATE", get("WEB_RATE"), DEFAULT_RATE),
        burst=int(_positive("WEB_BURST", get("WEB_BURST"), DEFAULT_BURST)),
        workers=_workers(get("WEB_WORKERS")),
    )


def _port(raw: str | None) -> int:
    if raw is None:
        return DEFAULT_PORT
    if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= 65535:
        raise SettingsError(f"WEB_PORT must be a TCP port, a whole number from 1 to 65535, "
                            f"not {raw!r}.")
    return int(raw)


def default_workers() -> int:
    """One worker a core this process may run on (a container's CPU set, not the host's)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _workers(raw: str | None) -> int:
    if raw is None:
        return default_workers()
    if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= 64:
        raise SettingsError(f"WEB_WORKERS must be a number of processes from 1 to 64, such as "
                            f"{default_workers()} (this machine's cores), not {raw!r}.")
    return int(raw)


def _positive(name: str, raw: str | None, default: float) -> float:
    if raw is None:
        return default
    try:
        value = float(raw)
    except ValueError:
        value = 0.0
    if not 0 < value <= 100_000:
        raise SettingsError(f"{name} must be a positive number of requests, such as "
                            f"{default:g}, not {raw!r}.")
    return value

