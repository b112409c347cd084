"""Schemathesis against a real ``serve``: the hub's OpenAPI document, fuzzed operation by
operation (``tests/hub/test_fuzz_api.py`` runs a short campaign, ``bench/fuzz.py`` a long one).

:class:`Fuzzer` starts nothing itself: it is given a running hub (a
:class:`~companion.hub.remote.ServeProcess`), sets up what the operations need (a table
with "deal for us", an archived game), and sends each operation's cases with the table's
PIN, the admin PIN and seat 0's token as headers, the path's ``table_id`` and ``game_id``
the real ones. Each answer must not be a 5xx and must match the document (its status, its
content type, its body's schema, its headers); a refused request (4xx) must leave the table
(and, for their routes, the tag registry or the archive) as it was.
"""

from __future__ import annotations

import contextlib
import http.client
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import hypothesis
import schemathesis
from hypothesis import HealthCheck, Phase, settings
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from companion.hub.remote import ServeProcess
from companion.kit.http import call

CONFIG = SchemathesisConfig.from_dict(
    {"phases": {"stateful": {"inference": {"algorithms": []}}}})
"""Schemathesis's settings: a stateful run follows the document's own links only. Its
dependency analysis would add links it infers from the answers' schemas (any answer's
``id`` to every operation with an ``{id}``-like path parameter: a hosted game's id to an
archived game's routes), which send most chains astray."""

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance, response_headers_conformance]
"""What every answer is checked for."""

SPARED = frozenset({
    ("POST", "/api/tables/{table_id}/close"),  # would end the table the campaign plays on
    ("POST", "/api/tables/{table_id}/players/{seat}/token"),  # would void the campaign's token
    ("DELETE", "/api/archive/{game_id}"),  # would delete the campaign's archived game
    ("POST", "/api/archive/{game_id}/analysis"),  # minutes of CPU per game (bench only)
})
"""Operations the short campaign leaves out: they end what the others need, or are slow."""

RECORD = Path(__file__).resolve().parents[2] / "docs" / "examples" / "game-4p.jsonl"
"""The game record the campaign archives."""

READERS = ["fz-1", "fz-2"]
"""The campaign table's readers."""

ELSEWHERE = "127.0.0.2"
"""The loopback address the whole game after a campaign is played from: the campaign's own
(127.0.0.1) has sent wrong PINs (a negated security scheme leaves a fuzzed body's ``pin``
alone), so the hub rightly holds its PINs back for a while."""


@dataclass
class Report:
    """A campaign's outcome: requests sent, operations covered, and what failed."""

    requests: int = 0
    operations: set[str] = field(default_factory=set)
    failures: list[str] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    answers: dict[str, int] = field(default_factory=dict)
    restarts: int = 0

    def count(self, label: str, status: int) -> None:
        """One more request of operation ``label`` answered with ``status``."""
        self.requests += 1
        self.statuses[status] = self.statuses.get(status, 0) + 1
        key = f"{label} {status}"
        self.answers[key] = self.answers.get(key, 0) + 1

    def summary(self) -> str:
        """One line: requests, operations, failures, and the statuses seen."""
        seen = ", ".join(f"{s}: {n}" for s, n in sorted(self.statuses.items()))
        return (f"{self.requests} requests, {len(self.operations)} operations, "
                f"{len(self.failures)} failures (statuses {seen})")


class Fuzzer:
    """A campaign against ``server``, a running hub whose readers include :data:`READERS`."""

    def __init__(self, server: ServeProcess) -> None:
        self.server = server
        self.base = server.base
        self.table = server.create_table({"players": ["Ana", "Bob"], "readers": READERS,
                                          "deal_seed": 7})
        admin = {"X-Admin-Pin": server.admin_pin}
        archived = call(self.base + "/api/archive", "POST", {"record": RECORD.read_text()},
                        admin)
        self.game_id = archived["id"]
        self.headers = {"X-Table-Pin": self.table["pin"], "X-Admin-Pin": server.admin_pin,
                        "X-Player-Token": self.table["tokens"][0]}
        self.document = call(self.base + "/api/openapi.json")
        self.schema = schemathesis.openapi.from_dict(self.document, config=CONFIG)
        self.fixed = True

    def snapshot(self, path: str, table_id: str | None = None) -> list[Any]:
        """What a refused request at ``path`` must leave as it was: the table ``table_id``
        (by default the campaign's: its info, view and alerts), and the tag registry or the
        archive for their routes."""
        seen = [call(f"{self.base}/api/tables/{table_id or self.table['id']}")]
        if path.startswith(("/api/tags", "/api/enroll")):
            seen.append(call(f"{self.base}/api/tags/counts"))
        if path.startswith("/api/archive"):
            seen.append(call(f"{self.base}/api/archive?limit=100"))
        return seen

    def whole_game(self, seed: int = 3) -> dict[str, Any]:
        """A Popcorn game played to its end at a new table, from :data:`ELSEWHERE`, as the
        tablet and phones send it (runs of one player's moves as batches, with the PIN
        and that player's token); the table's info at the end."""
        from tests.hub.archive_games import popcorn_first_player, popcorn_game

        text, moves = popcorn_game(2, seed)
        info = self._elsewhere("POST", "/api/tables", {
            "players": ["Ana", "Bob"], "readers": ["fz-3", "fz-4"],
            "first_player": popcorn_first_player(text)}, {})
        run: list[Any] = []
        for move in [*moves, None]:
            if run and (move is None or move.player != run[0].player or len(run) == 64):
                headers = {"X-Table-Pin": info["pin"]}
                if run[0].player is not None:
                    headers["X-Player-Token"] = info["tokens"][run[0].player]
                self._elsewhere("POST", f"/api/tables/{info['id']}/moves",
                                {"moves": [m.to_dict() for m in run]}, headers)
                run = []
            run.append(move)
        return self._elsewhere("GET", f"/api/tables/{info['id']}", None, {})

    def _elsewhere(self, method: str, path: str, body: Any, headers: dict[str, str]) -> Any:
        """One request from :data:`ELSEWHERE`; its JSON answer, which must be a 2xx."""
        conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=30,
                                          source_address=(ELSEWHERE, 0))
        try:
            data = None if body is None else json.dumps(body).encode()
            conn.request(method, path, body=data,
                         headers={"Content-Type": "application/json", **headers})
            response = conn.getresponse()
            text = response.read().decode()
        finally:
            conn.close()
        assert 200 <= response.status < 300, f"{method} {path}: {response.status} {text}"
        return json.loads(text)

    def run(self, examples: int, spared: Iterable[tuple[str, str]] = SPARED,
            progress: Callable[[str], None] | None = None, fixed: bool = True,
            report: Report | None = None) -> Report:
        """Up to ``examples`` cases per operation and generation mode (positive, then
        negative), but for the ``spared`` operations; the same cases at every run unless
        not ``fixed``. Adds to ``report`` if given."""
        report = report or Report()
        self.fixed = fixed
        spared = set(spared)
        for result in self.schema.get_all_operations():
            operation = result.ok()
            if (operation.method.upper(), operation.path) in spared:
                continue
            label = f"{operation.method.upper()} {operation.path}"
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
                self._fuzz(operation, mode, examples, report)
            report.operations.add(label)
            if progress is not None:
                progress(f"{label}: {report.summary()}")
        return report

    def _fuzz(self, operation: Any, mode: GenerationMode, examples: int,
              report: Report) -> None:
        fixed = {name: value for name, value in
                 (("table_id", self.table["id"]), ("game_id", self.game_id))
                 if "{" + name + "}" in operation.path}
        strategy = operation.as_strategy(generation_mode=mode, path_parameters=fixed)

        @settings(max_examples=examples, deadline=None, database=None,
                  derandomize=self.fixed,
                  phases=[Phase.explicit, Phase.generate],
                  suppress_health_check=list(HealthCheck))
        @hypothesis.given(case=strategy)
        def one(case: Any) -> None:
            self._send(case, report)

        with contextlib.suppress(hypothesis.errors.Unsatisfiable):
            one()  # (unsatisfiable: a negative mode with nothing to negate)

    def _send(self, case: Any, report: Report) -> None:
        before = self.snapshot(case.path)
        response = case.call(base_url=self.base, headers=self.headers, timeout=30)
        report.count(f"{case.method} {case.path}", response.status_code)
        where = f"{case.method} {case.formatted_path} {_shown(case)}"
        try:
            case.validate_response(response, checks=CHECKS, headers=self.headers)
        except AssertionError as exc:  # schemathesis's failures are AssertionErrors
            report.failures.append(f"{where} -> {response.status_code}: {exc}"[:2000])
        if response.status_code >= 400 and self.snapshot(case.path) != before:
            report.failures.append(f"{where} -> {response.status_code} changed something")


def _shown(case: Any) -> str:
    """A case's query and body, short."""
    body = case.body if isinstance(case.body, dict | list | str | int | float) else None
    return json.dumps({"query": case.query, "body": body}, default=str)[:300]
