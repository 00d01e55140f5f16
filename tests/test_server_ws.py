"""``tarneeb serve`` over real WebSocket connections (Starlette's TestClient, in process).

Four seats play a whole match; a seat reconnects and hears exactly what it
missed; a bot holds an absent seat and gives it back; the turn timer plays;
a resent action is applied once; spectators, bad tokens and foreign origins
are refused; the HTTP API answers its errors in one shape. Nothing sleeps:
every wait is for a frame (with a timeout, see ws_support).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

from tarneeb.bots import HeuristicBot
from tarneeb.bots.base import Decision
from tarneeb.bots.registry import BOTS
from tarneeb.cards import Card, CardSet
from tarneeb.match import Match
from tarneeb.presets import find_rules
from tarneeb.record import format_deal, read_record
from tarneeb.seats import Seat
from tarneeb.server import config as table_module
from tarneeb.server.fairness import deck_from_seed, hands_from_seed
from tarneeb.view import View
from ws_support import (
    SEAT_NAMES,
    Peer,
    TestClient,
    WebSocketDisconnect,
    choose,
    connect,
    open_peer,
    play_until,
    server,
)

# -- helpers ---------------------------------------------------------------------------------

JSON = {"Content-Type": "application/json"}


@pytest.fixture
def quick_timers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Turn timers shorter than a server allows (5 s at least), so the tests are quick."""
    monkeypatch.setattr(table_module, "TURN_SECONDS", (0.1, 600))


def make_table(client: TestClient, **body: Any) -> tuple[str, dict[str, str]]:
    """Create a table (the creator sits South) and fill the other human seats; the tokens."""
    body.setdefault("name", "Layla")
    made = client.post("/api/tables", json=body)
    assert made.status_code == 201, made.text
    answer = made.json()
    table = answer["table"]
    tokens = {answer["seat"]: answer["token"]}
    seats = body.get("seats", {})
    for seat in SEAT_NAMES:
        if seat not in tokens and seats.get(seat, "human") == "human":
            joined = client.post(f"/api/tables/{table}/join", json={"name": seat, "seat": seat})
            assert joined.status_code == 200, joined.text
            assert joined.json()["seat"] == seat
            tokens[seat] = joined.json()["token"]
    return table, tokens


@contextlib.contextmanager
def south_against(client: TestClient, spec: str) -> Iterator[Peer]:
    """South at a new classic table whose three other seats are the bot ``spec``."""
    bots = dict.fromkeys(("east", "north", "west"), f"bot:{spec}")
    table, tokens = make_table(client, rules="classic", seats=bots)
    with connect(client, table, "south") as south:
        south.hello(tokens["south"])
        yield south


@contextlib.contextmanager
def seated(client: TestClient, table: str, tokens: dict[str, str]) -> Iterator[dict[str, Peer]]:
    """A connected, welcomed peer for each token."""
    with contextlib.ExitStack() as stack:
        peers = {}
        for seat, token in tokens.items():
            peer = stack.enter_context(connect(client, table, seat))
            welcome = peer.hello(token)
            assert welcome["seat"] == seat
            peers[seat] = peer
        yield peers


def step(peers: dict[str, Peer], rng: random.Random) -> str:
    """The seat to act (one of ``peers``) takes an action; every peer hears it. The action."""
    version = max(p.version for p in peers.values())
    for peer in peers.values():
        peer.until_version(version)
    movers = [p for p in peers.values() if p.my_turn()]
    assert len(movers) == 1, [p.state for p in peers.values()]
    mover = movers[0]
    mover.sync()
    action = choose(mover.match, rng)
    ref = mover.act(action)
    assert mover.next() == {"type": "ack", "id": ref, "version": version + 1}
    update = mover.next()
    assert update["type"] == "update" and update["version"] == version + 1
    assert update["events"][0]["kind"] == "action"
    assert {k: update["events"][0][k] for k in ("seat", "by", "version")} == {
        "seat": mover.seat,
        "by": "player",
        "version": version + 1,
    }
    assert update["events"][0]["action"]["text"] == action
    for peer in peers.values():
        peer.until_version(version + 1)
    return action


def rebuild(rules_name: str, options: dict[str, Any], events: list[dict[str, Any]]) -> Match:
    """The match the public events tell, the seeds revealed by ``deal_end`` dealing the cards."""
    seeds = {e["number"] - 1: e["seed"] for e in events if e["kind"] == "deal_end"}
    started = next(e for e in events if e["kind"] == "started")
    match = Match(
        find_rules(rules_name).replace(**options),
        first_dealer=Seat[started["first_dealer"].upper()],
        deck_source=lambda index: deck_from_seed(seeds[index]),
    )
    for event in events:
        if event["kind"] == "action":
            match.push(event["action"]["id"])
    return match


def assert_error(frame: dict[str, Any], code: str, ref: str | None = None) -> None:
    assert frame["type"] == "error", frame
    assert frame["code"] == code, frame
    assert isinstance(frame["message"], str) and frame["message"]
    if ref is not None:
        assert frame["id"] == ref


def pong(peer: Peer) -> None:
    """Nothing is queued for ``peer``: a ping is answered by the very next frame."""
    peer.send({"type": "ping"})
    assert peer.next() == {"type": "pong"}


# -- a whole match -------------------------------------------------------------------------------


def test_four_seats_play_a_whole_match(tmp_path: Path) -> None:
    rng = random.Random(2026)
    options = {"target": 11}
    with server(tmp_path) as client:
        made = client.post(
            "/api/tables", json={"rules": "classic", "options": options, "name": "Layla"}
        )
        assert made.status_code == 201
        answer = made.json()
        table = answer["table"]
        assert answer["seat"] == "south"
        assert answer["invites"] == {}  # a public table's free seats are anyone's
        assert answer["spectate"] == f"/t/{table}"
        assert answer["state"]["status"] == "waiting"
        tokens = {"south": answer["token"]}
        for seat in SEAT_NAMES[1:]:
            joined = client.post(f"/api/tables/{table}/join", json={"name": seat.title()})
            assert joined.status_code == 200
            assert joined.json()["seat"] == seat  # the first free seat
            tokens[seat] = joined.json()["token"]
        assert len(set(tokens.values())) == 4
        info = client.get(f"/api/tables/{table}").json()
        assert info["status"] == "playing"
        assert [s["name"] for s in info["seats"]] == ["Layla", "East", "North", "West"]
        with seated(client, table, tokens) as peers:
            actions = 0
            while not peers["south"].over():
                step(peers, rng)
                actions += 1
                assert actions < 2000
            winners = {p.match["winner"] for p in peers.values()}
            scores = {tuple(p.match["scores"]) for p in peers.values()}
            versions = {p.version for p in peers.values()}
            assert len(winners) == 1 and len(scores) == 1 and versions == {actions}
            winner = winners.pop()
            final = list(scores.pop())
            for peer in peers.values():
                seqs = [e["seq"] for e in peer.events]
                assert seqs == list(range(1, peer.seq + 1))
                assert peer.events == peers["south"].events
                end = peer.events[-1]
                assert end == {
                    "seq": peer.seq,
                    "kind": "match_end",
                    "winner": winner,
                    "scores": final,
                }
            events = peers["south"].events
            # each seat's own hand, as its first state of each deal showed it
            dealt: dict[tuple[str, int], list[str]] = {}
            for peer in peers.values():
                for _, frame in peer.frames:
                    if frame["type"] not in ("welcome", "update"):
                        continue
                    match = frame["state"]["match"]
                    for event in frame["events"]:
                        if event["kind"] == "deal" and match["deal_number"] == event["number"]:
                            assert len(match["hand"]) == 13
                            dealt[(peer.seat or "", event["number"])] = match["hand"]
        assert winner in ("NS", "EW")
        assert max(final) >= 11
        rebuilt = rebuild("classic", options, events)
        assert rebuilt.is_over()
        assert rebuilt.winner is not None and rebuilt.winner.name == winner
        assert list(rebuilt.team_scores) == final
        # the record
        record = client.get(f"/api/tables/{table}/record")
        assert record.status_code == 200
        assert read_record(record.text) == rebuilt
        # the finished deals, their seeds and hands
        deals = client.get(f"/api/tables/{table}/deals").json()["deals"]
        ends = [e for e in events if e["kind"] == "deal_end"]
        assert [d["number"] for d in deals] == list(range(1, len(rebuilt.deals) + 1))
        assert len(ends) == len(deals) >= 1
        dealing = rebuilt.rules.dealing
        for summary, end, deal in zip(deals, ends, rebuilt.deals, strict=True):
            assert summary["seed"] == end["seed"]
            digest = hashlib.sha256(end["seed"].encode()).hexdigest()
            assert summary["commitment"] == end["commitment"] == digest
            assert summary["text"] == format_deal(deal)
            assert summary["dealer"] == end["dealer"] == deal.dealer.name.lower()
            masks = hands_from_seed(end["seed"], deal.dealer, dealing)
            for seat in SEAT_NAMES:
                own = dealt[(seat, summary["number"])]
                assert CardSet.parse(" ".join(own)) == CardSet(masks[SEAT_NAMES.index(seat)])
        commitments = [e["commitment"] for e in events if e["kind"] == "deal"]
        assert commitments == [d["commitment"] for d in deals]
        replay = client.get(f"/api/tables/{table}/deals/1").json()
        first = rebuilt.deals[0]
        assert replay["hands"] == {
            seat: [str(c) for c in CardSet(first.dealt[i])] for i, seat in enumerate(SEAT_NAMES)
        }
        played = [
            {"seat": e["seat"], "action": e["action"]}
            for e in events
            if e["kind"] == "action" and e["seq"] < ends[0]["seq"]
        ]
        cards = [c for t in replay["tricks"] for c in t["cards"]]
        assert replay["auction"] == played[: len(played) - len(cards)]
        assert cards == [[c["seat"], c["action"]["text"]] for c in played[len(replay["auction"]) :]]
        assert [t["winner"] for t in replay["tricks"]] == [
            None if t.winner is None else SEAT_NAMES[t.winner] for t in first.tricks
        ]
        assert client.get(f"/api/tables/{table}").json()["status"] == "finished"
        assert table not in [t["id"] for t in client.get("/api/tables").json()["tables"]]
        missing = client.get(f"/api/tables/{table}/deals/{len(deals) + 1}")
        assert missing.status_code == 404


# -- reconnection --------------------------------------------------------------------------------


def test_a_seat_reconnects_and_hears_exactly_what_it_missed(tmp_path: Path) -> None:
    rng = random.Random(5)
    with server(tmp_path) as client:
        table, tokens = make_table(client, rules="classic")
        with seated(client, table, tokens) as peers:
            for _ in range(3):
                step(peers, rng)
            to_act = peers["south"].match["to_act"]
            away = SEAT_NAMES[(SEAT_NAMES.index(to_act) - 1) % 4]  # acts last of the four
            gone = peers.pop(away)
            seen = gone.seq
            hand = gone.match["hand"]
            gone.disconnect()
            watcher = next(iter(peers.values()))
            watcher.until(lambda f: f["type"] == "update" and not watcher.connected(away))
            gone.close()
            missed = 0
            while peers["south" if away != "south" else "east"].match["to_act"] != away:
                step(peers, rng)
                missed += 1
            assert missed >= 1
            witness = peers["south" if away != "south" else "east"]
            back = open_peer(client, table, away)
            try:
                welcome = back.hello(tokens[away], since=seen)
                expected = [e for e in witness.events if e["seq"] > seen]
                assert welcome["events"] == expected
                assert [e["seq"] for e in welcome["events"]] == list(
                    range(seen + 1, witness.seq + 1)
                )
                assert sum(e["kind"] == "action" for e in expected) == missed
                assert welcome["seq"] == witness.seq
                assert welcome["version"] == witness.version
                state = welcome["state"]
                assert state["version"] == witness.version
                assert state["match"]["to_act"] == away
                assert state["match"]["hand"] == hand  # it has not played since
                assert state["match"]["legal"]
                assert state["match"]["auction"] == witness.match["auction"]
                assert state["match"]["tricks"] == witness.match["tricks"]
                assert state["match"]["trick"] == witness.match["trick"]
                assert state["seats"][SEAT_NAMES.index(away)]["connected"] is True
                # it acts again
                peers[away] = back
                step(peers, rng)
                # without since: every event; since past the end: state alone
                with connect(client, table, "all") as everything:
                    assert everything.hello(tokens[away])["events"] == witness.events
                with connect(client, table, "ahead") as ahead:
                    welcome = ahead.hello(tokens[away], since=witness.seq + 5)
                    assert welcome["events"] is None
                    assert welcome["state"]["version"] == witness.version
                with connect(client, table, "now") as now:
                    assert now.hello(None, since=witness.seq)["events"] == []
            finally:
                back.close()


# -- bot takeover and reclaim ------------------------------------------------------------------


def leave_on_own_turn(
    peers: dict[str, Peer], spec: Peer, rng: random.Random
) -> tuple[Peer, int, dict[str, Any]]:
    """Play on until South is to act, drop South's connection, and wait for the
    spectator to see a bot take the seat: South's peer, its last version, and
    that update."""
    spec.hello()
    while not peers["south"].my_turn():
        step(peers, rng)
    south = peers.pop("south")
    version = south.version
    south.disconnect()
    held = spec.until(
        lambda f: f["type"] == "update" and any(e["kind"] == "takeover" for e in f["events"])
    )
    return south, version, held


def test_a_bot_holds_an_absent_seat_and_gives_it_back(tmp_path: Path) -> None:
    rng = random.Random(8)
    with server(tmp_path) as client:
        table, tokens = make_table(client, rules="classic", takeover_seconds=0)
        with seated(client, table, tokens) as peers, connect(client, table, "spec") as spec:
            south, version, held = leave_on_own_turn(peers, spec, rng)
            assert [e for e in held["events"] if e["kind"] == "takeover"] == [
                {
                    "seq": held["seq"],
                    "kind": "takeover",
                    "seat": "south",
                    "bot": "heuristic",
                    "level": None,
                }
            ]
            assert held["state"]["seats"][0]["held_by_bot"] is True
            assert held["state"]["seats"][0]["bot"] == "heuristic"
            played = spec.until(lambda f: f["type"] == "update" and f["version"] > version)
            action = played["events"][0]
            assert action["kind"] == "action"
            assert (action["seat"], action["by"], action["version"]) == (
                "south",
                "bot",
                version + 1,
            )
            south.close()
            # the player comes back with its token
            back = open_peer(client, table, "south")
            try:
                welcome = back.hello(tokens["south"])
                reclaim = back.until(
                    lambda f: (
                        f["type"] == "update" and any(e["kind"] == "reclaim" for e in f["events"])
                    )
                )
                assert reclaim["events"] == [
                    {"seq": reclaim["seq"], "kind": "reclaim", "seat": "south"}
                ]
                assert reclaim["state"]["seats"][0]["held_by_bot"] is False
                assert reclaim["state"]["seats"][0]["bot"] is None
                assert welcome["seq"] == reclaim["seq"] - 1
                peers["south"] = back
                while not back.my_turn():
                    step(peers, rng)
                step(peers, rng)
                acts = [e for e in back.events if e["kind"] == "action" and e["seat"] == "south"]
                assert [e["by"] for e in acts][-1] == "player"
                assert acts[-1]["version"] == back.version
                info = client.get(f"/api/tables/{table}").json()
                assert info["seats"][0]["held_by_bot"] is False
            finally:
                back.close()


def test_a_bot_does_not_act_for_a_seat_reclaimed_during_its_delay(
    tmp_path: Path, quick_timers: None
) -> None:
    """The bot holding a seat waits ``bot_delay`` before it acts; a reclaim in that time wins.

    After the reclaim the seat is its player's again: only the player, or
    its turn timer, may act for it, never the bot that stood up.
    """
    rng = random.Random(9)
    with server(tmp_path, bot_delay=0.4) as client:
        table, tokens = make_table(client, rules="classic", takeover_seconds=0, turn_seconds=1.5)
        with seated(client, table, tokens) as peers, connect(client, table, "spec") as spec:
            south, version, _ = leave_on_own_turn(peers, spec, rng)
            south.close()
            back = open_peer(client, table, "south")
            try:
                back.hello(tokens["south"])
                back.until(
                    lambda f: (
                        f["type"] == "update" and any(e["kind"] == "reclaim" for e in f["events"])
                    )
                )
                # South does nothing: the next action is South's, by its turn timer
                played = back.until(lambda f: f["type"] == "update" and f["version"] > version)
                action = played["events"][0]
                assert (action["kind"], action["seat"]) == ("action", "south")
                assert action["by"] == "timer"
            finally:
                back.close()


# -- slow bots ---------------------------------------------------------------------------------


class LoopWatchingBot(HeuristicBot):
    """The heuristic bot, marked slow (as the search bot is); it notes whether it
    decided on a thread running an event loop."""

    name = "loopwatch"
    slow = True
    on_a_loop: ClassVar[list[bool]] = []

    def decide(self, view: View) -> Decision:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            self.on_a_loop.append(False)
        else:
            self.on_a_loop.append(True)
        return super().decide(view)


def test_a_slow_bot_decides_off_the_event_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(BOTS, "loopwatch", LoopWatchingBot)
    monkeypatch.setattr(LoopWatchingBot, "on_a_loop", [])
    rng = random.Random(3)
    with server(tmp_path) as client, south_against(client, "loopwatch") as south:
        for _ in range(3):  # three of South's turns, each after the bots' own
            while not south.my_turn():
                south.next()
            version = south.version
            south.act(choose(south.match, rng))
            south.until_version(version + 1)  # not again on the state before its own action
    assert LoopWatchingBot.on_a_loop and not any(LoopWatchingBot.on_a_loop)


class BrokenBot(HeuristicBot):
    """A bot that fails: it raises on its turns in the auction (a solver gone away, a bug)
    and chooses a card the rules refuse in the play."""

    name = "broken"
    slow = True

    def decide(self, view: View) -> Decision:
        if view.phase.name == "PLAY":
            refused = next(c for c in map(Card, range(52)) if c not in view.legal_actions)
            return Decision(refused)
        raise RuntimeError("the solver went away")


@pytest.mark.parametrize("slow", [True, False])
def test_a_failing_bot_stops_no_table_a_stand_in_decides_and_the_log_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, slow: bool
) -> None:
    """A bot that raised left its task dead ("Task exception was never retrieved") and
    the table waiting for it forever: "no single client, request or failed disk write
    can stop a table". Now the heuristic bot decides for it, and the failure is logged."""
    monkeypatch.setitem(BOTS, "broken", BrokenBot)
    monkeypatch.setattr(BrokenBot, "slow", slow)
    rng = random.Random(5)
    with server(tmp_path) as client, south_against(client, "broken") as south:
        play_until(south, rng, lambda peer: len(peer.match["tricks"]) >= 2)
    failed = [r.getMessage() for r in caplog.records if r.name == "tarneeb.bots"]
    assert any("the broken bot failed" in m for m in failed), failed
    assert any("which the rules refuse" in m for m in failed), failed


# -- the turn timer ---------------------------------------------------------------------------


def test_the_turn_timer_passes_for_a_seat_that_does_not_act(
    tmp_path: Path, quick_timers: None
) -> None:
    with server(tmp_path) as client:
        table, tokens = make_table(
            client,
            rules="classic",
            turn_seconds=0.3,
            seats={"east": "bot:random", "north": "bot:random", "west": "bot:random"},
        )
        assert set(tokens) == {"south"}
        with connect(client, table, "south") as south:
            south.hello(tokens["south"])
            deadlines = []
            for _ in range(3):  # three turns of South's, each played by the timer
                while not south.my_turn():
                    south.next()
                assert south.state is not None
                deadline = south.state["turn_deadline"]
                assert isinstance(deadline, float)
                assert deadline <= time.time() + 0.3
                deadlines.append(deadline)
                legal = list(south.match["legal"])
                version = south.version
                played = south.until(
                    lambda f, v=version: f["type"] == "update" and f["version"] > v
                )
                action = played["events"][0]
                assert action["kind"] == "action"
                assert (action["seat"], action["by"], action["version"]) == (
                    "south",
                    "timer",
                    version + 1,
                )
                assert action["action"] in legal
                if any(a["kind"] == "pass" for a in legal):
                    assert action["action"]["kind"] == "pass"
                # the state that hands the turn to a bot shows no deadline
                if played["state"]["match"]["to_act"] != "south":
                    assert played["state"]["turn_deadline"] is None
            assert deadlines == sorted(set(deadlines))


def test_every_update_shows_the_deadline_of_the_turn_it_gives(tmp_path: Path) -> None:
    """The ``turn_deadline`` of a state is the deadline of the seat to act in that state."""
    rng = random.Random(12)
    with server(tmp_path) as client:
        table, tokens = make_table(client, rules="classic", turn_seconds=60)
        with seated(client, table, tokens) as peers:
            for _ in range(3):
                before = time.time()
                step(peers, rng)
                for peer in peers.values():
                    assert peer.state is not None
                    deadline = peer.state["turn_deadline"]
                    assert isinstance(deadline, float)
                    assert before + 60 <= deadline <= time.time() + 60


def test_no_timer_without_turn_seconds(tmp_path: Path) -> None:
    with server(tmp_path) as client:
        table, tokens = make_table(
            client,
            rules="classic",
            seats={"east": "bot:random", "north": "bot:random", "west": "bot:random"},
        )
        with connect(client, table, "south") as south:
            south.hello(tokens["south"])
            south.until(lambda f: f["type"] in ("welcome", "update") and south.my_turn())
            assert south.state is not None and south.state["turn_deadline"] is None
            pong(south)


# -- acting ----------------------------------------------------------------------------------------


def test_a_resent_action_is_applied_once(tmp_path: Path) -> None:
    rng = random.Random(4)
    with server(tmp_path) as client:
        table, tokens = make_table(client, rules="classic")
        with seated(client, table, tokens) as peers:
            step(peers, rng)
            mover = next(p for p in peers.values() if p.my_turn())
            version = mover.version
            action = choose(mover.match, rng)
            frame = {"type": "act", "id": "once", "version": version, "action": action}
            mover.send(frame)
            mover.send(frame)
            assert mover.next() == {"type": "ack", "id": "once", "version": version + 1}
            update = mover.next()
            assert update["type"] == "update" and update["version"] == version + 1
            assert [e["kind"] for e in update["events"]] == ["action"]
            duplicate = mover.next()
            assert_error(duplicate, "duplicate", "once")
            assert duplicate["version"] == version + 1
            mover.send({**frame, "version": version + 1})
            duplicate = mover.next()
            assert_error(duplicate, "duplicate", "once")
            assert duplicate["version"] == version + 1
            for peer in peers.values():
                peer.until_version(version + 1)
                pong(peer)  # one update each, not two
                assert peer.version == version + 1
                actions = [e for e in peer.events if e["kind"] == "action"]
                assert len(actions) == 2


def test_act_errors_reach_the_sender_only(tmp_path: Path) -> None:
    rng = random.Random(6)
    with server(tmp_path) as client:
        table, tokens = make_table(client, rules="classic")
        with seated(client, table, tokens) as peers:
            step(peers, rng)
            mover = next(p for p in peers.values() if p.my_turn())
            other = next(p for p in peers.values() if not p.my_turn())
            v = mover.version
            legal = mover.match["legal"]
            mover.act(legal[0], version=v - 1, ref="s")
            assert_error(mover.next(), "stale", "s")
            mover.act(legal[0], version=v + 1, ref="s2")
            assert_error(mover.next(), "stale", "s2")
            other.act("pass", version=v, ref="o")
            assert_error(other.next(), "not_your_turn", "o")
            mover.act("AS", version=v, ref="i")  # a card in the auction
            assert_error(mover.next(), "illegal", "i")
            mover.act("banana", version=v, ref="b")
            assert_error(mover.next(), "illegal", "b")
            mover.send({"type": "chat", "text": "x" * 301})
            assert_error(mover.next(), "malformed")
            mover.send({"type": "chat", "text": "ahlan"})
            chat = mover.until(lambda f: f["type"] == "update")
            assert chat["events"] == [
                {
                    "seq": chat["seq"],
                    "kind": "chat",
                    "seat": mover.seat,
                    "name": "Layla" if mover.seat == "south" else mover.seat,
                    "text": "ahlan",
                }
            ]
            assert chat["version"] == v
            for peer in peers.values():
                if peer is not mover:
                    peer.until(lambda f: f["type"] == "update" and f["events"] == chat["events"])
                pong(peer)
                assert peer.version == v


# -- spectators, tokens, origins ----------------------------------------------------------------


def test_spectators_see_no_hand_and_cannot_act(tmp_path: Path) -> None:
    rng = random.Random(3)
    with server(tmp_path) as client:
        table, tokens = make_table(client, rules="classic")
        with seated(client, table, tokens) as peers, connect(client, table, "spec") as spec:
            welcome = spec.hello()
            assert welcome["seat"] is None
            assert welcome["state"]["match"]["hand"] == []
            assert welcome["state"]["match"]["legal"] == []
            assert welcome["state"]["match"]["hand_sizes"] == [13, 13, 13, 13]
            step(peers, rng)
            update = spec.until(lambda f: f["type"] == "update" and f["version"] == 1)
            assert update["state"]["match"]["hand"] == []
            assert update["state"]["match"]["legal"] == []
            to_act = update["state"]["match"]["to_act"]
            legal = peers[to_act].match["legal"]
            spec.act(legal[0], version=1, ref="spy")
            assert_error(spec.next(), "unauthorized", "spy")
            spec.send({"type": "chat", "text": "hi"})
            assert_error(spec.next(), "unauthorized")
            spec.send({"type": "hello"})
            assert_error(spec.next(), "malformed")
            pong(spec)  # still open
            for peer in peers.values():
                pong(peer)
                assert peer.version == 1


def test_a_bad_token_is_refused_and_closed(tmp_path: Path) -> None:
    with server(tmp_path) as client:
        table, tokens = make_table(client, rules="classic")
        _, other_tokens = make_table(client, rules="classic")
        for bad in ["nope", other_tokens["south"], tokens["south"] + "x", "x" * 300]:
            with connect(client, table, "bad") as peer:
                peer.send({"type": "hello", "token": bad})
                assert_error(peer.next(), "unauthorized")
                assert peer.expect_close() == 1008
        with connect(client, table, "first") as peer:
            peer.send({"type": "ping"})
            assert_error(peer.next(), "malformed")
            assert peer.expect_close() == 1008
        with connect(client, "no-such-table", "lost") as peer:
            assert_error(peer.next(), "not_found")
            assert peer.expect_close() == 1008


@pytest.mark.parametrize(
    ("origin", "admitted"),
    [
        (None, True),
        ("http://testserver", True),
        ("https://play.example", True),  # allowed by the settings
        ("http://evil.example", False),
        ("http://testserver.evil.example", False),
        ("https://play.example.evil", False),
        ("null", False),
    ],
)
def test_the_origin_check(tmp_path: Path, origin: str | None, admitted: bool) -> None:
    with server(tmp_path, allowed_origins=("https://play.example",)) as client:
        table, tokens = make_table(client, rules="classic")
        headers = {} if origin is None else {"origin": origin}
        if admitted:
            with connect(client, table, "o", headers=headers) as peer:
                assert peer.hello(tokens["south"])["seat"] == "south"
        else:
            with pytest.raises(WebSocketDisconnect) as info:
                open_peer(client, table, "o", headers=headers)
            assert info.value.code == 1008


# -- the HTTP API's errors --------------------------------------------------------------------


def error_of(response: Any, status: int, code: str) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message", "reference"}
    assert body["error"]["code"] == code
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    return str(body["error"]["message"])


def test_http_api_errors(tmp_path: Path) -> None:
    with server(tmp_path) as client:
        for path in ["", "/deals", "/deals/1", "/record"]:
            error_of(client.get(f"/api/tables/nope{path}"), 404, "not_found")
        error_of(client.get("/api/tables/" + "x" * 40), 404, "not_found")
        error_of(client.post("/api/tables/nope/join", json={"name": "a"}), 404, "not_found")
        error_of(client.post("/api/tables/nope/start", json={"token": "t"}), 404, "not_found")
        error_of(client.post("/api/tables/nope/leave", json={"token": "t"}), 404, "not_found")
        error_of(client.get("/api/rules/nope"), 404, "not_found")
        # malformed bodies
        for body in [b"not json", b"[1, 2]", b'"text"', b"{"]:
            answer = client.post("/api/tables", content=body, headers=JSON)
            error_of(answer, 400, "malformed")
        assert "colour" in error_of(
            client.post("/api/tables", json={"colour": 1}), 400, "malformed"
        )
        assert "target" in error_of(
            client.post("/api/tables", json={"options": {"target": -1}}), 400, "malformed"
        )
        error_of(client.post("/api/tables", json={"seat": "up"}), 400, "malformed")
        error_of(client.post("/api/tables", json={"seat": 3}), 400, "malformed")
        error_of(
            client.post("/api/tables", json={"seats": {"south": "bot:random"}}), 400, "malformed"
        )
        error_of(client.post("/api/tables", json={"name": ""}), 400, "malformed")
        answer = client.post("/api/tables", content=b"{" + b" " * 20000 + b"}", headers=JSON)
        error_of(answer, 413, "too_large")
        made = client.post("/api/tables", json={"name": "Layla", "public": False}).json()
        table, token = made["table"], made["token"]
        assert table not in [t["id"] for t in client.get("/api/tables").json()["tables"]]
        error_of(
            client.post(f"/api/tables/{table}/join", json={"name": "a", "x": 1}), 400, "malformed"
        )
        error_of(client.post(f"/api/tables/{table}/join", json={"name": 5}), 400, "malformed")
        error_of(client.post(f"/api/tables/{table}/join", json={"seat": "east"}), 400, "malformed")
        error_of(
            client.post(f"/api/tables/{table}/join", json={"name": "a", "seat": "up"}),
            400,
            "malformed",
        )
        error_of(
            client.post(f"/api/tables/{table}/join", json={"name": "a", "seat": "south"}),
            409,
            "conflict",
        )
        error_of(
            client.post(f"/api/tables/{table}/start", json={"token": "bad"}), 403, "unauthorized"
        )
        error_of(client.post(f"/api/tables/{table}/start", json={}), 403, "unauthorized")
        error_of(
            client.post(f"/api/tables/{table}/start", json={"token": token, "bot": "nope"}),
            400,
            "malformed",
        )
        error_of(
            client.post(f"/api/tables/{table}/start", json={"token": token, "bot": 3}),
            400,
            "malformed",
        )
        error_of(
            client.post(f"/api/tables/{table}/leave", json={"token": "bad"}), 403, "unauthorized"
        )
        error_of(client.get(f"/api/tables/{table}/record"), 409, "conflict")
        error_of(client.get(f"/api/tables/{table}/deals/x"), 400, "malformed")
        # nothing above changed the table
        info = client.get(f"/api/tables/{table}").json()
        assert info["status"] == "waiting"
        assert [s["taken"] for s in info["seats"]] == [True, False, False, False]
        started = client.post(f"/api/tables/{table}/start", json={"token": token, "bot": "random"})
        assert started.status_code == 200
        assert started.json()["status"] == "playing"
        assert [s["bot"] for s in started.json()["seats"]] == [None, "random", "random", "random"]
        error_of(client.post(f"/api/tables/{table}/start", json={"token": token}), 409, "conflict")
        error_of(client.post(f"/api/tables/{table}/join", json={"name": "late"}), 409, "conflict")
        error_of(client.get(f"/api/tables/{table}/record"), 409, "conflict")
        error_of(client.get(f"/api/tables/{table}/deals/1"), 404, "not_found")
        assert client.get(f"/api/tables/{table}/deals").json() == {"deals": []}


def test_leave_before_and_after_the_start(tmp_path: Path) -> None:
    with server(tmp_path) as client:
        made = client.post("/api/tables", json={"name": "Layla"}).json()
        table = made["table"]
        joined = client.post(f"/api/tables/{table}/join", json={"name": "Omar"}).json()
        left = client.post(f"/api/tables/{table}/leave", json={"token": joined["token"]})
        assert left.status_code == 200
        assert left.json()["seats"][1]["taken"] is False
        error_of(
            client.post(f"/api/tables/{table}/leave", json={"token": joined["token"]}),
            403,
            "unauthorized",
        )
        client.post(f"/api/tables/{table}/start", json={"token": made["token"], "bot": "random"})
        with connect(client, table, "south") as south:
            south.hello(made["token"])
            left = client.post(f"/api/tables/{table}/leave", json={"token": made["token"]})
            assert left.status_code == 200
            assert left.json()["seats"][0]["held_by_bot"] is True
            held = south.until(
                lambda f: (
                    f["type"] == "update" and any(e["kind"] == "takeover" for e in f["events"])
                )
            )
            assert held["state"]["seats"][0]["bot"] == "heuristic"


def test_info_and_rules(tmp_path: Path) -> None:
    with server(tmp_path) as client:
        info = client.get("/api/info").json()
        assert info["protocol"] == 3
        assert "classic" in [p["name"] for p in info["presets"]]
        assert {"random", "heuristic", "search"} <= set(info["bots"])
        rules = client.get("/api/rules/egyptian").json()
        assert rules["options"] == find_rules("egyptian").to_dict()
