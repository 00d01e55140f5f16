"""Helpers of the browser tests (tests/test_web_*.py): a server to test against, and moves.

* the fixtures ``server`` (one ``tarneeb serve`` for a module) and ``browser``
  (Debian's chromium through Playwright), imported by each browser test module;
* :func:`run_server`, ``tarneeb serve`` on a free port with a temporary SQLite file;
* :func:`new_page`, a page in a fresh browser context (its own local storage);
* :func:`play_deals`, a whole run of deals played inside the page, with the
  layout checked at every turn (:data:`DRIVER`);
* :func:`quick_play`, a table against three bots from the home page;
* :class:`Table` and :func:`act_on_page`, play chosen from what the page offers.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from support import serve_command, start_listening

try:
    from playwright.sync_api import expect
except ImportError:  # pragma: no cover - the browser fixture skips (or fails, in CI)
    expect = None

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator, Page

REQUIRE = os.environ.get("TARNEEB_REQUIRE_EXTRAS") == "1"
"""Set by .ci/run: what the browser tests need must be there (fail, never skip)."""
CHROMIUM = os.environ.get("TARNEEB_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DESKTOP = {"width": 1280, "height": 800}
LAPTOP = {"width": 1366, "height": 768}
WIDE = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}

BOT_DELAY = 0.0
"""Seconds a bot waits before it acts on the test server."""

READY = "#bidbox .bid-button:not([disabled]), #hand .card.legal:not([disabled]), #deal-summary"
"""On a seated page: something to do (a bid, a card) or the end of the deal."""


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/api/info", timeout=2) as answer:
            return bool(json.load(answer).get("protocol", 0) >= 2)
    except (OSError, urllib.error.URLError, ValueError):
        return False


@contextlib.contextmanager
def run_server(db: Path, timeout: float = 30.0, bot_delay: float = BOT_DELAY) -> Iterator[str]:
    """Run ``tarneeb serve`` on a free port until the block ends; yields its base URL."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    log = db.with_name(f"{db.stem}-serve.log")

    # Every page of the browser tests (and tools/screenshots.py) makes its tables from the
    # one loopback address: no limit of tables a minute, which a fast run went past, nor of
    # open tables, which a module's twenty unfinished ten-deal matches (target 1000) reach
    # on one worker's server (the last of the layout tests found no board so, in CI).
    def command(port: int) -> list[str]:
        return [
            *serve_command(f"sqlite:///{db}", port, bot_delay),
            *("--tables-per-minute", "0", "--open-tables-per-client", "0"),
        ]

    def output() -> str:
        return log.read_text(errors="replace")[-2000:]

    with log.open("ab") as out:
        process, port = start_listening(
            command, log=output, timeout=timeout, env=env, stdout=out, stderr=subprocess.STDOUT
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while not _answers(url):  # it listens: its app is starting
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"tarneeb serve did not start: {output()}")
            time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover - a stuck server
            process.kill()
            process.wait()


def missing(reason: str) -> None:
    """Skip a test for want of ``reason``; fail instead under TARNEEB_REQUIRE_EXTRAS=1 (CI)."""
    if REQUIRE:
        pytest.fail(f"{reason}, and TARNEEB_REQUIRE_EXTRAS=1 insists on it", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a ``tarneeb serve`` for the module (bots without delay);
    ``TARNEEB_WEB_TEST_URL`` points the tests at one already running instead."""
    external = os.environ.get("TARNEEB_WEB_TEST_URL")
    if external:
        yield external.rstrip("/")
        return
    try:
        import tarneeb.server.app  # noqa: F401
    except ImportError as exc:
        missing(f"the server's dependencies are missing ({exc})")
    folder = tmp_path_factory.mktemp("web")
    with run_server(folder / "tables.db") as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's chromium (or ``TARNEEB_CHROMIUM``), headless, for the module."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - playwright is in the test extra
        missing("playwright (Python) is not installed")
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        missing(f"chromium is not installed at {CHROMIUM}")
    # a loaded CI machine can be slow: wait on pages as long as the locators do
    expect.set_options(timeout=30_000)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


def new_page(
    browser: Browser,
    viewport: dict[str, int],
    locale: str = "en-US",
    reduced_motion: bool = False,
    pace: str | None = "instant",
    touch: bool = False,
) -> Page:
    """A page in a context of its own: separate storage, as a separate browser.

    ``reduced_motion`` asks for ``prefers-reduced-motion: reduce``, as a player
    who turned animations off. ``pace`` is the client's pace of play (``slow``,
    ``normal``, ``fast``, ``instant``: no motion, a finished trick stays on show
    until the next card); ``None`` keeps the client's default. ``touch`` makes it a phone
    with a touch screen and no mouse or keyboard (``hover: none``, ``pointer: coarse``).
    """
    context = browser.new_context(
        viewport=viewport,
        locale=locale,
        reduced_motion="reduce" if reduced_motion else None,
        has_touch=touch,
        is_mobile=touch,
    )
    if pace is not None:
        context.add_init_script(
            "if (!localStorage.getItem('tarneeb.pace'))"
            f" localStorage.setItem('tarneeb.pace', {pace!r})"
        )
    context.set_default_timeout(30_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on(
        "response",
        lambda r: (
            errors.append(f"HTTP {r.status} {r.request.method} {r.url}")
            if r.status >= 400
            else None
        ),
    )
    page.errors = errors  # type: ignore[attr-defined]
    # what the page's sockets did: for the message of a test that waited in vain
    sockets: list[str] = []

    def watch(ws: Any) -> None:
        sockets.append(f"open {ws.url}")
        ws.on("close", lambda _: sockets.append("closed"))
        ws.on(
            "framereceived",
            lambda f: sockets.append(str(f)[:160]) if '"type":"error"' in str(f) else None,
        )

    page.on("websocket", watch)
    page.sockets = sockets  # type: ignore[attr-defined]
    # and its HTTP requests, with how each ended
    requests: list[str] = []
    page.on("request", lambda r: requests.append(f"{r.method} {r.url}"))
    page.on("requestfinished", lambda r: requests.append(f"done {r.method} {r.url}"))
    page.on("requestfailed", lambda r: requests.append(f"failed {r.url}: {r.failure}"))
    page.requests = requests  # type: ignore[attr-defined]
    return page


def quick_play(
    page: Page,
    server: str,
    name: str,
    preset: str = "classic",
    goto: bool = True,
    target: int | None = None,
) -> str:
    """Start a table against three bots from the home page; returns the table id."""
    if goto:
        page.goto(f"{server}/")
    page.wait_for_selector(f'#quick-rules option[value="{preset}"]', state="attached")
    page.fill("#quick-name", name)
    page.select_option("#quick-rules", preset)
    if target is not None:
        # the preset's own target arrives with its rules: wait for it before changing it
        page.wait_for_function("() => document.querySelector('#quick-target').dataset.preset")
        page.fill("#quick-target", str(target))
        if page.input_value("#quick-target") != str(target):
            # Once under load (a full run beside an arena) the field read "411000": the
            # preset's 41 landed inside the fill. Fill again rather than fail on it.
            page.fill("#quick-target", str(target))
    page.click("#quick-play")
    try:
        page.wait_for_selector("#board-grid")
    except Exception as exc:  # say what the page showed and heard (a CI run saw none)
        shown = page.locator("body").inner_text(timeout=2000)
        form = page.evaluate(
            """() => [...document.querySelectorAll('#quick input, #quick select')].map(
                e => `${e.id}=${e.value} ${e.validity.valid ? '' : e.validationMessage}`)"""
        )
        heard = getattr(page, "sockets", [])[-6:]
        asked = getattr(page, "requests", [])[-10:]
        raise AssertionError(
            f"no board at {page.url}: {shown[:200]!r}...{shown[-300:]!r}; form {form}; "
            f"errors {page_errors(page)}; requests {asked}; sockets {heard}"
        ) from exc
    path = page.url.split("://", 1)[1].split("/", 1)[1]
    assert path.startswith("t/"), page.url
    return path[2:].split("?")[0].split("#")[0]


@contextlib.contextmanager
def preset_rules_held(page: Page, preset: str, select: str) -> Iterator[None]:
    """Choose ``preset`` in the ``select`` field with its rules' request held (a slow
    network): the block runs while the answer is on its way, which comes after it."""
    pattern = f"**/api/rules/{preset}*"
    held: list[Any] = []
    page.route(pattern, lambda route: held.append(route))
    try:
        page.select_option(select, preset)
        page.wait_for_timeout(100)  # the route handler runs while Playwright waits
        assert held, f"the page asked for the rules of {preset}"
        yield
    finally:
        for route in held:
            route.continue_()
        page.unroute(pattern)
    page.wait_for_timeout(300)  # the answer is read


def hand_cards(page: Page) -> list[str]:
    cards: list[str] = page.locator("#hand .card").evaluate_all("cs => cs.map(c => c.dataset.card)")
    return cards


def trick_cards(page: Page) -> list[tuple[str, str]]:
    pairs: list[list[str]] = page.locator("#trick.current .trick-card").evaluate_all(
        "cs => cs.map(c => [c.dataset.seat, c.dataset.card])"
    )
    return [(seat, card) for seat, card in pairs]


# A point in the middle of the part of a card that shows, as the page draws it. In a fan each
# card is turned, so the corners of its box (the left strip of a rightmost card's box) may be
# the card beside it, and a click there waits on that card for ever; and a card rises under
# the pointer, so the point must hit it also 12 px lower (where that part of it is now).
_VISIBLE_POINT = """card => {
    const box = card.getBoundingClientRect();
    const on = (x, y) => { const hit = document.elementFromPoint(x, y); return !!hit && (hit === card || card.contains(hit)); };
    for (const down of [0.35, 0.5, 0.25, 0.65]) {
        const y = box.top + box.height * down, xs = [];
        for (let across = 0.02; across < 1; across += 0.02) {
            const x = box.left + box.width * across;
            if (on(x, y) && on(x, y + 12)) xs.push(x);
        }
        if (xs.length) return {x: xs[Math.floor(xs.length / 2)] - box.left, y: y - box.top};
    }
    return null;
}"""


def click_card(card: Locator) -> None:
    """Click a card of the fanned hand where it shows: where no other card covers it (once
    it is in the window and nothing flies over it)."""
    card.scroll_into_view_if_needed()
    for _ in range(50):
        point = card.evaluate(_VISIBLE_POINT)
        if point is not None:
            card.click(position=point)
            return
        card.page.wait_for_timeout(100)
    card.click()  # Playwright's own wait, and its message of what covers the card


def choose_bid(page: Page, legal: list[str]) -> str:
    """A quick auction: the first to speak bids the lowest, the others pass; stand, any trump."""
    if "stand" in legal:
        return "stand"
    trumps = [a for a in legal if a in ("C", "D", "H", "S")]
    if trumps:
        return trumps[0]
    bids = [a for a in legal if a[:1].isdigit()]
    someone_bid = page.locator("#auction-list .act-bid").count() > 0
    if "pass" in legal and (someone_bid or not bids):
        return "pass"
    return bids[0] if bids else legal[0]


class Table:
    """The seated pages of one table, and what has been played through them."""

    def __init__(self, pages: dict[str, Page]) -> None:
        self.pages = pages
        self.last: Page = next(iter(pages.values()))
        self.actions = 0
        self.cards_played = 0

    def page_to_act(self) -> Page:
        """The page of the seat to act, as the page that acted last sees it."""
        if len(self.pages) == 1:
            return self.last
        self.last.wait_for_function("() => document.body.dataset.toAct")
        seat = self.last.get_attribute("body", "data-to-act") or ""
        return self.pages[seat]


def play_until(page: Page, table: Table, condition: str, deals: int = 3) -> None:
    """Play on ``page`` until, at one of its turns, the JavaScript ``condition``
    holds; a deal can end first (the turns fall where the play puts them): then
    on in the next one, up to ``deals`` deals."""
    for _ in range(deals):
        while True:
            page.wait_for_selector(READY)
            # the trick on show has caught up with the table (the cards' motion is over)
            page.wait_for_function("() => document.body.dataset.stage !== 'busy'")
            if page.evaluate(condition):
                return
            if act_on_page(page, table) == "summary":
                page.click("#summary-close")
                break
    raise AssertionError(f"no turn of this page met the condition in {deals} deals")


def act_on_page(page: Page, table: Table) -> str:
    """Wait for something to do on ``page`` and do it; ``"summary"`` when the deal is over."""
    page.wait_for_selector(READY)
    if page.locator("#deal-summary").count():
        return "summary"
    version = int(page.get_attribute("body", "data-version") or "0")
    if page.locator("#bidbox").count():
        legal: list[str] = page.locator("#bidbox .bid-button:not([disabled])").evaluate_all(
            "bs => bs.map(b => b.dataset.action)"
        )
        choice = choose_bid(page, legal)
        page.click(f'#bidbox .bid-button[data-action="{choice}"]')
    else:
        card = page.locator("#hand .card.legal:not([disabled])").first
        choice = card.get_attribute("data-card") or ""
        click_card(card)
        table.cards_played += 1
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=version)
    table.actions += 1
    table.last = page
    return choice


def page_errors(page: Page) -> list[Any]:
    return list(getattr(page, "errors", []))


def state_of(page: Page, table_id: str) -> dict[str, Any]:
    """The seat's state as the server sends it, read on a connection of its own."""
    state: dict[str, Any] = page.evaluate(
        """async (table) => {
            const saved = JSON.parse(localStorage.getItem(`tarneeb.seat.${table}`));
            const ws = new WebSocket(`ws://${location.host}/ws/${table}`);
            const welcome = await new Promise((resolve, reject) => {
                ws.onopen = () => ws.send(JSON.stringify({type: "hello", protocol: 2, token: saved.token}));
                ws.onmessage = (e) => { const f = JSON.parse(e.data); if (f.type === "welcome") resolve(f); };
                ws.onerror = reject;
            });
            ws.close();
            return welcome.state;
        }""",
        table_id,
    )
    return state


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        data: dict[str, Any] = json.loads(answer.read())
        return data


SELECTORS = {
    "hand": "#hand .card",
    "bidbox": "#bidbox",
    "bids": "#bidbox .bid-button:not([disabled])",
    "someoneBid": "#auction-list .act-bid",
    "legalCard": "#hand .card.legal:not([disabled])",
    "trick": "#trick",
    "trickCards": "#trick .trick-card",
    "seats": ".seat",
    "summary": "#deal-summary",
    "summaryClose": "#summary-close",
    "matchEnd": "#match-end",
}
"""Where :data:`DRIVER` finds the parts of the table it checks and drives."""

DRIVER = """
async ({deals, sel, wait}) => {
  const q = (s) => document.querySelector(s);
  const qa = (s) => [...document.querySelectorAll(s)];
  const pause = () => new Promise((r) => setTimeout(r, 15));
  const version = () => Number(document.body.dataset.version || 0);
  // finite animations (a card flying to the trick) end before a check; endless ones
  // (a pulsing turn marker) do not count
  const settled = () => document.body.dataset.stage !== "busy" && document.getAnimations().every(
    (a) => a.playState !== "running" || a.effect?.getComputedTiming().endTime === Infinity);
  const until = async (what, ok) => {
    const deadline = performance.now() + wait;
    while (!ok()) {
      if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await pause();
    }
  };
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return {l: r.left, t: r.top, r: r.right, b: r.bottom};
  };
  const show = (b) => `(${Math.round(b.l)},${Math.round(b.t)})-(${Math.round(b.r)},${Math.round(b.b)})`;
  const name = (el) => el.id ? `#${el.id}`
    : `${el.tagName.toLowerCase()}.${[...el.classList].join(".")}`
      + (el.dataset.card || el.dataset.action || el.dataset.seat ? `[${el.dataset.card || el.dataset.action || el.dataset.seat}]` : "");
  const meet = (a, b) =>
    Math.min(a.r, b.r) - Math.max(a.l, b.l) > 1 && Math.min(a.b, b.b) - Math.max(a.t, b.t) > 1;
  // some point of el is el's own on screen: inside the window and under no other element
  const seen = (el) => {
    const b = box(el);
    for (const y of [b.t + 4, (b.t + b.b) / 2, b.b - 4]) {
      for (const x of [b.l + 4, (b.l + b.r) / 2, b.r - 4]) {
        const hit = document.elementFromPoint(x, y);
        if (hit && (hit === el || el.contains(hit))) return true;
      }
    }
    return false;
  };
  const check = () => {
    const w = document.documentElement.clientWidth, h = document.documentElement.clientHeight;
    const problems = [];
    const within = (el) => {
      const b = box(el);
      if (b.l < -1 || b.t < -1 || b.r > w + 1 || b.b > h + 1) {
        problems.push(`${name(el)} ${show(b)} is outside the ${w}x${h} window`);
      } else if (!seen(el)) {
        problems.push(`${name(el)} ${show(b)} is covered by ${name(document.elementFromPoint((b.l + b.r) / 2, (b.t + b.b) / 2) || document.body)}`);
      }
    };
    const cards = qa(sel.hand);
    if (!cards.length) problems.push("no hand on the table");
    cards.forEach(within);
    const bidbox = q(sel.bidbox);
    if (bidbox) {
      within(bidbox);
      qa(sel.bids).forEach(within);
      for (const card of cards) {
        if (meet(box(bidbox), box(card))) problems.push(`the bidding box ${show(box(bidbox))} covers ${name(card)} ${show(box(card))}`);
      }
    }
    const trick = q(sel.trick);
    // the trick of this deal's play (in the auction, the box may stand over the last deal's)
    if (trick && document.body.dataset.phase === "play" && qa(sel.trickCards).length) {
      const area = box(trick);
      qa(sel.trickCards).forEach(within);
      for (const other of [...cards, ...qa(sel.seats), ...(bidbox ? [bidbox] : [])]) {
        if (meet(area, box(other))) problems.push(`${name(other)} ${show(box(other))} overlaps the trick ${show(area)}`);
      }
    }
    return problems;
  };
  const choose = () => {
    const legal = qa(sel.bids).map((b) => b.dataset.action);
    const pick = (a) => q(`${sel.bids}[data-action="${a}"]`);
    if (!legal.length) return q(sel.legalCard);
    if (legal.includes("stand")) return pick("stand");
    const trump = legal.find((a) => ["C", "D", "H", "S"].includes(a));
    if (trump) return pick(trump);
    const bids = legal.filter((a) => /^[0-9]/.test(a));
    if (legal.includes("pass") && (q(sel.someoneBid) || !bids.length)) return pick("pass");
    return pick(bids.length ? bids[0] : legal[0]);
  };
  const done = {deals: 0, turns: 0, bids: 0, cards: 0, problems: [], at: null};
  const ready = `${sel.bids}, ${sel.legalCard}, ${sel.summary}, ${sel.matchEnd}`;
  try {
    while (true) {
      await until("a turn or the end of a deal", () => q(ready) && settled());
      const phase = document.body.dataset.phase, deal = document.body.dataset.deal;
      if (q(sel.summary)) {
        done.deals += 1;
        if (done.deals >= deals) return done;
        q(sel.summaryClose).click();
        await until("the summary to close", () => !q(sel.summary));
        continue;
      }
      if (q(sel.matchEnd)) { done.at = `the match ended after ${done.deals} deals`; return done; }
      done.turns += 1;
      const problems = check();
      if (problems.length) {
        done.problems = problems;
        done.at = `deal ${deal} (${done.deals + 1} of this run), turn ${done.turns}, phase ${phase}`;
        return done;
      }
      const target = choose();
      const before = version();
      if (target.dataset.card) done.cards += 1; else done.bids += 1;
      target.click();
      await until("the server to take the move", () => version() > before);
    }
  } catch (err) {
    done.at = `${err.message} after ${done.deals} deals and ${done.turns} turns`
      + ` (phase ${document.body.dataset.phase}, to act ${document.body.dataset.toAct})`;
    return done;
  }
}
"""
"""Plays ``deals`` deals on a seated page, checking the layout at each of its turns.

Runs inside the page, so that a turn costs no round trip to Python: at every
turn the hand's cards, the bidding box and its buttons, and the trick's cards
must lie inside the window and show (``elementFromPoint``: nothing drawn over
them); the bidding box must not cover the hand; no card of the hand, seat or
bidding box may overlap the trick. The moves: the first to speak bids the
lowest, the others pass; stand, the first trump; the first legal card.
Returns what was done and, at the first turn that failed, its problems.
"""


def play_deals(page: Page, deals: int, wait: float = 30.0) -> dict[str, Any]:
    """Run :data:`DRIVER` on ``page`` for ``deals`` deals; returns its tally."""
    result: dict[str, Any] = page.evaluate(
        DRIVER, {"deals": deals, "sel": SELECTORS, "wait": wait * 1000}
    )
    return result
