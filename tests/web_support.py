"""Helpers of the browser tests (tests/test_web_client.py): a server to test against, and moves.

* :func:`run_server`, ``tarneeb serve`` on a free port with a temporary SQLite file;
* :func:`new_page`, a page in a fresh browser context (its own local storage);
* :func:`quick_play`, a table against three bots from the home page;
* :class:`Table` and :func:`act_on_page`, play chosen from what the page offers.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from support import serve_command

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator, Page

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
def run_server(db: Path, port: int, timeout: float = 30.0) -> Iterator[str]:
    """Run ``tarneeb serve`` until the block ends; yields its base URL."""
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    command = serve_command(f"sqlite:///{db}", port, BOT_DELAY)
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    output: list[str] = []
    reader = threading.Thread(
        target=lambda: output.extend(iter(process.stdout.readline, "")),  # type: ignore[union-attr]
        daemon=True,
    )
    reader.start()
    ready = threading.Event()
    try:
        waited = 0.0
        while not _answers(url):
            if process.poll() is not None or waited > timeout:
                raise RuntimeError(f"tarneeb serve did not start: {''.join(output)[-2000:]}")
            ready.wait(0.1)  # the server is starting: look again shortly
            waited += 0.1
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover - a stuck server
            process.kill()
            process.wait()


def new_page(browser: Browser, viewport: dict[str, int], locale: str = "en-US") -> Page:
    """A page in a context of its own: separate storage, as a separate browser."""
    context = browser.new_context(viewport=viewport, locale=locale)
    context.set_default_timeout(30_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.errors = errors  # type: ignore[attr-defined]
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
    page.click("#quick-play")
    page.wait_for_selector("#board-grid")
    path = page.url.split("://", 1)[1].split("/", 1)[1]
    assert path.startswith("t/"), page.url
    return path[2:].split("?")[0].split("#")[0]


def hand_cards(page: Page) -> list[str]:
    cards: list[str] = page.locator("#hand .card").evaluate_all("cs => cs.map(c => c.dataset.card)")
    return cards


def trick_cards(page: Page) -> list[tuple[str, str]]:
    pairs: list[list[str]] = page.locator("#trick.current .trick-card").evaluate_all(
        "cs => cs.map(c => [c.dataset.seat, c.dataset.card])"
    )
    return [(seat, card) for seat, card in pairs]


def click_card(card: Locator) -> None:
    """Click a card of the fanned hand on its left strip, the part no other card covers."""
    box = card.bounding_box()
    assert box is not None
    card.click(position={"x": min(10.0, box["width"] / 4), "y": box["height"] / 3})


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
        legal: list[str] = page.locator("#bidbox .bid-button").evaluate_all(
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
