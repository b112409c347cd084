"""The game analysis: the judge agrees with the advisor, the hook's JSON, and what the
accuracy figure means (advised seats against random ones)."""

from __future__ import annotations

import json
import random
import re
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from companion import games
from companion.cli import main
from companion.games.popcorn.advisor import advise
from companion.games.popcorn.advisor.judge import can_judge, move_value, position_value
from companion.games.popcorn.analysis import analyze
from companion.games.popcorn.engine import game as G
from companion.games.popcorn.engine.setup import new_game
from companion.games.popcorn.engine.simulator import DEFAULT_NAMES, random_move
from companion.games.popcorn.record import Replay, loads_record
from companion.kit.records import RecordError
from tests.engine.positions import CATALOG

EXAMPLE = Path(__file__).parents[2] / "docs" / "examples" / "game-4p.jsonl"
B_MOVIES = EXAMPLE.with_name("b-movies-3p.jsonl")


def judged_positions(seed: int, policy: str, limit: int = 60):
    """Yield ``(state, player)`` wherever the advisor can judge a player's next decision in
    a 4-player game of ``policy``, up to ``limit`` of them."""
    rng = random.Random(seed)
    state = new_game(CATALOG, DEFAULT_NAMES, rng.randrange(4))
    found = 0
    while state.phase != "over" and found < limit:
        if state.phase == "showings":
            for p in range(state.n):
                if can_judge(state, p) and found < limit:
                    found += 1
                    yield state, p
        G.apply_listed(state, random_move(state, rng, policy))


def acting_pawn(state, p: int) -> int | None:
    """The pawn of player ``p``'s guest acting now, if any."""
    show = state.showings[p]
    return None if show.active == -1 else state.occupant(p, show.active, show.cursor)


@pytest.mark.parametrize("seed,policy", [(3, "eager"), (11, "random"), (29, "eager")])
def test_the_judge_values_positions_and_moves_as_the_advisor_does(seed, policy) -> None:
    """A position is worth the advisor's suggestion; its first move keeps all of it, and no
    legal move is worth more (but one the model leaves out: a white guest sending itself to
    the reserve)."""
    checked = 0
    for state, p in judged_positions(seed, policy):
        before = json.dumps(state.to_dict(), sort_keys=True)
        advice = advise(state, p)
        best = position_value(state, p)
        assert best == pytest.approx(advice.best.value, abs=1e-9)
        first = advice.best.plan.moves[0]
        assert move_value(state, p, first).value == pytest.approx(best, abs=1e-9), first
        for move in G.legal_moves(state, p):
            if move.pawn is not None and move.pawn == acting_pawn(state, p):
                continue  # the model never sends the acting guest itself away (Limits)
            assert move_value(state, p, move).value <= best + 1e-9, move
        assert json.dumps(state.to_dict(), sort_keys=True) == before  # nothing changed
        checked += 1
    assert checked >= 30


def test_the_hook_gives_each_player_accuracy_decisions_and_misses() -> None:
    """The example game's analysis as JSON: every player, figures that add up, misses that
    name the record's own moves, biggest first; progress from 0 to the last move."""
    text = EXAMPLE.read_text(encoding="utf-8")
    told: list[tuple[int, int]] = []
    advisor = games.load("popcorn").advisor
    result = advisor.analyze(text, lambda done, total: told.append((done, total)))
    assert result is not None
    json.dumps(result)  # JSON-ready
    lines = text.splitlines()
    moves = len(lines) - 1
    assert (result["game"], result["unit"], result["moves"], result["finished"]) == (
        "popcorn", "popcorn", moves, True)
    assert told[0] == (0, moves) and told[-1] == (moves, moves)
    assert [d for d, _ in told] == sorted(d for d, _ in told) and len(told) <= 102
    assert [p["name"] for p in result["players"]] == ["Ana", "Bob", "Chloe", "Dev"]
    for player in result["players"]:
        assert player["decisions"] > 10
        kept, lost = player["kept"], player["lost"]
        assert player["accuracy"] == pytest.approx(100 * kept / (kept + lost), abs=0.06)
        misses = player["misses"]
        assert len(misses) == 3
        assert [m["lost"] for m in misses] == sorted((m["lost"] for m in misses), reverse=True)
        for miss in misses:
            assert miss["line"] == miss["index"] + 2
            assert json.loads(lines[miss["line"] - 1]) == miss["played"]["moves"][0]
            assert miss["played"]["moves"][0]["player"] == player["seat"]
            assert miss["lost"] == pytest.approx(miss["best"]["value"]
                                                 - miss["played"]["value"], abs=0.011)
            assert miss["best"]["moves"] and miss["best"]["moves"] != miss["played"]["moves"]
            assert miss["played"]["text"] and miss["best"]["text"]
            assert miss["kind"] in ("placement", "action") and 1 <= miss["round"] <= 11
            if miss["kind"] == "placement":
                kinds = {m["move"] for m in miss["played"]["moves"] + miss["best"]["moves"]}
                assert kinds <= {"place", "to_exit"}
            else:
                assert len(miss["played"]["moves"]) == len(miss["best"]["moves"]) == 1


def test_each_placement_is_one_decision_and_each_guest_move_another() -> None:
    """The guests of one Open Cinema are seated by one decision (its place and to_exit
    moves, one player, one round); every move of an acting guest is a decision of its own."""
    record = loads_record(EXAMPLE.read_text(encoding="utf-8"))
    analysis = analyze(CATALOG, record)
    assert analysis.finished and analysis.moves == len(record.moves)
    kinds = [d.kind for d in analysis.decisions]
    acting = [i for i, m in enumerate(record.moves)
              if m.kind in ("seat_action", "movie_action", "end_guest")]
    assert [d.index for d in analysis.decisions if d.kind == "action"] == acting
    run = Replay(CATALOG, record)
    showings = {(m.player, run.state.round) for _, m in run if m.kind in ("place", "to_exit")}
    placements = [d for d in analysis.decisions if d.kind == "placement"]
    assert kinds.count("placement") == len(placements) > 0
    seen = set()
    for decision in placements:
        assert {m.kind for m in decision.moves} <= {"place", "to_exit"}
        assert {m.player for m in decision.moves} == {decision.player}
        assert record.moves[decision.index] == decision.moves[0]
        assert (decision.player, decision.round) not in seen
        seen.add((decision.player, decision.round))
    assert seen == showings
    for player in analysis.players:
        assert player.decisions == sum(1 for d in analysis.decisions
                                       if d.player == player.seat)
    assert all(d.before is None for d in analysis.decisions)  # no position kept after


def test_an_unfinished_record_is_analysed_as_far_as_it_goes() -> None:
    """The first 150 moves: fewer decisions, not finished."""
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    result = games.load("popcorn").advisor.analyze("\n".join(lines[:151]) + "\n")
    full = games.load("popcorn").advisor.analyze("\n".join(lines) + "\n")
    assert result is not None and full is not None
    assert result["finished"] is False and result["moves"] == 150
    for part, whole in zip(result["players"], full["players"], strict=True):
        assert 0 < part["decisions"] < whole["decisions"]
        assert all(m["index"] < 150 for m in part["misses"])


def test_a_bad_record_is_refused_naming_its_line() -> None:
    """An illegal move and a broken line raise RecordError with the line number."""
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    draw = next(i for i, line in enumerate(lines) if '"draw_pawn"' in line)
    illegal = [*lines]
    illegal[draw] = json.dumps({"move": "draw_pawn", "player": 0, "pawn": 999})
    with pytest.raises(RecordError) as caught:
        games.load("popcorn").advisor.analyze("\n".join(illegal) + "\n")
    assert caught.value.line == draw + 1 and caught.value.code == "BAD_MOVE"
    broken = [*lines]
    broken[300] = "{not json"
    with pytest.raises(RecordError) as caught:
        games.load("popcorn").advisor.analyze("\n".join(broken) + "\n")
    assert caught.value.line == 301 and caught.value.code == "BAD_RECORD"


def test_b_movies_has_no_analysis() -> None:
    """A game without an analysis answers None through the same hook."""
    assert games.load("b-movies").advisor is None


def seats_accuracy(policy: str, folder: Path, count: int = 3) -> list[float]:
    """Every seat's accuracy in ``count`` 4-player games of ``simulate --policy``."""
    assert main(["simulate", "--policy", policy, "--games", str(count), "--players", "4",
                 "--seed", "5", "--record", str(folder)]) == 0
    out = []
    for path in sorted(folder.glob("game-*.jsonl")):
        result = games.load("popcorn").advisor.analyze(path.read_text(encoding="utf-8"))
        assert result is not None and result["finished"]
        out += [p["accuracy"] for p in result["players"]]
    assert len(out) == 4 * count
    return out


def test_advised_seats_score_high_and_random_ones_clearly_lower(tmp_path, capsys) -> None:
    """Seats that follow the advisor keep at least 95 % of the best value; random seats keep
    far less: each at most 80 %, and their mean at least 30 points below the advised mean."""
    advised = seats_accuracy("advisor", tmp_path / "advisor")
    randoms = seats_accuracy("random", tmp_path / "random")
    with capsys.disabled():
        print(f"\naccuracy of advised seats: {advised}")
        print(f"accuracy of random seats:  {randoms}")
    assert min(advised) >= 95
    assert max(randoms) <= 80
    assert statistics.mean(randoms) <= statistics.mean(advised) - 30


def test_the_bench_prints_its_figures() -> None:
    """``bench/analysis.py`` runs and prints the example's figure and each policy's mean and
    max (the times themselves are not judged)."""
    bench = Path(__file__).parents[2] / "bench" / "analysis.py"
    run = subprocess.run([sys.executable, str(bench), "--games", "2"], capture_output=True,
                         text=True, timeout=300, check=False)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith("game analysis, one core (goal: at most 5 s")
    assert re.fullmatch(r"  game-4p\.jsonl: [\d.]+ s wall, [\d.]+ s CPU, 611 moves, "
                        r"\d+ decisions valued", lines[1])
    for line, policy in zip(lines[2:], ("random", "advisor"), strict=True):
        assert re.match(rf"  2 {policy} games: wall mean [\d.]+ s, max [\d.]+ s; CPU mean", line)
        assert "seats' accuracy mean" in line
