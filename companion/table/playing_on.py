"""The advice that plays on: a :class:`~companion.table.table.Table`'s players for whom the
table asked the game's advice to go on after the steps the table resolves itself.

A batch sent with ``go_on`` (Popcorn's "Play as suggested" at a table that chose it) says:
play this, and once the table has done its part (a guest drawn from the bag and set in its
seat, an award card drawn), go on as the advice says. So the advice that the table took is
not cut in two by a draw that the bag reader or a mat has already told the hub. After each
input, once its transaction's moves are all made, the table asks the game
(:meth:`~companion.kit.parts.Hints.played_on`) what each such player's advice makes now,
and makes it as a batch of its own, logged with ``"source": "advice"``: the record and a
replay hold ordinary moves, and one Undo takes the batch back.

It ends for a player when the game has nothing left to play on (their showing is over), when
the table enters a move for that player itself that is not the step the advice waits for
(seating the guest drawn to a seat is that step; choosing an action is not), and for every
player at an Undo, a correction or an alert. It is a prompt, not game state, as a card's
choice is: a restarted hub starts without it, and the table taps the advice again.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

MOST_BATCHES = 64
"""A bound on the advice's batches after one input (a round has far fewer steps)."""

if TYPE_CHECKING:
    from companion.kit.game import GameKind


class PlayingOn:
    """The playing-on part of a :class:`~companion.table.table.Table` (a mixin: the table
    holds the state and the log it uses)."""

    game: GameKind[Any, Any]
    state: Any
    card_choice: dict[str, Any] | None

    if TYPE_CHECKING:
        def auto_deal(self) -> None: ...
        def _log_batch(self, moves: list[Any], source: str) -> None: ...

    def _init_playing_on(self) -> None:
        self.playing_on: set[int] = set()
        """The seats whose advice plays on (see the module)."""

    def go_on(self, players: Iterable[int]) -> None:
        """Let the advice play on for ``players`` (a batch sent with ``go_on`` was made)."""
        if self.game.hints is not None:
            self.playing_on.update(players)

    def table_moved(self, players: Iterable[int], before: Any) -> None:
        """The table made moves of ``players`` itself, from the state ``before``: the
        advice stops for each player whose advice did not wait for the table there."""
        hints = self.game.hints
        for player in self.playing_on.intersection(players):
            if hints is None or hints.played_on(before, player) != []:
                self.playing_on.discard(player)

    def stop_playing_on(self, players: Iterable[int] | None = None) -> None:
        """End the advice's play for ``players`` (every player by default)."""
        if players is None:
            self.playing_on.clear()
        else:
            self.playing_on.difference_update(players)

    def _play_on(self) -> None:
        """Make what the advice plays on now, each player's as a batch (see the module);
        called once an input's own moves are made, in its transaction. A move the rules
        refuse ends that player's advice and makes nothing. Waits while a tap's choice is
        shown: its option is the last input, which the choice may replace."""
        hints = self.game.hints
        for _ in range(MOST_BATCHES):
            if hints is None or not self.playing_on or self.card_choice is not None:
                return
            made = [self._advised(player, hints.played_on(self.state, player))
                    for player in sorted(self.playing_on)]
            if not any(made):
                return
            self.auto_deal()

    def _advised(self, player: int, moves: list[Any] | None) -> bool:
        """Make ``moves``, the advice of ``player`` now, as a batch (None ends it); whether
        a move was made."""
        if moves is None:
            self.playing_on.discard(player)
            return False
        trial = self.state.clone()
        try:
            for move in moves:
                trial.apply(move)
        except self.game.violation:
            self.playing_on.discard(player)
            return False
        self._log_batch(moves, "advice")
        self.state = trial
        return bool(moves)
