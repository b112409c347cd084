"""Bad bodies, on purpose: each route decodes its body with its typed model
(``companion/hub/models.py``, a game's correction model), the same model the OpenAPI
document describes. A field of the wrong type, a required one missing, or a null where the
model takes none is refused with the route's own code (``BAD_MOVE`` for a move,
``BAD_SEAT`` for an audit's player, ``BAD_REGISTRY`` for a registry...), ``params`` naming
the field, a sentence in the request's language, and nothing changed; the document's
schema refuses the same body."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from jsonschema import Draft202012Validator

from companion.hub import models
from companion.hub.app import create_app
from companion.hub.bodies import decode, field_problem
from companion.hub.hub import Hub
from companion.i18n.catalogs import browser_catalog, translations
from companion.i18n.localize import render
from companion.i18n.texts import ERRORS, FIELDS
from companion.kit.errors import TableError
from companion.table.archive_store import Filter

ADMIN = "246810"
READERS = ["bag-1", "bag-2", "pad-1", "pad-2", "pad-3"]
MOVE = {"move": "end_turn", "player": 0}

CASES = [  # (method, route, body, code, field, problem)
    ("post", "/api/tables", {"players": ["A", "B"], "readers": ["x-1", "x-2"], "hints": "no"},
     "BAD_REQUEST", "hints", "type"),
    ("post", "/api/tables", {"readers": ["x-1", "x-2"]}, "BAD_REQUEST", "players", "missing"),
    ("post", "/api/tables", {"players": ["A", "B"], "readers": None}, "BAD_REQUEST",
     "readers", "type"),
    ("post", "{popcorn}/moves", {"move": MOVE, "forced": "yes"}, "BAD_MOVE", "forced", "type"),
    ("post", "{popcorn}/moves", {"moves": [MOVE, 3]}, "BAD_MOVE", "moves[1]", "type"),
    ("post", "{popcorn}/moves", {"move": None}, "BAD_MOVE", "move", "type"),
    ("post", "{popcorn}/moves", {"moves": []}, "BAD_MOVE", "moves", "value"),
    ("post", "{popcorn}/choice", {"index": "1"}, "BAD_REQUEST", "index", "type"),
    ("post", "{popcorn}/choice", {}, "BAD_REQUEST", "index", "missing"),
    ("post", "{popcorn}/hints", {"hints": "off", "pin": "{pin}"}, "BAD_REQUEST", "hints",
     "type"),
    ("post", "{popcorn}/hints", {"pin": "{pin}"}, "BAD_REQUEST", "hints", "missing"),
    ("post", "{popcorn}/deal", {"seed": None, "pin": "{pin}"}, "BAD_REQUEST", "seed", "type"),
    ("post", "{popcorn}/identify", {"on": "yes", "pin": "{pin}"}, "BAD_REQUEST", "on", "type"),
    ("post", "{popcorn}/audits", {"player": "0", "pin": "{pin}"}, "BAD_SEAT", "player", "type"),
    ("post", "{popcorn}/audits", {"player": None, "pin": "{pin}"}, "BAD_SEAT", "player",
     "type"),
    ("post", "{popcorn}/audits", {"all": "yes", "pin": "{pin}"}, "BAD_REQUEST", "all", "type"),
    ("post", "{popcorn}/correct", {"pawn": "3", "zone": "bag", "player": 0, "pin": "{pin}"},
     "BAD_REQUEST", "pawn", "type"),
    ("post", "{popcorn}/correct", {"color": "blue", "from": {"player": 1}, "zone": "bag",
                                   "player": 0, "pin": "{pin}"}, "BAD_REQUEST", "from.zone",
     "missing"),
    ("post", "{popcorn}/correct", {"pawn": 3, "zone": "bag", "alert": "x", "pin": "{pin}"},
     "BAD_REQUEST", "alert", "type"),
    ("post", "{bmovies}/correct", {"token": "57", "zone": "pile", "player": 1,
                                   "pin": "{bpin}"}, "BAD_REQUEST", "token", "type"),
    ("post", "{bmovies}/correct", {"value": 3, "player": 1, "pin": "{bpin}"}, "BAD_REQUEST",
     "zone", "missing"),
    ("post", "{bmovies}/correct", {"value": None, "zone": "bucket", "player": 1,
                                   "pin": "{bpin}"}, "BAD_REQUEST", "value", "type"),
    ("put", "/api/tags", {"registry": "all of them", "admin_pin": ADMIN}, "BAD_REGISTRY",
     "registry", "type"),
    ("put", "/api/tags", {"admin_pin": ADMIN}, "BAD_REGISTRY", "registry", "missing"),
    ("post", "/api/enroll", {"tokens": "1", "admin_pin": ADMIN}, "BAD_REQUEST", "tokens",
     "type"),
    ("post", "/api/enroll/piece", {"uid": 4, "game": "popcorn", "kind": "pawn",
                                   "value": "red", "admin_pin": ADMIN}, "BAD_UID", "uid",
     "type"),
    ("post", "/api/enroll/piece", {"uid": "04aabbccddee11", "game": "popcorn",
                                   "kind": "pawn", "admin_pin": ADMIN}, "BAD_VALUE", "value",
     "missing"),
    ("post", "/api/enroll/piece", {"uid": "04aabbccddee11", "game": "popcorn", "kind": None,
                                   "value": "red", "admin_pin": ADMIN}, "BAD_KIND", "kind",
     "type"),
    ("post", "/api/enroll/card", {"uid": "04aabbccddee11", "kind": None, "card": "rosebud",
                                  "admin_pin": ADMIN}, "BAD_CARD", "kind", "type"),
    ("post", "/api/archive", {"record": 5, "admin_pin": ADMIN}, "BAD_REQUEST", "record",
     "type"),
    ("post", "/api/archive", {"record": None, "admin_pin": ADMIN}, "BAD_REQUEST", "record",
     "type"),
]


@pytest.fixture(scope="module")
def hub_app(tmp_path_factory: pytest.TempPathFactory):
    """A started hub (a Popcorn table and a B Movies table), its app and test client."""
    hub = Hub(tmp_path_factory.mktemp("typed") / "hub.sqlite", readers=READERS).start()
    app, _ = create_app(hub, ADMIN)
    client = app.test_client()
    popcorn = client.post("/api/tables", json={"players": ["Ana", "Bob"],
                                               "readers": READERS[:2], "deal_seed": 3}).json
    bmovies = client.post("/api/tables", json={"game": "b-movies", "players": ["A", "B", "C"],
                                               "readers": READERS[2:]}).json
    yield hub, client, {"popcorn": popcorn, "bmovies": bmovies}
    hub.stop()


def _filled(value: Any, tables: dict[str, dict]) -> Any:
    """A case's route or body with its tables' paths and PINs in."""
    names = {"popcorn": f"/api/tables/{tables['popcorn']['id']}", "pin": tables["popcorn"]["pin"],
             "bmovies": f"/api/tables/{tables['bmovies']['id']}", "bpin": tables["bmovies"]["pin"]}
    if isinstance(value, str):
        return value.format(**names)
    if isinstance(value, dict):
        return {key: _filled(item, tables) for key, item in value.items()}
    return [_filled(item, tables) for item in value] if isinstance(value, list) else value


def _everything(hub: Hub) -> Any:
    """What a refused request must leave as it was: every table's log and state, the tag
    registry, the enrollment and the archive."""
    tables = {tid: (t.count, t.state.to_dict()) for tid, t in hub.tables.items()}
    with hub.lock:
        archived = hub.archived().page(Filter(None, None), 100, 0)
    return tables, hub.registry.export(), hub.enrollment.status(admin=True), archived


def _send(client, method: str, route: str, body: dict, lang: str):
    return getattr(client, method)(route, json=body, headers={"Accept-Language": lang})


@pytest.mark.parametrize("method, route, body, code, field, problem", CASES)
def test_a_bad_field_is_refused_with_the_routes_code_naming_it(
        hub_app, method, route, body, code, field, problem) -> None:
    """400, the route's code, ``params.field`` and ``params.problem``; the English message
    and the French one both name the field, and differ; nothing changed."""
    hub, client, tables = hub_app
    route, body = _filled(route, tables), _filled(body, tables)
    before = _everything(hub)
    english, french = (_send(client, method, route, body, lang) for lang in ("en", "fr"))
    for answer in (english, french):
        assert answer.status_code == 400, answer.json
        assert answer.json["code"] == code, answer.json
        assert answer.json["params"]["field"] == field
        assert answer.json["params"]["problem"] == problem
        assert field in answer.json["message"]
    assert english.json["params"] == french.json["params"]
    assert english.json["message"] != french.json["message"]
    assert "champ" in french.json["message"]
    assert _everything(hub) == before


def test_a_batchs_move_that_is_not_an_object_names_its_index(hub_app) -> None:
    """``{"moves": [move, 3]}``: ``BAD_MOVE`` on ``moves[1]`` with the batch's ``index``."""
    _, client, tables = hub_app
    answer = client.post(f"/api/tables/{tables['popcorn']['id']}/moves",
                         json={"moves": [MOVE, 3]})
    assert (answer.json["code"], answer.json["index"]) == ("BAD_MOVE", 1)


def test_the_secret_is_checked_before_the_fields(hub_app) -> None:
    """A bad field with no PIN, or a wrong one, is the secret's 403 (as ``docs/api.md``
    orders the checks); a token that is not a string is a wrong token, never a 400."""
    _, client, tables = hub_app
    table = f"/api/tables/{tables['popcorn']['id']}"
    assert client.post(f"{table}/hints", json={"hints": "x"}).json["code"] == "PIN_REQUIRED"
    assert client.post(f"{table}/deal", json={"pin": "1", "seed": "x"}).json["code"] == \
        "WRONG_PIN"
    assert client.put("/api/tags", json={"registry": 1}).json["code"] == "WRONG_PIN"
    moved = client.post(f"{table}/moves", json={"move": MOVE, "token": 7})
    assert (moved.status_code, moved.json["code"]) == (403, "WRONG_TOKEN")


def test_other_languages_name_the_field_too(hub_app) -> None:
    """German and Japanese render the field's sentence with its params."""
    _, client, tables = hub_app
    body = {"on": 1, "pin": tables["popcorn"]["pin"]}
    route = f"/api/tables/{tables['popcorn']['id']}/identify"
    german, japanese = (_send(client, "post", route, body, lang).json for lang in ("de", "ja"))
    assert german["message"] == "Das Feld „on“ muss vom Typ bool sein, nicht int."
    assert "「on」" in japanese["message"]


GAME_MODELS = {"{popcorn}/correct": "PawnCorrection", "{bmovies}/correct": "TokenCorrection"}
"""A correction's own fields: the table's game's model (the document offers each game's)."""


def _body_schema(document: dict, method: str, route: str) -> dict:
    """The schema a route's body must follow: its operation's, or for a correction the
    core's and its table's game's models."""
    if route in GAME_MODELS:
        refs = ("CorrectBody", GAME_MODELS[route])
        return {"allOf": [{"$ref": f"#/components/schemas/{name}"} for name in refs]}
    path = route.replace("{popcorn}", "/api/tables/{table_id}")
    return document["paths"][path][method]["requestBody"]["content"]["application/json"][
        "schema"]


@pytest.mark.parametrize("method, route, body, code, field, problem", CASES)
def test_the_documents_schema_refuses_the_same_bodies(
        hub_app, method, route, body, code, field, problem) -> None:
    """One source of truth: each refused body is refused by its schema in
    ``/api/openapi.json`` too."""
    _, client, _ = hub_app
    document = client.get("/api/openapi.json").json
    schema = {**_body_schema(document, method, route), "components": document["components"]}
    assert list(Draft202012Validator(schema).iter_errors(body)), (route, body)


@pytest.mark.parametrize("text, params", [
    ("Expected `bool`, got `str` - at `$.forced`",
     {"field": "forced", "problem": "type", "expected": "bool", "got": "str"}),
    ("Object missing required field `players`", {"field": "players", "problem": "missing"}),
    ("Object missing required field `uid` - at `$.registry.pieces[0]`",
     {"field": "registry.pieces[0].uid", "problem": "missing"}),
    ("Expected `int | null`, got `float` - at `$.seed`",
     {"field": "seed", "problem": "type", "expected": "int | null", "got": "float"}),
    ("Expected `array` of length <= 64 - at `$.moves`",
     {"field": "moves", "problem": "value", "expected": "array of length <= 64"}),
])
def test_msgspecs_sentences_become_params(text: str, params: dict) -> None:
    """The field's path, the problem, and the types msgspec names."""
    assert field_problem(text)[0] == params


def test_the_english_sentences_say_the_types_in_words() -> None:
    """What an English device reads."""
    assert field_problem("Expected `bool`, got `str` - at `$.forced`")[1] == \
        '"forced" must be true or false, not a string.'
    assert field_problem("Expected `int | null`, got `bool` - at `$.seed`")[1] == \
        '"seed" must be an integer or null, not a boolean.'
    assert field_problem("Object missing required field `players`")[1] == \
        'The request needs the field "players".'


def test_a_fields_refusal_renders_its_problems_template_whatever_the_code() -> None:
    """Another language than English: the field's sentence (``FIELDS``), for any code; a
    refusal whose params name no ``problem`` keeps its code's template; the dashboard's
    catalog carries the templates as ``codes.fields``."""
    french = translations("fr")
    params, english = field_problem("Expected `bool`, got `str` - at `$.forced`")
    for code in ("BAD_MOVE", "BAD_REQUEST", "NO_SUCH_CODE"):
        assert render(code, params, english, french.gettext, "fr") == \
            "Le champ « forced » doit être de type bool, et non str."
        assert render(code, params, english, french.gettext, "en") == english
    assert render("BAD_REQUEST", {"field": "limit"}, "limit must be ...", french.gettext,
                  "fr") == french.gettext(ERRORS["BAD_REQUEST"])
    assert browser_catalog("fr")["codes"]["fields"] == FIELDS


def test_decode_refuses_with_the_routes_code_and_leaves_the_secrets_to_auth() -> None:
    """A wrong type is the code given (another one for a field ``codes`` names), with the
    field in ``params``; a secret of any type is not decoded (auth refuses it with its
    403); other keys go through."""
    with pytest.raises(TableError) as caught:
        decode(models.MoveBody, {"forced": "yes"}, code="BAD_MOVE")
    assert (caught.value.code, caught.value.status) == ("BAD_MOVE", 400)
    assert caught.value.params["field"] == "forced"
    with pytest.raises(TableError) as caught:
        decode(models.AuditBody, {"player": "0"}, codes={"player": "BAD_SEAT"})
    assert caught.value.code == "BAD_SEAT"
    body = decode(models.MoveBody, {"token": 7, "pin": [1], "moves": [{}], "older": 1})
    assert body.token is msgspec.UNSET and body.pin is msgspec.UNSET and body.moves == [{}]


def test_a_sentence_of_another_form_is_kept() -> None:
    """A sentence of another form keeps msgspec's words as the ``value`` problem."""
    params, message = field_problem("Invalid enum value 'x' - at `$.zone`")
    assert params == {"field": "zone", "problem": "value", "expected": "Invalid enum value 'x'"}
    assert "zone" in message
