"""B Movies on the hub: whole games over HTTP with token taps on virtual pads, the Final Cut
against ``score`` and ``replay``, token alerts, secrets kept, and bad requests refused.

The hub runs in this process with its real reader link: virtual token pads on
pseudo-terminals, the dedup store and the event log in a real SQLite file. Pitches go to the
API as the tablet sends them, votes with each player's phone token (or the table's PIN), and
every owed token is a tag tapped on the drawing player's pad.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.games.bmovies.demo import BMoviesPlayers
from companion.games.bmovies.facts_file import load_facts
from companion.games.popcorn.demo import enroll_box
from companion.hub.hub import Hub
from companion.kit.tags import random_uid
from tests.bmovies.rig import ADMIN, NAMES, Rig
from tests.waiting import wait_for

ROOT = Path(__file__).resolve().parents[2]
FACTS = load_facts()


@pytest.fixture
def rig4(tmp_path: Path):
    rig = Rig(tmp_path, 4)
    yield rig
    rig.close()


@pytest.fixture
def rig6(tmp_path: Path):
    rig = Rig(tmp_path, 6)
    yield rig
    rig.close()


def play_out(rig: Rig, info: dict[str, Any], seed: int) -> BMoviesPlayers:
    players = BMoviesPlayers(rig.table(info), rig.bank, rig.uids, rig.send_as_devices(info),
                             lock=rig.hub.lock, delay=0, seed=seed)
    for _ in range(3000):
        if not players.step():
            break
    assert rig.table(info).state.is_over
    return players


def sheet_from_what_the_table_saw(rig: Rig, info: dict[str, Any],
                                  players: BMoviesPlayers) -> dict[str, Any]:
    """The score sheet a table would write by hand: the values of the tokens each player
    tapped (known from the tags, not from the hub), the movies the reveals made, the
    studios the phones showed."""
    view = rig.client.get(f"/api/tables/{info['id']}").json["view"]
    sheet: dict[str, Any] = {"game": "b-movies", "variant": view["variant"], "players": []}
    for seat, name in enumerate(info["players"]):
        tokens = [FACTS.token_value(t) for who, t in players.tapped if who == seat]
        movies = [{"cards": turn["cards"], "title": turn["title"]} for turn in view["history"]
                  if turn["screenwriter"] == seat and turn["made"]]
        entry = {"name": name, "tokens": tokens, "movies": movies}
        if view["variant"] == "hidden":
            phone = rig.client.get(f"/api/tables/{info['id']}/players/{seat}/private",
                                   headers={"X-Player-Token": info["tokens"][seat]}).json
            entry["studio"] = phone["studio"]
        sheet["players"].append(entry)
    return sheet


def command(tmp: Path, *args: str, stdin: str | None = None) -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-m", "companion", *args], input=stdin,
                          capture_output=True, text=True, cwd=ROOT, timeout=120,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def same_cut(hub_cut: dict[str, Any], other: dict[str, Any]) -> None:
    assert [p["score"] for p in hub_cut["players"]] == [p["score"] for p in other["players"]]
    assert [s["total"] for s in hub_cut["sides"]] == [s["total"] for s in other["sides"]]
    assert hub_cut["winners"] == other["winners"]
    assert hub_cut["tie_break"] == other["tie_break"]


def test_a_whole_four_player_game_over_http_and_token_pads_scores_as_score_and_replay(
        rig4: Rig, tmp_path: Path) -> None:
    """Issue 15, tests: a whole 4-player game over HTTP and virtual readers whose scores
    equal ``score`` (on the sheet the table would write) and ``replay`` (on the record)."""
    info = rig4.create()
    assert info["game"] == "b-movies" and info["options"] == {"variant": "standard"}
    players = play_out(rig4, info, seed=4)
    table = rig4.table(info)
    assert table.state.round == FACTS.clapboards[4]  # 4 players: 4 rounds
    assert len(players.tapped) == sum(map(len, table.state.piles)) > 0
    hub_cut = rig4.client.get(f"/api/tables/{info['id']}/scores").json
    sheet = tmp_path / "sheet.json"
    sheet.write_text(json.dumps(sheet_from_what_the_table_saw(rig4, info, players)))
    same_cut(hub_cut, command(tmp_path, "score", str(sheet)))
    record = rig4.client.get(f"/api/tables/{info['id']}/record",
                             headers={"X-Table-Pin": info["pin"]})
    assert record.status_code == 200
    assert json.loads(record.text.splitlines()[0])["game"] == "b-movies"
    same_cut(hub_cut, command(tmp_path, "replay", "-", stdin=record.text)["final_cut"])


def test_a_six_player_hidden_team_game_deals_studios_to_the_phones_only(
        rig6: Rig, tmp_path: Path) -> None:
    """Hidden Team variant, clarification 9: the hub deals 2 copies each of 3 studios to 6
    phones in secret; the Final Cut forms the teams, and its scores equal ``score``'s."""
    info = rig6.create("hidden")
    undo = rig6.client.post(f"/api/tables/{info['id']}/undo", json={"pin": info["pin"]})
    assert (undo.status_code, undo.json["code"]) == (409, "NOTHING_TO_UNDO")  # deal stays
    studios = []
    for seat in range(6):
        phone = rig6.client.get(f"/api/tables/{info['id']}/players/{seat}/private",
                                headers={"X-Player-Token": info["tokens"][seat]}).json
        studios.append(phone["studio"])
    assert sorted(studios.count(s) for s in set(studios)) == [2, 2, 2]
    before = json.dumps(rig6.client.get(f"/api/tables/{info['id']}").json)
    assert '"studio":' not in before
    players = play_out(rig6, info, seed=6)
    hub_cut = rig6.client.get(f"/api/tables/{info['id']}/scores").json
    assert [p["studio"] for p in hub_cut["players"]] == studios
    assert sorted(len(side["members"]) for side in hub_cut["sides"]) == [2, 2, 2]
    assert all(not side["doubled"] for side in hub_cut["sides"])
    sheet = tmp_path / "sheet.json"
    sheet.write_text(json.dumps(sheet_from_what_the_table_saw(rig6, info, players)))
    same_cut(hub_cut, command(tmp_path, "score", str(sheet)))


def start_draws(rig: Rig, info: dict[str, Any], votes: list[str]) -> None:
    """Ana pitches 3 cards; Bob, Chloe and Dev vote ``votes`` from their phones."""
    assert rig.post(info, {"move": "pitch", "player": 0, "cards": 3}).status_code == 200
    for seat, vote in zip((1, 2, 3), votes, strict=True):
        answer = rig.post(info, {"move": "vote", "player": seat, "vote": vote},
                          token=info["tokens"][seat])
        assert answer.status_code == 200, answer.json


def refused_tap(rig: Rig, info: dict[str, Any], seat: int, token: int, code: str) -> None:
    table = rig.table(info)
    before, alerts = table.state.to_dict(), len(table.alerts)
    seq = rig.tap(seat, token)
    assert wait_for(lambda: len(table.alerts) > alerts)
    alert = table.alerts[-1]
    assert alert["code"] == code and alert["player"] == seat
    assert alert["params"] == {"name": NAMES[seat]}  # public: no token, value or owner
    assert str(token) not in alert["message"] + alert["fix"]
    assert wait_for(lambda: rig.feedback(seat, seq) == "error")
    assert table.state.to_dict() == before


def test_token_taps_draw_and_the_wrong_ones_raise_alerts_that_change_nothing(
        rig4: Rig) -> None:
    """Issue 15, item 5: a token tapped by a player owed no draw, a token already in
    someone's pile and a draw beyond what is owed each raise an alert with reader error
    feedback and change nothing; a good tap adds the token to that player's secret pile."""
    info = rig4.create()
    start_draws(rig4, info, ["yes", "no", "no"])  # rejected: Chloe and Dev draw 1 each
    table = rig4.table(info)
    assert table.state.owed == [0, 0, 1, 1]
    refused_tap(rig4, info, 1, 0, "TOKEN_NOT_OWED")  # Bob voted Yes on a rejected pitch
    seq = rig4.tap(2, 60)  # Chloe draws token 60
    assert wait_for(lambda: rig4.feedback(2, seq) == "ok")
    assert table.state.piles[2] == [FACTS.token_value(60)]
    refused_tap(rig4, info, 2, 61, "TOKEN_BEYOND_OWED")
    refused_tap(rig4, info, 3, 60, "TOKEN_ALREADY_DRAWN")
    unknown = random_uid(random.Random(5))
    before, alerts = table.state.to_dict(), len(table.alerts)
    rig4.bank.tap(rig4.readers[3], unknown)
    assert wait_for(lambda: len(table.alerts) > alerts)
    assert table.alerts[-1]["code"] == "UNKNOWN_TAG" and table.state.to_dict() == before
    assert table.alerts[-1]["params"]["kind"] == "token"  # rendered as a token pad's alert
    phone = rig4.client.get(f"/api/tables/{info['id']}/players/2/private",
                            headers={"X-Player-Token": info["tokens"][2]}).json
    assert phone["tokens"] == [FACTS.token_value(60)] and phone["owed"] == 0
    public = rig4.client.get(f"/api/tables/{info['id']}").json["view"]
    assert public["players"][2]["tokens"] == 1 and public["bucket"] == 97


def test_a_pawn_tag_at_a_b_movies_table_is_not_a_token(rig4: Rig) -> None:
    """A Popcorn pawn's tag tapped on a B Movies pad: an alert, nothing changed."""
    pawns = enroll_box(rig4.hub, 2)
    info = rig4.create()
    start_draws(rig4, info, ["no", "no", "no"])
    table = rig4.table(info)
    before, alerts = table.state.to_dict(), len(table.alerts)
    rig4.bank.tap(rig4.readers[1], pawns[0])
    assert wait_for(lambda: len(table.alerts) > alerts)
    assert table.alerts[-1]["code"] == "NOT_A_TOKEN" and table.state.to_dict() == before


def test_a_phone_reports_a_drawn_token_by_hand(rig4: Rig) -> None:
    """Issue 15, item 5: for a table without readers, a phone reports a drawn token's value;
    another player's phone may not, and the tablet may with the PIN."""
    info = rig4.create()
    start_draws(rig4, info, ["no", "no", "yes"])
    move = {"move": "draw_token", "player": 1, "value": 3}
    assert rig4.post(info, move, token=info["tokens"][2]).json["code"] == "WRONG_TOKEN"
    assert rig4.post(info, move).json["code"] == "PIN_REQUIRED"
    assert rig4.post(info, move, pin="000000").json["code"] in ("WRONG_PIN", "TOO_MANY_TRIES")
    assert rig4.post(info, move, token=info["tokens"][1]).status_code == 200
    answer = rig4.post(info, {"move": "draw_token", "player": 2, "value": 0}, pin=info["pin"])
    assert answer.status_code == 200
    state = rig4.table(info).state
    assert state.piles[1] == [3] and state.piles[2] == [0] and state.phase == "pitch"


def test_a_vote_may_change_before_the_reveal_and_only_undo_changes_it_after(
        rig4: Rig) -> None:
    """Issue 15, item 4: a changed vote before the reveal is allowed; after it votes are
    final, and only Undo with the PIN takes the reveal back. Votes may be entered at the
    tablet with the PIN."""
    info = rig4.create()
    assert rig4.post(info, {"move": "pitch", "player": 0, "cards": 2}).status_code == 200
    vote = {"move": "vote", "player": 1, "vote": "yes"}
    assert rig4.post(info, vote, token=info["tokens"][1]).status_code == 200
    changed = {"move": "vote", "player": 1, "vote": "no"}
    assert rig4.post(info, changed, token=info["tokens"][1]).status_code == 200
    assert rig4.post(info, {"move": "vote", "player": 2, "vote": "no"},
                     pin=info["pin"]).status_code == 200
    assert rig4.post(info, {"move": "vote", "player": 3, "vote": "yes!"},
                     token=info["tokens"][3]).status_code == 200
    reveal = rig4.client.get(f"/api/tables/{info['id']}").json["view"]["reveal"]
    assert reveal["votes"] == {"1": "no", "2": "no", "3": "yes!"} and not reveal["made"]
    late = rig4.post(info, vote, token=info["tokens"][1])
    assert late.status_code == 409 and late.json["code"] == "WRONG_PHASE"
    assert rig4.client.post(f"/api/tables/{info['id']}/undo").status_code == 403
    undo = rig4.client.post(f"/api/tables/{info['id']}/undo", json={"pin": info["pin"]})
    assert undo.status_code == 200
    state = rig4.table(info).state
    assert state.phase == "vote" and state.votes == {1: "no", 2: "no"}
    assert "yes!" in state.hands[3]


def test_bad_requests_get_a_code_and_change_nothing(rig4: Rig) -> None:
    """Bad input: each refusal has a stable code and a sentence, and the table is as
    before (too few players, a bad variant, another player's vote, a pawn correction, a
    Popcorn-only route, a secret route before the end)."""
    body = {"game": "b-movies", "players": NAMES[:2], "readers": rig4.readers[:2]}
    assert rig4.client.post("/api/tables", json=body).json["code"] == "BAD_REQUEST"
    body = {"game": "b-movies", "players": NAMES[:4], "readers": rig4.readers,
            "variant": "teams"}
    assert rig4.client.post("/api/tables", json=body).json["code"] == "BAD_REQUEST"
    body = {"game": "chess", "players": NAMES[:4], "readers": rig4.readers}
    assert rig4.client.post("/api/tables", json=body).json["code"] == "BAD_REQUEST"
    info = rig4.create()
    before = rig4.table(info).state.to_dict()
    pin = {"X-Table-Pin": info["pin"]}
    checks = [
        (rig4.post(info, {"move": "pitch", "player": 1, "cards": 2}), 409, "NOT_YOUR_TURN"),
        (rig4.post(info, {"move": "pitch", "player": 0, "cards": 5}), 409, "BAD_PITCH_SIZE"),
        (rig4.post(info, {"move": "pitch", "player": 0}), 400, "BAD_MOVE"),
        (rig4.post(info, {"move": "seat", "player": 0}), 400, "UNKNOWN_MOVE"),
        (rig4.client.get(f"/api/tables/{info['id']}/state", headers=pin), 409,
         "SECRET_UNTIL_END"),
        (rig4.client.get(f"/api/tables/{info['id']}/record", headers=pin), 409,
         "SECRET_UNTIL_END"),
        (rig4.client.get(f"/api/tables/{info['id']}/scores"), 409, "GAME_NOT_OVER"),
        (rig4.client.post(f"/api/tables/{info['id']}/correct",
                          json={"pin": info["pin"], "pawn": 1, "zone": "box"}), 400,
         "BAD_REQUEST"),
        (rig4.client.get(f"/api/tables/{info['id']}/advice?player=0"), 409,
         "NOT_FOR_THIS_GAME"),
    ]
    for answer, status, code in checks:
        assert (answer.status_code, answer.json["code"]) == (status, code), answer.json
        assert answer.json["message"]
    assert rig4.post(info, {"move": "pitch", "player": 0, "cards": 2}).status_code == 200
    other = rig4.post(info, {"move": "vote", "player": 1, "vote": "no"},
                      token=info["tokens"][2])
    assert other.status_code == 403 and other.json["code"] == "WRONG_TOKEN"
    assert rig4.table(info).state.votes == {}
    assert before["phase"] == "pitch"


def test_token_enrollment_counts_each_value_against_the_box(tmp_path: Path) -> None:
    """Issue 15, item 5: tap all the 0s, then the 1s...: live counts against the box's
    25/28/25/15/5 (from the facts), a full value refused, a known tag refused."""
    rig = Rig(tmp_path, 2)
    try:
        rig.hub.registry.import_({"format": "popcorn-tags", "version": 2})
        admin = rig.socketio.test_client(rig.app)
        admin.emit("join_admin", {"admin_pin": ADMIN})
        admin.get_received()
        start = rig.client.post("/api/enroll", json={"admin_pin": ADMIN, "tokens": 4})
        assert start.status_code == 200 and start.json["enrolling_tokens"] == 4
        capacity = dict(zip(map(str, range(5)), FACTS.token_counts, strict=True))
        assert start.json["token_capacity"] == capacity
        rng = random.Random(9)
        uids = [random_uid(rng) for _ in range(FACTS.token_counts[4] + 1)]
        for uid in uids:
            rig.bank.tap(rig.readers[0], uid)
        assert wait_for(lambda: rig.hub.registry.token_counts()["4"] == FACTS.token_counts[4])
        assert wait_for(lambda: (rig.hub.last_enrolled or {}).get("code") == "TOKEN_FULL")
        rig.bank.tap(rig.readers[0], uids[0])
        assert wait_for(lambda: (rig.hub.last_enrolled or {}).get("code") == "DUPLICATE_UID")
        assert rig.hub.settled()  # every enroll push delivered
        pushed = [m["args"][0] for m in admin.get_received() if m["name"] == "enroll"]
        done = [p for p in pushed if p["ok"]]
        assert [p["tokens"]["4"] for p in done] == list(range(1, FACTS.token_counts[4] + 1))
        assert done[-1]["capacity"] == capacity and done[-1]["value"] == 4
        tokens = [p for p in rig.hub.registry.export()["pieces"] if p["kind"] == "token"]
        assert len(tokens) == FACTS.token_counts[4] and {p["game"] for p in tokens} == {
            "b-movies"}
        assert all(FACTS.token_value(p["id"]) == p["value"] == 4 for p in tokens)
        assert done[-1]["piece"] == {"game": "b-movies", "kind": "token", "id": tokens[-1]["id"],
                                     "value": 4, "title": "4"}
        counts = rig.client.get("/api/tags/counts").json
        assert counts["tokens"]["4"] == FACTS.token_counts[4] and counts["tokens"]["0"] == 0
        bad = rig.client.post("/api/enroll", json={"admin_pin": ADMIN, "tokens": 7})
        assert bad.json["code"] == "BAD_REQUEST"
    finally:
        rig.close()


def test_a_b_movies_table_survives_a_hub_restart(tmp_path: Path) -> None:
    """Everything is an event, stored first: a restarted hub rebuilds a B Movies table from
    its log, votes in progress and drawn tokens included."""
    rig = Rig(tmp_path, 4)
    try:
        info = rig.create("hidden")
        start_draws(rig, info, ["yes", "yes!", "no"])
        seq = rig.tap(1, 30)
        assert wait_for(lambda: rig.feedback(1, seq) == "ok")
        before = rig.table(info).state.to_dict()
    finally:
        rig.close()
    hub = Hub(tmp_path / "hub.sqlite")
    try:
        table = hub.tables[info["id"]]
        assert table.game.id == "b-movies" and table.state.to_dict() == before
        assert table.state.studios is not None
    finally:
        hub.stop()


def test_every_b_movies_code_has_a_template_and_a_refusal_speaks_french(rig4: Rig) -> None:
    """Languages: each B Movies violation and token alert code renders in every language;
    a refused pitch asked in French is answered in French with the same code and params."""
    from companion.games.bmovies.engine import CODES
    from companion.games.bmovies.tags import ALERT_CODES
    from companion.games.bmovies.texts import ALERTS, REFUSALS

    assert set(CODES) == set(REFUSALS)
    tags = {"TOKEN_NOT_OWED", "TOKEN_BEYOND_OWED", "TOKEN_ALREADY_DRAWN", "NOT_A_TOKEN"}
    assert tags <= set(ALERTS) and tags <= set(ALERT_CODES)
    from companion.i18n.catalogs import browser_catalog

    unknown = browser_catalog("fr")["codes"]["alerts"]["UNKNOWN_TAG:token"]
    assert browser_catalog("fr")["messages"][unknown[0]].startswith("Une puce inconnue")
    info = rig4.create()
    move = {"move": "pitch", "player": 0, "cards": 5}
    english = rig4.post(info, move).json
    french = rig4.client.post(f"/api/tables/{info['id']}/moves?lang=fr", json={"move": move}).json
    assert english["code"] == french["code"] == "BAD_PITCH_SIZE"
    assert french["params"] == english["params"]
    assert french["message"] == "Un pitch compte de 2 à 4 cartes Titre."


def test_the_demo_plays_a_whole_b_movies_game(tmp_path: Path) -> None:
    """README's demo with ``--game b-movies``: four virtual token pads, the scripted players
    play a Hidden Team game to its Final Cut, which the command prints."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    done = subprocess.run(
        [sys.executable, "-m", "companion", "demo", "--game", "b-movies", "--variant",
         "hidden", "--speed", "200", "--port", str(port), "--exit-when-done"],
        capture_output=True, text=True, cwd=ROOT, timeout=300,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "/table/" in lines[0]
    assert lines[1].startswith("Table PIN ") and "undo" in lines[1]  # and what it is for
    assert [line.split(":")[0].strip() for line in lines[3:7]] == list(NAMES[:4])
    assert all("/phone/" in line and "#token=" in line for line in lines[3:7])
    assert lines[7].startswith("4 virtual token pads over serial")
    final = lines[-2]
    assert final.startswith("Final Cut: ") and "winner(s): " in final, final
    assert all(name in final for name in NAMES[:4])
    # issue 38, item 5: without --db the archive goes with the demo, and the demo says so
    assert "is gone with it" in lines[-1] and "--db demo.sqlite" in lines[-1], lines[-1]


def kept_demo(tmp_path: Path, db: Path) -> subprocess.CompletedProcess[str]:
    """A whole B Movies ``demo --db db --exit-when-done`` run to its end (exit status 0)."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    done = subprocess.run(
        [sys.executable, "-m", "companion", "demo", "--game", "b-movies", "--speed", "200",
         "--port", str(port), "--exit-when-done", "--db", str(db)],
        capture_output=True, text=True, cwd=ROOT, timeout=300,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    return done


def test_the_demo_keeps_its_archive_with_db(tmp_path: Path) -> None:
    """``demo --db PATH`` keeps the hub database: the game just played is in its archive
    afterwards, with its four players, and the demo says where it is."""
    import sqlite3

    db = tmp_path / "kept.sqlite"
    done = kept_demo(tmp_path, db)
    assert f"kept in {db}" in done.stdout.splitlines()[-1]
    with sqlite3.connect(db) as archive:
        games = archive.execute("SELECT id, game FROM archive_games WHERE deleted = 0").fetchall()
        assert [g[1] for g in games] == ["b-movies"], games
        seats = archive.execute("SELECT name FROM archive_seats WHERE game_id = ? ORDER BY seat",
                                (games[0][0],)).fetchall()
    assert [s[0] for s in seats] == list(NAMES[:4])
