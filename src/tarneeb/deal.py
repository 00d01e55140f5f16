"""One deal as a phase machine: auction, raise, trump, play, scored.

A :class:`Deal` holds four hands and every action taken on them. Actions are
ints (see :mod:`tarneeb.actions`); :meth:`Deal.push` takes them as ints,
objects or text and checks them, :meth:`Deal.push_unchecked` is the fast path
for search, and :meth:`Deal.pop` takes the last one back exactly.

>>> from tarneeb.presets import find_rules
>>> deal = Deal.from_seed(find_rules("classic"), dealer=Seat.WEST, seed=7)
>>> deal.phase, deal.to_act
(Phase.AUCTION, Seat.SOUTH)
>>> for text in ["8", "pass", "pass", "pass", "S"]:
...     deal.push(text)
>>> deal.phase, deal.contract
(Phase.PLAY, Contract(Seat.SOUTH, 8, Strain.SPADES))
>>> len(deal.legal_actions), deal.legal_actions[0] in deal.hand(Seat.SOUTH)
(13, True)
>>> deal.push("AS")
Traceback (most recent call last):
...
tarneeb.errors.IllegalActionError: South cannot play AS in the play phase: it is not in South's hand
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, overload

from tarneeb.actions import (
    BID_BASE,
    DOUBLE,
    NO_STRAIN,
    PASS,
    RAISE,
    REDEAL,
    STAND,
    TRUMP_BASE,
    Action,
    Bid,
    Phase,
    Strain,
    action_from_id,
    action_id,
    format_action,
    parse_action,
)
from tarneeb.cards import (
    FULL_MASK,
    SUIT_MASKS,
    Card,
    CardSet,
    Suit,
    deal_masks,
    live_rng,
    seeded_rng,
    shuffled_deck,
)
from tarneeb.errors import IllegalActionError, InvalidActionError
from tarneeb.rules import AllPass, Bidding, Count, Doubling, Rules
from tarneeb.scoring import DealResult, score_contract, score_individual
from tarneeb.seats import SEATS, Seat, Team

if TYPE_CHECKING:
    from tarneeb.view import View

__all__ = ["Contract", "Deal", "LegalActions", "ThrowIn", "Trick", "is_weak_hand"]

_PLAY = Phase.PLAY
_AUCTION = Phase.AUCTION
_SHIFTS = (0, 13, 26, 39)
_SUIT_CARDS: list[list[tuple[int, ...]]] = []


def _suit_cards() -> list[list[tuple[int, ...]]]:
    """For each suit and each 13-bit holding, the card ids it holds (built on first use)."""
    if not _SUIT_CARDS:
        ranks = [tuple(r for r in range(13) if bits >> r & 1) for bits in range(8192)]
        _SUIT_CARDS.extend([tuple(r + 13 * s for r in rs) for rs in ranks] for s in range(4))
    return _SUIT_CARDS


_POINTS = tuple((0, 0, 0, 0, 0, 0, 0, 0, 10, 2, 3, 4, 11)[c % 13] for c in range(52))
_SEAT_NAMES = ("South", "East", "North", "West")


class ThrowIn:
    """Why a deal was thrown in without being played."""

    ALL_PASS = "all-pass"
    """Nobody bid; the next dealer deals."""
    WEAK_HAND = "weak-hand"
    """A player claimed a redeal of a weak hand; the same dealer deals again."""
    LOW_TOTAL = "low-total"
    """Individual bids added up to less than the table minimum; the same dealer deals again."""


@dataclass(frozen=True)
class Contract:
    """The contract a partnership auction ended in."""

    declarer: Seat
    level: int
    strain: Strain | None = None
    """The trump suit or no-trump; ``None`` while the declarer has yet to name trump."""
    multiplier: int = 1
    doubled_by: Seat | None = None
    raised: bool = False

    @property
    def team(self) -> Team:
        return self.declarer.team

    def __repr__(self) -> str:
        extra = ""
        if self.multiplier != 1:
            extra = f", multiplier={self.multiplier}"
        if self.doubled_by is not None:
            extra += f", doubled_by={self.doubled_by!r}"
        if self.raised:
            extra += ", raised=True"
        return f"Contract({self.declarer!r}, {self.level}, {self.strain!r}{extra})"

    def __str__(self) -> str:
        strain = "" if self.strain is None else f" {self.strain.letter}"
        factor = f" x{self.multiplier}" if self.multiplier != 1 else ""
        return f"{self.level}{strain}{factor} by {self.declarer.name.title()}"


@dataclass(frozen=True)
class Trick:
    """A trick, complete or under way."""

    leader: Seat
    cards: tuple[Card, ...]
    winner: Seat | None = None

    def seat_of(self, index: int) -> Seat:
        """Who played ``cards[index]``."""
        return Seat((self.leader + index) & 3)

    @property
    def plays(self) -> tuple[tuple[Seat, Card], ...]:
        return tuple((self.seat_of(i), c) for i, c in enumerate(self.cards))


def is_weak_hand(mask: int) -> bool:
    """Whether a hand may claim a redeal (seed 003's reading, used by ``weak_redeal``).

    Weak: no ace, no king in a suit of two or more cards, no queen in a suit of
    three or more, and no jack in a suit of four or more.

    >>> is_weak_hand(CardSet.parse("K.Q2.J32.T98765432").mask)
    True
    >>> is_weak_hand(CardSet.parse("K2.Q.J32.T9876543").mask)
    False
    """
    for shift in (0, 13, 26, 39):
        bits = (mask >> shift) & 0x1FFF
        length = bits.bit_count()
        if (
            bits >> 12 & 1
            or (bits >> 11 & 1 and length >= 2)
            or (bits >> 10 & 1 and length >= 3)
            or (bits >> 9 & 1 and length >= 4)
        ):
            return False
    return True


class _Tables:
    """Per-rules tables for the auction, built once for each Rules value."""

    def __init__(self, rules: Rules) -> None:
        _suit_cards()
        levels = range(rules.min_bid, rules.max_bid + 1, rules.bid_step)
        ladder: list[int] = []
        if rules.bidding is Bidding.STRAINS:
            strains = list(rules.strain_order) + ([Strain.NO_TRUMP] if rules.no_trump else [])
            for level in levels:
                ladder.extend(BID_BASE + level * 6 + s for s in strains)
        elif rules.bidding is Bidding.TRICKS:
            for level in levels:
                ladder.append(BID_BASE + level * 6 + NO_STRAIN)
                if rules.no_trump:
                    ladder.append(BID_BASE + level * 6 + Strain.NO_TRUMP)
        self.ladder = ladder
        self.rank = {bid: i for i, bid in enumerate(ladder)}
        self.rank[-1] = -1  # no bid yet
        # The common auction (no redeal claims, doubles, forced dealer or bid-once):
        # pass or any higher bid, ready-made for each highest bid so far.
        self.plain = (
            rules.bidding is not Bidding.INDIVIDUAL
            and not rules.weak_redeal
            and not rules.bid_once
            and rules.all_pass is AllPass.THROW_IN
            and rules.doubling is not Doubling.DOUBLE
        )
        self.pass_or_higher = [(PASS, *ladder[i:]) for i in range(len(ladder) + 1)]
        self.min_level = [b for b in ladder if (b - BID_BASE) // 6 == rules.min_bid]
        self.individual = [
            [BID_BASE + level * 6 + NO_STRAIN for level in range(lowest, 14)]
            for lowest in range(14)
        ]


@functools.lru_cache(maxsize=64)
def _tables(rules: Rules) -> _Tables:
    return _Tables(rules)


class Deal:
    """One deal: four hands and the actions taken on them.

    :param hands: the four hands as dealt, by seat (masks, card sets or text).
    :param scores: each seat's score before the deal (its side's score in a
        partnership game); individual bidding needs them for its minimums and
        values.
    :raises InvalidActionError: when the hands are not 13 cards each of one deck.
    """

    __slots__ = (
        "_acted",
        "_actors",
        "_bidders",
        "_declarer",
        "_doubler",
        "_hands",
        "_high",
        "_high_seat",
        "_history",
        "_ibids",
        "_leader",
        "_multiplier",
        "_nbids",
        "_out",
        "_phase",
        "_played",
        "_raised",
        "_result",
        "_seen",
        "_strain",
        "_t",
        "_thrown",
        "_to_act",
        "_tricks",
        "_trump",
        "_winners",
        "dealer",
        "dealt",
        "rules",
        "scores",
    )

    rules: Rules
    dealer: Seat
    dealt: tuple[int, int, int, int]
    scores: tuple[int, int, int, int]
    _t: _Tables
    _hands: list[int]
    _history: list[int]
    """The actions before the play (auction, raise, trump); the cards are in ``_played``."""
    _seen: tuple[tuple[tuple[Seat, Action], ...], tuple[Trick, ...]]
    _actors: list[int]
    _played: list[int]
    _winners: list[int]
    _tricks: list[int]
    _ibids: list[int]
    _result: DealResult | None
    _phase: Phase
    _to_act: int
    _high: int
    _high_seat: int
    _out: int
    _bidders: int
    _acted: int
    _doubler: int
    _nbids: int
    _declarer: int
    _strain: int
    _multiplier: int
    _raised: bool
    _thrown: str | None
    _trump: int
    _leader: int

    def __init__(
        self,
        rules: Rules,
        dealer: Seat | int,
        hands: Sequence[int | CardSet | str],
        scores: Sequence[int] = (0, 0, 0, 0),
    ) -> None:
        masks = tuple(_hand_mask(h) for h in hands)
        if len(masks) != 4:
            raise InvalidActionError(f"a deal needs 4 hands, not {len(masks)}")
        union = 0
        for seat, mask in enumerate(masks):
            if mask.bit_count() != 13:
                raise InvalidActionError(
                    f"{_SEAT_NAMES[seat]}'s hand has {mask.bit_count()} cards, not 13"
                )
            if union & mask:
                raise InvalidActionError(f"{_SEAT_NAMES[seat]}'s hand repeats another hand's card")
            union |= mask
        if len(scores) != 4:
            raise InvalidActionError("scores must give one number per seat")
        self._setup(rules, Seat(dealer), masks, scores)

    def _setup(
        self, rules: Rules, dealer: Seat, masks: Sequence[int], scores: Sequence[int]
    ) -> None:
        self.rules = rules
        self.dealer = dealer
        self.dealt = (masks[0], masks[1], masks[2], masks[3])
        self.scores = (int(scores[0]), int(scores[1]), int(scores[2]), int(scores[3]))
        self._t = _tables(rules)
        self._hands = list(masks)
        self._history = []
        self._seen = ((), ())
        self._actors = []
        self._played = []
        self._winners = []
        self._tricks = [0, 0, 0, 0]
        self._result = None
        self._start_auction()

    def _start_auction(self) -> None:
        """The state before the first action (what :meth:`pop` replays the auction from)."""
        self._ibids = [-1, -1, -1, -1]
        self._phase = Phase.AUCTION
        self._to_act = (self.dealer + 1) & 3
        self._high = -1
        self._high_seat = -1
        self._out = 0
        self._bidders = 0
        self._acted = 0
        self._doubler = -1
        self._nbids = 0
        self._declarer = -1
        self._strain = -1
        self._multiplier = 1
        self._raised = False
        self._thrown = None
        self._trump = -1
        self._leader = -1

    # -- making deals -----------------------------------------------------------

    @classmethod
    def from_rng(
        cls,
        rules: Rules,
        dealer: Seat | int,
        rng: random.Random,
        scores: Sequence[int] = (0, 0, 0, 0),
    ) -> Deal:
        """Shuffle with ``rng`` and deal by the rules' dealing pattern."""
        deal = object.__new__(cls)
        deal._setup(
            rules, Seat(dealer), deal_masks(shuffled_deck(rng), dealer, rules.dealing), scores
        )
        return deal

    @classmethod
    def from_seed(
        cls,
        rules: Rules,
        dealer: Seat | int,
        seed: int | str | None = None,
        scores: Sequence[int] = (0, 0, 0, 0),
    ) -> Deal:
        """A reproducible deal for ``seed``, or a live one from the OS when it is ``None``."""
        rng = live_rng() if seed is None else seeded_rng(seed)
        return cls.from_rng(rules, dealer, rng, scores)

    def copy(self) -> Deal:
        """An independent copy (it can :meth:`pop` as far back as this one)."""
        other = object.__new__(Deal)
        for name in Deal.__slots__:
            setattr(other, name, getattr(self, name))
        other._hands = self._hands[:]
        other._history = self._history[:]
        other._actors = self._actors[:]
        other._played = self._played[:]
        other._winners = self._winners[:]
        other._tricks = self._tricks[:]
        other._ibids = self._ibids[:]
        return other

    def __copy__(self) -> Deal:
        return self.copy()

    def _key(self) -> tuple[object, ...]:
        return tuple(
            getattr(self, name) for name in Deal.__slots__ if name not in ("_t", "_seen", "_result")
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Deal):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<Deal dealer={self.dealer.letter} phase={self._phase.value} "
            f"actions={len(self._history) + len(self._played)}>"
        )

    # -- state for people ---------------------------------------------------------

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def to_act(self) -> Seat | None:
        """The seat whose decision it is, or ``None`` once the deal is over."""
        return None if self._to_act < 0 else SEATS[self._to_act]

    def is_over(self) -> bool:
        """Whether the deal is scored or thrown in."""
        return self._to_act < 0

    @property
    def thrown_in(self) -> str | None:
        """Why the deal was thrown in (a :class:`ThrowIn` value), if it was."""
        return self._thrown

    @property
    def result(self) -> DealResult | None:
        """What the deal scored, once it is over (``None`` before, or when thrown in)."""
        if self._result is None and self._phase is Phase.SCORED:
            self._result = self._score()
        return self._result

    def hand(self, seat: Seat | int) -> CardSet:
        """The cards ``seat`` still holds."""
        return CardSet(self._hands[seat])

    @property
    def hands(self) -> tuple[CardSet, CardSet, CardSet, CardSet]:
        h = self._hands
        return CardSet(h[0]), CardSet(h[1]), CardSet(h[2]), CardSet(h[3])

    @property
    def trump(self) -> Suit | None:
        return None if self._trump < 0 else Suit(self._trump)

    @property
    def declarer(self) -> Seat | None:
        return None if self._declarer < 0 else Seat(self._declarer)

    @property
    def contract(self) -> Contract | None:
        """The partnership contract, once the auction has one."""
        if self._declarer < 0:
            return None
        strain: Strain | None = None
        if self._strain in (0, 1, 2, 3, 4):
            strain = Strain(self._strain)
        elif self._trump >= 0:
            strain = Strain(self._trump)
        return Contract(
            Seat(self._declarer),
            self._level_of(self._high),
            strain,
            self._multiplier,
            None if self._doubler < 0 else Seat(self._doubler),
            self._raised,
        )

    @property
    def bids(self) -> tuple[int | None, int | None, int | None, int | None]:
        """Individual bids by seat (``None`` for a seat yet to bid, or in a partnership auction)."""
        b = [None if x < 0 else x for x in self._ibids]
        return b[0], b[1], b[2], b[3]

    @property
    def history(self) -> tuple[tuple[Seat, Action], ...]:
        """Every action so far, with the seat that took it."""
        seen, tricks = self._seen
        before = len(self._history)
        n = before + len(self._played)
        if len(seen) != n:
            new: list[tuple[Seat, Action]] = []
            for i in range(len(seen), n):
                if i < before:
                    new.append((Seat(self._actors[i]), action_from_id(self._history[i])))
                else:
                    j = i - before
                    seat = (self._leader_of_trick(j // 4) + j) & 3
                    new.append((Seat(seat), Card(self._played[j])))
            seen = seen[:n] + tuple(new)
            self._seen = (seen, tricks)
        return seen

    @property
    def action_ids(self) -> tuple[int, ...]:
        """Every action so far as ints (the auction's, then the cards)."""
        return (*self._history, *self._played)

    @property
    def played(self) -> CardSet:
        """Every card played so far."""
        mask = 0
        for card in self._played:
            mask |= 1 << card
        return CardSet(mask)

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The completed tricks, in order."""
        seen, done = self._seen
        n = len(self._winners)
        if len(done) != n:
            out = list(done[:n])
            for i in range(len(out), n):
                leader = self._leader_of_trick(i)
                cards = tuple(Card(c) for c in self._played[4 * i : 4 * i + 4])
                out.append(Trick(Seat(leader), cards, Seat(self._winners[i])))
            done = tuple(out)
            self._seen = (seen, done)
        return done

    @property
    def current_trick(self) -> Trick | None:
        """The trick under way (possibly empty), or ``None`` outside play."""
        if self._phase is not Phase.PLAY:
            return None
        n = len(self._played) & 3
        cards = tuple(Card(c) for c in self._played[len(self._played) - n :])
        return Trick(Seat(self._leader), cards)

    @property
    def tricks_taken(self) -> tuple[int, int, int, int]:
        """Tricks won by each seat so far."""
        t = self._tricks
        return t[0], t[1], t[2], t[3]

    def team_tricks(self, team: Team | int) -> int:
        return self._tricks[team] + self._tricks[team + 2]

    @property
    def card_points_taken(self) -> tuple[int, int, int, int]:
        """Card points (A 11, 10 10, K 4, Q 3, J 2) won by each seat so far."""
        p = self._card_points()
        return p[0], p[1], p[2], p[3]

    def _card_points(self) -> list[int]:
        points = [0, 0, 0, 0]
        played = self._played
        for i, winner in enumerate(self._winners):
            points[winner] += sum(_POINTS[c] for c in played[4 * i : 4 * i + 4])
        return points

    def _leader_of_trick(self, index: int) -> int:
        if index == 0:
            if self.rules.is_individual:
                return (self.dealer + 1) & 3
            return self._declarer
        return self._winners[index - 1]

    @staticmethod
    def _level_of(bid: int) -> int:
        return (bid - BID_BASE) // 6

    # -- legal actions ----------------------------------------------------------------

    @property
    def legal_actions(self) -> LegalActions:
        """A lazy view of the legal actions: iterate it, test ``in``, take ``len``."""
        return LegalActions(self)

    def legal_card_mask(self) -> int:
        """The legal cards as a bitmask (0 outside the play phase)."""
        if self._phase is not Phase.PLAY:
            return 0
        hand = self._hands[self._to_act]
        played = self._played
        n = len(played) & 3
        if not n:
            if not played and self.rules.first_lead_trump and self._trump >= 0:
                trumps = hand & SUIT_MASKS[self._trump]
                if trumps:
                    return trumps
            return hand
        follow = hand & SUIT_MASKS[played[-n] // 13]
        return follow or hand

    def legal_action_ids(self) -> tuple[int, ...]:
        """The legal actions as ints, for search and environments."""
        if self._phase is _PLAY:
            cards = _SUIT_CARDS  # built with the rules' tables, before any deal
            hand = self._hands[self._to_act]
            played = self._played
            n = len(played) & 3
            if n:
                suit = played[-n] // 13
                follow = cards[suit][hand >> 13 * suit & 0x1FFF]
                if follow:
                    return follow
            elif not played and self.rules.first_lead_trump and self._trump >= 0:
                trump = self._trump
                trumps = cards[trump][hand >> _SHIFTS[trump] & 0x1FFF]
                if trumps:
                    return trumps
            return (
                cards[0][hand & 0x1FFF]
                + cards[1][hand >> 13 & 0x1FFF]
                + cards[2][hand >> 26 & 0x1FFF]
                + cards[3][hand >> 39]
            )
        phase = self._phase
        if phase is Phase.AUCTION:
            return self._auction_ids()
        if phase is Phase.TRUMP:
            return (TRUMP_BASE, TRUMP_BASE + 1, TRUMP_BASE + 2, TRUMP_BASE + 3)
        if phase is Phase.RAISE:
            return (RAISE, STAND)
        return ()

    def _auction_ids(self) -> tuple[int, ...]:
        t = self._t
        if t.plain:
            return t.pass_or_higher[t.rank[self._high] + 1]
        rules = self.rules
        seat = self._to_act
        out: list[int] = []
        if rules.weak_redeal and not self._acted >> seat & 1 and is_weak_hand(self._hands[seat]):
            out.append(REDEAL)
        if rules.is_individual:
            out.extend(self._t.individual[rules.individual_minimum(self.scores[seat])])
            return tuple(out)
        forced = (
            rules.all_pass is AllPass.DEALER_BIDS
            and self._high < 0
            and seat == self.dealer
            and self._out == 15 ^ (1 << seat)
        )
        if not forced:
            out.append(PASS)
        if (
            rules.doubling is Doubling.DOUBLE
            and self._high >= 0
            and (self._high_seat ^ seat) & 1
            and self._doubler < 0
        ):
            out.append(DOUBLE)
        if not (rules.bid_once and self._bidders >> seat & 1):
            if forced:
                out.extend(self._t.min_level)
            elif self._high < 0:
                out.extend(self._t.ladder)
            else:
                out.extend(self._t.ladder[self._t.rank[self._high] + 1 :])
        return tuple(out)

    def is_legal(self, action: Action | int | str) -> bool:
        try:
            return self._parse(action) in self._legal_set()
        except InvalidActionError:
            return False

    def _legal_set(self) -> set[int] | CardSet:
        if self._phase is Phase.PLAY:
            return CardSet(self.legal_card_mask())
        return set(self.legal_action_ids())

    # -- pushing and popping --------------------------------------------------------

    def _parse(self, action: Action | int | str) -> int:
        if isinstance(action, str):
            return action_id(parse_action(action, self._phase))
        return action_id(action)

    def push(self, action: Action | int | str) -> None:
        """Take ``action`` for the seat to act, after checking it.

        :raises InvalidActionError: when it cannot be read as an action.
        :raises IllegalActionError: when the rules do not allow it now; the
            message names the seat, the phase and why. The deal is unchanged.
        """
        if type(action) is int and self._phase is _PLAY:
            seat = self._to_act
            hand = self._hands[seat]
            played = self._played
            n = len(played) & 3
            if 0 <= action < 52 and hand >> action & 1:
                if n:
                    lead = played[-n] // 13
                    ok = action // 13 == lead or not hand & SUIT_MASKS[lead]
                else:
                    ok = bool(played) or bool(self.legal_card_mask() >> action & 1)
                if ok:
                    # The card path of push_unchecked, inlined: this is the hot loop.
                    self._hands[seat] = hand ^ (1 << action)
                    played.append(action)
                    if n == 3:
                        self._end_trick()
                    else:
                        self._to_act = (seat + 1) & 3
                    return
            if 0 <= action < 52:
                raise IllegalActionError(self._refusal(action))
        elif type(action) is int and self._phase is _AUCTION and action in self._auction_ids():
            self.push_unchecked(action)
            return
        if self.is_over():
            shown = action if isinstance(action, str) else format_action(action)
            raise IllegalActionError(
                f"no action is possible: the deal is {self._phase} ({shown!r} refused)"
            )
        try:
            a = self._parse(action)
        except InvalidActionError as exc:
            raise InvalidActionError(
                f"{exc} ({_SEAT_NAMES[self._to_act]}, {self._phase} phase)"
            ) from None
        if self._phase is Phase.PLAY:
            legal = a < 52 and bool(self.legal_card_mask() >> a & 1)
        else:
            legal = a in self.legal_action_ids()
        if not legal:
            raise IllegalActionError(self._refusal(a))
        self.push_unchecked(a)

    def _refusal(self, a: int) -> str:
        seat = self._to_act
        name = _SEAT_NAMES[seat]
        verb = "play" if a < 52 else ("bid" if a >= BID_BASE else "choose")
        head = f"{name} cannot {verb} {format_action(a)} in the {self._phase} phase"
        phase = self._phase
        if phase is Phase.PLAY:
            if a >= 52:
                return f"{head}: play a card"
            if not self._hands[seat] >> a & 1:
                return f"{head}: it is not in {name}'s hand"
            n = len(self._played) & 3
            if n:
                led = Suit(self._played[-n] // 13)
                return f"{head}: {name} must follow suit ({led.name.lower()} led)"
            return f"{head}: the first lead must be a trump"
        if phase is Phase.AUCTION:
            if a >= BID_BASE:
                if self.rules.bid_once and self._bidders >> seat & 1:
                    return f"{head}: each player bids only once (bid_once)"
                if self.rules.is_individual:
                    low = self.rules.individual_minimum(self.scores[seat])
                    return f"{head}: individual bids run from {low} to 13"
                if a not in self._t.rank:
                    return f"{head}: that is not a bid of these rules"
                if self._high >= 0:
                    return f"{head}: it must outrank {format_action(self._high)}"
            if a == PASS and not self.rules.is_individual:
                return f"{head}: the dealer must bid when the other three have passed"
            return f"{head}: the legal actions are {self._legal_text()}"
        return f"{head}: the legal actions are {self._legal_text()}"

    def _legal_text(self) -> str:
        ids = self.legal_action_ids()
        shown = ", ".join(format_action(a) for a in ids[:12])
        return shown + (", ..." if len(ids) > 12 else "")

    def push_unchecked(self, a: int) -> None:
        """Take action id ``a`` without checking it (search and playouts only).

        An illegal id here corrupts the deal; use :meth:`push` for anything
        that did not come from :meth:`legal_action_ids`.
        """
        seat = self._to_act
        if a < 52:
            self._play_card(seat, a)
            return
        self._history.append(a)
        self._actors.append(seat)
        self._apply(seat, a)

    def _apply(self, seat: int, a: int) -> None:
        """Take the action ``a`` (not a card) for ``seat``."""
        phase = self._phase
        if phase is Phase.AUCTION:
            if self.rules.is_individual:
                self._individual_bid(seat, a)
            else:
                self._auction_action(seat, a)
        elif phase is Phase.TRUMP:
            self._trump = a - TRUMP_BASE
            self._start_play()
        elif phase is Phase.RAISE:
            if a == RAISE:
                self._multiplier = self.rules.double_factor
                self._raised = True
            self._after_raise()

    def _auction_action(self, seat: int, a: int) -> None:
        bit = 1 << seat
        self._acted |= bit
        if a in (PASS, DOUBLE):
            self._out |= bit
            if a == DOUBLE:
                self._doubler = seat
        elif a == REDEAL:
            self._throw_in(ThrowIn.WEAK_HAND)
            return
        else:
            self._high = a
            self._high_seat = seat
            self._bidders |= bit
            self._doubler = -1
            self._nbids += 1
        if self._high >= 0 and self._out | (1 << self._high_seat) == 15:
            self._end_auction()
        elif self._out == 15:
            self._throw_in(ThrowIn.ALL_PASS)
        else:
            nxt = (seat + 1) & 3
            while self._out >> nxt & 1:
                nxt = (nxt + 1) & 3
            self._to_act = nxt

    def _individual_bid(self, seat: int, a: int) -> None:
        self._acted |= 1 << seat
        if a == REDEAL:
            self._throw_in(ThrowIn.WEAK_HAND)
            return
        self._ibids[seat] = self._level_of(a)
        if self._acted != 15:
            self._to_act = (seat + 1) & 3
            return
        if sum(self._ibids) < self.rules.total_minimum(max(self.scores)):
            self._throw_in(ThrowIn.LOW_TOTAL)
            return
        assert self.rules.fixed_trump is not None
        self._trump = self.rules.fixed_trump
        self._start_play()

    def _throw_in(self, reason: str) -> None:
        self._thrown = reason
        self._phase = Phase.THROWN_IN
        self._to_act = -1

    def _end_auction(self) -> None:
        self._declarer = self._high_seat
        self._strain = (self._high - BID_BASE) % 6
        if self._doubler >= 0:
            self._multiplier = self.rules.double_factor
        if self.rules.doubling is Doubling.RAISE and self._nbids == 1:
            self._phase = Phase.RAISE
            self._to_act = self._declarer
            return
        self._after_raise()

    def _after_raise(self) -> None:
        strain = self._strain
        if strain < 4:
            self._trump = strain
        elif strain == Strain.NO_TRUMP:
            self._trump = -1
        elif self.rules.fixed_trump is not None:
            self._trump = self.rules.fixed_trump
        else:
            self._phase = Phase.TRUMP
            self._to_act = self._declarer
            return
        self._start_play()

    def _start_play(self) -> None:
        self._phase = Phase.PLAY
        self._leader = self._leader_of_trick(0)
        self._to_act = self._leader

    def _play_card(self, seat: int, card: int) -> None:
        self._hands[seat] ^= 1 << card
        played = self._played
        played.append(card)
        if len(played) & 3:
            self._to_act = (seat + 1) & 3
            return
        self._end_trick()

    def _end_trick(self) -> None:
        played = self._played
        c0, c1, c2, c3 = played[-4:]
        trump = self._trump
        best = c0
        suit = c0 // 13
        index = 0
        if c1 // 13 == suit:
            if c1 > best:
                best, index = c1, 1
        elif c1 // 13 == trump:
            best, suit, index = c1, trump, 1
        if c2 // 13 == suit:
            if c2 > best:
                best, index = c2, 2
        elif c2 // 13 == trump:
            best, suit, index = c2, trump, 2
        if c3 // 13 == suit:
            if c3 > best:
                index = 3
        elif c3 // 13 == trump:
            index = 3
        winner = (self._leader + index) & 3
        self._winners.append(winner)
        self._tricks[winner] += 1
        self._leader = winner
        if len(played) == 52:
            self._phase = Phase.SCORED
            self._to_act = -1  # the result is scored when first asked for
        else:
            self._to_act = winner

    def playout(self, rng: random.Random) -> None:
        """Finish the deal with uniformly random legal actions (the bots' fast path).

        The auction and the trump choice go through :meth:`push_unchecked`; the
        card play runs in one tight loop over ints. ``pop`` works afterwards.
        """
        rand = rng.random
        while self._to_act >= 0 and self._phase is not _PLAY:
            ids = self.legal_action_ids()
            self.push_unchecked(ids[int(rand() * len(ids))])
        if self._to_act < 0:
            return
        cards = _suit_cards()
        c0, c1, c2, c3 = cards
        hands = self._hands
        played = self._played
        winners = self._winners
        tricks = self._tricks
        trump = self._trump
        first_trump = self.rules.first_lead_trump and trump >= 0
        seat = self._to_act
        total = len(played)
        n = total & 3
        best = best_seat = lead = 0
        if n:
            # Resume a trick under way: find its best card so far.
            lead = played[-n] // 13
            best = played[-n]
            best_seat = self._leader
            for i in range(1, n):
                card = played[-n + i]
                suit = card // 13
                if (suit == best // 13 and card > best) or (suit == trump and best // 13 != trump):
                    best = card
                    best_seat = (self._leader + i) & 3
        while total < 52:
            hand = hands[seat]
            legal: tuple[int, ...] = ()
            if n:
                legal = cards[lead][hand >> _SHIFTS[lead] & 0x1FFF]
            elif first_trump and not total:
                legal = cards[trump][hand >> _SHIFTS[trump] & 0x1FFF]
            if not legal:
                legal = (
                    c0[hand & 0x1FFF]
                    + c1[hand >> 13 & 0x1FFF]
                    + c2[hand >> 26 & 0x1FFF]
                    + c3[hand >> 39]
                )
            card = legal[int(rand() * len(legal))]
            hands[seat] = hand ^ (1 << card)
            played.append(card)
            total += 1
            if not n:
                lead = card // 13
                best = card
                best_seat = seat
            elif card // 13 == best // 13:
                if card > best:
                    best = card
                    best_seat = seat
            elif card // 13 == trump:
                best = card
                best_seat = seat
            n += 1
            if n == 4:
                winners.append(best_seat)
                tricks[best_seat] += 1
                seat = best_seat
                n = 0
            else:
                seat = (seat + 1) & 3
        self._leader = seat
        self._phase = Phase.SCORED
        self._to_act = -1

    def pop(self) -> Action:
        """Take back the last action and return it.

        :raises IndexError: when no action has been taken.
        """
        played = self._played
        if played:
            a = played.pop()
            if len(played) & 3 == 3:
                # This card ended a trick: undo its winner; its leader leads again.
                winner = self._winners.pop()
                self._tricks[winner] -= 1
                self._leader = self._leader_of_trick(len(self._winners))
                seat = (self._leader + 3) & 3
                self._phase = Phase.PLAY
                self._result = None
            else:
                seat = (self._to_act + 3) & 3
            self._hands[seat] |= 1 << a
            self._to_act = seat
        elif not self._history:
            raise IndexError("pop from a deal with no actions")
        else:
            # The auction is short and rarely taken back: replay it rather than
            # save its state before every bid.
            a = self._history.pop()
            self._actors.pop()
            self._start_auction()
            for seat, action in zip(self._actors, self._history, strict=True):
                self._apply(seat, action)
        # Cut the views' caches back: the next push may differ from the one undone.
        seen, done = self._seen
        n = len(self._history) + len(played)
        if len(seen) > n or len(done) > len(self._winners):
            self._seen = (seen[:n], done[: len(self._winners)])
        return action_from_id(a)

    # -- scoring ---------------------------------------------------------------------

    def _score(self) -> DealResult:
        rules = self.rules
        t = self._tricks
        all13: Team | None = None
        if t[0] + t[2] == 13:
            all13 = Team.NS
        elif t[1] + t[3] == 13:
            all13 = Team.EW
        if rules.is_individual:
            bids = self._ibids
            sp = score_individual(rules, bids, t, self.scores)
            return DealResult((sp[0] + sp[2], sp[1] + sp[3]), sp, None, all13, False)
        d = self._declarer
        taken_by = self._card_points() if rules.count is Count.CARD_POINTS else t
        taken = taken_by[d] + taken_by[d ^ 2]
        against = taken_by[d ^ 1] + taken_by[d ^ 3]
        bid = self._level_of(self._high)
        decl, defs = score_contract(rules, bid, taken, against, self._multiplier)
        team = d & 1
        points = (decl, defs) if team == 0 else (defs, decl)
        bid13 = rules.count is Count.TRICKS and bid == 13
        return DealResult(points, None, taken >= bid, all13, bid13)

    # -- views -----------------------------------------------------------------------

    def view(self, seat: Seat | int) -> View:
        """What ``seat`` may know: its own cards and everything public."""
        from tarneeb.view import View

        return View.of(self, Seat(seat))


class LegalActions:
    """The legal actions of a deal, computed when asked (python-chess style)."""

    __slots__ = ("_deal",)

    def __init__(self, deal: Deal) -> None:
        self._deal = deal

    def ids(self) -> tuple[int, ...]:
        return self._deal.legal_action_ids()

    def __iter__(self) -> Iterator[Action]:
        return (action_from_id(a) for a in self._deal.legal_action_ids())

    def __len__(self) -> int:
        if self._deal.phase is Phase.PLAY:
            return self._deal.legal_card_mask().bit_count()
        return len(self._deal.legal_action_ids())

    def __bool__(self) -> bool:
        return len(self) > 0

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, (int, str, Bid)) and not hasattr(action, "id"):
            return False
        return self._deal.is_legal(action)  # type: ignore[arg-type]

    @overload
    def __getitem__(self, index: int) -> Action: ...
    @overload
    def __getitem__(self, index: slice) -> list[Action]: ...
    def __getitem__(self, index: int | slice) -> Action | list[Action]:
        ids = self._deal.legal_action_ids()
        if isinstance(index, slice):
            return [action_from_id(a) for a in ids[index]]
        return action_from_id(ids[index])

    def __repr__(self) -> str:
        return f"<LegalActions ({', '.join(format_action(a) for a in self.ids())})>"


def _hand_mask(hand: int | CardSet | str) -> int:
    if isinstance(hand, CardSet):
        return hand.mask
    if isinstance(hand, str):
        return CardSet.parse(hand).mask
    if isinstance(hand, int) and 0 <= hand <= FULL_MASK:
        return hand
    raise InvalidActionError(f"{hand!r} is not a hand")
