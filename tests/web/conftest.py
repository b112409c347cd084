"""Fixtures of the browser tests: a tablet-sized page, and a room (a hub process with
virtual bag readers). The session's Chromium, ``browser``, is in ``tests/conftest.py``.
Every test of this folder is marked ``browser``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.web.room import TABLET, Room, watch_csp

HERE = Path(__file__).parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test of tests/web/ drives Chromium: mark it ``browser``."""
    for item in items:
        if item.path.is_relative_to(HERE):
            item.add_marker("browser")


@pytest.fixture
def page(browser):
    """A tablet-sized page that fails the test on any script error or CSP violation."""
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
    r = Room(tmp_path)
    yield r
    r.close()
