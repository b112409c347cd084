"""A table's audit under way: whose bag, the taps so far, and what its end proposed.

An audit (:mod:`companion.kit.audits`) lives in the table's log like everything else, so a
restarted hub or a reloaded tablet finds it where it was:

- ``audit`` ``{"action": "start", "player": N, "then": [...], "by": ...}`` starts one (its
  id is this event's number); ``then`` lists the seats a whole-table check audits next;
- each tap on the audited player's reader is a ``tag`` event with ``"audit": id`` and what
  the registry knew the tag to be (``thing``), never played;
- ``audit`` ``{"action": "done", "audit": id, "fixes": [...], "learned": {...}}`` ends the
  tapping and keeps the fixes it proposed, which accepting applies exactly (each checked
  again), and what it learned (a correction that changes no count, made after them);
- the fixes themselves (and the learned correction, last) are ``move`` and ``correct``
  events of one batch (``"batch"``, and ``"audit": id``), so one Undo takes them all back;
  then ``audit`` ``{"action": "accept", "audit": id}``, or ``{"action": "drop", "audit":
  id}`` when the table drops it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.kit.audits import AuditReport
from companion.kit.game import AuditTap, Piece


@dataclass
class AuditRun:
    """One bag's audit at a table."""

    id: int
    """The number of the ``audit`` event that started it."""
    player: int
    """The seat whose bag (or pile) is audited: taps on that seat's reader are audit taps."""
    then: list[int] = field(default_factory=list)
    """The seats a whole-table check audits after this one, in order."""
    by: str = "tablet"
    """Who started it: ``tablet`` (the table's PIN) or ``phone`` (the player's token)."""
    taps: list[AuditTap] = field(default_factory=list)
    fixes: list[dict[str, Any]] | None = None
    """Once the tapping is done, the fixes it proposed (None while the player taps)."""
    report: AuditReport | None = None
    """The report the end of the tapping made for the table's screen (its fixes are
    :attr:`fixes`), kept as it was then."""
    private_report: AuditReport | None = None
    """The same report for the audited player's phone."""
    learned: dict[str, Any] | None = None
    """What the taps showed that changes no count (the report's ``learned``), made last
    when the audit is accepted."""

    @property
    def done(self) -> bool:
        """Whether the tapping has ended (the report waits to be accepted or dropped)."""
        return self.fixes is not None

    def add_tap(self, body: dict[str, Any]) -> None:
        """A logged audit tap (a ``tag`` event's body) joins the taps."""
        seen = body.get("thing")
        piece = None if seen is None else Piece.from_dict(seen)
        self.taps.append(AuditTap(piece, str(body.get("tag", {}).get("uid", ""))))

    def summary(self) -> dict[str, Any]:
        """What every screen may know of the audit: whose, how many taps, whether done."""
        return {"id": self.id, "player": self.player, "then": list(self.then), "by": self.by,
                "taps": len(self.taps), "done": self.done}


def tap_body(tag: dict[str, Any], run: AuditRun, piece: Piece | None) -> dict[str, Any]:
    """The body of an audit tap's ``tag`` event (``thing``: the piece, as a log keeps it;
    an older log's names its kind and id only)."""
    seen = None if piece is None else piece.to_dict()
    return {"tag": tag, "audit": run.id, "thing": seen, "player": run.player}


def started(n: int, body: dict[str, Any]) -> AuditRun:
    """The audit an ``audit`` start event (number ``n``) begins."""
    return AuditRun(n, int(body["player"]), [int(s) for s in body.get("then", [])],
                    str(body.get("by", "tablet")))
