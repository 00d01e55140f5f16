"""The wire schema (tarneeb.server.wire): every body the server builds fits it, and says the game as the engine does.

Whole matches of several presets are played on a table and over the
WebSocket; every frame, event, state and HTTP body is checked against its
TypedDict, and the state's auction, tricks, winners and card points against
the engine's own deal, so no client has to derive them from a history.
"""

from __future__ import annotations

import ast
import contextlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

from tarneeb.actions import BID_BASE, PASS, Phase, action_id, action_kind, format_action
from tarneeb.bots.registry import make_bot
from tarneeb.cards import Card
from tarneeb.deal import Deal, Trick
from tarneeb.seats import SEATS, Seat
from tarneeb.server import wire
from tarneeb.server.protocol import (
    error_frame,
    event_json,
    events_json,
    replay_body,
    state_json,
    states_json,
    table_json,
)
from tarneeb.server.table import ErrorCode as TableErrorCode
from tarneeb.server.table import Event, ServerError, Table, TableConfig
from tarneeb.server.wire import (
    MAX_DEPTH,
    MAX_FRAME,
    ActionKind,
    ErrorCode,
    EventKind,
    SeatKind,
    TableStatus,
    action_json,
    parse_frame,
)
from tarneeb.server.wiretypes import DTS_PATH, SchemaError, check, typescript
from ws_support import SEAT_NAMES, Peer, connect, server

ROOT = Path(__file__).resolve().parent.parent
PRESETS = ["classic", "egyptian", "tarneeb400", "syrian400"]


# -- helpers -------------------------------------------------------------------------------------


def human_table(rules: str, table_id: str = "t1") -> Table:
    table = Table.new(table_id, TableConfig(rules))
    for seat in SEATS:
        table.join(f"P{int(seat)}", seat)
    return table


def bot_choice(table: Table, rng: random.Random) -> int:
    """The heuristic bot's action for the seat to act, as an action id."""
    match = table.match
    assert match is not None and match.to_act is not None
    bot = make_bot("heuristic", rng=random.Random(rng.random()))
    return action_id(bot.act(match.view(match.to_act)))


def roundtrip(value: Any) -> Any:
    """A body as a client reads it: through JSON."""
    return json.loads(json.dumps(value))


def trick_facts(trick: Trick) -> tuple[str, list[list[str]], str | None]:
    return (
        SEAT_NAMES[trick.leader],
        [[SEAT_NAMES[s], str(c)] for s, c in trick.plays],
        None if trick.winner is None else SEAT_NAMES[trick.winner],
    )


def json_trick_facts(trick: dict[str, Any]) -> tuple[str, list[list[str]], str | None]:
    return trick["leader"], [list(c) for c in trick["cards"]], trick["winner"]


def assert_matches_engine(
    match: dict[str, Any], deal: Deal, seat: Seat | None, points: bool
) -> None:
    """The state's auction, tricks and totals are the engine's deal's, as they are."""
    calls = [(SEAT_NAMES[s], action_id(a)) for s, a in deal.history if not isinstance(a, Card)]
    assert [(c["seat"], c["action"]["id"]) for c in match["auction"]["calls"]] == calls
    last: list[int | None] = [None] * 4
    for s, a in deal.history:
        if not isinstance(a, Card) and action_kind(a) is not ActionKind.TRUMP:
            last[s] = action_id(a)
    assert [None if a is None else a["id"] for a in match["auction"]["last"]] == last
    assert [json_trick_facts(t) for t in match["tricks"]] == [trick_facts(t) for t in deal.tricks]
    current = deal.current_trick
    if current is None:
        assert match["trick"] is None
    else:
        assert json_trick_facts(match["trick"]) == trick_facts(current)
    assert match["last_trick"] == (match["tricks"][-1] if match["tricks"] else None)
    taken = deal.tricks_taken
    assert match["tricks_taken"] == list(taken)
    assert match["side_tricks"] == [taken[0] + taken[2], taken[1] + taken[3]]
    if points:
        cp = deal.card_points_taken
        assert match["card_points"] == list(cp)
        assert match["side_card_points"] == [cp[0] + cp[2], cp[1] + cp[3]]
        for trick, done in zip(match["tricks"], deal.tricks, strict=True):
            assert trick["points"] == sum(c.card_points for c in done.cards)
    else:
        assert match["card_points"] is None and match["side_card_points"] is None
        assert all(t["points"] is None for t in match["tricks"])
    assert match["bids"] == list(deal.bids)
    assert match["phase"] == deal.phase.value
    mine = seat is not None and deal.to_act == seat
    assert [a["id"] for a in match["legal"]] == (list(deal.legal_action_ids()) if mine else [])
    for action in match["legal"]:
        assert action == action_json(action["id"])
        assert action["text"] == format_action(action["id"])
        assert action["kind"] == action_kind(action["id"])


def play_checked(rules: str, seed: int) -> Table:
    """A whole match on a table, every state, event and body checked on the way."""
    rng = random.Random(seed)
    table = human_table(rules)
    points = wire.counts_card_points(table.rules)
    seen = 0
    for _ in range(20000):
        match = table.match
        assert match is not None
        states = states_json(table, [*SEATS, None])
        for viewer, state in states.items():
            check(state, wire.StateJson)
            check(roundtrip(state), wire.StateJson)
            assert_matches_engine(state["match"], match.deal, viewer, points)
        new = events_json(table, table.events[seen:])
        seen = table.seq
        for event in new:
            check(event, wire.EventJson)
            check(roundtrip(event), wire.EventJson)
        if table.status is not TableStatus.PLAYING:
            break
        seat = table.to_act()
        assert seat is not None
        table.act(seat, table.version, bot_choice(table, rng), f"r{table.version}")
    else:
        raise AssertionError("the match did not end")
    check(table_json(table), wire.TableJson)
    return table


# -- whole matches ---------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", PRESETS)
def test_states_events_and_replays_say_what_the_engine_says(rules: str) -> None:
    table = play_checked(rules, seed=PRESETS.index(rules))
    assert table.match is not None and table.match.is_over()
    points = wire.counts_card_points(table.rules)
    ends = [e for e in table.events if e.kind is EventKind.DEAL_END]
    assert len(ends) == len(table.match.deals)
    for index, deal in enumerate(table.match.deals):
        body = replay_body(table, index)
        check(roundtrip(body), wire.ReplayBody)
        assert [json_trick_facts(t) for t in body["tricks"]] == [
            trick_facts(t) for t in deal.tricks
        ]
        assert [(c["seat"], c["action"]["id"]) for c in body["auction"]] == [
            (SEAT_NAMES[s], action_id(a)) for s, a in deal.history if not isinstance(a, Card)
        ]
        assert body["trump"] == (None if deal.trump is None else deal.trump.letter)
        end = event_json(table, ends[index])
        last = end["last_trick"]  # type: ignore[typeddict-item]
        assert (last is None) == (not deal.tricks)
        if last is not None:
            assert json_trick_facts(last) == trick_facts(deal.tricks[-1])
            assert (last["points"] is not None) == points
    if table.rules.is_individual:
        final = state_json(table, Seat.SOUTH)["match"]
        assert final is not None and final["individual"]


def test_the_websocket_and_the_api_send_only_frames_of_the_schema(tmp_path: Path) -> None:
    """A whole match against bots over the WebSocket, and every API answer, checked."""
    rng = random.Random(5)
    bots = {"east": "bot:heuristic", "north": "bot:heuristic", "west": "bot:heuristic"}
    with server(tmp_path) as client:
        info = client.get("/api/info").json()
        check(info, wire.InfoBody)
        assert info["protocol"] == wire.PROTOCOL_VERSION == 3
        check(client.get("/api/rules/tarneeb400").json(), wire.RulesBody)
        setup = {"name": "S", "seats": bots, "options": {"target": 15}}  # a few deals
        made = client.post("/api/tables", json=setup).json()
        check(made, wire.CreatedBody)
        waiting = client.post("/api/tables", json={"name": "W"}).json()
        check(client.get("/api/tables").json(), wire.TablesBody)
        joined = client.post(f"/api/tables/{waiting['table']}/join", json={"name": "E"}).json()
        check(joined, wire.JoinedBody)
        left = client.post(f"/api/tables/{waiting['table']}/leave", json={"token": joined["token"]})
        check(left.json(), wire.TableJson)
        # (a started table of bots alone would play on at once: only a refused start here)
        started = client.post(f"/api/tables/{made['table']}/start", json={"token": made["token"]})
        assert started.status_code == 409
        check(started.json(), wire.ErrorBody)
        for bad in (
            client.get("/api/tables/nope"),
            client.post("/api/tables", json={"seats": 3}),
            client.get(f"/api/tables/{made['table']}/record"),
        ):
            assert bad.status_code >= 400
            check(bad.json(), wire.ErrorBody)
        table = made["table"]
        with connect(client, table, "south") as south:
            south.hello(made["token"])
            moves = {"id": 0, "object": 0, "text": 0}
            while not south.over():
                if not south.my_turn():
                    south.next()
                    continue
                south.sync()
                legal = south.match["legal"]
                chosen = rng.choice(legal)
                how = ["id", "object", "text"][south.version % 3]
                moves[how] += 1
                sent: Any = {"id": chosen["id"], "object": chosen, "text": chosen["text"]}[how]
                ref = south.act(sent)
                ack = south.until(lambda f: f["type"] in ("ack", "error"))
                assert ack["type"] == "ack" and ack["id"] == ref, ack
                update = south.until(lambda f: f["type"] == "update")
                mine = next(e for e in update["events"] if e["kind"] == "action")
                assert mine["action"] == chosen and mine["seat"] == "south"
            south.act(PASS, ref="late")
            south.send({"type": "ping"})
            south.until(lambda f: f["type"] == "pong")
            assert min(moves.values()) > 0
            with connect(client, table, "spectator") as spectator:
                spectator.hello()
            frames = [f for _, f in south.frames] + [f for _, f in spectator.frames]
            assert {f["type"] for f in frames} >= {"welcome", "update", "ack", "error", "pong"}
            for frame in frames:
                check(frame, wire.ServerFrame)
        deals = client.get(f"/api/tables/{table}/deals").json()
        check(deals, wire.DealsBody)
        for summary in deals["deals"]:
            number = summary["number"]
            replay = client.get(f"/api/tables/{table}/deals/{number}?analysis=1").json()
            check(replay, wire.ReplayBody)
            assert ("analysis" in replay) == bool(replay["tricks"])
            assert "analysis" not in client.get(f"/api/tables/{table}/deals/{number}").json()


# -- acting by id and by text --------------------------------------------------------------------------


def test_act_takes_the_id_or_the_text() -> None:
    table = human_table("egyptian")
    match = table.match
    assert match is not None
    seat = table.to_act()
    assert seat is not None
    legal = match.deal.legal_action_ids()
    bid = next(a for a in legal if a >= BID_BASE)
    assert table.act(seat, 0, bid, "by-id") == 1
    last = table.events[-1]
    assert (last.kind, last.data["action"]) == (EventKind.ACTION, format_action(bid))
    assert event_json(table, last)["action"] == action_json(bid)  # type: ignore[typeddict-item]
    seat = table.to_act()
    assert seat is not None
    assert table.act(seat, 1, "pass", "by-text") == 2
    seat = table.to_act()
    assert seat is not None
    for bad in (bid, 999999, -1, 65, 60):  # bid already, out of range, a gap, a trump choice
        with pytest.raises(ServerError) as info:
            table.act(seat, 2, bad, f"bad-{bad}")
        assert info.value.code is ErrorCode.ILLEGAL
    assert table.version == 2


@pytest.mark.parametrize(
    ("action", "expected"),
    [
        (17, 17),
        ("6D", "6D"),
        ({"id": 17}, 17),
        ({"id": 17, "text": "6D", "kind": "card", "suit": "D"}, 17),
        ({"id": BID_BASE + 8 * 6 + 5, "text": "8", "kind": "bid", "level": 8, "strain": None}, 117),
    ],
)
def test_parse_reads_an_action_as_id_object_or_text(action: Any, expected: int | str) -> None:
    frame = parse_frame(json.dumps({"type": "act", "id": "a", "version": 0, "action": action}))
    assert isinstance(frame, wire.Act) and frame.action == expected


@pytest.mark.parametrize(
    ("text", "code", "says"),
    [
        (
            '{"type": "act", "id": "a", "version": 0, "action": {"id": 17, "text": "7D"}}',
            "malformed",
            "text",
        ),
        (
            '{"type": "act", "id": "a", "version": 0, "action": {"id": 17, "kind": "bid"}}',
            "malformed",
            "kind",
        ),
        (
            '{"type": "act", "id": "a", "version": 0, "action": {"id": 17, "x": 1}}',
            "malformed",
            "'x'",
        ),
        (
            '{"type": "act", "id": "a", "version": 0, "action": {"id": true}}',
            "malformed",
            "integer id",
        ),
        ('{"type": "act", "id": "a", "version": 0, "action": null}', "malformed", "action must be"),
        ('{"type": "act", "id": "a", "version": 0}', "malformed", "action is missing"),
        ('{"type": "hello", "protocol": 1}', "malformed", "protocol 3"),
        ('{"type": "hello", "protocol": 4}', "malformed", "protocol 3"),
        ('{"type": "hint", "seat": "north"}', "malformed", "unknown field"),
        ('{"type": "react"}', "malformed", "reaction is missing"),
        ('{"type": "react", "reaction": 3}', "malformed", "reaction must be a string"),
        ('{"type": "react", "reaction": "I have the ace"}', "malformed", "no reaction"),
        ('{"type": "react", "reaction": "clap", "to": "east"}', "malformed", "unknown field"),
        ('{"type": "rematch"}', "malformed", "vote is missing"),
        ('{"type": "rematch", "vote": "yes"}', "malformed", "vote must be true or false"),
        ('{"type": "rematch", "vote": 1}', "malformed", "vote must be true or false"),
        ('{"type": "hello", "since": -1}', "malformed", "since"),
        ('{"type": "chat", "text": 1}', "malformed", "text must be a string"),
        ('{"type": "nap"}', "malformed", "unknown frame type"),
        (
            '{"type": "ping", "a": ' * (MAX_DEPTH + 1) + "1" + "}" * (MAX_DEPTH + 1),
            "malformed",
            "nests",
        ),
        ("[" * 5000 + "]" * 5000, "too_large", "bytes"),
        ("[" * 2000 + "]" * 2000, "malformed", ""),
        ('{"type": "chat", "text": "' + "x" * MAX_FRAME + '"}', "too_large", str(MAX_FRAME)),
    ],
    ids=lambda value: str(value)[:30],
)
def test_parse_errors_have_specific_codes(text: str, code: str, says: str) -> None:
    with pytest.raises(ServerError) as info:
        parse_frame(text)
    assert info.value.code == code
    assert says in info.value.message
    if '"action": {' in text:  # a bad action of a readable act: the error names the act
        assert info.value.extra == {"id": "a"}
    frame = roundtrip(error_frame(info.value))
    check(frame, wire.ErrorFrame)
    assert frame["reference"]  # every error frame names itself for the log


def nested(depth: int) -> str:
    """JSON text of ``depth`` objects, one in the other."""
    return '{"a": ' * (depth - 1) + "{}" + "}" * (depth - 1)


def test_one_nesting_limit_for_frames_and_bodies(tmp_path: Path) -> None:
    """MAX_DEPTH bounds a frame and a request body alike: one level more is refused, as nesting."""
    for depth, refused in ((MAX_DEPTH, False), (MAX_DEPTH + 1, True)):
        with pytest.raises(ServerError) as info:
            parse_frame('{"type": "ping", "a": ' + nested(depth - 1) + "}")
        assert ("nests" in info.value.message) is refused, info.value.message
        assert info.value.code == "malformed"
    with server(tmp_path) as client:
        for depth, refused in ((MAX_DEPTH, False), (MAX_DEPTH + 1, True)):
            body = '{"rules": "classic", "options": ' + nested(depth - 1) + "}"
            answer = client.post(
                "/api/tables", content=body, headers={"Content-Type": "application/json"}
            )
            assert answer.status_code == 400
            check(answer.json(), wire.ErrorBody)
            error = answer.json()["error"]
            assert ("nests" in error["message"]) is refused, error["message"]
            assert error["reference"]


def test_a_client_sends_the_action_the_state_gave(tmp_path: Path) -> None:
    """Over the WebSocket, a legal action sent back whole (or its id) is applied; a forged one is not."""
    with server(tmp_path) as client:
        made = client.post("/api/tables", json={"name": "S"}).json()
        table = made["table"]
        tokens = {"south": made["token"]}
        for seat in SEAT_NAMES[1:]:
            answer = client.post(f"/api/tables/{table}/join", json={"name": seat, "seat": seat})
            tokens[seat] = answer.json()["token"]
        with contextlib.ExitStack() as stack:
            peers: dict[str, Peer] = {}
            for name in SEAT_NAMES:
                peers[name] = stack.enter_context(connect(client, table, name))
                peers[name].hello(tokens[name])
            mover = next(p for p in peers.values() if p.my_turn())
            action = mover.match["legal"][0]
            forged = {**action, "text": "13NT"}
            mover.act(forged, ref="forged")
            error = mover.until(lambda f: f["type"] == "error")
            assert (error["code"], error["id"]) == ("malformed", "forged")
            mover.act(action, ref="whole")
            ack = mover.until(lambda f: f["type"] == "ack")
            assert ack == {"type": "ack", "id": "whole", "version": 1}


# -- names, enums and modules -------------------------------------------------------------------------


def test_enums_are_their_text() -> None:
    table = human_table("classic")
    state = state_json(table, Seat.SOUTH)
    assert isinstance(state["status"], TableStatus)
    assert state["seats"][0]["kind"] is SeatKind.HUMAN
    text = json.dumps(state)
    assert '"status": "playing"' in text and '"kind": "human"' in text
    assert (
        f"{TableStatus.PLAYING} {ErrorCode.STALE} {EventKind.DEAL_END}" == "playing stale deal_end"
    )
    assert TableErrorCode is ErrorCode  # the table module re-exports the wire's codes
    assert Event(1, "left", {"seat": "east"}).kind is EventKind.LEFT  # type: ignore[arg-type]
    with pytest.raises(ServerError) as info:
        Event(1, "exploded", {})  # type: ignore[arg-type]
    assert info.value.code is ErrorCode.INTERNAL
    assert [str(k) for k in ActionKind] == [
        "card", "bid", "pass", "double", "raise", "stand", "redeal", "trump",
    ]  # fmt: skip


def test_events_stored_by_version_one_read_as_version_two() -> None:
    """A deal_end stored before tricks told their card points is sent as today's."""
    rng = random.Random(3)
    table = human_table("tarneeb400")  # its deals unseeded: a deal may be thrown in

    def played_ends() -> list[Event]:
        return [e for e in table.events if e.kind is EventKind.DEAL_END and e.data["last_trick"]]

    while not played_ends():  # a thrown-in deal has no last trick (2 tables in 40 began so)
        seat = table.to_act()
        assert seat is not None
        table.act(seat, table.version, bot_choice(table, rng), f"r{table.version}")
    end = played_ends()[0]
    old_trick = {k: v for k, v in end.data["last_trick"].items() if k != "points"}
    old = Event(end.seq, EventKind.DEAL_END, {**end.data, "last_trick": old_trick})
    restored = Table.restore(
        table.id,
        table.config,
        table.created,
        [old if e.seq == end.seq else e for e in table.events],
    )
    sent = event_json(restored, restored.events[end.seq - 1])
    check(sent, wire.DealEndEvent)
    assert sent == event_json(table, end)
    assert sent["last_trick"]["points"] is not None  # type: ignore[typeddict-item]


def test_table_and_wire_do_not_import_each_other() -> None:
    """wire imports neither table nor protocol; table imports the wire, never protocol."""
    server_dir = ROOT / "src" / "tarneeb" / "server"

    def imports(name: str) -> set[str]:
        files = sorted((server_dir / name).glob("*.py")) or [server_dir / f"{name}.py"]
        found = set()
        for path in files:
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ImportFrom) and node.module:
                    found.add(node.module)
                elif isinstance(node, ast.Import):
                    found.update(alias.name for alias in node.names)
        return found

    assert not {"tarneeb.server.table", "tarneeb.server.protocol"} & imports("wire")
    assert "tarneeb.server.protocol" not in imports("table")
    assert "tarneeb.server.wire" in imports("table")
    assert (server_dir / "wire" / "schema.py").is_file()  # the package was read, not nothing


def test_the_checker_refuses_what_the_schema_does_not_allow() -> None:
    good = {"type": "ack", "id": "a", "version": 1}
    check(good, wire.ServerFrame)
    for bad in (
        {**good, "version": True},
        {**good, "extra": 1},
        {"type": "ack", "id": "a"},
        {"type": "error", "code": "oops", "message": "m"},
        {"type": "pong", "x": None},
    ):
        with pytest.raises(SchemaError):
            check(bad, wire.ServerFrame)
    state = state_json(human_table("classic"), Seat.SOUTH)
    broken = roundtrip(state)
    broken["match"]["tricks"] = [
        {"leader": "south", "cards": [["up", "AS"]], "winner": None, "points": None}
    ]
    with pytest.raises(SchemaError, match="tricks"):
        check(broken, wire.StateJson)


def test_the_client_types_are_generated_from_the_schema() -> None:
    """static/js/wire.d.ts is what ``python -m tarneeb.server.wire --dts`` writes (regenerate it)."""
    text = typescript()
    assert (ROOT / DTS_PATH).read_text() == text
    for name in ("StateJson", "MatchJson", "ActionJson", "TrickJson", "EventJson", "WelcomeFrame"):
        assert f" {name} " in text
    assert 'export type ActionKind = "card" | "bid" | "pass"' in text
    assert "  winner: SeatName | null;" in text
    assert f"export const PROTOCOL_VERSION: {wire.PROTOCOL_VERSION};" in text


def test_the_phase_names_are_the_engines() -> None:
    assert set(wire.PhaseName.__args__) == {p.value for p in Phase}  # type: ignore[attr-defined]
    assert set(wire.ActedBy) == {"player", "bot", "timer"}
