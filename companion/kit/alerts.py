"""An alert: a tap the rules do not explain, told to the table with what to do about it.

Every game's tag reading answers a move, or an :class:`Alert` with a stable ``code``, an
English ``message`` and ``fix``, and the ``params`` a device in another language renders
them from (:mod:`companion.i18n`). The hub pushes it to the table's screens and gives the
reader red feedback; the game's state does not change. When its fix is to correct a piece's
place, ``correct`` is that correction, ready to send (the dashboard's correction dialog opens
with it). The table numbers each alert it logs (``id``: its event number) and keeps it open
until a device dismisses it or a correction handles it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Alert:
    """A tap the rules do not explain: what happened, who is concerned, how to fix it."""

    code: str
    message: str
    fix: str
    player: int | None = None
    params: dict[str, Any] = field(default_factory=dict)
    """The facts of the message and the fix, for other languages and for the screens: the
    game's own (Popcorn's name the ``pawn`` and its ``color``, B Movies' the token)."""
    correct: dict[str, Any] | None = None
    """The correction the fix proposes, as the body of ``POST /api/tables/{id}/correct``
    takes it (Popcorn: ``{"pawn": 21, "zone": "bag", "player": 0}``), or None."""

    def to_dict(self) -> dict[str, Any]:
        """JSON form, as pushed to the dashboard (``correct`` only when there is one)."""
        out = {"code": self.code, "message": self.message, "fix": self.fix,
               "player": self.player, "params": self.params}
        if self.correct is not None:
            out["correct"] = dict(self.correct)
        return out
