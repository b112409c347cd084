"""The hub's pushes: notifications that a table changed, queued and delivered by one thread.

The hub raises a notification (``state``, ``alert``, ``handled``, ``identify``, ``readers``,
``reader_health``, ``enroll`` or ``token``) whenever something a screen shows has changed;
:class:`Pushes` queues it and its own thread hands it to the listeners (the Socket.IO layer,
:mod:`.sockets`). Neither the reader path nor a request ever waits for a dashboard: building
views and writing to WebSockets happen in that thread. A notification raised inside a reader
batch's transaction waits until the batch is committed, and each round of delivery is made
durable (one flush of the database's log) between building its views and sending them, so
no screen ever shows a tap the log could still lose, even to a power cut.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from companion.table.store import HubStore

log = logging.getLogger("companion.hub")

Listener = Callable[[str, str, Any], Callable[[], None] | None]
"""Called as ``listener(table_id, kind, payload)``: kind is ``state``, ``alert``, ``handled``
(an alert's id), ``identify`` (a tap that only names a thing), ``readers``,
``reader_health`` (a reader of the table has a new health problem), ``enroll`` or ``token``
(a seat whose token was replaced). A listener that tells the outside world returns what
sends it (built from what it read now): it is called once the round's notifications are
durable (one :meth:`~companion.readers.store.DedupStore.sync` for the whole round)."""

Note = tuple[str, str, Any]
"""One queued notification: ``(table_id, kind, payload)``."""


class Pushes:
    """The queue of notifications and the thread that delivers them to :attr:`listeners`.

    >>> pushes = Pushes(store)            # doctest: +SKIP
    >>> pushes.listeners.append(print)    # doctest: +SKIP
    >>> pushes.emit("ae83be96", "state")  # doctest: +SKIP
    >>> pushes.settled()                  # doctest: +SKIP
    True

    Within one round of delivery, a table's ``state`` notifications are folded into one: a
    screen needs the latest view, not every view in between.
    """

    def __init__(self, store: HubStore) -> None:
        self.store = store
        self.listeners: list[Listener] = []
        """Who is told, in order; a listener that raises is logged and skipped."""
        self._deferred: list[Note] = []
        self._notes: queue.Queue[Note | None] = queue.Queue()
        self._thread = threading.Thread(target=self._notifier, name="hub-notify", daemon=True)
        self._thread.start()

    def emit(self, table_id: str, kind: str, payload: Any = None) -> None:
        """Queue a notification; the notifier thread tells the listeners.

        Raised inside the store's transaction (a reader batch), it waits for :meth:`flush`.
        """
        if self.store.in_transaction():
            self._deferred.append((table_id, kind, payload))
            return
        self._notes.put((table_id, kind, payload))

    def flush(self) -> None:
        """Release the notifications of the batch just committed (the ingest calls this)."""
        with self.store.lock:  # never empty both at once: settled() reads them under it
            pending, self._deferred = self._deferred, []
            for note in pending:
                self._notes.put(note)

    def settled(self, timeout: float = 5.0) -> bool:
        """Wait until every notification raised so far has been delivered (for tests and
        tools), those of a reader batch still waiting for its commit included (a reader
        hears its feedback before the batch commits); False if some are still undelivered
        after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.store.lock:
                idle = not self._deferred and self._notes.unfinished_tasks == 0
            if idle:
                return True
            time.sleep(0.002)
        return False

    def stop(self) -> None:
        """Deliver what is queued, then end the notifier thread (waits up to 5 s)."""
        self._notes.put(None)
        self._thread.join(timeout=5)

    def _notifier(self) -> None:
        while True:
            batch = [self._notes.get()]
            while True:
                try:
                    batch.append(self._notes.get_nowait())
                except queue.Empty:
                    break
            try:
                if not self._deliver(batch):
                    return
            finally:
                for _ in batch:
                    self._notes.task_done()

    def _deliver(self, batch: list[Note | None]) -> bool:
        seen: set[str] = set()
        sends: list[Callable[[], None]] = []
        going_on = True
        for note in batch:
            if note is None:
                going_on = False
                break
            table_id, kind, payload = note
            if kind == "state":
                if table_id in seen:
                    continue  # one state push per table and round is enough
                seen.add(table_id)
            sends += self._tell(table_id, kind, payload)
        if sends:
            # what the round's views show was committed before this: durable before it goes
            self.store.sync()
        for send in sends:
            try:
                send()
            except Exception:  # noqa: BLE001 - a broken send must not stop the hub
                log.exception("hub: push failed")
        return going_on

    def _tell(self, table_id: str, kind: str, payload: Any) -> list[Callable[[], None]]:
        sends = []
        for listener in list(self.listeners):
            try:
                send = listener(table_id, kind, payload)
            except Exception:  # noqa: BLE001 - a broken listener must not stop the hub
                log.exception("hub: listener failed")
                continue
            if send is not None:
                sends.append(send)
        return sends
