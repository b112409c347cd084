"""The code's shape is checked: types by mypy, layers by import-linter, and no import circle.

The rules live in ``pyproject.toml`` (``[tool.mypy]``, ``[tool.importlinter]``) and are
explained in ``docs/architecture.md`` ("The engine's modules, bottom to top", "Types and
layers checked"). Both tools run as the developer runs them: from the repository root, with the
interpreter's own venv, and a failure shows their report.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
PACKAGE = ROOT / "companion"
NOT_PYTHON_OF_OURS = ("web", "firmware")
"""Folders of companion/ that link to the dashboard and to the MicroPython firmware."""
ENGINE = "companion.games.popcorn.engine"
"""The Popcorn engine's package."""


def _run(tool: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run a tool installed beside this interpreter (the test extra), from the root."""
    program = Path(sys.executable).parent / tool
    if not program.exists():
        pytest.fail(f"{tool} is not installed beside {sys.executable}: "
                    "pip install -e '.[test]'")
    return subprocess.run([str(program), *args], cwd=ROOT, capture_output=True, text=True,
                          check=False, timeout=600)


def test_mypy_passes() -> None:
    """``mypy`` (with ``[tool.mypy]``: the whole package, strict on the engines) is clean."""
    run = _run("mypy")
    assert run.returncode == 0, run.stdout + run.stderr


def test_import_contracts_are_kept() -> None:
    """``lint-imports`` keeps every contract: the engines import nothing of ours, and each
    door between cli, commands, hub, table and readers opens one way."""
    run = _run("lint-imports")
    assert run.returncode == 0, run.stdout + run.stderr


def module_files() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name)."""
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[1] in NOT_PYTHON_OF_OURS:
            continue
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        modules[name] = path
    return modules


def import_graph() -> dict[str, set[str]]:
    """Which modules of ours each module imports, counting every import statement: at the
    top, inside a function (a lazy import) or under ``if TYPE_CHECKING:``.

    ``from package import name`` counts as an import of ``package.name`` when that is a
    module, else of ``package``. A package's ``__init__`` importing its own submodules is
    the package's face, not a dependency, and is left out.
    """
    modules = module_files()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _base(name, is_package, node)
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules
                           else base for alias in node.names]
            else:
                continue
            for target in targets:
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != name and not (
                        is_package and target.startswith(name + ".")):
                    graph[name].add(target)
    return graph


def _base(name: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The module a ``from ... import`` names, with a relative one made absolute."""
    if not node.level:
        return node.module or ""
    package = name.split(".") if is_package else name.split(".")[:-1]
    package = package[: len(package) - (node.level - 1)]
    return ".".join([*package, *([node.module] if node.module else [])])


def test_import_graph_is_read() -> None:
    """The graph sees the imports the engine is known to have, lazy or not."""
    graph = import_graph()
    assert f"{ENGINE}.base_state" in graph[f"{ENGINE}.game"]
    assert f"{ENGINE}.game" in graph[f"{ENGINE}.state"]
    assert graph[f"{ENGINE}.pawns"] == set()
    assert ENGINE in graph["companion.games.popcorn.record"]


def test_no_import_circle() -> None:
    """No module of companion/ imports itself through others: every import goes one way.

    A lazy import inside a function counts, so a circle cannot hide there.
    """
    graph = import_graph()
    try:
        order = list(TopologicalSorter(graph).static_order())
    except CycleError as exc:  # args[1]: each module is imported by the next one
        circle = " -> ".join(reversed(exc.args[1]))
        pytest.fail(f"import circle (each module imports the next): {circle}")
    assert len(order) == len(graph)


def documented_engine_order() -> list[str]:
    """The engine's modules as ``docs/architecture.md`` lists them, bottom to top."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("## The engine's modules, bottom to top", 1)[1].split("\n## ", 1)[0]
    names = re.findall(r"^\| `(\w+)` \|", section, re.MULTILINE)
    return [ENGINE if n == "__init__" else f"{ENGINE}.{n}" for n in names]


def test_engine_modules_import_in_the_documented_order() -> None:
    """Each engine module imports only modules listed before it in ``docs/architecture.md``
    ("The engine's modules, bottom to top"), and the list names every module."""
    graph = import_graph()
    order = documented_engine_order()
    assert sorted(order) == sorted(m for m in graph if m.startswith(ENGINE))
    rank = {module: i for i, module in enumerate(order)}
    upward = [f"{module} imports {other}" for module in order for other in sorted(graph[module])
              if other in rank and rank[other] >= rank[module]]
    assert not upward, upward
