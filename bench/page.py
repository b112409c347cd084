"""How heavy the dashboard is on a slow phone: requests, bytes and time until the game shows.

Run ``python bench/page.py [--baseline REV] [--runs N]``. It starts ``popcorn-companion
serve`` on loopback, creates a Popcorn table, and opens in Debian's Chromium (Playwright)
the table screen (``/table/<id>``, 1280x800) and seat 0's phone (``/phone/<id>/0#token=...``,
390x844) with a slow Wi-Fi profile set through the DevTools protocol: 150 ms round trip,
1.6 Mbit/s down and up (``Network.emulateNetworkConditions``) and the CPU slowed 4x
(``Emulation.setCPUThrottlingRate``). Each screen is loaded in a fresh browser context
(nothing cached: a *first* load) and then reloaded (the same context: a *reload*).

For each load it counts the responses that came from the network (not the memory or disk
cache) until the game shows, the bytes they took on the wire (encoded, headers included:
``Network.loadingFinished``), and the time from the start of the navigation until the game
shows: ``window.popcornLoaded`` is the table's id (its state drawn) on the table screen, the
player's name is drawn on the phone. The browser accepts gzip and deflate only, as it does
from a hub at a LAN address over plain HTTP.

``--baseline REV`` runs REV's code beside this checkout's in the same run: REV is checked out
into a temporary ``git worktree`` and its ``serve`` runs with this interpreter
(``PYTHONPATH`` = the worktree); the runs alternate between the two hubs, and the report gives
each figure's median over ``--runs`` and this checkout's as a fraction of REV's. Figures go to
stdout; there is no pass or fail.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, CDPSession, Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.hub.remote import ServeProcess  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
READERS = ["bag-1", "bag-2", "bag-3"]
PLAYERS = ["Ann", "Bob", "Cy"]
TABLET = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SLOW_WIFI = {"offline": False, "latency": 150, "downloadThroughput": 1_600_000 / 8,
             "uploadThroughput": 1_600_000 / 8}
CPU_SLOWDOWN = 4
LAN_ENCODINGS = {"Accept-Encoding": "gzip, deflate"}
"""What Chromium accepts from a hub at a LAN address over plain HTTP (brotli and zstd only
over HTTPS or from localhost, where this bench's hub listens)."""
TABLE_SHOWN = """(id) => {
  if (window.popcornLoaded !== id) return false;
  window.benchShown = window.benchShown ?? performance.now();
  return true;
}"""
PHONE_SHOWN = """(name) => {
  const box = document.querySelector('[data-testid="phone-name"]');
  if (!box || box.textContent !== name) return false;
  window.benchShown = window.benchShown ?? performance.now();
  return true;
}"""
"""Whether the game shows; the first time it does, the page's clock is kept (its origin is
the start of the navigation)."""


@dataclass(frozen=True)
class Load:
    """One page load: ``requests`` answered by the network, their ``bytes`` on the wire, and
    ``ms`` until the game showed."""

    requests: int
    bytes: int
    ms: float


class Wire:
    """What the network carried for one page, from its DevTools events."""

    def __init__(self, cdp: CDPSession) -> None:
        self.network: dict[str, bool] = {}  # request id -> answered by the network
        self.cached: set[str] = set()  # served from the memory cache
        self.sizes: dict[str, int] = {}
        cdp.on("Network.requestServedFromCache", lambda e: self.cached.add(e["requestId"]))
        cdp.on("Network.responseReceived", self._response)
        cdp.on("Network.loadingFinished", self._finished)

    def _response(self, event: dict[str, Any]) -> None:
        response = event["response"]
        cached = (response.get("fromDiskCache") or response.get("fromPrefetchCache")
                  or response.get("fromServiceWorker") or event["requestId"] in self.cached)
        self.network[event["requestId"]] = not cached

    def _finished(self, event: dict[str, Any]) -> None:
        self.sizes[event["requestId"]] = int(event.get("encodedDataLength", 0))

    def clear(self) -> None:
        """Forget what was counted (before a reload)."""
        self.network.clear()
        self.cached.clear()
        self.sizes.clear()

    def totals(self) -> tuple[int, int]:
        """Requests answered by the network, and their bytes."""
        ids = [rid for rid, net in self.network.items() if net]
        return len(ids), sum(self.sizes.get(rid, 0) for rid in ids)


class Hub:
    """A ``serve`` of one revision with a dealt table."""

    def __init__(self, label: str, source: Path, tmp: Path) -> None:
        self.label = label
        with _pythonpath(source):
            self.server = ServeProcess(tmp / f"{label}.db", readers=READERS, cwd=source).start()
        self.info = self.server.create_table({"players": PLAYERS, "readers": READERS,
                                              "deal_seed": 1})

    def urls(self) -> dict[str, tuple[str, dict[str, int], str, str]]:
        """Each screen: its address, viewport, shown-test and the test's argument."""
        table_id = self.info["id"]
        token = self.info["tokens"][0]
        return {"table": (f"{self.server.base}/table/{table_id}", TABLET, TABLE_SHOWN, table_id),
                "phone": (f"{self.server.base}/phone/{table_id}/0#token={token}", PHONE,
                          PHONE_SHOWN, PLAYERS[0])}


@contextmanager
def _pythonpath(source: Path) -> Iterator[None]:
    """``PYTHONPATH`` = ``source`` for the processes started inside."""
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = str(source)
    try:
        yield
    finally:
        if old is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = old


def slow_page(browser: Browser, viewport: dict[str, int]) -> tuple[Page, Wire]:
    """A page in a fresh context (empty cache) on the slow Wi-Fi with a 4x slower CPU."""
    context = browser.new_context(viewport=viewport)  # type: ignore[arg-type]
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    wire = Wire(cdp)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", SLOW_WIFI)
    cdp.send("Network.setExtraHTTPHeaders", {"headers": LAN_ENCODINGS})
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    return page, wire


def measure(page: Page, wire: Wire, shown: str, arg: str) -> Load:
    """Wait until the game shows and read the counts (the page was just navigated)."""
    page.wait_for_function(shown, arg=arg, timeout=180_000)
    ms = float(page.evaluate("() => window.benchShown"))
    requests, size = wire.totals()
    return Load(requests, size, ms)


def screen_loads(browser: Browser, hub: Hub, screen: str) -> dict[str, Load]:
    """A first load of ``screen`` and a reload."""
    url, viewport, shown, arg = hub.urls()[screen]
    page, wire = slow_page(browser, viewport)
    try:
        page.goto(url, wait_until="commit")
        first = measure(page, wire, shown, arg)
        page.wait_for_timeout(500)  # the last responses land before the reload
        wire.clear()
        page.reload(wait_until="commit")
        again = measure(page, wire, shown, arg)
    finally:
        page.context.close()
    return {"first load": first, "reload": again}


@contextmanager
def worktree(rev: str) -> Iterator[Path]:
    """REV checked out in a temporary worktree (removed after)."""
    path = Path(tempfile.mkdtemp(prefix="page-bench-")) / "tree"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(path), rev],
                   check=True)
    try:
        yield path
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(path)],
                       check=False)


def commit_of(path: Path) -> str:
    """The short commit a tree is at (``+`` when it has changes)."""
    head = subprocess.run(["git", "-C", str(path), "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True, check=False).stdout.strip()
    dirty = subprocess.run(["git", "-C", str(path), "status", "--porcelain", "-uno"],
                           capture_output=True, text=True, check=False).stdout.strip()
    return head + ("+" if dirty else "")


def run(sources: dict[str, Path], runs: int) -> dict[str, dict[tuple[str, str], list[Load]]]:
    """Every screen's loads on each source's hub, ``runs`` times, alternating hubs."""
    results: dict[str, dict[tuple[str, str], list[Load]]] = {label: {} for label in sources}
    with tempfile.TemporaryDirectory() as tmp:
        hubs = [Hub(label, source, Path(tmp)) for label, source in sources.items()]
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                for n in range(runs):
                    for hub in (hubs if n % 2 == 0 else hubs[::-1]):
                        for screen in ("table", "phone"):
                            for kind, load in screen_loads(browser, hub, screen).items():
                                results[hub.label].setdefault((screen, kind), []).append(load)
                browser.close()
        finally:
            for hub in hubs:
                hub.server.stop()
    return results


def median(loads: list[Load]) -> Load:
    """The median of each figure."""
    return Load(int(statistics.median(x.requests for x in loads)),
                int(statistics.median(x.bytes for x in loads)),
                statistics.median(x.ms for x in loads))


def report(results: dict[str, dict[tuple[str, str], list[Load]]]) -> None:
    """One line per screen and load: each source's medians, and this checkout's against the
    baseline's when there is one."""
    labels = list(results)
    print(f"{'screen':<7} {'load':<11}", end="")
    for label in labels:
        print(f" | {label + ': requests':>20} {'KiB':>7} {'ms':>6}", end="")
    print(" | ratio (req, bytes, ms)" if len(labels) == 2 else "")
    for key in results[labels[0]]:
        figures = [median(results[label][key]) for label in labels]
        print(f"{key[0]:<7} {key[1]:<11}", end="")
        for f in figures:
            print(f" | {f.requests:>20} {f.bytes / 1024:>7.1f} {f.ms:>6.0f}", end="")
        if len(figures) == 2:
            old, new = figures[1], figures[0]
            print(f" | {_ratio(new.requests, old.requests)}, {_ratio(new.bytes, old.bytes)}, "
                  f"{_ratio(new.ms, old.ms)}", end="")
        print()


def _ratio(new: float, old: float) -> str:
    return f"{new / old:.2f}" if old else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", metavar="REV", help="also run this revision, side by side")
    parser.add_argument("--runs", type=int, default=3, help="loads of each screen (default 3)")
    args = parser.parse_args()
    started = time.monotonic()
    sources = {"this": ROOT}
    print(f"this checkout: {commit_of(ROOT)}", end="")
    if args.baseline:
        with worktree(args.baseline) as tree:
            print(f"; baseline: {commit_of(tree)} ({args.baseline})")
            results = run({**sources, "baseline": tree}, args.runs)
    else:
        print()
        results = run(sources, args.runs)
    print(f"slow Wi-Fi: {SLOW_WIFI['latency']} ms round trip, 1.6 Mbit/s; CPU {CPU_SLOWDOWN}x "
          f"slower; medians of {args.runs} run(s)")
    report(results)
    print(f"({time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()
