"""What a game must provide to be played on the hub: :class:`GameKind`.

The hub, its tables and the dashboard never name a game's rules. A table asks its game for a
fresh state, turns a request's JSON into one of the game's moves, asks which secret a move
needs, lets the game read a tapped tag, and asks for the public view, each player's private
view, the final scores and the game record. The state itself is the game's own object; the
table only relies on the engine shape every game here shares (after python-chess and
OpenSpiel): ``apply(move)`` raising the game's violation with nothing changed, ``clone()``,
``chance_outcomes()``, ``is_over`` and ``to_dict()``. ``docs/architecture.md`` ("A third
game") walks through a new game's parts.
"""

from __future__ import annotations

import argparse
import json
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import TYPE_CHECKING, Any, Generic, Protocol, Self, TypeVar

from .alerts import Alert
from .audits import AuditReport
from .charts import ChartNotes
from .errors import TableError
from .records import RecordedGame, RecordError
from .standings import Standing, Variant
from .texts import GameTexts

if TYPE_CHECKING:
    from flask import Blueprint


class GameMove(Protocol):
    """A move of any game, as the table handles it: an immutable value with a JSON form
    (the game's ``move_from_dict`` reads it back), made by a seat or by chance."""

    @property
    def kind(self) -> str:
        """The kind of move ("draw", "pitch"...): its ``"move"`` in JSON."""
        ...

    @property
    def player(self) -> int | None:
        """The seat that makes the move (None: a shared chance outcome)."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """The move as JSON: ``{"move": kind, field: value, ...}``."""
        ...


class GameState(Protocol):
    """A game's state, as the table drives it (after python-chess and OpenSpiel): changed in
    place by :meth:`apply`, copied by :meth:`clone`, asked what chance may bring."""

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (its final scores can be read)."""
        ...

    def apply(self, move: Any) -> None:
        """Apply a move, or raise the game's violation and change nothing."""
        ...

    def clone(self) -> Self:
        """An independent copy (a state of the same class)."""
        ...

    def chance_outcomes(self) -> Sequence[GameMove]:
        """The chance outcomes the table may report now (cards revealed, ...)."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON."""
        ...


class HostedTable(Protocol):
    """A table as a game's own routes read it (:class:`companion.table.table.Table`)."""

    game: GameKind[Any, Any]
    state: Any
    count: int
    hints: bool
    entries: list[dict[str, Any]]


class DemoTable(Protocol):
    """A table as a game's demo players drive it (the hub's own, or one of a hub in another
    process seen over HTTP): its id, its seats' readers, its state and its move count."""

    @property
    def id(self) -> str:
        """The table's id (in its URL)."""
        ...

    @property
    def state(self) -> Any:
        """The game's state (the game's own class)."""
        ...

    @property
    def count(self) -> int:
        """How many moves the table has applied."""
        ...

    @property
    def config(self) -> TableSetup:
        """The table's setup: its seats' readers."""
        ...


class TableSetup(Protocol):
    """What a game's demo reads of a table's configuration."""

    @property
    def readers(self) -> list[str]:
        """The reader id of each seat, in seat order."""
        ...


class HostLock(Protocol):
    """The hub's lock, as a ``with`` statement holds it."""

    def __enter__(self) -> object:
        """Take the lock."""
        ...

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> bool | None:
        """Let it go."""
        ...


class TableHost(Protocol):
    """What a game's own routes may ask of the hub: its lock (held while a table is read)
    and a table by id (``TABLE_NOT_FOUND`` otherwise)."""

    @property
    def lock(self) -> HostLock:
        """The hub's lock."""
        ...

    def table(self, table_id: str) -> HostedTable:
        """The table ``table_id``, or a :class:`~companion.kit.errors.TableError`."""
        ...


class CardBook(Protocol):
    """The cards a game lets the tag registry tag, as the registry asks about them
    (Popcorn's :class:`~companion.games.popcorn.cardbook.CardBook`): their kinds, titles
    and physical copies, by ``(kind, card id)``."""

    @property
    def titles(self) -> dict[tuple[str, str], str]:
        """Each card's title by ``(kind, card id)``."""
        ...

    @property
    def copies(self) -> dict[tuple[str, str], int]:
        """How many physical copies of each card the box holds, by ``(kind, card id)``."""
        ...

    def capacity(self) -> dict[str, int]:
        """How many physical cards of each kind the box holds."""
        ...

    def listing(self, kind: str) -> list[str]:
        """Every physical card of ``kind`` in catalog order."""
        ...

    def knows(self, kind: object, card: object) -> bool:
        """Whether ``card`` is a card of ``kind`` (either may come from a request)."""
        ...

    def title(self, kind: str, card: str) -> str:
        """A card's title."""
        ...


class DemoRegistry(Protocol):
    """The tag registry as a game's demo fills it with made-up tags: the pieces it knows
    (from every game's :class:`TagKinds`), and its JSON form to export and import."""

    @property
    def colors(self) -> tuple[str, ...]:
        """The color of each pawn id."""
        ...

    @property
    def book(self) -> CardBook:
        """The cards that can carry a tag."""
        ...

    @property
    def token_values(self) -> tuple[int, ...]:
        """The value of each token id."""
        ...

    def export(self) -> dict[str, Any]:
        """The registry as JSON (``docs/api.md``, "The tag registry")."""
        ...

    def import_(self, doc: Any) -> int:
        """Replace the registry with ``doc``; returns how many tags it holds."""
        ...


class DemoHub(TableHost, Protocol):
    """The hub as ``popcorn-companion demo`` hands it to a game's :meth:`GameKind.start_demo`:
    its tag registry, a new table, and moves sent as the tablet sends them."""

    @property
    def registry(self) -> DemoRegistry:
        """The hub's tag registry."""
        ...

    def create_table(self, players: Any, readers: Any, first_player: Any = 0,
                     name: Any = None, deal_seed: Any = None, hints: Any = True,
                     game: Any = ..., options: dict[str, Any] | None = None,
                     ) -> tuple[DemoTable, str, list[str]]:
        """A new table, its PIN and its players' tokens (arguments as a request gives them:
        the hub checks each)."""
        ...

    def submit(self, table_id: str, move: Any, source: str = "tablet") -> object:
        """Apply ``move`` (a move's JSON) at a table, as the tablet would."""
        ...


class Tapper(Protocol):
    """Virtual readers a demo taps on (:class:`companion.readers.virtual.SerialBank` or
    ``MqttBank``): a tag laid on the reader ``reader``."""

    def tap(self, reader: str, uid: str) -> object:
        """Tap ``uid`` on ``reader``."""
        ...


class DemoPlayers(Protocol):
    """Scripted players playing a demo table in a thread of their own."""

    @property
    def thread(self) -> threading.Thread | None:
        """The players' thread, once started."""
        ...

    @property
    def stop(self) -> threading.Event:
        """Set it to stop the players."""
        ...


@dataclass(frozen=True)
class TagKinds:
    """What a game's pieces ask of the hub's tag registry: pawns by color (Popcorn's
    ``pawn_colors``, the color of each pawn id), cards (a card book with kinds, titles and
    copies) and tokens (``token_values``, the value of each token id). The hub adds up the
    games' kinds; a game with none of them has nothing to tag."""

    pawn_colors: tuple[str, ...] = ()
    cards: CardBook | None = None
    token_values: tuple[int, ...] = ()


if TYPE_CHECKING:  # argparse's class is generic in its stubs only
    Subcommands = argparse._SubParsersAction[argparse.ArgumentParser]
    """The subcommands of an argparse parser (what ``add_subparsers()`` returns)."""

Progress = Callable[[int, int], None]
"""Told ``(done, total)`` as a long job goes on (:meth:`GameKind.analyze`: moves of the
record gone through), so that a screen can show a progress bar."""

StateT = TypeVar("StateT", bound=GameState)
"""A game's state class (Popcorn's ``GameState``, B Movies' ``State``)."""
MoveT = TypeVar("MoveT", bound=GameMove)
"""A game's move class (each game's ``Move``)."""


@dataclass(frozen=True)
class TagThing:
    """What the tag registry knows a UID to be: ``kind`` (``pawn``, ``movie``, ``theater``,
    ``award``, ``token``) and the thing's id, as text for cards and an int for pawns and
    tokens. An unknown UID is no TagThing at all (None)."""

    kind: str
    id: int | str


@dataclass(frozen=True)
class Relabel:
    """A tap that is a move once look-alike things trade names.

    A game whose pieces of one kind look alike (Popcorn's pawns of one color) knows where a
    piece is only as far as the table showed it: a move entered by kind says "a blue guest
    from Ana's exit zone", not which one. When a tapped piece may be where the rules expect
    one of its kind, the tap is that move: the table makes the ``swaps`` in its state (pairs
    of look-alikes that trade places and names, in order, so that the state has ``seen``,
    the tapped piece, where the move takes it from), then plays ``move``, which names it.
    Both go into the log with the move (:meth:`GameKind.play` replays them), so a restart, an
    undo and the replay board agree.

    ``move`` is None for a tap that only tells the table where a piece is (Popcorn's pawns
    tapped into a bag as the players fill it at setup).
    """

    swaps: tuple[tuple[int, int], ...]
    seen: int
    move: GameMove | None


def swap_pairs(logged: Any) -> list[tuple[int, int]]:
    """A relabel as a log keeps it, as pairs of things that trade names, in order:
    ``[[a, b], ...]``, or an older log's one pair ``[a, b]``; none for None or ``[]``."""
    if not logged:
        return []
    if isinstance(logged[0], int):
        return [(int(logged[0]), int(logged[1]))]
    return [(int(a), int(b)) for a, b in logged]


@dataclass(frozen=True)
class AuditTap:
    """One tap of an audit (:mod:`.audits`): what the registry knows the tag to be (None:
    an unknown tag) and its UID."""

    thing: TagThing | None
    uid: str


@dataclass(frozen=True)
class TapMoves:
    """A tap that stands for more than one move: ``before``, then ``then`` (a move, or a
    :class:`Relabel` with its move), then ``after``. Popcorn's guest tapped on the reader of
    the player to buy, of the color of one of their ready advertising tokens: that token is
    activated, and the guest it gains is the one tapped. Popcorn's guest drawn to a seat that
    has one place left to go: the draw, then that place. The table applies them all or none,
    as one batch that one Undo takes back."""

    before: tuple[GameMove, ...]
    then: GameMove | Relabel
    after: tuple[GameMove, ...] = ()


class TapChoice:
    """A tap that several moves could follow (Popcorn's card tapped to buy it that several
    slots could take; a guest tapped into a bag that may have come from several places).
    The table plays the one :meth:`suggested` names at once, if any, and keeps :meth:`to_dict`
    in its public view as ``card_choice`` (with ``placed``: the index of the move played, or
    None) until any other input clears it: one tap on another of its moves then replaces the
    move played (:meth:`~companion.table.table.Table.rechoose`)."""

    moves: tuple[GameMove | Relabel, ...] = ()
    """The moves the tap may stand for, in the order the screen offers them (a
    :class:`Relabel` with its move where the tap showed a look-alike)."""

    def suggested(self, hints: bool) -> int | None:
        """The index of the move the table plays at once (``hints``: whether the table's
        hints are on), or None to play nothing until the table chooses (the default)."""
        return None

    def to_dict(self) -> dict[str, Any]:
        """The choice as JSON: what the screen offers (one button per move)."""
        raise NotImplementedError


SECRET_TOKEN = "token"
"""A move only that player's phone may send (their token)."""
SECRET_PIN = "pin"
"""A move that needs the table's PIN."""
SECRET_EITHER = "token_or_pin"
"""A move the player's phone sends, or one person at the tablet with the table's PIN."""


class GameKind(ABC, Generic[StateT, MoveT]):
    """One game the hub can host: its rules engine and everything the table asks of it,
    typed by the game's state and move classes (``GameKind[GameState, Move]``); the core,
    which knows no game, holds a ``GameKind[Any, Any]``.

    Subclasses set the class attributes and implement the methods; the registry in
    :mod:`companion.games` makes one instance per game when the hub starts.
    """

    id: str
    """The game's id in configurations, records and URLs: ``popcorn``, ``b-movies``."""
    title: str
    """The game's printed name."""
    min_players: int
    max_players: int
    violation: type[Exception]
    """The exception the game's engine raises for a refused move; it carries ``code``,
    ``message`` and ``params``, like Popcorn's
    :class:`~companion.games.popcorn.engine.Violation`."""
    auto_deal_kinds: frozenset[str] = frozenset()
    """Chance moves that "deal for us" draws with the table's seeded generator."""
    closes_secretly: bool = False
    """Whether the game hides something until it ends, so that the PIN-guarded full state
    (``/state``) is refused while it runs."""

    @abstractmethod
    def options(self, body: dict[str, Any], players: int) -> dict[str, Any]:
        """The table options of a create request (variant and so on), checked: raise
        :class:`~companion.table.table.TableError` on a bad one. Stored in the config."""

    def deals_secretly(self, options: dict[str, Any]) -> bool:
        """Whether the hub itself must deal a secret at the start (B Movies' hidden studios,
        dealt to the phones): the table then gets "deal for us" with a fresh random seed."""
        return False

    @abstractmethod
    def new_state(self, players: list[str], first_player: int,
                  options: dict[str, Any]) -> StateT:
        """The state a new table starts from (setup, before any chance outcome)."""

    @abstractmethod
    def move_from_dict(self, data: Any, legacy: bool = False) -> MoveT:
        """A move from its JSON form; raises the game's violation (``BAD_MOVE``,
        ``UNKNOWN_MOVE``) for a malformed one. ``legacy``: read a log's older form."""

    def replayed(self, state: StateT, move: MoveT) -> MoveT:
        """A move read back from a table's log, made current against ``state`` (a game whose
        move format changed fills in what older logs left out); unchanged by default."""
        return move

    @abstractmethod
    def secret(self, state: StateT, move: MoveT) -> str | None:
        """Which secret a move sent over HTTP needs: :data:`SECRET_TOKEN`, :data:`SECRET_PIN`,
        :data:`SECRET_EITHER`, or None (anyone at the tablet)."""

    @abstractmethod
    def public_view(self, state: StateT, names: list[str]) -> dict[str, Any]:
        """Everything every player may see: the tablet's screen and the ``state`` push
        (``names``: the players' names in seat order, from the table's configuration)."""

    @abstractmethod
    def private_view(self, state: StateT, seat: int, names: list[str]) -> dict[str, Any]:
        """What only that seat's phone may see."""

    @abstractmethod
    def scores(self, state: StateT, names: list[str]) -> dict[str, Any] | None:
        """The final scores as JSON once the game is over, else None."""

    def forced(self, state: StateT, player: int) -> list[MoveT]:
        """The moves the rules now leave ``player`` no choice about, in order, up to
        look-alikes (Popcorn: drawn guests with one way left to be seated). A screen's tap may
        ask the hub to add them to its batch (``"forced": true`` on the moves route), so that
        the table taps no step it cannot choose. None by default."""
        return []

    @abstractmethod
    def read_tag(self, state: StateT, seat: int, thing: TagThing | None, uid: str,
                 names: list[str]) -> MoveT | Relabel | TapMoves | TapChoice | Alert:
        """What a tap on ``seat``'s reader means: one of the game's moves, a
        :class:`Relabel` of look-alikes with its move, several moves (:class:`TapMoves`), a
        choice of moves (:class:`TapChoice`), or an alert object with ``to_dict()``
        (an unknown tag, a tag of another game, a wrong moment). What the table knows of its
        pieces' places is the state's own (Popcorn's
        :class:`~companion.games.popcorn.table_state.TableState`)."""

    alert_codes: dict[str, str] = {}
    """Every alert code the game's tag reading raises, with what it means (each has its
    message and fix in the game's :meth:`texts`)."""
    demo_pads: str = "readers"
    """What the demo's four virtual readers are to this game ("bag readers", "token pads")."""

    def owns_record(self, first_line: str) -> bool:
        """Whether a game record whose first line is ``first_line`` is this game's (its
        header names it); ``replay`` asks every game, and falls back on the default game."""
        return False

    def replay_record(self, prog: str, text: str) -> int:
        """``popcorn-companion replay``: check every move of a record of this game, print
        where it ends; the exit status (0, or 1 at the first illegal line)."""
        raise NotImplementedError(f"{self.title} has no record to replay")

    def analyze(self, record_text: str, progress: Progress | None = None
                ) -> dict[str, Any] | None:
        """The analysis of a game record (JSON Lines, as :meth:`record_text` writes it):
        each player's accuracy and biggest misses against the game's advisor, as JSON.
        None for a game without an analysis (the default). Raises
        :class:`~companion.kit.records.RecordError` naming the line of a record that cannot
        be read or replayed. ``progress`` (if given) is told ``(done, total)`` as the work
        goes on, last ``(total, total)``.

        The JSON: ``{"game", "unit", "moves", "finished", "players": [{"seat", "name",
        "accuracy" (percent, or None), "decisions", "kept", "lost", "misses": [{"index"
        (the move's position in the record, 0 first), "line", "round", "kind", "played",
        "best" (each ``{"moves", "text", "value"}``), "lost"}]}]}``; Popcorn's is described
        in ``docs/advisor.md`` ("Judging a game").
        """
        return None

    def owns_sheet(self, doc: Any) -> bool:
        """Whether a decoded score sheet is this game's (``score`` asks every game)."""
        return False

    def score_sheet(self, prog: str, doc: Any) -> int:
        """``popcorn-companion score``: score a finished game's sheet and print it; the exit
        status (0, or 2 for a bad sheet)."""
        raise NotImplementedError(f"{self.title} has no score sheet")

    def simulate(self, args: argparse.Namespace) -> int:
        """``popcorn-companion simulate --game ID``: random games, summarized; ``args`` is
        the command's namespace (``games``, ``players``, ``seed``, ``variant``, ``policy``,
        ``record``, and ``parser`` for a usage error)."""
        raise NotImplementedError(f"{self.title} cannot be simulated")

    def start_demo(self, hub: DemoHub, readers: list[str], bank: Tapper, delay: float,
                   args: argparse.Namespace) -> tuple[DemoTable, str, DemoPlayers]:
        """``popcorn-companion demo --game ID``: enroll made-up tags on ``hub``, create a
        table on ``readers`` and start scripted players tapping on ``bank``'s virtual
        readers, one action every ``delay`` seconds; returns the table, its PIN and the
        players (with ``thread`` and ``stop``)."""
        raise NotImplementedError(f"{self.title} has no demo")

    def demo_summary(self, scores: dict[str, Any], names: list[str], state: StateT) -> str:
        """The demo's last line, once the game is over: who scored what, who won."""
        return json.dumps(scores)

    def add_reader_commands(self, sub: Subcommands) -> None:
        """Add the game's own ``popcorn-companion readers ...`` subcommands to the argparse
        subparsers ``sub`` (Popcorn's ``card-list``); none by default."""
        return None

    def tag_kinds(self) -> TagKinds:
        """What the game's pieces ask of the tag registry (none by default)."""
        return TagKinds()

    def texts(self) -> GameTexts:
        """The English templates of the game's refusal and alert codes and of its words,
        marked for the catalogs (:mod:`companion.kit.texts`). A code without one reads as
        the English sentence it was raised with, in every language (none by default)."""
        return GameTexts()

    def blueprint(self, host: TableHost) -> Blueprint | None:
        """The game's own HTTP routes as a Flask Blueprint (Popcorn's seating advisor and
        card catalog), reading tables through ``host``; None for a game without any."""
        return None

    def correction(self, state: StateT, body: dict[str, Any]) -> dict[str, Any]:
        """What a correction request means at ``state``, decided once, as :meth:`correct`
        then applies it and the log keeps it (Popcorn: a pawn moved, or only a relabel of
        look-alikes when the pawn may already be there). ``body`` unchanged by default."""
        return body

    def correct(self, state: StateT, body: dict[str, Any]) -> dict[str, Any] | None:
        """Put a piece where the table says it really is, in ``state`` (a ``correct`` event:
        Popcorn's "pawn 17 is really in Ana's exit zone"); raise
        :class:`~companion.kit.errors.TableError` for a bad one. Returns the correction as
        the log keeps it (a request that described the piece, "a blue guest from Bob's exit
        zone", logged with the piece it chose), or None to log ``body`` as it came. A game
        without pieces to correct answers ``NOT_FOR_THIS_GAME``: its table corrects with
        Undo."""
        raise TableError("NOT_FOR_THIS_GAME", f"{self.title} has no pieces to correct: use "
                         "Undo.", 409, params={"game": self.id})

    audits: bool = False
    """Whether a player may audit their bag (or pile) at this game's tables (:meth:`audit`)."""

    def audit(self, state: StateT, seat: int, taps: Sequence[AuditTap],
              names: list[str], private: bool) -> AuditReport:
        """Compare what ``seat`` tapped during an audit (every piece of their bag, or pile,
        in tap order) with what ``state`` says the bag holds, and say what differs and what
        would mend it (:class:`~companion.kit.audits.AuditReport`). ``private``:
        the report is for that player's phone; else for the table's screen, which must not
        learn a secret from it. Only a game with :attr:`audits` is asked."""
        raise TableError("NOT_FOR_THIS_GAME", f"{self.title} has no bag to audit.", 409,
                         params={"game": self.id})

    def round_of(self, state: StateT) -> int | None:
        """The round ``state`` is in, counted from 1, or None for a game without rounds: the
        table notes the rounds in which an alert was raised, so that a screen's end-of-round
        checklist can offer an audit then, and the replay board offers a jump to the start of
        each round (a game may answer 0 for its setup, as Popcorn does)."""
        return None

    def play(self, state: StateT, move: MoveT | None, marks: Mapping[str, Any]) -> None:
        """Apply ``move`` to ``state`` (in place) with what a tap left beside it in the
        table's log (``marks``: a :class:`Relabel`'s ``relabel`` swaps, made first, and the
        piece it had ``seen``); ``move`` is None for a tap that only told where a piece is.
        A game without look-alike pieces has no marks: the default applies the move."""
        if move is not None:
            state.apply(move)

    def renamed(self, move: MoveT, names: dict[int, int]) -> MoveT:
        """``move`` with its piece renamed by ``names`` (a record's view of relabelled
        look-alikes, see :class:`Relabel`); unchanged by default."""
        return move

    def record_move(self, correction: dict[str, Any]) -> MoveT | None:
        """A correction (as :meth:`correct` logged it) as a line of the game's record, or
        None when it changes no count and only relabels look-alikes (the record then has
        no line for it). A game whose records cannot hold a correction raises
        :class:`~companion.kit.errors.TableError` (``HAS_CORRECTIONS``, the default)."""
        raise TableError("HAS_CORRECTIONS", f"A {self.title} record cannot hold a "
                         "correction: this game cannot be exported as a record.", 409,
                         params={"game": self.id})

    @abstractmethod
    def record_text(self, names: list[str], first_player: int, options: dict[str, Any],
                    moves: list[MoveT]) -> str:
        """The game record (JSON Lines) of a table's moves."""

    # -- what the archive asks (companion/table/archive.py) ---------------------------------

    def read_record(self, text: str) -> RecordedGame[StateT, MoveT]:
        """A record of this game read and replayed with the check ``replay`` makes: every line
        parsed, every move applied from the start. Raises
        :class:`~companion.kit.records.RecordError` naming the first bad line (its code: the
        violation's, or ``BAD_RECORD``). The archive imports records through this; a game
        without records refuses every one on its first line."""
        raise RecordError(1, f"{self.title} has no game records")

    def standings(self, state: StateT, names: list[str]) -> list[Standing] | None:
        """Each seat's result once the game is over (score, place, winner), in seat order, as
        the archive lists it and a player's page adds it up; None while the game runs. A
        game that does not say (None always) is archived with its players and no scores."""
        return None

    def variant(self, options: dict[str, Any]) -> Variant | None:
        """The variant a table's options play, as the archive names it (B Movies' Hidden
        Team); None for a game with one way to play (the default)."""
        return None

    analyzes: bool = False
    """Whether :meth:`analyze` judges this game's records (the archive then offers, and
    keeps, the analysis of each finished game)."""

    # -- what the replay board asks (companion/table/timeline.py; and round_of above) -------

    def public_move(self, move: MoveT) -> dict[str, Any]:
        """A move as everyone at the table saw it, for the replay board (which anyone may
        open): its JSON without what only one player knew then. Popcorn leaves out the award
        cards drawn and kept; B Movies a vote (the reveal shows it), a token's value and the
        studios. The default keeps only the kind and the player: a game that shows more
        says what is public."""
        return {"move": move.kind, "player": move.player}

    def replay_view(self, state: StateT, names: list[str]) -> dict[str, Any]:
        """What the replay board draws at a position: the :meth:`public_view` (the default),
        less what only a live screen uses (Popcorn leaves out its legal moves and chance
        outcomes, most of its view's size)."""
        return self.public_view(state, names)

    def chart_notes(self, names: list[str]) -> ChartNotes | None:
        """A fresh :class:`~companion.kit.charts.ChartNotes` that charts a game replayed
        position by position (``names``: the players' names, in seat order); None for a game
        without charts (the default)."""
        return None
