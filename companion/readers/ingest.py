"""The hub's side of the reader link, independent of the transport.

Transports (:mod:`.serial_link`, :mod:`.mqtt_link`) hand every raw message to
:meth:`Ingest.submit`. One worker thread takes them in batches and, for each batch:

1. drops messages from a source that sends faster than :attr:`Ingest.rate` (``RATE_LIMITED``);
2. parses strictly (:func:`.protocol.parse`) and refuses unknown readers, and a message of
   the other kind of reader (``WRONG_KIND``: a ``zones`` from a bag reader, a ``tag`` from
   a cinema mat);
3. puts each reader's taps (a mat's zone states) in seq order, holding a tap that follows
   a gap for up to :data:`~.ordering.HOLD_SECONDS` (:class:`~.ordering.SeqOrder`);
4. stores the taps that are due in one transaction of the :class:`~.store.DedupStore`,
   calling ``on_event`` for each of them, in order, before the commit;
5. acks every reader heard in the batch with its contiguous mark, duplicates included, so a
   reader that resent something already stored stops resending.

Every message from a reader keeps its :class:`ReaderInfo` up to date (online, transport,
and from heartbeats its health); ``on_status`` hears of a change there: a reader coming
online or going offline, or a health level or count changing (not every heartbeat).
A rejection is counted per reader (or per source when the reader is unknown), logged the
first time that reason is seen for it, and passed to ``on_reject``. Nothing raises out of
the worker: a failing callback is logged and the link goes on.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from . import protocol as proto
from .health import Health
from .ordering import HOLD_SECONDS, SeqOrder
from .protocol import Event, Heartbeat, Hello, Rejection, Status, Tag, Zones
from .store import DedupStore

log = logging.getLogger("companion.readers")


class Transport(Protocol):
    """Something that carries messages to readers: a serial link or an MQTT link."""

    name: str

    def send(self, source: str, message: dict[str, Any]) -> None:
        """Send one hub-to-reader message to ``source`` (a port, or a reader id on MQTT)."""


@dataclass(frozen=True, slots=True)
class TagEvent:
    """An accepted, deduplicated tap: what the rest of the hub sees."""

    reader: str
    boot: int
    seq: int
    uid: str
    transport: str

    def to_dict(self) -> dict[str, Any]:
        """The JSON line ``readers tail`` prints."""
        return {"reader": self.reader, "boot": self.boot, "seq": self.seq, "uid": self.uid,
                "transport": self.transport}


@dataclass(frozen=True, slots=True)
class ZonesEvent:
    """An accepted, deduplicated zone state of a cinema mat: what lies on ``zone`` now,
    ``tags`` in the order they arrived."""

    reader: str
    boot: int
    seq: int
    zone: int
    tags: tuple[str, ...]
    transport: str
    count: int = -1
    """How many tags lie on the zone (more than :attr:`tags` when it holds more than a
    message lists); -1: ``len(tags)``."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON line ``readers tail`` prints."""
        return {"reader": self.reader, "boot": self.boot, "seq": self.seq, "zone": self.zone,
                "tags": list(self.tags), "count": max(self.count, len(self.tags)),
                "transport": self.transport}


ReaderEvent = TagEvent | ZonesEvent
"""What the rest of the hub is handed, in each reader's seq order."""

MAT, BAG = "mat", "bag"
"""The kinds of reader: a cinema mat reports zone states, a bag reader taps."""


@dataclass(slots=True)
class _Raw:
    transport: Transport
    source: str
    data: bytes
    claimed: str | None
    at: float


@dataclass
class ReaderInfo:
    """What the hub knows of one configured reader: whether it is online, how it is
    connected, and its health from its last heartbeat (:class:`~.health.Health`)."""

    reader: str
    online: bool = False
    kind: str = BAG
    """:data:`BAG` or :data:`MAT`: which messages the reader may send."""
    boot: int | None = None
    fw: str | None = None
    last_seen: float | None = None
    transport: str | None = None
    health: Health = field(default_factory=Health)


class _Bucket:
    __slots__ = ("tokens", "stamp")

    def __init__(self, tokens: float, stamp: float) -> None:
        self.tokens, self.stamp = tokens, stamp


class Ingest:
    """Parse, check, deduplicate, store and ack reader messages from any transport."""

    def __init__(self, store: DedupStore, readers: Iterable[str], *,
                 mats: Iterable[str] = (),
                 on_event: Callable[[ReaderEvent], None] | None = None,
                 on_reject: Callable[[Rejection, str], None] | None = None,
                 on_status: Callable[[ReaderInfo], None] | None = None,
                 on_committed: Callable[[], None] | None = None,
                 rate: float = 200.0, burst: float = 400.0, batch: int = 256,
                 hold: float = HOLD_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.readers = {r: ReaderInfo(r) for r in readers}
        self.readers.update({m: ReaderInfo(m, kind=MAT) for m in mats})
        self.on_event, self.on_reject, self.on_status = on_event, on_reject, on_status
        self.on_committed = on_committed
        """Called after each batch is committed (and acked): the place for slow follow-ups."""
        self.rate, self.burst, self.batch = rate, burst, batch
        self.clock = clock
        self.order = SeqOrder(hold)
        """Taps held behind a gap in their reader's seqs (worker thread only)."""
        self.accepted = 0
        self.duplicates = 0
        self.rejected: dict[str, Counter[str]] = defaultdict(Counter)
        self._logged: set[tuple[str, str]] = set()
        self._buckets: dict[str, _Bucket] = {}
        self._routes: dict[str, tuple[Transport, str]] = {}
        self._source_reader: dict[tuple[str, str], str] = {}
        self._queue: queue.Queue[_Raw | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self.batch_started = 0.0
        """When the batch being processed began (:attr:`clock`), for the hub's timing."""
        self.received: dict[tuple[str, int, int], float] = {}
        """When the link handed each tap of that batch over, by ``(reader, boot, seq)``."""

    # -- life cycle ------------------------------------------------------------------------

    def start(self) -> Ingest:
        """Start the worker thread."""
        self._thread = threading.Thread(target=self._run, name="reader-ingest", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Process what is queued, then stop the worker."""
        if self._thread:
            self._queue.put(None)
            self._thread.join(timeout=10)
            self._thread = None

    def submit(self, transport: Transport, source: str, data: bytes,
               claimed: str | None = None) -> None:
        """Queue one raw message (called from transport threads)."""
        self._queue.put(_Raw(transport, source, data, claimed, self.clock()))

    def idle(self) -> bool:
        """Whether nothing is waiting to be processed."""
        return self._queue.unfinished_tasks == 0

    def add_reader(self, reader: str, kind: str = BAG) -> None:
        """Trust one more reader id, of ``kind`` (:data:`BAG` or :data:`MAT`)."""
        self.readers.setdefault(reader, ReaderInfo(reader, kind=kind))

    # -- the worker ------------------------------------------------------------------------

    def _next(self) -> _Raw | None | Literal[False]:
        """The next queued message; False when a held tap falls due first."""
        due = self.order.deadline()
        if due is None:
            return self._queue.get()
        try:
            return self._queue.get(timeout=max(0.0, due - self.clock()) + 0.01)
        except queue.Empty:
            return False

    def _run(self) -> None:
        while True:
            first = self._next()
            if first is False:
                self._guarded([])
                continue
            batch = [first]
            while len(batch) < self.batch:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            stop = None in batch
            try:
                self._guarded([raw for raw in batch if raw is not None])
            finally:
                for _ in batch:
                    self._queue.task_done()
            if stop:
                return

    def _guarded(self, batch: list[_Raw]) -> None:
        try:
            self.process(batch)
        except Exception:  # noqa: BLE001 - the link must survive anything
            log.exception("reader link: batch failed")

    def process(self, batch: list[_Raw]) -> None:
        """Handle one batch of raw messages (the worker's step; callable in tests)."""
        tags: list[tuple[Event, str]] = []
        heard: dict[tuple[str, int], tuple[Transport, str]] = {}
        self.batch_started, self.received = self.clock(), {}
        due = self.order.expired(self.store, self.clock())
        for raw in batch:
            message = self._check(raw)
            if message is None:
                continue
            self._note(raw, message)
            if isinstance(message, Tag | Zones):
                tags.append((message, raw.transport.name))
                self.received[(message.reader, message.boot, message.seq)] = raw.at
                heard[(message.reader, message.boot)] = (raw.transport, raw.source)
            elif isinstance(message, Hello):
                due += self.order.greeted(message, self.store, self.clock())
                heard[(message.reader, message.boot)] = (raw.transport, raw.source)
        ready, repeated = self.order.admit(tags, self.store, self.clock())
        due += ready
        fresh = self.store.accept(due, self._apply) if due else []
        if fresh:
            self.store.sync()  # durable before any ack or push tells of it (outside the lock)
        self.accepted += len(fresh)
        self.duplicates += repeated + len(due) - len(fresh)
        for (reader, boot), (transport, source) in heard.items():
            self._send(transport, source, proto.ack(reader, boot, self.store.mark(reader, boot)))
        if fresh and self.on_committed:
            try:
                self.on_committed()
            except Exception:  # noqa: BLE001
                log.exception("reader link: on_committed failed")

    def _apply(self, tag: Event, transport: str) -> None:
        if self.on_event is None:
            return
        event: ReaderEvent = (
            ZonesEvent(tag.reader, tag.boot, tag.seq, tag.zone, tag.tags, transport, tag.count)
            if isinstance(tag, Zones) else
            TagEvent(tag.reader, tag.boot, tag.seq, tag.uid, transport))
        try:
            self.on_event(event)
        except Exception:  # noqa: BLE001
            log.exception("reader link: on_event failed for %s", event)

    def _who(self, raw: _Raw) -> str:
        """Whom a message is counted against: its reader if known, else its source."""
        source = (raw.transport.name, raw.source)
        return raw.claimed or self._source_reader.get(source) or f"{source[0]}:{source[1]}"

    def _check(self, raw: _Raw) -> proto.Message | None:
        who = self._who(raw)
        if not self._allow(who):
            self._reject(Rejection("RATE_LIMITED", "over the rate limit", raw.claimed), raw)
            return None
        message = proto.parse(raw.data)
        if isinstance(message, Rejection):
            self._reject(message, raw)
            return None
        if raw.claimed is not None and message.reader != raw.claimed:
            self._reject(Rejection("READER_MISMATCH", f"{message.reader} on the topic of "
                                   f"{raw.claimed}", raw.claimed), raw)
            return None
        if message.reader not in self.readers:
            self._reject(Rejection("UNKNOWN_READER", message.reader, message.reader), raw)
            return None
        wrong = MAT if isinstance(message, Tag) else BAG if isinstance(message, Zones) else None
        if wrong is not None and self.readers[message.reader].kind == wrong:
            self._reject(Rejection("WRONG_KIND", f"{type(message).__name__.lower()} from a "
                                   f"{wrong} reader", message.reader), raw)
            return None
        return message

    def _allow(self, who: str) -> bool:
        now = self.clock()
        bucket = self._buckets.get(who)
        if bucket is None:
            bucket = self._buckets[who] = _Bucket(self.burst, now)
        bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.stamp) * self.rate)
        bucket.stamp = now
        if bucket.tokens < 1:
            return False
        bucket.tokens -= 1
        return True

    def _reject(self, rejection: Rejection, raw: _Raw) -> None:
        known = rejection.reader if rejection.reader in self.readers else None
        who = known or self._who(raw)
        self.rejected[who][rejection.code] += 1
        if (who, rejection.code) not in self._logged:
            self._logged.add((who, rejection.code))
            log.warning("reader link: rejected from %s: %s (%s); counting further ones",
                        who, rejection.code, rejection.detail)
        if self.on_reject:
            try:
                self.on_reject(rejection, who)
            except Exception:  # noqa: BLE001
                log.exception("reader link: on_reject failed")
        return None

    def _note(self, raw: _Raw, message: proto.Message) -> None:
        info = self.readers[message.reader]
        info.last_seen = raw.at
        changed = False
        if isinstance(message, Status):
            changed = info.online != (message.state == "online")
            info.online = message.state == "online"
        else:
            self._routes[message.reader] = (raw.transport, raw.source)
            self._source_reader[(raw.transport.name, raw.source)] = message.reader
            changed = not info.online or info.transport != raw.transport.name
            info.online, info.transport = True, raw.transport.name
            if isinstance(message, Hello):
                info.boot, info.fw = message.boot, message.fw
            elif info.boot is None:
                info.boot = message.boot
            if isinstance(message, Heartbeat):
                changed = info.health.update(message, raw.at) or changed
        if changed and self.on_status:
            self.on_status(info)

    # -- hub to reader ---------------------------------------------------------------------

    def _send(self, transport: Transport, source: str, message: dict[str, Any]) -> None:
        try:
            transport.send(source, message)
        except Exception as exc:  # noqa: BLE001 - an unplugged reader must not stop the link
            log.debug("reader link: could not send to %s: %s", source, exc)

    def send(self, reader: str, message: dict[str, Any]) -> bool:
        """Send a message to a reader by the route it was last heard on; False if none."""
        route = self._routes.get(reader)
        if route is None:
            return False
        self._send(route[0], route[1], message)
        return True

    def feedback(self, reader: str, level: str, seq: int | None = None) -> bool:
        """Ask a reader to show ``ok``, ``warn`` or ``error``."""
        return self.send(reader, proto.feedback(reader, level, seq))

    def mark_offline(self, transport: Transport, source: str) -> None:
        """A transport lost ``source`` (an unplugged port): its readers are offline."""
        for reader, (tr, src) in list(self._routes.items()):
            if tr is transport and src == source and self.readers[reader].online:
                self.readers[reader].online = False
                if self.on_status:
                    self.on_status(self.readers[reader])

    def stats(self) -> dict[str, Any]:
        """Counters: accepted, duplicates, taps held behind a gap now, taps released after
        a wait behind a gap (``released``) and how long they waited (``held_seconds``:
        ``total`` and ``longest``), and rejections per reader and reason."""
        return {"accepted": self.accepted, "duplicates": self.duplicates,
                "held": len(self.order), "released": self.order.released,
                "held_seconds": {"total": self.order.waited.total,
                                 "longest": self.order.waited.longest},
                "rejected": {who: dict(c) for who, c in self.rejected.items()}}
