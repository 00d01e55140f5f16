"""Invites in the browser: four players in four browsers, a spectator who cannot take
a friend's seat, and a player who moves to a second device by a seat link.

Issue 23, item 4: "Invite links do not reserve seats (a spectator took a friend's
seat); the seat token lives only in local storage, so a player on another device
cannot get back; there is no way back to a running game from the home page."

Skipped without Playwright or chromium, unless ``TARNEEB_REQUIRE_EXTRAS=1`` (CI).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

import web_support
from web_support import DESKTOP, PHONE, READY, expect, hand_cards, new_page, page_errors, quick_play

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

browser = web_support.browser
server = web_support.server

FRIENDS = {"east": "Omar", "north": "Nour", "west": "Sami"}


def _join_by_api(page: Page, table: str, body: dict[str, Any]) -> int:
    """What the server answers the page that asks for a seat without the invite."""
    status: int = page.evaluate(
        """async ([table, body]) => (await fetch(`/api/tables/${table}/join`, {
            method: 'POST', headers: {'Content-Type': 'application/json'},
            body: JSON.stringify(body)})).status""",
        [table, body],
    )
    return status


def _create(page: Page, body: dict[str, Any]) -> dict[str, Any]:
    """A table made from the page, its seat kept in the page's storage as the home page does."""
    made: dict[str, Any] = page.evaluate(
        """async (body) => {
            const answer = await fetch('/api/tables', {method: 'POST',
                headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
            const made = await answer.json();
            localStorage.setItem(`tarneeb.seat.${made.table}`,
                JSON.stringify({token: made.token, seat: made.seat}));
            return made;
        }""",
        body,
    )
    return made


def test_invites_seat_four_browsers_and_the_spectator_takes_no_friends_seat(
    browser: Browser, server: str
) -> None:
    host = new_page(browser, DESKTOP)
    host.goto(f"{server}/")
    # an open table (anyone may watch, and sit where free) with a seat kept for each friend
    made = _create(host, {"name": "Layla", "public": True, "reserve": list(FRIENDS)})
    table = made["table"]
    invites = {seat: f"{server}{path}" for seat, path in made["invites"].items()}
    assert set(invites) == set(FRIENDS)
    host.goto(f"{server}/t/{table}")
    expect(host.locator("body")).to_have_attribute("data-seat", "south")

    # a stranger comes in by the table's address, before the friends
    spectator = new_page(browser, DESKTOP)
    spectator.goto(f"{server}/t/{table}")
    expect(spectator.locator("#waiting")).to_be_visible()
    offered = spectator.locator("#join-seat option").evaluate_all("os => os.map((o) => o.value)")
    assert not set(offered) & set(FRIENDS), f"the stranger is offered {offered}"
    for seat in FRIENDS:
        assert _join_by_api(spectator, table, {"name": "Eve", "seat": seat}) == 403
    assert _join_by_api(spectator, table, {"name": "Eve", "invite": "x" * 24}) == 403

    pages = {"south": host}
    for seat, url in invites.items():
        friend = new_page(browser, {"width": 1000, "height": 760})
        friend.goto(url)
        expect(friend.locator("#join-seat")).to_have_value(seat)
        friend.fill("#join-name", FRIENDS[seat])
        friend.click("#join-button")
        expect(friend).to_have_url(re.compile(r"/t/[\w-]+$"))
        pages[seat] = friend
    for seat, page in pages.items():
        expect(page.locator("body")).to_have_attribute("data-seat", seat)
        expect(page.locator("#hand .card")).to_have_count(13)
        for other, name in FRIENDS.items():
            expect(page.locator(f'.seat[data-seat="{other}"] .seat-name')).to_have_text(
                re.compile(re.escape(name))
            )
    # the stranger still only watches: no seat, no cards, the four names on the table
    expect(spectator.locator("#board-grid")).to_be_visible()
    expect(spectator.locator("body")).to_have_attribute("data-seat", "")
    assert spectator.locator("#hand .card").count() == 0
    for other, name in FRIENDS.items():
        expect(spectator.locator(f'.seat[data-seat="{other}"] .seat-name')).to_have_text(
            re.compile(re.escape(name))
        )
    # a used invite seats nobody else
    late = new_page(browser, DESKTOP)
    late.goto(invites["north"])
    expect(late.locator("#join-button")).to_have_count(0)
    used = parse_qs(urlsplit(invites["north"]).query)["invite"][0]
    assert _join_by_api(late, table, {"name": "Eve", "invite": used}) in (403, 409)
    # (the refusals above are the only errors of the stranger's pages)
    for page in pages.values():
        assert not page_errors(page)
    for page in [*pages.values(), spectator, late]:
        page.context.close()


def test_a_seat_link_moves_the_game_to_a_second_device(browser: Browser, server: str) -> None:
    laptop = new_page(browser, DESKTOP)
    table = quick_play(laptop, server, name="Maya", target=1000)
    laptop.wait_for_selector(READY)
    hand = hand_cards(laptop)
    # the laptop asks for a link to its seat (as its "play on another device" does)
    link: str = laptop.evaluate(
        """async (table) => {
            const saved = JSON.parse(localStorage.getItem(`tarneeb.seat.${table}`));
            const answer = await fetch(`/api/tables/${table}/seat-link`, {method: 'POST',
                headers: {'Content-Type': 'application/json'},
                body: JSON.stringify({token: saved.token})});
            return (await answer.json()).link;
        }""",
        table,
    )
    assert "#" in link and "claim=" in link.split("#", 1)[1], link
    url = link if link.startswith("http") else f"{server}{link}"

    phone = new_page(browser, PHONE)
    phone.goto(url)
    # the phone holds the seat now, with the same cards; the secret leaves the address bar
    expect(phone.locator("body")).to_have_attribute("data-seat", "south")
    expect(phone.locator("#hand .card")).to_have_count(len(hand))
    assert sorted(hand_cards(phone)) == sorted(hand)
    expect(phone).to_have_url(re.compile(rf"/t/{table}$"))
    assert phone.evaluate(f"() => !!localStorage.getItem('tarneeb.seat.{table}')")
    # the laptop is told that the seat moved, and holds it no more
    expect(laptop.locator("body")).not_to_have_attribute("data-seat", "south")
    expect(laptop.locator("#hand .card.legal")).to_have_count(0)
    # and the game goes on on the phone
    phone.wait_for_selector(READY)
    # the link was for one use: a third browser that opens it gets no seat
    third = new_page(browser, DESKTOP)
    third.goto(url)
    third.wait_for_selector("#board-grid")
    expect(third.locator("body")).to_have_attribute("data-seat", "")
    for page in (laptop, phone, third):
        page.context.close()
