"""Time helpers and the Ctrl-C switch, on MicroPython and on CPython.

MicroPython counts milliseconds with ``time.ticks_ms()``, a counter that wraps around (after
about 12 days on the ESP32 and the Pico W), so two readings may only be compared with
``time.ticks_diff(new, old)``. CPython has none of these; the tests run the firmware there,
so this shim gives the same four names on both. Every firmware module takes its time from
here (or from a ``ticks`` function handed to it), never from ``time.time()``.

:func:`kbd_intr` is ``micropython.kbd_intr``: which byte arriving on the USB input stops the
running code with ``KeyboardInterrupt`` (3, Ctrl-C, at start; -1 for none). The tests put a
fake ``micropython`` module on the path that keeps the state, so they can check it.
"""

import time

try:
    ticks_ms = time.ticks_ms
    ticks_us = time.ticks_us
    ticks_diff = time.ticks_diff
    ticks_add = time.ticks_add
    sleep_ms = time.sleep_ms
    sleep_us = time.sleep_us
except AttributeError:  # CPython: a monotonic clock that never wraps

    def ticks_ms():
        """Milliseconds from an arbitrary start; only differences mean something."""
        return int(time.monotonic() * 1000)

    def ticks_us():
        """Microseconds from an arbitrary start; only differences mean something."""
        return int(time.monotonic() * 1000000)

    def sleep_us(us):
        """Sleep ``us`` microseconds."""
        time.sleep(us / 1000000)

    def ticks_diff(new, old):
        """``new - old`` in ticks (negative when ``new`` is earlier)."""
        return new - old

    def ticks_add(ticks, delta):
        """The tick count ``delta`` milliseconds after ``ticks``."""
        return ticks + delta

    def sleep_ms(ms):
        """Sleep ``ms`` milliseconds."""
        time.sleep(ms / 1000)


try:
    from micropython import kbd_intr
except ImportError:  # CPython without the tests' fake: no USB input to watch

    def kbd_intr(chr):
        """Nothing to switch: only a board turns a received byte into Ctrl-C."""


def elapsed(now, then, ms):
    """Whether at least ``ms`` milliseconds separate tick counts ``then`` and ``now``."""
    return ticks_diff(now, then) >= ms
