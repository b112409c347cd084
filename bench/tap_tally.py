"""What a game costs the people at the table: every interaction, by device, kind and round.

A :class:`Tally` is filled by the table driver of ``bench/taps.py`` as it plays: a click or
a keystroke on the tablet or on a phone, a scroll the tablet needed before a button could
be tapped, and a tap on a bag reader (which costs the players nothing: they draw from the
bag onto the reader anyway). :meth:`Tally.report` turns it into the tables the bench prints.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

TABLET = ("click", "key", "scroll")
"""The tablet's interactions: the figure the issue's goals are about."""


@dataclass
class Tally:
    """Counts keyed by (device, what, move kind, round)."""

    counts: Counter[tuple[str, str, str, int]] = field(default_factory=Counter)
    round: int = 0
    """The round the next interaction belongs to (the driver keeps it up to date)."""
    cards: bool = False
    """Whether the cards had tags (else they were typed into search boxes)."""
    entered: str = ""
    """The game as the hub recorded it (a game record's text)."""
    alerts: int = 0
    """With ``--any-pawn``: pawn taps the hub answered with an alert."""
    relabels: int = 0
    """With ``--any-pawn``: taps of another pawn of the color than the hub placed, taken."""

    def add(self, device: str, what: str, kind: str, n: int = 1) -> None:
        """Count ``n`` interactions ``what`` ("click", "key", "scroll", "tap") on ``device``
        ("tablet", "phone", "reader") made for a move of ``kind``."""
        self.counts[(device, what, kind, self.round)] += n

    def total(self, device: str, whats: tuple[str, ...] = TABLET) -> int:
        """Every interaction of ``device`` whose ``what`` is one of ``whats``."""
        return sum(n for (d, w, _, _), n in self.counts.items() if d == device and w in whats)

    def by(self, index: int, device: str = "tablet") -> Counter[object]:
        """Tablet (or ``device``) interactions grouped by one key part: 1 what, 2 kind,
        3 round."""
        out: Counter[object] = Counter()
        for key, n in self.counts.items():
            if key[0] == device and (device != "tablet" or key[1] in TABLET):
                out[key[index]] += n
        return out

    def report(self, title: str) -> str:
        """The figures as text: the total, then per round and per kind."""
        tablet = self.total("tablet")
        whats = self.by(1)
        lines = [f"{title}",
                 f"  tablet interactions: {tablet} ({whats['click']} clicks, "
                 f"{whats['key']} keystrokes, {whats['scroll']} scrolls)",
                 f"  phones: {self.total('phone', ('click', 'key'))}   "
                 f"reader taps (free): {self.total('reader', ('tap',))}"]
        rounds = self.by(3)
        lines.append("  per round: " + "  ".join(f"r{r}:{n}" for r, n in sorted(rounds.items())))
        kinds = self.by(2)
        lines.append("  per move kind: " + ", ".join(
            f"{k} {n}" for k, n in sorted(kinds.items(), key=lambda kv: (-kv[1], str(kv[0])))))
        scrolls: Counter[str] = Counter()
        for (device, what, kind, _), n in self.counts.items():
            if device == "tablet" and what == "scroll":
                scrolls[kind] += n
        if scrolls:
            lines.append("  of which scrolls: " + ", ".join(
                f"{k} {n}" for k, n in scrolls.most_common()))
        return "\n".join(lines)
