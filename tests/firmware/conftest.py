"""Firmware tests: the MicroPython firmware runs under CPython on fakes of the hardware.

``firmware/`` is put on ``sys.path`` (the board keeps every module at the top level of its
flash, so they import each other by bare name), and so is ``fakes/``, which holds
stand-ins for MicroPython's ``machine``, ``micropython``, ``network`` and ``umqtt.simple``.
The RC522 fake (``fake_rc522.py``) is register-level: the driver's real code runs against it.
The tests' own helpers (``harness``, ``fake_rc522``, ``micropython_json``) are modules of
the ``tests.firmware`` package, imported by that name like every other folder's.
"""

import sys
from pathlib import Path

HERE = Path(__file__).parent
FIRMWARE = HERE.parents[1] / "firmware"
for _path in (HERE / "fakes", FIRMWARE):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

import machine  # noqa: E402  (the fake, from fakes/)
import messages  # noqa: E402
import micropython  # noqa: E402
import network  # noqa: E402
import pytest  # noqa: E402

from tests.firmware import micropython_json  # noqa: E402


@pytest.fixture(autouse=True)
def clean_fakes():
    """Each test starts with no pins, chips, watchdogs or Wi-Fi networks, and Ctrl-C on."""
    machine.reset_fakes()
    micropython.reset_fakes()
    network.ACCESS_POINTS.clear()
    network.stations.clear()
    yield
    machine.reset_fakes()
    micropython.reset_fakes()
    network.ACCESS_POINTS.clear()


@pytest.fixture
def board_json(monkeypatch: pytest.MonkeyPatch) -> None:
    """The firmware parses with MicroPython's lenient ``json.loads`` (``micropython_json``),
    as on a board, instead of CPython's strict one."""
    monkeypatch.setattr(messages, "json", micropython_json)
