"""The cinema mat's firmware on MicroPython's Unix port: the key cases of ``test_fw_mat.py``.

``on_micropython/mat.py`` runs the real driver, scanner, zone debounce, delivery and
messages on MicroPython itself (its integers, bytes and ``json``), against the same
register-level fake bus with its virtual clock; this test reads what it printed. Every
message the mat sent is checked against protocol v2's ``zones``, ``hello`` and
``heartbeat`` as ``docs/protocol.md`` gives them (the hub's parser learns v2 separately).
The modeled full-scan time is printed (``pytest -s``) and must be at most 100 ms.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.firmware.test_fw_on_micropython import micropython

HERE = Path(__file__).parent
FIRMWARE = HERE.parents[1] / "firmware"
PROGRAM = HERE / "on_micropython" / "mat.py"
UID = re.compile(r"^(?:[0-9a-f]{8}|[0-9a-f]{14}|[0-9a-f]{20})$")
FIELDS = {
    "hello": {"v", "type", "reader", "boot", "fw", "unacked"},
    "zones": {"v", "type", "reader", "boot", "seq", "zone", "tags"},
}
HEARTBEAT_FIELDS = {"v", "type", "reader", "boot", "uptime", "rssi", "supply_mv", "read_fail",
                    "too_fast", "scan_ms"}


@pytest.fixture(scope="module")
def printed() -> dict[str, list[Any]]:
    """What the program printed, by scenario name (each value parsed as JSON)."""
    run = subprocess.run([micropython(), str(PROGRAM), str(PROGRAM.parent), str(HERE),
                          str(FIRMWARE)], capture_output=True, timeout=300, check=False)
    assert run.returncode == 0, run.stdout.decode() + run.stderr.decode()
    out: dict[str, list[Any]] = {}
    for line in run.stdout.splitlines():
        name, _, value = line.partition(b" ")
        out.setdefault(name.decode(), []).append(json.loads(value))
        if name == b"longest":
            out["longest_bytes"] = [len(value)]
    return out


def valid(msg: dict[str, Any]) -> bool:
    """Whether ``msg`` is a v2 message a mat may send, as ``docs/protocol.md`` says."""
    if msg.get("v") != 2 or msg.get("reader") != "mat-1":
        return False
    kind = msg["type"]
    if kind == "heartbeat":
        return set(msg) <= HEARTBEAT_FIELDS and 0 <= msg.get("scan_ms", 0) <= 65535
    if set(msg) != FIELDS.get(kind):
        return False
    if kind == "zones":
        tags = msg["tags"]
        return (0 <= msg["zone"] <= 7 and len(tags) <= 16 and len(set(tags)) == len(tags)
                and all(UID.match(t) for t in tags))
    return True


def test_every_message_is_protocol_v2(printed) -> None:
    """Every hello, zones and heartbeat the mat sent has v2's fields, types and ranges; a
    fresh mat greets, then sends each zone's state once known."""
    sent = [m for name in ("first", "hello", "heartbeat") for batch in printed[name]
            for m in batch]
    assert {m["type"] for m in sent} == {"hello", "zones", "heartbeat"}
    assert [m["type"] for m in printed["first"][0]] == ["hello"] + ["zones"] * 4
    assert all(valid(m) for m in sent), [m for m in sent if not valid(m)]


def test_the_full_scan_of_twelve_tags_fits_in_100_ms(printed) -> None:
    """3 + 1 + 2 + 6 tags with 7-byte UIDs, four zones: at most 100 ms of modeled time."""
    (fig,) = printed["figure"]
    print(f"mat on MicroPython: full scan {fig['scan_us'] / 1000:.1f} ms (zones "
          f"{', '.join(f'{us / 1000:.1f}' for us in fig['zone_us'])} ms; "
          f"{fig['transfers']} SPI transfers, {fig['bytes']} bytes at {fig['baud']} baud)")
    assert fig["counts"] == [3, 1, 2, 6] and fig["read_fail"] == 0
    assert fig["scan_us"] <= 100_000


def test_debounce_on_micropython(printed) -> None:
    """Reported after 2 scans and once; a hover never; a flicker never leaves; a lifted tag
    leaves after 3 missed scans."""
    (set_down,) = printed["set_down"]
    pawn = set_down[1][0][1][0]
    assert set_down == [[], [[0, [pawn]]], []]
    assert printed["hover"] == [[[], 1]]
    assert printed["flicker"] == [[[], [pawn]]]
    assert printed["lift"] == [[[], [[0, []]], []]]


def test_order_and_moves_on_micropython(printed) -> None:
    """Tags of one scan in the scan's order, a later one last; a move is two messages."""
    (order,) = printed["order"]
    assert order["together"] == [[2, order["read"]]]
    assert order["later"][0][1][:2] == order["read"] and len(order["later"][0][1]) == 3
    (move,) = printed["move"]
    rest = [u for u in order["later"][0][1] if u != move["uid"]]
    assert move["states"] == [[3, [move["uid"]]], [2, rest]]
    assert move["seqs"] == sorted(set(move["seqs"]))


def test_twelve_tags_and_the_chips_isolation_on_micropython(printed) -> None:
    """Twelve tags on the exit zone all read; every chip but the scanned one in reset."""
    (twelve,) = printed["twelve"]
    exit_state = [tags for zone, tags in twelve["states"] if zone == 3]
    assert sorted(exit_state[0]) == sorted(twelve["expected"]) and twelve["read_fail"] == 0
    assert printed["isolation"] == [{"overlaps": 0, "couplings": 0, "unready_bytes": 0,
                                     "in_reset": [True] * 4}]


def test_delivery_on_micropython(printed) -> None:
    """A resync: hello, then every zone; unacked states resent until acked."""
    (hello,) = printed["hello"]
    assert hello[0]["type"] == "hello"
    assert [m["zone"] for m in hello[1:] if m["type"] == "zones"] == [0, 1, 2, 3]
    (resend,) = printed["resend"]
    assert resend["fives"] >= 2 and resend["after"] == 0 and resend["pending"] == 0


def test_bad_chips_and_tags_on_micropython(printed) -> None:
    """A dead chip and a tag with a bad CRC: counted, the rest read, the loop unhurt."""
    (bad,) = printed["bad"]
    assert sorted(bad["states"][0][1]) == sorted(bad["expected"]) and bad["states"][0][0] == 3
    assert len(bad["zone1"]) == 1, "the dead chip's zone keeps its state"
    assert bad["read_fail"] >= 4 + 4 and bad["step_errors"] == 0
    ((beat,),) = printed["heartbeat"]
    assert beat["read_fail"] >= bad["read_fail"] and beat["scan_ms"] <= 100


def test_the_longest_zones_message_fits(printed) -> None:
    """16 ten-byte UIDs and the longest reader id, built by MicroPython's ``json``: under 512
    bytes with the newline."""
    (longest,) = printed["longest"]
    (size,) = printed["longest_bytes"]
    assert size + 1 < 512 and len(longest["tags"]) == 16 and longest["reader"] == "r" * 32
    assert all(UID.match(t) and len(t) == 20 for t in longest["tags"])
