"""Every value a person can hand the bot, and what the bot accepts of it: one declaration per
option or setting, read by both Discord's schema and the bot's own check.

Discord's schema (an option's min and max, its choices) is a courtesy to the person typing:
a crafted interaction can carry any value, so the bot checks each one itself before anything
changes. Both read the same declaration here (`cogs/common.py` turns a `Bound` or a `OneOf`
into the option Discord shows, and its check runs on every value that arrives), so the two
cannot disagree. A refusal (`InvalidValue`) is a sentence that names the option and what it
accepts, fit to show the person privately.

Settings a server stored before they were checked (`starting_chips:-1000`, a dictionary
named by a path) are read through `guild_setting`: a stored value this module would refuse
today reads as the default, with a warning in the log, so no command crashes on it.

Discord-free, like the bank and the table service, which read settings through it.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from bot.core.table import DEFAULT_BUY_IN
from bot.present import i18n
from engine.chips.deal import STAKES
from engine.games.holdem_sppoker.rules import DEFAULTS as HOLDEM_DEFAULTS
from engine.games.red_dog.rules import DEFAULT_ANTE as RED_DOG_DEFAULT_ANTE
from engine.i18n import N_, Msg, msg

log = logging.getLogger(__name__)

__all__ = [
    "AI_SKILL", "ANTE", "BIG_BET", "BIG_BLIND", "BUY_IN", "CHICAGO_CALL", "DAILY_CHIPS",
    "DEAL_ANTE", "DECLARE_SECONDS", "DICTIONARY", "DRAW_FEE", "EXPORT", "FIXED_LIMIT",
    "GRANT", "HOLDEM_STAKES", "LAST_SECONDS", "LOBBY_MINUTES", "LOCALE", "MAX_GRANT",
    "MIN_BUY_IN", "OUT_TAKES_LOW", "POKENO_TARGET", "POKENO_TURN_SECONDS", "RED_DOG_ANTE",
    "RED_DOG_BUY_IN", "SETTINGS", "SMALL_BET", "SMALL_BLIND", "SPPOKER_TARGET",
    "STARTING_CHIPS", "TURN_SECONDS", "WEB", "WEB_ACCESS", "Bound", "Flag", "InvalidValue",
    "NoMoreThan", "OneOf",
    "checked_relations", "checked_settings", "guild_setting", "guild_settings",
    "installed_dictionaries", "setting_is_valid",
]


class InvalidValue(ValueError):
    """A value the bot refuses; `text` says which option and what it accepts. `other` is the
    second option a refusal of two values that do not go together names (a small bet above
    the big bet), as its `{other}`."""

    def __init__(self, option: str, text: Msg, *, other: str | None = None) -> None:
        super().__init__(text)
        self.option = option
        self.other = other
        self.text = text

    def shown(self, option_name: str, other_name: str | None = None) -> Msg:
        """The refusal with the options as the reader's client names them (Discord shows the
        option names in the reader's language: `buy_in` is `insats` in Swedish)."""
        params = {**self.text.params, "option": option_name}
        if self.other is not None:
            params["other"] = other_name or self.other
        return Msg(self.text.msgid, params)


@dataclass(frozen=True)
class Bound:
    """A whole-number option or setting and its range, both ends included."""

    name: str
    low: int
    high: int

    def accepts(self, value: object) -> bool:
        """An int in the range: never a bool, a float or a numeric string (Discord sends an
        integer option as a JSON integer; anything else was crafted)."""
        return (isinstance(value, int) and not isinstance(value, bool)
                and self.low <= value <= self.high)

    def check(self, value: object) -> int:
        if not self.accepts(value):
            raise InvalidValue(self.name, msg(
                "**{option}** takes a whole number from {low} to {high}; {value} is not one.",
                option=self.name, low=self.low, high=self.high, value=_shown(value)))
        assert isinstance(value, int)
        return value


@dataclass(frozen=True)
class OneOf:
    """A text option or setting whose value must be one of a set known when it is read (the
    dictionaries installed on this host, the languages the bot speaks). `values` maps each
    accepted value to the name a menu shows for it; it is called at each check, so a value
    is judged against what is there now, never against a list from the bot's start."""

    name: str
    values: Callable[[], Mapping[str, str]]

    def accepts(self, value: object) -> bool:
        return isinstance(value, str) and value in self.values()

    def check(self, value: object) -> str:
        if not self.accepts(value):
            accepted = ", ".join(sorted(self.values())) or "—"
            raise InvalidValue(self.name, msg(
                "**{option}** takes one of {accepted}; {value} is not one of them.",
                option=self.name, accepted=accepted, value=_shown(value)))
        assert isinstance(value, str)
        return value


@dataclass(frozen=True)
class Flag:
    """A yes-or-no option."""

    name: str

    def accepts(self, value: object) -> bool:
        return isinstance(value, bool)

    def check(self, value: object) -> bool:
        if not self.accepts(value):
            raise InvalidValue(self.name, msg(
                "**{option}** takes true or false; {value} is neither.",
                option=self.name, value=_shown(value)))
        assert isinstance(value, bool)
        return value


@dataclass(frozen=True)
class NoMoreThan:
    """Two options of one command where the first may not be more than the second: each is
    in its own range, but a small bet above the big bet, or a Red Dog ante above the buy-in
    (nobody could pay it), makes a table that cannot be dealt. `defaults` stand in for an
    option left out (the game's own defaults), so `small_bet:30` alone is judged against
    the big bet of 20 the table would play with. Checked when the command arrives, like each
    value, so a refused pair opens nothing."""

    smaller: Bound
    larger: Bound
    defaults: Mapping[str, int]

    def check(self, options: Mapping[str, object]) -> None:
        small = options.get(self.smaller.name)
        large = options.get(self.larger.name)
        if small is None and large is None:
            return  # both the game's defaults, which go together
        small = self.defaults[self.smaller.name] if small is None else small
        large = self.defaults[self.larger.name] if large is None else large
        if isinstance(small, int) and isinstance(large, int) and small > large:
            raise InvalidValue(self.smaller.name, msg(
                "**{option}** ({value}) can't be more than **{other}** ({limit}): choose a "
                "smaller {option} or a larger {other}.",
                option=self.smaller.name, value=small, other=self.larger.name, limit=large),
                other=self.larger.name)


def checked_relations(options: Mapping[str, object], relations: tuple[NoMoreThan, ...]) -> None:
    """Every pair of a command's options that must go together, checked; the first refused
    raises (the caller answers it and opens nothing)."""
    for relation in relations:
        relation.check(options)


def _shown(value: object, limit: int = 40) -> str:
    """A refused value as the refusal quotes it: a number as it is, anything else as Python
    writes it (quotes show a text for the text it is), clipped. A parameter of a `Msg`, it is
    data: the bot makes it inert where the refusal is rendered (`bot.present.i18n.render`)."""
    text = str(value) if isinstance(value, int | float) and not isinstance(value, bool) \
        else repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --- dictionaries and languages -------------------------------------------------------------


@functools.cache
def installed_dictionaries() -> tuple[str, ...]:
    """The dictionary tags enchant can open on this host (read once: a dictionary package
    installed later needs a restart, as the word finder's lists do)."""
    from engine.words import available_languages  # late: enchant is opened only when asked

    return tuple(available_languages())


def _dictionaries() -> dict[str, str]:
    return {tag: tag for tag in installed_dictionaries()}


def _locales() -> dict[str, str]:
    return dict(i18n.LOCALE_NAMES)


# --- the declarations: every option's range, in one place -----------------------------------

MAX_GRANT = 1_000_000

BUY_IN = Bound("buy_in", 20, 100_000)
RED_DOG_BUY_IN = Bound("buy_in", 5, 100_000)  # Red Dog's ante is 1 chip: small stacks play
MIN_BUY_IN = Bound("min_buy_in", 1, 100_000)
ANTE = Bound("ante", 1, 1000)  # Red Dog's: its one ante is what a player pays to play
DEAL_ANTE = Bound("ante", 0, 1000)  # the fixed-limit games' (0: no ante)
SMALL_BET = Bound("small_bet", 1, 10_000)
BIG_BET = Bound("big_bet", 1, 10_000)
SMALL_BLIND = Bound("small_blind", 1, 10_000)
BIG_BLIND = Bound("big_blind", 1, 10_000)
DRAW_FEE = Bound("draw_fee", 0, 100)
SPPOKER_TARGET = Bound("target", 1, 99)
DECLARE_SECONDS = Bound("declare_seconds", 20, 600)  # the whole table's declaring clock
LAST_SECONDS = Bound("last_seconds", 5, 120)  # the last person to declare
OUT_TAKES_LOW = Flag("out_takes_low")
AI_SKILL = Bound("ai_skill", 0, 2)
TURN_SECONDS = Bound("turn_seconds", 20, 900)
POKENO_TARGET = Bound("target", 50, 2000)
POKENO_TURN_SECONDS = Bound("turn_seconds", 30, 900)
GRANT = Bound("amount", -MAX_GRANT, MAX_GRANT)
LOBBY_MINUTES = Bound("lobby_minutes", 1, 240)
STARTING_CHIPS = Bound("starting_chips", 0, 1_000_000)
DAILY_CHIPS = Bound("daily_chips", 1, 100_000)
DICTIONARY = OneOf("dictionary", _dictionaries)
LOCALE = OneOf("locale", _locales)
# Who sees the server's web page (issue 25): nobody (every page of the server is "not
# found"), its members once logged in with Discord, or anyone with the link.
WEB_ACCESS = {"off": N_("Off"), "members": N_("Members only"), "public": N_("Public")}
WEB = OneOf("web", lambda: WEB_ACCESS)
# A tournament's (issue 26): its format, the rounds of a Swiss, the players at a full table.
TOURNAMENT_FORMATS = {"swiss": N_("Swiss"), "elimination": N_("single elimination"),
                      "round_robin": N_("round robin")}
TOURNAMENT_FORMAT = OneOf("format", lambda: TOURNAMENT_FORMATS)
TOURNAMENT_ROUNDS = Bound("rounds", 1, 20)
TOURNAMENT_SEATS = Bound("seats", 2, 10)
CHICAGO_CALL = Flag("call")
EXPORT = Flag("export")

# The pairs that must go together, with the defaults the engines play when one is left out.
FIXED_LIMIT = (NoMoreThan(SMALL_BET, BIG_BET, STAKES),)
HOLDEM_STAKES = (NoMoreThan(SMALL_BLIND, BIG_BLIND, HOLDEM_DEFAULTS),
                 NoMoreThan(BIG_BLIND, SMALL_BET, HOLDEM_DEFAULTS),
                 NoMoreThan(SMALL_BET, BIG_BET, HOLDEM_DEFAULTS))
RED_DOG_ANTE = (NoMoreThan(ANTE, RED_DOG_BUY_IN,
                           {"ante": RED_DOG_DEFAULT_ANTE, "buy_in": DEFAULT_BUY_IN}),)

Check = Bound | OneOf | Flag
SETTINGS: dict[str, Check] = {
    check.name: check
    for check in (LOBBY_MINUTES, STARTING_CHIPS, DAILY_CHIPS, DICTIONARY, LOCALE, WEB)
}
"""The server settings `/table settings` changes, each with the check its value must pass."""


# --- stored settings --------------------------------------------------------------------------


def setting_is_valid(key: str, value: object) -> bool:
    """Whether a stored setting's value is one `/table settings` accepts today (a key this
    module does not know is the caller's business, and passes)."""
    check = SETTINGS.get(key)
    return check is None or check.accepts(value)


class SettingsStore(Protocol):
    async def get_guild_setting(self, guild_id: int, key: str,
                                default: Any = None) -> Any: ...

    async def guild_settings(self, guild_id: int) -> dict[str, Any]: ...


_MISSING = object()


async def guild_setting(store: SettingsStore, guild_id: int, key: str, default: Any) -> Any:
    """A server's setting as stored, or `default` when it never set one or the stored value
    is one the bot would refuse today (written before settings were checked: it must not
    crash every command that reads it; a warning in the log says which)."""
    value = await store.get_guild_setting(guild_id, key, _MISSING)
    if value is _MISSING:
        return default
    if not setting_is_valid(key, value):
        log.warning("server %s: the stored setting %s=%r is not valid; using %r instead",
                    guild_id, key, value, default)
        return default
    return value


async def guild_settings(store: SettingsStore, guild_id: int) -> dict[str, Any]:
    """Every setting the server changed whose stored value is valid (see `guild_setting`);
    the others are left out, so the caller shows their defaults."""
    kept: dict[str, Any] = {}
    for key, value in (await store.guild_settings(guild_id)).items():
        if setting_is_valid(key, value):
            kept[key] = value
        else:
            log.warning("server %s: the stored setting %s=%r is not valid; showing its default",
                        guild_id, key, value)
    return kept


def checked_settings(changes: Mapping[str, object]) -> dict[str, Any]:
    """The settings a `/table settings` asks to change, each checked; the first refused one
    raises, so a command with one bad value changes nothing."""
    return {key: SETTINGS[key].check(value) for key, value in changes.items()}
