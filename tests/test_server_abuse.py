"""Hostile clients against a live ``tarneeb serve`` while an honest table plays on.

One server (the real rate limits, server exceptions turned into answers as
uvicorn would) holds three tables: a *target* table of four seated players
who do nothing, frozen in the play of its first deal; an *honest* table,
where a player and three bots play a whole deal; and whatever the attackers
make. Between the honest player's moves, a seeded random choice of hostile
probes (malformed, nested, oversized and binary frames, unicode junk,
replayed acts, forged tokens, stale versions, other seats' turns, floods of
acts and chat lines, hostile HTTP bodies) is sent, and each must be refused:

* by an error frame with a known code (or an HTTP error body with one), or a
  clean close of the socket;
* without any change to the target table: its version, its events, in memory
  and in the database, and what a fresh spectator is told.

Meanwhile the honest table must play to the end of its deal. The tests at the
end each send one of the attacks of issue 19 on its own.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from support import ROOT, serve_command, start_listening
from tarneeb.server.table import ErrorCode
from tarneeb.server.wire import PROTOCOL_VERSION
from ws_support import (
    SEAT_NAMES,
    Closed,
    Peer,
    Settings,
    TestClient,
    choose,
    create_app,
    server,
)

CODES = {code.value for code in ErrorCode}
CLEAN_CLOSES = {1000, 1008, 1009, 1013}
RATE, BURST = 20.0, 40.0
"""The server's rate limit per connection (its defaults)."""
JUNK = ["\x00", "\x1b[31m", "\u202e", "\u200b", "\ud800", "\udfff", "\ufffe", "لاعب", "🂡", "\n"]
"""Unicode junk: NUL, an ANSI escape, a bidi override, zero-width, lone surrogates, ..."""

JSON = {"Content-Type": "application/json"}
"""Hostile bodies are sent as JSON, so they reach the checks past the content type."""


@dataclass
class Arena:
    client: TestClient
    target: str
    tokens: dict[str, str]
    peers: dict[str, Peer]
    match: dict[str, Any]
    """The target table's state as its mover sees it."""
    applied: list[tuple[str, str]]
    """(seat, id) of every action taken at the target table."""
    snapshot: tuple[int, int, list[Any]] = (0, 0, [])
    honest: str = ""
    honest_token: str = ""
    probes: int = 0
    refusals: dict[str, int] = field(default_factory=dict)

    # -- the target table ---------------------------------------------------------------------

    def state(self) -> tuple[int, int, list[Any]]:
        """The target table as the server holds it: (seq, version, events)."""
        table = self.client.app.state.hub.get(self.target).table  # type: ignore[attr-defined]
        return table.seq, table.version, list(table.events)

    def unchanged(self) -> None:
        assert self.state() == self.snapshot, "a refused input changed the target table"

    @property
    def mover(self) -> str:
        return str(self.match["to_act"])

    def idle(self, rng: random.Random) -> str:
        return rng.choice([s for s in SEAT_NAMES if s != self.mover])

    # -- hostile connections ------------------------------------------------------------------

    @contextlib.contextmanager
    def socket(self, table: str | None = None) -> Iterator[Peer]:
        ws = self.client.websocket_connect(f"/ws/{table or self.target}")
        ws.__enter__()
        peer = Peer(ws, "hostile")
        try:
            yield peer
        finally:
            with contextlib.suppress(Exception):
                peer.close()

    def refused(self, peer: Peer, codes: set[str] | None = None) -> str:
        """The refusal of the frame just sent: its error code, or ``close CODE``.

        Presence news may come first; an update that carries events fails (the
        table changed).
        """
        while True:
            try:
                frame = peer.next()
            except Closed as closed:
                assert closed.code in CLEAN_CLOSES, closed.code
                outcome = f"close {closed.code}"
                break
            if frame["type"] == "update":
                assert frame["events"] == [], f"the table changed: {frame['events']}"
                continue
            assert frame["type"] == "error", frame
            assert frame["code"] in CODES and frame["message"], frame
            if codes is not None:
                assert frame["code"] in codes, frame
            outcome = str(frame["code"])
            break
        self.refusals[outcome] = self.refusals.get(outcome, 0) + 1
        return outcome

    def seated(self, seat: str) -> contextlib.AbstractContextManager[Peer]:
        return _seated(self, seat)


@contextlib.contextmanager
def _seated(arena: Arena, seat: str) -> Iterator[Peer]:
    with arena.socket() as peer:
        peer.hello(arena.tokens[seat])
        yield peer


def http_refused(answer: Any, statuses: set[int]) -> str:
    assert answer.status_code in statuses, (answer.status_code, answer.text)
    error = answer.json()["error"]
    assert error["code"] in CODES and error["message"], error
    return str(error["code"])


# -- the probes: each sends something hostile and checks its refusal ------------------------------


def garbage_text(arena: Arena, rng: random.Random) -> None:
    text = "".join(rng.choice('{}[]":,0123456789abc \\\t') for _ in range(rng.randint(1, 200)))
    with contextlib.suppress(ValueError):
        if isinstance(json.loads(text), dict):
            text = "{" + text
    with arena.seated(arena.idle(rng)) as peer:
        peer.send(text)
        arena.refused(peer, {"malformed"})


def random_bytes(arena: Arena, rng: random.Random) -> None:
    with arena.seated(arena.mover) as peer:
        peer.send(bytes(rng.randrange(256) for _ in range(rng.randint(1, 300))))
        arena.refused(peer, {"malformed"})


def not_an_object(arena: Arena, rng: random.Random) -> None:
    value = rng.choice([[], [1, 2], 3, "act", None, True, [{"type": "act"}]])
    with arena.seated(arena.mover) as peer:
        peer.send(json.dumps(value))
        arena.refused(peer, {"malformed"})


def wrong_fields(arena: Arena, rng: random.Random) -> None:
    frame: dict[str, Any] = rng.choice(
        [
            {"type": "act", "id": "x", "version": "1", "action": "pass"},
            {"type": "act", "id": 5, "version": 1, "action": "pass"},
            {"type": "act", "id": "x", "version": True, "action": "pass"},
            {"type": "act", "id": "x", "version": 1},
            {"type": "act", "id": "x", "version": 1, "action": "pass", "seat": "north"},
            {"type": "chat", "text": ["hi"]},
            {"type": "teleport"},
            {"type": None},
            {"type": "hello", "protocol": 1},
        ]
    )
    with arena.seated(arena.mover) as peer:
        peer.send(frame)
        arena.refused(peer, {"malformed"})


def oversized(arena: Arena, rng: random.Random) -> None:
    size = rng.randint(4097, 60000)
    text = rng.choice([" " * size, json.dumps({"type": "chat", "text": "x" * size})])
    with arena.seated(arena.mover) as peer:
        peer.send(text)
        assert arena.refused(peer, {"too_large"}) == "too_large"
        assert peer.expect_close() == 1008


def stale_version(arena: Arena, rng: random.Random) -> None:
    version = arena.snapshot[1] + rng.choice([-1, 1, 2, 1000, -arena.snapshot[1]])
    with arena.seated(arena.mover) as peer:
        peer.act(rng.choice(arena.match["legal"]), version, f"stale-{rng.random()}")
        arena.refused(peer, {"stale"})


def other_seats_turn(arena: Arena, rng: random.Random) -> None:
    with arena.seated(arena.idle(rng)) as peer:
        peer.act(rng.choice(arena.match["legal"]), arena.snapshot[1], f"turn-{rng.random()}")
        arena.refused(peer, {"not_your_turn"})


def illegal_action(arena: Arena, rng: random.Random) -> None:
    hand = set(arena.match["hand"])
    cards = [f"{r}{s}" for r in "23456789TJQKA" for s in "SHDC"]
    action = rng.choice(
        [
            rng.choice([c for c in cards if c not in hand]),
            "".join(rng.choice(JUNK) for _ in range(3)),
            "7NT",
            "A" * 64,
        ]
    )
    with arena.seated(arena.mover) as peer:
        peer.act(action, arena.snapshot[1], f"illegal-{rng.random()}")
        arena.refused(peer, {"illegal", "malformed"})


def replayed_act(arena: Arena, rng: random.Random) -> None:
    seat, ref = rng.choice(arena.applied)
    version = arena.snapshot[1] if seat == arena.mover else rng.randint(0, arena.snapshot[1])
    action = rng.choice(arena.match["legal"])
    with arena.seated(seat) as peer:
        peer.act(action, version, ref)
        arena.refused(peer, {"duplicate"})


def junk_ids(arena: Arena, rng: random.Random) -> None:
    ref = rng.choice(["", "x" * 1000, "".join(rng.choice(JUNK) for _ in range(80))])
    with arena.seated(arena.mover) as peer:
        peer.send(
            {"type": "act", "id": ref, "version": arena.snapshot[1], "action": "not-an-action"}
        )
        arena.refused(peer, {"malformed", "illegal"})


def forged_token(arena: Arena, rng: random.Random) -> None:
    real = arena.tokens[arena.mover]
    token = rng.choice(
        [
            real[:-1] + ("A" if real[-1] != "A" else "B"),
            "".join(rng.choice(JUNK) for _ in range(10)),
            "x" * 3000,
            real.upper(),
        ]
    )
    with arena.socket() as peer:
        peer.send({"type": "hello", "protocol": PROTOCOL_VERSION, "token": token})
        assert arena.refused(peer) in ("unauthorized", "malformed", "too_large")
        assert peer.expect_close() == 1008


def spectator_acts(arena: Arena, rng: random.Random) -> None:
    with arena.socket() as peer:
        peer.hello()
        if rng.random() < 0.5:
            peer.act(rng.choice(arena.match["legal"]), arena.snapshot[1], "spectator")
        else:
            peer.send({"type": "chat", "text": "hello from the stands"})
        arena.refused(peer, {"unauthorized"})


def act_flood(arena: Arena, rng: random.Random) -> None:
    """A seat that is not to act floods acts: all refused, then the connection is closed."""
    with arena.seated(arena.idle(rng)) as peer:
        sent = int(BURST) + 20
        for i in range(sent):
            peer.act(rng.choice(arena.match["legal"]), arena.snapshot[1], f"flood-{i}")
        outcomes = []
        with contextlib.suppress(AssertionError):
            for _ in range(sent):
                outcomes.append(arena.refused(peer, {"not_your_turn", "rate_limited"}))
                if outcomes[-1].startswith("close"):
                    break
        assert "rate_limited" in outcomes, outcomes
        assert len(outcomes) == sent or outcomes[-1] == "close 1008", outcomes


def hostile_http(arena: Arena, rng: random.Random) -> None:
    client, table = arena.client, arena.target
    token = arena.tokens[arena.mover]
    kind = rng.choice(["malformed", "bytes", "forged", "full", "large", "junk-id", "deal"])
    if kind == "malformed":
        path = rng.choice(["join", "start", "leave"])
        body = rng.choice([b"{", b"[1,2]", b'"x"', b"{'a': 1}", b"null"])
        answer = client.post(f"/api/tables/{table}/{path}", content=body, headers=JSON)
        http_refused(answer, {400})
    elif kind == "bytes":
        body = bytes(rng.randrange(256) for _ in range(rng.randint(1, 500)))
        http_refused(client.post(f"/api/tables/{table}/join", content=body, headers=JSON), {400})
    elif kind == "forged":
        forged = token[:-2] + "zz"
        path = rng.choice(["start", "leave"])
        http_refused(client.post(f"/api/tables/{table}/{path}", json={"token": forged}), {403})
    elif kind == "full":
        # a full table (or, with seat invites, no invite): 409 or 403
        http_refused(client.post(f"/api/tables/{table}/join", json={"name": "late"}), {403, 409})
    elif kind == "large":
        body = json.dumps({"name": "x" * rng.randint(17000, 200_000)}).encode()
        http_refused(
            client.post(f"/api/tables/{table}/join", content=body, headers=JSON), {400, 413}
        )
    elif kind == "junk-id":
        junk = "".join(
            rng.choice(["%00", "%1b", "%e2%80%ae", "%ed%a0%80", "%ff", "x" * 40]) for _ in range(4)
        )
        http_refused(client.get(f"/api/tables/{junk}"), {400, 404})
    else:
        number = rng.choice(["0", "-1", "99", "1e3", "x", "9" * 30])
        http_refused(client.get(f"/api/tables/{table}/deals/{number}"), {400, 404})


def chat_flood(arena: Arena, rng: random.Random) -> None:
    """A second connection of the honest player floods chat at its table: bounded by the limit."""
    sent = int(BURST) + rng.randint(10, 30)
    with arena.socket(arena.honest) as peer:
        peer.hello(arena.honest_token)
        start = time.monotonic()
        for i in range(sent):
            peer.send({"type": "chat", "text": f"flood {i}"})
        accepted = refused = 0
        try:
            while accepted + refused < sent:  # each line is heard back, or refused
                frame = peer.next()
                if frame["type"] == "update":
                    accepted += sum(e["kind"] == "chat" for e in frame["events"])
                elif frame["type"] == "error":
                    assert frame["code"] == "rate_limited", frame
                    refused += 1
        except Closed as closed:
            assert closed.code == 1008
        elapsed = time.monotonic() - start
        assert accepted <= BURST + RATE * elapsed + 1, (accepted, elapsed)
        arena.refusals["rate_limited"] = arena.refusals.get("rate_limited", 0) + refused


def hint_flood(arena: Arena, rng: random.Random) -> None:
    """The seat to act floods hints from a second socket: no more are answered than its
    hint limit allows, each to it alone, for the state it is in; the rest are refused, and
    the table does not change. A seat not to act is refused every hint."""
    with arena.seated(arena.idle(rng)) as idle:
        idle.send({"type": "hint"})
        assert arena.refused(idle, {"not_your_turn"}) == "not_your_turn"
    limits = Settings()
    sent = int(BURST) - rng.randint(4, 10)  # within the socket's frame burst, with its hello
    with arena.seated(arena.mover) as peer:
        start = time.monotonic()
        for _ in range(sent):
            peer.send({"type": "hint"})
        answered = refused = 0
        while answered + refused < sent:
            frame = peer.next()
            if frame["type"] == "hint":
                assert frame["version"] == arena.snapshot[1], frame
                assert frame["action"] in arena.match["legal"], frame
                answered += 1
            elif frame["type"] == "error":
                assert frame["code"] == "rate_limited" and "hints" in frame["message"], frame
                refused += 1
            else:
                assert frame["type"] == "update" and frame["events"] == [], frame
        elapsed = time.monotonic() - start
    assert answered >= 1 or arena.refusals.get("hint_flood"), "the first flood had a hint"
    assert answered <= limits.hint_burst + limits.hints_per_minute / 60 * elapsed + 1, (
        answered,
        elapsed,
    )
    arena.refusals["hint_flood"] = arena.refusals.get("hint_flood", 0) + refused
    for seat, other in arena.peers.items():  # a hint is the asker's alone
        other.sync()
        assert not any(f["type"] == "hint" for _, f in other.frames), seat


PROBES: list[Callable[[Arena, random.Random], None]] = [
    garbage_text,
    random_bytes,
    not_an_object,
    wrong_fields,
    oversized,
    stale_version,
    other_seats_turn,
    illegal_action,
    replayed_act,
    junk_ids,
    forged_token,
    spectator_acts,
    act_flood,
    hostile_http,
    chat_flood,
    hint_flood,
]


# -- the server and its tables ----------------------------------------------------------------


@contextlib.contextmanager
def hostile_server(tmp_path: Path) -> Iterator[TestClient]:
    """The app with its real rate limits; a failing handler answers 500 as uvicorn would."""
    settings = Settings(
        db_url=f"sqlite:///{tmp_path / 'server.db'}", bot_delay=0, rate_per_s=RATE, rate_burst=BURST
    )
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        yield client


def _actions_so_far(match: dict[str, Any]) -> int:
    """The calls and cards of the deal so far, as the state tells them."""
    tricks = match["tricks"] + ([match["trick"]] if match["trick"] else [])
    return len(match["auction"]["calls"]) + sum(len(t["cards"]) for t in tricks)


@contextlib.contextmanager
def arena(tmp_path: Path) -> Iterator[Arena]:
    rng = random.Random(1919)
    with hostile_server(tmp_path) as client, contextlib.ExitStack() as stack:
        made = client.post("/api/tables", json={"rules": "classic", "name": "S"}).json()
        table = made["table"]
        tokens = {"south": made["token"]}
        for seat in SEAT_NAMES[1:]:
            joined = client.post(f"/api/tables/{table}/join", json={"name": seat, "seat": seat})
            tokens[seat] = joined.json()["token"]
        peers = {}
        for seat in SEAT_NAMES:
            peers[seat] = Peer(stack.enter_context(client.websocket_connect(f"/ws/{table}")), seat)
            peers[seat].hello(tokens[seat])
        applied = []
        while True:  # into the play: the auction and a few cards
            version = max(p.version for p in peers.values())
            for peer in peers.values():
                peer.until_version(version)
            mover = next(p for p in peers.values() if p.my_turn())
            if mover.match["phase"] == "play" and _actions_so_far(mover.match) >= 10:
                break
            ref = mover.act(choose(mover.match, rng))
            mover.until_version(version + 1)
            applied.append((mover.seat or "", ref))
        for peer in peers.values():
            peer.sync()
        arena = Arena(client, table, tokens, peers, mover.match, applied)
        arena.snapshot = arena.state()
        bots = {"east": "bot:random", "north": "bot:random", "west": "bot:random"}
        honest = client.post("/api/tables", json={"rules": "classic", "seats": bots}).json()
        arena.honest, arena.honest_token = honest["table"], honest["token"]
        yield arena


def test_hostile_clients_change_nothing_while_an_honest_table_plays(tmp_path: Path) -> None:
    rng = random.Random(19)
    with arena(tmp_path) as a:
        plan = PROBES * 3
        rng.shuffle(plan)
        ws = a.client.websocket_connect(f"/ws/{a.honest}")
        with ws:
            honest = Peer(ws, "honest")
            honest.hello(a.honest_token)
            acted = -1
            moves = 0
            while honest.match["deal_number"] == 1 and not honest.over():
                if honest.my_turn() and honest.version > acted:
                    for probe in plan[:3]:
                        probe(a, rng)
                        a.probes += 1
                        a.unchanged()
                    del plan[:3]
                    acted = honest.version
                    honest.act(choose(honest.match, rng))
                    moves += 1
                frame = honest.next()
                assert frame["type"] != "error", frame
            for probe in plan:  # what is left once the deal is over
                probe(a, rng)
                a.probes += 1
                a.unchanged()
            finished = a.client.get(f"/api/tables/{a.honest}/deals").json()["deals"]
        assert [d["number"] for d in finished] == [1], "the honest deal was played to its end"
        assert moves >= 13
        assert a.probes == 3 * len(PROBES)
        # Nothing reached the database either, and a fresh spectator sees the same table.
        stored = a.client.app.state.hub.store.load(a.target)  # type: ignore[attr-defined]
        assert stored is not None and list(stored.events) == a.snapshot[2]
        with a.socket() as spectator:
            welcome = spectator.hello()
        assert (welcome["seq"], welcome["version"]) == a.snapshot[:2]
        for peer in a.peers.values():
            peer.sync()
            assert peer.seq == a.snapshot[0]
        assert {"malformed", "too_large", "stale", "not_your_turn", "duplicate"} <= set(a.refusals)
        assert {"unauthorized", "rate_limited", "illegal", "hint_flood"} <= set(a.refusals)


# -- the numbered attacks of issue 19, each a test of its own ------------------------------------


def _deep(depth: int) -> str:
    return '{"type": "chat", "text": ' + "[" * depth + "]" * depth + "}"


def test_deeply_nested_json_is_a_malformed_frame(tmp_path: Path) -> None:
    with arena(tmp_path) as a:
        with a.seated(a.mover) as peer:
            peer.send(_deep(2000))
            assert a.refused(peer, {"malformed"}) == "malformed"
            peer.sync()  # and the socket is still there
        a.unchanged()


def test_a_deeply_nested_body_is_a_400(tmp_path: Path) -> None:
    with hostile_server(tmp_path) as client:
        body = ('{"rules": "classic", "options": ' + "[" * 5000 + "]" * 5000 + "}").encode()
        http_refused(client.post("/api/tables", content=body, headers=JSON), {400, 413})


def test_a_name_with_a_lone_surrogate_is_a_400_and_listing_still_works(tmp_path: Path) -> None:
    with hostile_server(tmp_path) as client:
        body = b'{"rules": "classic", "name": "x\\ud800"}'
        http_refused(client.post("/api/tables", content=body, headers=JSON), {400})
        assert client.get("/api/tables").status_code == 200


@pytest.mark.parametrize("name", ["a\x00b", "\x1b[31mred", "\u202egnp.exe", "\u200b\u200b"])
def test_names_with_control_bidi_or_only_invisible_characters_are_refused(
    tmp_path: Path, name: str
) -> None:
    with hostile_server(tmp_path) as client:
        http_refused(client.post("/api/tables", json={"rules": "classic", "name": name}), {400})


def test_a_rate_limited_act_names_its_id(tmp_path: Path) -> None:
    with arena(tmp_path) as a, a.seated(a.idle(random.Random(1))) as peer:
        sent = int(BURST) + 5
        for i in range(sent):
            peer.act("pass", a.snapshot[1], f"f{i}")
        answers: list[dict[str, Any]] = []
        while len(answers) < sent:  # one answer a frame, in order
            frame = peer.next()
            if frame["type"] == "error":
                answers.append(frame)
        assert any(f["code"] == "rate_limited" for f in answers)
        assert [f.get("id") for f in answers] == [f"f{i}" for i in range(sent)]


def test_chat_is_limited_per_seat_not_per_connection(tmp_path: Path) -> None:
    """Five sockets of one seat share its chat limit (each had its own frame rate before:
    20 connections stored 300 chat events a second)."""
    with arena(tmp_path) as a, contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(a.socket(a.honest)) for _ in range(5)]
        start = time.monotonic()
        for peer in sockets:
            peer.hello(a.honest_token)
            # within each socket's frame burst, its hello and the ping of sync() included:
            # only the chat limit refuses anything
            for i in range(int(BURST) - 2):
                peer.send({"type": "chat", "text": f"flood {i}"})
        for peer in sockets:
            with contextlib.suppress(Closed):
                peer.sync()
        elapsed = time.monotonic() - start
        table = a.client.app.state.hub.get(a.honest).table  # type: ignore[attr-defined]
        chats = sum(e.kind == "chat" for e in table.events)
        assert chats <= BURST + RATE * elapsed + 1, (chats, elapsed)
        limits = Settings()  # the seat's own bound, far below one connection's frame rate
        assert chats <= limits.chat_burst + limits.chat_per_minute / 60 * elapsed + 1


def test_a_frame_over_64_kib_is_too_large_over_uvicorn(tmp_path: Path) -> None:
    """Over the real server (uvicorn's own frame limit), not only the app's."""
    import asyncio

    from websockets.asyncio.client import connect

    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT / "src"), env.get("PYTHONPATH")) if p)
    process, port = start_listening(
        lambda port: serve_command(f"sqlite:///{tmp_path / 's.db'}", port),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
        cwd=ROOT,
    )

    async def scenario() -> dict[str, Any]:
        import urllib.request

        for _ in range(300):
            try:
                request = urllib.request.Request(
                    f"http://127.0.0.1:{port}/api/tables",
                    data=b'{"rules": "classic"}',
                    method="POST",
                    headers={"Content-Type": "application/json"},
                )
                made = json.load(urllib.request.urlopen(request, timeout=5))
                break
            except OSError:
                await asyncio.sleep(0.05)
        async with connect(f"ws://127.0.0.1:{port}/ws/{made['table']}") as ws:
            await ws.send(
                json.dumps({"type": "hello", "protocol": PROTOCOL_VERSION, "token": made["token"]})
            )
            assert json.loads(await ws.recv())["type"] == "welcome"
            await ws.send(json.dumps({"type": "chat", "text": "x" * 70000}))
            while True:
                frame: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if frame["type"] == "error":
                    return frame

    try:
        frame = asyncio.run(scenario())
    finally:
        process.terminate()
        process.wait(timeout=20)
    assert frame["code"] == "too_large"


def test_a_long_table_id_is_not_echoed_back_whole(tmp_path: Path) -> None:
    """A 10,000-character table id came back whole in its not_found message (10 kB of
    answer for a line of request); the message names at most its first 40 characters."""
    with server(tmp_path) as client:
        for path in ("", "/deals", "/record"):
            answer = client.get(f"/api/tables/{'x' * 10_000}{path}")
            assert http_refused(answer, {404}) == "not_found"
            message = answer.json()["error"]["message"]
            assert len(message) < 120 and "x" * 40 in message, message
