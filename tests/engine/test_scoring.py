"""Final scoring: every award card, advertising tokens, money, trophies, tie-breaks, bad input.

Expected values are worked out by hand from the card text (quoted in each test), never with
the scorer's own formula, so a wrong catalog rule or a wrong interpreter both show up.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.popcorn.engine import (
    GUEST_COLORS,
    GameScore,
    PlayerFinal,
    ScoreInputError,
    score_game,
)
from companion.games.popcorn.engine.scoring import check_final
from companion.games.popcorn.facts_file import load_catalog
from companion.games.popcorn.scoresheet import parse_score_input, score_to_json

CAT = load_catalog()

DEFAULT_CINEMA = ("default_one_seat_tile", "default_two_seat_tile", None)

OPPONENT = PlayerFinal(
    name="Opp",
    bucket=0,
    money=0,
    theaters=DEFAULT_CINEMA,
    movies=("rosebud",),
    guests={},
    audience=3,
)
"""A second player who owns nothing the tests below use (Popcorn needs at least two)."""


def final(**fields: Any) -> PlayerFinal:
    """Ana at the end of a game: a bare cinema, her starting movie, nothing else unless given."""
    base: dict[str, Any] = {
        "name": "Ana",
        "bucket": 0,
        "money": 0,
        "theaters": DEFAULT_CINEMA,
        "movies": ("its_my_war",),
        "guests": {},
        "audience": 3,
        "ad_tokens": (),
        "awards": (),
    }
    base.update(fields)
    return PlayerFinal(**base)


def ana_score(**fields: Any) -> Any:
    """Ana's :class:`PlayerScore` in a 2-player game against :data:`OPPONENT`."""
    return score_game(CAT, [final(**fields), OPPONENT]).players[0]


def award(award_id: str, **fields: Any) -> int:
    """The popcorn Ana's single award card ``award_id`` scores."""
    assert award_id in CAT.awards, award_id
    return ana_score(awards=(award_id,), **fields).awards[award_id]


# --------------------------------------------------------------------------- one test per award


def test_award_blue_red_movie_pair() -> None:
    # "For every pair made of 1 blue movie and 1 red movie you own, score 2."
    movies = ("its_my_war", "the_volcano", "vroom_8", "henrietta", "adrian")
    # red: its_my_war, the_volcano, vroom_8 = 3; blue: henrietta, adrian = 2
    # pairs = min(3, 2) = 2 -> 2 * 2 = 4
    assert award("blue_red_movie_pair", movies=movies) == 4


def test_award_blue_green_movie_pair() -> None:
    # "For every pair made of 1 blue movie and 1 green movie you own, score 2."
    movies = ("end_of_the_world", "badman", "me", "the_volcano")
    # green: end_of_the_world (starting movies count), badman = 2; blue: me = 1
    # pairs = min(1, 2) = 1 -> 1 * 2 = 2 (the red movie plays no part)
    assert award("blue_green_movie_pair", movies=movies) == 2


def test_award_green_yellow_movie_pair() -> None:
    # "For every pair made of 1 green movie and 1 yellow movie you own, score 2."
    movies = ("modern_love", "french_kiss", "the_kids", "intergalactic", "badman")
    # yellow: modern_love, french_kiss, the_kids = 3; green: intergalactic, badman = 2
    # pairs = 2 -> 2 * 2 = 4
    assert award("green_yellow_movie_pair", movies=movies) == 4


def test_award_red_yellow_movie_pair() -> None:
    # "For every pair made of 1 red movie and 1 yellow movie you own, score 2."
    # red: its_my_war = 1; yellow: kangaroo_man = 1 -> 1 pair -> 2
    assert award("red_yellow_movie_pair", movies=("its_my_war", "kangaroo_man")) == 2
    # no yellow movie at all -> 0 pairs -> 0
    assert award("red_yellow_movie_pair", movies=("its_my_war", "the_volcano")) == 0


def test_award_movie_one_of_each_color() -> None:
    # "For every set of 4 movies of 4 different colors (1 blue, 1 green, 1 red, 1 yellow)
    #  you own, score 4."
    movies = (
        "its_my_war",
        "the_volcano",
        "me",
        "joe_joe",
        "badman",
        "king_of_tokyo",
        "french_kiss",
    )
    # red 2, blue 2, green 2, yellow 1 -> complete sets = 1 -> 1 * 4 = 4
    assert award("movie_one_of_each_color", movies=movies) == 4


def test_award_green_red_guest_pair() -> None:
    # "For every pair made of 1 green Guest and 1 red Guest you own, score 2."
    # green 3, red 5 -> 3 pairs -> 3 * 2 = 6
    assert award("green_red_guest_pair", guests={"green": 3, "red": 5, "white": 4}) == 6


def test_award_blue_yellow_guest_pair() -> None:
    # "For every pair made of 1 blue Guest and 1 yellow Guest you own, score 2."
    # blue 4, yellow 2 -> 2 pairs -> 2 * 2 = 4
    assert award("blue_yellow_guest_pair", guests={"blue": 4, "yellow": 2}) == 4


def test_award_blue_green_guest_pair() -> None:
    # "For every pair made of 1 blue Guest and 1 green Guest you own, score 2."
    # blue 2, green 7 -> 2 pairs -> 2 * 2 = 4
    assert award("blue_green_guest_pair", guests={"blue": 2, "green": 7}) == 4


def test_award_red_yellow_guest_pair() -> None:
    # "For every pair made of 1 red Guest and 1 yellow Guest you own, score 2."
    # red 3, yellow 3 -> 3 pairs -> 3 * 2 = 6
    assert award("red_yellow_guest_pair", guests={"red": 3, "yellow": 3}) == 6


def test_award_guests_two_of_each_color() -> None:
    # "For every set of 2 blue + 2 green + 2 red + 2 yellow Guests you own, score 5."
    guests = {"blue": 5, "green": 4, "red": 4, "yellow": 6, "white": 9}
    # blue 5 // 2 = 2, green 4 // 2 = 2, red 4 // 2 = 2, yellow 6 // 2 = 3 -> 2 sets -> 2 * 5 = 10
    assert award("guests_two_of_each_color", guests=guests) == 10


def test_award_guest_count() -> None:
    # "Count all your Guests (any color, white included): 6 or fewer scores 5;
    #  7 or 8 scores 3; 9 or more scores 0."
    assert award("guest_count", guests={"white": 4, "red": 2}) == 5  # 4 + 2 = 6 -> 5
    assert award("guest_count", guests={"white": 3, "red": 2, "blue": 2}) == 3  # 7 -> 3
    assert award("guest_count", guests={"white": 4, "red": 2, "blue": 2}) == 3  # 8 -> 3
    assert award("guest_count", guests={"white": 5, "red": 2, "blue": 2}) == 0  # 9 -> 0
    assert award("guest_count", guests={}) == 5  # 0 guests is "6 or fewer" -> 5


def test_award_movies_price_0_or_1() -> None:
    # "Score 1 for every movie you own whose printed price is $0 or $1.
    #  Starting movies do not count."
    movies = (
        "its_my_war",  # starting movie, $0: does not count
        "the_man_with_the_money",  # $0: counts
        "the_fury_of_the_serpent",  # $1: counts
        "mister_giggles",  # $0: counts
        "the_volcano",  # $2: does not count
    )
    # 3 movies -> 3 * 1 = 3
    assert award("movies_price_0_or_1", movies=movies) == 3


def test_award_movies_price_4_or_5() -> None:
    # "Score 2 for every movie you own whose printed price is $4 or $5."
    movies = (
        "its_my_war",  # $0
        "final_lasso",  # $4: counts
        "vroom_8",  # $5: counts
        "the_godmother",  # $5: counts
        "unknown_destination",  # $3
    )
    # 3 movies -> 3 * 2 = 6
    assert award("movies_price_4_or_5", movies=movies) == 6


def test_award_three_seat_theaters() -> None:
    # "Score 2 for every 3-seat theater tile in your cinema at the end."
    cinema = ("default_one_seat_tile", "three_seat_blue_grey_grey", "three_seat_red_grey_grey")
    # two 3-seat tiles -> 2 * 2 = 4
    assert award("three_seat_theaters", theaters=cinema) == 4


def test_award_green_yellow_seat_pair() -> None:
    # "For every pair made of 1 green seat and 1 yellow seat in your cinema (the two seats
    #  may be in different theaters), score 3."
    cinema = ("two_seat_yellow_yellow", "default_two_seat_tile", "three_seat_green_green_grey")
    # yellow seats: 2 (first tile); green seats: 2 (third tile); grey seats are no color
    # pairs = 2 -> 2 * 3 = 6
    assert award("green_yellow_seat_pair", theaters=cinema) == 6


def test_award_green_red_seat_pair() -> None:
    # "For every pair made of 1 green seat and 1 red seat in your cinema ..., score 3."
    cinema = ("one_seat_green_reserve", "two_seat_red_red", "three_seat_yellow_exit_red_grey")
    # green: 1; red: 2 + 1 = 3 -> 1 pair -> 1 * 3 = 3
    assert award("green_red_seat_pair", theaters=cinema) == 3


def test_award_blue_red_seat_pair() -> None:
    # "For every pair made of 1 blue seat and 1 red seat in your cinema ..., score 3."
    cinema = ("one_seat_red_2_popcorn", "two_seat_red_red", "three_seat_blue_blue_grey")
    # red: 1 + 2 = 3; blue: 2 -> 2 pairs -> 2 * 3 = 6
    assert award("blue_red_seat_pair", theaters=cinema) == 6


def test_award_blue_yellow_seat_pair() -> None:
    # "For every pair made of 1 blue seat and 1 yellow seat in your cinema ..., score 3."
    cinema = (
        "one_seat_blue_3_money",
        "two_seat_yellow_yellow",
        "three_seat_yellow_3_money_red_grey",
    )
    # blue: 1; yellow: 2 + 1 = 3 -> 1 pair -> 1 * 3 = 3
    assert award("blue_yellow_seat_pair", theaters=cinema) == 3


def test_award_seat_one_of_each_color() -> None:
    # "For every set of 4 seats of 4 different colors (1 blue, 1 green, 1 red, 1 yellow;
    #  any theaters) in your cinema, score 6."
    cinema = (
        "one_seat_yellow_draw_guest",
        "two_seat_blue_green",
        "three_seat_yellow_exit_red_grey",
    )
    # yellow 1 + 1 = 2, blue 1, green 1, red 1 -> 1 set -> 1 * 6 = 6
    assert award("seat_one_of_each_color", theaters=cinema) == 6
    # the default theaters have only grey seats -> 0 sets -> 0
    assert award("seat_one_of_each_color", theaters=DEFAULT_CINEMA) == 0


def test_award_audience_6_or_more() -> None:
    # "If your audience (number of Guests you draw) is 6 or more at the end, score 4."
    assert award("audience_6_or_more", audience=6) == 4
    assert award("audience_6_or_more", audience=7) == 4
    assert award("audience_6_or_more", audience=5) == 0


def test_award_white_guest_count() -> None:
    # "Count your white Guests: 0 scores 7; 1 or 2 scores 4; 3 or more scores 0."
    assert award("white_guest_count", guests={"white": 0, "red": 9}) == 7
    assert award("white_guest_count", guests={"white": 1}) == 4
    assert award("white_guest_count", guests={"white": 2}) == 4
    assert award("white_guest_count", guests={"white": 3}) == 0


def test_award_blue_guests_movies_seats_set() -> None:
    # "For every set of 2 blue Guests + 2 blue movies + 2 blue seats you own, score 4."
    movies = ("its_my_war", "me", "joe_joe", "adrian", "henrietta")  # 4 blue movies
    cinema = ("default_one_seat_tile", "two_seat_blue_green", "three_seat_blue_blue_grey")
    # blue guests 5 // 2 = 2; blue movies 4 // 2 = 2; blue seats (1 + 2) = 3 // 2 = 1
    # sets = min(2, 2, 1) = 1 -> 1 * 4 = 4
    assert (
        award("blue_guests_movies_seats_set", movies=movies, theaters=cinema, guests={"blue": 5})
        == 4
    )


def test_award_green_guests_movies_seats_set() -> None:
    # "For every set of 2 green Guests + 2 green movies + 2 green seats you own, score 4."
    movies = ("end_of_the_world", "badman", "king_of_tokyo", "intergalactic")  # 4 green
    cinema = ("one_seat_green_reserve", "two_seat_green_blue", "three_seat_green_green_grey")
    # green guests 4 // 2 = 2; green movies 4 // 2 = 2; green seats 1 + 1 + 2 = 4 // 2 = 2
    # sets = 2 -> 2 * 4 = 8
    assert (
        award("green_guests_movies_seats_set", movies=movies, theaters=cinema, guests={"green": 4})
        == 8
    )


def test_award_red_guests_movies_seats_set() -> None:
    # "For every set of 2 red Guests + 2 red movies + 2 red seats you own, score 4."
    movies = ("its_my_war", "the_volcano")  # 2 red movies
    cinema = ("default_one_seat_tile", "two_seat_red_red", None)  # 2 red seats
    # red guests 2 // 2 = 1, movies 1, seats 1 -> 1 set -> 4
    assert (
        award("red_guests_movies_seats_set", movies=movies, theaters=cinema, guests={"red": 2}) == 4
    )
    # a single red guest breaks the set: 1 // 2 = 0 -> 0
    assert (
        award("red_guests_movies_seats_set", movies=movies, theaters=cinema, guests={"red": 1}) == 0
    )


def test_award_yellow_guests_movies_seats_set() -> None:
    # "For every set of 2 yellow Guests + 2 yellow movies + 2 yellow seats you own, score 4."
    movies = ("modern_love", "french_kiss", "the_kids")  # 3 yellow movies
    cinema = ("default_one_seat_tile", "two_seat_yellow_yellow", "three_seat_yellow_grey_grey")
    # yellow guests 6 // 2 = 3; movies 3 // 2 = 1; seats 2 + 1 = 3 // 2 = 1 -> 1 set -> 4
    assert (
        award(
            "yellow_guests_movies_seats_set", movies=movies, theaters=cinema, guests={"yellow": 6}
        )
        == 4
    )


def test_award_four_movies_same_color() -> None:
    # "For every set of 4 movies of one single color you own (each color counted
    #  separately), score 5."
    movies = (
        *("its_my_war", "the_volcano", "vroom_8", "barbacus", "final_lasso"),  # 5 red
        *("me", "joe_joe", "adrian", "henrietta"),  # 4 blue
        "badman",  # 1 green
    )
    # red 5 // 4 = 1, blue 4 // 4 = 1, green 1 // 4 = 0, yellow 0 -> 2 sets -> 2 * 5 = 10
    assert award("four_movies_same_color", movies=movies) == 10


def test_every_award_card_has_its_own_test() -> None:
    tested = {
        name.removeprefix("test_award_") for name in globals() if name.startswith("test_award_")
    }
    assert tested == set(CAT.awards)


# --------------------------------------------------------------------------- advertising tokens


def test_token_on_colored_space_counts_as_a_guest_of_that_color() -> None:
    # green 3, red 2 -> 2 pairs; the red token makes red 3 -> 3 pairs * 2 = 6
    score = ana_score(
        awards=("green_red_guest_pair",), guests={"green": 3, "red": 2}, ad_tokens=("red",)
    )
    assert score.awards == {"green_red_guest_pair": 6}
    assert score.ad_tokens_used == [{"space": "red", "use": "count_as", "color": "red"}]


def test_token_on_any_space_picks_the_missing_color() -> None:
    # 2 blue, 2 green, 2 red, 1 yellow: a set needs 2 of each, so only a yellow virtual guest
    # completes it -> 1 set -> 5
    score = ana_score(
        awards=("guests_two_of_each_color",),
        guests={"blue": 2, "green": 2, "red": 2, "yellow": 1},
        ad_tokens=("any",),
    )
    assert score.awards == {"guests_two_of_each_color": 5}
    assert score.ad_tokens_used == [{"space": "any", "use": "count_as", "color": "yellow"}]


def test_token_on_white_space_returns_a_white_guest() -> None:
    # 3 white guests score 0; returning 1 leaves 2 -> "1 or 2 scores 4"
    score = ana_score(awards=("white_guest_count",), guests={"white": 3}, ad_tokens=("white",))
    assert score.awards == {"white_guest_count": 4}
    assert score.ad_tokens_used == [{"space": "white", "use": "return_white"}]


def test_second_white_token_stays_unused_when_it_gains_nothing() -> None:
    # 3 whites: one return -> 2 -> 4; a second return -> 1 -> still 4, so the scorer
    # keeps the smaller change and leaves the second token unused
    score = ana_score(
        awards=("white_guest_count",), guests={"white": 3}, ad_tokens=("white", "white")
    )
    assert score.awards == {"white_guest_count": 4}
    assert sorted(use["use"] for use in score.ad_tokens_used) == ["return_white", "unused"]


def test_white_token_cannot_return_a_guest_the_player_does_not_have() -> None:
    score = ana_score(awards=("white_guest_count",), guests={"red": 2}, ad_tokens=("white",))
    assert score.awards == {"white_guest_count": 7}  # 0 white -> 7
    assert score.ad_tokens_used == [{"space": "white", "use": "unused"}]


def test_token_not_counted_when_it_would_hurt_the_guest_count_award() -> None:
    # 6 guests score 5; counting the red token would make 7 guests -> only 3
    score = ana_score(awards=("guest_count",), guests={"white": 6}, ad_tokens=("red",))
    assert score.awards == {"guest_count": 5}
    assert score.ad_tokens_used == [{"space": "red", "use": "unused"}]


def test_virtual_guest_counts_for_every_award_at_once() -> None:
    # white 5 + green 1 = 6 guests. Counting the red token: green/red pair 1 * 2 = 2, but
    # 7 guests -> guest_count 3; total 5. Not counting: pair 0, guest_count 5; total 5.
    # Equal totals: the scorer prefers not to use the token.
    score = ana_score(
        awards=("guest_count", "green_red_guest_pair"),
        guests={"white": 5, "green": 1},
        ad_tokens=("red",),
    )
    assert score.awards == {"guest_count": 5, "green_red_guest_pair": 0}
    assert score.ad_tokens_used == [{"space": "red", "use": "unused"}]


def test_tokens_change_nothing_without_awards() -> None:
    score = ana_score(guests={"white": 3}, ad_tokens=("red", "any", "white"))
    assert all(use["use"] == "unused" for use in score.ad_tokens_used)
    assert score.awards == {}


# --------------------------------------------------------------------------- money, bucket


def test_money_scores_one_popcorn_per_full_five_dollars() -> None:
    assert ana_score(money=14).money == 2  # 14 // 5 = 2, $4 lost
    assert ana_score(money=15).money == 3
    assert ana_score(money=4).money == 0


def test_total_adds_bucket_money_trophy_and_awards() -> None:
    score = ana_score(
        bucket=20,
        money=12,  # -> 2
        theaters=("default_one_seat_tile", "default_two_seat_tile", "three_seat_red_grey_grey"),
        awards=("audience_6_or_more",),
        audience=6,  # -> 4
    )
    # 20 + 2 + trophy 3 (2 players, $9 against $0) + 4 = 29
    assert (score.bucket, score.money, score.trophy, score.total) == (20, 2, 3, 29)


# --------------------------------------------------------------------------- trophies


def cinema_player(name: str, tile: str | None, starting: str) -> PlayerFinal:
    """A player whose only bought tile is ``tile`` (in the far-right slot)."""
    return PlayerFinal(
        name=name,
        bucket=0,
        money=0,
        theaters=("default_one_seat_tile", "default_two_seat_tile", tile),
        movies=(starting,),
        guests={},
        audience=3,
    )


def trophies_for(*tiles: str | None) -> list[int]:
    starts = ("its_my_war", "rosebud", "end_of_the_world", "modern_love")
    players = [cinema_player(f"P{i}", t, starts[i]) for i, t in enumerate(tiles)]
    return [p.trophy for p in score_game(CAT, players).players]


def test_two_player_trophy_goes_to_the_costliest_cinema() -> None:
    # $9 (three_seat_red_grey_grey) beats $8 (three_seat_blue_grey_grey): only the 3 trophy
    assert trophies_for("three_seat_red_grey_grey", "three_seat_blue_grey_grey") == [3, 0]


def test_two_player_trophy_is_shared_on_a_tie() -> None:
    # $8 and $8
    assert trophies_for("three_seat_blue_grey_grey", "three_seat_green_grey_grey") == [3, 3]


def test_three_player_trophies_go_to_first_and_second() -> None:
    # $9, $8, $5 (one_seat_3_money) -> 5, 3, 0
    assert trophies_for(
        "three_seat_red_grey_grey", "three_seat_blue_grey_grey", "one_seat_3_money"
    ) == [5, 3, 0]


def test_tie_for_first_shares_five_and_nobody_gets_three() -> None:
    # $9, $9, $8 -> both $9 get 5; first place is tied, so the 3 trophy is not given
    assert trophies_for(
        "three_seat_red_grey_grey", "three_seat_yellow_grey_grey", "three_seat_blue_grey_grey"
    ) == [5, 5, 0]


def test_four_player_tie_for_second_shares_three() -> None:
    # $9, $8, $8, $0 -> 5, 3, 3, 0
    assert trophies_for(
        "three_seat_red_grey_grey", "three_seat_blue_grey_grey", "three_seat_green_grey_grey", None
    ) == [5, 3, 3, 0]


def test_cinemas_without_tiles_still_tie_for_the_trophy() -> None:
    # the rulebook gives the trophy to "the player(s) with the highest cost": $0 and $0 tie
    assert trophies_for(None, None) == [3, 3]
    # 3 players all at $0: all tied for first get 5, so nobody gets 3
    assert trophies_for(None, None, None) == [5, 5, 5]


def test_trophy_counts_every_theater_in_the_cinema() -> None:
    # Ana: $2 (one_seat_1_popcorn) + $4 (two_seat_yellow_yellow) + $2 = $8 beats Bob's $7
    ana = replace(
        cinema_player("Ana", "one_seat_1_money", "its_my_war"),
        theaters=("one_seat_1_popcorn", "two_seat_yellow_yellow", "one_seat_1_money"),
    )
    bob = cinema_player("Bob", "three_seat_yellow_exit_red_grey", "rosebud")
    assert [p.trophy for p in score_game(CAT, [ana, bob]).players] == [3, 0]


# --------------------------------------------------------------------------- winners


def test_tie_on_popcorn_goes_to_fewest_movies() -> None:
    ana = final(bucket=20, movies=("its_my_war", "the_volcano"))
    bob = replace(OPPONENT, name="Bob", bucket=20)  # one movie only
    assert score_game(CAT, [ana, bob]).winners == ["Bob"]


def test_full_tie_shares_the_victory() -> None:
    ana = final(bucket=20, movies=("its_my_war", "the_volcano"))
    bob = replace(OPPONENT, name="Bob", bucket=20, movies=("rosebud", "me"))
    cy = replace(OPPONENT, name="Cy", bucket=3, movies=("modern_love",))
    assert score_game(CAT, [ana, bob, cy]).winners == ["Ana", "Bob"]


def test_most_popcorn_wins_even_with_more_movies() -> None:
    ana = final(bucket=21, movies=("its_my_war", "the_volcano", "vroom_8"))
    bob = replace(OPPONENT, name="Bob", bucket=20)
    assert score_game(CAT, [ana, bob]).winners == ["Ana"]


# --------------------------------------------------------------------------- inconsistent input


BAD_INPUTS = {
    "one player": ([final()], "2 to 4 players"),
    "unknown movie": (
        [final(movies=("its_my_war", "gone_with_the_popcorn")), OPPONENT],
        "unknown movie",
    ),
    "unknown theater": (
        [final(theaters=("default_one_seat_tile", "imax", None)), OPPONENT],
        "unknown theater",
    ),
    "unknown award": ([final(awards=("best_actor",)), OPPONENT], "unknown award"),
    "unknown ad space": ([final(ad_tokens=("purple",)), OPPONENT], "unknown advertising space"),
    "tile owned twice": (
        [
            final(theaters=(None, None, "two_seat_red_red")),
            replace(OPPONENT, theaters=("two_seat_red_red", None, None)),
        ],
        "theater tile 'two_seat_red_red' is owned also by Ana",
    ),
    "tile twice in one cinema": (
        [final(theaters=("two_seat_red_red", "two_seat_red_red", None)), OPPONENT],
        "owned twice",
    ),
    "movie owned twice": (
        [final(movies=("its_my_war", "me")), replace(OPPONENT, movies=("rosebud", "me"))],
        "movie 'me' is owned also by Ana",
    ),
    "award held twice": (
        [final(awards=("guest_count",)), replace(OPPONENT, awards=("guest_count",))],
        "award 'guest_count'",
    ),
    "too many red pawns": (
        [final(guests={"red": 6}), replace(OPPONENT, guests={"red": 5})],
        "11 red guests together, but the box holds 10",
    ),
    "negative money": ([final(money=-1), OPPONENT], "money cannot be negative"),
    "negative bucket": ([final(bucket=-3), OPPONENT], "bucket cannot be negative"),
    "negative guests": ([final(guests={"blue": -1}), OPPONENT], "blue guests cannot be negative"),
    "unknown guest color": ([final(guests={"purple": 1}), OPPONENT], "unknown guest color"),
    "audience off the track": ([final(audience=8), OPPONENT], "audience 8"),
    "too many ad tokens": (
        [final(ad_tokens=("red", "red", "red", "red")), OPPONENT],
        "4 advertising tokens",
    ),
    "four slots": (
        [final(theaters=(*DEFAULT_CINEMA, "two_seat_red_red")), OPPONENT],
        "4 theater slots",
    ),
    "default theater moved": (
        [final(theaters=("default_two_seat_tile", None, None)), OPPONENT],
        "printed in slot 2",
    ),
    "no starting movie": ([final(movies=("the_volcano",)), OPPONENT], "exactly one starting movie"),
    "two starting movies": ([final(movies=("its_my_war", "modern_love")), OPPONENT], "exactly one"),
    "same name": ([final(), replace(OPPONENT, name="Ana")], "two players are named 'Ana'"),
}


@pytest.mark.parametrize("case", sorted(BAD_INPUTS))
def test_inconsistent_input_is_refused_with_a_message(case: str) -> None:
    players, message = BAD_INPUTS[case]
    with pytest.raises(ScoreInputError, match=message):
        check_final(CAT, players)
    with pytest.raises(ScoreInputError):
        score_game(CAT, players)


def test_messages_are_one_line_and_name_the_player() -> None:
    with pytest.raises(ScoreInputError) as info:
        check_final(CAT, [final(money=-1), OPPONENT])
    assert str(info.value) == "Ana: money cannot be negative, got -1"


def test_default_theaters_are_not_owned_exclusively() -> None:
    # every cinema has the printed defaults: two players holding them is normal
    check_final(CAT, [final(), OPPONENT])


def test_a_bare_string_is_not_a_list_of_movies() -> None:
    with pytest.raises(ScoreInputError, match="Ana: movies must be a list"):
        check_final(CAT, [final(movies="its_my_war"), OPPONENT])


# --------------------------------------------------------------------------- property


@st.composite
def consistent_games(draw: st.DrawFn) -> list[PlayerFinal]:
    """Random end states that respect every rule :func:`check_final` enforces."""
    count = draw(st.sampled_from(sorted(CAT.setups)))
    starting = draw(st.permutations([m.id for m in CAT.starting_movies]))
    regular = draw(st.permutations([m.id for m in CAT.regular_movies]))
    tiles = draw(st.permutations(sorted(CAT.theaters)))
    awards = draw(st.permutations(sorted(CAT.awards)))
    draws = sorted({s.draw for s in CAT.audience_track})
    players = []
    for i in range(count):
        n_movies = draw(st.integers(0, 6))
        movies = (starting[i], *regular[:n_movies])
        regular = regular[n_movies:]
        theaters: list[str | None] = []
        for slot in range(3):
            pick = draw(st.sampled_from(("empty", "default", "tile")))
            if pick == "default" and slot < len(CAT.default_theaters):
                theaters.append(CAT.default_theaters[slot].id)
            elif pick == "tile":
                theaters.append(tiles[0])
                tiles = tiles[1:]
            else:
                theaters.append(None)
        n_awards = draw(st.integers(0, 5))
        players.append(
            PlayerFinal(
                name=f"P{i}",
                bucket=draw(st.integers(0, 80)),
                money=draw(st.integers(0, 60)),
                theaters=tuple(theaters),
                movies=movies,
                guests={c: draw(st.integers(0, CAT.box[c] // count)) for c in GUEST_COLORS},
                audience=draw(st.sampled_from(draws)),
                ad_tokens=tuple(
                    draw(st.lists(st.sampled_from(CAT.ad_spaces), max_size=CAT.tokens_per_player))
                ),
                awards=tuple(awards[:n_awards]),
            )
        )
        awards = awards[n_awards:]
    return players


@settings(max_examples=150, deadline=None)
@given(consistent_games())
def test_scoring_never_raises_and_total_is_the_sum_of_its_parts(players: list[PlayerFinal]) -> None:
    score: GameScore = score_game(CAT, players)
    assert [p.name for p in score.players] == [p.name for p in players]
    plain = score_game(CAT, [replace(p, ad_tokens=()) for p in players])
    for result, player, untouched in zip(score.players, players, plain.players, strict=True):
        parts = result.bucket + result.money + result.trophy + sum(result.awards.values())
        assert result.total == parts
        assert len(result.ad_tokens_used) == len(player.ad_tokens)
        # the chosen token uses are at least as good as leaving every token unused
        assert sum(result.awards.values()) >= sum(untouched.awards.values())
    assert score.winners and set(score.winners) <= {p.name for p in players}
    doc = score_to_json(score)
    for row in doc["players"]:
        parts = row["breakdown"]
        assert row["total"] == parts["bucket"] + parts["money"] + parts["trophy"] + sum(
            parts["awards"].values()
        )


@settings(max_examples=50, deadline=None)
@given(consistent_games())
def test_score_sheet_round_trips_through_json(players: list[PlayerFinal]) -> None:
    doc = {
        "players": [
            {
                "name": p.name,
                "bucket": p.bucket,
                "money": p.money,
                "theaters": list(p.theaters),
                "movies": list(p.movies),
                "guests": dict(p.guests),
                "audience": p.audience,
                "ad_tokens": list(p.ad_tokens),
                "awards": list(p.awards),
            }
            for p in players
        ]
    }
    assert parse_score_input(doc, CAT) == players
