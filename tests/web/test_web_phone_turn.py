"""The phones call a player only when the table waits for that player, and never in the red
of an error (issue 22, item 10).

Three phones join a real hub's new table (``serve``, virtual bag readers). At setup the
players draw their awards one after another: the first player's phone asks for a choice;
the others say whose draw comes first, with nothing to choose and no call to act. Once
the first player keeps a card on the phone, the next phone asks. In the Showings, which
are played at the table, a waiting player's phone says so ("at the table") instead of
offering an action it does not have. The your-turn headline is not the error red.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from companion.games.popcorn.engine import pawns as P
from tests.web.room import PHONE, SHOTS, Room, play_step, shown, watch_csp

NAMES = ["Ana", "Bob", "Chloe"]
ERROR_RED = "rgb(200, 50, 43)"
"""The dashboard's error color (``--accent``), as the browser computes it."""


@pytest.fixture
def phones(browser: Browser) -> Iterator[list[Page]]:
    """Three phone-sized pages, failing the test on a script error."""
    contexts, pages, errors = [], [], []
    for _ in NAMES:
        context = browser.new_context(viewport=PHONE)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        watch_csp(page, errors)
        contexts.append(context)
        pages.append(page)
    yield pages
    for context in contexts:
        context.close()
    assert errors == [], errors


def headline(page: Page):
    """The phone's turn headline."""
    return page.get_by_test_id("phone-turn")


def background(page: Page) -> str:
    """The headline's computed background color."""
    return headline(page).evaluate("(el) => getComputedStyle(el).backgroundColor")


def test_only_the_player_the_table_waits_for_is_called(room: Room, phones) -> None:
    table = room.table(NAMES, seed=4, keep_awards=False)
    for seat, page in enumerate(phones):
        page.goto(f"{room.base}/phone/{table.id}/{seat}#token={table.info['tokens'][seat]}")
        shown(page, "phone-cinema")
    ana, bob, chloe = phones
    expect(headline(ana)).to_contain_text("Your award draw: choose below")
    expect(headline(ana)).to_have_class("ph-turn urgent")
    assert background(ana) != ERROR_RED
    expect(ana.locator("[data-keep]").first).to_be_visible()
    expect(headline(bob)).to_have_text("Your award draw comes after Ana")
    expect(headline(chloe)).to_have_text("Your award draw comes after Ana, Bob")
    for page in (bob, chloe):  # nothing to choose, no call to act
        expect(headline(page)).to_have_class("ph-turn")
        expect(page.get_by_test_id("award-choice")).to_be_hidden()
    SHOTS.mkdir(parents=True, exist_ok=True)
    bob.screenshot(path=str(SHOTS / "phone-award-waiting.png"))
    ana.locator("[data-keep]").first.click()
    expect(headline(bob)).to_contain_text("Your award draw: choose below")
    expect(headline(chloe)).to_have_text("Your award draw comes after Bob")
    expect(headline(ana)).not_to_contain_text("Your award draw")
    bob.locator("[data-keep]").first.click()
    expect(headline(chloe)).to_contain_text("Your award draw: choose below")
    chloe.locator("[data-keep]").first.click()

    players = room.players(table, seed=4)
    while not (table.state.phase == "showings"
               and any(table.state.pawns_at(P.hand(p)) for p in range(3))):
        assert play_step(players, None)
    waiting = table.state.waiting_players()
    page = phones[waiting[0]]
    expect(headline(page)).to_contain_text("Showings: your turn, at the table")
    expect(headline(page)).to_contain_text("play on the tablet")
    expect(headline(page)).not_to_contain_text("to act")
    assert background(page) != ERROR_RED
    # the phone offers no move here (checking one's own bag is offered at any time)
    assert page.locator(".phone button:not([data-act='audit-start'])").count() == 0
    page.screenshot(path=str(SHOTS / "phone-showings-your-turn.png"))
