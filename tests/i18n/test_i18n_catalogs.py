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
    root = Path(__file__).resolve().parents[2]
    modules = [*(root / "web" / "js").rglob("*.js"), *(root / "companion" / "games").glob(
        "*/web/*.js")]  # the shell, and the screens of the games that ship with the hub
    asked = {(path.relative_to(root).as_posix(), found) for path in modules
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
        pieces, mats = games[game_id].pieces, games[game_id].mats
        assert alerts == set(pieces.alert_codes if pieces else {}) | set(
            mats.alert_codes if mats else {}), game_id
        assert not set(ERRORS) & set(texts.refusals), game_id


def test_each_game_renders_its_codes_with_its_own_templates() -> None:
    """Codes are namespaced by game: a table renders a code with its game's template (two
    games may say one code differently), never another game's, and the hub's never
    overrides a game's."""
    everything = book()
    for game_id, game in build().items():
        own = everything.of_game(game_id)
        for code, template in game.texts.refusals.items():
            assert own.template(code) == template, (game_id, code)
        for code, pair in game.texts.alerts.items():
            assert own.alerts[code] == pair, (game_id, code)
    assert everything.of_game("popcorn").template("WRONG_PIN") == ERRORS["WRONG_PIN"]


def test_the_book_keeps_each_game_apart_and_the_hubs_below_it() -> None:
    one = GameTexts(refusals={"A": "first"}, alerts={"X": ("x", "fix")},
                    words={"w": Words(("{k}",), {"1": "one"})}, numbers=("n",))
    two = GameTexts(refusals={"A": "second", "B": "b", "WRONG_PIN": "not the hub's"},
                    alerts={"X": ("other x", "other fix")})
    merged = TextBook.of({"one": one, "two": two})
    assert merged.of_game("one").template("A") == "first"
    assert merged.of_game("two").template("A") == "second"
    assert merged.of_game("two").template("WRONG_PIN") == "not the hub's"  # the game's own
    assert merged.of_game("one").template("WRONG_PIN") == ERRORS["WRONG_PIN"]
    assert merged.of_game("one").template("B") is None  # never another game's
    assert merged.of_game("two").alert_texts("X", {}) == ("other x", "other fix")
    assert merged.of_game("nope") is merged and merged.of_game(None) is merged
    # the hub as a whole (no table): its own errors over the games', the first game first
    assert merged.template("A") == "first" and merged.template("WRONG_PIN") == ERRORS["WRONG_PIN"]
    assert "n" in merged.numbers and "count" in merged.numbers
    codes = merged.codes()
    assert codes["words"] == {"w": {"keys": ["{k}"], "templates": {"1": "one"}, "context": ""}}
    assert codes["games"]["two"]["errors"] == {"A": "second", "B": "b",
                                               "WRONG_PIN": "not the hub's"}
    assert codes["games"]["two"]["alerts"] == {"X": ["other x", "other fix"]}
    assert codes["hub"]["errors"] == ERRORS
    assert set(book().refusals) >= set(ERRORS)


EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "number-tokens" / "number_tokens"
"""The outside example game's package: its own catalogs are checked as the companion's."""


def test_the_example_games_own_catalogs_are_complete_and_current() -> None:
    """``popcorn-companion i18n`` keeps them: the template is what its sources give today,
    and every language translates every message with its placeholders."""
    from babel.messages.pofile import read_po

    from companion.i18n.catalogs import own_po
    from companion.i18n.extract import extract_game

    with (EXAMPLE / "i18n" / "number-tokens.pot").open("rb") as handle:
        kept = read_po(handle)
    extracted = extract_game(EXAMPLE, "number-tokens")
    assert {m.id for m in extracted if m.id} == {m.id for m in kept if m.id}
    for lang in TRANSLATED:
        with own_po(EXAMPLE / "i18n", "number-tokens", lang).open("rb") as handle:
            assert po_problems(kept, read_po(handle, locale=lang)) == [], lang
