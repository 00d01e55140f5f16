"""A hosted event without a server: its set-up, its log of facts, and the state rebuilt from them."""

from __future__ import annotations

import random

import pytest

from tarneeb.match import Match
from tarneeb.presets import find_rules
from tarneeb.seats import Seat
from tarneeb.server.events.model import (
    EventConfig,
    Fact,
    FactKind,
    HostedEvent,
    Member,
    bot_member,
    guest_identity,
)
from tarneeb.server.table import ServerError, Table
from tarneeb.server.wire import EventFormat, EventStatus
from tarneeb.tournament import set_rules


def _event(kind: str = "king-of-the-table", **config: object) -> HostedEvent:
    event = HostedEvent.new("e1", EventConfig.from_dict({"kind": kind, **config}))
    event.make_host()
    return event


def _played(seed: int) -> Match:
    """A set of random play to the end: what a table's finished match is."""
    match = Match(set_rules(find_rules("classic")).replace(target=1), seed=seed)
    rng = random.Random(seed)
    while not match.is_over():
        match.push(rng.choice(match.legal_actions))
    return match


def test_the_state_is_rebuilt_from_the_facts_alone() -> None:
    event = _event(pairs=3, sets=3, target=1)
    event.register("Cedars", [Member("Layla", token_hash="h1", identity=guest_identity("h1"))] * 2)
    event.register(None, [bot_member("random"), bot_member("random")])
    event.register("Pines", [bot_member("random"), bot_member("random")])
    event.start()
    (first,) = event.unseated()
    event.seat(first, "t1")
    assert event.unseated() == []
    match = _played(5)
    result = event.finish_set("t1", match)
    assert result is not None and result.scores == match.sets[0].team_scores
    assert event.finish_set("t1", match) is None  # told once
    back = HostedEvent.restore(event.id, event.config, event.created, event.facts)
    assert back.pairs == event.pairs and back.tables == event.tables
    assert back.host_hash == event.host_hash
    assert back.tournament is not None and event.tournament is not None
    assert back.tournament.to_dict() == event.tournament.to_dict()
    assert [p.name for p in back.pairs.values()] == ["Cedars", "P2", "Pines"]
    (second,) = back.unseated()
    kept = {"p1", "p2"} - {result.loser}
    assert {second.ns, second.ew} == kept | {"p3"}  # the loser left, Pines took its seats
    assert (second.ns if result.loser == "p1" else second.ew) == "p3"


def test_a_set_sits_north_south_first_member_south() -> None:
    event = _event("sets-match", sets=1)
    layla, nour = Member("Layla", token_hash="a"), Member("Nour", token_hash="b")
    event.register("Cedars", [layla, nour])
    event.register("Olives", [bot_member("random"), bot_member("heuristic")])
    event.start()
    (pairing,) = event.unseated()
    seats = event.seats_of(pairing)
    assert (seats[Seat.SOUTH], seats[Seat.NORTH]) == (layla, nour)
    assert (seats[Seat.EAST].bot, seats[Seat.WEST].bot) == ("random", "heuristic")
    config = event.config.table_config(["human", "bot:random", "human", "bot:heuristic"])
    table = Table.seated("t9", config, {Seat.SOUTH: ("Layla", "a"), Seat.NORTH: ("Nour", "b")})
    assert table.status == "playing" and table.rules.sets == 1
    assert [s.token_hash for s in table.seats] == ["a", None, "b", None]
    with pytest.raises(ServerError, match="every human seat"):
        Table.seated("t8", config, {Seat.SOUTH: ("Layla", "a")})


def test_facts_that_do_not_follow_do_not_load() -> None:
    event = _event(pairs=2)
    event.register("A", [bot_member("random")] * 2)
    facts = list(event.facts)
    with pytest.raises(ServerError, match="out of order"):
        HostedEvent.restore("e1", event.config, event.created, facts[1:])
    bad = Fact(3, FactKind.STARTED, {"order": ["p1", "p1"]})
    with pytest.raises(ServerError, match="does not follow"):
        HostedEvent.restore("e1", event.config, event.created, [*facts, bad])
    with pytest.raises(ServerError, match="unknown event fact"):
        Fact(1, "crowned", {})  # type: ignore[arg-type]


def test_registration_and_start_refuse_what_cannot_be() -> None:
    event = _event("knockout", pairs=2)
    with pytest.raises(ServerError, match="two members"):
        event.register("A", [bot_member("random")])
    with pytest.raises(ServerError, match="at least two pairs"):
        event.start()
    event.register("A", [bot_member("random")] * 2)
    with pytest.raises(ServerError, match="called 'a' already"):
        event.register("a", [bot_member("random")] * 2)
    event.register("B", [bot_member("random")] * 2)
    with pytest.raises(ServerError, match="full"):
        event.register("C", [bot_member("random")] * 2)
    event.start()
    assert event.status is EventStatus.RUNNING
    with pytest.raises(ServerError, match="already started"):
        event.start()
    with pytest.raises(ServerError, match="host"):
        event.check_host("guess")
    with pytest.raises(ServerError, match="its host already"):
        event.make_host()


def test_the_set_up_reads_and_writes_back() -> None:
    config = EventConfig.from_dict(
        {"kind": "king-of-the-table", "pairs": 5, "sets": 7, "streak": 3, "rules": " Classic "}
    )
    assert (config.kind, config.rules, config.capacity) == (
        EventFormat.KING_OF_THE_TABLE,
        "classic",
        5,
    )
    assert EventConfig.from_dict(config.to_dict()) == config
    assert config.set_target == 41  # the preset's
    assert EventConfig.from_dict({"kind": "knockout", "target": 31}).set_target == 31
    assert EventConfig.from_dict({"kind": "sets-match"}).sets == 13
    for bad, why in [
        ({"kind": "sets-match", "streak": 2}, "no streak"),
        ({"kind": "knockout", "turn_seconds": 1}, "turn_seconds"),
        ({"kind": "knockout", "title": ""}, "title"),
        ({"kind": "knockout", "sets": 2}, "no sets"),
    ]:
        with pytest.raises(ServerError, match=why):
            EventConfig.from_dict(bad)
