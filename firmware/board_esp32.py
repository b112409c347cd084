"""ESP32 DevKit (ESP32-WROOM-32) wiring: the RC522 on the VSPI bus, LED, buzzer, BOOT button.

=========  ====  ==========================================
name       GPIO  what
=========  ====  ==========================================
``sck``    18    RC522 SCK
``mosi``   23    RC522 MOSI
``miso``   19    RC522 MISO
``cs``     5     RC522 SDA (chip select)
``rst``    22    RC522 RST
``red``    25    LED red (through a resistor)
``green``  26    LED green
``blue``   27    LED blue
``buzzer`` 33    passive buzzer (through a transistor)
``safe``   0     the BOOT button: held at start = safe mode
``supply`` --    the middle of a resistor divider from the battery (GPIO32-39), if wired
=========  ====  ==========================================

Any of them can be changed with the config's ``pins`` field. The RC522 runs at 3.3 V. USB
serial goes through the board's USB-UART bridge, which is also the MicroPython REPL.

The ESP32 cannot see its own supply: a reader on a battery measures it through two
resistors (``hardware/wiring.md``), with ``"pins": {"supply": 35}``. The pin must be one of
ADC1's (GPIO32 to GPIO39), since ADC2 stops working while Wi-Fi is on. The ADC is set to
its widest range (11 dB, up to about 3.1 V at the pin), so two equal resistors
(``supply_divider`` 2, the default) measure up to about 6 V.

**A cinema mat** (:func:`make_mat`) has one MFRC522 per zone on the VSPI bus (``sck``,
``mosi``, ``miso`` as above), each with its own chip select and reset line, and no LED or
buzzer. Its defaults (:data:`MAT_PINS`) follow ``hardware/mat/``; any of them can be moved
with ``pins``, and zones 4 to 7 need theirs given:

=================  ===========  ==========================================
name               GPIO         what
=================  ===========  ==========================================
``cs0`` ``rst0``   5, 22        zone 0 (theater slot, left): SDA and RST
``cs1`` ``rst1``   17, 21       zone 1 (theater slot, middle)
``cs2`` ``rst2``   16, 25       zone 2 (theater slot, right)
``cs3`` ``rst3``   4, 26        zone 3 (the exit zone)
``safe``           0            the BOOT button: held at start = safe mode
``supply``         --           as for a bag reader
=================  ===========  ==========================================
"""

import machine
from board import Board, Buzzer, MatBoard, RgbLed, Supply, output, pins

PINS = {"sck": 18, "mosi": 23, "miso": 19, "cs": 5, "rst": 22, "red": 25, "green": 26,
        "blue": 27, "buzzer": 33, "safe": 0, "supply": None}
"""Default GPIO numbers (``None``: not wired)."""
ADC1_PINS = (32, 33, 34, 35, 36, 37, 38, 39)
"""The GPIOs of ADC1, the ADC that keeps working while Wi-Fi is on."""
DIVIDER = 2
"""The supply divider's ratio unless the config says otherwise: two equal resistors."""
SPI_ID = 2
"""VSPI."""
SPI_BAUD = 2000000
"""2 MHz: safe on jumper wires (the RC522 takes up to 10 MHz)."""
MAT_PINS = {"sck": 18, "mosi": 23, "miso": 19, "safe": 0, "supply": None,
            "cs0": 5, "rst0": 22, "cs1": 17, "rst1": 21, "cs2": 16, "rst2": 25,
            "cs3": 4, "rst3": 26, "cs4": None, "rst4": None, "cs5": None, "rst5": None,
            "cs6": None, "rst6": None, "cs7": None, "rst7": None}
"""A mat's default GPIO numbers (``None``: not wired)."""
MAT_SPI_BAUD = 4000000
"""4 MHz: a mat's chips sit on one board with short traces (the RC522 takes up to 10 MHz);
``spi_baud`` in the config changes it."""


def supply(number, divider=None):
    """The :class:`~board.Supply` on GPIO ``number`` (``None``: nothing wired); raises
    ``ValueError`` for a pin outside ADC1."""
    if number is None:
        return None
    if number not in ADC1_PINS:
        raise ValueError("the supply pin must be GPIO32 to GPIO39 (ADC1), not " + repr(number))
    adc = machine.ADC(machine.Pin(number))
    adc.atten(machine.ADC.ATTN_11DB)
    return Supply(adc, DIVIDER if divider is None else divider)


def make(overrides=None, divider=None):
    """The :class:`~board.Board` of an ESP32 reader; ``divider``: the supply divider's
    ratio (``None``: :data:`DIVIDER`)."""
    p = pins(PINS, overrides)
    Pin = machine.Pin
    spi = machine.SPI(SPI_ID, baudrate=SPI_BAUD, polarity=0, phase=0, sck=Pin(p["sck"]),
                      mosi=Pin(p["mosi"]), miso=Pin(p["miso"]))
    cs = Pin(p["cs"], Pin.OUT, value=1)
    rst = output(p["rst"])
    led = RgbLed(output(p["red"]), output(p["green"]), output(p["blue"]))
    buzzer = Buzzer(Pin(p["buzzer"])) if p["buzzer"] is not None else None
    safe_pin = Pin(p["safe"], Pin.IN, Pin.PULL_UP) if p["safe"] is not None else None
    return Board("esp32", spi, cs, rst, led, buzzer,
                 lambda: safe_pin is not None and safe_pin.value() == 0, timer_id=0,
                 supply=supply(p["supply"], divider))


def make_mat(overrides=None, divider=None, zones=4, baud=None):
    """The :class:`~board.MatBoard` of an ESP32 cinema mat with ``zones`` zones; ``baud``: the
    SPI speed (``None``: :data:`MAT_SPI_BAUD`). Raises ``ValueError`` for a zone whose chip
    select or reset pin is not given."""
    p = pins(MAT_PINS, overrides)
    Pin = machine.Pin
    wiring = []
    for zone in range(zones):
        cs, rst = p["cs" + str(zone)], p["rst" + str(zone)]
        if cs is None or rst is None:
            raise ValueError("zone " + str(zone) + " needs its pins cs" + str(zone) + " and rst"
                             + str(zone))
        wiring.append((cs, rst))
    spi = machine.SPI(SPI_ID, baudrate=baud or MAT_SPI_BAUD, polarity=0, phase=0,
                      sck=Pin(p["sck"]), mosi=Pin(p["mosi"]), miso=Pin(p["miso"]))
    chips = [(Pin(cs, Pin.OUT, value=1), Pin(rst, Pin.OUT, value=0)) for cs, rst in wiring]
    safe_pin = Pin(p["safe"], Pin.IN, Pin.PULL_UP) if p["safe"] is not None else None
    return MatBoard("esp32", spi, chips, lambda: safe_pin is not None and safe_pin.value() == 0,
                    timer_id=0, supply=supply(p["supply"], divider))
