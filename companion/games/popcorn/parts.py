"""Popcorn's optional parts (:mod:`companion.kit.parts`): each a small class that points the
part at the Popcorn module that does the work.

Nothing here is new rules: the tag reading is :mod:`.tags` and :mod:`.card_taps`, the record
:mod:`.record`, the score sheet :mod:`.commands`, the audit :mod:`.audit`, the corrections
:mod:`.corrections`, the look-alike pawns :mod:`.table_state`, the charts :mod:`.charts`,
the forced seating :mod:`.placement`, the routes :mod:`.routes`, the demo :mod:`.demo` and
the analysis :mod:`.analysis`.

The routes (Flask), the demo and the analysis (the seating advisor) are imported when their
part is first used, not with the game: every ``popcorn-companion`` command makes the games,
and ``score`` or ``replay`` must not pay for a web framework (issue 39).
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from companion.kit.alerts import Alert
from companion.kit.audits import AuditReport
from companion.kit.contract import Operation
from companion.kit.game import (
    AuditTap,
    DemoHub,
    DemoPlayers,
    DemoTable,
    MatHand,
    Mended,
    Piece,
    PieceKind,
    PieceValue,
    Progress,
    Sensed,
    TableHost,
    Tapper,
    TapResult,
    ZoneAlert,
    ZoneChange,
)
from companion.kit.parts import (
    Advisor,
    Archive,
    Audits,
    Commands,
    Corrections,
    Dealing,
    Demo,
    Hints,
    LookAlikes,
    Mats,
    Options,
    Pieces,
    Records,
    Replays,
    Routes,
    ScoreSheets,
)
from companion.kit.records import RecordedGame
from companion.kit.standings import Standing, places
from companion.kit.texts import N_

from . import card_list, commands
from .audit import audit
from .card_taps import interpret_card
from .cardbook import CARD_KINDS as CARD_ORDER
from .cardbook import CardBook
from .charts import PopcornNotes
from .corrections import correct, correction, record_move
from .engine import GUEST_COLORS, Catalog, GameState, Move, move_from_dict, name_guest
from .facts_file import card_copies
from .mat_checks import disagreement as mat_disagreement
from .mat_checks import review as review_mats
from .mats import ALERT_CODES as MAT_ALERT_CODES
from .mats import ZONES, read_zone
from .placement import forced_seating, played_on
from .record import Record, dumps_record, loads_record, replay, upgraded
from .table_state import play
from .tags import ALERT_CODES, interpret
from .views import PRIVATE_MOVES, replay_view, scores

if TYPE_CHECKING:
    from flask import Blueprint

    from companion.kit.hosting import Subcommands

CARD_KINDS = frozenset(CARD_ORDER)
"""The kinds of card a tag may be on."""
CARD_TITLES = {"movie": N_("movie card"), "theater": N_("theater tile"),
               "award": N_("award card")}
"""What each kind of card is called on a screen."""
DEALT = frozenset({"deal_starting", "reveal_movie", "reveal_theater", "draw_award"})
"""The chance steps "deal for us" deals."""


class PopcornOptions(Options):
    """No option: one way to play. The form's words say what each player's reader is."""

    schema = {"type": "object", "properties": {},
              "description": N_("Each player's guest bag has its own reader.")}


class PopcornPieces(Pieces):
    """Pawns by color and the cards that can carry a tag; a pawn's tap is a draw or an
    addition when some arrangement of the look-alikes explains it (:func:`.tags.interpret`),
    a card's a reveal, a draw or a buy (:func:`.card_taps.interpret_card`)."""

    alert_codes = ALERT_CODES

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog

    def kinds(self) -> tuple[PieceKind, ...]:
        """Pawns by color, numbered as the engine numbers them (the box's 20 white ones
        first, then 10 of each color), and the cards that can carry a tag: a kind each,
        told apart by title (``pick``), the award cards secret."""
        box = self.catalog.box
        pawns = PieceKind("pawn", N_("guest pawn"), tuple(
            PieceValue(color, color, box[color]) for color in GUEST_COLORS))
        book = CardBook.from_catalog(self.catalog, card_copies())
        return (pawns, *(PieceKind(kind, CARD_TITLES[kind], tuple(
            PieceValue(card, book.title(kind, card), book.copies[(kind, card)])
            for card in book.order[kind]), secret=kind == "award", pick=True)
            for kind in CARD_ORDER))

    def read(self, state: GameState, seat: int, piece: Piece | None, uid: str,
             names: list[str]) -> TapResult:
        """A pawn's tap or a card's (see the class's text). A piece of another game is no
        pawn (an unknown tag to Popcorn)."""
        mine = piece if piece is not None and piece.game in ("", "popcorn") else None
        if mine is not None and mine.kind in CARD_KINDS:
            card = mine.value if mine.value is not None else mine.id  # an older log: the id
            return interpret_card(state, seat, mine.kind, str(card))
        pawn = int(mine.id) if mine is not None and mine.kind == "pawn" else None
        return interpret(state, seat, pawn, uid)


class PopcornMats(Mats):
    """A cinema mat: zones 0 to 2 under the theater slots, 3 under the exit zone; a guest
    set down is placed, leaves, or goes to the exit zone (:mod:`.mats`)."""

    zones = ZONES
    alert_codes = MAT_ALERT_CODES

    def read(self, state: GameState, change: ZoneChange,
             names: list[str]) -> list[TapResult | Mended]:
        """What a change on a seat's mat means (:func:`.mats.read_zone`)."""
        return read_zone(state, change)

    def disagreement(self, state: GameState, seat: int, zone: int,
                     lying: tuple[Sensed, ...], count: int, names: list[str]) -> list[Alert]:
        """A guest the mat shows where the hub does not have it, or the reverse
        (:func:`.mats.disagreement`)."""
        return mat_disagreement(state, seat, zone, lying, count)

    def review(self, before: GameState, after: GameState,
               zones: Mapping[tuple[int, int], tuple[Sensed, ...]],
               names: list[str]) -> list[ZoneAlert]:
        """A guest left in a theater, seen once the next round's first turn is over
        (:func:`.mats.review`)."""
        return review_mats(before, after, zones)


class PopcornRecords(Records):
    """Popcorn's record (``docs/game-record.md``): a ``popcorn-record`` header, version 3."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog

    def owns(self, first_line: str) -> bool:
        """Popcorn's headers name no game: ``replay`` falls back on Popcorn."""
        return '"popcorn-record"' in first_line

    def text(self, names: list[str], first_player: int, options: dict[str, Any],
             moves: list[Any]) -> str:
        """The canonical text (:func:`.record.dumps_record`)."""
        return dumps_record(Record(tuple(names), first_player, moves))

    def read(self, text: str) -> RecordedGame[GameState, Move]:
        """A record read and replayed as ``replay`` does; a version-1 record's activation
        moves come back naming their seat."""
        record = loads_record(text)
        state = replay(self.catalog, record)
        if record.version == 1:
            record = upgraded(self.catalog, record)
        return RecordedGame(record.names, record.first_player, {}, record.moves, state)

    def replay(self, prog: str, text: str) -> int:
        """``popcorn-companion replay`` (:func:`.commands.run_replay`)."""
        return commands.run_replay(prog, text)

    def logged(self, state: GameState, data: Any) -> Move:
        """A log written before moves named their guest acts for the acting guest."""
        return name_guest(state, move_from_dict(data, legacy=True))


class PopcornSheets(ScoreSheets):
    """The score sheet of ``popcorn-companion score`` (``docs/scoring.md``)."""

    def owns(self, doc: Any) -> bool:
        """A sheet without a ``game`` is Popcorn's."""
        return isinstance(doc, dict) and doc.get("game", "popcorn") == "popcorn"

    def score(self, prog: str, doc: Any) -> int:
        """Score it (:func:`.commands.run_score`)."""
        return commands.run_score(prog, doc)


class PopcornArchive(Archive):
    """Each player's total, the winners (the scorer's, tie-breaks included) first."""

    def standings(self, state: GameState, names: list[str]) -> list[Standing] | None:
        """The standings of a finished game (None while it runs)."""
        if not state.is_over:
            return None
        sheet = scores(state)
        totals = [int(p["total"]) for p in sheet["players"]]
        won = {i for i, p in enumerate(sheet["players"]) if p["name"] in sheet["winners"]}
        return [Standing(names[i], total, place, i in won)
                for i, (total, place) in enumerate(zip(totals, places(totals, won),
                                                       strict=True))]


class PopcornReplays(Replays):
    """The replay board: public moves (no award card), a lighter view, and the charts of
    popcorn, money and audience per round."""

    def public_move(self, move: Move) -> dict[str, Any]:
        """The move's JSON; an award drawn or kept without its card."""
        data = move.to_dict()
        if move.kind in PRIVATE_MOVES:
            data.pop("card", None)
        return data

    def view(self, state: GameState, names: list[str]) -> dict[str, Any]:
        """The public view without the legal moves and chance outcomes."""
        return replay_view(state)

    def chart_notes(self, names: list[str]) -> PopcornNotes:
        """Popcorn, money and audience per round, and the final score by source."""
        return PopcornNotes(names)

    def round_of(self, state: GameState) -> int:
        """The round on the Round track (0 during the setup)."""
        return state.round


class PopcornAudits(Audits):
    """A bag's guests compared color by color (:func:`.audit.audit`); a bag holds no secret,
    so the table's screen and the phone get the same report."""

    def audit(self, state: GameState, seat: int, taps: Sequence[AuditTap], names: list[str],
              private: bool) -> AuditReport:
        """The report."""
        return audit(state, seat, taps)


class PopcornCorrections(Corrections):
    """A pawn moved, a guest moved by its color, or only a relabel
    (:mod:`.corrections`); a record holds the first two as ``correct`` lines."""

    def model(self) -> Any:
        """A request's fields (:class:`.contract.PawnCorrection`)."""
        from .contract import PawnCorrection

        return PawnCorrection

    def correction(self, state: GameState, body: dict[str, Any]) -> dict[str, Any]:
        """What the request means (:func:`.corrections.correction`)."""
        return correction(state, body)

    def correct(self, state: GameState, body: dict[str, Any]) -> dict[str, Any]:
        """Apply it as logged (:func:`.corrections.correct`)."""
        return correct(state, body)

    def record_move(self, correction: dict[str, Any]) -> Move | None:
        """A ``correct`` move, or None for a relabel."""
        return record_move(correction)


class PopcornLookAlikes(LookAlikes):
    """Pawns of one color, told apart only as far as the table showed them
    (:mod:`.whereabouts`)."""

    def play(self, state: GameState, move: Move | None, marks: dict[str, Any]) -> None:
        """A move with what its tap showed (:func:`.table_state.play`)."""
        play(state, move, marks)

    def renamed(self, move: Move, names: dict[int, int]) -> Move:
        """The move with its pawn renamed."""
        if move.pawn is None or names.get(move.pawn, move.pawn) == move.pawn:
            return move
        return dataclasses.replace(move, pawn=names[move.pawn])


class PopcornDealing(Dealing):
    """Starting movies, reveals and award draws."""

    description = N_("the hub shuffles and deals the movies, theater tiles and award draws. "
                     "Pawn draws always come from the real bags.")
    manual = N_("Manual setup: deal the real cards, then the table screen asks for each "
                "player's starting movie, the lineups and the theater columns.")

    def outcomes(self, state: GameState) -> list[Move]:
        """The chance outcomes of those kinds due now."""
        return [m for m in state.chance_outcomes() if m.kind in DEALT]


class PopcornHints(Hints):
    """Drawn guests with one way left to be seated (:func:`.placement.forced_seating`)."""

    description = N_("once a player has drawn, the table screen shows where the advisor "
                     "would seat the guests and what they would do. Off: the first free "
                     "seats, with no advice. The table PIN changes it later.")
    play_on_description = N_("when a suggested play stops at a guest drawn to a seat or an "
                             "award drawn, the hub goes on with the advisor's play once the "
                             "table has done that step. Undo takes it back.")

    def forced(self, state: GameState, player: int) -> list[Move]:
        """Those seatings, in order."""
        return forced_seating(state, player)

    def played_on(self, state: GameState, player: int) -> list[Move] | None:
        """The advisor's suggested play once a step the table resolves is done
        (:func:`.placement.played_on`)."""
        return played_on(state, player)


class PopcornRoutes(Routes):
    """The seating advisor's routes and the card catalog (:mod:`.routes`)."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog

    def blueprint(self, host: TableHost) -> Blueprint:
        """The routes."""
        from . import routes

        return routes.blueprint(host, self.catalog)

    def operations(self) -> list[Operation]:
        """Their contracts (:mod:`.contract`)."""
        from . import contract

        return contract.operations()


class PopcornCommands(Commands):
    """``simulate`` and ``readers card-list``."""

    def simulate(self, args: argparse.Namespace) -> int:
        """Random Popcorn games (:func:`.commands.run_simulate`)."""
        return commands.run_simulate(args)

    def add_reader_commands(self, sub: Subcommands) -> None:
        """``readers card-list``: the order to tap the cards in (:mod:`.card_list`)."""
        card_list.add_parser(sub)


class PopcornDemo(Demo):
    """The box enrolled with made-up tags, a 4-player table, players who tap pawns and
    cards (:func:`.demo.start_demo`)."""

    pads = "bag readers"

    def start(self, hub: DemoHub, readers: list[str], bank: Tapper, delay: float,
              args: argparse.Namespace, mats: Sequence[MatHand] = ()
              ) -> tuple[DemoTable, str, DemoPlayers]:
        """The demo's table, PIN and players."""
        from . import demo

        return demo.start_demo(hub, readers, bank, delay, args.seed, mats)

    def summary(self, scores: dict[str, Any], names: list[str], state: Any) -> str:
        """Rounds, totals and winners (:func:`.commands.final_line`)."""
        return commands.final_line(scores, state)


class PopcornAdvisor(Advisor):
    """Every decision of a record the seating advisor can value, judged
    (:func:`.analysis.analyze`)."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog

    def analyze(self, record_text: str, progress: Progress | None = None) -> dict[str, Any]:
        """Accuracy, decisions and the three biggest misses per player."""
        from . import analysis

        return analysis.analyze(self.catalog, loads_record(record_text), progress).to_dict()
