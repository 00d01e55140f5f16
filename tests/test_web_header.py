"""The page header on a phone: every link and the language switch on screen, no page
wider than the phone.

Found in the screenshots once the tournaments' and the players' links joined the
header: at 390x844 the links wrapped word by word into a header a third of the
screen tall, the language switch went off the right edge, and in Arabic the whole
home page was wider than the phone (its right side cut off).
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

PAGES = ("/", "/events", "/#leaderboard", "/#signin", "/#rules/classic")

ON_SCREEN = """() => {
  const width = document.documentElement.clientWidth;
  const off = [];
  for (const node of document.querySelectorAll('#top a, #top select')) {
    const box = node.getBoundingClientRect();
    if (box.width === 0) continue;  // hidden
    const scroller = node.closest('.top-nav');
    const edge = scroller ? scroller.getBoundingClientRect() : { left: 0, right: width };
    // a link may sit past the end of the nav's own sideways scroll, never past the page's
    const inside = scroller ? box.top >= 0 : box.left >= -0.5 && box.right <= width + 0.5;
    if (!inside || edge.left < -0.5 || edge.right > width + 0.5) off.push(node.textContent.trim() || node.id);
  }
  return { off, scroll: document.documentElement.scrollWidth, width,
           header: document.getElementById('top').getBoundingClientRect().height,
           wrapped: [...document.querySelectorAll('#top .top-nav a')]
             .filter((a) => a.getBoundingClientRect().height > 1.8 * parseFloat(getComputedStyle(a).fontSize))
             .map((a) => a.textContent.trim()) };
}"""


def _check(page: Page, where: str) -> None:
    page.wait_for_selector("#top .top-nav a")
    page.wait_for_timeout(200)  # the players' links come with the session's answer
    facts = page.evaluate(ON_SCREEN)
    assert facts["scroll"] <= facts["width"], (where, facts)
    assert facts["off"] == [], (where, facts)
    assert facts["header"] <= 100, (where, facts)
    assert facts["wrapped"] == [], (where, facts)  # a link on one line, never word by word


@pytest.mark.parametrize("locale", ["en-US", "ar"])
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
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
