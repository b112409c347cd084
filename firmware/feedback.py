"""The LED and buzzer patterns for the hub's ``feedback``, played without blocking.

The main loop must never sleep through a pattern (it would miss taps and let the watchdog
bite), so a pattern is a list of steps ``(duration_ms, color, beep)`` and :meth:`Player.tick`
moves to the next step when its time has come. A new pattern replaces the one playing.

========  =====================================  ===========================
level     light                                  sound
========  =====================================  ===========================
``ok``    green for 150 ms                       one short beep (80 ms)
``warn``  yellow (red + green), blinking twice   two short beeps
``error`` red for 800 ms                         one long beep (600 ms)
========  =====================================  ===========================

``boot`` (blue, once at start) and ``full`` (red, three quick beeps: a tap refused because
the reader has held too many unacked events) are the reader's own.
"""

from compat import ticks_add, ticks_diff

OFF = (0, 0, 0)
RED = (1, 0, 0)
GREEN = (0, 1, 0)
YELLOW = (1, 1, 0)
BLUE = (0, 0, 1)

PATTERNS = {
    "ok": ((80, GREEN, True), (70, GREEN, False)),
    "warn": ((90, YELLOW, True), (90, OFF, False), (90, YELLOW, True), (150, OFF, False)),
    "error": ((600, RED, True), (200, RED, False)),
    "boot": ((300, BLUE, False),),
    "full": ((60, RED, True), (60, OFF, False), (60, RED, True), (60, OFF, False),
             (60, RED, True), (200, OFF, False)),
}
"""Each pattern's steps: how long, which color, whether the buzzer sounds."""


class Player:
    """Plays one pattern at a time on an RGB LED and a buzzer.

    ``led`` needs ``show((r, g, b))`` with 0/1 values; ``buzzer`` needs ``on()`` and
    ``off()``; either may be ``None``. With ``sound`` false the buzzer stays silent.
    """

    def __init__(self, led=None, buzzer=None, sound=True):
        self.led, self.buzzer, self.sound = led, buzzer, sound
        self.playing = None
        """The name of the pattern playing, or ``None``."""
        self.played = []
        """Names of the patterns started, oldest first (the last 16)."""
        self._steps = ()
        self._index = 0
        self._since = 0

    def play(self, name, now):
        """Start pattern ``name`` at tick ``now``; unknown names are ignored."""
        steps = PATTERNS.get(name)
        if steps is None:
            return
        self.playing, self._steps, self._index, self._since = name, steps, 0, now
        self.played = self.played[-15:] + [name]
        self._output(steps[0])

    def tick(self, now):
        """Advance the pattern; call it from the main loop, as often as convenient."""
        while self.playing is not None:
            duration = self._steps[self._index][0]
            if ticks_diff(now, self._since) < duration:
                return
            self._since = ticks_add(self._since, duration)
            self._index += 1
            if self._index >= len(self._steps):
                self.playing = None
                self._output((0, OFF, False))
            else:
                self._output(self._steps[self._index])

    def _output(self, step):
        _, color, beep = step
        if self.led is not None:
            self.led.show(color)
        if self.buzzer is not None:
            if beep and self.sound:
                self.buzzer.on()
            else:
                self.buzzer.off()
