"""``GET /api/games``: each hosted game as a setup screen builds its form from it (options
as a JSON Schema, features, the form's words) and where its own screens are served
(``/games/<id>/``); the create body ``{"game", "options"}`` beside an older body."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.hub.rig import Rig


@pytest.fixture
def rig(tmp_path: Path):
    r = Rig(tmp_path)
    yield r
    r.close()


def games(rig: Rig) -> dict[str, dict]:
    answer = rig.client.get("/api/games")
    assert answer.status_code == 200
    return {g["id"]: g for g in answer.json}


def test_each_game_says_its_players_options_features_and_words(rig: Rig) -> None:
    listed = games(rig)
    assert list(listed) == ["popcorn", "b-movies"]  # the package's own games, in order
    popcorn, bm = listed["popcorn"], listed["b-movies"]
    assert (popcorn["min_players"], popcorn["max_players"]) == (2, 4)
    assert popcorn["options"]["properties"] == {}  # one way to play
    assert popcorn["features"]["deal"] and popcorn["features"]["hints"]
    assert set(popcorn["words"]) == {"deal", "deal_manual", "hints", "play_on"}
    variant = bm["options"]["properties"]["variant"]
    assert variant["enum"] == ["standard", "hidden"] and len(variant["enumTitles"]) == 2
    assert bm["options"]["properties"]["studios"]["x-shown-when"] == {"variant": "hidden"}
    assert not bm["features"]["deal"] and not bm["features"]["hints"]  # its options decide
    assert bm["features"]["tags"] and bm["words"] == {}


def test_each_games_screens_are_served_from_its_own_package(rig: Rig) -> None:
    for game in games(rig).values():
        screens = game["screens"]
        assert {"table", "phone", "replay"} <= set(screens), game["id"]
        for url in [screens[r] for r in ("table", "phone", "replay")] + screens["styles"]:
            assert re.match(rf"/v/[0-9a-f]{{16}}/games/{game['id']}/", url), url
            answer = rig.client.get(url)
            assert answer.status_code == 200, url
            kind = "javascript" if url.endswith(".js") else "css"
            assert kind in answer.content_type, url
            answer.close()
    [style] = games(rig)["b-movies"]["screens"]["styles"]
    assert style.endswith("/games/b-movies/bmovies.css")


@pytest.mark.parametrize("path", ["/games/nope/table.js", "/games/popcorn/nope.js",
                                  "/games/popcorn/../parts.py", "/games/popcorn/%2e%2e/parts.py"])
def test_nothing_else_is_served_under_games(rig: Rig, path: str) -> None:
    """No such game, no such file, nothing outside the game's folder: ``404 NOT_FOUND``."""
    answer = rig.client.get(path)
    assert answer.status_code == 404 and answer.json["code"] == "NOT_FOUND"


@pytest.mark.parametrize("body", [
    {"game": "b-movies", "options": {"variant": "hidden", "studios": "entered"}},
    {"game": "b-movies", "variant": "hidden", "studios": "entered"},  # an older body
])
def test_a_table_is_created_with_its_games_options(rig: Rig, body: dict) -> None:
    created = rig.client.post("/api/tables", json={
        **body, "players": ["Ana", "Bob", "Chloe"], "readers": ["bag-1", "bag-2", "bag-3"]})
    assert created.status_code == 201, created.json
    info = rig.client.get(f"/api/tables/{created.json['id']}").json
    assert info["options"] == {"variant": "hidden", "studios": "entered"}


@pytest.mark.parametrize(("options", "option"), [
    ({"variant": "secret"}, "variant"), ({"colour": "red"}, "colour")])
def test_a_bad_option_is_refused_by_name(rig: Rig, options: dict, option: str) -> None:
    created = rig.client.post("/api/tables", json={
        "game": "b-movies", "options": options, "players": ["Ana", "Bob", "Chloe"],
        "readers": ["bag-1", "bag-2", "bag-3"]})
    assert created.status_code == 400 and created.json["code"] == "BAD_REQUEST"
    assert created.json["params"]["option"] == option
    assert rig.client.get("/api/tables").json == []  # nothing was created


@pytest.mark.parametrize(("route", "body"), [("hints", {"hints": False}), ("deal", {"seed": 3})])
def test_a_part_the_game_has_not_is_refused_for_its_tables(rig: Rig, route: str,
                                                           body: dict) -> None:
    """Hints and "deal for us" are parts of a game, not of every table: a B Movies table
    has neither to turn on (``409 NOT_FOR_THIS_GAME``, nothing logged)."""
    created = rig.client.post("/api/tables", json={
        "game": "b-movies", "players": ["Ana", "Bob", "Chloe"],
        "readers": ["bag-1", "bag-2", "bag-3"]}).json
    count = rig.hub.tables[created["id"]].count
    refused = rig.client.post(f"/api/tables/{created['id']}/{route}",
                              json={**body, "pin": created["pin"]})
    assert refused.status_code == 409 and refused.json["code"] == "NOT_FOR_THIS_GAME"
    assert rig.hub.tables[created["id"]].count == count
