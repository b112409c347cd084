"""Dice Duel: a tiny dice game that proves a third game is a plug-in, not a rewrite.

It is registered through an entry point of a small distribution the suite installs on a
path of its own (``conftest.py``), and the unchanged core serves it. The rules: players
take turns; on your turn, tap the face of the die you rolled on your reader (the faces
carry tags of their own, :data:`FACES`); each roll adds to your turn's total, a 1 loses it
and ends your turn, and "hold" banks it. The first to :data:`TARGET` wins.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from companion.kit.alerts import Alert
from companion.kit.game import GameKind, Piece, PieceKind, PieceValue
from companion.kit.parts import Pieces, ScoreSheets

TARGET = 12
"""The score that ends the game."""
FACES = {f"04d1ce000000{n:02x}": n for n in range(1, 7)}
"""The UID of the tag on each face of the die, as a test enrolls them (face ``n`` is piece
``n - 1`` of the kind ``face``)."""


class DiceViolation(Exception):
    """A refused move: ``code``, ``message`` and ``params``, as every game's are."""

    def __init__(self, code: str, message: str, params: dict[str, Any] | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code, self.message, self.params = code, message, dict(params or {})


@dataclass(frozen=True)
class DiceMove:
    """``roll`` (chance: the face tapped) or ``hold`` (bank the turn's total)."""

    kind: str
    player: int | None
    value: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The move as JSON."""
        data: dict[str, Any] = {"move": self.kind, "player": self.player}
        if self.value is not None:
            data["value"] = self.value
        return data


@dataclass
class DiceState:
    """Scores, whose turn it is and the turn's total so far."""

    scores: list[int]
    current: int
    turn: int = 0
    rolls: list[int] = field(default_factory=list)

    @property
    def is_over(self) -> bool:
        """Whether someone reached the target."""
        return max(self.scores) >= TARGET

    def clone(self) -> DiceState:
        """An independent copy."""
        return DiceState(list(self.scores), self.current, self.turn, list(self.rolls))

    def chance_outcomes(self) -> list[DiceMove]:
        """Every face the current player may roll."""
        return [] if self.is_over else [DiceMove("roll", self.current, v) for v in range(1, 7)]

    def apply(self, move: Any) -> None:
        """Apply a move, or raise :class:`DiceViolation` and change nothing."""
        if self.is_over:
            raise DiceViolation("GAME_OVER", "The game is over.")
        if move.player != self.current:
            raise DiceViolation("NOT_YOUR_TURN", f"It is player {self.current + 1}'s turn.",
                                {"current": self.current})
        if move.kind == "roll":
            self.rolls.append(move.value)
            self.turn = 0 if move.value == 1 else self.turn + move.value
            if move.value == 1:
                self._next()
        elif move.kind == "hold":
            if self.turn == 0:
                raise DiceViolation("NOTHING_TO_HOLD", "Roll before you hold.")
            self.scores[self.current] += self.turn
            self.turn = 0
            if not self.is_over:
                self._next()

    def _next(self) -> None:
        self.current = (self.current + 1) % len(self.scores)

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON."""
        return {"scores": list(self.scores), "current": self.current, "turn": self.turn,
                "rolls": list(self.rolls)}


class DiceFaces(Pieces):
    """The die's faces, each with a tag of its own (:data:`FACES`): the game's only piece."""

    alert_codes = {"NOT_A_FACE": "a tag that is no face of the die was tapped",
                   "NOT_YOUR_ROLL": "a face was tapped on the reader of a player not to roll"}

    def kinds(self) -> tuple[PieceKind, ...]:
        """One kind: the die's six faces, a tag on each."""
        return (PieceKind("face", "die face", tuple(PieceValue(n, str(n)) for n in range(1, 7))),)

    def read(self, state: DiceState, seat: int, piece: Piece | None, uid: str,
             names: list[str]) -> DiceMove | Alert:
        """A face tapped on the current player's reader is a roll; anything else an alert."""
        face = piece is not None and piece.game == "dice-duel" and piece.kind == "face"
        value = int(piece.value) if face and piece is not None and piece.value else None
        if value is None:
            return Alert("NOT_A_FACE", f"{uid} is no face of the die.", "Tap a face.", seat,
                         params={"player": seat, "name": names[seat], "uid": uid})
        if state.is_over or seat != state.current:
            return Alert("NOT_YOUR_ROLL", f"{names[seat]} tapped a {value}, but it is not "
                         f"{names[seat]}'s roll.", "Put the die down.", seat,
                         params={"player": seat, "name": names[seat]})
        return DiceMove("roll", seat, value)


class DiceSheets(ScoreSheets):
    """``{"game": "dice-duel", "players", "scores"}``: who won."""

    def owns(self, doc: Any) -> bool:
        """A sheet with ``"game": "dice-duel"``."""
        return isinstance(doc, dict) and doc.get("game") == "dice-duel"

    def score(self, prog: str, doc: Any) -> int:
        """Print the winners."""
        print(json.dumps(score_json(doc["scores"], doc["players"])))
        return 0


class DiceDuel(GameKind[DiceState, DiceMove]):
    """Dice Duel behind the game interface: nothing of the core is told about it. Its
    records, replay and archive come from the defaults (the move log)."""

    id = "dice-duel"
    title = "Dice Duel"
    min_players, max_players = 2, 4
    violation = DiceViolation

    def __init__(self) -> None:
        """The faces and the score sheet; the rest is the defaults."""
        super().__init__()
        self.pieces = DiceFaces()
        self.sheets = DiceSheets()

    def new_state(self, players: list[str], first_player: int,
                  options: dict[str, Any]) -> DiceState:
        """Everyone at 0, the first player to roll."""
        return DiceState([0] * len(players), first_player)

    def move_from_dict(self, data: Any) -> DiceMove:
        """A move from JSON; a malformed one is ``BAD_MOVE``."""
        if not isinstance(data, dict) or data.get("move") not in ("roll", "hold") \
                or type(data.get("player")) is not int:
            raise DiceViolation("BAD_MOVE", "A move is {move: roll|hold, player, value?}.")
        value = data.get("value")
        if data["move"] == "roll" and (type(value) is not int or not 1 <= value <= 6):
            raise DiceViolation("BAD_MOVE", "A roll's value is 1 to 6.")
        return DiceMove(data["move"], data["player"], value)

    def secret(self, state: Any, move: Any) -> str | None:
        """Nothing is secret."""
        return None

    def public_view(self, state: DiceState, names: list[str]) -> dict[str, Any]:
        """Scores, turn total, whose turn, and what may be done."""
        return {"game": self.id, "names": names, **state.to_dict(), "over": state.is_over,
                "legal": [] if state.is_over else [
                    DiceMove("hold", state.current).to_dict()] if state.turn else []}

    def private_view(self, state: DiceState, seat: int, names: list[str]) -> dict[str, Any]:
        """A seat's own score and whether it is its turn."""
        return {"player": seat, "name": names[seat], "score": state.scores[seat],
                "your_turn": state.current == seat and not state.is_over}

    def scores(self, state: DiceState, names: list[str]) -> dict[str, Any] | None:
        """Each player's score and the winner, once over."""
        return score_json(state.scores, names) if state.is_over else None


def score_json(scores: list[int], names: list[str]) -> dict[str, Any]:
    """Each player's score and the winners."""
    best = max(scores)
    return {"players": [{"name": n, "score": s} for n, s in zip(names, scores, strict=True)],
            "winners": [n for n, s in zip(names, scores, strict=True) if s == best]}


def game() -> DiceDuel:
    """Dice Duel (its entry point)."""
    return DiceDuel()
