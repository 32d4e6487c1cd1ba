"""The house stays a house (issue 24): bot/ keeps its parts in sub-packages along their seams,
and no module of the application grows past what one reader holds at once.

A module over the limit is a sign that two things share a file; split it where they part (as
table.py / table_state.py, or sender.py / stale_rows.py / in_place.py were), not by moving
lines at random.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MOST_LINES = 400
SIZED = ("bot", "cogs", "web")
MOST_TOP_LEVEL = 12  # modules directly in bot/, beside its packages


def lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_no_module_of_the_application_is_over_400_lines() -> None:
    over = sorted(f"{path.relative_to(ROOT).as_posix()}: {lines(path)}"
                  for folder in SIZED for path in (ROOT / folder).rglob("*.py")
                  if lines(path) > MOST_LINES)
    assert not over, f"over {MOST_LINES} lines:\n" + "\n".join(over)


def test_few_modules_sit_directly_in_bot() -> None:
    top = sorted(path.name for path in (ROOT / "bot").glob("*.py"))
    assert len(top) <= MOST_TOP_LEVEL, top
