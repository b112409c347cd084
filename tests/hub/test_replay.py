"""The replay board's routes: an archived game and a live table, position by position, and a
finished game's analysis, run once and kept.

A hub in this process on a real SQLite file and its app's test client. Each position's view
is checked against the game's own engine replaying the record that far, each step against
the move it stands for (without what only one player saw), the rounds' first positions
against the views, and the charts against the views and the final scores.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.games.bmovies import game as bmovies_kind
from companion.games.popcorn import game as popcorn_kind
from companion.games.popcorn.record import loads_record
from companion.table.timeline import MAX_VIEWS
from tests.hub.archive_games import bmovies_game, popcorn_game
from tests.hub.test_archive import ADMIN_HEADER, EXAMPLE, Site, finished_table, opened
from tests.waiting import wait_for

POPCORN = popcorn_kind()
BMOVIES = bmovies_kind()
LIVE_ONLY = ("legal", "chance", "zones", "card_choice", "audit", "alert_rounds", "play_on",
             "playing_on")
"""What a live table's view holds that the replay board's does not."""


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    """A hub with no game yet."""
    s = opened(tmp_path / "hub.sqlite")
    yield s
    s.hub.stop()


def replay(site: Site, path: str) -> dict[str, Any]:
    answer = site.client.get(f"{path}/replay")
    assert answer.status_code == 200, answer.json
    return answer.json


def all_views(site: Site, path: str, moves: int) -> list[dict[str, Any]]:
    """Every position's view, page by page (the largest pages)."""
    views: list[dict[str, Any]] = []
    while len(views) <= moves:
        answer = site.client.get(f"{path}/replay/views?from={len(views)}&count={MAX_VIEWS}")
        assert answer.status_code == 200, answer.json
        assert answer.json["from"] == len(views)
        views += answer.json["views"]
    assert len(views) == moves + 1
    return views


def engine_views(kind: Any, text: str) -> list[dict[str, Any]]:
    """Each position's replay view, from the game's own record reader and engine."""
    recorded = kind.records.read(text)
    names = list(recorded.names)
    state = kind.new_state(names, recorded.first_player, recorded.options)
    views = [kind.replays.view(state, names)]
    for move in recorded.moves:
        state.apply(move)
        views.append(kind.replays.view(state, names))
    return views


def test_an_archived_game_replays_move_by_move(site: Site) -> None:
    """The example record: one step per move, public as the record's move (award cards left
    out), each position's view as the engine replays it, the final one the archive's final
    view, and each round's first position where the views' round changes."""
    game = site.add(EXAMPLE).json
    path = f"/api/archive/{game['id']}"
    summary = replay(site, path)
    record = loads_record(EXAMPLE)
    assert (summary["id"], summary["source"], summary["game"]) == (game["id"], "archive",
                                                                     "popcorn")
    assert summary["names"] == list(record.names) and summary["over"] is True
    assert summary["analyzes"] is True
    assert summary["moves"] == len(record.moves) == len(summary["steps"])
    for step, move in zip(summary["steps"], record.moves, strict=True):
        expected = move.to_dict()
        if move.kind in ("draw_award", "keep_award"):
            del expected["card"]
        assert {k: v for k, v in step.items() if k != "round"} == expected
    views = all_views(site, path, summary["moves"])
    assert views == engine_views(POPCORN, EXAMPLE)
    final = site.client.get(path).json["view"]
    assert views[-1] == {**{k: v for k, v in final.items() if k not in LIVE_ONLY},
                         "legal": [], "chance": [], "zones": {}}
    for n, step in enumerate(summary["steps"], start=1):
        assert step["round"] == views[n]["round"]
    firsts = [(r["round"], r["position"]) for r in summary["rounds"]]
    expected_firsts = [(v["round"], n) for n, v in enumerate(views)
                       if n == 0 or views[n - 1]["round"] != v["round"]]
    assert firsts == expected_firsts
    assert [r for r, _ in firsts] == list(range(0, views[-1]["round"] + 1))


def test_popcorns_charts_follow_the_views_and_add_up_to_the_scores(site: Site) -> None:
    """Popcorn, money and audience per player at the end of each round (the view where the
    round ended), and the final score by source adding up to each player's total."""
    game = site.add(EXAMPLE).json
    path = f"/api/archive/{game['id']}"
    summary = replay(site, path)
    views = all_views(site, path, summary["moves"])
    charts = {c["id"]: c for c in summary["charts"]}
    assert list(charts) == ["popcorn", "money", "audience", "score"]
    rounds = views[-1]["round"]
    for figure in ("popcorn", "money", "audience"):
        chart = charts[figure]
        assert chart["kind"] == "line" and chart["labels"] == [str(r) for r in
                                                                range(1, rounds + 1)]
        assert [s["label"] for s in chart["series"]] == summary["names"]
        for p, series in enumerate(chart["series"]):
            for value, position in zip(series["values"], series["positions"], strict=True):
                assert views[position]["cinemas"][p][figure] == value
        ends = chart["series"][0]["positions"]
        assert ends[-1] == summary["moves"]
        for r, position in zip(range(1, rounds), ends, strict=False):  # where round r ended
            assert views[position - 1]["round"] == r and views[position]["round"] == r + 1
    score = charts["score"]
    assert score["kind"] == "bar" and score["stacked"] and score["labels"] == summary["names"]
    assert all(s["word"] for s in score["series"])
    totals = [p["total"] for p in site.client.get(path).json["scores"]["players"]]
    assert [sum(s["values"][p] for s in score["series"]) for p in range(len(totals))] == totals
    sheet = site.client.get(path).json["scores"]["players"]
    by_word = {s["label"]: s["values"] for s in score["series"]}  # a source nobody had: none
    assert all(any(values) for values in by_word.values())
    assert by_word.get("Money", [0] * 4) == [p["breakdown"]["money"] for p in sheet]
    assert by_word.get("Theater trophy", [0] * 4) == [p["breakdown"]["trophy"] for p in sheet]
    awards = [sum(p["breakdown"]["awards"].values()) for p in sheet]
    assert [a + t for a, t in zip(by_word.get("Awards", [0] * 4),
                                  by_word.get("Advertising tokens", [0] * 4), strict=True)] \
        == awards
    assert all(position == summary["moves"] for s in score["series"] for position in
               s["positions"])


def test_the_replay_never_names_an_award_card_before_the_scores(site: Site) -> None:
    """Award cards drawn and put back are named nowhere in the replay; the kept ones only
    in the final scores (as the archive's game shows them), never at an earlier position
    or in a step."""
    game = site.add(EXAMPLE).json
    path = f"/api/archive/{game['id']}"
    record = loads_record(EXAMPLE)
    cards = {m.card for m in record.moves if m.kind in ("draw_award", "keep_award")}
    kept = {m.card for m in record.moves if m.kind == "keep_award"}
    summary = replay(site, path)
    views = all_views(site, path, summary["moves"])
    text = json.dumps(summary["steps"]) + json.dumps(views[:-1])
    assert cards and not any(f'"{card}"' in text for card in cards)
    last = json.dumps(views[-1])
    assert not any(f'"{card}"' in last for card in cards - kept)
    assert any(f'"{card}"' in last for card in kept)


def test_a_b_movies_replay_shows_votes_only_as_revealed(site: Site) -> None:
    """Hidden Team: a vote's step never says the vote, a token's never its value or id, the
    deal never the studios; the view right after a turn's last vote reveals every vote of
    that turn; no studio and no token value before the Final Cut; the tokens charted per
    round add up to each player's tokens."""
    text, moves = bmovies_game(4, 3, "hidden")
    game = site.add(text).json
    path = f"/api/archive/{game['id']}"
    summary = replay(site, path)
    views = all_views(site, path, summary["moves"])
    assert views == engine_views(BMOVIES, text)
    assert summary["analyzes"] is False
    hidden = {"vote": "vote", "draw_token": "value", "deal_studios": "studios"}
    for n, (step, move) in enumerate(zip(summary["steps"], moves, strict=True), start=1):
        assert step["move"] == move.kind and step.get("player") == move.player
        if move.kind in hidden:
            assert hidden[move.kind] not in step and "token" not in step
        if move.kind == "vote" and views[n]["reveal"] is not None \
                and views[n - 1]["phase"] == "vote" and views[n]["phase"] != "vote":
            assert views[n]["reveal"]["votes"][str(move.player)] == move.vote
    reveals = [n for n in range(1, len(views))
               if views[n - 1]["phase"] == "vote" and views[n]["phase"] != "vote"]
    assert len(reveals) == sum(1 for m in moves if m.kind == "pitch")
    for view in views[:-1]:
        assert view["final_cut"] is None
        assert all(isinstance(p["tokens"], int) for p in view["players"])
    charts = {c["id"]: c for c in summary["charts"]}
    assert list(charts) == ["tokens", "movies"]
    cut = views[-1]["final_cut"]["players"]
    for p, series in enumerate(charts["tokens"]["series"]):
        assert sum(series["values"]) == len(cut[p]["tokens"])
    for p, series in enumerate(charts["movies"]["series"]):
        assert sum(series["values"]) == len(cut[p]["movies"])


def test_a_live_table_replays_its_moves_so_far(site: Site) -> None:
    """A Popcorn table mid-game: its replay has every move applied so far, its last view is
    the table's view (less what only a live screen uses), and it follows the table: a new
    move is one more step, an undo one less."""
    text, moves = popcorn_game(3, 5)
    info = site.table(list(loads_record(text).names), loads_record(text).first_player)
    site.play(info, moves[:200])
    path = f"/api/tables/{info['id']}"
    summary = replay(site, path)
    assert (summary["source"], summary["moves"], summary["over"]) == ("table", 200, False)
    assert summary["events"] == site.hub.tables[info["id"]].count
    last = site.client.get(f"{path}/replay/views?from=200&count=5").json
    table = site.client.get(path).json["view"]
    assert last["from"] == 200 and len(last["views"]) == 1
    assert last["views"][0] == {**{k: v for k, v in table.items() if k not in LIVE_ONLY},
                                "legal": [], "chance": [], "zones": {}}
    site.play(info, moves[200:201])
    assert replay(site, path)["moves"] == 201
    undone = site.client.post(f"{path}/undo", headers={"X-Table-Pin": info["pin"]})
    assert undone.status_code == 200, undone.json
    assert replay(site, path)["steps"] == summary["steps"]


def test_a_live_tables_correction_is_a_step_of_its_own(site: Site) -> None:
    """A correction that moves a guest is a step: the board shows the guest where the table
    put it, and the step says where."""
    text, moves = popcorn_game(2, 6)
    info = site.table(list(loads_record(text).names), loads_record(text).first_player)
    site.play(info, moves[:40])
    state = site.hub.tables[info["id"]].state
    pawn = next(p for p, loc in enumerate(state.loc) if loc == 10)  # in Ana's bag
    color = state.pawn_color[pawn]
    answer = site.client.post(f"/api/tables/{info['id']}/correct",
                              json={"color": color, "from": {"zone": "bag", "player": 0},
                                    "zone": "exit", "player": 0},
                              headers={"X-Table-Pin": info["pin"]})
    assert answer.status_code == 200, answer.json
    summary = replay(site, f"/api/tables/{info['id']}")
    assert summary["moves"] == 41
    assert summary["steps"][-1] == {"move": "correct", "pawn": pawn, "zone": "exit",
                                    "player": 0, "round": state.round}
    views = site.client.get(f"/api/tables/{info['id']}/replay/views?from=40&count=2").json
    before, after = views["views"]
    assert after["cinemas"][0]["exit"][color] == before["cinemas"][0]["exit"][color] + 1
    assert after["cinemas"][0]["bag"][color] == before["cinemas"][0]["bag"][color] - 1


def test_a_running_b_movies_table_keeps_its_votes_secret(site: Site) -> None:
    """Mid-vote, the live replay says who voted, never what."""
    text, moves = bmovies_game(3, 9)
    info = site.table(["Ana", "Bob", "Chloe"], game="b-movies")
    first_vote = next(n for n, m in enumerate(moves) if m.kind == "vote")
    site.play(info, moves[:first_vote + 1])
    summary = replay(site, f"/api/tables/{info['id']}")
    assert summary["steps"][-1] == {"move": "vote", "player": moves[first_vote].player,
                                    "round": 1}
    answer = site.client.get(f"/api/tables/{info['id']}/replay/views?from={first_vote + 1}")
    assert answer.json["views"][0]["reveal"] is None
    assert f'"{moves[first_vote].vote}"' not in json.dumps(summary) + json.dumps(answer.json)


@pytest.mark.parametrize("query, field", [("from=99999", "from"), ("from=-1", "from"),
                                          ("from=x", "from"), ("count=0", "count"),
                                          (f"count={MAX_VIEWS + 1}", "count")])
def test_a_bad_page_of_views_is_refused(site: Site, query: str, field: str) -> None:
    game = site.add(popcorn_game(2, 7)[0]).json
    answer = site.client.get(f"/api/archive/{game['id']}/replay/views?{query}")
    assert answer.status_code == 400 and answer.json["code"] == "BAD_REQUEST"
    assert answer.json["params"]["field"] == field


def test_an_unknown_game_or_table_is_404_and_a_corrected_game_keeps_its_replay(
        site: Site) -> None:
    for path in ("/api/archive/nothing/replay", "/api/archive/nothing/replay/views",
                 "/api/archive/nothing/analysis"):
        answer = site.client.get(path)
        assert answer.status_code == 404 and answer.json["code"] == "ARCHIVE_NOT_FOUND"
    answer = site.client.get("/api/tables/nothing/replay")
    assert answer.status_code == 404 and answer.json["code"] == "TABLE_NOT_FOUND"
    text, moves = popcorn_game(2, 8)
    info = site.table(list(loads_record(text).names), loads_record(text).first_player)
    site.play(info, moves[:30])
    pawn = next(p for p, loc in enumerate(site.hub.tables[info["id"]].state.loc) if loc == 10)
    site.client.post(f"/api/tables/{info['id']}/correct",
                     json={"pawn": pawn, "zone": "bag", "player": 0},
                     headers={"X-Table-Pin": info["pin"]})
    state = site.hub.tables[info["id"]].state
    while not state.is_over:  # on to the end from the corrected position
        legal = state.legal_moves() or state.chance_outcomes()
        site.hub.submit(info["id"], legal[0])
        state = site.hub.tables[info["id"]].state
    archived = replay(site, f"/api/archive/{info['id']}")
    assert archived["over"] is True  # the archive kept its record, correction and all
    assert replay(site, f"/api/tables/{info['id']}")["over"] is True  # the table replays


# -- the analysis ------------------------------------------------------------------------------

def wait_analysis(site: Site, game_id: str) -> dict[str, Any]:
    answers: list[dict[str, Any]] = []

    def done() -> bool:
        answers.append(site.client.get(f"/api/archive/{game_id}/analysis").json)
        return answers[-1]["state"] != "running"
    assert wait_for(done, timeout=60)
    return answers[-1]


def test_an_analysis_runs_once_and_is_kept(tmp_path: Path) -> None:
    """Not started, then started (202, running), then done: the game's own analysis of the
    record, kept in the hub's file. A restarted hub reads it kept, and a new start computes
    nothing (200 at once)."""
    path = tmp_path / "hub.sqlite"
    site = opened(path)
    try:
        game = site.add(EXAMPLE).json["id"]
        assert site.client.get(f"/api/archive/{game}/analysis").json == {"state": "none"}
        started = site.client.post(f"/api/archive/{game}/analysis")
        assert started.status_code in (200, 202), started.json
        done = wait_analysis(site, game)
        assert done == {"state": "done", "analysis": POPCORN.advisor.analyze(EXAMPLE)}
    finally:
        site.hub.stop()
    db = sqlite3.connect(path)
    try:
        [(kept_id,)] = db.execute("SELECT game_id FROM archive_analyses").fetchall()
    finally:
        db.close()
    assert kept_id == game
    site = opened(path)
    try:
        calls: list[str] = []
        kind = site.hub.games["popcorn"]
        kind.analyze = lambda *a, **k: calls.append("analyze")  # type: ignore[method-assign]
        assert site.client.get(f"/api/archive/{game}/analysis").json == done
        again = site.client.post(f"/api/archive/{game}/analysis")
        assert again.status_code == 200 and again.json == done and calls == []
    finally:
        site.hub.stop()


def test_an_analysis_reports_its_progress_while_it_runs(site: Site) -> None:
    """The job's answer while it runs is the game's own progress: moves gone through of the
    record's moves, growing, then done."""
    game = site.add(EXAMPLE).json["id"]
    advisor = site.hub.games["popcorn"].advisor
    real = advisor.analyze
    reached, go_on = threading.Event(), threading.Event()

    def slow(text: str, progress: Any = None) -> Any:
        def told(done: int, total: int) -> None:
            progress(done, total)
            if done >= total // 2 and not reached.is_set():
                reached.set()
                assert go_on.wait(30)
        return real(text, told)
    advisor.analyze = slow  # type: ignore[method-assign]
    assert site.client.post(f"/api/archive/{game}/analysis").status_code == 202
    assert reached.wait(30)
    middle = site.client.get(f"/api/archive/{game}/analysis").json
    total = len(loads_record(EXAMPLE).moves)
    assert middle["state"] == "running" and middle["total"] == total
    assert total // 2 <= middle["done"] < total
    assert site.client.post(f"/api/archive/{game}/analysis").json == middle  # one job
    go_on.set()
    assert wait_analysis(site, game)["state"] == "done"


def test_an_analysis_goes_with_its_game(site: Site) -> None:
    """A deleted game's analysis goes with it; an undo that reopens a table's game drops
    the analysis of the game that ended, and the game that ends again is analysed anew."""
    info = finished_table(site, 2, 2)
    site.client.post(f"/api/archive/{info['id']}/analysis")
    assert wait_analysis(site, info["id"])["state"] == "done"
    undone = site.client.post(f"/api/tables/{info['id']}/undo",
                              headers={"X-Table-Pin": info["pin"]})
    assert undone.status_code == 200
    assert site.client.get(f"/api/archive/{info['id']}/analysis").status_code == 404
    text, moves = popcorn_game(2, 2)
    site.hub.submit(info["id"], moves[-1])
    assert site.client.get(f"/api/archive/{info['id']}/analysis").json == {"state": "none"}
    imported = site.add(EXAMPLE).json["id"]
    site.client.post(f"/api/archive/{imported}/analysis")
    assert wait_analysis(site, imported)["state"] == "done"
    site.client.delete(f"/api/archive/{imported}", headers=ADMIN_HEADER)
    again = site.add(EXAMPLE).json["id"]
    assert site.client.get(f"/api/archive/{again}/analysis").json == {"state": "none"}


def test_a_game_without_an_advisor_has_no_analysis(site: Site) -> None:
    game = site.add(bmovies_game(3, 4)[0]).json["id"]
    for method in (site.client.get, site.client.post):
        answer = method(f"/api/archive/{game}/analysis")
        assert answer.status_code == 409 and answer.json["code"] == "NO_ANALYSIS"
        assert answer.json["params"] == {"game": "b-movies"}


def test_a_live_replay_makes_the_tables_relabels(rig: Any) -> None:
    """A pawn drawn by a tap that stands in for a look-alike (a relabel logged with its
    draw): the live replay's last view is the table's own, pawn for pawn, and the draw's step
    names the tapped pawn."""
    from tests.hub.test_pawn_identity import foreign_look_alike, tap_ok
    info = rig.table()
    rig.end_buying(info)
    table = rig.hub.tables[info["id"]]
    pawn = foreign_look_alike(table.state, 0)
    tap_ok(rig, "bag-1", pawn)
    assert table.entries[-1].get("relabel")  # the tap was a relabelled draw
    summary = rig.client.get(f"/api/tables/{info['id']}/replay").json
    assert summary["steps"][-1]["move"] == "draw_pawn" and summary["steps"][-1]["pawn"] == pawn
    views = rig.client.get(f"/api/tables/{info['id']}/replay/views"
                           f"?from={summary['moves']}").json["views"]
    live = rig.client.get(f"/api/tables/{info['id']}").json["view"]
    assert views == [{**{k: v for k, v in live.items() if k not in LIVE_ONLY},
                      "legal": [], "chance": [], "zones": {}}]
