"""Throttling PIN guesses: wrong tries are counted, and past a limit refused for a while.

A table PIN and the admin PIN have 6 digits. Without a limit a phone on the same Wi-Fi can
try hundreds a second and find a table's PIN within minutes, and with it every player's
secret awards. :class:`PinTries` counts **wrong** tries only, in moving windows kept in
memory by the ``limits`` library (the counting core of Flask-Limiter):

- per client address (an IPv6 address by its /64 network, which one host can fill):
  :data:`PER_ADDRESS`, over every PIN;
- per PIN (one table's, or the admin PIN): :data:`PER_PIN`, over every address that has
  itself sent a wrong PIN lately. A device that has made no mistake is never held back by
  the guesses of others, so a table playing with its right PIN is never throttled.

The windows grow from a minute to a day, so a guesser is held back longer and longer: the
back-off. A try that is over a limit is refused with ``429 TOO_MANY_TRIES`` and the number of
seconds until the next one may be made, **before** the PIN is compared, so a throttled
guesser learns nothing, even from the right PIN. A restart of the hub forgets the counts.
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections.abc import Callable

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from companion.kit.errors import TableError

PER_ADDRESS = parse_many("5/minute;20/hour;50/day")
"""Wrong PINs one client address may send: at 50 a day, half of the million 6-digit PINs
take more than twenty years."""

PER_PIN = parse_many("20/minute;60/hour;200/day")
"""Wrong tries at one PIN from all the addresses that have been wrong lately."""


class TooManyTries(TableError):
    """``429 TOO_MANY_TRIES``: a PIN may not be tried again for ``retry_after`` seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__("TOO_MANY_TRIES", "Too many wrong PINs: wait "
                         f"{_duration(retry_after)} before trying again.", 429)
        self.retry_after = retry_after


class PinTries:
    """Counts wrong PINs per address and per PIN, and refuses tries over the limits."""

    def __init__(self) -> None:
        self.limiter = MovingWindowRateLimiter(MemoryStorage())

    def verify(self, address: str, pin_id: str, is_right: Callable[[], bool]) -> bool:
        """Whether a PIN is right, as ``is_right()`` says, unless ``address`` or ``pin_id``
        (``"admin"``, or ``"table:<id>"``) is over a limit: then :class:`TooManyTries` is
        raised and the PIN is not compared. A wrong PIN counts against both."""
        self._refuse_if_over(address_key(address), pin_id)
        if is_right():
            return True
        self._count(address_key(address), pin_id)
        return False

    def _checks(self, address: str, pin_id: str) -> list[tuple[RateLimitItem, str, str]]:
        checks = [(item, "address", address) for item in PER_ADDRESS]
        if self._has_been_wrong(address):
            checks += [(item, "pin", pin_id) for item in PER_PIN]
        return checks

    def _has_been_wrong(self, address: str) -> bool:
        longest = PER_ADDRESS[-1]
        left = self.limiter.get_window_stats(longest, "address", address).remaining
        return left < longest.amount

    def _refuse_if_over(self, address: str, pin_id: str) -> None:
        over = [self.limiter.get_window_stats(item, *keys).reset_time
                for item, *keys in self._checks(address, pin_id)
                if not self.limiter.test(item, *keys)]
        if over:
            raise TooManyTries(max(1, math.ceil(max(over) - time.time())))

    def _count(self, address: str, pin_id: str) -> None:
        for item in PER_ADDRESS:
            self.limiter.hit(item, "address", address)
        for item in PER_PIN:
            self.limiter.hit(item, "pin", pin_id)


def address_key(address: str | None) -> str:
    """The key a client address is counted under: an IPv4 address as it is, an IPv6
    address by its /64 network (a single host may pick any address in it)."""
    try:
        ip = ipaddress.ip_address(address or "")
    except ValueError:
        return str(address)
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def _duration(seconds: int) -> str:
    if seconds < 120:
        return f"{seconds} seconds"
    if seconds < 7200:
        return f"{math.ceil(seconds / 60)} minutes"
    return f"{math.ceil(seconds / 3600)} hours"
