"""Schemathesis against a real ``serve``, in the suite: every operation of the hub's OpenAPI
document fuzzed a little (positive and negative cases), then chains of calls through the
document's links; none answered with a 5xx or off the document, none refused after changing
its table, and a whole game played afterwards (``bench/fuzz.py`` runs the same campaign
longer)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.hub.remote import ServeProcess
from tests.hub.fuzz_stateful import chained, run_stateful
from tests.hub.fuzzing import READERS, SPARED, Fuzzer

EXAMPLES = 6
"""Cases per operation and generation mode: about 650 requests, well within two minutes."""

SCENARIOS, STEPS = 80, 25
"""Chains in the stateful run, and calls per chain at most: about 2,300 requests. A chain
reaches an undo only through a table's creation, its view, the legal move it offers and the
undo link of the move's answer: sixty chains of fifteen calls reached one only now and
then; these reach about ten moves and four undos."""


@pytest.mark.slow
def test_fuzzed_operations_answer_as_documented_and_a_game_still_plays(tmp_path: Path) -> None:
    """0 server errors, 0 answers off the document, 0 refusals that changed the table; the
    operations left out are only those that end what the campaign needs; then a whole
    game is played to its end on the same hub."""
    server = ServeProcess(tmp_path / "hub.db", readers=READERS).start()
    try:
        fuzzer = Fuzzer(server)
        report = fuzzer.run(EXAMPLES)
        assert report.failures == [], "\n".join(report.failures[:5])
        every = {f"{method.upper()} {path}" for path, item in fuzzer.document["paths"].items()
                 for method in item}
        assert every - report.operations == {f"{m} {p}" for m, p in SPARED}
        assert not any(status >= 500 for status in report.statuses)
        table = fuzzer.whole_game()
        assert table["over"] is True and table["events"] > 100
    finally:
        server.stop()


@pytest.mark.slow
def test_chains_through_the_documents_links_answer_as_documented(tmp_path: Path) -> None:
    """Schemathesis's stateful run: each chain starts with a table made as the setup screen
    makes it and follows the links (its view, a seat's private view and the legal move it
    offers, undo, an audit's steps, the archive's games): 0 failures, and the steps only a
    chain reaches (a move, an undo, an audit, an archived game read) each happened; then a
    whole game still plays."""
    server = ServeProcess(tmp_path / "hub.db", readers=READERS).start()
    try:
        fuzzer = Fuzzer(server)
        report = run_stateful(fuzzer, SCENARIOS, STEPS)
        assert report.failures == [], "\n".join(report.failures[:5])
        reached = chained(report)
        assert all(reached.values()), reached
        assert not any(status >= 500 for status in report.statuses)
        assert fuzzer.whole_game()["over"] is True
    finally:
        server.stop()
