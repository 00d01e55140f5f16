"""Helpers of the players tests: an app on a database, signed-in clients, matches played fast.

``import players_support`` skips the importing module without the server's
dependencies (argon2-cffi, openskill), unless ``TARNEEB_REQUIRE_EXTRAS=1``.
Each signed-in player is a client of its own (its own cookie jar) on the one app.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Iterator
from typing import Any

import pytest

import ws_support

for _module in ("argon2", "openskill"):
    try:
        __import__(_module)
    except ImportError:  # pragma: no cover - both are in the server extra
        if ws_support.REQUIRE:
            pytest.fail(f"{_module} is missing (the server extra)", pytrace=False)
        pytest.skip(f"{_module} is missing (the server extra)", allow_module_level=True)

from argon2 import PasswordHasher  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from tarneeb.actions import BID_BASE, PASS, Phase, format_action  # noqa: E402
from tarneeb.server.app import create_app  # noqa: E402
from tarneeb.server.hub import Hub, Settings  # noqa: E402
from tarneeb.server.players import Players, accounts  # noqa: E402
from tarneeb.server.table import Table  # noqa: E402

with contextlib.suppress(ImportError):
    # Imported whole before an app's threads (the solver's loader) import it half-way:
    # pytest.approx looks numpy up in sys.modules.
    import numpy  # noqa: F401

# The tests sign up hundreds of players: argon2 at its cheapest here (the kill -9 test's
# server, in a process of its own, hashes with the library's defaults).
accounts._hasher = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)

__all__ = ["PASSWORD", "App", "app_on", "guest_match", "play_to_the_end", "sign_up"]

PASSWORD = "correct horse battery"
FAST = {"bot_delay": 0.0, "rate_per_s": 1e6, "rate_burst": 1e6}


class App:
    """A running app and a client for each player signed in to it."""

    def __init__(self, client: TestClient, url: str) -> None:
        self.client = client
        self.url = url
        self.players: dict[str, TestClient] = {}

    @property
    def hub(self) -> Hub:
        hub: Hub = self.client.app.state.hub  # type: ignore[attr-defined]
        return hub

    @property
    def service(self) -> Players:
        players: Players = self.client.app.state.players  # type: ignore[attr-defined]
        return players

    def call(self, work: Any, *args: Any) -> Any:
        """Run the coroutine function ``work(*args)`` on the app's event loop."""
        assert self.client.portal is not None
        return self.client.portal.call(work, *args)

    def settled(self) -> None:
        """Wait for the ratings the app is working out now."""

        async def wait() -> None:
            while self.service._tasks:
                await asyncio.gather(*list(self.service._tasks), return_exceptions=True)

        self.call(wait)

    def browser(self, base_url: str = "http://testserver") -> TestClient:
        """Another client of the running app, with cookies of its own."""
        client = TestClient(self.client.app, base_url=base_url)
        client.portal = self.client.portal  # the same running app, on its own event loop
        return client

    def player(self, name: str, **body: Any) -> TestClient:
        """A new client signed up as ``name``."""
        client = self.browser()
        sign_up(client, name, **body)
        self.players[name] = client
        return client


def sign_up(client: TestClient, name: str, **body: Any) -> dict[str, Any]:
    answer = client.post("/api/players/signup", json={"name": name, "password": PASSWORD, **body})
    assert answer.status_code == 201, answer.text
    data: dict[str, Any] = answer.json()
    return data


def guest_match(client: TestClient, name: str = "Guest") -> tuple[str, str]:
    """A guest's table against three bots (a short match): its id and the guest's token."""
    made = client.post(
        "/api/tables",
        json={
            "name": name,
            "seats": {"east": "bot:random", "north": "bot:random", "west": "bot:random"},
            "options": {"target": 1},
        },
    )
    assert made.status_code == 201, made.text
    return made.json()["table"], made.json()["token"]


@contextlib.contextmanager
def app_on(url: str, **settings: Any) -> Iterator[App]:
    """An app on the database ``url`` (started, and stopped after)."""
    app = create_app(Settings(db_url=url, **{**FAST, **settings}))
    with TestClient(app) as client:
        yield App(client, url)


def play_to_the_end(app: App, table_id: str, seed: int = 0, limit: int = 5000) -> Table:
    """Random legal actions for whoever is to act, through the hub as the WebSocket's
    ``act`` goes, until the match is over (or ``limit`` actions)."""
    rng = random.Random(seed)

    async def act() -> bool:
        table = (await app.hub.open(table_id)).table
        if table.match is None or table.match.is_over():
            return False
        seat = table.to_act()
        assert seat is not None
        deal = table.match.deal
        legal = sorted(deal.legal_action_ids())
        # As ws_support.choose: the lowest bid when nobody bid, else a pass (short deals).
        bids = [a for a in legal if a >= BID_BASE]
        if deal.phase is Phase.AUCTION and not table.rules.is_individual and PASS in legal:
            someone_bid = any(a >= BID_BASE for a in deal.action_ids)
            action = PASS if someone_bid or not bids else bids[0]
        elif deal.phase is Phase.PLAY:
            action = rng.choice(legal)
        else:
            action = rng.choice(legal[:3])
        await app.hub.change(
            table_id,
            lambda t: t.act(seat, t.version, format_action(action), f"r{t.version}"),
        )
        return True

    for _ in range(limit):
        if not app.call(act):
            break
    table: Table = app.call(app.hub.open, table_id).table
    assert table.match is not None and table.match.is_over()
    return table
