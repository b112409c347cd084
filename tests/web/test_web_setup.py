"""The setup screen, a setup entered by hand, the phones and the demo, in a real browser."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from playwright.sync_api import Browser, Page, expect

from companion.games.popcorn.remote import RemoteTable
from companion.kit.http import HttpError
from companion.readers.broker import free_port
from tests.waiting import wait_for
from tests.web.qr import qr_texts
from tests.web.room import (
    CATALOG,
    PHONE,
    TABLET,
    Room,
    Tablet,
    call,
    save_shots,
    watch_csp,
)


def new_page(browser: Browser, viewport: dict, errors: list[str]) -> Page:
    """A page in its own context (its own localStorage), script errors and Content
    Security Policy violations collected."""
    page = browser.new_context(viewport=viewport).new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    watch_csp(page, errors)
    return page


def test_set_up_a_three_player_table_on_the_setup_screen(room: Room, browser: Browser) -> None:
    """Names, seat order, first player, a reader per bag, "deal for us", hints off: the table
    the hub creates is the one the form shows, the PIN is shown once, and each phone has a
    link."""
    errors: list[str] = []
    page = new_page(browser, TABLET, errors)
    page.goto(f"{room.base}/setup")
    page.get_by_test_id("add-player").click()
    for k, name in enumerate(["Chloe", "Ana", "Bob"]):
        page.get_by_test_id(f"player-name-{k}").fill(name)
        page.get_by_test_id(f"player-reader-{k}").select_option(f"bag-{k + 1}")
    page.get_by_test_id("move-up-1").click()  # Ana before Chloe: seat order Ana, Chloe, Bob
    page.get_by_test_id("first-player-2").check()
    expect(page.get_by_test_id("deal-for-us")).to_be_checked()
    expect(page.get_by_test_id("hints")).to_be_checked()  # seating hints: on by default
    page.get_by_test_id("hints").uncheck()
    save_shots(page, "setup")
    page.get_by_test_id("create-table").click()
    pin = page.get_by_test_id("created-pin")
    expect(pin).to_have_text(re.compile(r"^\d{6}$"))
    tables = call(f"{room.base}/api/tables")
    assert len(tables) == 1
    table = tables[0]
    assert table["players"] == ["Ana", "Chloe", "Bob"]
    assert table["readers"] == ["bag-2", "bag-1", "bag-3"]
    assert table["first_player"] == 2 and table["deal_for_us"]
    assert call(f"{room.base}/api/tables/{table['id']}")["hints"] is False
    state = call(f"{room.base}/api/tables/{table['id']}/state",
                 headers={"X-Table-Pin": pin.inner_text()})
    assert state["events"] > 0
    links = []
    for k in range(3):
        href = page.get_by_test_id(f"phone-link-{k}").get_attribute("href") or ""
        assert href.startswith(f"/phone/{table['id']}/{k}#token=")
        links.append(room.base + href)
    check_qr_codes(page, room, table["id"], links, ["Ana", "Chloe", "Bob"])
    save_shots(page, "setup-created")
    page.get_by_test_id("open-table").click()
    expect(page.get_by_test_id("cinema-2")).to_contain_text("Bob")
    assert page.url.endswith(f"/table/{table['id']}")
    assert errors == []


def check_qr_codes(page: Page, room: Room, table_id: str, links: list[str],
                   names: list[str]) -> None:
    """Every QR code on the page reads as a phone link, each under its player's name, and
    each opens its own player's private view."""
    assert sorted(qr_texts(page)) == sorted(links)
    for k, (link, name) in enumerate(zip(links, names, strict=True)):
        figure = page.get_by_test_id(f"phone-qr-{k}")
        expect(figure.locator("figcaption")).to_have_text(name)
        assert figure.locator("img").bounding_box()["width"] >= 200  # scanned from a chair
        assert qr_texts(figure) == [link]
        token = link.split("#token=")[1]
        private = call(f"{room.base}/api/tables/{table_id}/players/{k}/private",
                       headers={"X-Player-Token": token})
        assert private["name"] == name


def test_the_table_shows_a_players_qr_code_again_with_a_new_token(room: Room,
                                                                  browser: Browser) -> None:
    """"Phones" on the table screen, then "New link" for Bob: the tablet knows the PIN, the
    hub gives Bob a new token, the dialog's QR code reads as the new link, and Bob's old link
    is refused, also on the phone that had it open. (Showing the current link again without
    ending it: tests/web/test_web_first_table.py.)"""
    errors: list[str] = []
    table = room.table(["Ana", "Bob"], seed=5)
    phone = new_page(browser, PHONE, errors)
    phone.goto(f"{room.base}/phone/{table.id}/1#token={table.info['tokens'][1]}")
    expect(phone.get_by_test_id("phone-name")).to_have_text("Bob")
    page = new_page(browser, TABLET, errors)
    Tablet(page, room, table).open()
    page.get_by_test_id("phones").click()
    page.get_by_test_id("qr-seat-1").click()
    page.get_by_test_id("qr-new-1").click()
    expect(page.get_by_test_id("qr-note")).to_contain_text("no longer works")
    figure = page.get_by_test_id("phone-qr-1")
    expect(figure.locator("figcaption")).to_have_text("Bob")
    (link,) = qr_texts(page)
    assert link.startswith(f"{room.base}/phone/{table.id}/1#token=")
    assert figure.get_attribute("data-url") == link
    save_shots(page, "table-phone-qr")
    private = f"{room.base}/api/tables/{table.id}/players/1/private"
    assert call(private, headers={"X-Player-Token": link.split("#token=")[1]})["name"] == "Bob"
    with pytest.raises(HttpError) as refused:
        call(private, headers={"X-Player-Token": table.info["tokens"][1]})
    assert refused.value.code == "WRONG_TOKEN"
    expect(phone.get_by_test_id("phone-error")).to_contain_text("replaced")  # the old phone
    page.get_by_test_id("qr-close").click()
    expect(page.get_by_test_id("qr-dialog")).to_be_hidden()
    assert errors == []


def test_a_setup_entered_by_hand_with_the_search_boxes(room: Room, browser: Browser) -> None:
    """Without "deal for us": each starting movie, revealed movie and theater tile is picked
    by typing part of its name; each award card drawn is reported on its player's phone."""
    errors: list[str] = []
    info = room.server.create_table({"players": ["Ana", "Bob"], "readers": ["bag-1", "bag-2"]})
    table = RemoteTable(room.base, info, CATALOG)
    page = new_page(browser, TABLET, errors)
    tablet = Tablet(page, room, table).open()
    phones = {}
    picks = 0
    while table.state.phase == "setup" and picks < 80:
        outcomes = table.state.chance_outcomes()
        if not outcomes:
            move = table.state.legal_moves()[0]  # a player keeps an award, on the phone
            keep_on_phone(phones, browser, room, table, move.player, move.card, errors)
            continue
        move = outcomes[0]
        picks += 1
        if move.kind == "draw_award":
            report_on_phone(phones, browser, room, table, move.player, move.card, errors)
            continue
        pick_on_tablet(tablet, move, picks == 1)
    assert table.state.phase == "buying"
    expect(page.get_by_test_id("phase")).to_contain_text("Buying")
    assert errors == []


def pick_on_tablet(tablet: Tablet, move, first: bool) -> None:
    """Type a few letters of the card's title, then tap it in the list."""
    page, before = tablet.page, tablet.table.count
    movie = CATALOG.movies.get(move.card)
    search = page.get_by_test_id(f"search-{move.kind}")
    search.fill(movie.title[:4] if movie else "seat")  # a tile is listed by its seats
    if first:
        save_shots(page, "setup-by-hand")
    page.get_by_test_id(f"chance-{move.kind}-{move.card}").first.click()
    assert wait_for(lambda: tablet.table.count > before), move


def phone_page(phones: dict, browser: Browser, room: Room, table: RemoteTable, seat: int,
               errors: list[str]) -> Page:
    """The player's phone, opened once from the link with the player's token."""
    if seat not in phones:
        page = new_page(browser, PHONE, errors)
        token = table.info["tokens"][seat]
        page.goto(f"{room.base}/phone/{table.id}/{seat}#token={token}")
        expect(page.get_by_test_id("phone-name")).to_have_text(table.info["players"][seat])
        phones[seat] = page
    return phones[seat]


def report_on_phone(phones, browser, room, table, seat: int, card: str, errors) -> None:
    """The player says which award card came off the deck."""
    page = phone_page(phones, browser, room, table, seat, errors)
    before = table.count
    page.get_by_test_id("award-search").fill(CATALOG.awards[card].title[:5])
    page.get_by_test_id(f"draw-award-{card}").click()
    assert wait_for(lambda: table.count > before)


def keep_on_phone(phones, browser, room, table, seat: int, card: str, errors) -> None:
    """The player keeps one of the two award cards drawn."""
    page = phone_page(phones, browser, room, table, seat, errors)
    before = table.count
    save_shots(page, "phone-award-choice")
    page.get_by_test_id(f"keep-{card}").click()
    assert wait_for(lambda: table.count > before)


def test_a_phone_shows_its_players_awards_and_no_one_elses(room: Room,
                                                             browser: Browser) -> None:
    """Each phone lists its own awards; another player's token (or none) shows an error
    and not one award title of anybody."""
    errors: list[str] = []
    table = room.table(["Ana", "Bob", "Chloe"], seed=4)
    held = {}
    for seat, token in enumerate(table.info["tokens"]):
        private = call(f"{room.base}/api/tables/{table.id}/players/{seat}/private",
                       headers={"X-Player-Token": token})
        held[seat] = [a["title"] for a in private["awards"]]
        assert held[seat]
    own = new_page(browser, PHONE, errors)
    own.goto(f"{room.base}/phone/{table.id}/0#token={table.info['tokens'][0]}")
    for card in call(f"{room.base}/api/tables/{table.id}/players/0/private",
                     headers={"X-Player-Token": table.info["tokens"][0]})["awards"]:
        expect(own.get_by_test_id(f"award-held-{card['id']}")).to_be_visible()
    text = own.inner_text("body")
    assert all(title not in text for seat in (1, 2) for title in held[seat])
    save_shots(own, "phone")
    thief = new_page(browser, PHONE, errors)
    thief.goto(f"{room.base}/phone/{table.id}/0#token={table.info['tokens'][1]}")
    expect(thief.get_by_test_id("phone-error")).to_be_visible()
    thief.wait_for_timeout(300)  # let any late push arrive: nothing private may show
    text = thief.inner_text("body")
    assert all(title not in text for titles in held.values() for title in titles)
    save_shots(thief, "phone-wrong-token")
    assert errors == []


def test_enrollment_counts_taps_live(room: Room, browser: Browser) -> None:
    """Enrollment on the setup screen: pick a color, tap pawns, the count goes up live."""
    errors: list[str] = []
    call(f"{room.base}/api/tags", "PUT", {"admin_pin": room.server.admin_pin, "registry": {
        "format": "popcorn-tags", "version": 1, "tags": []}})
    page = new_page(browser, TABLET, errors)
    page.goto(f"{room.base}/setup")
    page.get_by_test_id("enroll-admin-pin").fill(room.server.admin_pin)
    page.get_by_test_id("enroll-color-red").click()
    page.get_by_test_id("enroll-start").click()
    expect(page.get_by_test_id("enroll-status")).to_contain_text("red")
    for n in range(3):
        room.bank.tap("bag-2", f"04bb0000000{n:03x}")
    expect(page.get_by_test_id("enroll-count-red")).to_contain_text("3")
    expect(page.get_by_test_id("enroll-last")).to_contain_text("04bb0000000002")
    save_shots(page, "setup-enrollment")
    page.get_by_test_id("enroll-stop").click()
    expect(page.get_by_test_id("enroll-status")).to_contain_text("Not enrolling")
    counts = call(f"{room.base}/api/tags/counts")
    assert counts["counts"]["red"] == 3 and counts["enrolling"] is None
    assert errors == []


def test_enrollment_says_when_a_color_is_complete(room: Room, browser: Browser) -> None:
    """Issue 38, item 6: once every red pawn has a tag, the red button no longer offers
    "Start enrolling red": it says that all of them have a tag, and starts nothing."""
    errors: list[str] = []
    call(f"{room.base}/api/tags", "PUT", {"admin_pin": room.server.admin_pin, "registry": {
        "format": "popcorn-tags", "version": 1, "tags": []}})
    cap = call(f"{room.base}/api/tags/counts")["capacity"]["red"]
    page = new_page(browser, TABLET, errors)
    page.goto(f"{room.base}/setup")
    page.get_by_test_id("enroll-admin-pin").fill(room.server.admin_pin)
    page.get_by_test_id("enroll-color-red").click()
    page.get_by_test_id("enroll-start").click()
    expect(page.get_by_test_id("enroll-status")).to_contain_text("red")  # enrolling: then tap
    for n in range(cap):
        room.bank.tap("bag-2", f"04cc0000000{n:03x}")
    # every tap counted ("1 / 10" also contains "10": wait for the whole count)
    expect(page.get_by_test_id("enroll-count-red")).to_have_text(f"{cap} / {cap}",
                                                                 timeout=15000)
    page.get_by_test_id("enroll-stop").click()
    page.get_by_test_id("enroll-color-red").click()
    start = page.get_by_test_id("enroll-start")
    expect(start).to_have_text(f"All {cap} red pawns have a tag")
    expect(start).to_be_disabled()
    assert errors == []


def test_the_demo_plays_live_on_the_dashboard(browser: Browser) -> None:
    """``popcorn-companion demo`` prints a table URL; the dashboard there follows the game
    as the scripted players and virtual readers play it, without reloading."""
    port = free_port()
    demo = subprocess.Popen([sys.executable, "-m", "companion", "demo", "--speed", "20",
                             "--host", "127.0.0.1", "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert demo.stdout is not None
        line = demo.stdout.readline()
        url = re.search(r"http://\S+/table/\w+", line)
        assert url, line
        errors: list[str] = []
        page = new_page(browser, TABLET, errors)
        page.goto(url.group(0))
        page.wait_for_function("() => (window.popcornEvents ?? -1) >= 0", timeout=15000)
        page.evaluate("window.reloadMark = 1")
        first = page.evaluate("window.popcornEvents")
        page.wait_for_function("(n) => window.popcornEvents > n", arg=first + 5, timeout=30000)
        assert page.evaluate("window.reloadMark") == 1
        save_shots(page, "demo")
        assert errors == []
    finally:
        demo.terminate()
        demo.wait(timeout=10)


def test_the_hubs_content_security_policy_is_in_force(room: Room, browser: Browser) -> None:
    """Chromium applies the hub's policy: a script added inline is refused, and the watch
    the other browser tests rely on reports it."""
    errors: list[str] = []
    page = new_page(browser, TABLET, errors)
    page.goto(f"{room.base}/setup")
    page.get_by_test_id("link").filter(has_text="live").wait_for()
    assert errors == []
    page.evaluate("""() => { const s = document.createElement('script');
        s.textContent = 'window.inlineRan = true'; document.body.append(s); }""")
    assert wait_for(lambda: errors, timeout=5), "no CSP violation was reported"
    assert page.evaluate("window.inlineRan === undefined")
    assert any("script-src" in e for e in errors), errors


def _rank(titles: dict[str, str], query: str) -> list[str]:
    """The order the search boxes promise: title starts with the query, then a word of it
    does, then anywhere; ties in the engine's order."""
    def score(title: str) -> int:
        text = title.lower()
        if text.startswith(query):
            return 0
        return 1 if any(w.startswith(query) for w in re.split(r"[^a-z0-9$]+", text)) else 2
    hits = [card for card, title in titles.items() if query in title.lower()]
    return sorted(hits, key=score)


def test_search_boxes_start_empty_rank_best_first_and_enter_takes_the_only_match(
        room: Room, browser: Browser) -> None:
    """Each new step's box is empty; a few letters list the titles that start with them
    first; with one match left, Enter reports it. The phone offers exactly the awards still
    in the deck, and Enter takes the only one that matches there too."""
    errors: list[str] = []
    info = room.server.create_table({"players": ["Ana", "Bob"], "readers": ["bag-1", "bag-2"]})
    table = RemoteTable(room.base, info, CATALOG)
    page = new_page(browser, TABLET, errors)
    tablet = Tablet(page, room, table).open()
    outcomes = table.state.chance_outcomes()
    titles = {m.card: CATALOG.movies[m.card].title for m in outcomes}
    query = titles[outcomes[0].card][:2].lower()
    search = page.get_by_test_id("search-deal_starting")
    search.fill(query)
    buttons = page.locator('[data-testid^="chance-deal_starting-"]')
    expect(buttons.first).to_be_visible()
    shown = [b.get_attribute("data-testid").removeprefix("chance-deal_starting-")
             for b in buttons.all()]
    assert shown == _rank(titles, query)
    for step in range(2):
        card = table.state.chance_outcomes()[0].card
        if step:  # a new step: the letters typed for the last one are gone
            expect(page.get_by_test_id("search-deal_starting")).to_have_value("")
        before = table.count
        page.get_by_test_id("search-deal_starting").fill(CATALOG.movies[card].title)
        expect(page.locator("button.pick.only")).to_have_count(1)
        if step == 0:
            save_shots(page, "search-only-match")
        page.get_by_test_id("search-deal_starting").press("Enter")
        tablet.wait_events(before + 1)
    while not any(m.kind == "draw_award" for m in table.state.chance_outcomes()):
        call(f"{room.base}/api/tables/{table.id}/moves", "POST",  # setup steps need the PIN
             {"move": table.state.chance_outcomes()[0].to_dict(), "pin": info["pin"]})
    move = next(m for m in table.state.chance_outcomes() if m.kind == "draw_award")
    phone = phone_page({}, browser, room, table, move.player, errors)
    offered = phone.locator('[data-testid^="draw-award-"]')
    expect(offered).to_have_count(len(table.state.award_pool))
    ids = {b.get_attribute("data-testid").removeprefix("draw-award-") for b in offered.all()}
    assert ids == set(table.state.award_pool)
    before = table.count
    phone.get_by_test_id("award-search").fill(CATALOG.awards[move.card].title)
    expect(offered).to_have_count(1)
    phone.get_by_test_id("award-search").press("Enter")
    assert wait_for(lambda: table.count > before)
    assert errors == []
