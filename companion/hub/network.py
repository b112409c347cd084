"""Addresses the other devices at the table can reach: the tablet's and the phones' links.

The hub listens on one address (``serve --host``, every interface by default). A phone link
must name an address the phone can reach, which is not always the one the tablet opened: a
tablet (or the computer running the hub) that opened ``http://127.0.0.1:8000/`` would hand
out ``127.0.0.1`` links, which on a phone means the phone itself. :func:`link_base` gives
the links the machine's address on the network instead, when the hub listens there.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
from urllib.parse import urlsplit

ALL_INTERFACES = ("0.0.0.0", "::", "")
"""Listening addresses that mean every interface of the machine."""


def lan_host(host: str) -> str:
    """The address other devices on the network use for ``host`` (ours, for 0.0.0.0): the
    address of the interface that would carry traffic out, found by pointing a UDP socket
    at a private address (nothing is sent), else the host name's address."""
    if host not in ALL_INTERFACES:
        return host
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("10.255.255.255", 9))
        address = probe.getsockname()[0]
        if address and address != "0.0.0.0":
            return str(address)
    try:
        return socket.gethostbyname(socket.gethostname())
    except OSError:
        return "127.0.0.1"


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address) means this machine only: ``localhost``,
    127.0.0.0/8 or ``::1``. Such an address in a link opens the phone itself, not the hub."""
    name = host.strip("[]").rstrip(".").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def url_host(host: str) -> str:
    """``host`` as it stands in a URL (an IPv6 address in brackets)."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def tablet_url(host: str, port: int) -> str:
    """The address to open on the tablet, for a hub listening on ``host`` and ``port``."""
    return f"http://{url_host(lan_host(host))}:{port}/"


def link_base(host_url: str, listen: str | None) -> str:
    """The start of the links the hub hands out (phone links), from the address the asking
    device opened (``host_url``, as ``http://127.0.0.1:8000/``) and the address the hub
    listens on (``listen``; None when unknown, as in a test's app). A device that opened the
    hub by a loopback address gets the machine's network address instead, when the hub
    listens there (on every interface, or on that address): the phone must reach it. Any
    other address (a name such as ``popcorn.local``, an address on the network) is kept."""
    parts = urlsplit(host_url)
    if listen is None or not is_loopback(parts.hostname or "") or is_loopback(listen):
        return host_url
    lan = lan_host(listen)
    if is_loopback(lan):
        return host_url  # a machine with no network: nothing better to offer
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{url_host(lan)}{port}/"
