"""The page header on a phone: every link and the language switch on screen, no page
wider than the phone.

Found in the screenshots once the tournaments' and the players' links joined the
header: at 390x844 the links wrapped word by word into a header a third of the
screen tall, the language switch went off the right edge, and in Arabic the whole
home page was wider than the phone (its right side cut off). Then, at 390 and 360 px, the
links' single row scrolled sideways and its last link was partly hidden: now they wrap
onto a second row, each whole on screen and a tap target of 24 px and more.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

import web_support
from web_support import DESKTOP, PHONE, new_page, page_errors, quick_play

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

browser = web_support.browser
server = web_support.server

SMALL_PHONE = {"width": 360, "height": 780}

PAGES = ("/", "/events", "/#leaderboard", "/#signin", "/#rules/classic")

ON_SCREEN = """() => {
  const width = document.documentElement.clientWidth;
  const off = [];
  for (const node of document.querySelectorAll('#top a, #top select')) {
    const box = node.getBoundingClientRect();
    if (box.width === 0) continue;  // hidden
    // every link whole on screen: no sideways scroll of the nav hides one, even in part
    const inside = box.top >= 0 && box.left >= -0.5 && box.right <= width + 0.5;
    if (!inside) off.push(node.textContent.trim() || node.id);
  }
  const nav = document.querySelector('#top .top-nav');
  // a tap target is at least 24 x 24 px (WCAG 2.2, 2.5.8)
  const small = [...document.querySelectorAll('#top a, #top select')]
    .filter((n) => n.getBoundingClientRect().width > 0)
    .filter((n) => { const b = n.getBoundingClientRect(); return b.width < 24 || b.height < 24; })
    .map((n) => `${n.textContent.trim() || n.id} ${Math.round(n.getBoundingClientRect().width)}x${Math.round(n.getBoundingClientRect().height)}`);
  return { off, small, navScroll: nav ? nav.scrollWidth - nav.clientWidth : 0, scroll: document.documentElement.scrollWidth, width,
           header: document.getElementById('top').getBoundingClientRect().height,
           wrapped: [...document.querySelectorAll('#top .top-nav a')]
             .filter((a) => { const r = document.createRange(); r.selectNodeContents(a);
               return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size > 1; })
             .map((a) => a.textContent.trim()) };
}"""


def _check(page: Page, where: str) -> None:
    page.wait_for_selector("#top .top-nav a")
    page.wait_for_timeout(200)  # the players' links come with the session's answer
    facts = page.evaluate(ON_SCREEN)
    assert facts["scroll"] <= facts["width"], (where, facts)
    assert facts["off"] == [], (where, facts)
    assert facts["navScroll"] <= 0, (where, facts)  # wraps onto rows, never scrolls sideways
    assert facts["small"] == [], (where, facts)
    assert facts["header"] <= 130, (where, facts)
    assert facts["wrapped"] == [], (where, facts)  # a link on one line, never word by word


@pytest.mark.parametrize("locale", ["en-US", "ar"])
@pytest.mark.parametrize(
    "viewport", [SMALL_PHONE, PHONE, DESKTOP], ids=["phone360", "phone", "desktop"]
)
def test_the_header_fits_every_page(
    browser: Browser, server: str, viewport: dict[str, int], locale: str
) -> None:
    page = new_page(browser, viewport, locale=locale)
    for path in PAGES:
        page.goto(f"{server}{path}")
        _check(page, path)
    quick_play(page, server, "Header")
    _check(page, "a table")
    assert not page_errors(page), page_errors(page)
