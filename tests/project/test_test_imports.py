"""No test module imports another (issue 24, "Tests by layer"): what tests share lives in
tests/support/ (or a layer's conftest and helpers), so running, moving or deleting one test
module never changes what another collects or checks."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def imported_test_modules(path: Path) -> list[str]:
    """The `test_*` modules of tests/ that the module at `path` imports."""
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("tests"):
            names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names if alias.name.startswith("tests")]
        else:
            continue
        found += [name for name in names if name.rsplit(".", 1)[-1].startswith("test_")]
    return found


def test_no_test_module_imports_another() -> None:
    offenders = {str(path.relative_to(TESTS)): found
                 for path in sorted(TESTS.rglob("*.py"))
                 if (found := imported_test_modules(path))}
    assert offenders == {}


def test_the_check_sees_an_import_of_a_test_module(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("from tests.web import test_pages\n"
                      "from tests.bot.test_service import World\n"
                      "import tests.engine.test_cards\n"
                      "from tests.support.play import SHORT\n", encoding="utf-8")
    assert imported_test_modules(sample) == [
        "tests.web.test_pages", "tests.bot.test_service", "tests.engine.test_cards"]
