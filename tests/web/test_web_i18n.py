"""Every screen in four languages, in a real browser (Debian's Chromium, a real hub process,
virtual bag readers): the setup screen, the table screen while buying, in the showings with
an alert, the final scoring, and a player's phone (awards and score), each in English,
French, German and Japanese, with a
screenshot of each (``artifacts/screenshots/i18n-<lang>-<screen>.png``) and a check that no
English is left on a screen in another language (:mod:`i18n_support`).

Each device chooses its language its own way here: English by the browser's language, French
with the header's picker, German remembered on the device, Japanese by the browser's
language; all four watch the same table at once, and each reads the alert a reader raised in
its own language, and speaks it with a voice of that language.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from companion.games.popcorn.engine import pawns as P
from companion.i18n.catalogs import translations
from companion.i18n.localize import render_alert
from tests.web.room import (
    CATALOG,
    PHONE,
    READERS,
    SHOTS,
    TABLET,
    Room,
    Tablet,
    call,
    play_step,
    shown,
    watch_csp,
)
from tests.web.untranslated import foreign_texts, visible_texts

LANGS = ("en", "fr", "de", "ja")
SPEECH_SPY = """window.spoken = [];
SpeechSynthesis.prototype.speak = function (u) { window.spoken.push([u.lang, u.text]); };
if (location.protocol === 'http:') localStorage.setItem('popcorn:speak', 'on');"""
"""What a tablet says, with the language of its voice, goes to ``window.spoken``."""
HOW = {"en": ("en-US", None), "fr": ("en-US", None), "de": ("en-US", "de"), "ja": ("ja-JP", None)}
"""Each page's browser language, and the language already remembered on the device."""
NAMES = ["Ana", "Bob", "Chloe"]


def card_titles() -> list[str]:
    """Titles stay as printed on the English cards: they are names, not words to translate."""
    return [c.title for c in CATALOG.movies.values()] + [a.title for a in CATALOG.awards.values()]


@pytest.fixture
def pages(browser: Browser) -> Iterator[dict[str, Page]]:
    """One tablet page per language, each failing the test on a script error."""
    contexts, errors, out = [], [], {}
    for lang in LANGS:
        locale, saved = HOW[lang]
        context = browser.new_context(viewport=TABLET, locale=locale)
        page = context.new_page()
        page.add_init_script(SPEECH_SPY)
        if saved:
            page.add_init_script("if (location.protocol === 'http:') "
                                 f"localStorage.setItem('popcorn:lang', '{saved}');")
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        watch_csp(page, errors)
        contexts.append(context)
        out[lang] = page
    yield out
    for context in contexts:
        context.close()
    assert errors == [], errors


def in_language(page: Page, lang: str) -> None:
    """Wait until the page has drawn itself in ``lang``."""
    page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)


def check(page: Page, lang: str, screen: str, names: list[str]) -> None:
    """Screenshot the page, and fail on any word the language does not have."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"i18n-{lang}-{screen}.png"), full_page=True)
    assert foreign_texts(visible_texts(page), lang, names + card_titles()) == [], screen


def open_setup(pages: dict[str, Page], room: Room) -> None:
    for lang, page in pages.items():
        page.goto(f"{room.base}/setup")
        shown(page, "new-table-form")
        if lang == "fr":  # chosen with the header's picker, then kept on the device
            page.get_by_test_id("lang-picker").select_option("fr")
        in_language(page, lang)
        shown(page, "new-table-form")


def wait_for_alert(room: Room, table_id: str) -> dict:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        alerts = call(f"{room.base}/api/tables/{table_id}")["alerts"]
        if alerts:
            return alerts[-1]
        time.sleep(0.05)
    raise AssertionError("the hub raised no alert")


@pytest.mark.slow
def test_setup_table_alert_and_scores_in_four_languages(room: Room, pages) -> None:
    open_setup(pages, room)
    for lang, page in pages.items():
        check(page, lang, "setup", ["Popcorn", "Companion", *READERS])
    table = room.table(NAMES, seed=3)
    names = NAMES + [table.info["name"], "Popcorn", "Companion"]
    tablets = {lang: Tablet(page, room, table).open() for lang, page in pages.items()}
    for lang, page in pages.items():
        in_language(page, lang)
        check(page, lang, "buying", names)
    players = room.players(table, seed=3)
    while not (table.state.phase == "showings"
               and any(table.state.pawns_at(P.hand(p)) for p in range(3))):
        assert play_step(players, None)
    drawer = next(p for p in range(3) if table.state.pawns_at(P.hand(p)))
    pawn = table.state.pawns_at(P.hand(drawer))[0]  # drawn on its reader: the hub knows it
    room.bank.tap(READERS[(drawer + 1) % 3], room.uids[pawn])  # on the next player's reader
    alert = wait_for_alert(room, table.id)
    assert alert["code"] == "PAWN_OF_ANOTHER_PLAYER" and alert["params"]["pawn"] == pawn
    for lang, page in pages.items():
        tablets[lang].wait_events()
        banner = page.get_by_test_id("alert")
        expect(banner).to_be_visible()
        spoken = page.evaluate("window.spoken")
        assert spoken and spoken[-1][0] == lang, spoken  # a voice of the device's language
        check(page, lang, "table", names)
    expect(pages["fr"].get_by_test_id("alert")).to_contain_text("Spectateur")
    expect(pages["de"].get_by_test_id("alert")).to_contain_text("Gast")
    expect(pages["ja"].get_by_test_id("alert")).to_contain_text("ゲスト")
    for lang in ("fr", "de", "ja"):  # the dashboard fills a game's words as the hub does
        catalog = translations(lang)
        message = render_alert(alert["code"], alert["params"], catalog.gettext, lang,
                               pgettext=catalog.pgettext)[0]
        expect(pages[lang].get_by_test_id("alert")).to_contain_text(message)
    assert "Spectateur" in pages["fr"].evaluate("window.spoken")[-1][1]
    for page in pages.values():  # four pages redrawing every move would only slow the game
        page.goto("about:blank")
    while not table.state.is_over:
        assert play_step(players, None)
    for lang, page in pages.items():
        tablets[lang].open()
        shown(page, "scores-table")
        check(page, lang, "scores", names)
    for lang, page in pages.items():  # Bob's phone: his awards (conditions) and his score
        page.set_viewport_size(PHONE)
        page.goto(f"{room.base}/phone/{table.id}/1#token={table.info['tokens'][1]}")
        shown(page, "phone-total")
        in_language(page, lang)
        check(page, lang, "phone", names)


def test_the_check_finds_an_english_word_left_on_a_french_screen(room: Room, pages) -> None:
    page = pages["fr"]
    page.goto(f"{room.base}/setup")
    page.get_by_test_id("lang-picker").select_option("fr")
    in_language(page, "fr")
    shown(page, "new-table-form")
    assert foreign_texts(visible_texts(page), "fr", ["Popcorn", "Companion"]) == []
    page.evaluate("""() => { const p = document.createElement('p');
        p.textContent = 'Seat them all'; document.getElementById('app').append(p); }""")
    assert foreign_texts(visible_texts(page), "fr", ["Popcorn", "Companion"]) \
        == ["Seat them all"]
