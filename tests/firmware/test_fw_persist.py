"""The boot id survives reboots, changes at each, and is written with temp + rename."""

from __future__ import annotations

import os
from pathlib import Path

import persist
import pytest


def test_each_start_gets_the_next_boot_id(tmp_path: Path) -> None:
    """Three "reboots": three consecutive ids, stored before use, no temp file left."""
    path = str(tmp_path / "state.json")
    first = persist.next_boot(path)
    assert persist.read_boot(path) == first
    assert [persist.next_boot(path) for _ in range(2)] == [(first + 1) & persist.MASK,
                                                           (first + 2) & persist.MASK]
    assert sorted(os.listdir(tmp_path)) == ["state.json"]


def test_the_first_boot_id_is_random(tmp_path: Path) -> None:
    """Two readers whose files were lost do not both restart at 1."""
    ids = {persist.next_boot(str(tmp_path / f"s{i}.json")) for i in range(8)}
    assert len(ids) == 8


def test_the_counter_wraps_at_32_bits(tmp_path: Path) -> None:
    """After 2**32 - 1 comes 0."""
    path = str(tmp_path / "state.json")
    persist.write_boot(path, persist.MASK)
    assert persist.next_boot(path) == 0


def test_a_power_cut_before_the_rename_reuses_an_unused_id(tmp_path: Path) -> None:
    """The temp file was written, the rename did not happen: the old file still counts."""
    path = str(tmp_path / "state.json")
    persist.write_boot(path, 41)
    Path(path + ".tmp").write_text('{"boot": 42}')
    assert persist.next_boot(path) == 42


def test_a_damaged_file_falls_back_to_the_temp_file(tmp_path: Path) -> None:
    """A half-written main file: the temp file is read instead."""
    path = str(tmp_path / "state.json")
    Path(path).write_text('{"bo')
    Path(path + ".tmp").write_text('{"boot": 9}')
    assert persist.next_boot(path) == 10


@pytest.mark.parametrize("text", ['{"boot": -1}', '{"boot": "7"}', "[7]", "", '{"boot": 2.5}'])
def test_nonsense_in_the_file_is_not_a_boot_id(tmp_path: Path, text: str) -> None:
    """Wrong types and ranges are ignored (then a random id is used)."""
    path = str(tmp_path / "state.json")
    Path(path).write_text(text)
    assert persist.read_boot(path) is None


def test_a_rename_that_does_not_replace_is_handled(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """FAT's rename refuses an existing target: the old file is removed, then renamed."""
    path = str(tmp_path / "state.json")
    persist.write_boot(path, 5)
    real = os.rename

    def fat_rename(src: str, dst: str) -> None:
        if os.path.exists(dst):
            raise OSError(17, "exists")
        real(src, dst)

    monkeypatch.setattr(persist.os, "rename", fat_rename)
    assert persist.next_boot(path) == 6 and persist.read_boot(path) == 6
