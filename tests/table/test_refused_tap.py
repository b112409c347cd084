"""A tap a game reads as a move its own rules then refuse is an alert with that move's own
violation: logged, open, pushed as the newest alert, and the game unchanged.

The game here is Dice Duel (``tests/third_game``) with pieces that read every face as
"hold": holding before any roll is refused by its engine (``NOTHING_TO_HOLD``), which a
table must say as it is, not as some older alert, and not as a crash (an ``IndexError`` on a
table with no alert yet, before).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.table.store import HubStore
from companion.table.table import Table, config_dict, new_config
from tests.third_game.dice_duel import DiceDuel, DiceFaces, DiceMove


class HoldingFaces(DiceFaces):
    """Every face read as "hold" (a slip a game's author may make)."""

    def read(self, state: Any, seat: int, thing: Any, uid: str, names: list[str]) -> Any:
        """A hold, whatever the face."""
        return DiceMove("hold", seat)


def test_a_refused_move_read_from_a_tap_is_its_own_violation(tmp_path: Path) -> None:
    game = DiceDuel()
    game.pieces = HoldingFaces()
    store = HubStore(tmp_path / "hub.sqlite")
    try:
        config, _, _ = new_config("t1", "Dice", ["Ana", "Bob"], 0, ["bag-1", "bag-2"], None,
                                  0, game=game.id)
        store.add_table(config.id, config_dict(config), 0)
        table = Table(config, game, store)
        before = table.state.to_dict()
        assert not table.alerts
        result = table.handle_tag(0, None, {"uid": "04d1ce00000006"})
        assert getattr(result, "code", None) == "NOTHING_TO_HOLD"
        assert table.alerts[-1]["code"] == "NOTHING_TO_HOLD"
        assert table.alerts[-1]["message"] == "Roll before you hold."
        assert table.alerts[-1]["id"] == table.count
        assert table.state.to_dict() == before and table.entries == []
        assert store.events(config.id)[-1][2]["alert"]["code"] == "NOTHING_TO_HOLD"
    finally:
        store.close()
