"""One reader's taps (and a mat's zone states) applied in seq order, even when they arrive
out of order.

A reader numbers its taps 1, 2, 3, ... per boot. If seq 2 is lost on the way (a garbled
serial line, a dropped MQTT packet) and seq 3 arrives, the reader will resend 2 (it is never
acked), but 3 must not be applied first: at the table the order of draws matters. So
:class:`SeqOrder` holds a tap that follows a gap, unstored and unacked, until

* the gap fills: the held taps are then released right after the one that filled it;
* the reader says the gap cannot be filled: a ``hello`` from a new boot (the old boot's
  unacked taps died with it), or a ``hello`` whose ``unacked`` is below the missing seq;
* or :data:`HOLD_SECONDS` pass: the gap is taken as lost and the held taps go on in order.

Nothing held is acked, so a hub that stops while holding taps loses none: the reader resends
them. The caller (:class:`~.ingest.Ingest`) stores what is released, in the order given.

:attr:`SeqOrder.released` counts the taps that had to wait (not released in the batch that
brought them) and :attr:`SeqOrder.waited` how long they waited, in total and at most: a link
that drops messages shows up there (``bench/readers.py`` prints them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from .protocol import Event, Hello

HOLD_SECONDS = 2.0
"""How long a tap that follows a gap waits for the gap to fill (docs/protocol.md)."""

Key = tuple[str, int]
Ready = list[tuple[Event, str]]


class Stored(Protocol):
    """What the ordering asks of the dedup store."""

    def mark(self, reader: str, boot: int) -> int:
        """The highest seq such that every seq up to it is stored."""

    def seen(self, reader: str, boot: int, seq: int) -> bool:
        """Whether this event is stored."""


@dataclass(slots=True)
class Waited:
    """How long the taps released after a wait were held (seconds)."""

    total: float = 0.0
    longest: float = 0.0

    def add(self, seconds: float) -> None:
        """Count one tap released after ``seconds`` held."""
        self.total += seconds
        self.longest = max(self.longest, seconds)


@dataclass(slots=True)
class _Held:
    tag: Event
    transport: str
    since: float
    waiting: bool = False
    """Whether it was still held after the batch that brought it."""


class SeqOrder:
    """Taps held back behind a gap, per ``(reader, boot)``."""

    def __init__(self, hold: float = HOLD_SECONDS) -> None:
        self.hold = hold
        self._held: dict[Key, dict[int, _Held]] = {}
        self.count = 0
        """How many taps are held now (an int, so other threads may read it)."""
        self.released = 0
        """How many taps were held and later released (by the gap filling, a hello or the
        bound), since this order was made."""
        self.waited = Waited()
        """How long those :attr:`released` taps waited, in total and at most."""

    def __len__(self) -> int:
        return self.count

    def deadline(self) -> float | None:
        """When the oldest held tap is due for release (None when nothing is held)."""
        times = [h.since for held in self._held.values() for h in held.values()]
        return min(times) + self.hold if times else None

    def admit(self, tags: Ready, store: Stored, now: float) -> tuple[Ready, int]:
        """Take a batch's tags; return the ones now due, in seq order per reader, and how
        many were duplicates (stored already, held already, or twice in the batch)."""
        duplicates = 0
        touched: list[Key] = []
        for tag, transport in tags:
            key = (tag.reader, tag.boot)
            held = self._held.setdefault(key, {})
            if tag.seq in held or store.seen(tag.reader, tag.boot, tag.seq):
                duplicates += 1
                continue
            held[tag.seq] = _Held(tag, transport, now)
            self.count += 1
            if key not in touched:
                touched.append(key)
        ready: Ready = []
        for key in touched:
            ready += self._drain(key, store, now)
        for key in touched:
            for h in self._held.get(key, {}).values():
                h.waiting = True
        return ready, duplicates

    def _drain(self, key: Key, store: Stored, now: float, everything: bool = False) -> Ready:
        """Release the taps of ``key`` that no longer follow a gap (or all of them); one
        still held after the batch that brought it is counted in :attr:`released`, with
        its wait up to ``now``."""
        held = self._held.get(key, {})
        out: list[_Held] = []
        if everything:
            out = [held.pop(seq) for seq in sorted(held)]
        seq = store.mark(*key) + 1
        while held and seq <= max(held):
            if seq in held:
                out.append(held.pop(seq))
            elif not store.seen(*key, seq):
                break  # the gap: what is above it waits
            seq += 1
        if not held:
            self._held.pop(key, None)
        self.count -= len(out)
        for h in out:
            if h.waiting:
                self.released += 1
                self.waited.add(now - h.since)
        return [(h.tag, h.transport) for h in out]

    def expired(self, store: Stored, now: float) -> Ready:
        """Release, in order, every tap of a reader whose oldest held tap waited too long."""
        ready: Ready = []
        for key, held in list(self._held.items()):
            if held and min(h.since for h in held.values()) + self.hold <= now:
                ready += self._drain(key, store, now, everything=True)
        return ready

    def greeted(self, hello: Hello, store: Stored, now: float) -> Ready:
        """A reader's hello (heard at ``now``): release what it says can no longer be
        completed."""
        ready: Ready = []
        for key in [k for k in self._held if k[0] == hello.reader]:
            lost_boot = key[1] != hello.boot
            if lost_boot or hello.unacked < store.mark(*key) + 1:
                ready += self._drain(key, store, now, everything=True)
        return ready
