"""Helpers of the hosted-event tests (tests/test_events_*.py): make an event, watch it to its end."""

from __future__ import annotations

import json
from typing import Any

from tarneeb.server import wire
from tarneeb.server.wiretypes import check
from ws_support import TestClient, open_peer

QUICK = {"target": 1, "bot": "random", "turn_seconds": None}
"""Sets that end in a deal or two of random bots: a tournament runs in seconds."""


def make_event(client: TestClient, **config: Any) -> tuple[str, str]:
    """A new event of ``config`` (over :data:`QUICK`): its id and the host's token."""
    answer = client.post("/api/events", json={**QUICK, **config})
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    check(body, wire.EventCreatedBody)
    return str(body["event"]["id"]), str(body["host_token"])


def watch(client: TestClient, event_id: str, timeout: float = 60.0) -> list[dict[str, Any]]:
    """Every event the WebSocket of ``event_id`` sends until it is finished (the last)."""
    peer = open_peer(client, f"events/{event_id}", "watcher")
    seen: list[dict[str, Any]] = []
    try:
        while True:
            message = peer.message(timeout)
            assert message["type"] == "websocket.send", message
            frame = json.loads(message["text"])
            check(frame, wire.EventFrame)
            seen.append(frame["event"])
            if frame["event"]["status"] == "finished":
                return seen
    finally:
        peer.close()


def standing_order(event: dict[str, Any]) -> list[str]:
    return [line["pair"] for line in event["standings"]]
