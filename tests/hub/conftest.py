"""Fixtures of the hub's tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hub.rig import Rig


@pytest.fixture
def rig(tmp_path: Path):
    """A hub with four virtual readers."""
    r = Rig(tmp_path)
    yield r
    r.close()
