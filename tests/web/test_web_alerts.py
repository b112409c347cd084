"""Alerts and the PIN on the table screen, on a real ``serve`` in Chromium: a banner never
takes a move back; Dismiss is the table's (no device, no reload, no restart shows the alert
again); the correction dialog (a guest by color and place, or tapped on a reader, or filled
in from a banner); Enter in every PIN dialog sends the PIN; a request that needs the PIN asks
for it first, so none is refused for the lack of it."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from companion.games.popcorn.engine import GameState, Move
from companion.games.popcorn.engine import pawns as P
from companion.games.popcorn.remote import RemoteTable
from tests.waiting import wait_for
from tests.web.room import CATALOG, SHOTS, TABLET, Room, Tablet, call, save_shots, watch_csp
from tests.web.test_web_bmovies import create_by_api, open_tablet, phase, play_to_the_end
from tests.web.test_web_i18n import card_titles
from tests.web.untranslated import foreign_texts, visible_texts


def hub_state(table: RemoteTable) -> GameState:
    """The hub's whole game (``/state``; a table with a correction has no record)."""
    return GameState.from_dict(CATALOG, table.full_state())


def log(room: Room, table: RemoteTable) -> int:
    """How many events the table's log holds (public)."""
    return call(f"{room.base}/api/tables/{table.id}")["events"]


def end_buying(table: RemoteTable) -> None:
    """Every player ends their Buying turn (through the API): the Showings begin."""
    while hub_state(table).phase == "buying":
        table.decide(Move("end_turn", player=hub_state(table).current))


def tap_and_wait(room: Room, table: RemoteTable, reader: str, pawn: int) -> None:
    """Tap a pawn on a reader and wait until the hub has logged the tap."""
    before = log(room, table)
    room.bank.tap(reader, room.uids[pawn])
    assert wait_for(lambda: log(room, table) > before, timeout=15)


def new_page(browser: Browser, errors: list[str]) -> Page:
    """A tablet page in a context of its own (its own localStorage: another device)."""
    page = browser.new_context(viewport=TABLET).new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    watch_csp(page, errors)
    return page


def open_without_pin(page: Page, room: Room, table: RemoteTable) -> None:
    """The table screen on a device that does not know the table PIN."""
    page.goto(f"{room.base}/table/{table.id}")
    page.wait_for_function("(id) => window.popcornLoaded === id", arg=table.id)


def refused_for_pin(page: Page) -> list[str]:
    """Every response the page gets refused with 403 (a PIN it did not send), and every
    console message of one, from now on."""
    seen: list[str] = []
    page.on("response", lambda r: r.status == 403 and seen.append(f"{r.request.method} {r.url}"))
    page.on("console", lambda m: "403" in m.text and seen.append(m.text))
    return seen


def _refused_tap(room: Room, table: RemoteTable) -> int:
    """In the Showings, Ana draws a guest (a good move), then taps the same guest again: a
    refused tap, an alert. Returns the guest."""
    end_buying(table)
    pawn = hub_state(table).pawns_at(P.bag(0))[0]
    tap_and_wait(room, table, "bag-1", pawn)  # a draw
    tap_and_wait(room, table, "bag-1", pawn)  # the same guest again: refused
    return pawn


def test_an_alert_banner_never_takes_a_move_back(room: Room, page: Page) -> None:
    """A refused tap is no move, so its banner has no Undo (which took back Ana's good
    draw, whose guest is still out on the table). Its Dismiss leaves the draw made."""
    table = room.table(["Ana", "Bob", "Chloe"], seed=2)
    tablet = Tablet(page, room, table).open()
    pawn = _refused_tap(room, table)
    banner = page.get_by_test_id("alert")
    expect(banner).to_have_attribute("data-code", "PAWN_NOT_IN_BAG")
    expect(banner.locator('[data-act="undo"]')).to_have_count(0)
    expect(banner.get_by_role("button", name="Undo")).to_have_count(0)
    tablet.shot("alert-banner")
    events = log(room, table)
    banner.get_by_role("button", name="Dismiss").click()
    expect(page.get_by_test_id("alert")).to_have_count(0)
    assert wait_for(lambda: log(room, table) == events + 1)  # handled: one event, no undo
    assert hub_state(table).loc[pawn] == P.hand(0)  # Ana's draw stands
    expect(page.get_by_test_id(f"hand-{pawn}")).to_be_visible()


def test_a_dismissed_alert_stays_away_on_every_device_and_after_a_restart(
        room: Room, page: Page, browser: Browser) -> None:
    """Dismiss is the table's: a second tablet drops the banner live; after a reload, on a
    third device, and after the hub restarts, no screen shows that alert again (a new one
    shows)."""
    table = room.table(["Ana", "Bob", "Chloe"], seed=2)
    Tablet(page, room, table).open()
    errors: list[str] = []
    other = new_page(browser, errors)
    open_without_pin(other, room, table)
    pawn = _refused_tap(room, table)
    for screen in (page, other):
        expect(screen.get_by_test_id("alert")).to_have_count(1)
    page.get_by_test_id("alert").get_by_role("button", name="Dismiss").click()
    expect(page.get_by_test_id("alert")).to_have_count(0)
    expect(other.get_by_test_id("alert")).to_have_count(0)  # the handled push
    assert call(f"{room.base}/api/tables/{table.id}")["alerts"] == []
    third = new_page(browser, errors)
    open_without_pin(third, room, table)
    screens = (page, other, third)

    def reloaded() -> None:
        for screen in screens:
            screen.reload()
            screen.wait_for_function("(id) => window.popcornLoaded === id", arg=table.id)
            expect(screen.get_by_test_id("cinema-0")).to_be_visible()
            expect(screen.get_by_test_id("alert")).to_have_count(0)

    reloaded()
    room.server.kill()
    room.server.start()
    reloaded()
    tap_and_wait(room, table, "bag-1", pawn)  # a new alert shows; the old one stays away
    for screen in screens:
        expect(screen.get_by_test_id("alert")).to_have_count(1)
    other.context.close()
    third.context.close()
    assert errors == []


def _color_not_in_bag(room: Room) -> tuple[RemoteTable, int]:
    """A 3-player table where Bob taps his blue guests into his bag at setup (so the hub knows
    each by its tag); Ana draws every blue guest of her bag, then one more blue, one of Bob's:
    an alert whose fix is to correct its place. Returns the table and that guest."""
    table = room.table(["Ana", "Bob", "Chloe"], seed=2, keep_awards=False)
    state = hub_state(table)
    bobs = [q for q in state.pawns_at(P.bag(1)) if state.pawn_color[q] == "blue"]
    for pawn in bobs:
        tap_and_wait(room, table, "bag-2", pawn)  # filling the bag at setup
    table.keep_first_awards()
    end_buying(table)
    state = hub_state(table)
    for pawn in [q for q in state.pawns_at(P.bag(0)) if state.pawn_color[q] == "blue"]:
        tap_and_wait(room, table, "bag-1", pawn)
    tap_and_wait(room, table, "bag-1", bobs[0])
    return table, bobs[0]


def test_an_alerts_correct_its_place_opens_the_dialog_filled_in(room: Room, page: Page) -> None:
    """"Correct its place (PIN)" is a button on the banner: the dialog opens with the guest
    (its disc and color word, never a number) and Ana's bag chosen; one tap on Correct, the
    PIN asked first and sent with Enter. The guest is in Ana's bag, the alert handled, and a
    tap of it again is a draw."""
    table, blue = _color_not_in_bag(room)
    tablet = Tablet(page, room, table).open()
    page.evaluate("localStorage.clear()")
    banner = page.get_by_test_id("alert")
    expect(banner).to_have_attribute("data-code", "COLOR_NOT_IN_BAG")
    banner.get_by_test_id("alert-correct").click()
    dialog = page.get_by_test_id("fix-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_test_id("fix-guest")).to_have_attribute("data-pawn", str(blue))
    expect(dialog.get_by_test_id("fix-guest")).to_contain_text("blue B guest")
    expect(dialog.get_by_test_id("fix-guest")).to_contain_text("Bob's bag")
    expect(dialog.get_by_test_id("fix-to-bag0")).to_have_attribute("aria-pressed", "true")
    save_shots(page, "correction-from-alert")
    dialog.get_by_test_id("fix-send").click()
    page.locator("#pin-input").fill(table.info["pin"])
    page.locator("#pin-input").press("Enter")
    expect(dialog).to_be_hidden()
    expect(page.get_by_test_id("alert")).to_have_count(0)
    assert hub_state(table).loc[blue] == P.bag(0)
    assert call(f"{room.base}/api/tables/{table.id}")["alerts"] == []
    tap_and_wait(room, table, "bag-1", blue)
    assert hub_state(table).loc[blue] == P.hand(0)
    tablet.wait_events(log(room, table))
    expect(page.get_by_test_id(f"hand-{blue}")).to_be_visible()


def test_the_correction_dialog_by_color_and_place_or_by_a_tap(room: Room, page: Page) -> None:
    """Header **Correct**: a color, where the companion has such a guest (with counts), where
    it really is, Correct: one guest of that color moves (a ``correct`` event). Then a guest
    tapped on a reader while the dialog waits for it: that tap is not played, the dialog
    names the guest, and it goes to the reserve."""
    table = room.table(["Ana", "Bob", "Chloe"], seed=2)
    tablet = Tablet(page, room, table).open()
    state = hub_state(table)
    color = next(c for c in ("white", "blue", "green", "red", "yellow")
                 if any(state.pawn_color[q] == c for q in state.pawns_at(P.exit_zone(1))))

    def count(at: GameState, zone: int) -> int:
        return sum(at.pawn_color[q] == color for q in at.pawns_at(zone))

    exit_before, bag_before = count(state, P.exit_zone(1)), count(state, P.bag(0))
    page.get_by_test_id("correct").click()
    dialog = page.get_by_test_id("fix-dialog")
    expect(dialog.get_by_test_id("fix-send")).to_be_disabled()
    dialog.get_by_test_id(f"fix-color-{color}").click()
    expect(dialog.get_by_test_id("fix-from-exit1")).to_contain_text(
        f"Bob's exit zone ({exit_before})")
    dialog.get_by_test_id("fix-from-exit1").click()
    dialog.get_by_test_id("fix-to-bag0").click()
    save_shots(page, "correction-by-color")
    events = log(room, table)
    dialog.get_by_test_id("fix-send").click()
    expect(dialog).to_be_hidden()
    after = hub_state(table)
    assert count(after, P.exit_zone(1)) == exit_before - 1
    assert count(after, P.bag(0)) == bag_before + 1
    assert log(room, table) == events + 1

    page.get_by_test_id("correct").click()
    dialog.get_by_test_id("fix-tap").click()
    expect(dialog.get_by_test_id("fix-waiting")).to_be_visible()
    pawn = after.pawns_at(P.bag(1))[0]
    moved = dict(after.to_dict())
    tap_and_wait(room, table, "bag-2", pawn)
    expect(dialog.get_by_test_id("fix-guest")).to_have_attribute("data-pawn", str(pawn))
    expect(dialog.get_by_test_id("fix-note")).to_contain_text("Bob's reader")
    assert hub_state(table).to_dict() == moved  # the tap was not played
    dialog.get_by_test_id("fix-to-reserve").click()
    dialog.get_by_test_id("fix-send").click()
    expect(dialog).to_be_hidden()
    assert hub_state(table).loc[pawn] == P.RESERVE
    tablet.shot("correction-done")


def test_enter_in_every_pin_dialog_sends_the_pin(room: Room, page: Page) -> None:
    """On a device that does not know the PIN, Enter (a tablet keyboard's Go) in the PIN
    dialog of Undo, Hints, Phones, the correction dialog and Export sends the PIN: each
    request is made, none is cancelled."""
    table = room.table(["Ana", "Bob", "Chloe"], seed=2)
    open_without_pin(page, room, table)

    def enter_pin(pin: str = table.info["pin"]) -> None:
        expect(page.locator("#pin-dialog")).to_be_visible()
        page.locator("#pin-input").fill(pin)
        page.locator("#pin-input").press("Enter")
        expect(page.locator("#pin-dialog")).to_be_hidden()

    def forget() -> None:
        page.evaluate("localStorage.clear()")

    table.decide(Move("end_turn", player=hub_state(table).current))
    current = hub_state(table).current
    page.get_by_test_id("undo").click()
    enter_pin()
    assert wait_for(lambda: hub_state(table).current != current)  # taken back
    end_buying(table)  # the Hints button is the Showings'
    forget()
    page.get_by_test_id("hints-toggle").click()
    enter_pin()
    expect(page.get_by_test_id("hints-toggle")).to_contain_text("off")
    forget()
    page.get_by_test_id("phones").click()
    page.get_by_test_id("qr-seat-1").click()
    enter_pin()
    expect(page.get_by_test_id("phone-qr-1")).to_be_visible()
    page.get_by_test_id("qr-close").click()
    forget()
    page.get_by_test_id("correct").click()
    dialog = page.get_by_test_id("fix-dialog")
    dialog.get_by_test_id("fix-color-white").click()
    dialog.locator('[data-fix="from"]').first.click()
    dialog.get_by_test_id("fix-to-reserve").click()
    events = log(room, table)
    dialog.get_by_test_id("fix-send").click()
    enter_pin()
    expect(dialog).to_be_hidden()
    assert log(room, table) == events + 1

    api = create_by_api(room.server, ["Ana", "Bob", "Chloe"])  # a game quick to finish
    play_to_the_end(api)
    open_tablet(page, api, with_pin=False)
    phase(page, "over")
    with page.expect_download() as download:
        page.get_by_test_id("export-record").click()
        enter_pin(api.pin)
    assert Path(download.value.path()).read_text(encoding="utf-8").strip()


def test_a_request_that_needs_the_pin_asks_for_it_before_it_goes_out(
        room: Room, browser: Browser) -> None:
    """No request is refused for a PIN the device did not send: on a device that does not
    know it, a setup card reported by hand, Undo and Hints each ask for the PIN first (the
    OK button this time), then go out once, with it; the PIN is kept for the next ones
    (Phones, a correction). The page sees no 403 and the console shows none."""
    errors: list[str] = []
    info = room.server.create_table({"players": ["Ana", "Bob"], "readers": ["bag-1", "bag-2"]})
    table = RemoteTable(room.base, info, CATALOG)
    page = new_page(browser, errors)
    refused = refused_for_pin(page)
    open_without_pin(page, room, table)
    move = hub_state(table).chance_outcomes()[0]
    page.get_by_test_id(f"search-{move.kind}").fill(CATALOG.movies[move.card].title[:4])
    page.get_by_test_id(f"chance-{move.kind}-{move.card}").first.click()
    expect(page.locator("#pin-dialog")).to_be_visible()
    page.locator("#pin-input").fill(info["pin"])
    page.locator("#pin-ok").click()
    assert wait_for(lambda: log(room, table) >= 1)
    assert refused == []
    page.evaluate("localStorage.clear()")
    page.get_by_test_id("undo").click()
    expect(page.locator("#pin-dialog")).to_be_visible()
    page.locator("#pin-input").fill(info["pin"])
    page.locator("#pin-ok").click()
    assert wait_for(lambda: log(room, table) == 2)  # the report and its undo
    assert refused == []
    dealt = RemoteTable(room.base, room.server.create_table(  # other readers: A keeps its own
        {"players": ["Ana", "Bob"], "readers": ["pad-1", "pad-2"], "deal_seed": 2}), CATALOG)
    dealt.keep_first_awards()
    end_buying(dealt)
    open_without_pin(page, room, dealt)
    page.get_by_test_id("hints-toggle").click()
    expect(page.locator("#pin-dialog")).to_be_visible()
    page.locator("#pin-input").fill(dealt.info["pin"])
    page.locator("#pin-ok").click()
    expect(page.get_by_test_id("hints-toggle")).to_contain_text("off")
    page.get_by_test_id("phones").click()
    page.get_by_test_id("qr-seat-0").click()
    expect(page.get_by_test_id("phone-qr-0")).to_be_visible()
    page.get_by_test_id("qr-close").click()
    page.get_by_test_id("correct").click()
    dialog = page.get_by_test_id("fix-dialog")
    dialog.get_by_test_id("fix-color-white").click()
    dialog.locator('[data-fix="from"]').first.click()
    dialog.get_by_test_id("fix-to-reserve").click()
    dialog.get_by_test_id("fix-send").click()
    expect(dialog).to_be_hidden()
    expect(page.locator("#pin-dialog")).to_be_hidden()
    assert refused == []
    page.context.close()
    assert errors == []


@pytest.mark.parametrize("lang", ["fr", "de", "ja"])
def test_the_banner_and_the_correction_dialog_speak_the_devices_language(
        room: Room, browser: Browser, lang: str) -> None:
    """In French, German and Japanese the banner's buttons and the correction dialog (filled
    in from the banner, then by color) hold no English word (names and card titles aside)."""
    errors: list[str] = []
    table, _ = _color_not_in_bag(room)
    page = new_page(browser, errors)
    page.add_init_script(f"localStorage.setItem('popcorn:lang', '{lang}');")
    page.goto(f"{room.base}/setup")
    page.evaluate("([id, pin]) => localStorage.setItem(`popcorn:pin:${id}`, pin)",
                  [table.id, table.info["pin"]])
    open_without_pin(page, room, table)
    page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
    names = ["Ana", "Bob", "Chloe", table.info["name"], "Popcorn", "Companion", *card_titles()]
    page.get_by_test_id("alert-correct").click()
    dialog = page.get_by_test_id("fix-dialog")
    expect(dialog.get_by_test_id("fix-guest")).to_be_visible()
    page.screenshot(path=str(SHOTS / f"correction-{lang}-alert.png"), full_page=True)
    assert foreign_texts(visible_texts(page), lang, names) == []
    dialog.get_by_test_id("fix-other").click()
    dialog.get_by_test_id("fix-color-blue").click()
    dialog.get_by_test_id("fix-tap").click()
    expect(dialog.get_by_test_id("fix-waiting")).to_be_visible()
    page.screenshot(path=str(SHOTS / f"correction-{lang}-color.png"), full_page=True)
    assert foreign_texts(visible_texts(page), lang, names) == []
    dialog.get_by_test_id("fix-cancel").click()
    expect(dialog).to_be_hidden()
    page.context.close()
    assert errors == []
