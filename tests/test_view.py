"""Hidden information: what one seat may know of a deal (tarneeb.view)."""

from __future__ import annotations

import dataclasses
import enum
import random
from collections.abc import Iterator

import pytest

from support import CRAFTED
from tarneeb import (
    PRESETS,
    Card,
    CardSet,
    Deal,
    Double,
    Match,
    Pass,
    Phase,
    Raise,
    Redeal,
    Seat,
    Stand,
    Suit,
    View,
    find_rules,
)
from tarneeb.cards import FULL_MASK, SUIT_MASKS

CLASSIC = find_rules("classic")

VIEW_FIELDS = {
    "seat",
    "rules",
    "dealer",
    "scores",
    "phase",
    "to_act",
    "hand",
    "history",
    "contract",
    "trump",
    "tricks",
    "current_trick",
    "tricks_taken",
    "bids",
    "played",
    "hand_sizes",
    "legal_actions",
    "result",
    "thrown_in",
}


# -- a walker over every value a view holds --------------------------------------------


@dataclasses.dataclass
class Contents:
    cards: set[int] = dataclasses.field(default_factory=set)
    ints: list[int] = dataclasses.field(default_factory=list)
    texts: list[str] = dataclasses.field(default_factory=list)


def leaves(value: object, path: str) -> Iterator[tuple[str, object]]:
    """Every leaf value inside ``value``, with where it was found."""
    if isinstance(value, (Card, CardSet, bool, str, float)) or value is None:
        yield path, value
    elif isinstance(value, enum.Enum):
        return
    elif isinstance(value, int):
        yield path, value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from leaves(getattr(value, f.name), f"{path}.{f.name}")
    elif isinstance(value, (tuple, list, set, frozenset)):
        for i, item in enumerate(value):
            yield from leaves(item, f"{path}[{i}]")
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from leaves(k, f"{path}<key>")
            yield from leaves(v, f"{path}[{k!r}]")
    elif isinstance(value, (Pass, Double, Raise, Stand, Redeal)):
        return  # Pass(), Double(), ...: no data of their own
    else:  # pragma: no cover - a new kind of value in a view must be reviewed here
        raise AssertionError(f"{path}: unexpected {type(value).__name__} in a view: {value!r}")


def contents(view: View) -> Contents:
    found = Contents()
    for path, leaf in leaves(view, "view"):
        if isinstance(leaf, Card):
            found.cards.add(int(leaf))
        elif isinstance(leaf, CardSet):
            found.cards.update(int(c) for c in leaf)
        elif isinstance(leaf, bool) or leaf is None or isinstance(leaf, float):
            continue
        elif isinstance(leaf, int):
            found.ints.append(leaf)
        elif isinstance(leaf, str):
            found.texts.append(leaf)
        else:  # pragma: no cover
            raise AssertionError(path)
    return found


def expected_voids(deal: Deal, seat: int) -> frozenset[Suit]:
    """Suits ``seat`` has shown out of, recomputed from the raw cards played."""
    out: set[Suit] = set()
    tricks = [(t.leader, t.cards) for t in deal.tricks]
    current = deal.current_trick
    if current is not None and current.cards:
        tricks.append((current.leader, current.cards))
    for leader, cards in tricks:
        led = int(cards[0]) // 13
        for i, card in enumerate(cards):
            if (leader + i) % 4 == seat and int(card) // 13 != led:
                out.add(Suit(led))
    return frozenset(out)


def check_view(deal: Deal, seat: Seat) -> None:
    view = deal.view(seat)
    own = deal.hand(seat)
    played = deal.played
    others_unplayed = 0
    for other in Seat:
        if other != seat:
            others_unplayed |= deal.hand(other).mask
    assert others_unplayed & own.mask == 0
    assert others_unplayed & played.mask == 0

    # the fields, each to its public meaning
    assert {f.name for f in dataclasses.fields(View)} == VIEW_FIELDS
    assert view.seat is seat
    assert view.hand == own
    assert view.played == played
    assert view.rules == deal.rules
    assert view.dealer is deal.dealer
    assert view.scores == deal.scores
    assert view.phase is deal.phase
    assert view.to_act == deal.to_act
    assert view.history == deal.history
    assert view.contract == deal.contract
    assert view.trump == deal.trump
    assert view.tricks == deal.tricks
    assert view.current_trick == deal.current_trick
    assert view.tricks_taken == deal.tricks_taken
    assert view.bids == deal.bids
    assert view.hand_sizes == tuple(len(deal.hand(s)) for s in Seat)
    assert view.result == deal.result
    assert view.thrown_in == deal.thrown_in
    assert view.is_my_turn is (deal.to_act == seat)
    if deal.to_act == seat:
        assert view.legal_actions == tuple(deal.legal_actions)
        assert len(view.legal_actions) == len(deal.legal_actions)
    else:
        assert view.legal_actions == ()

    # no other seat's unplayed card anywhere in the view, however it is stored
    # Rules are public (compared whole above) and hold no cards; the rest is walked.
    found = contents(dataclasses.replace(view, rules=None))  # type: ignore[arg-type]
    leaked = found.cards & {c for c in range(52) if others_unplayed >> c & 1}
    assert not leaked, f"{seat!r} sees {[str(Card(c)) for c in leaked]}"
    assert found.cards <= {int(c) for c in own} | {int(c) for c in played}
    # Outside the rules a view holds only small counts and scores: an int the size
    # of a card mask would be a leak.
    for number in found.ints:
        assert -(10**4) < number < 10**4, f"{number} looks like a card mask"
    hidden_texts = {Card(c).format() for c in range(52) if others_unplayed >> c & 1}
    hidden_texts |= {Card(c).format(unicode=True) for c in range(52) if others_unplayed >> c & 1}
    for text in found.texts:
        assert not set(text.replace(",", " ").split()) & hidden_texts, text

    # what can be inferred, and nothing more
    assert view.unseen() == CardSet(others_unplayed)
    for other in Seat:
        voids = view.voids(other)
        assert voids == expected_voids(deal, other)
        for suit in voids:  # a shown void is a real void
            assert deal.hand(other).count(suit) == 0
        possible = view.possible_holdings(other)
        if other == seat:
            assert possible == own
            continue
        expected = others_unplayed
        for suit in voids:
            expected &= ~SUIT_MASKS[suit]
        assert possible == CardSet(expected)
        assert possible & played == CardSet()
        assert possible & own == CardSet()
        assert deal.hand(other) <= possible  # never rules out a card the seat holds


def random_action(deal: Deal, rng: random.Random) -> object:
    legal = list(deal.legal_actions)
    if deal.phase is Phase.AUCTION and Pass() in legal and rng.random() < 0.7:
        return Pass()
    if deal.phase is Phase.AUCTION:
        return legal[min(len(legal) - 1, 1 + int(rng.random() * 3))]
    return rng.choice(legal)


@pytest.mark.parametrize("name", list(PRESETS))
def test_views_hide_other_hands_at_every_point(name: str) -> None:
    rules = PRESETS[name]
    rng = random.Random(name)
    for seed in range(2):
        scores = (7, 3, 7, 3) if not rules.is_individual else (7, 31, 12, 45)
        deal = Deal.from_seed(rules, seed % 4, f"{name}-{seed}", scores)
        while True:
            for seat in Seat:
                check_view(deal, seat)
            if deal.is_over():
                break
            deal.push(random_action(deal, rng))  # type: ignore[arg-type]


def test_views_through_custom_rules() -> None:
    rules_list = [
        CLASSIC.replace(first_lead_trump=True, weak_redeal=True),
        CLASSIC.replace(doubling="double", all_pass="dealer-bids"),
        find_rules("sol").replace(bid_once=True),
    ]
    rng = random.Random(3)
    for rules in rules_list:
        for seed in range(3):
            deal = Deal.from_seed(rules, seed, seed)
            while True:
                for seat in Seat:
                    check_view(deal, seat)
                if deal.is_over():
                    break
                deal.push(random_action(deal, rng))  # type: ignore[arg-type]


def test_view_of_the_crafted_deal() -> None:
    deal = Deal(CLASSIC, Seat.WEST, CRAFTED)
    east = deal.view(Seat.EAST)
    assert east.hand == CardSet.parse(CRAFTED[1])
    assert east.legal_actions == ()
    south = deal.view(Seat.SOUTH)
    assert south.is_my_turn
    assert south.legal_actions[0] == Pass()
    for action in ["7", "pass", "pass", "pass", "S", "2H", "2S", "AH", "3S", "4C", "2C", "9C"]:
        deal.push(action)
    view = deal.view(Seat.SOUTH)
    # East and West showed out of hearts in trick 1; North not yet of anything
    assert view.voids(Seat.EAST) == {Suit.HEARTS}
    assert view.voids(Seat.WEST) == {Suit.HEARTS}
    assert view.voids(Seat.NORTH) == frozenset()
    assert view.voids(Seat.SOUTH) == frozenset()
    assert view.tricks_taken == (0, 0, 0, 1)
    assert view.hand_sizes == (11, 11, 12, 11)
    assert view.current_trick is not None
    assert [str(c) for c in view.current_trick.cards] == ["4C", "2C", "9C"]
    deal.push("AD")  # North shows out of clubs in the current... now completed trick
    view = deal.view(Seat.SOUTH)
    assert view.voids(Seat.NORTH) == {Suit.CLUBS}
    assert view.unseen() == deal.hand(1) | deal.hand(2) | deal.hand(3)
    assert view.possible_holdings(Seat.NORTH) == CardSet(
        view.unseen().mask & ~SUIT_MASKS[Suit.CLUBS]
    )
    assert view.possible_holdings(Seat.EAST) == CardSet(
        view.unseen().mask & ~SUIT_MASKS[Suit.HEARTS]
    )
    assert Card.parse("AH") not in view.possible_holdings(Seat.NORTH)  # played
    assert Card.parse("AS") not in view.possible_holdings(Seat.EAST)  # South's own
    assert view.possible_holdings(Seat.SOUTH) == view.hand
    for seat in Seat:
        check_view(deal, seat)


def test_voids_seen_in_the_trick_under_way() -> None:
    deal = Deal(CLASSIC, Seat.WEST, CRAFTED)
    for action in ["7", "pass", "pass", "pass", "S", "2H", "2S"]:
        deal.push(action)
    view = deal.view(Seat.NORTH)
    assert view.voids(Seat.EAST) == {Suit.HEARTS}
    assert Card.parse("AH") in view.hand
    assert view.legal_actions == tuple(deal.legal_actions)
    assert all(c in view.hand for c in view.legal_actions)


def test_view_is_a_frozen_snapshot() -> None:
    deal = Deal(CLASSIC, Seat.WEST, CRAFTED)
    for action in ["7", "pass", "pass", "pass", "S"]:
        deal.push(action)
    view = deal.view(Seat.SOUTH)
    hand = view.hand
    deal.push("2H")
    assert view.hand == hand
    assert len(view.history) == 5
    assert view.to_act is Seat.SOUTH
    assert view.played == CardSet()
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.hand = CardSet()  # type: ignore[misc]


def test_view_after_the_deal() -> None:
    deal = Deal(CLASSIC, Seat.WEST, CRAFTED)
    for action in ["pass"] * 4:
        deal.push(action)
    view = deal.view(Seat.NORTH)
    assert view.phase is Phase.THROWN_IN
    assert view.thrown_in == "all-pass"
    assert view.hand == CardSet.parse(CRAFTED[2])
    assert view.hand_sizes == (13, 13, 13, 13)
    assert view.legal_actions == ()
    assert view.unseen() == CardSet(FULL_MASK) - view.hand
    for seat in Seat:
        check_view(deal, seat)
    played = Deal(CLASSIC, Seat.WEST, CRAFTED)
    for action in ["7", "pass", "pass", "pass", "S"]:
        played.push(action)
    played.playout(random.Random(1))
    view = played.view(Seat.EAST)
    assert view.result == played.result and view.result is not None
    assert view.hand == CardSet()
    assert view.played == CardSet(FULL_MASK)
    assert view.unseen() == CardSet()
    for seat in Seat:
        check_view(played, seat)


def test_syrian400_view_shows_every_bid() -> None:
    rules = find_rules("syrian400")
    deal = Deal(rules, Seat.WEST, CRAFTED, scores=(0, 35, 10, 20))
    deal.push("3")
    deal.push("4")
    view = deal.view(Seat.WEST)
    assert view.bids == (3, 4, None, None)
    assert view.scores == (0, 35, 10, 20)
    assert view.legal_actions == ()
    north = deal.view(Seat.NORTH)
    assert [a.level for a in north.legal_actions] == list(range(2, 14))  # type: ignore[union-attr]
    for seat in Seat:
        check_view(deal, seat)


def test_match_view_is_the_current_deal_view() -> None:
    match = Match(find_rules("classic"), seed=4)
    for seat in Seat:
        assert match.view(seat) == match.deal.view(seat)
    for _ in range(4):
        match.push("pass")
    assert len(match.deals) == 2
    for seat in Seat:
        assert match.view(seat) == match.deals[1].view(seat)
        check_view(match.deal, seat)


def test_rules_in_a_view_hold_no_cards() -> None:
    # The walker itself: it finds a card hidden as an int mask, a Card, or text.
    deal = Deal(CLASSIC, Seat.WEST, CRAFTED)
    view = deal.view(Seat.SOUTH)
    leaky = dataclasses.replace(view, hand=deal.hand(Seat.EAST))
    assert contents(leaky).cards == {int(c) for c in deal.hand(Seat.EAST)}
    masked = dataclasses.replace(view, scores=(deal.hand(Seat.NORTH).mask, 0, 0, 0))
    assert deal.hand(Seat.NORTH).mask in contents(masked).ints
    texted = dataclasses.replace(view, thrown_in="AH KH")
    assert "AH KH" in contents(texted).texts
    assert all(abs(n) < 10**4 for n in contents(view).ints)


def test_a_first_lead_off_trump_shows_no_trumps_under_first_lead_trump() -> None:
    rules = find_rules("classic").replace(first_lead_trump=True)
    hands = ["AKQJT98765432...", ".AKQJT98765432..", "..AKQJT98765432.", "...AKQJT98765432"]
    deal = Deal(rules, Seat.WEST, hands)
    for action in ["7", "pass", "pass", "pass", "H"]:  # South declares hearts and holds none
        deal.push(action)
    deal.push("AS")  # so any lead is allowed, and shows it
    view = deal.view(Seat.EAST)
    assert Suit.HEARTS in view.voids(Seat.SOUTH)
    assert Suit.SPADES not in view.voids(Seat.SOUTH)
    rng = random.Random(1)
    for _ in range(20):
        layout = view.sample_hands(rng)
        assert not layout[Seat.SOUTH] & Suit.HEARTS.mask
        assert layout[Seat.EAST] == deal.hand(Seat.EAST).mask


def test_a_view_holding_another_hand_is_the_replaced_view_with_its_public_facts_kept() -> None:
    # The model of another seat's play asks for many hands at one point of a deal
    # (tarneeb.bots.inference): holding() must give what dataclasses.replace() gives.
    rules = find_rules("classic")
    rng = random.Random(5)
    checked = 0
    for seed in range(6):
        deal = Deal.from_seed(rules, Seat(seed % 4), seed)
        while not deal.is_over():
            seat = deal.to_act
            assert seat is not None
            view = deal.view(seat)
            if view.phase is Phase.PLAY and view.played and len(view.hand) > 1:
                view.layouts.sample(rng)
                other = view.layouts.sample(rng)[(seat + 1) & 3]  # another seat's cards
                legal = other & -other
                held = view.holding(other, legal)
                replaced = dataclasses.replace(
                    view, hand=CardSet(other), legal_actions=(Card(legal.bit_length() - 1),)
                )
                for field in dataclasses.fields(View):
                    assert getattr(held, field.name) == getattr(replaced, field.name)
                assert held.shown_voids == replaced.shown_voids
                assert held.played_by == replaced.played_by
                assert held.unseen() == replaced.unseen()
                # The layouts depend on the hand: worked out anew, never carried.
                assert "layouts" in vars(view) and "layouts" not in vars(held)
                checked += 1
            deal.push(rng.choice(view.legal_actions))
    assert checked > 100
