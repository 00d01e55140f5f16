"""``tarneeb serve`` at its edge, attacked as a hostile client would (issue 19, items 1, 6-9).

Each test is the attack first: text that is not valid Unicode or that
hides itself, bodies and headers past the limits, a spectator link used as
an invite, errors that told internals, nested JSON, oversized and flooding
frames, pages without their headers, requests of foreign sites, timers of a
nanosecond. Over HTTP through Starlette's TestClient or the ASGI app itself;
what only uvicorn enforces, against a real ``python -m tarneeb serve``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

import ws_support  # noqa: F401 - skips this module without the server's dependencies
from support import serve_command, start_listening
from tarneeb.seats import Seat
from tarneeb.server.edge import MAX_BODY, JSONResponse
from tarneeb.server.store import Store
from tarneeb.server.table import Table, TableConfig
from tarneeb.server.wire import PROTOCOL_VERSION
from ws_support import Peer, TestClient, connect, server

JSON = {"Content-Type": "application/json"}


def post(client: TestClient, path: str, body: bytes | str, **headers: str) -> Any:
    """A POST of the raw JSON text ``body`` (as a browser's ``fetch`` sends it)."""
    return client.post(path, content=body, headers={**JSON, **headers})


def refused(response: Any, status: int, code: str) -> str:
    """The message of an error answer, checked for the one error shape."""
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message", "reference"}
    assert body["error"]["code"] == code
    assert isinstance(body["error"]["reference"], str) and body["error"]["reference"]
    return str(body["error"]["message"])


@contextlib.contextmanager
def hosting(client: TestClient) -> Iterator[tuple[dict[str, Any], Peer]]:
    """A new table (the host sits South) and the host's welcomed connection."""
    made = client.post("/api/tables", json={"name": "Layla"}).json()
    with connect(client, made["table"], "south") as south:
        south.hello(made["token"])
        yield made, south


def invite_of(path: str) -> str:
    """The secret of an invite path ``/t/ID?seat=S&invite=SECRET``."""
    return parse_qs(urlsplit(path).query)["invite"][0]


# -- 1. text that is not valid Unicode -------------------------------------------------------


def test_a_name_with_a_lone_surrogate_is_refused_and_the_list_keeps_answering(
    tmp_path: Path,
) -> None:
    with server(tmp_path) as client:
        message = refused(post(client, "/api/tables", '{"name": "x\\ud800"}'), 400, "malformed")
        assert "surrogate" in message
        listed = client.get("/api/tables")
        assert listed.status_code == 200 and listed.json() == {"tables": []}
        made = client.post("/api/tables", json={"name": "Layla", "public": True}).json()
        message = refused(
            post(client, f"/api/tables/{made['table']}/join", '{"name": "\\udfff"}'),
            400,
            "malformed",
        )
        assert "surrogate" in message
        assert client.get("/api/tables").status_code == 200


def test_a_stored_name_with_a_lone_surrogate_loads_and_is_served(tmp_path: Path) -> None:
    """A row written before the edge checked text: the table loads, every answer encodes."""
    url = f"sqlite:///{tmp_path / 'server.db'}"
    store = Store(url)
    old = Table.new("old", TableConfig())
    old._record("joined", {"seat": "south", "name": "x\ud800", "bot": None}, {"token_hash": "0"})
    store.create(old)
    store.close()
    with server(tmp_path) as client:
        listed = client.get("/api/tables")
        assert listed.status_code == 200
        assert listed.json()["tables"][0]["seats"][0]["name"] == "x\ufffd"
        assert client.get("/api/tables/old").status_code == 200


def test_a_json_response_cannot_fail_to_encode() -> None:
    body = JSONResponse({"name": "x\ud800"}).body
    assert json.loads(body) == {"name": "x\ud800"}


# -- 9. names and chat that hide or disguise themselves ---------------------------------------

BAD_NAMES = [
    ("Lay\x00la", "U+0000"),
    ("\x1b[31mLayla", "U+001B"),
    ("Lay\x9bla", "U+009B"),
    ("Lay\x7fla", "U+007F"),
    ("Layla\u202egnp.exe", "U+202E"),
    ("\u202aLayla", "U+202A"),
    ("Layla\u2066x", "U+2066"),
    ("Layla\u2069", "U+2069"),
    ("\u200b\u200d\u2060", "visible"),
    ("\u3164", "visible"),
    ("\ufeff \u200c", "visible"),
    ("\u0301\u0301", "visible"),
]


@pytest.mark.parametrize(("name", "problem"), BAD_NAMES)
def test_a_name_that_hides_or_disguises_itself_is_refused(
    tmp_path: Path, name: str, problem: str
) -> None:
    with server(tmp_path) as client:
        assert problem in refused(client.post("/api/tables", json={"name": name}), 400, "malformed")
        made = client.post("/api/tables", json={"name": "Layla", "public": True}).json()
        table = made["table"]
        assert problem in refused(
            client.post(f"/api/tables/{table}/join", json={"name": name}), 400, "malformed"
        )
        seats = client.get(f"/api/tables/{table}").json()["seats"]
        assert [s["taken"] for s in seats] == [True, False, False, False]


def test_names_are_normalised_and_counted_in_characters(tmp_path: Path) -> None:
    with server(tmp_path) as client:
        made = client.post("/api/tables", json={"name": "  Cafe\u0301  Nour ", "public": True})
        assert made.json()["state"]["seats"][0]["name"] == "Caf\u00e9 Nour"
        table = made.json()["table"]
        # 40 characters of two bytes each fit; 41 do not; Arabic with its joiner is a name
        joined = client.post(f"/api/tables/{table}/join", json={"name": "\u00e9" * 40})
        assert joined.status_code == 200, joined.text
        refused(
            client.post(f"/api/tables/{table}/join", json={"name": "\u00e9" * 41}),
            400,
            "malformed",
        )
        joined = client.post(
            f"/api/tables/{table}/join", json={"name": "\u0644\u200d\u064a\u0644\u0649"}
        )
        assert joined.status_code == 200, joined.text


def test_chat_lines_are_checked_like_names(tmp_path: Path) -> None:
    with server(tmp_path) as client, hosting(client) as (_made, south):
        for text in ["a\x1b[2Jb", "x\ud800", "\u202eevil", "\u200b", "line\nbreak"]:
            south.send(json.dumps({"type": "chat", "text": text}))
            error = south.until(lambda f: f["type"] == "error")
            assert error["code"] == "malformed" and "reference" in error
        south.send({"type": "chat", "text": "  Yalla,  good luck!  "})
        update = south.until(lambda f: f["type"] == "update")
        assert update["events"][-1]["text"] == "Yalla,  good luck!"
        assert [e["kind"] for e in south.events].count("chat") == 1


# -- 9. numbers of the set-up ----------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        '{"turn_seconds": 1e-9}',
        '{"turn_seconds": 4.99}',
        '{"turn_seconds": 601}',
        '{"turn_seconds": NaN}',
        '{"turn_seconds": Infinity}',
        '{"turn_seconds": -Infinity}',
        '{"turn_seconds": 1e999}',
        '{"takeover_seconds": NaN}',
        '{"takeover_seconds": 1e999}',
        '{"options": {"target": NaN}}',
        '{"options": {"target": 1000000000}}',
        '{"options": {"sets": 1000000}}',
    ],
)
def test_a_number_out_of_bounds_or_not_a_number_is_refused(tmp_path: Path, body: str) -> None:
    with server(tmp_path) as client:
        refused(post(client, "/api/tables", body), 400, "malformed")
        assert client.get("/api/tables").json() == {"tables": []}


def test_timers_within_bounds_are_taken(tmp_path: Path) -> None:
    with server(tmp_path) as client:
        for seconds in (5, 30.5, 600):
            made = client.post("/api/tables", json={"turn_seconds": seconds})
            assert made.status_code == 201, made.text
            assert made.json()["state"]["turn_seconds"] == seconds


def test_a_stored_set_up_from_before_the_bounds_loads(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'server.db'}"
    store = Store(url)
    fast = Table.new("fast", TableConfig(options={"target": 5000}, turn_seconds=1e-9))
    fast.join("Layla", Seat.SOUTH)
    store.create(fast)
    store.close()
    with server(tmp_path) as client:
        fast = client.get("/api/tables/fast").json()
        assert (fast["turn_seconds"], fast["options"]["target"]) == (5, 5000)
    with server(tmp_path) as client:  # the names of presets as their own
        made = client.post(
            "/api/tables", json={"rules": "  Classic ", "seats": {"east": "bot:random::: "}}
        ).json()
        assert made["state"]["rules"] == "classic"
        assert made["state"]["seats"][1]["name"] == "Bot (random)"


# -- 6. sizes --------------------------------------------------------------------------------


def test_a_body_over_the_limit_is_refused_by_its_length(tmp_path: Path) -> None:
    with server(tmp_path) as client:
        big = b'{"name": "' + b"x" * MAX_BODY + b'"}'
        assert "16384" in refused(post(client, "/api/tables", big), 413, "too_large")
        refused(post(client, "/api/tables", b"{" + b" " * 20000 + b"}"), 413, "too_large")
        assert client.get("/api/tables").json() == {"tables": []}


def test_a_body_without_a_length_is_cut_off_at_the_limit(tmp_path: Path) -> None:
    """A chunked body of 300 MiB: the server reads a little past 16 KiB, then answers 413."""
    chunk = b" " * 65536
    pulled = 0
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        nonlocal pulled
        pulled += 1
        return {"type": "http.request", "body": chunk, "more_body": pulled < 4800}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    with server(tmp_path) as client:
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "POST",
            "scheme": "http",
            "path": "/api/tables",
            "raw_path": b"/api/tables",
            "query_string": b"",
            "root_path": "",
            "headers": [(b"host", b"testserver"), (b"content-type", b"application/json")],
            "client": ("127.0.0.1", 5000),
            "server": ("testserver", 80),
            "state": {},
        }
        assert client.portal is not None
        client.portal.call(client.app, scope, receive, send)
        assert client.get("/api/tables").json() == {"tables": []}
    assert sent[0]["type"] == "http.response.start" and sent[0]["status"] == 413
    assert pulled == 1  # one chunk is already past the limit: nothing more is read
    assert json.loads(b"".join(m.get("body", b"") for m in sent[1:]))["error"]["code"] == (
        "too_large"
    )


# -- 9. nested JSON --------------------------------------------------------------------------


def test_deeply_nested_json_is_refused_in_bodies(tmp_path: Path) -> None:
    with server(tmp_path) as client:
        nested = '{"options": ' + "[" * 5000 + "]" * 5000 + "}"
        assert "nest" in refused(post(client, "/api/tables", nested), 400, "malformed")
        made = client.post("/api/tables", json={"name": "Layla", "public": True}).json()
        refused(
            post(client, f"/api/tables/{made['table']}/join", "[" * 8000 + "]" * 8000),
            400,
            "malformed",
        )


def test_the_nesting_check_takes_linear_time() -> None:
    """A body of escaped quotes only (a first check by pattern took 8 s on this one)."""
    from tarneeb.server.edge import check_depth

    started = time.perf_counter()
    check_depth('"' + '\\"' * (MAX_BODY // 2))
    check_depth('"' * MAX_BODY)
    assert time.perf_counter() - started < 3


def test_deeply_nested_json_is_refused_in_frames(tmp_path: Path) -> None:
    with server(tmp_path) as client:
        made = client.post("/api/tables", json={"name": "Layla"}).json()
        table = made["table"]
        nested = '{"type": "chat", "text": ' + "[" * 2000 + "]" * 2000 + "}"
        with connect(client, table, "south") as south:
            south.hello(made["token"])
            south.send(nested)
            error = south.until(lambda f: f["type"] == "error")
            assert error["code"] == "malformed" and "nest" in error["message"]
            south.sync()  # the socket stays open
        with connect(client, table, "first") as first:
            first.send(nested)  # as the first frame: refused, and closed
            assert first.next()["code"] == "malformed"
            assert first.expect_close() == 1008


# -- 9. rate limits --------------------------------------------------------------------------


def test_a_rate_limited_act_is_answered_with_its_id(tmp_path: Path) -> None:
    with server(tmp_path, rate_per_s=0.001, rate_burst=2) as client:
        made = client.post("/api/tables", json={"name": "Layla"}).json()
        with connect(client, made["table"], "south") as south:
            south.hello(made["token"])  # the first frame of the burst
            south.act("pass", ref="spent")  # the second
            south.act("pass", ref="limited-1")
            refusals = []
            while len(refusals) < 1:
                frame = south.next()
                if frame["type"] == "error" and frame["code"] == "rate_limited":
                    refusals.append(frame)
            assert refusals[0]["id"] == "limited-1"
            assert refusals[0]["reference"]


# -- 9. headers of pages and files -----------------------------------------------------------


@pytest.mark.parametrize(
    "path", ["/", "/t/abc", "/static/index.html", "/static/js/app.js", "/api/info"]
)
def test_every_answer_has_the_page_headers(tmp_path: Path, path: str) -> None:
    with server(tmp_path) as client:
        answer = client.get(path, headers={"Host": "evil.example:666"})
        assert answer.status_code == 200
        policy = answer.headers["content-security-policy"]
        assert "connect-src 'self';" in policy
        assert "evil" not in policy  # the request's Host is never echoed
        assert "frame-ancestors 'none'" in policy
        assert answer.headers["x-content-type-options"] == "nosniff"


# -- 9. requests of other sites --------------------------------------------------------------


def test_posts_of_other_sites_are_refused(tmp_path: Path) -> None:
    with server(tmp_path, allowed_origins=("https://friend.example",)) as client:
        made = client.post("/api/tables", json={"name": "Layla", "public": True}).json()
        table = made["table"]
        join = f"/api/tables/{table}/join"
        body = '{"name": "Eve"}'
        # a form or a text/plain fetch of a foreign page (no CORS preflight for those)
        for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data"):
            answer = client.post(join, content=body, headers={"Content-Type": kind})
            assert "Content-Type: application/json" in refused(answer, 415, "malformed")
            answer = client.post("/api/tables", content="{}", headers={"Content-Type": kind})
            refused(answer, 415, "malformed")
        refused(client.post(join, content=body), 415, "malformed")  # no Content-Type
        for headers in [
            {"Origin": "https://evil.example"},
            {"Origin": "null"},
            {"Sec-Fetch-Site": "cross-site"},
            {"Sec-Fetch-Site": "same-site", "Origin": "https://sub.testserver"},
        ]:
            assert "other sites" in refused(
                post(client, join, body, **headers), 403, "unauthorized"
            )
            refused(post(client, "/api/tables", "{}", **headers), 403, "unauthorized")
        assert len(client.get("/api/tables").json()["tables"]) == 1
        assert [s["taken"] for s in client.get(f"/api/tables/{table}").json()["seats"]] == [
            True,
            False,
            False,
            False,
        ]
        # the server's own page, and the origins allowed, may
        own = {"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"}
        assert post(client, join, body, **own).status_code == 200
        friend = {"Origin": "https://friend.example", "Sec-Fetch-Site": "cross-site"}
        assert post(client, join, '{"name": "Omar"}', **friend).status_code == 200


# -- 7. invites ------------------------------------------------------------------------------


def test_the_spectator_link_only_watches_at_a_private_table(tmp_path: Path) -> None:
    with server(tmp_path) as client:
        made = client.post("/api/tables", json={"name": "Layla", "public": False}).json()
        table = made["table"]
        invites = made["invites"]
        assert set(invites) == {"east", "north", "west"}
        assert made["spectate"] == f"/t/{table}"
        for seat, path in invites.items():
            parts = urlsplit(path)
            assert parts.path == f"/t/{table}"
            assert parse_qs(parts.query)["seat"] == [seat]
        secrets = {seat: invite_of(path) for seat, path in invites.items()}
        assert len(set(secrets.values())) == 3
        join = f"/api/tables/{table}/join"
        # with the spectator link only: no seat, named or not
        assert "invite" in refused(client.post(join, json={"name": "Eve"}), 403, "unauthorized")
        refused(client.post(join, json={"name": "Eve", "seat": "east"}), 403, "unauthorized")
        refused(client.post(join, json={"name": "Eve", "invite": "guess"}), 403, "unauthorized")
        refused(client.post(join, json={"name": "Eve", "invite": 7}), 403, "unauthorized")
        # an invite is for its own seat only
        refused(
            client.post(join, json={"name": "Eve", "invite": secrets["east"], "seat": "north"}),
            403,
            "unauthorized",
        )
        seats = client.get(f"/api/tables/{table}").json()["seats"]
        assert [s["taken"] for s in seats] == [True, False, False, False]
        joined = client.post(join, json={"name": "Omar", "invite": secrets["east"]}).json()
        assert joined["seat"] == "east"
        refused(client.post(join, json={"name": "Eve", "invite": secrets["east"]}), 409, "conflict")
        # the seat is held while it is taken, and is its invite's again once it is left
        client.post(f"/api/tables/{table}/leave", json={"token": joined["token"]})
        refused(client.post(join, json={"name": "Eve", "seat": "east"}), 403, "unauthorized")
        again = client.post(join, json={"name": "Omar", "invite": secrets["east"], "seat": "east"})
        assert again.json()["seat"] == "east"
        for seat in ("north", "west"):
            assert (
                client.post(join, json={"name": seat, "invite": secrets[seat]}).status_code == 200
            )
        assert client.get(f"/api/tables/{table}").json()["status"] == "playing"


def test_invites_are_stored_hashed_and_work_after_a_restart(tmp_path: Path) -> None:
    with server(tmp_path) as client:
        made = client.post("/api/tables", json={"name": "Layla", "public": False}).json()
    secret = invite_of(made["invites"]["west"])
    with Store(f"sqlite:///{tmp_path / 'server.db'}").engine.connect() as conn:
        dumped = repr(conn.exec_driver_sql("SELECT * FROM tarneeb_events").all())
    assert secret not in dumped and made["token"] not in dumped
    with server(tmp_path) as client:
        table = made["table"]
        refused(client.post(f"/api/tables/{table}/join", json={"name": "Eve"}), 403, "unauthorized")
        joined = client.post(f"/api/tables/{table}/join", json={"name": "Sami", "invite": secret})
        assert joined.json()["seat"] == "west"


def test_an_open_table_seats_anyone_but_keeps_reserved_seats(tmp_path: Path) -> None:
    """A public table is listed among the open tables: its free seats are anyone's, except
    those the host reserved for an invite."""
    with server(tmp_path) as client:
        body = {"name": "Layla", "public": True, "reserve": ["east"]}
        made = client.post("/api/tables", json=body).json()
        assert set(made["invites"]) == {"east"}
        table = made["table"]
        join = f"/api/tables/{table}/join"
        assert client.post(join, json={"name": "Omar"}).json()["seat"] == "north"
        refused(client.post(join, json={"name": "Eve", "seat": "east"}), 403, "unauthorized")
        east = invite_of(made["invites"]["east"])
        assert client.post(join, json={"name": "Nour", "invite": east}).json()["seat"] == "east"
        assert client.post(join, json={"name": "Sami"}).json()["seat"] == "west"


def test_a_table_from_before_invites_keeps_open_seats() -> None:
    """A stored table without ``invited`` events (made before invites) seats anyone, as then."""
    old = Table.new("old", TableConfig(public=False))
    old.join("Layla", Seat.SOUTH)
    restored = Table.restore("old", old.config, old.created, old.events)
    assert restored.join("Omar") and restored.seats[Seat.EAST].name == "Omar"


# -- 8. errors tell no internals -------------------------------------------------------------


class _Refused(Exception):
    pass


def _failing_append(*_args: Any, **_kwargs: Any) -> None:
    import sqlalchemy as sa

    raise sa.exc.OperationalError(
        "INSERT INTO tarneeb_events (table_id, seq, kind, data, secret) VALUES (?, ?, ?, ?, ?)",
        [("t", 5, "joined", "{}", '{"token_hash":"deadbeefcafe"}')],
        _Refused("database is locked"),
    )


def test_a_failed_commit_is_told_without_its_sql(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="tarneeb.server")
    with server(tmp_path) as client, hosting(client) as (made, south):
        table = made["table"]
        monkeypatch.setattr(Store, "append_many", _failing_append)  # every commit
        answer = client.post(f"/api/tables/{table}/start", json={"token": made["token"]})
        assert "INSERT" not in answer.text and "deadbeef" not in answer.text
        message = refused(answer, 500, "internal")
        south.send({"type": "chat", "text": "hello"})
        frame = south.until(lambda f: f["type"] == "error")
        for told in (answer.text, json.dumps(frame)):
            assert "INSERT" not in told and "deadbeef" not in told and "locked" not in told
        assert frame["code"] == "internal" and frame["reference"]
        references = [answer.json()["error"]["reference"], frame["reference"]]
        for reference in references:
            logged = [r for r in caplog.records if reference in r.getMessage()]
            assert logged and "locked" in logged[0].getMessage()
        assert "reference" in message


def test_an_unexpected_failure_anywhere_is_a_500_with_a_reference(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from tarneeb.server.hub import Hub

    def broken(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("SELECT token_hash FROM secrets")

    caplog.set_level(logging.ERROR, logger="tarneeb.server")
    with server(tmp_path) as client, hosting(client) as (made, south):
        table = made["table"]
        for name in ("get", "open", "result", "table_json", "tables", "change"):
            monkeypatch.setattr(Hub, name, broken)
        for answer in [
            client.get("/api/tables"),
            client.get(f"/api/tables/{table}"),
            client.get(f"/api/tables/{table}/deals"),
            client.post(f"/api/tables/{table}/join", json={"name": "Omar"}),
            client.post(f"/api/tables/{table}/start", json={"token": made["token"]}),
        ]:
            refused(answer, 500, "internal")
            assert "SELECT" not in answer.text and "token_hash" not in answer.text
            reference = answer.json()["error"]["reference"]
            record = next(r for r in caplog.records if reference in r.getMessage())
            assert record.exc_info is not None  # the traceback is in the log
        south.send({"type": "act", "id": "a1", "version": 0, "action": "pass"})
        frame = south.until(lambda f: f["type"] == "error")
        assert (frame["code"], frame["id"]) == ("internal", "a1")
        assert "SELECT" not in json.dumps(frame)
        south.sync()  # the socket stays open


def test_a_socket_that_fails_outside_a_frame_is_told_and_closed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from tarneeb.server.hub import Hub

    async def broken(*_args: Any, **_kwargs: Any) -> None:
        raise RuntimeError("UPDATE tarneeb_tables SET secret")

    caplog.set_level(logging.ERROR, logger="tarneeb.server")
    with server(tmp_path) as client:
        made = client.post("/api/tables", json={"name": "Layla"}).json()
        monkeypatch.setattr(Hub, "connect", broken)
        with connect(client, made["table"], "south") as south:
            south.send({"type": "hello", "protocol": PROTOCOL_VERSION, "token": made["token"]})
            frame = south.next()
            assert frame["code"] == "internal" and "UPDATE" not in json.dumps(frame)
            assert south.expect_close() == 1011
        assert any(frame["reference"] in r.getMessage() for r in caplog.records)


def test_unknown_paths_and_methods_answer_in_the_error_shape(tmp_path: Path) -> None:
    with server(tmp_path) as client:
        refused(client.get("/api/nothing"), 404, "not_found")
        refused(client.get("/static/nothing.js"), 404, "not_found")
        refused(client.delete("/api/tables"), 405, "malformed")


# -- 6 and 9 against uvicorn itself -----------------------------------------------------------


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    """``python -m tarneeb serve`` on a free port; its base URL."""
    log = (tmp_path / "serve.log").open("wb")
    process, port = start_listening(
        lambda port: serve_command(f"sqlite:///{tmp_path / 'served.db'}", port),
        log=lambda: (tmp_path / "serve.log").read_text(),
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(400):
            with contextlib.suppress(OSError):
                urllib.request.urlopen(f"{base}/api/info", timeout=2).close()
                break
            assert process.poll() is None, (tmp_path / "serve.log").read_text()
            time.sleep(0.05)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=10)
        log.close()


def test_uvicorn_refuses_a_huge_header_and_keeps_serving(served: str) -> None:
    port = int(served.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=10) as attacker:
        attacker.sendall(b"GET /api/info HTTP/1.1\r\nHost: x\r\nX-Big: ")
        sent = 0
        with contextlib.suppress(OSError):  # the server may close while we send
            while sent < 64 << 20:
                attacker.sendall(b"a" * 65536)
                sent += 65536
        answer = b""
        with contextlib.suppress(OSError):
            answer = attacker.recv(4096)
        # cut off at its first 16 KiB (what got through is in the sockets' buffers)
        assert sent < 16 << 20, sent
        if answer:
            assert answer.split()[1] in (b"400", b"431"), answer[:100]
    with urllib.request.urlopen(f"{served}/api/info", timeout=5) as info:
        assert json.load(info)["protocol"] == PROTOCOL_VERSION


def test_uvicorn_lets_the_protocol_refuse_a_frame_over_64_kib(served: str) -> None:
    websockets = pytest.importorskip("websockets")
    request = urllib.request.Request(
        f"{served}/api/tables", data=b'{"name": "Layla"}', headers=JSON, method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as made:
        created = json.load(made)

    async def attack() -> tuple[dict[str, Any], int | None]:
        url = f"ws{served[4:]}/ws/{created['table']}"
        async with websockets.connect(url, max_size=None) as ws:
            await ws.send(
                json.dumps(
                    {"type": "hello", "protocol": PROTOCOL_VERSION, "token": created["token"]}
                )
            )
            assert json.loads(await ws.recv())["type"] == "welcome"
            await ws.send(json.dumps({"type": "chat", "text": "x" * (100 << 10)}))
            frame: dict[str, Any] = {}
            with contextlib.suppress(websockets.ConnectionClosed):
                while frame.get("type") != "error":
                    frame = json.loads(await ws.recv())
            with contextlib.suppress(websockets.ConnectionClosed):
                await ws.recv()
            return frame, ws.close_code

    frame, code = asyncio.run(attack())
    assert frame["code"] == "too_large" and frame["reference"]
    assert code == 1008
