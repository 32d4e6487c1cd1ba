"""Settings: defaults, the .env file, the environment winning, and one-sentence errors."""

from __future__ import annotations

import dataclasses
import doctest
from pathlib import Path

import pytest

from bot.settings import (
    DEFAULT_DATABASE,
    PROJECT_ROOT,
    Settings,
    SettingsError,
    installed_dictionaries,
    load_settings,
    parse_env_file,
)

# Dictionaries of some other host: these tests are about reading settings, not this host.
ELSEWHERE = ("de_DE", "en_GB", "en_US", "fr_FR", "sv_SE")


def env_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / ".env"
    path.write_text(text, encoding="utf-8")
    return path


def error_for(environ: dict[str, str]) -> str:
    with pytest.raises(SettingsError) as caught:
        load_settings(environ, env_file=None)
    message = str(caught.value)
    # Fit to print to a server owner: one line, a full stop, no traceback jargon.
    assert "\n" not in message and message.endswith(".")
    assert "Traceback" not in message and "Error" not in message
    return message


def test_defaults():
    settings = load_settings({}, env_file=None)
    assert settings == Settings(
        discord_token=None,
        database=PROJECT_ROOT / "data" / "dealers_choice.sqlite3",
        dictionary="en_US",
        dev_guild=None,
        log_level="INFO",
        discord_api_base=None,
        discord_gateway_url=None,
    )
    assert DEFAULT_DATABASE.is_absolute()
    assert Path(__file__).resolve().parents[2] == PROJECT_ROOT


def test_every_setting_from_the_environment(tmp_path):
    settings = load_settings(
        {
            "DISCORD_TOKEN": "abc.def.ghi",
            "DATABASE": str(tmp_path / "bot.sqlite3"),
            "DICTIONARY": "en_GB",
            "DEV_GUILD": "123456789012345678",
            "LOG_LEVEL": "warn",
            "DISCORD_API_BASE": "http://127.0.0.1:8080/api/v10",
            "DISCORD_GATEWAY_URL": "ws://127.0.0.1:8080/gateway",
            "UNRELATED": "ignored",
        },
        env_file=None,
    )
    assert settings.discord_token == "abc.def.ghi"
    assert settings.database == tmp_path / "bot.sqlite3"
    assert settings.dictionary == "en_GB"
    assert settings.dev_guild == 123456789012345678
    assert settings.log_level == "WARNING"
    assert settings.discord_api_base == "http://127.0.0.1:8080/api/v10"
    assert settings.discord_gateway_url == "ws://127.0.0.1:8080/gateway"


def test_env_file_syntax(tmp_path):
    path = env_file(
        tmp_path,
        "\ufeff# Dealer's Choice settings\n"
        "\n"
        "DISCORD_TOKEN = 'tok#en with spaces'   # single quotes are literal\n"
        "export DEV_GUILD=42\n"
        'DICTIONARY="de_DE"\n'
        "LOG_LEVEL=debug # a trailing comment\n"
        "DISCORD_API_BASE=http://localhost:9/api#not-a-comment\n"
        'ESCAPED="a\\"b\\nc"\n'
        "EMPTY=\n"
        "DEV_GUILD=43\n",
    )
    values = parse_env_file(path)
    assert values == {
        "DISCORD_TOKEN": "tok#en with spaces",
        "DEV_GUILD": "43",  # a later line wins, as when a shell sources the file
        "DICTIONARY": "de_DE",
        "LOG_LEVEL": "debug",
        "DISCORD_API_BASE": "http://localhost:9/api#not-a-comment",
        "ESCAPED": 'a"b\nc',
        "EMPTY": "",
    }
    settings = load_settings({}, env_file=path, dictionaries=ELSEWHERE)
    assert (settings.discord_token, settings.dev_guild, settings.log_level) == (
        "tok#en with spaces",
        43,
        "DEBUG",
    )


def test_environment_wins_over_the_file(tmp_path):
    path = env_file(tmp_path, "DEV_GUILD=1\nDICTIONARY=fr_FR\nDISCORD_TOKEN=from-file\n")
    settings = load_settings({"DEV_GUILD": "2", "DISCORD_TOKEN": ""}, env_file=path,
                             dictionaries=ELSEWHERE)
    assert settings.dev_guild == 2
    assert settings.dictionary == "fr_FR"
    # Present but empty in the environment: switched off, not taken from the file.
    assert settings.discord_token is None


def test_process_environment_is_the_default(monkeypatch, tmp_path):
    for key in ("DISCORD_TOKEN", "DATABASE", "DICTIONARY", "LOG_LEVEL", "DISCORD_API_BASE"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.delenv("DISCORD_GATEWAY_URL", raising=False)
    monkeypatch.setenv("DEV_GUILD", "77")
    monkeypatch.chdir(tmp_path)  # and .env is looked for in the current directory
    env_file(tmp_path, "DICTIONARY=sv_SE\n")
    settings = load_settings(dictionaries=ELSEWHERE)
    assert (settings.dev_guild, settings.dictionary) == (77, "sv_SE")


def test_a_missing_env_file_is_fine(tmp_path):
    assert load_settings({}, env_file=tmp_path / "absent.env").log_level == "INFO"


def test_relative_database_is_made_absolute(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    settings = load_settings({"DATABASE": "games/db.sqlite3"}, env_file=None)
    assert settings.database == tmp_path / "games" / "db.sqlite3"


def test_invalid_dev_guild():
    for value in ("my server", "12.5", "-4", "0", "1e9", str(2**64)):
        message = error_for({"DEV_GUILD": value})
        assert message == (
            "DEV_GUILD must be a server ID (a positive whole number such as "
            f"123456789012345678), not {value!r}."
        )


def test_invalid_log_level():
    message = error_for({"LOG_LEVEL": "loud"})
    assert message == (
        "LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR or CRITICAL, not 'loud'."
    )


def test_other_invalid_values():
    assert "DICTIONARY must be" in error_for({"DICTIONARY": "english please"})
    assert "DISCORD_API_BASE must be a URL starting with http:// or https://" in error_for(
        {"DISCORD_API_BASE": "ws://127.0.0.1:1"}
    )
    assert "DISCORD_GATEWAY_URL must be a URL starting with ws:// or wss://" in error_for(
        {"DISCORD_GATEWAY_URL": "127.0.0.1:8080"}
    )
    assert "not 'ws://h:port'" in error_for({"DISCORD_GATEWAY_URL": "ws://h:port"})


def test_database_must_not_be_a_directory(tmp_path):
    assert "is a directory" in error_for({"DATABASE": str(tmp_path)})


def test_bad_env_file_lines_are_reported_by_number(tmp_path):
    cases = {
        "DEV_GUILD=1\njust some words\n": "Line 2 of the settings file",
        "9LIVES=yes\n": "where a name such as DISCORD_TOKEN is expected",
        'DISCORD_TOKEN="abc\n': 'has an opening " without a closing one',
        "DISCORD_TOKEN='abc' def\n": "has text after the closing quote",
    }
    for text, expected in cases.items():
        path = env_file(tmp_path, text)
        with pytest.raises(SettingsError) as caught:
            load_settings({}, env_file=path)
        message = str(caught.value)
        assert expected in message and str(path) in message
        assert message.endswith(".") and "\n" not in message


def test_unreadable_env_file(tmp_path):
    path = tmp_path / ".env"
    path.write_bytes(b"DISCORD_TOKEN=\xff\xfe\n")
    with pytest.raises(SettingsError, match="is not UTF-8 text"):
        load_settings({}, env_file=path)
    directory = tmp_path / "dir.env"
    directory.mkdir()
    with pytest.raises(SettingsError, match="cannot be read"):
        load_settings({}, env_file=directory)


def test_settings_are_frozen_and_hide_the_token():
    settings = load_settings({"DISCORD_TOKEN": "super-secret"}, env_file=None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.log_level = "DEBUG"  # type: ignore[misc]
    assert "super-secret" not in repr(settings)


def test_database_may_be_a_postgresql_url_whose_password_stays_out_of_sight(tmp_path):
    url = "postgresql://bot:hunter2@db.example:5432/dealers"
    settings = load_settings({"DATABASE": url}, env_file=None, dictionaries=ELSEWHERE)
    assert settings.database == url  # as given: the store connects with it
    assert "hunter2" not in repr(settings) and "bot:***@db.example" in repr(settings)
    assert settings.data_dir == PROJECT_ROOT / "data"  # no file to sit beside
    socket = load_settings({"DATABASE": "postgres:///dealers?host=/run/postgresql",
                            "DATA_DIR": str(tmp_path / "files")}, env_file=None,
                           dictionaries=ELSEWHERE)
    assert socket.data_dir == tmp_path / "files"
    message = error_for({"DATABASE": "postgresql://bot:hunter2@db:port/dealers"})
    assert "PostgreSQL URL" in message and "hunter2" not in message
    assert "mysql:// is not supported" in error_for({"DATABASE": "mysql://db/dealers"})
    (tmp_path / "a-file").write_text("")
    assert "must be a folder" in error_for({"DATA_DIR": str(tmp_path / "a-file")})


def test_shards_of_this_process():
    pg = {"DATABASE": "postgresql://bot@db/dealers"}
    def settings(**env: str) -> Settings:
        return load_settings(env, env_file=None, dictionaries=ELSEWHERE)
    assert (settings().shard_count, settings().shard_ids) == (None, None)  # Discord's advice
    assert (settings(SHARD_COUNT="4").shard_count, settings(SHARD_COUNT="4").shard_ids) == (
        4, None)  # all four here
    assert settings(SHARD_COUNT="4", SHARD_IDS="3, 0-1", **pg).shard_ids == (0, 1, 3)
    assert settings(SHARD_COUNT="2", SHARD_IDS="0,1").shard_ids == (0, 1)  # all: SQLite will do
    assert "needs SHARD_COUNT" in error_for({"SHARD_IDS": "0"})
    assert "1 to 4096" in error_for({"SHARD_COUNT": "two"})
    assert "from 0 to 1 once each" in error_for({"SHARD_COUNT": "2", "SHARD_IDS": "2", **pg})
    assert "from 0 to 3 once each" in error_for({"SHARD_COUNT": "4", "SHARD_IDS": "1,1", **pg})
    assert "must be a postgresql:// URL" in error_for({"SHARD_COUNT": "2", "SHARD_IDS": "1"})


def test_docstring_examples_hold():
    # bot/ is outside pytest's doctest paths; the examples are documentation, so keep them true.
    import bot.settings

    assert doctest.testmod(bot.settings).failed == 0


def test_ai_delay_is_checked() -> None:
    from bot.settings import SettingsError, load_settings

    assert load_settings({"AI_DELAY": "0.1"}, env_file=None).ai_delay == 0.1
    assert load_settings({}, env_file=None).ai_delay == 0.4
    with pytest.raises(SettingsError, match="AI_DELAY"):
        load_settings({"AI_DELAY": "soon"}, env_file=None)


def test_the_global_rate_limit_is_checked() -> None:
    from bot.settings import SettingsError, load_settings

    assert load_settings({}, env_file=None).global_rate_limit == 50
    assert load_settings({"GLOBAL_RATE_LIMIT": "500"}, env_file=None).global_rate_limit == 500
    for wrong in ("0", "fast", "-5", "2.5"):
        with pytest.raises(SettingsError, match="GLOBAL_RATE_LIMIT"):
            load_settings({"GLOBAL_RATE_LIMIT": wrong}, env_file=None)


# --- the dictionary must be installed -------------------------------------------------


def dictionary_error(environ: dict[str, str], installed: list[str]) -> str:
    with pytest.raises(SettingsError) as caught:
        load_settings(environ, env_file=None, dictionaries=installed)
    message = str(caught.value)
    assert "\n" not in message and message.endswith(".")
    return message


def test_a_dictionary_not_installed_is_refused_naming_the_installed_ones():
    message = dictionary_error({"DICTIONARY": "de_DE"}, ["en_US", "en_GB"])
    assert message.startswith("DICTIONARY de_DE is not installed here")
    assert "the installed dictionaries are en_GB, en_US" in message


def test_the_default_dictionary_must_be_installed_too():
    message = dictionary_error({}, ["sv_SE"])
    assert "default en_US is not installed" in message and "sv_SE" in message


def test_without_any_dictionary_the_sentence_says_what_to_install():
    assert "apt-get install" in dictionary_error({"DICTIONARY": "en_US"}, [])


def test_a_tag_in_another_case_or_with_a_dash_finds_the_installed_dictionary():
    for raw in ("en_gb", "EN-GB", "en-GB"):
        settings = load_settings({"DICTIONARY": raw}, env_file=None, dictionaries=["en_GB"])
        assert settings.dictionary == "en_GB"


def test_this_host_has_the_readmes_en_GB_and_the_default_en_US():
    # ./dev installs both (hunspell-en-us, hunspell-en-gb); the README's example is en_GB.
    assert {"en_GB", "en_US"} <= set(installed_dictionaries())
    assert load_settings({"DICTIONARY": "en_GB"}, env_file=None).dictionary == "en_GB"


def test_table_settings_offer_exactly_the_installed_dictionaries():
    # Every `dictionary` option (/table settings, /sppoker start, /holdem-sppoker start) is
    # this one declaration (bot/core/validation.py, cogs/common.py).
    from bot.core.validation import DICTIONARY
    from cogs.common import Option

    installed = installed_dictionaries()
    assert [choice.value for choice in Option(DICTIONARY).choices or []] == installed[:25]
