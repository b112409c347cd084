"""A reader's health: what its heartbeats say, and the simple levels the table is shown.

A heartbeat may carry the Wi-Fi signal (``rssi``, dBm), the supply voltage (``supply_mv``)
and two counts since the reader's boot: reads that failed (``read_fail``) and taps too quick
to count (``too_fast``) (``docs/protocol.md``, "heartbeat"). :class:`Health` keeps the
latest of them for one reader and turns them into three levels, here and nowhere else:

========  ===========================  =================================================
level     values                       from
========  ===========================  =================================================
signal    good, fair, weak, unknown    ``rssi`` (:data:`SIGNAL_GOOD_DBM`,
                                       :data:`SIGNAL_WEAK_DBM`)
battery   ok, low, unknown             ``supply_mv`` (:data:`SUPPLY_LOW_MV`)
reads     ok, many, unknown            failed reads in the last minute
                                       (:data:`MANY_FAILS_PER_MINUTE`)
========  ===========================  =================================================

``unknown`` means the reader does not say (an older firmware; a reader on a cable has no
signal; a board measuring no supply). Every level has **hysteresis**: it goes down at a
threshold, but comes back up only past a margin (or, for reads, after a quiet spell), so a
value hovering at a threshold does not make the level flicker, nor the table's notice come
back at every heartbeat. A level that is bad (weak, low, many) is a **problem**
(:meth:`Health.problems`): the hub tells the reader's table once when it appears.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from .protocol import Heartbeat

SIGNAL_GOOD_DBM = -67
"""At or above this RSSI the signal is ``good``: the level at which Wi-Fi makers rate a link
reliable for anything; a reader's small messages need far less."""
SIGNAL_WEAK_DBM = -80
"""Below this RSSI the signal is ``weak``: around -80 dBm the ESP32 and the Pico W start to
lose packets and reconnect, so taps arrive late; from here up to :data:`SIGNAL_GOOD_DBM`
it is ``fair``."""
SIGNAL_MARGIN_DB = 4
"""A signal rated down comes back up only this many dB past the threshold (so a weak one is
``fair`` again at -76 dBm): an RSSI jumps by a few dB from one reading to the next."""
SUPPLY_LOW_MV = 3500
"""Below this supply voltage the battery is ``low``. For a LiPo cell (4.2 V full, 3.7 V
nominal) 3.5 V leaves about a tenth of its charge, half an hour or more of play, before the
boards stop near 3.3 V; for a pack of three AA cells it is under 1.17 V a cell, where
alkaline cells are nearly spent and NiMH ones at their end. A reader on USB reads about
5 V (the Pico W's VSYS 4.7 to 5 V) and is ``ok``."""
SUPPLY_MARGIN_MV = 100
"""A battery rated ``low`` is ``ok`` again only at 3.6 V: a cell's voltage sags under the
radio's load and recovers at rest by about that much."""
MANY_FAILS_PER_MINUTE = 10
"""``many`` failed reads: this many or more in the last minute. A sound reader fails a read
now and then (a pawn lifted in the middle of a read); a loose antenna wire, a detuned coil
or a bad sticker fails at almost every poll while a tag is near, dozens a tap."""
FEW_FAILS = 2
"""Read failures come back to ``ok`` only after :data:`QUIET_SECONDS` with at most this
many."""
QUIET_SECONDS = 300.0
"""How long failed reads must stay rare before ``many`` is ``ok`` again: five minutes, so
that a reader that fails only when tapped does not raise its notice again at every tap."""
MINUTE = 60.0
"""The window :data:`MANY_FAILS_PER_MINUTE` counts in, in seconds."""

SIGNAL_LEVELS = ("good", "fair", "weak", "unknown")
"""The values of the ``signal`` level."""
BATTERY_LEVELS = ("ok", "low", "unknown")
"""The values of the ``battery`` level."""
READS_LEVELS = ("ok", "many", "unknown")
"""The values of the ``reads`` level."""
PROBLEMS = ("battery", "signal", "reads")
"""What can go wrong with a reader, in the order a table is told: a low battery, a weak
signal, many failed reads."""


def signal_level(rssi: int | None, before: str = "unknown") -> str:
    """The ``signal`` level of ``rssi`` dBm, given the level ``before`` (hysteresis)."""
    if rssi is None:
        return "unknown"
    weak_up = SIGNAL_WEAK_DBM + (SIGNAL_MARGIN_DB if before == "weak" else 0)
    good_up = SIGNAL_GOOD_DBM + (SIGNAL_MARGIN_DB if before in ("weak", "fair") else 0)
    if rssi < weak_up:
        return "weak"
    return "fair" if rssi < good_up else "good"


def battery_level(supply_mv: int | None, before: str = "unknown") -> str:
    """The ``battery`` level of ``supply_mv`` millivolts, given the level ``before``."""
    if supply_mv is None:
        return "unknown"
    low = SUPPLY_LOW_MV + (SUPPLY_MARGIN_MV if before == "low" else 0)
    return "low" if supply_mv < low else "ok"


@dataclass
class Health:
    """The latest health one reader reported, and its levels (see the module's table).

    :meth:`update` takes each heartbeat with the hub's clock reading when it arrived.
    """

    rssi: int | None = None
    supply_mv: int | None = None
    read_fail: int | None = None
    too_fast: int | None = None
    scan_ms: int | None = None
    """A mat's last full scan of its zones, in milliseconds (None: a bag reader, or not
    sent)."""
    heartbeat_at: float | None = None
    """When the last heartbeat arrived (the hub's monotonic clock), or ``None``."""
    signal: str = "unknown"
    battery: str = "unknown"
    reads: str = "unknown"
    fails_last_minute: int = 0
    """Failed reads counted in the heartbeats of the last minute."""
    _boot: int | None = None
    _fails: deque[tuple[float, int]] = field(default_factory=deque)
    """``(when, failed reads)`` per heartbeat of the last :data:`QUIET_SECONDS`."""

    def update(self, beat: Heartbeat, at: float) -> bool:
        """Take one heartbeat that arrived at ``at``; whether anything a table shows of it
        changed (a level, or a count)."""
        shown = self._shown()
        fresh = self._new_fails(beat)
        self.rssi, self.supply_mv = beat.rssi, beat.supply_mv
        self.read_fail, self.too_fast = beat.read_fail, beat.too_fast
        self.scan_ms = beat.scan_ms
        self.heartbeat_at, self._boot = at, beat.boot
        self.signal = signal_level(beat.rssi, self.signal)
        self.battery = battery_level(beat.supply_mv, self.battery)
        self.reads = self._reads_level(fresh, at)
        return self._shown() != shown

    def _new_fails(self, beat: Heartbeat) -> int | None:
        """Failed reads since the previous heartbeat (all of them after a reboot)."""
        if beat.read_fail is None:
            return None
        before = self.read_fail if self._boot == beat.boot else None
        if before is None or beat.read_fail < before:
            return beat.read_fail
        return beat.read_fail - before

    def _reads_level(self, fresh: int | None, at: float) -> str:
        if fresh is None:
            self._fails.clear()
            self.fails_last_minute = 0
            return "unknown"
        self._fails.append((at, fresh))
        while self._fails and self._fails[0][0] < at - QUIET_SECONDS:
            self._fails.popleft()
        self.fails_last_minute = sum(n for when, n in self._fails if when >= at - MINUTE)
        if self.fails_last_minute >= MANY_FAILS_PER_MINUTE:
            return "many"
        if self.reads == "many" and sum(n for _, n in self._fails) > FEW_FAILS:
            return "many"
        return "ok"

    def _shown(self) -> tuple[Any, ...]:
        return (self.signal, self.battery, self.reads, self.read_fail, self.too_fast)

    def problems(self) -> frozenset[str]:
        """What is wrong now, among :data:`PROBLEMS`."""
        bad = {"battery": self.battery == "low", "signal": self.signal == "weak",
               "reads": self.reads == "many"}
        return frozenset(name for name, is_bad in bad.items() if is_bad)

    def to_dict(self, now: float) -> dict[str, Any]:
        """The reader's health as the API and the ``readers`` push give it
        (``docs/api.md``, "Readers"); ``now`` on the same clock as :attr:`heartbeat_at`."""
        age = None if self.heartbeat_at is None else round(max(0.0, now - self.heartbeat_at), 1)
        return {"heartbeat_age": age, "rssi": self.rssi, "supply_mv": self.supply_mv,
                "read_fail": self.read_fail, "too_fast": self.too_fast,
                "scan_ms": self.scan_ms,
                "fails_last_minute": self.fails_last_minute, "signal": self.signal,
                "battery": self.battery, "reads": self.reads,
                "problems": [p for p in PROBLEMS if p in self.problems()]}
