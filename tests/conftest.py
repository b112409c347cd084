"""Fixtures shared by the test folders: a session's Mosquitto and Chromium, and a hub's app
with one 2-player table (``api``).

Markers (``[tool.pytest.ini_options]``): a test that uses the ``broker`` or the ``browser``
fixture is marked ``broker`` or ``browser`` here; every test of ``tests/web/`` is ``browser``
(``tests/web/conftest.py``); a test that starts a Mosquitto of its own, and a ``slow`` one,
says so itself.
"""

from pathlib import Path

import pytest

from companion.hub.app import create_app
from companion.hub.hub import Hub
from companion.readers.broker import Broker
from tests.hub.client import READERS

FIXTURE_MARKS = {"broker": "broker", "browser": "browser"}
"""The marker a test gets for using a fixture (directly or through another fixture)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test that uses the session's broker or browser."""
    for item in items:
        for fixture, mark in FIXTURE_MARKS.items():
            if fixture in getattr(item, "fixturenames", ()):
                item.add_marker(mark)


@pytest.fixture(scope="session")
def broker(tmp_path_factory: pytest.TempPathFactory):
    """A real Mosquitto on loopback with a password, for the whole test session."""
    server = Broker(workdir=tmp_path_factory.mktemp("mosquitto")).start()
    yield server
    server.close()


@pytest.fixture(scope="session")
def browser():
    """One headless Debian Chromium, driven by Playwright, for the whole session."""
    from playwright.sync_api import sync_playwright

    from tests.web.room import CHROMIUM, CHROMIUM_ARGS

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def api(tmp_path: Path):
    """A started hub without reader links, its app's test client, and one 2-player table."""
    hub = Hub(tmp_path / "hub.sqlite", readers=READERS).start()
    app, _ = create_app(hub, "246810")
    client = app.test_client()
    created = client.post("/api/tables", json={"players": ["Ana", "Bob"], "readers": READERS,
                                               "deal_seed": 4})
    assert created.status_code == 201, created.json
    yield hub, client, created.json["id"]
    hub.stop()
