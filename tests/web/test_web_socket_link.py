"""The page's link to the hub through the official Socket.IO client (issue 39, item 3), on a
real ``serve`` behind a real TCP proxy (:mod:`tests.web.proxy`) in Chromium: a proxy that
refuses WebSocket upgrades still carries the state pushes, over HTTP long-polling; and an
emit made while the network is down reaches the hub once it is back."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from companion.games.popcorn.remote import RemoteTable
from tests.web.proxy import Proxy
from tests.web.room import Room


@pytest.fixture
def room(tmp_path: Path) -> Iterator[Room]:
    """A hub with three virtual bag readers."""
    made = Room(tmp_path)
    yield made
    made.close()


def behind(room: Room, **options: bool) -> Proxy:
    """A proxy in front of ``room``'s hub."""
    return Proxy(urlsplit(room.base).port or 80, **options).start()


def test_a_proxy_that_refuses_websockets_still_carries_the_pushes(room: Room,
                                                                  page: Page) -> None:
    """Every WebSocket upgrade gets 403 from the proxy: the page links over long-polling,
    shows "live", and a pawn drawn on a bag reader reaches it as a state push."""
    table = room.table(["Ana", "Bob"], seed=3)
    proxy = behind(room, refuse_upgrades=True)
    try:
        open_table(page, proxy.base, table)
        expect(page.get_by_test_id("link")).to_have_class("link ok")
        assert page.evaluate("window.popcornSocket.io.engine.transport.name") == "polling"
        assert proxy.upgrades_refused >= 1
        count = table.count
        move = next(m for m in table.state.legal_moves() if m.kind == "end_turn")
        table.decide(move)  # as another device would send it: this page hears of it by push
        page.wait_for_function("(n) => (window.popcornEvents ?? -1) > n", arg=count)
        assert page.evaluate("window.popcornEvents") == table.count
    finally:
        proxy.stop()


def test_an_emit_made_while_the_network_is_down_arrives_once_it_is_back(
        room: Room, page: Page) -> None:
    """The archive page (no room of its own): the network drops, the page asks to join a
    table's room while it is down, and once the network is back the hub has the request and
    answers it with the table's state."""
    table = room.table(["Ana", "Bob"], seed=3)
    proxy = behind(room)
    try:
        page.goto(f"{proxy.base}/archive")
        expect(page.get_by_test_id("archive-player")).to_be_visible()  # the screen is up
        expect(page.get_by_test_id("link")).to_have_class("link ok")
        page.evaluate("""() => { window.joined = null;
            window.popcornSocket.on("state", (data) => { window.joined = data.table; }); }""")
        proxy.cut()
        page.wait_for_function("() => !window.popcornSocket.connected")
        page.evaluate("(id) => window.popcornSocket.emit('join', { table: id })", table.id)
        proxy.mend()
        page.wait_for_function("(id) => window.joined === id", arg=table.id, timeout=20000)
        expect(page.get_by_test_id("link")).to_have_class("link ok")
    finally:
        proxy.stop()


def open_table(page: Page, base: str, table: RemoteTable) -> None:
    """The table screen at ``base``, its PIN known to this device, drawn once."""
    page.goto(f"{base}/setup")
    page.evaluate("([id, pin]) => localStorage.setItem(`popcorn:pin:${id}`, pin)",
                  [table.id, table.info["pin"]])
    page.goto(f"{base}/table/{table.id}")
    page.wait_for_function("(id) => window.popcornLoaded === id", arg=table.id)
    page.wait_for_function("(n) => (window.popcornEvents ?? -1) >= n", arg=table.count)
