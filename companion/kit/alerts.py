"""An alert: a tap the rules do not explain, told to the table with what to do about it.

Every game's tag reading answers a move, or an :class:`Alert` with a stable ``code``, an
English ``message`` and ``fix``, and the ``params`` a device in another language renders
them from (:mod:`companion.i18n`). The hub pushes it to the table's screens and gives the
reader red feedback; the game's state does not change.
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
    pawn: int | None = None
    color: str | None = None
    params: dict[str, Any] = field(default_factory=dict)
    """The facts of the message and the fix (see :mod:`.alert_params`), for other languages."""

    def to_dict(self) -> dict[str, Any]:
        """JSON form, as pushed to the dashboard."""
        return {"code": self.code, "message": self.message, "fix": self.fix,
                "player": self.player, "pawn": self.pawn, "color": self.color,
                "params": self.params}
