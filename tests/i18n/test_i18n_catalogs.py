"""The catalogs are complete: every English message is translated in every language, with
the same placeholders, in the server's ``.po`` files and in the browser's JSON alike; the
template is the one the sources give today; every code has its template."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from companion.games import build
from companion.i18n.catalogs import (
    TRANSLATED,
    browser_catalog,
    read_catalog,
    read_template,
    translations,
)
from companion.i18n.checks import browser_problems, po_problems
from companion.i18n.extract import extract
from companion.i18n.texts import ERRORS, TextBook, book
from companion.kit.texts import GameTexts, Words


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated_with_its_placeholders(lang: str) -> None:
    assert po_problems(read_template(), read_catalog(lang)) == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_browser_catalog_has_every_message_too(lang: str) -> None:
    assert browser_problems(read_template(), browser_catalog(lang)) == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_compiled_catalog_translates(lang: str) -> None:
    assert translations(lang).gettext("The game is over.") != "The game is over."


def _template(*ids) -> Catalog:
    catalog = Catalog()
    for message_id in ids:
        catalog.add(message_id)
    return catalog


def test_the_checks_catch_a_missing_an_empty_a_fuzzy_and_a_wrong_placeholder() -> None:
    template = _template("Put it back in {place}.", "Done.", "Again.", "Hi {name}.", "Bye.",
                         ("{count} guest", "{count} guests"))
    catalog = Catalog(locale="fr")
    catalog.add("Put it back in {place}.", "Remettez-le : {lieu}.")
    catalog.add("Done.", "")
    catalog.add("Again.", "Encore.", flags=["fuzzy"])
    catalog.add("Hi {name}.", "Salut.")
    catalog.add(("{count} guest", "{count} guests"), ("{count} invité", "{count} invités", ""))
    problems = po_problems(template, catalog)
    assert len(problems) == 6, problems
    assert any("missing: 'Bye.'" in p for p in problems)
    assert any("'Remettez-le : {lieu}.'" in p for p in problems)
    assert any("'Salut.'" in p for p in problems)
    assert any("fuzzy: 'Again.'" in p for p in problems)
    messages = {"Put it back in {place}.": "Remettez-le : {place}.", "Done.": "Fait.",
                "Again.": "Encore {x}.", "Hi {name}.": "Salut {name}.",
                "{count} guest": ["{count} invité", "{count} invités"]}
    assert browser_problems(template, {"messages": messages}) == [
        "placeholders ['x'] instead of []: 'Encore {x}.'", "missing: 'Bye.'"]


def test_the_template_is_up_to_date_with_the_sources() -> None:
    def ids(catalog: Catalog) -> set:
        return {message.id for message in catalog if message.id}
    extracted, kept = ids(extract()), ids(read_template())
    assert not extracted - kept, "new messages: run scripts/i18n-extract"
    assert not kept - extracted, "messages no source has any more: run scripts/i18n-extract"


JS_MESSAGE = re.compile(r'\btn?\("((?:[^"\\]|\\.)*)"')
"""A ``t("...")`` or ``tn("...", ...)`` call of the dashboard, with its literal message."""


def test_every_message_the_dashboard_asks_for_is_in_the_template() -> None:
    """Babel's JavaScript extractor reads the calls; a call it missed would stay English."""
    kept = {m.id if isinstance(m.id, str) else m.id[0] for m in read_template()
            if m.id and not m.context}
    web = Path(__file__).resolve().parents[2] / "web" / "js"
    asked = {(path.relative_to(web).as_posix(), found) for path in web.rglob("*.js")
             if path.name != "i18n.js"
             for found in JS_MESSAGE.findall(path.read_text(encoding="utf-8"))}
    assert len(asked) > 100
    assert sorted(m for m in asked if m[1] not in kept) == []


def test_every_award_and_action_has_its_words_in_every_language() -> None:
    awards = {m.context.partition(":")[2] for m in read_template()
              if m.context and m.context.startswith("award")}
    actions = {m.context.partition(":")[2] for m in read_template()
               if m.context and m.context.startswith("action:")}
    assert len(awards) == 26 and len(actions) == 21
    for lang in TRANSLATED:
        contexts = browser_catalog(lang)["contexts"]
        assert set(contexts["award"]) == set(contexts["award-title"]) == awards
        assert all(contexts["award"].values()) and all(contexts["award-title"].values())
        assert set(contexts["action"]) == actions


def test_every_code_of_each_game_has_its_template_in_that_game() -> None:
    """Each game's texts cover every code its engine and its tag reading raise."""
    from companion.games.bmovies.engine import CODES as BM_CODES
    from companion.games.popcorn.engine.violations import CODES

    games = build()
    engines = {"popcorn": set(CODES), "b-movies": set(BM_CODES)}
    for game_id, codes in engines.items():
        texts = games[game_id].texts
        assert codes <= set(texts.refusals), game_id
        alerts = {code.partition(":")[0] for code in texts.alerts}
        pieces = games[game_id].pieces
        assert alerts == set(pieces.alert_codes if pieces else {}), game_id
        assert not set(ERRORS) & set(texts.refusals), game_id


def test_a_code_two_games_share_means_the_same_in_both() -> None:
    """The hub renders a code with one template whatever the table's game: two games that
    share a code (GAME_OVER, UNKNOWN_TAG) must give it the same sentence."""
    seen: dict[tuple[str, str], tuple[str, object]] = {}
    for game_id, game in build().items():
        texts = game.texts
        for kind, templates in (("refusal", texts.refusals), ("alert", texts.alerts)):
            for code, template in templates.items():
                first = seen.setdefault((kind, code), (game_id, template))
                assert first[1] == template, (kind, code, first[0], game_id)
    assert ("refusal", "GAME_OVER") in seen


def test_the_book_adds_up_the_hub_and_each_game_first_game_first() -> None:
    one = GameTexts(refusals={"A": "first"}, alerts={"X": ("x", "fix")},
                    words={"w": Words(("{k}",), {"1": "one"})}, numbers=("n",))
    two = GameTexts(refusals={"A": "second", "B": "b", "WRONG_PIN": "not the hub's"})
    merged = TextBook.of([one, two])
    assert merged.template("A") == "first" and merged.template("B") == "b"
    assert merged.template("WRONG_PIN") == ERRORS["WRONG_PIN"]
    assert merged.alert_texts("X", {}) == ("x", "fix") and merged.alert_texts("Y", {}) is None
    assert "n" in merged.numbers and "count" in merged.numbers
    assert merged.codes()["words"] == {"w": {"keys": ["{k}"], "templates": {"1": "one"},
                                             "context": ""}}
    assert set(book().refusals) >= set(ERRORS)
