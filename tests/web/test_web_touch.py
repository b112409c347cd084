"""On a touch tablet nothing hovers, so nothing may be said only in a title (issue 22,
item 9): what a card's actions do shows in the side panel when the card is tapped; what a
slot's seats and movie actions do, and what its lobby slider covers, shows under the slot
when it is tapped; "Take the gains" says what it takes on its face (its test is in
``test_web.py``, with "Play as suggested").

A Chromium context with touch (``has_touch``) on one ``serve`` for the module, taps as a
finger does (``tap``), and a 2-player table played through the API.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from companion.games.popcorn.engine import pawns as P
from companion.games.popcorn.facts_file import action_meanings
from companion.games.popcorn.remote import RemoteTable
from tests.web.room import CATALOG, TABLET, Room, Tablet, call, watch_csp

MEANING = action_meanings()
"""What each action does, in English (the catalog's own sentences)."""


@pytest.fixture(scope="module")
def touch_room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    """One ``serve`` for the module."""
    r = Room(tmp_path_factory.mktemp("touch"))
    yield r
    r.close()


@pytest.fixture(scope="module")
def table(touch_room: Room) -> RemoteTable:
    """The module's 2-player table (the readers serve one table at a time)."""
    return touch_room.table(["Ana", "Bob"], seed=4)


@pytest.fixture
def finger(browser: Browser) -> Iterator[Page]:
    """A tablet page with a touch screen, failing the test on a script error."""
    context = browser.new_context(viewport=TABLET, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    watch_csp(page, errors)
    yield page
    context.close()
    assert errors == [], errors


def test_a_tapped_card_says_what_its_actions_do(touch_room: Room, table: RemoteTable,
                                                 finger: Page) -> None:
    Tablet(finger, touch_room, table).open()
    state = table.state
    assert state.phase == "buying"
    movie = (state.features or state.premiers)[0]
    card = finger.locator(f'[data-testid="feature-{movie}"], [data-testid="premiere-{movie}"]')
    card.tap()
    meanings = finger.get_by_test_id("meanings")
    expect(meanings).to_be_visible()
    for action in CATALOG.movies[movie].actions:
        if action != "none":
            expect(meanings).to_contain_text(MEANING[action])
    card.tap()  # tapped again: still picked, and still saying what it does
    expect(meanings).to_be_visible()
    finger.get_by_test_id("clear-selection").tap()  # Cancel lets it go
    expect(meanings).to_have_count(0)


def _until_seated(table: RemoteTable, base: str) -> None:
    """Play on through the API until round 2's Showings with Ana's guests seated as shown
    (round 2: the lobby sliders have come down over some actions)."""
    while True:
        state = table.state
        if (state.phase == "showings" and state.round >= 2 and state.showings[0].to_draw == 0
                and state.task_for(0) is None):
            hand = state.pawns_at(P.hand(0))
            if not hand:
                return
            moves = call(f"{base}/api/tables/{table.id}/placement?player=0")["moves"]
            call(f"{base}/api/tables/{table.id}/moves", "POST", {"moves": moves})
            continue
        outcomes = state.chance_outcomes() if state.phase == "showings" else []
        passes = [m for m in state.legal_moves() if m.kind == "end_turn"]
        table.decide((outcomes or passes or state.legal_moves())[0])


def test_a_tapped_slot_says_what_its_seats_and_actions_do(
        touch_room: Room, table: RemoteTable, finger: Page) -> None:
    _until_seated(table, touch_room.base)
    tablet = Tablet(finger, touch_room, table).open()
    view = call(f"{touch_room.base}/api/tables/{table.id}")["view"]
    k, slot = next((k, s) for k, s in enumerate(view["cinemas"][0]["slots"])
                   if s["movie"] and s["theater"])
    tip = finger.get_by_test_id("tip")
    expect(tip).to_be_hidden()
    finger.get_by_test_id(f"slot-0-{k}").locator(".movie").tap()
    expect(tip).to_be_visible()
    seat_action = slot["theater"]["seat_actions"][0]
    expect(tip).to_contain_text("Seat 1 (")
    expect(tip).to_contain_text(MEANING[seat_action])
    for i, action in enumerate(slot["movie"]["actions"]):
        if i < slot["visible"] and action != "none":
            expect(tip).to_contain_text(MEANING[action])
    if slot["covered"]:
        expect(tip).to_contain_text("Under the slider: ")
    box, under = tip.bounding_box(), finger.get_by_test_id(f"slot-0-{k}").bounding_box()
    assert box and under and (box["y"] >= under["y"] + under["height"] - 1
                              or box["y"] + box["height"] <= under["y"] + 1)  # not over it
    tablet.shot("slot-tip")
    tip.tap()  # a tap on it, or anywhere else, hides it
    expect(tip).to_be_hidden()
    finger.get_by_test_id(f"slot-0-{k}").locator(".movie").tap()
    expect(tip).to_be_visible()
    finger.get_by_test_id("cinema-1").locator(".stats").first.tap()  # anywhere else
    expect(tip).to_be_hidden()
