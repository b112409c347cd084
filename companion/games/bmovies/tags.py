"""How a tap on a B Movies player's token pad becomes a draw, or an alert.

Each popcorn token carries a tag enrolled with its value, so a tap names one physical token.
A player owed a draw who taps a token from the bucket draws it (``draw_token`` with the
token's id and value); the engine refuses a token already in someone's pile, and anything
else the rules do not explain becomes an :class:`~companion.kit.alerts.Alert` with
reader error feedback and no change. Pure: it reads the state and returns a value.

An alert is public (the tablet shows it, ``GET /api/tables/<id>`` lists it), and token ids are
numbered by value, so an alert never names the token, its id or its value, nor whose pile
holds it: only the player whose pad was tapped.
"""

from __future__ import annotations

from typing import Any

from companion.kit.alerts import Alert
from companion.kit.game import Piece

from .engine import Facts, Move, State, Violation

GAME_ID = "b-movies"
"""The game's id, which its pieces carry in the tag registry."""

ALERT_CODES: dict[str, str] = {
    "UNKNOWN_TAG": "the tag is not in the registry",
    "TOKEN_NOT_OWED": "a popcorn token was tapped by a player owed no token now",
    "TOKEN_BEYOND_OWED": "a token was tapped beyond what the player was owed",
    "TOKEN_ALREADY_DRAWN": "the token tapped is already in a player's pile",
    "NOT_A_TOKEN": "a pawn's or a card's tag was tapped on a token pad",
}
"""Every alert code of B Movies' token taps, with what it means."""
ALERT_FOR = {"NO_DRAW_OWED": "TOKEN_NOT_OWED", "DRAW_BEYOND_OWED": "TOKEN_BEYOND_OWED",
             "TOKEN_ALREADY_DRAWN": "TOKEN_ALREADY_DRAWN"}
"""The engine's refusal of a tapped token, and the alert the table raises for it."""
MESSAGES = {
    "TOKEN_NOT_OWED": "A popcorn token was tapped on {name}'s pad, but {name} is owed no "
                      "token now.",
    "TOKEN_BEYOND_OWED": "A popcorn token was tapped on {name}'s pad, but {name} has drawn "
                         "every token owed this turn.",
    "TOKEN_ALREADY_DRAWN": "A popcorn token already in a player's pile was tapped on {name}'s "
                           "pad.",
}
"""The English sentence of each refused token tap: never the engine's own, which names the
token (and so its value) and the pile that holds it."""
FIXES = {
    "TOKEN_NOT_OWED": "Put the token back into the bucket: {name} draws no token now.",
    "TOKEN_BEYOND_OWED": "Put the token back into the bucket: {name} has drawn every token "
                         "owed this turn.",
    "TOKEN_ALREADY_DRAWN": "Keep the token where it was: it is already in a player's pile.",
    "NOT_A_TOKEN": "Only popcorn tokens are tapped at a B Movies table.",
    "UNKNOWN_TAG": "Enroll this token's tag (its value first), or check that it is one of "
                   "the game's tokens.",
}
"""The fix each token alert suggests (English; other languages render from code and params)."""


def read_tag(state: State, facts: Facts, seat: int, piece: Piece | None, uid: str,
             names: list[str]) -> Move | Alert:
    """The draw a tap on ``seat``'s pad stands for, or an alert naming what is wrong (a
    piece of another game, a token of another game's box included, is no token here)."""
    name = names[seat]
    if piece is None:
        return _alert("UNKNOWN_TAG", f"An unknown tag ({uid}) was tapped on {name}'s "
                      "token pad.", seat, {"uid": uid, "name": name, "kind": "token"})
    if piece.kind != "token" or piece.game not in ("", GAME_ID):
        return _alert("NOT_A_TOKEN", f"A {piece.kind} tag was tapped on {name}'s token pad "
                      "at a B Movies table.", seat, {"kind": piece.kind, "name": name})
    token = int(piece.id)
    value = facts.token_value(token) if piece.value is None else int(piece.value)
    move = Move("draw_token", player=seat, value=value, token=token)
    try:
        state.clone().apply(move)
    except Violation as exc:
        code = ALERT_FOR.get(exc.code, "TOKEN_NOT_OWED")
        return _alert(code, MESSAGES[code].format(name=name), seat, {"name": name})
    return move


def _alert(code: str, message: str, seat: int, params: dict[str, Any]) -> Alert:
    return Alert(code, message, FIXES[code].format(**params), seat, params=params)
