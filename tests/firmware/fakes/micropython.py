"""A stand-in for MicroPython's ``micropython`` module: the Ctrl-C switch, ``kbd_intr``.

On a board, the byte set with ``kbd_intr`` (3, Ctrl-C, by default) is taken out of the USB
input as it arrives and raises ``KeyboardInterrupt`` in whatever code is running; ``-1``
turns that off and lets the byte through as data. CPython cannot do that by itself, so this
fake only keeps the state: :data:`interrupt_char` is what the firmware last asked for and
:data:`calls` every request in order. The test streams in ``fw_support`` read the state
and raise ``KeyboardInterrupt`` themselves when the byte arrives while it is on.
"""

from __future__ import annotations

CTRL_C = 3
"""The interrupt character a board starts with."""
interrupt_char = CTRL_C
"""The byte that interrupts the running code now, or -1 when none does."""
calls: list[int] = []
"""Every ``kbd_intr`` argument since the last :func:`reset_fakes`, oldest first."""


def kbd_intr(chr: int) -> None:
    """Make byte ``chr`` raise ``KeyboardInterrupt`` when it arrives (-1: no byte does)."""
    global interrupt_char
    interrupt_char = chr
    calls.append(chr)


def reset_fakes() -> None:
    """A board just reset: Ctrl-C interrupts, and no call was made."""
    global interrupt_char
    interrupt_char = CTRL_C
    calls.clear()
