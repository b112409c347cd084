"""Each request's language, and the routes that hand the dashboard its catalogs.

Flask-Babel picks the language of a request (:func:`request_language`): ``?lang=`` first,
then ``Accept-Language``, then the hub's default (``serve --lang``, English if not given); an
unknown one never fails, it falls back. Error bodies are ``{"code", "params", "message"}``
with the ``message`` in that language (:func:`error_body`).

Routes: ``GET /api/i18n`` names the languages and the default a device without a choice
starts with; ``GET /api/i18n/<lang>`` is a language's browser catalog (see
:func:`companion.i18n.catalogs.browser_catalog`), the default's for an unknown ``<lang>``.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, current_app, jsonify, request
from flask_babel import Babel, get_locale, get_translations

from companion.i18n import LANGUAGES, choose, known
from companion.i18n.catalogs import (
    DOMAIN,
    browser_catalog,
    game_translations,
    translations_dir,
)
from companion.i18n.localize import render
from companion.i18n.texts import TextBook


def default_language() -> str:
    """The hub's default language (``serve --lang``)."""
    return current_app.config.get("default_lang", "en")


def request_language() -> str:
    """The language of the current request: ``?lang=``, ``Accept-Language``, the default."""
    accepted = [value for value, _ in request.accept_languages]
    return choose(request.args.get("lang"), accepted, default_language())


def setup_language(app: Flask, default: str | None, texts: TextBook) -> None:
    """Give ``app`` Flask-Babel with the companion's catalogs, the default language, the
    templates of the hub's and its games' codes (``texts``) and the ``/api/i18n`` routes."""
    app.extensions["texts"] = texts
    app.config["default_lang"] = known(default) or "en"
    app.config["BABEL_DEFAULT_LOCALE"] = app.config["default_lang"]
    app.config["BABEL_TRANSLATION_DIRECTORIES"] = str(translations_dir())
    app.config["BABEL_DOMAIN"] = DOMAIN
    Babel(app, locale_selector=request_language)

    @app.get("/api/i18n")
    def i18n_languages():
        return jsonify({"default": default_language(), "languages": LANGUAGES})

    @app.get("/api/i18n/<lang>")
    def i18n_catalog(lang: str):
        return jsonify(browser_catalog(known(lang) or default_language(), texts))


def request_game() -> str | None:
    """The game of the table a request is about (its ``table_id``), or None: a table's
    refusals are said in its game's words (:meth:`TextBook.of_game`)."""
    table_id = (request.view_args or {}).get("table_id")
    finder = current_app.extensions.get("game_of_table")
    return finder(table_id) if finder is not None and isinstance(table_id, str) else None


def error_body(code: str, params: dict[str, Any], english: str, **extra: Any) -> dict[str, Any]:
    """An error's JSON body with its message in the request's language (a table's error in
    its game's words)."""
    try:
        locale = str(get_locale() or "en")
        texts = current_app.extensions.get("texts")
        book = texts.of_game(request_game()) if texts is not None else None
        translations: Any = (get_translations() if book is None or book.catalogs is None
                             else game_translations(locale, book.catalogs, book.domain))
        message = render(code, params, english, translations.gettext, locale,
                         translations.ngettext, book, translations.pgettext)
    except RuntimeError:  # outside a request (a Socket.IO push): the English sentence
        message = english
    return {"code": code, "params": params, "message": message, **extra}
