"""The readers' health on the table screen of both games (issue 23, part 3), in Chromium
against a real ``serve`` with virtual bag readers on pseudo-terminals.

A virtual reader's heartbeat carries the health the test chooses (a weak Wi-Fi signal, a low
battery); it crosses the serial link, the hub judges it, pushes ``readers`` to every screen
and ``reader_health`` to the table's. The table screen then shows a gentle notice naming the
player and what to do, and its Readers panel lists each seat's reader with its state, the
age of its last heartbeat, its signal and battery as levels, and its failed reads.
"""

from __future__ import annotations

import json
import re
import time

from playwright.sync_api import Page, expect

from companion.readers.virtual import VirtualReader
from tests.web.room import Room, call, save_shots

NAMES = ["Ana", "Bob", "Chloé"]


def open_table(page: Page, room: Room, table_id: str) -> None:
    """The table screen of ``table_id``, drawn, and in the table's room: the hub answers a
    ``join`` with a ``state`` push, and a ``reader_health`` push raised before that would
    not reach this screen (the hub tells a problem once)."""
    joined: list[str] = []

    def frame(payload: str | bytes) -> None:
        text = payload if isinstance(payload, str) else payload.decode(errors="replace")
        if text.startswith("42") and json.loads(text[2:])[0] == "state":
            joined.append(text)
    page.on("websocket", lambda ws: ws.on("framereceived", frame))
    page.goto(f"{room.base}/table/{table_id}")
    page.wait_for_function("(id) => window.popcornLoaded === id", arg=table_id)
    deadline = time.monotonic() + 15
    while not joined:  # the page's own events run meanwhile
        assert time.monotonic() < deadline, "the table screen never joined its table's room"
        page.wait_for_timeout(20)


def beat(reader: VirtualReader, **health: int | None) -> None:
    """One heartbeat now, with this health from now on."""
    reader.set_health(**health)
    reader.heartbeat()


def go_bad(room: Room) -> None:
    """bag-2's Wi-Fi turns weak, bag-3's battery runs low; bag-1 is a cabled reader with an
    older firmware (no health at all)."""
    beat(room.bank.readers["bag-2"], rssi=-86, supply_mv=4950, read_fail=3, too_fast=1)
    beat(room.bank.readers["bag-3"], supply_mv=3340, read_fail=0)


def notice(page: Page, reader: str, problem: str):
    """The notice of ``reader``'s ``problem``."""
    return page.locator(f'[data-testid="health-notice"][data-reader="{reader}"]'
                        f'[data-problem="{problem}"]')


def check_notices(page: Page, weak: str, low: str) -> None:
    """One notice for the weak reader, one for the low battery, each naming its player."""
    signal = notice(page, "bag-2", "signal")
    expect(signal).to_contain_text(f"{weak}'s reader has a weak Wi-Fi signal", timeout=15000)
    expect(signal).to_contain_text("move it nearer the Wi-Fi router")
    battery = notice(page, "bag-3", "battery")
    expect(battery).to_contain_text(f"{low}'s reader is low on battery: charge it", timeout=15000)
    expect(page.get_by_test_id("health-notice")).to_have_count(2)


def check_panel(page: Page) -> None:
    """The panel: a row per seat with the levels as words and bars, the ages ticking."""
    expect(page.get_by_test_id("readers-open")).to_contain_text("2")  # two need care
    page.get_by_test_id("readers-open").click()
    panel = page.get_by_test_id("readers-panel")
    expect(panel).to_be_visible()
    weak, low = page.get_by_test_id("reader-row-1"), page.get_by_test_id("reader-row-2")
    expect(weak).to_have_attribute("data-signal", "weak")
    expect(page.get_by_test_id("reader-signal-1")).to_contain_text("weak signal (-86 dBm)")
    expect(page.get_by_test_id("reader-battery-1")).to_contain_text("ok, 4.95 V")
    expect(page.get_by_test_id("reader-reads-1")).to_contain_text("3 failed, 1 too fast")
    expect(low).to_have_attribute("data-battery", "low")
    expect(page.get_by_test_id("reader-battery-2")).to_contain_text("low, 3.34 V")
    expect(page.get_by_test_id("reader-signal-2")).to_contain_text("cable, no Wi-Fi")
    first = page.get_by_test_id("reader-row-0")
    expect(first).to_contain_text("online")
    expect(page.get_by_test_id("reader-battery-0")).to_contain_text("not measured")
    expect(page.get_by_test_id("reader-age-1")).to_have_text(re.compile(r"^\d+ s ago$"))
    age = page.get_by_test_id("reader-age-1").inner_text()
    expect(page.get_by_test_id("reader-age-1")).not_to_have_text(age, timeout=5000)  # ticking
    assert page.locator('[data-testid="reader-signal-1"] .rh-bars i.on').count() == 1


def test_popcorns_table_shows_a_weak_and_a_low_battery_reader(room: Room, page: Page) -> None:
    """The notices come once per problem, Dismiss takes one away, the same problem in the
    next heartbeats brings no new notice, and the panel shows every reader."""
    table = room.table(NAMES, seed=3)
    open_table(page, room, table.id)
    expect(page.get_by_test_id("readers-open")).to_have_text("Readers")
    go_bad(room)
    check_notices(page, "Bob", "Chloé")
    check_panel(page)
    save_shots(page, "reader-health-panel")
    page.get_by_test_id("readers-close").click()
    expect(page.get_by_test_id("readers-panel")).to_be_hidden()
    page.locator('[data-problem="signal"] [data-testid="health-dismiss"]').click()
    expect(page.get_by_test_id("health-notice")).to_have_count(1)
    beat(room.bank.readers["bag-2"], too_fast=2)  # still weak: the hub tells nothing new
    page.get_by_test_id("readers-open").click()
    expect(page.get_by_test_id("reader-reads-1")).to_contain_text("2 too fast", timeout=15000)
    expect(page.get_by_test_id("health-notice")).to_have_count(1)
    assert call(f"{room.base}/api/tables/{table.id}")["alerts"] == [], "no game alert"


def test_b_movies_table_shows_them_too_in_french(room: Room, page: Page) -> None:
    """The same panel and notices on B Movies' table screen, in the tablet's language."""
    info = room.server.create_table({"players": NAMES, "readers": room.readers,
                                     "game": "b-movies"})
    page.goto(f"{room.base}/setup")
    page.evaluate("() => localStorage.setItem('popcorn:lang', 'fr')")
    open_table(page, room, info["id"])
    expect(page.get_by_test_id("bm-table")).to_be_visible()
    go_bad(room)
    signal = page.locator('[data-testid="health-notice"][data-problem="signal"]')
    expect(signal).to_contain_text("Le lecteur de Bob capte mal le Wi-Fi", timeout=15000)
    expect(page.locator('[data-problem="battery"]')).to_contain_text(
        "La batterie du lecteur de Chloé est faible")
    page.get_by_test_id("readers-open").click()
    expect(page.get_by_test_id("reader-signal-1")).to_contain_text("signal faible")
    expect(page.get_by_test_id("reader-battery-2")).to_contain_text("faible, 3,34 V")
    save_shots(page, "reader-health-bmovies-fr")
