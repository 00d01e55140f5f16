"""Issue 23, item by item: what a new player found broken in the browser table.

One test (or a few, where an item names several pages) per numbered item of
"Broken or confusing today", each written against the behaviour the issue
asks for, so that it failed before the fix. The quotes are the issue's.

Skipped without Playwright or chromium, unless ``TARNEEB_REQUIRE_EXTRAS=1`` (CI).
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

import web_support
from tarneeb.i18n import core_catalogue
from web_support import (
    DESKTOP,
    LAPTOP,
    PHONE,
    READY,
    Table,
    act_on_page,
    click_card,
    expect,
    new_page,
    page_errors,
    play_deals,
    play_until,
    preset_rules_held,
    quick_play,
    run_server,
    state_of,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

browser = web_support.browser
server = web_support.server

MY_PLAY = "!!document.querySelector('#hand .card.legal:not([disabled])')"
"""At one of our turns to play a card."""


def _visible_dialogs(page: Page) -> int:
    count: int = page.evaluate(
        """() => [...document.querySelectorAll('dialog[open], [role=dialog], [role=alertdialog]')]
            .filter((d) => d.checkVisibility()).length"""
    )
    return count


# -- 1 ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "viewport", "deals"),
    [("classic", LAPTOP, 6), ("egyptian", DESKTOP, 1), ("sol", DESKTOP, 1)],
    ids=["classic-laptop-6-deals", "egyptian-first-deal", "sol-first-deal"],
)
def test_item1_the_hand_stays_on_a_laptop_screen(
    browser: Browser, server: str, preset: str, viewport: dict[str, int], deals: int
) -> None:
    """ "After 4-5 deals your hand is below the screen on a laptop [...] In Egyptian
    and Sol the bid box hides the hand from the first deal." """
    page = new_page(browser, viewport, reduced_motion=True)
    quick_play(page, server, name="Maya", preset=preset, target=1000)
    done = play_deals(page, deals)
    assert not done["problems"] and done["at"] is None, (done["at"], done["problems"][:4])
    page.context.close()


# -- 2 ------------------------------------------------------------------------

SHOWN = """() => {
  window.__shown = [];
  let last = null;
  const look = () => {
    const cards = [...document.querySelectorAll('#trick .trick-card')]
      .filter((c) => c.checkVisibility()).map((c) => c.dataset.card).sort();
    const key = cards.length === 4 ? cards.join(' ') : '';
    if (key !== last) { window.__shown.push([performance.now(), key]); last = key; }
  };
  setInterval(look, 10);
}"""
"""Records, every 10 ms, which full trick (four cards) the page shows, if any."""


def test_item2_every_trick_stays_on_screen_whole_before_it_goes(
    browser: Browser, server: str
) -> None:
    """ "Tricks cannot be followed: cards appear and vanish, a bot's winning trick
    is on screen 0.4-0.6 s, the last trick of a deal is never seen whole." The
    test server's bots play at once: the page itself must hold each trick, at the
    client's default pace."""
    page = new_page(browser, DESKTOP, pace=None)
    quick_play(page, server, name="Maya", target=1000)
    page.evaluate(SHOWN)
    table = Table({"south": page})
    while True:
        # as a player does, look at a finished trick until it is gathered, then play on
        page.wait_for_function(
            "() => document.querySelectorAll('#trick .trick-card').length < 4"
            " || !!document.querySelector('#deal-summary')"
        )
        if act_on_page(page, table) == "summary":
            break
        assert table.actions < 40
    shown: list[list[Any]] = page.evaluate("() => [...window.__shown, [performance.now(), '']]")
    held: dict[str, float] = {}
    for (start, key), (end, _) in itertools.pairwise(shown):
        if key:
            held[key] = held.get(key, 0.0) + end - start
    # all thirteen tricks were seen whole, the last one too, each long enough to read
    assert len(held) == 13, {k: round(v) for k, v in held.items()}
    short = {k: round(v) for k, v in held.items() if v < 900}
    assert not short, f"tricks on screen under 0.9 s (ms): {short}"
    page.context.close()


# -- 3 ------------------------------------------------------------------------


def test_item3_the_three_bots_have_names_of_their_own(browser: Browser, server: str) -> None:
    """ "All three bots are "Good bot", so bids, the last trick and the summary are
    unreadable." """
    page = new_page(browser, DESKTOP)
    quick_play(page, server, name="Maya")
    names = page.locator(".seat.is-bot .seat-name").all_text_contents()
    assert len(names) == 3
    assert len(set(names)) == 3, names
    page.wait_for_selector("#bidbox .bid-button:not([disabled])")
    # the auction names who called what, each bot apart
    whos = page.locator("#auction-list li .who").all_text_contents()
    assert len(set(whos)) == len(whos), whos
    page.context.close()


# -- 4 (the invites themselves: tests/test_web_invites.py) --------------------


def test_item4_the_home_page_leads_back_to_a_running_game(browser: Browser, server: str) -> None:
    """ "[...] there is no way back to a running game from the home page." """
    page = new_page(browser, DESKTOP)
    table_id = quick_play(page, server, name="Maya")
    page.wait_for_selector(READY)
    page.goto(f"{server}/")
    back = page.locator(f'a[href$="/t/{table_id}"]')
    expect(back.first).to_be_visible()
    back.first.click()
    expect(page.locator("body")).to_have_attribute("data-seat", "south")
    expect(page.locator(".seat.me")).to_have_attribute("data-seat", "south")
    page.context.close()


# -- 5 ------------------------------------------------------------------------


def test_item5_a_guest_sees_the_log_and_chat_once(browser: Browser, server: str) -> None:
    """ "After joining, the log and chat appear twice." """
    host = new_page(browser, DESKTOP)
    host.goto(f"{server}/")
    host.fill("#create-name", "Layla")
    # The levels come with the server's info: until it is read, the page offers its own
    # short list of bots, and a choice read from that list was gone once the info came.
    host.select_option("#seat-north", "bot:medium")
    host.select_option("#seat-west", "bot:medium")
    host.click("#create-table")
    invite = host.locator('#invites .invite[data-seat="east"] .invite-url').input_value()
    host.click("#go-table")
    host.fill("#chat-input", "Ahlan!")
    host.press("#chat-input", "Enter")
    expect(host.locator("#chat-log .chat-line").last).to_have_text("Layla: Ahlan!")
    guest = new_page(browser, DESKTOP)
    guest.goto(invite)
    guest.fill("#join-name", "Omar")
    guest.click("#join-button")
    expect(guest.locator("body")).to_have_attribute("data-seat", "east")
    expect(guest.locator("#hand .card")).to_have_count(13)
    lines = guest.locator("#chat-log li").all_text_contents()
    assert lines.count("Layla: Ahlan!") == 1, lines
    assert len(lines) == len(set(lines)), lines
    for page in (host, guest):
        page.context.close()


def test_item5_the_chat_box_stays_while_the_table_connects(browser: Browser, server: str) -> None:
    """The chat form was hidden from the table's first drawing until the welcome (until then
    no seat is known), so a line typed as the page opened and sent with Enter went nowhere
    and stayed in the box (CI saw it: "Layla: Ahlan!" never came). A player with a seat on
    this device keeps the box; a line sent before the welcome waits, and goes after it."""
    host = new_page(browser, DESKTOP)
    host.goto(f"{server}/")
    host.fill("#create-name", "Layla")
    host.click("#create-table")
    expect(host.locator("#go-table")).to_be_visible()
    # the server's frames to the page are held until the test lets them go
    held: list[Any] = []
    open_: list[bool] = [False]

    def route(ws: Any) -> None:
        to_server = ws.connect_to_server()

        def down(message: Any) -> None:
            if open_[0]:
                ws.send(message)
            else:
                held.append((ws, message))

        to_server.on_message(down)

    host.route_web_socket(re.compile(r"/ws/"), route)
    host.click("#go-table")
    # the table was drawn (its infobar), and no welcome came: the box is there all the same
    expect(host.locator("#infobar")).not_to_be_empty()
    expect(host.locator("#chat-form")).to_be_visible()
    host.fill("#chat-input", "Ahlan!")
    host.press("#chat-input", "Enter")
    expect(host.locator("#chat-input")).to_have_value("")
    open_[0] = True
    for ws, message in held:
        ws.send(message)
    expect(host.locator("#chat-log .chat-line").last).to_have_text("Layla: Ahlan!")
    assert not page_errors(host)
    host.context.close()


def test_item5_a_name_typed_before_the_page_loaded_stays(browser: Browser, server: str) -> None:
    """The home page drew itself again once the server's facts came, and the name typed
    into the fresh form was gone (the host chatted as "Player")."""
    page = new_page(browser, DESKTOP)
    held: list[Any] = []
    page.route("**/api/info", lambda route: held.append(route))
    page.goto(f"{server}/")
    page.wait_for_function("() => !!document.querySelector('#create-name')")
    page.wait_for_timeout(100)  # the route handler runs while Playwright waits
    assert held, "the page asked for /api/info"
    page.fill("#create-name", "Layla")
    page.focus("#create-name")
    for route in held:
        route.continue_()
    page.unroute("**/api/info")
    # the server's bots by level arrived: the form was drawn again
    page.wait_for_function(
        "() => [...document.querySelectorAll('#seat-north option')].some((o) => o.value === 'bot:medium')"
    )
    expect(page.locator("#create-name")).to_have_value("Layla")
    expect(page.locator("#create-name")).to_be_focused()
    page.context.close()


def test_a_target_being_typed_is_not_changed_under_the_caret(browser: Browser, server: str) -> None:
    """The preset's own target arrives with its rules, and was written into the target
    field even while the player was in it: the text they had selected to type over became
    "61", the caret went to its end, and "1000" typed then made "611000", which the form
    refused without a word (seen in CI, as a quick play that never started)."""
    page = new_page(browser, DESKTOP)
    page.goto(f"{server}/")
    page.wait_for_selector('#quick-rules option[value="tarneeb61"]', state="attached")
    page.wait_for_function("() => document.querySelector('#quick-target').dataset.preset")
    with preset_rules_held(page, "tarneeb61", "#quick-rules"):
        page.focus("#quick-target")
        page.keyboard.press("ControlOrMeta+A")  # to type over it, when the rules come
    page.keyboard.type("1000")
    expect(page.locator("#quick-target")).to_have_value("1000")
    # left without typing: the preset's own target, once the caret is gone
    page.focus("#quick-rules")
    with preset_rules_held(page, "lebanese31", "#quick-rules"):
        page.focus("#quick-target")
    expect(page.locator("#quick-target")).to_have_value("1000")
    page.focus("#quick-name")
    expect(page.locator("#quick-target")).to_have_value("31")
    page.context.close()


def test_item5_chat_typed_before_the_connection_is_sent_once_it_is(
    browser: Browser, server: str
) -> None:
    """Enter in the chat before the table's connection was up did nothing: the line was
    lost without a word. Now it waits (shown as waiting) and goes once connected."""
    host = new_page(browser, DESKTOP)
    table_id = quick_play(host, server, name="Layla", target=1000)
    held: list[Any] = []
    host.route(f"**/api/tables/{table_id}", lambda route: held.append(route))
    host.reload()
    host.wait_for_function("() => !!document.querySelector('#chat-input')")
    host.wait_for_timeout(100)
    assert held, "the page asked for its table"
    host.fill("#chat-input", "Ahlan!")
    host.press("#chat-input", "Enter")
    expect(host.locator("#chat-log .chat-queued")).to_contain_text("Ahlan!")
    expect(host.locator("#chat-input")).to_have_value("")
    for route in held:
        route.continue_()
    host.unroute(f"**/api/tables/{table_id}")
    expect(host.locator("#chat-log .chat-line").last).to_have_text("Layla: Ahlan!")
    expect(host.locator("#chat-log .chat-queued")).to_have_count(0)
    expect(host.locator("#chat-log .chat-line", has_text="Ahlan!")).to_have_count(1)
    host.context.close()


def test_item5_after_a_reload_the_check_still_finds_my_hand(browser: Browser, server: str) -> None:
    """ "After a reload, the shuffle check silently drops "and deals your hand"." """
    page = new_page(browser, DESKTOP, reduced_motion=True)
    quick_play(page, server, name="Maya", target=1000)
    assert play_deals(page, 1)["at"] is None
    expect(page.locator("#deal-summary .fair")).to_have_attribute("data-check", "ok")
    page.click("#summary-close")
    page.reload()
    page.wait_for_selector(READY)
    # the finished deal, checked again after the reload: the hand dealt is still ours
    badge = page.locator(
        '[data-deal="1"] [data-check], [data-deal="1"].fair, #deals li[data-deal="1"] .fair-badge'
    )
    expect(badge.first).to_be_attached()
    expect(badge.first).not_to_have_class(re.compile("partial|checking"))
    check = badge.first.get_attribute("data-check") or badge.first.get_attribute("class") or ""
    assert "ok" in check, check
    page.context.close()


# -- 6 ------------------------------------------------------------------------


def _side(seat: str) -> int:
    return 0 if seat in ("south", "north") else 1


def _text(page: Page) -> str:
    text: str = page.evaluate("() => document.body.innerText")
    return text


@pytest.mark.parametrize("preset", ["classic", "tarneeb400"])
def test_item6_the_declarers_count_stands_against_the_bid(
    browser: Browser, server: str, preset: str
) -> None:
    """ "Tarneeb 400 never shows card points against the bid; [...] nowhere says
    "N-S 5 of 8"." """
    page = new_page(browser, DESKTOP, reduced_motion=True)
    table_id = quick_play(page, server, name="Maya", preset=preset, target=1000)
    table = Table({"south": page})
    # our turn, some tricks in: the declarers' count is shown against their bid
    play_until(page, table, MY_PLAY + " && document.querySelectorAll('#hand .card').length <= 9")
    match = state_of(page, table_id)["match"]
    contract = match["contract"]
    side = _side(contract["seat"])
    counts = match["side_card_points"] if match.get("side_card_points") else match["side_tricks"]
    shown = rf"\b{counts[side]}\s*(of|/)\s*{contract['level']}\b"
    assert re.search(shown, _text(page)), (shown, _text(page)[:600])
    page.context.close()


def test_item6_syrian_400_scores_each_player_not_the_teams(browser: Browser, server: str) -> None:
    """ "Syrian 400 shows "S 2E 4N 6W 2" and a team bar, though its rule is per player" """
    page = new_page(browser, DESKTOP, reduced_motion=True)
    quick_play(page, server, name="Maya", preset="syrian400", target=1000)
    # A deal whose bids total under the minimum (11) is dealt again, unplayed. This page
    # bids the lowest, so 40% of its deals are (79 of 200 against heuristic bots): three in
    # a row, the old limit, came 1 run in 16 (CI saw it); twelve, 1 in 70,000
    play_until(page, Table({"south": page}), MY_PLAY, deals=12)
    text = _text(page)
    # each player's bid stands apart from the next seat's letter
    assert not re.search(r"\b[SENW] ?\d+[SENW]\b", text), text[:600]
    # no bar of the teams' race to the target: the players race alone
    bars = page.locator('[role="progressbar"], progress, meter')
    assert bars.count() in (0, 4), bars.count()
    page.context.close()


def test_item6_syrian_400_deal_summaries_speak_of_each_player(
    browser: Browser, server: str
) -> None:
    """A play test on a phone (stop 33): Syrian 400's deal summary ended "Score: N–S 6,
    E–W 9", the sides' sums, which decide nothing there (the info bar said the same); and
    a deal dealt again unplayed
    (its bids under the minimum) listed "Maya 0 of 2", as if a result. The summary gives
    each player's score, and a redeal each player's bid alone."""
    page = new_page(browser, DESKTOP, reduced_motion=True)
    quick_play(page, server, name="Maya", preset="syrian400", target=1000)
    scores = re.compile(r"S -?\d+, N -?\d+; E -?\d+, W -?\d+")
    seen = {"played": False, "redealt": False}
    for _ in range(16):  # 40% of this page's deals are dealt again (see the test above)
        done = play_deals(page, 1)
        assert not done["problems"] and page.locator("#deal-summary").count(), done
        # (a negative number is a left-to-right isolate: its minus stays in front)
        text = page.locator("#summary-scores").inner_text()
        text = text.replace("\u2066", "").replace("\u2069", "")
        assert scores.search(text) and "N–S" not in text, text
        # the info bar too: each player's score, not the sides'
        bar = page.locator("#score").inner_text().replace("\u2066", "").replace("\u2069", "")
        assert page.locator("#score .seat-total").count() == 4 and "N–S" not in bar, bar
        bids = page.locator("#summary-progress li")
        assert bids.count() == 4
        redealt = page.locator("#summary-thrown").count() > 0
        first = bids.first.inner_text()
        if redealt:
            assert re.search(r"bid \d+$", first) and " of " not in first, first
            # the finished deals list says so too, where it said nothing ("#3 verified")
            listed = page.locator("#deals li").first.inner_text()  # the newest first
            assert "thrown in" in listed, listed
        else:
            assert re.search(r"\d+ of \d+", first), first
        seen["redealt" if redealt else "played"] = True
        if all(seen.values()):
            break
        page.click("#summary-close")
        expect(page.locator("#deal-summary")).to_have_count(0)  # the next deal needs our bid
    assert all(seen.values()), seen
    page.context.close()


_READING = r"""(li) => {
  // where a character of the line's text (outside the name) is drawn
  const rect = (node, i) => { const r = document.createRange(); r.setStart(node, i);
    r.setEnd(node, i + 1); return r.getBoundingClientRect(); };
  const who = li.querySelector('.who');
  const walker = document.createTreeWalker(li, NodeFilter.SHOW_TEXT);
  let digit = null, sign = null, signed = null;
  for (let n; (n = walker.nextNode()); ) {
    if (who.contains(n)) continue;
    const s = n.textContent;
    for (let i = 0; i < s.length; i++) {
      if (digit === null && /\d/.test(s[i])) digit = rect(n, i).right;
      if (n.parentElement.tagName === 'B' && /[+\-\u2212]/.test(s[i])) sign = rect(n, i).left;
      if (n.parentElement.tagName === 'B' && sign !== null && signed === null && /\d/.test(s[i]))
        signed = rect(n, i).left;
    }
  }
  return {text: li.innerText, who: who.getBoundingClientRect().left, digit, sign, signed};
}"""


def test_a_latin_name_reads_in_its_place_in_arabic(browser: Browser, server: str) -> None:
    """A play test in Arabic (stop 35): Syrian 400's deal summary drew "Maya 5 من 2 +2"
    as "2+ 2 من Maya 5": the Latin name took the number after it into its left-to-right
    run, so that a reader from the right read "5 Maya of 2", and the "+" of the deal's
    points fell behind its number ("2+", where "-10" on the next line kept its minus in
    front). A name is its own isolate, and a signed number keeps its sign in front."""
    page = new_page(browser, DESKTOP, locale="ar", reduced_motion=True)
    quick_play(page, server, name="Maya", preset="syrian400", target=1000)
    for _ in range(16):  # 40% of this page's deals are dealt again (see above)
        done = play_deals(page, 1)
        assert not done["problems"] and page.locator("#deal-summary").count(), done
        if not page.locator("#summary-thrown").count():
            break
        page.click("#summary-close")
        expect(page.locator("#deal-summary")).to_have_count(0)
    else:
        pytest.fail("every deal was dealt again")
    lines = page.locator("#summary-progress li")
    assert lines.count() == 4
    for i in range(4):
        line = lines.nth(i).evaluate(_READING)
        # right to left: the name first, at the right, then what it took
        assert line["digit"] <= line["who"] + 1, line
        if line["sign"] is not None:
            assert line["sign"] < line["signed"], line  # "+2" and "-10", never "2+"
    page.context.close()


def test_item6_egyptian_trump_is_the_bids_strain_before_play(
    browser: Browser, tmp_path: Path
) -> None:
    """ "Egyptian's raise phase says "trump not chosen" under 7C". Bots that take a
    second to act, so that a bot's raise phase stays on the page to be read; we pass
    throughout, so that a bot's bid is soon the last and it may raise."""
    page = new_page(browser, DESKTOP, reduced_motion=True)
    with run_server(tmp_path / "slow.db", bot_delay=1.0) as slow:
        table_id = quick_play(page, slow, name="Maya", preset="egyptian", target=1000)
        for _ in range(80):
            page.wait_for_function(
                f"() => document.body.dataset.phase === 'raise' || !!document.querySelector('{READY}')"
            )
            if page.get_attribute("body", "data-phase") == "raise":
                shown = page.evaluate(
                    "() => [document.querySelector('#trump')?.dataset.trump || '',"
                    " document.querySelector('#infobar').innerText]"
                )
                contract = state_of(page, table_id)["match"]["contract"]
                if contract["strain"] in ("C", "D", "H", "S"):
                    assert shown[0] == contract["strain"], (shown, contract)
                    assert "not chosen" not in shown[1].lower(), shown
                    page.context.close()
                    return
            if page.locator("#deal-summary").count():
                page.click("#summary-close")
            elif page.locator("#bidbox .bid-button:not([disabled])").count():
                version = int(page.get_attribute("body", "data-version") or "0")
                pass_ = page.locator('#bidbox .bid-button[data-action="pass"]')
                (pass_ if pass_.count() else page.locator("#bidbox .bid-button").first).click()
                page.wait_for_function(
                    "v => Number(document.body.dataset.version) > v", arg=version
                )
            elif page.get_attribute("body", "data-phase") == "play":
                act_on_page(page, Table({"south": page}))
    pytest.fail("no bot's raise phase came up after a bid in a suit")


# -- 7 ------------------------------------------------------------------------


def test_item7_one_match_end_with_its_own_target_and_a_rematch(
    browser: Browser, server: str
) -> None:
    """ "The match end stacks two dialogs, shows "Classic (41)" for a custom target,
    a "Sets won" line in classic, and no rematch." """
    page = new_page(browser, DESKTOP, reduced_motion=True)
    quick_play(page, server, name="Maya", target=5)
    done = play_deals(page, 20)
    assert (done["at"] and "match ended" in done["at"]) or page.locator("#deal-summary").count()
    while page.locator("#deal-summary").count():
        assert _visible_dialogs(page) == 1
        page.click("#summary-close")
    page.wait_for_selector("#match-end")
    assert _visible_dialogs(page) == 1
    text = _text(page)
    assert "(41)" not in text and "41" not in page.locator("#infobar").inner_text()
    assert "sets won" not in text.lower()
    rematch = page.get_by_role("button", name=re.compile("rematch|play again", re.I))
    expect(rematch).to_be_visible()
    rematch.click()
    expect(page.locator("body")).to_have_attribute("data-status", "playing")
    expect(page.locator("body")).to_have_attribute("data-deal", "1")
    expect(page.locator("#score-ns")).to_have_text("0")
    page.context.close()


# -- 8 ------------------------------------------------------------------------


def _press(page: Page, key: str, code: str) -> None:
    """A key as a keyboard of another layout sends it: its character, and the physical key."""
    page.evaluate(
        """([key, code]) => (document.activeElement || document.body).dispatchEvent(
            new KeyboardEvent('keydown', {key, code, bubbles: true, cancelable: true}))""",
        [key, code],
    )


def test_item8_keys_work_on_an_arabic_keyboard(browser: Browser, server: str) -> None:
    """ "Letter keys compare characters, so on Arabic or Russian layouts P, X, L and the
    trump letters do nothing; the key hint is one sentence for every phase and preset
    (it offers "X double" where there is no doubling)." """
    page = new_page(browser, DESKTOP, locale="ar", reduced_motion=True)
    quick_play(page, server, name="ليلى", target=1000)
    # until it is ours to call in the auction, after someone else bid, with no dialog over
    # the table (a key pressed under the deal's summary is refused, see the test above)
    play_until(
        page,
        Table({"south": page}),
        """document.body.dataset.phase === 'auction'
        && !document.querySelector('dialog[open]')
        && !!document.querySelector('#auction-list li:not([data-seat="south"]) .act-bid')
        && !!document.querySelector('#bidbox .bid-button[data-action="pass"]:not([disabled])')""",
        deals=8,
    )
    version = int(page.get_attribute("body", "data-version") or "0")
    # the P key of an Arabic keyboard: the character "ح", the physical key KeyP
    _press(page, "ح", "KeyP")
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=version)
    match = state_of(page, page.url.rsplit("/", 1)[1])["match"]
    mine = [c for c in match["auction"]["calls"] if c["seat"] == "south"]
    assert mine and mine[-1]["action"]["kind"] == "pass", mine
    page.context.close()


def test_item8_a_key_under_the_summary_is_refused_out_loud(browser: Browser, server: str) -> None:
    """The deal's summary opens over the next deal's bidding box: a key pressed then was
    lost without a word (and the box below stood enabled). Now the table under a dialog
    is disabled, and a key meant for it says so."""
    page = new_page(browser, DESKTOP, reduced_motion=True)
    table_id = quick_play(page, server, name="Maya", target=1000)
    assert play_deals(page, 1)["deals"] == 1
    expect(page.locator("#deal-summary")).to_be_visible()
    # the next deal's auction is at our turn under the summary
    page.wait_for_function(
        "() => document.body.dataset.deal === '2' && document.body.dataset.toAct === 'south'"
    )
    expect(page.locator("#bidbox .bid-button").first).to_be_attached()
    assert page.locator("#bidbox .bid-button:not([disabled])").count() == 0
    assert page.locator("#hand .card:not([disabled])").count() == 0
    _press(page, "p", "KeyP")
    note = page.locator(".covered-note")
    expect(note).to_be_visible()
    expect(note).not_to_be_empty()
    calls = state_of(page, table_id)["match"]["auction"]["calls"]
    assert not [c for c in calls if c["seat"] == "south"], calls
    # the summary closed, the same key is a call again
    page.click("#summary-close")
    expect(page.locator(".covered-note")).to_have_count(0)
    page.wait_for_selector('#bidbox .bid-button[data-action="pass"]:not([disabled])')
    _press(page, "p", "KeyP")
    # the table's own state says when the call is in. The pass may end deal 2 at once: the
    # three bots pass after it, the deal is thrown in, and deal 3's auction holds no call of
    # ours yet (this test failed 1 run in 8 so, and was taken for a lost key). Deal 2 could
    # only end past our turn with our call.
    for _ in range(50):
        match = state_of(page, table_id)["match"]
        calls = match["auction"]["calls"]
        south = [c for c in calls if c["seat"] == "south"] if match["deal_number"] == 2 else []
        if south or match["deal_number"] > 2:
            break
        page.wait_for_timeout(200)
    if match["deal_number"] == 2:
        assert south and south[-1]["action"]["kind"] == "pass", calls
    else:
        calls = page.request.get(f"{server}/api/tables/{table_id}/deals/2").json()["auction"]
        south = [c for c in calls if c["seat"] == "south"]
        assert south and south[-1]["action"]["kind"] == "pass", calls
    page.context.close()


def test_item8_the_key_hint_offers_only_what_the_rules_have(browser: Browser, server: str) -> None:
    page = new_page(browser, DESKTOP, reduced_motion=True)
    quick_play(page, server, name="Maya", target=1000)
    page.wait_for_selector("#bidbox .bid-button:not([disabled])")
    bidding = page.locator("#bidbox").inner_text()
    # classic has no doubling: the hint must not offer it
    assert "double" not in bidding.lower(), bidding
    play_until(page, Table({"south": page}), MY_PLAY)
    hint = page.locator(".keys-hint, .hint.keys, [data-hint=keys]")
    assert hint.count(), "no key hint while playing"
    assert "double" not in hint.first.inner_text().lower()
    page.context.close()


@pytest.mark.parametrize("touch", [False, True], ids=["keyboard", "touch"])
def test_item8_keys_are_told_of_only_where_there_is_a_keyboard(
    browser: Browser, server: str, touch: bool
) -> None:
    """A play test at 390x844 (stop 33): the bidding box on a phone read "type the number
    of your bid · P pass · arrows and Enter". A touch screen with no mouse (``hover: none``,
    ``pointer: coarse``) is told of no keys; a laptop of all of them."""
    page = new_page(browser, PHONE if touch else LAPTOP, touch=touch)
    quick_play(page, server, name="Maya", target=1000)
    page.wait_for_selector("#bidbox .bid-button:not([disabled])")
    keys = page.locator("#key-hints")
    last_trick = page.locator("summary[data-key=last-trick] small")
    assert keys.count() == 1 and last_trick.count() == 1
    if touch:
        expect(keys).to_be_hidden()
        expect(last_trick).to_be_hidden()
    else:
        expect(keys).to_be_visible()
        expect(keys).to_contain_text(core_catalogue("en")["web.keys.arrows"])
        expect(last_trick).to_have_text("(L)")
    page.context.close()


# -- 9 ------------------------------------------------------------------------


def test_item9_cards_are_readable_won_by_and_dimmed(browser: Browser, server: str) -> None:
    """ ""Won by X" overlaps the cards; dimmed cards are see-through" """
    page = new_page(browser, DESKTOP, reduced_motion=True)
    quick_play(page, server, name="Maya", target=1000)
    table = Table({"south": page})
    # our turn to play with a card we may not play (another suit was led)
    play_until(page, table, MY_PLAY + " && !!document.querySelector('#hand .card:disabled')")
    faded: list[str] = page.evaluate(
        """() => [...document.querySelectorAll('#hand .card:disabled')].filter((c) => {
            for (let e = c; e; e = e.parentElement) if (Number(getComputedStyle(e).opacity) < 1) return true;
            return false; }).map((c) => c.dataset.card)"""
    )
    assert not faded, f"see-through cards: {faded}"
    # a trick over: its "won by" note covers none of its cards
    for _ in range(40):
        notes: list[str] = page.evaluate(
            """() => {
                const meet = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1
                    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
                const cards = [...document.querySelectorAll('#trick .trick-card .card')];
                return [...document.querySelectorAll('#trick .trick-note, #trick [data-winner-note]')]
                    .filter((n) => n.checkVisibility() && cards.some((c) => meet(n.getBoundingClientRect(), c.getBoundingClientRect())))
                    .map((n) => n.textContent);
            }"""
        )
        assert not notes, f"the note covers the cards: {notes}"
        if act_on_page(page, table) == "summary":
            break
    page.context.close()


def test_item9_the_sol_bid_grid_says_each_bid_once(browser: Browser, server: str) -> None:
    """ "the Sol bid grid repeats the level and strands NT" """
    page = new_page(browser, DESKTOP, reduced_motion=True)
    quick_play(page, server, name="Maya", preset="sol", target=1000)
    page.wait_for_selector("#bidbox .bid-button:not([disabled])")
    rows: list[dict[str, Any]] = page.evaluate(
        """() => [...document.querySelectorAll('#bidbox .bid-row')].map((r) => ({
            text: r.innerText.replace(/\\s+/g, ' ').trim(),
            level: (r.querySelector('.level') || {}).textContent || '',
            top: Math.round(r.getBoundingClientRect().top),
            buttons: [...r.querySelectorAll('.bid-button')].map((b) => b.dataset.action)}))"""
    )
    for row in rows:
        if row["level"]:
            # the level labels its row once, its buttons do not repeat it
            assert row["text"].split().count(row["level"].strip()) == 1, row
        # a no-trump bid sits in the row of its level, not on a row of its own
        assert any(not b.endswith("NT") for b in row["buttons"]) or len(rows) == 1, row
    page.context.close()


def test_item9_the_replay_reads_well_and_opens_at_the_start(browser: Browser, server: str) -> None:
    """ "the replay says "trick(s) ...play.Best:", always labels South, opens at the
    end, and its controls are not mirrored in Arabic" """
    page = new_page(browser, DESKTOP, locale="ar", reduced_motion=True)
    quick_play(page, server, name="ليلى", target=1)
    assert "match ended" in (play_deals(page, 1)["at"] or "")
    page.keyboard.press("Escape")  # the match end is a modal dialog: close it first
    page.locator('a[href="#replay/1"]').first.click()
    expect(page.locator("#replay")).to_be_visible()
    expect(page.locator("#replay-slider")).to_have_value("0")
    text = page.locator("#replay").inner_text()
    assert "(s)" not in text and not re.search(r"\b[a-z]+\.[A-Za-z]+:", text), text[:400]
    # each hand is labelled with its own seat's player
    labels = page.locator(".replay-hand .seat-name")
    seats = {s for s in labels.evaluate_all("ls => ls.map((l) => l.textContent.trim())") if s}
    assert len(seats) == 4, seats
    first, last = (
        page.locator("#replay-first").bounding_box(),
        page.locator("#replay-last").bounding_box(),
    )
    assert first and last and first["x"] > last["x"], (
        "the first step sits at the start: right in Arabic"
    )
    page.context.close()


def test_item9_the_replays_trick_stands_clear_of_the_hands_on_a_phone(
    browser: Browser, server: str
) -> None:
    """Seen in the phone screenshots: in the replay at 390 px the side hands were wider
    than their columns, and the trick's left and right cards lay over them."""
    page = new_page(browser, PHONE, reduced_motion=True)
    quick_play(page, server, name="Maya", target=1000)
    assert play_deals(page, 1)["deals"] == 1
    page.click("#summary-close")
    page.goto(page.url.split("#")[0] + "#replay/1")
    expect(page.locator("#replay")).to_be_visible()
    for _ in range(30):  # past the bids: the first trick whole on the table
        if page.locator("#replay-trick .trick-card").count() == 4:
            break
        page.click("#replay-next")
    expect(page.locator("#replay-trick .trick-card")).to_have_count(4)
    overlaps: list[str] = page.evaluate(
        """() => {
            const meet = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1
                && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
            const cards = [...document.querySelectorAll('#replay-trick .trick-card')];
            const hands = [...document.querySelectorAll('.replay-hand')];
            const out = [];
            for (const c of cards) for (const h of hands)
                if (meet(c.getBoundingClientRect(), h.getBoundingClientRect())) out.push(`${c.className} over ${h.className}`);
            const width = document.documentElement.clientWidth;
            for (const h of hands) if (h.getBoundingClientRect().right > width + 0.5) out.push(`${h.className} off screen`);
            return out;
        }"""
    )
    assert not overlaps, overlaps
    page.context.close()


def test_item9_the_rules_page_speaks_the_pages_language(browser: Browser, server: str) -> None:
    """ "rules pages are English and full of jargon in every language" """
    page = new_page(browser, DESKTOP, locale="ar")
    page.goto(f"{server}/")
    page.click("#nav-rules")
    reference = page.locator("#rules-page")
    expect(reference.locator("li").first).to_be_visible()
    text = reference.inner_text()
    latin = len(re.findall(r"[A-Za-z]{3,}", text))
    arabic = len(re.findall(r"[\u0600-\u06ff]{3,}", text))
    assert arabic > 10 * max(latin, 1), (latin, arabic, text[:300])
    page.context.close()


# -- 10 -----------------------------------------------------------------------


def _contrast(page: Page, selector: str) -> float:
    ratio: float = page.evaluate(
        """(sel) => {
            const el = document.querySelector(sel);
            const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
            const lum = ([r, g, b]) => {
                const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
                return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
            };
            const ring = getComputedStyle(el);
            let color = ring.outlineStyle !== 'none' && Number.parseFloat(ring.outlineWidth) > 0
                ? ring.outlineColor : null;
            if (!color) { const m = ring.boxShadow.match(/rgba?\\([^)]*\\)/); color = m ? m[0] : ring.color; }
            let back = null;
            for (let e = el.parentElement; e && !back; e = e.parentElement) {
                const c = rgb(getComputedStyle(e).backgroundColor);
                if (c.length === 3 || (c.length === 4 && c[3] > 0.5)) back = c.slice(0, 3);
            }
            const [a, b] = [lum(rgb(color).slice(0, 3)), lum(back || [255, 255, 255])];
            return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
        }""",
        selector,
    )
    return ratio


def test_item10_focus_is_kept_dialogs_are_modal_and_the_ring_is_seen(
    browser: Browser, server: str
) -> None:
    """ "Dialogs do not take focus and are not modal; labelled elements have no role;
    the focus ring on bid buttons is 1.6:1; focus drops to the page after each card." """
    page = new_page(browser, PHONE, reduced_motion=True)
    quick_play(page, server, name="Maya", target=1000)
    page.wait_for_selector("#bidbox .bid-button:not([disabled])")
    page.focus("#bidbox .bid-button:not([disabled])")
    page.keyboard.press("Tab")
    page.keyboard.press("Shift+Tab")
    ratio = _contrast(page, "#bidbox .bid-button:focus-visible, #bidbox .bid-button:focus")
    assert ratio >= 3.0, f"focus ring contrast {ratio:.2f}:1"
    table = Table({"south": page})
    play_until(page, table, MY_PLAY)
    version = int(page.get_attribute("body", "data-version") or "0")
    click_card(page.locator("#hand .card.legal:not([disabled])").first)
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=version)
    # focus stays in the hand (or the table), never back on the page's body
    assert page.evaluate(
        "() => document.activeElement !== document.body && !!document.activeElement"
    )
    while act_on_page(page, table) != "summary":
        pass
    modal: dict[str, Any] = page.evaluate(
        """() => {
            const d = document.querySelector('#deal-summary');
            const dialog = d.closest('dialog') || d;
            return {modal: dialog.matches(':modal') || dialog.getAttribute('aria-modal') === 'true',
                    focused: dialog.contains(document.activeElement)};
        }"""
    )
    assert modal == {"modal": True, "focused": True}, modal
    assert not page_errors(page)
    page.context.close()


def test_on_a_phone_reading_the_chat_a_button_brings_the_turn_back(
    browser: Browser, server: str
) -> None:
    """A play test on a phone in Arabic (stop 35): after typing in the chat, the page
    stayed scrolled down at it when the turn came, the bidding box above the screen with
    nothing on screen to say where. A button says it is my turn
    and brings the bidding box (or the hand) back; the page is not scrolled for me.
    The button stands on the side where the box is: at the bottom it covered Send."""
    page = new_page(browser, PHONE, locale="ar", touch=True, reduced_motion=True)
    quick_play(page, server, name="Maya", target=1000)
    page.wait_for_selector(READY)
    jump = page.locator("#turn-jump")
    expect(jump).to_have_count(0)  # in sight: no button
    page.locator("#chat-input").scroll_into_view_if_needed()
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    target = "#bidbox" if page.locator("#bidbox").count() else "#hand"
    below = page.locator(target).bounding_box()
    assert below and below["y"] + below["height"] < 24, below  # out of sight above
    expect(jump).to_be_visible()
    expect(jump).to_contain_text(core_catalogue("ar")["web.turn.you"])
    box = jump.bounding_box()
    assert box and box["y"] >= 0 and box["x"] >= 0, box
    assert box["x"] + box["width"] <= PHONE["width"] and box["y"] + box["height"] <= PHONE["height"]
    # it covers nothing one types or presses in the chat (at the bottom it hid Send)
    for control in ("#chat-input", "#chat-send"):
        other = page.locator(control).bounding_box()
        assert other and (
            box["y"] + box["height"] <= other["y"] or other["y"] + other["height"] <= box["y"]
        ), (control, box, other)
    jump.click()
    expect(jump).to_have_count(0)
    seen = page.locator(target).bounding_box()
    assert seen and seen["y"] >= 0 and seen["y"] + seen["height"] <= PHONE["height"], seen
    page.context.close()
