"""Issue 23's "What players expect that is missing", played from the players' side.

The numbered items have their tests in tests/test_web_items.py; these are the
features the issue asks for beside them, each played as a player would (clicks
and keys) and, where another player is meant to see it, looked at on that
player's screen too: quick reactions, hints (and a host who turned them off),
sounds, the countdown of an away seat and the bot that holds it until its player
is back, bot levels, the pace of the cards and ``prefers-reduced-motion``.

Skipped without Playwright or chromium, unless ``TARNEEB_REQUIRE_EXTRAS=1`` (CI).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

import web_support
from web_support import (
    DESKTOP,
    LAPTOP,
    PHONE,
    READY,
    Table,
    act_on_page,
    expect,
    new_page,
    page_errors,
    play_deals,
    play_until,
    quick_play,
    state_of,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

browser = web_support.browser
server = web_support.server

EN: dict[str, str] = json.loads(
    (Path(__file__).parent.parent / "src/tarneeb/i18n/en.json").read_text(encoding="utf-8")
)
"""The English catalogue: what the page says, to look for on it."""


def say(key: str, **params: str) -> str:
    text = EN[key]
    for name, value in params.items():
        text = text.replace("{" + name + "}", value)
    return text


def _create(page: Page, body: dict[str, Any]) -> dict[str, Any]:
    """A table made from the page, its seat kept in the page's storage as the home page does
    (for what the home page's form does not offer: a short takeover)."""
    made: dict[str, Any] = page.evaluate(
        """async (body) => {
            const answer = await fetch('/api/tables', {method: 'POST',
                headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
            const made = await answer.json();
            localStorage.setItem(`tarneeb.seat.${made.table}`,
                JSON.stringify({token: made.token, seat: made.seat, invites: made.invites}));
            return made;
        }""",
        body,
    )
    return made


def _join(page: Page, url: str, name: str) -> None:
    """Take the seat of an invite link as a friend does: the link, a name, the button."""
    page.goto(url)
    page.fill("#join-name", name)
    page.click("#join-button")
    expect(page).to_have_url(re.compile(r"/t/[\w-]+$"))


def _create_at_home(page: Page, server: str, seats: dict[str, str], hints: bool = True) -> str:
    """Layla makes a table with the home page's form, South hers and each other seat
    ``"human"`` or ``"bot:LEVEL"``; the page is at the table after (its waiting room while
    a seat waits for a friend). Returns the table's id."""
    page.goto(f"{server}/")
    page.wait_for_selector('#seat-east option[value^="bot:"]', state="attached")
    page.fill("#create-name", "Layla")
    for seat, kind in seats.items():
        page.select_option(f"#seat-{seat}", kind)
    if not hints:
        page.uncheck("#create-hints")
    page.click("#create-table")
    # a seat kept for a friend: the invite links first; every other seat a bot: the table
    if "human" in seats.values():
        page.click("#go-table")
    page.wait_for_selector("#board-grid, #waiting")
    return page.url.rsplit("/t/", 1)[1]


def _ask(page: Page, table: str, frame: dict[str, Any]) -> dict[str, Any]:
    """Send ``frame`` for the page's seat on a connection of its own, as a client other than
    the page could; the server's answer (the first frame after the welcome that is not an
    update or a reaction)."""
    answer: dict[str, Any] = page.evaluate(
        """async ([table, frame]) => {
            const saved = JSON.parse(localStorage.getItem(`tarneeb.seat.${table}`));
            const ws = new WebSocket(`ws://${location.host}/ws/${table}`);
            const answer = await new Promise((resolve, reject) => {
                ws.onopen = () => ws.send(JSON.stringify({type: "hello", protocol: 2, token: saved.token}));
                ws.onmessage = (e) => {
                    const f = JSON.parse(e.data);
                    if (f.type === "welcome") ws.send(JSON.stringify(frame));
                    else if (!["update", "reaction", "pong"].includes(f.type)) resolve(f);
                };
                ws.onerror = reject;
            });
            ws.close();
            return answer;
        }""",
        [table, frame],
    )
    return answer


FRAMES = """(() => {
  window.__frames = [];
  const Real = window.WebSocket;
  window.WebSocket = class extends Real {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (e) => window.__frames.push(JSON.parse(e.data)));
    }
  };
})();"""
"""An init script: every frame the page's sockets receive goes to ``window.__frames``."""


def _frames(page: Page, kind: str, **fields: str) -> list[dict[str, Any]]:
    """The frames of ``kind`` (with these ``fields``) the page has received so far."""
    frames: list[dict[str, Any]] = page.evaluate("() => window.__frames")
    return [
        f for f in frames if f.get("type") == kind and all(f.get(k) == v for k, v in fields.items())
    ]


def _two_players(browser: Browser, server: str, **config: Any) -> tuple[Page, Page, str]:
    """Layla (South, the host) and Omar (East, by his invite) at one table, two bots beside
    them; both pages at the table once it has started."""
    host = new_page(browser, DESKTOP)
    guest = new_page(browser, DESKTOP)
    for page in (host, guest):
        page.context.add_init_script(FRAMES)
    host.goto(f"{server}/")
    seats = {"south": "human", "east": "human", "north": "bot:medium", "west": "bot:medium"}
    made = _create(host, {"name": "Layla", "seats": seats, "public": False, **config})
    table = made["table"]
    host.goto(f"{server}/t/{table}")
    _join(guest, f"{server}{made['invites']['east']}", "Omar")
    for page, seat in ((host, "south"), (guest, "east")):
        expect(page.locator("body")).to_have_attribute("data-seat", seat)
        expect(page.locator("#hand .card").first).to_be_visible()
    return host, guest, table


# -- quick reactions --------------------------------------------------------------------------

BUBBLES = """() => {
  window.__bubbles = [];
  let last = null;
  setInterval(() => {
    const on = [...document.querySelectorAll('.reaction-bubble')]
      .map((b) => `${b.dataset.seat}:${b.textContent}`).join(' ');
    if (on !== last) { window.__bubbles.push([performance.now(), on]); last = on; }
  }, 20);
}"""
"""Records, every 20 ms, which reaction bubbles the page shows."""


def _react(page: Page, reaction: str) -> None:
    """Open the reactions and pick one, as a player does."""
    page.click("#reactions > summary")
    page.click(f'#reactions .reaction[data-reaction="{reaction}"]')
    # picking one closes the list
    expect(page.locator("#reactions")).not_to_have_attribute("open", "")


def test_a_reaction_shows_at_its_seat_on_the_other_players_screen(
    browser: Browser, server: str
) -> None:
    host, guest, table = _two_players(browser, server)
    offered = host.evaluate("async () => (await (await fetch('/api/info')).json()).reactions")
    # a fixed set: the server's emoji and phrases, nothing to type
    expect(host.locator("#reactions .reaction")).to_have_count(len(offered))
    got = host.locator("#reactions .reaction").evaluate_all(
        "bs => bs.map((b) => b.dataset.reaction)"
    )
    assert got == offered
    assert host.locator("#reactions input, #reactions textarea").count() == 0
    guest.evaluate(BUBBLES)

    _react(host, "clap")
    # Omar (East) sees Layla's clap at her seat, on his screen South is on his left
    bubble = guest.locator('.reaction-bubble[data-seat="south"]')
    expect(bubble).to_be_visible()
    south_rel = guest.get_attribute('.seat[data-seat="south"]', "data-rel")
    expect(bubble).to_have_class(re.compile(rf"\bat-{south_rel}\b"))
    expect(bubble).to_contain_text("👏")
    expect(bubble).to_contain_text(f"Layla: {say('web.react.clap')}")  # for screen readers
    # and it goes after a few seconds
    expect(bubble).to_have_count(0, timeout=15_000)
    # the recorder samples every 20 ms: under load its next sample may come after the
    # bubble is gone from the page (a full run read the record first once: no "off" in it)
    guest.wait_for_function(
        "() => window.__bubbles.length && !window.__bubbles.at(-1)[1].includes('south:')"
    )
    shown: list[list[Any]] = guest.evaluate("() => window.__bubbles")
    on = [t for t, what in shown if "south:" in what]
    off = [t for t, what in shown if "south:" not in what and t > on[0]]
    assert 2000 < off[0] - on[0] < 8000, f"the bubble stayed {off[0] - on[0]:.0f} ms"

    # a phrase, the other way: Layla sees Omar's at East, on her right
    _react(guest, "good-luck")
    back = host.locator('.reaction-bubble[data-seat="east"]')
    expect(back).to_have_class(re.compile(r"\bat-right\b"))
    expect(back).to_contain_text(say("web.react.good-luck"))

    # free text is refused by the server too: a reaction is one of the set
    refused = _ask(host, table, {"type": "react", "reaction": "lead hearts"})
    assert refused["type"] == "error" and refused["code"] == "malformed", refused
    for page in (host, guest):
        assert not page_errors(page), page_errors(page)
        page.context.close()


def test_reactions_are_limited_per_seat(browser: Browser, server: str) -> None:
    """A seat has a few reactions at once (``reaction_burst``), then one every few seconds
    (``reactions_per_minute``): past that the sender is told to slow down and the others
    see nothing."""
    host, guest, _ = _two_players(browser, server)
    answered = """(n) => window.__frames.filter((f) => (f.type === 'reaction' && f.seat === 'south')
        || (f.type === 'error' && f.code === 'rate_limited')).length >= n"""
    sent = 0
    while not _frames(host, "error", code="rate_limited"):
        assert sent < 8, "eight reactions in a row were all said"
        _react(host, "thumbs-up")
        sent += 1
        # the server's answer to it is in: the reaction (to everyone) or a refusal (to her)
        host.wait_for_function(answered, arg=sent)
    # Layla is told; a burst of three went through before the refusal
    expect(host.locator("#toast.show.error")).to_have_text(say("web.error.rate_limited"))
    assert sent >= 4, sent
    said = len(_frames(host, "reaction", seat="south"))
    assert said == sent - 1, (sent, said)
    # Omar saw each reaction that was said, and not the refused one
    guest.wait_for_function(answered, arg=said)
    assert len(_frames(guest, "reaction", seat="south")) == said
    for page in (host, guest):
        assert not page_errors(page), page_errors(page)
        page.context.close()


def test_the_players_controls_stay_put_while_the_table_moves(browser: Browser, server: str) -> None:
    """Every change at the table (a card, a bid, a chat line, someone coming or going:
    on a real server the bots act every 0.6 s) drew the tools beside the hand and the side
    panel anew: an open list of reactions closed under the player's pointer, and the focus
    on the pace or the sound button went to the page, so the next key played at the table.
    """
    host, guest, _ = _two_players(browser, server)
    host.click("#reactions > summary")
    expect(host.locator("#reactions")).to_have_attribute("open", "")
    host.focus("#sound-toggle")
    chat = host.locator("#chat-log .chat-line", has_text="Omar: Yalla")
    # something happens at the table (Omar says a word)
    guest.fill("#chat-input", "Yalla")
    guest.press("#chat-input", "Enter")
    expect(chat).to_have_count(1)
    expect(host.locator("#reactions")).to_have_attribute("open", "")
    expect(host.locator("#sound-toggle")).to_be_focused()
    host.keyboard.press("Enter")
    expect(host.locator("#sound-toggle")).to_have_attribute("aria-pressed", "true")
    # the pace too, by keys, while more goes on
    host.focus("#pace")
    guest.fill("#chat-input", "Yalla!")
    guest.press("#chat-input", "Enter")
    expect(host.locator("#chat-log .chat-line", has_text="Omar: Yalla!")).to_have_count(1)
    expect(host.locator("#pace")).to_be_focused()
    # and the reaction picked from the list that stayed open reaches Omar
    host.click('#reactions .reaction[data-reaction="thanks"]')
    expect(guest.locator('.reaction-bubble[data-seat="south"]')).to_contain_text(
        say("web.react.thanks")
    )
    for page in (host, guest):
        assert not page_errors(page), page_errors(page)
        page.context.close()


def test_the_side_panels_focus_stays_while_the_table_moves(browser: Browser, server: str) -> None:
    """The side panel (score, last trick, finished deals) is drawn anew on every change:
    a keyboard player on a deal's Summary button or on the last trick's toggle lost the
    focus to the page at each move of the table."""
    page = new_page(browser, DESKTOP, reduced_motion=True)
    table_id = quick_play(page, server, name="Maya", target=1000)
    assert play_deals(page, 1)["deals"] == 1
    page.click("#summary-close")
    said = 0

    def something_happens() -> None:
        # a line from the seat's other device: an update the page draws itself anew for
        nonlocal said
        said += 1
        page.evaluate(
            """async ([table, text]) => {
                const saved = JSON.parse(localStorage.getItem(`tarneeb.seat.${table}`));
                const ws = new WebSocket(`ws://${location.host}/ws/${table}`);
                await new Promise((resolve) => {
                    ws.onopen = () => ws.send(JSON.stringify({type: "hello", protocol: 2, token: saved.token}));
                    ws.onmessage = (e) => { if (JSON.parse(e.data).type === "welcome") resolve(); };
                });
                ws.send(JSON.stringify({type: "chat", text}));
                setTimeout(() => ws.close(), 500);
            }""",
            [table_id, f"line {said}"],
        )
        expect(page.locator("#chat-log .chat-line", has_text=f"line {said}")).to_have_count(1)

    summary = page.locator('#deals li[data-deal="1"] button')
    controls = [summary, page.locator('#deals li[data-deal="1"] .replay-link')]
    controls += [page.locator("#open-sheet"), page.locator("#last-trick > summary")]
    for control in controls:
        control.focus()
        something_happens()
        expect(control).to_be_focused()
    # Enter on it still does what it says, after the redraws
    summary.focus()
    something_happens()
    page.keyboard.press("Enter")
    expect(page.locator("#deal-summary")).to_be_visible()
    assert not page_errors(page), page_errors(page)
    page.context.close()


# -- hints ------------------------------------------------------------------------------------

MY_TURN = "#bidbox .bid-button:not([disabled]), #hand .card.legal:not([disabled])"


def test_a_hint_on_a_casual_table_names_a_move_and_its_reason(
    browser: Browser, server: str
) -> None:
    page = new_page(browser, DESKTOP)
    page.context.add_init_script(FRAMES)
    quick_play(page, server, name="Maya", target=1000)
    page.wait_for_selector(MY_TURN)
    hint = page.locator("#hint-button")
    expect(hint).to_be_visible()
    hint.click()
    text = page.locator("#hint-text")
    expect(text).to_contain_text(say("web.hint.says"))
    page.wait_for_function("() => window.__frames.some((f) => f.type === 'hint')")
    answer = _frames(page, "hint")[-1]
    # the move is one this seat may make now, and the page says why
    action = answer["action"]["text"]
    legal = page.locator(
        f'#bidbox .bid-button[data-action="{action}"]:not([disabled]),'
        f' #hand .card.legal[data-card="{action}"]:not([disabled])'
    )
    expect(legal).to_have_count(1)
    assert answer["reason"] and answer["reason"]["key"], answer
    expect(text).to_contain_text(" — ")
    assert len(text.inner_text().split(" — ", 1)[1].strip()) > 3, text.inner_text()
    # taking it plays on; the hint is for the turn it was asked at
    version = int(page.get_attribute("body", "data-version") or "0")
    if answer["action"]["kind"] == "card":
        web_support.click_card(legal)
    else:
        legal.click()
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=version)
    expect(text).to_have_count(0)
    assert not page_errors(page), page_errors(page)
    page.context.close()


def test_a_refused_hint_does_not_leave_the_page_thinking(browser: Browser, server: str) -> None:
    """A seat has a few hints at once (``hint_burst``): the one past them was refused with
    "Slow down", and "Thinking about a hint…" stayed for the rest of the turn."""
    page = new_page(browser, DESKTOP)
    page.context.add_init_script(FRAMES)
    quick_play(page, server, name="Maya", target=1000)
    page.wait_for_selector(MY_TURN)
    version = page.get_attribute("body", "data-version")
    answers = """(n) => window.__frames.filter((f) => f.type === 'hint'
        || (f.type === 'error' && f.code === 'rate_limited')).length >= n"""
    asked = 0
    while not _frames(page, "error", code="rate_limited"):
        assert asked < 10, "ten hints in one turn were all answered"
        page.click("#hint-button")
        asked += 1
        page.wait_for_function(answers, arg=asked)
    assert page.get_attribute("body", "data-version") == version, "the turn went on"
    expect(page.locator("#toast.show.error")).to_have_text(say("web.error.rate_limited"))
    expect(page.locator("#hint-text", has_text=say("web.hint.thinking"))).to_have_count(0)
    expect(page.locator("#hint-button")).to_be_visible()
    assert not page_errors(page), page_errors(page)
    page.context.close()


def test_no_hints_where_the_host_turned_them_off(browser: Browser, server: str) -> None:
    page = new_page(browser, DESKTOP)
    bots = {seat: "bot:medium" for seat in ("east", "north", "west")}
    table = _create_at_home(page, server, bots, hints=False)
    page.wait_for_selector(MY_TURN)
    # the turn's tools are drawn, without a hint
    expect(page.locator("#reactions")).to_be_visible()
    expect(page.locator("#hint-button")).to_have_count(0)
    facts = page.evaluate("async (id) => (await fetch(`/api/tables/${id}`)).json()", table)
    assert facts["hints"] is False, facts
    # and a client that asks all the same is refused
    refused = _ask(page, table, {"type": "hint"})
    assert refused["type"] == "error" and refused["code"] == "forbidden", refused
    page.context.close()


# -- sounds -----------------------------------------------------------------------------------

TONES = """(() => {
  window.__tones = 0;
  window.__audio = [];
  const Real = window.AudioContext;
  if (!Real) return;
  window.AudioContext = class extends Real {
    constructor(...args) { super(...args); window.__audio.push(this); }
    createOscillator() { window.__tones += 1; return super.createOscillator(); }
  };
})();"""
"""An init script: counts the tones the page plays (each note an oscillator)."""


def _play_turns(page: Page, table: Table, turns: int) -> None:
    for _ in range(turns):
        if act_on_page(page, table) == "summary":
            page.click("#summary-close")


def test_sounds_are_off_until_turned_on_and_the_choice_stays(browser: Browser, server: str) -> None:
    page = new_page(browser, DESKTOP)
    page.context.add_init_script(TONES)
    quick_play(page, server, name="Maya", target=1000)
    table = Table({"south": page})
    toggle = page.locator("#sound-toggle")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    expect(toggle).to_have_text(say("web.settings.soundOff"))
    # turns, bids and cards go by in silence
    _play_turns(page, table, 3)
    assert page.evaluate("() => window.__tones") == 0
    # one click turns them on: the next turn and card are heard
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(toggle).to_have_text(say("web.settings.soundOn"))
    expect(toggle).to_be_focused()
    _play_turns(page, table, 2)
    page.wait_for_function("() => window.__tones > 0")
    # the choice is remembered after a reload, and sounds play on without another click
    page.reload()
    page.wait_for_selector(READY)
    expect(page.locator("#sound-toggle")).to_have_attribute("aria-pressed", "true")
    heard = page.evaluate("() => window.__tones")
    _play_turns(page, table, 2)
    page.wait_for_function("(n) => window.__tones > n", arg=heard)
    page.wait_for_function("() => window.__audio.some((a) => a.state === 'running')")
    # and off again, for good
    page.click("#sound-toggle")
    expect(page.locator("#sound-toggle")).to_have_attribute("aria-pressed", "false")
    page.reload()
    expect(page.locator("#sound-toggle")).to_have_attribute("aria-pressed", "false")
    page.wait_for_selector(READY)
    heard = page.evaluate("() => window.__tones")
    _play_turns(page, table, 2)
    assert page.evaluate("() => window.__tones") == heard
    assert not page_errors(page), page_errors(page)
    page.context.close()


# -- an away seat -----------------------------------------------------------------------------

TAKEOVER = 6
"""Seconds the test table gives an away player before a bot takes the seat."""


def _left_of(text: str) -> int:
    """The seconds a countdown's text says ("A bot takes over in 0:05": 5)."""
    found = re.search(r"(\d+):(\d\d)", text)
    assert found, text
    return int(found[1]) * 60 + int(found[2])


def test_an_away_seat_counts_down_a_bot_holds_it_and_its_player_takes_it_back(
    browser: Browser, server: str
) -> None:
    host, guest, table_id = _two_players(browser, server, takeover_seconds=TAKEOVER)
    context = guest.context
    east = host.locator('.seat[data-seat="east"]')
    expect(east.locator(".badge.away")).to_have_count(0)
    # Omar's tab closes: Layla sees his seat away, and the time left before a bot plays it
    guest.close()
    expect(east).to_have_class(re.compile(r"\baway\b"))
    expect(east.locator(".badge.away")).to_have_text(say("web.badge.away"))
    countdown = east.locator(".away-countdown[data-deadline]")
    expect(countdown).to_be_visible()
    expect(countdown).to_have_text(re.compile(re.escape(say("web.seat.awayCountdown", time="0:0"))))
    first = _left_of(countdown.inner_text())
    assert 1 <= first <= TAKEOVER, countdown.inner_text()
    # it counts down as she watches
    host.wait_for_function(
        """([sel, first]) => {
            const node = document.querySelector(sel);
            const m = node && /(\\d+):(\\d\\d)/.exec(node.textContent);
            return !node || (m && Number(m[1]) * 60 + Number(m[2]) < first);
        }""",
        arg=['.seat[data-seat="east"] .away-countdown', first],
    )
    # then a bot holds the seat: the countdown goes, the badge and the log say so
    expect(east.locator(".badge.bot")).to_have_text(say("web.badge.holding.short"))
    expect(countdown).to_have_count(0)
    took = re.escape(say("web.log.takeover", seat="East")).replace(re.escape("{bot}"), ".+")
    expect(host.locator("#chat-log .chat-info", has_text=re.compile(took))).to_have_count(1)
    seat = next(s for s in state_of(host, table_id)["seats"] if s["seat"] == "east")
    assert seat["held_by_bot"] and seat["away_deadline"] is None, seat
    # and the bot plays East's turns: Layla plays on until East has played a card (or
    # the deal is over, which East had to play or pass in too)
    deal = host.get_attribute("body", "data-deal")
    cards = int(east.locator(".backs .count").inner_text())
    play_until(
        host,
        Table({"south": host}),
        f"""() => document.body.dataset.deal !== {deal!r} || Number(document.querySelector(
            '.seat[data-seat="east"] .backs .count')?.textContent ?? {cards}) < {cards}""",
    )
    # Omar comes back (a new tab, the same browser): the seat is his again, on both screens
    back = context.new_page()
    back.goto(host.url)
    expect(back.locator("body")).to_have_attribute("data-seat", "east")
    expect(east.locator(".badge.bot")).to_have_count(0)
    expect(east).not_to_have_class(re.compile(r"\baway\b"))
    expect(
        host.locator("#chat-log .chat-info", has_text=say("web.log.reclaim", seat="East"))
    ).to_have_count(1)
    size = int(east.locator(".backs .count").inner_text())
    expect(back.locator("#hand .card")).to_have_count(size)
    # and he plays his own turn
    both = Table({"south": host, "east": back})
    for _ in range(12):
        host.wait_for_function(
            "() => ['south', 'east'].includes(document.body.dataset.toAct)"
            " || !!document.querySelector('#deal-summary')"
        )
        if host.locator("#deal-summary").count():
            host.click("#summary-close")
            back.wait_for_selector("#deal-summary")
            back.click("#summary-close")
            continue
        seat_to_act = host.get_attribute("body", "data-to-act")
        act_on_page(both.pages[seat_to_act or "south"], both)
        if seat_to_act == "east":
            break
    else:
        raise AssertionError("East had no turn in twelve")
    for page in (host, back):
        assert not page_errors(page), page_errors(page)
    host.context.close()
    context.close()


# -- bot levels -------------------------------------------------------------------------------


def _levels(page: Page) -> list[str]:
    levels: list[str] = page.evaluate(
        "async () => (await (await fetch('/api/info')).json()).levels"
    )
    return levels


def _seat_levels(page: Page, table_id: str) -> dict[str, str | None]:
    return {s["seat"]: s.get("level") for s in state_of(page, table_id)["seats"]}


def test_bots_of_the_levels_chosen_at_creation_say_seat_and_level(
    browser: Browser, server: str
) -> None:
    page = new_page(browser, DESKTOP)
    page.goto(f"{server}/")
    levels = _levels(page)
    assert levels[:3] == ["easy", "medium", "hard"], levels
    # East easy, North the hardest the server has, West medium
    chosen = {"east": "easy", "north": levels[-1], "west": "medium"}
    table_id = _create_at_home(page, server, {s: f"bot:{level}" for s, level in chosen.items()})
    for seat, level in chosen.items():
        name = say("web.bot.seatLevel", seat=seat.title(), level=say(f"web.level.{level}"))
        expect(page.locator(f'.seat[data-seat="{seat}"] .seat-name')).to_have_text(name)
    # the server seated those levels
    assert _seat_levels(page, table_id) == {"south": None, **chosen}
    page.context.close()


def test_quick_play_seats_three_bots_of_the_level_chosen(browser: Browser, server: str) -> None:
    page = new_page(browser, DESKTOP)
    page.goto(f"{server}/")
    page.wait_for_selector('#quick-bot option[value="hard"]', state="attached")
    page.select_option("#quick-bot", "hard")
    table_id = quick_play(page, server, name="Maya", goto=False)
    for seat in ("east", "north", "west"):
        name = say("web.bot.seatLevel", seat=seat.title(), level=say("web.level.hard"))
        expect(page.locator(f'.seat[data-seat="{seat}"] .seat-name')).to_have_text(name)
    assert _seat_levels(page, table_id) == {
        "south": None,
        "east": "hard",
        "north": "hard",
        "west": "hard",
    }
    page.context.close()


def test_seats_filled_with_bots_at_the_start_take_the_level_chosen(
    browser: Browser, server: str
) -> None:
    host = new_page(browser, DESKTOP)
    # East waits for a friend who does not come; the others are bots
    seats = {"east": "human", "north": "bot:medium", "west": "bot:medium"}
    table_id = _create_at_home(host, server, seats)
    expect(host.locator("#waiting")).to_be_visible()
    # the host starts without him, with a hard bot in his seat
    host.select_option("#start-bot", "hard")
    host.click("#start-bots")
    expect(host.locator("#hand .card")).to_have_count(13)
    expect(host.locator('.seat[data-seat="east"] .seat-name')).to_have_text(
        say("web.bot.seatLevel", seat="East", level=say("web.level.hard"))
    )
    assert _seat_levels(host, table_id) == {
        "south": None,
        "east": "hard",
        "north": "medium",
        "west": "medium",
    }
    # a spectator's table says the same
    watcher = new_page(browser, DESKTOP)
    watcher.goto(host.url)
    expect(watcher.locator('.seat[data-seat="east"] .seat-name')).to_have_text(
        say("web.bot.seatLevel", seat="East", level=say("web.level.hard"))
    )
    for page in (host, watcher):
        page.context.close()


# -- the cards' motion ------------------------------------------------------------------------

FLIGHTS = """(() => {
  window.__flights = [];
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (frames, options) {
    if (this.classList.contains('trick-card')) {
      window.__flights.push([this.dataset.card, typeof options === 'number' ? options : options.duration]);
    }
    return animate.call(this, frames, options);
  };
})();"""
"""An init script: each animation of a card in the trick (flying in, gathered), its length."""


def _flights(page: Page) -> list[list[Any]]:
    flights: list[list[Any]] = page.evaluate("() => window.__flights")
    return flights


def _cards_seen(page: Page, table: Table, cards: int) -> None:
    """Play on until at least ``cards`` cards were played to tricks (ours and the bots')."""
    play_until(
        page,
        table,
        f"() => document.body.dataset.phase === 'play' && (window.__played = new Set([...window.__played || [],"
        f" ...[...document.querySelectorAll('#trick .trick-card')].map((c) => c.dataset.card)])).size >= {cards}",
    )


CUT_CHOICES = """() => {
  const cut = [];
  for (const select of document.querySelectorAll('select')) {
    if (!select.getClientRects().length) continue;  // not on show
    const style = getComputedStyle(select);
    const pen = document.createElement('canvas').getContext('2d');
    pen.font = style.font;
    // the inside less the arrow: 20 px, what Chromium leaves it in a select of its own width
    const room = select.clientWidth - parseFloat(style.paddingLeft)
      - parseFloat(style.paddingRight) - 20;
    for (const option of select.options) {
      const width = Math.ceil(pen.measureText(option.text).width);
      if (width > room) cut.push([select.id, option.text, width, Math.floor(room)]);
    }
  }
  return cut;
}"""
"""Every choice of a select on show that its closed box would cut: its id, the choice, the
text's width and the room."""


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_every_select_shows_each_choice_whole_in_every_language(
    browser: Browser, server: str, viewport: dict[str, int]
) -> None:
    """Play testing (stop 33): at 1366x768 the table's pace read "Мгновенно (без ан" and
    "Instantáneo ("; the quick game's rules "Tarneeb 400 (puntos de cartas)" had 128 px;
    at 390 px the tournament's kind read "King of the tabl". A field with a select is as
    wide as its longest choice, on a row of its own when the row has no room."""
    for locale in ("en-US", "ar", "es", "nl", "ru"):
        page = new_page(browser, viewport, locale=locale)
        for path in ("/", "/events", "/#signin"):
            page.goto(f"{server}{path}")
            page.wait_for_selector("select")
            assert page.evaluate(CUT_CHOICES) == [], (locale, path)
        quick_play(page, server, name="Maya")
        assert page.evaluate(CUT_CHOICES) == [], (locale, "the table")
        page.context.close()


def test_the_pace_is_chosen_and_remembered_and_instant_has_no_motion(
    browser: Browser, server: str
) -> None:
    page = new_page(browser, DESKTOP, pace=None)
    page.context.add_init_script(FLIGHTS)
    quick_play(page, server, name="Maya", target=1000)
    pace = page.locator("#pace")
    expect(pace).to_have_value("normal")
    options = pace.locator("option").evaluate_all("os => os.map((o) => o.value)")
    assert options == ["slow", "normal", "fast", "instant"]
    page.select_option("#pace", "fast")
    table = Table({"south": page})
    _cards_seen(page, table, 3)
    # the cards fly in, at the fast pace (faster still when the play is behind or at our turn)
    flights = _flights(page)
    assert flights and all(0 < ms <= 220 for _, ms in flights), flights
    # a reload keeps the choice
    page.reload()
    expect(page.locator("#pace")).to_have_value("fast")
    assert page.evaluate("() => localStorage.getItem('tarneeb.pace')") == "fast"
    # instant: the cards are there at once, nothing moves
    page.select_option("#pace", "instant")
    page.reload()
    expect(page.locator("#pace")).to_have_value("instant")
    page.evaluate("() => { window.__played = new Set(); }")
    _cards_seen(page, table, 5)
    assert _flights(page) == []
    assert not page_errors(page), page_errors(page)
    page.context.close()


def test_reduced_motion_shows_the_cards_without_flying_them(browser: Browser, server: str) -> None:
    """``prefers-reduced-motion: reduce``: at a pace that moves the cards, none flies in or
    is gathered; each trick is still shown whole before it goes."""
    page = new_page(browser, DESKTOP, reduced_motion=True, pace="fast")
    page.context.add_init_script(FLIGHTS)
    quick_play(page, server, name="Maya", target=1000)
    expect(page.locator("#pace")).to_have_value("fast")
    page.evaluate(
        """() => { window.__most = 0; setInterval(() => { window.__most = Math.max(window.__most,
            document.querySelectorAll('#trick .trick-card').length); }, 20); }"""
    )
    _cards_seen(page, Table({"south": page}), 5)
    assert _flights(page) == []
    # the cards were drawn all the same, a trick of four whole at once
    page.wait_for_function("() => window.__most === 4")
    assert not page_errors(page), page_errors(page)
    page.context.close()
