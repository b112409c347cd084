"""The table's shortcuts on a real ``serve`` in Chromium with virtual bag readers: "Seat and
play — everyone" (one batch for every player, refused whole when one move fails, undone
whole), "Seat all — everyone" (every waiting player as shown), "Skip the rest", a tap on a
later guest, and every shortcut saying what it will do before it is tapped, on a touch
screen that has no hover."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, Route, expect

from companion.games.popcorn.engine import pawns as P
from companion.games.popcorn.engine.moves import move_from_dict
from companion.kit.http import call as http_call
from tests.waiting import wait_for
from tests.web.room import TABLET, Room, Tablet, call, play_step, watch_csp
from tests.web.test_web_alerts import end_buying, hub_state, log, tap_and_wait


def draw_everyone(room: Room, table) -> None:
    """Every player draws their whole audience on their reader."""
    for p in range(hub_state(table).n):
        for _ in range(hub_state(table).showings[p].to_draw):
            pawn = hub_state(table).pawns_at(P.bag(p))[0]
            tap_and_wait(room, table, f"bag-{p + 1}", pawn)


def drawn_table(room: Room, page: Page):
    """A 3-player table (seed 2) in its first Showings once everyone has drawn, and its
    tablet, caught up."""
    table = room.table(["Ana", "Bob", "Chloe"], seed=2)
    tablet = Tablet(page, room, table).open()
    end_buying(table)
    draw_everyone(room, table)
    tablet.wait_events(log(room, table))
    return table, tablet


def hand_sizes(table) -> list[int]:
    state = hub_state(table)
    return [len(state.pawns_at(P.hand(p))) for p in range(state.n)]


def test_seat_and_play_everyone_is_one_batch(room: Room, page: Page) -> None:
    """Once everyone has drawn, one button seats every player's guests as the advisor
    suggests and plays their plans; a batch whose move for a later player fails is refused
    whole (nothing changed); sent again it goes through, and one Undo takes it all back."""
    table, tablet = drawn_table(room, page)
    button = page.get_by_test_id("seat-play-all")
    expect(button).to_be_visible()
    for p in range(3):  # what it will do, in words, before the tap
        expect(page.get_by_test_id(f"everyone-plan-{p}")).to_contain_text("seated")
    before = hub_state(table).to_dict()
    events = log(room, table)

    def spoil(route: Route) -> None:  # Bob seats a guest his own way just before the batch
        bob = next(m for m in hub_state(table).legal_moves()
                   if m.player == 1 and m.kind in ("place", "to_exit"))
        http_call(f"{room.base}/api/tables/{table.id}/moves", "POST", {"move": bob.to_dict()})
        route.continue_()

    page.route("**/moves", spoil)
    button.click()
    refusal = page.get_by_test_id("refusal")
    expect(refusal).to_be_visible()
    page.unroute("**/moves")
    assert log(room, table) == events + 1  # Bob's own move only: the batch changed nothing
    state = hub_state(table)
    assert len(state.pawns_at(P.hand(0))) == len(before["players"][0]["hand"])
    undo_pin = {"X-Table-Pin": table.info["pin"]}
    call(f"{room.base}/api/tables/{table.id}/undo", "POST", {}, undo_pin)  # Bob takes it back
    assert wait_for(lambda: hub_state(table).to_dict() == before)
    tablet.wait_events(log(room, table))
    expect(button).to_be_visible()
    button.click()
    assert wait_for(lambda: hand_sizes(table) == [0, 0, 0])
    tablet.wait_events(log(room, table))
    expect(page.get_by_test_id("seat-play-all")).to_have_count(0)
    page.get_by_test_id("undo").click()
    assert wait_for(lambda: hub_state(table).to_dict() == before)  # one Undo, the whole batch


def test_seat_all_everyone_seats_every_waiting_player_as_shown(room: Room, page: Page) -> None:
    """Two players have drawn, the third still draws: one button seats both waiting players'
    guests where the faded pawns show them (and names them first), leaves the third alone,
    and one Undo takes both back."""
    table = room.table(["Ana", "Bob", "Chloe"], seed=2)
    tablet = Tablet(page, room, table).open()
    end_buying(table)
    for p in range(2):
        for _ in range(hub_state(table).showings[p].to_draw):
            tap_and_wait(room, table, f"bag-{p + 1}", hub_state(table).pawns_at(P.bag(p))[0])
    tablet.wait_events(log(room, table))
    expect(page.get_by_test_id("seat-play-all")).to_have_count(0)  # Chloe still draws
    button = page.get_by_test_id("seat-all-everyone")
    expect(button).to_be_visible()
    who = page.get_by_test_id("seating-all-who")
    expect(who).to_contain_text("Ana")
    expect(who).to_contain_text("Bob")
    expect(who).not_to_contain_text("Chloe")
    shown = [call(f"{room.base}/api/tables/{table.id}/placement?player={p}")["moves"]
             for p in range(2)]
    before, chloe = hub_state(table).to_dict(), hand_sizes(table)[2]
    button.click()
    assert wait_for(lambda: hand_sizes(table)[:2] == [0, 0])
    assert hand_sizes(table)[2] == chloe
    state = hub_state(table)
    for moves in shown:
        for m in moves:
            if m["move"] == "place":
                assert state.occupant(m["player"], m["slot"], m["seat"]) == m["pawn"]
    tablet.wait_events(log(room, table))
    expect(button).to_have_count(0)
    page.get_by_test_id("undo").click()
    assert wait_for(lambda: hub_state(table).to_dict() == before)  # one Undo, both players


def test_skip_the_rest_ends_every_guest_still_to_act(room: Room, page: Page) -> None:
    """"Skip the rest" ends the turn of every guest of that cinema still to act, at once,
    and says how many on its face; the other cinemas go on."""
    table = room.table(["Ana", "Bob", "Chloe"], seed=2)
    tablet = Tablet(page, room, table).open()
    players = room.players(table, seed=2)

    def to_skip() -> tuple[int, list] | None:
        if hub_state(table).phase != "showings":
            return None
        for p in range(3):
            moves = call(f"{room.base}/api/tables/{table.id}/rest?player={p}")["moves"]
            if len(moves) >= 2:
                return p, moves
        return None

    found = to_skip()
    while found is None:  # play on until a cinema has two guests or more still to act
        assert play_step(players, None)
        found = to_skip()
    p, moves = found
    assert all(m["move"] == "end_guest" and m["player"] == p for m in moves)
    tablet.wait_events(log(room, table))
    skip = page.get_by_test_id(f"skip-rest-{p}")
    expect(skip).to_be_visible()
    expect(skip).to_contain_text(f"({len(moves)})")  # how many guests it ends, on its face
    said = f"Skip the rest: {len(moves)} guests end their turn"
    expect(skip).to_have_attribute("aria-label", said)
    events = log(room, table)
    skip.click()
    assert wait_for(lambda: log(room, table) >= events + len(moves))  # one batch

    def done() -> bool:
        legal = hub_state(table).legal_moves()
        return not any(m.player == p and m.kind == "end_guest" for m in legal)
    assert wait_for(done)


def still_acting(state, p: int, moves: list) -> bool:
    """Whether player ``p`` still has a guest to act after ``moves`` (so that the cinema
    stays open on the screen, its seats in sight)."""
    trial = state.clone()
    for move in moves:
        trial.apply(move_from_dict(move))
    return any(m.kind in ("seat_action", "movie_action", "end_guest")
               for m in trial.legal_moves(p))


def test_a_tap_on_a_later_guest_ends_the_ones_before_it(room: Room, page: Page) -> None:
    """Once a player is seated, a tap on a guest further down the line ends the turn of the
    guests due before it and plays its one-way seat action, as one batch that one Undo takes
    back whole."""
    table = room.table(["Ana", "Bob", "Chloe"], seed=2)
    tablet = Tablet(page, room, table).open()
    players = room.players(table, seed=2)

    def later_guest() -> tuple[int, int, int, list] | None:
        state = hub_state(table)
        if state.phase != "showings":
            return None
        for p in range(3):
            for slot in range(3):
                for seat in range(9):
                    answer = call(f"{room.base}/api/tables/{table.id}/reach?player={p}"
                                  f"&slot={slot}&seat={seat}")
                    ends = [m for m in answer["moves"] if m["move"] == "end_guest"]
                    if ends and answer["moves"][-1]["move"] == "seat_action" \
                            and still_acting(state, p, answer["moves"]):
                        return p, slot, seat, answer["moves"]
        return None

    found = later_guest()
    while found is None:  # play on until a tap on a seated guest would end one before it
        assert play_step(players, None)
        found = later_guest()
    p, slot, seat, moves = found
    tablet.wait_events(log(room, table))
    start = hub_state(table)
    before, events = start.to_dict(), log(room, table)
    expected = start.clone()
    for move in moves:
        expected.apply(move_from_dict(move))
    page.get_by_test_id(f"seat-{p}-{slot}-{seat}").click()
    assert wait_for(lambda: hub_state(table).to_dict() == expected.to_dict())  # all of it
    tablet.wait_events(log(room, table))
    assert log(room, table) > events
    page.get_by_test_id("undo").click()
    assert wait_for(lambda: hub_state(table).to_dict() == before)  # one Undo, the whole batch


def test_every_shortcut_shows_its_plan_without_hover(room: Room, browser: Browser) -> None:
    """On a touch screen (no hover), each shortcut says what it sends on its face: Seat and
    play — everyone lists every player's guests and gains, Seat and play its gains, Take the
    gains and Play as suggested their gains; and the board marks the seats the plan uses."""
    table = room.table(["Ana", "Bob", "Chloe"], seed=2)
    context = browser.new_context(viewport=TABLET, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    watch_csp(page, errors)
    tablet = Tablet(page, room, table).open()
    end_buying(table)
    draw_everyone(room, table)
    tablet.wait_events(log(room, table))
    expect(page.get_by_test_id("seat-play-all")).to_be_visible()
    for p in range(3):
        plan = page.get_by_test_id(f"everyone-plan-{p}")
        expect(plan).to_be_visible()
        assert plan.inner_text().strip()
    placement = call(f"{room.base}/api/tables/{table.id}/placement?player=0")
    ghosts = page.locator("[data-testid^='seat-0-'][data-shown]")
    seated = [m for m in placement["moves"] if m["move"] == "place"]
    expect(ghosts).to_have_count(len(seated))  # the seats it fills
    acting = [m for m in placement["then"] if m["move"] in ("seat_action", "movie_action")]
    if acting:  # Seat and play: its gains on its face, its acting seats numbered on the board
        expect(page.get_by_test_id("seat-play-what-0")).to_be_visible()
        first = acting[0]
        mark = page.get_by_test_id(f"plan-0-{first['slot']}-{first['seat']}")
        expect(mark).to_have_text("1")
    page.get_by_test_id("seat-all-0").tap()
    assert wait_for(lambda: not hub_state(table).pawns_at(P.hand(0)))
    tablet.wait_events(log(room, table))
    for shortcut in ("gains", "suggestion"):
        button = page.get_by_test_id(f"{shortcut}-0")
        if button.count():
            what = page.get_by_test_id(f"{shortcut}-what-0")
            expect(what).to_be_visible()
            assert what.inner_text().strip()
    context.close()
    assert errors == [], errors


def test_the_advisor_plays_on_when_the_table_turns_it_on(room: Room, page: Page) -> None:
    """**Plays on** (with the PIN) turns the table's setting on; then "Seat and play —
    everyone" goes with ``go_on``, and the side panel names the players the advisor plays
    on for, as the hub has them."""
    table, tablet = drawn_table(room, page)
    toggle = page.get_by_test_id("play-on-toggle")
    for on in (True, False, True):  # each tap turns the table's setting over
        toggle.click()
        expect(toggle).to_have_attribute("aria-pressed", str(on).lower())
        assert call(f"{room.base}/api/tables/{table.id}")["play_on"] is on
    with page.expect_request(lambda r: r.url.endswith("/moves") and r.method == "POST") as sent:
        page.get_by_test_id("seat-play-all").click()
    assert sent.value.post_data_json["go_on"] is True
    assert len(sent.value.post_data_json["moves"]) > 3
    tablet.wait_events(log(room, table))
    playing = call(f"{room.base}/api/tables/{table.id}")["view"]["playing_on"]
    words = page.get_by_test_id("playing-on")
    if playing:  # a plan cut by a draw: the advisor waits for it, and says for whom
        for p in playing:
            expect(words).to_contain_text(["Ana", "Bob", "Chloe"][p])
    else:
        expect(words).to_have_count(0)
