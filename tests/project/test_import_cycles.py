"""No import cycle anywhere in the project's packages (issue 24, "the house").

import-linter's contracts hold the layers; a cycle inside one layer would pass them, and a
cycle is what makes a module impossible to read, test or move on its own. Imports inside a
function or under `TYPE_CHECKING` count like any other (grimp reads them all), so a cycle
cannot be hidden by deferring one of its imports.
"""

from __future__ import annotations

from graphlib import CycleError, TopologicalSorter

import grimp

PACKAGES = ("engine", "bot", "cogs", "loopback", "web")


def import_graph() -> dict[str, set[str]]:
    """Each module of the project and the project's modules it imports directly."""
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    modules = graph.modules
    return {module: {imported for imported in graph.find_modules_directly_imported_by(module)
                     if imported in modules}
            for module in modules}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    try:
        tuple(TopologicalSorter(graph).static_order())
    except CycleError as error:
        return list(error.args[1])
    return None


def test_finds_a_cycle_when_there_is_one() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) is not None
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_no_import_cycle_in_the_project() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])
