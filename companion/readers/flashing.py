"""Putting the firmware on a bag reader: the files, the reader's settings, the ``mpremote`` call.

A reader needs three things in its flash: the firmware's modules, ``main.py`` (which MicroPython
runs at start) and a ``config.json`` naming the reader and its transport. :func:`build_image`
stages them in a folder: each module compiled by ``mpy-cross`` to ``.mpy`` bytecode, which
imports in about half the heap of its source (that matters on an ESP32 without PSRAM), and
``main.py`` kept as source, since MicroPython looks for that name. :func:`mpremote_args` is
the one ``mpremote`` call that copies the image and resets the board.

MicroPython imports ``foo.py`` before ``foo.mpy`` from the same folder, so the call first
removes the sources an older, uncompiled install left behind. It keeps every other file,
among them the reader's boot id. Before it, :func:`release_repl` stops a reader that runs the
firmware on USB serial, where Ctrl-C alone is ignored.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from companion.assets import firmware_dir

ENTRY = "main.py"
"""The module MicroPython runs at start: copied as source, never compiled."""
CONFIG = "config.json"
"""The settings file the firmware reads at start (``firmware/config.py``)."""


class FlashError(RuntimeError):
    """Flashing cannot go on; the message says what to do."""


@dataclass
class Image:
    """The files staged for one reader, and the firmware's size as sources and as built."""

    folder: Path
    files: list[Path] = field(default_factory=list)
    compiled: list[str] = field(default_factory=list)
    source_bytes: int = 0

    @property
    def image_bytes(self) -> int:
        """The size of what goes to the board, ``config.json`` included."""
        return sum(f.stat().st_size for f in self.files)


def firmware_config_module() -> ModuleType:
    """The firmware's own ``config.py``, loaded from the package, so that the settings are
    checked by exactly the code that will read them on the board."""
    spec = importlib.util.spec_from_file_location("popcorn_firmware_config",
                                                  firmware_dir() / "config.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def reader_config(settings: dict[str, Any]) -> dict[str, Any]:
    """``settings`` (unset ones left out) checked as the firmware will check them.

    Returns what goes in ``config.json``; raises :class:`FlashError` with the firmware's
    own message for a value the reader would refuse at start.
    """
    chosen = {k: v for k, v in settings.items() if v is not None}
    fw_config = firmware_config_module()
    try:
        fw_config.check(chosen)
    except fw_config.ConfigError as exc:
        raise FlashError(str(exc)) from None
    return chosen


def firmware_sources() -> list[Path]:
    """The firmware's Python files, ``main.py`` among them."""
    return sorted(firmware_dir().glob("*.py"))


def build_image(config: dict[str, Any], folder: Path, compile_modules: bool = True) -> Image:
    """Stage the firmware and ``config`` in ``folder``; modules compiled unless told not to."""
    image = Image(folder)
    for source in firmware_sources():
        image.source_bytes += source.stat().st_size
        if compile_modules and source.name != ENTRY:
            target = folder / (source.stem + ".mpy")
            _mpy_cross(source, target)
            image.compiled.append(source.stem)
        else:
            target = folder / source.name
            shutil.copyfile(source, target)
        image.files.append(target)
    settings = folder / CONFIG
    settings.write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
    image.files.append(settings)
    return image


def _mpy_cross(source: Path, target: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "mpy_cross", "-o", str(target), str(source)],
                         capture_output=True, text=True, check=False)
    if run.returncode != 0:
        raise FlashError(f"mpy-cross could not compile {source.name}: "
                         f"{(run.stderr or run.stdout).strip() or 'is mpy-cross installed?'}")


def find_mpremote() -> str:
    """The ``mpremote`` program: the first on ``PATH``, else the one beside this Python."""
    found = shutil.which("mpremote") or shutil.which("mpremote",
                                                      path=str(Path(sys.executable).parent))
    if not found:
        raise FlashError("mpremote is not installed; it comes with popcorn-companion "
                         "(reinstall it), or: pip install mpremote")
    return found


ASK_FOR_REPL = b"\r\x03\r\x01"
"""Ctrl-C, then Ctrl-A: interrupt what runs, then ask for the raw REPL. A serial reader
ignores a lone Ctrl-C (a noisy cable must not stop it) but hands the line back on this pair."""
RAW_REPL_BANNER = b"raw REPL; CTRL-B to exit"
"""What MicroPython answers when the raw REPL is ready."""


def release_repl(port: str, timeout: float = 4.0) -> bool:
    """Stop the firmware running on ``port`` and leave the board at its REPL.

    Sends :data:`ASK_FOR_REPL` until the raw REPL answers, then Ctrl-B back to the normal
    REPL, where ``mpremote`` finds an idle board. False if nothing answered in ``timeout``
    seconds (not MicroPython, or busy): ``mpremote`` then tries on its own and says why.
    Raises :class:`FlashError` if the port cannot be opened.
    """
    import serial

    try:
        line = serial.Serial(port, 115200, timeout=0.05)
    except (serial.SerialException, OSError) as exc:
        raise FlashError(f"cannot open {port}: {exc}. Is the board plugged in, and is no "
                         "other program (the hub, readers tail, a serial monitor) using "
                         "it?") from None
    with line:
        heard = b""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line.write(ASK_FOR_REPL)
            answer_by = time.monotonic() + 0.3
            while time.monotonic() < answer_by and RAW_REPL_BANNER not in heard:
                heard = (heard + line.read(256))[-512:]
            if RAW_REPL_BANNER in heard:
                line.write(b"\x02")
                line.flush()
                return True
    return False


def cleanup_code(image: Image) -> str:
    """MicroPython code that removes the sources shadowing the image's ``.mpy`` modules."""
    stale = [name + ".py" for name in image.compiled]
    return ("import os\n"
            f"for n in {stale!r}:\n"
            "    try:\n"
            "        os.remove(n)\n"
            "    except OSError:\n"
            "        pass\n")


def mpremote_args(port: str, image: Image) -> list[str]:
    """The arguments of the one ``mpremote`` call: connect, clean up, copy, reset."""
    return ["connect", port, "exec", cleanup_code(image), "+",
            "fs", "cp", *[str(f) for f in image.files], ":", "+", "reset"]
