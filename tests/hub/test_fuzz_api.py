"""Schemathesis against a real ``serve``, in the suite: every operation of the hub's OpenAPI
document fuzzed a little (positive and negative cases), none answered with a 5xx or off the
document, none refused after changing the table, and a whole game played afterwards
(``bench/fuzz.py`` runs the same campaign longer)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.hub.remote import ServeProcess
from tests.hub.fuzzing import READERS, SPARED, Fuzzer

EXAMPLES = 6
"""Cases per operation and generation mode: about 650 requests, well within two minutes."""


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
