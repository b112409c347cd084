"""``readers tap --mat ID``: a virtual cinema mat beside the bag readers (issue 40, item 6).

The mat lines read (and their errors), and a real ``serve`` process with the command as
another process on pseudo-terminals: a guest tapped out of a bag, then set down on a theater
of the player's mat, is a ``place`` the hub records; the bad mat lines change nothing. The
command waits for the hub's ack of the mat's reports, so the test reads its output once it
has ended: no sleeps.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.commands.mat_lines import EXIT, MatHand, MatLine, read_line
from companion.commands.mat_tap import NO_MOVE, NO_NEWS, MatTapper
from companion.commands.tap_hub import Snapshot, TapError
from companion.commands.tap_lines import TapLine
from companion.games.popcorn.facts_file import load_catalog
from companion.games.popcorn.remote import RemoteTable
from companion.hub.remote import ServeProcess
from companion.kit.http import call
from tests.readers.test_readers_tap import BAGS, enroll_everything, table_view, tap, to_showings

MATS = ["mat-1"]
UID = "04a1b2c3d40007"


def test_mat_lines_are_read_into_hands() -> None:
    """Each form of mat line; a bag line still reads as a tap beside them."""
    assert read_line("mat-1 down theater 2 blue", BAGS, MATS) == \
        MatLine("mat-1", "down", 1, "color", "blue")
    assert read_line("mat-1 DOWN exit 04:A1:B2:C3:D4:00:07", BAGS, MATS) == \
        MatLine("mat-1", "down", EXIT, "uid", UID)
    assert read_line("mat-1 up bleu", BAGS, MATS) == MatLine("mat-1", "up", None, "color",
                                                              "bleu")
    assert read_line("mat-1 move blue exit", BAGS, MATS) == \
        MatLine("mat-1", "move", EXIT, "color", "blue")
    assert read_line("mat-1 move blue to theater 3", BAGS, MATS) == \
        MatLine("mat-1", "move", 2, "color", "blue")
    assert read_line("bag-1 blue", BAGS, MATS) == TapLine("bag-1", "color", "blue")


@pytest.mark.parametrize(("line", "message"), [
    ("mat-1", "say what the hand does on mat-1: MAT down ZONE GUEST"),
    ("mat-1 put theater 1 blue", "a mat line is down, up or move, not 'put'"),
    ("mat-1 down", "give a zone after 'mat-1 down': theater 1, theater 2, theater 3 or exit"),
    ("mat-1 down theater 4 blue", "'theater 4' is no zone of a cinema mat"),
    ("mat-1 down theater blue", "'theater blue' is no zone of a cinema mat"),
    ("mat-1 down lobby blue", "'lobby' is no zone of a cinema mat"),
    ("mat-1 down exit", "has no guest: give one guest"),
    ("mat-1 down exit light blue", "has too many words: give one guest"),
    ("mat-1 up", "has no guest"),
    ("mat-1 down exit card rosebud", "a mat senses guests: give a color or a tag UID"),
    ("mat-1 move blue", "give a zone after 'mat-1 move blue'"),
    ("mat-1 move", "give a guest (a color or a tag UID) after 'move'"),
    ("mat-1 move blue exit now", "has too many words: give mat-1 move GUEST ZONE"),
    ("mat-1 down exit 04a1b2", "is not 4, 7 or 10 bytes of hex"),
    ("mat-2 up blue", "unknown reader 'mat-2': this session runs bag-1, bag-2, mat-1"),
    ("bag-1 down theater 1 blue", "bag-1 is a bag reader, which is tapped; down is for a mat"),
])
def test_bad_mat_lines_say_what_would_do(line: str, message: str) -> None:
    with pytest.raises(TapError, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_line(line, BAGS, MATS)


def test_a_hand_picks_a_drawn_guest_to_set_down_and_a_lying_one_to_move() -> None:
    """``down`` takes a drawn guest off the mat (a seated one too for the exit zone);
    ``move`` and ``up`` take one lying on the mat; none of that color is a refusal."""
    tags = {"u1": 1, "u2": 2, "u3": 3}
    colors = {1: "blue", 2: "blue", 3: "red"}
    cinema = {"hand": [{"pawn": 1, "color": "blue"}],
              "slots": [{"seats": [{"pawn": 3, "color": "red"}, None]}]}
    hand = MatHand("mat-1", "Ana", [[], [], [], []], tags, colors, cinema)
    assert hand.pick(MatLine("mat-1", "down", 0, "color", "blue"), "blue") == "u1"
    assert hand.pick(MatLine("mat-1", "down", EXIT, "color", "red"), "red") == "u3"
    with pytest.raises(TapError, match="Ana has no drawn red guest off mat-1 to set down "
                       r"\(drawn: blue\): nothing set down"):
        hand.pick(MatLine("mat-1", "down", 1, "color", "red"), "red")
    hand.lying[0].append("u1")
    with pytest.raises(TapError, match=r"no blue guest lies on mat-1 or sits in Ana's "
                       r"theaters off theater 1 \(on it: theater 1: blue\): nothing moved"):
        hand.pick(MatLine("mat-1", "move", 0, "color", "blue"), "blue")
    assert hand.pick(MatLine("mat-1", "move", EXIT, "color", "blue"), "blue") == "u1"
    assert hand.pick(MatLine("mat-1", "up", None, "color", "blue"), "blue") == "u1"
    with pytest.raises(TapError, match="no red guest lies on mat-1"):
        hand.pick(MatLine("mat-1", "up", None, "color", "red"), "red")


@pytest.fixture
def popcorn_mat(tmp_path: Path):
    """A hub reading two bags' and a mat's serial ports (made later by the command, in
    ``dev/``), every piece enrolled, and a 2-player table of bag-1 and bag-2 with mat-1
    under Ana's cinema, dealt for us, its starting awards kept, in the Showings."""
    dev = tmp_path / "dev"
    server = ServeProcess(tmp_path / "hub.db", serial=[str(dev / r) for r in [*BAGS, *MATS]],
                          readers=BAGS, mats=MATS).start()
    try:
        tags = enroll_everything(server)
        table = server.create_table({"players": ["Ana", "Bob"], "readers": BAGS,
                                     "mats": ["mat-1", None], "deal_seed": 7})
        RemoteTable(server.base, table, load_catalog()).keep_first_awards()
        to_showings(server, table)
        yield server, table, tags, ["--serial", "--dir", str(dev)]
    finally:
        server.stop()


def draws(view: dict[str, Any], tags: dict[str, dict[str, Any]]) -> tuple[str, list[str]]:
    """The color of a guest Ana's bag holds once, and the UIDs of the guests she draws now:
    first the one ``bag-1 COLOR`` taps (the first pawn of that color the hub lets come out
    of her bag), then others, as many as her draw."""
    bag = view["cinemas"][0]["bag"]
    color = next(c for c, n in bag.items() if n == 1)
    by_pawn = {p["id"]: uid for uid, p in tags.items() if p["kind"] == "pawn"}
    pawns = [c["pawn"] for c in view["chance"] if c.get("player") == 0
             and c.get("move") == "draw_pawn" and isinstance(c.get("pawn"), int)]
    first = next(p for p in pawns if tags[by_pawn[p]]["value"] == color)
    others = [p for p in dict.fromkeys(pawns) if tags[by_pawn[p]]["value"] != color]
    count = view["cinemas"][0]["draw"]
    return color, [by_pawn[p] for p in [first, *others][:count]]


def test_a_guest_drawn_from_a_bag_is_placed_by_setting_it_down_on_a_mat(popcorn_mat) -> None:
    """``bag-1 COLOR`` draws a guest into Ana's hand; ``mat-1 down theater N COLOR`` sets it
    down on a theater with a movie, which the hub records as a ``place``. Then the bad mat
    lines change nothing: a zone that is no zone, a guest nobody drew or nothing lying on
    the mat are refused before anything is sent; the same guest set down again on the same
    zone is a state the hub already has (no news, and no wait for it)."""
    server, table, tags, transport = popcorn_mat
    view = table_view(server, table)["view"]
    color, drawn = draws(view, tags)
    uid, other = drawn[0], next(c for c in ("white", "red") if c != color)
    slot = next(s for s, theater in enumerate(view["cinemas"][0]["slots"]) if theater["movie"])
    before = table_view(server, table)["events"]
    result = tap(server, transport, BAGS, [
        f"bag-1 {color}", *(f"bag-1 {more}" for more in drawn[1:]),
        f"mat-1 down theater {slot + 1} {color}",
        "mat-1 down theater 4 blue", f"mat-1 up {other}", "mat-1 up purple",
        f"mat-1 move {color} theater {slot + 1}", f"mat-1 down theater {slot + 1} {uid}"],
        "--mat", "mat-1")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "mat-1: Ana's mat at Table 1" in out
    assert f"  mat-1: set a {color} guest (pawn {tags[uid]['id']}) down on theater " \
        f"{slot + 1}" in out
    placed = [line for line in out.splitlines() if "hub: recorded place by Ana" in line]
    assert placed == [f"  hub: recorded place by Ana (pawn {tags[uid]['id']}, {color}, "
                      f"slot {slot}, seat 0)"], out
    assert out.splitlines()[-2:] == [
        f"  mat-1: set tag {uid} down again on theater {slot + 1}",
        "  hub: no change: the hub already had the mat's zones so; nothing was played"]
    assert result.stderr.splitlines() == [
        "error: 'theater 4' is no zone of a cinema mat: give theater 1, theater 2, "
        "theater 3 or exit",
        f"error: no {other} guest lies on mat-1 (on it: theater {slot + 1}: {color}): "
        "nothing taken up",
        "error: 'purple' is not a color, nor a tag UID: colors are blue, green, red, white, "
        "yellow (in English, French, German or Japanese)",
        f"error: no {color} guest lies on mat-1 or sits in Ana's theaters off theater "
        f"{slot + 1} (on it: theater {slot + 1}: {color}): nothing moved"]
    after = table_view(server, table)
    assert after["alerts"] == []
    assert after["events"] == before + len(drawn) + 1  # the draws and the place only
    seated = after["view"]["cinemas"][0]["slots"][slot]["seats"][0]
    assert seated["color"] == color and tags[uid]["id"] == seated["pawn"]
    mat = next(r for r in call(server.base + "/api/readers") if r["reader"] == "mat-1")
    assert mat["zones"] == [int(z == slot) for z in range(4)]


@pytest.mark.broker
def test_a_mat_over_mqtt_reports_an_unknown_tag_and_its_taking_up(tmp_path: Path,
                                                                  broker) -> None:
    """Over the session's Mosquitto: a tag the registry does not know set down on a theater
    is the hub's ``MAT_UNKNOWN_TAG`` alert, printed with its fix; taking it up again is noted
    and no move; a mat the hub does not know is refused before anything is sent."""
    server = ServeProcess(tmp_path / "hub.db", readers=BAGS, mats=MATS,
                          extra=["--mqtt", str(broker.url), "--mqtt-table", "mats"]).start()
    try:
        table = server.create_table({"players": ["Ana", "Bob"], "readers": BAGS,
                                     "mats": [None, "mat-1"]})
        result = tap(server, ["--mqtt", str(broker.url), "--table", "mats"], BAGS,
                     [f"mat-1 down theater 3 {UID}", f"mat-1 up {UID}", f"mat-2 up {UID}"],
                     "--mat", "mat-1", "--mat", "mat-2")
        assert result.returncode == 0, result.stderr
        assert "mat-1: Bob's mat at Table 1" in result.stdout
        assert f"  mat-1: set tag {UID} down on theater 3" in result.stdout
        assert "  hub: alert MAT_UNKNOWN_TAG: " in result.stdout
        assert "       fix: " in result.stdout
        assert result.stdout.splitlines()[-3:] == [f"  mat-1: took tag {UID} up from theater 3",
                                                   "  " + NO_MOVE, f"tap> mat-2 up {UID}"]
        assert result.stderr.splitlines() == [
            "error: the hub does not know mat mat-2: give serve --mat mat-2, or create a "
            "table that uses it"]
        alerts = table_view(server, table)["alerts"]
        assert [a["code"] for a in alerts] == ["MAT_UNKNOWN_TAG"]
    finally:
        server.stop()


def simulate(*args: str) -> subprocess.CompletedProcess[str]:
    """``readers simulate`` run to its end."""
    return subprocess.run([sys.executable, "-m", "companion", "readers", "simulate", *args],
                          capture_output=True, text=True, timeout=120)


def test_simulate_carries_a_script_s_tags_on_a_mat_to_a_real_hub(tmp_path: Path) -> None:
    """``readers simulate --mat mat-1 --script``: the script's tags are carried from zone to
    zone on the mat beside the bag reader, every report is acked (exit 0), and the hub
    keeps the zones as the script left them."""
    dev = tmp_path / "dev"
    server = ServeProcess(tmp_path / "hub.db", serial=[str(dev / r) for r in [*BAGS, *MATS]],
                          readers=BAGS, mats=MATS).start()
    try:
        server.create_table({"players": ["Ana", "Bob"], "readers": BAGS,
                             "mats": ["mat-1", None]})
        script = tmp_path / "script.jsonl"
        steps = [{"reader": "mat-1", "uid": "04a1b2c3d40001", "zone": 0},
                 {"reader": "mat-1", "uid": "04a1b2c3d40002", "zone": 3},
                 {"reader": "mat-1", "uid": "04a1b2c3d40001", "zone": 3},
                 {"reader": "mat-1", "uid": "04a1b2c3d40003", "zone": 1},
                 {"reader": "mat-1", "uid": "04a1b2c3d40003", "zone": None},
                 {"reader": "bag-1", "uid": "04a1b2c3d40004"}]
        script.write_text("".join(json.dumps({**s, "after": 0.01}) + "\n" for s in steps))
        done = simulate("--serial", "--dir", str(dev), "--readers", "2",
                        "--mat", "mat-1", "--script", str(script), "--timeout", "30")
        assert done.returncode == 0, done.stderr
        assert f"mat-1 {dev / 'mat-1'} -> /dev/pts/" in done.stdout
        assert "1 taps, 5 mat moves, 0 unacked" in done.stderr
        mat = next(r for r in call(server.base + "/api/readers") if r["reader"] == "mat-1")
        assert mat["zones"] == [0, 0, 0, 2]
    finally:
        server.stop()


@pytest.mark.parametrize(("step", "message"), [
    ({"reader": "mat-1", "uid": UID}, "mat-1 is a mat: give the zone the tag is carried to"),
    ({"reader": "mat-1", "uid": UID, "zone": 4}, "mat-1 has zones 0 to 3, not 4"),
    ({"reader": "bag-1", "uid": UID, "zone": 1}, "bag-1 is a bag reader: only a mat"),
])
def test_simulate_refuses_a_bad_mat_step(tmp_path: Path, step: dict[str, Any],
                                          message: str) -> None:
    script = tmp_path / "script.jsonl"
    script.write_text(json.dumps(step) + "\n")
    done = simulate("--serial", "--readers", "1", "--mat", "mat-1", "--script", str(script))
    assert done.returncode == 2 and f"script.jsonl line 1: {message}" in done.stderr


class StubHub:
    """The table as the hub answers after a mat's reports, and its replay's new steps."""

    admin_pin = None

    def __init__(self, table: dict[str, Any], steps: list[dict[str, Any]]) -> None:
        self.table, self.steps = table, steps

    def get(self, path: str) -> dict[str, Any]:
        return self.table

    def steps_since(self, table: str, count: int) -> list[dict[str, Any]]:
        return self.steps


def test_the_outcome_tells_moves_alerts_raised_and_closed_or_no_news() -> None:
    """After the acks: the moves, each new alert with its fix, each alert the change closed;
    a logged change with none of them is no move; a log that did not grow is no news."""
    old = {"id": 7, "code": "GUEST_TAKEN_OUT", "message": "m"}
    new = {"id": 9, "code": "MAT_UNKNOWN_TAG", "message": "Unknown.", "fix": "Enroll it."}
    before = Snapshot({"id": "t", "events": 8, "alerts": [old]}, 3)
    place = {"move": "place", "player": 0, "pawn": 4, "slot": 0, "seat": 0}
    table = {"id": "t", "events": 10, "alerts": [new], "players": ["Ana"], "game": "popcorn"}
    tapper = MatTapper(StubHub(table, [place]), None, 1.0)  # type: ignore[arg-type]
    assert tapper.outcome(before) == [
        "hub: recorded place by Ana (pawn 4, slot 0, seat 0)",
        "hub: alert MAT_UNKNOWN_TAG: Unknown.", "     fix: Enroll it.",
        "hub: alert GUEST_TAKEN_OUT closed: the mat set right what it said"]
    tapper.hub = StubHub({**table, "alerts": [old]}, [])  # type: ignore[assignment]
    assert tapper.outcome(before) == [NO_MOVE]
    tapper.hub = StubHub({**table, "events": 8}, [])  # type: ignore[assignment]
    assert tapper.outcome(before) == [NO_NEWS]
