"""A zone's change when it holds more tags than a mat's message lists (an exit zone of 17
guests): the mat lists the newest 16 and a count, and a piece the listing reaches when
another is taken off is no piece set down (``companion.kit.zones.ZoneChange``)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.kit.zones import Sensed, ZoneChange

LISTED = 16
"""The most tags a ``zones`` message lists (``protocol.MAX_ZONE_TAGS``)."""


def _listing(lying: list[str]) -> tuple[tuple[Sensed, ...], int]:
    """What a mat reports of a zone: its newest tags, and how many it leaves out."""
    listed = lying[-LISTED:]
    return tuple(Sensed(uid, None) for uid in listed), len(lying) - len(listed)


def _change(before: list[str], after: list[str]) -> ZoneChange:
    (old, hidden_before), (new, hidden_after) = _listing(before), _listing(after)
    return ZoneChange(0, 3, old, new, hidden_before, hidden_after)


def _uids(pieces: tuple[Sensed, ...]) -> list[str]:
    return [s.uid for s in pieces]


def test_a_guest_taken_off_a_full_exit_zone_lets_the_oldest_in_without_a_set_down() -> None:
    lying = [f"t{n:02}" for n in range(17)]  # t00 is the oldest: not listed
    change = _change(lying, [uid for uid in lying if uid != "t05"])
    assert _uids(change.after)[0] == "t00"  # listed now
    assert change.arrived == ()
    assert _uids(change.left) == ["t05"]


def test_a_guest_set_down_on_a_full_zone_pushes_the_oldest_out_of_the_listing_only() -> None:
    lying = [f"t{n:02}" for n in range(16)]
    change = _change(lying, [*lying, "new"])
    assert _uids(change.arrived) == ["new"]
    assert change.left == ()  # t00 is still there, unlisted


def test_without_a_count_every_piece_listed_anew_was_set_down() -> None:
    change = ZoneChange(0, 3, (Sensed("a", None),), (Sensed("b", None), Sensed("a", None)))
    assert _uids(change.arrived) == ["b"]  # a state the hub missed in between: still read
    assert change.left == ()


@st.composite
def _histories(draw: st.DrawFn) -> list[list[str]]:
    """A zone's states one after another: each takes some pieces off, then sets new ones
    down (last, in the order they arrive), with up to 24 lying at once."""
    lying: list[str] = [f"p{n}" for n in range(draw(st.integers(0, 24)))]
    fresh = len(lying)
    states = [list(lying)]
    for _ in range(draw(st.integers(1, 6))):
        for uid in draw(st.lists(st.sampled_from(lying), unique=True, max_size=3)
                        if lying else st.just([])):
            lying.remove(uid)
        for _ in range(draw(st.integers(0, min(3, 24 - len(lying))))):
            lying.append(f"p{fresh}")
            fresh += 1
        states.append(list(lying))
    return states


@settings(max_examples=300, deadline=None)
@given(_histories())
def test_what_a_listing_shows_never_invents_a_move(states: list[list[str]]) -> None:
    """Between two states: a piece read as set down was set down, and one read as taken
    off was; while some listed piece stays listed, every piece set down is read."""
    for before, after in zip(states, states[1:], strict=False):
        change = _change(before, after)
        set_down = set(after) - set(before)
        assert set(_uids(change.arrived)) <= set_down
        assert set(_uids(change.left)) <= set(before) - set(after)
        if set(_uids(change.before)) & set(_uids(change.after)):
            assert set(_uids(change.arrived)) == set_down & set(_uids(change.after))
