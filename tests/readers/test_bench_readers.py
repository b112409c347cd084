"""bench/readers.py in small: the readers in their own process, both transports, and the
counts it prints (resent, held, lost, doubled) for each run."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.broker  # the bench starts a Mosquitto of its own
BENCH = Path(__file__).resolve().parents[2] / "bench" / "readers.py"


def test_a_small_run_of_both_transports_loses_and_doubles_nothing() -> None:
    """Two readers, 40 taps flat out and 40 paced: every tap stored once and acked."""
    run = subprocess.run(
        [sys.executable, str(BENCH), "--paths", "serial", "mqtt", "--readers", "2",
         "--events", "40", "--pace", "100"],
        capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    cases = [line for line in lines if "events/s flat out" in line]
    assert [line.split()[0] for line in cases] == ["serial", "mqtt"]
    assert all(re.search(r"p50 +[\d.]+ ms +p99 +[\d.]+ ms +max +[\d.]+ ms", c) for c in cases)
    counts = [line for line in lines if "lost" in line]
    assert len(counts) == 4, run.stdout  # a flat-out and a paced line per case
    for line in counts:
        # a resend (an ack later than 5 s on a crowded machine) would still be no loss
        assert re.search(r"resent \d+, held 0, lost 0, doubled 0, all acked \d+ ms", line), line
        assert "NOT ALL ACKED" not in line
