"""The server's table without I/O: set-up checks, seats, every refused action, restore, fairness.

A :class:`Table` is event-sourced: these tests hold it to its word that a
refused request changes nothing (the log, the version and the match are
compared with a copy rebuilt from the log), that :meth:`Table.restore`
rebuilds an equal table, and that every deal is the one its committed seed
deals, as docs/protocol.md describes it (recomputed here independently).
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from tarneeb.actions import Phase, format_action
from tarneeb.bots.registry import make_bot
from tarneeb.cards import CardSet, Dealing
from tarneeb.presets import find_rules
from tarneeb.seats import SEATS, Seat
from tarneeb.server.fairness import (
    commitment,
    deck_from_seed,
    hands_from_seed,
    verify,
)
from tarneeb.server.protocol import (
    MAX_FRAME,
    Act,
    Chat,
    Hello,
    Ping,
    parse_frame,
    state_json,
)
from tarneeb.server.table import (
    ErrorCode,
    Event,
    ServerError,
    Table,
    TableConfig,
)
from tarneeb.server.wire import action_json

# -- helpers --------------------------------------------------------------------------------


def human_table(rules: str = "classic", **options: Any) -> tuple[Table, list[str]]:
    """A started table of four people; the tokens by seat."""
    table = Table.new("t1", TableConfig(rules, options))
    tokens = [table.join(f"P{int(seat)}", seat) for seat in SEATS]
    assert table.status == "playing"
    return table, tokens


def pick(table: Table, rng: random.Random) -> str:
    """What the heuristic bot would do for the seat to act (matches end soon)."""
    match = table.match
    assert match is not None and match.to_act is not None
    bot = make_bot("heuristic", rng=random.Random(rng.random()))
    return format_action(bot.act(match.view(match.to_act)))


def play(
    table: Table, rng: random.Random, until: Callable[[Table], bool], limit: int = 5000
) -> int:
    """Act for whoever is to act until ``until(table)``; the number of actions taken."""
    for count in range(limit):
        if until(table) or table.status != "playing":
            return count
        seat = table.to_act()
        assert seat is not None
        table.act(seat, table.version, pick(table, rng), f"r{table.version}")
    raise AssertionError("the match did not end")


def in_play(table: Table) -> bool:
    """The play of a deal is under way, with at least one trick done."""
    assert table.match is not None
    deal = table.match.deal
    return deal.phase is Phase.PLAY and len(deal.tricks) >= 2


def restored(table: Table) -> Table:
    return Table.restore(table.id, table.config, table.created, list(table.events))


def refused(table: Table, code: ErrorCode, call: Callable[[], object]) -> ServerError:
    """``call`` raises ``code`` and the table is exactly as before."""
    events = list(table.events)
    version = table.version
    acted = dict(table.acted)
    seats = list(table.seats)
    copy = restored(table)
    assert copy.match == table.match  # the copy is a true copy to compare with
    with pytest.raises(ServerError) as info:
        call()
    assert info.value.code is code, info.value.message
    assert table.events == events
    assert table.version == version
    assert table.acted == acted
    assert table.seats == seats
    assert table.match == copy.match
    return info.value


# -- TableConfig ----------------------------------------------------------------------------

BAD_CONFIGS = [
    ({"colour": "red"}, "colour"),
    ({"rules": 3}, "rules"),
    ({"rules": "nope"}, "nope"),
    ({"options": ["target", 31]}, "options"),
    ({"options": {"target": 0}}, "target"),
    ({"options": {"target": "x"}}, "target"),
    ({"options": {"nonsense": 1}}, "nonsense"),
    ({"options": {"dealing": "weird"}}, "dealing"),
    ({"seats": ["human"]}, "seats"),
    ({"seats": {"up": "human"}}, "up"),
    ({"seats": {"east": "robot"}}, "robot"),
    ({"seats": {"east": "bot:nope"}}, "nope"),
    ({"seats": {"east": 7}}, "7"),
    ({"public": "yes"}, "public"),
    ({"public": 1}, "public"),
    ({"turn_seconds": 0}, "turn_seconds"),
    ({"turn_seconds": -5}, "turn_seconds"),
    ({"turn_seconds": 601}, "turn_seconds"),
    ({"turn_seconds": True}, "turn_seconds"),
    ({"turn_seconds": "30"}, "turn_seconds"),
    ({"takeover_seconds": -1}, "takeover_seconds"),
    ({"takeover_seconds": 3601}, "takeover_seconds"),
    ({"takeover_seconds": False}, "takeover_seconds"),
    ({"takeover_seconds": None}, "takeover_seconds"),
    ({"takeover_seconds": "30"}, "takeover_seconds"),
]


@pytest.mark.parametrize(("data", "named"), BAD_CONFIGS)
def test_config_refuses_a_bad_setting_naming_it(data: dict[str, Any], named: str) -> None:
    with pytest.raises(ServerError) as info:
        TableConfig.from_dict(data)
    assert info.value.code is ErrorCode.MALFORMED
    assert named in info.value.message


def test_config_defaults_and_round_trip() -> None:
    config = TableConfig.from_dict({})
    assert config == TableConfig()
    assert config.seats == ("human",) * 4
    assert (config.public, config.turn_seconds, config.takeover_seconds) == (True, None, 30.0)
    full = TableConfig.from_dict(
        {
            "rules": "egyptian",
            "options": {"target": 31},
            "seats": {"east": "bot:random", "WEST": "bot:heuristic"},
            "public": False,
            "turn_seconds": 30,
            "takeover_seconds": 0,
        }
    )
    assert full.seats == ("human", "bot:random", "human", "bot:heuristic")
    assert full.rules.target == 31
    assert full.rules == find_rules("egyptian").replace(target=31)
    assert (full.public, full.turn_seconds, full.takeover_seconds) == (False, 30.0, 0.0)
    assert TableConfig.from_dict(full.to_dict()) == full


# -- seats ------------------------------------------------------------------------------------


def test_join_leave_start() -> None:
    table = Table.new("t1", TableConfig(seats=("human", "human", "bot:random", "human")))
    assert [e.kind for e in table.events] == ["joined"]
    assert table.status == "waiting"
    south = table.join("  Layla   Haddad ", Seat.SOUTH)
    assert table.seat_of_token(south) is Seat.SOUTH
    assert table.seats[Seat.SOUTH].name == "Layla Haddad"
    refused(table, ErrorCode.CONFLICT, lambda: table.join("Omar", Seat.SOUTH))
    refused(table, ErrorCode.CONFLICT, lambda: table.join("Omar", Seat.NORTH))  # a bot's
    refused(table, ErrorCode.MALFORMED, lambda: table.join("   ", Seat.EAST))
    refused(table, ErrorCode.MALFORMED, lambda: table.join("x" * 41, Seat.EAST))
    refused(table, ErrorCode.MALFORMED, lambda: table.join(None, Seat.EAST))
    east = table.join("Omar")  # the first free seat
    assert table.seat_of_token(east) is Seat.EAST
    table.leave(Seat.EAST)
    assert not table.seats[Seat.EAST].taken
    assert table.events[-1].public() == {"seq": 4, "kind": "left", "seat": "east"}
    refused(table, ErrorCode.UNAUTHORIZED, lambda: table.seat_of_token(east))
    refused(table, ErrorCode.UNAUTHORIZED, lambda: table.seat_of_token(None))
    refused(table, ErrorCode.UNAUTHORIZED, lambda: table.seat_of_token(""))
    refused(table, ErrorCode.UNAUTHORIZED, lambda: table.seat_of_token("x" * 201))
    refused(table, ErrorCode.MALFORMED, lambda: table.start("nope"))
    refused(table, ErrorCode.NOT_STARTED, lambda: table.act(Seat.SOUTH, 0, "pass", "a1"))
    table.start("random")
    assert table.status == "playing"
    kinds = [e.kind for e in table.events]
    assert kinds[-4:] == ["joined", "joined", "started", "deal"]
    assert [s.bot for s in table.seats] == [None, "random", "random", "random"]
    refused(table, ErrorCode.CONFLICT, lambda: table.start())
    refused(table, ErrorCode.CONFLICT, lambda: table.join("Late"))
    # After the start, leaving hands the seat to a bot until the player is back.
    table.leave(Seat.SOUTH)
    assert table.events[-1].public() == {
        "seq": len(table.events),
        "kind": "takeover",
        "seat": "south",
        "bot": "heuristic",
    }
    assert table.controller(Seat.SOUTH) == "heuristic"
    table.reclaim(Seat.SOUTH)
    assert table.events[-1].kind == "reclaim"
    assert table.controller(Seat.SOUTH) is None
    count = len(table.events)
    table.reclaim(Seat.SOUTH)  # not held: nothing to tell
    assert len(table.events) == count


def test_a_token_of_another_table_proves_nothing() -> None:
    one, tokens = human_table()
    two, _ = human_table()
    for token in tokens:
        refused(two, ErrorCode.UNAUTHORIZED, lambda token=token: two.seat_of_token(token))
    assert [one.seat_of_token(t) for t in tokens] == list(SEATS)


def test_the_table_starts_when_the_last_seat_is_taken() -> None:
    table = Table.new("t1", TableConfig(seats=("human", "bot:random", "bot:random", "human")))
    table.join("A", Seat.SOUTH)
    assert table.status == "waiting"
    table.join("B", Seat.WEST)
    kinds = [e.kind for e in table.events]
    assert kinds == ["joined", "joined", "joined", "joined", "started", "deal"]
    assert table.version == 0 and table.seq == 6


# -- acting ---------------------------------------------------------------------------------------


def test_every_refused_action_changes_nothing() -> None:
    rng = random.Random(7)
    table, _ = human_table("classic")
    play(table, rng, in_play)
    assert table.match is not None
    deal = table.match.deal
    seat = table.to_act()
    assert seat is not None
    other = seat.next
    v = table.version
    refused(table, ErrorCode.STALE, lambda: table.act(seat, v - 1, pick(table, rng), "s1"))
    refused(table, ErrorCode.STALE, lambda: table.act(seat, v + 1, pick(table, rng), "s2"))
    refused(table, ErrorCode.STALE, lambda: table.act(seat, 0, pick(table, rng), "s3"))
    refused(table, ErrorCode.NOT_YOUR_TURN, lambda: table.act(other, v, "pass", "o1"))
    their_card = format_action(next(iter(CardSet(deal.hands[other]))))
    refused(table, ErrorCode.NOT_YOUR_TURN, lambda: table.act(other, v, their_card, "o2"))
    refused(table, ErrorCode.ILLEGAL, lambda: table.act(seat, v, "zz", "i1"))
    refused(table, ErrorCode.ILLEGAL, lambda: table.act(seat, v, "", "i2"))
    refused(table, ErrorCode.ILLEGAL, lambda: table.act(seat, v, "pass", "i3"))  # in the play
    # a card that reads well but is another seat's
    refused(table, ErrorCode.ILLEGAL, lambda: table.act(seat, v, their_card, "i4"))
    # the duplicate: the id of an action already taken, whatever version it names
    first = next(e for e in table.events if e.kind == "action")
    assert first.secret is not None
    ref = str(first.secret["ref"])
    acted_seat = Seat[str(first.data["seat"]).upper()]
    error = refused(table, ErrorCode.DUPLICATE, lambda: table.act(acted_seat, v, "pass", ref))
    assert error.extra == {"version": first.data["version"]}
    assert error.extra == {"version": 1}
    # the same id from another seat is another action: refused for its own reasons only
    if acted_seat != seat:
        refused(table, ErrorCode.STALE, lambda: table.act(seat, v + 5, "pass", ref))
    # after all that, the seat to act still can
    action = pick(table, rng)
    assert table.act(seat, v, action, "ok") == v + 1
    last = table.events[-1]
    assert last.kind == "action"
    assert last.public() == {
        "seq": table.seq,
        "kind": "action",
        "seat": seat.name.lower(),
        "action": action,
        "by": "player",
        "version": v + 1,
    }


def test_illegal_in_the_auction() -> None:
    table, _ = human_table("classic")
    assert table.match is not None
    seat = table.to_act()
    assert seat is not None
    assert table.match.deal.phase is Phase.AUCTION
    for text in ["AS", "6", "14", "double", "raise", "H", "8NT"]:  # classic: 7 to 13, no NT
        refused(table, ErrorCode.ILLEGAL, lambda text=text: table.act(seat, 0, text, f"x{text}"))
    table.act(seat, 0, "7", "bid")
    assert table.version == 1


def test_game_over_and_duplicate_after_the_end() -> None:
    rng = random.Random(3)
    table, _ = human_table("classic", target=1)
    play(table, rng, lambda t: False)
    assert table.status == "finished"
    assert table.events[-1].kind == "match_end"
    assert table.to_act() is None
    v = table.version
    for seat in SEATS:
        refused(table, ErrorCode.GAME_OVER, lambda seat=seat: table.act(seat, v, "pass", "late"))
    # an action already taken is a duplicate even now
    last = [e for e in table.events if e.kind == "action"][-1]
    assert last.secret is not None
    error = refused(
        table,
        ErrorCode.DUPLICATE,
        lambda: table.act(Seat[last.data["seat"].upper()], v, "pass", str(last.secret["ref"])),
    )
    assert error.extra == {"version": v}
    # no takeover of a finished table
    table.take_over(Seat.SOUTH)
    assert table.events[-1].kind == "match_end"


def test_chat_checks_its_text() -> None:
    table, _ = human_table()
    table.chat(Seat.EAST, "salam")
    assert table.events[-1].public() == {
        "seq": table.seq,
        "kind": "chat",
        "seat": "east",
        "name": "P1",
        "text": "salam",
    }
    table.chat(Seat.EAST, "x" * 300)
    for bad in ["", "   ", "x" * 301, None, 5]:
        refused(table, ErrorCode.MALFORMED, lambda bad=bad: table.chat(Seat.EAST, bad))


# -- restore ----------------------------------------------------------------------------------

PRESET_GAMES = [
    ("classic", {"target": 11}),
    ("egyptian", {"target": 11}),
    ("syrian400", {"target": 11}),
    ("tarneeb400", {"target": 101}),
    ("levant-sets", {"target": 11, "sets": 2}),
]


@pytest.mark.parametrize(("rules", "options"), PRESET_GAMES)
def test_restore_rebuilds_an_equal_table(rules: str, options: dict[str, Any]) -> None:
    rng = random.Random(rules)
    table, tokens = human_table(rules, **options)
    halfway = None
    while table.status == "playing":
        play(table, rng, in_play)
        if table.status != "playing":
            break
        if halfway is None:
            halfway = restored(table)
            assert halfway.match == table.match
            assert halfway.version == table.version
        play(table, rng, lambda t: not in_play(t))
    assert table.status == "finished"
    assert table.match is not None and len(table.match.deals) >= 1
    copy = restored(table)
    assert copy.match == table.match
    assert copy.match is not None and copy.match.is_over()
    assert copy.match.winner == table.match.winner
    assert copy.version == table.version
    assert copy.seeds == table.seeds
    assert copy.acted == table.acted
    assert copy.seats == table.seats
    assert copy.events == table.events
    assert [copy.seat_of_token(t) for t in tokens] == list(SEATS)
    # A copy restored halfway and fed the same actions to the end of that deal is equal
    # to the table then (later deals have seeds the copy cannot know: they are secret).
    assert halfway is not None
    number = len(halfway.match.deals)
    end = next(e for e in table.events if e.kind == "deal_end" and e.data["number"] == number)
    for event in table.events[halfway.seq : end.seq]:
        if event.kind == "action":
            assert event.secret is not None
            halfway.act(
                Seat[event.data["seat"].upper()],
                halfway.version,
                event.data["action"],
                str(event.secret["ref"]),
            )
    assert halfway.match.deals[number - 1] == table.match.deals[number - 1]
    assert [e.public() for e in halfway.events[: end.seq]] == [
        e.public() for e in table.events[: end.seq]
    ]


def test_restore_refuses_events_out_of_order() -> None:
    table, _ = human_table()
    events = list(table.events)
    events[1], events[2] = events[2], events[1]
    with pytest.raises(ServerError) as info:
        Table.restore(table.id, table.config, table.created, events)
    assert info.value.code is ErrorCode.INTERNAL


# -- fairness -----------------------------------------------------------------------------------

PACKETS = {
    Dealing.ONE_AT_A_TIME: [1] * 13,
    Dealing.PACKETS_4_4_5: [4, 4, 5],
    Dealing.THIRTEEN: [13],
}


def documented_hands(seed: str, dealer: int, dealing: Dealing) -> tuple[int, ...]:
    """The hands as docs/protocol.md tells anyone to compute them, with hashlib alone."""
    deck = sorted(
        range(52), key=lambda c: (hashlib.sha256(f"{seed}:{c}".encode("ascii")).hexdigest(), c)
    )
    hands = [0, 0, 0, 0]
    position = 0
    for size in PACKETS[dealing]:
        for k in range(4):
            seat = (dealer + 1 + k) % 4
            for card in deck[position : position + size]:
                hands[seat] |= 1 << card
            position += size
    assert position == 52
    return tuple(hands)


def test_the_documented_shuffle() -> None:
    seed = "00112233445566778899aabbccddeeff"
    assert commitment(seed) == hashlib.sha256(seed.encode("ascii")).hexdigest()
    deck = deck_from_seed(seed)
    assert sorted(deck) == list(range(52))
    assert deck == deck_from_seed(seed)
    assert deck != deck_from_seed("00112233445566778899aabbccddeefe")
    for dealing in Dealing:
        for dealer in SEATS:
            assert hands_from_seed(seed, dealer, dealing) == documented_hands(seed, dealer, dealing)


@pytest.mark.parametrize(("rules", "options"), [*PRESET_GAMES[:3], ("original", {"target": 11})])
def test_every_deal_is_the_one_its_seed_deals(rules: str, options: dict[str, Any]) -> None:
    rng = random.Random(11)
    table, _ = human_table(rules, **options)
    play(table, rng, lambda t: False)
    match = table.match
    assert match is not None and match.is_over()
    dealing = table.rules.dealing
    deal_events = [e for e in table.events if e.kind == "deal"]
    end_events = [e for e in table.events if e.kind == "deal_end"]
    assert len(deal_events) == len(match.deals) == len(table.seeds)
    assert len(end_events) == len(match.deals)  # every deal of a finished match is over
    assert len(set(table.seeds)) == len(table.seeds)
    for index, (deal, seed) in enumerate(zip(match.deals, table.seeds, strict=True)):
        assert re.fullmatch(r"[0-9a-f]{32}", seed)
        assert deal.dealt == hands_from_seed(seed, deal.dealer, dealing)
        assert deal.dealt == documented_hands(seed, deal.dealer, dealing)
        event = deal_events[index]
        assert event.data["number"] == index + 1
        assert event.data["dealer"] == deal.dealer.name.lower()
        assert event.secret == {"seed": seed}
        assert "seed" not in event.public()
        digest = hashlib.sha256(seed.encode("ascii")).hexdigest()
        assert event.data["commitment"] == digest
        end = end_events[index]
        assert end.seq > event.seq
        assert end.data["number"] == index + 1
        assert end.data["seed"] == seed
        assert end.data["commitment"] == digest
        # the deal was dealt before anyone acted in it, and revealed after its last action
        actions = [
            e.seq for e in table.events if e.kind == "action" and event.seq < e.seq < end.seq
        ]
        assert len(actions) == len(deal.history)
        assert verify(seed, digest, deal.dealt, deal.dealer, dealing)
        for seat in SEATS:  # a player checks its own hand alone
            own = [deal.dealt[s] if s == seat else 0 for s in SEATS]
            assert verify(seed, digest, own, deal.dealer, dealing)


def test_verify_refuses_a_wrong_seed_or_hand() -> None:
    seed = "0f" * 16
    other = "f0" * 16
    dealing = Dealing.PACKETS_4_4_5
    hands = hands_from_seed(seed, Seat.EAST, dealing)
    published = commitment(seed)
    assert verify(seed, published, hands, Seat.EAST, dealing)
    assert not verify(other, published, hands, Seat.EAST, dealing)
    assert not verify(other, commitment(other), hands, Seat.EAST, dealing)
    assert not verify(seed, published, hands, Seat.SOUTH, dealing)  # another dealer
    assert not verify(seed, published, hands, Seat.EAST, Dealing.ONE_AT_A_TIME)
    # swap one card between South and East
    south_card = hands[0] & -hands[0]
    east_card = hands[1] & -hands[1]
    swapped = (hands[0] ^ south_card | east_card, hands[1] ^ east_card | south_card, *hands[2:])
    assert not verify(seed, published, swapped, Seat.EAST, dealing)
    assert not verify(seed, published, (swapped[0], 0, 0, 0), Seat.EAST, dealing)
    assert verify(seed, published, (0, 0, hands[2], 0), Seat.EAST, dealing)


def test_no_public_event_holds_a_secret() -> None:
    rng = random.Random(5)
    table, tokens = human_table("classic", target=11)
    play(table, rng, lambda t: False)
    text = repr([e.public() for e in table.events])
    for token in tokens:
        assert token not in text
        assert hashlib.sha256(token.encode()).hexdigest() not in text
    deal_seqs = {e.seq for e in table.events if e.kind == "deal"}
    for event in table.events:
        if event.seq in deal_seqs:
            assert event.secret is not None and event.secret["seed"] not in repr(event.public())


# -- frames ---------------------------------------------------------------------------------------


def test_parse_frame_reads_the_protocol() -> None:
    assert parse_frame('{"type": "hello"}') == Hello(None, None)
    assert parse_frame('{"type": "hello", "protocol": 2, "token": "t", "since": 0}') == Hello(
        "t", 0
    )
    assert parse_frame(b'{"type": "hello", "token": null, "since": null}') == Hello(None, None)
    assert parse_frame('{"type":"act","id":"a","version":0,"action":"8S"}') == Act("a", 0, "8S")
    assert parse_frame('{"type": "chat", "text": "hi"}') == Chat("hi")
    assert parse_frame('{"type": "ping"}') == Ping()
    assert parse_frame('{"type": "act", "id": "' + "i" * 64 + '", "version": 3, "action": "x"}')


MALFORMED_FRAMES = [
    "",
    "not json",
    "[]",
    '"hello"',
    "null",
    "{",
    "{}",
    '{"type": 1}',
    '{"type": "Hello"}',
    '{"type": "shout"}',
    '{"type": "hello", "protocol": 1}',
    '{"type": "hello", "protocol": true}',
    '{"type": "hello", "since": -1}',
    '{"type": "hello", "since": 1.0}',
    '{"type": "hello", "since": "3"}',
    '{"type": "hello", "token": 5}',
    '{"type": "hello", "user": "me"}',
    '{"type": "act", "version": 0, "action": "AS"}',
    '{"type": "act", "id": "a", "action": "AS"}',
    '{"type": "act", "id": "a", "version": 0}',
    '{"type": "act", "id": "", "version": 0, "action": "AS"}',
    '{"type": "act", "id": "' + "i" * 65 + '", "version": 0, "action": "AS"}',
    '{"type": "act", "id": 1, "version": 0, "action": "AS"}',
    '{"type": "act", "id": "a", "version": true, "action": "AS"}',
    '{"type": "act", "id": "a", "version": false, "action": "AS"}',
    '{"type": "act", "id": "a", "version": 0.0, "action": "AS"}',
    '{"type": "act", "id": "a", "version": "0", "action": "AS"}',
    '{"type": "act", "id": "a", "version": null, "action": "AS"}',
    '{"type": "act", "id": "a", "version": 0, "action": true}',
    '{"type": "act", "id": "a", "version": 0, "action": 51.0}',
    '{"type": "act", "id": "a", "version": 0, "action": {"id": "51"}}',
    '{"type": "act", "id": "a", "version": 0, "action": {"text": "AS"}}',
    '{"type": "act", "id": "a", "version": 0, "action": ["AS"]}',
    '{"type": "act", "id": "a", "version": 0, "action": "AS", "seat": "south"}',
    '{"type": "chat"}',
    '{"type": "chat", "text": 5}',
    '{"type": "ping", "x": 1}',
    b"\xff\xfe",
]


@pytest.mark.parametrize("text", MALFORMED_FRAMES)
def test_parse_frame_refuses_malformed(text: str | bytes) -> None:
    with pytest.raises(ServerError) as info:
        parse_frame(text)
    assert info.value.code is ErrorCode.MALFORMED


def test_parse_frame_size_limit_counts_bytes() -> None:
    head = '{"type": "chat", "text": "'
    fill = MAX_FRAME - len(head) - 2
    exact = head + "x" * fill + '"}'
    assert len(exact.encode()) == MAX_FRAME == 4096
    assert parse_frame(exact) == Chat("x" * fill)
    with pytest.raises(ServerError) as info:
        parse_frame(head + "x" * (fill + 1) + '"}')
    assert info.value.code is ErrorCode.TOO_LARGE
    # 2-byte characters: fewer characters than the limit, more bytes
    wide = head + "é" * (fill // 2 + 1) + '"}'
    assert len(wide) < MAX_FRAME < len(wide.encode())
    with pytest.raises(ServerError) as info:
        parse_frame(wide)
    assert info.value.code is ErrorCode.TOO_LARGE
    with pytest.raises(ServerError) as info:
        parse_frame(b" " * 5000)
    assert info.value.code is ErrorCode.TOO_LARGE


def test_state_holds_own_cards_only() -> None:
    rng = random.Random(9)
    table, _ = human_table("classic")
    play(table, rng, in_play)
    assert table.match is not None
    deal = table.match.deal
    to_act = table.to_act()
    for seat in SEATS:
        state = state_json(table, seat)
        match = state["match"]
        assert match["hand"] == [str(c) for c in CardSet(deal.hands[seat])]
        legal = [action_json(a) for a in deal.legal_actions] if seat == to_act else []
        assert match["legal"] == legal
        assert match["commitment"] == commitment(table.seeds[-1])
        assert table.seeds[-1] not in repr(state)
    spectator = state_json(table, None)
    assert spectator["match"]["hand"] == []
    assert spectator["match"]["legal"] == []
    assert spectator["version"] == table.version


def test_event_public_form() -> None:
    event = Event(3, "chat", {"seat": "south", "text": "hi"}, {"hidden": 1})
    assert event.public() == {"seq": 3, "kind": "chat", "seat": "south", "text": "hi"}
