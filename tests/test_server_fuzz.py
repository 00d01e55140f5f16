"""Protocol fuzzing of ``tarneeb serve`` (hypothesis) against one live table.

Malformed JSON, wrong types, unknown fields and types, bools for ints,
oversized frames, stale and replayed versions, bad and foreign tokens,
out-of-turn and illegal actions: each gets an error frame with the right
code, and the table is unchanged (checked through a fresh spectator's
welcome, and by the sender's next frame being the answer to its ping).
A separate test proves the rate limit.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tarneeb.actions import Phase, action_id, parse_action
from tarneeb.errors import TarneebError
from ws_support import SEAT_NAMES, Peer, TestClient, choose, connect, server

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=10,
)
NOT_INT = (
    st.booleans()
    | st.floats(allow_nan=False)
    | st.text(max_size=8)
    | st.none()
    | st.lists(st.integers(), max_size=2)
)
NOT_STR = (
    st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.none()
    | st.lists(st.text(max_size=3), max_size=2)
    | st.dictionaries(st.text(max_size=3), st.integers(), max_size=2)
)
FIELDS = {
    "hello": {"protocol", "token", "since"},
    "act": {"id", "version", "action"},
    "chat": {"text"},
    "ping": set(),
}


@dataclass
class Live:
    client: TestClient
    table: str
    tokens: dict[str, str]
    peers: dict[str, Peer]
    seq: int
    version: int
    match: dict[str, Any]
    applied: list[tuple[str, str, int]]
    """(seat, id, version) of every action taken."""
    count: int = 0

    def ref(self) -> str:
        self.count += 1
        return f"fuzz-{self.count}"

    @property
    def mover(self) -> Peer:
        return self.peers[self.match["to_act"]]

    @property
    def idle(self) -> Peer:
        return self.peers[SEAT_NAMES[(SEAT_NAMES.index(self.match["to_act"]) + 1) % 4]]

    def unchanged(self) -> None:
        """A fresh spectator finds the table exactly as the setup left it."""
        with connect(self.client, self.table, "check") as spectator:
            welcome = spectator.hello()
        assert (welcome["seq"], welcome["version"]) == (self.seq, self.version)
        assert welcome["state"]["version"] == self.version
        assert welcome["state"]["status"] == "playing"
        public = {k: v for k, v in self.match.items() if k not in ("hand", "legal")}
        assert {
            k: v for k, v in welcome["state"]["match"].items() if k not in ("hand", "legal")
        } == public

    def quiet(self, peer: Peer) -> None:
        """Nothing but presence news reached ``peer`` since: its ping's pong comes next."""
        peer.send({"type": "ping"})
        while True:
            frame = peer.next()
            if frame["type"] == "pong":
                return
            assert frame["type"] == "update", frame
            assert frame["events"] == [] and frame["version"] == self.version, frame


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    rng = random.Random(77)
    with server(tmp_path_factory.mktemp("fuzz")) as client, ExitStack() as stack:
        made = client.post("/api/tables", json={"rules": "classic", "name": "S"}).json()
        table = made["table"]
        tokens = {"south": made["token"]}
        for seat in SEAT_NAMES[1:]:
            tokens[seat] = client.post(
                f"/api/tables/{table}/join", json={"name": seat, "seat": seat}
            ).json()["token"]
        peers = {}
        for seat in SEAT_NAMES:
            peers[seat] = stack.enter_context(connect(client, table, seat))
            peers[seat].hello(tokens[seat])
        applied = []
        # into the play: the auction and a few cards
        while True:
            version = max(p.version for p in peers.values())
            for peer in peers.values():
                peer.until_version(version)
            mover = next(p for p in peers.values() if p.my_turn())
            if mover.match["phase"] == "play" and len(mover.match["history"]) >= 10:
                break
            mover.sync()
            ref = mover.act(choose(mover.match, rng))
            assert mover.next() == {"type": "ack", "id": ref, "version": version + 1}
            mover.until_version(version + 1)
            applied.append((mover.seat or "", ref, version + 1))
        for peer in peers.values():
            peer.sync()
        yield Live(client, table, tokens, peers, mover.seq, mover.version, mover.match, applied)


def expect_error(peer: Peer, code: str, ref: str | None = None) -> dict[str, Any]:
    frame = peer.next()
    while frame["type"] == "update" and frame["events"] == []:  # presence news
        frame = peer.next()
    assert frame["type"] == "error", frame
    assert frame["code"] == code, frame
    if ref is not None:
        assert frame["id"] == ref
    return frame


def not_an_object(text: str) -> bool:
    try:
        return not isinstance(json.loads(text), dict)
    except ValueError:
        return True


@given(st.text(max_size=300).filter(not_an_object))
def test_garbage_text(live: Live, text: str) -> None:
    peer = live.idle
    peer.send(text)
    expect_error(peer, "malformed")
    live.quiet(peer)
    live.unchanged()


@given(st.binary(max_size=300))
def test_garbage_bytes(live: Live, raw: bytes) -> None:
    with contextlib.suppress(UnicodeDecodeError):  # not UTF-8: malformed too
        assume(not_an_object(raw.decode("utf-8")))
    peer = live.mover
    peer.send(raw)
    expect_error(peer, "malformed")
    live.quiet(peer)
    live.unchanged()


@given(JSON.filter(lambda v: not isinstance(v, dict)))
def test_json_that_is_no_object(live: Live, value: Any) -> None:
    peer = live.mover
    peer.send(json.dumps(value))
    expect_error(peer, "malformed")
    live.quiet(peer)
    live.unchanged()


@given(st.sampled_from(["id", "version", "action"]), st.data())
def test_wrong_types(live: Live, key: str, data: st.DataObject) -> None:
    peer = live.mover
    frame: dict[str, Any] = {
        "type": "act",
        "id": live.ref(),
        "version": live.version,
        "action": live.match["legal"][0],
    }
    frame[key] = data.draw(NOT_INT if key == "version" else NOT_STR)
    peer.send(json.dumps(frame))
    expect_error(peer, "malformed")
    live.quiet(peer)
    live.unchanged()


@pytest.mark.parametrize("value", [True, False])
def test_bool_for_int(live: Live, value: bool) -> None:
    peer = live.mover
    peer.send({"type": "act", "id": live.ref(), "version": value, "action": live.match["legal"][0]})
    expect_error(peer, "malformed")
    peer.send({"type": "hello", "protocol": True})
    expect_error(peer, "malformed")
    live.quiet(peer)
    live.unchanged()


@given(st.sampled_from(sorted(FIELDS)), st.text(min_size=1, max_size=10), JSON)
def test_unknown_fields(live: Live, kind: str, key: str, value: Any) -> None:
    assume(key not in FIELDS[kind] and key != "type")
    peer = live.mover
    frame: dict[str, Any] = {"type": kind, key: value}
    if kind == "act":
        frame.update(id=live.ref(), version=live.version, action=live.match["legal"][0])
    if kind == "chat":
        frame["text"] = "hi"
    peer.send(json.dumps(frame))
    expect_error(peer, "malformed")
    live.quiet(peer)
    live.unchanged()


@given(JSON)
def test_unknown_types(live: Live, kind: Any) -> None:
    assume(not isinstance(kind, str) or kind not in FIELDS)
    peer = live.mover
    peer.send(json.dumps({"type": kind, "id": live.ref(), "version": live.version, "action": "x"}))
    expect_error(peer, "malformed")
    peer.send(json.dumps({"id": live.ref(), "version": live.version, "action": "x"}))
    expect_error(peer, "malformed")
    live.quiet(peer)
    live.unchanged()


@given(st.integers(min_value=-(2**70), max_value=2**70))
def test_stale_versions(live: Live, version: int) -> None:
    assume(version != live.version)
    peer = live.mover
    ref = live.ref()
    peer.send({"type": "act", "id": ref, "version": version, "action": live.match["legal"][0]})
    expect_error(peer, "stale", ref)
    live.quiet(peer)
    live.unchanged()


@given(st.data(), st.integers(min_value=-5, max_value=2**40), st.text(max_size=6))
def test_replayed_actions(live: Live, data: st.DataObject, version: int, action: str) -> None:
    seat, ref, made = data.draw(st.sampled_from(live.applied))
    peer = live.peers[seat]
    version = data.draw(st.sampled_from([version, made - 1, live.version]))
    peer.send({"type": "act", "id": ref, "version": version, "action": action})
    frame = expect_error(peer, "duplicate", ref)
    assert frame["version"] == made
    live.quiet(peer)
    live.unchanged()


@given(st.data())
def test_out_of_turn(live: Live, data: st.DataObject) -> None:
    seat = data.draw(st.sampled_from([s for s in SEAT_NAMES if s != live.match["to_act"]]))
    action = data.draw(st.sampled_from([*live.match["legal"], "pass", "7", "AS", "zz"]))
    peer = live.peers[seat]
    ref = live.ref()
    peer.send({"type": "act", "id": ref, "version": live.version, "action": action})
    expect_error(peer, "not_your_turn", ref)
    live.quiet(peer)
    live.unchanged()


CARDS = [r + s for r in "23456789TJQKA" for s in "CDHS"]
TEXTS = [*CARDS, "pass", "double", "raise", "stand", "redeal", "S", "H", "7", "8NT", "13", "10H"]


@given(st.sampled_from(TEXTS) | st.text(max_size=12))
def test_illegal_actions(live: Live, text: str) -> None:
    phase = Phase(live.match["phase"])
    legal = {action_id(parse_action(t, phase)) for t in live.match["legal"]}
    with contextlib.suppress(TarneebError):  # unreadable: illegal too
        assume(action_id(parse_action(text, phase)) not in legal)
    peer = live.mover
    ref = live.ref()
    peer.send({"type": "act", "id": ref, "version": live.version, "action": text})
    expect_error(peer, "illegal", ref)
    live.quiet(peer)
    live.unchanged()


@settings(max_examples=15)
@given(st.text(max_size=60) | st.sampled_from(["other-table"]))
def test_bad_tokens(live: Live, token: str) -> None:
    if token == "other-table":
        token = live.client.post("/api/tables", json={"name": "X"}).json()["token"]
    assume(token not in live.tokens.values())
    with connect(live.client, live.table, "intruder") as peer:
        peer.send({"type": "hello", "token": token})
        expect_error(peer, "unauthorized")
        assert peer.expect_close() == 1008
    live.unchanged()


@settings(max_examples=10)
@given(st.integers(min_value=4097, max_value=40000), st.booleans(), st.booleans())
def test_huge_frames(live: Live, size: int, as_json: bool, seated: bool) -> None:
    with connect(live.client, live.table, "big") as peer:
        if seated:
            peer.hello(live.tokens[live.match["to_act"]])
        if as_json:
            head = {"type": "act", "id": live.ref(), "version": live.version, "action": ""}
            text = json.dumps(head)
            text = text[:-2] + "x" * (size - len(text)) + '"}'
        else:
            text = "x" * size
        assert len(text.encode()) >= size > 4096
        peer.send(text)
        expect_error(peer, "too_large")
        assert peer.expect_close() == 1008
    live.unchanged()


def test_other_protocol_errors(live: Live) -> None:
    peer = live.mover
    for frame in [
        {"type": "hello", "token": live.tokens[peer.seat or ""]},
        {"type": "chat", "text": ""},
        {"type": "chat", "text": "x" * 301},
        {"type": "act", "id": "", "version": live.version, "action": "pass"},
        {"type": "act", "id": "x" * 65, "version": live.version, "action": "pass"},
    ]:
        peer.send(frame)
        expect_error(peer, "malformed")
    live.quiet(peer)
    live.unchanged()
    # another seat's token sits at that seat, and it is not that seat's turn
    with connect(live.client, live.table, "borrowed") as other:
        seat = live.idle.seat
        assert other.hello(live.tokens[seat or ""])["seat"] == seat
        ref = live.ref()
        other.act(live.match["legal"][0], version=live.version, ref=ref)
        expect_error(other, "not_your_turn", ref)
    live.unchanged()
    for peer in live.peers.values():
        live.quiet(peer)


# -- the rate limit ------------------------------------------------------------------------------


def test_the_rate_limit_refuses_then_closes(tmp_path: Path) -> None:
    with server(tmp_path, rate_per_s=0.001, rate_burst=5) as client:
        bots = {"east": "bot:random", "north": "bot:random", "west": "bot:random"}
        made = client.post("/api/tables", json={"name": "S", "seats": bots}).json()
        with connect(client, made["table"], "south") as south:
            south.hello(made["token"])  # 1 of 5
            while not south.my_turn():
                south.next()
            version = south.version
            for _ in range(4):  # 2 to 5
                south.send({"type": "ping"})
            for _ in range(4):
                assert south.until(lambda f: f["type"] != "update") == {"type": "pong"}
            # over the limit: even a good action is refused, and not applied
            south.act(south.match["legal"][0], ref="late")
            for _ in range(9):
                south.send({"type": "ping"})
            errors = [expect_error(south, "rate_limited") for _ in range(10)]
            # the refused act is named by its id (issue 19), the pings have none
            assert errors[0]["id"] == "late"
            assert all("id" not in e for e in errors[1:])
            assert south.expect_close() == 1008
        with connect(client, made["table"], "check") as spectator:
            assert spectator.hello()["version"] == version
