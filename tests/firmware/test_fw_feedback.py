"""The hub's ok / warn / error on the LED and buzzer, played step by step without blocking."""

from __future__ import annotations

from feedback import GREEN, OFF, PATTERNS, RED, YELLOW, Player

from tests.firmware.harness import Clock


class Led:
    def __init__(self) -> None:
        self.color = OFF

    def show(self, color: tuple[int, int, int]) -> None:
        self.color = tuple(color)


class Beeper:
    def __init__(self) -> None:
        self.sounding = False
        self.starts = 0

    def on(self) -> None:
        if not self.sounding:
            self.starts += 1
        self.sounding = True

    def off(self) -> None:
        self.sounding = False


def sample(level: str, every: int = 10, sound: bool = True) -> tuple[list, int]:
    """Play ``level`` and sample the LED and buzzer every ``every`` ms until it ends."""
    led, beeper, clock = Led(), Beeper(), Clock()
    player = Player(led, beeper, sound)
    player.play(level, clock())
    samples = []
    while player.playing is not None:
        samples.append((led.color, beeper.sounding))
        player.tick(clock.advance(every))
    assert led.color == OFF and not beeper.sounding, "a pattern must end dark and silent"
    return samples, beeper.starts


def test_ok_is_a_short_green_blink_and_one_beep() -> None:
    """Green for 150 ms, one beep."""
    samples, beeps = sample("ok")
    assert {color for color, _ in samples} == {GREEN}
    assert len(samples) == 15 and beeps == 1


def test_warn_is_yellow_with_two_beeps() -> None:
    """Yellow blinks twice, two beeps."""
    samples, beeps = sample("warn")
    assert YELLOW in {color for color, _ in samples} and beeps == 2


def test_error_is_red_with_one_long_beep() -> None:
    """Red, and a beep far longer than ok's."""
    samples, beeps = sample("error")
    assert {color for color, _ in samples} == {RED} and beeps == 1
    assert sum(1 for _, beep in samples if beep) * 10 >= 500


def test_sound_can_be_turned_off() -> None:
    """buzzer: false in the config: the light alone."""
    samples, beeps = sample("error", sound=False)
    assert beeps == 0 and samples


def test_a_new_pattern_replaces_the_one_playing() -> None:
    """An error during an ok blink shows at once."""
    led, clock = Led(), Clock()
    player = Player(led, None)
    player.play("ok", clock())
    player.tick(clock.advance(20))
    player.play("error", clock())
    assert led.color == RED and player.playing == "error"
    assert player.played == ["ok", "error"]


def test_a_late_tick_catches_up() -> None:
    """A tick long after the end finishes the pattern in one call."""
    led, clock = Led(), Clock()
    player = Player(led, Beeper())
    player.play("warn", clock())
    player.tick(clock.advance(10_000))
    assert player.playing is None and led.color == OFF


def test_unknown_levels_are_ignored() -> None:
    """Only the named patterns play."""
    player = Player(Led(), Beeper())
    player.play("party", 0)
    assert player.playing is None
    assert set(PATTERNS) >= {"ok", "warn", "error"}
