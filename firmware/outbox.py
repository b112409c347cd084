"""The unacked tag events of this boot, oldest first, in a fixed ring of RAM slots.

Seqs are handed out in increasing order and the hub's ``ack`` is cumulative ("everything up
to seq is stored"), so the ring only ever drops from its oldest end. Its size is fixed at
start so that a long outage can never exhaust the heap: when every slot is taken, a new tap
is refused (see :meth:`Outbox.push`) rather than an old one dropped, because a dropped seq
would leave a hole the hub's contiguous ack can never pass.
"""


class Outbox:
    """A ring of ``capacity`` ``(seq, payload)`` slots."""

    def __init__(self, capacity=64):
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self.capacity = capacity
        self._seqs = [0] * capacity
        self._payloads = [None] * capacity
        self._head = 0
        self._count = 0

    def __len__(self):
        return self._count

    def full(self):
        """Whether a new event would not fit."""
        return self._count == self.capacity

    def push(self, seq, payload):
        """Keep ``payload`` (the encoded event ``seq``) until acked; False if full."""
        if self._count == self.capacity:
            return False
        slot = (self._head + self._count) % self.capacity
        self._seqs[slot] = seq
        self._payloads[slot] = payload
        self._count += 1
        return True

    def ack(self, seq):
        """Forget every event up to ``seq``; returns how many were forgotten."""
        dropped = 0
        while self._count and self._seqs[self._head] <= seq:
            self._payloads[self._head] = None
            self._head = (self._head + 1) % self.capacity
            self._count -= 1
            dropped += 1
        return dropped

    def payloads(self):
        """The kept payloads, oldest first (a new list)."""
        return [self._payloads[(self._head + i) % self.capacity] for i in range(self._count)]

    def holds(self, seq):
        """Whether event ``seq`` is still kept (not acked yet). The kept seqs are always a
        run without gaps, since seqs are handed out one by one and acks drop the oldest."""
        if not self._count:
            return False
        return self._seqs[self._head] <= seq <= self.highest()

    def highest(self):
        """The highest seq still kept, or 0 when nothing is."""
        if not self._count:
            return 0
        return self._seqs[(self._head + self._count - 1) % self.capacity]
