"""B Movies (a party game for 3 to 6 players) behind the hub's game interface.

The rules are the pure engine in :mod:`.engine` (see ``docs/b-movies.md``); this module
tells the hub what a table of B Movies needs: its options (the variant, and whether the hub
deals the hidden studios or the table enters them), which secret each move needs (a vote or
a hand-reported token is the player's phone's, or one person's at the tablet with the
table's PIN), the public and private views (:mod:`.views`), how a token's tap is read
(:mod:`.tags`), the record (:mod:`.record`), a token correction (:mod:`.corrections`) and a
player's audit of their token pile (:mod:`.audit`).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from companion.kit.alerts import Alert
from companion.kit.audits import AuditReport
from companion.kit.errors import TableError
from companion.kit.game import (
    SECRET_EITHER,
    SECRET_PIN,
    AuditTap,
    DemoHub,
    DemoPlayers,
    DemoTable,
    GameKind,
    TagKinds,
    TagThing,
    Tapper,
)
from companion.kit.records import RecordedGame
from companion.kit.standings import Standing, Variant, places
from companion.kit.texts import N_, GameTexts

from . import commands, corrections, demo, tags, texts, views
from .audit import audit as audit_pile
from .charts import BMoviesNotes
from .engine import Facts, Move, State, Violation, final_cut, move_from_dict, new_game
from .facts_file import load_facts
from .record import Record, dumps_record, is_bmovies_header, loads_record, replay
from .scoresheet import is_bmovies_sheet

VARIANTS = ("standard", "hidden")
"""The standard game, and the Hidden Team variant (secret studios)."""
VARIANT_TITLES = {"standard": N_("Standard game"), "hidden": N_("Hidden Team")}
"""Each variant's name, as the archive and the setup screen show it."""
SECRET_FIELDS: dict[str, tuple[str, ...]] = {
    "vote": ("vote",), "draw_token": ("value", "token"), "deal_studios": ("studios",)}
"""The fields of a move that the table did not see when it was made (the replay board
leaves them out of its steps)."""
STUDIO_DEALS = ("deal", "entered")
"""Hidden Team: the hub deals the studios to the phones in secret, or the table deals the
cardboard cards and enters them with the PIN."""


class BMovies(GameKind[State, Move]):
    """B Movies: pitches, secret votes on the phones, popcorn tokens read by tag."""

    id = "b-movies"
    title = "B Movies"
    violation = Violation
    auto_deal_kinds = frozenset({"deal_studios"})
    closes_secretly = True

    def __init__(self, facts: Facts) -> None:
        self.facts = facts
        self.min_players, self.max_players = facts.min_players, facts.max_players

    @classmethod
    def from_file(cls) -> BMovies:
        """B Movies on the facts shipped with the package (``data/b-movies.json`` beside it)."""
        return cls(load_facts())

    alert_codes = tags.ALERT_CODES
    demo_pads = "token pads"

    def owns_record(self, first_line: str) -> bool:
        """A record whose header says ``"game": "b-movies"``."""
        return is_bmovies_header(first_line)

    def replay_record(self, prog: str, text: str) -> int:
        """Replay a B Movies record (:func:`.commands.run_replay`)."""
        return commands.run_replay(prog, text)

    def owns_sheet(self, doc: Any) -> bool:
        """A sheet with ``"game": "b-movies"``."""
        return is_bmovies_sheet(doc)

    def score_sheet(self, prog: str, doc: Any) -> int:
        """The Final Cut of a B Movies sheet (:func:`.commands.run_score`); a sheet scored
        as B Movies by ``--game`` needs not say so itself."""
        if isinstance(doc, dict):
            doc = {**doc, "game": self.id}
        return commands.run_score(prog, doc)

    def simulate(self, args: argparse.Namespace) -> int:
        """Random B Movies games (``--variant standard|hidden``)."""
        variant = args.variant or "standard"
        if variant not in VARIANTS:
            args.parser.error(f"argument --variant: invalid choice: {variant!r} (choose from "
                              f"{', '.join(VARIANTS)})")
        return commands.run_simulate(args.games, args.players, args.seed, variant, args.record)

    def start_demo(self, hub: DemoHub, readers: list[str], bank: Tapper, delay: float,
                   args: argparse.Namespace) -> tuple[DemoTable, str, DemoPlayers]:
        """Made-up tags for the popcorn tokens, a table (``--variant``) and its scripted
        players: pitches, secret votes, every drawn token tapped on its player's pad."""
        tokens = demo.enroll_tokens(hub, args.seed)
        variant = args.variant or "standard"
        table, pin, _ = hub.create_table(list(demo.PLAYERS), readers, 0, "Demo table", None,
                                         game=self.id, options={"variant": variant})
        players = demo.BMoviesPlayers.in_process(hub, table, bank, tokens, delay=delay,
                                                 seed=args.seed)
        return table, pin, players.start()

    def demo_summary(self, scores: dict[str, Any], names: list[str], state: Any) -> str:
        """Each player's score and the winning sides (a Hidden Team side is a team)."""
        totals = ", ".join(f"{p['name']} {p['score']}" for p in scores["players"])
        winners = [" + ".join(names[m] for m in scores["sides"][side]["members"])
                   for side in scores["winners"]]
        return (f"Final Cut: {totals}; winner(s): {', '.join(winners)} "
                f"(tie-break: {scores['tie_break']})")

    def texts(self) -> GameTexts:
        """B Movies' templates (:mod:`.texts`)."""
        return texts.TEXTS

    def tag_kinds(self) -> TagKinds:
        """Popcorn tokens by value: the value of each token id, from the facts."""
        facts = self.facts
        return TagKinds(token_values=tuple(facts.token_value(t)
                                           for t in range(facts.tokens_total)))

    def options(self, body: dict[str, Any], players: int) -> dict[str, Any]:
        """``variant`` (standard by default) and, for Hidden Team, ``studios`` (``deal``:
        the hub deals in secret, the default; ``entered``: from the cardboard, with the PIN)."""
        variant = body.get("variant", "standard")
        if variant not in VARIANTS:
            raise TableError("BAD_REQUEST", f"variant must be one of {', '.join(VARIANTS)}",
                             params={"variants": list(VARIANTS)})
        studios = body.get("studios", "deal")
        if studios not in STUDIO_DEALS:
            raise TableError("BAD_REQUEST", f"studios must be one of {', '.join(STUDIO_DEALS)}",
                             params={"studios": list(STUDIO_DEALS)})
        return {"variant": variant, **({"studios": studios} if variant == "hidden" else {})}

    def deals_secretly(self, options: dict[str, Any]) -> bool:
        """Hidden Team with the hub dealing: the studios go to the phones unseen."""
        return options.get("variant") == "hidden" and options.get("studios") == "deal"

    def new_state(self, players: list[str], first_player: int,
                  options: dict[str, Any]) -> State:
        """A game about to start its first round (or to deal its studios, Hidden Team)."""
        return new_game(self.facts, len(players), first_player,
                        options.get("variant", "standard"))

    def move_from_dict(self, data: Any, legacy: bool = False) -> Move:
        """A B Movies move from its JSON form (there is no older form)."""
        return move_from_dict(data)

    def secret(self, state: State, move: Move) -> str | None:
        """A vote and a hand-reported token: the player's phone, or the tablet with the PIN;
        a studio deal entered from the cardboard: the PIN; a pitch: anyone at the tablet."""
        if move.kind == "vote" or (move.kind == "draw_token"):
            return SECRET_EITHER
        if move.kind == "deal_studios":
            return SECRET_PIN
        return None

    def public_view(self, state: State, names: list[str]) -> dict[str, Any]:
        """See :func:`.views.public_view`: no vote before the reveal, no token value."""
        return views.public_view(state, names)

    def private_view(self, state: State, seat: int, names: list[str]) -> dict[str, Any]:
        """See :func:`.views.private_view`."""
        return views.private_view(state, seat, names)

    def scores(self, state: State, names: list[str]) -> dict[str, Any] | None:
        """The Final Cut (tokens, movies, teams, winners, tie-break) once the game is over."""
        return views.named(final_cut(state).to_dict(), names) if state.is_over else None

    def read_tag(self, state: State, seat: int, thing: TagThing | None, uid: str,
                 names: list[str]) -> Move | Alert:
        """A token tapped on a player's pad: a draw, or an alert (:mod:`.tags`). Tokens of
        one value are told apart by their tags' ids: no look-alikes to follow."""
        return tags.read_tag(state, self.facts, seat, thing, uid, names)

    def correct(self, state: State, body: dict[str, Any]) -> dict[str, Any]:
        """A popcorn token is really in a player's pile, or in the bucket: named by its id,
        or by its value for a token drawn without a tag (:func:`.corrections.correct`)."""
        return corrections.correct(state, body)

    audits = True

    def audit(self, state: State, seat: int, taps: Sequence[AuditTap],
              names: list[str], private: bool) -> AuditReport:
        """A player's token pile compared value by value with the tokens they tapped
        (:func:`.audit.audit`): their phone's report names the values, the table's screen's
        only counts them."""
        return audit_pile(state, seat, taps, names, private)

    def round_of(self, state: State) -> int | None:
        """The round being played (None before round 1, while a Hidden Team table deals
        its studios)."""
        return state.round or None

    def record_text(self, names: list[str], first_player: int, options: dict[str, Any],
                    moves: list[Move]) -> str:
        """A B Movies record (``docs/b-movies.md``): header with ``"game": "b-movies"``."""
        return dumps_record(Record(tuple(names), first_player,
                                   options.get("variant", "standard"), moves))

    def read_record(self, text: str) -> RecordedGame[State, Move]:
        """A record read and replayed as ``replay`` does (:func:`.record.replay`); its
        options name its variant."""
        record = loads_record(text)
        state = replay(record, self.facts)
        return RecordedGame(record.names, record.first_player, {"variant": record.variant},
                            record.moves, state)

    def public_move(self, move: Move) -> dict[str, Any]:
        """What the table saw of a move: a pitch whole; a vote without its card (the reveal,
        when the last vote is in, shows every vote: the replay board's view has it); a
        token drawn without its value (face down until the Final Cut) or its id; a studio
        deal without the studios (secret until the Final Cut)."""
        data = move.to_dict()
        for secret in SECRET_FIELDS.get(move.kind, ()):
            data.pop(secret, None)
        return data

    def chart_notes(self, names: list[str]) -> BMoviesNotes:
        """Tokens drawn and movies made per round (:mod:`.charts`)."""
        return BMoviesNotes(names)

    def standings(self, state: State, names: list[str]) -> list[Standing] | None:
        """Each player's own score; the place is their side's (a Hidden Team team wins or
        loses together, on its total), the winning sides first."""
        if not state.is_over:
            return None
        cut = final_cut(state)
        side_of = {seat: n for n, side in enumerate(cut.sides) for seat in side.members}
        side_places = places([side.total for side in cut.sides], set(cut.winners))
        return [Standing(names[p.seat], p.score, side_places[side_of[p.seat]],
                         side_of[p.seat] in cut.winners) for p in cut.players]

    def variant(self, options: dict[str, Any]) -> Variant | None:
        """The standard game or Hidden Team."""
        chosen = options.get("variant", "standard")
        return Variant(chosen, VARIANT_TITLES.get(chosen, chosen))


def game() -> BMovies:
    """B Movies on the facts shipped with the package (its entry point)."""
    return BMovies.from_file()
