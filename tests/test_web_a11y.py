"""Accessibility of the browser client: axe-core finds nothing serious on its pages.

axe-core (npm, a dev dependency in package.json: ``npm ci`` installs it under
node_modules/) is injected into the home page, the table while bidding and
while playing, the deal's summary, the match's end and the replay, in English
and in Arabic (right to left), and no violation of impact "serious" or
"critical" may remain. Issue 23, item 10: "Dialogs do not take focus and are
not modal; labelled elements have no role; the focus ring on bid buttons is
1.6:1".

Skipped without Playwright, chromium or axe-core, unless ``TARNEEB_REQUIRE_EXTRAS=1``
(CI), where it fails instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

import web_support
from support import ROOT
from web_support import (
    DESKTOP,
    PHONE,
    Table,
    missing,
    new_page,
    page_errors,
    play_deals,
    play_until,
    quick_play,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

browser = web_support.browser
server = web_support.server

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
BAD = ("serious", "critical")


def axe_violations(page: Page, where: str) -> list[str]:
    """The serious and critical violations axe-core finds on the page as it stands."""
    if not AXE.exists():
        missing(f"axe-core is not installed ({AXE}; run npm ci)")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        # evaluated, not added as a <script>: the page's Content-Security-Policy forbids those
        page.evaluate(AXE.read_text("utf-8") + "\n;undefined")
    found: list[dict[str, Any]] = page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations
            .map((v) => ({id: v.id, impact: v.impact, help: v.help,
                          nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" "))}))"""
    )
    return [
        f"{where}: {v['id']} ({v['impact']}) {v['help']}: {', '.join(v['nodes'])}"
        for v in found
        if v["impact"] in BAD
    ]


def _run(page: Page, server: str, name: str) -> list[str]:
    """Visit every kind of page of the client, collecting what axe-core finds on each."""
    found: list[str] = []
    page.goto(f"{server}/")
    page.wait_for_selector("#quick-play")
    found += axe_violations(page, "home")
    quick_play(page, server, name=name, goto=False, target=1000)
    page.wait_for_selector("#bidbox .bid-button:not([disabled])")
    found += axe_violations(page, "table, bidding")
    play_until(
        page,
        Table({"south": page}),
        "!!document.querySelector('#hand .card.legal:not([disabled])')"
        " && !!document.querySelector('#trick .trick-card')",
    )
    found += axe_violations(page, "table, playing")
    assert play_deals(page, 1)["at"] is None
    page.wait_for_selector("#deal-summary")
    found += axe_violations(page, "deal summary")
    # a match of one deal: its end (one dialog, the last deal in it), then the replay
    quick_play(page, server, name=name, target=1)
    done = play_deals(page, 1)
    assert "match ended" in (done["at"] or ""), done
    found += axe_violations(page, "match end")
    page.keyboard.press("Escape")  # the match end is a modal dialog: close it first
    page.locator('a[href="#replay/1"]').first.click()
    page.wait_for_selector("#replay")
    found += axe_violations(page, "replay")
    return found


@pytest.mark.parametrize(
    ("viewport", "locale"), [(DESKTOP, "en-US"), (PHONE, "ar")], ids=["desktop-en", "phone-ar"]
)
def test_no_serious_accessibility_violations_on_any_page(
    browser: Browser, server: str, viewport: dict[str, int], locale: str
) -> None:
    page = new_page(browser, viewport, locale=locale, reduced_motion=True)
    found = _run(page, server, "Maya")
    assert not found, "\n".join(found)
    assert not page_errors(page)
    page.context.close()


def test_the_check_finds_a_serious_violation(browser: Browser) -> None:
    """The harness can fail: a page with a nameless button and an image without text."""
    page = new_page(browser, DESKTOP)
    page.set_content(
        '<html lang="en"><title>t</title><main><button></button><img src="x.png"></main>'
    )
    found = axe_violations(page, "bad page")
    assert any("button-name (critical)" in f for f in found), found
    assert any("image-alt (critical)" in f for f in found), found
    page.context.close()
