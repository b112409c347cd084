"""The dashboard in a real browser: Debian's Chromium driven by Playwright, a real hub
process on loopback, virtual bag readers on pseudo-terminals."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from companion.games.popcorn.engine import Move, Violation
from companion.games.popcorn.engine import pawns as P
from companion.games.popcorn.record import Record, loads_record
from companion.games.popcorn.remote import RemoteTable
from tests.engine.positions import score_command
from tests.waiting import wait_for
from tests.web.room import (
    CATALOG,
    READERS,
    Room,
    Tablet,
    call,
    play_step,
    save_shots,
    shown,
)

SPEECH_SPY = """window.spoken = [];
SpeechSynthesis.prototype.speak = function (utterance) { window.spoken.push(utterance.text); };"""
"""Installed with ``add_init_script``: what the tablet would say goes to ``window.spoken``."""
LAST_ROUND_SPOKEN = "Last round: the Final Showing card is out."


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


@pytest.mark.slow
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
            # the guided check of every bag before the final scoring
            expect(page.get_by_test_id("final-audit")).to_be_visible()
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
    """A pawn tapped on Ana's reader while nobody draws (the Buying phase): a banner with the
    pawn, its color, whose bag and the fix; undo asks for the PIN when this device does not
    know it. (A pawn never tapped may be in several places: the one the hub had in Bob's
    bag may be a look-alike of Ana's, so the banner does not say where it came from.)"""
    table = room.table(["Ana", "Bob", "Chloe"], seed=2)
    tablet = Tablet(page, room, table).open()
    pawn = table.state.pawns_at(P.bag(1))[0]
    room.bank.tap("bag-1", room.uids[pawn])
    banner = page.get_by_test_id("alert")
    expect(banner).to_be_visible()
    expect(banner).to_have_attribute("data-code", "UNEXPECTED_TAG")
    expect(banner).to_contain_text("where it came from")
    color = table.state.pawn_color[pawn]  # named by color and letter, never by number
    expect(banner).to_contain_text(f"{color} {color[0].upper()} guest")
    expect(banner).not_to_contain_text(re.compile(rf"\b{pawn}\b"))
    expect(banner).to_contain_text("Ana's bag")
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
    expect(page.get_by_test_id("alerts-open")).to_have_text("1 more")
    expect(page.get_by_test_id("alert")).to_have_count(1)  # the newest; the others on a tap
    alert = call(f"{room.base}/api/tables/{table.id}")["alerts"][-1]
    page.wait_for_function("() => window.spoken.length > 0")
    assert page.evaluate("window.spoken") == [f"Ana: {alert['message']}"]
    color = table.state.pawn_color[bob[1]]
    assert f"{color} {color[0].upper()} guest" in alert["message"]
    page.reload()  # the choice stays on this device
    page.wait_for_function("(id) => window.popcornLoaded === id", arg=table.id)
    expect(page.get_by_test_id("speak-toggle")).to_have_attribute("aria-pressed", "true")
    page.get_by_test_id("speak-toggle").click()
    room.bank.tap("bag-1", room.uids[bob[2]])
    expect(page.get_by_test_id("alerts-open")).to_have_text("2 more")
    page.get_by_test_id("alerts-open").click()
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
    page.get_by_test_id("reader-offline-1").click()  # what to do, without hovering
    expect(page.get_by_test_id("tip")).to_contain_text("check its cable or Wi-Fi")
    expect(page.get_by_test_id("reader-offline-0")).to_have_count(0)
    room.bank.plug("bag-2")
    expect(page.get_by_test_id("reader-offline-1")).to_have_count(0, timeout=20000)
    expect(page.get_by_test_id("tip")).to_be_hidden()  # its tag gone, the tip goes too


IN_VIEW = """(id) => { const box = document.querySelector(`[data-testid="${id}"]`)
  .getBoundingClientRect(); return box.top >= 0 && box.bottom <= innerHeight
  && box.left >= 0 && box.right <= innerWidth; }"""
UNCOVERED = """(id) => { const el = document.querySelector(`[data-testid="${id}"]`);
  const box = el.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + 20);
  return el.contains(hit); }"""


def test_no_checklist_after_setup_and_the_round_checklist_leaves_the_table_in_sight(
        room: Room, page: Page) -> None:
    """The setup giving way to round 1 is no end of round: no checklist. At the end of
    round 1 the checklist heads the side panel: every cinema and the market stay uncovered,
    its Done button is on screen even with the panel scrolled to the bottom, no line says to
    cover nothing, and a tick survives the next state push."""
    info = room.server.create_table({"players": ["Ana", "Bob", "Chloe"],
                                     "readers": READERS[:3]})
    table = RemoteTable(room.base, info, CATALOG)
    tablet = Tablet(page, room, table).open()
    call(f"{room.base}/api/tables/{table.id}/deal", "POST", {"seed": 3},
         {"X-Table-Pin": info["pin"]})
    table.keep_first_awards()
    tablet.wait_events()
    expect(page.get_by_test_id("round")).to_contain_text("1")
    expect(page.get_by_test_id("round-checklist")).to_have_count(0)
    players = room.players(table, seed=3)
    while table.state.round == 1:
        assert play_step(players, None)
    tablet.wait_events()
    checklist = page.get_by_test_id("round-checklist")
    expect(checklist).to_be_visible()
    assert "cover ." not in checklist.inner_text()
    for test_id in ["market", "cinema-0", "cinema-1", "cinema-2"]:
        assert page.evaluate(UNCOVERED, test_id), f"{test_id} is covered"
    page.locator(".now").evaluate("(el) => { el.scrollTop = el.scrollHeight; }")
    assert page.evaluate(IN_VIEW, "checklist-done")
    page.locator("button.tick").first.click()
    assert play_step(players, None)
    tablet.wait_events()
    expect(page.locator("button.tick").first).to_have_class("tick done")
    tablet.shot("round-checklist-side")
    page.get_by_test_id("checklist-done").click()
    expect(checklist).to_have_count(0)


ACTIVATIONS = ("seat_action", "movie_action", "end_guest")
EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "game-4p.jsonl"


def _until_drawn(table: RemoteTable, p: int = 0) -> None:
    """Play on through the API (pass every turn, draw for player ``p``) until the player's
    draw is done and the drawn guests wait to be seated."""
    while True:
        state = table.state
        if (state.phase == "showings" and state.showings[p].to_draw == 0
                and state.task_for(p) is None and state.pawns_at(P.hand(p))):
            return
        outcomes = state.chance_outcomes(p) if state.phase == "showings" else []
        passes = [m for m in state.legal_moves() if m.kind == "end_turn"]
        table.decide((outcomes or passes or state.legal_moves())[0])


def _seat_as_shown(page: Page, tablet: Tablet, table: RemoteTable, expected: list) -> None:
    """The faded pawns on the seats are ``expected``; one tap seats them all, as one batch
    that one undo takes back."""
    expect(page.get_by_test_id("seat-all-0")).to_be_visible()
    for move in expected:
        if move["move"] == "place":
            seat = page.get_by_test_id(f"seat-0-{move['slot']}-{move['seat']}")
            expect(seat).to_have_attribute("data-shown", str(move["pawn"]))
    before, state = table.count, table.full_state()
    page.get_by_test_id("seat-all-0").click()
    tablet.wait_events(before + len(expected))
    expect(page.get_by_test_id("drawn-0")).to_have_count(0)
    page.get_by_test_id("undo").click()
    assert wait_for(lambda: table.full_state() == state)  # (the mirror only plays forward)
    tablet.wait_events(table.count)
    expect(page.get_by_test_id("seat-all-0")).to_be_visible()


def test_seat_as_shown_with_the_advisors_placement(room: Room, page: Page) -> None:
    """Hints on (the default): the advisor's placement shows on Ana's cinema once her draw is
    done; "Seat them all" sends it as one batch."""
    table = room.table(["Ana", "Bob"], seed=4)
    _until_drawn(table)
    tablet = Tablet(page, room, table).open()
    best = call(f"{room.base}/api/tables/{table.id}/advice?player=0")["best"]["moves"]
    shown = call(f"{room.base}/api/tables/{table.id}/placement?player=0")
    assert shown["hints"] and shown["moves"] == best[:len(shown["moves"])]
    expect(page.get_by_test_id("seat-all-0")).to_be_visible()
    expected = page.get_by_test_id("expected-0")  # the expected gain, hints on
    expect(expected).to_contain_text("Ana")
    if shown["gains"]["money"]:
        expect(expected).to_contain_text(f"+${shown['gains']['money']}")
    tablet.shot("seat-as-shown")
    _seat_as_shown(page, tablet, table, shown["moves"])
    assert shown["then"], "seated guests always have something to do"
    before = table.count
    page.get_by_test_id("seat-play-0").click()  # the placement and the plan, one batch
    tablet.wait_events(before + len(shown["moves"]) + len(shown["then"]))
    played = loads_record(table.get("/record")).moves[before - table.count:]
    assert [m.to_dict() for m in played] == shown["moves"] + shown["then"]


def test_seat_as_shown_with_hints_off_takes_the_first_free_seats(
        room: Room, page: Page) -> None:
    """Hints off at creation: the first free seats in draw order show, and seat with one tap;
    the hints button (with the PIN) turns the advisor back on."""
    info = room.server.create_table({"players": ["Ana", "Bob"], "readers": READERS[:2],
                                     "deal_seed": 4, "hints": False})
    table = RemoteTable(room.base, info, CATALOG)
    table.keep_first_awards()
    _until_drawn(table)
    tablet = Tablet(page, room, table).open()
    shown = call(f"{room.base}/api/tables/{table.id}/placement?player=0")
    assert shown["hints"] is False
    expect(page.get_by_test_id("hints-toggle")).to_contain_text("off")
    expect(page.get_by_test_id("expected-0")).to_have_count(0)  # no advice with hints off
    _seat_as_shown(page, tablet, table, shown["moves"])
    page.get_by_test_id("hints-toggle").click()
    expect(page.get_by_test_id("hints-toggle")).to_contain_text("on")
    assert call(f"{room.base}/api/tables/{table.id}")["hints"] is True
    advised = call(f"{room.base}/api/tables/{table.id}/placement?player=0")["moves"]
    _seat_as_shown(page, tablet, table, advised)


def test_take_the_gains_sends_the_gain_only_activations_and_leaves_the_choice(
        room: Room, page: Page) -> None:
    """Ana's guests seated: one button takes every activation that only gains, as one batch;
    the decision it stops at stays as the usual buttons."""
    table = room.table(["Ana", "Bob"], seed=4)
    _until_drawn(table)
    seating = call(f"{room.base}/api/tables/{table.id}/placement?player=0")["moves"]
    call(f"{room.base}/api/tables/{table.id}/moves", "POST", {"moves": seating})
    gains = call(f"{room.base}/api/tables/{table.id}/gains?player=0")["moves"]
    assert gains
    tablet = Tablet(page, room, table).open()
    button = page.get_by_test_id("gains-0")
    expect(button).to_be_visible()
    says_what_it_sends(button, page.get_by_test_id("gains-what-0"), "Take the gains")
    tablet.shot("take-the-gains")
    before = table.count
    button.click()
    tablet.wait_events(before + len(gains))
    assert table.count == before + len(gains)
    expect(page.get_by_test_id("gains-0")).to_have_count(0)
    assert call(f"{room.base}/api/tables/{table.id}/gains?player=0")["moves"] == []
    view = call(f"{room.base}/api/tables/{table.id}")["view"]
    left = [m for m in view["legal"] if m["player"] == 0 and m["move"] in ACTIVATIONS]
    if left:  # the choice it stopped at: the usual buttons, one per way to act
        expect(page.get_by_test_id("moves-0").locator("button.move")).to_have_count(len(left))


GAIN = re.compile(r"^(\+\$\d|\+\d popcorn|Audience \+1|Draw award|Ad: |Exit zone → bag|"
                  r"Guest to reserve|Draw a guest to a seat)")
"""How the words of an activation's action start (labels.js, ``actionLabel``)."""


def says_what_it_sends(button, words, name: str) -> None:
    """A batch button shows what it sends on its face, as a touch screen needs (issue 22,
    item 9): the actions its moves take, the same words as its title, not a move count."""
    expect(words).to_be_visible()
    title = button.get_attribute("title") or ""
    assert title.startswith(f"{name}: "), title
    expect(words).to_have_text(title.removeprefix(f"{name}: "))
    assert GAIN.match(words.inner_text()), words.inner_text()


NUMBERED = """() => [...document.querySelectorAll('button')].filter((b) => b.offsetParent !== null)
  .map((b) => b.innerText).filter((text) => /#\\d/.test(text))"""


def test_buttons_name_what_tells_them_apart_and_never_a_pawn_number(
        room: Room, page: Page) -> None:
    """Drawn guests of one color share one "send to the exit zone" button; activation buttons
    name the guest by color and letter and its theater; no button shows a pawn number, and no
    two of a player's buttons read the same."""
    table = room.table(["Ana", "Bob"], seed=4)
    _until_drawn(table)
    seating = call(f"{room.base}/api/tables/{table.id}/placement?player=0")["moves"]
    call(f"{room.base}/api/tables/{table.id}/moves", "POST", {"moves": seating[:1]})
    tablet = Tablet(page, room, table).open()
    hand = table.state.pawns_at(P.hand(0))
    exits = page.get_by_test_id("moves-0").locator('button[data-kind="to_exit"]')
    assert len(hand) > len({table.state.pawn_color[p] for p in hand})  # look-alikes drawn
    expect(exits).to_have_count(len({table.state.pawn_color[p] for p in hand}))
    expect(exits.first).to_contain_text("drawn")
    assert page.evaluate(NUMBERED) == []
    call(f"{room.base}/api/tables/{table.id}/moves", "POST", {"moves": seating[1:]})
    tablet.wait_events(table.count)
    buttons = page.get_by_test_id("moves-0").locator("button.move:not(.pick)")
    expect(buttons.first).to_be_visible()
    texts = [b.inner_text() for b in buttons.all()]
    assert len(texts) == len(set(texts)), texts
    assert len(texts) <= 8, texts  # choices of a guest share their action's words
    for button in buttons.all():  # the guest's pawn (its letter), its theater, what it does
        if button.get_attribute("data-kind") in ACTIVATIONS:
            text, title = button.inner_text(), button.get_attribute("title") or ""
            assert re.match(r"^\s*[WBGRY]\s*(left|center|right) · ", text), text
            assert re.search(r"\b(white W|blue B|green G|red R|yellow Y) guest, "
                             r"(left|center|right) theater", title), title
    assert page.evaluate(NUMBERED) == []
    tablet.shot("buttons-named")


FITS = """() => [document.documentElement.scrollHeight, innerHeight,
  ...['market', 'now', 'cinema-0', 'cinema-1', 'cinema-2', 'cinema-3'].map((id) => {
    const box = document.querySelector(`[data-testid="${id}"]`).getBoundingClientRect();
    return box.bottom <= innerHeight && box.right <= innerWidth; })]"""


def test_four_cinemas_the_market_and_the_next_step_fit_a_tablet(room: Room, page: Page) -> None:
    """At 1280x800, a 4-player table in the Showings, guests drawn: every cinema, the
    market panel and the side panel are on screen without scrolling."""
    info = room.server.create_table({"players": ["Ana", "Bob", "Chloe", "Dev"],
                                     "readers": [*READERS, "bag-4"], "deal_seed": 8})
    table = RemoteTable(room.base, info, CATALOG)
    table.keep_first_awards()
    _until_drawn(table)
    Tablet(page, room, table).open()
    expect(page.get_by_test_id("seat-all-0")).to_be_visible()
    height, inner, *inside = page.evaluate(FITS)
    save_shots(page, "four-cinemas")
    assert height <= inner and all(inside), (height, inside)


def room_base(table: RemoteTable) -> str:
    """The API root of ``table``."""
    return f"{table.base}/api/tables/{table.id}"


def _all_seated(table: RemoteTable, record: Record, round_: int) -> None:
    """Enter ``record``'s moves by the API up to the Showings of round ``round_``, then each
    player's moves of that Showings up to their first guest's action: every guest drawn and
    seated, every cinema with guests to act and their move buttons."""
    def enter(move: Move) -> None:  # the setup's deals need the PIN, awards a token
        if move.kind in ("keep_award", "draw_award"):
            table.decide(move)
        else:
            call(f"{room_base(table)}/moves", "POST",
                 {"move": move.to_dict(), "pin": table.info["pin"]})
    moves = list(record.moves)
    while not (table.state.phase == "showings" and table.state.round == round_):
        enter(moves.pop(0))
    acting: set[int | None] = {None}  # a move of no player comes after the Showings
    for move in moves:
        if move.player in acting:
            continue
        if move.kind in ACTIVATIONS:
            acting.add(move.player)
        else:
            enter(move)


def test_four_cinemas_with_their_guests_buttons_fit_a_tablet(room: Room, page: Page) -> None:
    """At 1280x800, the example game in the Showings of round 5, every guest seated: the
    four cinemas, each with its guests' move buttons (a choice of guests as one button per
    guest), are on screen without scrolling: a guest of the last cinema is not a scroll
    away (bench/taps.py counts such scrolls)."""
    record = loads_record(EXAMPLE.read_text(encoding="utf-8"))
    info = room.server.create_table({"players": list(record.names),
                                     "readers": [*READERS, "bag-4"],
                                     "first_player": record.first_player})
    table = RemoteTable(room.base, info, CATALOG)
    _all_seated(table, record, 5)
    Tablet(page, room, table).open()
    for p in range(4):
        expect(page.get_by_test_id(f"moves-{p}").locator("button").first).to_be_visible()
    buttons = page.locator(".moves button").count()
    height, inner, *inside = page.evaluate(FITS)
    save_shots(page, "four-cinemas-acting")
    assert buttons >= 20, buttons  # a full table: four rows of guests' moves
    assert height <= inner and all(inside), (height, inside, buttons)


def _pawn_choice(state):
    """A legal move of a group that differs only by a pawn of another color, or None."""
    groups: dict = {}
    for move in state.legal_moves():
        if move.pawn is not None and move.kind != "place":
            key = (move.kind, move.player, move.slot, move.seat, move.index, move.target)
            groups.setdefault(key, []).append(move)
    for moves in groups.values():
        if len({state.pawn_color[m.pawn] for m in moves}) > 1:
            return moves
    return None


def test_a_choice_of_guests_is_one_tap_on_the_guest(room: Room, page: Page) -> None:
    """Moves that differ only by the guest they pick show their action's words once, then a
    button per guest (its pawn and where it is, the whole sentence as its name): one tap on
    a guest makes that move, with no list to open first."""
    table = room.table(["Ana", "Bob", "Chloe"], seed=5)
    players = room.players(table, seed=5)
    choice = None
    while choice is None:
        assert play_step(players, None), "the game ended before a choice of guests came"
        choice = _pawn_choice(table.state)
    tablet = Tablet(page, room, table).open()
    assert page.locator('[data-act="open-group"]').count() == 0
    pick = page.locator(".moves .guest-pick").first
    expect(pick).to_be_visible()
    guests = pick.locator("button.move.pick")
    assert guests.count() >= 2
    for n in range(guests.count()):  # a pawn (its letter) and a place, named in full
        guest = guests.nth(n)
        expect(guest.locator(".dot")).to_have_count(1)
        assert guest.locator("small").inner_text().strip(), guest.inner_html()
        assert "guest" in (guest.get_attribute("aria-label") or ""), guest.inner_html()
    tablet.shot("choice-of-guests")
    sent = json.loads(guests.first.get_attribute("data-move") or "null")
    before = table.count
    guests.first.click()
    tablet.wait_events(before + 1)
    assert loads_record(table.get("/record")).moves[-1].to_dict() == sent


def test_a_tap_on_a_seat_seats_the_guest_shown_there_then_play_as_suggested(
        room: Room, page: Page) -> None:
    """With nothing tapped first, a tap on a seat that shows a faded guest seats that guest
    (one tap instead of two); once all are seated, "Play as suggested" sends the advisor's
    plan for them as one batch."""
    table = room.table(["Ana", "Bob"], seed=4)
    _until_drawn(table)
    tablet = Tablet(page, room, table).open()
    shown = call(f"{room.base}/api/tables/{table.id}/placement?player=0")["moves"]
    first = next(m for m in shown if m["move"] == "place")
    seat = page.get_by_test_id(f"seat-0-{first['slot']}-{first['seat']}")
    expect(seat).to_have_attribute("data-shown", str(first["pawn"]))
    before = table.count
    seat.click()
    tablet.wait_events(before + 1)
    assert table.state.occupant(0, first["slot"], first["seat"]) == first["pawn"]
    left = len(table.state.pawns_at(P.hand(0)))
    if left:
        before = table.count
        page.get_by_test_id("seat-all-0").click()
        tablet.wait_events(before + left)


def _until_a_plan_beyond_the_gains(base: str, table: RemoteTable) -> list:
    """Play on through the API (Ana seats as shown and plays as suggested; everyone buys
    what they can, else takes their first move) until Ana's suggestion makes a choice that
    "Take the gains" cannot."""
    route = f"{base}/api/tables/{table.id}"
    while True:
        state = table.state
        assert not state.is_over, "no plan beyond the gains in a whole game"
        ready = state.phase == "showings" and state.task_for(0) is None
        if ready and state.showings[0].to_draw == 0 and state.pawns_at(P.hand(0)):
            call(f"{route}/moves", "POST", {"moves": call(f"{route}/placement?player=0")["moves"]})
            continue
        plan = call(f"{route}/suggestion?player=0")["moves"] if ready else []
        if plan and plan != call(f"{route}/gains?player=0")["moves"]:
            return plan
        if plan:
            call(f"{route}/moves", "POST", {"moves": plan})
            continue
        legal = state.legal_moves()
        buys = [m for m in legal if m.kind in ("buy_movie", "buy_theater")]
        passes = [m for m in legal if m.kind == "end_turn"]
        table.decide((state.chance_outcomes() or buys or passes or legal)[0])


def test_play_as_suggested_sends_the_advisors_plan_for_the_seated_guests(
        room: Room, page: Page) -> None:
    """Hints on, Ana's guests seated: "Play as suggested" shows the advisor's plan when it
    goes beyond the gains, and sends it as one batch."""
    table = room.table(["Ana", "Bob"], seed=4)
    plan = _until_a_plan_beyond_the_gains(room.base, table)
    tablet = Tablet(page, room, table).open()
    button = page.get_by_test_id("suggestion-0")
    says_what_it_sends(button, page.get_by_test_id("suggestion-what-0"), "Play as suggested")
    tablet.shot("play-as-suggested")
    before = table.count
    button.click()
    tablet.wait_events(before + len(plan))
    played = loads_record(table.get("/record")).moves[-len(plan):]
    assert [m.to_dict() for m in played] == plan


def test_a_color_tap_fills_the_next_free_seat(room: Room, page: Page) -> None:
    """Seating its own way, a table taps one color per seat in seat order: the color's
    button seats a drawn guest of that color in the first free seat, one tap per guest; with
    the last free seat taken, the other drawn guests go to the exit zone in the same batch."""
    table = room.table(["Ana", "Bob"], seed=4)
    _until_drawn(table)
    tablet = Tablet(page, room, table).open()
    state = table.state
    while places := sorted((m for m in state.legal_moves(0) if m.kind == "place"),
                           key=lambda m: (m.slot, m.seat)):
        slot, seat = places[0].slot, places[0].seat
        colors = sorted({state.pawn_color[m.pawn] for m in places
                         if (m.slot, m.seat) == (slot, seat)})
        color = colors[-1]  # not always the guest shown there
        expect(page.get_by_test_id(f"seat-0-{slot}-{seat}")).to_have_class(
            re.compile(r"\bnext-seat-target\b"))  # the seat the colors fill is marked
        for other in colors:
            expect(page.get_by_test_id(f"next-seat-0-{other}")).to_be_visible()
        before = table.count
        page.get_by_test_id(f"next-seat-0-{color}").click()
        tablet.wait_events(before + 1)
        state = table.state
        assert state.pawn_color[state.occupant(0, slot, seat)] == color
    expect(page.get_by_test_id("next-seat-0")).to_have_count(0)
    # the last seat's tap also sent the guests left to the exit zone, as the rules do
    assert state.pawns_at(P.hand(0)) == []


def test_a_batch_refused_in_the_middle_changes_nothing_on_the_table_screen(
        room: Room, page: Page) -> None:
    """A stale "Seat all" (a placement whose second move is no longer legal, as when the
    table changed since it was shown) is refused whole: the side panel says which move of how
    many was refused, and the game and the drawn guests are as before."""
    table = room.table(["Ana", "Bob"], seed=4)
    _until_drawn(table)
    url = f"{room.base}/api/tables/{table.id}/placement?player=0"
    answer = call(url)
    hand = table.state.pawns_at(P.hand(0))
    first = answer["moves"][0]  # made twice: the second time its guest is gone
    stale = {**answer, "moves": [first, dict(first), *answer["moves"][1:]], "then": []}
    page.route(f"**/api/tables/{table.id}/placement?player=0",  # the placement, stale
               lambda route: route.fulfill(json=stale))
    tablet = Tablet(page, room, table).open()
    before, state = table.count, table.full_state()
    page.get_by_test_id("seat-all-0").click()
    refusal = page.get_by_test_id("refusal")
    expect(refusal).to_contain_text(f"2 of {len(stale['moves'])}")
    tablet.shot("batch-refused")
    assert table.count == before and table.full_state() == state
    assert table.state.pawns_at(P.hand(0)) == hand
    expect(page.get_by_test_id("drawn-0").locator("button.handpawn")).to_have_count(len(hand))
