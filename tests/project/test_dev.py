"""./dev as a newcomer meets it: help that exits 0, `run --help` without a banner, a bad
setting told before "starting the bot", and `run` installing only what the bot needs.

Each test points ./dev at a stand-in virtualenv (VENV) whose python is the project's own,
except that `-m pip` and `-m pytest` are only recorded, so nothing is installed or run twice.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEV = ROOT / "dev"

STAND_IN = """#!/bin/sh
if [ "$1" = -m ] && { [ "$2" = pip ] || [ "$2" = pytest ]; }; then
    echo "$*" >> "{log}"
    exit 0
fi
exec "{python}" "$@"
"""


def stand_in_venv(tmp_path: Path, stamp: str | None) -> tuple[Path, Path]:
    """A VENV for ./dev: bin/python, bin/ruff, bin/mypy and bin/lint-imports that record pip,
    pytest, ruff, mypy and lint-imports calls."""
    venv, log = tmp_path / "venv", tmp_path / "calls.log"
    (venv / "bin").mkdir(parents=True)
    python = venv / "bin" / "python"
    python.write_text(STAND_IN.replace("{log}", str(log)).replace("{python}", sys.executable))
    ruff = venv / "bin" / "ruff"
    ruff.write_text(f'#!/bin/sh\necho "ruff $*" >> "{log}"\n')
    mypy = venv / "bin" / "mypy"
    mypy.write_text(f'#!/bin/sh\necho "mypy $*" >> "{log}"\n')
    contracts = venv / "bin" / "lint-imports"
    contracts.write_text(f'#!/bin/sh\necho "lint-imports $*" >> "{log}"\n')
    for tool in (python, ruff, mypy, contracts):
        tool.chmod(0o755)
    if stamp is not None:
        want = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
        (venv / ".installed").write_text(f"{want} {stamp}\n".replace(" \n", "\n"))
    return venv, log


def dev(tmp_path: Path, *args: str, stamp: str | None = "test",
        env: dict[str, str] | None = None) -> tuple[subprocess.CompletedProcess[str], str]:
    venv, log = stand_in_venv(tmp_path, stamp)
    environ = {k: v for k, v in os.environ.items()
               if k not in ("DISCORD_TOKEN", "LOG_LEVEL", "DICTIONARY", "VIRTUAL_ENV")}
    environ |= {"VENV": str(venv), "DATABASE": str(tmp_path / "db.sqlite3")} | (env or {})
    done = subprocess.run([str(DEV), *args], cwd=tmp_path, env=environ, capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)
    return done, log.read_text() if log.exists() else ""


@pytest.mark.parametrize("args", [(), ("help",), ("--help",)])
def test_dev_and_dev_help_print_the_usage_and_exit_0(tmp_path, args):
    done, _ = dev(tmp_path, *args)
    assert done.returncode == 0
    assert "./dev run" in done.stdout and "./dev test" in done.stdout


def test_an_unknown_command_prints_the_usage_and_exits_2(tmp_path):
    done, _ = dev(tmp_path, "bogus")
    assert done.returncode == 2 and "unknown command: bogus" in done.stderr
    assert "./dev run" in done.stderr


def test_run_help_prints_the_bots_help_and_no_banner(tmp_path):
    done, _ = dev(tmp_path, "run", "--help")
    assert done.returncode == 0
    assert done.stdout.startswith("usage: python -m bot")
    assert "sandbox (a local Discord" not in done.stderr
    assert "starting the bot" not in done.stderr


def test_a_bad_setting_is_told_before_anything_starts(tmp_path):
    done, _ = dev(tmp_path, "run", env={"DISCORD_TOKEN": "x", "LOG_LEVEL": "loud"})
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1].startswith("LOG_LEVEL must be one of")
    assert "starting the bot" not in done.stderr and "sandbox" not in done.stderr


def test_run_installs_the_runtime_only_and_test_adds_the_test_extras(tmp_path):
    # The bot and its sandbox (what ./dev run starts without a token), not the test tools.
    _, calls = dev(tmp_path / "a", "run", "--help", stamp=None)
    [install] = [line for line in calls.splitlines() if line.startswith("-m pip")]
    assert install.endswith("install -q --disable-pip-version-check -e .[sandbox]")
    # A runtime install does not serve `test`: it installs the test extras.
    _, calls = dev(tmp_path / "b", "test", "-q", stamp="runtime")
    [install] = [line for line in calls.splitlines() if line.startswith("-m pip")]
    assert install.endswith("-e .[test]")
    assert "-m pytest -q" in calls and "ruff check ." in calls and "mypy engine bot cogs" in calls
    assert "lint-imports" in calls


def test_a_test_install_serves_run_without_installing_again(tmp_path):
    _, calls = dev(tmp_path, "run", "--help", stamp="test")
    assert "-m pip" not in calls
