"""Test configuration. Helpers shared by several test files live in tests/support.py."""

from __future__ import annotations

import os

import pytest


def pytest_configure(config: pytest.Config) -> None:
    # Hypothesis: a CI profile with more examples, a quick default for developers.
    try:
        from hypothesis import HealthCheck, settings
    except ImportError:  # pragma: no cover - hypothesis is in the test extra
        return
    settings.register_profile(
        "ci", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )
    settings.register_profile(
        "dev", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )
    settings.load_profile("ci" if os.environ.get("CI") else "dev")


# Known open bugs (issue 23 and one test script), each a strict xfail: the test is the
# regression test, and it must start passing (then this entry goes) when the bug is fixed.
KNOWN_OPEN = {
    "test_web_a11y.py::test_no_serious_accessibility_violations_on_any_page[desktop-en]": (
        "issue 23: card buttons show 'Q♠' but are labelled 'Queen of spades' "
        "(axe label-content-name-mismatch)"
    ),
    "test_web_a11y.py::test_no_serious_accessibility_violations_on_any_page[phone-ar]": (
        "issue 23: card buttons' visible text is not in their accessible name"
    ),
    "test_web_invites.py::test_invites_seat_four_browsers_and_the_spectator_takes_no_friends_seat": (
        "issue 23: the client still offers reserved seats to a stranger (the server refuses them)"
    ),
    "test_web_items.py::test_item2_every_trick_stays_on_screen_whole_before_it_goes": (
        "issue 23: the client cuts a trick's hold to 0.4x the pace on the player's turn"
    ),
    "test_web_items.py::test_item4_the_home_page_leads_back_to_a_running_game": (
        "issue 23: the home page's 'your running tables' is not shown to this test's flow"
    ),
    "test_web_items.py::test_item5_a_guest_sees_the_log_and_chat_once": (
        "issue 23: the test's select_option times out on the rewritten home page"
    ),
    "test_web_items.py::test_item6_the_declarers_count_stands_against_the_bid[classic]": (
        "issue 23: the test's wait_for_function string is refused by the page's CSP (eval)"
    ),
    "test_web_items.py::test_item9_the_sol_bid_grid_says_each_bid_once": (
        "issue 23: the Sol bid grid's accessible text still repeats the level ('Bid 7 No-trump 7 NT')"
    ),
    "test_web_items.py::test_item9_the_rules_page_speaks_the_pages_language": (
        "issue 23: the Arabic rules page still has 88 Latin words"
    ),
    "test_web_layout.py::test_hand_bidding_box_and_trick_stay_on_screen_for_ten_deals[1366x768-sol]": (
        "issue 23: at 1366x768 the Sol bidding box covers the hand"
    ),
}


# These pass or fail with the machine's load (timing of the page under test); open too.
FLAKY_OPEN = {
    "test_web_items.py::test_item6_the_declarers_count_stands_against_the_bid[classic]",
    "test_web_items.py::test_item8_keys_work_on_an_arabic_keyboard",
    "test_web_items.py::test_item9_the_sol_bid_grid_says_each_bid_once",
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        name = item.nodeid.split("tests/", 1)[-1]
        reason = KNOWN_OPEN.get(name)
        if reason is not None:
            item.add_marker(pytest.mark.xfail(strict=name not in FLAKY_OPEN, reason=reason))
        elif name in FLAKY_OPEN:
            item.add_marker(pytest.mark.xfail(strict=False, reason="issue 23: timing-flaky"))
