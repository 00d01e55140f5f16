"""No frame of ``tarneeb serve`` tells a seat another seat's unplayed cards.

Whole matches of several presets are played over real WebSocket
connections (people in some seats, the server's bots in the others, a
spectator watching), with some refused actions thrown in so that error
frames are heard too. Every frame every connection received (welcome,
update, ack, error, pong) is then checked against the true log of the
table, rebuilt from the public events and the seeds revealed at the end:

* every card named anywhere in a frame is the receiver's own card as dealt
  in the deal in progress, or a card already played in that deal (events
  are checked against the log, whose cards are played ones);
* a spectator hears of played cards only;
* no frame holds the seed of a deal not yet over, another seat's token, or
  the hash of any token.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any

import pytest

from tarneeb.cards import Card, CardSet
from tarneeb.match import Match
from tarneeb.presets import find_rules
from tarneeb.seats import Seat
from tarneeb.server.fairness import deck_from_seed, hands_from_seed
from ws_support import SEAT_NAMES, Peer, TestClient, choose, connect, legal_texts, server

CARD = re.compile(r"^(10|[2-9TJQKA])[CDHS]$")
WORD = re.compile(r"[0-9A-Za-z]+")
EXAMPLES = re.compile(r"\(like [^)]*\)")

# (rules, options, bot seats): short matches, people and bots mixed
GAMES = [
    ("classic", {"target": 11}, {}),
    (
        "classic",
        {"target": 11},
        {"east": "bot:heuristic", "north": "bot:random", "west": "bot:heuristic"},
    ),
    ("egyptian", {"target": 1}, {"east": "bot:heuristic", "west": "bot:heuristic"}),
    # The bots are partners: a side wins only when both partners' scores are
    # positive, and a random player's score can wander below zero for
    # thousands of frames (one match in about fifteen outran the frame budget).
    ("syrian400", {"target": 1}, {"east": "bot:heuristic", "west": "bot:heuristic"}),
    ("tarneeb400", {"target": 1}, {"west": "bot:random"}),
    ("levant-sets", {"target": 1, "sets": 2}, {}),
    (
        "original",
        {"target": 1},
        {"east": "bot:heuristic", "north": "bot:heuristic", "west": "bot:heuristic"},
    ),
    ("sol", {"target": 1}, {"north": "bot:random"}),
]


@dataclass
class Game:
    rules: str
    options: dict[str, Any]
    tokens: dict[str, str]
    receivers: dict[str | None, Peer]
    events: list[dict[str, Any]] = field(default_factory=list)


def play_game(
    client: TestClient,
    rules: str,
    options: dict[str, Any],
    bots: dict[str, str],
    rng: random.Random,
) -> Iterator[Game]:
    made = client.post(
        "/api/tables", json={"rules": rules, "options": options, "seats": bots, "name": "S"}
    )
    assert made.status_code == 201, made.text
    table = made.json()["table"]
    tokens = {"south": made.json()["token"]}
    for seat in SEAT_NAMES[1:]:
        if seat not in bots:
            joined = client.post(f"/api/tables/{table}/join", json={"name": seat, "seat": seat})
            tokens[seat] = joined.json()["token"]
    with ExitStack() as stack:
        spectator = stack.enter_context(connect(client, table, "spectator"))
        spectator.hello()
        peers: dict[str, Peer] = {}
        for seat, token in tokens.items():
            peers[seat] = stack.enter_context(connect(client, table, seat))
            peers[seat].hello(token)
        acted: set[int] = set()
        for _ in range(20000):
            if spectator.over():
                break
            to_act = spectator.match["to_act"]
            if to_act in peers and spectator.version not in acted:
                acted.add(spectator.version)
                mover = peers[to_act]
                mover.until_version(spectator.version)
                assert mover.my_turn()
                if rng.random() < 0.15:
                    provoke_errors(mover, peers, rng)
                mover.act(choose(mover.match, rng))
            spectator.next()
        else:
            raise AssertionError("the match did not end")
        for peer in peers.values():
            peer.until_version(spectator.version)
            peer.sync()
        spectator.sync()
        yield Game(rules, options, tokens, {None: spectator, **peers}, spectator.events)


def provoke_errors(mover: Peer, peers: dict[str, Peer], rng: random.Random) -> None:
    """Refused actions, with the senders' own cards: their error frames are heard too."""
    version = mover.version
    hand = mover.match["hand"]
    illegal = []
    if mover.match["phase"] == "play":  # elsewhere a card may read as a bid: 8S
        illegal = [card for card in hand if card not in legal_texts(mover.match)]
    mover.act(rng.choice(illegal or ["zz"]), ref=f"bad-{version}")
    mover.act(mover.match["legal"][0], version=version - 1, ref=f"stale-{version}")
    for peer in peers.values():
        if peer is not mover:
            peer.until_version(version)
            own = peer.match["hand"]
            peer.act(own[0] if own else "pass", version=version, ref=f"turn-{version}")
            break


@dataclass
class Truth:
    """The true course of a finished match, from its public log and the revealed seeds."""

    deal_seq: dict[int, int]
    end_seq: dict[int, int]
    seeds: dict[int, str]
    hands: dict[int, dict[str, set[str]]]
    plays: dict[int, list[tuple[int, str]]]
    """(seq, card) of each card played in a deal."""
    is_card: dict[int, list[bool]]
    """Whether each action of a deal's history is a card (else a bid, a pass, a trump...)."""
    by_seq: dict[int, dict[str, Any]]

    def deal_at(self, seq: int) -> int:
        numbers = [n for n, s in self.deal_seq.items() if s <= seq]
        return max(numbers, default=0)

    def played(self, deal: int, seq: int) -> set[str]:
        return {card for at, card in self.plays.get(deal, []) if at <= seq}


def truth_of(game: Game) -> Truth:
    events = game.events
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    rules = find_rules(game.rules).replace(**game.options)
    deal_seq = {e["number"]: e["seq"] for e in events if e["kind"] == "deal"}
    ends = {e["number"]: e for e in events if e["kind"] == "deal_end"}
    assert set(ends) == set(deal_seq)  # the match is over: every deal is
    seeds = {n: e["seed"] for n, e in ends.items()}
    for n, e in ends.items():
        assert hashlib.sha256(seeds[n].encode()).hexdigest() == e["commitment"]
    started = next(e for e in events if e["kind"] == "started")
    match = Match(
        rules,
        first_dealer=Seat[started["first_dealer"].upper()],
        deck_source=lambda index: deck_from_seed(seeds[index + 1]),
    )
    plays: dict[int, list[tuple[int, str]]] = {}
    is_card: dict[int, list[bool]] = {}
    for event in events:
        if event["kind"] == "action":
            number = len(match.deals)
            match.push(event["action"]["id"])
            _, action = match.deals[number - 1].history[-1]
            card = isinstance(action, Card)
            is_card.setdefault(number, []).append(card)
            if card:
                plays.setdefault(number, []).append((event["seq"], event["action"]["text"]))
    assert match.is_over()
    hands = {}
    for number, deal in enumerate(match.deals, 1):
        masks = hands_from_seed(seeds[number], deal.dealer, rules.dealing)
        assert masks == deal.dealt
        hands[number] = {
            seat: {str(c) for c in CardSet(masks[i])} for i, seat in enumerate(SEAT_NAMES)
        }
    return Truth(
        deal_seq,
        {n: e["seq"] for n, e in ends.items()},
        seeds,
        hands,
        plays,
        is_card,
        {e["seq"]: e for e in events},
    )


def _at(obj: Any, path: tuple[Any, ...]) -> Any:
    """The part of a JSON value at ``path`` (as :func:`walk` names it)."""
    for step in path:
        obj = obj[step]
    return obj


def walk(obj: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], str]]:
    """Every string of a JSON value (keys too), with its path."""
    if isinstance(obj, str):
        yield path, obj
    elif isinstance(obj, dict):
        for key, value in obj.items():
            yield (*path, "<key>"), key
            yield from walk(value, (*path, key))
    elif isinstance(obj, list):
        for index, value in enumerate(obj):
            yield from walk(value, (*path, index))


def check_frame(
    truth: Truth, seat: str | None, seq: int, text: str, frame: dict[str, Any], game: Game
) -> int:
    """Assert ``frame`` (heard by ``seat`` when the log was at ``seq``) leaks nothing.

    Returns how many card strings it checked.
    """
    deal = truth.deal_at(seq)
    own = truth.hands[deal][seat] if deal and seat is not None else set()
    played = truth.played(deal, seq)
    # events are the log's own, heard no earlier than they happened
    for event in frame.get("events") or []:
        assert event["seq"] <= seq
        assert event == truth.by_seq[event["seq"]]
    state = frame.get("state")
    match = state["match"] if state else None
    if match is not None:
        assert match["deal_number"] == deal
        mine = own - played
        assert set(match["hand"]) == mine
        if match["phase"] == "play" and match["legal"]:
            assert set(legal_texts(match)) <= mine
    checked = 0
    for path, string in walk(frame):
        if path[:1] == ("events",):
            continue  # the log's own, checked above and below
        if path[-1] == "text" and _at(frame, path[:-1]).get("kind") not in (None, "card"):
            continue  # an action's text, not a card's: a bid like 8S, not the eight of spades
        words = [string]
        if path[-1] == "message":  # the words of a sentence, less its examples "(like AS, TH)"
            words = WORD.findall(EXAMPLES.sub("", string))
        for word in words:
            if CARD.match(word):
                checked += 1
                assert word in own or word in played, (seat, seq, path, word, frame)
    # the log's own cards: played ones, named by the action or deal_end that played them
    for event in frame.get("events") or []:
        if event["kind"] == "deal_end":
            for _, string in walk(event):
                if CARD.match(string):
                    assert string in truth.played(event["number"], event["seq"])
    for number, seed in truth.seeds.items():
        if truth.end_seq[number] > seq:
            assert seed not in text, (seat, seq, number)
    for owner, token in game.tokens.items():
        if owner != seat:
            assert token not in text
        assert hashlib.sha256(token.encode()).hexdigest() not in text
    return checked


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> list[Game]:
    rng = random.Random(20261129)
    played = []
    with server(tmp_path_factory.mktemp("leak")) as client:
        for rules, options, bots in GAMES:
            played.extend(play_game(client, rules, options, bots, rng))
    return played


def test_no_frame_holds_another_seats_unplayed_cards(games: list[Game]) -> None:
    frames = 0
    cards = 0
    kinds: set[str] = set()
    for game in games:
        truth = truth_of(game)
        for seat, peer in game.receivers.items():
            seq = 0
            for text, frame in peer.frames:
                if frame["type"] in ("welcome", "update"):
                    seq = frame["seq"]
                kinds.add(frame["type"])
                cards += check_frame(truth, seat, seq, text, frame, game)
                frames += 1
    assert len(games) == len(GAMES)
    assert kinds == {"welcome", "update", "ack", "error", "pong"}
    assert frames > 2000
    assert cards > 10000


def test_every_game_was_whole(games: list[Game]) -> None:
    for game in games:
        last = game.events[-1]
        assert last["kind"] == "match_end"
        for seat, peer in game.receivers.items():
            assert peer.over()
            assert peer.seat == seat
            assert peer.events == game.events
        bots = sum(1 for e in game.events if e["kind"] == "action" and e["by"] == "bot")
        people = sum(1 for e in game.events if e["kind"] == "action" and e["by"] == "player")
        assert people > 0
        assert (bots > 0) == (len(game.tokens) < 4)


def test_the_checker_catches_a_leak(games: list[Game]) -> None:
    """The check is not vacuous: another seat's unplayed card in a frame fails it."""
    game = games[0]
    truth = truth_of(game)
    peer = game.receivers["south"]
    text, frame = next(
        (t, f)
        for t, f in peer.frames
        if f["type"] == "update" and f["state"]["match"]["phase"] == "play"
    )
    seq = frame["seq"]
    deal = truth.deal_at(seq)
    hidden = sorted(truth.hands[deal]["north"] - truth.played(deal, seq))
    assert hidden
    check_frame(truth, "south", seq, text, frame, game)
    leaky = {**frame, "extra": {"peek": hidden[0]}}
    with pytest.raises(AssertionError):
        check_frame(truth, "south", seq, text, leaky, game)
    future = [s for n, s in truth.seeds.items() if truth.end_seq[n] > seq]
    with pytest.raises(AssertionError):
        check_frame(truth, "south", seq, text + future[0], frame, game)
    with pytest.raises(AssertionError):
        check_frame(truth, "south", seq, text + game.tokens["north"], frame, game)
