"""Rated hosted events in the browser (issue 24): sign in, a partner link, "Register our pair".

A signed-out visitor of the lobby sees a line to sign in or up instead of the
"Rated" checkbox; Layla signs up from it and comes back to the lobby, creates
a rated tournament and makes a partner link; Nour opens it signed out, signs
up from the event's page, comes back to the link and registers the pair; the
pairs list shows it (on Layla's page too, live), the lobby marks the event
rated, and a used link is told in the page's words.

Skipped without Playwright or chromium, unless ``TARNEEB_REQUIRE_EXTRAS=1`` (CI).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, urlparse

import web_support
from test_web_a11y import axe_violations
from web_support import DESKTOP, PHONE, expect, new_page, page_errors

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

browser = web_support.browser
server = web_support.server

PASSWORD = "a good long password"


def _sign_up_here(page: Page, link: str, name: str) -> None:
    """Follow the sign-up link ``link`` (a locator) and make the account ``name``: the
    page comes back where the link was."""
    assert expect is not None
    before = page.url
    page.click(link)
    page.wait_for_selector("#signup-form")
    page.fill("#player-name", name)
    page.fill("#player-password", PASSWORD)
    page.keyboard.press("Enter")
    expect(page.locator("#code-value")).to_have_value(re.compile(r"^[A-Z0-9-]{20,}$"))
    page.click("#code-done")
    page.wait_for_url(before)


def test_two_players_register_a_rated_pair_by_a_partner_link(browser: Browser, server: str) -> None:
    assert expect is not None
    layla = new_page(browser, DESKTOP)
    layla.goto(f"{server}/events")
    # signed out: the line to sign in or up, never the checkbox
    expect(layla.locator("#event-rated-signin")).to_be_visible()
    expect(layla.locator("#event-rated")).to_have_count(0)
    signin = layla.locator("#event-rated-signin a.rated-signin").get_attribute("href") or ""
    assert signin == "/#signin?next=%2Fevents", signin
    _sign_up_here(layla, "#event-rated-signin a.rated-signup", "Layla")
    rated = layla.locator("#event-rated")
    expect(rated).to_be_enabled()
    expect(layla.locator("#event-rated-signin")).to_have_count(0)
    layla.select_option("#event-kind", "sets-match")
    layla.fill("#event-title", "Rated cup")
    layla.fill("#event-sets", "1")
    layla.check("#event-rated")
    layla.click("#event-create-button")
    expect(layla.locator("#event-title")).to_have_text("Rated cup")
    event_id = layla.url.rsplit("/", 1)[1]
    expect(layla.locator("#rated-who")).to_have_text("Signed in as Layla")
    expect(layla.locator("#register")).to_have_count(0)  # no guest registration here
    expect(layla.locator("#add-bots")).to_have_count(0)  # and no bots
    layla.click("#rated-partner-make")
    link = layla.locator("#rated-partner-link")
    expect(link).to_have_value(re.compile(rf"/e/{re.escape(event_id)}\?partner=[\w-]+$"))
    partner_url = link.input_value()
    ticket = parse_qs(urlparse(partner_url).query)["partner"][0]
    assert axe_violations(layla, "rated event, partner link") == []

    # Nour opens the link signed out, signs up from the page and comes back to it
    nour = new_page(browser, PHONE)
    nour.goto(partner_url)
    expect(nour.locator("#rated-signin")).to_be_visible()
    expect(nour.locator("#rated-register")).to_have_count(0)
    _sign_up_here(nour, "#rated-signin a.rated-signup", "Nour")
    assert nour.url == partner_url
    expect(nour.locator("#rated-who")).to_have_text("Signed in as Nour")
    expect(nour.locator("#rated-offer")).to_be_visible()
    nour.fill("#pair-name", "Cedars")
    nour.click("#rated-register")
    expect(nour.locator("#registered")).to_be_visible()
    pair = nour.locator('#event-pairs li[data-pair="p1"]')
    expect(pair).to_contain_text("Cedars")
    expect(pair).to_contain_text("(Nour and Layla)")
    assert ticket not in nour.url  # the used link leaves the address
    # Layla holds her own seats (her token came with the link she made): nothing to send her
    expect(nour.locator("#seat-link")).to_have_count(0)
    width = nour.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width
    # Layla's page hears of it at once
    expect(layla.locator('#event-pairs li[data-pair="p1"]')).to_contain_text("(Nour and Layla)")
    expect(layla.locator("#registered")).to_be_visible()
    # and keeps her pair beside the token she was given with her link: her seats at each set
    held = layla.evaluate("id => JSON.parse(localStorage.getItem(`tarneeb.event.${id}`))", event_id)
    assert held["pair"] == "p1" and held["member"] == 1 and held["token"], held

    # the used link, opened by another signed-in player, is told in the page's words
    omar = new_page(browser, DESKTOP)
    omar.goto(partner_url)
    _sign_up_here(omar, "#rated-signin a.rated-signup", "Omar")
    omar.click("#rated-register")
    expect(omar.locator("#rated-error")).to_have_text(
        "This partner link was used already or has expired: ask your partner for a new one."
    )
    expect(omar.locator("#event-pairs li")).to_have_count(1)

    # the lobby marks the event rated; a signed-out visitor still sees the sign-in line
    visitor = new_page(browser, DESKTOP)
    visitor.goto(f"{server}/events")
    item = visitor.locator(f'.event-item[data-event="{event_id}"]')
    expect(item.locator(".badge.rated")).to_have_text("Rated")
    expect(visitor.locator("#event-rated-signin")).to_be_visible()
    expect(visitor.locator("#event-rated")).to_have_count(0)
    refused = page_errors(omar)  # the refusal itself, and nothing else
    assert refused and all("403" in str(e) for e in refused), refused
    for page in (layla, nour, omar, visitor):
        if page is not omar:
            assert page_errors(page) == [], page_errors(page)
        page.context.close()
