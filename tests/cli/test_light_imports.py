"""The offline commands start at once: ``score``, ``replay``, ``analyze``, ``simulate``,
``--help`` and ``--version`` never import the hub's web stack (issue 39, item 5).

Each case runs the real ``python -m companion`` in a subprocess through a small wrapper that
writes ``sys.modules`` to a file at exit, then checks the command's usual output and exit
status, and that no heavy package is among the modules. Nothing here measures time (that is
``bench/cli_start.py``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.cli.test_score_cli import EXPECTED, SHEET

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "docs" / "examples"

WEB = ("flask", "flask_socketio", "flask_babel", "socketio", "engineio", "gunicorn",
       "werkzeug", "companion.hub")
"""The web stack and the web server: only ``serve`` and ``demo`` need them."""
ALSO_LIGHT = ("paho", "serial", "babel", "requests", "jinja2")
"""The reader links (MQTT, pyserial), Babel and HTTP clients: the offline commands need none."""

WRAPPER = """
import atexit, json, runpy, sys

def _write_modules(path=sys.argv[1]):
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(sorted(sys.modules), handle)

atexit.register(_write_modules)
sys.argv = ["popcorn-companion", *sys.argv[2:]]
runpy.run_module("companion", run_name="__main__", alter_sys=True)
"""
"""``python -c WRAPPER MODULES_FILE ARGS...``: ``python -m companion ARGS``, and the names in
``sys.modules`` at exit written to ``MODULES_FILE`` as a JSON list."""


def run_traced(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """Run ``popcorn-companion ARGS`` in a subprocess; the process and its modules at exit."""
    modules = tmp_path / "modules.json"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", WRAPPER, str(modules), *args],
                          capture_output=True, text=True, cwd=REPO, env=env, timeout=120,
                          check=False)
    return done, set(json.loads(modules.read_text(encoding="utf-8")))


def heavy(modules: set[str]) -> list[str]:
    """The modules of :data:`WEB` and :data:`ALSO_LIGHT` packages among ``modules``."""
    packages = WEB + ALSO_LIGHT
    return sorted(m for m in modules if any(m == p or m.startswith(p + ".") for p in packages))


def _scored(out: str) -> None:
    assert json.loads(out) == EXPECTED


def _replayed_popcorn(out: str) -> None:
    doc = json.loads(out)
    assert doc["summary"]["round"] >= 1 and "scores" in doc


def _replayed_bmovies(out: str) -> None:
    assert json.loads(out)["summary"]["game"] == "b-movies"


def _analysed(out: str) -> None:
    lines = out.splitlines()
    assert len(lines) == 4 * (1 + 3) and ": accuracy " in lines[0]


def _simulated(out: str) -> None:
    assert out.startswith("games: 2 (") and "moves per second" in out


def _helped(out: str) -> None:
    assert out.startswith("usage: popcorn-companion")
    for command in ("score", "replay", "analyze", "simulate", "serve", "demo", "readers"):
        assert command in out


def _versioned(out: str) -> None:
    assert out.startswith("popcorn-companion ")


CASES: dict[str, tuple[list[str], Callable[[str], None]]] = {
    "score": (["score", "SHEET"], _scored),
    "replay popcorn": (["replay", str(EXAMPLES / "game-4p.jsonl")], _replayed_popcorn),
    "replay b-movies": (["replay", str(EXAMPLES / "b-movies-3p.jsonl")], _replayed_bmovies),
    "analyze": (["analyze", str(EXAMPLES / "game-4p.jsonl")], _analysed),
    "simulate popcorn": (["simulate", "--games", "2"], _simulated),
    "simulate b-movies": (["simulate", "--game", "b-movies", "--games", "2"], _simulated),
    "--help": (["--help"], _helped),
    "--version": (["--version"], _versioned),
}
"""Each command's arguments (``SHEET``: a Popcorn score sheet written for the test) and the
check of its standard output."""


@pytest.mark.parametrize("case", sorted(CASES))
def test_offline_command_imports_no_web_stack(tmp_path: Path, case: str) -> None:
    """The command does its usual work, exits 0, and imported none of the heavy packages."""
    args, check = CASES[case]
    sheet = tmp_path / "sheet.json"
    sheet.write_text(json.dumps(SHEET), encoding="utf-8")
    done, modules = run_traced(tmp_path, *[str(sheet) if a == "SHEET" else a for a in args])
    assert done.returncode == 0, done.stderr
    check(done.stdout)
    assert "companion.cli" in modules  # the wrapper saw the command run
    assert heavy(modules) == []


def test_serve_still_imports_the_web_stack(tmp_path: Path) -> None:
    """The wrapper does see heavy imports when there are some: ``serve --server`` with a
    name that is no server is refused once the web server's module told the choices."""
    done, modules = run_traced(tmp_path, "serve", "--server", "no-such-server")
    assert done.returncode == 2
    assert "invalid choice: 'no-such-server' (choose from 'gunicorn', 'gevent', 'werkzeug')" \
        in done.stderr
    assert "companion.hub.server" in modules and "flask" in modules
