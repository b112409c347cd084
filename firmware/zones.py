"""From scans to a zone's settled tags, in the order they arrived (the cinema mat's debounce).

A mat scans each zone again and again; each scan gives the UIDs read there, in the order the
scan read them. Raw scans flicker: a hand passing over a zone carries a tag through one
scan, and a tag lying at the edge of an antenna is missed now and then. :class:`ZoneTags`
turns them into the zone's **settled** set, which is what protocol v2's ``zones`` message
reports (``docs/protocol.md``, "Mats: protocol version 2"):

* a tag **arrives** once it was read in ``enter`` scans in a row (2): a tag seen in one
  scan only (a hover) never counts;
* a settled tag **leaves** once it was missed in ``leave`` scans in a row (3): missing it
  once or twice (a flicker) changes nothing;
* the settled tags keep the **order they arrived**: tags that arrive in the same scan go in
  the order that scan read them, after the ones already there; a tag keeps its place while
  it stays, and one that comes back after leaving goes last;
* at most ``capacity`` tags (16, what a ``zones`` message holds) settle; a further one
  waits until one leaves;
* the zone is **known** once it has been read in ``enter`` scans: before that, a tag lying
  there since the start could not have settled yet, so "empty" would be a guess (after a
  restart it would tell the hub that every tag left).

Counting scans rather than milliseconds makes the rule the same whatever a scan takes.
"""

ENTER_SCANS = 2
"""Scans in a row that must read a tag before it counts as present."""
LEAVE_SCANS = 3
"""Scans in a row that must miss a settled tag before it counts as gone."""

ZONE_LIMIT = 40
"""The most tags a zone reads and follows: a late game's exit zone may hold two dozen guests
(a ``zones`` message then lists the newest :data:`messages.MAX_ZONE_TAGS` and the count)."""


class ZoneTags:
    """One zone: its settled tags (:attr:`tags`) and the tags on their way in or out."""

    def __init__(self, enter=ENTER_SCANS, leave=LEAVE_SCANS, capacity=16):
        self.enter, self.leave, self.capacity = enter, leave, capacity
        self.tags = []
        """The settled UIDs, first arrived first."""
        self.hovered = 0
        """Tags read and gone again before they settled, since start (hands, sweeps)."""
        self.scans = 0
        """Scans fed since start."""
        self._missed = {}  # settled uid -> scans missed in a row
        self._seen = {}  # arriving uid -> scans read in a row

    def update(self, uids):
        """Feed one scan's UIDs (in the order read); returns whether :attr:`tags` changed."""
        self.scans += 1
        changed = False
        present = set(uids)
        for uid in list(self.tags):
            if uid in present:
                self._missed[uid] = 0
                continue
            missed = self._missed[uid] + 1
            if missed >= self.leave:
                self.tags.remove(uid)
                del self._missed[uid]
                changed = True
            else:
                self._missed[uid] = missed
        seen = {}
        for uid in uids:
            if uid in self._missed or uid in seen:
                continue  # settled already, or read twice in one scan
            count = self._seen.get(uid, 0) + 1
            if count >= self.enter and len(self.tags) < self.capacity:
                self.tags.append(uid)
                self._missed[uid] = 0
                changed = True
            else:
                seen[uid] = count
        for uid in self._seen:
            if uid not in present:
                self.hovered += 1
        self._seen = seen
        return changed

    def known(self):
        """Whether :attr:`tags` is what lies on the zone (it has been read often enough)."""
        return self.scans >= self.enter

    def arriving(self):
        """The UIDs read lately that have not settled yet."""
        return list(self._seen)
