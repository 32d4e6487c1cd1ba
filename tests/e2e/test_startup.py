"""Start-up as a server owner meets it: one clear sentence and exit code 2, no traceback; with
DATABASE a SQLite file or a PostgreSQL URL alike (`database`, tests/conftest.py)."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from loopback import LoopbackDiscord
from loopback.process import PROJECT_ROOT
from tests.support.patience import patient


async def run_bot(env: dict[str, str], cwd: Path) -> tuple[int, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=cwd, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
        stdin=asyncio.subprocess.DEVNULL,
    )
    output, _ = await asyncio.wait_for(process.communicate(), timeout=patient(60))
    return process.returncode or 0, output.decode()


def base_env(database: Path | str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    env["DATABASE"] = str(database)
    env["PYTHONPATH"] = str(PROJECT_ROOT)
    return env


async def test_a_missing_token_is_one_sentence_and_exit_2(
        tmp_path: Path, database: Path | str) -> None:
    code, output = await run_bot(base_env(database), tmp_path)
    assert code == 2
    assert "DISCORD_TOKEN is not set" in output
    assert "Traceback" not in output


async def test_a_rejected_token_is_one_sentence_and_exit_2(
        tmp_path: Path, database: Path | str) -> None:
    async with LoopbackDiscord() as discord:
        env = base_env(database) | discord.bot_env() | {"DISCORD_TOKEN": "not-the-token"}
        code, output = await run_bot(env, tmp_path)
    assert code == 2
    assert "Discord rejected DISCORD_TOKEN" in output
    assert "Traceback" not in output


async def test_a_bad_setting_is_one_sentence_and_exit_2(
        tmp_path: Path, database: Path | str) -> None:
    env = base_env(database) | {"DISCORD_TOKEN": "x", "DEV_GUILD": "not-a-number"}
    code, output = await run_bot(env, tmp_path)
    assert code == 2
    assert "DEV_GUILD" in output and "Traceback" not in output


async def test_a_dictionary_not_installed_is_one_sentence_and_exit_2(
        tmp_path: Path, database: Path | str) -> None:
    env = base_env(database) | {"DISCORD_TOKEN": "x", "DICTIONARY": "xx_YY"}
    code, output = await run_bot(env, tmp_path)
    assert code == 2
    assert "DICTIONARY xx_YY is not installed" in output and "en_US" in output
    assert "Traceback" not in output and output.strip().count("\n") == 0


async def test_an_unreachable_discord_is_one_sentence(tmp_path: Path, database: Path | str) -> None:
    env = base_env(database) | {"DISCORD_TOKEN": "x",
                                "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10",
                                "DISCORD_GATEWAY_URL": "ws://127.0.0.1:9/gateway"}
    code, output = await run_bot(env, tmp_path)
    assert code == 1
    assert "Could not reach Discord" in output and "Traceback" not in output
    assert "PyNaCl" not in output and "davey" not in output  # the bot has no voice
