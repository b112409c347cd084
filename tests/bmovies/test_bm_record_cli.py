"""B Movies records, and ``replay``, ``score`` and ``simulate`` run as real processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.games.bmovies.engine import Move, final_cut, play_random
from companion.games.bmovies.record import (
    Record,
    RecordError,
    dumps_record,
    is_bmovies_header,
    loads_record,
    replay,
)
from tests.bmovies.turns import FACTS

ROOT = Path(__file__).parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "b-movies-3p.jsonl"
DOC = ROOT / "docs" / "b-movies.md"
NAMES = ("Ana", "Bob", "Chloe", "Dev")


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``python -m companion`` from the repository root."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "companion", *args], input=stdin, cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=300, check=False)


def game_text(n: int = 3, seed: int = 4, variant: str = "standard") -> str:
    """A whole random game's record."""
    moves, _ = play_random(FACTS, n, seed, variant)
    return dumps_record(Record(NAMES[:n], 0, variant, moves))


def test_header_names_the_game() -> None:
    """Spec record: the header has format companion-record and game b-movies."""
    head = json.loads(game_text().splitlines()[0])
    assert head == {"format": "companion-record", "game": "b-movies", "version": 1,
                    "players": ["Ana", "Bob", "Chloe"], "first_player": 0,
                    "variant": "standard"}
    assert is_bmovies_header(json.dumps(head))
    assert not is_bmovies_header('{"format": "popcorn-record", "version": 2}')


def test_record_round_trips_byte_for_byte() -> None:
    """Spec record: dumps_record(loads_record(text)) == text, titles and token ids kept."""
    moves = [Move("pitch", player=0, cards=2, title="Zombie Cowboys of Mars, «déjà vu»"),
             Move("vote", player=1, vote="yes!"), Move("vote", player=2, vote="no"),
             Move("draw_token", player=1, value=3, token=80),
             Move("draw_token", player=1, value=0)]
    text = dumps_record(Record(("Ana", "Bob", "Chloe"), 0, "standard", moves))
    record = loads_record(text)
    assert record.moves == moves and dumps_record(record) == text
    state = replay(record)
    assert state.screenwriter == 1 and state.pile_tokens[1] == [80]


@pytest.mark.parametrize(("lines", "line", "code"), [
    (['{"format": "popcorn-record", "version": 2, "players": [], "first_player": 0}'],
     1, "BAD_RECORD"),
    (['{"format": "companion-record", "game": "b-movies", "version": 9, "players": []}'],
     1, "BAD_RECORD"),
    (['{"format": "companion-record", "game": "b-movies", "version": 1, '
      '"players": ["A", "B", "C"], "variant": "teams"}'], 1, "BAD_RECORD"),
    (["HEAD", "{not json"], 2, "BAD_RECORD"),
    (["HEAD", '{"move": "pitch", "player": 0, "cards": 2}', '{"move": "wink"}'],
     3, "UNKNOWN_MOVE"),
])
def test_loads_names_the_first_bad_line(lines: list[str], line: int, code: str) -> None:
    """Spec record: loads_record raises RecordError with the line."""
    head = game_text().splitlines()[0]
    text = "\n".join(head if x == "HEAD" else x for x in lines) + "\n"
    with pytest.raises(RecordError) as caught:
        loads_record(text)
    assert (caught.value.line, caught.value.code) == (line, code)


def test_replay_stops_at_the_first_illegal_move() -> None:
    """Spec record: replay stops at the first illegal move naming its line and code."""
    lines = game_text().splitlines()
    lines.insert(3, '{"move": "vote", "player": 0, "vote": "yes"}')
    with pytest.raises(RecordError) as caught:
        replay(loads_record("\n".join(lines)))
    assert (caught.value.line, caught.value.code) == (4, "NOT_A_PRODUCER")


def test_too_few_players_in_the_header_is_a_setup_error() -> None:
    """Clarification 1: a record of 2 players fails at line 1 with BAD_SETUP."""
    text = dumps_record(Record(("Ana", "Bob"), 0, "standard", []))
    with pytest.raises(RecordError) as caught:
        replay(loads_record(text))
    assert (caught.value.line, caught.value.code) == (1, "BAD_SETUP")


def test_the_docs_example_replays_and_is_in_the_docs() -> None:
    """docs/b-movies.md: the complete example game replays to its Final Cut."""
    text = EXAMPLE.read_text(encoding="utf-8")
    record = loads_record(text)
    assert dumps_record(record) == text
    state = replay(record)
    assert state.is_over and len(record.names) == 3 and record.variant == "hidden"
    assert final_cut(state).winners
    assert text.strip() in DOC.read_text(encoding="utf-8")


def test_cli_replay_prints_summary_and_final_cut(tmp_path: Path) -> None:
    """``replay`` picks B Movies from the header: summary, Final Cut, exit 0."""
    path = tmp_path / "game.jsonl"
    path.write_text(game_text(4, 2, "hidden"), encoding="utf-8")
    run = cli("replay", str(path))
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["summary"]["phase"] == "over" and out["summary"]["game"] == "b-movies"
    cut = out["final_cut"]
    assert [p["name"] for p in cut["players"]] == list(NAMES)
    assert {"token_total", "movie_points", "score", "studio"} <= set(cut["players"][0])
    assert cut["winners"] and cut["tie_break"] in ("none", "longest_movie", "shared")
    assert sorted(len(s["members"]) for s in cut["sides"]) == [2, 2]


def test_cli_replay_of_an_unfinished_game_has_no_final_cut() -> None:
    """``replay`` of a record cut short: summary only."""
    lines = game_text().splitlines()[:20]
    run = cli("replay", "-", stdin="\n".join(lines) + "\n")
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert "final_cut" not in out and out["summary"]["phase"] != "over"


def test_cli_replay_of_a_bad_record_names_the_line(tmp_path: Path) -> None:
    """``replay`` of an illegal record: exit 1, ``line N: CODE: sentence`` on stderr."""
    lines = game_text().splitlines()
    lines[2] = '{"move": "vote", "player": 0, "vote": "yes"}'
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    run = cli("replay", str(path))
    assert run.returncode == 1 and run.stdout == ""
    assert "line 3: NOT_A_PRODUCER:" in run.stderr


def test_cli_replay_game_option_overrides_the_header() -> None:
    """``replay --game b-movies`` reads a B Movies record; ``--game popcorn`` refuses it."""
    text = game_text()
    assert cli("replay", "--game", "b-movies", "-", stdin=text).returncode == 0
    assert cli("replay", "--game", "popcorn", "-", stdin=text).returncode == 1


SHEET = {"game": "b-movies", "variant": "hidden", "players": [
    {"name": "Ana", "tokens": [4, 3, 0], "movies": [3, {"cards": 4, "title": "Robot Prom"}],
     "studio": 1},
    {"name": "Bob", "tokens": [2, 2], "movies": [2], "studio": 1},
    {"name": "Chloe", "tokens": [1, 1, 1], "movies": [], "studio": 5}]}


def test_cli_score_of_a_sheet(tmp_path: Path) -> None:
    """``score`` of a B Movies sheet: the Final Cut with teams and a doubled single."""
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(SHEET), encoding="utf-8")
    run = cli("score", str(path))
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert [p["score"] for p in out["players"]] == [14, 6, 3]
    assert [(s["members"], s["total"], s["doubled"]) for s in out["sides"]] == [
        ([0, 1], 20, False), ([2], 6, True)]
    assert out["winners"] == [0] and out["players"][0]["name"] == "Ana"


@pytest.mark.parametrize("change", [
    {"variant": "teams"}, {"players": []},
    {"players": [{"name": "A", "tokens": [4] * 6}, {"name": "B"}, {"name": "C"}]},
    {"players": [{"name": "A", "movies": [5]}, {"name": "B"}, {"name": "C"}]},
    {"players": [{"name": "A", "studio": 1}, {"name": "B", "studio": 2},
                 {"name": "C", "studio": 3}]},
])
def test_cli_score_refuses_an_impossible_sheet(change: dict[str, object]) -> None:
    """``score``: more tokens than the bucket, a 5-card movie, a deal off the chart: exit 2."""
    run = cli("score", "-", stdin=json.dumps({**SHEET, **change}))
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.startswith("popcorn-companion score: error: ")


def test_cli_simulate_writes_records_that_replay(tmp_path: Path) -> None:
    """``simulate --game b-movies --players 5 --variant hidden --record DIR``."""
    run = cli("simulate", "--game", "b-movies", "--players", "5", "--variant", "hidden",
              "--games", "3", "--record", str(tmp_path))
    assert run.returncode == 0, run.stderr
    assert "games: 3 (b-movies, 5 players, hidden variant" in run.stdout
    assert "mean rounds: 3.00" in run.stdout
    for path in sorted(tmp_path.glob("game-*.jsonl")):
        assert replay(loads_record(path.read_text(encoding="utf-8"))).is_over


def test_cli_simulate_refuses_player_counts_of_the_other_game() -> None:
    """Clarification 1 for B Movies (3-6), Popcorn keeps 2-4."""
    assert cli("simulate", "--game", "b-movies", "--players", "2").returncode == 2
    assert cli("simulate", "--players", "5").returncode == 2


@pytest.mark.parametrize(("game", "players", "span"), [
    ("b-movies", "7", "3 to 6"), ("b-movies", "2", "3 to 6"), ("popcorn", "5", "2 to 4")])
def test_cli_simulate_refuses_a_player_count_the_game_does_not_have(
        game: str, players: str, span: str) -> None:
    """Clarification 1 (3 to 6 players, from the facts) and Popcorn's 2 to 4: a usage error
    (exit 2) naming the range, and no game played."""
    done = cli("simulate", "--game", game, "--players", players, "--games", "1")
    assert done.returncode == 2 and done.stdout == ""
    assert f"{game} is for {span} players" in done.stderr
