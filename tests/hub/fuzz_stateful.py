"""Schemathesis's stateful run against a real ``serve``: chains of calls through the links
of the hub's OpenAPI document (create a table, read it, a seat's private view, the legal
move it offers, undo, an audit and its steps, the archive's games and their readings).

Each answer is checked as in the stateless campaign (:mod:`tests.hub.fuzzing`): no 5xx,
status, content type, body and headers as the document says, and a refused request leaves
its table as it was. The secrets are the client's own, as a tablet keeps them: the PIN and
tokens that a table's creation answered (shown once), for the tables the run made; the
campaign table's for any other; the admin PIN always.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Iterator
from typing import Any

import urllib3
from hypothesis import HealthCheck, Phase, settings
from hypothesis.errors import Flaky
from hypothesis.stateful import Bundle, initialize
from schemathesis.generation.stateful.state_machine import StepInput

from companion.kit.http import HttpError
from tests.hub.fuzzing import CHECKS, Fuzzer, Report, _shown

CREATE = "POST /api/tables"
"""The operation whose answer carries a new table's secrets."""

TABLES = itertools.count(1)
"""Numbers for the readers of the tables a scenario opens."""


def tablet_table() -> dict[str, Any]:
    """The body of a table as the setup screen creates it: two players, their own readers,
    "deal for us" on."""
    n = next(TABLES)
    return {"players": ["Ana", "Bob"], "readers": [f"st-{n}-1", f"st-{n}-2"], "deal_seed": n}


class Secrets:
    """The PIN and tokens of each table the run created, by table id."""

    def __init__(self, fuzzer: Fuzzer) -> None:
        self.fuzzer = fuzzer
        self.tables: dict[str, tuple[str, list[str]]] = {}

    def learn(self, case: Any, response: Any) -> None:
        """Keep a new table's secrets, and a seat's new token."""
        if response.status_code >= 300:
            return
        try:
            body = response.json()
        except ValueError:  # a record or a CSV
            return
        if f"{case.method} {case.path}" == CREATE:
            self.tables[body["id"]] = (body["pin"], list(body["tokens"]))
        elif case.path.endswith("/token") and self._known(case):
            self.tables[self._table(case)][1][int(body["seat"])] = body["token"]

    def headers(self, case: Any) -> dict[str, str]:
        """The secrets ``case`` is sent with: its table's PIN and its seat's token."""
        headers = dict(self.fuzzer.headers)
        if self._known(case):
            pin, tokens = self.tables[self._table(case)]
            seat = _seat(case, len(tokens))
            headers.update({"X-Table-Pin": pin, "X-Player-Token": tokens[seat]})
        return headers

    def snapshot(self, case: Any) -> list[Any] | None:
        """What a refusal of ``case`` must leave as it was (None: a table never made)."""
        table = self._table(case)
        if table is not None and not self._known(case) and table != self.fuzzer.table["id"]:
            return None
        try:
            return self.fuzzer.snapshot(case.path, table)
        except HttpError:
            return None

    def _table(self, case: Any) -> str | None:
        value = (case.path_parameters or {}).get("table_id")
        return None if value is None else str(value)

    def _known(self, case: Any) -> bool:
        return self._table(case) in self.tables


def _seat(case: Any, seats: int) -> int:
    """The seat whose token ``case`` carries: the path's, the move's player, or seat 0."""
    seat = (case.path_parameters or {}).get("seat")
    if seat is None and isinstance(case.body, dict) and isinstance(case.body.get("move"), dict):
        seat = case.body["move"].get("player")
    if isinstance(seat, str) and seat.isdigit():
        seat = int(seat)
    return seat if isinstance(seat, int) and 0 <= seat < seats else 0


class Addresses:
    """The loopback address each chain is sent from, the next one for each chain
    (127.0.0.10 to 127.0.0.249, round again). The hub holds back an address after five
    wrong PINs in a minute (:data:`companion.hub.pin_tries.PER_ADDRESS`), and a chain's
    negative cases send some: from one address, the first chains would leave every later
    one's PIN refused with 429, so that only they could reach a move or an undo."""

    def __init__(self) -> None:
        self._cycle = itertools.cycle(f"127.0.0.{n}" for n in range(10, 250))
        self.current = next(self._cycle)

    def next(self) -> None:
        """The next chain's address."""
        self.current = next(self._cycle)

    @contextlib.contextmanager
    def bound(self) -> Iterator[None]:
        """While inside, every new connection urllib3 opens (Schemathesis's requests) is
        made from :attr:`current`."""
        connect = urllib3.util.connection.create_connection

        def from_current(where: Any, *args: Any, **kwargs: Any) -> Any:
            kwargs["source_address"] = (self.current, 0)
            return connect(where, *args, **kwargs)

        urllib3.util.connection.create_connection = from_current
        try:
            yield
        finally:
            urllib3.util.connection.create_connection = connect


RESTARTS = 20
"""How often a run may start again after Hypothesis found it inconsistent."""


def run_stateful(fuzzer: Fuzzer, scenarios: int, steps: int,
                 report: Report | None = None) -> Report:
    """Up to ``scenarios`` chains of up to ``steps`` calls each; adds to ``report``.

    A hub is not a pure function: when Hypothesis replays a chain, the answers (and so the
    bundles of values the links draw from) may differ, and it stops with ``Flaky``. As
    Schemathesis's own runner does, the run then goes on with the chains left
    (``report.restarts`` counts these), up to :data:`RESTARTS` times.
    """
    report = report or Report()
    ended = [0]
    addresses = Addresses()
    machine = _machine(fuzzer, Secrets(fuzzer), report, ended, addresses)
    with addresses.bound():
        _run(machine, scenarios, steps, fuzzer.fixed, report, ended)
    return report


def _run(machine: Any, scenarios: int, steps: int, fixed: bool, report: Report,
         ended: list[int]) -> None:
    """Run ``machine`` until ``scenarios`` chains ended, starting again after each
    ``Flaky`` (at most :data:`RESTARTS` times)."""
    for _ in range(RESTARTS):
        left = scenarios - ended[0]
        if left <= 0:
            break
        try:
            machine.run(settings=settings(max_examples=left, stateful_step_count=steps,
                                          deadline=None, database=None,
                                          derandomize=fixed, phases=[Phase.generate],
                                          suppress_health_check=list(HealthCheck)))
            break
        except Flaky:
            report.restarts += 1


def _machine(fuzzer: Fuzzer, secrets: Secrets, report: Report, ended: list[int],
             addresses: Addresses) -> Any:
    """The document's state machine, sending with ``secrets``, adding to ``report``,
    counting the chains that ended in ``ended[0]``, each chain from the next of
    ``addresses``."""
    base = fuzzer.schema.as_state_machine()
    create = fuzzer.schema["/api/tables"]["POST"]

    class Machine(base):  # type: ignore[misc, valid-type]
        @initialize(target=Bundle("catch_all"))
        def a_tablet_opens_a_table(self) -> Any:
            """Each scenario starts where a table does: the setup screen creates it; the
            links lead on from its answer."""
            addresses.next()
            case = create.Case(body=tablet_table())
            self.recorder.record_case(case=case)
            return self.step(StepInput.initial(case))

        def teardown(self) -> None:
            ended[0] += 1
            super().teardown()

        def step(self, input: Any) -> Any:
            before = secrets.snapshot(input.case)
            output = super().step(input)
            status = output.response.status_code
            if status >= 400 and before is not None and secrets.snapshot(input.case) != before:
                report.failures.append(f"{_where(input.case)} -> {status} changed something")
            return output

        def get_call_kwargs(self, case: Any) -> dict[str, Any]:
            return {"base_url": fuzzer.base, "headers": secrets.headers(case), "timeout": 30}

        def after_call(self, response: Any, case: Any) -> None:
            super().after_call(response, case)
            report.count(f"{case.method} {case.path}", response.status_code)
            report.operations.add(f"{case.method} {case.path}")
            secrets.learn(case, response)

        def validate_response(self, response: Any, case: Any,
                              additional_checks: Any = None, **kwargs: Any) -> None:
            try:
                case.validate_response(response, checks=CHECKS,
                                       headers=kwargs.get("headers"))
            except AssertionError as exc:  # recorded, not raised: no shrinking
                report.failures.append(f"{_where(case)} -> {response.status_code}: "
                                       f"{exc}"[:2000])

    return Machine


def _where(case: Any) -> str:
    return f"{case.method} {case.formatted_path} {_shown(case)}"


def chained(report: Report) -> dict[str, int]:
    """How often the steps that only a chain reaches succeeded: a move played at a table
    the run made, undone, an audit started, and an archived game read (itself, its record,
    replay, views or analysis)."""
    table, game = "/api/tables/{table_id}", "/api/archive/{game_id}"
    wanted = {"move": [f"POST {table}/moves 200"], "undo": [f"POST {table}/undo 200"],
              "audit": [f"POST {table}/audits 201"],
              "archive": [f"GET {game}{tail} 200" for tail in
                          ("", "/record", "/replay", "/replay/views", "/analysis")]}
    return {name: sum(report.answers.get(key, 0) for key in keys)
            for name, keys in wanted.items()}
