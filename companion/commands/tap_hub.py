"""What ``readers tap`` asks the hub, over its REST API: where a reader sits, which tag is
which piece, what a table looks like, and what the hub made of a tap.

:class:`HubClient` wraps the few routes the command reads (``/api/readers``,
``/api/tables/{id}``, ``/api/tables/{id}/replay``, ``/api/tags`` with the admin PIN, and
``/api/tags/counts``) and turns a hub that cannot be reached into :class:`HubUnreachable`,
and a refusal into :class:`TapError` with the hub's sentence. :func:`describe_steps` and
:func:`describe_alert` put the hub's answer into one or two lines. Nothing here knows a
game: pieces are the registry's ``game``/``kind``/``value``, moves are the replay's JSON.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.kit.http import HttpError, call


class TapError(Exception):
    """A line that cannot be tapped: the message says why, and the command reads on."""


class HubUnreachable(TapError):
    """The hub did not answer at all (not started, another address or port)."""


@dataclass(frozen=True)
class Seat:
    """Where a reader sits: its table (``None`` when no table binds it) and seat, and
    whether it is a ``bag`` reader or a ``mat``."""

    reader: str
    table: str | None
    seat: int | None
    online: bool
    kind: str = "bag"


@dataclass(frozen=True)
class Snapshot:
    """A table as it was just before a tap: enough to tell what the tap changed."""

    table: dict[str, Any]
    """``GET /api/tables/{id}``: the info, ``view`` and open ``alerts``."""
    steps: int | None
    """How many steps the table's replay had (``None`` when the game has no replay)."""

    @property
    def events(self) -> int:
        """The table's log length."""
        return int(self.table.get("events", 0))

    @property
    def alert_ids(self) -> set[int]:
        """The ids of the alerts open before the tap."""
        return {int(a["id"]) for a in self.table.get("alerts", []) if "id" in a}


class HubClient:
    """The hub's REST API at ``base`` (``http://127.0.0.1:8000``), read as ``readers tap``
    needs it (``host:port`` is taken for ``http://host:port``); ``admin_pin`` unlocks the
    tag registry."""

    def __init__(self, base: str, admin_pin: str | None, timeout: float = 10.0) -> None:
        base = base if "://" in base else f"http://{base}"
        self.base, self.admin_pin, self.timeout = base.rstrip("/"), admin_pin, timeout

    def get(self, path: str, headers: dict[str, str] | None = None) -> Any:
        """``GET base + path`` as JSON; :class:`HubUnreachable` or :class:`TapError`."""
        try:
            return call(self.base + path, headers=headers, timeout=self.timeout)
        except HttpError as exc:
            raise TapError(f"the hub refused {path}: {exc.code}: {exc.message}") from exc
        except (OSError, ValueError) as exc:
            raise HubUnreachable(f"hub not reachable at {self.base} ({_reason(exc)}); start "
                                 "it with popcorn-companion serve, or give --hub URL") from exc

    def send(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """``method base + path`` with the admin PIN; :class:`TapError` on a refusal."""
        headers = {"X-Admin-Pin": self.admin_pin or ""}
        try:
            return call(self.base + path, method, body if body is not None else {}, headers,
                        timeout=self.timeout)
        except HttpError as exc:
            raise TapError(f"the hub refused {method} {path}: {exc.code}: {exc.message}") \
                from exc
        except (OSError, ValueError) as exc:
            raise HubUnreachable(f"hub not reachable at {self.base} ({_reason(exc)})") from exc

    def check(self) -> None:
        """Raise :class:`HubUnreachable` unless the hub answers ``/api/health``."""
        self.get("/api/health")

    def seats(self) -> dict[str, Seat]:
        """Where the hub has each reader it knows, by reader id."""
        return {e["reader"]: Seat(e["reader"], e.get("table"), e.get("seat"),
                                  bool(e.get("online")), str(e.get("kind", "bag")))
                for e in self.get("/api/readers")}

    def seat_of(self, reader: str) -> Seat | None:
        """Where the hub has ``reader`` (``None``: the hub does not know it)."""
        return self.seats().get(reader)

    def tables(self) -> dict[str, dict[str, Any]]:
        """Every table's info by id."""
        return {t["id"]: t for t in self.get("/api/tables")}

    def snapshot(self, table: str) -> Snapshot:
        """The table and its replay's length, just before a tap."""
        return Snapshot(self.get(f"/api/tables/{table}"), self.step_count(table))

    def step_count(self, table: str) -> int | None:
        """How many steps the table's replay has; ``None`` for a game that cannot replay."""
        try:
            return int(self.get(f"/api/tables/{table}/replay")["moves"])
        except TapError as exc:
            if isinstance(exc, HubUnreachable):
                raise
            return None

    def steps_since(self, table: str, count: int) -> list[dict[str, Any]]:
        """The replay's steps after the first ``count``."""
        return list(self.get(f"/api/tables/{table}/replay")["steps"][count:])

    def kinds(self) -> list[dict[str, Any]]:
        """Every kind of piece of every hosted game, with its values and titles (no PIN)."""
        return list(self.get("/api/tags/counts")["pieces"])

    def enrolling(self) -> bool:
        """Whether the hub is enrolling tags (then a tap enrolls and plays nothing)."""
        return self.get("/api/tags/counts").get("enrolling_piece") is not None

    def pieces(self) -> list[dict[str, Any]]:
        """The tag registry's pieces (``uid``, ``game``, ``kind``, ``id``, ``value``)."""
        if not self.admin_pin:
            raise TapError("give --admin-pin PIN (serve prints it) to tap a color, a card or "
                           "a token: only the hub's admin may read which tag is which; a tag "
                           "UID works without it")
        try:
            return list(call(self.base + "/api/tags", headers={"X-Admin-Pin": self.admin_pin},
                             timeout=self.timeout)["pieces"])
        except HttpError as exc:
            raise TapError(f"the hub refused the admin PIN ({exc.code}: {exc.message})") \
                from exc
        except (OSError, ValueError) as exc:
            raise HubUnreachable(f"hub not reachable at {self.base} ({_reason(exc)})") from exc


def _reason(exc: Exception) -> str:
    """A short reason for a failed request (urllib wraps the socket's in ``reason``)."""
    return str(getattr(exc, "reason", None) or exc)


def describe_alert(alert: dict[str, Any]) -> list[str]:
    """An alert in two lines: its code and message, then its fix."""
    lines = [f"hub: alert {alert.get('code')}: {alert.get('message', '')}".rstrip()]
    if alert.get("fix"):
        lines.append(f"     fix: {alert['fix']}")
    return lines


def describe_step(step: dict[str, Any], names: list[str], colors: dict[int, str]) -> str:
    """One replay step in words: ``draw_pawn by Ana (pawn 30, blue)``."""
    kind = step.get("move", "?")
    player = step.get("player")
    who = f" by {names[player]}" if isinstance(player, int) and 0 <= player < len(names) else ""
    facts = []
    for key, value in step.items():
        if key in ("move", "player", "round"):
            continue
        facts.append(f"{key} {value}")
        if key == "pawn" and isinstance(value, int) and value in colors:
            facts.append(colors[value])
    return f"{kind}{who}" + (f" ({', '.join(facts)})" if facts else "")


def describe_steps(steps: list[dict[str, Any]], names: list[str],
                   colors: dict[int, str], most: int = 3) -> str:
    """The moves a tap recorded, on one line (the first ``most``, then how many more)."""
    words = [describe_step(step, names, colors) for step in steps[:most]]
    more = f"; and {len(steps) - most} more" if len(steps) > most else ""
    return "hub: recorded " + "; ".join(words) + more
