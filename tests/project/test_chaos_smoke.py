"""bench/chaos.py still runs: a quarter-minute soak on SQLite, three tables, the bot killed -9
at least once, its JSON as documented and no violation.

Not the soak itself (a benchmark is never a test; docs/chaos.md runs it): this only keeps the
harness from rotting as the bot changes, in about 30 s of a busy machine's time.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]


def test_a_short_chaos_soak_kills_the_bot_and_finds_no_violation(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "chaos.py"), "--minutes", "0.25", "--tables", "3",
         "--database", "sqlite", "--kill-every", "5-8", "--pace", "0.3", "--json",
         "--logs", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL,
        check=False,
    )
    assert done.stdout.strip(), f"no JSON (exit {done.returncode}):\n{done.stderr[-3000:]}"
    summary = json.loads(done.stdout)
    assert {"kills", "steps", "violations", "databases"} <= summary.keys(), summary.keys()
    figures = summary["databases"]["sqlite"]
    assert summary["kills"] == figures["kills"] >= 1, done.stderr[-2000:]
    assert isinstance(summary["steps"], int) and summary["steps"] == figures["steps"]
    details = figures["violation_details"]
    log = (tmp_path / "chaos-sqlite.log").read_text(errors="replace")
    assert summary["violations"] == len(details) == 0, \
        "\n".join(json.dumps(v) for v in details) + "\n" + log[-3000:]
    assert done.returncode == 0
