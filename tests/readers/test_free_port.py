"""``free_port``: a port nobody has bound, from below the range outgoing connections draw
their ports from, so that none of them can take it before the hub, a test's ``serve`` or a
private broker binds it (CI lost two runs to that: the system's own pick comes from that
range)."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from companion.readers import broker
from companion.readers.broker import free_port


def test_a_free_port_is_bindable_and_below_the_outgoing_range() -> None:
    low = int(broker.PORT_RANGE.read_text().split()[0]) if broker.PORT_RANGE.exists() \
        else 32768
    ports = {free_port() for _ in range(20)}
    assert all(1024 <= port < low for port in ports)
    assert len(ports) > 1  # picked at random, not one fixed port
    for port in ports:
        with socket.socket() as sock:
            sock.bind(("", port))  # free on every address


def test_a_port_someone_holds_is_never_given(monkeypatch: pytest.MonkeyPatch,
                                             tmp_path: Path) -> None:
    """With a range whose only candidate is held, the system's pick is the answer."""
    with socket.socket() as held:
        held.bind(("", 0))
        port = held.getsockname()[1]
        if port <= 1025 + 1:
            pytest.skip("the system held a port too low to make a one-port range below it")
        fake = tmp_path / "ip_local_port_range"
        fake.write_text(f"{port + 1}\t{port + 100}\n")
        monkeypatch.setattr(broker, "PORT_RANGE", fake)
        monkeypatch.setattr(broker.secrets.SystemRandom, "randrange",
                            lambda self, a, b: port)  # every try draws the held port
        assert free_port() != port
