"""The hub's refusals in the request's language: the same ``code`` and ``params`` in every
language, the ``message`` in French for ``Accept-Language: fr``, in Japanese for ``?lang=ja``,
in the hub's default (``serve --lang``) for a request that names none, and never a failure
for a language the hub does not know."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from companion.games.popcorn.texts import REFUSALS as VIOLATIONS
from companion.hub.app import create_app
from companion.hub.hub import Hub
from companion.i18n import choose, known
from companion.i18n.catalogs import translations
from companion.i18n.localize import render_alert

MOVE = {"move": {"move": "end_turn", "player": 1}}
_readers = itertools.count()


@pytest.fixture
def hub(tmp_path: Path):
    hub = Hub(tmp_path / "hub.sqlite").start()
    yield hub
    hub.stop()


def client(hub: Hub, lang: str | None = None):
    app, _ = create_app(hub, "135790", lang)
    return app.test_client()


def refused(web, path: str = "", headers: dict | None = None):
    readers = [f"bag-{next(_readers)}" for _ in range(2)]  # each table binds its own
    created = web.post("/api/tables", json={"players": ["Ana", "Bob"], "deal_seed": 4,
                                             "readers": readers})
    assert created.status_code == 201
    answer = web.post(f"/api/tables/{created.json['id']}/moves{path}", json=MOVE,
                      headers=headers or {})
    assert 400 <= answer.status_code < 500
    return answer.json


def test_a_refused_move_has_the_same_code_and_params_in_french_and_japanese(hub) -> None:
    web = client(hub)
    english = refused(web)
    french = refused(web, headers={"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"})
    japanese = refused(web, "?lang=ja", headers={"Accept-Language": "fr"})
    assert english["code"] == french["code"] == japanese["code"]
    assert english["params"] == french["params"] == japanese["params"]
    assert english["params"]["player"] == 1 and english["params"]["name"] == "Bob"
    template = VIOLATIONS[english["code"]]
    assert french["message"] == translations("fr").gettext(template) != template
    assert japanese["message"] == translations("ja").gettext(template) != template
    assert english["message"] not in (french["message"], japanese["message"])


def test_a_request_without_a_language_gets_the_hubs_default(hub) -> None:
    german = refused(client(hub, "de"))
    assert german["message"] == translations("de").gettext(VIOLATIONS[german["code"]])
    assert refused(client(hub, "de"), headers={"Accept-Language": "en"})["message"] \
        != german["message"]


@pytest.mark.parametrize("lang", ["xx", "", "fr;drop table", "%00", "ja-JP-x-weird" * 20])
def test_an_unknown_language_falls_back_and_never_fails(hub, lang: str) -> None:
    answer = refused(client(hub, "fr"), f"?lang={lang}", headers={"Accept-Language": "zz, *"})
    assert answer["code"] and answer["message"]
    assert client(hub).get(f"/api/i18n/{lang or 'none'}").status_code == 200


def test_every_error_carries_params_even_an_http_one(hub) -> None:
    answer = client(hub).get("/api/no-such-route?lang=ja")
    assert answer.status_code == 404
    assert set(answer.json) >= {"code", "params", "message"}
    assert answer.json["message"] == translations("ja").gettext("There is no such page.")


def test_the_language_routes_name_the_default_and_give_each_catalog(hub) -> None:
    web = client(hub, "ja")
    assert web.get("/api/i18n").json["default"] == "ja"
    assert set(web.get("/api/i18n").json["languages"]) == {"en", "fr", "de", "ja"}
    french = web.get("/api/i18n/fr").json
    assert french["lang"] == "fr" and french["messages"]["The game is over."]
    assert web.get("/api/i18n/unknown").json["lang"] == "ja"


def test_choosing_a_language() -> None:
    assert known("fr-CA") == "fr" and known("JA_jp") == "ja" and known("pt") is None
    assert choose(None, ["pt-BR", "de-AT", "fr"], "en") == "de"
    assert choose("xx", [], "ja") == "ja"
    assert choose("xx", [], "xx") == "en"


def test_an_alert_renders_its_place_and_color_in_french() -> None:
    params = {"player": 0, "name": "Ana", "pawn": 12, "color": "red", "zone": "seat",
              "owner": "Bob", "slot": 1, "seat": 2}
    message, fix = render_alert("PAWN_OF_ANOTHER_PLAYER", params,
                                translations("fr").gettext, "fr")
    assert "rouge" in message and "salle du centre de Bob" in message and "Ana" in message
    assert "le siège 2" in fix


def test_lang_option_takes_a_language_and_refuses_any_other() -> None:
    import argparse

    from companion.commands.lang_option import add_lang_option

    parser = argparse.ArgumentParser()
    add_lang_option(parser)
    assert parser.parse_args([]).lang == "en"
    assert parser.parse_args(["--lang", "fr-FR"]).lang == "fr"
    with pytest.raises(SystemExit):
        parser.parse_args(["--lang", "klingon"])


def test_a_refused_batch_says_which_move_in_the_plural_the_language_gives(hub) -> None:
    web = client(hub)
    readers = [f"bag-{next(_readers)}" for _ in range(2)]
    created = web.post("/api/tables", json={"players": ["Ana", "Bob"], "deal_seed": 4,
                                             "readers": readers}).json
    moves = {"moves": [{"move": "end_turn", "player": 1}, {"move": "end_turn", "player": 0}]}
    path = f"/api/tables/{created['id']}/moves"
    french = web.post(path + "?lang=fr", json=moves).json
    german = web.post(path + "?lang=de", json=moves).json
    assert french["params"]["index"] == 0 and french["params"]["size"] == 2
    assert french["message"].startswith("Le coup 1 sur 2 a été refusé")
    assert german["message"].startswith("Zug 1 von 2 wurde abgelehnt")
