"""The pure rules engine of B Movies: standard library only, no I/O, no clock, no randomness
but a simulator's generator passed in.

Build a game with :func:`new_game` from :class:`Facts` (the hub reads them with
``companion.games.bmovies.facts_file.load_facts``), apply :class:`Move` values with
:meth:`State.apply` (a refused move raises :class:`Violation` and changes nothing), and score
it with :func:`final_cut`. :mod:`.bounds` works out what a finished game can leave on the
table (the bounds a score sheet keeps).
"""

from .bounds import (
    fewest_game_draws,
    fewest_pitch_draws,
    fewest_tokens,
    most_tokens,
    rounds,
    tally,
)
from .facts import NO, YES, YES_BANG, Facts, FactsError
from .final_cut import FinalCut, PlayerScore, Side, final_cut, score_table
from .moves import CHANCE_KINDS, FIELDS, Move, check_fields, move_from_dict
from .simulator import play_random, random_move
from .state import (
    HIDDEN,
    PHASES,
    STANDARD,
    VARIANTS,
    Movie,
    Pitch,
    Reveal,
    State,
    Turn,
    new_game,
    settle,
    studio_deals,
)
from .violations import CODES, Violation

__all__ = [
    "CHANCE_KINDS", "CODES", "FIELDS", "HIDDEN", "NO", "PHASES", "STANDARD", "VARIANTS", "YES",
    "YES_BANG", "Facts", "FactsError", "FinalCut", "Move", "Movie", "Pitch", "PlayerScore",
    "Reveal", "Side", "State", "Turn", "Violation", "check_fields", "fewest_game_draws",
    "fewest_pitch_draws", "fewest_tokens", "final_cut", "most_tokens", "move_from_dict",
    "new_game", "play_random", "random_move", "rounds", "score_table", "settle",
    "studio_deals", "tally",
]
