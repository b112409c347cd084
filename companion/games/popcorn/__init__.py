"""Popcorn behind the :class:`~companion.kit.game.GameKind` interface.

Nothing here is new rules: it points the interface at the modules Popcorn has always used
(the engine, :mod:`companion.games.popcorn.views`, the pawn and card tap readers, the record), so a
Popcorn table behaves exactly as it did before the hub hosted a second game.
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from flask import Blueprint

from companion.kit.alerts import Alert
from companion.kit.audits import AuditReport

if TYPE_CHECKING:
    from companion.kit.game import Subcommands

from companion.kit.game import (
    SECRET_PIN,
    SECRET_TOKEN,
    AuditTap,
    DemoHub,
    DemoPlayers,
    DemoTable,
    GameKind,
    Progress,
    Relabel,
    TableHost,
    TagKinds,
    TagThing,
    TapChoice,
    TapMoves,
    Tapper,
)
from companion.kit.records import RecordedGame
from companion.kit.standings import Standing, places
from companion.kit.texts import GameTexts

from . import analysis, card_list, commands, demo, routes, texts
from .audit import audit
from .card_taps import interpret_card
from .cardbook import CardBook
from .charts import PopcornNotes
from .corrections import correct, correction, record_move
from .engine import (
    GUEST_COLORS,
    Catalog,
    GameState,
    Move,
    Violation,
    move_from_dict,
    name_guest,
    new_game,
)
from .engine.pawns import pawn_colors
from .facts_file import card_copies, load_catalog
from .placement import forced_seating
from .record import Record, dumps_record, loads_record, replay, upgraded
from .table_state import TableState, play
from .tags import ALERT_CODES, interpret
from .views import PRIVATE_MOVES, private_view, public_view, replay_view, scores

SETUP_CHANCE = frozenset({"deal_starting", "reveal_movie", "reveal_theater"})
"""Setup deals a person enters from the cardboard: they need the table's PIN."""
PLAYER_MOVES = frozenset({"draw_award", "keep_award"})
"""Moves of a player's phone: the award draw and keep are that player's secret."""
CARD_KINDS = frozenset({"movie", "theater", "award"})


class Popcorn(GameKind[GameState, Move]):
    """Popcorn (IELLO, 2025): 2 to 4 players, pawns and cards read by tag."""

    id = "popcorn"
    title = "Popcorn"
    min_players, max_players = 2, 4
    violation = Violation
    auto_deal_kinds = frozenset({"deal_starting", "reveal_movie", "reveal_theater",
                                 "draw_award"})

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog

    def options(self, body: dict[str, Any], players: int) -> dict[str, Any]:
        """Popcorn has no table options beyond the hub's own (hints, deal seed)."""
        return {}

    def new_state(self, players: list[str], first_player: int,
                  options: dict[str, Any]) -> TableState:
        """The fixed part of the setup, followed as a table follows it (the hub knows only
        the counts of each color until the taps show more); the deals wait as chance
        steps."""
        return TableState.following(new_game(self.catalog, players, first_player))

    def move_from_dict(self, data: Any, legacy: bool = False) -> Move:
        """Popcorn's move JSON (``legacy``: an activation may lack its ``seat``)."""
        return move_from_dict(data, legacy=legacy)

    def replayed(self, state: GameState, move: Move) -> Move:
        """A log written before moves named their guest acts for the acting guest."""
        return name_guest(state, move)

    def secret(self, state: GameState, move: Move) -> str | None:
        """Award draws are the phone's; setup deals entered by hand and a correction sent as
        a move need the PIN."""
        if move.kind in PLAYER_MOVES:
            return SECRET_TOKEN
        if move.kind == "correct" or (move.kind in SETUP_CHANCE and state.phase == "setup"):
            return SECRET_PIN
        return None

    def public_view(self, state: GameState, names: list[str]) -> dict[str, Any]:
        """See :func:`companion.games.popcorn.views.public_view` (never an award id)."""
        return public_view(state)

    def private_view(self, state: GameState, seat: int, names: list[str]) -> dict[str, Any]:
        """A player's awards and the award cards they choose from."""
        return private_view(state, seat)

    def scores(self, state: GameState, names: list[str]) -> dict[str, Any] | None:
        """The score sheet ``popcorn-companion score`` prints, once the game is over."""
        return scores(state) if state.is_over else None

    def read_tag(self, state: GameState, seat: int, thing: TagThing | None, uid: str,
                 names: list[str]) -> Move | Relabel | TapMoves | TapChoice | Alert:
        """A pawn's tap is a draw or an addition when some arrangement of the look-alikes
        explains it (:func:`.tags.interpret`); a card's is a reveal, a draw or a buy."""
        if thing is not None and thing.kind in CARD_KINDS:
            return interpret_card(state, seat, thing.kind, str(thing.id))
        pawn = int(thing.id) if thing is not None and thing.kind == "pawn" else None
        return interpret(state, seat, pawn, uid)

    alert_codes = ALERT_CODES
    demo_pads = "bag readers"

    def replay_record(self, prog: str, text: str) -> int:
        """Replay a Popcorn record (:func:`.commands.run_replay`); Popcorn's headers name no
        game, so a record no game owns is Popcorn's."""
        return commands.run_replay(prog, text)

    analyzes = True

    def analyze(self, record_text: str, progress: Progress | None = None) -> dict[str, Any]:
        """Every decision of the record the seating advisor can value, judged
        (:func:`.analysis.analyze`): accuracy, decisions and the three biggest misses per
        player."""
        return analysis.analyze(self.catalog, loads_record(record_text), progress).to_dict()

    def score_sheet(self, prog: str, doc: Any) -> int:
        """Score a Popcorn sheet (:func:`.commands.run_score`)."""
        return commands.run_score(prog, doc)

    def simulate(self, args: argparse.Namespace) -> int:
        """Random Popcorn games (:func:`.commands.run_simulate`)."""
        return commands.run_simulate(args)

    def start_demo(self, hub: DemoHub, readers: list[str], bank: Tapper, delay: float,
                   args: argparse.Namespace) -> tuple[DemoTable, str, DemoPlayers]:
        """The box enrolled with made-up tags, a 4-player table without "deal for us", and
        players who tap the pawns and cards (:func:`.demo.start_demo`)."""
        return demo.start_demo(hub, readers, bank, delay, args.seed)

    def demo_summary(self, scores: dict[str, Any], names: list[str], state: Any) -> str:
        """Rounds, totals and winners (:func:`.commands.final_line`)."""
        return commands.final_line(scores, state)

    def add_reader_commands(self, sub: Subcommands) -> None:
        """``readers card-list``: the order to tap the cards in (:mod:`.card_list`)."""
        card_list.add_parser(sub)

    def tag_kinds(self) -> TagKinds:
        """Pawns by color (the box's) and the cards that can carry a tag."""
        return TagKinds(pawn_colors=pawn_colors(self.catalog.box, GUEST_COLORS),
                        cards=CardBook.from_catalog(self.catalog, card_copies()))

    def texts(self) -> GameTexts:
        """Popcorn's templates, colors, places and card words (:mod:`.texts`)."""
        return texts.texts()

    def blueprint(self, host: TableHost) -> Blueprint:
        """The seating advisor's routes and the card catalog (:mod:`.routes`)."""
        return routes.blueprint(host, self.catalog)

    def correction(self, state: GameState, body: dict[str, Any]) -> dict[str, Any]:
        """A pawn moved, a guest moved by its color, or only a relabel
        (:func:`.corrections.correction`)."""
        return correction(state, body)

    def correct(self, state: GameState, body: dict[str, Any]) -> dict[str, Any]:
        """Apply a correction as it is logged (:func:`.corrections.correct`)."""
        return correct(state, body)

    def record_move(self, correction: dict[str, Any]) -> Move | None:
        """A ``correct`` move, or None for a relabel (:func:`.corrections.record_move`)."""
        return record_move(correction)

    audits = True

    def audit(self, state: GameState, seat: int, taps: Sequence[AuditTap],
              names: list[str], private: bool) -> AuditReport:
        """The guests of a bag compared color by color (:func:`.audit.audit`); a bag holds
        no secret, so the table's screen and the phone get the same report."""
        return audit(state, seat, taps)

    def round_of(self, state: GameState) -> int:
        """The round on the Round track."""
        return state.round

    def play(self, state: GameState, move: Move | None, marks: Mapping[str, Any]) -> None:
        """A move with what its tap showed (:func:`.table_state.play`)."""
        play(state, move, marks)

    def renamed(self, move: Move, names: dict[int, int]) -> Move:
        """The move with its pawn renamed."""
        if move.pawn is None or names.get(move.pawn, move.pawn) == move.pawn:
            return move
        return dataclasses.replace(move, pawn=names[move.pawn])

    def forced(self, state: GameState, player: int) -> list[Move]:
        """Drawn guests with one way left to be seated (:func:`.placement.forced_seating`)."""
        return forced_seating(state, player)

    def record_text(self, names: list[str], first_player: int, options: dict[str, Any],
                    moves: list[Move]) -> str:
        """A Popcorn record (``docs/game-record.md``)."""
        return dumps_record(Record(tuple(names), first_player, moves))

    def read_record(self, text: str) -> RecordedGame[GameState, Move]:
        """A record read and replayed as ``replay`` does (:func:`.record.replay`); a
        version-1 record's activation moves come back naming their seat (version 2)."""
        record = loads_record(text)
        state = replay(self.catalog, record)
        if record.version == 1:
            record = upgraded(self.catalog, record)
        return RecordedGame(record.names, record.first_player, {}, record.moves, state)

    def public_move(self, move: Move) -> dict[str, Any]:
        """The move's JSON; an award drawn or kept without its card (only its player saw
        it: the move says that a card was drawn or kept, and by whom)."""
        data = move.to_dict()
        if move.kind in PRIVATE_MOVES:
            data.pop("card", None)
        return data

    def replay_view(self, state: GameState, names: list[str]) -> dict[str, Any]:
        """The public view without the legal moves and chance outcomes
        (:func:`.views.replay_view`)."""
        return replay_view(state)

    def chart_notes(self, names: list[str]) -> PopcornNotes:
        """Popcorn, money and audience per round, and the final score by source
        (:mod:`.charts`)."""
        return PopcornNotes(names)

    def standings(self, state: GameState, names: list[str]) -> list[Standing] | None:
        """Each player's total, the winners (the scorer's, tie-breaks included) first."""
        if not state.is_over:
            return None
        sheet = scores(state)
        totals = [int(p["total"]) for p in sheet["players"]]
        won = {i for i, p in enumerate(sheet["players"]) if p["name"] in sheet["winners"]}
        return [Standing(names[i], total, place, i in won)
                for i, (total, place) in enumerate(zip(totals, places(totals, won),
                                                       strict=True))]


def game() -> Popcorn:
    """Popcorn on the catalog shipped with the package (its entry point)."""
    return Popcorn(load_catalog())
