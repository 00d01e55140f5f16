"""Players in the browser (issue 24): sign up, a rated match of four browsers, profile, ladder.

Four players in four browser contexts: Layla plays a quick game as a guest,
then makes an account from the sign-up page (her guest match becomes hers)
and keeps the recovery code it shows once; the three others sign up too.
Layla hosts a rated table from the ranked page and the others join it there;
the match starts by itself (four players). Sami (West) leaves it, so the
server rates it as the rated tables always are (the leaver's side loses), and
the pages show it: Layla's profile with her rating, its plot and the match
(linked to its table), the leaderboard in its order, on a phone
too and in Arabic (right to left).

Skipped without Playwright or chromium, unless ``TARNEEB_REQUIRE_EXTRAS=1`` (CI).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import web_support
from tarneeb.record import read_record
from tarneeb.seats import Team
from test_web_a11y import axe_violations
from web_support import (
    DESKTOP,
    PHONE,
    Table,
    act_on_page,
    expect,
    new_page,
    page_errors,
    preset_rules_held,
    quick_play,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

browser = web_support.browser
server = web_support.server

PASSWORD = "a good long password"


def _sign_up(page: Page, server: str, name: str, found: list[str] | None = None) -> str:
    page.goto(f"{server}/#signup")
    page.wait_for_selector("#player-name")
    if found is not None:
        found += axe_violations(page, "sign up")
    page.fill("#player-name", name)
    page.fill("#player-password", PASSWORD)
    page.keyboard.press("Enter")  # the form is keyboard-usable: Enter submits it
    code = page.locator("#code-value")
    expect(code).to_have_value(re.compile(r"^[A-Z0-9]{5}(-[A-Z0-9]{5}){3}$"))  # type: ignore[misc]
    value = code.input_value()
    if found is not None:
        found += axe_violations(page, "recovery code")
    page.click("#code-done")
    expect(page.locator("#profile-name")).to_have_text(name)  # type: ignore[misc]
    return value


def test_sign_up_play_rated_and_see_the_rating(browser: Browser, server: str) -> None:
    found: list[str] = []  # what axe-core finds wrong on each page (nothing serious may be)
    layla = new_page(browser, DESKTOP)
    guest_table = quick_play(layla, server, "Layla")
    code = _sign_up(layla, server, "Layla", found)
    # The guest match is Layla's now, with its way back to the table.
    expect(layla.locator(f'#matches .match-item[data-table="{guest_table}"]')).to_be_visible()  # type: ignore[misc]
    expect(layla.locator("#nav-profile")).to_have_text("Layla")  # type: ignore[misc]
    # The sign-in page says who is signed in; the code is not shown again.
    layla.goto(f"{server}/#signin")
    expect(layla.locator("#signed-in")).to_contain_text("Layla")  # type: ignore[misc]
    assert code not in layla.content()

    # A wrong password is told in the page's words; a taken name too.
    stranger = new_page(browser, PHONE)
    stranger.goto(f"{server}/#signin")
    stranger.fill("#player-name", "layla")
    stranger.fill("#player-password", "not the password")
    stranger.click("#players-submit")
    expect(stranger.locator("#players-error")).to_have_text("Wrong name or password.")  # type: ignore[misc]
    stranger.goto(f"{server}/#signup")
    stranger.fill("#player-name", "LAYLA")
    stranger.fill("#player-password", PASSWORD)
    stranger.click("#players-submit")
    expect(stranger.locator("#players-error")).to_contain_text("taken")  # type: ignore[misc]
    found += axe_violations(stranger, "sign up, refused, phone")

    others = {"east": "Nour", "north": "Omar", "west": "Sami"}
    pages = {seat: new_page(browser, DESKTOP) for seat in others}
    for seat, name in others.items():
        _sign_up(pages[seat], server, name)

    layla.goto(f"{server}/#ranked")
    layla.wait_for_selector("#rated-list")
    found += axe_violations(layla, "ranked")
    layla.select_option("#ranked-rules", "classic")
    layla.click("#rated-create")
    layla.wait_for_url("**/t/*")
    table = layla.url.rsplit("/t/", 1)[1].split("#")[0].split("?")[0]
    for seat in ("east", "north", "west"):
        page = pages[seat]
        page.goto(f"{server}/#ranked")
        page.locator(f'#rated-list .table-item[data-table="{table}"] button').click()
        page.wait_for_url(f"**/t/{table}")
    # Four players: the match starts by itself, on every page.
    for page in (layla, *pages.values()):
        page.wait_for_selector("#board-grid")
    # Sami leaves the rated match (his seat's own request, as the table's leave does).
    status = pages["west"].evaluate(
        """async (table) => {
            const saved = JSON.parse(localStorage.getItem(`tarneeb.seat.${table}`));
            const answer = await fetch(`/api/tables/${table}/leave`, {method: 'POST',
                headers: {'Content-Type': 'application/json'}, body: JSON.stringify({token: saved.token})});
            return answer.status;
        }""",
        table,
    )
    assert status == 200

    layla.goto(f"{server}/#profile/Layla")
    expect(layla.locator('#ratings li[data-family="partnership"]')).to_contain_text("1 won of 1")  # type: ignore[misc]
    expect(layla.locator("#rating-plot circle.plot-won")).to_have_count(1)  # type: ignore[misc]
    rated = layla.locator(f'#matches .match-item[data-table="{table}"]')
    expect(rated.locator(".badge")).to_be_visible()  # type: ignore[misc]
    found += axe_violations(layla, "profile")
    # The match plays on with a bot for Sami: its way back to the table (the record and
    # replay links come once it is over).
    expect(rated.locator(".replay-link")).to_have_attribute("href", f"/t/{table}")  # type: ignore[misc]

    layla.goto(f"{server}/#leaderboard/partnership")
    rows = layla.locator("#leaderboard tbody tr")
    expect(rows).to_have_count(4)  # type: ignore[misc]
    names = rows.evaluate_all("rs => rs.map(r => r.dataset.name)")
    assert set(names[:2]) == {"Layla", "Omar"} and set(names[2:]) == {"Nour", "Sami"}
    found += axe_violations(layla, "leaderboard")
    layla.goto(f"{server}/")
    expect(layla.locator("#ranked-who")).to_contain_text("Layla")  # type: ignore[misc]
    found += axe_violations(layla, "home, signed in")

    # On a phone, in Arabic: the page is right to left, in Arabic, and fits the screen.
    phone = new_page(browser, PHONE, locale="ar")
    phone.goto(f"{server}/#leaderboard/partnership")
    expect(phone.locator("#leaderboard tbody tr")).to_have_count(4)  # type: ignore[misc]
    assert phone.evaluate("document.documentElement.dir") == "rtl"
    expect(phone.locator("h1")).to_have_text("لوحة المتصدرين")  # type: ignore[misc]
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width
    phone.goto(f"{server}/#profile/Sami")
    expect(phone.locator('#ratings li[data-family="partnership"]')).to_be_visible()  # type: ignore[misc]
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    found += axe_violations(phone, "profile, phone, Arabic")
    assert not found, "\n".join(found)
    for page in (layla, phone, *pages.values()):
        assert not page_errors(page), page_errors(page)


def test_a_rated_match_played_to_its_end(browser: Browser, server: str) -> None:
    """Four signed-in browsers play a rated match to its natural end (no leaver): the
    host sets the target on the ranked page (1: the first deal decides it), the others
    see it in the list and join; every card is played from its own page. The match is
    rated once, for the side that won on the table; the record the profile offers
    replays to the same end; the leaderboard is in the order of mu - 3 sigma.

    The target field holds the chosen preset's own target until the host types one: that
    one stays when the preset's rules come late (it was overwritten, a typed 1 becoming
    61), and the preset's own is never written under the caret."""
    names = {"south": "Rana", "east": "Fadi", "north": "Hala", "west": "Karim"}
    pages = {seat: new_page(browser, DESKTOP) for seat in names}
    for seat, name in names.items():
        _sign_up(pages[seat], server, name)
    host = pages["south"]
    host.goto(f"{server}/#ranked")
    host.wait_for_selector("#rated-list")
    target = host.locator("#rated-target")
    host.select_option("#ranked-rules", "lebanese31")
    expect(target).to_have_value("31")  # type: ignore[misc]  # the preset's own, to start
    with preset_rules_held(host, "tarneeb61", "#ranked-rules"):
        target.fill("1")
        host.focus("#ranked-rules")
    expect(target).to_have_value("1")  # type: ignore[misc]  # typed: the late 61 is not put
    host.select_option("#ranked-rules", "classic")  # a preset chosen anew: its own again
    expect(target).to_have_value("41")  # type: ignore[misc]
    target.fill("1")
    host.click("#rated-create")
    host.wait_for_url("**/t/*")
    table_id = host.url.rsplit("/t/", 1)[1].split("#")[0].split("?")[0]
    for seat in ("east", "north", "west"):
        page = pages[seat]
        page.goto(f"{server}/#ranked")
        item = page.locator(f'#rated-list .table-item[data-table="{table_id}"]')
        expect(item).to_contain_text("target 1")  # type: ignore[misc]  # joiners see the target
        item.locator("button").click()
        page.wait_for_url(f"**/t/{table_id}")

    table = Table(pages)
    ends = "() => document.querySelector('#match-end') !== null"
    while not host.evaluate(ends):
        table.last.wait_for_function(f"() => document.body.dataset.toAct || ({ends})()")
        if table.last.evaluate(ends):
            break
        if act_on_page(table.page_to_act(), table) == "summary":
            raise AssertionError("a deal ended without the match: the target was not 1")
        assert table.actions < 120
    assert table.cards_played == 52
    won: dict[str, bool] = {}
    for seat, page in pages.items():
        end = page.locator("#match-end")
        expect(end).to_be_visible()  # type: ignore[misc]
        expect(end.locator("#match-target")).to_have_text("Played to 1.")  # type: ignore[misc]
        won[seat] = end.locator("h2").text_content() == "You win the match!"
    # partners share the result, and one side won
    assert won["south"] == won["north"] != won["east"] == won["west"], won

    # Rated once, as the table ended: the winners won 1 of 1, the losers 0 of 1.
    host.goto(f"{server}/#profile/{names['south']}")
    family = host.locator('#ratings li[data-family="partnership"]')
    expect(family).to_contain_text("1 won of 1" if won["south"] else "0 won of 1")  # type: ignore[misc]
    match = host.locator(f'#matches .match-item[data-table="{table_id}"]')
    expect(match.locator(".badge")).to_be_visible()  # type: ignore[misc]
    expect(match.locator(".replay-link")).to_have_text("Replay")  # type: ignore[misc]
    # The record it offers replays to the end seen on the table.
    href = match.locator(".record-link").get_attribute("href") or ""
    answer = host.request.get(f"{server}{href}")
    assert answer.ok, answer.status
    record = read_record(answer.body())
    assert record.is_over()
    assert record.rules.target == 1
    winner = record.winner
    assert winner is not None and (winner is Team.NS) == won["south"], winner

    # The ladder: the four in the order of their conservative ratings, winners first.
    host.goto(f"{server}/#leaderboard/partnership")
    rows = host.locator("#leaderboard tbody tr")
    expect(rows.first).to_be_visible()  # type: ignore[misc]
    order = [
        n for n in rows.evaluate_all("rs => rs.map(r => r.dataset.name)") if n in names.values()
    ]
    winners = {names[s] for s, w in won.items() if w}
    assert set(order[:2]) == winners and len(order) == 4, order
    ratings = host.request.get(f"{server}/api/players/leaderboard?family=partnership").json()
    ordinals = [row["ordinal"] for row in ratings["players"]]
    assert ordinals == sorted(ordinals, reverse=True), ordinals
    for row in ratings["players"]:
        assert abs(row["ordinal"] - (row["mu"] - 3 * row["sigma"])) < 1e-3, (
            row
        )  # both rounded to 4 places
    for page in pages.values():
        assert not page_errors(page), page_errors(page)


def test_the_ranked_page_joins_again_when_the_queue_forgot_the_player(
    browser: Browser, server: str
) -> None:
    """A restart, or a worker of many taking the site's services over, empties the queue
    (it is memory): the page of a player who did not leave joins it again by itself;
    the player who leaves is not joined again."""
    page = new_page(browser, PHONE)
    _sign_up(page, server, "Zaid")
    page.goto(f"{server}/#ranked")
    page.select_option("#ranked-rules", "classic")
    page.click("#ranked-join")
    expect(page.locator("#ranked-waiting")).to_be_visible()  # type: ignore[misc]
    queue = "async () => (await (await fetch('/api/players/queue')).json()).state"
    # the server forgets the player (here by the queue's own leave, sent behind the page)
    left = page.evaluate(
        """async () => (await fetch('/api/players/queue/leave', {method: 'POST',
            headers: {'Content-Type': 'application/json'}, body: '{}'})).json()"""
    )
    assert left["state"] == "idle", left
    for _ in range(20):  # the page polls every 2 s
        if page.evaluate(queue) == "waiting":
            break
        page.wait_for_timeout(500)
    assert page.evaluate(queue) == "waiting", "the page did not join the queue again"
    expect(page.locator("#ranked-waiting")).to_be_visible()  # type: ignore[misc]
    page.click("#ranked-leave")
    expect(page.locator("#ranked-waiting")).to_have_count(0)  # type: ignore[misc]
    page.wait_for_timeout(4_500)  # two polls: still out of the queue
    assert page.evaluate(queue) == "idle"
    assert not page_errors(page), page_errors(page)
