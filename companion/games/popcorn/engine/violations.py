"""Rule violations: a stable code for programs and a sentence for players.

Applying an illegal move raises :class:`Violation` and leaves the state exactly as it was.
Codes never change meaning once published; the sentence may be reworded.

A violation also carries ``params``: the facts its sentence names (the player's seat and
name, the pawn, the card...) as plain JSON values. The sentence is English; a program that
speaks another language renders the ``code`` with these ``params`` in its own words (the
hub's :mod:`companion.i18n` does), so the engine never needs to know any language but one.
"""

from __future__ import annotations

from collections.abc import Callable

CODES: dict[str, str] = {
    "UNKNOWN_MOVE": "the move kind is not one the engine knows",
    "BAD_MOVE": "a field of the move is missing or has the wrong type",
    "GAME_OVER": "the game has ended",
    "WRONG_PHASE": "the move does not belong to the current phase",
    "NOT_YOUR_TURN": "another player must act first",
    "PENDING_STEP": "an earlier step (a choice or a reveal) must be resolved first",
    "NOT_EXPECTED": "the game does not expect this kind of move now",
    "CARD_NOT_AVAILABLE": "the card or tile is not where the move says",
    "AWARD_NOT_DRAWN": "the kept award is not one of the two drawn",
    "MOVIE_ALREADY_BOUGHT": "one movie per turn",
    "THEATER_ALREADY_BOUGHT": "one theater per turn",
    "FIRST_TURN_NO_THEATER": "no theater on the first turn",
    "NOT_ENOUGH_MONEY": "the player cannot pay the price",
    "NO_SUCH_SLOT": "cinemas have slots 0, 1 and 2",
    "SLOT_HAS_NO_THEATER": "a movie needs a theater with seats",
    "TOKEN_NOT_ON_SPACE": "the player has no token on that advertising space",
    "TOKEN_NOT_READY": "no advertising token can be activated in the first round",
    "COLOR_REQUIRED": "the multicolor space needs a guest color",
    "PAWN_NOT_AVAILABLE": "the pawn cannot be taken from where it is",
    "RESERVE_FIRST": "the reserve must be used before another player's exit zone",
    "BAD_TARGET": "the target player does not exist",
    "PAWN_NOT_IN_BAG": "the pawn is not in that player's bag",
    "DRAW_NOT_EXPECTED": "the player has drawn the whole audience already",
    "DRAW_NOT_DONE": "guests are placed only after the whole audience is drawn",
    "PAWN_NOT_DRAWN": "the pawn is not among the guests waiting to be placed",
    "THEATER_HAS_NO_MOVIE": "guests sit only in theaters showing a movie",
    "SEAT_ORDER": "seats fill in order, #1 first",
    "NO_SUCH_SEAT": "the theater has no such seat",
    "SEAT_AVAILABLE": "extra guests go to the exit zone only when no seat is free",
    "SEAT_NOT_ELIGIBLE": "that seat was already activated this showing, or is not next in order",
    "PLACEMENT_NOT_DONE": "every drawn guest must be placed before guests act",
    "THEATER_NOT_FINISHED": "finish the theater being resolved before another one",
    "NO_GUEST_TO_ACT": "no guest waits to act in that theater",
    "SEAT_COLOR": "a colored seat action needs a guest of that color",
    "SEAT_ACTION_TAKEN": "the guest has already taken or passed its seat action",
    "MOVIE_COLOR": "a movie action needs a guest of the movie's color",
    "MOVIE_ACTION_USED": "each movie action is used once per round",
    "MOVIE_ACTION_COVERED": "the lobby slider covers that action",
    "MOVIE_ACTION_TAKEN": "the guest has already taken its movie action",
    "ACTION_NOT_USABLE": "the action cannot be taken now",
    "NO_TOKEN_LEFT": "the player has no advertising token left",
    "PAWN_NOT_IN_EXIT": "the pawn is not in the player's exit zone",
    "PAWN_NOT_IN_CINEMA": "the pawn is not on a seat or in the exit zone of the player",
    "BAD_ACTION_INDEX": "the movie has no action at that index",
    "GUEST_NOT_ACTING": "the guest the move names is not the one whose turn it is to act",
    "GUEST_LEFT": "the guest the move names has already acted and left for the exit zone",
    "BAD_POSITION": "the position is not a well-formed position document",
    "NEGATIVE_AMOUNT": "money, popcorn, tokens and counters are never below 0",
    "PAWN_COUNT": "a position places exactly the pawns of the box, no more and no fewer",
    "PAWN_TWICE": "a pawn is in one place only",
    "UNKNOWN_CARD": "the position names a card or tile the catalog does not have",
    "CARD_TWICE": "a movie, theater tile or award card is in one place only",
    "TOKEN_COUNT": "a player's advertising tokens in supply and on the board add up to the set",
    "SEAT_INVALID": "a theater's seat list matches its seat count",
    "PAWN_IN_PLAY": "a correction names a pawn that is drawn or seated: the rules move it on",
}
"""Every violation code, with what it means in general."""


Params = dict[str, str | int | None]
"""The facts a violation names, by name: ``{"player": 0, "name": "Ana", "pawn": 12}``."""


class Violation(Exception):
    """An illegal move: ``code`` is one of :data:`CODES`, ``message`` is for the players.

    ``params`` holds the facts behind the sentence (see the module's docstring). The engine's
    :func:`~companion.games.popcorn.engine.game.apply` adds the refused move's own fields to them.
    """

    def __init__(self, code: str, message: str, params: Params | None = None) -> None:
        if code not in CODES:
            raise ValueError(f"unknown violation code {code!r}")
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.params: Params = dict(params or {})

    def to_dict(self) -> dict[str, object]:
        """The JSON error shape used by the API and the CLI: ``{"code", "params", "message"}``."""
        return {"code": self.code, "params": dict(self.params), "message": self.message}


def require(condition: bool, code: str, message: str | Callable[[], str],
            params: Params | None = None) -> None:
    """Raise :class:`Violation` unless ``condition`` holds.

    A message that has to be composed (names, places, prices) is passed as a function, such as
    ``lambda: f"Pawn {pawn} is in {state.where(pawn)}"``: it is built only for a refused move,
    so the legal moves the engine applies all game long pay nothing for it.
    """
    if not condition:
        raise Violation(code, message if isinstance(message, str) else message(), params)
