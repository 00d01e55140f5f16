"""Property tests over every preset: random deals, random legal play, invariants.

The checks here recompute the rules independently of the engine: which cards
may be played, who wins each trick, and what the deal scores.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tarneeb import (
    PRESETS,
    Bid,
    Card,
    Deal,
    Double,
    IllegalActionError,
    InvalidActionError,
    Match,
    Pass,
    Phase,
    Raise,
    Redeal,
    Rules,
    Seat,
    ThrowIn,
    action_id,
    deal_hands,
    read_record,
    seeded_rng,
    shuffled_deck,
    write_record,
)
from tarneeb.cards import FULL_MASK, SUIT_MASKS
from tarneeb.rules import Count
from tarneeb.scoring import score_contract, score_individual

# Every preset, and variants that switch on the options no preset uses.
RULES: dict[str, Rules] = dict(PRESETS)
RULES.update(
    {
        "v-first-lead-trump-weak-redeal": PRESETS["classic"].replace(
            first_lead_trump=True, weak_redeal=True, dealing="13-at-once"
        ),
        "v-double-dealer-bids": PRESETS["classic"].replace(
            doubling="double", double_factor=4, all_pass="dealer-bids", made="bid"
        ),
        "v-sol-bid-once-if-set": PRESETS["sol"].replace(
            bid_once=True, defenders="tricks-if-set", thirteen_wins="if-bid"
        ),
        "v-egyptian-platform": PRESETS["egyptian"].replace(
            strain_order=["C", "S", "H", "D"], doubling="double", weak_redeal=True
        ),
        "v-syrian-zero-ok": PRESETS["syrian400"].replace(partner_zero_ok=True, weak_redeal=True),
    }
)
NAMES = list(RULES)
POINTS = (0, 0, 0, 0, 0, 0, 0, 0, 10, 2, 3, 4, 11)

seeds = st.integers(min_value=0, max_value=2**32 - 1)


# -- an independent model of the rules --------------------------------------------------


def choose(deal: Deal, rng: random.Random, pass_rate: float = 0.75) -> object:
    """A policy for random legal play whose contracts vary: pass often, bid low."""
    legal = list(deal.legal_actions)
    if deal.phase is Phase.AUCTION:
        if Redeal() in legal and rng.random() < 0.5:
            return Redeal()
        if Pass() in legal and rng.random() < pass_rate:
            return Pass()
        if Double() in legal and rng.random() < 0.3:
            return Double()
        bids = [a for a in legal if isinstance(a, Bid)]
        if not bids:
            return rng.choice(legal)
        index = 0
        while index < len(bids) - 1 and rng.random() < 0.5:
            index += 1
        return bids[index]
    return rng.choice(legal)


def expected_legal_cards(
    hand: int, trick: Sequence[int], first_lead: bool, trump: int | None, rules: Rules
) -> int:
    if trick:
        follow = hand & SUIT_MASKS[trick[0] // 13]
        return follow or hand
    if first_lead and rules.first_lead_trump and trump is not None:
        return hand & SUIT_MASKS[trump] or hand
    return hand


def trick_winner(cards: Sequence[int], trump: int | None) -> int:
    """The index of the winning card: the highest trump, else the highest of the suit led."""
    if trump is not None:
        trumps = [(c, i) for i, c in enumerate(cards) if c // 13 == trump]
        if trumps:
            return max(trumps)[1]
    led = cards[0] // 13
    return max((c, i) for i, c in enumerate(cards) if c // 13 == led)[1]


class Model:
    """What the test itself makes of a finished or running deal, from the history alone."""

    def __init__(self, deal: Deal) -> None:
        rules = deal.rules
        history = [(int(seat), action_id(action)) for seat, action in deal.history]
        assert [a for _, a in history] == list(deal.action_ids)
        self.last_bid: tuple[int, Bid] | None = None
        self.doubled = False
        self.raised = False
        self.bids: dict[int, int] = {}
        self.trump: int | None = None
        self.cards: list[tuple[int, int]] = []
        for seat, action in history:
            if action < 52:
                self.cards.append((seat, action))
            elif action >= 64:
                level, strain = divmod(action - 64, 6)
                self.last_bid = (
                    seat,
                    Bid(level, None if strain == 5 else Bid.from_id(action).strain),
                )
                self.doubled = False
                self.bids[seat] = level
            elif action == Double().id:
                self.doubled = True
            elif action == Raise().id:
                self.raised = True
            elif 57 <= action <= 60:
                self.trump = action - 57
        if rules.is_individual:
            self.trump = None if rules.fixed_trump is None else int(rules.fixed_trump)
        elif self.last_bid is not None and self.last_bid[1].strain is not None:
            strain = int(self.last_bid[1].strain)
            self.trump = strain if strain < 4 else None
        elif self.last_bid is not None and rules.fixed_trump is not None:
            self.trump = int(rules.fixed_trump)
        # tricks
        first_leader = (deal.dealer + 1) % 4 if rules.is_individual else None
        if first_leader is None and self.last_bid is not None:
            first_leader = self.last_bid[0]
        self.tricks: list[tuple[int, list[int], int]] = []
        self.taken = [0, 0, 0, 0]
        self.points = [0, 0, 0, 0]
        leader = first_leader
        for start in range(0, len(self.cards) - len(self.cards) % 4, 4):
            plays = self.cards[start : start + 4]
            assert leader is not None
            assert [s for s, _ in plays] == [(leader + i) % 4 for i in range(4)]
            cards = [c for _, c in plays]
            winner = (leader + trick_winner(cards, self.trump)) % 4
            self.tricks.append((leader, cards, winner))
            self.taken[winner] += 1
            self.points[winner] += sum(POINTS[c % 13] for c in cards)
            leader = winner
        self.next_leader = leader


def check_dealt(deal: Deal) -> None:
    union = 0
    for mask in deal.dealt:
        assert mask.bit_count() == 13
        assert union & mask == 0
        union |= mask
    assert union == FULL_MASK
    cards = [c for mask in deal.dealt for c in range(52) if mask >> c & 1]
    assert len(cards) == len(set(cards)) == 52


def play_checked(deal: Deal, rng: random.Random) -> list[int]:
    """Play to the end with checked pushes, checking every card against the model."""
    rules = deal.rules
    hands = list(deal.dealt)
    pushed: list[int] = []
    while not deal.is_over():
        seat = deal.to_act
        assert seat is not None
        if deal.phase is Phase.PLAY:
            played = [c for c in deal.action_ids if c < 52]
            trick = played[len(played) - len(played) % 4 :]
            model_trump = Model(deal).trump
            assert (None if deal.trump is None else int(deal.trump)) == model_trump
            expected = expected_legal_cards(hands[seat], trick, not played, model_trump, rules)
            assert deal.legal_card_mask() == expected
            assert sorted(int(c) for c in deal.legal_actions) == [
                c for c in range(52) if expected >> c & 1
            ]
            assert len(deal.legal_actions) == expected.bit_count()
            assert deal.hand(seat).mask == hands[seat]
        action = choose(deal, rng)
        deal.push(action)  # type: ignore[arg-type]
        a = deal.action_ids[-1]
        pushed.append(a)
        if a < 52:
            hands[seat] &= ~(1 << a)
    return pushed


def check_followed_suit(deal: Deal, model: Model) -> None:
    hands = list(deal.dealt)
    for leader, cards, _winner in model.tricks:
        led = cards[0] // 13
        for i, card in enumerate(cards):
            seat = (leader + i) % 4
            assert hands[seat] >> card & 1, "a card played from outside the hand"
            if card // 13 != led:
                assert hands[seat] & SUIT_MASKS[led] == 0, "did not follow suit"
            hands[seat] &= ~(1 << card)
    assert hands == [0, 0, 0, 0]


def check_score(deal: Deal, model: Model) -> None:
    rules = deal.rules
    result = deal.result
    assert result is not None
    assert sum(model.taken) == 13
    assert deal.tricks_taken == tuple(model.taken)
    assert deal.card_points_taken == tuple(model.points)
    assert sum(model.points) == 120
    ns, ew = model.taken[0] + model.taken[2], model.taken[1] + model.taken[3]
    assert result.all_thirteen == (0 if ns == 13 else 1 if ew == 13 else None)
    if rules.is_individual:
        bids = [model.bids[s] for s in range(4)]
        assert deal.bids == tuple(bids)
        points = score_individual(rules, bids, model.taken, deal.scores)
        assert result.seat_points == points
        assert result.team_points == (points[0] + points[2], points[1] + points[3])
        assert result.made is None
        return
    assert model.last_bid is not None
    declarer, bid = model.last_bid
    assert deal.declarer == declarer
    multiplier = rules.double_factor if (model.doubled or model.raised) else 1
    assert deal.contract is not None
    assert deal.contract.multiplier == multiplier
    assert deal.contract.level == bid.level
    taken_by = model.points if rules.count is Count.CARD_POINTS else model.taken
    taken = taken_by[declarer] + taken_by[declarer ^ 2]
    against = taken_by[declarer ^ 1] + taken_by[declarer ^ 3]
    decl, defs = score_contract(rules, bid.level, taken, against, multiplier)
    team = declarer % 2
    assert result.team_points == ((decl, defs) if team == 0 else (defs, decl))
    assert result.made is (taken >= bid.level)
    assert result.seat_points is None


def check_thrown_in(deal: Deal) -> None:
    ids = deal.action_ids
    reason = deal.thrown_in
    assert deal.result is None
    assert all(a >= 52 for a in ids)
    if reason == ThrowIn.ALL_PASS:
        assert ids == (Pass().id,) * 4
    elif reason == ThrowIn.WEAK_HAND:
        assert ids[-1] == Redeal().id
    else:
        assert reason == ThrowIn.LOW_TOTAL
        levels = [(a - 64) // 6 for a in ids]
        assert len(levels) == 4
        assert sum(levels) < deal.rules.total_minimum(max(deal.scores))


def start_scores(rules: Rules, rng: random.Random) -> tuple[int, int, int, int]:
    if rules.is_individual:
        s = [rng.choice([0, 12, 29, 30, 35, 40, 49, 50, -20]) for _ in range(4)]
        return s[0], s[1], s[2], s[3]
    ns, ew = rng.randint(-30, 40), rng.randint(-30, 40)
    return ns, ew, ns, ew


# -- properties of one deal ---------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
@given(seed=seeds, play_seed=seeds)
def test_random_deal_invariants(name: str, seed: int, play_seed: int) -> None:
    rules = RULES[name]
    rng = random.Random(play_seed)
    dealer = Seat(seed % 4)
    scores = start_scores(rules, rng)
    deal = Deal.from_seed(rules, dealer, seed, scores)
    check_dealt(deal)
    assert deal.dealt == deal_hands(shuffled_deck(seeded_rng(seed)), dealer, rules.dealing)
    start = deal.copy()
    assert deal.to_act == dealer.next

    pushed = play_checked(deal, rng)
    end = deal.copy()
    assert deal.is_over()
    if deal.phase is Phase.THROWN_IN:
        check_thrown_in(deal)
    else:
        assert deal.phase is Phase.SCORED
        model = Model(deal)
        assert len(model.tricks) == 13
        assert len(deal.tricks) == 13
        for trick, (leader, cards, winner) in zip(deal.tricks, model.tricks, strict=True):
            assert trick.leader == leader
            assert [int(c) for c in trick.cards] == cards
            assert trick.winner == winner
        check_followed_suit(deal, model)
        check_score(deal, model)

    # pop back to the start, then push the same actions again
    for _ in pushed:
        deal.pop()
    assert deal == start
    assert deal.legal_action_ids() == start.legal_action_ids()
    for a in pushed:
        deal.push(a)
    assert deal == end
    assert deal.result == end.result


@pytest.mark.parametrize("name", NAMES)
@given(seed=seeds, play_seed=seeds, prefix=st.integers(min_value=0, max_value=70))
def test_playout_gives_legal_complete_deals(
    name: str, seed: int, play_seed: int, prefix: int
) -> None:
    rules = RULES[name]
    rng = random.Random(play_seed)
    deal = Deal.from_seed(rules, seed % 4, seed, start_scores(rules, rng))
    start = deal.copy()
    for _ in range(prefix):
        if deal.is_over():
            break
        deal.push(choose(deal, rng))  # type: ignore[arg-type]
    middle = deal.copy()
    deal.playout(rng)
    assert deal.is_over()
    # every action of the playout is legal: replay them with checked pushes
    again = Deal(rules, deal.dealer, deal.dealt, deal.scores)
    for a in deal.action_ids:
        assert a in again.legal_action_ids()
        again.push(a)
    assert again == deal
    if deal.phase is Phase.SCORED:
        model = Model(deal)
        assert len(model.tricks) == 13
        assert [t.winner for t in deal.tricks] == [w for _, _, w in model.tricks]
        check_followed_suit(deal, model)
        check_score(deal, model)
    else:
        check_thrown_in(deal)
    # pop works after a playout
    while len(deal.action_ids) > len(middle.action_ids):
        deal.pop()
    assert deal == middle
    while deal.action_ids:
        deal.pop()
    assert deal == start


# -- properties of matches and records -------------------------------------------------


def play_match(match: Match, rng: random.Random, max_deals: int) -> None:
    while not match.is_over() and len(match.deals) <= max_deals:
        match.push(choose(match.deal, rng, pass_rate=0.5))  # type: ignore[arg-type]


@settings(max_examples=20)
@given(name=st.sampled_from(NAMES), seed=seeds, play_seed=seeds, max_deals=st.integers(1, 8))
def test_match_record_round_trip(name: str, seed: int, play_seed: int, max_deals: int) -> None:
    rules = RULES[name]
    match = Match(rules, seed=seed)
    play_match(match, random.Random(play_seed), max_deals)
    text = write_record(match)
    again = read_record(text)
    assert again == match
    assert again.team_scores == match.team_scores
    assert again.seat_scores == match.seat_scores
    assert [d.action_ids for d in again.deals] == [d.action_ids for d in match.deals]
    # without the seed, the hands alone replay it
    record = json.loads(text)
    record["seed"] = None
    assert read_record(record) == match
    # the scores are the deals' results added up (per set)
    ns = ew = 0
    set_start = sum(s.deals for s in match.sets)
    for deal in match.deals[set_start:]:
        if deal.result is not None:
            ns += deal.result.team_points[0]
            ew += deal.result.team_points[1]
    if not match.is_over():
        assert match.team_scores == (ns, ew)


def illegal_actions(match: Match) -> list[object]:
    deal = match.deal
    out: list[object] = []
    if deal.phase is Phase.PLAY:
        legal = deal.legal_card_mask()
        out += [Card(c) for c in range(52) if not legal >> c & 1][:5]
        out += [Pass(), Bid(7)]
    else:
        legal_ids = set(deal.legal_action_ids())
        out += [
            a
            for a in (Bid(1), Bid(13), Raise(), Double(), Pass(), 0, 51)
            if (a if isinstance(a, int) else a.id) not in legal_ids
        ]
    return out


@settings(max_examples=20)
@given(name=st.sampled_from(NAMES), seed=seeds, play_seed=seeds, steps=st.integers(0, 300))
def test_illegal_match_push_changes_nothing(
    name: str, seed: int, play_seed: int, steps: int
) -> None:
    rules = RULES[name]
    rng = random.Random(play_seed)
    match = Match(rules, seed=seed)
    for _ in range(steps):
        if match.is_over():
            break
        match.push(choose(match.deal, rng, pass_rate=0.5))  # type: ignore[arg-type]
    replayed = read_record(write_record(match))
    assert replayed == match
    for action in illegal_actions(match):
        with pytest.raises(IllegalActionError):
            match.push(action)  # type: ignore[arg-type]
        assert match == replayed
    # malformed actions (refused as illegal once the match is over)
    refusal = IllegalActionError if match.is_over() else InvalidActionError
    for action in ["", "nonsense", -3, None]:
        with pytest.raises(refusal):
            match.push(action)  # type: ignore[arg-type]
        assert match == replayed
    # and the match goes on as the replayed copy does
    if not match.is_over():
        action = choose(match.deal, rng)
        match.push(action)  # type: ignore[arg-type]
        replayed.push(action)  # type: ignore[arg-type]
        assert match == replayed
