"""What a game costs the people at the table: every interaction, by device, kind and round.

A :class:`Tally` is filled by the table driver of ``bench/taps.py`` as it plays: a click or
a keystroke on the tablet or on a phone, a scroll the tablet or a phone needed before a
button could be tapped, and a tap on a bag reader (which costs the players nothing: they
draw from the bag onto the reader anyway). A phone's interactions are also kept by the seat
of its player. :meth:`Tally.report` turns it into the lines the bench prints: for a game
played on the tablet alone, the tablet's figure; for a game played with phones, the
tablet's share, the phones' share and their sum.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

INTERACTIONS = ("click", "key", "scroll")
"""What costs a person something on a screen (a reader tap does not)."""
TABLET = INTERACTIONS
"""The tablet's interactions: the figure the issue's goals are about."""


@dataclass
class Tally:
    """Counts keyed by (device, what, move kind, round), and a phone's by its seat."""

    counts: Counter[tuple[str, str, str, int]] = field(default_factory=Counter)
    seats: Counter[int] = field(default_factory=Counter)
    """Interactions on each player's phone, by seat."""
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
    mat_moves: Counter[str] = field(default_factory=Counter)
    """With ``--mats``: the record's moves made by hands on the mats, by kind."""
    mat_misses: int = 0
    """With ``--mats``: ``place`` moves whose seat the mat's rule would not pick, entered on
    the tablet instead."""
    mat_alerts: int = 0
    """With ``--mats``: hands' moves on a mat that the hub answered with an alert."""
    advised: int = 0
    """With the table's ``play_on``: the record's moves the hub made itself as the
    advisor's play once a step the table resolves was done (no interaction)."""
    ends_by_shortcut: int = 0
    """With ``--mats``: ``end_guest`` moves a tablet shortcut sent with the moves it was
    tapped for (an end that comes first is on the mat)."""
    mat_reports: int = 0
    """With ``--mats``: the zone states the mats sent (hellos and tidying included)."""
    hub_alerts: list[str] = field(default_factory=list)
    """With ``--mats``: the codes of every alert the hub raised at the table."""
    mats: bool = False
    """Whether the game was played with cinema mats."""
    steps: list[dict[str, object]] = field(default_factory=list)
    """Each step of the driver in order: its round, the interactions it cost (``device
    what kind`` strings) and the record's moves it entered (``bench/taps.py --trace``)."""
    _since: list[str] = field(default_factory=list)

    def add(self, device: str, what: str, kind: str, n: int = 1,
            seat: int | None = None) -> None:
        """Count ``n`` interactions ``what`` ("click", "key", "scroll", "tap") on ``device``
        ("tablet", "phone", "reader") made for a move of ``kind``; ``seat``: the phone's
        player."""
        self.counts[(device, what, kind, self.round)] += n
        if what in INTERACTIONS:
            self._since += [f"{device} {what} {kind}"] * n
        if seat is not None and what in INTERACTIONS:
            self.seats[seat] += n

    def step(self, moves: list[dict[str, object]]) -> None:
        """Close a step of the driver: the interactions since the last one entered
        ``moves``."""
        self.steps.append({"round": self.round, "taps": self._since, "moves": moves})
        self._since = []

    def total(self, device: str, whats: tuple[str, ...] = INTERACTIONS) -> int:
        """Every interaction of ``device`` whose ``what`` is one of ``whats``."""
        return sum(n for (d, w, _, _), n in self.counts.items() if d == device and w in whats)

    def by(self, index: int, device: str = "tablet") -> Counter[object]:
        """A screen's interactions (a reader's taps) grouped by one key part: 1 what,
        2 kind, 3 round."""
        out: Counter[object] = Counter()
        for key, n in self.counts.items():
            if key[0] == device and (device == "reader" or key[1] in INTERACTIONS):
                out[key[index]] += n
        return out

    def screens(self) -> int:
        """The tablet's and the phones' interactions together (the sum of a game played
        with phones)."""
        return self.total("tablet") + self.total("phone")

    def report(self, title: str, names: list[str] | None = None, phones: bool = False) -> str:
        """The figures as text: the tablet's total (with ``phones``: the tablet's share, the
        phones' share by player and the sum), then per round and per kind."""
        lines = [title] if title else []
        lines += self.shared_lines(names or []) if phones else self.tablet_lines()
        lines.append("    tablet per round: " + "  ".join(
            f"r{r}:{n}" for r, n in sorted(self.by(3).items())))
        lines.append("    tablet per move kind: " + kinds_text(self.by(2)))
        if phones:
            lines.append("    phones per move kind: " + kinds_text(self.by(2, "phone")))
        scrolls: Counter[str] = Counter()
        for (device, what, kind, _), n in self.counts.items():
            if what == "scroll":
                scrolls[f"{kind} ({device})" if phones else kind] += n
        if scrolls:
            lines.append("    of which scrolls: " + ", ".join(
                f"{k} {n}" for k, n in scrolls.most_common()))
        if self.mats:
            lines += self.mat_lines()
        if self.advised:
            lines.append(f"    played on by the advisor after a draw (no tap): "
                         f"{self.advised} moves")
        return "\n".join(lines)

    def mat_lines(self) -> list[str]:
        """What the cinema mats did (``--mats``)."""
        tidy = sum(n for (d, w, _, _), n in self.counts.items() if d == "mat" and w == "tidy")
        return [f"    on the mats: {sum(self.mat_moves.values())} seating moves by hand "
                f"({kinds_text(Counter(self.mat_moves))}), {tidy} pawns tidied after the "
                f"rules moved them, {self.mat_reports} mat reports sent",
                f"    places whose seat the mat would not pick (on the tablet): "
                f"{self.mat_misses}; ends sent by a tablet shortcut: {self.ends_by_shortcut}",
                f"    the hub's alerts: {len(self.hub_alerts)}"
                + (f" ({', '.join(self.hub_alerts)})" if self.hub_alerts else "")
                + f", of which on a hand's move on a mat: {self.mat_alerts}"]

    def tablet_lines(self) -> list[str]:
        """The head of a game played on the tablet alone."""
        whats = self.by(1)
        head = "with mats, everything else on the tablet" if self.mats else \
            "everything on the tablet"
        return [f"  {head}: {self.total('tablet')} tablet interactions "
                f"({whats['click']} clicks, {whats['key']} keystrokes, "
                f"{whats['scroll']} scrolls)",
                f"    phones: {self.total('phone')}   "
                f"reader taps (free): {self.total('reader', ('tap',))}"]

    def shared_lines(self, names: list[str]) -> list[str]:
        """The head of a game played with phones: the tablet's share, the phones' share
        (by player) and the sum."""
        tablet, phone = self.by(1), self.by(1, "phone")
        players = ", ".join(f"{names[s] if s < len(names) else f'seat {s + 1}'} {n}"
                            for s, n in sorted(self.seats.items()))
        return [f"  with phones: the tablet's share {self.total('tablet')} "
                f"({tablet['click']} clicks, {tablet['key']} keystrokes, "
                f"{tablet['scroll']} scrolls)",
                f"    the phones' share {self.total('phone')} ({players or 'none'}; "
                f"{phone['click']} clicks, {phone['key']} keystrokes, "
                f"{phone['scroll']} scrolls)",
                f"    the sum: {self.screens()}   "
                f"reader taps (free): {self.total('reader', ('tap',))}"]


def kinds_text(kinds: Counter[object]) -> str:
    """Counts by move kind, largest first."""
    return ", ".join(f"{k} {n}" for k, n in
                     sorted(kinds.items(), key=lambda kv: (-kv[1], str(kv[0])))) or "none"
