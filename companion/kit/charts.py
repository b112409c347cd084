"""Charts of a game, as a game describes them to the replay board: its series, never a drawing.

The replay board of a finished (or running) game draws a few charts beside the board
(Chart.js, in the browser). Each game says what is worth charting through
:meth:`~companion.kit.parts.Replays.chart_notes`: a :class:`ChartNotes` that watches the
game replayed position by position, as everyone at the table saw it, and then hands back its
:class:`Chart` objects. Every point of a chart names the **position** of the replay it
stands for (0 is the start, ``n`` the position after ``n`` moves), so a click on the point
moves the board there.

Words shown on a chart (its title, its axes' titles, and the labels that are words rather
than names) are English, marked with :func:`~companion.kit.texts.N_`: the dashboard
translates them with its catalogs, as it does a variant's title. A label that is a player's
name is shown as it is (``word`` false).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Literal

ChartKind = Literal["line", "bar"]
"""How a chart is drawn: lines over the x axis, or bars (side by side, or stacked)."""


@dataclass(frozen=True)
class Series:
    """One line, or one set of bars, of a chart: its ``label`` (a player's name, or an
    English word the catalogs translate when ``word``), one value per label of the chart's
    x axis (None: no point there), and for each value the replay position a click on it
    opens."""

    label: str
    values: list[float | int | None]
    positions: list[int]
    word: bool = False

    def to_dict(self) -> dict[str, Any]:
        """``{"label", "word", "values", "positions"}``."""
        return {"label": self.label, "word": self.word, "values": list(self.values),
                "positions": list(self.positions)}


@dataclass(frozen=True)
class Chart:
    """A chart of a game: ``id`` (stable, for tests and styles), ``kind``, ``title`` and the
    axes' titles (English, marked with ``N_``), the x axis's ``labels`` (words to translate
    when ``label_words``, else shown as they are: rounds' numbers, players' names), its
    ``series``, and whether bars are ``stacked`` (a total split by source)."""

    id: str
    kind: ChartKind
    title: str
    x_title: str
    y_title: str
    labels: list[str]
    series: list[Series] = field(default_factory=list)
    label_words: bool = False
    stacked: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The chart as JSON, as ``GET /api/archive/{id}/replay`` gives it (docs/api.md)."""
        return {"id": self.id, "kind": self.kind, "title": self.title,
                "x_title": self.x_title, "y_title": self.y_title, "labels": list(self.labels),
                "label_words": self.label_words, "stacked": self.stacked,
                "series": [s.to_dict() for s in self.series]}


class ChartNotes(ABC):
    """What a game notes while one of its games is replayed, to chart it afterwards.

    The replay calls :meth:`start` with the position before any move, then :meth:`see` after
    each move (or correction) with the position's number, the move (None for a correction)
    and the game's state (the game's own state object: read it, never change or keep it),
    and last :meth:`charts`. Whatever a chart shows must be public: what everyone at the
    table saw at that position, or the final scores.
    """

    @abstractmethod
    def start(self, state: Any) -> None:
        """The position before any move (position 0)."""

    @abstractmethod
    def see(self, position: int, move: Any | None, state: Any) -> None:
        """The position ``position``, reached by ``move`` (None: a table's correction)."""

    @abstractmethod
    def charts(self) -> list[Chart]:
        """The charts of the game seen so far (a running game's too)."""


def round_positions(ends: dict[int, int]) -> tuple[list[str], list[int]]:
    """The x axis of a per-round chart: the rounds' numbers as labels, and the position at
    the end of each (``ends``: round -> its last position), in round order."""
    rounds = sorted(ends)
    return [str(r) for r in rounds], [ends[r] for r in rounds]
