"""Where a tap's time goes inside the hub: stamps for ``bench/e2e.py``, off by default.

With ``POPCORN_TIMING=FILE`` in ``serve``'s environment, the hub appends one JSON line to
FILE per tap it plays and one per state push it sends, with :func:`time.monotonic` stamps
(the same clock in every process of the machine, so the bench can set its own beside them):

- a ``tap`` line: ``table``, ``events`` (the table's count once the tap is played),
  ``received`` (the reader link handed the line to the ingest), ``started`` (the ingest's
  batch began, the queue behind it), ``locked`` (the hub got the tap, under the table
  lock, inside the batch's transaction), ``handled`` (the table played and logged it) and
  ``committed`` (the batch's transaction committed; the reader is acked after it);
- a ``push`` line: ``table``, ``events`` (the count the push carries), ``started`` (the
  notifier took it), ``viewed`` (the view was built) and ``sent`` (Socket.IO has sent it).

Nothing here touches the engine, and with the variable unset each hook is one attribute
test.
"""

from __future__ import annotations

import json
import os
import threading
import time
from typing import IO, Any

ENV = "POPCORN_TIMING"
"""The environment variable that names the file of stamps (unset: no stamps)."""


class Timing:
    """The stamps' file and the taps of the batch not yet committed."""

    def __init__(self, path: str | None = None) -> None:
        """``path``: the file to append to (default: :data:`ENV`'s value; none: off)."""
        path = os.environ.get(ENV) if path is None else path
        self.on = bool(path)
        """Whether stamps are taken at all."""
        # written through a buffer, flushed at close: the bench reads the file once the hub
        # has stopped, and a write per line would load the hub it measures
        self._file: IO[str] | None = open(path, "a") if path else None  # noqa: SIM115
        self._pending: list[dict[str, Any]] = []
        self._write_lock = threading.Lock()

    def tap(self, table_id: str, events: int, received: float | None, started: float,
            locked: float) -> None:
        """A tap played (under the store's lock): kept until its batch commits."""
        self._pending.append({"kind": "tap", "table": table_id, "events": events,
                              "received": received, "started": started, "locked": locked,
                              "handled": time.monotonic()})

    def committed(self) -> None:
        """The batch's transaction committed: write its taps."""
        now = time.monotonic()
        pending, self._pending = self._pending, []
        for line in pending:
            line["committed"] = now
            self._write(line)

    def push(self, table_id: str, events: int, started: float, viewed: float) -> None:
        """A state push sent."""
        self._write({"kind": "push", "table": table_id, "events": events, "started": started,
                     "viewed": viewed, "sent": time.monotonic()})

    def _write(self, line: dict[str, Any]) -> None:
        if self._file is not None:
            with self._write_lock:
                self._file.write(json.dumps(line) + "\n")

    def close(self) -> None:
        """Close the file."""
        if self._file is not None:
            self._file.close()
            self._file = None
