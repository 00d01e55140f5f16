"""The browser client of ``tarneeb serve``, driven by Playwright in Debian's chromium.

One real server runs for the module (a temporary SQLite file, bots without
delay); each test opens its own browser contexts. The module is skipped when
Playwright, chromium (``/usr/bin/chromium``, or ``TARNEEB_CHROMIUM``) or the
server's dependencies are missing, unless ``TARNEEB_REQUIRE_EXTRAS=1`` (CI),
where it fails instead. ``TARNEEB_WEB_TEST_URL`` points the tests at a server
that is already running instead of starting one.

Nothing sleeps: every wait is on a condition of the page. The screenshots of
docs/screenshots/ come from tools/screenshots.py, which drives the client with
the same helpers (tests/web_support.py).
"""

from __future__ import annotations

import hashlib
import json
import re
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

import pytest

import web_support
from tarneeb import CardSet, Deal, find_rules
from tarneeb.actions import format_action
from tarneeb.cards import Dealing
from tarneeb.i18n import browser_catalogue, placeholders
from tarneeb.seats import Seat
from tarneeb.server import fairness
from web_support import (
    DESKTOP,
    PHONE,
    READY,
    Table,
    act_on_page,
    click_card,
    expect,
    hand_cards,
    new_page,
    page_errors,
    play_until,
    post,
    quick_play,
    state_of,
    trick_cards,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

PLAY_WITH_TRICK = (
    "!!document.querySelector('#hand .card.legal:not([disabled])')"
    " && document.querySelectorAll('#trick.current .trick-card').length >= 2"
)
"""At one of our turns to play, with two cards or more already in the trick."""

browser = web_support.browser
server = web_support.server


def press_on_layout(page: Page, code: str, key: str) -> None:
    """A key press as a keyboard of another layout sends it: the key's place (``code``)
    with the character that layout types there (``key``)."""
    page.evaluate(
        """([code, key]) => document.dispatchEvent(
            new KeyboardEvent('keydown', {code, key, bubbles: true, cancelable: true}))""",
        [code, key],
    )


def assert_on_screen(page: Page, selector: str, viewport: dict[str, int]) -> None:
    """Every element of ``selector`` lies wholly inside the viewport (none: nothing to check)."""
    boxes = page.locator(selector).evaluate_all(
        "ns => ns.map(n => { const r = n.getBoundingClientRect();"
        " return [r.left, r.top, r.right, r.bottom]; })"
    )
    for left, top, right, bottom in boxes:
        assert left >= -1 and top >= -1, (selector, left, top)
        assert right <= viewport["width"] + 1 and bottom <= viewport["height"] + 1, (
            selector,
            right,
            bottom,
        )


def test_four_players_join_by_invite_links_and_play_a_deal(browser: Browser, server: str) -> None:
    host = new_page(browser, DESKTOP)
    host.goto(f"{server}/")
    host.fill("#create-name", "Layla")
    for seat in ("east", "north", "west"):
        expect(host.locator(f"#seat-{seat}")).to_have_value("human")
    host.click("#create-table")
    invites = {
        seat: host.locator(f'#invites .invite[data-seat="{seat}"] .invite-url').input_value()
        for seat in ("east", "north", "west")
    }
    assert all(  # each seat's link carries that seat's own invite secret
        url.startswith(f"{server}/t/") and f"?seat={seat}&invite=" in url
        for seat, url in invites.items()
    )
    host.click("#go-table")
    expect(host.locator("#waiting")).to_be_visible()

    pages = {"south": host}
    names = {"east": "Omar", "north": "Nour", "west": "Sami"}
    for seat, url in invites.items():
        guest = new_page(browser, {"width": 1000, "height": 760})
        guest.goto(url)
        expect(guest.locator("#join-seat")).to_have_value(seat)
        guest.fill("#join-name", names[seat])
        guest.click("#join-button")
        # seated, the invite's secret leaves the address bar
        expect(guest).to_have_url(re.compile(r"/t/[\w-]+$"))
        pages[seat] = guest
    for seat, page in pages.items():
        # everybody sits where the invitation said, sees the others' names, and the deal is on
        expect(page.locator("#board-grid")).to_be_visible()
        expect(page.locator("body")).to_have_attribute("data-seat", seat)
        expect(page.locator(".seat.me")).to_have_attribute("data-seat", seat)
        for other, name in names.items():
            expect(page.locator(f'.seat[data-seat="{other}"] .seat-name')).to_have_text(name)
        assert len(hand_cards(page)) == 13

    # the table's log says each thing once, on the pages that joined too (issue 23, item 5:
    # joining opened a second connection, whose welcome replayed every event again)
    for page in pages.values():
        expect(page.locator("#chat-log .chat-info", has_text="Sami")).to_have_count(1)
        lines = page.locator("#chat-log .chat-info").all_text_contents()
        assert len(lines) == len(set(lines)), lines
    # chat reaches the other seats, once
    host.fill("#chat-input", "Yalla, good luck!")
    host.press("#chat-input", "Enter")
    for page in pages.values():
        expect(page.locator("#chat-log .chat-line").last).to_have_text("Layla: Yalla, good luck!")
        expect(page.locator("#chat-log .chat-line")).to_have_count(1)

    table = Table(pages)
    while True:
        page = table.page_to_act()
        if act_on_page(page, table) == "summary":
            break
        assert table.actions < 80
    assert table.cards_played == 52
    for page in pages.values():
        summary = page.locator("#deal-summary")
        expect(summary).to_be_visible()
        # each browser recomputed the deck from the revealed seed and found its own hand
        expect(summary.locator(".fair")).to_have_attribute("data-check", "ok")
    for page in pages.values():
        assert not page_errors(page)
        page.context.close()


def test_one_player_plays_a_deal_against_bots_with_the_keyboard(
    browser: Browser, server: str
) -> None:
    page = new_page(browser, PHONE)
    quick_play(page, server, name="Maya", target=1)  # one deal decides the match
    expect(page.locator(".seat.is-bot")).to_have_count(3)
    played = 0
    while True:
        page.wait_for_selector(
            "#bidbox .bid-button:not([disabled]), #hand .card.legal:not([disabled]),"
            " #deal-summary, #match-end"
        )
        if page.locator("#deal-summary, #match-end").count():
            break
        # the whole hand and the bidding box are on the screen at every turn (item 1)
        assert_on_screen(page, "#hand .card", PHONE)
        assert_on_screen(page, "#bidbox", PHONE)
        version = int(page.get_attribute("body", "data-version") or "0")
        if page.locator("#bidbox").count():
            legal = page.locator("#bidbox .bid-button").evaluate_all(
                "bs => bs.map(b => b.dataset.action)"
            )
            if page.locator("#auction-list .act-bid").count() and "pass" in legal:
                # the key where P is, on a Russian layout (it types "з"): still a pass
                press_on_layout(page, "KeyP", "з")
            elif any(a.isdigit() for a in legal):
                lowest = min(int(a) for a in legal if a.isdigit())
                page.keyboard.type(str(lowest))
                if any(a != str(lowest) and a.startswith(str(lowest)) for a in legal):
                    page.keyboard.press("Enter")
            else:
                page.keyboard.press(legal[0][0].lower())
        else:
            # arrows move among the legal cards, Enter plays the focused one
            page.keyboard.press("ArrowRight")
            focused = page.evaluate("document.activeElement.dataset.card || null")
            assert focused in hand_cards(page)
            assert "legal" in (
                page.get_attribute(f'#hand .card[data-card="{focused}"]', "class") or ""
            )
            page.keyboard.press("Enter")
            played += 1
        page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=version)
    assert played == 13
    # the deal ended the match: one dialog, the match's end, with the deal's summary in it
    end = page.locator("#match-end")
    expect(end).to_be_visible()
    expect(page.locator("#deal-summary")).to_have_count(0)
    expect(end.locator(".fair")).to_have_attribute("data-check", "ok")
    expect(page.locator('#deals li[data-deal="1"] .fair-badge')).to_have_class(
        re.compile("fair-ok")
    )
    expect(page.locator("body")).to_have_attribute("data-status", "finished")
    # the real target (here 1, not the preset's 41), and no sets where the match has none
    expect(end.locator("#match-target")).to_have_text("Played to 1.")
    expect(end.locator("#sets")).to_have_count(0)
    expect(page.locator("#sets")).to_have_count(0)
    assert page.locator("#match-end h2").text_content() in (
        "You win the match!",
        "You lose the match",
    )
    # the dialog is modal: it has the focus, and Escape gives the page back
    assert page.evaluate("document.activeElement.closest('#match-end') !== null")
    page.keyboard.press("Escape")
    expect(end).to_have_count(0)
    # after a reload the check still finds the player's own hand in the revealed deal
    # (item 5: it ran before the welcome had said the seat, and said only "matches")
    page.reload()
    expect(page.locator('#deals li[data-deal="1"] .fair-badge')).to_have_class(
        re.compile("fair-ok")
    )
    page.keyboard.press("Escape")

    # the finished deal replays step by step
    page.click('#deals li[data-deal="1"] .replay-link')
    expect(page.locator("#replay")).to_be_visible()
    total = int(page.locator("#replay-slider").get_attribute("max") or "0")
    assert total >= 57  # at least four auction actions, a trump, 52 cards
    page.click("#replay-first")
    expect(page.locator(".replay-hand .mini-card")).to_have_count(52)
    page.click("#replay-next")
    expect(page.locator("#replay-slider")).to_have_value("1")
    page.click("#replay-last")
    expect(page.locator(".replay-hand .mini-card")).to_have_count(0)
    expect(page.locator("#analysis")).to_be_visible()
    if _server_info(server)["solver"]:
        # the double-dummy analysis: the table of tricks, and what the card shown cost
        expect(page.locator("#analysis .dd-table tbody tr")).to_have_count(4)
        expect(page.locator("#analysis-note")).to_be_visible()
        # the note is under the board: it hid a trick card and a seat's hand (phone and
        # laptop screenshots), so it may cover nothing of the board now
        # the last 52 steps are the cards, however long the auction ran (the first card
        # was step 8 only where the auction and trump took seven steps: CI's took nine)
        first_card = total - 51
        for step in (first_card, first_card + 22, total):
            page.locator("#replay-slider").fill(str(step))
            expect(page.locator("#analysis-note")).to_be_visible()
            covered = page.evaluate(
                """() => {
                  const n = document.getElementById('analysis-note').getBoundingClientRect();
                  return [...document.querySelectorAll('#replay .trick-card, #replay .replay-hand')]
                    .filter((e) => { const b = e.getBoundingClientRect();
                      return b.left < n.right && n.left < b.right && b.top < n.bottom && n.top < b.bottom; })
                    .map((e) => e.className);
                }"""
            )
            assert covered == [], (step, covered)
    # a replay opens at its start: every card still in the hands
    page.reload()
    expect(page.locator(".replay-hand .mini-card")).to_have_count(52)
    expect(page.locator("#replay-slider")).to_have_value("0")

    # back at the table, the match's end offers a rematch: the bots agree, and the same
    # seat plays on at the new table (issue 23, item 7)
    page.click("#replay .back")
    end = page.locator("#match-end")
    expect(end).to_be_visible()
    old_table = page.url
    page.click("#rematch")
    expect(page).not_to_have_url(old_table)
    expect(page).to_have_url(re.compile(r"/t/[\w-]+$"))
    expect(page.locator("#board-grid")).to_be_visible()
    expect(page.locator("body")).to_have_attribute("data-seat", "south")
    expect(page.locator("#match-end")).to_have_count(0)
    assert not page_errors(page)
    page.context.close()


def _server_info(server: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{server}/api/info", timeout=10) as answer:
        info: dict[str, Any] = json.load(answer)
    return info


def test_reload_mid_deal_restores_the_same_table(browser: Browser, server: str) -> None:
    page = new_page(browser, PHONE)
    table_id = quick_play(page, server, name="Rami")
    table = Table({"south": page})
    # play on until it is our turn in the middle of a trick
    play_until(
        page,
        table,
        "document.body.dataset.phase === 'play' && !!document.querySelector("
        "'#hand .card.legal:not([disabled])') && !!document.querySelector('#trick.current .trick-card')",
    )
    hand = hand_cards(page)
    trick = trick_cards(page)
    deal = page.get_attribute("body", "data-deal")
    token = page.evaluate(f"JSON.parse(localStorage.getItem('tarneeb.seat.{table_id}')).token")
    assert token and 1 <= len(trick) <= 3 and len(hand) >= 1

    page.reload()
    expect(page.locator("#hand .card.legal:not([disabled])").first).to_be_visible()
    assert page.url.endswith(f"/t/{table_id}")
    assert page.get_attribute("body", "data-seat") == "south"
    assert page.get_attribute("body", "data-deal") == deal
    assert hand_cards(page) == hand
    assert trick_cards(page) == trick
    assert (
        page.evaluate(f"JSON.parse(localStorage.getItem('tarneeb.seat.{table_id}')).token") == token
    )
    # the network goes: a banner says so; it comes back: the client reconnects by itself
    page.context.set_offline(True)
    expect(page.locator("#banner")).to_be_visible()
    page.context.set_offline(False)
    expect(page.locator("#banner")).to_be_hidden()
    expect(page.locator("#conn-dot")).to_have_attribute("data-status", "online")
    assert hand_cards(page) == hand
    # and the restored table plays on
    click_card(page.locator("#hand .card.legal:not([disabled])").first)
    expect(page.locator("#hand .card")).to_have_count(len(hand) - 1)
    page.context.close()


def _platform_fonts(page: Page, selector: str) -> list[str]:
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": 1})["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    return [f["familyName"] for f in fonts if f["glyphCount"] > 0]


def _box(page: Page, selector: str) -> dict[str, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box


def test_arabic_page_lays_out_right_to_left_with_arabic_glyphs(
    browser: Browser, server: str
) -> None:
    english = new_page(browser, DESKTOP, locale="en-US")
    english.goto(f"{server}/")
    expect(english.locator("html")).to_have_attribute("dir", "ltr")
    brand_en, lang_en = _box(english, "#brand"), _box(english, "#lang")
    # the how-to-play page shows the server's rules reference
    english.click("#nav-rules")
    expect(english.locator("#rules-page .reference li").first).to_be_visible()
    expect(english.locator("#rules-page h1")).to_have_text("How to play: Classic")
    # the switch changes the language in place, and the choice is kept
    english.select_option("#lang", "ru")
    expect(english.locator("#rules-page h1")).to_have_text("Как играть: Классика")
    # ... the reference too: the server writes it in the page's language
    reference = english.locator("#rules-page .reference")
    expect(reference).to_have_attribute("lang", "ru")
    expect(reference.locator("h3").first).to_have_text("Как идёт игра")
    english.goto(f"{server}/")
    expect(english.locator("#quick-play")).to_have_text("Играть")
    expect(english.locator("html")).to_have_attribute("lang", "ru")

    page = new_page(browser, DESKTOP, locale="ar-LB")
    page.goto(f"{server}/")
    # chosen from the browser's language
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    expect(page.locator("html")).to_have_attribute("lang", "ar")
    expect(page.locator("#lang")).to_have_value("ar")
    expect(page.locator("#quick-play")).to_have_text("العب الآن")
    brand_ar, lang_ar = _box(page, "#brand"), _box(page, "#lang")
    # the header is mirrored: the brand starts on the right, the language switch on the left
    assert brand_en["x"] < lang_en["x"] and brand_ar["x"] > lang_ar["x"]
    assert brand_ar["x"] + brand_ar["width"] > DESKTOP["width"] - 60
    assert brand_en["x"] < 60

    quick_play(page, server, name="ليلى", goto=False)
    page.wait_for_selector("#bidbox .bid-button:not([disabled])")
    expect(page.locator(".bidbox-title")).to_have_text("مزايدتك")
    # the side panel sits left of the board, the language's start; the seats stay where they sit
    side, board = _box(page, "#side"), _box(page, "#board")
    assert side["x"] + side["width"] <= board["x"] + 1
    east, west = _box(page, '.seat[data-seat="east"]'), _box(page, '.seat[data-seat="west"]')
    assert east["x"] > west["x"]  # the next in play order (east) sits on the right
    # real Arabic glyphs: the text is drawn with an installed font that covers Arabic
    fonts = _platform_fonts(page, ".bidbox-title")
    assert any("Arabic" in f for f in fonts), fonts
    # card faces keep their Latin ranks
    first = hand_cards(page)[0]
    rank = "10" if first[0] == "T" else first[0]
    # (a face is a picture of an SVG drawing: its corner index is the drawing's first text)
    drawn = page.locator(f'#hand .card[data-card="{first}"] img').evaluate(
        """(img) => new DOMParser().parseFromString(
            decodeURIComponent(img.src.split(",", 2)[1]), "image/svg+xml")
            .querySelector("text").textContent"""
    )
    assert drawn == rank

    table = Table({"south": page})
    play_until(page, table, PLAY_WITH_TRICK)

    phone = new_page(browser, PHONE, locale="ar")
    quick_play(phone, server, name="نور")
    expect(phone.locator("html")).to_have_attribute("dir", "rtl")
    table = Table({"south": phone})
    play_until(phone, table, PLAY_WITH_TRICK)
    assert any("Arabic" in f for f in _platform_fonts(phone, "#infobar .rules"))
    for p in (english, page, phone):
        assert not page_errors(p)
        p.context.close()


def _engine_legal(preset: str, state: dict[str, Any]) -> list[str]:
    """The legal auction actions the engine gives after the state's auction (hands do not matter)."""
    match = state["match"]
    seats = ["south", "east", "north", "west"]
    deal = Deal.from_seed(find_rules(preset), Seat(seats.index(match["dealer"])), seed=0)
    for call in match["auction"]["calls"]:
        deal.push(call["action"]["id"])
    assert deal.to_act == Seat.SOUTH
    return [format_action(a) for a in deal.legal_actions]


@pytest.mark.parametrize("preset", ["classic", "egyptian"])
def test_bidding_box_offers_exactly_the_legal_bids(
    browser: Browser, server: str, preset: str
) -> None:
    page = new_page(browser, DESKTOP)
    table_id = quick_play(page, server, name="Hadi", preset=preset)
    turns = 0
    # every turn of ours in the auction: the box holds the state's legal actions, no more
    while True:
        page.wait_for_selector(READY)
        if (
            page.get_attribute("body", "data-phase") != "auction"
            or page.locator("#deal-summary").count()
        ):
            break
        shown = page.locator("#bidbox .bid-button").evaluate_all(
            "bs => bs.map(b => b.dataset.action)"
        )
        state = state_of(page, table_id)
        assert state["match"]["phase"] == "auction" and state["match"]["to_act"] == "south"
        # the same actions, each once (the box groups bids apart from pass and the like)
        assert (
            sorted(shown)
            == sorted(a["text"] for a in state["match"]["legal"])
            == sorted(_engine_legal(preset, state))
        )
        assert len(set(shown)) == len(shown)
        calls = state["match"]["auction"]["calls"]
        if preset == "egyptian" and not any(c["action"]["kind"] == "bid" for c in calls):
            # Egyptian bids name their strain, no-trump included (a bid before ours may
            # leave only higher or no-trump bids: the engine's check above covers that)
            assert {"13S", "13NT", "pass"} <= set(shown)
        if preset == "egyptian":
            assert all(re.fullmatch(r"\d+(C|D|H|S|NT)", a) for a in shown if a != "pass")
        if preset == "classic" and not page.locator("#auction-list .act-bid").count():
            assert shown == ["7", "8", "9", "10", "11", "12", "13", "pass"]
        turns += 1
        version = int(page.get_attribute("body", "data-version") or "0")
        bids = [a for a in shown if a[:1].isdigit()]
        # bid the lowest, then a step higher each turn, so that the auction comes back to us
        page.click(f'#bidbox .bid-button[data-action="{bids[0] if bids else "pass"}"]')
        page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=version)
    assert turns >= 1
    assert not page_errors(page)
    page.context.close()


def test_fair_shuffle_in_the_browser_agrees_with_the_server(browser: Browser, server: str) -> None:
    page = new_page(browser, DESKTOP)
    page.goto(f"{server}/")
    seed = "00112233445566778899aabbccddeeff"
    for dealing in Dealing:
        for dealer in (0, 3):
            hands = page.evaluate(
                """async ([seed, dealer, dealing]) =>
                    (await import('/static/js/fair.js')).handsFromSeed(seed, dealer, dealing)""",
                [seed, dealer, dealing.value],
            )
            expected = fairness.hands_from_seed(seed, dealer, dealing)
            assert [sorted(h) for h in hands] == [
                sorted(str(c) for c in CardSet(mask)) for mask in expected
            ]
    # the plain SHA-256 used outside secure contexts (plain http on a LAN) is SHA-256
    texts = ["", "abc", "a" * 55, "a" * 56, "a" * 64, seed + ":51", "é" * 40]
    digests = page.evaluate(
        """async (texts) => {
            const m = await import('/static/js/fair.js');
            const hex = (b) => [...new Uint8Array(b)].map((x) => x.toString(16).padStart(2, '0')).join('');
            return texts.map((t) => hex(m.sha256Plain(new TextEncoder().encode(t))));
        }""",
        texts,
    )
    assert digests == [hashlib.sha256(t.encode()).hexdigest() for t in texts]
    # a seed that is not the committed one fails the check
    checks = page.evaluate(
        """async ([seed, good, bad]) => {
            const m = await import('/static/js/fair.js');
            const args = {seed, dealer: 'east', dealing: '4-4-5', mySeat: null, myHand: null};
            return [(await m.verifyDeal({...args, commitment: good})).commitmentOk,
                    (await m.verifyDeal({...args, commitment: bad})).commitmentOk];
        }""",
        [seed, fairness.commitment(seed), fairness.commitment(seed[::-1])],
    )
    assert checks == [True, False]
    page.context.close()


STATIC = Path(__file__).resolve().parent.parent / "src" / "tarneeb" / "server" / "static"
LANGUAGES = ["en", "ar", "es", "nl", "ru"]


def test_message_files_hold_every_string_in_every_language() -> None:
    messages = {lang: dict(browser_catalogue(lang)) for lang in LANGUAGES}
    english = messages["en"]
    code = "\n".join(p.read_text("utf-8") for p in sorted((STATIC / "js").glob("*.js")))
    used = set(re.findall(r"\bt\(\"([\w.\-]+)\"", code))
    assert used and used <= set(english), sorted(used - set(english))
    # keys built at run time: seats, strains, ranks, actions, statuses, error codes
    built = [f"web.seat.{s}{x}" for s in ("south", "east", "north", "west") for x in ("", ".short")]
    built += [f"strain.{s}" for s in ("clubs", "diamonds", "hearts", "spades", "no-trump")]
    built += [f"web.rank.{r}" for r in "23456789TJQKA"]
    built += [f"call.{a}" for a in ("pass", "double", "raise", "stand", "redeal")]
    built += [f"web.status.{s}" for s in ("waiting", "playing", "finished")]
    built += [f"web.side.{s}" for s in ("NS", "EW")] + [
        f"web.conn.{s}" for s in ("online", "offline", "connecting")
    ]
    codes = "malformed too_large rate_limited unauthorized not_started not_your_turn stale illegal"
    built += [f"web.error.{c}" for c in (codes + " duplicate game_over internal").split()]
    assert set(built) <= set(english), sorted(set(built) - set(english))
    for lang, table in messages.items():
        assert set(table) == set(english), (lang, sorted(set(table) ^ set(english)))
        for key, text in table.items():
            assert text.strip(), (lang, key)
            assert placeholders(text) == placeholders(english[key]), (lang, key)
    # Arabic is written in Arabic script, Russian in Cyrillic
    assert all(
        re.search("[\u0600-\u06ff]", messages["ar"][k])
        for k in ("web.home.quick.play", "web.bidbox.bid")
    )
    assert re.search("[\u0400-\u04ff]", messages["ru"]["web.home.quick.play"])


def test_a_guest_keeps_what_they_typed_while_others_join(browser: Browser, server: str) -> None:
    made = post(f"{server}/api/tables", {"name": "Layla", "public": False})
    table = made["table"]
    guest = new_page(browser, DESKTOP)
    guest.goto(f"{server}{made['invites']['north']}")
    expect(guest.locator("#join-seat")).to_have_value("north")
    guest.fill("#join-name", "Nour")
    guest.focus("#join-name")
    # Someone else takes a seat: the waiting room is drawn anew for the guest.
    east = parse_qs(urlsplit(made["invites"]["east"]).query)["invite"][0]
    post(f"{server}/api/tables/{table}/join", {"name": "Omar", "invite": east})
    expect(guest.locator('.waiting-seat[data-seat="east"]')).to_have_class(re.compile("taken"))
    expect(guest.locator("#join-name")).to_have_value("Nour")
    expect(guest.locator("#join-seat")).to_have_value("north")
    expect(guest.locator("#join-name")).to_be_focused()
    guest.click("#join-button")
    expect(guest.locator("body")).to_have_attribute("data-seat", "north")
    guest.context.close()


def test_the_spectator_link_of_a_private_table_only_watches(browser: Browser, server: str) -> None:
    made = post(f"{server}/api/tables", {"name": "Layla", "public": False})
    page = new_page(browser, DESKTOP)
    page.goto(f"{server}{made['spectate']}")
    expect(page.locator("#invite-only")).to_be_visible()
    expect(page.locator("#join-form")).to_have_count(0)
    # an open table's free seats are anyone's
    opened = post(f"{server}/api/tables", {"name": "Layla", "public": True})
    page.goto(f"{server}{opened['spectate']}")
    page.fill("#join-name", "Omar")
    page.click("#join-button")
    expect(page.locator("body")).to_have_attribute("data-seat", "east")
    assert not page_errors(page)
    page.context.close()


def test_the_shuffle_answers_the_js_tests_use_are_the_servers() -> None:
    """tests/js/fair.test.mjs checks fair.js against tests/js/shuffle_known.json: the
    decks and hands there are what tarneeb.server.fairness deals."""
    known = json.loads((Path(__file__).parent / "js" / "shuffle_known.json").read_text("utf-8"))
    assert len(known) >= 12
    for entry in known:
        dealer = Seat[entry["dealer"].upper()]
        dealing = Dealing(entry["dealing"])
        assert entry["commitment"] == fairness.commitment(entry["seed"])
        assert entry["deck"] == [int(c) for c in fairness.deck_from_seed(entry["seed"])]
        hands = fairness.hands_from_seed(entry["seed"], dealer, dealing)
        assert entry["hands"] == [sorted(str(c) for c in CardSet(h)) for h in hands]
