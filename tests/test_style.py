"""The code base stays ruff-clean and documented."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]


def test_ruff_is_clean() -> None:
    """``ruff check`` finds nothing in the package, the tests, the benchmarks and the
    example game."""
    if shutil.which("ruff") is None and subprocess.run(
            [sys.executable, "-m", "ruff", "--version"], capture_output=True).returncode:
        pytest.fail("ruff is not installed: pip install -e '.[test]'")
    run = subprocess.run([sys.executable, "-m", "ruff", "check", "companion", "tests", "bench",
                          "examples"],
                         cwd=ROOT, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr


def test_every_public_name_has_a_docstring() -> None:
    """Modules, and public classes and functions of the package and of the example game,
    carry a docstring."""
    missing = []
    for path in [*(ROOT / "companion").rglob("*.py"), *(ROOT / "examples").rglob("*.py")]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if path.name != "__init__.py" and not ast.get_docstring(tree):
            missing.append(f"{path.name}: module")
        public = [node for node in tree.body if isinstance(node, ast.FunctionDef | ast.ClassDef)
                  and not node.name.startswith("_")]
        missing += [f"{path.name}: {node.name}" for node in public if not ast.get_docstring(node)]
    assert not missing, missing
