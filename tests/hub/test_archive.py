"""The archive: every finished game of a hub, its players' pages, imports and exports.

A hub in this process on a real SQLite file, its app's test client, and games played to the
end by the games' own simulators: on a table (move by move through the hub), or imported as
records. Every refusal is checked to have changed nothing in the file.
"""

from __future__ import annotations

import csv
import io
import sqlite3
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.popcorn.record import loads_record
from companion.hub.app import create_app
from companion.hub.hub import Hub
from companion.i18n.catalogs import translations
from companion.i18n.texts import ERRORS
from tests.hub.archive_games import (
    bmovies_game,
    popcorn_first_player,
    popcorn_game,
)

ADMIN = "246810"
ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = (ROOT / "docs" / "examples" / "game-4p.jsonl").read_text(encoding="utf-8")
EXAMPLE_V1 = (ROOT / "docs" / "examples" / "game-4p-v1.jsonl").read_text(encoding="utf-8")
ADMIN_HEADER = {"X-Admin-Pin": ADMIN}


@dataclass
class Site:
    """A hub on ``path``, and its app's test client."""

    hub: Hub
    client: Any
    path: Path

    def archive(self, query: str = "") -> dict[str, Any]:
        answer = self.client.get(f"/api/archive{query}")
        assert answer.status_code == 200, answer.json
        return answer.json

    def add(self, text: str, pin: str | None = ADMIN, **headers: str):
        body: dict[str, Any] = {"record": text}
        if pin is not None:
            body["admin_pin"] = pin
        return self.client.post("/api/archive", json=body, headers=headers)

    def rows(self) -> list[tuple[Any, ...]]:
        """The archive's rows in the file itself (games, then seats)."""
        db = sqlite3.connect(self.path)
        try:
            return (db.execute("SELECT * FROM archive_games ORDER BY id").fetchall()
                    + db.execute("SELECT * FROM archive_seats ORDER BY game_id, seat").fetchall())
        finally:
            db.close()

    def table(self, players: list[str], first: int = 0, **body: Any) -> dict[str, Any]:
        readers = [f"bag-{n}-{len(self.hub.tables)}" for n in range(len(players))]
        created = self.client.post("/api/tables", json={"players": players, "readers": readers,
                                                        "first_player": first, **body})
        assert created.status_code == 201, created.json
        return created.json

    def play(self, info: dict[str, Any], moves: list[Any]) -> None:
        for move in moves:
            self.hub.submit(info["id"], move)



def opened(path: Path) -> Site:
    hub = Hub(path).start()
    app, _ = create_app(hub, ADMIN)
    return Site(hub, app.test_client(), path)


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    """A hub with no game yet."""
    s = opened(tmp_path / "hub.sqlite")
    yield s
    s.hub.stop()


def finished_table(site: Site, seed: int = 1, players: int = 3) -> dict[str, Any]:
    """A Popcorn table played to its end through the hub (no "deal for us")."""
    text, moves = popcorn_game(players, seed)
    info = site.table(list(loads_record(text).names), popcorn_first_player(text))
    site.play(info, moves)
    assert site.hub.tables[info["id"]].state.is_over
    return info


# -- the games of the hub's tables ------------------------------------------------------------

def test_a_game_played_to_its_end_is_listed_with_its_scores(site: Site) -> None:
    """A table's finished game is in the archive under the table's id, with the players'
    totals and winners of ``/scores``, its final public view, and its record (admin PIN)."""
    info = finished_table(site)
    listing = site.archive()
    assert listing["total"] == 1 and listing["offset"] == 0 and listing["limit"] == 20
    [game] = listing["games"]
    scores = site.client.get(f"/api/tables/{info['id']}/scores").json
    assert game["id"] == game["table"] == info["id"]
    assert (game["game"], game["title"], game["source"]) == ("popcorn", "Popcorn", "table")
    assert game["variant"] is None and game["name"] == info["name"] and game["record"]
    assert [p["name"] for p in game["players"]] == info["players"]
    assert [p["score"] for p in game["players"]] == [p["total"] for p in scores["players"]]
    assert game["winners"] == scores["winners"]
    assert all(p["winner"] == (p["place"] == 1) for p in game["players"])
    assert game["date"].endswith("Z") and game["date"][:2] == "20"
    detail = site.client.get(f"/api/archive/{info['id']}").json
    table = site.client.get(f"/api/tables/{info['id']}").json
    assert detail["scores"] == scores
    table_keys = ("card_choice", "audit", "alert_rounds", "play_on", "playing_on")  # the table's
    assert detail["view"] == {k: v for k, v in table["view"].items() if k not in table_keys}
    record = site.client.get(f"/api/archive/{info['id']}/record", headers=ADMIN_HEADER)
    pinned = site.client.get(f"/api/tables/{info['id']}/record",
                             headers={"X-Table-Pin": info["pin"]})
    assert record.status_code == 200 and record.get_data() == pinned.get_data()


def test_a_game_still_running_is_not_listed_and_undo_takes_a_finished_one_out(
        site: Site) -> None:
    """Only finished games are archived; an undo that reopens the game takes it out, and
    the same end puts it back."""
    text, moves = popcorn_game(2, 4)
    info = site.table(list(loads_record(text).names), popcorn_first_player(text))
    site.play(info, moves[:-1])
    assert site.archive()["total"] == 0
    site.play(info, moves[-1:])
    assert [g["id"] for g in site.archive()["games"]] == [info["id"]]
    undone = site.client.post(f"/api/tables/{info['id']}/undo",
                              headers={"X-Table-Pin": info["pin"]})
    assert undone.status_code == 200
    assert site.archive()["total"] == 0
    assert site.client.get(f"/api/archive/{info['id']}").status_code == 404
    site.play(info, moves[-1:])
    assert site.archive()["total"] == 1


def test_a_b_movies_table_is_archived_with_its_variant(site: Site) -> None:
    """B Movies (Hidden Team, studios entered at the table): the variant, each player's own
    score and a team's place, the Final Cut's winners."""
    text, moves = bmovies_game(4, 8, "hidden")
    info = site.table(["Ana", "Bob", "Chloe", "Dev"], game="b-movies", variant="hidden",
                      studios="entered")
    site.play(info, moves)
    [game] = site.archive("?game=b-movies")["games"]
    cut = site.client.get(f"/api/tables/{info['id']}/scores").json
    assert (game["variant"], game["variant_title"]) == ("hidden", "Hidden Team")
    assert [p["score"] for p in game["players"]] == [p["score"] for p in cut["players"]]
    winners = {m for side in cut["winners"] for m in cut["sides"][side]["members"]}
    assert {n for n, p in enumerate(game["players"]) if p["winner"]} == winners
    assert site.archive("?game=popcorn")["total"] == 0


def test_the_archive_survives_a_restart_and_a_deleted_game_stays_out(tmp_path: Path) -> None:
    """The archive is in the hub's file: a restarted hub lists the same games; a table's
    game the admin deleted is not archived again."""
    path = tmp_path / "hub.sqlite"
    site = opened(path)
    first, second = finished_table(site, 5, 2), finished_table(site, 6, 2)
    before = site.archive()
    refused = site.client.delete(f"/api/archive/{first['id']}")
    assert refused.status_code == 403 and refused.json["code"] == "WRONG_PIN"
    rows = site.rows()
    wrong = site.client.delete(f"/api/archive/{first['id']}", headers={"X-Admin-Pin": "1"})
    assert wrong.status_code == 403 and site.rows() == rows
    gone = site.client.delete(f"/api/archive/{first['id']}", headers=ADMIN_HEADER)
    assert gone.status_code == 200 and gone.json == {"ok": True, "deleted": first["id"]}
    assert site.client.delete(f"/api/archive/{first['id']}",
                              headers=ADMIN_HEADER).json["code"] == "ARCHIVE_NOT_FOUND"
    site.hub.stop()
    site = opened(path)
    try:
        after = site.archive()
        assert [g["id"] for g in after["games"]] == [second["id"]]
        assert after["games"][0] == next(g for g in before["games"] if g["id"] == second["id"])
        assert first["id"] in site.hub.tables  # the table and its log are kept
    finally:
        site.hub.stop()


# -- imports -----------------------------------------------------------------------------------

def test_an_imported_record_is_archived_as_replay_reads_it(site: Site) -> None:
    """The example record imports with the admin PIN; its record comes back byte for byte;
    the same game again (also as version 1) is refused as a duplicate."""
    added = site.add(EXAMPLE)
    assert added.status_code == 201, added.json
    game = added.json
    assert game["id"].startswith("i") and len(game["id"]) == 8 and game["source"] == "import"
    assert game["winners"] == ["Dev"] and game["table"] is None
    assert [p["name"] for p in game["players"]] == ["Ana", "Bob", "Chloe", "Dev"]
    assert site.archive()["games"] == [game]
    record = site.client.get(f"/api/archive/{game['id']}/record", headers=ADMIN_HEADER)
    assert record.get_data(as_text=True) == EXAMPLE
    assert site.client.get(f"/api/archive/{game['id']}/record").status_code == 403
    for text in (EXAMPLE, EXAMPLE_V1):
        again = site.add(text)
        assert again.status_code == 409 and again.json["code"] == "DUPLICATE_GAME"
        assert again.json["params"] == {"id": game["id"]}
    assert site.archive()["total"] == 1


def test_a_record_exported_from_a_table_here_is_already_archived(site: Site) -> None:
    info = finished_table(site, 2, 2)
    text = site.client.get(f"/api/tables/{info['id']}/record",
                           headers={"X-Table-Pin": info["pin"]}).get_data(as_text=True)
    again = site.add(text)
    assert again.status_code == 409 and again.json["params"] == {"id": info["id"]}


BAD_LINES = [
    # (line to change, new text, the refusal's line and reason), after docs/game-record.md
    (34, '{"move": "gain_pawn", "player": 2, "pawn": 3}', 34, "PAWN_NOT_AVAILABLE"),
    (35, '{"move": "buy_theater", "player": 3, "card": "one_seat_1_popcorn", "slot": 2}', 35,
     "FIRST_TURN_NO_THEATER"),
    (40, "not json", 40, "BAD_RECORD"),
    (41, '{"move": "fly", "player": 0}', 41, "UNKNOWN_MOVE"),
    (1, '{"format": "popcorn-record", "version": 4, "players": ["A", "B"], "first_player": 0}',
     1, "BAD_RECORD"),
]


@pytest.mark.parametrize(("number", "line", "at", "reason"), BAD_LINES)
def test_a_bad_record_is_refused_naming_its_line_and_nothing_is_stored(
        site: Site, number: int, line: str, at: int, reason: str) -> None:
    site.add(bmovies_game(3, 1)[0])
    rows = site.rows()
    lines = EXAMPLE.splitlines()
    lines[number - 1] = line
    refused = site.add("\n".join(lines) + "\n")
    assert refused.status_code == 400
    body = refused.json
    assert body["code"] == "BAD_RECORD" and body["params"] == {"line": at, "reason": reason}
    assert body["message"].startswith(f"line {at}: {reason}: ")
    assert site.rows() == rows and site.archive()["total"] == 1


def test_a_record_that_stops_before_the_end_is_refused(site: Site) -> None:
    short = "".join(EXAMPLE.splitlines(keepends=True)[:100])
    refused = site.add(short)
    assert refused.status_code == 400 and refused.json["code"] == "RECORD_NOT_OVER"
    assert refused.json["params"] == {"line": 100}
    assert site.rows() == []


def test_an_import_needs_the_admin_pin_and_a_record(site: Site) -> None:
    for pin in (None, "999999"):
        answer = site.add(EXAMPLE, pin)
        assert (answer.status_code, answer.json["code"]) == (403, "WRONG_PIN")
    for body in ({"admin_pin": ADMIN}, {"admin_pin": ADMIN, "record": 7},
                 {"admin_pin": ADMIN, "record": "  \n"}):
        answer = site.client.post("/api/archive", json=body)
        assert (answer.status_code, answer.json["code"]) == (400, "BAD_REQUEST")
    assert site.client.post("/api/archive", data="x").json["code"] == "BAD_JSON"
    assert site.rows() == []


def test_a_refused_import_speaks_the_askers_language(site: Site) -> None:
    lines = EXAMPLE.splitlines()
    lines[39] = "not json"
    answer = site.add("\n".join(lines), **{"Accept-Language": "fr"})
    template = translations("fr").gettext(ERRORS["BAD_RECORD"])
    assert template != ERRORS["BAD_RECORD"]
    assert answer.json["message"] == template.format(line=40, reason="BAD_RECORD")


JUNK = ["", "{}", "[]", "null", '{"move": "end_turn", "player": 9}', '{"move": "end_turn"}',
        '{"move": "draw_token", "player": 0, "token": 99}', "\u00e9\u00e9", '{"format": 1}']


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(number=st.integers(min_value=1, max_value=40), junk=st.sampled_from(JUNK))
def test_any_changed_line_is_archived_or_refused_by_its_code(site: Site, number: int,
                                                             junk: str) -> None:
    """A record with one line replaced is archived (it was still a whole game) or refused
    with one of the archive's codes, and a refusal stores nothing; never a 500."""
    text = bmovies_game(3, number)[0]
    lines = text.splitlines()
    lines[min(number, len(lines)) - 1] = junk
    rows = site.rows()
    answer = site.add("\n".join(lines) + "\n")
    assert answer.status_code in (201, 400, 409), answer.json
    if answer.status_code != 201:
        assert answer.json["code"] in ("BAD_RECORD", "RECORD_NOT_OVER", "DUPLICATE_GAME",
                                       "BAD_REQUEST")
        assert site.rows() == rows


# -- reading: pages, filters, players ------------------------------------------------------

@pytest.fixture
def filled(site: Site) -> Site:
    """Five imported games, oldest first: Popcorn with Ana and Bob, B Movies with ana, Zoë
    and Bob, Popcorn with three, B Movies Hidden Team with four, Popcorn with Ana and ZOË."""
    for text in (popcorn_game(2, 11)[0], bmovies_game(3, 12, names=("ana", "Zoë", "Bob"))[0],
                 popcorn_game(3, 13)[0], bmovies_game(4, 14, "hidden")[0],
                 popcorn_game(2, 15, names=("Ana", "ZOË"))[0]):
        assert site.add(text).status_code == 201
    return site


def test_the_list_is_newest_first_by_pages(filled: Site) -> None:
    everything = filled.archive("?limit=100")["games"]
    assert len(everything) == 5
    dates = [g["date"] for g in everything]
    assert dates == sorted(dates, reverse=True)
    assert [g["game"] for g in everything] == ["popcorn", "b-movies", "popcorn", "b-movies",
                                               "popcorn"]
    pages = [filled.archive(f"?limit=2&offset={n}") for n in (0, 2, 4, 6)]
    assert [g for page in pages for g in page["games"]] == everything
    assert [page["total"] for page in pages] == [5] * 4 and pages[3]["games"] == []


def test_the_list_filters_by_game_and_by_a_piece_of_a_players_name(filled: Site) -> None:
    def ids(query: str) -> list[str]:
        return [g["id"] for g in filled.archive(query)["games"]]
    everything = ids("")
    assert len(ids("?game=b-movies")) == 2 and len(ids("?game=popcorn")) == 3
    assert ids("?game=dice") == []
    assert ids("?player=ANA") == everything  # "Ana" and "ana" are one player
    assert ids("?player=zo%C3%AB") == [everything[0], everything[3]]
    assert ids("?player=ZO%C3%8B&game=popcorn") == [everything[0]]
    assert ids("?player=nobody") == [] and filled.archive("?player=nobody")["total"] == 0


@pytest.mark.parametrize("query", ["?limit=0", "?limit=101", "?limit=x", "?offset=-1",
                                   "?limit=1.5", "?offset=%D9%A1"])
def test_a_bad_page_is_refused(filled: Site, query: str) -> None:
    answer = filled.client.get(f"/api/archive{query}")
    assert answer.status_code == 400 and answer.json["code"] == "BAD_REQUEST"


def test_a_players_page_adds_up_their_games(filled: Site) -> None:
    """Games, wins, and per game the games, wins, mean and best score of the seats with
    that name, worked out here from the list itself; plays oldest first."""
    page = filled.client.get("/api/archive/players/ana").json
    assert page["name"] == "Ana"  # the latest spelling
    seats = [(g, p) for g in reversed(filled.archive()["games"]) for p in g["players"]
             if p["name"].casefold() == "ana"]
    assert page["games"] == len(seats) == len(page["plays"]) == 5
    assert page["wins"] == sum(p["winner"] for _, p in seats)
    assert [(p["id"], p["score"], p["place"], p["winner"]) for p in page["plays"]] == [
        (g["id"], p["score"], p["place"], p["winner"]) for g, p in seats]
    for totals in page["by_game"]:
        mine = [p for g, p in seats if g["game"] == totals["game"]]
        assert totals["games"] == len(mine) and totals["wins"] == sum(p["winner"] for p in mine)
        assert totals["best"] == max(p["score"] for p in mine)
        assert totals["mean"] == round(sum(p["score"] for p in mine) / len(mine), 1)
    assert {t["game"] for t in page["by_game"]} == {"popcorn", "b-movies"}
    missing = filled.client.get("/api/archive/players/Nobody")
    assert missing.status_code == 404 and missing.json["code"] == "PLAYER_NOT_FOUND"
    assert filled.client.get("/api/archive/players/Zo%C3%AB").json["games"] == 2


def test_an_unknown_game_is_404(site: Site) -> None:
    for path in ("/api/archive/abc12345", "/api/archive/abc12345/record"):
        answer = site.client.get(path, headers=ADMIN_HEADER)
        assert answer.status_code == 404 and answer.json["code"] == "ARCHIVE_NOT_FOUND"


def test_a_deleted_import_can_come_back(filled: Site) -> None:
    newest = filled.archive()["games"][0]
    assert filled.client.delete(f"/api/archive/{newest['id']}",
                                headers=ADMIN_HEADER).status_code == 200
    assert filled.archive()["total"] == 4
    record = popcorn_game(2, 15, names=("Ana", "ZOË"))[0]
    assert filled.add(record).status_code == 201


# -- exports -------------------------------------------------------------------------------

def test_the_zip_holds_every_record_and_needs_the_admin_pin(filled: Site) -> None:
    assert filled.client.get("/api/archive/export.zip").status_code == 403
    answer = filled.client.get("/api/archive/export.zip", headers=ADMIN_HEADER)
    assert answer.status_code == 200 and answer.mimetype == "application/zip"
    assert "attachment" in answer.headers["Content-Disposition"]
    with zipfile.ZipFile(io.BytesIO(answer.get_data())) as archive:
        names = archive.namelist()
        games = filled.archive()["games"]
        assert names == [f"{g['date'][:10]}-{g['game']}-{g['id']}.jsonl" for g in games]
        for game, name in zip(games, names, strict=True):
            record = filled.client.get(f"/api/archive/{game['id']}/record",
                                       headers=ADMIN_HEADER)
            assert archive.read(name) == record.get_data()


def test_a_zipped_record_imports_into_another_hub(filled: Site, tmp_path: Path) -> None:
    data = filled.client.get("/api/archive/export.zip", headers=ADMIN_HEADER).get_data()
    other = opened(tmp_path / "other.sqlite")
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            for name in archive.namelist():
                assert other.add(archive.read(name).decode()).status_code == 201
        def facts(site: Site) -> list[str]:
            return sorted(repr({k: v for k, v in g.items() if k not in ("id", "date")})
                          for g in site.archive()["games"])
        assert facts(other) == facts(filled)
    finally:
        other.hub.stop()


def test_the_plays_csv_has_a_row_per_player_per_play(filled: Site) -> None:
    answer = filled.client.get("/api/archive/plays.csv")
    assert answer.status_code == 200 and answer.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(answer.get_data().decode("utf-8-sig"))))
    assert rows[0] == ["date", "game", "variant", "player", "score", "place", "winner", "id"]
    expected = [[g["date"][:10] + " " + g["date"][11:19], g["title"], g["variant_title"] or "",
                 p["name"], str(p["score"]), str(p["place"]), str(int(p["winner"])), g["id"]]
                for g in filled.archive()["games"] for p in g["players"]]
    assert rows[1:] == expected
    only = filled.client.get("/api/archive/plays.csv?game=b-movies&player=zo%C3%AB")
    rows = list(csv.reader(io.StringIO(only.get_data().decode("utf-8-sig"))))
    assert {r[1] for r in rows[1:]} == {"B Movies"} and len(rows) == 1 + 3


def test_a_name_a_spreadsheet_would_run_is_written_as_text(site: Site) -> None:
    assert site.add(popcorn_game(2, 3, names=("=HYPERLINK(1)", "+Bob"))[0]).status_code == 201
    text = site.client.get("/api/archive/plays.csv").get_data().decode("utf-8-sig")
    players = [row[3] for row in csv.reader(io.StringIO(text))][1:]
    assert players == ["'=HYPERLINK(1)", "'+Bob"]


# -- what is public ------------------------------------------------------------------------

def test_reading_the_archive_never_names_an_award_put_back(site: Site) -> None:
    """Popcorn's award cards drawn and put back under the deck were seen by their player
    only: no reading without the admin PIN names one (the list, a game, a player's page, the
    CSV); the record, which does, needs the PIN."""
    game = site.add(EXAMPLE).json
    record = loads_record(EXAMPLE)
    drawn = {m.card for m in record.moves if m.kind == "draw_award"}
    kept = {m.card for m in record.moves if m.kind == "keep_award"}
    put_back = drawn - kept
    assert put_back
    readings = [site.client.get(path).get_data(as_text=True) for path in (
        "/api/archive", f"/api/archive/{game['id']}", "/api/archive/players/Ana",
        "/api/archive/plays.csv")]
    for text in readings:
        for card in put_back:
            assert card not in text
    assert any(card in readings[1] for card in kept)  # the kept ones are scored in public


def test_a_game_that_cannot_be_archived_never_stops_the_hub(
        site: Site, caplog: pytest.LogCaptureFixture) -> None:
    """A finished table whose game fails to say its standings is left out of the archive,
    with a log line; the archive and the table still answer."""
    def broken(state: Any, names: list[str]) -> None:
        raise RuntimeError("no standings today")
    site.hub.games["popcorn"].archive.standings = broken  # type: ignore[method-assign]
    info = finished_table(site, 3, 2)
    assert site.archive()["total"] == 0
    assert "could not be archived" in caplog.text
    assert site.client.get(f"/api/tables/{info['id']}/scores").status_code == 200
