"""Each player plays their own turn from their phone (issue 24, point 5), in a real browser
(Debian's Chromium and Playwright) with a real hub process (``serve``) and virtual bag
readers on pseudo-terminals.

A phone offers its player's seating (Seat and play, Seat all), their activations (Take the
gains, Skip the rest), the slot of a card they just bought and their other moves (ads, end of
turn); each goes with the phone's token through the same routes and batches as the tablet, and the
tablet shows it live. A phone's request about another player's guest is refused
(``403 WRONG_TOKEN``) with nothing changed, and the phone never offers one. Screenshots at
phone size go to ``artifacts/screenshots/``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from companion.games.popcorn.engine import pawns as P
from companion.games.popcorn.record import loads_record
from companion.games.popcorn.remote import RemoteTable
from companion.kit.http import HttpError
from tests.web.room import PHONE, SHOTS, Room, Tablet, call, play_step, small_targets, watch_csp
from tests.web.test_web_cards import enroll_cards, tap_card
from tests.web.untranslated import foreign_texts

NAMES = ["Ana", "Bob"]


@pytest.fixture
def phones(browser: Browser) -> Iterator[list[Page]]:
    """One phone-sized page per player, failing the test on a script error or a CSP
    violation."""
    contexts, pages, errors = [], [], []
    for _ in NAMES:
        context = browser.new_context(viewport=PHONE, has_touch=True)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        watch_csp(page, errors)
        contexts.append(context)
        pages.append(page)
    yield pages
    for context in contexts:
        context.close()
    assert errors == [], errors


def open_phone(page: Page, room: Room, table: RemoteTable, seat: int) -> Page:
    """Open seat ``seat``'s phone link and wait until it shows the player's cinema."""
    page.goto(f"{room.base}/phone/{table.id}/{seat}#token={table.info['tokens'][seat]}")
    expect(page.get_by_test_id("phone-cinema")).to_be_visible(timeout=15000)
    expect(page.get_by_test_id("phone-name")).to_have_text(NAMES[seat])
    return page


def shot(page: Page, name: str) -> None:
    """The phone's whole page at phone size, with every control a finger's size."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    assert small_targets(page) == [], name


def until_everyone_drew(table: RemoteTable) -> None:
    """Play on through the API (every turn passed) until every player's draw is done and
    their drawn guests wait to be seated."""
    while True:
        state = table.state
        if state.phase == "showings":
            drawing = [p for p in range(state.n) if state.showings[p].to_draw
                       and state.task_for(p) is None]
            if not drawing and all(state.pawns_at(P.hand(p)) for p in range(state.n)):
                return
            if drawing:
                table.decide(state.chance_outcomes(drawing[0])[0])
                continue
        passes = [m for m in state.legal_moves() if m.kind == "end_turn"]
        table.decide((passes or state.chance_outcomes() or state.legal_moves())[0])


def offered(page: Page) -> list[dict[str, Any]]:
    """Every move the phone's turn panel offers on a button (look-alikes included)."""
    texts = page.locator("[data-testid='phone-play'] [data-same]").evaluate_all(
        "(buttons) => buttons.map((b) => b.dataset.same)")
    return [move for text in texts for move in json.loads(text)]


def post_as(table: RemoteTable, seat: int, body: dict[str, Any]) -> HttpError:
    """POST ``body`` to the table's moves with seat ``seat``'s token: it must be refused."""
    with pytest.raises(HttpError) as refused:
        call(f"{table.base}/api/tables/{table.id}/moves", "POST", body,
             {"X-Player-Token": table.info["tokens"][seat]})
    return refused.value


def tablet_shows_cinema(page: Page, table: RemoteTable, player: int) -> None:
    """Every seat of ``player``'s cinema on the tablet holds the guest the hub has there
    (a guest that acted and left shows no more)."""
    state = table.state
    for slot in range(3):
        theater = state.players[player].theaters[slot]
        for n in range(state.catalog.theater(theater).seats if theater else 0):
            seat = page.get_by_test_id(f"seat-{player}-{slot}-{n}")
            pawn = state.occupant(player, slot, n)
            seated = seat.locator(".dot[data-pawn]:not(.ghost)")
            if pawn is None:
                expect(seated).to_have_count(0)
            else:
                expect(seated).to_have_attribute("data-pawn", str(pawn))


def seated_on_tablet(page: Page, moves: list[dict[str, Any]]) -> None:
    """The tablet shows each placed guest in its seat (not as the faded proposal)."""
    for move in moves:
        if move["move"] == "place":
            seat = page.get_by_test_id(f"seat-{move['player']}-{move['slot']}-{move['seat']}")
            expect(seat.locator(f".dot[data-pawn='{move['pawn']}']:not(.ghost)")).to_be_visible()


def test_a_phone_seats_and_plays_its_own_turn_and_the_tablet_shows_it(
        room: Room, page: Page, phones: list[Page]) -> None:
    """Both players have drawn: Ana's phone shows her placement, guest by guest, and only
    hers; Seat and play sends the placement and the advisor's plan as one batch with her
    token, and the tablet shows her guests seated at once. Bob's phone still offers his."""
    table = room.table(NAMES, seed=4)
    until_everyone_drew(table)
    tablet = Tablet(page, room, table).open()
    ana, bob = (open_phone(p, room, table, seat) for seat, p in enumerate(phones))
    shown = call(f"{room.base}/api/tables/{table.id}/placement?player=0")
    assert shown["moves"] and shown["then"], "seated guests have something to do"
    seating = ana.get_by_test_id("phone-seating")
    expect(seating).to_be_visible()
    for move in shown["moves"]:  # each guest, its disc and where it goes, in words
        row = ana.get_by_test_id(f"phone-place-{move['pawn']}")
        expect(row.locator(f".dot[data-pawn='{move['pawn']}']")).to_be_visible()
        expect(row).to_contain_text("exit zone" if move["move"] == "to_exit"
                                    else f"theater, seat {move['seat'] + 1}")
    for pawn in table.state.pawns_at(P.hand(1)):  # Bob's guests are not on Ana's phone
        expect(ana.get_by_test_id(f"phone-place-{pawn}")).to_have_count(0)
    expect(ana.get_by_test_id("phone-seat-play")).to_contain_text("then ")
    expect(ana.get_by_test_id("phone-turn")).to_contain_text("Showings: your turn")
    expect(bob.get_by_test_id("phone-seat-all")).to_be_visible()
    assert all(m["player"] == 0 for m in offered(ana))
    shot(ana, "phone-seat-and-play")
    before = table.count
    ana.get_by_test_id("phone-seat-play").click()
    tablet.wait_events(before + len(shown["moves"]) + len(shown["then"]))
    played = loads_record(table.get("/record")).moves[-len(shown["moves"]) - len(shown["then"]):]
    assert [m.to_dict() for m in played] == shown["moves"] + shown["then"]
    tablet_shows_cinema(page, table, 0)  # live on the tablet, from the state push
    expect(page.get_by_test_id("drawn-0")).to_have_count(0)
    expect(ana.get_by_test_id("phone-seating")).to_have_count(0)
    expect(bob.get_by_test_id("phone-seat-all")).to_be_visible()  # Bob's turn is his own
    tablet.shot("phone-seat-and-play-tablet")


def test_at_a_table_whose_advisor_plays_on_a_phones_seat_and_play_goes_on(
        room: Room, page: Page, phones: list[Page]) -> None:
    """The table turns **The advisor plays on** on (the PIN): Bob's phone sends his Seat and
    play with ``go_on`` and his token, and the hub answers as it does the tablet."""
    table = room.table(NAMES, seed=4)
    until_everyone_drew(table)
    set_it = call(f"{room.base}/api/tables/{table.id}/hints", "POST",
                  {"hints": True, "play_on": True, "pin": table.info["pin"]})
    assert set_it["play_on"] is True
    bob = open_phone(phones[1], room, table, 1)
    button = bob.get_by_test_id("phone-seat-play")
    expect(button).to_be_visible()
    with bob.expect_request(lambda r: r.url.endswith("/moves") and r.method == "POST") as sent:
        button.click()
    body = sent.value.post_data_json
    assert body["go_on"] is True
    assert sent.value.headers["x-player-token"] == table.info["tokens"][1]
    assert {m["player"] for m in body["moves"]} == {1}
    expect(bob.get_by_test_id("phone-seating")).to_have_count(0)  # the hub took it
    view = call(f"{room.base}/api/tables/{table.id}")["view"]
    assert set(view["playing_on"]) <= {1}  # Bob's advice, if a step cut his plan


def test_a_phone_seats_all_then_takes_the_gains(
        room: Room, page: Page, phones: list[Page]) -> None:
    """Ana's phone seats her guests as shown (Seat all), then Take the gains sends every
    gain-only activation as one batch; the button says what it takes before the tap. Bob's
    phone, in French, offers his seating with no English word left."""
    table = room.table(NAMES, seed=4)
    until_everyone_drew(table)
    tablet = Tablet(page, room, table).open()
    ana = open_phone(phones[0], room, table, 0)
    bob = phones[1]
    bob.add_init_script("localStorage.setItem('popcorn:lang', 'fr');")
    bob.goto(f"{room.base}/phone/{table.id}/1#token={table.info['tokens'][1]}")
    expect(bob.get_by_test_id("phone-seat-all")).to_contain_text("Tous les placer")
    panel = bob.get_by_test_id("phone-play").inner_text()
    assert foreign_texts([panel], "fr", NAMES) == [], panel
    shown = call(f"{room.base}/api/tables/{table.id}/placement?player=0")["moves"]
    before = table.count
    ana.get_by_test_id("phone-seat-all").click()
    tablet.wait_events(before + len(shown))
    seated_on_tablet(page, shown)
    gains = call(f"{room.base}/api/tables/{table.id}/gains?player=0")["moves"]
    assert gains
    button = ana.get_by_test_id("phone-gains")
    expect(button).to_be_visible()
    expect(ana.get_by_test_id("phone-gains-what")).to_have_text(
        page.get_by_test_id("gains-what-0").inner_text())  # the tablet's words
    shot(ana, "phone-take-the-gains")
    money = table.state.players[0].money
    before = table.count
    button.click()
    tablet.wait_events(before + len(gains))
    played = loads_record(table.get("/record")).moves[-len(gains):]
    assert [m.to_dict() for m in played] == gains
    expect(ana.get_by_test_id("phone-gains")).to_have_count(0)
    expect(page.get_by_test_id("gains-0")).to_have_count(0)
    expect(ana.get_by_test_id("phone-money")).to_have_text(f"${table.state.players[0].money}")
    assert table.state.players[0].money >= money
    assert all(m["player"] == 0 for m in offered(ana))


def test_a_phone_skips_the_rest_of_its_cinema(
        room: Room, page: Page, phones: list[Page]) -> None:
    """Once the players are seated, the phone of one with two guests or more to act offers
    Skip the rest, saying how many guests it ends; one tap ends them all as one batch with
    that player's token, and the tablet shows that cinema emptied."""
    table = room.table(NAMES, seed=4)
    players = room.players(table, seed=4)

    def rests() -> list[list[dict[str, Any]]]:
        return [call(f"{room.base}/api/tables/{table.id}/rest?player={seat}")["moves"]
                for seat in range(2)]
    while max(len(r) for r in rests()) < 2:  # play on until a cinema has two guests to act
        assert play_step(players, None)
    now = rests()
    seat = max(range(2), key=lambda s: len(now[s]))
    rest = now[seat]
    tablet = Tablet(page, room, table).open()
    phone = open_phone(phones[seat], room, table, seat)
    other = open_phone(phones[1 - seat], room, table, 1 - seat)
    if len(now[1 - seat]) < 2:  # one guest: its own "done" button does it
        expect(other.get_by_test_id("phone-skip-rest")).to_have_count(0)
    button = phone.get_by_test_id("phone-skip-rest")
    expect(phone.get_by_test_id("phone-skip-rest-what")).to_have_text(
        f"{len(rest)} guests end their turn")
    shot(phone, "phone-skip-the-rest")
    before, recorded = table.count, len(loads_record(table.get("/record")).moves)
    button.click()
    tablet.wait_events(before + len(rest))
    played = loads_record(table.get("/record")).moves[recorded:recorded + len(rest)]
    assert [m.to_dict() for m in played] == rest  # (the deals of a round's end may follow)
    expect(phone.get_by_test_id("phone-skip-rest")).to_have_count(0)
    tablet_shows_cinema(page, table, seat)
    assert not any(m.player == seat and m.kind == "end_guest"
                   for m in table.state.legal_moves())


def test_a_phone_moves_its_just_placed_card_and_shows_a_refusal(
        room: Room, page: Page, phones: list[Page]) -> None:
    """On her turn Ana's phone offers her moves (End turn), Bob's nothing. Ana taps a movie
    on her bag's reader: her phone (not Bob's) offers the other slot, and one tap moves the
    card there, live on the tablet. A tap that reaches the hub after the table moved on is
    refused with the hub's sentence on the phone; nothing changes."""
    enroll_cards(room)
    table = room.table(NAMES, seed=4)
    tablet = Tablet(page, room, table).open()
    ana, bob = (open_phone(p, room, table, seat) for seat, p in enumerate(phones))
    state = table.state
    assert (state.phase, state.current) == ("buying", 0)
    expect(ana.locator("[data-testid='phone-moves'] [data-kind='end_turn']")).to_be_visible()
    expect(bob.get_by_test_id("phone-play")).to_be_hidden()  # not Bob's turn: nothing
    card = next(m.card for m in state.legal_moves() if m.kind == "buy_movie")
    tap_card(room, tablet, "bag-1", "movie", card)
    choice = ana.get_by_test_id("phone-choice")
    expect(choice).to_contain_text(table.state.catalog.movies[card].title)
    placed = next(k for k in range(3) if table.state.players[0].movies[k] == card)
    other = next(k for k in (0, 1) if k != placed)  # the two slots with a theater
    expect(ana.get_by_test_id(f"phone-choice-{placed}")).to_have_count(0)
    expect(bob.get_by_test_id("phone-choice")).to_have_count(0)
    shot(ana, "phone-card-slot")
    before = table.count
    ana.get_by_test_id(f"phone-choice-{other}").click()
    tablet.wait_events(before + 1)
    expect(page.get_by_test_id(f"just-placed-0-{other}")).to_be_visible()
    assert table.state.players[0].movies[other] == card
    buys = [m for m in loads_record(table.get("/record")).moves if m.kind == "buy_movie"]
    assert buys[-1].to_dict() == {"move": "buy_movie", "player": 0, "card": card, "slot": other}

    def stale(route: Route) -> None:  # the table moves on first: the choice is gone
        call(f"{room.base}/api/tables/{table.id}/moves", "POST",
             {"move": {"move": "end_turn", "player": table.state.current}})
        route.continue_()

    ana.route(f"**/api/tables/{table.id}/choice", stale)
    back = ana.get_by_test_id(f"phone-choice-{placed}")
    back.click()
    error = ana.get_by_test_id("phone-move-error")
    expect(error).to_contain_text("NO_CHOICE")
    expect(error).to_contain_text("No card waits in a slot")
    assert table.state.players[0].movies[other] == card  # the refusal changed nothing
    expect(page.get_by_test_id("card-choice")).to_have_count(0)
    expect(ana.get_by_test_id("phone-choice")).to_have_count(0)
    shot(ana, "phone-refused")


def test_a_phone_may_not_move_another_players_guest(
        room: Room, page: Page, phones: list[Page]) -> None:
    """Ana's token may not seat Bob's drawn guest, alone or in a batch, nor make his guests
    act once seated: 403 WRONG_TOKEN, and the table is as before. Ana's phone never offers a
    move of Bob's."""
    table = room.table(NAMES, seed=4)
    until_everyone_drew(table)
    tablet = Tablet(page, room, table).open()
    ana = open_phone(phones[0], room, table, 0)
    expect(ana.get_by_test_id("phone-seating")).to_be_visible()
    bobs = call(f"{room.base}/api/tables/{table.id}/placement?player=1")["moves"]
    before, state = table.count, table.full_state()
    refused = post_as(table, 0, {"move": bobs[0]})
    assert (refused.status, refused.code) == (403, "WRONG_TOKEN")
    assert "Bob's" in refused.message
    refused = post_as(table, 0, {"moves": bobs})
    assert (refused.status, refused.code) == (403, "WRONG_TOKEN")
    assert table.count == before and table.full_state() == state
    assert all(m["player"] == 0 for m in offered(ana))
    bob_hand = table.state.pawns_at(P.hand(1))
    for pawn in bob_hand:
        expect(ana.get_by_test_id(f"phone-place-{pawn}")).to_have_count(0)
    call(f"{room.base}/api/tables/{table.id}/moves", "POST", {"moves": bobs})  # the tablet
    tablet.wait_events(before + len(bobs))
    acting = [m for m in table.state.legal_moves() if m.player == 1]
    assert acting, "Bob's seated guests act"
    before, state = table.count, table.full_state()
    refused = post_as(table, 0, {"move": acting[0].to_dict()})
    assert (refused.status, refused.code) == (403, "WRONG_TOKEN")
    assert table.count == before and table.full_state() == state
    expect(ana.get_by_test_id("phone-seating")).to_be_visible()  # Ana's own turn waits
    assert all(m["player"] == 0 for m in offered(ana))
