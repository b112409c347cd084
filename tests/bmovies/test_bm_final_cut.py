"""The Final Cut of B Movies: scores, Hidden Team sides, doubled singles and tie-breaks."""

from __future__ import annotations

from companion.games.bmovies.engine import Move, Movie, final_cut, play_random, score_table
from tests.bmovies.turns import FACTS, game, turn


def movies(*cards: int) -> list[Movie]:
    """Made movies of these card counts."""
    return [Movie(c, f"Movie {i}", 1) for i, c in enumerate(cards)]


def test_score_is_tokens_plus_a_point_per_title_card() -> None:
    """Rulebook, Final Cut and clarification 7: tokens summed, plus 1 per card of each made
    movie."""
    cut = score_table(FACTS, [[4, 3, 0], [1], [2, 2]], [movies(3, 2), [], movies(4)])
    assert [(p.token_total, p.movie_points, p.score) for p in cut.players] == [
        (7, 5, 12), (1, 0, 1), (4, 4, 8)]
    assert cut.players[0].tokens == (0, 3, 4)


def test_standard_game_has_one_side_per_player_never_doubled() -> None:
    """Rulebook, Final Cut: the player with the most points wins."""
    cut = score_table(FACTS, [[4], [1], [2]], [[], [], []])
    assert [s.members for s in cut.sides] == [(0,), (1,), (2,)]
    assert not any(s.doubled for s in cut.sides) and all(s.studio is None for s in cut.sides)
    assert cut.winners == (0,) and cut.tie_break == "none"


def test_a_tie_goes_to_the_longest_made_movie() -> None:
    """Rulebook, Final Cut and clarification 8: the longest title is the made movie with the
    most Title cards."""
    cut = score_table(FACTS, [[4, 2], [], [1]], [movies(2), movies(4, 4), movies(2)])
    assert cut.players[0].score == cut.players[1].score == 8
    assert cut.winners == (1,) and cut.tie_break == "longest_movie"
    assert cut.sides[1].longest == 4


def test_a_typed_title_never_decides_a_tie() -> None:
    """Clarification 8: the length of the text never decides."""
    long = [Movie(2, "The Very Long Night of the Extremely Long Movie Title", 1)]
    cut = score_table(FACTS, [[4], [3]], [long, [Movie(3, "It", 1)]])
    assert cut.winners == (1,) and cut.tie_break == "longest_movie"


def test_a_tie_still_tied_is_shared() -> None:
    """Rulebook, Final Cut and clarification 8: still tied, the tied players share."""
    cut = score_table(FACTS, [[3], [3], [1]], [movies(3), movies(2, 3), movies(4)])
    assert [p.score for p in cut.players] == [6, 8, 5]
    cut = score_table(FACTS, [[4, 1], [2], [0]], [movies(3), movies(3, 4), []])
    assert cut.winners == (1,)
    cut = score_table(FACTS, [[2], [2], [2]], [movies(3), movies(3), movies(2)])
    assert cut.winners == (0, 1) and cut.tie_break == "shared"


def test_nobody_made_a_movie_and_all_tie() -> None:
    """Clarification 8: a tie without movies (longest 0 each) is shared."""
    cut = score_table(FACTS, [[], [], []], [[], [], []])
    assert cut.winners == (0, 1, 2) and cut.tie_break == "shared"
    assert all(s.longest == 0 for s in cut.sides)


def test_hidden_teams_add_their_scores() -> None:
    """Rulebook, Hidden Team Variant and clarification 9: same studio, one team, scores
    summed."""
    cut = score_table(FACTS, [[4], [1], [2], [3]], [[], [], [], []], [5, 2, 5, 2])
    assert [(s.members, s.studio, s.total, s.doubled) for s in cut.sides] == [
        ((0, 2), 5, 6, False), ((1, 3), 2, 4, False)]
    assert cut.winners == (0,) and [p.studio for p in cut.players] == [5, 2, 5, 2]


def test_a_single_studio_doubles_its_score() -> None:
    """Rulebook, Hidden Team Variant and clarification 9: a studio matching nobody's
    doubles the player's score (3 players: a pair and a single)."""
    cut = score_table(FACTS, [[4], [3], [2]], [movies(2), [], []], [1, 1, 0])
    assert [(s.members, s.total, s.doubled) for s in cut.sides] == [
        ((0, 1), 9, False), ((2,), 4, True)]
    cut = score_table(FACTS, [[1], [1], [4, 4]], [[], [], movies(2)], [1, 1, 0])
    assert cut.sides[1].total == 20 and cut.winners == (1,)


def test_five_players_two_teams_and_a_doubled_single() -> None:
    """Clarification 9: 5 players, 2+2+1; the single doubles, the highest total wins."""
    cut = score_table(FACTS, [[1], [2], [3], [4], [4, 1]], [[]] * 5, [0, 1, 0, 1, 2])
    assert [(s.members, s.total, s.doubled) for s in cut.sides] == [
        ((0, 2), 4, False), ((1, 3), 6, False), ((4,), 10, True)]
    assert cut.winners == (2,) and cut.tie_break == "none"


def test_team_tie_is_broken_by_the_longest_movie_among_members() -> None:
    """Clarification 9: tied sides compare the longest made movie among their members."""
    cut = score_table(FACTS, [[2], [], [], [4]], [[], movies(4), movies(2), []],
                      [0, 0, 1, 1])
    assert [s.total for s in cut.sides] == [6, 6]
    assert [s.longest for s in cut.sides] == [4, 2]
    assert cut.winners == (0,) and cut.tie_break == "longest_movie"


def test_a_team_and_a_doubled_single_may_share() -> None:
    """Clarification 9: if still tied, the tied sides share the victory."""
    cut = score_table(FACTS, [[1], [1], [], [], []], [movies(2), [], movies(2), [], movies(2)],
                      [0, 0, 1, 1, 2])
    assert [s.total for s in cut.sides] == [4, 2, 4]
    assert cut.winners == (0, 2) and cut.tie_break == "shared"


def test_final_cut_of_a_hidden_team_game_uses_the_dealt_studios() -> None:
    """Rulebook, Hidden Team Variant: studios revealed at the Final Cut form the sides."""
    _, state = play_random(FACTS, 6, 3, "hidden")
    cut = final_cut(state)
    assert sorted(len(s.members) for s in cut.sides) == [2, 2, 2]
    assert sum(s.total for s in cut.sides) == sum(p.score for p in cut.players)
    assert [p.studio for p in cut.players] == state.studios


def test_final_cut_works_on_a_game_in_progress() -> None:
    """Spec final_cut: works on any state (the hub may show it before the end)."""
    state = game()
    turn(state, {1: "yes", 2: "yes!"}, cards=2)
    cut = final_cut(state)
    assert cut.players[0].movie_points == 2 and cut.players[2].token_total == sum(
        state.piles[2])
    state = game(3, variant="hidden")
    assert [s.members for s in final_cut(state).sides] == [(0,), (1,), (2,)]
    state.apply(Move("deal_studios", studios=(4, 0, 4)))
    assert [s.doubled for s in final_cut(state).sides] == [False, True]


def test_final_cut_json_shape() -> None:
    """Spec final_cut: players, sides, winners (side indexes) and tie_break."""
    data = score_table(FACTS, [[1, 0], [3]], [movies(2), []], [2, 2]).to_dict()
    assert data == {
        "players": [
            {"seat": 0, "tokens": [0, 1], "token_total": 1,
             "movies": [{"cards": 2, "title": "Movie 0"}], "movie_points": 2, "score": 3,
             "studio": 2},
            {"seat": 1, "tokens": [3], "token_total": 3, "movies": [], "movie_points": 0,
             "score": 3, "studio": 2}],
        "sides": [{"members": [0, 1], "studio": 2, "total": 6, "doubled": False,
                   "longest": 2}],
        "winners": [0], "tie_break": "none"}
