"""The ``score`` subcommand and its JSON front end (:mod:`companion.games.popcorn.scoresheet`).

Input errors must give exit status 2 and exactly one line on stderr, never a traceback.
The subprocess tests run the real ``python -m companion score``; the in-process tests call the
subcommand's parser directly, so they also work while other subcommands are being written.
"""

from __future__ import annotations

import argparse
import copy
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.commands import score as score_command
from companion.games.popcorn.engine import ScoreInputError
from companion.games.popcorn.facts_file import load_catalog
from companion.games.popcorn.scoresheet import parse_score_input

REPO = Path(__file__).resolve().parents[2]
CAT = load_catalog()
PREFIX = "popcorn-companion score: error: "

SHEET: dict[str, Any] = {
    "players": [
        {
            "name": "Ana",
            "bucket": 20,
            "money": 12,
            "theaters": [
                "default_one_seat_tile",
                "default_two_seat_tile",
                "three_seat_red_grey_grey",
            ],
            "movies": ["its_my_war", "the_volcano"],
            "guests": {"white": 5, "red": 6, "blue": 1, "green": 1, "yellow": 1},
            "audience": 5,
            "ad_tokens": ["red", "any", "white"],
            "awards": ["four_movies_same_color"],
        },
        {
            "name": "Bob",
            "bucket": 10,
            "money": 7,
            "theaters": ["default_one_seat_tile", "default_two_seat_tile", None],
            "movies": ["rosebud", "henrietta"],
            "guests": {"white": 5, "blue": 1},
            "audience": 3,
            "ad_tokens": [],
            "awards": ["guest_count"],
        },
    ]
}
"""The README example (Ana) plus an opponent, with totals worked out in :data:`EXPECTED`."""

EXPECTED = {
    "players": [
        {
            "name": "Ana",
            # 20 bucket + 12 // 5 = 2 + trophy 3 ($9 against $0, 2 players)
            # + four_movies_same_color: 2 red movies // 4 = 0 sets -> 0; total 25
            "total": 25,
            "breakdown": {
                "bucket": 20,
                "money": 2,
                "trophy": 3,
                "awards": {"four_movies_same_color": 0},
            },
            # no token can help a movie award, so none is used
            "ad_tokens_used": [
                {"space": "red", "use": "unused"},
                {"space": "any", "use": "unused"},
                {"space": "white", "use": "unused"},
            ],
        },
        {
            "name": "Bob",
            # 10 + 7 // 5 = 1 + trophy 0 + guest_count: 5 + 1 = 6 guests -> 5; total 16
            "total": 16,
            "breakdown": {"bucket": 10, "money": 1, "trophy": 0, "awards": {"guest_count": 5}},
            "ad_tokens_used": [],
        },
    ],
    "winners": ["Ana"],
}


def sheet_with(player: int = 0, **changes: Any) -> dict[str, Any]:
    """A copy of :data:`SHEET` with some fields of one player changed."""
    doc = copy.deepcopy(SHEET)
    doc["players"][player].update(changes)
    return doc


BAD_SHEETS: dict[str, dict[str, Any]] = {
    "unknown id": sheet_with(movies=["its_my_war", "the_popcorn_strikes_back"]),
    "tile owned by two players": sheet_with(
        1, theaters=["default_one_seat_tile", "default_two_seat_tile", "three_seat_red_grey_grey"]
    ),
    "movie owned by two players": sheet_with(1, movies=["rosebud", "the_volcano"]),
    "too many red pawns": sheet_with(1, guests={"red": 5}),  # 6 + 5 = 11 > 10 in the box
    "negative money": sheet_with(money=-5),
    "missing field": {"players": [{"name": "Ana"}, SHEET["players"][1]]},
    "wrong type": sheet_with(bucket="twenty"),
    "unknown key": sheet_with(hat="top"),
    "one player": {"players": [SHEET["players"][0]]},
}


# --------------------------------------------------------------------------- in process


def run_in_process(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    path: str,
    stdin: bytes = b"",
) -> tuple[int, str, str]:
    """Run ``score PATH`` through the subcommand's own parser; return status, stdout, stderr."""
    parser = argparse.ArgumentParser(prog="popcorn-companion")
    score_command.register(parser.add_subparsers())
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    args = parser.parse_args(["score", path])
    status = args.func(args)
    out, err = capsys.readouterr()
    return status, out, err


def test_in_process_scores_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    sheet = tmp_path / "game.json"
    sheet.write_text(json.dumps(SHEET), encoding="utf-8")
    status, out, err = run_in_process(capsys, monkeypatch, str(sheet))
    assert (status, err) == (0, "")
    assert json.loads(out) == EXPECTED
    assert out.startswith('{\n  "players"')  # indent=2


def test_in_process_reads_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = run_in_process(capsys, monkeypatch, "-", json.dumps(SHEET).encode())
    assert status == 0
    assert json.loads(out) == EXPECTED


@pytest.mark.parametrize("case", sorted(BAD_SHEETS))
def test_in_process_bad_sheet_is_one_error_line(
    case: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stdin = json.dumps(BAD_SHEETS[case]).encode()
    status, out, err = run_in_process(capsys, monkeypatch, "-", stdin)
    assert_one_error_line(status, out, err)


@pytest.mark.parametrize(
    "stdin",
    [b"{not json", b"", b"\xff\xfe\x00garbage", b"[" * 100_000, b"1" * 5000, b'{"players": null}'],
    ids=["broken", "empty", "not utf-8", "too deep", "huge number", "null players"],
)
def test_in_process_unreadable_json_is_one_error_line(
    stdin: bytes, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert_one_error_line(*run_in_process(capsys, monkeypatch, "-", stdin))


def test_in_process_missing_file_is_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, err = run_in_process(capsys, monkeypatch, str(tmp_path / "nope.json"))
    assert_one_error_line(status, out, err)
    assert "cannot read" in err


def test_newline_in_a_name_cannot_split_the_error_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    doc = sheet_with(name="Ana\nBanana", money=-1)
    assert_one_error_line(*run_in_process(capsys, monkeypatch, "-", json.dumps(doc).encode()))


def assert_one_error_line(status: int, out: str, err: str) -> None:
    assert status == 2
    assert out == ""
    assert err.startswith(PREFIX)
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err


# --------------------------------------------------------------------------- real subprocess


def run_cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    """``python -m companion ARGS`` from the repository root."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        input=stdin,
        capture_output=True,
        cwd=REPO,
        env=env,
        timeout=60,
        check=False,
    )


def test_cli_scores_a_file(tmp_path: Path) -> None:
    sheet = tmp_path / "game.json"
    sheet.write_text(json.dumps(SHEET), encoding="utf-8")
    done = run_cli("score", str(sheet))
    assert done.returncode == 0, done.stderr.decode()
    assert json.loads(done.stdout) == EXPECTED


def test_cli_scores_stdin() -> None:
    done = run_cli("score", "-", stdin=json.dumps(SHEET).encode())
    assert done.returncode == 0, done.stderr.decode()
    assert json.loads(done.stdout) == EXPECTED


@pytest.mark.parametrize("case", sorted(BAD_SHEETS))
def test_cli_inconsistent_sheet_exits_2_with_one_line(case: str) -> None:
    done = run_cli("score", "-", stdin=json.dumps(BAD_SHEETS[case]).encode())
    assert_one_error_line(done.returncode, done.stdout.decode(), done.stderr.decode())


def test_cli_bad_json_exits_2_with_one_line() -> None:
    done = run_cli("score", "-", stdin=b'{"players": [')
    assert_one_error_line(done.returncode, done.stdout.decode(), done.stderr.decode())


def test_cli_missing_file_exits_2_with_one_line(tmp_path: Path) -> None:
    done = run_cli("score", str(tmp_path / "nope.json"))
    assert_one_error_line(done.returncode, done.stdout.decode(), done.stderr.decode())


# --------------------------------------------------------------------------- scorefile


def test_missing_guest_colors_count_as_zero() -> None:
    players = parse_score_input(SHEET, CAT)
    assert players[1].guests == {"white": 5, "blue": 1, "green": 0, "red": 0, "yellow": 0}
    assert players[1].theaters == ("default_one_seat_tile", "default_two_seat_tile", None)


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ([], "must be a JSON object"),
        ({}, "no 'players' list"),
        ({"players": [], "extra": 1}, "unknown key 'extra'"),
        ({"players": "Ana"}, "'players' must be a list"),
        ({"players": [1, 2]}, r"players\[0\] must be an object"),
        (sheet_with(hat="top"), r"players\[0\] \(Ana\): unknown key 'hat'"),
        ({"players": [{"name": "Ana"}]}, "missing field 'bucket'"),
        (sheet_with(bucket=1.5), "bucket must be a whole number, got the number 1.5"),
        (sheet_with(money=True), "money must be a whole number, got true"),
        (sheet_with(movies="its_my_war"), "movies must be a list"),
        (sheet_with(movies=["its_my_war", 7]), r"movies\[1\] must be a string"),
        (sheet_with(movies=["its_my_war", None]), r"movies\[1\] must be a string, got null"),
        (sheet_with(guests=[5]), "guests must be an object"),
        (sheet_with(guests={"pink": 1}), "unknown key 'pink'"),
        (sheet_with(guests={"red": "6"}), "guests.red must be a whole number"),
        (sheet_with(name=3), "name must be a string"),
        (sheet_with(name=""), "name must be a non-empty string"),
        (sheet_with(awards=["four_movies_same_colour"]), "Ana: unknown award"),
    ],
)
def test_malformed_sheet_gets_a_specific_message(doc: Any, message: str) -> None:
    with pytest.raises(ScoreInputError, match=message):
        parse_score_input(doc, CAT)
