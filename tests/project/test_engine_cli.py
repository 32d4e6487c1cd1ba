"""`python -m engine replay` replays the word games too (issue 23): Sppoker and Hold'em
Sppoker need the longest-word finder's candidate words, which the command gets from `--words`,
and `python -m bot replay` as the bot does (bot/wordlists.py, from the data directory); before,
every such notation stopped with "LookupError: no word list for en_US". The engine's command
knows nothing of the bot (issue 24): without `--words` it says where to find the lists."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from engine.notation import write
from tests.support.finished_games import finished
from tests.support.play import WORDS

ROOT = Path(__file__).resolve().parents[2]


def run_engine(*args: str, data_dir: Path, package: str = "engine"
               ) -> subprocess.CompletedProcess[str]:
    """`python -m <package>` in a fresh interpreter (no word source set), the bot's data
    directory `data_dir` (so nothing is written into the project's)."""
    env = {**os.environ, "DATA_DIR": str(data_dir)}
    return subprocess.run([sys.executable, "-m", package, *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300, check=False,
                          stdin=subprocess.DEVNULL)


def test_a_sppoker_notation_replays_with_a_word_list_file(tmp_path: Path) -> None:
    _, notation = finished("sppoker", 2, 4)
    path = tmp_path / "sppoker.txt"
    path.write_text(write(notation), encoding="utf-8")
    words = tmp_path / "words.txt"
    words.write_text("# a list of my own\n" + "\n".join(WORDS) + "\n", encoding="utf-8")
    done = run_engine("replay", str(path), "--words", str(words), data_dir=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Sppoker — P0, P1 · seed 4") and "Result: P0" in done.stdout
    assert not (tmp_path / "words").exists()  # the bot's lists were not asked for

    missing = run_engine("replay", str(path), "--words", str(tmp_path / "none.txt"),
                         data_dir=tmp_path)
    assert missing.returncode == 2 and "cannot read the word list" in missing.stderr


def test_a_holdem_sppoker_notation_replays_with_a_folder_of_lists(tmp_path: Path) -> None:
    _, notation = finished("holdem_sppoker", 3, 2)
    path = tmp_path / "holdem.txt"
    path.write_text(write(notation), encoding="utf-8")
    folder = tmp_path / "lists"
    folder.mkdir()
    (folder / "words_en_US.txt").write_text("\n".join(WORDS), encoding="utf-8")
    done = run_engine("replay", str(path), "--words", str(folder), data_dir=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Hold'em Sppoker — P0, P1, P2") and "Result:" in done.stdout


def test_the_engines_replay_without_word_lists_says_where_to_find_them(
        tmp_path: Path) -> None:
    _, notation = finished("sppoker", 2, 6)
    path = tmp_path / "sppoker.txt"
    path.write_text(write(notation), encoding="utf-8")
    done = run_engine("replay", str(path), data_dir=tmp_path)
    assert done.returncode == 2, done.stderr
    assert "--words" in done.stderr and "python -m bot replay" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_bots_replay_uses_its_own_word_lists(tmp_path: Path) -> None:
    _, notation = finished("sppoker", 2, 6)
    path = tmp_path / "sppoker.txt"
    path.write_text(write(notation), encoding="utf-8")
    done = run_engine("replay", str(path), data_dir=tmp_path, package="bot")
    assert done.returncode == 0, done.stderr
    assert "LookupError" not in done.stderr and "Result: P0" in done.stdout
    cached = tmp_path / "words" / "words_en_US.txt"  # made as the bot makes it, and kept
    assert cached.is_file() and cached.read_text(encoding="utf-8").startswith("# words for")
