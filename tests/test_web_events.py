"""Hosted events in the browser: the lobby, an event's page, live standings, registering a pair.

Issue 24: "join a tournament and watch the standings update"; every new page in
the five languages, keyboard- and phone-usable like the table.

Skipped without Playwright or chromium, unless ``TARNEEB_REQUIRE_EXTRAS=1`` (CI).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

import web_support
from tarneeb.i18n import core_catalogue
from test_web_a11y import axe_violations
from web_support import DESKTOP, PHONE, expect, new_page, run_server

if TYPE_CHECKING:
    from playwright.sync_api import Page

browser = web_support.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose bots take a moment a card, so that sets end one after another."""
    try:
        import tarneeb.server.app  # noqa: F401
    except ImportError as exc:
        web_support.missing(f"the server's dependencies are missing ({exc})")
    folder = tmp_path_factory.mktemp("web-events")
    with run_server(folder / "events.db", bot_delay=0.02) as url:
        yield url


def _new_event(page: Page, **body: object) -> dict[str, Any]:
    """An event made by ``page``'s browser (its host), as the API answers."""
    made: dict[str, Any] = page.evaluate(
        """async (body) => {
          const r = await fetch('/api/events', {method: 'POST', headers: {'Content-Type': 'application/json'},
            body: JSON.stringify(body)});
          return r.json();
        }""",
        body,
    )
    return made


def _played_log(page: Page) -> None:
    """Keep in the page every total of sets played the standings show, as they change."""
    page.evaluate(
        """() => {
        window.__played = [];
        const look = () => {
          const cells = [...document.querySelectorAll('#event-standings td.played')];
          if (!cells.length) return;
          const total = cells.reduce((n, c) => n + Number(c.textContent), 0);
          if (window.__played[window.__played.length - 1] !== total) window.__played.push(total);
        };
        new MutationObserver(look).observe(document.getElementById('app'), {childList: true, subtree: true});
        look();
      }"""
    )


def test_a_host_makes_a_tournament_of_bot_pairs_and_watches_the_standings(
    browser: object, server: str
) -> None:
    assert expect is not None
    page = new_page(browser, DESKTOP)  # type: ignore[arg-type]
    page.goto(f"{server}/")
    page.click("#nav-events")
    expect(page.locator("#event-create")).to_be_visible()
    assert axe_violations(page, "events lobby") == []
    page.select_option("#event-kind", "king-of-the-table")
    page.fill("#event-title", "Friday cup")
    page.fill("#event-pairs", "3")
    page.fill("#event-sets", "4")
    page.fill("#event-target", "1")
    page.click("#event-create-button")
    expect(page.locator("#event-title")).to_have_text("Friday cup")
    event_id = page.url.rsplit("/", 1)[1]
    for count in (1, 2, 3):
        page.click("#add-bots")
        expect(page.locator("#event-pairs li")).to_have_count(count)
    expect(page.locator("#add-bots")).to_be_disabled()
    # a second browser watches from the lobby
    watcher = new_page(browser, DESKTOP)  # type: ignore[arg-type]
    watcher.goto(f"{server}/events")
    watcher.locator(f'.event-item[data-event="{event_id}"] a').click()
    expect(watcher.locator("#event-status")).to_have_text("Registering")
    _played_log(watcher)
    page.click("#start-event")
    expect(watcher.locator("#event-page")).to_have_attribute(
        "data-status", "finished", timeout=90_000
    )
    totals = watcher.evaluate("window.__played")
    assert totals[-1] == 8  # four sets, two pairs each
    assert len(totals) >= 3 and totals == sorted(totals), totals  # it moved set by set
    expect(watcher.locator("#event-winner")).to_contain_text("won the tournament")
    expect(watcher.locator("#event-games .event-set")).to_have_count(4)
    expect(watcher.locator("#event-standings tbody tr")).to_have_count(3)
    assert axe_violations(watcher, "event page") == []
    first = watcher.locator("#event-games .watch-set").first
    table = (first.get_attribute("href") or "").rsplit("/", 1)[1]
    first.click()
    watcher.wait_for_url(f"**/t/{table}")
    page.context.close()
    watcher.context.close()


def test_a_player_registers_on_a_phone_in_arabic_with_the_keyboard(
    browser: object, server: str
) -> None:
    assert expect is not None
    host = new_page(browser, DESKTOP)  # type: ignore[arg-type]
    host.goto(f"{server}/events")
    made = _new_event(host, kind="sets-match", sets=1, target=1, turn_seconds=600)
    event_id, host_token = made["event"]["id"], made["host_token"]
    phone = new_page(browser, PHONE, locale="ar")  # type: ignore[arg-type]
    phone.goto(f"{server}/e/{event_id}?lang=ar")
    expect(phone.locator("html")).to_have_attribute("dir", "rtl")
    expect(phone.locator("#register")).to_be_visible()
    phone.focus("#pair-name")
    phone.keyboard.type("الأرز")
    phone.keyboard.press("Tab")
    phone.keyboard.press("Control+A")
    phone.keyboard.type("ليلى")
    phone.keyboard.press("Enter")
    expect(phone.locator("#registered")).to_be_visible()
    expect(phone.locator('#event-pairs li[data-pair="p1"]')).to_contain_text("الأرز")
    assert axe_violations(phone, "event page, registering, Arabic") == []
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width  # nothing runs off the phone's screen
    host.evaluate(
        """async ([id, token]) => fetch(`/api/events/${id}/start`, {method: 'POST',
            headers: {'Content-Type': 'application/json'}, body: JSON.stringify({token, fill: true})})""",
        [event_id, host_token],
    )
    play = phone.locator("#event-games .watch-set")
    expect(play).to_be_visible()
    play.focus()
    phone.keyboard.press("Enter")
    phone.wait_for_url("**/t/*")
    table = phone.url.rsplit("/", 1)[1]
    saved = json.loads(phone.evaluate(f"localStorage.getItem('tarneeb.seat.{table}')"))
    assert saved["seat"] == "south" and saved["token"]
    expect(phone.locator("#hand")).to_be_visible()  # seated: her own hand, not a spectator's
    host.context.close()
    phone.context.close()


def test_a_pair_name_being_typed_outlives_another_pair_registering(
    browser: object, server: str
) -> None:
    """The event's page draws itself anew on every live update, and the pair name a player
    was typing went with it (and the focus): another pair registering wiped the box."""
    assert expect is not None
    host = new_page(browser, DESKTOP)  # type: ignore[arg-type]
    host.goto(f"{server}/events")
    made = _new_event(host, kind="king-of-the-table", pairs=4, sets=2, target=1)
    event_id = made["event"]["id"]
    player = new_page(browser, DESKTOP)  # type: ignore[arg-type]
    player.goto(f"{server}/e/{event_id}")
    expect(player.locator("#register")).to_be_visible()
    player.focus("#pair-name")
    player.keyboard.type("The Cedars")
    # another pair registers meanwhile: the page hears of it and draws itself anew
    host.evaluate(
        """async (id) => fetch(`/api/events/${id}/pairs`, {method: 'POST',
            headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({name: 'Olives', players: [{name: 'Rami'}, {bot: true}]})})""",
        event_id,
    )
    expect(player.locator("#event-pairs li")).to_have_count(1)
    expect(player.locator("#pair-name")).to_have_value("The Cedars")
    assert player.evaluate("document.activeElement.id") == "pair-name"
    player.keyboard.type(" of Beirut")  # the caret is where it was: typing goes on
    expect(player.locator("#pair-name")).to_have_value("The Cedars of Beirut")
    player.keyboard.press("Enter")
    expect(player.locator("#registered")).to_be_visible()
    expect(player.locator("#event-pairs li")).to_have_count(2)
    expect(player.locator("#event-pairs")).to_contain_text("The Cedars of Beirut")
    host.context.close()
    player.context.close()


@pytest.mark.parametrize("width", [390, 360])
def test_the_standings_fit_a_phone_in_every_language(
    browser: object, server: str, width: int
) -> None:
    """A play test at 390x844 (stop 33): in Russian the standings ran 70 px past the phone
    ("Поражени" cut, the points out of sight), Dutch 65, Spanish 53. On a phone the counts'
    headings are a sports table's letters, each with its full word as its title."""
    assert expect is not None
    host = new_page(browser, DESKTOP)  # type: ignore[arg-type]
    host.goto(f"{server}/events")
    made = _new_event(host, kind="king-of-the-table", pairs=3, sets=2, target=1)
    event_id, token = made["event"]["id"], made["host_token"]
    host.evaluate(
        """async ([id, token]) => fetch(`/api/events/${id}/start`, {method: 'POST',
            headers: {'Content-Type': 'application/json'}, body: JSON.stringify({token, fill: true})})""",
        [event_id, token],
    )
    for locale in ("en-US", "ar", "es", "nl", "ru"):
        phone = new_page(browser, {"width": width, "height": 800}, locale=locale)  # type: ignore[arg-type]
        phone.goto(f"{server}/e/{event_id}")
        table = phone.locator("#event-standings .sheet-scroll")
        expect(table).to_be_visible()
        over = table.evaluate("(s) => s.scrollWidth - s.clientWidth")
        assert over <= 0, (locale, over)
        lost = phone.locator("#event-standings thead abbr").nth(2)
        expect(lost).to_be_visible()
        assert lost.get_attribute("title") == core_catalogue(locale[:2])["web.events.col.lost"]
        phone.context.close()
    wide = new_page(browser, DESKTOP, locale="ru")  # type: ignore[arg-type]
    wide.goto(f"{server}/e/{event_id}")
    expect(wide.locator("#event-standings thead")).to_contain_text("Поражения")
    expect(wide.locator("#event-standings thead abbr").first).to_be_hidden()
    wide.context.close()
    host.context.close()
