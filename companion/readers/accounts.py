"""Broker accounts: one user per reader, and the topic rules that keep readers apart.

On the hub's own broker every reader logs in as itself (user name = reader id) with a
password made for it once. The ACL lets a reader write only its own ``event`` and ``status``
topics (its last will is on ``status``) and read only its own ``cmd`` topic, so a reader, or
whoever holds its password, can neither tap as another reader nor read or forge another
reader's acks. The hub's own user may read and write every topic of the protocol.
"""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path

from . import topics

HUB_USER = "_hub"
"""The hub's own account. A reader id starts with a letter or a digit, so no reader can
ever be called this."""


def acl_text() -> str:
    """Mosquitto's ``acl_file``: ``%u`` is the user name, which for a reader is its id."""
    mine = f"{topics.PREFIX}/+/reader/%u"
    return "\n".join([
        "# written by popcorn-companion; rewritten at every start",
        "# a reader: its own event and status topics (the last will too), its own commands",
        f"pattern write {mine}/event",
        f"pattern write {mine}/status",
        f"pattern read {mine}/cmd",
        "# the hub: everything of the protocol",
        f"user {HUB_USER}",
        f"topic readwrite {topics.PREFIX}/#",
        "",
    ])


class ReaderAccounts:
    """Reader id to password, made on first use and kept in a JSON file (or in memory).

    The file is written whole (0600, replaced atomically) each time a reader is added, so
    a reader flashed with its password keeps working across hub restarts.
    """

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self.passwords: dict[str, str] = {}
        if path is not None and path.exists():
            self.passwords = dict(json.loads(path.read_text(encoding="utf-8")))

    def ensure(self, reader: str) -> bool:
        """Give ``reader`` a password if it has none; True if one was made now."""
        if reader in self.passwords:
            return False
        self.passwords[reader] = secrets.token_urlsafe(12)
        self._save()
        return True

    def _save(self) -> None:
        if self.path is None:
            return
        tmp = self.path.with_name(self.path.name + ".new")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(self.passwords, out, indent=1, sort_keys=True)
            out.write("\n")
        os.replace(tmp, self.path)
