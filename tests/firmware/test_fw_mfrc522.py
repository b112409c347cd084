"""The MFRC522 driver, end to end against the register-level RC522 fake and its ISO tags."""

from __future__ import annotations

import mfrc522
import pytest
from mfrc522 import MFRC522, RfidError, hexlify, level_bytes

from tests.firmware.fake_rc522 import FakeRC522, Tag, crc_a, with_crc

NTAG = "04a1b2c3d4e5f6"
"""A 7-byte NTAG213-style UID (NXP manufacturer byte 0x04 first)."""


def reader(chip: FakeRC522) -> MFRC522:
    """A driver on the chip's SPI bus, set up."""
    driver = MFRC522(chip.spi, chip.cs)
    driver.init()
    return driver


def poll(driver: MFRC522, known: list[bytes] | None = None) -> list[str]:
    """One scan, as hex UIDs."""
    return [hexlify(uid) for uid in driver.scan(known or [])]


def test_crc_a_matches_the_iso_example() -> None:
    """The fake's CRC_A gives the standard's HLTA frame, 50 00 57 CD."""
    assert crc_a(b"\x50\x00") == 0xCD57
    assert with_crc(b"\x50\x00") == bytes.fromhex("500057cd")


def test_the_driver_computes_crc_a_with_the_coprocessor() -> None:
    """The driver's CRC (from CRCResultReg after CalcCRC) equals a software CRC_A."""
    driver = reader(FakeRC522())
    for data in (b"\x50\x00", b"\x93\x70\x88\x04\xa1\xb2\x9f", bytes(range(20))):
        crc = crc_a(data)
        assert driver.crc(data) == bytes((crc & 0xFF, crc >> 8))


def test_init_sets_the_chip_up() -> None:
    """Soft reset, timer with TAuto, CRC preset 6363 and the antenna on."""
    chip = FakeRC522()
    assert chip.regs[0x14] & 0x03 == 0  # antenna off after reset
    assert MFRC522(chip.spi, chip.cs).init() == 0x92
    assert chip.regs[0x14] & 0x03 == 0x03
    assert chip.regs[0x2A] & 0x80  # TAuto
    assert chip.regs[0x11] & 0x03 == 0x01  # CRCPreset 6363
    assert chip.cs.level == 1, "chip select left low"


def test_no_chip_on_the_bus_is_an_error() -> None:
    """MISO floating high (no RC522 wired) makes init fail instead of reading nonsense."""
    chip = FakeRC522()
    chip.dead = True
    with pytest.raises(RfidError):
        MFRC522(chip.spi, chip.cs, timeout_ms=20).init()


def test_without_init_no_tag_is_seen() -> None:
    """The fake is strict: with the antenna off after reset, tags hear nothing."""
    chip = FakeRC522()
    chip.place(Tag(NTAG))
    driver = MFRC522(chip.spi, chip.cs)
    assert driver.scan() == []


@pytest.mark.parametrize(("uid", "levels"), [
    ("a1b2c3d4", [0x93]),
    (NTAG, [0x93, 0x95]),
    ("0102030405060708090a", [0x93, 0x95, 0x97]),
])
def test_every_uid_size_is_read_through_its_cascade_levels(uid: str, levels: list[int]) -> None:
    """4, 7 and 10-byte UIDs: one SELECT per cascade level, the cascade tag stripped."""
    chip = FakeRC522()
    tag = chip.place(Tag(uid))
    driver = reader(chip)
    assert poll(driver) == [uid]
    selects = [frame[0] for frame, bits in chip.frames if bits == 72]
    assert selects == levels
    assert tag.state == "HALT" and tag.selections == 1
    assert driver.errors == 0


def test_the_first_request_after_start_is_reqa_and_halted_tags_ignore_it() -> None:
    """A tag read once is halted: REQA no longer wakes it, so it is checked with WUPA."""
    chip = FakeRC522()
    tag = chip.place(Tag(NTAG))
    driver = reader(chip)
    first = poll(driver)
    assert chip.frames[0] == (b"\x26", 7)  # REQA, a 7-bit short frame
    assert tag.state == "HALT"
    assert driver.read_uid(wake=False) is None  # REQA: the halted tag stays silent
    chip.frames.clear()
    assert poll(driver, [bytes.fromhex(first[0])]) == [NTAG]
    assert chip.frames[0] == (b"\x52", 7)  # WUPA for the known tag


def test_a_resting_tag_is_seen_at_every_poll_and_a_lifted_one_is_not() -> None:
    """Known tags are confirmed with WUPA + SELECT; lifting one makes it vanish."""
    chip = FakeRC522()
    tag = chip.place(Tag(NTAG))
    driver = reader(chip)
    known = driver.scan([])
    for _ in range(5):
        known = driver.scan(known)
        assert [hexlify(u) for u in known] == [NTAG]
    chip.lift(tag)
    assert driver.scan(known) == []
    chip.place(tag)
    assert poll(driver) == [NTAG]


def test_several_tags_at_once_are_all_read_through_collisions() -> None:
    """Three tags answer together; bitwise anticollision separates them."""
    chip = FakeRC522()
    uids = ["04a1b2c3d4e5f6", "04a1b2c3d4e5f7", "11223344"]
    for uid in uids:
        chip.place(Tag(uid))
    driver = reader(chip)
    known = driver.scan([], max_new=3)
    assert sorted(hexlify(u) for u in known) == sorted(uids)
    assert sum(1 for reg in chip.frames if reg[1] not in (7, 72, 32)) > 3  # anticollision loops
    again = driver.scan(known, max_new=3)
    assert sorted(again) == sorted(known), "resting tags must still be seen"
    assert driver.errors == 0


def test_tags_sharing_their_first_cascade_level() -> None:
    """Two 7-byte UIDs equal in their first three bytes: both are selected at level 1 and
    told apart at level 2."""
    chip = FakeRC522()
    chip.place(Tag("04a1b2c3000000"))
    chip.place(Tag("04a1b2ffffffff"))
    driver = reader(chip)
    assert sorted(poll(driver)) == ["04a1b2c3000000", "04a1b2ffffffff"]


def test_a_bad_bcc_is_rejected() -> None:
    """A tag whose check byte does not match its UID bytes is never reported."""
    chip = FakeRC522()
    chip.place(Tag(NTAG, bad_bcc=True))
    driver = reader(chip)
    for _ in range(4):
        assert poll(driver) == []
    assert driver.errors >= 2 and driver.last_error == "BCC mismatch"


def test_a_bad_crc_is_rejected() -> None:
    """A SAK whose CRC_A is wrong is refused."""
    chip = FakeRC522()
    chip.place(Tag("a1b2c3d4", bad_crc=True))
    driver = reader(chip)
    for _ in range(4):
        assert poll(driver) == []
    assert driver.errors >= 2 and driver.last_error == "SAK CRC mismatch"


def test_a_tag_that_recovers_is_read() -> None:
    """After a transient error the tag is left awake and read at a later poll."""
    chip = FakeRC522()
    tag = chip.place(Tag(NTAG, bad_crc=True))
    driver = reader(chip)
    assert poll(driver) == []
    tag.bad_crc = False
    results = [poll(driver) for _ in range(3)]
    assert [NTAG] in results


def test_a_tag_lifted_during_anticollision_is_an_error_not_a_crash() -> None:
    """The tag vanishes between ATQA and anticollision."""
    chip = FakeRC522()
    tag = chip.place(Tag(NTAG))
    driver = reader(chip)
    real = driver.request

    def request_then_lift(wake: bool = False) -> bytes | None:
        answer = real(wake)
        chip.lift(tag)
        return answer

    driver.request = request_then_lift  # type: ignore[method-assign]
    assert driver.scan() == []
    assert driver.last_error == "the tag left during anticollision"


def test_level_bytes_carry_the_cascade_tag_and_bcc() -> None:
    """The driver's own split of a UID into cascade levels."""
    parts = level_bytes(bytes.fromhex(NTAG))
    assert parts[0][:4] == bytes.fromhex("8804a1b2") and parts[1][:4] == bytes.fromhex("c3d4e5f6")
    assert all(p[4] == p[0] ^ p[1] ^ p[2] ^ p[3] for p in parts)
    with pytest.raises(ValueError):
        level_bytes(b"\x01\x02")


def test_a_single_size_uid_may_not_start_with_the_cascade_tag() -> None:
    """0x88 as the first byte of a complete UID is a broken frame, not a UID."""
    chip = FakeRC522()
    chip.place(Tag("88a1b2c3"))
    driver = reader(chip)
    assert poll(driver) == []
    assert "cascade tag" in (driver.last_error or "")


def test_hexlify_is_lowercase_without_separators() -> None:
    """The form the hub stores."""
    assert mfrc522.hexlify(b"\x04\xab\x00\xff") == "04ab00ff"
