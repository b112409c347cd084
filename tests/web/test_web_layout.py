"""The table screen fits a tablet and reads in every language (issue 22, items 6 and 7).

One ``serve`` with four virtual bag readers plays a 4-player table by the API to the Buying
phase of round 2 (cinemas with movies and theaters, tokens on the advertising board), then
on to that round's Showings with guests drawn and an alert on the banner. In each phase the
table screen is loaded in English, French, German and Japanese, at 1280x800 and 1180x820
(two common tablets held landscape). The test fails if the page scrolls, if a part of the
screen scrolls inside or ends below the fold, if a label is clipped
(``scrollWidth > clientWidth``) or if a word breaks across lines (see
:mod:`tests.web.layout`). Every screen is saved as
``artifacts/screenshots/layout-<phase>-<lang>-<size>.png`` and the measures as
``artifacts/layout-<phase>.txt``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from companion.games.popcorn.engine import pawns as P
from companion.games.popcorn.remote import RemoteTable
from tests.web.layout import Layout, measure
from tests.web.room import SHOTS, Room, call, play_step, watch_csp

LANGS = ("en", "fr", "de", "ja")
SIZES = ({"width": 1280, "height": 800}, {"width": 1180, "height": 820})
NAMES = ["Ana", "Bob", "Chloé", "Dario"]
READERS4 = ["bag-1", "bag-2", "bag-3", "bag-4"]


@pytest.fixture(scope="module")
def room4(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    """One ``serve`` for the module, with a bag reader per seat of a 4-player table."""
    r = Room(tmp_path_factory.mktemp("layout"), READERS4)
    yield r
    r.close()


@pytest.fixture(scope="module")
def table4(room4: Room) -> RemoteTable:
    """A 4-player table, its awards kept."""
    return room4.table(NAMES, seed=5)


@pytest.fixture(scope="module")
def players4(room4: Room, table4: RemoteTable):
    """The table's scripted players (by the API and the readers)."""
    return room4.players(table4, seed=5)


@pytest.fixture(scope="module")
def tab(browser: Browser) -> Iterator[Page]:
    """One page for the module, failing the test on a script error or a CSP violation."""
    context = browser.new_context(viewport=SIZES[0])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    watch_csp(page, errors)
    yield page
    context.close()
    assert errors == [], errors


def show(page: Page, room: Room, table: RemoteTable, lang: str, size: dict[str, int]) -> Layout:
    """Load the table screen in ``lang`` at ``size`` and measure it once it is drawn."""
    page.set_viewport_size(size)
    page.goto(f"{room.base}/setup")
    page.evaluate("([id, pin, lang]) => { localStorage.setItem(`popcorn:pin:${id}`, pin); "
                  "localStorage.setItem('popcorn:lang', lang); }",
                  [table.id, table.info["pin"], lang])
    page.goto(f"{room.base}/table/{table.id}")
    page.wait_for_function("(id) => window.popcornLoaded === id", arg=table.id)
    page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
    page.wait_for_function("(n) => (window.popcornEvents ?? -1) >= n", arg=table.count)
    page.evaluate("document.fonts.ready")
    return measure(page)


def check_all(page: Page, room: Room, table: RemoteTable, phase: str) -> None:
    """Every language at every size: screenshots, a table of measures, and no fault."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    faults = []
    lines = [f"{'lang':5}{'size':>10}{'height':>8}{'bottom':>8}{'clipped':>9}{'broken':>8}"]
    for lang in LANGS:
        for size in SIZES:
            layout = show(page, room, table, lang, size)
            name = f"{size['width']}x{size['height']}"
            page.screenshot(path=str(SHOTS / f"layout-{phase}-{lang}-{name}.png"), full_page=True)
            lines.append(f"{lang:5}{name:>10}{layout.height:>8}{layout.bottom:>8}"
                         f"{len(layout.clipped):>9}{len(layout.broken):>8}")
            faults += [f"{phase} {lang} {name}: {p}" for p in layout.problems()]
    report = "\n".join(lines + [""] + faults) + "\n"
    (SHOTS.parent / f"layout-{phase}.txt").write_text(report)
    print(report)
    assert faults == [], "\n".join(faults)


def raise_alert(room: Room, table: RemoteTable) -> None:
    """A mistake at the table, so that the screen carries an alert banner: in the Showings a
    drawn guest tapped on the next player's reader; in the Buying a guest of a bag tapped
    when nobody draws."""
    state = table.state
    drawer = next((p for p in range(4) if state.pawns_at(P.hand(p))), None)
    if drawer is None:
        drawer = 0
        pawn = state.pawns_at(P.bag(0))[0]
    else:
        pawn = state.pawns_at(P.hand(drawer))[0]
    before = len(call(f"{room.base}/api/tables/{table.id}")["alerts"])
    room.bank.tap(READERS4[(drawer + 1) % 4], room.uids[pawn])
    deadline = time.monotonic() + 15
    while len(call(f"{room.base}/api/tables/{table.id}")["alerts"]) == before:
        assert time.monotonic() < deadline, "the hub raised no alert"
        time.sleep(0.05)


def play_until(table: RemoteTable, players, phase: str, round_: int, first: bool) -> None:
    """Play on until ``phase`` of round ``round_``: the Showings once guests are drawn; the
    Buying on the first player's turn (``first``: the whole market) or a later one's (tokens
    on the board)."""
    def there() -> bool:
        state = table.state
        if state.phase != phase or state.round < round_:
            return False
        if phase == "showings":
            return any(state.pawns_at(P.hand(p)) for p in range(4))
        return (state.current == state.first_player) == first
    while not there():
        assert play_step(players, None)


def test_round_2_buying_fits_in_four_languages(room4, table4, players4, tab) -> None:
    play_until(table4, players4, "buying", 2, first=True)
    raise_alert(room4, table4)
    check_all(tab, room4, table4, "buying")


def test_round_2_showings_fit_in_four_languages(room4, table4, players4, tab) -> None:
    play_until(table4, players4, "showings", 2, first=False)
    raise_alert(room4, table4)
    check_all(tab, room4, table4, "showings")


def test_round_4_buying_fits_in_four_languages(room4, table4, players4, tab) -> None:
    """A later round: movies with their sliders down, more theaters, the alerts still up."""
    play_until(table4, players4, "buying", 4, first=False)
    check_all(tab, room4, table4, "late-buying")


def test_round_4_showings_fit_in_four_languages(room4, table4, players4, tab) -> None:
    play_until(table4, players4, "showings", 4, first=False)
    check_all(tab, room4, table4, "late-showings")


ENGLISH_LETTERS = {"white": "W", "blue": "B", "green": "G", "red": "R", "yellow": "Y"}
COLORED = """() => [...document.querySelectorAll('[class*="c-"], [class*="s-"]')]
  .filter((el) => el.getClientRects().length)
  .flatMap((el) => [...el.classList].map((c) => /^[cs]-(white|blue|green|red|yellow)$/.exec(c))
    .filter(Boolean).map((m) => [m[1], el.className, el.textContent.trim()]))"""


def test_every_color_shown_carries_its_letter_in_each_language(room4, table4, tab) -> None:
    """Item 8: every pawn, empty seat and movie square on the tablet carries its color's
    letter in the tablet's language (the catalogs' letters, not English's W/B/G/R/Y)."""
    for lang in LANGS:
        own = call(f"{room4.base}/api/i18n/{lang}")["contexts"].get("letter", {})
        letters = {c: own.get(c, en) for c, en in ENGLISH_LETTERS.items()}
        show(tab, room4, table4, lang, SIZES[0])
        shown = tab.evaluate(COLORED)
        assert any("chip" in cls for _, cls, _ in shown), "no movie's color on screen"
        wrong = [(color, cls, text) for color, cls, text in shown if text != letters[color]]
        assert wrong == [], (lang, letters, wrong[:5])


def test_an_alert_reads_as_a_sentence_in_french_and_german(room4, table4, players4, tab) -> None:
    """Item 7: a place in an alert is part of its sentence ("est parmi les Spectateurs
    piochés par Bob", "ist in Bobs Hand"), not a label after a colon ("est ici : la main de
    Bob"); the player's name is followed by the language's colon."""
    play_until(table4, players4, "showings", 2, first=False)
    alerts = call(f"{room4.base}/api/tables/{table4.id}")["alerts"]
    if not alerts or alerts[-1]["code"] != "PAWN_OF_ANOTHER_PLAYER":
        raise_alert(room4, table4)
    alert = call(f"{room4.base}/api/tables/{table4.id}")["alerts"][-1]
    assert alert["code"] == "PAWN_OF_ANOTHER_PLAYER" and alert["params"]["zone"] == "hand"
    owner, tapper = alert["params"]["owner"], NAMES[alert["player"]]
    show(tab, room4, table4, "fr", SIZES[0])
    banner = tab.get_by_test_id("alert").last
    expect(banner).to_contain_text(f"{tapper} : Ce Spectateur")
    expect(banner).to_contain_text(f"est parmi les Spectateurs piochés par {owner}, mais")
    expect(banner).to_contain_text(f"Remettez-le parmi les Spectateurs piochés par {owner}.")
    expect(banner).not_to_contain_text("ici :")
    show(tab, room4, table4, "de", SIZES[0])
    banner = tab.get_by_test_id("alert").last
    expect(banner).to_contain_text(f"ist in {owner}s Hand, wurde aber")
    expect(banner).to_contain_text(f"Sein Platz ist in {owner}s Hand.")
    expect(banner).not_to_contain_text("hier:")
