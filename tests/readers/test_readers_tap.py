"""``readers tap`` as a user runs it: a real ``serve`` process, the command as another
process reading its lines from a pipe, virtual readers on pseudo-terminals (Popcorn) or on
the session's Mosquitto (B Movies), and what it prints checked against the hub's own view.

Each tap waits for the hub's answer inside the command (the reader's feedback, then the
table's change), so the tests read its output once it has ended: no sleeps.
"""

from __future__ import annotations

import io
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.commands.reader_tap import read_lines
from companion.commands.tap_hub import TapError
from companion.commands.tap_lines import TapLine, color_words, parse_line
from companion.games.popcorn.facts_file import load_catalog
from companion.games.popcorn.remote import RemoteTable
from companion.hub.remote import ServeProcess
from companion.kit.http import call
from companion.kit.tags import random_uid
from companion.readers.broker import free_port

BAGS = ["bag-1", "bag-2"]
PADS = ["pad-1", "pad-2", "pad-3"]


def enroll_everything(server: ServeProcess) -> dict[str, dict[str, Any]]:
    """A made-up tag on every piece of every hosted game; ``uid -> piece``."""
    rng = random.Random(38)
    pieces = []
    for kind in call(server.base + "/api/tags/counts")["pieces"]:
        count = sum(value["count"] for value in kind["values"])
        pieces += [{"uid": random_uid(rng), "game": kind["game"], "kind": kind["kind"],
                    "id": number} for number in range(count)]
    registry = {"format": "companion-tags", "version": 3, "pieces": pieces}
    call(server.base + "/api/tags", "PUT", {"registry": registry,
                                            "admin_pin": server.admin_pin})
    answer = call(server.base + "/api/tags", headers={"X-Admin-Pin": server.admin_pin})
    return {piece["uid"]: piece for piece in answer["pieces"]}


def tap(server: ServeProcess, transport: list[str], readers: list[str], lines: list[str],
        *extra: str) -> subprocess.CompletedProcess[str]:
    """``readers tap`` with ``lines`` piped in, run to its end."""
    args = [sys.executable, "-m", "companion", "readers", "tap", *transport,
            "--hub", server.base, "--admin-pin", server.admin_pin, "--timeout", "20",
            *[a for r in readers for a in ("--reader", r)], *extra]
    return subprocess.run(args, input="".join(f"{line}\n" for line in lines),
                          capture_output=True, text=True, timeout=180)


def table_view(server: ServeProcess, table: dict[str, Any]) -> dict[str, Any]:
    return call(f"{server.base}/api/tables/{table['id']}")


@pytest.fixture
def popcorn(tmp_path: Path):
    """A hub reading three bags' serial ports (made later by the command, in ``bags/``),
    every piece enrolled, and a 2-player table of bag-1 and bag-2 dealt for us, its
    starting awards kept; bag-3 is at no table."""
    bags = tmp_path / "bags"
    server = ServeProcess(tmp_path / "hub.db", serial=[str(bags / r) for r in [*BAGS, "bag-3"]],
                          readers=[*BAGS, "bag-3"]).start()
    try:
        tags = enroll_everything(server)
        table = server.create_table({"players": ["Ana", "Bob"], "readers": BAGS,
                                     "deal_seed": 7})
        RemoteTable(server.base, table, load_catalog()).keep_first_awards()
        yield server, table, tags, ["--serial", "--dir", str(bags)]
    finally:
        server.stop()


def to_showings(server: ServeProcess, table: dict[str, Any]) -> None:
    """Every player ends their Buying turn, so that the Showings draw from the bags."""
    for _ in range(8):
        view = table_view(server, table)["view"]
        if view["phase"] != "buying":
            return
        end = next(m for m in view["legal"] if m["move"] == "end_turn")
        call(f"{server.base}/api/tables/{table['id']}/moves", "POST", {"move": end})
    raise AssertionError("the Buying phase did not end")


def test_cards_colors_and_tags_tapped_by_hand_reach_the_table(popcorn) -> None:
    """Issue 38, item 4: a card tapped in the Buying phase is bought; an unknown UID gives
    the hub's own alert; a bad line gets its error and the next line still taps; in the
    Showings ``bag-1 <color>`` draws a guest of that color out of Ana's bag, and a color
    her bag does not hold taps nothing."""
    server, table, tags, transport = popcorn
    view = table_view(server, table)["view"]
    card = next(m["card"] for m in view["legal"]
                if m["move"] == "buy_movie" and m["player"] == 0)
    first = tap(server, transport, BAGS, [
        "# Ana buys a movie by tapping it", "", f"bag-1 card {card}",
        "bag-2 04ffffffffffff", "bag-9 blue", "bag-1 purple", "bag-1 card nope",
        "bag-2 too many words", "bag-1 04a1", "bag-2 card henrietta-nope"])
    assert first.returncode == 0, first.stderr
    assert f"hub: recorded buy_movie by Ana (card {card}" in first.stdout
    assert any(c["movie"] and c["movie"]["id"] == card
               for c in table_view(server, table)["view"]["cinemas"][0]["slots"])
    assert "hub: alert UNKNOWN_TAG: An unknown tag (04ffffffffffff) was tapped on Bob's" \
        in first.stdout
    errors = first.stderr.splitlines()
    assert "error: unknown reader 'bag-9': this session runs bag-1, bag-2" in errors
    assert any(e.startswith("error: 'purple' is not a color, nor a tag UID: colors are "
                            "blue, green, red, white, yellow") for e in errors)
    assert any(e.startswith("error: no card 'nope'") for e in errors)
    assert any(e.startswith("error: 'bag-2 too many words' has too many words") for e in errors)
    assert any("'04a1' is not 4, 7 or 10 bytes of hex" in e for e in errors)
    assert len(errors) == 6  # one per bad line, and nothing else

    to_showings(server, table)
    bag = table_view(server, table)["view"]["cinemas"][0]["bag"]
    color = next(c for c, n in bag.items() if n == 1)  # one guest of it: a second fails
    second = tap(server, transport, BAGS, [f"bag-1 {color}", f"bag-1 {color}", "quit",
                                           "bag-1 white"])
    assert second.returncode == 0, second.stderr
    drawn = [line for line in second.stdout.splitlines() if "recorded draw_pawn" in line]
    assert drawn == [f"  hub: recorded draw_pawn by Ana (pawn {drawn_pawn(drawn)}, {color})"]
    assert tags_of(tags, drawn_pawn(drawn)) == color
    hand = table_view(server, table)["view"]["cinemas"][0]["hand"]
    assert hand == [{"pawn": drawn_pawn(drawn), "color": color}]
    assert second.stderr.strip() == (f"error: Ana's bag holds no {color} guest (it has "
                                     + _inside(table_view(server, table), 0)
                                     + "): nothing tapped")
    assert "bag-1 white" not in second.stdout  # read after quit: never tapped


def drawn_pawn(lines: list[str]) -> int:
    return int(lines[0].split("(pawn ")[1].split(",")[0])


def tags_of(tags: dict[str, dict[str, Any]], pawn: int) -> str:
    return next(p["value"] for p in tags.values() if p["kind"] == "pawn" and p["id"] == pawn)


def _inside(table: dict[str, Any], seat: int) -> str:
    bag = table["view"]["cinemas"][seat]["bag"]
    return ", ".join(f"{n} {c}" for c, n in bag.items() if n)


def test_readers_at_no_table_are_told_and_the_next_line_still_taps(popcorn) -> None:
    """A reader the hub knows but no table binds gets ``no table``, one it does not know
    says so; neither taps; a tap on a bound reader right after them is played."""
    server, _, _, transport = popcorn
    result = tap(server, transport, [*BAGS, "bag-3", "bag-4"],
                 ["bag-3 04a1b2c3d40007", "bag-4 blue", "bag-1 04a1b2c3d40007"])
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines() == [
        "error: no table: bag-3 is bound to no table on the hub; create a table with this "
        "reader (the setup screen, or POST /api/tables)",
        "error: the hub does not know reader bag-4: give serve --reader bag-4, or create a "
        "table that uses it"]
    assert "bag-3: at no table (online)" in result.stdout
    assert "bag-4: unknown to the hub" in result.stdout
    assert "bag-1: Ana's reader at Table 1" in result.stdout
    assert "hub: alert UNKNOWN_TAG: An unknown tag (04a1b2c3d40007) was tapped on Ana's" \
        in result.stdout


def test_made_up_tags_let_a_hub_with_no_pieces_play_a_first_table(tmp_path: Path) -> None:
    """``--made-up-tags`` on a hub with no tag at all: every piece of every hosted game gets
    one (the counts say so, a line per kind); then a table of those readers plays from
    ``card`` and color lines at once, as README's first table does."""
    bags = tmp_path / "bags"
    server = ServeProcess(tmp_path / "hub.db", serial=[str(bags / r) for r in BAGS],
                          readers=BAGS).start()
    try:
        made = tap(server, ["--serial", "--dir", str(bags)], BAGS, ["quit"], "--made-up-tags")
        assert made.returncode == 0, made.stderr
        kinds = call(server.base + "/api/tags/counts")["pieces"]
        for kind in kinds:
            assert all(v["enrolled"] == v["count"] for v in kind["values"]), kind
            total = sum(v["count"] for v in kind["values"])
            assert f"made-up tags: {total} × {kind['title']} ({kind['game']})" in made.stdout
        assert call(server.base + "/api/tags/counts")["enrolling_piece"] is None
        table = server.create_table({"players": ["Ana", "Bob"], "readers": BAGS,
                                     "deal_seed": 7})
        RemoteTable(server.base, table, load_catalog()).keep_first_awards()
        view = table_view(server, table)["view"]
        card = next(m["card"] for m in view["legal"]
                    if m["move"] == "buy_movie" and m["player"] == 0)
        again = tap(server, ["--serial", "--dir", str(bags)], BAGS, [f"bag-1 card {card}"],
                    "--made-up-tags")  # nothing left to make up: no line, no new tag
        assert again.returncode == 0, again.stderr
        assert "made-up tags" not in again.stdout
        assert f"hub: recorded buy_movie by Ana (card {card}" in again.stdout
    finally:
        server.stop()


def test_tokens_tapped_on_token_pads_over_mqtt(tmp_path: Path, broker) -> None:
    """A B Movies table over the session's Mosquitto: ``pad-2 token 3`` draws a token worth 3
    into Bob's pile, the same on Ana's pad (owed nothing) is the hub's ``TOKEN_NOT_OWED``,
    and a worth no token has is refused by the command."""
    server = ServeProcess(tmp_path / "hub.db", readers=PADS,
                          extra=["--mqtt", str(broker.url), "--mqtt-table", "tap"]).start()
    try:
        tags = enroll_everything(server)
        table = server.create_table({"game": "b-movies", "players": ["Ana", "Bob", "Chloe"],
                                     "readers": PADS})
        moves = f"{server.base}/api/tables/{table['id']}/moves"
        call(moves, "POST", {"move": {"move": "pitch", "player": 0, "cards": 3}})
        for seat in (1, 2):
            call(moves, "POST", {"move": {"move": "vote", "player": seat, "vote": "no"},
                                 "token": table["tokens"][seat]})
        result = tap(server, ["--mqtt", str(broker.url), "--table", "tap"], PADS,
                     ["pad-2 token 3", "pad-1 token 3", "pad-3 token 9", "pad-3 blue"])
        assert result.returncode == 0, result.stderr
        assert "  hub: recorded draw_token by Bob" in result.stdout
        assert "hub: alert TOKEN_NOT_OWED: A popcorn token was tapped on Ana's pad" \
            in result.stdout
        players = table_view(server, table)["view"]["players"]
        assert [p["tokens"] for p in players] == [0, 1, 0]
        token = result.stdout.split("pad-2: tapped a token worth 3 (token ")[1].split(")")[0]
        assert any(p["kind"] == "token" and p["id"] == int(token) and p["value"] == 3
                   for p in tags.values())
        assert result.stderr.splitlines() == [
            "error: no token worth '9': token values are 0, 1, 2, 3, 4",
            "error: this table's game (b-movies) has no pawns: nothing tapped"]
    finally:
        server.stop()


def test_a_hub_that_does_not_answer_is_a_fatal_error() -> None:
    """No hub at the address: exit 2 with one line that says so, no reader started."""
    args = [sys.executable, "-m", "companion", "readers", "tap", "--serial",
            "--hub", f"127.0.0.1:{free_port()}"]
    result = subprocess.run(args, input="bag-1 blue\n", capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("popcorn-companion readers tap: error: hub not reachable "
                                    "at http://127.0.0.1:")


def test_a_wrong_admin_pin_is_a_fatal_error(tmp_path: Path) -> None:
    server = ServeProcess(tmp_path / "hub.db", readers=BAGS).start()
    try:
        args = [sys.executable, "-m", "companion", "readers", "tap", "--serial",
                "--hub", server.base, "--admin-pin", "000000"]
        result = subprocess.run(args, input="", capture_output=True, text=True, timeout=60)
    finally:
        server.stop()
    assert result.returncode == 2
    assert "error: the hub refused the admin PIN (WRONG_PIN" in result.stderr


def test_lines_are_read_into_taps() -> None:
    """Each form of line, and the specific error of each bad one."""
    readers = ["bag-1", "pad-1"]
    assert parse_line("bag-1 blue", readers) == TapLine("bag-1", "color", "blue")
    assert parse_line("bag-1  04:A1:B2:C3:D4:00:07", readers) == \
        TapLine("bag-1", "uid", "04a1b2c3d40007")
    assert parse_line("bag-1 Card kangaroo-man", readers) == \
        TapLine("bag-1", "card", "kangaroo-man")
    assert parse_line("pad-1 token 3", readers) == TapLine("pad-1", "token", "3")
    for line, message in [("bag-1", "'bag-1' is not a tap"),
                          ("bag-2 blue", "unknown reader 'bag-2'"),
                          ("bag-1 card", "give one card after 'card'"),
                          ("pad-1 token 3 4", "give one token after 'token'"),
                          ("bag-1 light blue", "has too many words"),
                          ("bag-1 04a1b2", "is not 4, 7 or 10 bytes of hex")]:
        with pytest.raises(TapError, match=message):
            parse_line(line, readers)


def test_colors_are_words_of_every_language() -> None:
    kinds = [{"game": "popcorn", "kind": "pawn",
              "values": [{"value": "blue", "title": "blue"}, {"value": "red", "title": "red"}]},
             {"game": "b-movies", "kind": "token", "values": [{"value": 3, "title": "3"}]}]
    words = color_words(kinds)
    for word in ("blue", "bleu", "blau"):
        assert words[word] == ("popcorn", "blue")
    assert words["rouge"] == ("popcorn", "red") and "3" not in words


def test_a_terminal_gets_a_prompt_and_a_pipe_an_echo(capsys) -> None:
    """On a terminal each line is asked for after ``tap>``; from a pipe each line is echoed
    after it. Either way blank lines and comments are skipped, and ``quit`` ends."""
    asked: list[str] = []
    typed = iter(["bag-1 blue", "", "# note", "QUIT", "bag-1 red"])

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    def ask(prompt: str) -> str:
        asked.append(prompt)
        return next(typed)

    assert list(read_lines(Terminal(), ask)) == ["bag-1 blue"]
    assert asked == ["tap> "] * 4 and capsys.readouterr().out == ""
    piped = io.StringIO("bag-1 blue\n\n# note\nbag-2 red")
    assert list(read_lines(piped)) == ["bag-1 blue", "bag-2 red"]
    assert capsys.readouterr().out == "tap> bag-1 blue\ntap> bag-2 red\n"
