"""Bag audits on a real ``serve`` in Chromium, with virtual bag readers: the tablet's Bag
heading starts one, the pawns are tapped on the reader, the panel shows the counts and the
differences live, and one tap accepts the fixes. A phone audits its own bag the same way;
the end-of-round checklist offers to check every bag after a round with an alert."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from companion.games.popcorn.engine import pawns as P
from tests.waiting import wait_for
from tests.web.room import (
    PHONE,
    READERS,
    SHOTS,
    TABLET,
    Room,
    Tablet,
    call,
    play_step,
    shown,
    watch_csp,
)
from tests.web.test_web_alerts import end_buying, hub_state, log, tap_and_wait
from tests.web.test_web_bmovies import Api, new_page, open_phone, open_tablet, phase


def count_clicks(page: Page) -> None:
    """From now on, ``window.tapsSeen`` lists every click the page takes, by the tapped
    element's test id."""
    page.evaluate("""() => { window.tapsSeen = [];
      document.addEventListener('click', (e) => {
        const el = e.target.closest('[data-testid]');
        window.tapsSeen.push(el ? el.dataset.testid : e.target.tagName); }, true); }""")


def test_a_draw_the_reader_missed_is_found_and_mended_in_three_taps(room: Room, page: Page) -> None:
    """Open Cinema: one of Ana's guests is drawn past the reader. Her audit, started on the
    Bag heading, counts the pawns as she taps them (never drawing them), names the missing
    guest once she says the bag is done, and Accept draws it: three taps on the tablet beyond
    the pawns."""
    table = room.table(["Ana", "Bob", "Chloe"], seed=2)
    tablet = Tablet(page, room, table).open()
    end_buying(table)
    bag = hub_state(table).pawns_at(P.bag(0))
    tap_and_wait(room, table, "bag-1", bag[0])  # a draw the hub heard
    hidden = bag[1]  # drawn past the reader
    tablet.wait_events(log(room, table))
    count_clicks(page)
    page.get_by_test_id("audit-start-0").click()
    panel = page.get_by_test_id("audit")
    expect(panel).to_be_visible()
    for pawn in bag[2:]:
        tap_and_wait(room, table, "bag-1", pawn)
    expect(page.get_by_test_id("audit-taps")).to_contain_text(str(len(bag) - 2))
    assert hub_state(table).pawns_at(P.hand(0)) == [bag[0]]  # audit taps drew nothing
    color = hub_state(table).pawn_color[hidden]
    expect(page.get_by_test_id(f"audit-count-{color}")).to_have_class(re.compile("off"))
    # one guest is missing: no fix is offered before the table says the bag is done
    expect(page.get_by_test_id("audit-accept")).to_be_disabled()
    expect(page.get_by_test_id("audit-found")).to_have_count(0)
    page.get_by_test_id("audit-done").click()
    found = page.get_by_test_id("audit-found").locator("li")
    expect(found).to_have_count(1)
    expect(found).to_have_attribute("data-code", "AUDIT_NOT_TAPPED_DRAWN")
    accept = page.get_by_test_id("audit-accept")
    expect(accept).to_have_text("Accept 1 fix")
    tablet.shot("audit-missed-draw")
    accept.click()
    expect(panel).to_have_count(0)
    expect(page.get_by_test_id(f"hand-{hidden}")).to_be_visible()
    assert hub_state(table).loc[hidden] == P.hand(0)
    taps = page.evaluate("window.tapsSeen")
    assert taps == ["audit-start-0", "audit-done", "audit-accept"], taps


def test_an_audit_asks_before_it_fixes_and_an_empty_bag_is_confirmed(
        room: Room, page: Page, browser: Browser) -> None:
    """Issue 38, item 2: an audit just started offers no fix (Accept is disabled, no
    difference is listed), on the tablet and on the player's phone. "Bob's bag is done" with
    nothing tapped asks whether the bag is really empty; No keeps tapping, Yes ends the
    tapping, and only then do the fixes appear, each in words, for Accept."""
    table = room.table(["Ana", "Bob", "Chloe"], seed=4)
    Tablet(page, room, table).open()
    errors: list[str] = []
    phone = browser.new_context(viewport=PHONE).new_page()
    phone.on("pageerror", lambda exc: errors.append(str(exc)))
    phone.goto(f"{room.base}/phone/{table.id}/1#token={table.info['tokens'][1]}")
    shown(phone, "phone-cinema")
    phone.get_by_test_id("phone-audit-start").click()
    for screen in (phone, page):
        expect(screen.get_by_test_id("audit-accept")).to_be_disabled()
        expect(screen.get_by_test_id("audit-accept")).to_have_text("Accept")
        expect(screen.get_by_test_id("audit-found")).to_have_count(0)
        expect(screen.get_by_test_id("audit-waiting")).to_be_visible()
    bag = len(hub_state(table).pawns_at(P.bag(1)))
    page.get_by_test_id("audit-done").click()
    question = page.get_by_test_id("audit-empty")
    expect(question).to_contain_text(
        f"is Bob's bag really empty? The companion would take its {bag} guests")
    page.get_by_test_id("audit-empty-no").click()
    expect(question).to_have_count(0)
    assert call(f"{room.base}/api/tables/{table.id}/audits/current")["done"] is False
    page.get_by_test_id("audit-done").click()
    page.get_by_test_id("audit-empty-yes").click()
    expect(page.get_by_test_id("audit-accept")).to_be_enabled()
    fixes = call(f"{room.base}/api/tables/{table.id}/audits/current")["report"]["fixes"]
    assert fixes, "an empty bag's audit proposes its fixes once it is done"
    expect(page.get_by_test_id("audit-accept")).to_contain_text(f"Accept {len(fixes)} fix")
    expect(page.get_by_test_id("audit-found").locator("li.fix")).to_have_count(len(fixes))
    expect(phone.get_by_test_id("audit-accept")).to_be_enabled()
    page.get_by_test_id("audit-drop").click()
    expect(page.get_by_test_id("audit")).to_have_count(0)
    phone.context.close()
    assert errors == [], errors


def test_a_phone_audits_its_own_bag_and_the_tablet_follows(
        room: Room, page: Page, browser: Browser) -> None:
    """Bob checks his bag from his phone: the phone and the tablet show the audit live; a
    clean bag says so, and Bob's Done ends it on both."""
    table = room.table(["Ana", "Bob", "Chloe"], seed=2)
    Tablet(page, room, table).open()
    errors: list[str] = []
    phone = browser.new_context(viewport=PHONE).new_page()
    phone.on("pageerror", lambda exc: errors.append(str(exc)))
    watch_csp(phone, errors)
    phone.goto(f"{room.base}/phone/{table.id}/1#token={table.info['tokens'][1]}")
    shown(phone, "phone-cinema")
    bag = hub_state(table).pawns_at(P.bag(1))
    assert len(bag) == 10  # a whole starting bag
    count_clicks(phone)
    phone.get_by_test_id("phone-audit-start").click()
    shown(phone, "audit")
    expect(page.get_by_test_id("audit")).to_have_attribute("data-player", "1")
    for pawn in bag:
        tap_and_wait(room, table, "bag-2", pawn)
    expect(phone.get_by_test_id("audit-clean")).to_be_visible()
    expect(page.get_by_test_id("audit-clean")).to_be_visible()
    phone.screenshot(path=str(SHOTS / "phone-audit-clean.png"))
    phone.get_by_test_id("audit-accept").click()
    expect(phone.get_by_test_id("audit")).to_have_count(0)
    expect(page.get_by_test_id("audit")).to_have_count(0)
    expect(phone.get_by_test_id("phone-audit-start")).to_be_visible()
    taps = phone.evaluate("window.tapsSeen")
    assert taps == ["phone-audit-start", "audit-accept"], taps  # 2 taps beyond the 10 pawns
    assert errors == [], errors


def test_the_round_checklist_offers_every_bag_after_an_alert(room: Room, page: Page) -> None:
    """A refused tap in round 1: the end-of-round checklist offers "Check every bag", which
    starts the first player's audit."""
    table = room.table(["Ana", "Bob", "Chloe"], seed=3)
    tablet = Tablet(page, room, table).open()
    pawn = hub_state(table).pawns_at(P.bag(0))[0]
    tap_and_wait(room, table, "bag-1", pawn)  # no draw is expected in Buying: an alert
    assert call(f"{room.base}/api/tables/{table.id}")["view"]["alert_rounds"] == [1]
    alert = call(f"{room.base}/api/tables/{table.id}")["alerts"][0]["id"]
    call(f"{room.base}/api/tables/{table.id}/alerts/{alert}/dismiss", "POST", {})
    players = room.players(table, seed=3)
    while table.state.round == 1:
        assert play_step(players, None)
    tablet.wait_events()
    offer = page.get_by_test_id("checklist-audit")
    expect(offer).to_be_visible()
    offer.click()
    first = hub_state(table).first_player
    expect(page.get_by_test_id("audit")).to_have_attribute("data-player", str(first))
    assert wait_for(lambda: call(f"{room.base}/api/tables/{table.id}/audits/current")["then"] != [])


def test_a_b_movies_pile_audit_keeps_the_values_on_the_phone(room: Room, browser: Browser) -> None:
    """Bob draws a 3 that his pad misses (the token is in his pile, the hub has it in the
    bucket). He checks his pile from his phone: the phone names the 3, the tablet only says
    one token more than expected, and one Accept draws it; the value never shows on the
    tablet."""
    errors: list[str] = []
    admin = {"admin_pin": room.server.admin_pin}
    call(f"{room.base}/api/enroll", "POST", {**admin, "tokens": 3})
    uid = "04dd0000000001"
    room.bank.tap("bag-1", uid)
    assert room.bank.wait_acked(10)
    call(f"{room.base}/api/enroll", "DELETE", admin)
    info = room.server.create_table({"players": ["Ana", "Bob", "Chloe"], "readers": READERS,
                                     "game": "b-movies"})
    api = Api(room.base, info["id"], info["pin"], info["tokens"])
    tablet = new_page(browser, TABLET, errors)
    open_tablet(tablet, api)
    phase(tablet, "pitch")
    api.move({"move": "pitch", "player": 0, "cards": 2})
    for seat in (1, 2):
        api.move({"move": "vote", "player": seat, "vote": "no"}, seat)
    phase(tablet, "draw")
    bob = open_phone(browser, api, 1, errors)
    bob.get_by_test_id("phone-audit-start").click()
    expect(tablet.get_by_test_id("audit")).to_have_attribute("data-player", "1")
    room.bank.tap("bag-2", uid)  # the token in his pile, missed by the pad: an audit tap
    expect(bob.get_by_test_id("audit-count-3")).to_contain_text("1/0")
    expect(tablet.get_by_test_id("audit-count-tokens")).to_contain_text("1/0")
    panel = (tablet.get_by_test_id("audit").inner_text()
             + tablet.get_by_test_id("audit-report").inner_text())
    assert "3" not in panel.replace("Bob", ""), panel  # no value on the tablet
    assert api.view()["players"][1]["owed"] == 1  # the audit tap drew nothing
    bob.get_by_test_id("audit-accept").click()
    expect(tablet.get_by_test_id("bm-tokens-1")).to_have_text("1", timeout=15000)
    expect(bob.get_by_test_id("bm-my-tokens")).to_have_attribute("data-values", "3")
    assert api.view()["players"][1]["owed"] == 0
    tablet.context.close()
    bob.context.close()
    assert errors == [], errors
