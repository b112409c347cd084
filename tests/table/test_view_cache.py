"""A table builds its public view once per state: a move's answer, its push and a screen's
reload share it, and the view always shows the state in place: after draws, a batch
refused halfway, a batch taken and an undo."""

from __future__ import annotations

from typing import Any

from companion.table.table import Table
from tests.table.test_batch import batch, pinned, seating, undo  # noqa: F401 - the fixture


def built_now(table: Table) -> dict[str, Any]:
    """The game's public view of the table's state, built afresh."""
    return table.game.public_view(table.state, table.config.players)


def shows_its_state(table: Table) -> None:
    """The table's view is what a fresh build of its state gives, and a second look at the
    same state reuses the first one's build."""
    first, second = table.view(), table.view()
    fresh = built_now(table)
    assert {k: first[k] for k in fresh} == fresh
    assert second["cinemas"] is first["cinemas"]


def test_the_view_follows_every_change_and_is_built_once_per_state(pinned) -> None:  # noqa: F811
    hub, client, table_id, pin = pinned
    table = hub.tables[table_id]
    shows_its_state(table)
    moves = seating(hub, client, table_id)  # the turns passed, Ana's draws
    shows_its_state(table)
    drawn = table.view()["cinemas"]

    refused = batch(client, table_id, moves[:1] + [moves[0]] + moves[1:])
    assert refused.status_code == 409, refused.json
    assert table.view()["cinemas"] is drawn  # nothing changed: the same build
    shows_its_state(table)

    answer = batch(client, table_id, moves)
    assert answer.status_code == 200, answer.json
    assert answer.json["view"]["cinemas"] == built_now(table)["cinemas"] != drawn
    shows_its_state(table)

    assert undo(client, table_id, pin).status_code == 200
    assert table.view()["cinemas"] == drawn
    shows_its_state(table)

