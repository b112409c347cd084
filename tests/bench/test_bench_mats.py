"""Issue 40's two mat benches in small: ``bench/e2e.py --mats`` (the hub's CPU per action
with mats against without) and ``bench/mat_latency.py`` (a guest set down on a mat, to the
tablet showing it seated). They assert what the benches do and print, never a speed."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))
mat_latency = importlib.import_module("mat_latency")  # bench/mat_latency.py, a script


def _run(script: str, *args: str) -> str:
    run = subprocess.run([sys.executable, str(BENCH / script), *args], capture_output=True,
                         text=True, timeout=600, cwd=BENCH.parent)
    assert run.returncode == 0, run.stdout + run.stderr
    return run.stdout


@pytest.mark.slow
def test_e2e_with_mats_plays_the_same_games_as_without() -> None:
    """One 2-player table without mats, then with them: the same actions (the guests go
    where a mat would seat them either way), the mats' reports only in the second, and the
    CPU ratio printed with its definition of an action."""
    out = _run("e2e.py", "--tables", "1", "--players", "2", "--taps", "4", "--first-taps",
               "4", "--delay", "0.02", "--mats", "off", "on")
    cases = [line for line in out.splitlines() if "table(s) at once" in line]
    assert [line.split()[0] for line in cases] == ["mats=off", "mats=on"], out
    reports = [int(n) for n in re.findall(r"(\d+) mat reports", out)]
    assert reports[0] == 0 and reports[1] > 0, out
    ratio = re.search(r"hub CPU per action [\d.]+ ms against [\d.]+ ms on mats=off gunicorn: "
                      r"[\d.]+x \(actions (\d+) and (\d+); table events (\d+) and (\d+)\)", out)
    assert ratio, out
    assert ratio[1] == ratio[2] and int(ratio[1]) > 0  # the same game, move for move
    assert "lost their connection" not in out


@pytest.mark.slow
def test_mat_latency_times_each_guest_set_down() -> None:
    """A few set-downs on a 2-player table: each timed, split into the mat's debounce and
    the hub, with the percentiles and the goal printed."""
    out = _run("mat_latency.py", "--set-downs", "3", "--players", "2", "--delay", "0.02")
    assert re.search(r"full scan [\d.]+ ms \(zones read at 0\.0, [\d., ]+ ms into it\)", out)
    assert re.search(r"3 set-downs \(0 never shown seated\): p50 +[\d.]+ p95 +[\d.]+ "
                     r"p99 +[\d.]+ ms", out), out
    assert re.search(r"goal: p99 at most 300 ms: (within|ABOVE)", out)
    assert re.search(r"the mat \(touch -> its report: the debounce\): p50", out)
    assert re.search(r"the hub \(report -> push in the client's hand\): p50", out)
    assert re.search(r"the debounce's share: \d+ % of the mean", out)


def test_a_scanning_mat_reports_only_what_its_scans_settle() -> None:
    """A tag set down is reported once two scans read it (never before the second scan),
    and a tag taken up once three scans missed it; the hand's own calls report nothing."""
    timing = mat_latency.ScanTiming((0.0, 0.004), 0.01)
    mat = mat_latency.ScanningMat("mat-1", timing)
    sent: list[bytes] = []
    mat.write = sent.append
    stop = threading.Event()
    threading.Thread(target=mat.scan_forever, args=(stop,), daemon=True).start()
    try:
        _until(lambda: mat.seq == 2)  # each zone reported once, as soon as it is known
        mat.set_down(1, "04A1B2C3D4E5F6")
        assert mat.seq == 2 and mat.zones[1] == []  # a hand is no report
        _until(lambda: mat.zones[1] == ["04A1B2C3D4E5F6"])
        touched, reported = mat.touched["04A1B2C3D4E5F6"], mat.reported["04A1B2C3D4E5F6"]
        assert reported - touched >= timing.scan  # read in two scans, reported at the end
        assert mat.seq == 3 and mat.where("04A1B2C3D4E5F6") == 1
        mat.take_up("04A1B2C3D4E5F6")
        assert mat.where("04A1B2C3D4E5F6") is None and mat.zones[1]
        _until(lambda: mat.zones[1] == [])
        assert mat.seq == 4 and len(sent) == 4
    finally:
        stop.set()


def _until(done, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "the mat's scans never settled"
        time.sleep(0.002)
