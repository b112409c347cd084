"""Test configuration: make ``tests/support.py`` importable as ``support``."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import pytest  # noqa: E402

from companion.readers.broker import Broker  # noqa: E402


@pytest.fixture(scope="session")
def broker(tmp_path_factory: pytest.TempPathFactory):
    """A real Mosquitto on loopback with a password, for the whole test session."""
    server = Broker(workdir=tmp_path_factory.mktemp("mosquitto")).start()
    yield server
    server.close()
