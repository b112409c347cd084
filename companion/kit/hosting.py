"""What a game's own code may ask of the hub that hosts it: its tables (for the game's
routes), and for a demo, its tag registry, new tables and moves sent as the tablet sends
them, and virtual readers to tap on. The hub (``companion/hub``) provides all of it; a game
names only these protocols, never the hub.
"""

from __future__ import annotations

import argparse
import threading
from collections.abc import Callable, Mapping
from types import TracebackType
from typing import TYPE_CHECKING, Any, Protocol

from .pieces import PieceKind
from .rules import Titled


class HostedTable(Protocol):
    """A table as a game's own routes read it (:class:`companion.table.table.Table`)."""

    state: Any
    count: int
    hints: bool
    entries: list[dict[str, Any]]

    @property
    def game(self) -> Titled:
        """The table's game (its id and title)."""
        ...


class DemoTable(Protocol):
    """A table as a game's demo players drive it (the hub's own, or one of a hub in another
    process seen over HTTP): its id, its seats' readers, its state and its move count."""

    @property
    def id(self) -> str:
        """The table's id (in its URL)."""
        ...

    @property
    def state(self) -> Any:
        """The game's state (the game's own class)."""
        ...

    @property
    def count(self) -> int:
        """How many moves the table has applied."""
        ...

    @property
    def config(self) -> TableSetup:
        """The table's setup: its seats' readers."""
        ...


class TableSetup(Protocol):
    """What a game's demo reads of a table's configuration."""

    @property
    def readers(self) -> list[str]:
        """The reader id of each seat, in seat order."""
        ...


class HostLock(Protocol):
    """The hub's lock, as a ``with`` statement holds it."""

    def __enter__(self) -> object:
        """Take the lock."""
        ...

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> bool | None:
        """Let it go."""
        ...


class TableHost(Protocol):
    """What a game's own routes may ask of the hub: its lock (held while a table is read)
    and a table by id (``TABLE_NOT_FOUND`` otherwise)."""

    @property
    def lock(self) -> HostLock:
        """The hub's lock."""
        ...

    def table(self, table_id: str) -> HostedTable:
        """The table ``table_id``, or a :class:`~companion.kit.errors.TableError`."""
        ...


class DemoRegistry(Protocol):
    """The tag registry as a game's demo (or an author's test) fills it with made-up tags:
    the kinds of pieces the hosted games declare, a whole kind tagged at once, and its JSON
    form to export and import."""

    def kind(self, game: Any, kind: Any) -> PieceKind:
        """The kind ``kind`` of ``game``'s pieces, as the game declares it (its values and
        how many pieces carry each)."""
        ...

    def tag_kind(self, game: str, kind: str, uids: Mapping[int, str]) -> int:
        """Give the pieces of a kind these tags (piece number -> UID), in place of the
        kind's tags so far; returns how many tags the registry holds."""
        ...

    def export(self) -> dict[str, Any]:
        """The registry as JSON (``docs/api.md``, "The tag registry")."""
        ...

    def import_(self, doc: Any) -> int:
        """Replace the registry with ``doc``; returns how many tags it holds."""
        ...


class DemoHub(TableHost, Protocol):
    """The hub as ``popcorn-companion demo`` hands it to a game's :meth:`GameKind.start_demo`:
    its tag registry, a new table, and moves sent as the tablet sends them."""

    @property
    def registry(self) -> DemoRegistry:
        """The hub's tag registry."""
        ...

    def create_table(self, players: Any, readers: Any, first_player: Any = 0,
                     name: Any = None, deal_seed: Any = None, hints: Any = True,
                     game: Any = ..., options: dict[str, Any] | None = None,
                     mats: Any = None) -> tuple[DemoTable, str, list[str]]:
        """A new table, its PIN and its players' tokens (arguments as a request gives them:
        the hub checks each; ``mats``: a mat's id per seat)."""
        ...

    def submit(self, table_id: str, move: Any, source: str = "tablet") -> object:
        """Apply ``move`` (a move's JSON) at a table, as the tablet would."""
        ...


class Tapper(Protocol):
    """Virtual readers a demo taps on (:class:`companion.readers.virtual.SerialBank` or
    ``MqttBank``): a tag laid on the reader ``reader``."""

    def tap(self, reader: str, uid: str) -> object:
        """Tap ``uid`` on ``reader``."""
        ...


class MatHand(Protocol):
    """A virtual mat a demo's players set pieces down on
    (:class:`companion.readers.virtual.VirtualMat`): ``reader`` its id, ``zones`` the UIDs
    lying on each zone."""

    reader: str
    zones: list[list[str]]

    def set_down(self, zone: int, *uids: str) -> object:
        """Tags set down on ``zone``."""
        ...

    def take_up(self, *uids: str) -> object:
        """Tags taken off the mat."""
        ...

    def move(self, uid: str, zone: int) -> object:
        """A tag carried to ``zone`` from wherever it lay on the mat."""
        ...

    @property
    def pending(self) -> int:
        """How many of the mat's reports the hub has not acked yet."""
        ...


class DemoPlayers(Protocol):
    """Scripted players playing a demo table in a thread of their own."""

    @property
    def thread(self) -> threading.Thread | None:
        """The players' thread, once started."""
        ...

    @property
    def stop(self) -> threading.Event:
        """Set it to stop the players."""
        ...


if TYPE_CHECKING:  # argparse's class is generic in its stubs only
    Subcommands = argparse._SubParsersAction[argparse.ArgumentParser]
    """The subcommands of an argparse parser (what ``add_subparsers()`` returns)."""

Progress = Callable[[int, int], None]
"""Told ``(done, total)`` as a long job goes on (an advisor's analysis: moves of the record
gone through), so that a screen can show a progress bar."""
