"""A tap is an alert only when no arrangement of the pawns explains it (issue 36's case).

Ana's exit zone holds two blue guests the hub knows by their tags (pawns 21 and 22). Chloe
gains a blue guest from it on the tablet, which names pawn 22; the hand takes the blue that
comes to hand, pawn 21. Later Chloe draws pawn 21 out of her bag: some arrangement explains
that (the hand took 21), so it is a draw, relabelled, with no alert. A blue guest the hub
knows is in Bob's exit zone, tapped the same way, is an alert that names Bob's exit zone, and
its fix says to put it back there.
"""

from __future__ import annotations

from companion.games.popcorn.corrections import correct
from companion.games.popcorn.engine import GameState, Move
from companion.games.popcorn.engine import pawns as P
from companion.games.popcorn.facts_file import load_catalog
from companion.games.popcorn.table_state import TableState
from companion.games.popcorn.tags import interpret
from companion.kit.alerts import Alert
from companion.kit.game import Relabel
from tests.engine.positions import dealt_game

CATALOG = load_catalog()


def blue_gain_from_exit_zones() -> TableState:
    """Four players in the Buying phase; the reserve has no blue guest; Ana's exit zone holds
    blues 21 and 22, Bob's blue 23; Chloe must gain a blue guest (from another player's exit
    zone, then). The hub knows those three blues by their tags."""
    doc = dealt_game(4).to_dict()
    blues = set(range(20, 30))
    where = {21: ("exit", 0), 22: ("exit", 0), 23: ("exit", 1)}
    for player in doc["players"]:
        for zone in ("bag", "exit"):
            player[zone] = [q for q in player[zone] if q not in where]
    doc["box"] = sorted(set(doc["box"]) | {q for q in doc["reserve"] if q in blues})
    doc["reserve"] = [q for q in doc["reserve"] if q not in blues]
    doc["box"] = [q for q in doc["box"] if q not in where]
    doc["reserve"] = [q for q in doc["reserve"] if q not in where]
    for pawn, (zone, seat) in where.items():
        doc["players"][seat][zone].append(pawn)
    doc["tasks"] = [{"kind": "gain", "player": 2, "color": "blue"}]
    state = TableState.following(GameState.from_dict(CATALOG, doc))
    for pawn in where:
        state.observe(pawn)  # tapped before: the hub knows where each is
    return state


def to_showings(state: TableState) -> None:
    """Every player ends their Buying turn: the Showings start, and everyone draws."""
    while state.phase == "buying":
        state.apply(Move("end_turn", player=state.current))


def test_a_guest_the_hand_took_among_look_alikes_is_a_draw_later() -> None:
    """The tablet's gain names 22, the hand took 21: Chloe's draw of 21 is a draw."""
    state = blue_gain_from_exit_zones()
    gain = Move("gain_pawn", player=2, pawn=22)
    assert gain in state.legal_moves()
    state.apply(gain)  # entered on the tablet: "a blue guest from Ana's exit zone"
    assert state.known.maybe[21] == state.known.maybe[22] == {P.exit_zone(0), P.bag(2)}
    assert state.known.certain(23) == P.exit_zone(1)
    to_showings(state)
    found = interpret(state, 2, 21)
    assert isinstance(found, Relabel), found
    assert found.move == Move("draw_pawn", player=2, pawn=21) and found.seen == 21
    state.relabel(found.swaps)
    assert state.loc[21] == P.bag(2) and state.loc[22] == P.exit_zone(0)
    state.observe(21)
    state.apply(found.move)
    state.observe(21)
    assert state.known.certain(21) == P.hand(2)
    assert state.known.certain(22) == P.exit_zone(0)  # the tap told where the other one is


def test_a_guest_no_arrangement_explains_is_an_alert_naming_what_is_certain() -> None:
    """Blue 23 never left Bob's exit zone: drawn on Chloe's reader, it is an alert that
    names Bob's exit zone, and nothing changes."""
    state = blue_gain_from_exit_zones()
    state.apply(Move("gain_pawn", player=2, pawn=22))
    to_showings(state)
    before, known = state.to_dict(), state.known
    alert = interpret(state, 2, 23)
    assert isinstance(alert, Alert) and alert.code == "PAWN_OF_ANOTHER_PLAYER"
    assert alert.params["zone"] == "exit" and alert.params["owner"] == "Bob"
    assert alert.fix == "Put it back in Bob's exit zone."
    assert state.to_dict() == before and state.known == known


def test_a_guest_that_may_be_in_several_players_places_is_named_nowhere() -> None:
    """A guest never tapped, of a color a player's bag lacks, drawn on that player's reader:
    it may be in any other place that holds its color, so the alert says only that the bag
    holds no guest of its color, and offers no correction (it could take the guest from the
    wrong place)."""
    doc = dealt_game(4).to_dict()
    chloe = doc["players"][2]
    blues = [q for q in chloe["bag"] if 20 <= q < 30]
    chloe["bag"] = [q for q in chloe["bag"] if q not in blues]
    doc["reserve"] = sorted(doc["reserve"] + blues)
    state = TableState.following(GameState.from_dict(CATALOG, doc))
    to_showings(state)
    blue = next(q for q in range(20, 30) if len(state.known.maybe[q]) > 1)
    alert = interpret(state, 2, blue)
    assert isinstance(alert, Alert) and alert.code == "COLOR_NOT_IN_BAG"
    assert alert.params["kind"] == "unsure" and alert.correct is None
    assert "Chloe's bag" in alert.message and "came from" in alert.fix


def test_an_audit_learns_every_look_alike_it_saw_in_the_bag() -> None:
    """The guests an audit saw in Ana's bag, several of one color that the hub had placed
    elsewhere: after the audit's relabel each one is known in her bag, and the arrangement
    has them all there (no swap chain for one moved an earlier one out)."""
    state = TableState.following(dealt_game(2))
    bag = P.bag(0)
    whites = [q for q in state.pawns_at(bag) if state.pawn_color[q] == "white"]
    others = [q for q in range(60) if state.pawn_color[q] == "white" and q not in whites
              and state.known.may_be(q, bag)][:len(whites)]
    assert len(others) == len(whites) >= 2
    logged = correct(state, {"seen": others, "zone": "bag", "player": 0})
    assert len(logged["relabel"]) >= len(others)
    assert all(state.known.certain(q) == bag and state.loc[q] == bag for q in others)
    again = TableState.following(dealt_game(2))
    correct(again, logged)  # the log's replay makes the same swaps
    assert again.to_dict() == state.to_dict() and again.known == state.known
