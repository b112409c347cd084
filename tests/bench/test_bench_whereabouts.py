"""``bench/whereabouts.py``: the look-alikes' pruning, this checkout's against a baseline's,
on calls recorded from a whole game. Here against HEAD with one game: the results agree
and both versions' figures are printed (the figures themselves are the bench's, not a
test's)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_the_bench_times_the_same_calls_on_both_versions() -> None:
    out = subprocess.run([sys.executable, str(REPO / "bench" / "whereabouts.py"),
                          "--baseline", "HEAD", "--games", "1", "--share", "0.1",
                          "--rounds", "1"], cwd=REPO, capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stderr
    assert "the same results on both" in out.stdout
    lines = [line.split() for line in out.stdout.splitlines() if "us a call" in line]
    assert [words[0] for words in lines][1:] == ["current"]
    assert all(float(words[1]) > 0 for words in lines)
