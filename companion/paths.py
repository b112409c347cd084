"""Where the companion keeps its files on the user's machine."""

from __future__ import annotations

import os
from pathlib import Path

APP = "popcorn-companion"
"""The folder name used under the user's data directory."""


def data_dir(home: Path | None = None) -> Path:
    """The user's data directory for the companion (``$XDG_DATA_HOME`` or ``~/.local/share``).

    With ``home``, another account's: ``HOME/.local/share/popcorn-companion``, since that
    account's environment (and so its ``$XDG_DATA_HOME``) is not ours to read; this is where
    a system service running as that account keeps its database.
    """
    if home is not None:
        return home / ".local" / "share" / APP
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / APP
