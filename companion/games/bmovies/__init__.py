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

from typing import Any

from companion.kit.game import SECRET_EITHER, SECRET_PIN, GameKind, Screens

from . import parts, texts, views
from .engine import Facts, Move, State, Violation, final_cut, move_from_dict, new_game
from .facts_file import load_facts

VARIANTS = parts.VARIANTS
"""The standard game, and the Hidden Team variant (secret studios)."""


class BMovies(GameKind[State, Move]):
    """B Movies: pitches, secret votes on the phones, popcorn tokens read by tag."""

    id = "b-movies"
    title = "B Movies"
    violation = Violation
    closes_secretly = True

    def __init__(self, facts: Facts) -> None:
        """B Movies on ``facts``, with its optional parts (:mod:`.parts`)."""
        super().__init__()
        self.facts = facts
        self.min_players, self.max_players = facts.min_players, facts.max_players
        self.texts = texts.TEXTS
        self.options = parts.BMoviesOptions()
        self.pieces = parts.BMoviesPieces(facts)
        self.records = parts.BMoviesRecords(facts)
        self.sheets = parts.BMoviesSheets()
        self.archive = parts.BMoviesArchive()
        self.replays = parts.BMoviesReplays(self)
        self.audits = parts.BMoviesAudits()
        self.corrections = parts.BMoviesCorrections()
        self.dealing = parts.BMoviesDealing()
        self.commands = parts.BMoviesCommands()
        self.demo = parts.BMoviesDemo()
        self.screens = Screens.in_package(__name__, styles=("bmovies.css",))

    @classmethod
    def from_file(cls) -> BMovies:
        """B Movies on the facts shipped with the package (``data/b-movies.json`` beside it)."""
        return cls(load_facts())

    def new_state(self, players: list[str], first_player: int,
                  options: dict[str, Any]) -> State:
        """A game about to start its first round (or to deal its studios, Hidden Team)."""
        return new_game(self.facts, len(players), first_player,
                        options.get("variant", "standard"))

    def move_from_dict(self, data: Any) -> Move:
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


def game() -> BMovies:
    """B Movies on the facts shipped with the package (its entry point)."""
    return BMovies.from_file()
