"""The catalogs are complete: every English message is translated in every language, with
the same placeholders, in the server's ``.po`` files and in the browser's JSON alike; the
template is the one the sources give today; every code has its template."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from companion.games import build
from companion.games.popcorn.engine.violations import CODES
from companion.i18n.catalogs import (
    TRANSLATED,
    browser_catalog,
    read_catalog,
    read_template,
    translations,
)
from companion.i18n.checks import browser_problems, po_problems
from companion.i18n.extract import extract
from companion.i18n.texts import ALERTS, ERRORS, VIOLATIONS


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
        cards = browser_catalog(lang)["awards"]
        assert set(cards) == awards
        assert all(card["condition"] and card["title"] for card in cards.values())
        assert set(browser_catalog(lang)["actions"]) == actions


def test_every_code_has_a_template() -> None:
    assert set(VIOLATIONS) == set(CODES)
    codes = set().union(*(game.alert_codes for game in build().values()))
    assert {code.partition(":")[0] for code in ALERTS} == codes
    assert not set(ERRORS) & set(VIOLATIONS)
