"""A tap a game reads as a move its own rules then refuse is an alert with that move's own
violation: logged, open, pushed as the newest alert, and the game unchanged.

The game is Number Tokens (installed from ``examples/number-tokens``), whose pieces read
every token tapped as that reader's play and leave the turn to the rules: a token tapped
on the reader of a player whose turn it is not is refused by its engine
(``NOT_YOUR_TURN``), which a table must say as it is, not as some older alert, and not as a
crash (an ``IndexError`` on a table with no alert yet, before).
"""

from __future__ import annotations

from pathlib import Path

from companion import games
from companion.kit.game import Piece
from companion.table.store import HubStore
from companion.table.table import Table, config_dict, new_config


def test_a_refused_move_read_from_a_tap_is_its_own_violation(installed: Path,
                                                             tmp_path: Path) -> None:
    game = games.load("number-tokens")
    store = HubStore(tmp_path / "hub.sqlite")
    try:
        config, _, _ = new_config("t1", "Tokens", ["Ana", "Bob"], 0, ["r-1", "r-2"], None,
                                  0, game=game.id)
        store.add_table(config.id, config_dict(config), 0)
        table = Table(config, game, store)
        before = table.state.to_dict()
        assert not table.alerts
        token = Piece("token", 6, 7, "number-tokens")  # token 7, on Bob's reader: Ana's turn
        result = table.handle_tag(1, token, {"uid": "04d1ce00000007"})
        assert getattr(result, "code", None) == "NOT_YOUR_TURN"
        alert = table.alerts[-1]
        assert alert["code"] == "NOT_YOUR_TURN" and alert["id"] == table.count
        assert alert["message"] == "It is seat 1's turn, not seat 2's."
        assert alert["params"] == {"player": 1, "name": "Bob", "current": 0}
        assert table.state.to_dict() == before and table.entries == []
        assert store.events(config.id)[-1][2]["alert"]["code"] == "NOT_YOUR_TURN"
    finally:
        store.close()
