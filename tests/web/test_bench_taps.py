"""``bench/taps.py`` enters a game through the real screens exactly as recorded.

The bench's figures are only as good as its driver: these tests play the first rounds of
the example game (and of an advised game) through the tablet, the phones and the readers,
and check that the hub's game is the record's, move for move (guests of one color may be
different pawns: the table cannot tell them apart), and that the tally counts what was done.
In the phone mode each player's own moves go through their own phone: the hub's log says
which device sent each move (a phone's token makes it ``"phone"``).
"""

from __future__ import annotations

import importlib
import sys
from collections import Counter
from pathlib import Path

import pytest

from companion.games.popcorn.facts_file import load_catalog
from companion.games.popcorn.record import Record, loads_record
from companion.table.store import HubStore

pytestmark = pytest.mark.slow  # whole rounds entered through the screens
BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))
taps = importlib.import_module("taps")  # bench/taps.py, which people run as a script
CATALOG = load_catalog()


def colors_of(moves) -> list[dict]:
    """Moves with each pawn replaced by its color: what the table can see."""
    from companion.games.popcorn.engine import new_game
    colors = new_game(CATALOG, ["a", "b"], 0).pawn_color
    out = []
    for move in moves:
        data = move.to_dict()
        if "pawn" in data:
            data["pawn"] = colors[data["pawn"]]
        out.append(data)
    return out


def task_places(record: Record) -> int:
    """The record's guests seated while their player has a task (a guest a seat's action
    drew): the hub's placement covers only the guests drawn for the showing."""
    from companion.games.popcorn.engine import new_game
    state, count = new_game(CATALOG, list(record.names), record.first_player), 0
    for move in record.moves:
        count += move.kind == "place" and state.task_for(move.player) is not None
        state.apply(move)
    return count


def enter(browser, tmp_path: Path, record: Record, count: int, cards: bool,
          phones: bool = False):
    """The first ``count`` moves of ``record`` entered by the bench's driver (each player's
    own moves on their phone with ``phones``)."""
    part = Record(record.names, record.first_player, record.moves[:count])
    tally = taps.play(browser, part, cards, True, tmp_path, check=False, phones=phones)
    return part, tally, loads_record(tally.entered)


def sent_moves(db: Path) -> list[dict]:
    """Every move the hub logged as sent by a screen or a reader (``source``: "tablet",
    "phone", "tap"...), replaced ones included, from its SQLite log."""
    store = HubStore(db)
    try:
        ((table_id, _),) = store.tables()
        return [body for _, _, body in store.events(table_id) if body.get("move")]
    finally:
        store.close()


@pytest.mark.parametrize("cards", [True, False])
def test_the_example_game_is_entered_move_for_move(browser, tmp_path: Path, cards) -> None:
    """With card tags and without (cards typed into the search boxes): the hub's moves are
    the record's; every draw was a reader tap; the tablet did the rest."""
    record = taps.recorded_game(taps.RECORD)
    part, tally, entered = enter(browser, tmp_path, record, 90, cards)
    assert tally.cards is cards
    assert sorted(map(str, colors_of(entered.moves))) == sorted(map(str, colors_of(part.moves)))
    draws = sum(m.kind == "draw_pawn" for m in part.moves)
    card_taps = sum(m.kind in ("deal_starting", "reveal_movie", "reveal_theater", "draw_award")
                    for m in part.moves) if cards else 0
    assert tally.total("reader", ("tap",)) >= draws + card_taps
    assert tally.total("tablet") > 0
    if not cards:
        assert tally.total("tablet", ("key",)) > 0  # the revealed cards were typed


def test_an_advised_game_takes_the_suggestions(browser, tmp_path: Path) -> None:
    """An advised game's showings are entered with Seat and play (for everyone at once when
    the players draw together; Seat all — everyone when no plan follows the seating): one
    tap instead of a tap per guest (only a guest drawn for a seat's action, which no
    placement covers, takes a tap on its seat); its purchases cost no tablet tap (the card
    goes into the suggested slot)."""
    record = taps.advised_game(1)
    first_draw = next(n for n, m in enumerate(record.moves) if m.kind == "draw_pawn")
    part, tally, entered = enter(browser, tmp_path, record, first_draw + 40, True)
    assert sorted(map(str, colors_of(entered.moves))) == sorted(map(str, colors_of(part.moves)))
    kinds = tally.by(2)
    together = kinds["seat and play — everyone"] + kinds["seat all — everyone"]
    assert together + kinds["seat and play"] + kinds["seat all"] >= 1
    assert kinds["place"] <= task_places(part)
    assert kinds["buy_movie"] + kinds["buy_theater"] == 0  # every card went where suggested


def test_any_pawn_of_the_color_is_entered_without_an_alert(browser, tmp_path: Path) -> None:
    """``--any-pawn``: the driver taps any pawn of the right color never tapped so far, as a
    table that filled its bags by the handful does; the hub takes every such tap as the
    move (some of them relabelled), raises no alert, and its game is the record's."""
    record = taps.recorded_game(taps.RECORD)
    part = Record(record.names, record.first_player, record.moves[:90])
    tally = taps.play(browser, part, True, True, tmp_path, check=False, any_pawn=True)
    entered = loads_record(tally.entered)
    assert tally.alerts == 0
    assert tally.relabels > 0
    assert sorted(map(str, colors_of(entered.moves))) == sorted(map(str, colors_of(part.moves)))


def test_with_phones_each_player_enters_their_own_moves(browser, tmp_path: Path) -> None:
    """The phone mode: the first rounds of an advised game are the record's; each player's
    own moves (their seating with Seat and play or Seat all, their shortcuts, ads and ends
    of turn) went from their own phone, as the hub's log and the tally by device both say;
    the tablet took only what no phone offers (guests seated one by hand) and never
    "Seat and play — everyone"."""
    record = taps.advised_game(1)
    first_draw = next(n for n, m in enumerate(record.moves) if m.kind == "draw_pawn")
    part, tally, entered = enter(browser, tmp_path, record, first_draw + 60, True, phones=True)
    assert sorted(map(str, colors_of(entered.moves))) == sorted(map(str, colors_of(part.moves)))
    sent = sent_moves(tmp_path / "hub.db")
    by_source = Counter(m.get("source") for m in sent)
    phone = [m["move"] for m in sent if m.get("source") == "phone"]
    tablet = [m["move"] for m in sent if m.get("source") == "tablet"]
    assert {m["player"] for m in phone} == {0, 1, 2, 3}, by_source
    assert {m["move"] for m in phone} >= {"keep_award", "place", "seat_action"}
    assert all(m["move"] in ("place", "to_exit") for m in tablet), tablet
    on_phones, on_tablet = tally.by(2, "phone"), tally.by(2)
    assert on_phones["seat and play"] + on_phones["seat all"] >= 4  # every player seated
    assert set(on_tablet) <= {"place", "to_exit"}, on_tablet
    assert tally.total("tablet") <= 2 * len(tablet)  # a guest by hand: two taps at most
    assert set(tally.seats) == {0, 1, 2, 3}


def test_with_mats_the_hands_seat_send_out_and_end_guests_on_the_mats(browser,
                                                                      tmp_path: Path) -> None:
    """``--mats``: the first rounds of the example game are the record's; its places, exits
    and ends were made by hands on the players' cinema mats (the hub logged them as mat
    reports), the tablet touched none of them but a place whose seat the mat's rule would
    not pick, and the hub raised no alert."""
    record = taps.recorded_game(taps.RECORD)
    part = Record(record.names, record.first_player, record.moves[:90])
    tally = taps.play(browser, part, True, True, tmp_path, check=False, mats=True)
    entered = loads_record(tally.entered)
    assert sorted(map(str, colors_of(entered.moves))) == sorted(map(str, colors_of(part.moves)))
    sensed = sum(m.kind in ("place", "to_exit", "end_guest") for m in part.moves)
    assert sensed and tally.mat_moves["place"] > 0
    sent = sent_moves(tmp_path / "hub.db")
    from_mats = [m for m in sent if str(m.get("tag", {}).get("reader", "")).startswith("mat-")]
    assert 0 < len(from_mats) <= sum(tally.mat_moves.values())  # (+ the rules' forced ones)
    on_tablet = tally.by(2)
    assert on_tablet["place"] + on_tablet["to_exit"] <= 2 * tally.mat_misses
    assert on_tablet["end_guest"] == 0
    assert tally.hub_alerts == [] and tally.mat_alerts == 0 and tally.mat_reports > 0
