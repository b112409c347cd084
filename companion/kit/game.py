"""What a game must provide to be played on the hub: :class:`GameKind`, small, and its parts.

The hub, its tables and the dashboard never name a game's rules. A game gives, as the
required part of :class:`GameKind`:

- who it is: ``id``, ``title``, ``min_players`` and ``max_players``;
- a new state (:meth:`GameKind.new_state`) whose ``apply(move)`` applies a move or raises
  the game's ``violation`` (with ``code``, ``message`` and ``params``) and changes nothing;
  the state is copied by ``clone()``, says when the game ``is_over`` and writes itself
  with ``to_dict()`` (:class:`~.rules.GameState`);
- reading a move from its JSON (:meth:`GameKind.move_from_dict`);
- who may send a move (:meth:`GameKind.secret`);
- its views: what everyone sees and what one seat sees (:meth:`GameKind.public_view`,
  :meth:`GameKind.private_view`);
- its scores once the game is over (:meth:`GameKind.scores`).

Everything else is an optional part (:mod:`.parts`): table options, pieces to tap, records
(a default from the move log), score sheets, archive standings, replay notes and charts,
audits, corrections, look-alike pieces, "deal for us", hints, routes, commands, a demo,
an advisor, and its own screens (:mod:`.screens`). A game sets the parts it has in its
``__init__`` (after ``super().__init__()``); the core asks whether a part is there.
``docs/architecture.md`` ("Add a game") walks through a game of two modules.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Generic

from .hosting import (
    DemoHub,
    DemoPlayers,
    DemoRegistry,
    DemoTable,
    HostedTable,
    HostLock,
    MatHand,
    Progress,
    TableHost,
    TableSetup,
    Tapper,
)
from .parts import (
    Advisor,
    Archive,
    Audits,
    Commands,
    Corrections,
    Dealing,
    Demo,
    Hints,
    LogRecords,
    LookAlikes,
    Mats,
    Options,
    Pieces,
    Records,
    Replays,
    Routes,
    ScoreSheets,
)
from .pieces import Piece, PieceKind, PieceValue
from .rules import (
    SECRET_EITHER,
    SECRET_PIN,
    SECRET_TOKEN,
    GameMove,
    GameState,
    MoveT,
    StateT,
)
from .screens import Screens
from .taps import (
    AuditTap,
    Relabel,
    TapChoice,
    TapMoves,
    TapOption,
    TapResult,
    swap_pairs,
)
from .texts import GameTexts
from .zones import Mended, Sensed, ZoneAlert, ZoneChange

__all__ = [
    "SECRET_EITHER", "SECRET_PIN", "SECRET_TOKEN", "AuditTap", "DemoHub", "DemoPlayers",
    "DemoRegistry", "DemoTable", "GameKind", "GameMove", "GameState", "HostLock",
    "HostedTable", "MatHand", "Mended", "MoveT", "Piece", "PieceKind", "PieceValue",
    "Progress", "Relabel", "Screens", "Sensed", "StateT", "TableHost", "TableSetup",
    "TapChoice", "TapMoves", "TapOption", "TapResult", "Tapper", "ZoneAlert", "ZoneChange", "play",
    "renamed", "swap_pairs",
]


class GameKind(ABC, Generic[StateT, MoveT]):
    """One game the hub can host, typed by the game's state and move classes
    (``GameKind[GameState, Move]``); the core, which knows no game, holds a
    ``GameKind[Any, Any]``.

    Subclasses set the class attributes, implement the six abstract methods, and set the
    parts they have in ``__init__`` after ``super().__init__()`` (see the module's text).
    The registry in :mod:`companion.games` makes one instance per game when the hub starts.
    """

    id: str
    """The game's id in configurations, records and URLs: ``popcorn``, ``b-movies``."""
    title: str
    """The game's printed name."""
    min_players: int
    max_players: int
    violation: type[Exception]
    """The exception the game's engine raises for a refused move; it carries ``code``,
    ``message`` and ``params``."""
    closes_secretly: bool = False
    """Whether the game hides something until it ends, so that the PIN-guarded full state
    (``/state``) and the record are refused while it runs."""

    def __init__(self) -> None:
        """The parts every game starts with: no options, records and replays from the move
        log, words with no template; no other part."""
        self.options = Options()
        self.records: Records = LogRecords(self)
        self.replays: Replays = Replays(self)
        self.texts: GameTexts = GameTexts()
        self.pieces: Pieces | None = None
        self.mats: Mats | None = None
        self.sheets: ScoreSheets | None = None
        self.archive: Archive | None = None
        self.audits: Audits | None = None
        self.corrections: Corrections | None = None
        self.look_alikes: LookAlikes | None = None
        self.dealing: Dealing | None = None
        self.hints: Hints | None = None
        self.routes: Routes | None = None
        self.commands: Commands | None = None
        self.demo: Demo | None = None
        self.advisor: Advisor | None = None
        self.screens: Screens | None = None

    @abstractmethod
    def new_state(self, players: list[str], first_player: int,
                  options: dict[str, Any]) -> StateT:
        """The state a new table starts from (``options`` as :attr:`options` checked
        them)."""

    @abstractmethod
    def move_from_dict(self, data: Any) -> MoveT:
        """A move from its JSON form; raises the game's violation (``BAD_MOVE``,
        ``UNKNOWN_MOVE``) for a malformed one."""

    @abstractmethod
    def secret(self, state: StateT, move: MoveT) -> str | None:
        """Which secret a move sent over HTTP needs: :data:`~.rules.SECRET_TOKEN`,
        :data:`~.rules.SECRET_PIN`, :data:`~.rules.SECRET_EITHER`, or None (anyone at the
        tablet)."""

    @abstractmethod
    def public_view(self, state: StateT, names: list[str]) -> dict[str, Any]:
        """Everything every player may see: the tablet's screen and the ``state`` push
        (``names``: the players' names in seat order)."""

    @abstractmethod
    def private_view(self, state: StateT, seat: int, names: list[str]) -> dict[str, Any]:
        """What only that seat's phone may see."""

    @abstractmethod
    def scores(self, state: StateT, names: list[str]) -> dict[str, Any] | None:
        """The final scores as JSON once the game is over, else None."""

    def features(self) -> dict[str, bool]:
        """Which optional parts a table of this game offers, as ``GET /api/games`` says:
        ``deal`` ("deal for us", a choice of the setup form), ``hints``, ``audits``,
        ``corrections``, ``tags`` (pieces read by tag), ``analysis`` and ``phones`` (each
        seat a private view)."""
        return {"deal": self.dealing is not None and self.dealing.optional,
                "hints": self.hints is not None,
                "audits": self.audits is not None,
                "corrections": self.corrections is not None,
                "tags": self.pieces is not None, "analysis": self.advisor is not None,
                "phones": True}


def play(game: GameKind[Any, Any], state: Any, move: Any, marks: dict[str, Any]) -> None:
    """Apply ``move`` to ``state`` (in place) with what a tap left beside it in the log: the
    game's look-alikes part replays its marks; any other game just applies the move."""
    if game.look_alikes is not None:
        game.look_alikes.play(state, move, marks)
    elif move is not None:
        state.apply(move)


def renamed(game: GameKind[Any, Any], move: Any, names: dict[int, int]) -> Any:
    """``move`` as a record writes it after relabels of look-alike pieces (``names``: the
    record's name of each relabelled piece); unchanged for a game without look-alikes."""
    return move if game.look_alikes is None else game.look_alikes.renamed(move, names)
