"""The pure interpretation of a card's tap (``companion/table/card_taps.py``): which step a
card answers, and the alert for every card that answers none, without a hub."""

from __future__ import annotations

import random

from companion.games.popcorn.card_taps import CardChoice, interpret_card
from companion.games.popcorn.engine import new_game
from companion.games.popcorn.engine.simulator import random_move
from companion.games.popcorn.facts_file import load_catalog
from companion.games.popcorn.tags import ALERT_CODES
from companion.games.popcorn.texts import ALERTS
from companion.games.popcorn.tile_looks import tile_look
from companion.i18n.catalogs import translations
from companion.i18n.localize import render_alert
from companion.kit.alerts import Alert
from tests.table.alerts import assert_localized

CATALOG = load_catalog()


def play_until(predicate, seed: int = 4):
    """A 2-player game played at random until ``predicate(state)``."""
    state = new_game(CATALOG, ["Ana", "Bob"], 0)
    rng = random.Random(seed)
    while not predicate(state):
        state.apply(random_move(state, rng))
    return state


def test_a_reveal_is_reported_on_any_reader() -> None:
    """A movie of the deck during the lineup: its reveal, whoever's reader it is."""
    state = play_until(lambda s: any(m.kind == "reveal_movie" for m in s.chance_outcomes()))
    card = state.movie_pool[5]
    for player in (0, 1):
        move = interpret_card(state, player, "movie", card)
        assert (move.kind, move.card) == ("reveal_movie", card)


def test_a_market_movie_in_the_showings_is_not_expected() -> None:
    """Outside Buying, a movie of the market answers no step: CARD_NOT_EXPECTED."""
    state = play_until(lambda s: s.phase == "showings")
    before = state.to_dict()
    alert = interpret_card(state, 0, "movie", state.features[0])
    assert isinstance(alert, Alert) and alert.code == "CARD_NOT_EXPECTED"
    assert CATALOG.movies[state.features[0]].title in alert.message
    assert alert.params["title"] == CATALOG.movies[state.features[0]].title
    assert_localized(alert.code, alert.params)
    french = render_alert(alert.code, alert.params, translations("fr").gettext, "fr")[0]
    assert french.startswith(alert.params["title"]) and "Ana" in french
    assert state.to_dict() == before


def test_buying_a_tile_in_round_two_asks_for_a_slot() -> None:
    """Round 2, the player to act taps an affordable tile: a choice of its three slots."""
    state = play_until(lambda s: s.phase == "buying" and s.round == 2 and not s.tasks
                       and any(m.kind == "buy_theater" for m in s.legal_moves()))
    buy = next(m for m in state.legal_moves() if m.kind == "buy_theater")
    choice = interpret_card(state, state.current, "theater", buy.card)
    assert isinstance(choice, CardChoice) and len(choice.moves) == 3
    other = 1 - state.current
    alert = interpret_card(state, other, "theater", buy.card)
    assert alert.code == "NOT_PLAYERS_TURN"
    assert alert.params["current"] == state.names[state.current]
    assert_localized(alert.code, alert.params)


def test_every_card_alert_code_is_listed() -> None:
    """Each code an ``Alert(...)`` of the card taps raises is in ALERT_CODES, with a meaning."""
    import inspect
    import re

    from companion.games.popcorn import card_taps

    used = set(re.findall(r'Alert\("([A-Z_]+)"', inspect.getsource(card_taps)))
    assert used == {"CARD_NOT_EXPECTED", "CARD_NOT_IN_MARKET", "CARD_ALREADY_OWNED",
                    "CARD_NOT_BUYABLE", "NOT_PLAYERS_TURN", "CARD_NOT_IN_DECK",
                    "WAITING_FOR_GAIN", "WAITING_FOR_AWARD"}
    assert all(ALERT_CODES.get(code) for code in used)
    assert used | {"CARD_NOT_EXPECTED:award"} <= set(ALERTS)


def owing_a_gain():
    """A Buying where the player to act still owes a gained guest (random 2-player games,
    the first that gets there)."""
    for seed in range(60):
        state = new_game(CATALOG, ["Ana", "Bob"], 0)
        rng = random.Random(seed)
        while not state.is_over:
            if state.phase == "buying" and state.tasks and state.tasks[0].kind == "gain" \
                    and state.features:
                return state
            state.apply(random_move(state, rng))
    raise AssertionError("no game owed a gain in Buying")


def test_a_card_tapped_while_a_gain_is_owed_names_the_gain_and_whose() -> None:
    """Issue 38, item 3: a market movie tapped while the player to act still owes a gained
    guest says that ("Ana still has to take a green guest"), on any reader, and changes
    nothing; it does not say "it is Ana's turn to buy"."""
    state = owing_a_gain()
    task = state.tasks[0]
    owner = state.names[task.player]
    before = state.to_dict()
    for player in (0, 1):
        alert = interpret_card(state, player, "movie", state.features[0])
        assert isinstance(alert, Alert) and alert.code == "WAITING_FOR_GAIN", alert
        assert f"{owner} still has to take a {task.color} guest" in alert.message
        assert "turn to buy" not in alert.message
        assert (alert.params["waiting"], alert.params["color"]) == (owner, task.color)
        assert_localized(alert.code, alert.params)
    french = render_alert(alert.code, alert.params, translations("fr").gettext, "fr")[0]
    assert owner in french and "Spectateur" in french
    assert state.to_dict() == before


def test_a_theater_tile_is_named_as_it_looks_in_every_language() -> None:
    """Issue 38, item 3: a tile carries no title, so an alert names it by its price, seats,
    seat colors and actions ("the $2 one-seat tile (blue seat: +$3)"), each language its
    own way, and a message that opens with it starts with a capital."""
    state = play_until(lambda s: s.phase == "buying")
    blue = CATALOG.theaters["one_seat_blue_3_money"]
    assert tile_look(blue) == "the $2 one-seat tile (blue seat: +$3)"
    assert tile_look(CATALOG.theaters["two_seat_red_red"]) == \
        "the $5 two-seat tile (red seat: movie action; red seat: +2 popcorn)"
    looks = {tile_look(t) for t in CATALOG.theaters.values()}
    assert len(looks) == len(CATALOG.theaters)  # no two tiles look alike
    alert = interpret_card(state, 1 - state.current, "theater", blue.id)
    assert isinstance(alert, Alert), alert
    assert alert.params["card"] == blue.id and alert.params["title"] == tile_look(blue)
    assert alert.message.startswith("The $2 one-seat tile (blue seat: +$3) was tapped")
    assert "One seat" not in alert.message + alert.fix
    assert_localized(alert.code, alert.params)
    expected = {"fr": "La tuile Salle à 2 $ à une place (siège bleu : +3 $)",
                "de": "Kinosaal für 2 $ mit einem Sitz (blauer Sitz: +3 $)",
                "ja": "$2・1席のシアタータイル（青の席：+$3）"}
    for lang, words in expected.items():
        catalog = translations(lang)
        message, fix = render_alert(alert.code, alert.params, catalog.gettext, lang,
                                    pgettext=catalog.pgettext)
        assert message.startswith(words) or lang == "ja" and words in message, message
        assert words[1:] in fix, fix
