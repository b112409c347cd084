"""How one tap on a bag reader becomes a move, or an alert (DESIGN: "The path of one draw").

A tapped pawn is either a **draw** (it is in this player's bag and the rules expect a draw:
Open Cinema, draw-guest-to-seat, after a refill) or an **addition** (it is outside the bag
and the rules expect a pawn to go in: a Premiers guest, an advertising gain, exit-to-bag, the
white guest pushed into any bag). Anything else is an :class:`Alert` naming the pawn, its
color, where the companion believes it is, who is concerned, and a fix.

Pure: it reads the state and returns a value; applying the move is the table's job.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.engine import GameState, Move, Violation
from companion.engine import pawns as P

from .alert_params import alert_params

ALERT_CODES: dict[str, str] = {
    "UNKNOWN_TAG": "the tag is not in the registry",
    "PAWN_OF_ANOTHER_PLAYER": "the pawn belongs to another player's zone",
    "DRAW_BEYOND_AUDIENCE": "the player has already drawn the whole audience",
    "PAWN_NOT_IN_BAG": "a draw is expected, but the companion has this pawn outside the bag",
    "NO_DRAW_EXPECTED": "the pawn is in the bag, but nothing expects a draw now",
    "UNEXPECTED_TAG": "nothing expects this pawn to go into this bag now",
    "CARD_NOT_EXPECTED": "a card tag was tapped, but no step expects that card now",
    "CARD_NOT_IN_MARKET": "a movie or theater tapped to buy it is not in the market",
    "CARD_ALREADY_OWNED": "the card tapped is already in a player's cinema",
    "CARD_NOT_BUYABLE": "the card is in the market, but the player to act cannot buy it now",
    "NOT_PLAYERS_TURN": "a card was tapped on the reader of a player who is not to act",
    "CARD_NOT_IN_DECK": "the award card tapped for a draw is not in the award deck",
    "TOKEN_NOT_OWED": "B Movies: a popcorn token was tapped by a player owed no token now",
    "TOKEN_BEYOND_OWED": "B Movies: a token was tapped beyond what the player was owed",
    "TOKEN_ALREADY_DRAWN": "B Movies: the token tapped is already in a player's pile",
    "NOT_A_TOKEN": "B Movies: a pawn's or a card's tag was tapped on a token pad",
}
"""Every alert code, with what it means."""


@dataclass(frozen=True)
class Alert:
    """A tap the rules do not explain: what happened, who is concerned, how to fix it."""

    code: str
    message: str
    fix: str
    player: int | None = None
    pawn: int | None = None
    color: str | None = None
    params: dict[str, Any] = field(default_factory=dict)
    """The facts of the message and the fix (see :mod:`.alert_params`), for other languages."""

    def to_dict(self) -> dict[str, Any]:
        """JSON form, as pushed to the dashboard."""
        return {"code": self.code, "message": self.message, "fix": self.fix,
                "player": self.player, "pawn": self.pawn, "color": self.color,
                "params": self.params}


def interpret(state: GameState, player: int, pawn: int | None, uid: str = "") -> Move | Alert:
    """The move a tap of ``pawn`` on ``player``'s bag reader stands for, or an alert."""
    name = state.names[player]
    if pawn is None:
        return Alert("UNKNOWN_TAG", f"An unknown tag ({uid}) was tapped on {name}'s bag reader.",
                     "Enroll this pawn's tag, or check that it is one of the game's pawns.",
                     player, params=alert_params(state, player, None, uid))
    for move in state.chance_outcomes(player):
        if move.kind == "draw_pawn" and move.pawn == pawn:
            return move
    for move in state.legal_moves():
        if move.pawn == pawn and move.kind != "draw_pawn" and _puts_in_bag(state, move, player):
            return move
    return _alert(state, player, pawn)


def _puts_in_bag(state: GameState, move: Move, player: int) -> bool:
    trial = state.clone()
    try:
        trial.apply(move)
    except Violation:
        return False
    assert move.pawn is not None
    return trial.loc[move.pawn] == P.bag(player)


def _alert(state: GameState, player: int, pawn: int) -> Alert:
    name, color, where = state.names[player], state.pawn_color[pawn], state.where(pawn)
    what = f"Pawn {pawn} ({color})"
    owner = P.owner(state.loc[pawn])
    if owner is not None and owner != player:
        return Alert("PAWN_OF_ANOTHER_PLAYER",
                     f"{what} is in {where}, but it was tapped on {name}'s bag reader.",
                     f"Put it back in {where}.",
                     player, pawn, color, alert_params(state, player, pawn))
    if state.loc[pawn] == P.bag(player):
        show = state.showings[player] if state.phase == "showings" else None
        if show is not None and show.to_draw == 0:
            return Alert("DRAW_BEYOND_AUDIENCE",
                         f"{name} has already drawn all {state.draw_value(player)} guests, "
                         f"and {what} came out of the bag.",
                         f"Put {what.lower()} back into {name}'s bag.",
                         player, pawn, color, alert_params(state, player, pawn))
        return Alert("NO_DRAW_EXPECTED",
                     f"{what} came out of {name}'s bag, but no draw is expected now "
                     f"({state.phase} phase).",
                     f"Put it back into {name}'s bag.",
                     player, pawn, color, alert_params(state, player, pawn))
    if any(m.kind == "draw_pawn" for m in state.chance_outcomes(player)):
        return Alert("PAWN_NOT_IN_BAG",
                     f"{what} was drawn from {name}'s bag, but the companion has it in {where}.",
                     f"If it really was in the bag, correct its place (PIN); otherwise put it "
                     f"back in {where} and draw again.",
                     player, pawn, color, alert_params(state, player, pawn))
    return Alert("UNEXPECTED_TAG",
                 f"Nothing expects {what.lower()} to go into {name}'s bag now; the companion "
                 f"has it in {where}.", f"Put it back in {where}.",
                 player, pawn, color, alert_params(state, player, pawn))
