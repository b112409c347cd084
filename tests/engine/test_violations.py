"""Violation codes: every code the engine can raise is raised by some rule test, and the
move-level codes (unknown kinds, malformed fields, game over, pending steps) work.

The rule tests live in ``test_rules_*.py``; each refused move there goes through a
``refused(state, move, code)`` helper that checks the code and that the whole state is
unchanged. :func:`test_every_reachable_code_is_tested` reads those calls back.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from companion.games.popcorn.engine import CODES, Move, Task, Violation, move_from_dict
from companion.games.popcorn.engine import pawns as P
from tests.engine.positions import bag, dealt_game, end_turns, play, put, refused, showings

HERE = Path(__file__).parent
RULE_FILES = sorted(HERE.glob("test_rules_*.py")) + [Path(__file__), HERE / "test_position.py"]

UNREACHABLE: dict[str, str] = {}
"""Codes the engine defines but no sequence of moves can raise, with the reason."""




def bad_json(data: object, code: str) -> None:
    """Parsing the JSON form of a move raises ``code``."""
    with pytest.raises(Violation) as caught:
        move_from_dict(data)
    assert caught.value.code == code, caught.value


def _is_xfail(node: ast.FunctionDef) -> bool:
    return any("xfail" in ast.unparse(d) for d in node.decorator_list)


def expected_codes() -> dict[str, list[str]]:
    """Code -> tests that expect it, from ``refused``/``bad_json``/``position_refused`` calls
    outside xfail tests."""
    found: dict[str, list[str]] = {}
    for path in RULE_FILES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for func in ast.walk(tree):
            if not isinstance(func, ast.FunctionDef) or not func.name.startswith("test_"):
                continue
            if _is_xfail(func):
                continue
            for call in ast.walk(func):
                if (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                        and call.func.id in ("refused", "bad_json", "position_refused")
                        and call.args
                        and isinstance(call.args[-1], ast.Constant)):
                    found.setdefault(call.args[-1].value, []).append(f"{path.name}::{func.name}")
    return found


# -- the meta-test ---------------------------------------------------------------------------


def test_every_reachable_code_is_tested() -> None:
    """Violations: every code of CODES that the engine can raise is expected by some test."""
    found = expected_codes()
    missing = sorted(set(CODES) - set(found) - set(UNREACHABLE))
    assert not missing, f"no rule test expects: {missing}"


def test_tests_expect_only_known_codes() -> None:
    """Violations: the tests only expect codes the engine defines."""
    assert set(expected_codes()) <= set(CODES)
    assert set(UNREACHABLE) <= set(CODES)
    assert not set(UNREACHABLE) & set(expected_codes())


def test_unknown_code_is_a_programming_error() -> None:
    """Violations: codes never change meaning; an unknown code is refused outright."""
    with pytest.raises(ValueError):
        Violation("NOT_A_CODE", "x")
    assert Violation("GAME_OVER", "done").to_dict() == {"code": "GAME_OVER", "params": {},
                                                         "message": "done"}


# -- move-level violations -------------------------------------------------------------------


def test_unknown_move_kind() -> None:
    """Violations, UNKNOWN_MOVE: the move kind is not one the engine knows."""
    state = dealt_game(2)
    refused(state, Move("dance", player=0), "UNKNOWN_MOVE")
    bad_json({"move": "dance"}, "UNKNOWN_MOVE")


def test_malformed_moves() -> None:
    """Violations, BAD_MOVE: a field is missing, unexpected, of the wrong type, or names no
    player at the table."""
    state = dealt_game(2)
    refused(state, Move("end_turn", player=2), "BAD_MOVE")
    bad_json(["end_turn"], "BAD_MOVE")
    bad_json({"move": "end_turn"}, "BAD_MOVE")
    bad_json({"move": "end_turn", "player": 0, "card": "x"}, "BAD_MOVE")
    bad_json({"move": "end_turn", "player": -1}, "BAD_MOVE")
    bad_json({"move": "end_turn", "player": True}, "BAD_MOVE")
    bad_json({"move": "buy_movie", "player": 0, "card": 3, "slot": 0}, "BAD_MOVE")
    assert move_from_dict({"move": "end_turn", "player": 0}) == Move("end_turn", player=0)


def test_steps_wait_for_their_owner() -> None:
    """Violations, NOT_EXPECTED and PENDING_STEP: a step answers only the move it waits for,
    and blocks the Buying turn until it is resolved."""
    state = dealt_game(2, features=("the_man_with_the_money", "barbacus", "mister_giggles"),
                       premiers=("the_world_after",))
    refused(state, Move("gain_pawn", player=0, pawn=40), "NOT_EXPECTED")
    refused(state, Move("decline", player=0), "NOT_EXPECTED")
    refused(state, Move("bonus_action", player=0, pawn=41), "NOT_EXPECTED")
    refused(state, Move("keep_award", player=0, card="guest_count"), "NOT_EXPECTED")
    refused(state, Move("reveal_movie", card="vroom_8"), "NOT_EXPECTED")
    play(state, Move("buy_movie", player=0, card="the_world_after", slot=1))
    refused(state, Move("end_turn", player=0), "PENDING_STEP")
    refused(state, Move("gain_pawn", player=1, pawn=45), "NOT_YOUR_TURN")


def test_showings_moves_wait_for_the_showings() -> None:
    """Violations, WRONG_PHASE: Showings moves are refused during the Buying phase."""
    state = dealt_game(2)
    refused(state, Move("draw_pawn", player=0, pawn=bag(state, 0)[0]), "WRONG_PHASE")
    refused(state, Move("place", player=0, pawn=0, slot=0, seat=0), "WRONG_PHASE")
    refused(state, Move("end_guest", player=0, slot=0), "WRONG_PHASE")
    end_turns(state)
    refused(state, Move("end_turn", player=0), "WRONG_PHASE")


# -- engine defects outside the rules (see the report) ---------------------------------------


def test_negative_player_is_refused() -> None:
    """Violations, BAD_MOVE: a move naming no valid player is refused."""
    state = dealt_game(2)
    end_turns(state)
    refused(state, Move("draw_pawn", player=-1, pawn=10), "BAD_MOVE")


def test_white_guest_target_must_be_a_player() -> None:
    """Rulebook, White Guest icon: the white guest goes into a player's bag (-1 is no player)."""
    state = dealt_game(2, first_player=1)
    end_turns(state)
    showings(state)
    while state.chance_outcomes():  # the new lineup; round 2 starts with Ana's turn
        play(state, state.chance_outcomes()[0])
    state.board.append((0, "white", 1))  # tokens are activated from round 2 on
    state.players[0].tokens = 2
    put(state, 0, P.exit_zone(0))
    play(state, Move("activate_ad", player=0, space="white"))
    refused(state, Move("gain_pawn", player=0, pawn=0, target=-1), "BAD_MOVE")
    refused(state, Move("gain_pawn", player=0, pawn=0, target=2), "BAD_TARGET")


def test_state_equality_sees_the_owner_of_a_step() -> None:
    """Engine contract (state.py): two states are equal only when they are the same."""
    one, other = dealt_game(2), dealt_game(2)
    one.tasks.append(Task("draw_seat", 0, pawn=0))
    other.tasks.append(Task("draw_seat", None))
    assert one != other


def test_to_dict_is_a_snapshot() -> None:
    """Engine contract (state.py): ``to_dict`` is plain JSON data, independent of the state."""
    state = dealt_game(2)
    features = list(state.features)
    data = state.to_dict()
    play(state, Move("buy_movie", player=0, card=features[0], slot=1))
    assert data["features"] == features
