"""A state push is built from committed state only: while a batch's transaction is open
(its table already holds the new state, which is not yet in the log and could still be
lost), the notifier waits for it rather than show that state (``hub/sockets.py``)."""

from __future__ import annotations

import threading
import time
from typing import Any

from companion.hub import sockets


class Emits:
    """Stands in for Flask-SocketIO's server: keeps what would be emitted."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, Any, str | None]] = []

    def emit(self, event: str, data: Any, to: str | None = None) -> None:
        self.sent.append((event, data, to))


def test_a_push_waits_for_the_open_transaction_of_its_table(rig) -> None:
    info = rig.table()
    rig.hub.settled()
    table = rig.hub.tables[info["id"]]
    current = table.state.current
    move = table.game.move_from_dict({"move": "end_turn", "player": current})
    emits = Emits()
    push = sockets.pusher(emits, rig.hub, set())  # type: ignore[arg-type]
    inside, committed = threading.Event(), threading.Event()
    built: dict[str, Any] = {}

    def play() -> None:
        with rig.hub.store.transaction():
            table.submit(move)  # in the table's memory now, not yet committed
            inside.set()
            time.sleep(0.3)  # a slow batch: the push below must not overtake it
        committed.set()

    def build() -> None:
        assert inside.wait(10)
        send = push(info["id"], "state", None)
        built["after_commit"] = committed.is_set()
        assert send is not None
        send()

    threads = [threading.Thread(target=play), threading.Thread(target=build)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert built["after_commit"], "the push read a state whose batch was still open"
    event, data, room = emits.sent[0]
    assert (event, room, data["events"]) == ("state", info["id"], table.count)
