"""Toy High Card (docs/examples/toy-high-card) as an installed distribution in a temporary folder:
its package copied there beside a `toy_high_card-0.1.dist-info` whose `entry_points.txt`
says what the example's pyproject.toml says, so `importlib.metadata` finds its entry point
(group `dealers_choice.games`) once the folder is on `sys.path` or `PYTHONPATH`, as it would
after `pip install docs/examples/toy-high-card`.

The tests install it like this rather than with pip: the venv stays as it was, and no other
test process ever sees the game.
"""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

from bot.plugins import ENTRY_POINTS

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "toy-high-card"
PACKAGE = "toy_high_card"
KIND = "toy_high_card"


def write_distribution(folder: Path) -> Path:
    """The distribution in `folder` (made if missing); returns `folder`, the path entry."""
    project = tomllib.loads((EXAMPLE / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copytree(EXAMPLE / PACKAGE, folder / PACKAGE,
                    ignore=shutil.ignore_patterns("__pycache__"))
    info = folder / f"{project['name']}-{project['version']}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n",
        encoding="utf-8")
    entries = project["entry-points"][ENTRY_POINTS]
    (info / "entry_points.txt").write_text(
        f"[{ENTRY_POINTS}]\n" + "".join(f"{name} = {value}\n" for name, value in entries.items()),
        encoding="utf-8")
    return folder
