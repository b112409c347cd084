"""Every firmware file is valid MicroPython: mpy-cross compiles it, and it stays within the
language MicroPython offers (no typing, dataclasses, match, f-strings, walrus, or modules the
boards do not have)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

FIRMWARE = Path(__file__).parents[2] / "firmware"
SOURCES = sorted(FIRMWARE.glob("*.py"))
BOARD_MODULES = {"machine", "network", "umqtt", "micropython", "rp2", "select", "sys", "time",
                 "os", "json", "ujson", "random"}
"""What the firmware may import besides its own modules (all on the ESP32 and Pico W ports)."""


def test_there_is_firmware() -> None:
    """The list below is not empty by accident."""
    assert {p.name for p in SOURCES} >= {"main.py", "app.py", "mfrc522.py", "board_esp32.py",
                                         "board_picow.py", "transport_serial.py",
                                         "transport_mqtt.py"}


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_mpy_cross_compiles(source: Path, tmp_path: Path) -> None:
    """``mpy-cross`` (MicroPython's own compiler) accepts the file."""
    out = tmp_path / (source.stem + ".mpy")
    run = subprocess.run([sys.executable, "-m", "mpy_cross", "-o", str(out), str(source)],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert out.read_bytes()[:1] == b"M", "not an .mpy file"


def test_mpy_cross_refuses_what_micropython_lacks(tmp_path: Path) -> None:
    """The check above can fail: a syntax MicroPython lacks is refused."""
    bad = tmp_path / "bad.py"
    bad.write_text("def f(a, /, b):\n    return a\n")
    run = subprocess.run([sys.executable, "-m", "mpy_cross", "-o", str(tmp_path / "bad.mpy"),
                          str(bad)], capture_output=True, text=True, timeout=60)
    assert run.returncode != 0


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_only_micropython_features(source: Path) -> None:
    """No constructs or imports that exist in CPython only; a docstring on every public name."""
    tree = ast.parse(source.read_text(encoding="utf-8"))
    own = {p.stem for p in SOURCES}
    problems = []
    if not ast.get_docstring(tree):
        problems.append("module docstring")
    for node in ast.walk(tree):
        if isinstance(node, ast.Match | ast.JoinedStr | ast.NamedExpr | ast.AnnAssign):
            problems.append(f"line {node.lineno}: {type(node).__name__}")
        if isinstance(node, ast.Import):
            names = [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [(node.module or "").split(".")[0]]
        else:
            names = []
        problems += [f"imports {n}" for n in names if n not in own and n not in BOARD_MODULES]
        public = isinstance(node, ast.FunctionDef | ast.ClassDef) and not node.name.startswith(
            "_") and node.name not in ("__init__", "__len__", "__call__")
        if public and not ast.get_docstring(node):
            problems.append(f"{node.name}: no docstring")
    assert not problems, problems


def test_the_example_config_is_json() -> None:
    """config.example.json is plain JSON (no comments, no trailing commas)."""
    assert json.loads((FIRMWARE / "config.example.json").read_text())["reader"]
