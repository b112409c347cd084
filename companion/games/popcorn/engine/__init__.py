"""The pure rules engine of Popcorn: no I/O, no clock, no imports from the rest of the project.

Everything a program needs is importable from this package (the names of ``__all__``); the
catalog comes from ``companion.games.popcorn.facts_file.load_catalog()``, the only module that
reads the file::

    state = new_game(catalog, ["Ana", "Bob"], first_player=0)
    while state.phase == "setup":          # the table deals: chance outcomes are input
        state.apply(state.chance_outcomes()[0] if state.chance_outcomes()
                    else state.legal_moves()[0])
    state.legal_moves()                     # what Ana may do on her Buying turn
    try:
        state.apply(Move("end_turn", player=1))
    except Violation as exc:
        exc.code                            # "NOT_YOUR_TURN": nothing changed

A game is a mutable :class:`GameState`, changed in place by :meth:`GameState.apply` (or
:func:`apply`) like python-chess's ``Board``; :meth:`GameState.clone` copies it. Decisions are
listed by :func:`legal_moves`, the outcomes the table may report (draws, reveals) by
:func:`chance_outcomes`; both take a player, because in the Showings everyone plays at once.
A position in the middle of a game is written and read with :func:`to_dict` and
:func:`from_dict` (``docs/position.md``). At the end, :func:`final_positions` and
:func:`score_game` give the scores, and :func:`state_summary` a public picture at any time.

The modules behind these names: :mod:`.state`, :mod:`.moves`, :mod:`.game`, :mod:`.setup`,
:mod:`.position`, :mod:`.summary`, :mod:`.scoring`, :mod:`.violations`, :mod:`.simulator`,
and the rules by phase in :mod:`.buying`, :mod:`.showings`, :mod:`.tasks`, :mod:`.flow`.
"""

from __future__ import annotations

from . import pawns
from .buying import movie_price, token_ready
from .catalog import COLORS, GUEST_COLORS, Catalog, CatalogError
from .game import apply, apply_listed, chance_outcomes, legal_moves, waiting_players
from .moves import ACTIVATION_KINDS, CHANCE_KINDS, FIELDS, Move, move_from_dict
from .position import to_dict
from .scoring import GameScore, PlayerFinal, PlayerScore, ScoreInputError, score_game
from .setup import new_game
from .showing_choices import acting_seat, name_guest
from .simulator import play_random, random_move
from .state import GameState, PlayerState, Showing, Task, from_dict
from .summary import final_position, final_positions, state_summary
from .violations import CODES, Violation

__all__ = [
    "ACTIVATION_KINDS", "CHANCE_KINDS", "CODES", "COLORS", "FIELDS", "GUEST_COLORS",
    "Catalog", "CatalogError", "GameScore", "GameState", "Move", "PlayerFinal", "PlayerScore",
    "PlayerState", "ScoreInputError", "Showing", "Task", "Violation",
    "acting_seat", "apply", "apply_listed", "chance_outcomes", "final_position",
    "final_positions", "from_dict", "legal_moves", "move_from_dict", "movie_price",
    "name_guest", "new_game", "pawns", "play_random", "random_move", "score_game",
    "state_summary", "to_dict", "token_ready", "waiting_players",
]
