"""Issue 38, item 1: the table screen never scrolls at tablet size, at any step of a whole
game, in any language.

A real ``serve`` with four virtual bag readers plays a whole 4-player Popcorn game (draws
tapped on the readers, the rest sent as the tablet and the phones send it), and a whole
4-player B Movies game. Four tablet pages (English, French, German, Japanese) follow each
table, and after every step each is measured at 1280x800 and 1180x820 (see
:mod:`tests.web.whole_layout`). On the way, the table meets what makes a screen tall: the
end-of-round checklist (every round), three alerts opened at once, a bag audit, and the
correction dialog. The test fails naming the first step, language and size that overflow;
``artifacts/layout-whole-<game>.txt`` holds the tallest page per language and size.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from companion.games.bmovies.engine import play_random as bmovies_random
from companion.games.bmovies.facts_file import load_facts
from companion.games.popcorn.engine import pawns as P
from companion.games.popcorn.remote import RemoteTable
from companion.kit.tags import random_uid
from tests.web.room import Room, call
from tests.web.whole_layout import Watchers

pytestmark = pytest.mark.slow

NAMES = ["Ana", "Bob", "Chloé", "Dario"]
READERS4 = ["bag-1", "bag-2", "bag-3", "bag-4"]


@pytest.fixture
def room4(tmp_path: Path) -> Iterator[Room]:
    """A ``serve`` with a bag reader per seat of a 4-player table."""
    r = Room(tmp_path, READERS4)
    yield r
    r.close()


def wait_alerts(room: Room, table: RemoteTable, count: int) -> None:
    """Wait until the table holds ``count`` alerts."""
    deadline = time.monotonic() + 15
    while len(call(f"{room.base}/api/tables/{table.id}")["alerts"]) < count:
        assert time.monotonic() < deadline, "the hub raised no alert"
        time.sleep(0.05)


def three_alerts(room: Room, table: RemoteTable) -> None:
    """Three mistakes at the table: a drawn guest tapped on the next player's reader, three
    times (each is refused, nothing moves)."""
    state = table.state
    drawer = next(p for p in range(4) if state.pawns_at(P.hand(p)))
    pawn = state.pawns_at(P.hand(drawer))[0]
    before = len(call(f"{room.base}/api/tables/{table.id}")["alerts"])
    for n in range(3):
        room.bank.tap(READERS4[(drawer + 1 + n) % 4], room.uids[pawn])
        wait_alerts(room, table, before + n + 1)


def wait_audit_taps(room: Room, table: RemoteTable, taps: int) -> None:
    """Wait until the audit under way has counted ``taps`` taps."""
    deadline = time.monotonic() + 15
    while call(f"{room.base}/api/tables/{table.id}/audits/current")["taps"] < taps:
        assert time.monotonic() < deadline, "the audit never counted the taps"
        time.sleep(0.05)


def pin_call(room: Room, table: RemoteTable, path: str, method: str, body: dict | None = None):
    """A call with the table's PIN."""
    return call(f"{room.base}/api/tables/{table.id}{path}", method, body or {},
                headers={"X-Table-Pin": table.info["pin"]})


def test_a_whole_popcorn_game_fits_the_tablet_in_every_language(
        room4: Room, browser: Browser) -> None:
    table = room4.table(NAMES, seed=11)
    players = room4.players(table, seed=11)
    errors: list[str] = []
    watch = Watchers(browser, room4.base, table.id, table.info["pin"], errors, "popcorn")
    awake(watch.pages["en"], True)
    done = {"alerts": False, "audit": False, "correction": False}
    try:
        for number in range(1, 5000):
            with players.lock:
                choice = players._choose()
            if choice is None:
                break
            how, move = choice
            players._do(how, move)
            state = table.state
            step = f"step {number}, round {state.round} {state.phase}, after {move.kind}"
            watch.check(step, table.count)
            steps_follow(watch.pages["en"], step)
            moments(room4, table, watch, state, step, done)
        awake(watch.pages["en"], False)
        assert table.state.phase == "over", "the game did not reach its end"
        assert all(done.values()), done
    finally:
        watch.close()
    watch.assert_fits(errors)


STEP = """() => {
  const step = document.querySelector('[data-testid="step"]');
  const drawing = [...document.querySelectorAll('.cinema h2 .tag.wait')]
    .some((tag) => tag.textContent.startsWith('to draw'));
  return [step ? step.textContent : '', drawing];
}"""


def steps_follow(page: Page, step: str) -> None:
    """Item 6: the side panel's next step follows the table: "Draw guests from the bag"
    while a cinema has guests to draw, and never once nobody has."""
    words, drawing = page.evaluate(STEP)
    assert ("Draw guests from the bag" in words) == drawing, (step, words, drawing)


def awake(page: Page, on: bool) -> None:
    """Item 6: the table screen holds a screen wake lock while the game is open, and lets
    it go once the game is over (Chromium grants it on the hub's loopback address)."""
    page.wait_for_function("(on) => window.popcornAwake === on", arg=on)


def moments(room: Room, table: RemoteTable, watch: Watchers, state, step: str,
            done: dict[str, bool]) -> None:
    """The moments a tall screen hides in, each once: three alerts opened at once in round
    2's Showings, the correction dialog in round 2's Buying, a bag audit in round 3's."""
    if not done["alerts"] and state.round == 2 and state.phase == "showings" and any(
            state.pawns_at(P.hand(p)) for p in range(4)):
        done["alerts"] = True
        three_alerts(room, table)
        watch.each(toggle_alerts)
        watch.check(f"{step}, three alerts open", table.count)
        watch.shot("layout-whole-popcorn-three-alerts")
        watch.each(toggle_alerts)
    if not done["correction"] and state.round == 2 and state.phase == "buying":
        done["correction"] = True
        assert watch.pages["en"].get_by_test_id("checklist-done").is_visible()
        watch.shot("layout-whole-popcorn-checklist")
        watch.each(lambda page: page.get_by_test_id("correct").click())
        watch.check(f"{step}, the correction dialog", table.count)
        watch.shot("layout-whole-popcorn-correction")
        watch.each(close_dialog)
    if not done["audit"] and state.round == 3 and state.phase == "buying":
        done["audit"] = True
        pin_call(room, table, "/audits", "POST", {"player": 1})
        bag = state.pawns_at(P.bag(1))
        for pawn in random.Random(3).sample(bag, min(4, len(bag))):
            room.bank.tap(READERS4[1], room.uids[pawn])
        wait_audit_taps(room, table, min(4, len(bag)))
        watch.check(f"{step}, an audit of Bob's bag", table.count)
        watch.shot("layout-whole-popcorn-audit")
        pin_call(room, table, "/audits/current", "DELETE")


def close_dialog(page: Page) -> None:
    """Close the open dialog the way a hand does: its Cancel button."""
    page.get_by_test_id("fix-cancel").click()


def test_a_whole_b_movies_game_fits_the_tablet_in_every_language(
        room4: Room, browser: Browser) -> None:
    moves, _ = bmovies_random(load_facts(), 4, 11)
    info = room4.server.create_table({"players": NAMES, "readers": READERS4,
                                      "game": "b-movies", "first_player": 0})
    errors: list[str] = []
    watch = Watchers(browser, room4.base, info["id"], info["pin"], errors, "b-movies")
    awake(watch.pages["en"], True)
    url = f"{room4.base}/api/tables/{info['id']}"
    done = {"alerts": False, "audit": False}
    try:
        for number, move in enumerate(moves, 1):
            headers = {"X-Table-Pin": info["pin"]}
            if move.player is not None:
                headers["X-Player-Token"] = info["tokens"][move.player]
            call(f"{url}/moves", "POST", {"move": move.to_dict()}, headers=headers)
            table = call(url)
            view = table["view"]
            step = f"step {number}, round {view['round']} {view['phase']}, after {move.kind}"
            watch.check(step, table["events"])
            bm_moments(room4, info, watch, view, step, done)
        assert call(url)["view"]["phase"] == "over"
        awake(watch.pages["en"], False)
        assert all(done.values()), done
    finally:
        watch.close()
    watch.assert_fits(errors)


def bm_moments(room: Room, info: dict, watch: Watchers, view: dict, step: str,
               done: dict[str, bool]) -> None:
    """Three alerts opened at once (tags the hub never enrolled, tapped on a pad) in round
    2, and an audit of Bob's pile in round 3."""
    url = f"{room.base}/api/tables/{info['id']}"
    if not done["alerts"] and view["round"] == 2:
        done["alerts"] = True
        before = len(call(url)["alerts"])
        for n in range(3):
            room.bank.tap(READERS4[n], random_uid(random.Random(f"stranger {n}")))
            deadline = time.monotonic() + 15
            while len(call(url)["alerts"]) < before + n + 1:
                assert time.monotonic() < deadline, "the hub raised no alert"
                time.sleep(0.05)
        watch.each(toggle_alerts)
        watch.check(f"{step}, three alerts open", call(url)["events"])
        watch.shot("layout-whole-b-movies-three-alerts")
        watch.each(toggle_alerts)
    if not done["audit"] and view["round"] == 3:
        done["audit"] = True
        pin = {"X-Table-Pin": info["pin"]}
        call(f"{url}/audits", "POST", {"player": 1}, headers=pin)
        watch.check(f"{step}, an audit of Bob's pile", call(url)["events"])
        watch.shot("layout-whole-b-movies-audit")
        call(f"{url}/audits/current", "DELETE", {}, headers=pin)


def toggle_alerts(page: Page) -> None:
    """Open the earlier alerts under the newest (or close them again)."""
    page.get_by_test_id("alerts-open").click()
