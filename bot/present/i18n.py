"""The bot's languages: one message catalogue per language, and who reads in which.

Catalogues are gettext `.po` files under `data/locale/<lang>/LC_MESSAGES/<domain>.po`, read
with Babel at start-up (no compiled `.mo`: the text in git is what runs). English is the
source language (the msgids), Swedish (`sv`) a translation. Every user-facing text goes
through here:

- `t("…{x}…", x=…)` (and `t_n` for plurals) renders a bot sentence in the current locale;
- `render(text)` renders an engine `Msg` (engine/i18n.py) or a plain string in it, the
  names and typed words among its parameters made inert (`bot.present.inert`);
- the current locale is a context variable: `using(locale)` sets it for a block (the
  narrator writes each audience's messages in its language), `for_interaction` for an
  interaction's answer (the user's Discord locale when we speak it, else the server's).

Which language: a server's `/table settings locale:` (English by default) for everything in
its channels; a person's own Discord locale (sent with every interaction) for what only they
see (DMs, ephemeral answers) when it is one we have, else the server's.

The catalogues are written by `python -m bot.catalogues extract` (`bot.catalogues`).
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import re
from collections.abc import Iterable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

from bot.present.inert import TEXT_LIMIT, clean, inert
from engine.i18n import Msg
from engine.i18n import render as render_text

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[2]
LOCALE_DIR = ROOT / "data" / "locale"
DEFAULT_LOCALE = "en"
LOCALES = ("en", "sv")
LOCALE_NAMES = {"en": "English", "sv": "Svenska"}
# Discord's locales (interaction.locale, guild_locale) to ours.
DISCORD_LOCALES = {"en-US": "en", "en-GB": "en", "sv-SE": "sv"}

_current: contextvars.ContextVar[str] = contextvars.ContextVar("locale", default=DEFAULT_LOCALE)
_user_locales: dict[int, str] = {}
_guild_locales: dict[int, str] = {}


# --- catalogues -------------------------------------------------------------------------


class Catalogue:
    """One language's entries from all its domains: msgid -> msgstr (or plural forms)."""

    def __init__(self, locale: str) -> None:
        self.locale = locale
        self.singular: dict[str, str] = {}
        self.plurals: dict[str, tuple[str, ...]] = {}
        self._patterns: list[tuple[re.Pattern[str], list[str], str]] | None = None
        self._found: dict[str, str | None] = {}

    def load(self, directory: Path) -> None:
        from babel.messages.pofile import read_po

        for path in sorted(directory.glob("*.po")):
            with path.open("rb") as handle:
                catalogue = read_po(handle, locale=self.locale)
            for message in catalogue:
                if not message.id or message.fuzzy:
                    continue
                if isinstance(message.id, tuple | list):
                    forms = tuple(str(s) for s in message.string or ())
                    if forms and all(forms):
                        self.plurals[str(message.id[0])] = forms
                elif message.string:
                    self.singular[str(message.id)] = str(message.string)

    def gettext(self, msgid: str) -> str:
        """A msgid's translation (itself when there is none)."""
        return self.singular.get(msgid, msgid)

    def lookup(self, text: str) -> str:
        """A plain string: a msgid, or English once filled in from one (see `_by_pattern`)."""
        found = self.singular.get(text)
        if found is not None:
            return found
        return self._by_pattern(text) or text

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        forms = self.plurals.get(singular)
        if not forms:
            return singular if n == 1 else plural
        return forms[0] if n == 1 or len(forms) == 1 else forms[1]

    def _by_pattern(self, text: str) -> str | None:
        """A plain English string that was once a `Msg` (read back from a snapshot as text):
        found by the template it fills, and its fields translated in turn."""
        if not self.singular or "{" in text or len(text) > 400:
            return None
        if text in self._found:
            return self._found[text]
        result = None
        for pattern, literals, template in self.patterns():
            if not _in_order(literals, text):  # cheap, and spares the regex its backtracking
                continue
            match = pattern.fullmatch(text)
            if match is None:
                continue
            values = {key.rsplit("__", 1)[0]: self.lookup(value)
                      for key, value in match.groupdict().items()}
            result = self.singular[template].format_map(_Keep(values))
            break
        if len(self._found) > 10_000:
            self._found.clear()
        self._found[text] = result
        return result

    def patterns(self) -> list[tuple[re.Pattern[str], list[str], str]]:
        if self._patterns is None:
            found = []
            for msgid in self.singular:
                literals = [piece for piece in re.split(r"\{\w+\}", msgid) if piece]
                literal = "".join(literals)
                if "{" not in msgid or sum(c.isalpha() for c in literal) < 6:
                    continue
                seen: dict[str, int] = {}
                pieces = []
                for piece in re.split(r"(\{\w+\})", msgid):
                    if re.fullmatch(r"\{\w+\}", piece):
                        name = piece[1:-1]
                        seen[name] = seen.get(name, 0) + 1
                        group = name if seen[name] == 1 else f"{name}__{seen[name]}"
                        pieces.append(f"(?P<{group}>.+?)")
                    else:
                        pieces.append(re.escape(piece))
                found.append((re.compile("".join(pieces), re.S), literals, msgid, len(literal)))
            found.sort(key=lambda item: -item[3])  # the most specific template first
            self._patterns = [(pattern, literals, msgid)
                              for pattern, literals, msgid, _ in found]
        return self._patterns


def _in_order(literals: list[str], text: str) -> bool:
    at = 0
    for literal in literals:
        at = text.find(literal, at)
        if at < 0:
            return False
        at += len(literal)
    return True


class _Keep(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


_catalogues: dict[str, Catalogue] = {}


_more: list[Path] = []  # the catalogue folders of plug-ins outside data/locale


def load(directory: Path = LOCALE_DIR, *, more: Iterable[Path] | None = None) -> None:
    """Read every language's catalogues (at start-up; again after they change in tests):
    `directory`'s, then those in `more`, the folders of games installed from outside the
    repository, whose catalogues live in their own packages (`bot.plugins.install_plugins`
    gives them; left out, the folders last given are read again)."""
    if more is not None:
        _more[:] = more
    _catalogues.clear()
    for locale in LOCALES:
        catalogue = Catalogue(locale)
        for root in (directory, *_more):
            folder = root / locale / "LC_MESSAGES"
            if locale != DEFAULT_LOCALE and folder.is_dir():
                catalogue.load(folder)
        _catalogues[locale] = catalogue
    translate_command.cache_clear()


def catalogue(locale: str | None = None) -> Catalogue:
    if not _catalogues:
        load()
    return _catalogues.get(locale or _current.get()) or _catalogues[DEFAULT_LOCALE]


# --- the current locale -------------------------------------------------------------------


def normalize(locale: object) -> str | None:
    """Ours for a Discord locale (`discord.Locale` or its value), a tag or a name; else None."""
    value = str(getattr(locale, "value", locale) or "")
    if value in LOCALES:
        return value
    if value in DISCORD_LOCALES:
        return DISCORD_LOCALES[value]
    short = value.replace("_", "-").split("-")[0].lower()
    return short if short in LOCALES else None


def current() -> str:
    return _current.get()


@contextlib.contextmanager
def using(locale: str | None) -> Iterator[str]:
    """Render in `locale` within the block (the default when None)."""
    token = _current.set(normalize(locale) or DEFAULT_LOCALE)
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def set_current(locale: str | None) -> str:
    """Set the locale for the rest of this task (an interaction's handler)."""
    value = normalize(locale) or DEFAULT_LOCALE
    _current.set(value)
    return value


def guild_locale(guild_id: int | None) -> str:
    """A server's language (`/table settings locale:`), as last read or set."""
    if guild_id is None:
        return DEFAULT_LOCALE
    return _guild_locales.get(guild_id, DEFAULT_LOCALE)


def remember_guild_locale(guild_id: int, locale: str | None) -> None:
    _guild_locales[guild_id] = normalize(locale) or DEFAULT_LOCALE


def user_locale(user_id: int | None) -> str | None:
    """The Discord locale a person's last interaction came with, if it is one of ours."""
    return None if user_id is None else _user_locales.get(user_id)


def remember_user_locale(user_id: int, locale: object) -> None:
    ours = normalize(locale)
    if ours is None:
        _user_locales.pop(user_id, None)
    else:
        _user_locales[user_id] = ours


def reader_locale(user_id: int | None, fallback: str) -> str:
    """What one person reads in private: their own locale, else the server's."""
    return user_locale(user_id) or fallback


async def load_guild_locale(store: Any, guild_id: int | None) -> str:
    """A server's language from the store (cached: settings change through `remember`)."""
    if guild_id is None:
        return DEFAULT_LOCALE
    if guild_id not in _guild_locales:
        value = await store.get_guild_setting(guild_id, "locale", DEFAULT_LOCALE)
        remember_guild_locale(guild_id, value)
    return _guild_locales[guild_id]


async def for_interaction(interaction: Any, *, private: bool = True) -> str:
    """Set (and return) the locale this interaction's answers are in: for a private answer,
    the person's Discord locale when we speak it, else the server's setting."""
    user = getattr(interaction, "user", None)
    if user is not None:
        remember_user_locale(user.id, getattr(interaction, "locale", None))
    store = getattr(getattr(interaction, "client", None), "store", None)
    server = DEFAULT_LOCALE
    guild_id = getattr(interaction, "guild_id", None)
    if store is not None:
        server = await load_guild_locale(store, guild_id)
    else:
        server = guild_locale(guild_id)
    mine = user_locale(user.id) if (private and user is not None) else None
    return set_current(mine or server)


# --- rendering ------------------------------------------------------------------------------


def t(msgid: str, /, **params: Any) -> str:
    """A bot sentence in the current locale; its `{fields}` filled (word fields translated)."""
    cat = catalogue()
    return render_text(Msg(msgid, params), cat.gettext, cat.ngettext)


def t_n(singular: str, plural: str, n: int, /, **params: Any) -> str:
    cat = catalogue()
    return render_text(Msg(singular, params, plural=plural, n=n), cat.gettext, cat.ngettext)


def render(text: Any, locale: str | None = None, *, markdown: bool = True) -> str:
    """An engine text (a `Msg`, or a plain string looked up as one) in the locale.

    A `Msg`'s plain-string parameters are data (names, card labels, typed words; see
    engine/i18n.py) and come out inert (`bot.present.inert`): escaped for a message's markdown, or,
    with `markdown=False` (a button or menu label, a modal's words, a picture: places that
    show text as it is), only cleaned of control characters. The sentence's own formatting
    (its template's `**bold**`) stays. A plain string is the engine's own text (or one read
    back from an old snapshot) and is only translated.

    `t` does not do this: its parameters are the bot's own formatting (bold, timestamps,
    mentions built from ids), and a name given to it is made inert where it is passed."""
    if text is None:
        return ""
    cat = catalogue(locale)
    if isinstance(text, Msg):
        return text.render(cat.gettext, cat.ngettext, _shown if markdown else _cleaned)
    if cat.locale == DEFAULT_LOCALE:
        return str(text)
    return cat.lookup(str(text)) if text else ""


def _shown(value: str) -> str:
    return inert(value, limit=TEXT_LIMIT, squeeze=False)


def _cleaned(value: str) -> str:
    return clean(value, limit=TEXT_LIMIT, squeeze=False)


def render_lines(texts: list[Any], locale: str | None = None) -> list[str]:
    return [render(text, locale) for text in texts]


# --- slash commands --------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def translate_command(text: str, locale: str, kind: str) -> str | None:
    """A slash command's name, description or choice in `locale`, or None (Discord then
    shows the English). Names are entries of their own (`command name: …`), since Discord
    allows only lower-case words without spaces there."""
    cat = catalogue(locale)
    if cat.locale == DEFAULT_LOCALE:
        return None
    key = f"{kind}: {text}" if kind in ("name", "group") else text
    found = cat.singular.get(key)
    return found if found and found != text else None
