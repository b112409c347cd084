"""The cinema mat's full scan, in modeled time: every zone, and the whole, at several SPI speeds.

The mat's firmware (``firmware/mat.py``: the scanner, the real MFRC522 driver) runs against
the register-level fake bus of ``tests/firmware/fake_rc522.py``, whose virtual clock moves as
the parts would: SPI bytes at the bus's baud rate, frames at 106 kbit/s with ISO 14443-3's
frame delay time, the chip's reply timeout when no tag answers, its crystal's start-up after
its reset line goes high, the tags' power-up after the field comes on, and the firmware's own
waits (``startup_us``, ``guard_us``). The figures are deterministic: the same on any machine,
under CPython or on MicroPython (``--micropython`` runs the same firmware on MicroPython's
Unix port and prints its figure too).

    python bench/mat_scan.py [--layout 3,1,2,6] [--uid-size 7] [--baud 2000000 4000000 8000000]
                             [--per-transfer-us 25] [--rx-timeout-us N] [--startup-us N]
                             [--guard-us N] [--micropython]

For each SPI speed and each kind of UIDs it prints the full scan and each zone's time, the
SPI transfers, bytes and frames of one full scan. What the model leaves out is the
interpreter's own time: each SPI transfer is a few MicroPython calls (two chip-select
changes and a ``write_readinto``), tens of microseconds on an ESP32. ``--per-transfer-us``
adds that much per transfer as an estimate of a board's figure; only a board can measure it.

UIDs are either **scattered** (made-up serials that collide at all sorts of bits, the worse
case for anticollision) or **one roll** (consecutive serials of one roll of stickers, which
share their first cascade level).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# the firmware, and the firmware tests' stand-ins for MicroPython's modules: its app module
# must find the same ``micropython`` as those tests do, should they run in this process after
sys.path[:0] = [str(ROOT), str(ROOT / "firmware"), str(ROOT / "tests" / "firmware" / "fakes")]

import config  # noqa: E402
from mat import Scanner  # noqa: E402

from tests.firmware.fake_rc522 import FakeBus, Tag, ntag_uid  # noqa: E402


def roll_uid(n: int, size: int) -> bytes:
    """The ``n``-th sticker of one roll: one serial prefix, the last bytes counting up."""
    prefix = bytes((0x04, 0x5A, 0x3C, 0x91, 0x22, 0x7E, 0x10, 0x42, 0x19))[: size - 2]
    return prefix + bytes(((n >> 8) & 0xFF, (0x80 + n) & 0xFF))


def measure(layout: list[int], size: int, baud: int, uids: str,
            settings: dict[str, int] | None = None) -> dict:
    """One full scan of the mat with ``layout[z]`` tags on zone ``z``, after two scans;
    ``settings`` are config fields over the defaults (``rx_timeout_us``, ...)."""
    cfg = config.check({"reader": "mat-1", "kind": "mat", "zones": len(layout),
                        **(settings or {})})
    bus = FakeBus(len(layout), baud=baud)
    clock = bus.clock
    scanner = Scanner(bus.spi, [(chip.cs, chip.rst) for chip in bus.chips],
                      cfg["rx_timeout_us"], cfg["startup_us"], cfg["guard_us"],
                      sleep_us=clock.sleep_us, ticks_us=clock.ticks_us, ticks_ms=clock.ticks_ms)
    scanner.init()
    make = ntag_uid if uids == "scattered" else roll_uid
    n = 0
    for zone, count in enumerate(layout):
        for _ in range(count):
            bus.place(Tag(make(n, size)), zone)
            n += 1
    scanner.scan()
    scanner.scan()
    transfers = sum(chip.transfers for chip in bus.chips)
    frames = sum(len(chip.frames) for chip in bus.chips)
    before = bus.bytes
    found = scanner.scan()
    return {"uids": uids, "baud": baud, "scan_us": scanner.scan_us,
            "zone_us": list(scanner.zone_us), "read": [len(f or []) for f in found],
            "read_fail": scanner.errors,
            "transfers": sum(chip.transfers for chip in bus.chips) - transfers,
            "bytes": bus.bytes - before,
            "frames": sum(len(chip.frames) for chip in bus.chips) - frames,
            "overlaps": bus.overlaps}


def on_micropython() -> str:
    """The figure line the MicroPython program prints (``tests/.../on_micropython/mat.py``)."""
    binary = Path(sys.executable).parent / "micropython"
    if not binary.exists():
        return "MicroPython's Unix port is not installed (scripts/install-deps --test)"
    here = ROOT / "tests" / "firmware"
    program = here / "on_micropython" / "mat.py"
    run = subprocess.run([str(binary), str(program), str(program.parent), str(here),
                          str(ROOT / "firmware")], capture_output=True, text=True, check=True)
    return next(line for line in run.stdout.splitlines() if line.startswith("figure "))


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layout", default="3,1,2,6",
                        help="tags on each zone, zone 0 first (default 3,1,2,6)")
    parser.add_argument("--uid-size", type=int, choices=(4, 7, 10), default=7)
    parser.add_argument("--baud", type=int, nargs="+", default=[2000000, 4000000, 8000000])
    parser.add_argument("--per-transfer-us", type=float, default=25.0,
                        help="the interpreter's time per SPI transfer, for the estimate")
    for name in ("rx_timeout_us", "startup_us", "guard_us"):
        parser.add_argument("--" + name.replace("_", "-"), type=int,
                            help=f"the config's {name} (default: the firmware's)")
    parser.add_argument("--micropython", action="store_true",
                        help="also run the default figure on MicroPython's Unix port")
    args = parser.parse_args()
    layout = [int(n) for n in args.layout.split(",")]
    settings = {name: getattr(args, name) for name in ("rx_timeout_us", "startup_us", "guard_us")
                if getattr(args, name) is not None}
    shown = config.check({"reader": "m", "kind": "mat", **settings})
    print(f"mat: {len(layout)} zones holding {' + '.join(map(str, layout))} tags, "
          f"{args.uid_size}-byte UIDs; modeled time with rx_timeout_us "
          f"{shown['rx_timeout_us']}, startup_us {shown['startup_us']}, guard_us "
          f"{shown['guard_us']}")
    for uids in ("scattered", "one roll"):
        for baud in args.baud:
            fig = measure(layout, args.uid_size, baud, uids, settings)
            zones = ", ".join(f"{us / 1000:.1f}" for us in fig["zone_us"])
            estimate = fig["scan_us"] / 1000 + fig["transfers"] * args.per_transfer_us / 1000
            print(f"  {uids:9} {baud / 1e6:4.1f} MHz: full scan {fig['scan_us'] / 1000:5.1f} ms"
                  f" (zones {zones} ms); {fig['transfers']} SPI transfers, {fig['bytes']} "
                  f"bytes, {fig['frames']} frames; with {args.per_transfer_us:g} us a transfer"
                  f" about {estimate:.0f} ms")
            print("   ", json.dumps(fig))
    if args.micropython:
        print("on MicroPython (default layout, 4 MHz):", on_micropython())


if __name__ == "__main__":
    main()
