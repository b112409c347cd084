"""A reload asks the network for no file of the dashboard: Chromium keeps the versioned
modules and styles, and asks again for the page only (docs/api.md, "Static files")."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from companion.hub.remote import ServeProcess
from tests.web.room import PHONE

READERS = ["bag-1", "bag-2", "bag-3"]
DASHBOARD = ("/v/", "/web/", "/games/")
"""Where the dashboard's files are served (versioned or not)."""


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[ServeProcess]:
    """A ``serve`` (no readers attached: the screens only)."""
    server = ServeProcess(tmp_path / "hub.db", readers=READERS).start()
    yield server
    server.stop()


class Responses:
    """Each response the page got, and whether the network or a cache answered it (the
    DevTools protocol's own account: Playwright's responses do not tell)."""

    def __init__(self, page: Page) -> None:
        self.urls: dict[str, str] = {}
        self.cached: set[str] = set()
        self.network: set[str] = set()
        cdp = page.context.new_cdp_session(page)
        cdp.on("Network.requestServedFromCache", lambda e: self.cached.add(e["requestId"]))
        cdp.on("Network.responseReceived", self._received)
        cdp.send("Network.enable")

    def _received(self, event: dict[str, Any]) -> None:
        response = event["response"]
        path = "/" + response["url"].split("/", 3)[3]
        self.urls[event["requestId"]] = path
        if not (response.get("fromDiskCache") or response.get("fromPrefetchCache")
                or event["requestId"] in self.cached):
            self.network.add(event["requestId"])

    def clear(self) -> None:
        """Forget what came so far."""
        self.urls.clear()
        self.cached.clear()
        self.network.clear()

    def dashboard(self, from_network: bool) -> list[str]:
        """The dashboard's files that came from the network (or from a cache)."""
        return sorted(path for rid, path in self.urls.items()
                      if path.startswith(DASHBOARD) and (rid in self.network) == from_network)


def load_and_reload(page: Page, url: str, shown: str, arg: str) -> Responses:
    """Open ``url`` until ``shown(arg)``, then reload it until the same; the reload's
    responses."""
    responses = Responses(page)
    page.goto(url)
    page.wait_for_function(shown, arg=arg)
    assert responses.dashboard(from_network=True), "the first load fetched the dashboard"
    page.wait_for_load_state("networkidle")
    responses.clear()
    page.reload()
    page.wait_for_function(shown, arg=arg)
    return responses


def test_a_reload_of_the_table_screen_fetches_no_dashboard_file(page: Page,
                                                                 hub: ServeProcess) -> None:
    """The table screen reloaded: its modules (the game's and the shell's) and styles all
    come from Chromium's cache, none from the hub."""
    table = hub.create_table({"players": ["Ana", "Bo"], "readers": READERS[:2]})
    reloaded = load_and_reload(page, f"{hub.base}/table/{table['id']}",
                               "(id) => window.popcornLoaded === id", table["id"])
    assert reloaded.dashboard(from_network=True) == []
    cached = reloaded.dashboard(from_network=False)
    assert any(p.endswith("/games/popcorn/table.js") for p in cached), cached
    assert any(p.endswith("/web/js/app.js") for p in cached), cached
    assert any(p.endswith("/web/css/base.css") for p in cached), cached


def test_a_reload_of_a_phone_fetches_no_dashboard_file(page: Page, hub: ServeProcess) -> None:
    """A player's phone reloaded: the same, and the phone says when its game shows
    (``window.popcornPhoneLoaded``)."""
    page.set_viewport_size(PHONE)
    table = hub.create_table({"players": ["Ana", "Bo", "Cy"], "readers": READERS,
                              "game": "b-movies"})
    seat = 1
    reloaded = load_and_reload(
        page, f"{hub.base}/phone/{table['id']}/{seat}#token={table['tokens'][seat]}",
        "(key) => window.popcornPhoneLoaded === key", f"{table['id']}/{seat}")
    assert reloaded.dashboard(from_network=True) == []
    cached = reloaded.dashboard(from_network=False)
    assert any(p.endswith("/games/b-movies/phone.js") for p in cached), cached
    assert any(p.endswith("/games/b-movies/bmovies.css") for p in cached), cached
