"""The dashboard in a real browser: Debian's Chromium driven by Playwright, a real hub
process on loopback, virtual bag readers on pseudo-terminals."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from web_support import (
    TABLET,
    Room,
    Tablet,
    call,
    play_step,
    shown,
    watch_csp,
)

from companion.engine import Move, Violation
from companion.engine import pawns as P
from support import score_command

SPEECH_SPY = """window.spoken = [];
SpeechSynthesis.prototype.speak = function (utterance) { window.spoken.push(utterance.text); };"""
"""Installed with ``add_init_script``: what the tablet would say goes to ``window.spoken``."""
LAST_ROUND_SPOKEN = "Last round: the Final Showing card is out."


@pytest.fixture
def page(browser: Browser):
    """A tablet-sized page that fails the test on any script error or CSP violation."""
    context = browser.new_context(viewport=TABLET)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    watch_csp(tab, errors)
    yield tab
    context.close()
    assert errors == [], errors


def test_a_full_round_through_the_dashboard_and_the_readers(room: Room, page: Page) -> None:
    """Round 1 of a 3-player game: every decision tapped on the dashboard, every draw
    tapped on a virtual reader; then the end-of-round checklist with the sliders."""
    table = room.table(["Ana", "Bob", "Chloe"], seed=3)
    tablet = Tablet(page, room, table).open()
    tablet.shot("table-buying")
    players = room.players(table, seed=3)
    shots = {"showings"}
    while table.state.round == 1:
        if table.state.phase in shots and table.state.chance_outcomes():
            tablet.wait_events()
            tablet.shot("table-showings")
            shots.discard(table.state.phase)
        assert play_step(players, tablet) or table.state.round > 1
    tablet.wait_events()
    checklist = page.get_by_test_id("round-checklist")
    expect(checklist).to_be_visible()
    state = table.state
    for ps in state.players:
        for slot, movie in enumerate(ps.movies):
            if movie and ps.covered[slot]:
                title = table.mirror.catalog.movies[movie].title
                expect(page.get_by_test_id("checklist-sliders")).to_contain_text(title)
    expect(checklist).to_contain_text(state.names[state.first_player])
    tablet.shot("round-checklist")
    page.get_by_test_id("checklist-done").click()
    expect(checklist).to_have_count(0)
    expect(page.get_by_test_id("round")).to_contain_text("2")


def _seat_out_of_order(state) -> Move | None:
    """A move that seats a drawn guest in seat #2 while seat #1 of that theater is free,
    at a moment when the engine refuses it for that reason only."""
    for p in range(state.n):
        for pawn in state.pawns_at(P.hand(p))[:1]:
            for slot in range(3):
                move = Move("place", player=p, pawn=pawn, slot=slot, seat=1)
                try:
                    state.clone().apply(move)
                except Violation as exc:
                    if exc.code == "SEAT_ORDER":
                        return move
    return None


def test_seating_out_of_seat_order_is_refused_with_the_engines_sentence(
        room: Room, page: Page) -> None:
    """Tap a drawn guest, then seat #2 of a theater whose seat #1 is free: refused."""
    table = room.table(["Ana", "Bob", "Chloe"], seed=11)
    players = room.players(table, seed=11)
    move = None
    while move is None:
        assert play_step(players, None), "the game ended before a chance came"
        move = _seat_out_of_order(table.state)
    tablet = Tablet(page, room, table).open()
    before = table.count
    page.get_by_test_id(f"hand-{move.pawn}").click()
    page.get_by_test_id(f"seat-{move.player}-{move.slot}-{move.seat}").click()
    refusal = page.get_by_test_id("refusal")
    expect(refusal).to_be_visible()
    trial = table.state.clone()
    with pytest.raises(Violation) as refused:
        trial.apply(move)
    assert refused.value.code == "SEAT_ORDER"
    expect(refusal).to_contain_text(refused.value.message)
    assert table.count == before
    tablet.shot("seat-refused")


def test_a_finished_game_shows_the_scores_of_the_score_command(room: Room, page: Page) -> None:
    """Play to the end (readers and API), watching on the dashboard; its scoring table
    holds the same figures as ``popcorn-companion score``, and the record exports."""
    page.add_init_script(SPEECH_SPY + "\nlocalStorage.setItem('popcorn:speak', 'on');")
    table = room.table(["Ana", "Bob", "Chloe"], seed=5)
    tablet = Tablet(page, room, table).open()
    players = room.players(table, seed=5)
    banner_seen = False
    while not table.state.is_over:
        assert play_step(players, None)
        if table.state.last_round and not banner_seen and not table.state.is_over:
            tablet.wait_events()
            expect(page.get_by_test_id("last-round")).to_be_visible()
            page.wait_for_function("(text) => window.spoken.includes(text)",
                                   arg=LAST_ROUND_SPOKEN)
            banner_seen = True
    assert banner_seen
    assert page.evaluate("window.spoken").count(LAST_ROUND_SPOKEN) == 1  # said once
    tablet.wait_events()
    expect(page.get_by_test_id("last-round")).to_have_count(0)
    expected = score_command(table.state)
    shown(page, "scores-table")
    for n, player in enumerate(expected["players"]):
        expect(page.get_by_test_id(f"score-{n}-total")).to_have_text(str(player["total"]))
        for part in ("bucket", "money", "trophy"):
            expect(page.get_by_test_id(f"score-{n}-{part}")).to_have_text(
                str(player["breakdown"][part]))
        for award, points in player["breakdown"]["awards"].items():
            expect(page.get_by_test_id(f"score-{n}-award-{award}")).to_have_text(str(points))
    winners = expected["winners"]
    expect(page.get_by_test_id("winner")).to_contain_text(" and ".join(winners))
    if len(winners) == 1:
        expect(page.get_by_test_id("winner")).to_contain_text("Winner")
    with page.expect_download() as download:
        page.get_by_test_id("export-record").click()
    text = Path(download.value.path()).read_text(encoding="utf-8")
    assert text == call(f"{room.base}/api/tables/{table.id}/record",
                        headers={"X-Table-Pin": table.info["pin"]})
    tablet.shot("final-scores")


def test_an_alert_shows_as_a_banner_naming_the_pawn_and_undo_needs_the_pin(
        room: Room, page: Page) -> None:
    """A pawn tapped on the wrong bag's reader: a banner with the pawn, its color and the
    fix; undo asks for the PIN when this device does not know it."""
    table = room.table(["Ana", "Bob", "Chloe"], seed=2)
    tablet = Tablet(page, room, table).open()
    pawn = table.state.pawns_at(P.bag(1))[0]
    room.bank.tap("bag-1", room.uids[pawn])
    banner = page.get_by_test_id("alert")
    expect(banner).to_be_visible()
    expect(banner).to_have_attribute("data-code", "PAWN_OF_ANOTHER_PLAYER")
    expect(banner).to_contain_text(f"Pawn {pawn}")
    expect(banner).to_contain_text("Bob")
    tablet.shot("alert")
    page.evaluate("localStorage.clear()")
    current = table.state.current
    tablet.do(Move("end_turn", player=current))
    count = table.count
    page.get_by_test_id("undo").click()
    page.locator("#pin-input").fill(table.info["pin"])
    page.locator("#pin-ok").click()
    page.wait_for_function("(n) => (window.popcornEvents ?? -1) > n", arg=count)
    assert table.count == count + 1
    assert table.full_state()["current"] == current  # the end of turn was taken back


def test_alerts_are_spoken_once_when_the_voice_is_on_and_never_when_off(
        room: Room, page: Page) -> None:
    """docs/dashboard.md, "Spoken alerts": a spy on ``speechSynthesis.speak`` hears nothing
    while the header's toggle is off (the default), then the alert's sentence exactly once;
    the choice is kept on the device."""
    page.add_init_script(SPEECH_SPY)
    table = room.table(["Ana", "Bob", "Chloe"], seed=2)
    tablet = Tablet(page, room, table).open()
    toggle = page.get_by_test_id("speak-toggle")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    bob = table.state.pawns_at(P.bag(1))
    room.bank.tap("bag-1", room.uids[bob[0]])
    expect(page.get_by_test_id("alert")).to_have_count(1)
    assert page.evaluate("window.spoken") == []
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    tablet.shot("voice-on")
    room.bank.tap("bag-1", room.uids[bob[1]])
    expect(page.get_by_test_id("alert")).to_have_count(2)
    alert = call(f"{room.base}/api/tables/{table.id}")["alerts"][-1]
    page.wait_for_function("() => window.spoken.length > 0")
    assert page.evaluate("window.spoken") == [f"Ana: {alert['message']}"]
    assert f"Pawn {bob[1]}" in alert["message"]
    page.reload()  # the choice stays on this device
    page.wait_for_function("(id) => window.popcornLoaded === id", arg=table.id)
    expect(page.get_by_test_id("speak-toggle")).to_have_attribute("aria-pressed", "true")
    page.get_by_test_id("speak-toggle").click()
    room.bank.tap("bag-1", room.uids[bob[2]])
    expect(page.get_by_test_id("alert")).to_have_count(3)
    assert page.evaluate("window.spoken") == []


def test_a_bag_reader_that_goes_offline_shows_on_its_cinema(room: Room, page: Page) -> None:
    """Pull a reader's cable: its player's cinema says so until the cable is back."""
    table = room.table(["Ana", "Bob", "Chloe"], seed=6)
    Tablet(page, room, table).open()
    expect(page.get_by_test_id("cinema-1")).to_be_visible()
    expect(page.get_by_test_id("reader-offline-1")).to_have_count(0)
    room.bank.unplug("bag-2")
    expect(page.get_by_test_id("reader-offline-1")).to_contain_text("bag-2")
    expect(page.get_by_test_id("reader-offline-0")).to_have_count(0)
    room.bank.plug("bag-2")
    expect(page.get_by_test_id("reader-offline-1")).to_have_count(0, timeout=20000)
