"""Python's cycle collector, kept from stopping the hub for long when it holds many tables.

CPython frees most objects the moment their last reference goes; its cycle collector only
looks for groups of objects that refer to each other. A *full* collection walks every
object the process holds, and it holds the interpreter while it does: in the hub at 500
tables (``bench/e2e.py --capacity``, 135 MiB) each one took 30 to 116 ms, and one came
every 3 to 10 s, because every move leaves a new game state that lives a few seconds and
so counts as long-lived. Every tap that arrived meanwhile waited.

:class:`Collector` moves the objects that survive a full collection out of the
collector's sight (:func:`gc.freeze`): the next full collection walks only what came
after. Objects out of sight are still freed when their last reference goes; only a cycle
among them that dies later waits, so every :data:`RESCAN_EVERY`-th full collection brings
them all back into sight (:func:`gc.unfreeze`) and the one after walks everything once.
"""

from __future__ import annotations

import gc
import os
from typing import Any

ENV = "POPCORN_GC"
"""``python`` leaves Python's collector as it is (to compare, ``bench/e2e.py --hub-env``);
unset or anything else: :class:`Collector`."""

RESCAN_EVERY = 50
"""Full collections between two that walk every object (cycles among old objects)."""


class Collector:
    """Freezes the survivors of each full collection; brings everything back every
    :data:`RESCAN_EVERY`-th one."""

    def __init__(self, rescan_every: int = RESCAN_EVERY) -> None:
        self.rescan_every = rescan_every
        self.full = 0
        """Full collections seen since :meth:`start`."""

    def start(self) -> Collector:
        """Freeze what the process holds now (its modules, catalog and tables, all
        long-lived) and watch every collection from now on."""
        gc.freeze()
        gc.callbacks.append(self._collected)
        return self

    def stop(self) -> None:
        """Stop watching, and put every frozen object back in the collector's sight."""
        if self._collected in gc.callbacks:
            gc.callbacks.remove(self._collected)
        gc.unfreeze()

    def _collected(self, phase: str, info: dict[str, Any]) -> None:
        if phase != "stop" or info["generation"] != 2:
            return
        self.full += 1
        if self.full % self.rescan_every:
            gc.freeze()
        else:
            gc.unfreeze()


def tuned() -> Collector | None:
    """Start a :class:`Collector` unless :data:`ENV` says ``python``; the one started."""
    if os.environ.get(ENV) == "python":
        return None
    return Collector().start()
