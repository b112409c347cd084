"""Waiting for what another thread or process does: used by the tests of every folder."""

from __future__ import annotations

import time
from collections.abc import Callable


def wait_for(condition: Callable[[], bool], timeout: float = 30.0) -> bool:
    """Poll until ``condition()`` is true; False on timeout."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return condition()
