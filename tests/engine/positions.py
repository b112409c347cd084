"""Helpers that build game positions for rule tests through real moves.

``dealt_game`` runs the whole setup with chosen cards (or the first available ones), so a
test starts in round 1's Buying phase with a known table. The other helpers apply moves
and fail loudly if the engine refuses them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pytest

from companion.games.popcorn.engine import GameState, Move, Violation, name_guest, new_game
from companion.games.popcorn.engine import pawns as P
from companion.games.popcorn.facts_file import load_catalog

CATALOG = load_catalog()
NAMES = ("Ana", "Bob", "Chloe", "Dev")


def dealt_game(
    players: int = 2,
    *,
    starting: Sequence[str] = (),
    features: Sequence[str] = (),
    premiers: Sequence[str] = (),
    columns: dict[int, Sequence[str]] | None = None,
    awards: Sequence[str] = (),
    first_player: int = 0,
) -> GameState:
    """A game after setup. Lists give the cards to deal in order; the rest is first-come.

    ``awards`` lists the cards drawn in order (two per player, in turn order from the first
    player); each player keeps the first of the two they drew.
    """
    state = new_game(CATALOG, NAMES[:players], first_player)
    wanted = {
        "deal_starting": list(starting),
        "reveal_movie": [*features, *premiers],
        "draw_award": list(awards),
    }
    cols = {size: list(cards) for size, cards in (columns or {}).items()}
    while state.phase == "setup":
        outcomes = state.chance_outcomes()
        if outcomes:
            state.apply(_pick(outcomes, wanted, cols, state))
            continue
        moves = state.legal_moves()
        state.apply(moves[0])
    return state


def _pick(outcomes: list[Move], wanted: dict[str, list[str]], cols: dict[int, list[str]],
          state: GameState) -> Move:
    kind = outcomes[0].kind
    queue = wanted.get(kind)
    if kind == "reveal_theater":
        size = state.tasks[0].size
        queue = cols.get(size) if size is not None else None
    if queue:
        card = queue.pop(0)
        for move in outcomes:
            if move.card == card:
                return move
        raise AssertionError(f"{card} is not a possible {kind} now")
    return outcomes[0]


def play(state: GameState, *moves: Move) -> GameState:
    """Apply moves in order; an activation move without ``seat`` acts for the acting guest."""
    for move in moves:
        state.apply(name_guest(state, move))
    return state


def end_turns(state: GameState) -> None:
    """Every remaining player passes in the Buying phase."""
    while state.phase == "buying" and not state.tasks:
        state.apply(Move("end_turn", player=state.current))


def draw(state: GameState, player: int, pawns: Iterable[int]) -> None:
    """The player draws these pawns from their bag."""
    for pawn in pawns:
        state.apply(Move("draw_pawn", player=player, pawn=pawn))


def bag(state: GameState, player: int) -> list[int]:
    """Pawns in a player's bag."""
    return state.pawns_at(P.bag(player))


def exit_zone(state: GameState, player: int) -> list[int]:
    """Pawns in a player's exit zone."""
    return state.pawns_at(P.exit_zone(player))


def color_in(state: GameState, pawns: Iterable[int], color: str) -> list[int]:
    """The pawns of one color among ``pawns``."""
    return [i for i in pawns if state.pawn_color[i] == color]


def put(state: GameState, pawn: int, loc: int) -> None:
    """Move a pawn by hand (table authority) to build a position quickly."""
    state.move_pawn(pawn, loc)


def snapshot(state: GameState) -> dict:
    """A comparable copy of the whole state."""
    return state.to_dict()


def refused(state: GameState, move: Move, code: str) -> None:
    """Applying ``move`` raises ``code`` and leaves the state exactly as it was."""
    before = state.to_dict()
    with pytest.raises(Violation) as caught:
        state.apply(name_guest(state, move))
    assert caught.value.code == code, caught.value
    assert state.to_dict() == before


def showings(state: GameState) -> None:
    """Every player draws and places guests, and every guest leaves without acting."""
    while state.phase == "showings":
        outcomes = state.chance_outcomes()
        if outcomes:
            state.apply(outcomes[0])
            continue
        moves = state.legal_moves()
        passive = [m for m in moves if m.kind in ("to_exit", "end_guest", "decline")]
        state.apply((passive or moves)[0])


def score_command(state: GameState) -> dict:
    """What ``popcorn-companion score`` prints for a finished game's final positions."""
    import json
    import subprocess
    import sys

    from companion.games.popcorn.engine.summary import final_positions

    sheet = {"players": [{
        "name": f.name, "bucket": f.bucket, "money": f.money, "theaters": list(f.theaters),
        "movies": list(f.movies), "guests": f.guests, "audience": f.audience,
        "ad_tokens": list(f.ad_tokens), "awards": list(f.awards)} for f in final_positions(state)]}
    run = subprocess.run([sys.executable, "-m", "companion", "score", "-"],
                         input=json.dumps(sheet), capture_output=True, text=True, check=True)
    return json.loads(run.stdout)
