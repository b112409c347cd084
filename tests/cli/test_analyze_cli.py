"""``popcorn-companion analyze``, run as a real process: the report, the JSON, bad input."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).parents[2] / "docs" / "examples" / "game-4p.jsonl"
B_MOVIES = EXAMPLE.with_name("b-movies-3p.jsonl")
PLAYER_LINE = re.compile(r"^(\w+): accuracy (\d+\.\d) %, (\d+) decisions valued "
                         r"\(kept [\d.]+ of [\d.]+ popcorn\)$")
MISS_LINE = re.compile(r"^  move (\d+) \(line (\d+)\), round (\d+): lost [\d.]+ popcorn; "
                       r"played .+; best .+$")


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``python -m companion`` with arguments."""
    return subprocess.run([sys.executable, "-m", "companion", *args], input=stdin,
                          capture_output=True, text=True, timeout=300, check=False)


def test_analyze_prints_each_player_then_their_misses() -> None:
    """One line per player (name, accuracy, decisions), then three misses, each naming a
    move of that player at its record line; exit 0, nothing on stderr."""
    run = cli("analyze", str(EXAMPLE))
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
    lines = run.stdout.splitlines()
    assert len(lines) == 4 * (1 + 3)
    record = EXAMPLE.read_text(encoding="utf-8").splitlines()
    names = []
    for block in range(4):
        head = PLAYER_LINE.match(lines[4 * block])
        assert head, lines[4 * block]
        names.append(head.group(1))
        assert 0 <= float(head.group(2)) <= 100 and int(head.group(3)) > 0
        for line in lines[4 * block + 1:4 * block + 4]:
            miss = MISS_LINE.match(line)
            assert miss, line
            index, number = int(miss.group(1)), int(miss.group(2))
            assert number == index + 2
            assert json.loads(record[number - 1])["player"] == block
    assert names == ["Ana", "Bob", "Chloe", "Dev"]


def test_analyze_json_matches_the_report() -> None:
    """``--json`` prints the hook's analysis; it agrees with the text report."""
    text = cli("analyze", str(EXAMPLE))
    run = cli("analyze", "--json", "-", stdin=EXAMPLE.read_text(encoding="utf-8"))
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    first = result["players"][0]
    assert text.stdout.splitlines()[0].startswith(
        f"{first['name']}: accuracy {first['accuracy']:.1f} %, {first['decisions']} decisions")
    assert [m["index"] for m in first["misses"]] == [
        int(MISS_LINE.match(line).group(1)) for line in text.stdout.splitlines()[1:4]]


def test_a_bad_record_names_its_line_and_exits_2(tmp_path: Path) -> None:
    """An illegal move, a line that is not JSON, an empty file: ``line N: CODE: sentence``
    on stderr, nothing on stdout, exit 2."""
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    draw = next(i for i, line in enumerate(lines) if '"draw_pawn"' in line)
    bad = json.loads(lines[draw])
    bad["pawn"] = 59 if bad["pawn"] != 59 else 58
    illegal = [*lines]
    illegal[draw] = json.dumps(bad)
    path = tmp_path / "illegal.jsonl"
    path.write_text("\n".join(illegal) + "\n")
    run = cli("analyze", str(path))
    assert run.returncode == 2 and run.stdout == ""
    assert re.fullmatch(rf"popcorn-companion analyze: error: line {draw + 1}: PAWN_NOT_IN_BAG:"
                        r" .+\n", run.stderr), run.stderr
    broken = [*lines]
    broken[200] = '{"move": "place", "player": 0'
    run = cli("analyze", "-", stdin="\n".join(broken) + "\n")
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.startswith("popcorn-companion analyze: error: line 201: BAD_RECORD: ")
    run = cli("analyze", "-", stdin="")
    assert run.returncode == 2
    assert "line 1: BAD_RECORD: the record is empty" in run.stderr


def test_an_unreadable_file_exits_2(tmp_path: Path) -> None:
    """A missing file and a file that is not UTF-8: one error line, exit 2."""
    run = cli("analyze", str(tmp_path / "missing.jsonl"))
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.startswith("popcorn-companion analyze: error: cannot read ")
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\xff\xfe\x00")
    run = cli("analyze", str(binary))
    assert run.returncode == 2 and "cannot read" in run.stderr


def test_a_game_without_analysis_exits_2() -> None:
    """A B Movies record (its header names the game) has no analysis."""
    run = cli("analyze", str(B_MOVIES))
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr == "popcorn-companion analyze: error: B Movies has no analysis\n"


def test_analyze_is_listed_in_the_help() -> None:
    """``--help`` lists the command, and its own help names RECORD."""
    assert "analyze" in cli("--help").stdout
    assert "RECORD" in cli("analyze", "--help").stdout


def test_on_a_terminal_the_progress_goes_to_stderr() -> None:
    """With stderr on a pseudo-terminal, the moves gone through are counted up to the last;
    stdout keeps only the report."""
    main, side = os.openpty()
    try:
        run = subprocess.run([sys.executable, "-m", "companion", "analyze", str(EXAMPLE)],
                             stdout=subprocess.PIPE, stderr=side, text=True, timeout=300,
                             check=False)
        os.close(side)
        side = -1
        seen = b""
        while True:
            try:
                chunk = os.read(main, 4096)
            except OSError:  # the other end is closed: everything has been read
                break
            if not chunk:
                break
            seen += chunk
    finally:
        os.close(main)
        if side != -1:
            os.close(side)
    assert run.returncode == 0
    shown = seen.decode()
    assert "\ranalysing: 0/611 moves" in shown and shown.endswith("analysing: 611/611 moves\r\n")
    assert PLAYER_LINE.match(run.stdout.splitlines()[0])
