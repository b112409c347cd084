"""Rule violations of B Movies: a stable code for programs and a sentence for players.

A refused move raises :class:`Violation` and leaves the state exactly as it was, so a table
that reports a slip (a tap on the wrong reader, a vote from the screenwriter) loses nothing.
Codes never change meaning once published; the sentence may be reworded. ``params`` carries
the facts the sentence names (seat, value, token...) as plain JSON values, so a program that
speaks another language renders the ``code`` with them in its own words.
"""

from __future__ import annotations

from collections.abc import Callable

CODES: dict[str, str] = {
    "UNKNOWN_MOVE": "the move kind is not one the engine knows",
    "BAD_MOVE": "a field of the move is missing, unexpected or has the wrong type or range",
    "BAD_SETUP": "the game cannot start this way (player count, first player, variant)",
    "GAME_OVER": "the game has ended: the Final Cut has been reached",
    "WRONG_PHASE": "the move does not belong to the current phase",
    "NOT_YOUR_TURN": "only the screenwriter pitches, and only on their turn",
    "DRAWS_PENDING": "the draws of the last reveal must be reported before the next pitch",
    "BAD_PITCH_SIZE": "a pitch has fewer or more Title cards than the rules allow",
    "TITLE_TOO_LONG": "a typed movie title is longer than the companion keeps",
    "NOT_A_PRODUCER": "the screenwriter does not vote on their own pitch",
    "BAD_VOTE": "the vote is not the name of a vote card",
    "VOTE_CARD_GONE": "the player no longer holds that vote card (Yes! is used once)",
    "NO_DRAW_OWED": "the player is owed no token this turn",
    "DRAW_BEYOND_OWED": "the player has already drawn every token they were owed this turn",
    "TOKEN_ALREADY_DRAWN": "that physical token is already in a player's pile",
    "TOKEN_VALUE_MISMATCH": "the token's id does not have the value the move says",
    "NO_TOKEN_OF_VALUE": "no token of that value is left in the bucket",
    "BAD_STUDIO_DEAL": "the studio deal does not match the Hidden Team chart",
    "BAD_STATE": "a state document is not a well-formed B Movies state",
}
"""Every violation code, with what it means in general."""

Params = dict[str, str | int | None]
"""The facts a violation names, by name: ``{"player": 2, "value": 3}``."""


class Violation(Exception):
    """An illegal move: ``code`` is one of :data:`CODES`, ``message`` is for the players.

    The state that refused the move is unchanged, so the caller may simply report the
    sentence and wait for the right move.
    """

    def __init__(self, code: str, message: str, params: Params | None = None) -> None:
        if code not in CODES:
            raise ValueError(f"unknown violation code {code!r}")
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.params: Params = dict(params or {})

    def to_dict(self) -> dict[str, object]:
        """The JSON error shape shared with Popcorn's API: ``{"code", "params", "message"}``."""
        return {"code": self.code, "params": dict(self.params), "message": self.message}


def require(condition: bool, code: str, message: str | Callable[[], str],
            params: Params | None = None) -> None:
    """Raise :class:`Violation` unless ``condition`` holds.

    A sentence that names things is passed as a function, so it is built only when a move
    is refused and legal moves cost nothing extra.
    """
    if not condition:
        raise Violation(code, message if isinstance(message, str) else message(), params)
