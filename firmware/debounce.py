"""From raw reads to taps: a short dwell before a tag counts, a grace period before it leaves.

The RC522 is polled every few tens of milliseconds; each poll gives the UIDs in the field
right now. Raw reads flicker: a pawn resting on the pad is missed now and then, and a pawn
swept past the edge of the antenna may be read once. :class:`Debouncer` turns them into taps:

* **dwell**: a UID counts as placed once it has been read at two moments at least
  ``dwell_ms`` apart (with ``dwell_ms`` 0, the first read counts);
* **debounce**: it counts as lifted only after ``gone_ms`` without a read, so a missed read
  or two never makes a resting pawn report again;
* a UID is reported once when placed, never while it rests, and again when it comes back
  after being lifted;
* a UID that leaves before its dwell is over (a pawn swept past the pad, or a tap too
  quick to read twice) is never reported: :attr:`Debouncer.too_fast` counts those, and
  the heartbeat carries the count, so a hub can see taps that did not count.
"""

from compat import ticks_diff


class Debouncer:
    """Remembers the tags near the pad and says which ones were just placed."""

    def __init__(self, dwell_ms=40, gone_ms=300):
        self.dwell_ms, self.gone_ms = dwell_ms, gone_ms
        self._tags = {}  # uid -> [first read, last read, reported]
        self.too_fast = 0
        """UIDs that left the pad before their dwell was over, since start."""

    def update(self, uids, now):
        """Feed the UIDs read by one poll at tick ``now``; returns the newly placed ones."""
        placed = []
        for uid in uids:
            entry = self._tags.get(uid)
            if entry is None:
                entry = self._tags[uid] = [now, now, False]
            entry[1] = now
            if not entry[2] and ticks_diff(now, entry[0]) >= self.dwell_ms:
                entry[2] = True
                placed.append(uid)
        for uid in [u for u, e in self._tags.items() if ticks_diff(now, e[1]) > self.gone_ms]:
            if not self._tags[uid][2]:
                self.too_fast += 1
            del self._tags[uid]
        return placed

    def tracked(self):
        """Every UID near the pad now (placed or still dwelling), for the next poll."""
        return list(self._tags)

    def resting(self):
        """The UIDs that have been reported and are still on the pad."""
        return [uid for uid, entry in self._tags.items() if entry[2]]
