"""Measures of a page's layout: whether it scrolls, which labels are clipped, which words
break across lines. Used by ``test_web_layout.py``, and handy when a screen is changed.

A label is *clipped* when its content is wider than its box (``scrollWidth > clientWidth``
on an element that holds text; the innermost such element is counted): either the overflow
is hidden (an ellipsis, "Guest to r…") or it spills over its neighbor ("Sortie" running into
a pawn, a row of counts running out of its column). A word is *broken* when one word of a
Latin script spans two lines (a line may end after a hyphen), or a run of Japanese spans
lines of two characters or fewer ("バッグ" one character per line); a Japanese sentence that
wraps at a sensible width is fine.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from playwright.sync_api import Page

MEASURE = """() => {
  const doc = document.scrollingElement;
  const name = (el) => el.dataset.testid || el.className || el.tagName;
  const text = (el) => el.textContent.trim().replace(/\\s+/g, ' ').slice(0, 40);
  const over = [];
  for (const el of document.querySelectorAll('body *')) {
    if (!el.getClientRects().length || el.closest('dialog:not([open])')) continue;
    if (['INPUT', 'SELECT', 'TEXTAREA', 'OPTION'].includes(el.tagName)) continue;
    const style = getComputedStyle(el);
    if (style.display === 'inline' || style.display === 'contents') continue;
    if (el.textContent.trim() && el.scrollWidth > el.clientWidth + 1) over.push(el);
  }
  // the innermost: a box too narrow for its text, or for a row of its children
  const clipped = over.filter((el) => !over.some((other) => other !== el && el.contains(other)))
    .map((el) => `${name(el)} "${text(el)}" ${el.scrollWidth}>${el.clientWidth}`);
  const broken = [];
  const cjk = /[\\u3040-\\u30ff\\u3400-\\u9fff\\uff00-\\uffef]/;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest('dialog:not([open]), script, style, option')) continue;
    // a word, or a part of a hyphenated one: a line may end after a hyphen, or at a soft
    // hyphen (U+00AD, where a translation allows a long compound word to break)
    for (const m of node.textContent.matchAll(/[^\\s\u00ad-]+[-\u00ad]?/g)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const tops = [];
      for (const box of range.getClientRects()) {
        if (box.width > 0 && !tops.some((t) => Math.abs(t - box.top) < 4)) tops.push(box.top);
      }
      if (tops.length < 2) continue;
      const letters = [...m[0]].length;
      const bad = cjk.test(m[0]) ? letters / tops.length <= 2 : true;
      const where = name(parent);
      if (bad) broken.push(`"${m[0].slice(0, 30)}" on ${tops.length} lines in ${where}`);
    }
  }
  const inner = [];
  let bottom = 0;  // where the lowest of the three columns ends: the room left under it
  for (const id of ['market', 'cinemas', 'now']) {
    const el = document.querySelector(`[data-testid="${id}"]`);
    if (el && el.scrollHeight > el.clientHeight + 1) {
      inner.push(`${id} ${el.scrollHeight}>${el.clientHeight}`);
    }
    if (el) bottom = Math.max(bottom, Math.round(el.getBoundingClientRect().bottom));
    if (el && el.getBoundingClientRect().bottom > innerHeight + 1) {
      inner.push(`${id} ends at ${Math.round(el.getBoundingClientRect().bottom)}`);
    }
  }
  return { height: doc.scrollHeight, width: doc.scrollWidth, viewport: [innerWidth, innerHeight],
           clipped, broken, inner, bottom };
}"""


@dataclass
class Layout:
    """One page's measures: its height and width, and what is wrong with it."""

    height: int
    width: int
    viewport: tuple[int, int]
    clipped: list[str] = field(default_factory=list)
    broken: list[str] = field(default_factory=list)
    inner: list[str] = field(default_factory=list)
    bottom: int = 0
    """Where the lowest of the market, the cinemas and the side panel ends (px)."""

    @property
    def scrolls(self) -> bool:
        """Whether the page scrolls (either way) in its viewport."""
        return self.height > self.viewport[1] or self.width > self.viewport[0]

    def problems(self) -> list[str]:
        """Every fault, in words (empty when the page fits and reads)."""
        out = [f"the page is {self.width}x{self.height} in {self.viewport[0]}x{self.viewport[1]}"
               ] if self.scrolls else []
        out += [f"scrolls inside: {x}" for x in self.inner]
        out += [f"clipped: {x}" for x in self.clipped]
        out += [f"broken word: {x}" for x in self.broken]
        return out


def measure(page: Page) -> Layout:
    """Measure the page as it is drawn now."""
    found = page.evaluate(MEASURE)
    return Layout(found["height"], found["width"], tuple(found["viewport"]), found["clipped"],
                  found["broken"], found["inner"], found["bottom"])
