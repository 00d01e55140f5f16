"""Hosted events survive restarts, in SQLite and PostgreSQL (``TARNEEB_TEST_POSTGRES_URL``).

An event is rebuilt from its stored facts (pairs, start, which table plays
each set, each set's result) and the tables' own logs: a restarted app, or a
server killed with ``SIGKILL``, goes on from where the database says.
"""

from __future__ import annotations

# ruff: noqa: F811 - the fixture imported from test_server_persistence is a parameter here
import json
import urllib.request
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from events_support import QUICK, make_event, watch
from test_server_persistence import FAST, Server, db_url  # noqa: F401 - its fixture
from ws_support import Settings, TestClient, create_app, open_peer

KING = {"kind": "king-of-the-table", "pairs": 4, "sets": 6}


def _app(db: str) -> TestClient:
    return TestClient(create_app(Settings(db_url=db, **FAST)))


def _check_rotation(event: dict[str, Any]) -> None:
    """Each set's loser leaves the table, the next in the queue takes its seats (seed 002)."""
    games = event["games"]
    ns, ew = "p1", "p2"
    queue = [p["id"] for p in event["pairs"]][2:]
    for game in games:
        assert (game["ns"], game["ew"]) == (ns, ew), game
        if game["winner"] is None or game is games[-1]:
            break
        loser = ew if game["winner"] == ns else ns
        queue.append(loser)
        if loser == ns:
            ns = queue.pop(0)
        else:
            ew = queue.pop(0)


def _watch_until(client: TestClient, event_id: str, played: int) -> dict[str, Any]:
    """The event as its WebSocket tells it, once ``played`` sets have ended."""
    peer = open_peer(client, f"events/{event_id}", "watcher")
    try:
        while True:
            event = json.loads(peer.message(60.0)["text"])["event"]
            if sum(1 for g in event["games"] if g["status"] == "finished") >= played:
                return dict(event)
    finally:
        peer.close()


def test_a_restarted_app_goes_on_with_the_event_from_its_facts(db_url: str) -> None:
    with _app(db_url) as client:
        event_id, host = make_event(client, **KING)
        client.post(f"/api/events/{event_id}/start", json={"token": host, "fill": True})
        before = _watch_until(client, event_id, 2)
    done_before = [g for g in before["games"] if g["status"] == "finished"]
    with _app(db_url) as client:
        again = client.get(f"/api/events/{event_id}").json()
        assert again["status"] in ("running", "finished")
        assert again["games"][: len(done_before)] == done_before  # as stored, nothing replayed
        final = watch(client, event_id)[-1]
    assert len(final["games"]) == 6 and final["winner"] is not None
    assert final["games"][: len(done_before)] == done_before
    _check_rotation(final)
    with _app(db_url) as client:  # a finished event stays as it was
        assert client.get(f"/api/events/{event_id}").json() == final
        assert client.get("/api/events").json()["events"][0]["status"] == "finished"


def test_a_set_whose_result_was_not_written_is_read_from_its_table(db_url: str) -> None:
    """The fact of a set's end comes after its table's end: a crash between the two
    loses nothing, the restarted server reads the result from the finished table."""
    with _app(db_url) as client:
        event_id, host = make_event(client, kind="knockout", pairs=4)
        client.post(f"/api/events/{event_id}/start", json={"token": host, "fill": True})
        final = watch(client, event_id)[-1]
    engine = sa.create_engine(db_url)
    try:
        with engine.begin() as conn:
            last = conn.execute(
                sa.text("SELECT max(seq) FROM tarneeb_hosted_event_facts WHERE event_id = :e"),
                {"e": event_id},
            ).scalar_one()
            kind = conn.execute(
                sa.text(
                    "SELECT kind FROM tarneeb_hosted_event_facts WHERE event_id = :e AND seq = :s"
                ),
                {"e": event_id, "s": last},
            ).scalar_one()
            assert kind == "result"
            conn.execute(
                sa.text("DELETE FROM tarneeb_hosted_event_facts WHERE event_id = :e AND seq = :s"),
                {"e": event_id, "s": last},
            )
            conn.execute(
                sa.text("UPDATE tarneeb_hosted_events SET status = 'running' WHERE id = :e"),
                {"e": event_id},
            )
    finally:
        engine.dispose()
    with _app(db_url) as client:
        back = watch(client, event_id)[-1]
    assert back == final


def _http(base: str, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        f"{base}{path}", data=data, method=method, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


def _poll(server: Server, event_id: str, done: Any) -> dict[str, Any]:
    """The event once ``done(event)``; waiting on the process is the pause between looks."""
    assert server.process is not None
    for _ in range(1200):
        event: dict[str, Any] = _http(server.base, "GET", f"/api/events/{event_id}")
        if done(event):
            return event
        try:
            code = server.process.wait(timeout=0.05)
        except Exception:
            continue
        raise AssertionError(f"tarneeb serve exited ({code}): {server.log.read_text()[-3000:]}")
    raise AssertionError(f"the event never got there: {event}")


def test_kill_9_mid_event_and_the_restarted_server_finishes_it(db_url: str, tmp_path: Path) -> None:
    server = Server(db_url, tmp_path / "serve.log")
    server.start()
    try:
        made = _http(server.base, "POST", "/api/events", {**QUICK, **KING, "sets": 8})
        event_id, host = made["event"]["id"], made["host_token"]
        _http(server.base, "POST", f"/api/events/{event_id}/start", {"token": host, "fill": True})
        before = _poll(
            server,
            event_id,
            lambda e: sum(g["status"] == "finished" for g in e["games"]) >= 2,
        )
        server.kill()
        server.start()
        final = _poll(server, event_id, lambda e: e["status"] == "finished")
    finally:
        server.stop()
    done_before = [g for g in before["games"] if g["status"] == "finished"]
    assert final["games"][: len(done_before)] == done_before
    assert len(final["games"]) == 8
    assert len({g["table"] for g in final["games"]}) == 8
    _check_rotation(final)
