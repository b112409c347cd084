"""The optional parts of a game: everything beyond the rules that some games have.

A game's required part is small (:class:`~companion.kit.game.GameKind`: who it is, a new
state, reading a move, who may send one, its views and its scores). Everything else is a
part the game may give, as an object on its ``GameKind``; the core asks whether a part is
there and never assumes one:

============ =========================================================================
part         what it is for
============ =========================================================================
options      the table options a create request may carry (a JSON Schema) and their check
pieces       reading its pieces: what the tag registry holds for it, and what a tap means
mats         what a change on a mat's zone means (a board that senses where pieces lie)
records      its game record (JSON Lines); the default writes and replays the move log
sheets       the score sheet ``popcorn-companion score`` reads
archive      each seat's standing in the archive
replays      what the replay board shows of a move, a position, the charts and the rounds
audits       comparing a bag (or pile) tapped piece by piece with what the table believes
corrections  the table saying a piece is elsewhere (with its PIN), and its record line
look_alikes  pieces of one kind the rules tell apart only by kind (Popcorn's pawns)
dealing      "deal for us": chance steps the table's seeded generator may deal
hints        the moves the rules leave a player no choice about (one tap on the screen)
routes       the game's own HTTP routes (a Flask Blueprint)
commands     its ``simulate`` and ``readers`` subcommands
demo         ``popcorn-companion demo --game ID``
advisor      the analysis of a finished game's decisions
============ =========================================================================

Each part is a small class here, with the defaults a game gets without it (the records and
the replays have working defaults; the others are None on a game that lacks them).
"""

from __future__ import annotations

import argparse
import json
import sys
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from .alerts import Alert
from .audits import AuditReport
from .charts import ChartNotes
from .contract import Operation
from .errors import TableError
from .hosting import DemoHub, DemoPlayers, DemoTable, MatHand, Progress, TableHost, Tapper
from .pieces import Piece, PieceKind
from .records import RecordedGame, RecordError, parse_line
from .standings import Standing, Variant
from .taps import AuditTap, TapResult
from .texts import N_
from .zones import Mended, Sensed, ZoneAlert, ZoneChange

if TYPE_CHECKING:
    from flask import Blueprint

    from .hosting import Subcommands


class Rules(Protocol):
    """The required part of a game, as the default parts use it."""

    @property
    def id(self) -> str:
        """The game's id."""
        ...

    @property
    def violation(self) -> type[Exception]:
        """The engine's violation."""
        ...

    def new_state(self, players: list[str], first_player: int,
                  options: dict[str, Any]) -> Any:
        """A fresh state."""
        ...

    def move_from_dict(self, data: Any) -> Any:
        """A move from its JSON form."""
        ...

    def public_view(self, state: Any, names: list[str]) -> dict[str, Any]:
        """Everything every player may see."""
        ...

    def scores(self, state: Any, names: list[str]) -> dict[str, Any] | None:
        """The final scores, or None while the game runs."""
        ...


# -- options -------------------------------------------------------------------------------

class Options:
    """A game's table options: a JSON Schema of the ``options`` object a create request may
    carry (``type: object``, one property per option, each with a ``title``, a ``default``
    and an ``enum``, or ``type: boolean`` / ``integer`` with ``minimum`` and ``maximum``),
    which the setup screen turns into a form, and their check. The default schema has no
    property: a game without options.

    Words for the form, each English and marked with ``N_()`` so that the catalogs hold
    it: the schema's ``description`` (what each player's reader is to this game), a
    property's ``title`` and, for an ``enum``, its ``enumTitles`` (one per value). A
    property with ``x-shown-when`` (``{"other option": value}``) is asked, and sent, only
    while the other option has that value (B Movies' studio deal, for Hidden Team)."""

    schema: dict[str, Any] = {"type": "object", "properties": {}}

    def check(self, options: dict[str, Any], players: int) -> dict[str, Any]:
        """The options of a create request, checked against :attr:`schema` with its
        defaults filled in; ``BAD_REQUEST`` names the first bad one."""
        return checked(self.schema, options)

    def deals_secretly(self, options: dict[str, Any]) -> bool:
        """Whether the hub itself must deal a secret at the start (B Movies' hidden studios,
        dealt to the phones): the table then gets "deal for us" with a fresh random seed."""
        return False

    def variant(self, options: dict[str, Any]) -> Variant | None:
        """The variant a table's options play, as the archive names it (B Movies' Hidden
        Team); None for a game with one way to play."""
        return None


def checked(schema: dict[str, Any], options: Any) -> dict[str, Any]:
    """``options`` checked against a flat JSON Schema (see :class:`Options`), with each
    missing property's ``default``; an unknown or bad one is ``BAD_REQUEST``."""
    if not isinstance(options, dict):
        raise TableError("BAD_REQUEST", "options must be a JSON object")
    known: dict[str, Any] = schema.get("properties", {})
    extra = sorted(set(options) - set(known))
    if extra:
        raise TableError("BAD_REQUEST", f"unknown option {extra[0]!r}",
                         params={"option": extra[0], "options": sorted(known)})
    out: dict[str, Any] = {}
    for name, rule in known.items():
        if name not in options:
            if "default" in rule:
                out[name] = rule["default"]
            continue
        out[name] = _option(name, rule, options[name])
    return out


def _option(name: str, rule: dict[str, Any], value: Any) -> Any:
    if "enum" in rule and value not in rule["enum"]:
        raise TableError("BAD_REQUEST", f"{name} must be one of "
                         f"{', '.join(map(str, rule['enum']))}",
                         params={"option": name, name + "s": list(rule["enum"])})
    kind = rule.get("type")
    if kind == "boolean" and type(value) is not bool:
        raise TableError("BAD_REQUEST", f"{name} must be true or false", params={"option": name})
    if kind == "integer" and (type(value) is not int or not
                              rule.get("minimum", value) <= value <= rule.get("maximum", value)):
        raise TableError("BAD_REQUEST", f"{name} must be a whole number from "
                         f"{rule.get('minimum')} to {rule.get('maximum')}",
                         params={"option": name})
    return value


# -- pieces --------------------------------------------------------------------------------

class Pieces(ABC):
    """Reading a game's pieces: what they ask of the hub's tag registry, and what a tap of
    one (or of an unknown tag) on a seat's reader means."""

    alert_codes: dict[str, str] = {}
    """Every alert code :meth:`read` raises, with what it means (each has its message and
    fix in the game's texts)."""

    @abstractmethod
    def kinds(self) -> tuple[PieceKind, ...]:
        """The kinds of the game's pieces that may carry a tag, each with its values and
        how many pieces of the box carry each (the registry enrolls and counts them)."""

    @abstractmethod
    def read(self, state: Any, seat: int, piece: Piece | None, uid: str,
             names: list[str]) -> TapResult:
        """What a tap on ``seat``'s reader means (``piece``: what the registry knows the tag
        to be, value included; None for a tag it does not know, and a piece of another
        game is the other game's kind): one of the game's moves, a
        :class:`~.taps.Relabel` of look-alikes with its move, several moves
        (:class:`~.taps.TapMoves`), a choice of moves (:class:`~.taps.TapChoice`), or an
        :class:`~.alerts.Alert` (an unknown tag, a tag of another game, a wrong moment).
        What the table knows of its pieces' places is the state's own."""


class Mats(ABC):
    """Reading a seat's mat: a board under the player's area whose zones sense the pieces
    lying on them (:mod:`.zones`), so the table plays by moving pieces and the companion
    watches. The core keeps each zone's last state and asks :meth:`read` what a change
    means; each result is played as a tap's is (a move, a relabel of look-alikes with its
    move, several moves, a choice, or an alert)."""

    zones: int = 0
    """How many zones a seat's mat has (a mat reports zones 0 to ``zones - 1``)."""

    alert_codes: dict[str, str] = {}
    """Every alert code :meth:`read` raises, with what it means."""

    @abstractmethod
    def read(self, state: Any, change: ZoneChange,
             names: list[str]) -> list[TapResult | Mended]:
        """What ``change`` on a seat's mat means now: results to play in order (each is
        played on the state the ones before it left), or none (a piece the rules already
        moved, set down where they put it; a hand that took a piece up for a moment). A
        :class:`~.zones.Mended` closes the open alerts the change set right."""

    def disagreement(self, state: Any, seat: int, zone: int, lying: tuple[Sensed, ...],
                     count: int, names: list[str]) -> list[Alert]:
        """What differs between what lies on zone ``zone`` of ``seat``'s mat (``lying``, in
        arrival order; ``count``: how many tags lie there, more than ``lying`` lists when
        the mat sends only the newest) and what ``state`` has there: an alert per
        difference, naming the piece and the zone, none when they agree. The table asks
        after a restart, when it cannot read a zone's first state without an alert, and
        then at each state of that zone until they agree (the module
        :mod:`companion.table.mat_zones`). By default a mat always agrees."""
        return []

    def review(self, before: Any, after: Any,
               zones: Mapping[tuple[int, int], tuple[Sensed, ...]],
               names: list[str]) -> list[ZoneAlert]:
        """A checkpoint: the state just went from ``before`` to ``after`` (any input: a
        tablet's move, a tap, a zone), and ``zones`` holds what lies on each ``(seat,
        zone)`` of the table's mats. What lies where the rules say it cannot be by now is
        an alert (Popcorn: a guest still in a theater once the next round's first turn is
        over). Mats report a piece's leaving a little after the input that moved it, so a
        checkpoint is a point of the game well after the rules moved a piece, never a
        timer. By default there is none."""
        return []


# -- records -------------------------------------------------------------------------------

class Records(ABC):
    """A game's record: JSON Lines, a header then one move a line, that ``replay`` checks,
    the archive keeps and imports, and the replay board walks."""

    @abstractmethod
    def owns(self, first_line: str) -> bool:
        """Whether a record whose first line is ``first_line`` is this game's."""

    @abstractmethod
    def text(self, names: list[str], first_player: int, options: dict[str, Any],
             moves: list[Any]) -> str:
        """The record of a table's moves."""

    @abstractmethod
    def read(self, text: str) -> RecordedGame[Any, Any]:
        """A record read and replayed, every line parsed and every move applied from the
        start; :class:`~.records.RecordError` names the first bad line."""

    @abstractmethod
    def replay(self, prog: str, text: str) -> int:
        """``popcorn-companion replay``: check every move, print where the game ends; the
        exit status (0, or 1 at the first illegal line)."""

    def logged(self, state: Any, data: Any) -> Any:
        """A move as a table's log holds it, made current against ``state`` (a game whose
        move format changed reads its older logs here)."""
        return self.game.move_from_dict(data)

    game: Rules


LOG_FORMAT = "companion-record"
"""The ``format`` of a default record's header."""


class LogRecords(Records):
    """The default record: the move log. Its header is ``{"format": "companion-record",
    "game", "version": 1, "players", "first_player", "options"}``, then one move a line as
    the game's ``to_dict`` writes it; it replays through ``new_state`` and ``apply``."""

    version = 1

    def __init__(self, game: Rules) -> None:
        """The records of ``game``."""
        self.game = game

    def owns(self, first_line: str) -> bool:
        """A header of the default format naming this game."""
        try:
            head = json.loads(first_line)
        except ValueError:
            return False
        return isinstance(head, dict) and head.get("format") == LOG_FORMAT \
            and head.get("game") == self.game.id

    def text(self, names: list[str], first_player: int, options: dict[str, Any],
             moves: list[Any]) -> str:
        """The header, then each move's JSON, one a line."""
        head = {"format": LOG_FORMAT, "game": self.game.id, "version": self.version,
                "players": list(names), "first_player": first_player,
                "options": dict(options)}
        lines = [head, *(m.to_dict() for m in moves)]
        return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)

    def read(self, text: str) -> RecordedGame[Any, Any]:
        """Parse and replay; a bad header or line, or an illegal move, names its line."""
        lines = text.splitlines()
        if not lines:
            raise RecordError(1, "the record is empty")
        names, first, options = self._header(parse_line(lines[0], 1))
        try:
            state = self.game.new_state(list(names), first, options)
        except self.game.violation as exc:
            raise RecordError(1, str(getattr(exc, "message", exc)),
                              getattr(exc, "code", "BAD_RECORD")) from exc
        moves = []
        for number, line in enumerate(lines[1:], start=2):
            if not line.strip():
                continue
            try:
                move = self.game.move_from_dict(parse_line(line, number))
                state.apply(move)
            except self.game.violation as exc:
                raise RecordError(number, str(getattr(exc, "message", exc)),
                                  getattr(exc, "code", "BAD_RECORD")) from exc
            moves.append(move)
        return RecordedGame(names, first, options, moves, state)

    def _header(self, head: Any) -> tuple[tuple[str, ...], int, dict[str, Any]]:
        if not isinstance(head, dict) or head.get("format") != LOG_FORMAT \
                or head.get("game") != self.game.id:
            raise RecordError(1, f'the first line must be a header with "format": '
                              f'"{LOG_FORMAT}" and "game": "{self.game.id}"')
        if head.get("version") != self.version:
            raise RecordError(1, f"unsupported record version {head.get('version')!r}")
        names, first = head.get("players"), head.get("first_player", 0)
        options = head.get("options", {})
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise RecordError(1, '"players" must be a list of names')
        if type(first) is not int or not isinstance(options, dict):
            raise RecordError(1, '"first_player" must be an integer and "options" an object')
        return tuple(names), first, options

    def replay(self, prog: str, text: str) -> int:
        """Print ``{"game", "moves", "over", "scores"}`` (0), or the first bad line (1)."""
        try:
            game = self.read(text)
        except RecordError as exc:
            print(f"{prog}: line {exc.line}: {exc.code}: {exc.message}", file=sys.stderr)
            return 1
        names = list(game.names)
        print(json.dumps({"game": self.game.id, "moves": len(game.moves),
                          "over": bool(game.state.is_over),
                          "scores": self.game.scores(game.state, names)}))
        return 0


class ScoreSheets(ABC):
    """The score sheet of a finished game, as ``popcorn-companion score`` reads it."""

    @abstractmethod
    def owns(self, doc: Any) -> bool:
        """Whether a decoded score sheet is this game's."""

    @abstractmethod
    def score(self, prog: str, doc: Any) -> int:
        """Score the sheet and print it; the exit status (0, or 2 for a bad sheet)."""


class Archive(ABC):
    """What the archive lists of a finished game of this game."""

    @abstractmethod
    def standings(self, state: Any, names: list[str]) -> list[Standing] | None:
        """Each seat's result once the game is over (score, place, winner), in seat order;
        None while it runs."""


class Replays:
    """What the replay board shows, position by position (the defaults: each move's kind and
    player, the public view, no charts, no rounds)."""

    def __init__(self, game: Rules) -> None:
        """The replays of ``game``."""
        self.game = game

    def public_move(self, move: Any) -> dict[str, Any]:
        """A move as everyone at the table saw it: its JSON without what only one player
        knew then. The default keeps only the kind and the player."""
        return {"move": move.kind, "player": move.player}

    def view(self, state: Any, names: list[str]) -> dict[str, Any]:
        """What the board draws at a position: the public view by default."""
        return self.game.public_view(state, names)

    def chart_notes(self, names: list[str]) -> ChartNotes | None:
        """A fresh :class:`~.charts.ChartNotes` that charts a game replayed position by
        position, or None (no charts)."""
        return None

    def round_of(self, state: Any) -> int | None:
        """The round ``state`` is in, counted from 1 (0 for a setup), or None for a game
        without rounds: the board jumps to rounds, and the table notes the rounds in which a
        tap raised an alert."""
        return None


class Audits(ABC):
    """Auditing a bag (or a pile): a player taps every piece of it, and the game says what
    differs and what mends it."""

    @abstractmethod
    def audit(self, state: Any, seat: int, taps: Sequence[AuditTap], names: list[str],
              private: bool) -> AuditReport:
        """The report of ``seat``'s taps (every piece, in tap order); ``private``: for that
        player's phone, else for the table's screen, which must not learn a secret."""


class Corrections(ABC):
    """The table saying (with its PIN) that a piece is really elsewhere.

    A request's own fields (all but the PIN and the ``alert`` it fixes) have a typed model,
    :meth:`model`, which the hub decodes them with before :meth:`correction` reads them,
    and which its OpenAPI document describes."""

    def model(self) -> Any:
        """The typed model of a correction request's own fields: a ``msgspec.Struct`` (the
        game's API contract), or None (the default: the fields reach :meth:`correction`
        unchecked). A field of the wrong type, or a required one missing, is then refused
        with ``400 BAD_REQUEST`` naming it, before the game reads the fields as they came."""
        return None

    def correction(self, state: Any, body: dict[str, Any]) -> dict[str, Any]:
        """What a request means at ``state``, decided once, as :meth:`correct` then applies
        it and the log keeps it; ``body`` unchanged by default."""
        return body

    @abstractmethod
    def correct(self, state: Any, body: dict[str, Any]) -> dict[str, Any] | None:
        """Apply a correction in place (raise :class:`~.errors.TableError` for a bad one);
        the correction as the log keeps it, or None to keep ``body``."""

    def record_move(self, correction: dict[str, Any]) -> Any:
        """The correction as a line of the game's record, or None when it only relabels
        look-alikes; ``HAS_CORRECTIONS`` when the game's records cannot hold it."""
        raise TableError("HAS_CORRECTIONS", "This game's record cannot hold a correction: "
                         "it cannot be exported as a record.", 409)


class LookAlikes(ABC):
    """Pieces of one kind the rules tell apart only by kind (Popcorn's pawns of a color):
    a tap may relabel them (:class:`~.taps.Relabel`), and the table's log keeps it."""

    @abstractmethod
    def play(self, state: Any, move: Any, marks: dict[str, Any]) -> None:
        """Apply ``move`` (None: only what the tap showed) with the marks a tap left beside
        it in the log (``relabel`` swaps, the piece ``seen``)."""

    @abstractmethod
    def renamed(self, move: Any, names: dict[int, int]) -> Any:
        """``move`` with its piece renamed by ``names`` (a record's view of relabels)."""


class Dealing(ABC):
    """"Deal for us": chance steps the table's seeded generator may deal.

    ``optional``: the setup form offers it (the table may also deal its own cards and enter
    them); a game whose options decide it (B Movies' studios, dealt in secret) sets False.
    ``description`` and ``manual`` are the form's words for "deal for us" and for the table
    dealing itself (English, marked with ``N_()``)."""

    optional = True
    description = N_("the hub deals what the game leaves to chance, from a seed.")
    manual = N_("Manual setup: deal the real components, then enter the deal on the table "
                "screen.")

    @abstractmethod
    def outcomes(self, state: Any) -> list[Any]:
        """The chance outcomes "deal for us" draws among now (none: nothing to deal)."""


class Hints(ABC):
    """Steps the rules leave no choice about, which a screen's tap may add to its batch.
    ``description``: the setup form's words for the option (English, marked)."""

    description = N_("the table screen offers the moves the rules leave no choice about. "
                     "The table PIN changes it later.")
    play_on_description: str | None = None
    """The setup form's words for letting the advice play on (:meth:`played_on`), marked;
    None: the game's advice never plays on, and the form does not offer it."""

    @abstractmethod
    def forced(self, state: Any, player: int) -> list[Any]:
        """The moves the rules now leave ``player`` no choice about, in order."""

    def played_on(self, state: Any, player: int) -> list[Any] | None:
        """For a table that asked its advice to play on for ``player`` (a batch sent with
        ``go_on``): the moves the game's advice makes now, up to the next step the table
        resolves itself (a draw, a card); ``[]`` while such a step waits; None once there
        is nothing left to play on, which ends it. By default None: the game's advice
        never plays on."""
        return None


class Routes(ABC):
    """The game's own HTTP routes."""

    @abstractmethod
    def blueprint(self, host: TableHost) -> Blueprint:
        """The routes as a Flask Blueprint, reading tables through ``host``."""

    def operations(self) -> list[Operation]:
        """Each route's contract, for the hub's OpenAPI document (none by default: a
        game's routes left undescribed are listed there by the hub with no more than
        their method and path)."""
        return []


class Commands:
    """The game's own subcommands."""

    def simulate(self, args: argparse.Namespace) -> int:
        """``popcorn-companion simulate --game ID``: random games, summarized."""
        print(f"{args.game} cannot be simulated", file=sys.stderr)
        return 2

    def add_reader_commands(self, sub: Subcommands) -> None:
        """Add ``popcorn-companion readers ...`` subcommands (none by default)."""
        return None


class Demo(ABC):
    """``popcorn-companion demo --game ID``: a live table with virtual readers."""

    pads: str = "readers"
    """What the demo's virtual readers are to this game ("bag readers", "token pads")."""

    @abstractmethod
    def start(self, hub: DemoHub, readers: list[str], bank: Tapper, delay: float,
              args: argparse.Namespace, mats: Sequence[MatHand] = ()
              ) -> tuple[DemoTable, str, DemoPlayers]:
        """Enroll made-up tags, create a table on ``readers`` and start scripted players
        tapping on ``bank``; the table, its PIN and the players. ``mats`` (``demo --mats``,
        for a game with a mats part): a virtual mat per seat, on which the players set
        their pieces down instead of telling the tablet."""

    def summary(self, scores: dict[str, Any], names: list[str], state: Any) -> str:
        """The demo's last line, once the game is over."""
        return json.dumps(scores)


class Advisor(ABC):
    """The analysis of a finished game's decisions (Popcorn's seating advisor)."""

    @abstractmethod
    def analyze(self, record_text: str, progress: Progress | None = None) -> dict[str, Any]:
        """Each player's accuracy and biggest misses, as JSON (``docs/advisor.md``);
        :class:`~.records.RecordError` names a bad line; ``progress`` is told
        ``(done, total)``."""


__all__ = ["Advisor", "Archive", "Audits", "Commands", "Corrections", "Dealing",
           "Demo", "Hints", "LogRecords", "LookAlikes", "Options", "Pieces", "Records",
           "Replays", "Routes", "Rules", "ScoreSheets", "checked"]
