"""A long Schemathesis campaign against a real ``serve``: the hub's OpenAPI document fuzzed.

Run ``python bench/fuzz.py [--examples N] [--spared-examples M] [--fixed]``. It starts a
hub (``serve`` on loopback, its own database in a temporary folder), sets up a table and an
archived game (``tests/hub/fuzzing.py``), and sends up to N positive and N negative cases
to each operation of ``GET /api/openapi.json``, then up to M to the operations the suite's
short campaign spares (closing the table, a new token, deleting the archived game, an
analysis: they end what the others need, so they come last), then runs Schemathesis's
stateful run (``--scenarios`` chains of up to ``--steps`` calls through the document's
links, each starting from a table made as the setup screen makes it), then plays a whole
game on the same hub. Each answer is checked: no 5xx, status, content type, body and headers as the
document says, and a refused request leaves the table's log as it was.

It prints the requests sent, the operations covered, the statuses seen, how often the
chains reached a move, an undo, an audit and an archived game, and every failure;
its exit status is 1 if anything failed. Cases are random at each run unless ``--fixed``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.hub.remote import ServeProcess  # noqa: E402
from tests.hub.fuzz_stateful import chained, run_stateful  # noqa: E402
from tests.hub.fuzzing import READERS, SPARED, Fuzzer  # noqa: E402


def main() -> int:
    """Run the campaign and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=100,
                        help="cases per operation and generation mode")
    parser.add_argument("--spared-examples", type=int, default=5,
                        help="cases for each operation that ends the campaign's fixtures")
    parser.add_argument("--scenarios", type=int, default=200,
                        help="chains of calls through the document's links")
    parser.add_argument("--steps", type=int, default=20, help="calls per chain at most")
    parser.add_argument("--fixed", action="store_true", help="the same cases at every run")
    args = parser.parse_args()
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        server = ServeProcess(Path(tmp) / "hub.db", readers=READERS).start()
        try:
            fuzzer = Fuzzer(server)
            every = {(m.upper(), p) for p, item in fuzzer.document["paths"].items()
                     for m in item}
            report = fuzzer.run(args.examples, progress=print, fixed=args.fixed)
            report = fuzzer.run(args.spared_examples, spared=every - SPARED, progress=print,
                                fixed=args.fixed, report=report)
            before = report.requests
            run_stateful(fuzzer, args.scenarios, args.steps, report)
            print(f"stateful: {report.requests - before} requests in {args.scenarios} "
                  f"chains ({report.restarts} restarts); reached {chained(report)}")
            table = fuzzer.whole_game()
        finally:
            server.stop()
    print(f"{report.summary()} in {time.monotonic() - started:.0f} s")
    print(f"operations covered: {len(report.operations)} of {len(every)}")
    print(f"whole game afterwards: over={table['over']}, {table['events']} events")
    for failure in report.failures:
        print("FAILURE", failure)
    return 1 if report.failures or not table["over"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
