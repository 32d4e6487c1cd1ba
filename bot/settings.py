"""The bot's settings, read once at start-up from the environment and an optional `.env` file.

A server owner configures the bot by environment variables or by a `.env` file beside it;
the environment wins so that a one-off `DEV_GUILD= ./dev run` can override the file.
Everything is checked here, before anything connects, and every problem is reported as one
sentence (`SettingsError`) that can be printed as-is to the person running the bot, instead
of a traceback from deep inside discord.py or sqlite.

The `.env` file's syntax (``KEY=VALUE`` lines, quotes, comments) is bot/env_file.py's; what
the keys mean and which values they may take is this module's.

>>> s = load_settings({"DEV_GUILD": "123", "LOG_LEVEL": "debug"}, env_file=None)
>>> s.dev_guild, s.log_level, s.dictionary
(123, 'DEBUG', 'en_US')
>>> load_settings({"DEV_GUILD": "my server"}, env_file=None)
Traceback (most recent call last):
...
bot.settings.SettingsError: DEV_GUILD must be a server ID (a positive whole number such as \
123456789012345678), not 'my server'.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from urllib.parse import urlsplit

from bot.env_file import EnvSyntaxError, parse_env_text

__all__ = [
    "DEFAULT_DATABASE",
    "DICTIONARY_TAG",
    "LOG_LEVELS",
    "PROJECT_ROOT",
    "Settings",
    "SettingsError",
    "installed_dictionaries",
    "load_settings",
    "parse_env_file",
]

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATABASE = PROJECT_ROOT / "data" / "dealers_choice.sqlite3"
DEFAULT_DICTIONARY = "en_US"
DEFAULT_LOG_LEVEL = "INFO"
DEFAULT_GLOBAL_RATE_LIMIT = 50  # Discord's requests a second for a bot, all shards together
DEFAULT_AI_DELAY = 0.4  # seconds an AI seat "thinks" before it moves, so people can follow
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")

# Enchant/hunspell tags: "en_US", "de_DE_frami", "en_GB-ise". Loose on purpose: the dictionary
# loader gives the precise error; this only catches values that cannot possibly be a tag (a
# path above all: bot/wordlists.py names files after the tag).
DICTIONARY_TAG = re.compile(r"[A-Za-z]{2,3}(?:[_-][A-Za-z0-9]+)*")
# Discord snowflakes are unsigned 64-bit, stored by sqlite as signed 64-bit.
_MAX_SNOWFLAKE = 2**63 - 1


class SettingsError(Exception):
    """A setting is missing or wrong; the message is one sentence fit to show a server owner."""


@dataclass(frozen=True)
class Settings:
    """Everything the bot reads from its environment, already validated.

    Frozen so that no part of the bot can change configuration behind another part's back.
    The token is left out of `repr` so that settings can be logged safely.
    """

    discord_token: str | None = field(default=None, repr=False)
    #: A SQLite file, or the ``postgresql://`` URL of a PostgreSQL database.
    database: Path | str = DEFAULT_DATABASE
    dictionary: str = DEFAULT_DICTIONARY
    dev_guild: int | None = None
    log_level: str = DEFAULT_LOG_LEVEL
    ai_delay: float = DEFAULT_AI_DELAY
    discord_api_base: str | None = None
    discord_gateway_url: str | None = None
    #: DATA_DIR, when set; see `data_dir`.
    data_dir_setting: Path | None = None
    #: SHARD_COUNT: the bot's shards in all (None: as Discord recommends, all in this process).
    shard_count: int | None = None
    #: SHARD_IDS: the shards this process runs (None: all of them).
    shard_ids: tuple[int, ...] | None = None
    #: GLOBAL_RATE_LIMIT: the bot's requests a second in all (Discord raises it for some bots).
    global_rate_limit: int = DEFAULT_GLOBAL_RATE_LIMIT
    #: WEB_URL: the servers' web page (`python -m web`) as people open it, for link buttons.
    web_url: str | None = None

    @property
    def data_dir(self) -> Path:
        """Where the bot keeps its files (the word lists' cache, the sandbox's database):
        DATA_DIR, else the SQLite file's folder, so that it is one place for an owner to
        back up or mount (the Docker image's /data volume); with PostgreSQL and no DATA_DIR,
        the project's data/."""
        if self.data_dir_setting is not None:
            return self.data_dir_setting
        if isinstance(self.database, Path):
            return self.database.parent
        return DEFAULT_DATABASE.parent

    def __repr__(self) -> str:
        # As the dataclass would write it, but a PostgreSQL URL's password is left out too.
        shown = {f.name: getattr(self, f.name) for f in fields(self) if f.repr}
        if isinstance(self.database, str):
            shown["database"] = _redacted(self.database)
        return f"Settings({', '.join(f'{key}={value!r}' for key, value in shown.items())})"


def installed_dictionaries() -> list[str]:
    """The dictionaries enchant can open on this host: the only ones DICTIONARY and a table's
    settings may name, since any other fails at the first deal rather than at start-up."""
    from engine.words import available_languages  # late: enchant is opened only when asked

    return available_languages()


def load_settings(
    environ: Mapping[str, str] | None = None,
    env_file: Path | None = Path(".env"),
    *,
    dictionaries: Sequence[str] | None = None,
) -> Settings:
    """Read and check the settings; `environ` defaults to the process environment.

    A relative `env_file` is looked up from the current directory (where `./dev run` starts
    the bot); a missing file is not an error because a `.env` is optional. Keys present in
    `environ` win over the file even when empty, so an empty variable can switch a file
    setting off. Empty values mean "not set" and fall back to the default. The dictionary
    must be one of `dictionaries` (default: those installed here).
    """
    values: dict[str, str] = {}
    if env_file is not None and env_file.exists():
        values.update(parse_env_file(env_file))
    values.update(os.environ if environ is None else environ)

    def get(key: str) -> str | None:
        raw = values.get(key)
        if raw is None:
            return None
        raw = raw.strip()
        return raw or None

    shard_count, shard_ids = _shards(get("SHARD_COUNT"), get("SHARD_IDS"), get("DATABASE"))
    return Settings(
        discord_token=get("DISCORD_TOKEN"),
        database=_database(get("DATABASE")),
        dictionary=_installed(
            _dictionary(get("DICTIONARY")),
            installed_dictionaries() if dictionaries is None else list(dictionaries),
            explicit=get("DICTIONARY") is not None,
        ),
        dev_guild=_dev_guild(get("DEV_GUILD")),
        log_level=_log_level(get("LOG_LEVEL")),
        ai_delay=_ai_delay(get("AI_DELAY")),
        discord_api_base=_url("DISCORD_API_BASE", get("DISCORD_API_BASE"), ("http", "https")),
        discord_gateway_url=_url("DISCORD_GATEWAY_URL", get("DISCORD_GATEWAY_URL"), ("ws", "wss")),
        data_dir_setting=_data_dir(get("DATA_DIR")),
        shard_count=shard_count,
        shard_ids=shard_ids,
        global_rate_limit=_global_rate_limit(get("GLOBAL_RATE_LIMIT")),
        web_url=_web_url(get("WEB_URL")),
    )


def parse_env_file(path: Path) -> dict[str, str]:
    """Parse a `.env` file, reporting the first bad line by number so it can be fixed quickly.

    Later lines override earlier ones, as a shell would do when sourcing the file.
    """
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise SettingsError(f"The settings file {path} is not UTF-8 text.") from None
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise SettingsError(f"The settings file {path} cannot be read ({reason}).") from None
    try:
        return parse_env_text(text)
    except EnvSyntaxError as exc:
        raise SettingsError(
            f"Line {exc.line} of the settings file {path} {exc.reason}.") from None


def _database(raw: str | None) -> Path | str:
    if raw is None:
        return DEFAULT_DATABASE
    scheme = raw.partition("://")[0].lower() if "://" in raw else ""
    if scheme in ("postgresql", "postgres"):
        try:
            parts = urlsplit(raw)
            _ = parts.port  # raises ValueError for a port that is not a number
        except ValueError:
            parts = None
        if parts is None or not (parts.hostname or "host=" in parts.query):
            raise SettingsError(
                "DATABASE must be a file path or a PostgreSQL URL such as "
                f"postgresql://user:password@host:5432/dealers_choice, not {_redacted(raw)!r}."
            )
        return raw
    if scheme:
        raise SettingsError(
            f"DATABASE must be a file path or a postgresql:// URL; {scheme}:// is not "
            "supported."
        )
    # Made absolute now so that a later change of directory cannot move the database.
    path = Path(raw).expanduser().absolute()
    if path.is_dir():
        raise SettingsError(
            f"DATABASE must be the path of a database file, but {path} is a directory."
        )
    return path


def _shards(count_raw: str | None, ids_raw: str | None,
            database: str | None) -> tuple[int | None, tuple[int, ...] | None]:
    """SHARD_COUNT and SHARD_IDS ("0,1" or "0-3"): which of the bot's shards run here."""
    if count_raw is None:
        if ids_raw is not None:
            raise SettingsError("SHARD_IDS needs SHARD_COUNT, the number of shards in all.")
        return None, None
    count = int(count_raw) if count_raw.isascii() and count_raw.isdigit() else 0
    if not 1 <= count <= 4096:
        raise SettingsError(
            f"SHARD_COUNT must be the number of the bot's shards, 1 to 4096, not {count_raw!r}."
        )
    if ids_raw is None:
        return count, None
    ids: list[int] = []
    try:
        for part in ids_raw.split(","):
            first, dash, last = part.strip().partition("-")
            ids.extend(range(int(first), int(last) + 1) if dash else [int(first)])
    except ValueError:
        ids = [-1]
    if not ids or any(not 0 <= shard < count for shard in ids) or len(set(ids)) != len(ids):
        raise SettingsError(
            f"SHARD_IDS must list shards from 0 to {count - 1} once each, such as 0,1 or "
            f"0-{count - 1}, not {ids_raw!r}."
        )
    if len(ids) < count and not (database or "").startswith(("postgresql:", "postgres:")):
        raise SettingsError(
            "SHARD_IDS runs only some of the shards in this process: the others' processes "
            "must share its database, so DATABASE must be a postgresql:// URL."
        )
    return count, tuple(sorted(ids))


def _data_dir(raw: str | None) -> Path | None:
    if raw is None:
        return None
    path = Path(raw).expanduser().absolute()
    if path.exists() and not path.is_dir():
        raise SettingsError(f"DATA_DIR must be a folder, but {path} is a file.")
    return path


def _redacted(url: str) -> str:
    """A URL without its password (settings are shown in errors and logs)."""
    from bot.store.drivers.postgres import redact_url  # late: the store is not needed to read

    return redact_url(url)


def _dictionary(raw: str | None) -> str:
    if raw is None:
        return DEFAULT_DICTIONARY
    if not DICTIONARY_TAG.fullmatch(raw):
        raise SettingsError(
            f"DICTIONARY must be a dictionary language tag such as en_US, not {raw!r}."
        )
    return raw


def _installed(tag: str, installed: list[str], *, explicit: bool) -> str:
    """The installed dictionary `tag` names (en_us and en-US find en_US), or one sentence
    that names the installed ones."""
    if tag in installed:
        return tag
    folded = {name.lower().replace("-", "_"): name for name in installed}
    match = folded.get(tag.lower().replace("-", "_"))
    if match is not None:
        return match
    what = f"DICTIONARY {tag}" if explicit else f"DICTIONARY is not set and the default {tag}"
    if not installed:
        return _fail(
            f"{what} is not installed, and no enchant dictionary is (on Debian: apt-get "
            "install libenchant-2-2 hunspell-en-us)."
        )
    names = ", ".join(sorted(installed))
    return _fail(
        f"{what} is not installed here; the installed dictionaries are {names} (set "
        "DICTIONARY to one of them, or install another, such as hunspell-de-de)."
    )


def _fail(message: str) -> str:
    raise SettingsError(message)


def _dev_guild(raw: str | None) -> int | None:
    if raw is None:
        return None
    guild = int(raw) if raw.isascii() and raw.isdigit() else 0
    if not 0 < guild <= _MAX_SNOWFLAKE:
        raise SettingsError(
            "DEV_GUILD must be a server ID (a positive whole number such as "
            f"123456789012345678), not {raw!r}."
        )
    return guild


def _global_rate_limit(raw: str | None) -> int:
    if raw is None:
        return DEFAULT_GLOBAL_RATE_LIMIT
    if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= 10_000:
        raise SettingsError("GLOBAL_RATE_LIMIT must be the bot's requests a second that Discord "
                            f"allows, a whole number such as 50, not {raw!r}.")
    return int(raw)


def _ai_delay(raw: str | None) -> float:
    if raw is None:
        return DEFAULT_AI_DELAY
    try:
        delay = float(raw)
    except ValueError:
        delay = -1.0
    if not 0 <= delay <= 30:
        raise SettingsError(f"AI_DELAY must be a number of seconds from 0 to 30, not {raw!r}.")
    return delay


def _log_level(raw: str | None) -> str:
    if raw is None:
        return DEFAULT_LOG_LEVEL
    level = raw.upper()
    if level == "WARN":
        level = "WARNING"
    if level not in LOG_LEVELS:
        choices = ", ".join(LOG_LEVELS[:-1]) + f" or {LOG_LEVELS[-1]}"
        raise SettingsError(f"LOG_LEVEL must be one of {choices}, not {raw!r}.")
    return level


def _web_url(raw: str | None) -> str | None:
    """WEB_URL without a trailing slash, so a page's path is added to it as it is."""
    checked = _url("WEB_URL", raw, ("http", "https"))
    return checked.rstrip("/") if checked else None


def _url(name: str, raw: str | None, schemes: tuple[str, ...]) -> str | None:
    if raw is None:
        return None
    try:
        parts = urlsplit(raw)
        ok = parts.scheme in schemes and bool(parts.hostname)
        _ = parts.port  # raises ValueError for a port that is not a number
    except ValueError:
        ok = False
    if not ok:
        starts = " or ".join(f"{scheme}://" for scheme in schemes)
        example = f"{schemes[0]}://127.0.0.1:8080" + ("/api/v10" if "http" in schemes else "")
        raise SettingsError(
            f"{name} must be a URL starting with {starts}, such as {example}, not {raw!r}."
        )
    return raw
