"""A corrected game keeps its record: exported, replayed, archived, analysed.

A real table corrects something in most games. Here a 3-player table corrects a guest's
place mid-game (a blue guest from Ana's bag is really in her exit zone) and is played to its
end from there. Its record (version 3) holds the correction as a ``correct`` line;
``popcorn-companion replay`` walks through it to the hub's own scores; the archive keeps the
game with its record, replays it on the board (the correction a step of its own, with where
the guest went) and analyses it; and a record imported elsewhere reads back the same.
A correction that changes no count (the guest may already be there) is only a relabel: the
record has no line for it, and the replay still reaches the hub's game.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.games.popcorn.engine import pawns as P
from companion.games.popcorn.facts_file import load_catalog
from companion.games.popcorn.record import loads_record, replay
from tests.hub.archive_games import popcorn_first_player, popcorn_game
from tests.hub.test_archive import ADMIN_HEADER, Site, opened
from tests.hub.test_pawn_identity import colored
from tests.hub.test_replay import wait_analysis

CATALOG = load_catalog()


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    """A hub with no game yet."""
    s = opened(tmp_path / "hub.sqlite")
    yield s
    s.hub.stop()


def corrected_game(site: Site, seed: int = 3) -> tuple[dict, int]:
    """A table whose first 60 moves come from a simulated game, then one correction that
    moves a guest, then whatever is legal first until the end; its info and the number of
    the move the correction came after."""
    text, moves = popcorn_game(3, seed)
    info = site.table(list(loads_record(text).names), popcorn_first_player(text))
    site.play(info, moves[:60])
    state = site.hub.tables[info["id"]].state
    color = next(state.pawn_color[q] for q in state.pawns_at(P.bag(0)))
    answer = site.client.post(f"/api/tables/{info['id']}/correct",
                              json={"color": color, "from": {"zone": "bag", "player": 0},
                                    "zone": "exit", "player": 0},
                              headers={"X-Table-Pin": info["pin"]})
    assert answer.status_code == 200, answer.json
    made = len(site.hub.tables[info["id"]].entries)
    while not site.hub.tables[info["id"]].state.is_over:
        state = site.hub.tables[info["id"]].state
        site.hub.submit(info["id"], (state.legal_moves() or state.chance_outcomes())[0])
    return info, made


def test_a_corrected_game_is_exported_replayed_archived_and_analysed(
        site: Site, tmp_path: Path) -> None:
    info, _ = corrected_game(site)
    tid, pin = info["id"], {"X-Table-Pin": info["pin"]}
    text = site.client.get(f"/api/tables/{tid}/record", headers=pin).get_data(as_text=True)
    record = loads_record(text)
    assert record.version == 3
    corrections = [m for m in record.moves if m.kind == "correct"]
    assert len(corrections) == 1 and corrections[0].zone == "exit"
    path = tmp_path / "corrected.jsonl"
    path.write_text(text)
    done = subprocess.run([sys.executable, "-m", "companion", "replay", str(path)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    scores = site.client.get(f"/api/tables/{tid}/scores").json
    assert json.loads(done.stdout)["scores"] == scores
    listing = site.archive()
    [game] = [g for g in listing["games"] if g["id"] == tid]
    assert [p["score"] for p in game["players"]] == [p["total"] for p in scores["players"]]
    board = site.client.get(f"/api/archive/{tid}/replay")
    assert board.status_code == 200, board.json
    steps = [s for s in board.json["steps"] if s["move"] == "correct"]
    assert len(steps) == 1 and steps[0]["zone"] == "exit" and steps[0]["player"] == 0
    assert site.client.post(f"/api/archive/{tid}/analysis").status_code == 202
    analysis = wait_analysis(site, tid)
    assert analysis["state"] == "done" and analysis["analysis"]["finished"] is True
    other = opened(tmp_path / "other.sqlite")
    try:  # the record, imported into another hub's archive, reads back the same
        added = other.add(text)
        assert added.status_code == 201, added.json
        back = other.client.get(f"/api/archive/{added.json['id']}/record", headers=ADMIN_HEADER)
        assert back.get_data(as_text=True) == text
    finally:
        other.hub.stop()


def test_a_correction_that_changes_no_count_is_only_a_relabel(site: Site) -> None:
    """A pawn named by its tag that may already be where the table says (a guest of Ana's
    bag, known only by its color, said to be in Ana's bag): no count changes, the hub knows
    it there from now on, the log keeps the swaps, and the record has no line for it."""
    text, moves = popcorn_game(3, 4)
    info = site.table(list(loads_record(text).names), popcorn_first_player(text))
    site.play(info, moves[:30])
    table = site.hub.tables[info["id"]]
    state = table.state
    pawn = next(q for q in range(60) if P.bag(0) in state.known.maybe[q]
                and state.loc[q] != P.bag(0) and not P.is_seat(state.loc[q])
                and state.loc[q] not in {P.hand(s) for s in range(3)})
    counts = sorted((state.pawn_color[q], x) for q, x in enumerate(state.loc))
    answer = site.client.post(f"/api/tables/{info['id']}/correct",
                              json={"pawn": pawn, "zone": "bag", "player": 0},
                              headers={"X-Table-Pin": info["pin"]})
    assert answer.status_code == 200, answer.json
    state = table.state
    assert sorted((state.pawn_color[q], x) for q, x in enumerate(state.loc)) == counts
    assert state.known.certain(pawn) == P.bag(0)
    _, kind, body = site.hub.store.events(info["id"])[-1]
    assert kind == "correct" and body["seen"] == [pawn] and body["relabel"]
    exported = site.client.get(f"/api/tables/{info['id']}/record",
                               headers={"X-Table-Pin": info["pin"]}).get_data(as_text=True)
    assert all(m.kind != "correct" for m in loads_record(exported).moves)
    assert colored(replay(CATALOG, loads_record(exported))) == colored(state)
