"""B Movies records, and ``replay``, ``score`` and ``simulate`` run as real processes."""

from __future__ import annotations

import copy
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

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


def doc_section(title: str) -> str:
    """A ``## title`` section of docs/b-movies.md, up to the next one."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end > 0 else None]


def doc_sheet() -> dict[str, Any]:
    """The example sheet of docs/b-movies.md ("The score sheet"): its first JSON block."""
    section = doc_section("The score sheet")
    block = re.search(r"```json\n(.*?)```", section, re.DOTALL)
    assert block, "no JSON block in the score sheet section"
    return json.loads(block.group(1))


def doc_scores() -> tuple[list[list[str]], str]:
    """The Final Cut the docs show for the example sheet: its table's rows (player, tokens,
    movie points, score, side, side total) and the winner line."""
    section = doc_section("The score sheet")
    head = section.index("| player | tokens | movie points | score |")
    rows = []
    for line in section[head:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    winner = re.search(r"^Winner: .*$", section, re.MULTILINE)
    assert rows and winner
    return rows, winner.group(0)


SHEET = doc_sheet()
"""The documented example: the sheet of the example game ``docs/examples/b-movies-3p.jsonl``."""


def test_the_docs_example_sheet_is_the_example_games() -> None:
    """Issue 27: the documented sheet is one a real game produces: the example record's
    Final Cut, player by player (tokens in any order; a title is the table's own)."""
    state = replay(loads_record(EXAMPLE.read_text(encoding="utf-8")))
    assert SHEET["variant"] == state.variant
    for seat, row in enumerate(SHEET["players"]):
        cards = [m if isinstance(m, int) else m["cards"] for m in row["movies"]]
        assert sorted(row["tokens"]) == sorted(state.piles[seat])
        assert cards == [m.cards for m in state.movies[seat]]
        assert row["studio"] == state.studios[seat]


def test_cli_score_of_the_docs_example_prints_what_the_docs_show(tmp_path: Path) -> None:
    """``score`` of the documented sheet: the Final Cut is the table and winner the docs
    show (teams, the doubled single), and the example game's own Final Cut."""
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(SHEET), encoding="utf-8")
    run = cli("score", str(path))
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    rows, winner = doc_scores()
    side_of = {m: side for side in out["sides"] for m in side["members"]}
    shown = []
    for p in out["players"]:
        side = side_of[p["seat"]]
        mates = [out["players"][m]["name"] for m in side["members"] if m != p["seat"]]
        how = "alone: doubled" if side["doubled"] else "with " + " and ".join(mates)
        shown.append([p["name"], str(p["token_total"]), str(p["movie_points"]), str(p["score"]),
                      f"studio {side['studio']}, {how}", str(side["total"])])
    assert shown == rows
    names = " and ".join(out["players"][m]["name"] for s in out["winners"]
                         for m in out["sides"][s]["members"])
    assert winner == f"Winner: {names} (tie-break: {out['tie_break']})."
    state = replay(loads_record(EXAMPLE.read_text(encoding="utf-8")))
    assert [p["score"] for p in out["players"]] == [p.score for p in final_cut(state).players]


def changed(change: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    """The documented sheet, changed one way."""
    doc = copy.deepcopy(SHEET)
    change(doc)
    return doc


ISSUE_27_SHEET = {"game": "b-movies", "variant": "hidden", "players": [
    {"name": "Ana", "tokens": [4, 3, 0], "movies": [3, {"cards": 4, "title": "Robot Prom"}],
     "studio": 1},
    {"name": "Bob", "tokens": [2, 2], "movies": [2], "studio": 1},
    {"name": "Chloe", "tokens": [1, 1, 1], "movies": [], "studio": 5}]}
"""The example the docs showed before issue 27: 8 tokens, where 12 rejected pitches of 3
players drew at least 27."""


@pytest.mark.parametrize(("doc", "code", "who"), [
    (changed(lambda d: d.update(variant="teams")), "BAD_SHEET", None),
    (changed(lambda d: d.update(players=[])), "SHEET_PLAYER_COUNT", None),
    (changed(lambda d: d["players"][0]["tokens"].extend([4] * 5)), "SHEET_BUCKET", None),
    (changed(lambda d: d["players"][1]["movies"].append(5)), "SHEET_MOVIE_SIZE", "Bob"),
    (changed(lambda d: d["players"][0].update(studio=0)), "SHEET_STUDIO_DEAL", None),
    (changed(lambda d: d["players"][2]["movies"].extend([2, 2, 2])),
     "SHEET_MOVIES_BEYOND_ROUNDS", "Chloe"),
    (changed(lambda d: d["players"][0]["tokens"].extend([0] * 5)),
     "SHEET_TOKENS_BEYOND_DRAWS", "Ana"),
    (changed(lambda d: d["players"][0].update(tokens=[4])), "SHEET_TOKENS_BELOW_DRAWS", "Ana"),
    (changed(lambda d: [p.update(tokens=p["tokens"][:2]) for p in d["players"]]),
     "SHEET_TOO_FEW_TOKENS", None),
    (ISSUE_27_SHEET, "SHEET_TOKENS_BELOW_DRAWS", "Ana"),
])
def test_cli_score_refuses_an_impossible_sheet(doc: dict[str, Any], code: str,
                                               who: str | None) -> None:
    """``score`` of a sheet no game could produce: exit 2, nothing on standard output, and
    one line ``popcorn-companion score: error: CODE: sentence`` naming the player."""
    run = cli("score", "-", stdin=json.dumps(doc))
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.startswith(f"popcorn-companion score: error: {code}: "), run.stderr
    assert len(run.stderr.splitlines()) == 1
    if who:
        assert who in run.stderr


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
