"""Where the companion keeps its files on the user's machine."""

from __future__ import annotations

import os
from pathlib import Path

APP = "popcorn-companion"
"""The folder name used under the user's data directory."""


def data_dir() -> Path:
    """The user's data directory for the companion (``$XDG_DATA_HOME`` or ``~/.local/share``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / APP
