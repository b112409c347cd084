"""Whole games watched on the table screen in every language and at both tablet sizes.

A :class:`Watchers` holds one page per language, each following one table through the hub's
pushes as a tablet does. After every step of a game, :meth:`Watchers.check` waits until each
page has drawn the hub's newest state, then measures it at 1280x800 and at 1180x820 (the page
is resized, not reloaded, so what a device remembers, such as a ticked checklist or opened
alerts, stays). A step's measure (:data:`FIT`) says how tall the page is, which labels are
clipped, whether the market or the cinemas scroll inside, and whether the things a table
needs at that moment (the next step, the shortcuts, the checklist's and the audit's buttons)
are on screen. The broken-word check of :mod:`tests.web.layout` is left to the sampled
moments of ``test_web_layout.py``: it costs too much for every step.

The report (``artifacts/layout-whole-<game>.txt``) gives the tallest page per language and
size with the step where it was, and the faults, first first.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import Browser, Page

from tests.web.room import SHOTS, watch_csp

LANGS = ("en", "fr", "de", "ja")
SIZES = ({"width": 1280, "height": 800}, {"width": 1180, "height": 820})

FIT = """(keep) => {
  const doc = document.scrollingElement;
  const name = (el) => el.dataset.testid || el.className || el.tagName;
  const text = (el) => el.textContent.trim().replace(/\\s+/g, ' ').slice(0, 40);
  const shown = (el) => el.getClientRects().length && !el.closest('dialog:not([open])');
  const over = [];
  for (const el of document.querySelectorAll('main *, header *, #banners *, dialog[open] *')) {
    if (!shown(el) || ['INPUT', 'SELECT', 'TEXTAREA', 'OPTION'].includes(el.tagName)) continue;
    const style = getComputedStyle(el);
    if (style.display === 'inline' || style.display === 'contents') continue;
    if (style.overflowY === 'auto' || style.overflowY === 'scroll') continue; // scrolls inside
    if (el.textContent.trim() && el.scrollWidth > el.clientWidth + 1) over.push(el);
  }
  const clipped = over.filter((el) => !over.some((other) => other !== el && el.contains(other)))
    .map((el) => `${name(el)} "${text(el)}" ${el.scrollWidth}>${el.clientWidth}`);
  const inner = [];
  let excess = Math.max(0, doc.scrollHeight - innerHeight);
  for (const id of ['market', 'cinemas', 'bm-players']) {
    const el = document.querySelector(`[data-testid="${id}"]`);
    if (el && shown(el) && el.scrollHeight > el.clientHeight + 1) {
      inner.push(`${id} scrolls ${el.scrollHeight}>${el.clientHeight}`);
      excess = Math.max(excess, el.scrollHeight - el.clientHeight);
    }
  }
  const hidden = [];
  for (const el of document.querySelectorAll(keep)) {
    if (!shown(el)) continue;
    const box = el.getBoundingClientRect();
    let top = 0, bottom = innerHeight;
    for (let up = el.parentElement; up; up = up.parentElement) { // a box that scrolls clips it
      const s = getComputedStyle(up);
      if (s.overflowY === 'auto' || s.overflowY === 'scroll' || s.overflowY === 'hidden') {
        const r = up.getBoundingClientRect();
        top = Math.max(top, r.top); bottom = Math.min(bottom, r.bottom);
      }
    }
    if (box.top < top - 1 || box.bottom > bottom + 1) {
      const span = (a, b) => `${Math.round(a)}-${Math.round(b)}`;
      hidden.push(`${name(el)} at ${span(box.top, box.bottom)} out of ${span(top, bottom)}`);
    }
  }
  const header = Math.round(document.getElementById('top').getBoundingClientRect().height);
  return { height: doc.scrollHeight, width: doc.scrollWidth, viewport: [innerWidth, innerHeight],
           clipped, inner, hidden, excess, header };
}"""
"""The page's height and width, its clipped labels (innermost), the parts that must not
scroll inside and do, the elements of ``keep`` (a selector) out of sight, and the header's
height (one line, or more)."""

KEEP = ", ".join(f'[data-testid="{x}"]' for x in (
    "hint", "step", "seat-all-everyone", "seat-play-all", "checklist-done", "audit-accept",
    "audit-drop", "alerts-open", "alert-dismiss", "fix-send", "fix-cancel"))
"""What a table must see without scrolling the page: the step and its shortcuts, the buttons
that end a checklist, an audit or a correction, the alerts' buttons."""


HEADER = 60
"""The most the header may measure: one line (its 44 px buttons and its padding)."""


@dataclass
class Tallest:
    """The tallest page seen at one language and size, and the step it was at."""

    height: int = 0
    step: str = ""
    excess: int = 0
    """The most a part of the board (or the page) was taller than its room, in px."""
    worst: str = ""


@dataclass
class Report:
    """What one game's walk saw: the tallest page per language and size, and every fault."""

    game: str
    tallest: dict[tuple[str, str], Tallest] = field(default_factory=dict)
    faults: list[str] = field(default_factory=list)
    steps: int = 0

    def text(self) -> str:
        """The report in words: a line per language and size, then the faults, each kind once
        (where it was first seen, and how often)."""
        lines = [f"{self.game}: {self.steps} steps watched",
                 f"{'lang':5}{'size':>10}{'tallest':>9}{'overflow':>9}"
                 "  step (of the tallest; of the worst overflow)"]
        for (lang, size), top in sorted(self.tallest.items()):
            worst = f"; {top.worst}" if top.excess else ""
            lines.append(f"{lang:5}{size:>10}{top.height:>9}{top.excess:>9}  {top.step}{worst}")
        kinds: dict[str, list[str]] = {}
        for fault in self.faults:
            where, _, what = fault.partition(": ")
            kinds.setdefault(what, []).append(where)
        lines += ["", f"{len(self.faults)} faults, {len(kinds)} kinds"]
        lines += [f"{len(seen):4}x {what}   (first: {seen[0]})" for what, seen in kinds.items()]
        return "\n".join(lines) + "\n"

    def save(self) -> Path:
        """Write the report to ``artifacts/layout-whole-<game>.txt``."""
        path = SHOTS.parent / f"layout-whole-{self.game}.txt"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.text(), encoding="utf-8")
        return path


class Watchers:
    """One tablet page per language, following ``table_id`` with its PIN known."""

    def __init__(self, browser: Browser, base: str, table_id: str, pin: str,
                 errors: list[str], game: str) -> None:
        self.base, self.table_id = base, table_id
        self.report = Report(game)
        self.pages: dict[str, Page] = {}
        self.size = {lang: 0 for lang in LANGS}
        for lang in LANGS:
            page = browser.new_context(viewport=SIZES[0]).new_page()
            page.on("pageerror", lambda exc, lang=lang: errors.append(f"{lang}: {exc}"))
            watch_csp(page, errors)
            page.goto(f"{base}/setup")
            page.evaluate("([id, pin, lang]) => { localStorage.setItem(`popcorn:pin:${id}`, pin);"
                          " localStorage.setItem('popcorn:lang', lang); }", [table_id, pin, lang])
            page.goto(f"{base}/table/{table_id}")
            page.wait_for_function("(id) => window.popcornLoaded === id", arg=table_id)
            self.pages[lang] = page

    def close(self) -> None:
        """Close every page, and save and print the report."""
        for page in self.pages.values():
            page.context.close()
        print(self.report.save().read_text(encoding="utf-8"))

    def assert_fits(self, errors: list[str]) -> None:
        """Fail on a script error, or on the first step, language and size that did not fit
        (the twenty first faults in the message; all in the report)."""
        assert errors == [], errors
        assert self.report.faults == [], "\n".join(self.report.faults[:20])

    def each(self, act: Callable[[Page], object]) -> None:
        """Do ``act`` on every page (open a dialog, open the alerts)."""
        for page in self.pages.values():
            act(page)

    def shot(self, name: str) -> None:
        """Save the English page at 1280x800 as ``artifacts/screenshots/<name>.png``."""
        page = self.pages["en"]
        page.set_viewport_size(SIZES[0])
        self.size["en"] = 0
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"))

    def check(self, step: str, events: int) -> None:
        """Wait until every page has drawn the log up to ``events``, then measure each at
        both sizes (the size it is at first, so one resize a step is enough)."""
        self.report.steps += 1
        for lang, page in self.pages.items():
            page.wait_for_function("(n) => (window.popcornEvents ?? -1) >= n", arg=events,
                                   timeout=20000)
            order = (self.size[lang], 1 - self.size[lang])
            for n in order:
                if n != self.size[lang]:
                    page.set_viewport_size(SIZES[n])
                    self.size[lang] = n
                self.measure(page, lang, SIZES[n], step)

    def measure(self, page: Page, lang: str, size: dict[str, int], step: str) -> None:
        """One measure, kept in the report (and a screenshot of the page's first fault)."""
        found = page.evaluate(FIT, KEEP)
        label = f"{size['width']}x{size['height']}"
        top = self.report.tallest.setdefault((lang, label), Tallest())
        if found["height"] > top.height:
            top.height, top.step = found["height"], step
        faults = [f"the page is {found['width']}x{found['height']}"] if (
            found["height"] > size["height"] or found["width"] > size["width"]) else []
        if found["header"] > HEADER:
            faults.append(f"the header wraps: {found['header']} px high")
        faults += [f"clipped: {x}" for x in found["clipped"]]
        faults += [f"inner: {x}" for x in found["inner"]]
        faults += [f"out of sight: {x}" for x in found["hidden"]]
        if found["excess"] > top.excess:  # the worst overflow so far: its screenshot
            top.excess, top.worst = found["excess"], step
            SHOTS.mkdir(parents=True, exist_ok=True)
            name = f"layout-whole-{self.report.game}-worst-{lang}-{label}.png"
            page.screenshot(path=str(SHOTS / name), full_page=True)
        self.report.faults += [f"{lang} {label} at {step}: {f}" for f in faults]
