"""Dice Duel, installed for the tests as its own distribution would be.

The fixture writes the distribution's metadata (``dice_duel-0.1.dist-info`` with its
``entry_points.txt``: group ``popcorn_companion.games``, name ``dice-duel``) into a folder of
its own, and puts that folder on the import path of this process and of the commands it
starts: exactly what ``pip install --target`` of a game's wheel leaves. The core finds the
game there; no file of the core names it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion import games

ENTRY_POINT = "tests.third_game.dice_duel:game"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Dice Duel registered by entry point; yields the folder it is installed in."""
    site = tmp_path_factory.mktemp("site")
    info = site / "dice_duel-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: dice-duel\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        f"[popcorn_companion.games]\ndice-duel = {ENTRY_POINT}\n")
    sys.path.insert(0, str(site))
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(site), old]))
    games.game_ids.cache_clear()
    try:
        yield site
    finally:
        sys.path.remove(str(site))
        if old is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = old
        games.game_ids.cache_clear()
