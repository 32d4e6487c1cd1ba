"""Every value a person can hand the bot is checked by the bot (bot/core/validation.py): each
declared range and set, the slash commands' schema read from the same declarations, stored
settings read through the same checks, and dictionary tags that never become paths."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

from bot import wordlists
from bot.core import validation
from bot.core.validation import (
    DICTIONARY,
    LOCALE,
    Bound,
    Flag,
    InvalidValue,
    OneOf,
    checked_settings,
    guild_setting,
    guild_settings,
    setting_is_valid,
)
from bot.present import i18n
from bot.settings import SettingsError, load_settings
from cogs.common import Option, Refused, refused_answer
from tests.support.commands import command_tree

BOUNDS = [value for value in vars(validation).values() if isinstance(value, Bound)]
RANGES = {  # what the README and the commands' descriptions promise
    "BUY_IN": (20, 100_000), "RED_DOG_BUY_IN": (5, 100_000), "MIN_BUY_IN": (1, 100_000),
    "ANTE": (1, 1000), "DEAL_ANTE": (0, 1000), "SMALL_BET": (1, 10_000),
    "BIG_BET": (1, 10_000), "SMALL_BLIND": (1, 10_000), "BIG_BLIND": (1, 10_000),
    "DRAW_FEE": (0, 100), "SPPOKER_TARGET": (1, 99), "DECLARE_SECONDS": (20, 600),
    "LAST_SECONDS": (5, 120), "AI_SKILL": (0, 2), "TURN_SECONDS": (20, 900),
    "POKENO_TARGET": (50, 2000), "POKENO_TURN_SECONDS": (30, 900),
    "GRANT": (-1_000_000, 1_000_000), "LOBBY_MINUTES": (1, 240),
    "STARTING_CHIPS": (0, 1_000_000), "DAILY_CHIPS": (1, 100_000),
    "TOURNAMENT_ROUNDS": (1, 20), "TOURNAMENT_SEATS": (2, 10),
}


def test_every_range_is_declared_as_promised() -> None:
    declared = {name: (value.low, value.high) for name, value in vars(validation).items()
                if isinstance(value, Bound)}
    assert declared == RANGES


@pytest.mark.parametrize("bound", BOUNDS, ids=lambda bound: f"{bound.name}{bound.low}")
def test_a_range_takes_its_ends_and_refuses_what_is_past_them(bound: Bound) -> None:
    for inside in (bound.low, bound.high, (bound.low + bound.high) // 2):
        assert bound.check(inside) == inside
    for outside in (bound.low - 1, bound.high + 1, -10**18, 10**18):
        with pytest.raises(InvalidValue) as refused:
            bound.check(outside)
        text = str(refused.value)
        assert f"**{bound.name}**" in text
        assert f"from {bound.low} to {bound.high}" in text and str(outside) in text


@pytest.mark.parametrize("bound", BOUNDS, ids=lambda bound: f"{bound.name}{bound.low}")
def test_a_range_takes_only_whole_numbers(bound: Bound) -> None:
    """Discord sends an integer option as a JSON integer; a crafted body may send anything."""
    for crafted in (True, False, float(bound.low), str(bound.low), None, [bound.low]):
        assert not bound.accepts(crafted)
        with pytest.raises(InvalidValue):
            bound.check(crafted)


def test_a_refused_value_is_quoted_short_and_as_what_it_is() -> None:
    with pytest.raises(InvalidValue) as refused:
        validation.BUY_IN.check("x" * 500)
    text = str(refused.value)
    assert "'xxxx" in text and len(text) < 200
    with pytest.raises(InvalidValue) as refused:
        validation.ANTE.check(-3)
    assert "-3 is not one" in str(refused.value)


def test_dictionaries_are_those_installed_by_tag_never_a_path() -> None:
    installed = validation.installed_dictionaries()
    assert "en_US" in installed
    for tag in installed:
        assert DICTIONARY.check(tag) == tag
    for crafted in ("../../etc/passwd", "/usr/share/hunspell/en_US", "en_US/../x", "xx_XX",
                    "", "en_us", 7, None):
        with pytest.raises(InvalidValue) as refused:
            DICTIONARY.check(crafted)
        assert "en_US" in str(refused.value)  # says what it takes


def test_locales_are_the_catalogues_languages() -> None:
    assert set(LOCALE.values()) == set(i18n.LOCALE_NAMES) == {"en", "sv"}
    assert LOCALE.check("sv") == "sv"
    for crafted in ("xx", "sv-SE", "SV", "../sv", 1):
        with pytest.raises(InvalidValue) as refused:
            LOCALE.check(crafted)
        assert "en, sv" in str(refused.value)


def test_a_set_is_judged_against_what_is_there_when_it_is_read() -> None:
    offered = {"a": "A"}
    choice = OneOf("thing", lambda: offered)
    assert choice.accepts("a") and not choice.accepts("b")
    offered["b"] = "B"
    assert choice.accepts("b")


def test_a_flag_is_a_bool() -> None:
    flag = Flag("call")
    assert flag.check(True) is True and flag.check(False) is False
    for crafted in (1, 0, "true", None):
        with pytest.raises(InvalidValue, match="true or false"):
            flag.check(crafted)


def test_a_refusal_names_the_option_as_the_readers_client_does() -> None:
    with pytest.raises(InvalidValue) as refused:
        validation.BUY_IN.check(-500)
    shown = refused.value.shown("insats")
    assert str(shown).startswith("**insats**") and shown.msgid == refused.value.text.msgid
    i18n.load()
    with i18n.using("sv"):
        answer = refused_answer(refused.value)
    assert answer.ephemeral and answer.content is not None
    assert "insats" in answer.content and "tar ett heltal från 20 till 100000" in answer.content


# --- the commands' schema is read from the declarations ---------------------------------------


def _command_tree() -> app_commands.CommandTree[Any]:
    """The slash commands as the bot registers them (bot.discord.app: the cogs)."""
    return command_tree()


def _parameters() -> list[tuple[str, app_commands.Parameter]]:
    found = []

    def walk(command: Any, path: str) -> None:
        if isinstance(command, app_commands.Group):
            for child in command.commands:
                walk(child, f"{path} {child.name}")
            return
        for parameter in command.parameters:
            found.append((f"{path} {parameter.name}", parameter))

    for command in _command_tree().get_commands():
        walk(command, f"/{command.name}")
    return found


CHECKED_TYPES = (discord.AppCommandOptionType.integer, discord.AppCommandOptionType.number,
                 discord.AppCommandOptionType.boolean)


def test_every_number_flag_and_menu_option_is_a_declared_check() -> None:
    """Discord's schema and the bot's check cannot disagree: every option Discord limits (a
    range, a menu) or types (a number, a flag) is an `Option`, whose schema comes from the
    same declaration its check reads."""
    parameters = _parameters()
    assert len(parameters) > 30
    limited = [(where, parameter) for where, parameter in parameters
               if parameter.type in CHECKED_TYPES or parameter.choices
               or parameter.min_value is not None or parameter.max_value is not None]
    assert len(limited) > 25
    for where, parameter in limited:
        option = parameter._Parameter__parent._annotation  # type: ignore[attr-defined]
        assert isinstance(option, Option), where
        check = option.check
        assert check.name == parameter.name, where
        if isinstance(check, Bound):
            assert (parameter.min_value, parameter.max_value) == (check.low, check.high)
        if isinstance(check, OneOf):
            values = list(check.values())
            assert [choice.value for choice in parameter.choices] == values[:25], where


def test_an_option_refuses_before_the_command_runs() -> None:
    option = Option(validation.ANTE)
    assert option.type is discord.AppCommandOptionType.integer
    assert (option.min_value, option.max_value) == (1, 1000) and option.choices is None
    assert asyncio.run(option.transform(None, 5)) == 5  # type: ignore[arg-type]
    with pytest.raises(Refused) as refused:
        asyncio.run(option.transform(None, 0))  # type: ignore[arg-type]
    assert refused.value.invalid.option == "ante"
    menu = Option(LOCALE)
    assert menu.type is discord.AppCommandOptionType.string and menu.min_value is None
    assert [(c.name, c.value) for c in menu.choices or []] == [("English", "en"),
                                                               ("Svenska", "sv")]


# --- settings: checked when stored, checked again when read -----------------------------------


class Settings:
    """A store's settings, as `Store.get_guild_setting` and `Store.guild_settings` give them."""

    def __init__(self, **stored: Any) -> None:
        self.stored = stored

    async def get_guild_setting(self, guild_id: int, key: str, default: Any = None) -> Any:
        return self.stored.get(key, default)

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        return dict(self.stored)


BROKEN = {"starting_chips": -1000, "daily_chips": 0, "dictionary": "../../etc/passwd",
          "lobby_minutes": 10**9, "locale": "xx"}


def test_settings_written_before_they_were_checked_read_as_their_defaults(
        caplog: pytest.LogCaptureFixture) -> None:
    store = Settings(**BROKEN)
    with caplog.at_level(logging.WARNING, logger="bot.core.validation"):
        for key in BROKEN:
            assert asyncio.run(guild_setting(store, 1, key, "default")) == "default"
        assert asyncio.run(guild_settings(store, 1)) == {}
    assert "starting_chips=-1000 is not valid" in caplog.text
    assert "'../../etc/passwd'" in caplog.text


def test_valid_settings_read_as_stored_and_missing_ones_as_the_default() -> None:
    store = Settings(starting_chips=0, daily_chips=50, dictionary="en_US", locale="sv",
                     lobby_minutes=240, something_else=[1])
    for key, value in store.stored.items():
        assert asyncio.run(guild_setting(store, 1, key, "default")) == value
    assert asyncio.run(guild_settings(store, 1)) == store.stored
    assert asyncio.run(guild_setting(Settings(), 1, "daily_chips", 100)) == 100
    assert setting_is_valid("something_else", object())  # not a setting of ours to judge


def test_a_change_of_settings_with_one_bad_value_is_refused_whole() -> None:
    assert checked_settings({"daily_chips": 50, "locale": "sv"}) == {"daily_chips": 50,
                                                                     "locale": "sv"}
    with pytest.raises(InvalidValue) as refused:
        checked_settings({"daily_chips": 50, "starting_chips": -1})
    assert refused.value.option == "starting_chips"


def test_the_bank_reads_its_settings_through_the_checks() -> None:
    from bot.core.chips import DEFAULT_DAILY, Bank

    class Store(Settings):
        starting_chips = 1000

    bank = Bank(Store(**BROKEN))  # type: ignore[arg-type]
    assert asyncio.run(bank.starting(1)) == 1000
    assert asyncio.run(bank.daily_amount(1)) == DEFAULT_DAILY
    fine = Bank(Store(starting_chips=0, daily_chips=7))  # type: ignore[arg-type]
    assert asyncio.run(fine.starting(1)) == 0 and asyncio.run(fine.daily_amount(1)) == 7


# --- tags never become paths; start-up settings refused with a sentence ----------------------


@pytest.mark.parametrize("lang", ["../../etc/passwd", "x/../../../../tmp/evil", "en_US/", "",
                                  "en US", "/etc/passwd"])
def test_the_word_lists_never_name_a_file_after_anything_but_a_tag(lang: str,
                                                                    tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="dictionary's language tag"):
        wordlists.load(lang, tmp_path)
    with pytest.raises(ValueError, match="dictionary's language tag"):
        wordlists.find_hunspell(lang)
    assert list(tmp_path.rglob("*")) == []
    assert not (tmp_path / "words" / f"words_{lang}.txt").resolve().exists()


def test_a_tag_is_still_a_tag() -> None:
    for tag in ("en_US", "de_DE_frami", "en_GB-ise", "sv"):
        assert wordlists.checked_tag(tag) == tag


@pytest.mark.parametrize(("key", "raw"), [("GLOBAL_RATE_LIMIT", "²"), ("GLOBAL_RATE_LIMIT", "0"),
                                          ("SHARD_COUNT", "²"), ("DEV_GUILD", "١٢٣"),
                                          ("AI_DELAY", "nan"), ("AI_DELAY", "inf"),
                                          ("DICTIONARY", "../../etc/passwd"),
                                          ("LOG_LEVEL", "loud")])
def test_a_wrong_start_up_setting_is_one_sentence_not_a_traceback(key: str, raw: str) -> None:
    with pytest.raises(SettingsError) as refused:
        load_settings({key: raw}, env_file=None, dictionaries=["en_US"])
    assert str(refused.value).startswith(key) and repr(raw) in str(refused.value)
