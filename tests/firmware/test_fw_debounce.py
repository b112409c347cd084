"""Dwell and debounce: a resting pawn reports once, a pawn tapped again reports again."""

from __future__ import annotations

from debounce import Debouncer

from tests.firmware.harness import Clock

A, B = b"\x04\xa1\xb2\xc3\xd4\xe5\xf6", b"\x11\x22\x33\x44"


def run(debouncer: Debouncer, clock: Clock, reads: list[list[bytes]], step: int = 25) -> list:
    """Feed one poll every ``step`` ms; the taps reported, in order."""
    taps = []
    for uids in reads:
        taps += debouncer.update(uids, clock.advance(step))
    return taps


def test_a_resting_pawn_reports_once() -> None:
    """Two seconds on the pad, read at every poll: one tap."""
    clock = Clock()
    assert run(Debouncer(40, 300), clock, [[A]] * 80) == [A]


def test_the_tap_comes_after_the_dwell() -> None:
    """Not at the first read: only once the pawn was read again dwell_ms later."""
    debouncer, clock = Debouncer(40, 300), Clock()
    assert debouncer.update([A], clock()) == []
    assert debouncer.update([A], clock.advance(25)) == []
    assert debouncer.update([A], clock.advance(25)) == [A]


def test_a_single_stray_read_is_not_a_tap() -> None:
    """A pawn swept past the edge of the antenna is read once: nothing is reported."""
    clock = Clock()
    assert run(Debouncer(40, 300), clock, [[A]] + [[]] * 40) == []


def test_missed_reads_of_a_resting_pawn_do_not_make_a_new_tap() -> None:
    """Flickering reads (gaps shorter than gone_ms) are the same stay on the pad."""
    clock = Clock()
    reads = [[A], [A], [A], [], [], [A], [], [], [], [], [A], [A]] * 5
    assert run(Debouncer(40, 300), clock, reads) == [A]


def test_a_pawn_lifted_and_tapped_again_reports_again() -> None:
    """Gone for longer than gone_ms, then back: a second tap."""
    clock = Clock()
    reads = [[A]] * 5 + [[]] * 14 + [[A]] * 5  # 350 ms away
    assert run(Debouncer(40, 300), clock, reads) == [A, A]


def test_a_gap_just_under_gone_ms_is_not_a_new_tap() -> None:
    """The boundary: 275 ms without a read is still the same stay."""
    clock = Clock()
    reads = [[A]] * 5 + [[]] * 10 + [[A]] * 5  # last read 275 ms before the next
    assert run(Debouncer(40, 300), clock, reads) == [A]


def test_two_pawns_are_independent() -> None:
    """B arrives while A rests; A leaves and comes back while B rests."""
    clock = Clock()
    reads = [[A]] * 4 + [[A, B]] * 4 + [[B]] * 16 + [[A, B]] * 4
    assert run(Debouncer(40, 300), clock, reads) == [A, B, A]


def test_dwell_zero_reports_at_the_first_read() -> None:
    """With no dwell the first read is the tap."""
    debouncer, clock = Debouncer(0, 300), Clock()
    assert debouncer.update([A], clock()) == [A]


def test_tracked_and_resting() -> None:
    """Tracked: every UID near the pad; resting: those already reported."""
    debouncer, clock = Debouncer(40, 300), Clock()
    debouncer.update([A], clock())
    assert debouncer.tracked() == [A] and debouncer.resting() == []
    run(debouncer, clock, [[A]] * 3)
    assert debouncer.resting() == [A]
    run(debouncer, clock, [[]] * 20)
    assert debouncer.tracked() == []
