"""The bag audits of a :class:`~companion.table.table.Table`: a player taps every guest of
their bag on their reader, the game says what the taps show (its ``audits`` part), and the
table applies the fixes it finds once the table accepts them, all or none.

Each step is an ``audit`` event of the table's log (``start``, ``done`` with the fixes,
``accept`` or ``drop``), and each tap a ``tag`` event that is never played, so a restart
or a reload finds the audit where it was (:class:`~.audit.AuditRun`).
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from companion.kit.audits import AuditReport
from companion.kit.errors import TableError
from companion.kit.game import Piece
from companion.table.audit import AuditRun, started, tap_body
from companion.table.violations import BatchViolation

if TYPE_CHECKING:
    from companion.kit.game import GameKind
    from companion.kit.parts import Corrections


class TableAudits:
    """The audit part of a :class:`~companion.table.table.Table` (a mixin: the table holds
    the state and the log it uses)."""

    config: Any
    game: GameKind[Any, Any]
    state: Any
    audit: AuditRun | None
    count: int
    entries: list[dict[str, Any]]
    card_choice: dict[str, Any] | None
    closed: bool

    if TYPE_CHECKING:
        def open_for_input(self) -> None: ...
        def _atomic(self) -> AbstractContextManager[None]: ...
        def _log(self, kind: str, body: dict[str, Any]) -> None: ...
        def _corrections(self) -> Corrections: ...
        def auto_deal(self) -> None: ...

    def start_audit(self, player: Any, then: Sequence[int] = (), by: str = "tablet") -> AuditRun:
        """Start auditing ``player``'s bag (an ``audit`` start event); ``then``: the seats a
        whole-table check audits after it. ``AUDIT_UNDER_WAY`` (409) while one runs."""
        self.open_for_input()
        if self.game.audits is None:
            raise TableError("NOT_FOR_THIS_GAME", f"{self.game.title} has no bag to audit.",
                             409, params={"game": self.game.id})
        seats = range(len(self.config.players))
        if type(player) is not int or player not in seats:
            raise TableError("BAD_SEAT", f"player must be a seat number from 0 to "
                             f"{len(seats) - 1}")
        if self.audit is not None:
            raise TableError("AUDIT_UNDER_WAY", f"{self.config.players[self.audit.player]}'s "
                             "audit is under way: finish it or drop it first.", 409,
                             params={"player": self.audit.player,
                                     "name": self.config.players[self.audit.player]})
        body = {"action": "start", "player": player, "then": list(then), "by": by}
        self._log("audit", body)
        self.audit = started(self.count, body)
        return self.audit

    def current_audit(self) -> AuditRun:
        """The audit under way, or ``NO_AUDIT`` (404)."""
        if self.audit is None:
            raise TableError("NO_AUDIT", "No audit is under way at this table.", 404)
        return self.audit

    def takes_audit_tap(self, seat: int) -> bool:
        """Whether a tap on ``seat``'s reader is an audit tap (never a draw) now."""
        return (self.audit is not None and not self.audit.done and self.audit.player == seat
                and not self.closed)

    def audit_tap(self, tag: dict[str, Any], piece: Piece | None) -> None:
        """Log one audit tap (a ``tag`` event that is never played)."""
        run = self.current_audit()
        body = tap_body(tag, run, piece)
        self._log("tag", body)
        run.add_tap(body)

    def audit_report(self, private: bool) -> AuditReport:
        """The audit's report: as the end of the tapping made it, or so far."""
        run = self.current_audit()
        kept = run.private_report if private else run.report
        if kept is not None:
            return kept
        assert self.game.audits is not None  # an audit runs only at a table of such a game
        return self.game.audits.audit(self.state, run.player, run.taps, self.config.players,
                                      private)

    def finish_audit(self) -> AuditRun:
        """End the tapping: the report is made and its fixes logged (an ``audit`` done
        event); nothing else changes until they are accepted."""
        run = self.current_audit()
        if not run.done:
            self.open_for_input()
            report = self.audit_report(True)
            fixes, learned = [dict(f) for f in report.fixes], report.learned
            self._log("audit", {"action": "done", "audit": run.id, "fixes": fixes,
                                **({"learned": learned} if learned else {})})
            self._keep_reports(run, fixes, learned)
        return run

    def _keep_reports(self, run: AuditRun, fixes: list[dict[str, Any]],
                      learned: dict[str, Any] | None) -> None:
        run.report, run.private_report = self.audit_report(False), self.audit_report(True)
        run.fixes, run.learned = fixes, learned

    def accept_audit(self) -> tuple[int, AuditRun | None]:
        """Apply the audit's fixes as one batch, all or none (each checked as a move or a
        correction is), then start the next seat's audit of a whole-table check. Returns
        how many fixes were applied, and the audit that follows (or None)."""
        run = self.finish_audit()
        fixes = run.fixes or []
        trial = self.state.clone()
        logged = [self._checked_fix(trial, fix, i, len(fixes)) for i, fix in enumerate(fixes)]
        applied = len(logged)
        if run.learned:  # what the taps showed, once the fixes are made: no fix of its own
            logged.append(("correct", self._corrections().correct(trial, dict(run.learned))
                           or run.learned))
        with self._atomic():
            batch = self.count + 1
            for kind, value in logged:
                body = {"move": value, "source": "audit"} if kind == "move" else value
                self._log(kind, {**body, "batch": batch, "audit": run.id})
                self.entries.append({kind: value, "batch": batch})
            self._log("audit", {"action": "accept", "audit": run.id})
            self.state, self.audit, self.card_choice = trial, None, None
            self.auto_deal()
            if run.then:
                self.start_audit(run.then[0], run.then[1:], run.by)
        return applied, self.audit

    def _checked_fix(self, trial: Any, fix: dict[str, Any], index: int,
                     size: int) -> tuple[str, dict[str, Any]]:
        """Apply one fix to ``trial``; a refusal names it (``index``) and changes nothing."""
        try:
            if "move" in fix:
                move = self.game.move_from_dict(fix["move"])
                trial.apply(move)
                return "move", move.to_dict()
            return "correct", self._corrections().correct(trial, dict(fix["correct"])) \
                or fix["correct"]
        except self.game.violation as exc:
            raise BatchViolation(exc, index, size).error() from exc
        except TableError as exc:
            exc.index, exc.params = index, {**exc.params, "index": index, "size": size}
            raise

    def drop_audit(self) -> None:
        """Drop the audit under way (and the rest of a whole-table check): nothing changes."""
        run = self.current_audit()
        self.open_for_input()
        self._log("audit", {"action": "drop", "audit": run.id})
        self.audit = None

    def _replay_audit(self, n: int, body: dict[str, Any]) -> None:
        action = body.get("action")
        if action == "start":
            self.audit = started(n, body)
        elif action == "done" and self.audit is not None:
            self._keep_reports(self.audit, list(body.get("fixes", [])), body.get("learned"))
        elif action in ("accept", "drop"):
            self.audit = None

    def audit_view(self, private: bool = False) -> dict[str, Any] | None:
        """The audit under way as a screen shows it (its summary and report so far), or
        None."""
        if self.audit is None:
            return None
        return {**self.audit.summary(), "report": self.audit_report(private).to_dict()}
