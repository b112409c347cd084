"""Number Tokens' rules: pure, no I/O, nothing of the companion.

The box holds twelve tokens numbered 1 to 12, each with an NFC sticker. Players take turns
around the table; on your turn you take any token still in the box and play it face down in
front of you by tapping it on your reader. After ``rounds`` turns each, the game ends: the
highest total wins (with ``double_last``, each player's last token counts twice). A token
played twice, or played out of turn, is a mistake the table is told about at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

TOKENS = tuple(range(1, 13))
"""The numbers printed on the box's tokens, one token each."""


class NumberViolation(Exception):
    """A refused move: a stable ``code``, an English ``message`` and the ``params`` it names;
    the state is left as it was."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(f"{code}: {message}")
        self.code, self.message, self.params = code, message, params


@dataclass(frozen=True)
class Move:
    """The only move: ``player`` plays ``token`` face down (``{"move": "play", ...}``)."""

    player: int
    token: int
    kind: str = "play"

    def to_dict(self) -> dict[str, Any]:
        """The move as JSON."""
        return {"move": self.kind, "player": self.player, "token": self.token}


def move_from_dict(data: Any) -> Move:
    """A move from its JSON; ``UNKNOWN_MOVE`` or ``BAD_MOVE`` for anything else."""
    if not isinstance(data, dict) or data.get("move") != "play":
        raise NumberViolation("UNKNOWN_MOVE", "The only move is {\"move\": \"play\", "
                              "\"player\", \"token\"}.")
    player, token = data.get("player"), data.get("token")
    if type(player) is not int or type(token) is not int:
        raise NumberViolation("BAD_MOVE", "A play names its player and its token as numbers.")
    return Move(player, token)


@dataclass
class State:
    """Whose turn it is and the tokens each seat has played, in order."""

    players: int
    current: int
    rounds: int = 3
    double_last: bool = False
    played: list[list[int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.played = self.played or [[] for _ in range(self.players)]

    @property
    def is_over(self) -> bool:
        """Whether every seat has played its ``rounds`` tokens."""
        return all(len(tokens) >= self.rounds for tokens in self.played)

    def apply(self, move: Move) -> None:
        """Play a token, or raise :class:`NumberViolation` and change nothing."""
        if self.is_over:
            raise NumberViolation("GAME_OVER", "The game is over.")
        if move.player != self.current:
            raise NumberViolation("NOT_YOUR_TURN", f"It is seat {self.current + 1}'s turn, "
                                  f"not seat {move.player + 1}'s.", current=self.current)
        if move.token not in TOKENS:
            raise NumberViolation("NO_SUCH_TOKEN", f"There is no token {move.token}.",
                                  token=move.token)
        owner = next((seat for seat, mine in enumerate(self.played) if move.token in mine),
                     None)
        if owner is not None:
            raise NumberViolation("ALREADY_PLAYED", f"Token {move.token} was played already.",
                                  token=move.token, owner=owner)
        self.played[move.player].append(move.token)
        self.current = (self.current + 1) % self.players

    def clone(self) -> State:
        """An independent copy."""
        return State(self.players, self.current, self.rounds, self.double_last,
                     [list(tokens) for tokens in self.played])

    def totals(self) -> list[int]:
        """Each seat's total (the last token twice with ``double_last``)."""
        return [sum(tokens) + (tokens[-1] if self.double_last and tokens else 0)
                for tokens in self.played]

    def to_dict(self) -> dict[str, Any]:
        """The whole state, secrets included (the PIN's view)."""
        return {"current": self.current, "rounds": self.rounds,
                "double_last": self.double_last, "played": [list(t) for t in self.played]}
