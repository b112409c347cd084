"""The hub's cycle collector (:mod:`companion.hub.collector`): the survivors of a full
collection leave its sight, and every few full collections they all come back, so that a
cycle among old objects that dies is still collected."""

from __future__ import annotations

import gc
import weakref

import pytest

from companion.hub import collector
from companion.hub.collector import Collector


class Node:
    """An object in a cycle with itself: only the cycle collector frees it."""

    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def watched():
    """A collector that rescans every third full collection (stopped afterwards)."""
    gc.collect()
    c = Collector(rescan_every=3).start()
    yield c
    c.stop()
    gc.collect()


def test_a_dead_cycle_among_survivors_waits_for_the_rescan(watched: Collector) -> None:
    node = Node()
    ref = weakref.ref(node)
    gc.collect()  # full collection 1: the node survives, and is frozen
    assert gc.get_freeze_count() > 0 and watched.full == 1
    del node
    gc.collect()  # 2: out of sight, so not collected
    assert ref() is not None
    gc.collect()  # 3: the rescan's turn: everything back in sight after it
    assert gc.get_freeze_count() == 0
    gc.collect()  # 4: walks everything
    assert ref() is None


def test_young_dead_cycles_are_collected_as_ever(watched: Collector) -> None:
    node = Node()
    ref = weakref.ref(node)
    del node
    gc.collect()
    assert ref() is None


def test_stop_brings_everything_back_and_stops_watching(watched: Collector) -> None:
    gc.collect()
    assert gc.get_freeze_count() > 0
    watched.stop()
    assert gc.get_freeze_count() == 0
    gc.collect()
    assert watched.full == 1 and gc.get_freeze_count() == 0


def test_python_s_own_collector_on_request(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(collector.ENV, "python")
    assert collector.tuned() is None and gc.get_freeze_count() == 0
