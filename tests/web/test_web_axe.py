"""Issue 38, item 8: accessibility checked, not hoped for.

axe-core (the copy bundled in the ``axe-playwright-python`` package, injected into the page
under test: no network) checks every screen in English, French, German and Japanese, at
tablet size (1280x800) and at phone size (390x844): the setup screen; the table screen of a
Popcorn game at the deal, in its Buying (and its correction dialog), in its Showings with
guests drawn, with the end-of-round checklist, and once the game is over; a player's phone in
the Buying and at the end; a B Movies table in its vote and once over, and a B Movies phone;
the archive's list, a game's replay board with its charts and its analysis
(a miss opened beside the advisor's move), and a player's page with its chart.

The hub is one real ``serve`` for the whole module; each language has one browser context
(its language remembered on the device, as the header's picker keeps it), whose pages follow
the tables through the hub's pushes. A screen is checked at tablet size, then resized (not
reloaded) to phone size and checked again. Every serious or critical violation fails the test,
named by screen, language, size, rule and the offending elements' selectors; the report
``artifacts/axe-report.txt`` counts the violations of each screen, language and size.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from axe_playwright_python.base import AXE_SCRIPT
from playwright.sync_api import Browser, BrowserContext, Page, expect

from companion.games.popcorn.engine import new_game
from companion.games.popcorn.facts_file import load_catalog
from companion.hub.remote import ServeProcess
from companion.kit.http import call
from tests.hub.archive_games import (
    bmovies_game,
    play_over_http,
    popcorn_first_player,
    popcorn_game,
)
from tests.web.room import PHONE, SHOTS, TABLET, watch_csp
from tests.web.test_web_archive import EXAMPLE, add

LANGS = ("en", "fr", "de", "ja")
SIZES = (("tablet", TABLET), ("phone", PHONE))
FAILING = ("serious", "critical")
"""The impacts that fail the test (axe's minor and moderate ones are only counted)."""
NAMES = ("Ana", "Bob", "Chloe")
CATALOG = load_catalog()
REPORT = SHOTS.parent / "axe-report.txt"

AXE_OPTIONS: dict[str, Any] = {"resultTypes": ["violations"]}
"""Every rule axe runs by default (WCAG 2.x A and AA and its best practices), none turned off."""

RUN = "(options) => axe.run(document, options)"
"""axe's run over the whole page. The package's own ``Axe.run`` is not used: it builds the call
as a string; this one is a function with its options as an argument. The bundled script is
injected with Playwright's ``evaluate`` (the DevTools protocol runs it; the hub's Content
Security Policy, which forbids the page's own ``eval``, does not apply, and reports nothing)."""


class Findings:
    """What axe found on every screen, language and size: the report, and the failures."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, str, str, Counter[str]]] = []
        self.failures: list[str] = []

    def add(self, screen: str, lang: str, size: str, violations: list[dict]) -> list[str]:
        """Keep one check's violations; return the failures among them (serious, critical)."""
        counts: Counter[str] = Counter()
        failures = []
        for v in violations:
            counts[f"{v['id']} ({v['impact']})"] += len(v["nodes"])
            if v["impact"] in FAILING:
                targets = [" ".join(str(t) for t in n["target"]) for n in v["nodes"]]
                shown = ", ".join(targets[:6]) + (f" and {len(targets) - 6} more"
                                                  if len(targets) > 6 else "")
                first = v["nodes"][0]
                why = "; ".join(c["message"] for c in first["any"] + first["all"] + first["none"])
                failures.append(f"{screen} [{lang}, {size}]: {v['id']} ({v['impact']}, "
                                f"{len(targets)}x) {v['help']}: {shown} (first: {why})")
        self.rows.append((screen, lang, size, counts))
        self.failures += failures
        return failures

    def text(self) -> str:
        """The report: each check's counts, then the totals by rule and impact."""
        lines = ["axe-core on every screen: serious and critical violations fail the test",
                 f"{len(self.rows)} checks, {len(self.failures)} failing findings", ""]
        total: Counter[str] = Counter()
        for screen, lang, size, counts in self.rows:
            total.update(counts)
            serious = sum(n for rule, n in counts.items()
                          if rule.endswith(("(serious)", "(critical)")))
            rules = ", ".join(f"{rule} {n}" for rule, n in sorted(counts.items())) or "-"
            lines.append(f"{screen:22} {lang} {size:6}  {serious:3} serious/critical   {rules}")
        lines += ["", "elements in violation, by rule and impact, over all checks:"]
        lines += [f"{n:5}  {rule}" for rule, n in total.most_common()] or ["    0"]
        return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def findings() -> Iterator[Findings]:
    """The module's findings, written to ``artifacts/axe-report.txt`` at its end."""
    found = Findings()
    yield found
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text(found.text(), encoding="utf-8")
    print(found.text())


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    """One ``serve`` on loopback for every screen of the module."""
    server = ServeProcess(tmp_path_factory.mktemp("axe") / "hub.db").start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def devices(browser: Browser) -> Iterator[dict[str, BrowserContext]]:
    """One tablet-sized browser context per language, its language remembered on the device;
    a script error or a CSP violation on any page fails the module's last test."""
    errors: list[str] = []
    contexts = {}
    for lang in LANGS:
        context = browser.new_context(viewport=TABLET)
        context.add_init_script("if (location.protocol === 'http:') "
                                f"localStorage.setItem('popcorn:lang', '{lang}');")
        context.on("page", lambda page, lang=lang: watch(page, lang, errors))
        contexts[lang] = context
    yield contexts
    for context in contexts.values():
        context.close()
    assert errors == [], errors


def watch(page: Page, lang: str, errors: list[str]) -> None:
    """Report ``page``'s script errors and CSP violations into ``errors``."""
    page.on("pageerror", lambda exc: errors.append(f"{lang}: {exc}"))
    watch_csp(page, errors)


def axe_check(page: Page, findings: Findings, screen: str, lang: str) -> list[str]:
    """Run axe on ``page`` at tablet size, then at phone size; the failures found."""
    page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
    if not page.evaluate("() => 'axe' in window"):
        page.evaluate(AXE_SCRIPT)
    failures = []
    for size, viewport in SIZES:
        page.set_viewport_size(viewport)
        result = page.evaluate(RUN, AXE_OPTIONS)
        failures += findings.add(screen, lang, size, result["violations"])
    page.set_viewport_size(TABLET)
    return failures


def no_failures(failures: list[str]) -> None:
    """Fail with every serious or critical violation found, one a line."""
    assert failures == [], (f"{len(failures)} serious or critical accessibility violations:\n"
                            + "\n".join(failures))


def events(hub: ServeProcess, table_id: str) -> int:
    """The length of a table's log on the hub."""
    return call(f"{hub.base}/api/tables/{table_id}")["events"]


def open_table(context: BrowserContext, hub: ServeProcess, info: dict) -> Page:
    """The table screen, with the table's PIN known to this device."""
    page = context.new_page()
    page.goto(f"{hub.base}/setup")
    page.evaluate("([id, pin]) => localStorage.setItem(`popcorn:pin:${id}`, pin)",
                  [info["id"], info["pin"]])
    page.goto(f"{hub.base}/table/{info['id']}")
    page.wait_for_function("(id) => window.popcornLoaded === id", arg=info["id"])
    return page


def drawn(page: Page, count: int) -> None:
    """Wait until the page has drawn the table's log up to ``count`` events."""
    page.wait_for_function("(n) => (window.popcornEvents ?? -1) >= n", arg=count, timeout=20000)


def open_phone(context: BrowserContext, hub: ServeProcess, info: dict, seat: int,
               testid: str) -> Page:
    """A player's phone, opened from its link, once it shows ``testid``."""
    phone = context.new_page()
    phone.set_viewport_size(PHONE)
    phone.goto(f"{hub.base}/phone/{info['id']}/{seat}#token={info['tokens'][seat]}")
    expect(phone.get_by_test_id(testid).first).to_be_visible(timeout=15000)
    return phone


def popcorn_moments(moves: list, first_player: int) -> dict[str, int]:
    """How many of ``moves`` lead to each moment the table screen is checked at: the deal
    (awards drawn to choose from), the first Buying, the first Showings with a guest drawn,
    round 2's start (the checklist), the end."""
    state = new_game(CATALOG, list(NAMES), first_player=first_player)
    found: dict[str, int] = {}
    for n, move in enumerate(moves, 1):
        state.apply(move)
        if move.kind == "draw_award":
            found.setdefault("deal", n)
        if state.phase == "buying" and state.round == 1:
            found.setdefault("buying", n)
        if state.phase == "showings" and move.kind == "draw_pawn":
            found.setdefault("showings", n)
        if state.round == 2:
            found.setdefault("checklist", n)
    found["over"] = len(moves)
    return dict(sorted(found.items(), key=lambda item: item[1]))


def test_the_setup_screen_has_no_serious_violation(
        hub: ServeProcess, devices: dict[str, BrowserContext], findings: Findings) -> None:
    """The setup screen: the new table's form, the readers, enrollment, the tables."""
    failures = []
    for lang, context in devices.items():
        page = context.new_page()
        page.goto(f"{hub.base}/setup")
        expect(page.get_by_test_id("add-player")).to_be_visible()
        failures += axe_check(page, findings, "setup", lang)
        page.close()
    no_failures(failures)


def test_a_popcorn_game_has_no_serious_violation(
        hub: ServeProcess, devices: dict[str, BrowserContext], findings: Findings) -> None:
    """The table screen at each phase of a 3-player game played through the hub's API (as
    the tablet and the phones send it), its correction dialog, a phone in the Buying and at
    the end."""
    text, moves = popcorn_game(3, 5)
    first = popcorn_first_player(text)
    info = hub.create_table({"players": list(NAMES), "first_player": first,
                             "readers": ["bag-1", "bag-2", "bag-3"], "name": "Kitchen"})
    tablets = {lang: open_table(context, hub, info) for lang, context in devices.items()}
    failures = []
    sent = 0
    for moment, upto in popcorn_moments(moves, first).items():
        if moment == "over":  # the rest of the game, unwatched: then the screens anew
            for page in tablets.values():
                page.close()
        play_over_http(hub.base, info, moves[sent:upto])
        sent = upto
        count = events(hub, info["id"])
        if moment == "over":
            tablets = {lang: open_table(context, hub, info) for lang, context in devices.items()}
        for lang, page in tablets.items():
            drawn(page, count)
            if moment == "checklist":
                expect(page.get_by_test_id("checklist-done")).to_be_visible()
            if moment == "over":
                expect(page.get_by_test_id("scores-table")).to_be_visible()
            failures += axe_check(page, findings, f"popcorn {moment}", lang)
            if moment == "buying":  # the correction dialog, over the table screen
                page.get_by_test_id("correct").click()
                expect(page.get_by_test_id("fix-cancel")).to_be_visible()
                failures += axe_check(page, findings, "popcorn correction", lang)
                page.get_by_test_id("fix-cancel").click()
                expect(page.get_by_test_id("fix-cancel")).to_be_hidden()
        if moment in ("buying", "over"):
            for lang, context in devices.items():
                phone = open_phone(context, hub, info, 1, "phone-cinema")
                failures += axe_check(phone, findings, f"popcorn phone {moment}", lang)
                phone.close()
    for page in tablets.values():
        page.close()
    assert call(f"{hub.base}/api/tables/{info['id']}")["over"]
    no_failures(failures)


def test_a_b_movies_game_has_no_serious_violation(
        hub: ServeProcess, devices: dict[str, BrowserContext], findings: Findings) -> None:
    """The B Movies table screen while the players vote and once over, and a phone."""
    _, moves = bmovies_game(3, 4)
    info = hub.create_table({"players": list(NAMES), "readers": ["pad-1", "pad-2", "pad-3"],
                             "game": "b-movies", "first_player": 0})
    vote = next(n for n, move in enumerate(moves) if move.kind == "vote") + 1
    play_over_http(hub.base, info, moves[:vote])
    tablets = {lang: open_table(context, hub, info) for lang, context in devices.items()}
    failures = []
    for lang, page in tablets.items():
        expect(page.get_by_test_id("bm-table")).to_have_attribute("data-phase", "vote")
        failures += axe_check(page, findings, "b-movies vote", lang)
        phone = open_phone(devices[lang], hub, info, 2, "bm-pile")
        failures += axe_check(phone, findings, "b-movies phone vote", lang)
        phone.close()
        page.close()
    play_over_http(hub.base, info, moves[vote:])
    count = events(hub, info["id"])
    for lang, context in devices.items():
        page = open_table(context, hub, info)
        drawn(page, count)
        expect(page.get_by_test_id("bm-table")).to_have_attribute("data-phase", "over")
        failures += axe_check(page, findings, "b-movies over", lang)
        page.close()
    no_failures(failures)


def test_the_archive_replay_and_analysis_have_no_serious_violation(
        hub: ServeProcess, devices: dict[str, BrowserContext], findings: Findings) -> None:
    """The archive's list, a game's replay board with its charts and its analysis (a miss
    opened beside the advisor's move), a player's page with its chart: the example game of
    docs/examples, imported."""
    game = add(hub, EXAMPLE)
    failures = []
    for lang, context in devices.items():
        page = context.new_page()
        page.goto(f"{hub.base}/archive")
        expect(page.get_by_test_id(f"archive-row-{game['id']}")).to_be_visible()
        failures += axe_check(page, findings, "archive", lang)
        page.goto(f"{hub.base}/archive/{game['id']}?at=40")
        expect(page.get_by_test_id("replay-board")).to_have_attribute("data-position", "40")
        expect(page.get_by_test_id("analysis")).to_have_attribute("data-state", "done",
                                                                  timeout=60_000)
        page.wait_for_function("() => window.Chart && document.querySelectorAll('canvas')"
                               ".length > 0 && [...document.querySelectorAll('canvas')]"
                               ".every((c) => Chart.getChart(c))")
        failures += axe_check(page, findings, "replay + analysis", lang)
        page.get_by_test_id("miss-0-0").click()
        expect(page.get_by_test_id("replay-compare")).to_be_visible()
        failures += axe_check(page, findings, "replay miss", lang)
        page.goto(f"{hub.base}/archive/player/Ana")
        chart = page.get_by_test_id("player-chart")
        expect(chart).to_be_visible()
        page.wait_for_function("(c) => window.Chart && Chart.getChart(c)",
                               arg=chart.element_handle())
        failures += axe_check(page, findings, "archive player", lang)
        page.close()
    no_failures(failures)

