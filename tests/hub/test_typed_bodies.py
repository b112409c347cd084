"""A body's field refused: msgspec's sentence read as the refusal's ``params`` (the field,
the problem, the types), an English sentence that says the types in words, and in another
language the template of the problem (``FIELDS``), whatever the code."""

from __future__ import annotations

import msgspec
import pytest

from companion.hub import models
from companion.hub.bodies import decode, field_problem
from companion.i18n.catalogs import browser_catalog, translations
from companion.i18n.localize import render
from companion.i18n.texts import ERRORS, FIELDS
from companion.kit.errors import TableError


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
