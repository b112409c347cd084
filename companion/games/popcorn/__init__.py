"""Popcorn behind the :class:`~companion.kit.game.GameKind` interface.

Nothing here is new rules: the required part points at the engine and
:mod:`companion.games.popcorn.views`, and every optional part (:mod:`.parts`) at the Popcorn
module that does its work, so a Popcorn table behaves exactly as it did before the hub hosted
a second game.
"""

from __future__ import annotations

from typing import Any

from companion.kit.game import SECRET_PIN, SECRET_TOKEN, GameKind, Screens

from . import parts, texts
from .engine import Catalog, GameState, Move, Violation, move_from_dict, new_game
from .facts_file import load_catalog
from .table_state import TableState
from .views import private_view, public_view, scores

SETUP_CHANCE = frozenset({"deal_starting", "reveal_movie", "reveal_theater"})
"""Setup deals a person enters from the cardboard: they need the table's PIN."""
PLAYER_MOVES = frozenset({"draw_award", "keep_award"})
"""Moves of a player's phone: the award draw and keep are that player's secret."""

class Popcorn(GameKind[GameState, Move]):
    """Popcorn (IELLO, 2025): 2 to 4 players, pawns and cards read by tag."""

    id = "popcorn"
    title = "Popcorn"
    min_players, max_players = 2, 4
    violation = Violation

    def __init__(self, catalog: Catalog) -> None:
        """Popcorn on ``catalog``, with every optional part (:mod:`.parts`)."""
        super().__init__()
        self.catalog = catalog
        self.texts = texts.texts()
        self.pieces = parts.PopcornPieces(catalog)
        self.mats = parts.PopcornMats()
        self.options = parts.PopcornOptions()
        self.records = parts.PopcornRecords(catalog)
        self.sheets = parts.PopcornSheets()
        self.archive = parts.PopcornArchive()
        self.replays = parts.PopcornReplays(self)
        self.audits = parts.PopcornAudits()
        self.corrections = parts.PopcornCorrections()
        self.look_alikes = parts.PopcornLookAlikes()
        self.dealing = parts.PopcornDealing()
        self.hints = parts.PopcornHints()
        self.routes = parts.PopcornRoutes(catalog)
        self.commands = parts.PopcornCommands()
        self.demo = parts.PopcornDemo()
        self.advisor = parts.PopcornAdvisor(catalog)
        self.screens = Screens.in_package(__name__)

    def new_state(self, players: list[str], first_player: int,
                  options: dict[str, Any]) -> TableState:
        """The fixed part of the setup, followed as a table follows it (the hub knows only
        the counts of each color until the taps show more); the deals wait as chance
        steps."""
        return TableState.following(new_game(self.catalog, players, first_player))

    def move_from_dict(self, data: Any) -> Move:
        """Popcorn's move JSON (``docs/game-record.md``)."""
        return move_from_dict(data)

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


def game() -> Popcorn:
    """Popcorn on the catalog shipped with the package (its entry point)."""
    return Popcorn(load_catalog())
