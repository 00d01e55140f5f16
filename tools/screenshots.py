"""Make the screenshots of the browser client in docs/screenshots/ anew.

    python tools/screenshots.py [--out docs/screenshots] [--chromium /usr/bin/chromium]

Starts ``tarneeb serve`` on a free port with a temporary SQLite file and bots
that play at once, drives Debian's chromium through Playwright (the test
extra), and writes, on a laptop (1366x768) and a phone (390x844), in English
and in Arabic: the home page, Egyptian bidding, a trick being played, a
Tarneeb 400 deal summary, the score sheet and the replay of a finished deal.
The same helpers drive the browser tests (tests/web_support.py).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from playwright.sync_api import Page, sync_playwright  # noqa: E402

from web_support import (  # noqa: E402
    ARGS,
    CHROMIUM,
    LAPTOP,
    PHONE,
    Table,
    new_page,
    play_deals,
    play_until,
    quick_play,
    run_server,
)

PLAY_WITH_TRICK = (
    "!!document.querySelector('#hand .card.legal:not([disabled])')"
    " && document.querySelectorAll('#trick .trick-card').length >= 2"
)
SHEET = "#score-sheet, #sheet, .score-sheet"
"""The score sheet, wherever the client puts it."""
SHEET_OPEN = "#open-sheet, #sheet-button, [data-open=sheet], button[aria-controls=score-sheet]"


def shoot(out: Path, page: Page, name: str) -> None:
    page.screenshot(path=str(out / name))
    print(out / name)


def settle(page: Page) -> None:
    """Wait until no finite animation runs (a card on its way), so that nothing is caught mid-air."""
    page.wait_for_function(
        """() => document.getAnimations().every(
            (a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity)"""
    )


def home(out: Path, page: Page, server: str, tag: str) -> None:
    page.goto(f"{server}/")
    page.wait_for_selector("#quick-play")
    shoot(out, page, f"home-{tag}.png")


def egyptian_bidding(out: Path, page: Page, server: str, tag: str, name: str) -> None:
    quick_play(page, server, name=name, preset="egyptian", target=1000)
    page.wait_for_selector("#bidbox .bid-button:not([disabled])")
    settle(page)
    shoot(out, page, f"bidding-egyptian-{tag}.png")


def trick(out: Path, page: Page, server: str, tag: str, name: str) -> None:
    quick_play(page, server, name=name, target=1000)
    play_until(page, Table({"south": page}), PLAY_WITH_TRICK)
    settle(page)
    shoot(out, page, f"table-{tag}.png")


def summary_sheet_replay(out: Path, page: Page, server: str, tag: str, name: str) -> None:
    """Tarneeb 400: two deals, the summary of the second, the score sheet, the replay."""
    quick_play(page, server, name=name, preset="tarneeb400", target=1000)
    done = play_deals(page, 2)
    if done["at"] is not None or not page.locator("#deal-summary").count():
        raise RuntimeError(f"the deals did not end in a summary: {done}")
    settle(page)
    shoot(out, page, f"summary-{tag}.png")
    page.click("#summary-close")
    opener = page.locator(SHEET_OPEN)
    if opener.count():
        opener.first.click()
    if page.locator(SHEET).count():
        # the sheet is a modal dialog, on screen wherever the page is: the table behind at the top
        page.evaluate("() => window.scrollTo(0, 0)")
        settle(page)
        shoot(out, page, f"score-sheet-{tag}.png")
    else:
        print(f"no score sheet on the page ({SHEET}): not shot", file=sys.stderr)
    page.goto(page.url.split("#")[0] + "#replay/2")
    page.wait_for_selector("#replay")
    for _ in range(8):  # a few steps in: the first trick on the table
        page.click("#replay-next")
    # the board in sight (clicking Next scrolled a phone's page down to the controls)
    page.evaluate(
        "() => document.querySelector('.replay-grid')?.scrollIntoView({block: 'start'})"
        if page.viewport_size and page.viewport_size["width"] < 600
        else "() => window.scrollTo(0, 0)"
    )
    settle(page)
    shoot(out, page, f"replay-{tag}.png")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--chromium", default=CHROMIUM)
    args = parser.parse_args(argv)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    views: list[tuple[str, dict[str, int], str, str]] = [
        ("desktop-en", LAPTOP, "en-US", "Maya"),
        ("desktop-ar", LAPTOP, "ar", "ليلى"),
        ("phone-en", PHONE, "en-US", "Maya"),
        ("phone-ar", PHONE, "ar", "نور"),
    ]
    scenes: list[Callable[..., None]] = [egyptian_bidding, trick, summary_sheet_replay]
    with (
        tempfile.TemporaryDirectory() as folder,
        run_server(Path(folder) / "tables.db") as server,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=args.chromium, args=ARGS)
        for tag, viewport, locale, name in views:
            page = new_page(browser, viewport, locale=locale)
            home(out, page, server, tag)
            page.context.close()
            for scene in scenes:
                page = new_page(browser, viewport, locale=locale)
                scene(out, page, server, tag, name)
                page.context.close()
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
