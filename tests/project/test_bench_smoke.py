"""Every bench in bench/ still runs (issue 23, "benches rot"): each with a tiny workload and
`--json`, to its end, printing its JSON object with the figures it documents. Nothing here
reads a figure's value as a verdict (a benchmark is never a test, and the machine is shared):
only that the run completed, said what it measured, and met no error on the way.

bench/chaos.py has its own smoke test (tests/project/test_chaos_smoke.py). The benches run at once,
each in its own process, started by the first of these tests that runs (in whichever worker
of `-n N` that is; the others read the results from the session's shared folder), so the file
takes about as long as its longest bench (bench/load.py: two bot starts and a restore probe),
not their sum.
"""

from __future__ import annotations

import contextlib
import fcntl
import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 420.0  # seconds a bench may take here before it counts as hung


@dataclass(frozen=True)
class Bench:
    """How a bench runs quickly, and the keys its JSON object has."""

    args: tuple[str, ...]
    keys: frozenset[str]
    exits: frozenset[int] = frozenset({0})  # 1 too for a bench whose exit is a verdict
    needs: str | None = None  # a module without which it cannot run (eval7: x86_64 only)


BENCHES: dict[str, Bench] = {
    "chip_ai": Bench(("--deals", "2", "--games", "badugi", "holdem_sppoker", "--json"),
                     frozenset({"setup", "runs"}), exits=frozenset({0, 1})),
    "evaluator": Bench(("--repeats", "1", "--hands", "300", "--json"),
                       frozenset({"hands", "engine_best7", "eval7_best7", "engine_import_ms"}),
                       needs="eval7"),
    "images": Bench(("2", "--json"), frozenset({"renders", "cases"})),
    "load": Bench(("--tables", "2", "--seconds", "0", "--burst-seconds", "1",
                   "--restore-tables", "3", "--json"),
                  frozenset({"load", "restore", "p50_ms_flat_out", "restore_s_1000"})),
    "make_words": Bench(("en_US", "--json"), frozenset({"lang", "words", "build_s"})),
    "pace": Bench(("--games", "poke", "--speeds", "fast", "--limits", "off",
                   "--moves-fast", "3", "--seconds", "30", "--json"),
                  frozenset({"runs", "targets", "bounds"})),
    "pokeno_ai": Bench(("--games", "1", "--solitaire", "1", "--target", "30", "--json"),
                       frozenset({"heads_up", "solitaire"})),
    "red_dog_ai": Bench(("--games", "3", "--json"), frozenset({"setup", "runs"}),
                        exits=frozenset({0, 1})),
    "scale": Bench(("--tables", "2", "--guild-tables", "2", "--seconds", "0", "--think", "0.1",
                    "--burst-seconds", "1", "--configs", "sqlite-1", "--no-takeover",
                    "--global-limit", "20", "--json"),
                   frozenset({"configs", "p99_ms_by_config", "tables_per_process",
                              "global_requests_per_move", "global_limit",
                              "first_hand_global_requests_per_move",
                              "global_requests_per_move_by_kind", "next_prompt_p90_s",
                              "next_prompt_p99_s", "cpu_per_move_2_over_1"})),
    "sppoker_ai": Bench(("1", "--json"), frozenset({"games", "hands", "players"})),
    "tricks_ai": Bench(("--games", "1", "--json"), frozenset({"runs", "seconds"})),
    "web": Bench(("--players", "8", "--games", "40", "--pool", "2", "--requests", "12",
                  "--warmup", "2", "--database", "sqlite", "--json"),
                 frozenset({"players", "games", "backends"})),
    "words": Bench(("20", "--json"), frozenset({"words", "best_words_cold_ms", "start_up_ms"})),
}


def test_every_bench_has_a_smoke_run() -> None:
    """A new bench gets its smoke run here (bench/chaos.py's is its own file; chaos_checks
    and chaos_play are its parts, not benches)."""
    benches = {path.stem for path in (ROOT / "bench").glob("*.py")}
    assert benches - {"chaos", "chaos_checks", "chaos_play"} == set(BENCHES)


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def seeded_data_dir(folder: Path) -> Path:
    """The benches' data directory, its word list made once here (copied from the project's
    cache when that is current) rather than by several benches at once."""
    from bot.wordlists import load

    data_dir = folder / "data"
    cached = ROOT / "data" / "words" / "words_en_US.txt"
    if cached.is_file():
        (data_dir / "words").mkdir(parents=True, exist_ok=True)
        shutil.copy(cached, data_dir / "words" / cached.name)
    load("en_US", data_dir)  # rebuilt if the copy was stale or missing
    return data_dir


def launch(folder: Path, names: set[str]) -> None:
    """Start the benches `names`, each writing its output, then its exit status, in its own
    folder."""
    data_dir = seeded_data_dir(folder)
    env = {**os.environ, "DATA_DIR": str(data_dir), "PYTHONUNBUFFERED": "1"}
    env.pop("DATABASE", None)
    for name in sorted(names):
        bench = BENCHES[name]
        where = folder / name
        where.mkdir()
        if bench.needs is not None and not _importable(bench.needs):
            (where / "skip").write_text(f"needs {bench.needs}")
            continue
        script = ('dir="$1"; shift; "$@" >"$dir/out" 2>"$dir/err"; '
                  'echo $? >"$dir/rc.tmp"; mv "$dir/rc.tmp" "$dir/rc"')
        process = subprocess.Popen(
            ["sh", "-c", script, "sh", str(where), sys.executable,
             str(ROOT / "bench" / f"{name}.py"), *bench.args],
            cwd=ROOT, env=env, stdin=subprocess.DEVNULL, start_new_session=True)
        (where / "pid").write_text(str(process.pid))


def _importable(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


@pytest.fixture(scope="module")
def runs(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The session's folder of bench runs, started once for all workers: the benches this
    session selected, all at once."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    base = tmp_path_factory.getbasetemp()
    root = base.parent if worker else base  # with -n N: the workers' shared session folder
    folder = root / "bench-smoke"
    selected = {item.callspec.params["name"] for item in request.session.items
                if getattr(item, "module", None) is request.module and hasattr(item, "callspec")}
    with locked(root / "bench-smoke.lock"):
        if not folder.exists():
            folder.mkdir()
            launch(folder, selected)
        else:  # another worker started them: any it did not select, this one starts
            launch(folder, {name for name in selected if not (folder / name).exists()})
    return folder


def result(folder: Path) -> tuple[int, str, str]:
    """Wait for a bench's end: its exit status, standard output and error."""
    deadline = time.monotonic() + LIMIT
    while not (folder / "rc").exists():
        if time.monotonic() > deadline:
            pid = int((folder / "pid").read_text())
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)  # the group this file started
            err = (folder / "err").read_text(errors="replace")
            pytest.fail(f"{folder.name} did not end in {LIMIT:.0f} s:\n{err[-3000:]}")
        time.sleep(0.2)
    code = int((folder / "rc").read_text())
    return code, (folder / "out").read_text(), (folder / "err").read_text(errors="replace")


@pytest.mark.parametrize("name", sorted(BENCHES))
def test_the_bench_runs_quickly_and_prints_its_json(name: str, runs: Path) -> None:
    bench = BENCHES[name]
    if (runs / name / "skip").exists():
        pytest.skip((runs / name / "skip").read_text())
    code, out, err = result(runs / name)
    assert "Traceback" not in err, err[-3000:]
    assert code in bench.exits, f"exit {code}:\n{err[-3000:]}"
    assert out.strip(), f"no JSON:\n{err[-3000:]}"
    figures = json.loads(out)
    assert isinstance(figures, dict)
    assert bench.keys <= figures.keys(), sorted(figures)
    if name == "load":  # the bot the bench drove met no error, and every table played
        assert figures["load"]["bot_error_count"] == 0, figures["load"]["bot_errors"]
        assert figures["load"]["stalled_count"] == 0
        assert figures["restore"]["in_process"]["tables"] == 3
    if name == "web":  # every kind of page was asked for and answered 200 each time
        pages = figures["backends"]["sqlite"]["pages"]
        assert all(page["failures"] == {} for page in pages.values()), pages
        # A page kind is asked 12 times; a replay as visits: one open, then its steps.
        assert {kind: p["requests"] for kind, p in pages.items()
                if not kind.startswith("replay")} == {
            kind: 12 for kind in pages if not kind.startswith("replay")}, pages
        assert pages["replay_open"]["requests"] >= 1 and pages["replay"]["requests"] >= 1
    if name == "pace":
        assert figures["runs"] and figures["runs"][0]["person_moves"] >= 1
