"""Helpers of the ``tarneeb serve`` tests over real WebSocket connections (Starlette's TestClient).

``import ws_support`` skips the importing module when the server's
dependencies are missing, unless ``TARNEEB_REQUIRE_EXTRAS=1`` (CI), where it
fails instead. Nothing here sleeps: :meth:`Peer.next` waits for the next
frame, with a timeout so that a frame that never comes fails the test
instead of hanging it.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tarneeb.actions import Phase, action_id, parse_action

REQUIRE = os.environ.get("TARNEEB_REQUIRE_EXTRAS") == "1"

try:
    import anyio
    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

    from tarneeb.server.app import create_app
    from tarneeb.server.hub import Settings
except ImportError as exc:  # pragma: no cover - the server extra is in the test extra
    if REQUIRE:
        pytest.fail(
            f"the server's dependencies are missing ({exc}), and TARNEEB_REQUIRE_EXTRAS=1 insists",
            pytrace=False,
        )
    pytest.skip(f"the server's dependencies are missing ({exc})", allow_module_level=True)

__all__ = [
    "SEAT_NAMES",
    "Closed",
    "Peer",
    "Settings",
    "TestClient",
    "WebSocketDisconnect",
    "choose",
    "connect",
    "create_app",
    "legal_texts",
    "open_peer",
    "play_until",
    "server",
]

SEAT_NAMES = ("south", "east", "north", "west")
TIMEOUT = 10.0
"""Seconds a test waits for a frame before it fails."""


class Closed(Exception):
    """The server closed the WebSocket."""

    def __init__(self, code: int | None) -> None:
        super().__init__(f"closed with code {code}")
        self.code = code


@contextlib.contextmanager
def server(tmp_path: Path, **settings: Any) -> Iterator[TestClient]:
    """A running app on a fresh SQLite file.

    Bots act at once, and the rate limits of frames, of new connections and of API
    requests are out of the way (the tests act far faster than people, and many clients of a test are one
    address here), unless ``settings`` say otherwise.
    """
    settings.setdefault("bot_delay", 0)
    settings.setdefault("rate_per_s", 1e6)
    settings.setdefault("rate_burst", 1e6)
    settings.setdefault("connects_per_minute", 0)
    settings.setdefault("api_per_second", 0)
    app = create_app(Settings(db_url=f"sqlite:///{tmp_path / 'server.db'}", **settings))
    with TestClient(app) as client:
        yield client


class Peer:
    """One WebSocket connection: every frame it receives, in order, and what it knows."""

    def __init__(self, ws: Any, label: str = "") -> None:
        self.ws = ws
        self.label = label
        self.frames: list[tuple[str, dict[str, Any]]] = []
        """Every frame received: (raw text, parsed)."""
        self.events: list[dict[str, Any]] = []
        """The events heard, in order (from the welcome and the updates)."""
        self.state: dict[str, Any] | None = None
        self.seat: str | None = None
        self.seq = 0
        self.version = 0
        self.closed: int | None = None
        self.ended = False

    # -- receiving -------------------------------------------------------------------------

    def message(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The next raw ASGI message the server sent (text or close)."""

        async def get() -> dict[str, Any]:
            with anyio.fail_after(timeout):
                return await self.ws._send_rx.receive()  # type: ignore[no-any-return]

        return self.ws.portal.call(get)  # type: ignore[no-any-return]

    def next(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The next frame; :class:`Closed` when the server closed the socket instead."""
        message = self.message(timeout)
        if message["type"] == "websocket.close":
            self.closed = message.get("code", 1000)
            raise Closed(self.closed)
        text = message["text"]
        frame: dict[str, Any] = json.loads(text)
        self.frames.append((text, frame))
        kind = frame["type"]
        if kind in ("welcome", "update"):
            self.state = frame["state"]
            self.seq = frame["seq"]
            self.version = frame["version"]
            if kind == "welcome":
                self.seat = frame["seat"]
            events = frame["events"] or []
            self.events.extend(events)
        return frame

    def until(self, pred: Callable[[dict[str, Any]], bool], limit: int = 5000) -> dict[str, Any]:
        """Read frames until one satisfies ``pred``; return it."""
        for _ in range(limit):
            frame = self.next()
            if pred(frame):
                return frame
        raise AssertionError(f"{self.label}: no such frame in {limit} frames")

    def until_version(self, version: int) -> None:
        """Read frames until the state is at ``version`` at least (none if it is already)."""
        for _ in range(5000):
            if self.version >= version:
                return
            self.next()
        raise AssertionError(f"{self.label}: version {version} never came")

    def sync(self) -> None:
        """Read every frame sent so far: a ping's pong comes after them."""
        self.send({"type": "ping"})
        self.until(lambda f: f["type"] == "pong")

    def expect_close(self, limit: int = 100) -> int:
        """Read until the server closes the socket; the close code."""
        for _ in range(limit):
            try:
                self.next()
            except Closed as closed:
                assert closed.code is not None
                return closed.code
        raise AssertionError(f"{self.label}: the socket stayed open")

    def disconnect(self) -> None:
        """Close the socket from the client's side (the server hears a disconnect)."""
        self.ws.close(1000)

    def close(self) -> None:
        """End the test session of the socket (once)."""
        if not self.ended:
            self.ended = True
            self.ws.__exit__(None, None, None)

    # -- sending ---------------------------------------------------------------------------

    def send(self, frame: dict[str, Any] | str | bytes) -> None:
        if isinstance(frame, bytes):
            self.ws.send_bytes(frame)
        else:
            self.ws.send_text(frame if isinstance(frame, str) else json.dumps(frame))

    def hello(self, token: str | None = None, since: int | None = None) -> dict[str, Any]:
        frame: dict[str, Any] = {"type": "hello", "protocol": 3}
        if token is not None:
            frame["token"] = token
        if since is not None:
            frame["since"] = since
        self.send(frame)
        welcome = self.next()
        assert welcome["type"] == "welcome", welcome
        return welcome

    def act(
        self, action: str | int | dict[str, Any], version: int | None = None, ref: str | None = None
    ) -> str:
        """Send an ``act`` (the action's text, id, or object); returns the act's id."""
        version = self.version if version is None else version
        key = action["id"] if isinstance(action, dict) else action
        ref = ref or f"{self.label}-{version}-{key}"
        self.send({"type": "act", "id": ref, "version": version, "action": action})
        return ref

    # -- reading the state -------------------------------------------------------------------

    @property
    def match(self) -> dict[str, Any]:
        assert self.state is not None and self.state["match"] is not None
        return self.state["match"]  # type: ignore[no-any-return]

    def my_turn(self) -> bool:
        return (
            self.state is not None
            and self.state["match"] is not None
            and not self.state["match"]["over"]
            and self.state["match"]["to_act"] == self.seat
        )

    def over(self) -> bool:
        return (
            self.state is not None
            and self.state["match"] is not None
            and bool(self.state["match"]["over"])
        )

    def connected(self, seat: str) -> bool:
        assert self.state is not None
        return bool(self.state["seats"][SEAT_NAMES.index(seat)]["connected"])


def open_peer(client: TestClient, table: str, label: str = "", **kwargs: Any) -> Peer:
    """A :class:`Peer` on ``/ws/TABLE`` (before its ``hello``); :meth:`Peer.close` ends it."""
    ws = client.websocket_connect(f"/ws/{table}", **kwargs)
    ws.__enter__()
    return Peer(ws, label)


@contextlib.contextmanager
def connect(client: TestClient, table: str, label: str = "", **kwargs: Any) -> Iterator[Peer]:
    """:func:`open_peer` as a context."""
    peer = open_peer(client, table, label, **kwargs)
    try:
        yield peer
    finally:
        peer.close()


def choose(match: dict[str, Any], rng: random.Random) -> str:
    """A legal action of ``match`` (a seat's state) that ends matches soon, as its text.

    In a side auction, the lowest bid if nobody has bid yet, else a pass; in
    individual bidding (and the raise and trump choice) one of the three
    lowest actions; in the play a random card.
    """
    legal = match["legal"]
    assert legal, match
    phase = Phase(match["phase"])
    if phase is Phase.PLAY:
        return str(rng.choice(legal)["text"])
    ordered = [a["text"] for a in sorted(legal, key=lambda a: a["id"])]
    if phase is Phase.AUCTION and not match["individual"]:
        bids = [a["text"] for a in legal if a["kind"] == "bid"]
        calls = match["auction"]["calls"]
        someone_bid = any(c["action"]["kind"] != "pass" for c in calls)
        if "pass" in ordered and (someone_bid or not bids):
            return "pass"
        return min(bids, key=lambda text: action_id(parse_action(text, phase)))
    return str(rng.choice(ordered[:3]))


def play_until(
    peer: Peer, rng: random.Random, done: Callable[[Peer], bool], limit: int = 20000
) -> None:
    """Act for ``peer``'s seat (with :func:`choose`) and read on, until ``done(peer)``."""
    for _ in range(limit):
        if done(peer):
            return
        if not peer.my_turn():
            peer.next()
            continue
        ref = peer.act(choose(peer.match, rng))
        answer = peer.until(lambda f, ref=ref: f.get("id") == ref)  # type: ignore[misc]
        if answer["type"] == "ack":
            peer.until_version(answer["version"])
    raise AssertionError(f"{peer.label}: not done in {limit} frames")


def legal_texts(match: dict[str, Any]) -> list[str]:
    """The texts of the legal actions of ``match`` (a seat's state)."""
    return [a["text"] for a in match["legal"]]
