"""``demo --mats``: a whole Popcorn game through the served hub, four virtual bag readers and
four virtual cinema mats on pseudo-terminals, the guests seated and sent out on the mats
(issue 40: "a whole game plays ... with 0 alerts and replay giving its scores")."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from companion.hub.hub import Hub

ROOT = Path(__file__).resolve().parents[2]
SENSED = {"place", "to_exit", "end_guest"}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.slow
def test_a_whole_game_is_seated_on_mats_with_no_alert_and_replays_to_its_scores(
        tmp_path: Path) -> None:
    """The demo ends (exit 0); its kept table is over, with no alert; every place, to_exit
    and end_guest of the game came from a mat's zone state, none from the tablet; and the
    game's record, given to ``replay``, gives the hub's own scores."""
    db = tmp_path / "kept.sqlite"
    done = subprocess.run(
        [sys.executable, "-m", "companion", "demo", "--mats", "--speed", "200",
         "--port", str(_free_port()), "--exit-when-done", "--db", str(db)],
        capture_output=True, text=True, cwd=ROOT, timeout=600,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr[-2000:]
    assert "4 virtual cinema mats" in done.stdout
    hub = Hub(db)
    try:
        (table,) = hub.tables.values()
        events = hub.store.events(table.id)
        record = table.record_text()
        scores = table.scores()
    finally:
        hub.stop()
    assert table.state.is_over and table.config.mats == ["mat-1", "mat-2", "mat-3", "mat-4"]
    assert [body["alert"]["code"] for _, kind, body in events if body.get("alert")] == []
    by_mat = [b["move"]["move"] for _, k, b in events
              if k == "tag" and "zone" in b.get("tag", {}) and b.get("move")]
    by_hand = [b["move"]["move"] for _, k, b in events if k == "move" and b.get("move")]
    assert set(by_mat) >= SENSED and not SENSED & set(by_hand)
    path = tmp_path / "game.jsonl"
    path.write_text(record)
    replayed = subprocess.run([sys.executable, "-m", "companion", "replay", str(path)],
                              capture_output=True, text=True, cwd=ROOT, timeout=120,
                              env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert replayed.returncode == 0, replayed.stderr
    printed = replayed.stdout
    assert json.loads(printed[printed.index("{"):])["scores"] == scores
