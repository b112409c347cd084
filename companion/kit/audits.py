"""An audit: a player taps every piece in their bag (or pile), and the game says what differs.

A table's picture of a bag goes wrong without a word when a tap never reaches the hub: a
pawn drawn past the reader, a tag misread, a pawn put back by hand. An audit puts the pieces
back in charge: the player taps each piece the bag holds, one after another, and the table
hands those taps to its game (:meth:`~companion.kit.parts.Audits.audit`), which compares
them with what it believes the bag holds and answers an :class:`AuditReport`:

- ``findings``: each difference in words, with a stable ``code``, an English ``message`` and
  its ``params`` (a device in another language renders the code's template with them, as it
  does an alert's), and the index of the ``fixes`` entry that mends it, if any;
- ``fixes``: what accepting the audit does, in order, as one batch: each a move of the game
  (``{"move": ...}``, a draw the reader missed) or a correction (``{"correct": ...}``, the
  body :meth:`~companion.kit.parts.Corrections.correct` takes). The table checks each one as it
  checks a move or a correction, all or none;
- ``refused``: a difference the rules cannot mend where the audit puts the piece (a pawn
  that sits on a seat), as a refusal ``{"code", "message", "params"}``;
- ``counts``: what was tapped against what the table expected, per kind of piece (Popcorn's
  colors, B Movies' token values), the lines a screen shows while the player taps;
- ``learned``: what the taps showed that changes no count (Popcorn: the guests seen in the
  bag, by their tags), a correction the table makes last when the audit is accepted, whatever
  the fixes; it is no fix, and no finding speaks of it.

The game builds a report twice: for the table's screen (``private=False``: B Movies shows
there only how many tokens, never their values) and for the audited player's phone. Both
carry the same fixes, in the same order, since the table applies them whichever screen
accepts; when the fixes themselves name a secret (B Movies' token ids and values), the
table's report sets ``shown_fixes``: what :meth:`AuditReport.to_dict` shows of each fix in
its place, so the JSON a screen gets holds no secret while the table keeps what it applies.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Finding:
    """One difference an audit found, in words: ``code``, English ``message``, ``params``
    (for other languages), and ``fix``, the index in :attr:`AuditReport.fixes` of what mends
    it (None: nothing to mend, as for a pawn tapped twice)."""

    code: str
    message: str
    params: dict[str, Any] = field(default_factory=dict)
    fix: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """As JSON: ``{"code", "message", "params", "fix"}``."""
        return {"code": self.code, "message": self.message, "params": dict(self.params),
                "fix": self.fix}


@dataclass(frozen=True)
class AuditReport:
    """What an audit's taps say about a bag: the findings, the fixes that accepting applies,
    the differences no fix may mend, and the counts (see the module's text)."""

    findings: tuple[Finding, ...] = ()
    fixes: tuple[dict[str, Any], ...] = ()
    refused: tuple[dict[str, Any], ...] = ()
    counts: tuple[dict[str, Any], ...] = ()
    shown_fixes: tuple[dict[str, Any], ...] | None = None
    learned: dict[str, Any] | None = None
    """A correction that changes no count, made last on accept (see the module's text)."""
    """What a screen may see of the fixes, one entry per fix in the same order (so each
    finding's ``fix`` index still points at its own), when the fixes name a secret the
    report's screen must not learn; None: the fixes are shown as they are."""

    @property
    def clean(self) -> bool:
        """Whether the bag is what the table believed: nothing found at all."""
        return not self.findings and not self.refused

    def to_dict(self) -> dict[str, Any]:
        """As JSON, as the audit routes answer it: the fixes as :attr:`shown_fixes` shows
        them, if set."""
        fixes = self.fixes if self.shown_fixes is None else self.shown_fixes
        return {"clean": self.clean, "findings": [f.to_dict() for f in self.findings],
                "fixes": [dict(f) for f in fixes], "refused": [dict(r) for r in self.refused],
                "counts": [dict(c) for c in self.counts]}
