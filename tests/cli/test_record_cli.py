"""Game records and the ``replay`` and ``simulate`` commands, run as real processes."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from companion.games.popcorn.engine import Move, play_random
from companion.games.popcorn.record import Record, dumps_record, loads_record, replay, upgraded
from companion.kit.records import RecordError
from tests.engine.positions import CATALOG

EXAMPLE = Path(__file__).parents[2] / "docs" / "examples" / "game-4p.jsonl"
EXAMPLE_V1 = EXAMPLE.with_name("game-4p-v1.jsonl")


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``python -m companion`` with arguments."""
    return subprocess.run([sys.executable, "-m", "companion", *args], input=stdin,
                          capture_output=True, text=True, timeout=300, check=False)


def game_text(seed: int = 7, players: int = 3) -> str:
    game = play_random(CATALOG, players, random.Random(seed))
    return dumps_record(Record(game.names, game.first_player, game.moves))


def test_replay_prints_summary_and_scores(tmp_path: Path) -> None:
    """A whole legal game replays with exit 0, a summary and scores."""
    path = tmp_path / "game.jsonl"
    path.write_text(game_text())
    run = cli("replay", str(path))
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["summary"]["phase"] == "over"
    assert len(out["scores"]["players"]) == 3 and out["scores"]["winners"]


def test_replay_of_an_unfinished_game_has_no_scores() -> None:
    """A record that stops mid-game replays to its last state, without scores."""
    lines = game_text().splitlines()[:80]
    run = cli("replay", "-", stdin="\n".join(lines) + "\n")
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert "scores" not in out and out["summary"]["phase"] != "over"


def test_replay_stops_at_the_first_illegal_move() -> None:
    """The line number, the violation code and the sentence; exit status 1."""
    lines = game_text().splitlines()
    first_draw = next(i for i, line in enumerate(lines) if '"draw_pawn"' in line)
    bad = json.loads(lines[first_draw])
    bad["pawn"] = 59 if bad["pawn"] != 59 else 58
    lines[first_draw] = json.dumps(bad)
    run = cli("replay", "-", stdin="\n".join(lines) + "\n")
    assert run.returncode == 1
    assert f"line {first_draw + 1}: PAWN_NOT_IN_BAG:" in run.stderr
    assert "Traceback" not in run.stderr


@pytest.mark.parametrize("text, code", [
    ("", "BAD_RECORD"),
    ("not json\n", "BAD_RECORD"),
    ('{"format": "other"}\n', "BAD_RECORD"),
    ('{"format": "popcorn-record", "version": 9, "players": ["A", "B"], "first_player": 0}\n',
     "BAD_RECORD"),
    ('{"format": "popcorn-record", "version": 1, "players": ["A"], "first_player": 0}\n',
     "BAD_MOVE"),
    ('{"format": "popcorn-record", "version": 1, "players": ["A", "B"], "first_player": 0}\n'
     '{"move": "teleport"}\n', "UNKNOWN_MOVE"),
    ('{"format": "popcorn-record", "version": 1, "players": ["A", "B"], "first_player": 0}\n'
     '{"move": "end_turn", "player": "zero"}\n', "BAD_MOVE"),
])
def test_replay_refuses_broken_records(text: str, code: str) -> None:
    """Broken headers and lines get one line with a code, exit 1, no traceback."""
    run = cli("replay", "-", stdin=text)
    assert run.returncode == 1
    assert f": {code}: " in run.stderr and "Traceback" not in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1


def test_replay_of_a_missing_file_exits_2(tmp_path: Path) -> None:
    """An unreadable file is a usage error."""
    run = cli("replay", str(tmp_path / "nope.jsonl"))
    assert run.returncode == 2 and "cannot read" in run.stderr


def test_record_text_round_trips_and_names_lines() -> None:
    """Canonical text reads back to the same moves and writes back to the same text."""
    text = game_text(seed=11, players=2)
    record = loads_record(text)
    assert dumps_record(record) == text
    assert record.line_of(0) == 2
    spaced = text.replace("\n", "\n\n", 3)
    assert loads_record(spaced).moves == record.moves
    with pytest.raises(RecordError) as info:
        replay(CATALOG, Record(record.names, record.first_player,
                               [Move("end_turn", player=0)] + record.moves))
    assert info.value.line == 2 and info.value.code in ("PENDING_STEP", "WRONG_PHASE")


def test_the_documented_example_game_replays() -> None:
    """docs/examples holds a complete game that replays to its end."""
    run = cli("replay", str(EXAMPLE))
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["summary"]["phase"] == "over"


def test_the_version_1_example_still_replays_to_the_same_game() -> None:
    """docs/game-record.md, Versioning: version 1 is still read; its activation moves act for
    the guest whose turn it was, and the game is the one the example holds (version 3, and
    the same lines as version 2, which is read as it is)."""
    v1, v2 = loads_record(EXAMPLE_V1.read_text()), loads_record(EXAMPLE.read_text())
    assert (v1.version, v2.version) == (1, 3)
    as_v2 = loads_record(EXAMPLE.read_text().replace('"version": 3', '"version": 2', 1))
    assert as_v2.version == 2 and replay(CATALOG, as_v2) == replay(CATALOG, v2)
    assert any(m.kind == "end_guest" and m.seat is None for m in v1.moves)
    assert replay(CATALOG, v1) == replay(CATALOG, v2)
    assert dumps_record(v1) == EXAMPLE_V1.read_text()  # read and written as version 1
    assert dumps_record(upgraded(CATALOG, v1)) == EXAMPLE.read_text()
    run = cli("replay", str(EXAMPLE_V1))
    assert run.returncode == 0 and json.loads(run.stdout)["summary"]["phase"] == "over"


def test_version_2_activation_moves_must_name_their_seat() -> None:
    """docs/game-record.md: from version 2 on, seat_action, movie_action and end_guest name the
    acting guest's seat; a line without it is BAD_MOVE."""
    head = '{"format": "popcorn-record", "version": 2, "players": ["A", "B"], "first_player": 0}'
    with pytest.raises(RecordError) as info:
        loads_record(head + '\n{"move": "end_guest", "player": 0, "slot": 1}\n')
    assert info.value.line == 2 and info.value.code == "BAD_MOVE"
    old = head.replace('"version": 2', '"version": 1')
    assert loads_record(old + '\n{"move": "end_guest", "player": 0, "slot": 1}\n').moves


def test_simulate_prints_the_summary_and_writes_records(tmp_path: Path) -> None:
    """games, mean rounds, mean and max score, moves per second; records replay."""
    run = cli("simulate", "--games", "3", "--players", "2", "--seed", "4",
              "--record", str(tmp_path))
    assert run.returncode == 0, run.stderr
    for label in ("games: 3", "mean rounds:", "mean score:", "max score:", "moves per second:"):
        assert label in run.stdout
    files = sorted(tmp_path.glob("*.jsonl"))
    assert len(files) == 3
    assert cli("replay", str(files[0])).returncode == 0


def test_simulate_is_reproducible() -> None:
    """The same seed gives the same games."""
    first = cli("simulate", "--games", "2", "--seed", "9").stdout.splitlines()[:3]
    second = cli("simulate", "--games", "2", "--seed", "9").stdout.splitlines()[:3]
    assert first == second


def test_simulate_refuses_bad_options() -> None:
    """Bad options are usage errors with exit status 2."""
    assert cli("simulate", "--players", "5").returncode == 2
    assert cli("simulate", "--games", "0").returncode == 2


def test_script_and_module_behave_the_same() -> None:
    """``python -m companion`` and the console script print the same help."""
    script = Path(sys.executable).with_name("popcorn-companion")
    if not script.exists():
        pytest.skip("console script not installed next to this interpreter")
    a = subprocess.run([str(script), "--help"], capture_output=True, text=True, check=False)
    assert a.stdout.replace("popcorn-companion", "") == cli("--help").stdout.replace(
        "popcorn-companion", "")
