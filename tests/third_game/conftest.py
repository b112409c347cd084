"""Number Tokens, a game from outside, installed for the tests as a user installs it.

The fixture copies the game's own distribution (``examples/number-tokens``: a
``pyproject.toml`` and a package of two modules, its screens and its catalogs) and runs
``pip install --target`` on the copy, into a folder of its own that it puts on the import
path of this process and of the hubs it starts. The core finds the game by its entry point
(group ``popcorn_companion.games``); no file of the core names it.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion import games

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "number-tokens"
"""The game's distribution, as its author keeps it."""


def pip_install(source: Path, target: Path) -> None:
    """``pip install --no-deps --target`` (the companion is installed already); with this
    environment's setuptools when it can build a wheel by itself (its own, or with
    ``wheel``), else pip fetches the build backend from the package index."""
    args = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
            "--disable-pip-version-check", "--target", str(target)]
    if all(importlib.util.find_spec(name) is not None for name in ("setuptools", "wheel")):
        args.append("--no-build-isolation")
    done = subprocess.run([*args, str(source)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Number Tokens installed for one module's tests; yields the folder it is installed in.
    (Not for the whole session: the other tests expect the hub's own two games only.)"""
    copy = tmp_path_factory.mktemp("source") / "number-tokens"
    shutil.copytree(EXAMPLE, copy, ignore=shutil.ignore_patterns("build", "*.egg-info",
                                                                 "__pycache__"))
    site = tmp_path_factory.mktemp("site")
    pip_install(copy, site)
    sys.path.insert(0, str(site))
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(site), old]))
    games.game_ids.cache_clear()
    try:
        yield site
    finally:
        sys.path.remove(str(site))
        if old is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = old
        games.game_ids.cache_clear()
