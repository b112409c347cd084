"""Numbering, keeping and resending events until the hub has stored them.

:class:`Delivery` is the reader's half of "every tap exactly once in effect"
(``docs/protocol.md``, "Delivery"). It holds no socket and no clock of its own: it is given a
``send(payload) -> bool`` function and the current tick count, so it runs the same over USB
serial, over MQTT and in the tests.

* Each new event gets the next seq of this boot (1, 2, 3, ...) and waits in an
  :class:`~outbox.Outbox` until an ``ack`` of this boot covers it. A bag reader's events are
  taps (:meth:`Delivery.tap`, a ``tag`` message); a mat's are zone states (``zones``, built
  by the mat and numbered by :meth:`Delivery.event`): the delivery is the same.
* After a (re)connection or a ``resync``, :meth:`Delivery.hello` greets the hub and resends
  every unacked event, oldest first.
* While events stay unacked, they are all resent every ``resend_ms``.
* Over MQTT (``repeat_hello``) the hello is repeated every ``hello_ms`` until the hub acks
  this boot: the hub may not have been listening when the reader connected.
* A heartbeat goes out every ``heartbeat_ms``, with the reader's health (the optional
  ``health()`` given: Wi-Fi signal, supply voltage, failed and too-fast reads), asked for
  only then, since measuring the supply takes a few ADC conversions.
* ``hello``, ``heartbeat`` carry the protocol version ``v`` given (1 for a bag reader, 2 for
  a mat), and ``on_hello(now)``, if given, runs after each hello and its resend (the mat
  sends every zone's state there).
"""

import messages
from compat import elapsed
from outbox import Outbox


class Delivery:
    """The protocol state of one reader during one boot."""

    def __init__(self, reader, boot, fw, send, capacity=64, resend_ms=500, hello_ms=3000,
                 heartbeat_ms=5000, repeat_hello=False, now=0, health=None, v=messages.VERSION,
                 on_hello=None):
        self.reader, self.boot, self.fw = reader, boot, fw
        self.v = v
        """The protocol version of the hello and heartbeat."""
        self.on_hello = on_hello
        self.send = send
        self.outbox = Outbox(capacity)
        self.resend_ms, self.hello_ms, self.heartbeat_ms = resend_ms, hello_ms, heartbeat_ms
        self.repeat_hello = repeat_hello
        self.health = health
        """A function giving the heartbeat's health fields (a dict), or ``None``."""
        self.seq = 0
        """The last seq handed out in this boot."""
        self.greeted = False
        """Whether the hub has acked this boot since the last hello."""
        self.refused = 0
        """Taps refused because the outbox was full."""
        self._sent_at = now
        self._hello_at = now
        self._beat_at = now

    def _emit(self, payload):
        try:
            return bool(self.send(payload))
        except OSError:  # cable out, broker away: the resend timer tries again
            return False

    def tap(self, uid, now):
        """A pawn newly placed on the pad: number it, keep it, send it.

        Returns its seq, or 0 when the outbox is full (the hub has been unreachable for
        ``capacity`` taps); the tap then gets no seq at all, so the numbering stays
        contiguous, and the caller tells the player it did not count.
        """
        return self.event(lambda seq: messages.tag(self.reader, self.boot, seq, uid), now)

    def event(self, build, now):
        """Number, keep and send the event ``build(seq)`` makes (its encoded payload).

        Returns its seq, or 0 when the outbox is full: then ``build`` is not called and no
        seq is used (see :meth:`tap`).
        """
        if self.outbox.full():
            self.refused += 1
            return 0
        self.seq += 1
        payload = build(self.seq)
        self.outbox.push(self.seq, payload)
        self._sent_at = now
        self._emit(payload)
        return self.seq

    def hello(self, now):
        """Greet the hub, then resend everything unacked (after connecting or a resync)."""
        self.greeted = False
        self._hello_at = now
        self._emit(messages.hello(self.reader, self.boot, self.fw, self.outbox.highest(),
                                  self.v))
        self.resend(now)
        if self.on_hello is not None:
            self.on_hello(now)

    def resend(self, now):
        """Send every unacked event again, oldest first."""
        self._sent_at = now
        for payload in self.outbox.payloads():
            self._emit(payload)

    def on_ack(self, boot, seq, now):
        """The hub stored every seq up to ``seq`` of ``boot``; acks of other boots are old."""
        if boot != self.boot:
            return
        self.greeted = True
        if self.outbox.ack(seq):
            self._sent_at = now  # progress: give the rest a full interval before resending

    def tick(self, now, uptime_s):
        """Resend, repeat the hello and beat the heart when their time has come."""
        if self.repeat_hello and not self.greeted and elapsed(now, self._hello_at, self.hello_ms):
            self.hello(now)
        elif len(self.outbox) and elapsed(now, self._sent_at, self.resend_ms):
            self.resend(now)
        if elapsed(now, self._beat_at, self.heartbeat_ms):
            self._beat_at = now
            health = self.health() if self.health is not None else None
            self._emit(messages.heartbeat(self.reader, self.boot, uptime_s, health, self.v))

    @property
    def pending(self):
        """How many events wait for an ack."""
        return len(self.outbox)
