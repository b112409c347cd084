"""B Movies' optional parts (:mod:`companion.kit.parts`): each a small class that points the
part at the B Movies module that does the work (its options, token taps :mod:`.tags`, record
:mod:`.record`, score sheet and simulator :mod:`.commands`, pile audits :mod:`.audit`,
corrections :mod:`.corrections`, charts :mod:`.charts`, demo :mod:`.demo`)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from companion.kit.audits import AuditReport
from companion.kit.errors import TableError
from companion.kit.game import (
    AuditTap,
    DemoHub,
    DemoPlayers,
    DemoTable,
    MatHand,
    Piece,
    PieceKind,
    PieceValue,
    Tapper,
    TapResult,
)
from companion.kit.parts import (
    Archive,
    Audits,
    Commands,
    Corrections,
    Dealing,
    Demo,
    Options,
    Pieces,
    Records,
    Replays,
    ScoreSheets,
    checked,
)
from companion.kit.records import RecordedGame
from companion.kit.standings import Standing, Variant, places
from companion.kit.texts import N_

from . import commands, corrections, demo, tags
from .audit import audit as audit_pile
from .charts import BMoviesNotes
from .engine import Facts, Move, State, final_cut, move_from_dict
from .record import Record, dumps_record, is_bmovies_header, loads_record, replay
from .scoresheet import is_bmovies_sheet

VARIANTS = ("standard", "hidden")
"""The standard game, and the Hidden Team variant (secret studios)."""
VARIANT_TITLES = {"standard": N_("Standard game"), "hidden": N_("Hidden Team")}
"""Each variant's name, as the archive and the setup screen show it."""
STUDIO_DEALS = ("deal", "entered")
"""Hidden Team: the hub deals the studios to the phones in secret, or the table deals the
cardboard cards and enters them with the PIN."""
SECRET_FIELDS: dict[str, tuple[str, ...]] = {
    "vote": ("vote",), "draw_token": ("value", "token"), "deal_studios": ("studios",)}
"""The fields of a move that the table did not see when it was made (the replay board
leaves them out of its steps)."""


class BMoviesOptions(Options):
    """``variant`` (standard by default) and, for Hidden Team, ``studios`` (``deal``: the
    hub deals in secret, the default; ``entered``: from the cardboard, with the PIN)."""

    schema = {"type": "object", "description": N_(
        "Each player's token pad is their reader: a Popcorn token tapped on it is a token "
        "drawn."), "properties": {
        "variant": {"title": N_("Variant"), "enum": list(VARIANTS), "default": "standard",
                    "enumTitles": [VARIANT_TITLES[v] for v in VARIANTS]},
        "studios": {"title": N_("Studios (Hidden Team)"), "enum": list(STUDIO_DEALS),
                    "default": "deal", "x-shown-when": {"variant": "hidden"},
                    "enumTitles": [
                        N_("The hub deals the studios in secret (each phone shows its own)"),
                        N_("We deal the studio cards and enter the deal on the tablet (PIN)")]}}}

    def check(self, options: dict[str, Any], players: int) -> dict[str, Any]:
        """The options checked; ``studios`` only for Hidden Team."""
        chosen = checked(self.schema, options)
        if chosen["variant"] != "hidden":
            chosen.pop("studios", None)
        return chosen

    def deals_secretly(self, options: dict[str, Any]) -> bool:
        """Hidden Team with the hub dealing: the studios go to the phones unseen."""
        return options.get("variant") == "hidden" and options.get("studios") == "deal"

    def variant(self, options: dict[str, Any]) -> Variant:
        """The standard game or Hidden Team."""
        chosen = options.get("variant", "standard")
        return Variant(chosen, VARIANT_TITLES.get(chosen, chosen))


class BMoviesPieces(Pieces):
    """Popcorn tokens by value; a token tapped on a player's pad is a draw, or an alert
    (:mod:`.tags`). Tokens of one value are told apart by their tags' ids."""

    alert_codes = tags.ALERT_CODES

    def __init__(self, facts: Facts) -> None:
        self.facts = facts

    def kinds(self) -> tuple[PieceKind, ...]:
        """The popcorn tokens by value, as many of each as the facts count (numbered as
        the engine's token ids: the 0s first); secret, as a drawn token is."""
        return (PieceKind("token", N_("popcorn token"), tuple(
            PieceValue(value, str(value), count)
            for value, count in enumerate(self.facts.token_counts)), secret=True),)

    def read(self, state: State, seat: int, piece: Piece | None, uid: str,
             names: list[str]) -> TapResult:
        """The tap's draw, or an alert."""
        return tags.read_tag(state, self.facts, seat, piece, uid, names)


class BMoviesRecords(Records):
    """A B Movies record (``docs/b-movies.md``): its header says ``"game": "b-movies"`` and
    names the variant."""

    def __init__(self, facts: Facts) -> None:
        self.facts = facts

    def owns(self, first_line: str) -> bool:
        """A header with ``"game": "b-movies"``."""
        return is_bmovies_header(first_line)

    def text(self, names: list[str], first_player: int, options: dict[str, Any],
             moves: list[Any]) -> str:
        """The canonical text."""
        return dumps_record(Record(tuple(names), first_player,
                                   options.get("variant", "standard"), moves))

    def read(self, text: str) -> RecordedGame[State, Move]:
        """A record read and replayed as ``replay`` does; its options name its variant."""
        record = loads_record(text)
        state = replay(record, self.facts)
        return RecordedGame(record.names, record.first_player, {"variant": record.variant},
                            record.moves, state)

    def replay(self, prog: str, text: str) -> int:
        """``popcorn-companion replay`` (:func:`.commands.run_replay`)."""
        return commands.run_replay(prog, text)

    def logged(self, state: State, data: Any) -> Move:
        """A move as the log holds it (there is no older form)."""
        return move_from_dict(data)


class BMoviesSheets(ScoreSheets):
    """The Final Cut of a score sheet (``docs/b-movies.md``)."""

    def owns(self, doc: Any) -> bool:
        """A sheet with ``"game": "b-movies"``."""
        return is_bmovies_sheet(doc)

    def score(self, prog: str, doc: Any) -> int:
        """Score it; a sheet scored as B Movies by ``--game`` needs not say so itself."""
        if isinstance(doc, dict):
            doc = {**doc, "game": "b-movies"}
        return commands.run_score(prog, doc)


class BMoviesArchive(Archive):
    """Each player's own score; the place is their side's (a Hidden Team team wins or loses
    together, on its total), the winning sides first."""

    def standings(self, state: State, names: list[str]) -> list[Standing] | None:
        """The standings of a finished game (None while it runs)."""
        if not state.is_over:
            return None
        cut = final_cut(state)
        side_of = {seat: n for n, side in enumerate(cut.sides) for seat in side.members}
        side_places = places([side.total for side in cut.sides], set(cut.winners))
        return [Standing(names[p.seat], p.score, side_places[side_of[p.seat]],
                         side_of[p.seat] in cut.winners) for p in cut.players]


class BMoviesReplays(Replays):
    """What the table saw of each move, the charts, and the rounds."""

    def public_move(self, move: Move) -> dict[str, Any]:
        """A pitch whole; a vote without its card (the reveal shows every vote); a token
        drawn without its value or id; a studio deal without the studios."""
        data = move.to_dict()
        for secret in SECRET_FIELDS.get(move.kind, ()):
            data.pop(secret, None)
        return data

    def chart_notes(self, names: list[str]) -> BMoviesNotes:
        """Tokens drawn and movies made per round (:mod:`.charts`)."""
        return BMoviesNotes(names)

    def round_of(self, state: State) -> int | None:
        """The round being played (None before round 1, while a Hidden Team table deals
        its studios)."""
        return state.round or None


class BMoviesAudits(Audits):
    """A player's token pile compared value by value with the tokens they tapped
    (:func:`.audit.audit`): their phone's report names the values, the table's screen's
    only counts them."""

    def audit(self, state: State, seat: int, taps: Sequence[AuditTap], names: list[str],
              private: bool) -> AuditReport:
        """The report."""
        return audit_pile(state, seat, taps, names, private)


class BMoviesCorrections(Corrections):
    """A popcorn token is really in a player's pile, or in the bucket: named by its id, or
    by its value for a token drawn without a tag (:func:`.corrections.correct`)."""

    def correct(self, state: State, body: dict[str, Any]) -> dict[str, Any]:
        """Apply it."""
        return corrections.correct(state, body)

    def record_move(self, correction: dict[str, Any]) -> Move | None:
        """A B Movies record holds no correction."""
        raise TableError("HAS_CORRECTIONS", "A B Movies record cannot hold a correction: "
                         "this game cannot be exported as a record.", 409,
                         params={"game": "b-movies"})


class BMoviesDealing(Dealing):
    """The hidden studios, dealt by the hub when it deals in secret: the options decide it
    (Hidden Team, dealt by the hub), not the form's "deal for us"."""

    optional = False

    def outcomes(self, state: State) -> list[Move]:
        """The studio deals due now."""
        return [m for m in state.chance_outcomes() if m.kind == "deal_studios"]


class BMoviesCommands(Commands):
    """``simulate --game b-movies``."""

    def simulate(self, args: argparse.Namespace) -> int:
        """Random B Movies games (``--variant standard|hidden``)."""
        variant = args.variant or "standard"
        if variant not in VARIANTS:
            args.parser.error(f"argument --variant: invalid choice: {variant!r} (choose from "
                              f"{', '.join(VARIANTS)})")
        return commands.run_simulate(args.games, args.players, args.seed, variant, args.record)


class BMoviesDemo(Demo):
    """Made-up tags for the popcorn tokens, a table (``--variant``) and its scripted players:
    pitches, secret votes, every drawn token tapped on its player's pad."""

    pads = "token pads"

    def start(self, hub: DemoHub, readers: list[str], bank: Tapper, delay: float,
              args: argparse.Namespace, mats: Sequence[MatHand] = ()
              ) -> tuple[DemoTable, str, DemoPlayers]:
        """The demo's table, PIN and players."""
        tokens = demo.enroll_tokens(hub, args.seed)
        variant = args.variant or "standard"
        table, pin, _ = hub.create_table(list(demo.PLAYERS), readers, 0, "Demo table", None,
                                         game="b-movies", options={"variant": variant})
        players = demo.BMoviesPlayers.in_process(hub, table, bank, tokens, delay=delay,
                                                 seed=args.seed)
        return table, pin, players.start()

    def summary(self, scores: dict[str, Any], names: list[str], state: Any) -> str:
        """Each player's score and the winning sides (a Hidden Team side is a team)."""
        totals = ", ".join(f"{p['name']} {p['score']}" for p in scores["players"])
        winners = [" + ".join(names[m] for m in scores["sides"][side]["members"])
                   for side in scores["winners"]]
        return (f"Final Cut: {totals}; winner(s): {', '.join(winners)} "
                f"(tie-break: {scores['tie_break']})")
