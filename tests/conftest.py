"""Fixtures shared by the test folders: a session's Mosquitto and Chromium."""

from pathlib import Path

import pytest

from companion.readers.broker import Broker


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

    from tests.web_support import CHROMIUM, CHROMIUM_ARGS

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    """A tablet-sized page that fails the test on any script error or CSP violation."""
    from tests.web_support import TABLET, watch_csp

    context = browser.new_context(viewport=TABLET)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    watch_csp(tab, errors)
    yield tab
    context.close()
    assert errors == [], errors


@pytest.fixture
def room(tmp_path: Path):
    """A hub process (``serve``) with three virtual bag readers and an enrolled box."""
    from tests.web_support import Room

    r = Room(tmp_path)
    yield r
    r.close()
