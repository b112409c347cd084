"""A guest tapped to activate an advertising token: on a real hub with virtual readers.

In the Buying phase the player to buy takes a guest of a ready token's color and taps it on
their reader: the hub activates that token and puts that guest into the bag, two moves for
one tap, as one batch that one Undo takes back; a restart rebuilds the same game and the
record replays. The game is an advisor game fed to the hub move by move.
"""

from __future__ import annotations

import random
from pathlib import Path

from companion.games.popcorn.advisor.policy import play_advised
from companion.games.popcorn.engine import pawns as P
from companion.games.popcorn.facts_file import load_catalog
from companion.games.popcorn.record import loads_record, replay
from companion.hub.hub import Hub
from tests.hub.rig import READERS, Rig
from tests.waiting import wait_for

CATALOG = load_catalog()


def game_to_first_ad():
    """An advisor game, and the index of its first ad activation whose gain follows it."""
    game = play_advised(CATALOG, 4, random.Random("taps:1"), names=["Ana", "Bob", "Chloe", "Dev"])
    for n, move in enumerate(game.moves):
        after = game.moves[n + 1]
        if move.kind == "activate_ad" and after.kind == "gain_pawn" and after.target is None:
            return game, n
    raise AssertionError("no ad activation in the game")


def test_a_guest_tapped_activates_the_token_of_its_color(rig: Rig, tmp_path: Path) -> None:
    game, n = game_to_first_ad()
    table, pin, _ = rig.hub.create_table(list(game.names), READERS, game.first_player)
    for move in game.moves[:n]:
        rig.hub.submit(table.id, move)
    ad, gain = game.moves[n], game.moves[n + 1]
    before, events = table.state.to_dict(), table.count
    reader = READERS[ad.player]
    seq = rig.tap(reader, rig.uids[gain.pawn])
    assert wait_for(lambda: rig.feedback(reader, seq) is not None)
    assert rig.feedback(reader, seq) == "ok"
    state = table.state
    assert state.loc[gain.pawn] == P.bag(ad.player)
    assert [e["move"] for e in table.entries[-2:]] == [ad.to_dict(), gain.to_dict()]
    assert table.entries[-1]["batch"] == table.entries[-2]["batch"] == events + 1
    assert state.known.certain(gain.pawn) == P.bag(ad.player)  # the tap showed it
    assert not table.alerts
    picture, known = state.to_dict(), state.known
    rig.hub.stop()
    again = Hub(tmp_path / "hub.sqlite", readers=READERS)
    try:  # the log rebuilds the same game, and one Undo takes both moves back
        rebuilt = again.tables[table.id]
        assert rebuilt.state.to_dict() == picture and rebuilt.state.known == known
        text = rebuilt.record_text()
        assert replay(CATALOG, loads_record(text)).to_dict() == picture
        rebuilt.undo()
        assert rebuilt.state.to_dict() == before
    finally:
        again.stop()
        rig.hub = Hub(tmp_path / "other.sqlite")  # the rig's close stops a hub


def test_a_guest_of_no_ready_token_is_still_an_alert(rig: Rig) -> None:
    """The same tap by a player who is not buying, or of a color no token is ready for,
    changes nothing."""
    game, n = game_to_first_ad()
    table, _, _ = rig.hub.create_table(list(game.names), READERS, game.first_player)
    for move in game.moves[:n]:
        rig.hub.submit(table.id, move)
    ad, gain = game.moves[n], game.moves[n + 1]
    other = READERS[(ad.player + 1) % 4]
    before = table.state.to_dict()
    seq = rig.tap(other, rig.uids[gain.pawn])
    assert wait_for(lambda: rig.feedback(other, seq) is not None)
    assert rig.feedback(other, seq) == "error" and table.state.to_dict() == before


def test_a_white_guest_tapped_on_another_players_reader_is_the_white_tokens_gift(
        rig: Rig) -> None:
    """The white space sends its guest into any bag: the player to buy holds a ready white
    token, and a white guest tapped on another player's reader is that token activated and
    the guest gained into that player's bag, one batch that one Undo takes back. A guest of
    another color on that reader still changes nothing."""
    game = play_advised(CATALOG, 4, random.Random("taps:1"), names=["Ana", "Bob", "Chloe", "Dev"])
    n = next(n for n, move in enumerate(game.moves[:-1]) if move.kind == "activate_ad"
             and game.moves[n + 1].kind == "gain_pawn"
             and game.moves[n + 1].target not in (None, move.player))
    table, _, _ = rig.hub.create_table(list(game.names), READERS, game.first_player)
    for move in game.moves[:n]:
        rig.hub.submit(table.id, move)
    ad, gain = game.moves[n], game.moves[n + 1]
    assert gain.target is not None and gain.pawn is not None
    before, events = table.state.to_dict(), table.count
    reader = READERS[gain.target]
    other = next(p for p in table.state.pawns_at(P.RESERVE)
                 if table.state.pawn_color[p] != "white")
    seq = rig.tap(reader, rig.uids[other])
    assert wait_for(lambda: rig.feedback(reader, seq) is not None)
    assert rig.feedback(reader, seq) == "error" and table.state.to_dict() == before
    seq = rig.tap(reader, rig.uids[gain.pawn])
    assert wait_for(lambda: rig.feedback(reader, seq) is not None)
    assert rig.feedback(reader, seq) == "ok"
    assert [e["move"] for e in table.entries[-2:]] == [ad.to_dict(), gain.to_dict()]
    assert table.entries[-1]["batch"] == table.entries[-2]["batch"] > events
    assert table.state.known.certain(gain.pawn) == P.bag(gain.target)
    table.undo()
    assert table.state.to_dict() == before
